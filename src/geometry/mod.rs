//! World geometry: proportions, derived lengths, the polygons of cells, seams and pillars
//! in world space (docs/design.md, "World space"), the way back from a world point to its piece, slot
//! and level ([`Layout::place_at`], [`Layout::slot_at`], [`Layout::level_at`]), picking a
//! cell or wall with a ray ([`pick()`]), the plan and walking line of a spiral stair
//! ([`Spiral`], [`WalkingLine`]) and the plan of a straight ramp ([`RampPlan`]). Metres; `x` east, `y` up, `z` south.

pub mod angle;
mod layout;
mod locate;
mod pick;
mod polygon;
mod proportions;
mod ramp;
mod stair;

pub use layout::Layout;
pub use locate::Place;
pub use pick::{Pick, Ray, Target, pick, wall_band};
pub(crate) use polygon::make_positive;
pub use polygon::{clip_convex, ear_clip, in_triangle, signed_area};
pub use proportions::{GeometryError, Proportions, Spacing};
pub use ramp::{MAX_RAMP_SLOPE, RampPlan, ramp_run_cells};
pub use stair::{COLUMN_FRACTION, MAX_RISE, STEPS_FRACTION, Spiral, WALK_FRACTION, WalkingLine, plan_angle};
