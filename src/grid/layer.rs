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

    /// All values, row-major, to change in place.
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// Slot columns (the layer's width).
    #[must_use]
    pub fn width(&self) -> u32 {
        self.dims.cols()
    }

    /// Slot rows (the layer's height).
    #[must_use]
    pub fn height(&self) -> u32 {
        self.dims.rows()
    }

    /// The row-major index of `slot`, or `None` outside the layer ([`Dims::index`]).
    #[must_use]
    pub fn index_of(&self, slot: Slot) -> Option<usize> {
        self.dims.index(slot).ok()
    }

    /// The slot at row-major index `index`, or `None` past the end ([`Dims::slot_at`]).
    #[must_use]
    pub fn slot_of(&self, index: usize) -> Option<Slot> {
        self.dims.slot_at(index)
    }

    /// Sets the value at `slot`, returning the old one.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid.
    pub fn set(&mut self, slot: Slot, value: T) -> Result<T, GridError> {
        Ok(std::mem::replace(self.get_mut(slot)?, value))
    }

    /// Every slot with its value, row-major.
    ///
    /// ```
    /// use octile::grid::{Dims, Grid, Slot};
    ///
    /// let mut heat = Grid::filled(Dims::from_octagons(3, 2)?, 0u8);
    /// heat.set(Slot::new(2, 4), 9)?;
    /// let hot: Vec<Slot> = heat.iter().filter(|&(_, &h)| h > 0).map(|(s, _)| s).collect();
    /// assert_eq!(hot, [Slot::new(2, 4)]);
    /// assert_eq!((heat.width(), heat.height()), (5, 3));
    /// let doubled = heat.map(|&h| u16::from(h) * 2);
    /// assert_eq!(*doubled.get(Slot::new(2, 4))?, 18);
    /// # Ok::<(), octile::grid::GridError>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Slot, &T)> + '_ {
        self.dims.slots().zip(&self.data)
    }

    /// A layer over the same slots with `f` of every value.
    #[must_use]
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid { dims: self.dims, data: self.data.iter().map(f).collect() }
    }
}

impl<T: Clone> Grid<T> {
    /// Sets every slot to `value`.
    pub fn fill(&mut self, value: T) {
        self.data.fill(value);
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

    #[test]
    fn a_dense_layer_indexes_sets_iterates_maps_and_fills() {
        let dims = Dims::from_octagons(3, 2).unwrap();
        let mut g = Grid::filled(dims, 1u32);
        assert_eq!((g.width(), g.height()), (5, 3));
        for i in 0..dims.slot_count() {
            let slot = g.slot_of(i).unwrap();
            assert_eq!(g.index_of(slot), Some(i));
        }
        assert_eq!((g.index_of(Slot::new(3, 0)), g.slot_of(15)), (None, None));
        assert_eq!(g.set(Slot::new(1, 3), 7), Ok(1));
        assert!(g.set(Slot::new(0, 5), 7).is_err());
        let sum: u32 = g.iter().map(|(_, &v)| v).sum();
        assert_eq!(sum, 14 + 7);
        assert_eq!(g.iter().nth(8), Some((Slot::new(1, 3), &7)));
        let strings = g.map(|v| v.to_string());
        assert_eq!(strings.get(Slot::new(1, 3)).unwrap(), "7");
        g.fill(0);
        g.as_mut_slice()[0] = 5;
        assert_eq!(g.as_slice().iter().sum::<u32>(), 5);
    }
}
