//! The dungeon model: a registry of tiles and edge states, and a dense layer of each per
//! level (docs/design.md, "Content").

mod burn;
mod columns;
mod defs;
mod door_state;
mod error;
mod heights;
mod markers;
mod mission;
mod model;
mod pillars;
mod pins;
mod problems;
mod ramps;
mod registry;
mod rooms;
mod seams;
mod stair;
mod stairs;
mod translate;

pub use columns::{DECK_THICKNESS, Drop, RAILING_HEIGHT, RAILING_THICKNESS, RailingEdge, RailingLine};
pub use defs::{Carve, EdgeDef, Mechanism, TileDef};
pub use door_state::{DoorChange, Flip, RegionChange};
pub use error::DungeonError;
pub use heights::{DOOR_LINTEL, MIN_ROOM_HEIGHT, MIN_SLAB, RoomHeight};
pub use mission::Lock;
pub use model::{Dungeon, Fill, MAX_LEVELS, MAX_SLOTS};
pub use pillars::PillarState;
pub use ramps::{Ramp, RampCells};
pub use registry::{EdgeStateId, RegisterError, Registry, TileId};
pub(crate) use rooms::hex_rgb;
pub use rooms::{MAX_ROOMS, Passage, PassageKind, Room, RoomId, RoomRole, RoomShape, SizeClass};
pub use stairs::{Shaft, Stair, Stairs};
pub use translate::Translation;
