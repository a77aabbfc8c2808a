//! A first-person body: a vertical cylinder that slides along walls, steps up small
//! heights, follows floors and stair ramps, and falls where there is no floor.

use glam::{DVec2, DVec3};

use super::plan::Wall;
use super::world::{World, segment_distance};
use crate::geometry::angle;
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

impl Body {
    /// Clearance above the eye (metres): the head above it, which keeps the eye out of the
    /// ceiling by more than the walk camera's 5 cm near plane.
    #[must_use]
    pub fn clearance(&self) -> f64 {
        self.height - self.eye_height
    }

    /// Lowest room this body stands in (metres): eye height plus [`Body::clearance`].
    #[must_use]
    pub fn min_room_height(&self) -> f64 {
        self.eye_height + self.clearance()
    }

    /// Checks that a room `room_height` metres high fits this body.
    ///
    /// # Errors
    /// [`WalkError::RoomTooLow`] when it is below [`Body::min_room_height`].
    pub fn check_room(&self, room_height: f64) -> Result<(), WalkError> {
        // A NaN height is refused too.
        if room_height.is_nan() || room_height < self.min_room_height() {
            return Err(WalkError::RoomTooLow {
                room_height,
                eye_height: self.eye_height,
                clearance: self.clearance(),
            });
        }
        Ok(())
    }
}

/// Why a walkthrough cannot start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// The rooms are lower than the walker's eye plus its clearance: its eye would start in
    /// or above the ceiling.
    #[error(
        "rooms are {room_height} m high, lower than the walker needs ({eye_height} m eye height + {clearance} m clearance = {} m): raise room_height or view with --camera orbit or top",
        eye_height + clearance
    )]
    RoomTooLow {
        /// The dungeon's `room_height` (metres).
        room_height: f64,
        /// The walker's eye height (metres).
        eye_height: f64,
        /// Clearance the walker needs above its eye (metres).
        clearance: f64,
    },
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
        let (sy, cy) = angle::sin_cos(self.yaw);
        let (sp, cp) = angle::sin_cos(self.pitch);
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
            || self.goes_deeper_into_stair(world, p, y)
            || self.goes_under_lower_ceiling(world, p, y);
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

    /// True when moving to `p` (feet at `y`) puts the head into a ceiling lower than the one
    /// above it now (out of a stair shaft into the slab beside it). A body already under a
    /// ceiling too low for it may still move under ceilings as high. Where the ground at `p`
    /// is a step up, the ceiling is read from there (off a ramp's top onto the floor of the
    /// level above, whose ceiling is that level's).
    fn goes_under_lower_ceiling(&self, world: &World, p: DVec2, y: f64) -> bool {
        let up = world.ground(p, y + self.body.max_step).filter(|&g| g > y).unwrap_or(y);
        let head = up + self.body.height;
        match (world.ceiling(p, up), world.ceiling(self.xz(), y)) {
            (Some(there), Some(here)) => there < head - 1e-9 && there < here,
            (Some(there), None) => there < head - 1e-9,
            (None, _) => false,
        }
    }

    /// `next` feet height, or lower where the head would pass the ceiling above the body:
    /// then it stops rising and starts to fall (never pushed below its current height).
    fn below_ceiling(&mut self, world: &World, next: f64) -> f64 {
        let Some(ceiling) = world.ceiling(self.xz(), self.feet.y) else { return next };
        let highest = (ceiling - self.body.height).max(self.feet.y);
        if next > highest && self.vertical_speed > 0.0 {
            // Falling from here on (a speed of exactly 0 would read as standing).
            self.vertical_speed = -1e-9;
            return highest;
        }
        next
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
        // Capped at 1000 m/s (zero when not finite): a huge wish would take as many substeps.
        let travel = if wish.is_finite() { wish.clamp_length_max(1000.0) * dt } else { DVec2::ZERO };
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
                _ => self.feet.y = self.below_ceiling(world, next),
            }
        } else {
            self.vertical_speed = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-level sample with rooms `room_height` metres high (doors 2 m).
    fn two_levels(room_height: f64) -> crate::dungeon::Dungeon {
        let text = include_str!("../../assets/two_levels.json")
            .replace("\"room_height\": 4.0", &format!("\"room_height\": {room_height:?}"))
            .replace("\"door_height\": 3.0", "\"door_height\": 2.0");
        let d = crate::format::from_json(&text).unwrap();
        assert_eq!(d.proportions().room_height, room_height);
        d
    }

    /// Highest feet and eye of a jump from the centre of `pos`, and where the feet end.
    fn jump(world: &World, pos: Pos) -> (f64, f64, f64) {
        let mut w = Walker::spawn(world, pos);
        let floor = w.feet.y;
        let (mut feet, mut eye) = (floor, w.eye().y);
        w.step(world, DVec2::ZERO, true, 1.0 / 60.0);
        for _ in 0..120 {
            w.step(world, DVec2::ZERO, false, 1.0 / 60.0);
            feet = feet.max(w.feet.y);
            eye = eye.max(w.eye().y);
        }
        (feet - floor, eye - floor, w.feet.y - floor)
    }

    #[test]
    fn the_head_stops_at_the_ceiling() {
        let entrance = Pos::new(0, 2, 0);
        let low = World::new(&two_levels(2.2));
        let (feet, eye, landed) = jump(&low, entrance);
        let body = Body::default();
        assert!(feet + body.height <= 2.2 + 1e-9, "head reached {} m in a 2.2 m room", feet + body.height);
        assert!(eye < 2.2 - 0.05, "eye at {eye} m stays below the ceiling by more than the near plane");
        assert!(feet > 0.3, "it still jumps: feet rose {feet} m");
        assert!(landed.abs() < 1e-9, "and lands again: {landed}");
        // In the sample's 4 m rooms the ceiling does not cut the jump short.
        let high = World::new(&two_levels(4.0));
        let apex = body.jump_speed * body.jump_speed / (2.0 * body.gravity);
        let (feet, _, _) = jump(&high, entrance);
        assert!((feet - apex).abs() < 0.05, "free jump {feet} m, expected about {apex} m");
    }

    #[test]
    fn a_stair_shaft_is_open_up_to_the_next_level_ceiling() {
        let d = two_levels(2.2);
        let world = World::new(&d);
        let stair = &world.stairs()[0];
        let p = d.proportions();
        let base = p.floor_y(stair.pos.level);
        assert_eq!(world.ceiling(stair.centre, base), Some(p.floor_y(stair.pos.level + 1) + 2.2));
        let room = world.slot_centre(Pos::new(0, 2, 0).slot);
        assert_eq!(world.ceiling(room, base), Some(base + 2.2));
    }

    #[test]
    fn rooms_lower_than_eye_and_clearance_are_refused_naming_the_heights() {
        let body = Body::default();
        assert_eq!(body.min_room_height(), body.height);
        assert!(body.check_room(2.2).is_ok() && body.check_room(body.height).is_ok());
        for low in [1.2, 1.79, f64::NAN] {
            let e = body.check_room(low).unwrap_err();
            let text = e.to_string();
            assert!(text.contains("1.7 m eye height") && text.contains("1.8 m"), "{text}");
        }
        assert!(body.check_room(1.2).unwrap_err().to_string().contains("rooms are 1.2 m high"));
    }
}
