//! The stair table: the one owner of the rules "which wall does a stair leave by" and "how
//! may one step into or out of the octagon above a stair". Every stair of a dungeon, with its
//! exit wall, its landing and its hole, is computed here by one function
//! ([`Stairs::exit_rule`]) from the dungeon's tiles and edges; the dungeon keeps the table
//! current as its tiles and edges change, and the mesh builder, the walk model, the path
//! graph, region labelling and the generator read it.
//!
//! A stair on octagon `(L, r, c)` stands in a shaft that rises to level `L + 1`. Level
//! `L + 1` has no floor over that octagon: the octagon above a stair is a hole (the shaft's
//! top), except the landing, the stair's top step, which reaches one wall of the octagon: the
//! stair's *exit*. One leaves the stair at the top only through that wall, and one enters
//! the hole from level `L + 1` only through it (anywhere else one would fall down the shaft).
//! On the stair's own level the landing is a solid block against the same wall, from the
//! floor up, so that wall cannot be crossed on level `L`.

use super::Dungeon;
use crate::grid::{Dims, Direction, Pos, Slot, SlotKind};

/// One stair of a dungeon: a stair tile on an octagon below the top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stair {
    /// Where the stair stands (its foot).
    pub foot: Pos,
    /// The wall of the octagon above through which one leaves the stair at the top (and
    /// enters it from the level above); `None` when no wall qualifies (a dead end).
    pub exit: Option<Direction>,
}

impl Stair {
    /// The hole: the same octagon one level up, the shaft's top.
    #[must_use]
    pub fn hole(self) -> Pos {
        Pos { level: self.foot.level + 1, ..self.foot }
    }

    /// The wall the landing reaches: the exit, or north when the stair has none (it is then a
    /// dead end, but it still has a top step).
    #[must_use]
    pub fn landing(self) -> Direction {
        self.exit.unwrap_or(Direction::N)
    }
}

/// What the shaft rule says about one cell: whether it is the hole above a stair (and which
/// wall that stair leaves by) and whether it is a stair (and which wall its landing stands
/// against). A small `Copy` value, so a reader that walks many cells (the path graph) can
/// cache one per node; [`Shaft::lets_through`] is the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shaft {
    hole: Option<Option<Direction>>,
    landing: Option<Direction>,
}

impl Shaft {
    /// `Some(exit)` when the cell is the hole above a stair (`exit` is `None` when that stair
    /// has no exit), else `None`.
    #[must_use]
    pub fn hole_exit(self) -> Option<Option<Direction>> {
        self.hole
    }

    /// The wall the landing stands against when the cell holds a stair, else `None`.
    #[must_use]
    pub fn landing(self) -> Option<Direction> {
        self.landing
    }

    /// This cell's half of the shaft rule: whether a horizontal step may leave (or enter) the
    /// cell through its wall `dir`. A hole only through its stair's exit; a stair never
    /// through the wall its landing stands against. A step is allowed when both cells it
    /// joins let it through ([`Stairs::allows`]).
    #[must_use]
    pub fn lets_through(self, dir: Direction) -> bool {
        self.hole.is_none_or(|exit| exit == Some(dir)) && self.landing != Some(dir)
    }

    /// The shaft rule for a step through wall `dir` of this cell into the cell beyond, whose
    /// shaft is `beyond`: both cells let it through ([`Shaft::lets_through`]). For readers
    /// that keep each cell's shaft ([`Stairs::allows_step`] reads them from the table).
    #[must_use]
    pub fn allows_step(self, dir: Direction, beyond: Shaft) -> bool {
        self.lets_through(dir) && beyond.lets_through(dir.opposite())
    }
}

/// How a candidate exit wall is reached from the hole, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    /// A carved, walkable seam to a walkable cell: usable now.
    Walkable,
    /// A carved, passable seam to a passable cell (a closed door on the way).
    Passable,
    /// Not carved yet (rock beyond, or a wall state): only a candidate when planning.
    ToCarve,
}

/// Which walls [`Stairs::exit_rule`] may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitCandidates {
    /// Only walls one can leave by now: the stair's exit.
    Carved,
    /// Also walls whose seam or far cell is not carved yet, ranked after carved ones: the
    /// wall a generator should carve.
    Plannable,
}

/// Every stair of a dungeon, in (level, row, col) order, with its exit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stairs {
    list: Vec<Stair>,
    /// Per slot of one level's grid ([`Dims::index`]): how many stairs stand on that slot,
    /// on any level, so that [`Stairs::shaft`] answers at once for the many cells with none.
    per_slot: Vec<u16>,
    dims: Option<Dims>,
}

impl Stairs {
    /// The table of a dungeon on `dims` that has no stair.
    pub(crate) fn empty(dims: Dims) -> Stairs {
        Stairs { list: Vec::new(), per_slot: vec![0; dims.slot_count()], dims: Some(dims) }
    }

    /// The table of `dungeon`, computed from scratch.
    pub(crate) fn of(dungeon: &Dungeon) -> Stairs {
        let dims = dungeon.dims();
        let mut stairs = Stairs::empty(dims);
        // Only cells holding a stair tile can hold a stair: read from each level's dense
        // layer, then asked of the rule's owner, [`Dungeon::is_stair`].
        let stair_tile: Vec<bool> = dungeon.registry().tiles().iter().map(|t| t.stair).collect();
        for level in 0..dungeon.levels() {
            let layer = dungeon.tile_layer(level).expect("invariant: a level of the dungeon").as_slice();
            for (i, &tile) in layer.iter().enumerate() {
                if !stair_tile.get(usize::from(tile.0)).copied().unwrap_or(false) {
                    continue;
                }
                let foot =
                    Pos { level, slot: dims.slot_at(i).expect("invariant: an index below slot_count") };
                if dungeon.is_stair(foot) {
                    let exit = Self::exit_rule(dungeon, foot, ExitCandidates::Carved);
                    stairs.list.push(Stair { foot, exit });
                    *stairs.count_mut(foot) += 1;
                }
            }
        }
        stairs
    }

    /// The stair count of the slot of `foot`.
    fn count_mut(&mut self, foot: Pos) -> &mut u16 {
        let dims = self.dims.expect("invariant: a dungeon's table knows its grid");
        &mut self.per_slot[dims.index(foot.slot).expect("invariant: stairs stand in the grid")]
    }

    /// Re-reads every stair whose exit may depend on the cells `slots` of `level` or on the
    /// edges between them: stairs standing on one of them on `level` (their seams below) or
    /// on `level - 1` (their holes). Called by the dungeon after each change, with the
    /// changed cell and its neighbours, or the two sides of a changed edge.
    pub(crate) fn refresh(&mut self, dungeon: &Dungeon, level: u16, slots: &[Slot]) {
        for foot in feet_near(level, slots) {
            let is_stair = dungeon.is_stair(foot);
            // No stair on this octagon at any level, and none now: nothing to change.
            if !is_stair && self.count_mut(foot) == &0 {
                continue;
            }
            let at = self.list.binary_search_by(|s| order(s.foot).cmp(&order(foot)));
            let stair = is_stair
                .then(|| Stair { foot, exit: Self::exit_rule(dungeon, foot, ExitCandidates::Carved) });
            match (at, stair) {
                (Ok(i), Some(s)) => self.list[i] = s,
                (Ok(i), None) => {
                    self.list.remove(i);
                    *self.count_mut(foot) -= 1;
                }
                (Err(i), Some(s)) => {
                    self.list.insert(i, s);
                    *self.count_mut(foot) += 1;
                }
                (Err(_), None) => {}
            }
        }
    }

    /// [`Stairs::refresh`] after a change to the edges between the cells `slots` of `level`
    /// only: no tile changed, so no stair appeared or went, and only the exits of the
    /// stairs already listed there are read again.
    pub(crate) fn refresh_exits(&mut self, dungeon: &Dungeon, level: u16, slots: &[Slot]) {
        for foot in feet_near(level, slots) {
            if *self.count_mut(foot) == 0 {
                continue;
            }
            if let Ok(i) = self.list.binary_search_by(|s| order(s.foot).cmp(&order(foot))) {
                self.list[i].exit = Self::exit_rule(dungeon, foot, ExitCandidates::Carved);
            }
        }
    }

    /// The exit rule, the only place it is written. Among the walls of the octagon above
    /// `foot` whose seam is carved and passable and leads to a passable cell (with
    /// [`ExitCandidates::Plannable`], also every other wall that has a cell beyond it, ranked
    /// after those), the best by, in order:
    /// 1. not leading into another stair's hole (a hole is entered only through its own exit);
    /// 2. walkable now (an open seam before a closed door, both before one still to carve);
    /// 3. closed on the stair's own level: no carved seam there (an open edge into rock counts
    ///    as closed), since the landing fills the exit wall's sector from that floor up;
    /// 4. a long (cardinal) wall before a short (diagonal) one: the landing spans the exit
    ///    wall's angle, 7.68 m of wall instead of 3.62 m at the default proportions;
    /// 5. clockwise from north (N, E, S, W, then NE, SE, SW, NW), so the choice is stable.
    ///
    /// Reads only the registry's `carve`, `passable` and `walkable`, never tile names, and
    /// never the table itself. `None` when `foot` is not a stair or no wall qualifies.
    pub(crate) fn exit_rule(dungeon: &Dungeon, foot: Pos, candidates: ExitCandidates) -> Option<Direction> {
        if !dungeon.is_stair(foot) {
            return None;
        }
        let top = Pos { level: foot.level + 1, ..foot };
        let dims = dungeon.dims();
        Direction::ALL
            .into_iter()
            .filter_map(|dir| {
                let beyond = Pos { slot: dims.neighbor(top.slot, dir).ok()??, ..top };
                let reach = reach(dungeon, top, dir, beyond)
                    .or((candidates == ExitCandidates::Plannable).then_some(Reach::ToCarve))?;
                // From the tiles, not the table: the table may be mid-update.
                let into_hole =
                    top.level > 0 && dungeon.is_stair(Pos { level: foot.level, slot: beyond.slot });
                let open_below = dungeon.carved_seam(foot, dir).is_some();
                Some(((into_hole, reach, open_below, dir.is_diagonal(), dir.index()), dir))
            })
            .min_by_key(|(key, _)| *key)
            .map(|(_, dir)| dir)
    }

    /// Every stair, in (level, row, col) order.
    pub fn iter(&self) -> std::slice::Iter<'_, Stair> {
        self.list.iter()
    }

    /// Number of stairs.
    #[must_use]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when the dungeon has no stair.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The stair standing at `foot`, if any.
    #[must_use]
    pub fn at(&self, foot: Pos) -> Option<&Stair> {
        let i = self.list.binary_search_by(|s| order(s.foot).cmp(&order(foot))).ok()?;
        Some(&self.list[i])
    }

    /// The stair whose hole is `pos` (the stair on the same octagon one level down), if any.
    #[must_use]
    pub fn below(&self, pos: Pos) -> Option<&Stair> {
        self.at(Pos { level: pos.level.checked_sub(1)?, ..pos })
    }

    /// What the shaft rule says about the cell at `pos`.
    #[must_use]
    pub fn shaft(&self, pos: Pos) -> Shaft {
        let on_slot = |dims: Dims| dims.index(pos.slot).ok().and_then(|i| self.per_slot.get(i));
        if pos.slot.kind() != SlotKind::Octagon || self.dims.and_then(on_slot).is_none_or(|&n| n == 0) {
            return Shaft::default();
        }
        Shaft { hole: self.below(pos).map(|s| s.exit), landing: self.at(pos).map(|s| s.landing()) }
    }

    /// Whether a horizontal step from the cell at `pos` through its wall `dir` is allowed by
    /// the shaft rule: both cells it joins must let it through ([`Shaft::lets_through`]).
    /// True for a border wall (it leads nowhere). Says nothing about the wall itself.
    #[must_use]
    pub fn allows(&self, dims: Dims, pos: Pos, dir: Direction) -> bool {
        let Ok(Some(slot)) = dims.neighbor(pos.slot, dir) else { return true };
        self.allows_step(pos, dir, Pos { slot, ..pos })
    }

    /// [`Stairs::allows`] for a step whose far cell `to` (beyond wall `dir` of `from`) the
    /// caller already knows.
    #[must_use]
    pub fn allows_step(&self, from: Pos, dir: Direction, to: Pos) -> bool {
        self.shaft(from).allows_step(dir, self.shaft(to))
    }
}

/// The feet of the stairs whose exit may depend on the cells `slots` of `level` or the
/// edges between them: the octagons among them, on `level` (their seams below) and on
/// `level - 1` (their holes).
fn feet_near(level: u16, slots: &[Slot]) -> impl Iterator<Item = Pos> + '_ {
    let levels = [level.checked_sub(1), Some(level)].into_iter().flatten();
    let octagons = move |foot_level| {
        slots
            .iter()
            .filter(|s| s.kind() == SlotKind::Octagon)
            .map(move |&slot| Pos { level: foot_level, slot })
    };
    levels.flat_map(octagons)
}

/// The table's sort key of a position.
fn order(p: Pos) -> (u16, u32, u32) {
    (p.level, p.slot.row, p.slot.col)
}

/// How wall `dir` of the cell at `top` reaches the cell `beyond` now: `None` unless the seam
/// is carved and passable and `beyond` is carved and passable.
fn reach(dungeon: &Dungeon, top: Pos, dir: Direction, beyond: Pos) -> Option<Reach> {
    let edge = dungeon.carved_seam(top, dir).filter(|e| e.passable)?;
    let cell = dungeon.tile_def(beyond).ok().filter(|t| t.carved && t.passable)?;
    Some(if edge.walkable && cell.walkable { Reach::Walkable } else { Reach::Passable })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The table kept by the dungeon equals one computed from scratch after every one of many
    /// random tile and edge changes (stairs placed and removed, cells carved and filled,
    /// edges opened, closed and made doors), so no change leaves it stale.
    #[test]
    fn the_table_stays_equal_to_a_fresh_one_under_random_edits() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut d = Dungeon::new(4, 3, 3, Proportions::default(), Fill::Floor).unwrap();
        let cells: Vec<Pos> = d.cells().collect();
        let (mut stairs_seen, mut exits_moved) = (0, 0);
        for step in 0..3000 {
            let pos = cells[(rng.next_u64() % cells.len() as u64) as usize];
            let before = d.stairs().clone();
            match rng.next_u64() % 4 {
                0 => {
                    let tile =
                        [Registry::SOLID, Registry::FLOOR, Registry::STAIR][(rng.next_u64() % 3) as usize];
                    // Stairs off octagons or on the top level are refused; the table must not change.
                    if d.set_tile(pos, tile).is_err() {
                        assert_eq!(d.stairs(), &before, "a refused change leaves the table alone");
                    }
                }
                _ => {
                    let walls = d.dims().walls(pos.slot).unwrap();
                    let dir = walls[(rng.next_u64() % walls.len() as u64) as usize];
                    let state =
                        [Registry::OPEN, Registry::WALL, Registry::DOOR][(rng.next_u64() % 3) as usize];
                    let _ = d.set_edge(pos, dir, state);
                }
            }
            assert_eq!(d.stairs(), &Stairs::of(&d), "after step {step}");
            stairs_seen += d.stairs().len();
            exits_moved +=
                usize::from(d.stairs().iter().any(|s| before.at(s.foot).is_some_and(|b| b.exit != s.exit)));
        }
        assert!(stairs_seen > 3000, "the edits keep stairs in the dungeon ({stairs_seen})");
        assert!(exits_moved > 50, "the edits move exits ({exits_moved})");
    }

    #[test]
    fn the_table_reads_the_dungeon() {
        let mut d = Dungeon::new(3, 3, 3, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(1, 0, 0), Registry::STAIR).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
        let feet: Vec<Pos> = d.stairs().iter().map(|s| s.foot).collect();
        assert_eq!(feet, [Pos::new(0, 2, 2), Pos::new(1, 0, 0)], "in (level, row, col) order");
        let s = *d.stairs().at(Pos::new(0, 2, 2)).unwrap();
        assert_eq!((s.hole(), s.exit, s.landing()), (Pos::new(1, 2, 2), Some(Direction::N), Direction::N));
        assert_eq!(d.stairs().below(Pos::new(1, 2, 2)), Some(&s));
        assert_eq!(d.shaft(Pos::new(1, 2, 2)).hole_exit(), Some(Some(Direction::N)));
        assert_eq!(d.shaft(Pos::new(0, 2, 2)).landing(), Some(Direction::N));
        assert_eq!(d.shaft(Pos::new(0, 1, 1)), Shaft::default(), "a connector is never in a shaft");
        // A stair with nothing carved above it but its hole: no exit, the landing faces north.
        for dir in Direction::ALL {
            d.set_edge(Pos::new(1, 2, 2), dir, Registry::WALL).unwrap();
        }
        let s = d.stairs().at(Pos::new(0, 2, 2)).unwrap();
        assert_eq!((s.exit, s.landing()), (None, Direction::N));
        assert!(!d.shaft(Pos::new(1, 2, 2)).lets_through(Direction::N), "a hole without exit is closed");
        d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
        assert_eq!(d.stairs().len(), 1, "a stair replaced by floor leaves the table");
        assert!(d.shaft(Pos::new(1, 2, 2)).lets_through(Direction::N));
    }

    #[test]
    fn a_planned_exit_may_need_carving_and_avoids_holes() {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Solid).unwrap();
        let stair = Pos::new(0, 2, 2);
        d.set_tile(stair, Registry::FLOOR).unwrap();
        d.set_tile(Pos::new(1, 2, 2), Registry::FLOOR).unwrap();
        d.set_tile(stair, Registry::STAIR).unwrap();
        assert_eq!(d.stair_exit(stair), None, "rock all round above");
        assert_eq!(d.preferred_stair_exit(stair), Some(Direction::N), "to carve: the first long wall");
        // Floor below to the north: the wall is open below there, so east is preferred.
        d.set_tile(Pos::new(0, 0, 2), Registry::FLOOR).unwrap();
        d.set_edge(stair, Direction::N, Registry::OPEN).unwrap();
        assert_eq!(d.preferred_stair_exit(stair), Some(Direction::E));
        // A carved wall beats one still to carve; one into another hole comes last.
        d.set_tile(Pos::new(1, 2, 0), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(1, 2, 2), Direction::W, Registry::OPEN).unwrap();
        assert_eq!(d.preferred_stair_exit(stair), Some(Direction::W));
        d.set_tile(Pos::new(0, 2, 0), Registry::FLOOR).unwrap();
        d.set_tile(Pos::new(0, 2, 0), Registry::STAIR).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::W), "the only carved wall, into a hole");
        assert_eq!(d.preferred_stair_exit(stair), Some(Direction::E), "rock to carve beats a hole");
        assert_eq!(d.preferred_stair_exit(Pos::new(0, 0, 0)), None, "not a stair");
    }
}
