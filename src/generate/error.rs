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
    /// No layout of entrance and stairs gave one connected dungeon with its exit on the last
    /// level, away from the entrance (see `docs/wfc.md`). Narrow grids are the usual cause:
    /// on a grid one octagon wide, the hole above a stair and a stair's landing each close
    /// one side of the corridor.
    #[error(
        "{cols}x{rows} octagons, {levels} levels, {stairs} stair(s) per level pair (seed {seed}): \
         no connected dungeon in {tries} layouts of entrance and stairs (the last: {reason}); \
         a grid at least 2 octagons wide both ways, fewer levels, more stairs per level pair \
         or another seed connect more easily"
    )]
    Disconnected {
        /// Octagon columns.
        cols: u32,
        /// Octagon rows.
        rows: u32,
        /// Levels.
        levels: u32,
        /// Stairs per level pair.
        stairs: u32,
        /// The generation seed.
        seed: u64,
        /// Layouts tried.
        tries: u32,
        /// What was wrong with the last one.
        reason: String,
    },
    /// The dungeon's own limits (shape, proportions).
    #[error(transparent)]
    Dungeon(#[from] DungeonError),
}
