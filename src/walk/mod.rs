//! Walking through a dungeon without a physics engine: the carved plan of each level
//! (floor pieces and wall segments from [`Layout`](crate::geometry::Layout)), a world that
//! answers "what is under me, what is near me", a body that collides, climbs the spiral
//! stairs and falls, and a tour that walks a route.
//!
//! It lives in the core (no GPU, no window) so it is tested without a GPU and any game
//! built on the crate can reuse it; the viewer's first-person camera drives it.

mod plan;
mod tour;
mod walker;
mod world;

pub use plan::{LevelPlan, Piece, PieceKind, Wall, WallKind, level_plan, level_plan_with};
pub use tour::{Tour, waypoints};
pub use walker::{Body, WalkError, Walker};
pub use world::{
    FOOTPRINT, RampWalk, Stair, World, compass_angle, compass_dir, contains, segment_distance,
    segments_intersect,
};
