//! Field of view: the cells whose centres a viewer sees within a radius, as a bit grid of
//! one level, found by a flood outward from the viewer that only enters cells a visible
//! line could reach.

use glam::DVec2;

use super::line::{cell_center, check_point, check_spacing, sees};
use super::{Opacity, SightError};
use crate::dungeon::Dungeon;
use crate::geometry::Place;
use crate::grid::{Dims, Pos, Slot, SlotKind};

/// A set of slots of one level, one bit per slot (row-major, as [`Dims::index`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibleCells {
    level: u16,
    dims: Dims,
    bits: Vec<u64>,
    len: usize,
}

impl VisibleCells {
    /// An empty set over the slots of `dims` on `level`.
    #[must_use]
    pub fn new(level: u16, dims: Dims) -> VisibleCells {
        VisibleCells { level, dims, bits: vec![0; dims.slot_count().div_ceil(64)], len: 0 }
    }

    /// The level the set is on.
    #[must_use]
    pub fn level(&self) -> u16 {
        self.level
    }

    /// How many slots are in the set.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no slot is in the set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `slot` is in the set (false for a slot off the grid).
    #[must_use]
    pub fn contains(&self, slot: Slot) -> bool {
        self.dims.index(slot).is_ok_and(|i| self.bits[i / 64] >> (i % 64) & 1 == 1)
    }

    /// True when `pos` is on this set's level and its slot is in the set.
    #[must_use]
    pub fn contains_pos(&self, pos: Pos) -> bool {
        pos.level == self.level && self.contains(pos.slot)
    }

    /// Adds `slot`; returns true when it was not in the set. A slot off the grid is ignored
    /// (returns false).
    pub fn insert(&mut self, slot: Slot) -> bool {
        let Ok(i) = self.dims.index(slot) else { return false };
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        self.len += usize::from(fresh);
        fresh
    }

    /// Takes `slot` out; returns true when it was in the set (false for a slot off the
    /// grid).
    pub fn remove(&mut self, slot: Slot) -> bool {
        let Ok(i) = self.dims.index(slot) else { return false };
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let had = self.bits[word] & bit != 0;
        self.bits[word] &= !bit;
        self.len -= usize::from(had);
        had
    }

    /// Empties the set, keeping its level and grid.
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.len = 0;
    }

    /// Adds every slot of `other` (what a game has seen so far, joined with what it sees
    /// now); returns how many were new. A set of another level or grid adds nothing
    /// (returns 0).
    ///
    /// ```
    /// use octile::grid::{Dims, Slot};
    /// use octile::sight::VisibleCells;
    ///
    /// let dims = Dims::from_octagons(4, 4)?;
    /// let (mut seen, mut now) = (VisibleCells::new(0, dims), VisibleCells::new(0, dims));
    /// seen.insert(Slot::new(0, 0));
    /// now.insert(Slot::new(0, 0));
    /// now.insert(Slot::new(2, 2));
    /// assert_eq!(seen.union_with(&now), 1);
    /// assert!(seen.remove(Slot::new(0, 0)) && seen.len() == 1);
    /// seen.clear();
    /// assert!(seen.is_empty());
    /// # Ok::<(), octile::grid::GridError>(())
    /// ```
    pub fn union_with(&mut self, other: &VisibleCells) -> usize {
        if other.level != self.level || other.dims != self.dims {
            return 0;
        }
        let before = self.len;
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
        self.len = self.bits.iter().map(|w| w.count_ones() as usize).sum();
        self.len - before
    }

    /// The slots in the set, row-major.
    pub fn iter(&self) -> impl Iterator<Item = Slot> + '_ {
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            (0..64).filter(move |b| word >> b & 1 == 1).filter_map(move |b| self.dims.slot_at(w * 64 + b))
        })
    }

    /// One bit per slot, row-major in words of 64 (bit `i % 64` of word `i / 64` is slot
    /// index `i`), for a renderer that uploads the set.
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.bits
    }
}

/// The cells visible from the centre of the cell `viewer` within `radius` metres: see
/// [`field_of_view_from`].
///
/// # Errors
/// [`SightError::Position`] when `viewer` is not a cell; otherwise as
/// [`field_of_view_from`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill, Registry};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos, Slot};
/// use octile::sight::field_of_view;
///
/// let mut d = Dungeon::new(4, 1, 1, Proportions::default(), Fill::Floor)?;
/// d.set_edge(Pos::new(0, 0, 4), Direction::E, Registry::DOOR)?;
/// let seen = field_of_view(&d, Pos::new(0, 0, 0), 100.0)?;
/// assert!(seen.contains(Slot::new(0, 4)));
/// assert!(!seen.contains(Slot::new(0, 6)), "behind the closed door");
/// // A short radius sees only the viewer's own cell.
/// assert_eq!(field_of_view(&d, Pos::new(0, 0, 0), 1.0)?.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn field_of_view<O: Opacity + ?Sized>(
    sight: &O,
    viewer: Pos,
    radius: f64,
) -> Result<VisibleCells, SightError> {
    let eye = cell_center(sight.dungeon(), viewer)?;
    field_of_view_from(sight, viewer.level, eye, radius)
}

/// The cells of `level` visible from world point `eye` (`(x, z)` metres) within `radius`
/// metres. A cell is visible when its centre is at most `radius` from `eye` and
/// [`super::line_of_sight_points`] holds between `eye` and its centre (so a rock cell never
/// is; the walls a game draws are those of visible cells). `sight` is the dungeon or any
/// [`Opacity`] source over it (smoke: a [`super::Veil`] laid over it).
///
/// Cost: proportional to the cells within reach, not to the level. It floods outward
/// from the eye's cell, crossing only seams that pass sight into cells that a segment from
/// the eye shorter than `radius` could touch, and tests each such cell's centre with one
/// line of sight. Every cell a clear line from the eye passes through is joined to the
/// eye's cell that way, so the flood misses no visible cell. The only work that grows with
/// the level is zeroing the bit grid (a slot count / 8 bytes).
///
/// # Errors
/// [`SightError::Position`] for a level out of range, [`SightError::NonFinitePoint`],
/// [`SightError::BadMeasure`] for a negative or non-finite radius,
/// [`SightError::TightSpacing`].
///
/// # Panics
/// Never: the flood only visits cells of the dungeon's grid, which all have walls.
pub fn field_of_view_from<O: Opacity + ?Sized>(
    sight: &O,
    level: u16,
    eye: DVec2,
    radius: f64,
) -> Result<VisibleCells, SightError> {
    let dungeon = sight.dungeon();
    check_spacing(dungeon)?;
    check_point(dungeon, level, eye)?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(SightError::BadMeasure { what: "radius", value: radius });
    }
    let (dims, layout) = (dungeon.dims(), dungeon.layout());
    let octagon_reach = layout.octagon(Slot::new(0, 0))[0].length();
    let connector_reach = layout.connector(Slot::new(0, 0))[0].length();
    let reach = |slot: Slot| if slot.kind() == SlotKind::Octagon { octagon_reach } else { connector_reach };
    let mut seen = VisibleCells::new(level, dims);
    let mut queued = VisibleCells::new(level, dims);
    let mut stack: Vec<Slot> = eye_cells(dungeon, level, eye).into_iter().flatten().collect();
    stack.retain(|&s| sight.cell_passes(Pos { level, slot: s }) && queued.insert(s));
    while let Some(slot) = stack.pop() {
        let centre = layout.center(slot);
        if centre.distance(eye) <= radius && sees(sight, level, eye, centre) {
            seen.insert(slot);
        }
        let pos = Pos { level, slot };
        for &dir in dims.walls(slot).expect("invariant: flooded slots are cells") {
            let Ok(Some(next)) = dims.neighbor(slot, dir) else { continue };
            if queued.contains(next)
                || layout.center(next).distance(eye) > radius + reach(next)
                || sight.seam_sight(pos, dir).is_none()
            {
                continue;
            }
            queued.insert(next);
            stack.push(next);
        }
    }
    Ok(seen)
}

/// The cells the flood starts from: the cell holding `eye`, both cells of the seam holding
/// it, or the three cells of the open pillar holding it (none in a column or off the grid).
fn eye_cells(dungeon: &Dungeon, level: u16, eye: DVec2) -> [Option<Slot>; 3] {
    let dims = dungeon.dims();
    match dungeon.layout().place_at(eye) {
        Some(Place::Cell(slot)) if dims.contains(slot) => [Some(slot), None, None],
        Some(Place::Seam(edge)) => match dims.edge_sides(edge) {
            Ok([(a, _), (b, _)]) => [Some(a), Some(b), None],
            Err(_) => [None, None, None],
        },
        Some(Place::Pillar(pillar)) if dungeon.is_pillar_open(level, pillar) => pillar.cells().map(Some),
        _ => [None, None, None],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_grid_counts_and_iterates() {
        let dims = Dims::from_octagons(5, 5).unwrap();
        let mut set = VisibleCells::new(2, dims);
        assert!(set.is_empty());
        assert!(set.insert(Slot::new(8, 8)));
        assert!(!set.insert(Slot::new(8, 8)));
        assert!(set.insert(Slot::new(0, 1)));
        assert!(!set.insert(Slot::new(99, 0)));
        assert_eq!(set.len(), 2);
        assert_eq!(set.iter().collect::<Vec<_>>(), [Slot::new(0, 1), Slot::new(8, 8)]);
        assert!(set.contains_pos(Pos::new(2, 8, 8)) && !set.contains_pos(Pos::new(0, 8, 8)));
        assert_eq!(set.words().len(), 2);
        let mut other = VisibleCells::new(2, dims);
        other.insert(Slot::new(8, 8));
        other.insert(Slot::new(4, 4));
        assert_eq!(set.union_with(&other), 1);
        assert_eq!(set.iter().collect::<Vec<_>>(), [Slot::new(0, 1), Slot::new(4, 4), Slot::new(8, 8)]);
        assert_eq!(set.union_with(&VisibleCells::new(1, dims)), 0, "another level");
        assert!(set.remove(Slot::new(4, 4)) && !set.remove(Slot::new(4, 4)) && !set.remove(Slot::new(99, 0)));
        assert_eq!(set.len(), 2);
        set.clear();
        assert!(set.is_empty() && set.iter().next().is_none());
    }
}
