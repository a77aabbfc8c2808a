//! A guided tour: turns a route of cells into horizontal waypoints a walker can follow,
//! round and up (or down) the spiral of every stair on the way.

use glam::DVec2;

use super::world::{Stair, World, compass_angle, compass_dir};
use crate::grid::Pos;

/// Angle (radians) kept between the ramp's foot and the landing when walking on or off.
const RAMP_MARGIN: f64 = 0.14;
/// Angle between consecutive waypoints round a spiral.
const RING_STEP: f64 = std::f64::consts::PI / 12.0;

/// Horizontal waypoints (world `(x, z)` metres) that walk the cells of `steps` in order.
/// A step from a stair octagon to the same octagon one level up goes round the spiral: along
/// the walkway outside the steps (counterclockwise, so never through the landing, which
/// stands on the lower floor against the exit wall) to the ramp's foot, up one turn
/// clockwise along the stair's walking line ([`Spiral::walking`](crate::geometry::Spiral::walking))
/// to the middle of the landing, and out through the exit wall; the step after it
/// must leave through that wall. Going down is the same in reverse. A route that only
/// crosses a stair octagon on its own level goes round the walkway, away from the landing.
#[must_use]
pub fn waypoints(world: &World, steps: &[Pos]) -> Vec<DVec2> {
    use std::f64::consts::TAU;
    let mut out = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let pos = steps[i];
        let next = steps.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|j| steps[j]);
        let up = next.filter(|n| n.level == pos.level + 1 && n.slot == pos.slot);
        let down = next.filter(|n| n.level + 1 == pos.level && n.slot == pos.slot);
        if let (Some(_), Some(stair)) = (up, world.stair(pos)) {
            let from = prev.map(|p| world.slot_centre(p.slot)).unwrap_or(stair.centre + compass_dir(0.0));
            let start = compass_angle(from - stair.centre);
            let foot = stair.foot_angle + RAMP_MARGIN;
            let around = -(start - foot).rem_euclid(TAU);
            ring(&mut out, stair.centre, stair.spiral.walkway_radius(), start, around);
            let climb = (stair.exit_angle - foot).rem_euclid(TAU);
            ring(&mut out, stair.centre, stair.spiral.walking.radius, foot, climb);
            out.push(exit_point(stair));
            i += 2;
            continue;
        }
        let below = down.and_then(|_| world.stair(Pos { level: pos.level - 1, ..pos }));
        if let Some(stair) = below {
            out.push(exit_point(stair));
            let foot = stair.foot_angle + RAMP_MARGIN;
            let descent = -(stair.exit_angle - foot).rem_euclid(TAU);
            ring(&mut out, stair.centre, stair.spiral.walking.radius, stair.exit_angle, descent);
            if let Some(after) = steps.get(i + 2) {
                let to = compass_angle(world.slot_centre(after.slot) - stair.centre);
                let around = (to - foot).rem_euclid(TAU);
                ring(&mut out, stair.centre, stair.spiral.walkway_radius(), foot, around);
            }
            i += 2;
            continue;
        }
        if let (Some(stair), Some(p), Some(n)) = (world.stair(pos), prev, next) {
            // Across a stair octagon on its own level: round the walkway, the way that does
            // not pass the landing (the steps and the landing block the middle).
            let from = compass_angle(world.slot_centre(p.slot) - stair.centre);
            let to = compass_angle(world.slot_centre(n.slot) - stair.centre);
            let clockwise = (to - from).rem_euclid(TAU);
            let passes_landing = (stair.exit_angle - from).rem_euclid(TAU) < clockwise;
            let around = if passes_landing { clockwise - TAU } else { clockwise };
            ring(&mut out, stair.centre, stair.spiral.walkway_radius(), from, around);
            i += 1;
            continue;
        }
        out.push(world.slot_centre(pos.slot));
        i += 1;
    }
    out
}

fn ring(out: &mut Vec<DVec2>, centre: DVec2, radius: f64, start: f64, total: f64) {
    let n = (total.abs() / RING_STEP).ceil().max(1.0) as usize;
    out.extend((0..=n).map(|k| centre + compass_dir(start + total * k as f64 / n as f64) * radius));
}

/// A point just beyond the middle of the stair's exit wall.
fn exit_point(stair: &Stair) -> DVec2 {
    let reach = stair.polygon.iter().map(|v| (*v - stair.centre).length()).fold(0.0, f64::max);
    stair.centre + compass_dir(stair.exit_angle) * (reach + 0.8)
}

/// Follows waypoints: the horizontal velocity toward the current one, advancing when
/// within `reach` metres. `None` once the last waypoint is reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Tour {
    /// The waypoints, world `(x, z)`.
    pub points: Vec<DVec2>,
    /// Index of the waypoint being walked to.
    pub next: usize,
}

impl Tour {
    /// A tour over `points`, starting with the first.
    #[must_use]
    pub fn new(points: Vec<DVec2>) -> Tour {
        Tour { points, next: 0 }
    }

    /// The velocity (metres per second) from `at` toward the current waypoint at `speed`,
    /// or `None` when the tour is over.
    pub fn wish(&mut self, at: DVec2, speed: f64, reach: f64) -> Option<DVec2> {
        while let Some(&p) = self.points.get(self.next) {
            let d = p - at;
            if d.length() > reach {
                return Some(d.normalize() * speed);
            }
            self.next += 1;
        }
        None
    }

    /// True once every waypoint has been reached.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.next >= self.points.len()
    }
}
