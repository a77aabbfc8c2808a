//! Wave function collapse (docs/design.md, "Generation"): a solver generic over a [`Topology`] and a
//! [`TileSet`], and the two tile sets of the design: [`square17`] (the tutorial set) and
//! [`octile`] (octagons and connectors).
//!
//! Tiles follow the "tiles & sockets" rule: a cell is solid or floor; a floor tile's wall
//! mask says which of its walls face solid. Sockets are F (open floor), W (wall) and E
//! (solid); the legal seams are F-F, W-E and E-E. Walls are therefore implied by where
//! floor is: two floor cells side by side always join.

mod error;
pub mod octile;
mod solver;
pub mod square17;
mod tileset;
mod topology;

pub use error::{Conflict, SolveError};
pub use solver::{
    DEFAULT_BUDGET, FixedCell, MEMORY_LIMIT, SolveInput, SolveProgress, Solver, estimated_bytes,
};
pub use tileset::{MAX_SOCKETS, MAX_TILES, SocketId, TileIndex, TileSet, TileSpec, check_weight};
pub use topology::{MAX_CELLS, Neighbor, Topology, octile_cell_index, octile_cell_slots};

/// Socket F: open floor (legal against F).
pub const SOCKET_FLOOR: SocketId = SocketId(0);
/// Socket W: a wall of a floor cell (legal against E).
pub const SOCKET_WALL: SocketId = SocketId(1);
/// Socket E: solid rock (legal against W and E). The outside of the grid shows E.
pub const SOCKET_SOLID: SocketId = SocketId(2);

/// Socket names in id order.
pub const SOCKET_NAMES: [&str; 3] = ["F", "W", "E"];

/// The legal seams F-F, W-E, E-E.
pub const LEGAL_SEAMS: [(SocketId, SocketId); 3] =
    [(SOCKET_FLOOR, SOCKET_FLOOR), (SOCKET_WALL, SOCKET_SOLID), (SOCKET_SOLID, SOCKET_SOLID)];

/// The socket a floor tile shows on a wall: W where its mask bit is set, F otherwise;
/// solid tiles (`None`) show E everywhere.
#[must_use]
pub fn socket_of(mask: Option<u8>, bit: usize) -> SocketId {
    match mask {
        None => SOCKET_SOLID,
        Some(m) if m >> bit & 1 == 1 => SOCKET_WALL,
        Some(_) => SOCKET_FLOOR,
    }
}

/// Whether two sockets may meet across a seam under the F-F, W-E, E-E rule.
#[must_use]
pub fn is_legal_seam(a: SocketId, b: SocketId) -> bool {
    LEGAL_SEAMS.iter().any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}
