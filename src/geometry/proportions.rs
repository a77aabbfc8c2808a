//! `Proportions`: the few lengths a dungeon's world geometry is built from, and the lengths
//! derived from them (DESIGN.md section 2).

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

/// World proportions of a dungeon, in metres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Proportions {
    /// Side `B` of the square an octagon is cut from (metres).
    pub base: f64,
    /// Corner cut as a fraction of `base`, strictly between 0 and 0.5.
    pub cut_ratio: f64,
    /// Vertical distance `H` between levels (metres).
    pub layer_height: f64,
    /// Floor-to-ceiling height inside a level (metres, below `layer_height`).
    pub room_height: f64,
    /// Octile (seams between cells) or tight (cells abut).
    #[serde(default)]
    pub spacing: Spacing,
    /// Width of the passage a door carves through its seam (metres).
    #[serde(default = "default_door_width")]
    pub door_width: f64,
    /// Height of the passage a door carves (metres, below `room_height`).
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
pub enum GeometryError {
    /// A field that is not finite, not positive, or out of its range.
    #[error("proportion `{field}` = {value}: {reason}")]
    InvalidProportion {
        /// Field name as in the file format.
        field: &'static str,
        /// The offending value.
        value: f64,
        /// What it must be.
        reason: &'static str,
    },
}

impl Proportions {
    /// The defaults with another cut ratio.
    #[must_use]
    pub fn with_cut_ratio(self, cut_ratio: f64) -> Self {
        Proportions { cut_ratio, ..self }
    }

    /// Checks every field; the first problem is returned.
    pub fn validate(&self) -> Result<(), GeometryError> {
        let bad = |field, value, reason| Err(GeometryError::InvalidProportion { field, value, reason });
        let fields = [
            ("base", self.base),
            ("cut_ratio", self.cut_ratio),
            ("layer_height", self.layer_height),
            ("room_height", self.room_height),
            ("door_width", self.door_width),
            ("door_height", self.door_height),
        ];
        for (field, value) in fields {
            if !value.is_finite() || value <= 0.0 {
                return bad(field, value, "must be finite and positive");
            }
        }
        if self.cut_ratio >= 0.5 {
            return bad("cut_ratio", self.cut_ratio, "must be strictly between 0 and 0.5");
        }
        if self.room_height >= self.layer_height {
            return bad("room_height", self.room_height, "must be below layer_height");
        }
        if self.door_height >= self.room_height {
            return bad("door_height", self.door_height, "must be below room_height");
        }
        if self.door_width >= self.short_edge() {
            return bad("door_width", self.door_width, "must be narrower than the short edge");
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

    #[test]
    fn validation_names_the_field() {
        let cases = [
            Proportions { base: f64::NAN, ..Default::default() },
            Proportions { base: -1.0, ..Default::default() },
            Proportions { cut_ratio: 0.5, ..Default::default() },
            Proportions { cut_ratio: 0.0, ..Default::default() },
            Proportions { room_height: 12.0, ..Default::default() },
            Proportions { door_height: 4.5, ..Default::default() },
            Proportions { door_width: 5.0, ..Default::default() },
            Proportions { layer_height: f64::INFINITY, ..Default::default() },
        ];
        let fields = [
            "base",
            "base",
            "cut_ratio",
            "cut_ratio",
            "room_height",
            "door_height",
            "door_width",
            "layer_height",
        ];
        for (p, field) in cases.iter().zip(fields) {
            match p.validate() {
                Err(GeometryError::InvalidProportion { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{p:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn tight_spacing_has_no_gap() {
        let p = Proportions { spacing: Spacing::Tight, ..Default::default() };
        assert_eq!(p.seam_gap(), 0.0);
        assert_eq!(p.cell_spacing(), 6.4);
    }
}
