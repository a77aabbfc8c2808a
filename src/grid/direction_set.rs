//! `DirectionSet`: a set of the eight compass directions in one byte (which walls of a
//! cell are open, which ways a creature may step).

use super::Direction;

/// A set of [`Direction`]s, one bit each (bit `i` is `Direction::from_index(i)`).
///
/// ```
/// use octile::grid::{Direction, DirectionSet};
///
/// let mut open = DirectionSet::EMPTY.with(Direction::N).with(Direction::SE);
/// open.insert(Direction::W);
/// assert!(open.contains(Direction::SE) && !open.contains(Direction::S));
/// assert_eq!(open.iter().collect::<Vec<_>>(), [Direction::N, Direction::SE, Direction::W]);
/// assert_eq!(open.len(), 3);
/// assert_eq!(DirectionSet::ALL.difference(open).len(), 5);
/// assert_eq!(std::mem::size_of::<DirectionSet>(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DirectionSet(u8);

impl DirectionSet {
    /// No direction.
    pub const EMPTY: DirectionSet = DirectionSet(0);
    /// All eight.
    pub const ALL: DirectionSet = DirectionSet(0xff);
    /// The four diagonals (a connector's walls).
    pub const DIAGONALS: DirectionSet = DirectionSet(0b1010_1010);
    /// The four cardinals.
    pub const CARDINALS: DirectionSet = DirectionSet(0b0101_0101);

    /// The set whose bit `i` is set for `Direction::from_index(i)`.
    #[must_use]
    pub const fn from_bits(bits: u8) -> DirectionSet {
        DirectionSet(bits)
    }

    /// One bit per direction, bit `i` for `Direction::from_index(i)`.
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set with `dir` added.
    #[must_use]
    pub const fn with(self, dir: Direction) -> DirectionSet {
        DirectionSet(self.0 | 1 << dir.index())
    }

    /// The set with `dir` taken out.
    #[must_use]
    pub const fn without(self, dir: Direction) -> DirectionSet {
        DirectionSet(self.0 & !(1 << dir.index()))
    }

    /// True when `dir` is in the set.
    #[must_use]
    pub const fn contains(self, dir: Direction) -> bool {
        self.0 >> dir.index() & 1 == 1
    }

    /// Adds `dir`; true when it was not in the set.
    pub fn insert(&mut self, dir: Direction) -> bool {
        let fresh = !self.contains(dir);
        *self = self.with(dir);
        fresh
    }

    /// Takes `dir` out; true when it was in the set.
    pub fn remove(&mut self, dir: Direction) -> bool {
        let had = self.contains(dir);
        *self = self.without(dir);
        had
    }

    /// How many directions are in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when no direction is in the set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The directions in either set.
    #[must_use]
    pub const fn union(self, other: DirectionSet) -> DirectionSet {
        DirectionSet(self.0 | other.0)
    }

    /// The directions in both sets.
    #[must_use]
    pub const fn intersection(self, other: DirectionSet) -> DirectionSet {
        DirectionSet(self.0 & other.0)
    }

    /// The directions in this set but not in `other`.
    #[must_use]
    pub const fn difference(self, other: DirectionSet) -> DirectionSet {
        DirectionSet(self.0 & !other.0)
    }

    /// The directions in the set, clockwise from north.
    pub fn iter(self) -> impl Iterator<Item = Direction> {
        Direction::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

impl FromIterator<Direction> for DirectionSet {
    fn from_iter<I: IntoIterator<Item = Direction>>(iter: I) -> Self {
        iter.into_iter().fold(DirectionSet::EMPTY, DirectionSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subset_round_trips_through_its_directions() {
        for bits in 0..=255u8 {
            let set = DirectionSet::from_bits(bits);
            let dirs: Vec<Direction> = set.iter().collect();
            assert_eq!(dirs.len(), set.len());
            assert_eq!(dirs.iter().copied().collect::<DirectionSet>(), set);
            for d in Direction::ALL {
                assert_eq!(set.contains(d), dirs.contains(&d));
                let mut s = set;
                assert_eq!(s.insert(d), !set.contains(d));
                assert!(s.contains(d) && s.remove(d) && !s.contains(d));
            }
        }
        let diagonals: DirectionSet = Direction::DIAGONALS.into_iter().collect();
        assert_eq!(diagonals, DirectionSet::DIAGONALS);
        assert_eq!(Direction::CARDINALS.into_iter().collect::<DirectionSet>(), DirectionSet::CARDINALS);
        assert_eq!(DirectionSet::DIAGONALS.union(DirectionSet::CARDINALS), DirectionSet::ALL);
        assert!(DirectionSet::DIAGONALS.intersection(DirectionSet::CARDINALS).is_empty());
    }
}
