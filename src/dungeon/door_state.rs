//! Door state: opening and closing a door flips its edge to the state the registry names
//! (`opens_to` / `closes_to`, [`Registry::opens_to`](super::Registry::opens_to)) and
//! reports what changed. Whether a state is walkable, passable or blocks sight stays the
//! registry's word ([`EdgeDef`]); this file only follows its transitions.

use super::{Dungeon, DungeonError, EdgeDef, EdgeStateId};
use crate::grid::{Direction, Pos, Slot};
use crate::path::PathGraph;

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
    /// ([`PathGraph::new`]), or the graph given to keep could not be updated
    /// ([`PathGraph::update_edge`]).
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
    /// [`crate::path::PathRules::default`]): joined by an opened door, split by a closed one unless
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
    /// so they see the change at once; a [`PathGraph`] read earlier does not: keep it
    /// current with [`Dungeon::open_door_with`] instead, which also works out the regions
    /// from it without reading the dungeon again. This one reads the path graph once
    /// (time linear in the dungeon's cells) to work out the regions.
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
        self.change_door(pos, dir, Change::Open, None)
    }

    /// [`Dungeon::open_door`] that keeps `graph` (the path graph of this dungeon) current
    /// in place ([`PathGraph::update_edge`]) and reads the report's regions from it: no
    /// graph is read, so a door toggles in time that does not grow with the dungeon
    /// (but for a split, which walks the smaller side). When the graph cannot be updated
    /// (it is of another dungeon's shape, or the step's cost overflows) the edge still
    /// changes and the report's regions are [`RegionChange::Unknown`].
    ///
    /// ```
    /// use octile::dungeon::{Dungeon, Fill, Registry, RegionChange};
    /// use octile::geometry::Proportions;
    /// use octile::grid::{Direction, Pos};
    /// use octile::path::{PathGraph, PathRules};
    ///
    /// let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor)?;
    /// let west = Pos::new(0, 0, 0);
    /// d.set_edge(west, Direction::E, Registry::DOOR)?;
    /// let mut graph = PathGraph::new(&d)?;
    /// assert_eq!(d.open_door_with(&mut graph, west, Direction::E)?.walk_regions, RegionChange::Joined);
    /// assert_eq!(d.close_door_with(&mut graph, west, Direction::E)?.walk_regions, RegionChange::Split);
    /// assert_eq!(graph.regions(&PathRules::default()).count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Dungeon::open_door`].
    pub fn open_door_with(
        &mut self,
        graph: &mut PathGraph,
        pos: Pos,
        dir: Direction,
    ) -> Result<DoorChange, DungeonError> {
        self.change_door(pos, dir, Change::Open, Some(graph))
    }

    /// [`Dungeon::close_door`] that keeps `graph` current, as [`Dungeon::open_door_with`].
    ///
    /// # Errors
    ///
    /// As [`Dungeon::close_door`].
    pub fn close_door_with(
        &mut self,
        graph: &mut PathGraph,
        pos: Pos,
        dir: Direction,
    ) -> Result<DoorChange, DungeonError> {
        self.change_door(pos, dir, Change::Close, Some(graph))
    }

    /// Closes the door on wall `dir` of the cell at `pos` (its state's `closes_to`); as
    /// [`Dungeon::open_door`] otherwise.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::open_door`], with `closes_to` for `opens_to`.
    pub fn close_door(&mut self, pos: Pos, dir: Direction) -> Result<DoorChange, DungeonError> {
        self.change_door(pos, dir, Change::Close, None)
    }

    fn change_door(
        &mut self,
        pos: Pos,
        dir: Direction,
        change: Change,
        graph: Option<&mut PathGraph>,
    ) -> Result<DoorChange, DungeonError> {
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
        // Without a graph to keep, one is read before the change and updated after it.
        let mut read;
        let graph = match graph {
            Some(graph) => Some(graph),
            None => {
                read = PathGraph::new(self).ok();
                read.as_mut()
            }
        };
        self.set_edge(pos, dir, after)?;
        let update = graph.and_then(|g| g.update_edge(self, pos, dir).ok());
        let flip = |f: fn(&EdgeDef) -> bool| Flip { before: f(&b), after: f(&a) };
        Ok(DoorChange {
            sides,
            before,
            after,
            walkable: flip(|e| e.walkable),
            passable: flip(|e| e.passable),
            blocks_sight: flip(|e| e.opaque),
            walk_regions: update.map_or(RegionChange::Unknown, |u| u.walk_regions),
            pass_regions: update.map_or(RegionChange::Unknown, |u| u.pass_regions),
        })
    }

    fn edge_def_of(&self, id: EdgeStateId) -> Result<&EdgeDef, DungeonError> {
        self.registry()
            .edge_def(id)
            .ok_or(DungeonError::UnknownId { what: "edge state", id: id.index() as u32 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::path::{PathRules, dungeon_regions};

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
