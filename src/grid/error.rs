//! Errors of grid addressing.

use super::{Direction, Slot, SlotKind};

/// A grid address that does not exist or names the wrong kind of slot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// A grid size that cannot be built.
    #[error("grid of {cols}x{rows} octagons (COLSxROWS): {reason}")]
    BadSize {
        /// Octagon columns asked for.
        cols: u32,
        /// Octagon rows asked for.
        rows: u32,
        /// Why it was refused.
        reason: &'static str,
    },
    /// A slot beyond the grid's rows or columns.
    #[error("{slot} is outside the grid of {rows}x{cols} slots (rows x cols)")]
    OutOfBounds {
        /// The slot asked for.
        slot: Slot,
        /// Slot rows of the grid.
        rows: u32,
        /// Slot columns of the grid.
        cols: u32,
    },
    /// A cell operation on a Void slot, or an octagon-only operation on a connector. A Void
    /// slot is named as the wall between two octagons it is.
    #[error("{}; expected {expected}", kind_of(*slot, *kind))]
    WrongKind {
        /// The slot asked for.
        slot: Slot,
        /// What that slot is.
        kind: SlotKind,
        /// What the operation needs.
        expected: &'static str,
    },
    /// A wall direction a cell does not have (connectors only have the four diagonal walls).
    #[error("{slot} is a {kind:?}; it has no wall facing {}", dir.name())]
    NoSuchWall {
        /// The cell asked for.
        slot: Slot,
        /// Its kind.
        kind: SlotKind,
        /// The direction asked for.
        dir: Direction,
    },
    /// A pillar asked for at a diagonal of a connector: its tips are N, E, S and W.
    #[error("{slot}: a pillar sits at a connector's tip N, E, S or W, not {}", dir.name())]
    NoSuchTip {
        /// The connector asked for.
        slot: Slot,
        /// The direction asked for.
        dir: Direction,
    },
    /// A level index beyond the dungeon's levels.
    #[error("level {level} does not exist (the dungeon has {levels} levels)")]
    LevelOutOfRange {
        /// The level asked for.
        level: u16,
        /// How many levels exist.
        levels: u16,
    },
}

/// `slot is a Connector slot`, or for a Void slot the wall it is.
fn kind_of(slot: Slot, kind: SlotKind) -> String {
    match slot.seam_sides() {
        Some(_) => format!("{slot} is not a cell but {}", super::EdgeId::Long(slot)),
        None => format!("{slot} is a {kind:?} slot"),
    }
}
