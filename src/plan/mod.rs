//! Plans: every level of a dungeon drawn side by side as SVG, from the carved plan that the
//! walk model and the mesh share ([`crate::walk::level_plan`]: octagons, diamonds, open
//! seams, door passages door-wide, walls as thick lines), with door markers where
//! [`crate::dungeon::Dungeon::carved_seam`] says a door carves, stairs, entrance and exit,
//! a metre scale, optionally a field of view shaded over its level and the cells it sees on
//! other storeys ([`FovShade`]), and for
//! a dungeon with locks, keys or mission doors its critical path, locks and keys (one
//! colour per lock id, [`lock_colour`]) and one-way arrows.

mod columns;
mod fov;
mod mission;
mod svg;

pub use fov::{FovShade, fov_svg_bytes};
pub use mission::{LOCK_COLOUR_COUNT, lock_colour, lock_colour_rgb};
pub use svg::{MAX_SCALE, MIN_SCALE, PlanOptions, role_tint, to_svg};
