//! Stairs and their shafts: the one owner of the rules "which wall does a stair leave by"
//! and "how may one step into or out of the octagon above a stair". The mesh builder, the
//! walk model, the path graph, region labelling and the generator all ask these functions.
//!
//! A stair on octagon `(L, r, c)` stands in a shaft that rises to level `L + 1`. Level
//! `L + 1` has no floor over that octagon: the octagon above a stair is a hole (the shaft's
//! top), except the landing, the stair's top step, which reaches one wall of the octagon: the
//! stair's *exit*. One leaves the stair at the top only through that wall, and one enters
//! the hole from level `L + 1` only through it (anywhere else one would fall down the shaft).
//! On the stair's own level the landing is a solid block against the same wall, from the
//! floor up, so that wall cannot be crossed on level `L`.

use super::{Carve, Dungeon, EdgeDef};
use crate::grid::{Direction, Pos, SlotKind};

impl Dungeon {
    /// True when the cell at `pos` holds a stair up: a stair tile on an octagon below the top
    /// level (false for positions outside the dungeon).
    #[must_use]
    pub fn is_stair(&self, pos: Pos) -> bool {
        pos.level + 1 < self.levels()
            && pos.slot.kind() == SlotKind::Octagon
            && self.tile_def(pos).is_ok_and(|t| t.stair)
    }

    /// The stair whose shaft ends at `pos` (the same octagon one level down), when `pos` is
    /// the hole above a stair.
    #[must_use]
    pub fn stair_below(&self, pos: Pos) -> Option<Pos> {
        let below = Pos { level: pos.level.checked_sub(1)?, ..pos };
        self.is_stair(below).then_some(below)
    }

    /// The edge definition of wall `dir` of the cell at `pos` when the seam through it is
    /// carved (both cells carved, an edge state that carves: open or a door), else `None`
    /// (the grid's border, rock on either side, or a wall state).
    #[must_use]
    pub fn carved_seam(&self, pos: Pos, dir: Direction) -> Option<&EdgeDef> {
        let state = self.edge_state(pos, dir).ok()??;
        let def = self.registry().edge_def(state)?;
        let other = self.dims().neighbor(pos.slot, dir).ok()??;
        let carved = |p: Pos| self.tile_def(p).is_ok_and(|t| t.carved);
        (def.carve != Carve::None && carved(pos) && carved(Pos { slot: other, ..pos })).then_some(def)
    }

    /// The wall through which one leaves the stair at `stair` at the top (and enters it from
    /// the level above), or `None` when `stair` is not a stair or the octagon above has no
    /// carved, passable wall.
    ///
    /// The rule, in design terms: the exit is a wall of the octagon above whose seam is carved
    /// and passable and leads to a passable cell. Among those, the best is chosen by, in
    /// order:
    /// 1. walkable now (an open seam before a closed door), so the stair is usable;
    /// 2. leading to a cell that is not itself the hole above another stair;
    /// 3. closed on the stair's own level: the stair solid stands on the lower floor and its
    ///    landing fills the exit wall's sector from that floor up to the next, so an opening
    ///    in that wall below would be blocked by the landing;
    /// 4. a long (cardinal) wall before a short (diagonal) one: the landing spans the exit
    ///    wall's angle, 7.68 m of wall instead of 3.62 m at the default proportions;
    /// 5. clockwise from north (N, E, S, W, then NE, SE, SW, NW), so the choice is stable.
    ///
    /// Reads only the registry's `carve`, `passable` and `walkable`, never tile names.
    #[must_use]
    pub fn stair_exit(&self, stair: Pos) -> Option<Direction> {
        if !self.is_stair(stair) {
            return None;
        }
        let top = Pos { level: stair.level + 1, ..stair };
        let passable_cell = |p: Pos| self.tile_def(p).is_ok_and(|t| t.carved && t.passable);
        Direction::ALL
            .into_iter()
            .filter_map(|dir| {
                let edge = self.carved_seam(top, dir).filter(|e| e.passable)?;
                let slot = self.dims().neighbor(top.slot, dir).ok()??;
                let beyond = Pos { slot, ..top };
                if !passable_cell(beyond) {
                    return None;
                }
                let walkable = edge.walkable && self.tile_def(beyond).is_ok_and(|t| t.walkable);
                let into_hole = self.stair_below(beyond).is_some();
                let open_below = self.carved_seam(stair, dir).is_some();
                Some(((!walkable, into_hole, open_below, dir.is_diagonal(), dir.index()), dir))
            })
            .min_by_key(|(key, _)| *key)
            .map(|(_, dir)| dir)
    }

    /// The wall the stair's landing reaches: its [`Dungeon::stair_exit`], or north when the
    /// octagon above has no exit (the stair is then a dead end, but it still has a top step).
    /// `None` when `stair` is not a stair.
    #[must_use]
    pub fn stair_landing(&self, stair: Pos) -> Option<Direction> {
        self.is_stair(stair).then(|| self.stair_exit(stair).unwrap_or(Direction::N))
    }

    /// Whether a horizontal step from the cell at `pos` through its wall `dir` is allowed by
    /// the shaft rule: out of the hole above a stair only through that stair's exit, into
    /// such a hole only through its exit, and never through the wall a stair's landing stands
    /// against on the stair's own level ([`Dungeon::stair_landing`]). Says nothing about the
    /// wall itself (ask the registry whether it is walkable or passable).
    #[must_use]
    pub fn shaft_allows(&self, pos: Pos, dir: Direction) -> bool {
        let side_allows = |cell: Pos, d: Direction| {
            let hole_ok = match self.stair_below(cell) {
                Some(stair) => self.stair_exit(stair) == Some(d),
                None => true,
            };
            hole_ok && self.stair_landing(cell) != Some(d)
        };
        let Ok(Some(slot)) = self.dims().neighbor(pos.slot, dir) else { return true };
        side_allows(pos, dir) && side_allows(Pos { slot, ..pos }, dir.opposite())
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
