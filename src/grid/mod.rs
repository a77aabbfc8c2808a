//! Grid addressing: slots and their kinds, walls, neighbours, canonical edges, pillars,
//! layers.
//!
//! A level is an interleaved array of `(2 * oct_rows - 1) x (2 * oct_cols - 1)` slots. Even/even
//! slots are octagons, odd/odd slots are connector diamonds, mixed slots are Void (the long
//! seam between two octagons). See docs/design.md, "The grid". Besides the addressing itself:
//! dense layers ([`Grid`]), rectangles of slots ([`Rect`]), direction sets in one byte
//! ([`DirectionSet`]) and integer shapes round a slot ([`square`], [`disc`], [`cone`],
//! [`nearest_from`]).

mod area;
mod dims;
mod direction;
mod direction_set;
mod error;
mod layer;
mod pillar;
mod rect;
mod slot;
mod walls;

pub use area::{chebyshev, cone, disc, nearest_from, square};
pub use dims::{Dims, EdgeId, MAX_OCTAGONS_PER_SIDE};
pub use direction::{ConnectorWall, Direction, EdgeLength, octagon_wall};
pub use direction_set::DirectionSet;
pub use error::GridError;
pub use layer::Grid;
pub use pillar::PillarId;
pub use rect::Rect;
pub use slot::{Pos, Slot, SlotKind};
pub use walls::{Wall, Walls};
