//! What each cell of each level is given to while a spec is realised: free ground, a room,
//! or the corridor of one connection.

use crate::grid::{Dims, Direction, Slot, SlotKind};

/// The owner of one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Owner {
    /// Not part of the room graph: the solver fills it.
    Free,
    /// A cell of room `n` of the flow.
    Room(usize),
    /// A cell of the corridor of connection `n` of the flow.
    Corridor(usize),
}

/// Per level, the owner of every slot (Void slots stay [`Owner::Free`] and are never asked),
/// with a journal of every change since it was made, so a layout can be taken back to any
/// earlier [`Ground::mark`] ([`Ground::roll_back`]) without copying the levels.
#[derive(Debug)]
pub(crate) struct Ground {
    pub(crate) dims: Dims,
    owners: Vec<Vec<Owner>>,
    /// Every [`Ground::set`] in order: level, slot index and the owner it replaced.
    journal: Vec<(u16, u32, Owner)>,
}

impl Ground {
    /// All ground free on `levels` levels of `dims`.
    pub(crate) fn new(dims: Dims, levels: u16) -> Ground {
        Ground {
            dims,
            owners: vec![vec![Owner::Free; dims.slot_count()]; usize::from(levels)],
            journal: Vec::new(),
        }
    }

    /// A point in the ground's history that [`Ground::roll_back`] returns to.
    pub(crate) fn mark(&self) -> usize {
        self.journal.len()
    }

    /// Undoes every change made since `mark`, newest first.
    pub(crate) fn roll_back(&mut self, mark: usize) {
        while self.journal.len() > mark {
            let (level, i, owner) = self.journal.pop().expect("invariant: longer than the mark");
            self.owners[usize::from(level)][i as usize] = owner;
        }
    }

    /// The owner of `slot` on `level` (outside the grid: not free, so nothing goes there).
    pub(crate) fn owner(&self, level: u16, slot: Slot) -> Owner {
        match self.dims.index(slot) {
            Ok(i) => self.owners[usize::from(level)][i],
            Err(_) => Owner::Room(usize::MAX),
        }
    }

    /// Gives `slot` on `level` to `owner`.
    pub(crate) fn set(&mut self, level: u16, slot: Slot, owner: Owner) {
        let i = self.dims.index(slot).expect("invariant: a slot of the grid");
        let cell = &mut self.owners[usize::from(level)][i];
        self.journal.push((level, i as u32, *cell));
        *cell = owner;
    }

    /// True when `slot` is a cell of the grid and free on `level`.
    pub(crate) fn is_free(&self, level: u16, slot: Slot) -> bool {
        slot.kind().is_cell() && self.owner(level, slot) == Owner::Free
    }

    /// The cell across wall `dir` of `slot`, when there is one.
    pub(crate) fn beyond(&self, slot: Slot, dir: Direction) -> Option<Slot> {
        self.dims.neighbor(slot, dir).ok().flatten()
    }

    /// The octagon at octagon coordinates `(row, col)` (signed, so callers may step off the
    /// grid), when it is on the grid.
    pub(crate) fn octagon(&self, row: i64, col: i64) -> Option<Slot> {
        let (rows, cols) = (i64::from(self.dims.octagon_rows()), i64::from(self.dims.octagon_cols()));
        ((0..rows).contains(&row) && (0..cols).contains(&col)).then(|| Slot::octagon(row as u32, col as u32))
    }

    /// True when every octagon within Chebyshev distance `gap` of `slot` (an octagon) on
    /// `level` is free or `Owner::Room(room)`.
    pub(crate) fn clear_around(&self, level: u16, slot: Slot, gap: u32, room: usize) -> bool {
        debug_assert_eq!(slot.kind(), SlotKind::Octagon);
        let (r, c) = slot.octagon_coords().expect("invariant: an octagon");
        let g = i64::from(gap);
        (-g..=g).all(|dr| {
            (-g..=g).all(|dc| match self.octagon(i64::from(r) + dr, i64::from(c) + dc) {
                Some(o) => {
                    matches!(self.owner(level, o), Owner::Free) || self.owner(level, o) == Owner::Room(room)
                }
                None => true,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_back_restores_every_owner_since_the_mark() {
        let dims = Dims::from_octagons(6, 6).unwrap();
        let mut ground = Ground::new(dims, 2);
        ground.set(0, Slot::octagon(1, 1), Owner::Room(0));
        let mark = ground.mark();
        ground.set(0, Slot::octagon(1, 1), Owner::Corridor(3));
        ground.set(1, Slot::octagon(2, 2), Owner::Room(1));
        ground.set(1, Slot::octagon(2, 2), Owner::Free);
        ground.set(1, Slot::octagon(4, 4), Owner::Room(2));
        ground.roll_back(mark);
        assert_eq!(ground.owner(0, Slot::octagon(1, 1)), Owner::Room(0));
        assert!(ground.is_free(1, Slot::octagon(2, 2)));
        assert!(ground.is_free(1, Slot::octagon(4, 4)));
        assert_eq!(ground.mark(), mark);
        ground.roll_back(0);
        assert!(ground.is_free(0, Slot::octagon(1, 1)));
    }
}
