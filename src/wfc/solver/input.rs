//! What a solve takes besides the topology and the tile set ([`SolveInput`], its
//! [`FixedCell`]s), what it reports as it goes ([`SolveProgress`]), and the memory check made
//! before anything is built ([`estimated_bytes`] against [`MEMORY_LIMIT`]).

use crate::wfc::{SocketId, TileIndex, TileSet};

/// The most solver state, in bytes, that [`super::Solver::new`] agrees to allocate (2 GiB). About
/// 200 bytes per cell for `square17`, about 2.3 KB per cell for `octile` (mostly the undo log).
pub const MEMORY_LIMIT: u64 = 2 << 30;

/// Default number of backtracks before a solve gives up.
pub const DEFAULT_BUDGET: u32 = 10_000;

/// A cell whose tile is restricted before solving.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedCell {
    /// Cell index in the topology.
    pub cell: u32,
    /// The tiles it may take (at least one).
    pub allowed: Vec<TileIndex>,
}

/// The inputs of one solve besides the topology and tile set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveInput {
    /// The seed the caller's RNG was made from, named in errors so a failure can be replayed.
    pub seed: u64,
    /// The socket the outside of the grid shows on border walls (`None`: unconstrained).
    pub border: Option<SocketId>,
    /// Cells restricted before solving.
    pub fixed: Vec<FixedCell>,
    /// Backtracks allowed before giving up.
    pub budget: u32,
}

impl Default for SolveInput {
    fn default() -> Self {
        SolveInput { seed: 0, border: None, fixed: Vec::new(), budget: DEFAULT_BUDGET }
    }
}

/// How far a solve has come, reported through the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveProgress {
    /// Cells down to one tile.
    pub collapsed: usize,
    /// All cells.
    pub total: usize,
    /// Backtracks so far.
    pub backtracks: u32,
}

/// Estimated bytes of topology and solver state for `cells` cells of `tileset` (domains,
/// revised socket sets, neighbour table, entropy sums and the undo log, counted at 16 bytes per
/// entry and up to eight entries per domain word, typical of a solve). Callers check it against
/// [`MEMORY_LIMIT`] before building anything.
#[must_use]
pub fn estimated_bytes(cells: u64, tileset: &TileSet) -> u64 {
    let dirs = tileset.dirs() as u64;
    let words = tileset.len().div_ceil(64) as u64;
    let classes = tileset.tiles().iter().map(|t| usize::from(t.class)).max().unwrap_or(0) + 1;
    let largest_class = (0..classes)
        .map(|k| tileset.tiles().iter().filter(|t| usize::from(t.class) == k).count())
        .max()
        .unwrap_or(0);
    let per_cell =
        words * 8 + dirs * tileset.socket_count() as u64 * 2 + dirs * 8 + 48 + 8 * largest_class as u64;
    cells.saturating_mul(per_cell)
}
