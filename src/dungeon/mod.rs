//! The dungeon model: a registry of tiles and edge states, and a dense layer of each per
//! level (DESIGN.md section 3).

mod burn;
mod door_state;
mod error;
mod markers;
mod model;
mod pins;
mod problems;
mod registry;
mod seams;
mod stair;
mod stairs;

pub use door_state::{DoorChange, Flip, RegionChange};
pub use error::DungeonError;
pub use model::{Dungeon, Fill, MAX_LEVELS, MAX_SLOTS};
pub use registry::{Carve, EdgeDef, EdgeStateId, RegisterError, Registry, TileDef, TileId};
pub use stairs::{Shaft, Stair, Stairs};
