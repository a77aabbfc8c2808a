//! `Grid<T>`: one dense, row-major layer of values over the slots of one level.

use super::{Dims, GridError, Slot};

/// One dense row-major layer over all slots of a level (one value per slot, any kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid<T> {
    dims: Dims,
    data: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A layer over `dims` with every slot set to `value`.
    #[must_use]
    pub fn filled(dims: Dims, value: T) -> Self {
        Grid { dims, data: vec![value; dims.slot_count()] }
    }
}

impl<T> Grid<T> {
    /// The grid's dimensions.
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The value at `slot`, or an error when the slot is outside.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid.
    pub fn get(&self, slot: Slot) -> Result<&T, GridError> {
        Ok(&self.data[self.dims.index(slot)?])
    }

    /// Mutable access to the value at `slot`.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid.
    pub fn get_mut(&mut self, slot: Slot) -> Result<&mut T, GridError> {
        let i = self.dims.index(slot)?;
        Ok(&mut self.data[i])
    }

    /// All values, row-major.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_and_set_by_slot() {
        let dims = Dims::from_octagons(2, 3).unwrap();
        let mut g = Grid::filled(dims, 0u8);
        *g.get_mut(Slot::new(4, 2)).unwrap() = 7;
        assert_eq!(*g.get(Slot::new(4, 2)).unwrap(), 7);
        assert_eq!(g.as_slice()[dims.index(Slot::new(4, 2)).unwrap()], 7);
        assert!(g.get(Slot::new(5, 0)).is_err());
    }
}
