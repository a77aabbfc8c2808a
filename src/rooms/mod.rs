//! Rooms, corridors and the portals between them, read from a dungeon's carved shape; and
//! the markers a game places in them (spawn points, prop anchors, torch sockets, door
//! hinges; with the `export` feature, as door hinges come from `mesh`'s door leaves). No
//! window, no GPU, no clock; every order is the grid's.
//!
//! The rule (written once, in [`is_corridor_cell`]; `docs/rooms.md` explains it): two cells
//! of one level are *joined* when the seam between them is carved
//! ([`Dungeon::carved_seam`](crate::dungeon::Dungeon::carved_seam): open or a door). A
//! carved cell is a *corridor cell* when it is joined to one or two cells and no two of
//! those are joined to each other (it lies on no triangle of joins: the carved space is one
//! cell wide there). Every other carved cell is a *room cell*: cells on a triangle (an open
//! area), junctions of three or more runs, and cells joined to nothing. A room is a maximal
//! joined group of room cells, a corridor a maximal joined group of corridor cells; each
//! carved cell is in exactly one of them. Portals are the carved seams between a room and a
//! corridor (open or a door) and the stairs (from the stair's room to the room of the hole
//! above it). [`place_doors`] puts doors on the room-corridor seams (never at a stair).
//!
//! ```
//! use octile::generate::{GenerateOptions, generate};
//! use octile::rooms::{RoomGraph, RoomKind};
//!
//! let options = GenerateOptions { seed: 7, levels: 2, cols: 8, rows: 8, ..Default::default() };
//! let dungeon = generate(&options, &mut |_| {}).unwrap();
//! let graph = RoomGraph::of(&dungeon);
//! let carved = dungeon.cells().filter(|&p| dungeon.tile_def(p).unwrap().carved).count();
//! let in_rooms: usize = graph.rooms().iter().map(|r| r.cells.len()).sum();
//! assert_eq!(in_rooms, carved, "every carved cell is in one room or corridor");
//! assert!(graph.rooms().iter().any(|r| r.kind == RoomKind::Corridor));
//! assert!(graph.portals().iter().all(|p| p.rooms[0] != p.rooms[1]));
//! # #[cfg(feature = "export")] {
//! let markers = octile::rooms::Markers::of(&dungeon, &graph); // with the `export` feature
//! assert!(markers.iter().count() > 0);
//! # }
//! ```

mod doors;
mod graph;
mod json;
#[cfg(feature = "export")]
mod lights;
#[cfg(feature = "export")]
mod markers;

pub(crate) use doors::place_doors_by;
pub use doors::{DoorError, door_sites, place_doors};
pub use graph::{Portal, PortalKind, PortalPlace, Room, RoomGraph, RoomId, RoomKind, is_corridor_cell};
pub use json::{compact_graph_json, compact_room_table_json, graph_json, room_table_json};
#[cfg(feature = "export")]
pub use lights::{
    LIGHT_OFFSET, LightPreset, TORCH_COLOUR, TORCH_RANGE, TorchLight, light_position, torch_lights,
};
#[cfg(feature = "export")]
pub use markers::{Marker, MarkerKind, Markers, PASSAGE_CLEARANCE, PROP_INSET, TORCH_HEIGHT};
