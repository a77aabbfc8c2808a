//! Pins: a per-cell lock layer. A pinned cell (and every edge it has) is kept by re-solving
//! ([`crate::edit`]) and by generating around a design (`octile generate --keep`); it is
//! saved in the dungeon file (version 2).

use super::{Dungeon, DungeonError};
#[cfg(doc)]
use crate::grid::GridError;
use crate::grid::Pos;

impl Dungeon {
    /// True when the cell at `pos` is pinned (false for positions outside the dungeon and
    /// Void slots).
    #[must_use]
    pub fn is_pinned(&self, pos: Pos) -> bool {
        self.pins.get(usize::from(pos.level)).is_some_and(|layer| layer.get(pos.slot).is_ok_and(|&p| p))
    }

    /// Pins (`true`) or unpins the cell at `pos`.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot (only cells can be pinned).
    ///
    /// # Panics
    ///
    /// Never: the `expect` restates that `pos` was checked to be a cell of the dungeon.
    pub fn set_pinned(&mut self, pos: Pos, pinned: bool) -> Result<(), DungeonError> {
        let (l, _) = self.cell(pos)?;
        *self.pins[l].get_mut(pos.slot).expect("invariant: checked cell") = pinned;
        Ok(())
    }

    /// Every pinned cell, level by level, row-major.
    pub fn pinned(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|&p| self.is_pinned(p))
    }

    /// True when at least one cell is pinned.
    #[must_use]
    pub fn has_pins(&self) -> bool {
        self.pins.iter().any(|layer| layer.as_slice().iter().any(|&p| p))
    }
}

#[cfg(test)]
mod tests {
    use crate::dungeon::{Dungeon, DungeonError, Fill};
    use crate::geometry::Proportions;
    use crate::grid::Pos;

    #[test]
    fn pins_are_cells_only() {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Solid).unwrap();
        assert!(!d.has_pins());
        d.set_pinned(Pos::new(1, 1, 1), true).unwrap();
        assert!(d.is_pinned(Pos::new(1, 1, 1)));
        assert!(!d.is_pinned(Pos::new(0, 1, 1)));
        assert_eq!(d.pinned().collect::<Vec<_>>(), [Pos::new(1, 1, 1)]);
        assert!(matches!(d.set_pinned(Pos::new(0, 0, 1), true), Err(DungeonError::Grid { level: 0, .. })));
        assert!(matches!(d.set_pinned(Pos::new(2, 0, 0), true), Err(DungeonError::Level(_))));
        d.set_pinned(Pos::new(1, 1, 1), false).unwrap();
        assert!(!d.has_pins());
    }
}
