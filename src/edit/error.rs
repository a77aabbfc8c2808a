//! Errors of editing: why a command was refused. A refused command changes nothing.

use crate::dungeon::DungeonError;
use crate::grid::Pos;
use crate::wfc::SolveError;

/// Why an edit command was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The dungeon refused a change (an address outside it, a Void slot, an unknown id, a
    /// border wall, a stair off an octagon or on the top level, ...).
    #[error("{0}")]
    Dungeon(#[from] DungeonError),
    /// The change would leave a stair or marker problem the mesh cannot build or the file
    /// cannot hold (a stair landing on rock or on another stair, an entrance on rock, ...).
    #[error("refused: {problem}")]
    Problem {
        /// The problem the edit would make.
        problem: DungeonError,
    },
    /// `unstair` on a cell that holds no stair.
    #[error("{pos} holds no stair")]
    NotAStair {
        /// The cell.
        pos: Pos,
    },
    /// A stair placed where its top would have no floor to land on.
    #[error("{pos}: a stair needs a landing: the octagon above it (level {}) is rock", pos.level + 1)]
    NoLanding {
        /// The stair's foot.
        pos: Pos,
    },
    /// A tile or edge state name the registry does not define.
    #[error("no {what} named {name:?} in the registry (known: {known})")]
    UnknownName {
        /// "tile" or "edge state".
        what: &'static str,
        /// The name given.
        name: String,
        /// The names the registry defines, comma-separated.
        known: String,
    },
    /// A registry that lacks a tile or state a command needs (plain floor, rock, stair).
    #[error("the registry has no {what}, which `{command}` needs")]
    RegistryLacks {
        /// What is missing.
        what: &'static str,
        /// The command.
        command: &'static str,
    },
    /// A rectangle whose corners are on different levels or outside the grid.
    #[error("rectangle {from}..{to}: {reason}")]
    BadRect {
        /// First corner.
        from: Pos,
        /// Second corner.
        to: Pos,
        /// What is wrong.
        reason: String,
    },
    /// A re-solve radius of 0 or larger than the grid.
    #[error("re-solve radius {radius}: {reason}")]
    BadRadius {
        /// The radius given, in octagons.
        radius: u32,
        /// What is wrong.
        reason: String,
    },
    /// Pins that contradict each other: the cell between them cannot satisfy both (one
    /// pinned cell's open seam needs it carved, the other's wall needs it rock).
    #[error("the pins at {} contradict each other around {at}: {reason}", list(pins))]
    ConflictingPins {
        /// The pinned cells in conflict.
        pins: Vec<Pos>,
        /// The free cell they disagree about.
        at: Pos,
        /// What each demands.
        reason: String,
    },
    /// Re-solving found no layout even over the whole level (or the level is too large for
    /// the solver).
    #[error("{}", unsolvable(*level, pins, cause))]
    Unsolvable {
        /// The level.
        level: u16,
        /// The pins on that level that bound the problem.
        pins: Vec<Pos>,
        /// The solver's last error.
        cause: SolveError,
    },
    /// A re-solve would split the dungeon: even joined over its whole level it leaves more
    /// connected regions than it had; nothing is changed.
    #[error(
        "re-solving round {at} would split the dungeon ({was} region(s) before, {now} after, even with its whole level joined); nothing was changed: try another radius or unpin cells near it"
    )]
    WouldSplit {
        /// The centre of the re-solve.
        at: Pos,
        /// Regions before.
        was: usize,
        /// Regions after.
        now: usize,
    },
    /// `undo` with nothing to undo, or `redo` with nothing to redo.
    #[error("nothing to {0}")]
    NothingTo(&'static str),
}

/// Why a re-solve failed, blaming what did: the solver's memory limit, the pins, or (with
/// no pins) the level itself.
fn unsolvable(level: u16, pins: &[Pos], cause: &SolveError) -> String {
    match cause {
        SolveError::TooLarge { .. } => {
            format!(
                "level {level}: the re-solve is too large for the solver ({cause}); a smaller radius may \
                 fit (a re-solve that finds no layout grows, up to the whole level)"
            )
        }
        _ if pins.is_empty() => format!("level {level}: no layout fits ({cause})"),
        _ => format!("level {level}: no layout fits around the pins at {} ({cause})", list(pins)),
    }
}

/// Positions joined for a message: `level 0, row 2, col 4; level 0, row 2, col 6`.
fn list(pins: &[Pos]) -> String {
    if pins.is_empty() {
        return "(none)".into();
    }
    pins.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a re-solve at the solver's memory limit said "no layout fits around the
    /// pins at (none)".
    #[test]
    fn an_unsolvable_resolve_blames_what_failed() {
        let too_large = SolveError::TooLarge { cells: 4_000_000, bytes: 9_000_000_000, limit: 1_000_000_000 };
        let e = EditError::Unsolvable { level: 0, pins: vec![], cause: too_large }.to_string();
        assert!(e.starts_with("level 0: the re-solve is too large for the solver (4000000 cells"), "{e}");
        assert!(!e.contains("(none)") && e.contains("a smaller radius may fit"), "{e}");
        let stuck = SolveError::BadInput { reason: "no tile".into() };
        let e = EditError::Unsolvable { level: 1, pins: vec![], cause: stuck.clone() }.to_string();
        assert_eq!(e, "level 1: no layout fits (problem: no tile)");
        let e = EditError::Unsolvable { level: 1, pins: vec![Pos::new(1, 2, 4)], cause: stuck }.to_string();
        assert_eq!(e, "level 1: no layout fits around the pins at level 1, row 2, col 4 (problem: no tile)");
    }
}
