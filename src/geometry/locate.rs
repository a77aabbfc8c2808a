//! The world-to-grid direction of [`Layout`]: which piece of a level's plan a world point
//! lies in (a cell, a seam or a pillar), which slot that is, which slot a point is nearest
//! to, and which level a height is on. The grid-to-world direction is in `layout.rs`; both
//! read the same polygons, so a point maps back to the piece whose polygon holds it.

use glam::DVec2;

use super::Layout;
use crate::grid::{ConnectorWall, Dims, Direction, EdgeId, PillarId, Slot};

/// How far outside every piece (metres) a point may lie and still be placed: points on a
/// shared edge, computed in floating point, may miss both pieces by a rounding error.
const PLACE_TOLERANCE: f64 = 1e-9;

/// A height this close below a level's floor (a fraction of the level height) is on that
/// level: a floor at `L * H` computed in floating point may fall just short of `L`.
const LEVEL_TOLERANCE: f64 = 1e-6;

/// What a point of a level's plan lies in: one of the five kinds of piece that tile the
/// plane (docs/design.md, "World space"). The pieces are those of [`Layout::octagon`],
/// [`Layout::connector`], [`Layout::long_seam`], [`Layout::diagonal_seam`] and
/// [`Layout::pillar`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// An octagon or a connector, named by its slot.
    Cell(Slot),
    /// A seam, named by its edge: a long seam by its Void slot ([`EdgeId::Long`]), a
    /// diagonal seam by its connector and that connector's wall ([`EdgeId::Short`]).
    Seam(EdgeId),
    /// The pillar at one tip of a connector (see [`Layout::pillar`]).
    Pillar(PillarId),
}

impl Place {
    /// The slot this place is: the cell's slot, or a long seam's Void slot. `None` for a
    /// diagonal seam and a pillar, which lie between slots.
    #[must_use]
    pub fn slot(self) -> Option<Slot> {
        match self {
            Place::Cell(slot) | Place::Seam(EdgeId::Long(slot)) => Some(slot),
            Place::Seam(EdgeId::Short(..)) | Place::Pillar(..) => None,
        }
    }
}

/// How deep `p` lies inside the convex, positively wound `polygon` (metres): its smallest
/// signed distance to an edge line, negative outside.
fn depth(polygon: &[DVec2], p: DVec2) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            (b - a).perp_dot(p - a) / (b - a).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The direction whose slot offset is `(d_row, d_col)` (each -1 or 1 here, or one of them 0).
fn direction_of(d_row: i32, d_col: i32) -> Direction {
    Direction::from_unit(d_row, d_col).expect("invariant: a unit offset")
}

impl Layout {
    /// The piece of the plan that holds `p` (world `(x, z)` metres): a cell, a seam or a
    /// pillar. A point on an edge two pieces share is placed in one of them (the one it lies
    /// deeper in after rounding; on an exact tie the first of octagon, connector, long seam,
    /// diagonal seam, pillar). `None` north or west of the grid (where no slot has a negative
    /// row or column) and for a non-finite point. With tight spacing there are no seams or
    /// pillars, so every point is in a cell.
    ///
    /// The layout knows no grid size: a point east or south of the grid is placed in the
    /// piece that would stand there; check the answer with [`Dims::contains`].
    ///
    /// # Panics
    ///
    /// Never: the `expect`s restate that the candidate seams and pillars are built from a
    /// Void slot, a connector and a diagonal or cardinal side chosen here by construction.
    #[must_use]
    pub fn place_at(&self, p: DVec2) -> Option<Place> {
        if !p.is_finite() {
            return None;
        }
        let (oct, (dr, dc), conn) = self.quadrant(p);
        // The deepest candidate wins; on a tie the earlier one (cells before seams before
        // pillars).
        let mut best: Option<(Place, f64)> = None;
        let mut consider = |place: Place, polygon: &[DVec2]| {
            let d = depth(polygon, p);
            if best.is_none_or(|(_, b)| d > b) {
                best = Some((place, d));
            }
        };
        consider(Place::Cell(oct), &self.octagon(oct));
        if let Some(conn) = conn {
            consider(Place::Cell(conn), &self.connector(conn));
        }
        if self.gap() > 0.0 {
            for void in [oct.offset(0, dc), oct.offset(dr, 0)].into_iter().flatten() {
                consider(
                    Place::Seam(EdgeId::Long(void)),
                    &self.long_seam(void).expect("invariant: a Void slot"),
                );
            }
            if let Some(conn) = conn {
                let wall = ConnectorWall::from_facing(direction_of(-dr, -dc)).expect("invariant: a diagonal");
                let seam = self.diagonal_seam(conn, wall).expect("invariant: a connector");
                consider(Place::Seam(EdgeId::Short(conn, wall)), &seam);
                for side in [direction_of(-dr, 0), direction_of(0, -dc)] {
                    let pillar = self.pillar(conn, side).expect("invariant: a cardinal side");
                    let id = PillarId::new(conn, side).expect("invariant: a connector and a cardinal side");
                    consider(Place::Pillar(id), &pillar);
                }
            }
        }
        best.filter(|&(_, d)| d >= -PLACE_TOLERANCE).map(|(place, _)| place)
    }

    /// The nearest octagon to the finite point `p`, and the quadrant about it that holds
    /// `p` (its row and column offsets, each -1 or 1) with the connector at the quadrant's
    /// far corner (`None` off the grid's north or west). That quadrant, a square of side
    /// `s`, is tiled by a quarter of the octagon, halves of two long seams, a quarter of the
    /// connector, one diagonal seam and halves of two pillars.
    fn quadrant(&self, p: DVec2) -> (Slot, (i32, i32), Option<Slot>) {
        let period = 2.0 * self.spacing();
        let half_index = |v: f64| (v / period).round().clamp(0.0, f64::from(u32::MAX / 2 - 1)) as u32;
        let oct = Slot::new(2 * half_index(p.y), 2 * half_index(p.x));
        let centre = self.center(oct);
        let (dr, dc) = (if p.y < centre.y { -1 } else { 1 }, if p.x < centre.x { -1 } else { 1 });
        (oct, (dr, dc), oct.offset(dr, dc))
    }

    /// The cell (octagon or connector) that holds `p` (world `(x, z)` metres) more deeply
    /// than `depth` metres from every edge of its polygon; `None` when none does (in or
    /// near a seam or a pillar, or not finite). Cheaper than [`Layout::place_at`]: it asks
    /// only the two cells of `p`'s quadrant. Check the slot with [`Dims::contains`].
    #[must_use]
    pub fn cell_deeper_than(&self, p: DVec2, min_depth: f64) -> Option<Slot> {
        if !p.is_finite() {
            return None;
        }
        let (oct, _, conn) = self.quadrant(p);
        if depth(&self.octagon(oct), p) > min_depth {
            return Some(oct);
        }
        conn.filter(|&c| depth(&self.connector(c), p) > min_depth)
    }

    /// The slot whose piece holds `p` (world `(x, z)` metres): a cell's slot, or the Void
    /// slot of a long seam. `None` in a diagonal seam or a pillar (they lie between slots)
    /// and where [`Layout::place_at`] finds nothing. Check the slot with [`Dims::contains`].
    #[must_use]
    pub fn slot_at(&self, p: DVec2) -> Option<Slot> {
        self.place_at(p)?.slot()
    }

    /// The slot of `dims` whose centre is nearest to `p` along each axis:
    /// `(round(z / s), round(x / s))`, clamped into the grid. A bucket key for spatial
    /// indexes (any slot kind); the piece that holds `p` is [`Layout::place_at`]'s answer.
    #[must_use]
    pub fn nearest_slot(&self, p: DVec2, dims: Dims) -> Slot {
        let axis = |v: f64, count: u32| (v / self.spacing()).round().clamp(0.0, f64::from(count - 1)) as u32;
        Slot::new(axis(p.y, dims.rows()), axis(p.x, dims.cols()))
    }

    /// The level that world height `y` (metres) is on: the one whose floor is at or below
    /// `y` and whose next floor is above it, `floor(y / H)`. A height within a millionth of
    /// a level height below a floor counts as on that floor. `None` below level 0's floor,
    /// above level `u16::MAX` and for a non-finite height.
    #[must_use]
    pub fn level_at(&self, y: f64) -> Option<u16> {
        let level = (y / self.proportions().layer_height + LEVEL_TOLERANCE).floor();
        (0.0..=f64::from(u16::MAX)).contains(&level).then_some(level as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Proportions;

    #[test]
    fn depth_is_signed_distance() {
        let sq = [DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(2.0, 2.0), DVec2::new(0.0, 2.0)];
        assert!((depth(&sq, DVec2::new(1.0, 0.5)) - 0.5).abs() < 1e-12);
        assert!((depth(&sq, DVec2::new(3.0, 1.0)) + 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_cell_deeper_than_a_margin_is_the_cell_place_at_finds() {
        let l = Layout::new(Proportions::default()).unwrap();
        let step = l.spacing() / 37.0;
        let (mut cells, mut elsewhere) = (0, 0);
        for i in 0..200 {
            for j in 0..200 {
                let p = DVec2::new(f64::from(i) * step + 0.013, f64::from(j) * step + 0.007);
                let deep = l.cell_deeper_than(p, 1e-6);
                match l.place_at(p) {
                    Some(Place::Cell(slot)) => {
                        let polygon = l.cell_polygon(slot).unwrap();
                        let want = (depth(&polygon, p) > 1e-6).then_some(slot);
                        assert_eq!(deep, want, "{p}");
                        cells += 1;
                    }
                    _ => {
                        assert_eq!(deep, None, "{p} is in a seam or a pillar");
                        elsewhere += 1;
                    }
                }
            }
        }
        assert!(cells > 20_000 && elsewhere > 1_000, "{cells} in cells, {elsewhere} elsewhere");
        assert_eq!(l.cell_deeper_than(DVec2::new(f64::NAN, 0.0), 0.0), None);
    }

    #[test]
    fn non_finite_points_and_heights_have_no_place() {
        let l = Layout::new(Proportions::default()).unwrap();
        assert_eq!(l.place_at(DVec2::new(f64::NAN, 1.0)), None);
        assert_eq!(l.level_at(f64::NAN), None);
        assert_eq!(l.level_at(f64::INFINITY), None);
    }
}
