//! Door state: opening and closing a door flips its edge to the state the registry names
//! (`opens_to` / `closes_to`, [`Registry::opens_to`](super::Registry::opens_to)) and
//! reports what changed. Whether a state is walkable, passable or blocks sight stays the
//! registry's word ([`EdgeDef`]); this file only follows its transitions.

use super::{Dungeon, DungeonError, EdgeDef, EdgeStateId};
use crate::grid::{Direction, Pos, Slot};
use crate::path::{PathGraph, PathRules};

/// How the connected regions of a door's two cells changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionChange {
    /// The two cells were joined, or apart, before and still are (also when either is not
    /// a cell one can stand on).
    Unchanged,
    /// The two cells were in different regions and now share one.
    Joined,
    /// The two cells shared a region and now lie in different ones.
    Split,
    /// Not known: the dungeon's step costs overflow, so no path graph could be read
    /// ([`PathGraph::new`]).
    Unknown,
}

/// A flag of the edge before and after the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flip {
    /// Before.
    pub before: bool,
    /// After.
    pub after: bool,
}

impl Flip {
    /// Whether the flag changed.
    #[must_use]
    pub fn changed(self) -> bool {
        self.before != self.after
    }
}

/// What [`Dungeon::open_door`] or [`Dungeon::close_door`] changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoorChange {
    /// The two cells the edge separates: the cell asked for, then its neighbour.
    pub sides: [Pos; 2],
    /// The edge's state before.
    pub before: EdgeStateId,
    /// The edge's state after.
    pub after: EdgeStateId,
    /// Whether one can cross the edge this turn ([`EdgeDef::walkable`]).
    pub walkable: Flip,
    /// Whether the edge joins regions ([`EdgeDef::passable`]).
    pub passable: Flip,
    /// Whether the edge blocks sight ([`EdgeDef::opaque`]).
    pub blocks_sight: Flip,
    /// The walkable regions of the two sides (the path graph with doors as they stand,
    /// [`PathRules::default`]): joined by an opened door, split by a closed one unless
    /// another way links them.
    pub walk_regions: RegionChange,
    /// The passable regions of the two sides (doors count as open,
    /// `PathRules { open_doors: true }`).
    pub pass_regions: RegionChange,
}

#[derive(Clone, Copy)]
enum Change {
    Open,
    Close,
}

impl Dungeon {
    /// Opens the door on wall `dir` of the cell at `pos`: its edge becomes the state its
    /// registry entry `opens_to` (a closed `door` opens to `door_open` in the standard
    /// registry), and the report says what that changed. Sight queries read the dungeon,
    /// so they see the change at once; a [`PathGraph`] read earlier does not (read it
    /// again). Working out the regions reads the path graph before and after the change:
    /// time linear in the dungeon's cells.
    ///
    /// ```
    /// use octile::dungeon::{Dungeon, Fill, Registry, RegionChange};
    /// use octile::geometry::Proportions;
    /// use octile::grid::{Direction, Pos};
    ///
    /// // Two octagons side by side, a closed door between them.
    /// let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor)?;
    /// let west = Pos::new(0, 0, 0);
    /// d.set_edge(west, Direction::E, Registry::DOOR)?;
    /// let opened = d.open_door(west, Direction::E)?;
    /// assert_eq!(opened.after, Registry::DOOR_OPEN);
    /// assert!(opened.walkable.after && !opened.blocks_sight.after);
    /// assert_eq!(opened.walk_regions, RegionChange::Joined);
    /// assert!(d.open_door(west, Direction::E).is_err(), "already open");
    /// # Ok::<(), octile::dungeon::DungeonError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Dungeon::edge_state`] for `pos` and `dir`; [`DungeonError::BorderEdge`] for a
    /// wall on the grid's border; [`DungeonError::NoDoorChange`] when the edge's state has
    /// no `opens_to` (a wall, an open seam, a door already open). Nothing changes on error.
    pub fn open_door(&mut self, pos: Pos, dir: Direction) -> Result<DoorChange, DungeonError> {
        self.change_door(pos, dir, Change::Open)
    }

    /// Closes the door on wall `dir` of the cell at `pos` (its state's `closes_to`); as
    /// [`Dungeon::open_door`] otherwise.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::open_door`], with `closes_to` for `opens_to`.
    pub fn close_door(&mut self, pos: Pos, dir: Direction) -> Result<DoorChange, DungeonError> {
        self.change_door(pos, dir, Change::Close)
    }

    fn change_door(&mut self, pos: Pos, dir: Direction, change: Change) -> Result<DoorChange, DungeonError> {
        let Slot { row, col } = pos.slot;
        let level = pos.level;
        let before = self.edge_state(pos, dir)?.ok_or(DungeonError::BorderEdge { level, row, col, dir })?;
        let registry = self.registry();
        let after = match change {
            Change::Open => registry.opens_to(before),
            Change::Close => registry.closes_to(before),
        };
        let name = |id| registry.edge_def(id).map_or_else(String::new, |e: &EdgeDef| e.name.clone());
        let Some(after) = after else {
            let change = match change {
                Change::Open => "open",
                Change::Close => "close",
            };
            return Err(DungeonError::NoDoorChange { level, row, col, dir, state: name(before), change });
        };
        let other = self.dims().neighbor(pos.slot, dir).ok().flatten();
        let other = other.ok_or(DungeonError::BorderEdge { level, row, col, dir })?;
        let sides = [pos, Pos { slot: other, ..pos }];
        let (b, a) = (self.edge_def_of(before)?.clone(), self.edge_def_of(after)?.clone());
        let then = joined(self, sides);
        self.set_edge(pos, dir, after)?;
        let now = joined(self, sides);
        let flip = |f: fn(&EdgeDef) -> bool| Flip { before: f(&b), after: f(&a) };
        let change = |i: usize| region_change(then.map(|j| j[i]), now.map(|j| j[i]));
        Ok(DoorChange {
            sides,
            before,
            after,
            walkable: flip(|e| e.walkable),
            passable: flip(|e| e.passable),
            blocks_sight: flip(|e| e.opaque),
            walk_regions: change(0),
            pass_regions: change(1),
        })
    }

    fn edge_def_of(&self, id: EdgeStateId) -> Result<&EdgeDef, DungeonError> {
        self.registry()
            .edge_def(id)
            .ok_or(DungeonError::UnknownId { what: "edge state", id: id.index() as u32 })
    }
}

/// Whether `sides` share a region of the dungeon's path graph, under walkability and under
/// passability; `None` when the graph cannot be read.
fn joined(dungeon: &Dungeon, sides: [Pos; 2]) -> Option<[bool; 2]> {
    let graph = PathGraph::new(dungeon).ok()?;
    let joined = |rules: &PathRules| match (graph.node(sides[0]), graph.node(sides[1])) {
        (Ok(Some(a)), Ok(Some(b))) => graph.connected(a, b, rules),
        _ => false,
    };
    Some([joined(&PathRules::default()), joined(&PathRules { open_doors: true })])
}

fn region_change(before: Option<bool>, after: Option<bool>) -> RegionChange {
    match (before, after) {
        (Some(false), Some(true)) => RegionChange::Joined,
        (Some(true), Some(false)) => RegionChange::Split,
        (Some(_), Some(_)) => RegionChange::Unchanged,
        _ => RegionChange::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::path::dungeon_regions;

    /// Two halves of a 3x2 hall (west column, east two columns) walled apart, meeting only
    /// through a door between octagons (0, 0, 0) and (0, 0, 2).
    fn halves() -> Dungeon {
        let mut d = Dungeon::new(3, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        for row in [0, 2] {
            d.set_edge(Pos::new(0, row, 0), Direction::E, Registry::WALL).unwrap();
        }
        for pos in [Pos::new(0, 1, 1)] {
            for dir in [Direction::NE, Direction::SE, Direction::NW, Direction::SW] {
                d.set_edge(pos, dir, Registry::WALL).unwrap();
            }
        }
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        d
    }

    fn walk_apart(d: &Dungeon, a: Pos, b: Pos) -> bool {
        let g = PathGraph::new(d).unwrap();
        let (a, b) = (g.node(a).unwrap().unwrap(), g.node(b).unwrap().unwrap());
        !g.connected(a, b, &PathRules::default())
    }

    #[test]
    fn opening_joins_the_halves_and_closing_splits_walkability_not_passability() {
        let mut d = halves();
        let (west, east) = (Pos::new(0, 2, 0), Pos::new(0, 2, 4));
        assert!(walk_apart(&d, west, east));
        let opened = d.open_door(Pos::new(0, 0, 0), Direction::E).unwrap();
        assert_eq!((opened.before, opened.after), (Registry::DOOR, Registry::DOOR_OPEN));
        assert_eq!(opened.sides, [Pos::new(0, 0, 0), Pos::new(0, 0, 2)]);
        assert_eq!(opened.walkable, Flip { before: false, after: true });
        assert!(opened.blocks_sight.changed() && !opened.passable.changed());
        assert_eq!(
            (opened.walk_regions, opened.pass_regions),
            (RegionChange::Joined, RegionChange::Unchanged)
        );
        assert!(!walk_apart(&d, west, east));
        let closed = d.close_door(Pos::new(0, 0, 2), Direction::W).unwrap();
        assert_eq!(closed.after, Registry::DOOR);
        assert_eq!(
            (closed.walk_regions, closed.pass_regions),
            (RegionChange::Split, RegionChange::Unchanged)
        );
        assert!(walk_apart(&d, west, east));
        // Passability: one passable region holds both halves.
        let regions = dungeon_regions(&d);
        let at = |p| regions.region(crate::path::node_index(&d, p).unwrap());
        assert_eq!(at(west), at(east));
        assert_eq!(d, halves());
    }

    #[test]
    fn a_door_with_another_way_round_changes_no_region() {
        let mut d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        // Through the connector and the row below, the two octagons still meet.
        let opened = d.open_door(Pos::new(0, 0, 0), Direction::E).unwrap();
        assert_eq!(opened.walk_regions, RegionChange::Unchanged);
    }

    #[test]
    fn walls_open_seams_and_borders_are_refused_and_nothing_changes() {
        let mut d = halves();
        let before = d.clone();
        let err = d.open_door(Pos::new(0, 2, 0), Direction::E).unwrap_err();
        assert!(
            matches!(&err, DungeonError::NoDoorChange { row: 2, col: 0, change: "open", state, .. } if state == "wall"),
            "{err:?}"
        );
        assert!(err.to_string().contains("opens_to"), "{err}");
        let err = d.close_door(Pos::new(0, 0, 0), Direction::E).unwrap_err();
        assert!(matches!(err, DungeonError::NoDoorChange { change: "close", .. }), "{err:?}");
        assert!(matches!(d.open_door(Pos::new(0, 0, 0), Direction::W), Err(DungeonError::BorderEdge { .. })));
        assert!(d.open_door(Pos::new(0, 9, 0), Direction::E).is_err());
        assert_eq!(d, before);
    }
}
