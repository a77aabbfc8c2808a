//! The dungeon's stair queries: thin reads of its stair table ([`super::Stairs`], the one
//! owner of the exit and shaft rules).

use super::stairs::ExitCandidates;
use super::{Dungeon, Shaft, Stairs};
use crate::grid::{Direction, Pos, SlotKind};

impl Dungeon {
    /// True when the cell at `pos` holds a stair up: a stair tile on an octagon below the top
    /// level (false for positions outside the dungeon).
    #[must_use]
    pub fn is_stair(&self, pos: Pos) -> bool {
        u32::from(pos.level) + 1 < u32::from(self.levels())
            && pos.slot.kind() == SlotKind::Octagon
            && self.cell_def(pos).is_some_and(|t| t.stair)
    }

    /// The stair whose shaft ends at `pos` (the same octagon one level down), when `pos` is
    /// the hole above a stair.
    #[must_use]
    pub fn stair_below(&self, pos: Pos) -> Option<Pos> {
        self.stairs().below(pos).map(|s| s.foot)
    }

    /// The wall through which one leaves the stair at `stair` at the top (and enters it from
    /// the level above), or `None` when `stair` is not a stair or the octagon above has no
    /// carved, passable wall to a passable cell. The rule is written once, in the stair table
    /// (`docs/stairs.md` lists it); this reads the table.
    #[must_use]
    pub fn stair_exit(&self, stair: Pos) -> Option<Direction> {
        self.stairs().at(stair)?.exit
    }

    /// The wall the exit rule would choose for `stair` if the level above could still be
    /// carved: walls whose seam or far cell is not carved yet count too, ranked after every
    /// carved one that does not lead into another hole. Carving that wall's seam and the cell
    /// beyond, and keeping the hole's other walls closed, makes it [`Dungeon::stair_exit`].
    /// The generator asks this. `None` when `stair` is not a stair or the octagon has no
    /// neighbour at all.
    #[must_use]
    pub fn preferred_stair_exit(&self, stair: Pos) -> Option<Direction> {
        Stairs::exit_rule(self, stair, ExitCandidates::Plannable)
    }

    /// The wall the stair's landing reaches: its [`Dungeon::stair_exit`], or north when the
    /// octagon above has no exit (the stair is then a dead end, but it still has a top step).
    /// `None` when `stair` is not a stair.
    #[must_use]
    pub fn stair_landing(&self, stair: Pos) -> Option<Direction> {
        self.stairs().at(stair).map(|s| s.landing())
    }

    /// What the shaft rule says about the cell at `pos` (a small value a reader walking many
    /// cells may cache: see [`Shaft::lets_through`]).
    #[must_use]
    pub fn shaft(&self, pos: Pos) -> Shaft {
        self.stairs().shaft(pos)
    }

    /// Whether a horizontal step from the cell at `pos` through its wall `dir` is allowed by
    /// the shaft rule: out of the hole above a stair only through that stair's exit, into
    /// such a hole only through its exit, and never through the wall a stair's landing stands
    /// against on the stair's own level ([`Dungeon::stair_landing`]). Says nothing about the
    /// wall itself (ask the registry whether it is walkable or passable).
    #[must_use]
    pub fn shaft_allows(&self, pos: Pos, dir: Direction) -> bool {
        self.stairs().allows(self.dims(), pos, dir)
    }
}

#[cfg(test)]
mod tests {
    use crate::dungeon::{Dungeon, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::{Direction, Pos};

    /// 3x3 octagons, 2 levels, all floor, a stair in the middle of level 0.
    fn hub() -> Dungeon {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
        d
    }

    #[test]
    fn exit_prefers_a_wall_closed_below_then_cardinals_then_clockwise() {
        let mut d = hub();
        let stair = Pos::new(0, 2, 2);
        // Everything open on both levels: the first cardinal, north.
        assert_eq!(d.stair_exit(stair), Some(Direction::N));
        // East walled below: it beats north, which is open below.
        d.set_edge(stair, Direction::E, Registry::WALL).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::E), "east is closed below");
        // A diagonal closed below beats a cardinal open below.
        d.set_edge(stair, Direction::E, Registry::OPEN).unwrap();
        d.set_edge(stair, Direction::SW, Registry::WALL).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::SW));
        // Walkable beats closed below: make SW a door above.
        d.set_edge(Pos::new(1, 2, 2), Direction::SW, Registry::DOOR).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::N));
        // Only a door above: it is the exit (passable, not walkable).
        for dir in Direction::ALL {
            d.set_edge(Pos::new(1, 2, 2), dir, Registry::WALL).unwrap();
        }
        d.set_edge(Pos::new(1, 2, 2), Direction::W, Registry::DOOR).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::W));
        assert_eq!(d.stair_landing(stair), Some(Direction::W));
        // Nothing carved above: no exit, the landing defaults to north.
        d.set_edge(Pos::new(1, 2, 2), Direction::W, Registry::WALL).unwrap();
        assert_eq!(d.stair_exit(stair), None);
        assert_eq!(d.stair_landing(stair), Some(Direction::N));
        assert_eq!(d.stair_exit(Pos::new(0, 0, 0)), None, "not a stair");
        assert_eq!(d.stair_landing(Pos::new(1, 2, 2)), None, "not a stair");
    }

    #[test]
    fn exit_avoids_rock_and_other_holes() {
        let mut d = hub();
        let stair = Pos::new(0, 2, 2);
        d.set_tile(Pos::new(1, 0, 2), Registry::SOLID).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::E), "north is rock above");
        d.set_tile(Pos::new(0, 2, 4), Registry::STAIR).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::S), "east leads into another hole");
    }

    #[test]
    fn the_hole_is_entered_and_left_only_through_the_exit() {
        let d = hub();
        let top = Pos::new(1, 2, 2);
        assert_eq!(d.stair_below(top), Some(Pos::new(0, 2, 2)));
        assert_eq!(d.stair_below(Pos::new(0, 2, 2)), None);
        for dir in Direction::ALL {
            assert_eq!(d.shaft_allows(top, dir), dir == Direction::N, "{dir:?}");
        }
        assert!(d.shaft_allows(Pos::new(1, 0, 2), Direction::S), "into the hole through its exit");
        assert!(!d.shaft_allows(Pos::new(1, 2, 4), Direction::W), "into the hole beside the exit");
        assert!(!d.shaft_allows(Pos::new(1, 3, 3), Direction::NW), "diagonal into the hole");
        assert!(d.shaft_allows(Pos::new(0, 2, 2), Direction::E), "the stair's own level, beside the landing");
        assert!(!d.shaft_allows(Pos::new(0, 2, 2), Direction::N), "the landing stands against north below");
        assert!(!d.shaft_allows(Pos::new(0, 0, 2), Direction::S), "into the landing from the north");
        assert!(d.shaft_allows(Pos::new(1, 0, 0), Direction::E), "far from the hole");
    }
}
