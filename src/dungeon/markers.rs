//! The dungeon's markers: where players start and where the dungeon ends, and the seed it
//! was generated from.

use super::{Dungeon, DungeonError};
#[cfg(doc)]
use crate::grid::GridError;
use crate::grid::Pos;

impl Dungeon {
    /// Where players start (a floor octagon on level 0), when set.
    #[must_use]
    pub fn entrance(&self) -> Option<Pos> {
        self.entrance
    }

    /// Where the dungeon ends, when set.
    #[must_use]
    pub fn exit(&self) -> Option<Pos> {
        self.exit
    }

    /// The seed the dungeon was generated from, when it was generated.
    #[must_use]
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Sets the entrance (must be a cell of this dungeon; it need not be carved).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot.
    pub fn set_entrance(&mut self, pos: Option<Pos>) -> Result<(), DungeonError> {
        self.entrance = self.checked_marker(pos)?;
        Ok(())
    }

    /// Sets the exit (must be a cell of this dungeon; it need not be carved).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot.
    pub fn set_exit(&mut self, pos: Option<Pos>) -> Result<(), DungeonError> {
        self.exit = self.checked_marker(pos)?;
        Ok(())
    }

    /// `pos` when it is `None` or a cell of this dungeon.
    fn checked_marker(&self, pos: Option<Pos>) -> Result<Option<Pos>, DungeonError> {
        if let Some(p) = pos {
            self.cell(p)?;
        }
        Ok(pos)
    }

    /// Records the generation seed.
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }
}
