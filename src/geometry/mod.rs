//! World geometry: proportions, derived lengths, and the polygons of cells, seams and
//! pillars in world space (DESIGN.md section 2). Metres; `x` east, `y` up, `z` south.

pub mod angle;
mod layout;
mod polygon;
mod proportions;
mod stair;

pub use layout::Layout;
pub use polygon::{clip_convex, signed_area};
pub use proportions::{GeometryError, Proportions, Spacing};
pub use stair::{COLUMN_FRACTION, MAX_RISE, STEPS_FRACTION, Spiral, plan_angle};
