//! A guided tour: turns a route of cells into horizontal waypoints a walker can follow,
//! round and up (or down) the spiral of every stair on the way.

use glam::DVec2;

use super::world::{Stair, World, compass_angle, compass_dir};
use crate::grid::Pos;

/// Angle (radians) kept between a ramp's top and bottom when walking on or off it.
const RAMP_MARGIN: f64 = 0.14;
/// Angle between consecutive waypoints round a spiral.
const RING_STEP: f64 = std::f64::consts::PI / 12.0;

/// Horizontal waypoints (world `(x, z)` metres) that walk the cells of `steps` in order.
/// A step from a stair octagon to the same octagon one level up goes round the spiral;
/// the step after it must leave through the stair's exit wall.
#[must_use]
pub fn waypoints(world: &World, steps: &[Pos]) -> Vec<DVec2> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let pos = steps[i];
        let next = steps.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|j| steps[j]);
        let up = next.filter(|n| n.level == pos.level + 1 && n.slot == pos.slot);
        let down = next.filter(|n| n.level + 1 == pos.level && n.slot == pos.slot);
        if let (Some(_), Some(stair)) = (up, world.stair(pos)) {
            let radius = ring_radius(stair);
            let from = prev.map(|p| world.slot_centre(p.slot)).unwrap_or(stair.centre + compass_dir(0.0));
            let start = compass_angle(from - stair.centre);
            // Clockwise under the ramp to its foot, then one turn up to its top.
            let to_foot = (stair.exit_angle + RAMP_MARGIN - start).rem_euclid(std::f64::consts::TAU);
            let total = to_foot + std::f64::consts::TAU - 2.0 * RAMP_MARGIN;
            ring(&mut out, stair.centre, radius, start, total);
            out.push(exit_point(stair));
            i += 2;
            continue;
        }
        let below = down.and_then(|_| world.stair(Pos { level: pos.level - 1, ..pos }));
        if let Some(stair) = below {
            let radius = ring_radius(stair);
            out.push(exit_point(stair));
            let start = stair.exit_angle - RAMP_MARGIN;
            ring(&mut out, stair.centre, radius, start, -(std::f64::consts::TAU - 2.0 * RAMP_MARGIN));
            i += 2;
            continue;
        }
        out.push(world.slot_centre(pos.slot));
        i += 1;
    }
    out
}

/// Radius of the walking line round a spiral: a little over half the octagon's corner
/// distance, clear of the column and the walls.
fn ring_radius(stair: &Stair) -> f64 {
    let inner = stair.polygon.iter().map(|v| (*v - stair.centre).length()).fold(f64::INFINITY, f64::min);
    inner * 0.55
}

fn ring(out: &mut Vec<DVec2>, centre: DVec2, radius: f64, start: f64, total: f64) {
    let n = (total.abs() / RING_STEP).ceil().max(1.0) as usize;
    out.extend((0..=n).map(|k| centre + compass_dir(start + total * k as f64 / n as f64) * radius));
}

/// A point just beyond the stair's exit wall, on the top step's side of the exit.
fn exit_point(stair: &Stair) -> DVec2 {
    let a = stair.exit_angle - RAMP_MARGIN * 0.5;
    let reach = stair.polygon.iter().map(|v| (*v - stair.centre).length()).fold(0.0, f64::max);
    stair.centre + compass_dir(a) * (reach + 0.8)
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
