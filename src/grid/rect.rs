//! `Rect`: a half-open rectangle of slots, with the predicates and iterators a room
//! placer or a game's area logic asks of one.

use super::{Dims, Slot};

/// The slots of rows `top..bottom` and columns `left..right` (half-open, in slots: a
/// rectangle with `bottom == top` is empty).
///
/// ```
/// use octile::grid::{Rect, Slot};
///
/// let room = Rect::new(2, 2, 7, 9); // rows 2..7, columns 2..9
/// assert_eq!((room.height(), room.width()), (5, 7));
/// assert!(room.contains(Slot::new(6, 8)) && !room.contains(Slot::new(7, 8)));
/// assert!(room.is_border(Slot::new(2, 5)) && !room.is_border(Slot::new(4, 5)));
/// let other = Rect::new(8, 2, 10, 4);
/// assert!(!room.intersects(&other) && room.too_close(&other, 2));
/// assert_eq!(room.interior(), Rect::new(3, 3, 6, 8));
/// assert_eq!(room.border().count(), 2 * 7 + 2 * 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// One past the last row.
    pub bottom: u32,
    /// One past the last column.
    pub right: u32,
}

impl Rect {
    /// Rows `top..bottom`, columns `left..right` (empty when `bottom <= top` or
    /// `right <= left`).
    #[must_use]
    pub const fn new(top: u32, left: u32, bottom: u32, right: u32) -> Rect {
        Rect { top, left, bottom, right }
    }

    /// Every slot of a level of `dims`.
    #[must_use]
    pub const fn of(dims: Dims) -> Rect {
        Rect::new(0, 0, dims.rows(), dims.cols())
    }

    /// Columns, 0 when empty.
    #[must_use]
    pub const fn width(&self) -> u32 {
        self.right.saturating_sub(self.left)
    }

    /// Rows, 0 when empty.
    #[must_use]
    pub const fn height(&self) -> u32 {
        self.bottom.saturating_sub(self.top)
    }

    /// True when it holds no slot.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.width() == 0 || self.height() == 0
    }

    /// True when `slot` lies inside.
    #[must_use]
    pub const fn contains(&self, slot: Slot) -> bool {
        slot.row >= self.top && slot.row < self.bottom && slot.col >= self.left && slot.col < self.right
    }

    /// True when `slot` lies inside, on the first or last row or column.
    #[must_use]
    pub const fn is_border(&self, slot: Slot) -> bool {
        self.contains(slot)
            && (slot.row == self.top
                || slot.row + 1 == self.bottom
                || slot.col == self.left
                || slot.col + 1 == self.right)
    }

    /// True when the two share a slot.
    #[must_use]
    pub const fn intersects(&self, other: &Rect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.top < other.bottom
            && other.top < self.bottom
            && self.left < other.right
            && other.left < self.right
    }

    /// True when fewer than `gap` slots separate the two (they intersect once either is
    /// grown by `gap`): a room placer's spacing rule. `too_close(other, 0)` is
    /// [`Rect::intersects`].
    #[must_use]
    pub const fn too_close(&self, other: &Rect, gap: u32) -> bool {
        !other.is_empty() && self.inflate(gap).intersects(other)
    }

    /// Grown by `by` slots on every side (not past row and column 0; saturating above).
    /// An empty rectangle stays empty.
    #[must_use]
    pub const fn inflate(&self, by: u32) -> Rect {
        if self.is_empty() {
            return *self;
        }
        Rect::new(
            self.top.saturating_sub(by),
            self.left.saturating_sub(by),
            self.bottom.saturating_add(by),
            self.right.saturating_add(by),
        )
    }

    /// The slots inside but not on the border (empty for a rectangle two slots thin or
    /// less).
    #[must_use]
    pub const fn interior(&self) -> Rect {
        if self.width() <= 2 || self.height() <= 2 {
            return Rect::new(self.top, self.left, self.top, self.left);
        }
        Rect::new(self.top + 1, self.left + 1, self.bottom - 1, self.right - 1)
    }

    /// The slots both hold, or `None` when they share none.
    #[must_use]
    pub fn intersection(&self, other: &Rect) -> Option<Rect> {
        self.intersects(other).then(|| {
            Rect::new(
                self.top.max(other.top),
                self.left.max(other.left),
                self.bottom.min(other.bottom),
                self.right.min(other.right),
            )
        })
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    #[must_use]
    pub fn union(&self, other: &Rect) -> Rect {
        match (self.is_empty(), other.is_empty()) {
            (true, _) => *other,
            (_, true) => *self,
            _ => Rect::new(
                self.top.min(other.top),
                self.left.min(other.left),
                self.bottom.max(other.bottom),
                self.right.max(other.right),
            ),
        }
    }

    /// Every slot inside, row-major (Void slots included: see [`Rect::cells`]).
    pub fn slots(&self) -> impl Iterator<Item = Slot> + use<> {
        let Rect { top, left, bottom, right } = *self;
        let right = if bottom > top { right } else { left };
        (top..bottom).flat_map(move |row| (left..right).map(move |col| Slot::new(row, col)))
    }

    /// The cells inside (octagons and connectors), row-major.
    pub fn cells(&self) -> impl Iterator<Item = Slot> + use<> {
        self.slots().filter(|s| s.kind().is_cell())
    }

    /// The slots on the border, row-major.
    pub fn border(&self) -> impl Iterator<Item = Slot> + use<> {
        let rect = *self;
        self.slots().filter(move |&s| rect.is_border(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates_agree_with_the_slots_they_describe() {
        let rects = [
            Rect::new(0, 0, 3, 4),
            Rect::new(2, 3, 6, 6),
            Rect::new(5, 5, 5, 9),
            Rect::new(4, 0, 9, 2),
            Rect::new(1, 1, 2, 2),
        ];
        for a in &rects {
            let slots: Vec<Slot> = a.slots().collect();
            assert_eq!(slots.len(), (a.width() * a.height()) as usize);
            assert_eq!(a.is_empty(), slots.is_empty());
            assert!(slots.iter().all(|&s| a.contains(s)));
            let border: Vec<Slot> = a.border().collect();
            let interior: Vec<Slot> = a.interior().slots().collect();
            assert_eq!(border.len() + interior.len(), slots.len(), "{a:?}");
            assert!(interior.iter().all(|s| !border.contains(s)));
            assert!(a.cells().all(|s| s.kind().is_cell()));
            for b in &rects {
                let shared: Vec<Slot> = slots.iter().copied().filter(|&s| b.contains(s)).collect();
                assert_eq!(a.intersects(b), !shared.is_empty(), "{a:?} {b:?}");
                let inter = a.intersection(b).map_or(Vec::new(), |r| r.slots().collect());
                assert_eq!(inter, shared);
                let u = a.union(b);
                assert!(slots.iter().chain(b.slots().collect::<Vec<_>>().iter()).all(|&s| u.contains(s)));
                assert_eq!(a.too_close(b, 0), a.intersects(b));
            }
        }
        let (a, b) = (Rect::new(0, 0, 3, 3), Rect::new(0, 5, 3, 8));
        assert!(!a.too_close(&b, 2) && a.too_close(&b, 3), "two slots between them");
        assert_eq!(Rect::new(1, 1, 3, 3).inflate(2), Rect::new(0, 0, 5, 5));
        assert_eq!(Rect::of(Dims::from_octagons(3, 2).unwrap()), Rect::new(0, 0, 3, 5));
    }
}
