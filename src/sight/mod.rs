//! Sight and targeting on the octile grid: line of sight between cells or world points,
//! field of view as a bit grid, targeting footprints (bolt, ball, beam, cone, burst), the
//! same across storeys through the carved volume in 3D, and
//! a spatial index of what stands where. Core only: no window, no GPU, no clock.
//!
//! Sight is exact against the level's plan from [`crate::geometry::Layout`]: a straight
//! segment sees through carved, non-opaque cells, open seams and the door-wide passage of
//! a non-opaque door; walls, closed doors, pillars, rock and the outside of the grid block.
//! Grazing rock (a pillar's corner, a wall face) does not block. Whether a cell or an edge
//! passes sight is read from the dungeon's registry (`opaque`) through
//! [`crate::dungeon::Dungeon::carved_seam`] on every query, so a door flipped on the
//! dungeon is seen by the next query. Every query takes an [`Opacity`] source: the dungeon
//! itself, a [`Veil`] of smoke laid over it ([`Overlay`]), or a game's own type. See `docs/sight.md` for the rules, the symmetry
//! guarantee and the costs.

mod error;
mod floor;
mod footprint;
mod fov;
mod index;
mod line;
mod opacity;
mod space;
mod space_target;
mod target;
mod trace;

pub use error::SightError;
pub use floor::{FLOOR_ARC_RAYS, VisibleFloor, visible_floor, visible_floor_from};
pub use footprint::{Footprint, TargetMode, footprint};
pub use fov::{VisibleCells, field_of_view, field_of_view_from};
pub use index::SpatialIndex;
pub use line::{Crossing, crossing, line_of_sight, line_of_sight_points};
pub use opacity::{Opacity, Overlay, Veil, cell_passes_sight, pillar_passes_sight, seam_passes_sight};
pub use space::{
    EYE_HEIGHT, SpaceCrossing, VisibleVolume, crossing_3d, eye_point, field_of_view_3d, line_of_sight_3d,
};
pub use space_target::{ball_3d, bolt_3d, burst_3d, cone_3d};
pub use target::{Bolt, Hit, adjacent, ball, beam, bolt, burst, cone, own};
pub use trace::TOLERANCE;
