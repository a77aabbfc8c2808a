//! `SpatialIndex`: what stands where, kept out of the dungeon. Moving a creature or an item
//! changes the index, never the level, so the dungeon (and its meshes) stays untouched.

use std::collections::BTreeMap;

use glam::DVec2;

use crate::geometry::Layout;
use crate::grid::{Pos, Slot};

/// The caller's things (creatures, items, markers: any `T`) by position, in a `BTreeMap`
/// keyed by [`Pos`], so iteration is in position order (level, row, col) and the same on
/// every run. Several things may share a position; they keep the order they were put there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpatialIndex<T> {
    cells: BTreeMap<Pos, Vec<T>>,
}

impl<T> Default for SpatialIndex<T> {
    fn default() -> Self {
        SpatialIndex { cells: BTreeMap::new() }
    }
}

impl<T: PartialEq> SpatialIndex<T> {
    /// An empty index.
    #[must_use]
    pub fn new() -> SpatialIndex<T> {
        Self::default()
    }

    /// Puts `thing` at `pos` (after whatever stands there already).
    pub fn insert(&mut self, pos: Pos, thing: T) {
        self.cells.entry(pos).or_default().push(thing);
    }

    /// Takes the first thing equal to `thing` away from `pos` and returns it; `None` when
    /// no such thing stands there.
    pub fn remove(&mut self, pos: Pos, thing: &T) -> Option<T> {
        let list = self.cells.get_mut(&pos)?;
        let i = list.iter().position(|t| t == thing)?;
        let taken = list.remove(i);
        if list.is_empty() {
            self.cells.remove(&pos);
        }
        Some(taken)
    }

    /// Moves the first thing equal to `thing` from `from` to `to` (after what stands at
    /// `to`); returns false, changing nothing, when no such thing stands at `from`.
    pub fn move_to(&mut self, from: Pos, to: Pos, thing: &T) -> bool {
        let Some(taken) = self.remove(from, thing) else { return false };
        self.insert(to, taken);
        true
    }

    /// The things at `pos`, in the order they were put there (empty when none).
    #[must_use]
    pub fn at(&self, pos: Pos) -> &[T] {
        self.cells.get(&pos).map_or(&[], Vec::as_slice)
    }

    /// Every position that holds something, with its things, in position order.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &[T])> {
        self.cells.iter().map(|(&pos, list)| (pos, list.as_slice()))
    }

    /// How many things the index holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.values().map(Vec::len).sum()
    }

    /// True when the index holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The things on `level` whose position's centre ([`Layout::center`]) is at most
    /// `radius` metres from world point `centre` (`(x, z)`), in position order. Looks only at
    /// the rows the radius spans, not at the whole index.
    ///
    /// # Example
    /// ```
    /// use glam::DVec2;
    /// use octile::geometry::{Layout, Proportions};
    /// use octile::grid::Pos;
    /// use octile::sight::SpatialIndex;
    ///
    /// let layout = Layout::new(Proportions::default())?;
    /// let mut things = SpatialIndex::new();
    /// things.insert(Pos::new(0, 0, 0), "goblin");
    /// things.insert(Pos::new(0, 0, 8), "chest");
    /// assert!(things.move_to(Pos::new(0, 0, 0), Pos::new(0, 0, 2), &"goblin"));
    /// let near: Vec<_> = things.within(&layout, 0, DVec2::ZERO, 20.0).map(|(_, t)| *t).collect();
    /// assert_eq!(near, ["goblin"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn within<'a>(
        &'a self,
        layout: &'a Layout,
        level: u16,
        centre: DVec2,
        radius: f64,
    ) -> impl Iterator<Item = (Pos, &'a T)> + 'a {
        let s = layout.spacing();
        let row = |z: f64| (z / s).clamp(0.0, f64::from(u32::MAX));
        let (first, last) = (row(centre.y - radius).ceil() as u32, row(centre.y + radius).floor() as u32);
        let usable = radius >= 0.0 && centre.is_finite() && centre.y + radius >= 0.0;
        let range = if usable && first <= last {
            Some(self.cells.range(
                Pos { level, slot: Slot::new(first, 0) }..=Pos { level, slot: Slot::new(last, u32::MAX) },
            ))
        } else {
            None
        };
        range
            .into_iter()
            .flatten()
            .filter(move |(pos, _)| layout.center(pos.slot).distance(centre) <= radius)
            .flat_map(|(&pos, list)| list.iter().map(move |t| (pos, t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Proportions;

    #[test]
    fn insert_move_remove_and_range() {
        let layout = Layout::new(Proportions::default()).unwrap();
        let mut index = SpatialIndex::new();
        index.insert(Pos::new(0, 2, 2), 1);
        index.insert(Pos::new(0, 2, 2), 2);
        index.insert(Pos::new(1, 2, 2), 3);
        assert_eq!(index.at(Pos::new(0, 2, 2)), [1, 2]);
        assert_eq!(index.len(), 3);
        assert!(!index.move_to(Pos::new(0, 0, 0), Pos::new(0, 4, 4), &1));
        assert!(index.move_to(Pos::new(0, 2, 2), Pos::new(0, 4, 4), &1));
        assert_eq!(index.at(Pos::new(0, 2, 2)), [2]);
        let c = layout.center(Slot::new(4, 4));
        let near: Vec<_> = index.within(&layout, 0, c, 0.5).collect();
        assert_eq!(near, [(Pos::new(0, 4, 4), &1)]);
        let wide: Vec<_> = index.within(&layout, 0, c, 100.0).map(|(_, &t)| t).collect();
        assert_eq!(wide, [2, 1], "level 1 is not searched");
        assert_eq!(index.remove(Pos::new(0, 2, 2), &2), Some(2));
        assert!(index.at(Pos::new(0, 2, 2)).is_empty());
        assert_eq!(index.iter().count(), 2);
        assert!(index.within(&layout, 0, c, -1.0).next().is_none());
    }
}
