//! Room heights (docs/design.md, "Room heights"): a per-cell layer of floor-to-ceiling heights, each
//! a whole number of centimetres, unset meaning the dungeon's default
//! ([`crate::geometry::Proportions::room_height`]). This module owns every height rule:
//! a cell's height ([`Dungeon::room_height_at`]), the legal range
//! ([`Dungeon::room_height_range`]), and the height of an opening between cells, the
//! lowest of theirs ([`Dungeon::opening_height`], [`Dungeon::seam_height`]).

use std::num::NonZeroU16;

use super::{DECK_THICKNESS, Dungeon, DungeonError};
use crate::geometry::Proportions;
#[cfg(doc)]
use crate::grid::GridError;
use crate::grid::{EdgeId, Pos, Slot};

/// Lowest room height a cell may be given (metres).
pub const MIN_ROOM_HEIGHT: f64 = 2.5;

/// Least rock a cell's ceiling leaves under the floor of the level above (metres): a room
/// is at most `layer_height - MIN_SLAB` high.
pub const MIN_SLAB: f64 = 1.0;

/// Most rock a door keeps over itself where its seam is too low for the dungeon's
/// `door_height` (metres): there the door is this much lower than the seam, or the default
/// room's own lintel over its doors where that is thinner ([`Dungeon::door_height_at`]).
pub const DOOR_LINTEL: f64 = 0.5;

/// A room height set on one cell: a whole number of centimetres (so heights compare and
/// save exactly), never zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomHeight(NonZeroU16);

impl RoomHeight {
    /// `metres` rounded to the nearest centimetre; `None` when it is not finite or rounds
    /// outside 1 cm ..= 655.35 m.
    #[must_use]
    pub fn from_metres(metres: f64) -> Option<RoomHeight> {
        let cm = (metres * 100.0).round();
        if !(1.0..=f64::from(u16::MAX)).contains(&cm) {
            return None;
        }
        NonZeroU16::new(cm as u16).map(RoomHeight)
    }

    /// The height in whole centimetres.
    #[must_use]
    pub fn centimetres(self) -> u16 {
        self.0.get()
    }

    /// The height in metres.
    #[must_use]
    pub fn to_metres(self) -> f64 {
        f64::from(self.0.get()) / 100.0
    }
}

/// The legal range of set room heights for `proportions`, in centimetres: at least
/// [`MIN_ROOM_HEIGHT`], at most `layer_height - MIN_SLAB`. Empty when nothing fits.
fn range_cm(p: &Proportions) -> (u16, u16) {
    let low = MIN_ROOM_HEIGHT;
    // A small tolerance so that `2.5` or `12.0 - 1.0` in metres land on their centimetre.
    let min = (low * 100.0 - 1e-6).ceil();
    let max = ((p.layer_height - MIN_SLAB) * 100.0 + 1e-6).floor();
    (min.clamp(1.0, f64::from(u16::MAX)) as u16, max.clamp(0.0, f64::from(u16::MAX)) as u16)
}

impl Dungeon {
    /// The room height of the cell at `pos` (metres, floor to ceiling): the one set on it,
    /// or the dungeon's default `room_height`; but a cell open above
    /// ([`Dungeon::open_above`]) is carved up to the next level's floor, `layer_height`,
    /// and a cell under a deck ([`Dungeon::under_deck`]) without a height of its own up to
    /// the deck, [`DECK_THICKNESS`] below it (a set height keeps the room low, the floor
    /// over it a slab: how a pit's hole stays a hole in the ceiling of the room below).
    /// Everything that reads space (mesh, walk, export) asks this. The default too for
    /// positions outside the dungeon and Void slots.
    #[must_use]
    pub fn room_height_at(&self, pos: Pos) -> f64 {
        let p = self.proportions();
        if self.may_have_voids() {
            if self.open_above(pos) {
                return p.layer_height;
            }
            if self.room_height_set(pos).is_none() && self.under_deck(pos) {
                return p.layer_height - DECK_THICKNESS;
            }
        }
        self.room_height_set(pos).map_or(p.room_height, RoomHeight::to_metres)
    }

    /// A height no cell's carved space falls short of ([`Dungeon::carved_top`], and so no
    /// opening's, [`Dungeon::opening_height`]): the lowest of the default room height,
    /// [`MIN_ROOM_HEIGHT`] (the least a set height may be) and the space under a deck.
    /// Readers that only need to know whether a point is under every ceiling ask this
    /// instead of each cell.
    #[must_use]
    pub fn lowest_carved_top(&self) -> f64 {
        let p = self.proportions();
        p.room_height.min(MIN_ROOM_HEIGHT).min(p.layer_height - DECK_THICKNESS)
    }

    /// How high the carved space of the cell at `pos` reaches above its floor (metres): a
    /// stair's shaft runs up to the next level's floor (`layer_height`, [`Dungeon::is_stair`]),
    /// any other cell to its [`Dungeon::room_height_at`]. With the cell's floor at the
    /// bottom, this is the cell's part of its column, as the mesh and sight read it.
    #[must_use]
    pub fn carved_top(&self, pos: Pos) -> f64 {
        if self.is_stair(pos) { self.proportions().layer_height } else { self.room_height_at(pos) }
    }

    /// The room height set on the cell at `pos`, or `None` when it has the default (and for
    /// positions outside the dungeon and Void slots).
    #[must_use]
    pub fn room_height_set(&self, pos: Pos) -> Option<RoomHeight> {
        let layer = self.heights.get(usize::from(pos.level))?;
        layer.get(pos.slot).ok().copied().flatten()
    }

    /// Per slot of `level`, by slot index ([`crate::grid::Dims::index`]): each cell's
    /// [`Dungeon::room_height_at`] (the default on Void slots), for readers that walk every
    /// cell. Empty when `level` is not a level of the dungeon.
    #[must_use]
    pub fn room_heights(&self, level: u16) -> Vec<f64> {
        if self.may_have_voids() && level < self.levels() {
            return self.dims().slots().map(|slot| self.room_height_at(Pos { level, slot })).collect();
        }
        let default = self.proportions().room_height;
        self.heights.get(usize::from(level)).map_or_else(Vec::new, |layer| {
            layer.as_slice().iter().map(|h| h.map_or(default, RoomHeight::to_metres)).collect()
        })
    }

    /// The lowest room height of `slots` on `level` (metres): how high an opening joining
    /// those cells is carved. A seam is as high as its two cells' lower one
    /// ([`Dungeon::seam_height`]); an open pillar as its three cells' lowest. The default
    /// room height when `slots` is empty.
    #[must_use]
    pub fn opening_height(&self, level: u16, slots: &[Slot]) -> f64 {
        let heights = slots.iter().map(|&slot| self.room_height_at(Pos { level, slot }));
        heights.reduce(f64::min).unwrap_or(self.proportions().room_height)
    }

    /// The height of the seam `edge` on `level` (metres): the lower of its two cells'
    /// ([`Dungeon::opening_height`]). The default room height when `edge` names no edge of
    /// the grid.
    #[must_use]
    pub fn seam_height(&self, level: u16, edge: EdgeId) -> f64 {
        match self.dims().edge_sides(edge) {
            Ok(sides) => self.opening_height(level, &sides.map(|(slot, _)| slot)),
            Err(_) => self.proportions().room_height,
        }
    }

    /// How high the door through `edge` on `level` is carved (metres): the dungeon's
    /// `door_height`, or where its seam ([`Dungeon::seam_height`]) is too low for that,
    /// the seam's height less [`DOOR_LINTEL`] (less the default room's own lintel over its
    /// doors, `room_height - door_height`, where that is thinner). A seam at least the
    /// default room height keeps `door_height`, so every dungeon without heights keeps its
    /// doors; the lowest room, 2.5 m, gets 2 m doors.
    #[must_use]
    pub fn door_height_at(&self, level: u16, edge: EdgeId) -> f64 {
        let p = self.proportions();
        let seam = self.seam_height(level, edge);
        if seam >= p.room_height {
            return p.door_height;
        }
        let lintel = DOOR_LINTEL.min(p.room_height - p.door_height);
        p.door_height.min(seam - lintel)
    }

    /// The legal range of a set room height (metres, both ends included): at least
    /// [`MIN_ROOM_HEIGHT`], at most `layer_height - `[`MIN_SLAB`], each rounded inward to
    /// the centimetre. Empty (start above end) when the layer is too low for any.
    #[must_use]
    pub fn room_height_range(&self) -> std::ops::RangeInclusive<f64> {
        let (min, max) = range_cm(self.proportions());
        f64::from(min) / 100.0..=f64::from(max) / 100.0
    }

    /// Sets the room height of the cell at `pos` to `metres`, rounded to the centimetre
    /// (the generator and the editor call this). Returns the height stored.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot;
    /// [`DungeonError::RoomHeightOutOfRange`] when `metres` is not a number in
    /// [`Dungeon::room_height_range`].
    ///
    /// # Panics
    ///
    /// Never: the `expect` restates that `pos` was checked to be a cell of the dungeon.
    pub fn set_room_height(&mut self, pos: Pos, metres: f64) -> Result<RoomHeight, DungeonError> {
        let (l, _) = self.cell(pos)?;
        let (min, max) = range_cm(self.proportions());
        let height = RoomHeight::from_metres(metres).filter(|h| (min..=max).contains(&h.centimetres()));
        let Some(height) = height else {
            let Slot { row, col } = pos.slot;
            let range = self.room_height_range();
            return Err(DungeonError::RoomHeightOutOfRange {
                level: pos.level,
                row,
                col,
                metres,
                min: *range.start(),
                max: *range.end(),
            });
        };
        let cell = self.heights[l].get_mut(pos.slot).expect("invariant: checked cell");
        if cell.replace(height).is_none() {
            self.heights_set += 1;
        }
        Ok(height)
    }

    /// Gives the cell at `pos` the default room height again.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::set_room_height`] for `pos`.
    ///
    /// # Panics
    ///
    /// Never: the `expect` restates that `pos` was checked to be a cell of the dungeon.
    pub fn clear_room_height(&mut self, pos: Pos) -> Result<(), DungeonError> {
        let (l, _) = self.cell(pos)?;
        if self.heights[l].get_mut(pos.slot).expect("invariant: checked cell").take().is_some() {
            self.heights_set -= 1;
        }
        Ok(())
    }

    /// Every cell with a set room height and its height, level by level, row-major.
    pub fn room_heights_set(&self) -> impl Iterator<Item = (Pos, RoomHeight)> + '_ {
        self.cells().filter_map(|p| self.room_height_set(p).map(|h| (p, h)))
    }

    /// True when at least one cell has a set room height.
    #[must_use]
    pub fn has_room_heights(&self) -> bool {
        self.heights_set > 0
    }

    /// The tallest room height of `level` (metres): the default or the highest set on any
    /// cell of it. The default when `level` is not a level of the dungeon.
    #[must_use]
    pub fn tallest_room(&self, level: u16) -> f64 {
        let default = self.proportions().room_height;
        self.heights.get(usize::from(level)).map_or(default, |layer| {
            layer.as_slice().iter().flatten().map(|h| h.to_metres()).fold(default, f64::max)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::grid::Direction;

    fn small() -> Dungeon {
        Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap()
    }

    #[test]
    fn unset_cells_have_the_default() {
        let d = small();
        assert_eq!(d.room_height_at(Pos::new(0, 2, 2)), 4.0);
        assert_eq!(d.room_height_set(Pos::new(0, 2, 2)), None);
        assert!(!d.has_room_heights());
        assert_eq!(d.room_height_range(), 2.5..=11.0);
    }

    #[test]
    fn the_setter_refuses_outside_the_range_and_names_the_place() {
        let mut d = small();
        let p = Proportions::default();
        for bad in [2.49, p.layer_height - 0.99, f64::NAN, f64::INFINITY, -3.0, 0.0] {
            let err = d.set_room_height(Pos::new(1, 2, 4), bad).unwrap_err();
            assert!(
                matches!(err, DungeonError::RoomHeightOutOfRange { level: 1, row: 2, col: 4, .. }),
                "{bad}: {err:?}"
            );
            let text = err.to_string();
            assert!(text.contains("level 1") && text.contains("row 2, col 4"), "{text}");
            assert!(text.contains("2.5 m to 11 m"), "{text}");
        }
        assert!(!d.has_room_heights());
        let mut low = small();
        assert!(low.set_room_height(Pos::new(0, 0, 0), 2.494).is_err(), "rounds to 2.49");
        assert_eq!(low.set_room_height(Pos::new(0, 0, 0), 2.5).unwrap().centimetres(), 250);
        assert!(low.set_room_height(Pos::new(0, 0, 0), 11.01).is_err());
        assert_eq!(low.set_room_height(Pos::new(0, 0, 0), 11.0).unwrap().to_metres(), 11.0);
        assert!(matches!(
            d.set_room_height(Pos::new(0, 0, 1), 6.0),
            Err(DungeonError::Grid { level: 0, .. })
        ));
        assert!(matches!(d.set_room_height(Pos::new(2, 0, 0), 6.0), Err(DungeonError::Level(_))));
    }

    #[test]
    fn doors_keep_their_height_but_under_a_low_seam() {
        let mut d = small();
        let (a, b) = (Pos::new(0, 2, 2), Pos::new(0, 2, 4));
        let edge = d.dims().edge(a.slot, Direction::E).unwrap().unwrap();
        assert_eq!(d.door_height_at(0, edge), 3.0);
        d.set_room_height(a, 9.0).unwrap();
        assert_eq!(d.door_height_at(0, edge), 3.0, "a seam of the default height keeps the doors");
        d.set_room_height(b, 3.2).unwrap();
        assert!((d.door_height_at(0, edge) - 2.7).abs() < 1e-12, "{}", d.door_height_at(0, edge));
        d.set_room_height(b, 2.5).unwrap();
        assert_eq!(d.door_height_at(0, edge), 2.0);
        // Proportions whose rooms keep less than DOOR_LINTEL over their doors keep that.
        let tight = Proportions { door_height: 3.8, ..Proportions::default() };
        let mut t = Dungeon::new(3, 3, 1, tight, Fill::Floor).unwrap();
        assert_eq!(t.door_height_at(0, edge), 3.8, "exactly, not 4.0 - (4.0 - 3.8)");
        t.set_room_height(b, 3.0).unwrap();
        assert!((t.door_height_at(0, edge) - 2.8).abs() < 1e-12);
    }

    #[test]
    fn seams_and_openings_take_the_lowest() {
        let mut d = small();
        let (a, b) = (Pos::new(0, 2, 2), Pos::new(0, 2, 4));
        d.set_room_height(a, 8.0).unwrap();
        assert_eq!(d.room_height_at(a), 8.0);
        let edge = d.dims().edge(a.slot, Direction::E).unwrap().unwrap();
        assert_eq!(d.seam_height(0, edge), 4.0);
        d.set_room_height(b, 6.254).unwrap();
        assert_eq!(d.room_height_at(b), 6.25);
        assert_eq!(d.seam_height(0, edge), 6.25);
        assert_eq!(d.opening_height(0, &[a.slot, b.slot, Slot::new(1, 3)]), 4.0);
        assert_eq!(d.seam_height(1, edge), 4.0, "level 1 keeps its defaults");
        assert_eq!(d.tallest_room(0), 8.0);
        assert_eq!(d.room_heights_set().map(|(p, _)| p).collect::<Vec<_>>(), [a, b]);
        assert_eq!(d.room_heights(0)[d.dims().index(a.slot).unwrap()], 8.0);
        d.clear_room_height(a).unwrap();
        assert_eq!(d.room_height_at(a), 4.0);
        d.clear_room_height(b).unwrap();
        assert!(!d.has_room_heights());
        assert_eq!(d, small(), "cleared heights leave the dungeon as new");
    }
}
