//! Fog of war in walk mode: the cells the walker cannot see from where it stands, from the
//! field of view of the core ([`crate::sight::field_of_view_from`]). Per cell, recomputed
//! when the walker enters another cell or the dungeon changes.

use glam::DVec2;

use crate::dungeon::Dungeon;
use crate::geometry::Place;
use crate::grid::{Pos, Slot};
use crate::sight::{VisibleCells, field_of_view_from};

/// How far the walker sees (metres): as far as the walk camera draws.
pub const FOG_RADIUS: f64 = crate::viewer::camera::WALK_FAR as f64;

/// The fog-of-war state: on or off, and the field of view it last computed.
#[derive(Debug, Clone, Default)]
pub struct Fog {
    on: bool,
    /// The level and cell (or seam piece) the field of view was computed from.
    from: Option<(u16, Place)>,
    seen: Option<VisibleCells>,
}

impl Fog {
    /// True when the fog is shown.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Shows or hides the fog.
    pub fn toggle(&mut self) {
        self.on = !self.on;
        self.from = None;
    }

    /// Forgets the field of view (the dungeon changed), so the next [`Fog::update`]
    /// computes it again.
    pub fn invalidate(&mut self) {
        self.from = None;
    }

    /// Recomputes the field of view from `eye` (world `(x, z)` metres) on `level` when the
    /// fog is on and the eye entered another piece of the plan since the last time. True
    /// when the set of dimmed cells may have changed. A point with no field of view (in a
    /// pillar, off the grid) keeps the last one.
    pub fn update(&mut self, dungeon: &Dungeon, level: u16, eye: DVec2) -> bool {
        if !self.on {
            return false;
        }
        let Some(place) = dungeon.layout().place_at(eye) else { return false };
        if self.from == Some((level, place)) {
            return false;
        }
        self.from = Some((level, place));
        match field_of_view_from(dungeon, level, eye, FOG_RADIUS) {
            Ok(seen) => {
                self.seen = Some(seen);
                true
            }
            Err(_) => false,
        }
    }

    /// The carved cells of `levels` to dim: on the field of view's level those it does not
    /// see, on the others all of them. Empty when the fog is off.
    #[must_use]
    pub fn dimmed(&self, dungeon: &Dungeon, levels: std::ops::RangeInclusive<u16>) -> Vec<Pos> {
        let Some(seen) = self.seen.as_ref().filter(|_| self.on) else { return Vec::new() };
        let hidden = |p: Pos| p.level != seen.level() || !seen.contains(p.slot);
        dungeon.cells().filter(|&p| levels.contains(&p.level) && dungeon.is_carved(p) && hidden(p)).collect()
    }

    /// True when the cell at `slot` on `level` is in the last field of view.
    #[must_use]
    pub fn sees(&self, level: u16, slot: Slot) -> bool {
        self.seen.as_ref().is_some_and(|s| s.contains_pos(Pos { level, slot }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn fog_dims_what_is_behind_a_closed_door_and_follows_the_walker() {
        let mut d = Dungeon::new(4, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 4), Direction::E, Registry::WALL).unwrap();
        let mut fog = Fog::default();
        let west = d.layout().center(Slot::new(0, 0));
        assert!(!fog.update(&d, 0, west), "off: nothing computed");
        assert!(fog.dimmed(&d, 0..=0).is_empty());
        fog.toggle();
        assert!(fog.update(&d, 0, west));
        assert!(!fog.update(&d, 0, west + DVec2::new(0.5, 0.0)), "same cell: not recomputed");
        let dimmed = fog.dimmed(&d, 0..=0);
        assert_eq!(dimmed, [Pos::new(0, 0, 6)], "only the octagon behind the wall");
        assert!(fog.sees(0, Slot::new(0, 4)) && !fog.sees(0, Slot::new(0, 6)));
        // Walking east of the wall: now the west cells are hidden.
        assert!(fog.update(&d, 0, d.layout().center(Slot::new(0, 6))));
        let dimmed = fog.dimmed(&d, 0..=0);
        assert!(dimmed.contains(&Pos::new(0, 0, 0)) && !dimmed.contains(&Pos::new(0, 0, 6)), "{dimmed:?}");
        fog.toggle();
        assert!(fog.dimmed(&d, 0..=0).is_empty());
    }
}
