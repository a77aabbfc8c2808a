//! `Proportions`: the few lengths a dungeon's world geometry is built from, and the lengths
//! derived from them (docs/design.md, "World space").

use serde::{Deserialize, Serialize};

/// How far apart neighbouring slots are in world space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Spacing {
    /// `s = (B + S) / 2`: octagons stand a seam gap `g` apart, with seams and pillars between.
    #[default]
    Octile,
    /// `s = B / 2`: octagons abut, seams and pillars vanish (`g = 0`).
    Tight,
}

/// World proportions of a dungeon, in metres. [`Proportions::validate`] holds every field
/// to the limits named by the associated constants (`Proportions::MAX_LAYER_HEIGHT`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proportions {
    /// Side `B` of the square an octagon is cut from (metres,
    /// [`Proportions::MIN_BASE`]..=[`Proportions::MAX_BASE`]).
    pub base: f64,
    /// Corner cut as a fraction of `base`
    /// ([`Proportions::MIN_CUT_RATIO`]..=[`Proportions::MAX_CUT_RATIO`]).
    pub cut_ratio: f64,
    /// Vertical distance `H` between levels (metres,
    /// [`Proportions::MIN_LAYER_HEIGHT`]..=[`Proportions::MAX_LAYER_HEIGHT`]).
    pub layer_height: f64,
    /// Floor-to-ceiling height inside a level (metres, at least
    /// [`Proportions::MIN_ROOM_HEIGHT`], below `layer_height`).
    pub room_height: f64,
    /// Octile (seams between cells) or tight (cells abut).
    #[serde(default)]
    pub spacing: Spacing,
    /// Width of the passage a door carves through its seam (metres, at least
    /// [`Proportions::MIN_DOOR_WIDTH`], narrower than the shorter cell edge).
    #[serde(default = "default_door_width")]
    pub door_width: f64,
    /// Height of the passage a door carves (metres, at least
    /// [`Proportions::MIN_DOOR_HEIGHT`], below `room_height`).
    #[serde(default = "default_door_height")]
    pub door_height: f64,
}

fn default_door_width() -> f64 {
    2.0
}

fn default_door_height() -> f64 {
    3.0
}

impl Default for Proportions {
    fn default() -> Self {
        Proportions {
            base: 12.8,
            cut_ratio: 0.20,
            layer_height: 12.0,
            room_height: 4.0,
            spacing: Spacing::Octile,
            door_width: default_door_width(),
            door_height: default_door_height(),
        }
    }
}

/// A proportion that cannot make a sound dungeon.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GeometryError {
    /// A field that is not finite, or out of its range (the reason names the limit).
    #[error("proportion `{field}` = {}: {reason}", show(*value))]
    InvalidProportion {
        /// Field name as in the file format.
        field: &'static str,
        /// The offending value.
        value: f64,
        /// What it must be, naming the limit it broke.
        reason: String,
    },
}

/// `value` as a person reads it: plain in the everyday range, in exponent form far outside
/// it (`1e300`, not three hundred digits).
fn show(value: f64) -> String {
    if value == 0.0 || (1e-4..1e9).contains(&value.abs()) { format!("{value}") } else { format!("{value:e}") }
}

/// One field's limits: the field, its value, its least value, and its greatest where it has
/// one (others are bounded by another field).
struct Limit {
    field: &'static str,
    value: f64,
    min: Bound,
    max: Option<Bound>,
}

/// One end of a field's range: the value, the name of its constant, and why it is there
/// (empty, or starting with `; `).
type Bound = (f64, &'static str, &'static str);

impl Proportions {
    /// Smallest `base` (metres): a door at least [`Proportions::MIN_DOOR_WIDTH`] wide must
    /// fit a short edge.
    pub const MIN_BASE: f64 = 1.0;
    /// Largest `base` (metres): keeps world coordinates of the largest grid well inside `f32`.
    pub const MAX_BASE: f64 = 100.0;
    /// Smallest `cut_ratio`: below it connectors and short edges become slivers.
    pub const MIN_CUT_RATIO: f64 = 0.05;
    /// Largest `cut_ratio`: above it long edges and long seams become slivers.
    pub const MAX_CUT_RATIO: f64 = 0.45;
    /// Lowest `layer_height` (metres): a room of [`Proportions::MIN_ROOM_HEIGHT`] and the
    /// rock above it.
    pub const MIN_LAYER_HEIGHT: f64 = 2.5;
    /// Largest `layer_height` (metres): a stair climbs a level in steps of at most
    /// [`crate::geometry::MAX_RISE`], so this bounds a stair at 400 steps.
    pub const MAX_LAYER_HEIGHT: f64 = 100.0;
    /// Lowest `room_height` (metres): a walker (eye 1.7 m) stands with clearance.
    pub const MIN_ROOM_HEIGHT: f64 = 2.0;
    /// Narrowest `door_width` (metres).
    pub const MIN_DOOR_WIDTH: f64 = 0.5;
    /// Lowest `door_height` (metres).
    pub const MIN_DOOR_HEIGHT: f64 = 1.0;
    /// Thinnest piece two proportions may leave between them (metres): the wall beside a
    /// door, the lintel over it, the rock between a ceiling and the next level's floor.
    pub const MIN_FEATURE: f64 = 0.01;

    /// The defaults with another cut ratio.
    #[must_use]
    pub fn with_cut_ratio(self, cut_ratio: f64) -> Self {
        Proportions { cut_ratio, ..self }
    }

    /// Each numeric field with its limits, in file order.
    fn limits(&self) -> [Limit; 6] {
        let limit = |field, value, min, max| Limit { field, value, min, max };
        let coordinates = "; world coordinates stay finite and precise as f32";
        let slivers = "; nearer 0 or 0.5 some edges become slivers";
        let steps = "; a stair climbs it in steps of at most 0.25 m, so at most 400 steps";
        [
            limit(
                "base",
                self.base,
                (Self::MIN_BASE, "MIN_BASE", ""),
                Some((Self::MAX_BASE, "MAX_BASE", coordinates)),
            ),
            limit(
                "cut_ratio",
                self.cut_ratio,
                (Self::MIN_CUT_RATIO, "MIN_CUT_RATIO", slivers),
                Some((Self::MAX_CUT_RATIO, "MAX_CUT_RATIO", slivers)),
            ),
            limit(
                "layer_height",
                self.layer_height,
                (Self::MIN_LAYER_HEIGHT, "MIN_LAYER_HEIGHT", ""),
                Some((Self::MAX_LAYER_HEIGHT, "MAX_LAYER_HEIGHT", steps)),
            ),
            limit("room_height", self.room_height, (Self::MIN_ROOM_HEIGHT, "MIN_ROOM_HEIGHT", ""), None),
            limit("door_width", self.door_width, (Self::MIN_DOOR_WIDTH, "MIN_DOOR_WIDTH", ""), None),
            limit("door_height", self.door_height, (Self::MIN_DOOR_HEIGHT, "MIN_DOOR_HEIGHT", ""), None),
        ]
    }

    /// Checks every field against its limits and the others; the first problem is returned.
    ///
    /// # Errors
    /// [`GeometryError::InvalidProportion`] naming the field, its value and the limit
    /// (`Proportions::MAX_LAYER_HEIGHT`, ...) it breaks.
    pub fn validate(&self) -> Result<(), GeometryError> {
        let bad = |field, value, reason| Err(GeometryError::InvalidProportion { field, value, reason });
        for Limit { field, value, min, max } in self.limits() {
            if !value.is_finite() {
                return bad(field, value, "must be a finite number".into());
            }
            let (limit, name, why) = min;
            if value < limit {
                return bad(
                    field,
                    value,
                    format!("must be at least {} (Proportions::{name}){why}", show(limit)),
                );
            }
            if let Some((limit, name, why)) = max.filter(|m| value > m.0) {
                return bad(
                    field,
                    value,
                    format!("must be at most {} (Proportions::{name}){why}", show(limit)),
                );
            }
        }
        let f = Self::MIN_FEATURE;
        if self.room_height > self.layer_height - f {
            let reason = format!(
                "must be at least {f} m (Proportions::MIN_FEATURE) below layer_height = {}",
                show(self.layer_height)
            );
            return bad("room_height", self.room_height, reason);
        }
        if self.door_height > self.room_height - f {
            let reason = format!(
                "must be at least {f} m (Proportions::MIN_FEATURE) below room_height = {}",
                show(self.room_height)
            );
            return bad("door_height", self.door_height, reason);
        }
        let edge = self.short_edge().min(self.long_edge());
        if self.door_width > edge - 2.0 * f {
            let reason = format!(
                "must leave at least {f} m (Proportions::MIN_FEATURE) of wall each side on the shorter cell edge, {} m",
                show(edge)
            );
            return bad("door_width", self.door_width, reason);
        }
        Ok(())
    }

    /// Corner cut `k = r * B` (metres).
    #[must_use]
    pub fn cut(&self) -> f64 {
        self.cut_ratio * self.base
    }

    /// Half the base, `h = B / 2` (metres).
    #[must_use]
    pub fn half_base(&self) -> f64 {
        self.base / 2.0
    }

    /// Long edge `B - 2k` (metres).
    #[must_use]
    pub fn long_edge(&self) -> f64 {
        self.base - 2.0 * self.cut()
    }

    /// Short edge `S = k * sqrt 2` (metres).
    #[must_use]
    pub fn short_edge(&self) -> f64 {
        self.cut() * std::f64::consts::SQRT_2
    }

    /// Side of a connector diamond, equal to the short edge (metres).
    #[must_use]
    pub fn connector_side(&self) -> f64 {
        self.short_edge()
    }

    /// Centre-to-centre distance `s` of neighbouring slots (metres).
    #[must_use]
    pub fn cell_spacing(&self) -> f64 {
        match self.spacing {
            Spacing::Octile => (self.base + self.short_edge()) / 2.0,
            Spacing::Tight => self.base / 2.0,
        }
    }

    /// Seam gap `g = 2s - B` between facing long edges (metres; 0 when tight).
    #[must_use]
    pub fn seam_gap(&self) -> f64 {
        match self.spacing {
            Spacing::Octile => 2.0 * self.cell_spacing() - self.base,
            Spacing::Tight => 0.0,
        }
    }

    /// Height of level `level`'s floor, `L * H` (metres).
    #[must_use]
    pub fn floor_y(&self, level: u16) -> f64 {
        f64::from(level) * self.layer_height
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_design() {
        let p = Proportions::default();
        p.validate().unwrap();
        assert!((p.cut() - 2.56).abs() < 1e-9);
        assert!((p.long_edge() - 7.68).abs() < 1e-9);
        assert!((p.short_edge() - 3.6204).abs() < 1e-4);
        assert!((p.cell_spacing() - 8.2102).abs() < 1e-4);
        assert!((p.seam_gap() - 3.6204).abs() < 1e-4);
    }

    /// The field each bad set of proportions is refused for.
    fn refused_field(p: &Proportions) -> &'static str {
        match p.validate() {
            Err(GeometryError::InvalidProportion { field, .. }) => field,
            Ok(()) => panic!("{p:?} was accepted"),
        }
    }

    #[test]
    fn validation_names_the_field() {
        let d = Proportions::default();
        let tiny = 1e-300;
        let cases = [
            (Proportions { base: f64::NAN, ..d }, "base"),
            (Proportions { base: -1.0, ..d }, "base"),
            (Proportions { base: 1e39, ..d }, "base"),
            (Proportions { cut_ratio: 0.5, ..d }, "cut_ratio"),
            (Proportions { cut_ratio: 0.0, ..d }, "cut_ratio"),
            (Proportions { cut_ratio: 0.4999999, ..d }, "cut_ratio"),
            (Proportions { room_height: 12.0, ..d }, "room_height"),
            (Proportions { room_height: 11.995, ..d }, "room_height"),
            (Proportions { room_height: 1.2, door_height: 1.0, ..d }, "room_height"),
            (Proportions { door_height: 4.5, ..d }, "door_height"),
            (Proportions { door_height: 0.5, ..d }, "door_height"),
            (Proportions { door_width: 5.0, ..d }, "door_width"),
            (Proportions { door_width: 0.1, ..d }, "door_width"),
            (Proportions { layer_height: f64::INFINITY, ..d }, "layer_height"),
            (Proportions { layer_height: 1e17, ..d }, "layer_height"),
            (Proportions { layer_height: 1e8, ..d }, "layer_height"),
            (Proportions { layer_height: 100.5, ..d }, "layer_height"),
            (
                Proportions {
                    base: tiny,
                    cut_ratio: tiny,
                    layer_height: tiny,
                    room_height: tiny,
                    door_width: tiny,
                    door_height: tiny,
                    ..d
                },
                "base",
            ),
        ];
        for (p, field) in cases {
            assert_eq!(refused_field(&p), field, "{p:?}");
        }
    }

    /// A cut ratio of 0.45 on the smallest base leaves a long edge shorter than the short
    /// one: the door must fit the shorter.
    #[test]
    fn door_fits_the_shorter_edge() {
        let p = Proportions { base: 8.0, cut_ratio: 0.45, door_width: 0.5, ..Default::default() };
        assert!(p.long_edge() < p.short_edge());
        p.validate().unwrap();
        let wide = Proportions { door_width: p.long_edge(), ..p };
        assert_eq!(refused_field(&wide), "door_width");
    }

    #[test]
    fn limits_are_inclusive_and_named() {
        let d = Proportions::default();
        let edge = [
            Proportions { base: Proportions::MAX_BASE, ..d },
            Proportions { layer_height: Proportions::MAX_LAYER_HEIGHT, ..d },
            Proportions { cut_ratio: Proportions::MIN_CUT_RATIO, base: 100.0, ..d },
            Proportions { cut_ratio: Proportions::MAX_CUT_RATIO, door_width: 1.0, ..d },
            Proportions {
                room_height: Proportions::MIN_ROOM_HEIGHT,
                door_height: Proportions::MIN_DOOR_HEIGHT,
                layer_height: Proportions::MIN_LAYER_HEIGHT,
                ..d
            },
        ];
        for p in edge {
            p.validate().unwrap_or_else(|e| panic!("{p:?}: {e}"));
        }
        let message = |p: Proportions| p.validate().unwrap_err().to_string();
        let high = message(Proportions { layer_height: 1e17, ..d });
        assert!(high.contains("layer_height") && high.contains("1e17"), "{high}");
        assert!(high.contains("MAX_LAYER_HEIGHT") && high.contains("at most 100"), "{high}");
        let thin = message(Proportions { door_width: 3.61, ..d });
        assert!(thin.contains("MIN_FEATURE"), "{thin}");
    }

    #[test]
    fn unknown_fields_are_refused() {
        let mut json = serde_json::to_value(Proportions::default()).unwrap();
        let back: Proportions = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, Proportions::default());
        json["colour"] = serde_json::json!("red");
        let err = serde_json::from_value::<Proportions>(json).unwrap_err().to_string();
        assert!(err.contains("unknown field `colour`"), "{err}");
    }

    #[test]
    fn tight_spacing_has_no_gap() {
        let p = Proportions { spacing: Spacing::Tight, ..Default::default() };
        assert_eq!(p.seam_gap(), 0.0);
        assert_eq!(p.cell_spacing(), 6.4);
    }
}
