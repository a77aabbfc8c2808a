//! Errors of dungeon generation.

use crate::dungeon::DungeonError;
use crate::wfc::SolveError;

/// A dungeon that could not be generated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// An option out of range.
    #[error("option `{name}` = {value}: {reason}")]
    BadOption {
        /// Option name, as on the command line.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it must be.
        reason: String,
    },
    /// Weights or sizes the tile set or solver refuses (bad weights, over the memory limit).
    #[error("tiles: {0}")]
    Tiles(#[source] SolveError),
    /// A level could not be solved.
    #[error("level {level} (seed {seed}, {attempts} attempt(s)): {source}")]
    Level {
        /// The level.
        level: u16,
        /// The generation seed.
        seed: u64,
        /// Attempts made.
        attempts: u32,
        /// The last solver error.
        #[source]
        source: SolveError,
    },
    /// The dungeon's own limits (shape, proportions).
    #[error(transparent)]
    Dungeon(#[from] DungeonError),
}
