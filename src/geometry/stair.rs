//! The plan of a spiral stair (docs/design.md, "Stairs"): where its column, steps and
//! landing are in world `(x, z)` metres. The mesh builder extrudes this plan into the stair
//! solid and the walk model stands on it, so both read the same numbers.
//!
//! Angles here are *plan angles*: `atan2(z, x)` about the octagon's centre, in radians. With
//! north up (`-z`), a growing plan angle turns clockwise seen from above.

use std::f64::consts::TAU;

use glam::DVec2;

use super::{Layout, Proportions};
use crate::grid::{Direction, Slot, SlotKind};

/// Highest rise of one step (metres).
pub const MAX_RISE: f64 = 0.25;

/// Column radius as a fraction of the octagon's inradius.
pub const COLUMN_FRACTION: f64 = 0.1;

/// Outer radius of the steps as a fraction of the inradius (the rest is a walkway).
pub const STEPS_FRACTION: f64 = 0.8;

/// Radius of a stair's walking line as a fraction of the octagon base `B`. At `B / 4` it is
/// half the inradius wherever the long walls are the nearest (cut ratios up to
/// `1 - 1 / sqrt 2`, every preset), and it stays on the steps at every valid cut ratio
/// (the steps reach `STEPS_FRACTION` of an inradius that is never below `B / (2 sqrt 2)`).
pub const WALK_FRACTION: f64 = 0.25;

/// The line one walks up a spiral stair: a helix of one turn at a fixed radius about the
/// stair's centre, rising the level height. Its length is what a stair step costs on a path
/// (`path::stair_cost`), and the guided tour climbs along it (`walk::waypoints`).
///
/// It stands for the stair's walking surface ([`Spiral::ramp`]): the ramp rises over the
/// steps' sectors and the landing is level, so along the same circle the ramp is a few per
/// cent longer than this helix (the tests measure it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WalkingLine {
    /// Distance from the stair's centre (metres): `B * WALK_FRACTION`.
    pub radius: f64,
    /// Rise of the turn (metres).
    pub height: f64,
}

impl WalkingLine {
    /// The walking line of every stair of a dungeon with proportions `p`: radius
    /// `B * WALK_FRACTION`, rising `layer_height`.
    #[must_use]
    pub fn of(p: &Proportions) -> WalkingLine {
        WalkingLine { radius: p.base * WALK_FRACTION, height: p.layer_height }
    }

    /// Horizontal run of the one turn, `2 pi * radius` (metres).
    #[must_use]
    pub fn run(&self) -> f64 {
        TAU * self.radius
    }

    /// Length of the helix in 3D, `hypot(run, height)` (metres), as the square root of the
    /// sum of squares (`f64::hypot` comes from the platform's maths library).
    #[must_use]
    pub fn length(&self) -> f64 {
        let run = self.run();
        (run * run + self.height * self.height).sqrt()
    }
}

/// The plan of one spiral stair: a central column; `steps() - 1` steps, each a sector of
/// [`Spiral::sector_angle`] rising [`Spiral::rise`], winding clockwise (seen from above) from
/// just past the landing wall's clockwise end; the last step is the landing, which spans the
/// landing wall's angle and reaches that wall. The sector just clockwise of the landing (the
/// first one) is a gap at floor level, so the solid does not touch itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spiral {
    /// Centre of the octagon, world `(x, z)` metres.
    pub centre: DVec2,
    /// The wall the landing reaches, `[from, to]` in the octagon's (clockwise) winding.
    pub landing: [DVec2; 2],
    /// Distance from the centre to the nearest wall line (metres).
    pub inradius: f64,
    /// Rise of the whole stair: the level height (metres).
    pub height: f64,
    /// The line one walks up the stair (radius from the proportions, rising `height`).
    pub walking: WalkingLine,
}

/// The plan angle of `p` about `c`.
#[must_use]
pub fn plan_angle(c: DVec2, p: DVec2) -> f64 {
    super::angle::atan2(p.y - c.y, p.x - c.x)
}

impl Spiral {
    /// The stair on octagon `slot` whose landing reaches wall `landing`, rising `height`.
    /// `None` when `slot` is not an octagon.
    #[must_use]
    pub fn new(layout: &Layout, slot: Slot, landing: Direction, height: f64) -> Option<Spiral> {
        if slot.kind() != SlotKind::Octagon {
            return None;
        }
        let centre = layout.center(slot);
        // The octagon's outline: edge `i` is wall `i` ([`Layout::wall`] reads the same points).
        let outline = layout.octagon(slot);
        let inradius = (0..outline.len())
            .map(|i| {
                let (a, b) = (outline[i], outline[(i + 1) % outline.len()]);
                (centre - a).perp_dot((b - a).normalize()).abs()
            })
            .fold(f64::INFINITY, f64::min);
        let walking = WalkingLine { height, ..WalkingLine::of(layout.proportions()) };
        Some(Spiral { centre, landing: layout.wall(slot, landing)?, inradius, height, walking })
    }

    /// Number of steps, the landing included: `ceil(height / MAX_RISE)`, at least 2.
    #[must_use]
    pub fn steps(&self) -> usize {
        ((self.height / MAX_RISE - 1e-9).ceil() as usize).max(2)
    }

    /// Rise of one step (metres, at most [`MAX_RISE`]).
    #[must_use]
    pub fn rise(&self) -> f64 {
        self.height / self.steps() as f64
    }

    /// Radius of the central column (metres).
    #[must_use]
    pub fn column_radius(&self) -> f64 {
        self.inradius * COLUMN_FRACTION
    }

    /// Outer radius of the steps (metres); the landing alone reaches further, to its wall.
    #[must_use]
    pub fn step_radius(&self) -> f64 {
        self.inradius * STEPS_FRACTION
    }

    /// Radius of the line round the walkway, the floor between the steps and the octagon's
    /// walls (metres): half way between the steps' outer edge and the nearest wall line.
    #[must_use]
    pub fn walkway_radius(&self) -> f64 {
        (self.step_radius() + self.inradius) / 2.0
    }

    /// Plan angles of the landing wall's ends `(from, to)`, with `from < to <= from + TAU`.
    /// The landing spans `from..to`; the spiral starts at `to` and climbs clockwise.
    #[must_use]
    pub fn landing_angles(&self) -> (f64, f64) {
        let [ea, eb] = self.landing;
        let from = plan_angle(self.centre, ea);
        let mut to = plan_angle(self.centre, eb);
        while to <= from {
            to += TAU;
        }
        (from, to)
    }

    /// Angle of one step's sector (radians): the turn outside the landing, shared by the gap
    /// and the steps.
    #[must_use]
    pub fn sector_angle(&self) -> f64 {
        let (from, to) = self.landing_angles();
        (TAU - (to - from)) / self.steps() as f64
    }

    /// How far round the spiral `p` is: its plan angle clockwise from the landing's end
    /// (`0..TAU`), and its distance from the centre.
    fn polar(&self, p: DVec2) -> (f64, f64) {
        let (_, to) = self.landing_angles();
        ((plan_angle(self.centre, p) - to).rem_euclid(TAU), (p - self.centre).length())
    }

    /// The top of the stair solid at `p` (metres above the stair's floor): the tread of the
    /// step or landing there, or `None` where no tread is (the column, the gap sector, the
    /// walkway outside the steps). `p` is assumed inside the octagon.
    #[must_use]
    pub fn tread(&self, p: DVec2) -> Option<f64> {
        let (phi, r) = self.polar(p);
        let n = self.steps();
        if r < self.column_radius() {
            return None;
        }
        if phi >= n as f64 * self.sector_angle() {
            return Some(self.height);
        }
        let s = ((phi / self.sector_angle()) as usize).min(n - 1);
        (r <= self.step_radius() && s > 0).then(|| s as f64 * self.rise())
    }

    /// The walking surface at `p` (metres above the stair's floor): a ramp through the middle
    /// of every tread (so never more than half a step from the real tread), level with the
    /// floor over the gap and with the next floor on the landing. `None` in the column and on
    /// the walkway outside the steps (the floor is there). `p` is assumed inside the octagon.
    #[must_use]
    pub fn ramp(&self, p: DVec2) -> Option<f64> {
        let (phi, r) = self.polar(p);
        let n = self.steps() as f64;
        if r < self.column_radius() {
            return None;
        }
        if phi >= n * self.sector_angle() {
            return Some(self.height);
        }
        let h = self.rise() * (phi / self.sector_angle() - 0.5);
        (r <= self.step_radius()).then(|| h.clamp(0.0, self.height - self.rise()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Proportions, angle};

    fn spiral(dir: Direction) -> Spiral {
        let layout = Layout::new(Proportions::default()).unwrap();
        Spiral::new(&layout, Slot::new(2, 2), dir, 12.0).unwrap()
    }

    #[test]
    fn the_design_numbers() {
        let s = spiral(Direction::N);
        assert_eq!(s.steps(), 48);
        assert!((s.rise() - 0.25).abs() < 1e-12);
        assert!((s.inradius - 6.4).abs() < 1e-9);
        assert!((s.column_radius() - 0.64).abs() < 1e-9);
        assert!((s.step_radius() - 5.12).abs() < 1e-9);
        let (from, to) = s.landing_angles();
        // The north wall runs west to east; its angle is 2 atan(3.84 / 6.4).
        assert!((to - from - 2.0 * angle::atan(3.84 / 6.4)).abs() < 1e-9);
        assert!(
            Spiral::new(&Layout::new(Proportions::default()).unwrap(), Slot::new(1, 1), Direction::NE, 12.0)
                .is_none()
        );
    }

    #[test]
    fn climbs_clockwise_from_the_landing_and_ramp_stays_within_half_a_step() {
        let s = spiral(Direction::N);
        let c = s.centre;
        // North of the centre: the landing, at the full height.
        assert_eq!(s.tread(c + DVec2::new(0.0, -4.0)), Some(12.0));
        assert_eq!(s.ramp(c + DVec2::new(0.0, -6.0)), Some(12.0), "the landing reaches the wall");
        // East (clockwise from north): low; west (further clockwise): high.
        let east = s.tread(c + DVec2::new(4.0, 0.0)).unwrap();
        let west = s.tread(c + DVec2::new(-4.0, 0.0)).unwrap();
        assert!(east < 3.0 && west > 8.0, "east {east}, west {west}");
        assert_eq!(s.tread(c + DVec2::new(0.3, 0.0)), None, "column");
        assert_eq!(s.tread(c + DVec2::new(5.5, 0.0)), None, "walkway");
        for k in 0..720 {
            let p = c + angle::unit(k as f64 / 720.0 * TAU) * 3.0;
            let ramp = s.ramp(p).unwrap();
            let tread = s.tread(p).unwrap_or(0.0);
            assert!((ramp - tread).abs() <= s.rise() / 2.0 + 1e-9, "at {k}: ramp {ramp}, tread {tread}");
        }
    }
}
