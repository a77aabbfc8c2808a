//! Errors of dungeon generation.

use crate::dungeon::DungeonError;
use crate::wfc::SolveError;

/// A dungeon that could not be generated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
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
    /// The message ends with the solver's, which is therefore not also its source.
    #[error("tiles: {0}")]
    Tiles(SolveError),
    /// A level could not be solved. The message ends with the solver's, which is therefore
    /// not also its [`std::error::Error::source`] (a chain would print it twice).
    #[error("level {level} (seed {seed}, {attempts} attempt(s)): {cause}")]
    Level {
        /// The level.
        level: u16,
        /// The generation seed.
        seed: u64,
        /// Attempts made.
        attempts: u32,
        /// The last solver error.
        cause: SolveError,
    },
    /// No layout of entrance and stairs gave one connected dungeon with its exit on the last
    /// level, away from the entrance (see `docs/wfc.md`). Narrow grids are the usual cause:
    /// on a grid one octagon wide, the hole above a stair and a stair's landing each close
    /// one side of the corridor.
    #[error(
        "{cols}x{rows} octagons, {levels} levels, {stairs} stair(s) per level pair (seed {seed}): \
         no connected dungeon in {tries} layouts of entrance and stairs (the last: {reason}); \
         {advice}"
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
        /// What to change, for this case ([`GenerateError::disconnected_advice`]).
        advice: &'static str,
    },
    /// A [`super::Palette`] whose tile or edge state for a role is missing or means
    /// something else than the standard one.
    #[error("palette: the {role}: {reason}")]
    Palette {
        /// `rock`, `floor`, `stair`, `wall`, `open` or `door`.
        role: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The dungeon's own limits (shape, proportions).
    #[error(transparent)]
    Dungeon(#[from] DungeonError),
}

impl GenerateError {
    /// What to try when no layout connects a dungeon of `cols x rows` octagons and `levels`
    /// levels, generated around a design's pins when `kept`: the advice
    /// [`GenerateError::Disconnected`] gives.
    #[must_use]
    pub fn disconnected_advice(cols: u32, rows: u32, levels: u32, kept: bool) -> &'static str {
        if kept {
            "the design's pins wall floor off from the rest or leave too little room for the stairs: \
             unpin cells beside pinned rooms, open a wall of a walled-in pinned room, or try another seed"
        } else if cols < 2 || rows < 2 {
            "a grid at least 2 octagons wide both ways connects more easily"
        } else if levels > 1 {
            "fewer levels, more stairs per level pair or another seed connect more easily"
        } else {
            "another seed connects more easily"
        }
    }
}
