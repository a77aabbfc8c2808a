//! A first-person body: a vertical cylinder that slides along walls, steps up small
//! heights, follows floors and stair ramps, and falls where there is no floor.

use glam::{DVec2, DVec3};

use super::plan::Wall;
use super::world::{World, segment_distance};
use crate::grid::Pos;

/// Body dimensions and movement limits (metres, seconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Radius of the body's cylinder.
    pub radius: f64,
    /// Height of the body (collides with shaft walls above the room height).
    pub height: f64,
    /// Eye height above the feet.
    pub eye_height: f64,
    /// Highest step one climbs without jumping.
    pub max_step: f64,
    /// Walking speed (metres per second).
    pub walk_speed: f64,
    /// Running speed.
    pub run_speed: f64,
    /// Gravity (metres per second squared).
    pub gravity: f64,
    /// Take-off speed of a jump.
    pub jump_speed: f64,
}

impl Default for Body {
    fn default() -> Self {
        Body {
            radius: 0.3,
            height: 1.8,
            eye_height: 1.7,
            max_step: 0.5,
            walk_speed: 3.0,
            run_speed: 7.0,
            gravity: 9.81,
            jump_speed: 4.0,
        }
    }
}

/// Where a walker is and how it looks.
#[derive(Debug, Clone, PartialEq)]
pub struct Walker {
    /// Feet position, world metres.
    pub feet: DVec3,
    /// Heading: compass angle, radians clockwise from north.
    pub yaw: f64,
    /// Look up (positive) or down, radians.
    pub pitch: f64,
    /// Vertical speed (metres per second, up positive).
    pub vertical_speed: f64,
    /// Body dimensions and limits.
    pub body: Body,
    walls: Vec<Wall>,
}

/// Longest horizontal move tested in one go (metres): well under the body radius, so a
/// body can never tunnel through a wall.
const SUBSTEP: f64 = 0.1;

impl Walker {
    /// A walker standing at the centre of `pos` (feet on its floor), facing north.
    #[must_use]
    pub fn spawn(world: &World, pos: Pos) -> Walker {
        Walker::at(world.layout().world_center(pos))
    }

    /// A walker with its feet at `feet`, facing north.
    #[must_use]
    pub fn at(feet: DVec3) -> Walker {
        Walker { feet, yaw: 0.0, pitch: 0.0, vertical_speed: 0.0, body: Body::default(), walls: Vec::new() }
    }

    /// Eye position (world metres).
    #[must_use]
    pub fn eye(&self) -> DVec3 {
        self.feet + DVec3::Y * self.body.eye_height
    }

    /// Unit view direction from yaw and pitch.
    #[must_use]
    pub fn look(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        DVec3::new(sy * cp, sp, -cy * cp)
    }

    /// Horizontal position `(x, z)`.
    #[must_use]
    pub fn xz(&self) -> DVec2 {
        DVec2::new(self.feet.x, self.feet.z)
    }

    /// True when the feet rest on a surface.
    fn on_ground(&self, world: &World) -> bool {
        world.ground(self.xz(), self.feet.y + 1e-6).is_some_and(|g| (self.feet.y - g).abs() < 1e-6)
    }

    fn blocked(&mut self, world: &World, p: DVec2, y: f64) -> bool {
        let mut walls = std::mem::take(&mut self.walls);
        world.walls_near(p, y, self.body.max_step, self.body.height, &mut walls);
        let hit = walls.iter().any(|w| segment_distance(p, w.a, w.b) < self.body.radius)
            || world.column_near(p, y).is_some_and(|(c, r)| (p - c).length() < r + self.body.radius)
            || self.goes_deeper_into_stair(world, p, y);
        self.walls = walls;
        hit
    }

    /// True when moving to `p` (feet at `y`) puts the body deeper into a stair's steps or
    /// landing than it is now. Normally it is clear of them, so any overlap blocks; a body
    /// that is already in them (it fell down the shaft beside a high step) may move as long
    /// as it does not go deeper, so it can always walk out.
    fn goes_deeper_into_stair(&self, world: &World, p: DVec2, y: f64) -> bool {
        let (r, s) = (self.body.radius, self.body.max_step);
        let deep = world.stair_overlap(p, y, r, s);
        deep > 0 && deep > world.stair_overlap(self.xz(), y, r, s)
    }

    /// Moves by the horizontal velocity `wish` (metres per second, world `(x, z)`) for `dt`
    /// seconds: slides along walls, climbs steps up to `max_step`, snaps down slopes while
    /// grounded, and falls under gravity. `jump` starts a jump when grounded.
    pub fn step(&mut self, world: &World, wish: DVec2, jump: bool, dt: f64) {
        let dt = dt.clamp(0.0, 0.1);
        let grounded = self.on_ground(world);
        if jump && grounded {
            self.vertical_speed = self.body.jump_speed;
        }
        let travel = wish * dt;
        let n = (travel.length() / SUBSTEP).ceil().max(1.0) as usize;
        let d = travel / n as f64;
        for _ in 0..n {
            let p = self.xz();
            let y = self.feet.y;
            let moved = [d, DVec2::new(d.x, 0.0), DVec2::new(0.0, d.y)]
                .into_iter()
                .filter(|m| m.length_squared() > 0.0)
                .map(|m| p + m)
                .find(|&q| !self.blocked(world, q, y));
            let Some(q) = moved else { break };
            self.feet.x = q.x;
            self.feet.z = q.y;
            if self.vertical_speed == 0.0 {
                // Grounded: climb small steps, follow ramps down within one step.
                if let Some(g) = world.ground(q, y + self.body.max_step)
                    && g >= y - self.body.max_step
                {
                    self.feet.y = g;
                }
            }
        }
        let top = self.feet.y + if self.vertical_speed == 0.0 { 1e-6 } else { 0.0 };
        let ground = world.ground(self.xz(), top.max(self.feet.y));
        let resting = self.vertical_speed <= 0.0 && ground.is_some_and(|g| (self.feet.y - g).abs() < 1e-6);
        if !resting {
            self.vertical_speed -= self.body.gravity * dt;
            let next = self.feet.y + self.vertical_speed * dt;
            match ground {
                Some(g) if next <= g && self.vertical_speed <= 0.0 => {
                    self.feet.y = g;
                    self.vertical_speed = 0.0;
                }
                _ => self.feet.y = next,
            }
        } else {
            self.vertical_speed = 0.0;
        }
    }
}
