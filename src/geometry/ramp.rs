//! The plan of a straight ramp (docs/design.md, "Columns across storeys"): a sloped floor
//! over a row of octagons that rises one storey, from the wall of the octagon at its foot
//! to the far wall of its last octagon, where the floor of the storey above begins.

use glam::{DVec2, DVec3};

use super::{Layout, Proportions};
use crate::grid::{Direction, Slot};

/// The steepest a ramp may be: rise over run, 1 : 2.5 (12 m over 30 m).
pub const MAX_RAMP_SLOPE: f64 = 0.4;

/// How many octagons a ramp runs over at `proportions`: the fewest whose run (one octagon
/// and one seam each, `2 * cell_spacing` metres) keeps the slope of one storey within
/// [`MAX_RAMP_SLOPE`]. Two with the default proportions (12 m over 32.84 m, 1 : 2.74); at
/// least 1.
#[must_use]
pub fn ramp_run_cells(proportions: &Proportions) -> u32 {
    let per_cell = 2.0 * proportions.cell_spacing() * MAX_RAMP_SLOPE;
    let cells = (proportions.layer_height / per_cell - 1e-9).ceil();
    if cells.is_finite() && cells >= 1.0 { cells.min(f64::from(u32::MAX)) as u32 } else { 1 }
}

/// A ramp in plan, world `(x, z)` metres: the convex pieces it covers (the seam beyond its
/// foot, then each octagon it runs over and the seam after it, the last octagon without
/// one) and its slope, a plane rising `rise` metres over `run` metres along `along` from
/// the foot's wall.
#[derive(Debug, Clone, PartialEq)]
pub struct RampPlan {
    /// The pieces it covers, each convex and positively wound, from the foot up.
    pub parts: Vec<Vec<DVec2>>,
    /// The middle of the foot octagon's wall it starts from (height 0).
    pub start: DVec2,
    /// Unit direction it rises along (a long edge's normal: north, east, south or west).
    pub along: DVec2,
    /// Horizontal length from its foot's wall to its top edge (metres).
    pub run: f64,
    /// How much it rises: one storey, `layer_height` (metres).
    pub rise: f64,
    /// Its top edge, where it meets the floor of the storey above: the far wall of its last
    /// octagon, as that octagon's wall runs.
    pub top: [DVec2; 2],
}

impl RampPlan {
    /// The plan of a ramp whose foot is the octagon `foot`, rising through its wall `dir`
    /// (a long edge) over `cells` octagons. `None` when `foot` is not an octagon slot, `dir`
    /// is diagonal, `cells` is 0 or the ramp would leave the slot coordinates.
    #[must_use]
    pub fn new(layout: &Layout, foot: Slot, dir: Direction, cells: u32) -> Option<RampPlan> {
        if foot.kind() != crate::grid::SlotKind::Octagon || dir.is_diagonal() || cells == 0 {
            return None;
        }
        let (dr, dc) = dir.unit();
        let slot_at = |k: u32| {
            let k = i64::from(k);
            let row = i64::from(foot.row) + i64::from(dr) * k;
            let col = i64::from(foot.col) + i64::from(dc) * k;
            Some(Slot::new(u32::try_from(row).ok()?, u32::try_from(col).ok()?))
        };
        let mut parts = Vec::new();
        for k in 0..cells {
            parts.push(layout.long_seam(slot_at(2 * k + 1)?)?.to_vec());
            parts.push(layout.octagon(slot_at(2 * k + 2)?).to_vec());
        }
        let [a, b] = layout.wall(foot, dir)?;
        let top = layout.wall(slot_at(2 * cells)?, dir)?;
        let start = (a + b) / 2.0;
        let along = (layout.center(slot_at(2)?) - layout.center(foot)).normalize();
        let run = ((top[0] + top[1]) / 2.0 - start).dot(along);
        Some(RampPlan { parts, start, along, run, rise: layout.proportions().layer_height, top })
    }

    /// Rise over run.
    #[must_use]
    pub fn slope(&self) -> f64 {
        self.rise / self.run
    }

    /// Height of the sloped plane over `p` (metres above the foot's floor), clamped to the
    /// ramp's ends, whether or not `p` is on the ramp.
    #[must_use]
    pub fn plane_height(&self, p: DVec2) -> f64 {
        ((p - self.start).dot(self.along) / self.run).clamp(0.0, 1.0) * self.rise
    }

    /// Height of the ramp's surface over `p` (metres above the foot's floor), `None` off the
    /// ramp (outside every piece it covers, boundary included).
    #[must_use]
    pub fn height_at(&self, p: DVec2) -> Option<f64> {
        self.parts.iter().any(|part| convex_contains(part, p)).then(|| self.plane_height(p))
    }

    /// The sloped top as triangles, level-local (the foot's floor at height 0): each piece
    /// fanned from its own outline points, wound as the pieces are (counter-clockwise in
    /// the plan's `(x, z)`). What the solid's top is made of and what one walks on.
    #[must_use]
    pub fn surface(&self) -> Vec<[DVec3; 3]> {
        let lift = |p: DVec2| DVec3::new(p.x, self.plane_height(p), p.y);
        self.parts
            .iter()
            .flat_map(|part| {
                (1..part.len().saturating_sub(1)).map(move |i| [part[0], part[i], part[i + 1]].map(lift))
            })
            .collect()
    }

    /// Whether `p` is on the ramp in plan (inside a piece, boundary included).
    #[must_use]
    pub fn covers(&self, p: DVec2) -> bool {
        self.parts.iter().any(|part| convex_contains(part, p))
    }
}

/// Whether the convex, positively wound `polygon` holds `p` (boundary included, 1e-9).
fn convex_contains(polygon: &[DVec2], p: DVec2) -> bool {
    let n = polygon.len();
    (0..n).all(|i| (polygon[(i + 1) % n] - polygon[i]).perp_dot(p - polygon[i]) >= -1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_ramp_runs_two_octagons_within_the_slope() {
        let p = Proportions::default();
        assert_eq!(ramp_run_cells(&p), 2);
        let layout = Layout::new(p).unwrap();
        let plan = RampPlan::new(&layout, Slot::new(0, 0), Direction::E, 2).unwrap();
        // From the foot's east wall to the second octagon's: two octagons and two seams.
        assert!((plan.run - 4.0 * p.cell_spacing()).abs() < 1e-9, "{}", plan.run);
        assert!(plan.slope() <= MAX_RAMP_SLOPE, "{}", plan.slope());
        assert_eq!(plan.parts.len(), 4);
        let foot_wall = layout.wall(Slot::new(0, 0), Direction::E).unwrap();
        assert_eq!(plan.height_at(foot_wall[0]), Some(0.0));
        let c = layout.center(Slot::new(0, 2));
        assert!((plan.height_at(c).unwrap() - plan.rise * (c.x - plan.start.x) / plan.run).abs() < 1e-9);
        let top = (plan.top[0] + plan.top[1]) / 2.0;
        assert!((plan.height_at(top).unwrap() - 12.0).abs() < 1e-9);
        assert_eq!(plan.height_at(layout.center(Slot::new(0, 0))), None, "the foot is level floor");
        assert!(RampPlan::new(&layout, Slot::new(0, 0), Direction::W, 2).is_none(), "off the grid");
        assert!(RampPlan::new(&layout, Slot::new(0, 0), Direction::NE, 2).is_none());
        // A taller storey needs a longer run.
        let tall = Proportions { layer_height: 15.0, ..p };
        assert_eq!(ramp_run_cells(&tall), 3);
    }
}
