//! Levels from a room graph (docs/flow.md): a spec of rooms with a purpose, a size, a shape
//! and a level, joined by doors, open ways and stairs, is realised on the octile grid. Rooms
//! are placed with their shapes, each connection becomes a corridor of straight and
//! 45-degree runs (or a stair with a corridor at each end), all of it is pinned, and the
//! solver fills the rest with side caves that never join rooms the spec does not join. The
//! dungeon's room table then says which cells are which room.
//!
//! ```
//! use octile::flow::{Grammar, realise};
//! use octile::generate::GenerateOptions;
//!
//! let options = GenerateOptions { seed: 3, cols: 16, rows: 16, levels: 2, ..Default::default() };
//! let spec = octile::flow::write(Grammar::Default, 16, 16, 2, 2, 3).unwrap();
//! let flow = spec.check(&octile::geometry::Proportions::default()).unwrap();
//! let dungeon = realise(&flow, &options, &mut |_| {}).unwrap();
//! assert_eq!(dungeon.rooms().len(), spec.rooms.len());
//! assert_eq!(octile::path::dungeon_regions(&dungeon).count(), 1);
//! ```

mod error;
mod grammar;
mod ground;
mod guard;
mod layout;
mod mission;
mod realise;
mod report;
mod roles;
mod route;
mod shape;
mod site;
mod spec;
mod verify;

pub use error::FlowError;
pub use grammar::{Grammar, MIN_SIDE, write, write_sparser};
pub use mission::{MAX_ROUTE_LOCKS, Mission, RoomDepth, mission};
pub use realise::{GrammarOutcome, realise, realise_grammar};
pub use report::{critical_metres, report};
pub use roles::BOSS_MIN_DEPTH;
pub use spec::{
    ConnectionSpec, CycleSpec, FLOW_FORMAT, FLOW_VERSION, Flow, FlowSpec, LevelSpec, MAX_SPEC_ROOMS,
    RoomSpec, SizeSpec,
};
pub use verify::{Failure, MAX_LOCKS, Verdict, verify};
