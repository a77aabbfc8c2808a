//! Slots, their kinds (the parity rule) and dungeon positions.

use serde::{Deserialize, Serialize};

/// What a slot of the interleaved slot array is, decided by the parity of its row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SlotKind {
    /// Even row, even column: an octagon cell.
    Octagon,
    /// Odd row, odd column: a 45-degree connector diamond between four octagons.
    Connector,
    /// Mixed parity: not a cell; in world space the long seam between two octagons.
    Void,
}

impl SlotKind {
    /// True for the two kinds that are cells (octagons and connectors).
    #[must_use]
    pub const fn is_cell(self) -> bool {
        !matches!(self, SlotKind::Void)
    }
}

/// A slot address on one level: `row` grows south, `col` grows east (slots, not metres).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Slot {
    /// Row index, growing south.
    pub row: u32,
    /// Column index, growing east.
    pub col: u32,
}

impl Slot {
    /// A slot at `(row, col)`.
    #[must_use]
    pub const fn new(row: u32, col: u32) -> Self {
        Slot { row, col }
    }

    /// The slot's kind. This is the one owner of the parity rule.
    #[must_use]
    pub const fn kind(self) -> SlotKind {
        match (self.row & 1, self.col & 1) {
            (0, 0) => SlotKind::Octagon,
            (1, 1) => SlotKind::Connector,
            _ => SlotKind::Void,
        }
    }

    /// The octagon at octagon row `row` and octagon column `col` (the `(row, col)`-th octagon
    /// counted from the north-west corner, as `--octagons` counts them).
    #[must_use]
    pub const fn octagon(row: u32, col: u32) -> Self {
        Slot { row: 2 * row, col: 2 * col }
    }

    /// For an octagon, its octagon row and column ([`Slot::octagon`]'s arguments); `None` for
    /// a connector or a Void slot.
    #[must_use]
    pub const fn octagon_coords(self) -> Option<(u32, u32)> {
        match self.kind() {
            SlotKind::Octagon => Some((self.row / 2, self.col / 2)),
            _ => None,
        }
    }

    /// The slot offset by `(d_row, d_col)`, or `None` when that would be negative.
    /// (Upper bounds are the caller's business: see [`crate::grid::Dims::contains`].)
    #[must_use]
    pub fn offset(self, d_row: i32, d_col: i32) -> Option<Slot> {
        let row = self.row.checked_add_signed(d_row)?;
        let col = self.col.checked_add_signed(d_col)?;
        Some(Slot { row, col })
    }
}

impl Slot {
    /// For a Void slot (the long seam between two octagons), the octagons either side of
    /// it: north then south, or west then east. `None` for a cell.
    #[must_use]
    pub fn seam_sides(self) -> Option<(Slot, Slot)> {
        if self.kind() != SlotKind::Void {
            return None;
        }
        // Below a Void slot is an octagon when the seam runs east-west (the octagons are
        // north and south of it), a connector when it runs north-south.
        let below = Slot { row: self.row + 1, col: self.col };
        if below.kind() == SlotKind::Octagon {
            Some((self.offset(-1, 0)?, below))
        } else {
            Some((self.offset(0, -1)?, self.offset(0, 1)?))
        }
    }
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "row {}, col {}", self.row, self.col)
    }
}

/// A position in a dungeon: a level (0 = bottom, growing up) and a slot on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Level index, 0 at the bottom, growing up (+Y).
    pub level: u16,
    /// The slot on that level.
    pub slot: Slot,
}

impl Pos {
    /// The position `(level, row, col)`.
    #[must_use]
    pub const fn new(level: u16, row: u32, col: u32) -> Self {
        Pos { level, slot: Slot { row, col } }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}, {}", self.level, self.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_rule() {
        assert_eq!(Slot::new(0, 0).kind(), SlotKind::Octagon);
        assert_eq!(Slot::new(2, 4).kind(), SlotKind::Octagon);
        assert_eq!(Slot::new(1, 1).kind(), SlotKind::Connector);
        assert_eq!(Slot::new(0, 1).kind(), SlotKind::Void);
        assert_eq!(Slot::new(1, 0).kind(), SlotKind::Void);
        assert!(!SlotKind::Void.is_cell());
    }

    #[test]
    fn offset_refuses_negative() {
        assert_eq!(Slot::new(0, 0).offset(-1, 0), None);
        assert_eq!(Slot::new(2, 3).offset(-1, 1), Some(Slot::new(1, 4)));
    }

    #[test]
    fn a_seam_names_the_octagons_either_side() {
        assert_eq!(Slot::new(4, 5).seam_sides(), Some((Slot::new(4, 4), Slot::new(4, 6))));
        assert_eq!(Slot::new(1, 0).seam_sides(), Some((Slot::new(0, 0), Slot::new(2, 0))));
        assert_eq!(Slot::new(0, 1).seam_sides(), Some((Slot::new(0, 0), Slot::new(0, 2))));
        assert_eq!(Slot::new(2, 2).seam_sides(), None);
        assert_eq!(Slot::new(1, 1).seam_sides(), None);
    }
}
