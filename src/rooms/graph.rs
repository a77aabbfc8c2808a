//! `RoomGraph`: rooms and corridors (groups of joined cells of one level) and the portals
//! between them. Components come from [`label_regions`], the path module's one labelling.

use crate::dungeon::{Carve, Dungeon};
use crate::geometry::signed_area;
use crate::grid::{Direction, EdgeId, Pos, Slot, Walls};
use crate::path::{Regions, label_regions, node_index, node_positions};

/// Id of a room or corridor: its index in [`RoomGraph::rooms`]. Rooms are numbered in the
/// order of their first cell (level, row, col).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(pub u32);

impl RoomId {
    /// The index into [`RoomGraph::rooms`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Whether a group of cells is an open area or a one-cell-wide run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RoomKind {
    /// An open area (room cells: see [`is_corridor_cell`]).
    Room,
    /// A one-cell-wide run (corridor cells).
    Corridor,
}

impl RoomKind {
    /// `"room"` or `"corridor"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RoomKind::Room => "room",
            RoomKind::Corridor => "corridor",
        }
    }
}

/// One room or corridor: joined cells of one level.
#[derive(Debug, Clone, PartialEq)]
pub struct Room {
    /// Its id (its index in [`RoomGraph::rooms`]).
    pub id: RoomId,
    /// Room or corridor.
    pub kind: RoomKind,
    /// The level its cells are on.
    pub level: u16,
    /// Its cells, in (row, col) order.
    pub cells: Vec<Slot>,
    /// Carved floor-plan area in square metres: its cells' polygons plus the carved seams
    /// between two of its own cells (a door's seam counts door-wide), from
    /// [`Layout`](crate::geometry::Layout). A portal's seam belongs to neither side.
    pub area: f64,
}

/// What joins the two rooms of a portal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PortalKind {
    /// A fully carved seam.
    Open,
    /// A seam carved door-wide (a door, open or closed).
    Door,
    /// A stair, from the room of its foot up to the room of the hole above it.
    Stair,
}

impl PortalKind {
    /// `"open"`, `"door"` or `"stair"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PortalKind::Open => "open",
            PortalKind::Door => "door",
            PortalKind::Stair => "stair",
        }
    }
}

/// Where a portal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PortalPlace {
    /// The seam of `edge` on `level`.
    Seam {
        /// The level.
        level: u16,
        /// The edge whose seam it is.
        edge: EdgeId,
    },
    /// The stair standing at `foot`.
    Stair {
        /// The stair's foot; the hole is the same octagon one level up.
        foot: Pos,
    },
}

/// An edge of the room graph: a seam or a stair between two different rooms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Portal {
    /// Open seam, door or stair.
    pub kind: PortalKind,
    /// The two rooms it joins: for a seam the rooms of the edge's two sides
    /// ([`crate::grid::Dims::edge_sides`] order), for a stair its foot's then its hole's.
    pub rooms: [RoomId; 2],
    /// Where it is.
    pub place: PortalPlace,
}

/// Rooms, corridors and portals of a dungeon, computed once by [`RoomGraph::of`].
#[derive(Debug, Clone, PartialEq)]
pub struct RoomGraph {
    rooms: Vec<Room>,
    portals: Vec<Portal>,
    labels: Regions,
}

/// The cells joined to the cell at `pos` (same level, across a carved seam), with the wall
/// each is seen through; empty for a position that is not a carved cell.
fn joined(dungeon: &Dungeon, pos: Pos) -> impl Iterator<Item = (Direction, Pos)> + '_ {
    let dims = dungeon.dims();
    let walls: &[Direction] = dims.walls(pos.slot).unwrap_or(&[]);
    walls.iter().filter_map(move |&dir| {
        dungeon.carved_seam(pos, dir)?;
        let slot = dims.neighbor(pos.slot, dir).ok()??;
        Some((dir, Pos { slot, ..pos }))
    })
}

/// The corridor rule, the only place it is written: the carved cell at `pos` is joined to
/// one or two cells and no two cells it is joined to are joined to each other. False for a
/// cell that is not carved, one joined to nothing, a junction of three or more, and a cell
/// on a triangle of joins (octagon, octagon and the connector between them, all seams
/// carved: an open area).
#[must_use]
pub fn is_corridor_cell(dungeon: &Dungeon, pos: Pos) -> bool {
    let near: Vec<Pos> = joined(dungeon, pos).map(|(_, p)| p).collect();
    if near.is_empty() || near.len() > 2 {
        return false;
    }
    !near.iter().any(|&a| joined(dungeon, a).any(|(_, b)| b != pos && near.contains(&b)))
}

impl RoomGraph {
    /// The rooms, corridors and portals of every level of `dungeon`.
    ///
    /// # Panics
    /// Never: it visits only the dungeon's own cells.
    #[must_use]
    pub fn of(dungeon: &Dungeon) -> RoomGraph {
        RoomGraph::with_walls(dungeon, &Walls::of(dungeon.dims()))
    }

    /// [`RoomGraph::of`] with the walls of the dungeon's grid read already (the generator
    /// reads them once for every layout).
    pub(crate) fn with_walls(dungeon: &Dungeon, walls: &Walls) -> RoomGraph {
        let len = usize::from(dungeon.levels()) * dungeon.dims().slot_count();
        let joins = Joins::of(dungeon, walls);
        // 0: not carved, 1: room cell, 2: corridor cell.
        let class: Vec<u8> =
            (0..len).map(|i| if joins.carved[i] { 1 + u8::from(joins.is_corridor(i)) } else { 0 }).collect();
        let labels = label_regions(
            len,
            |i| class[i] != 0,
            |i, out| {
                out.extend(joins.of_node(i).iter().map(|&j| j as usize).filter(|&j| class[j] == class[i]))
            },
        );
        let mut rooms: Vec<Room> = Vec::with_capacity(labels.count());
        for (i, pos) in node_positions(dungeon).enumerate().filter(|&(i, _)| class[i] != 0) {
            let id = labels.region(i).expect("invariant: carved cells are labelled");
            if id.index() == rooms.len() {
                let kind = if class[i] == 2 { RoomKind::Corridor } else { RoomKind::Room };
                let id = RoomId(id.index() as u32);
                rooms.push(Room { id, kind, level: pos.level, cells: Vec::new(), area: 0.0 });
            }
            let room = &mut rooms[id.index()];
            room.cells.push(pos.slot);
            room.area += dungeon.layout().cell_area(pos.slot);
        }
        let mut graph = RoomGraph { rooms, portals: Vec::new(), labels };
        graph.add_seams(dungeon, &joins);
        graph.add_stairs(dungeon);
        graph
    }

    /// Adds each carved seam's area to its room when both sides are that room's, else a
    /// portal between the two rooms; level by level, in edge order.
    fn add_seams(&mut self, dungeon: &Dungeon, joins: &Joins) {
        let dims = dungeon.dims();
        let layout = dungeon.layout();
        let n = dims.slot_count();
        let index = |s: Slot| dims.index(s).expect("invariant: a side's slot");
        let mut seams = Vec::new();
        for level in 0..dungeon.levels() {
            let base = usize::from(level) * n;
            // Each carved seam once (from its lower node), by edge index.
            seams.clear();
            for i in base..base + n {
                let joined = joins.of_node(i).iter().zip(joins.edges_of(i));
                seams.extend(joined.filter(|&(&j, _)| i < j as usize).map(|(_, &edge)| edge));
            }
            seams.sort_unstable();
            for &edge in &seams {
                let edge = dims.edge_at(edge as usize).expect("invariant: a seam's edge index");
                let sides = dims.edge_sides(edge).expect("invariant: edge_at yields edges");
                let (na, nb) = (base + index(sides[0].0), base + index(sides[1].0));
                let room = |i: usize| self.labels.region(i).map(|id| RoomId(id.index() as u32));
                let (Some(a), Some(b)) = (room(na), room(nb)) else { continue };
                let door = joins.is_door(na, nb);
                if a == b {
                    let seam = if door { layout.door(sides[0], sides[1]) } else { layout.edge_seam(sides) };
                    self.rooms[a.index()].area += seam.map_or(0.0, |s| signed_area(&s).abs());
                } else {
                    let kind = if door { PortalKind::Door } else { PortalKind::Open };
                    self.portals.push(Portal {
                        kind,
                        rooms: [a, b],
                        place: PortalPlace::Seam { level, edge },
                    });
                }
            }
        }
    }

    /// Adds a portal for every stair whose foot and hole are both carved.
    fn add_stairs(&mut self, dungeon: &Dungeon) {
        for stair in dungeon.stairs().iter() {
            let (Some(a), Some(b)) = (self.room_at(dungeon, stair.foot), self.room_at(dungeon, stair.hole()))
            else {
                continue;
            };
            let place = PortalPlace::Stair { foot: stair.foot };
            self.portals.push(Portal { kind: PortalKind::Stair, rooms: [a, b], place });
        }
    }

    /// Every room and corridor, by id.
    #[must_use]
    pub fn rooms(&self) -> &[Room] {
        &self.rooms
    }

    /// The room with id `id`, when there is one.
    #[must_use]
    pub fn room(&self, id: RoomId) -> Option<&Room> {
        self.rooms.get(id.index())
    }

    /// Every portal: seams level by level in edge order, then stairs in (level, row, col)
    /// order of their feet.
    #[must_use]
    pub fn portals(&self) -> &[Portal] {
        &self.portals
    }

    /// The portals that touch room `id`.
    pub fn portals_of(&self, id: RoomId) -> impl Iterator<Item = &Portal> {
        self.portals.iter().filter(move |p| p.rooms.contains(&id))
    }

    /// The room or corridor holding the cell at `pos` of `dungeon` (the dungeon this graph
    /// was built from); `None` when the cell is not carved or not in the dungeon.
    #[must_use]
    pub fn room_at(&self, dungeon: &Dungeon, pos: Pos) -> Option<RoomId> {
        let id = self.labels.region(node_index(dungeon, pos)?)?;
        Some(RoomId(id.index() as u32))
    }
}

/// Per node ([`node_index`]) of a dungeon: whether it is carved, and the nodes [`joined`]
/// to it (walls clockwise from north), read once so the corridor rule, the labelling and
/// the seams do not ask the dungeon again.
struct Joins {
    carved: Vec<bool>,
    start: Vec<u32>,
    to: Vec<u32>,
    /// Per entry of `to`: the edge index ([`crate::grid::Dims::edge_index`]) of the seam.
    edge: Vec<u32>,
    /// Per entry of `to`: whether the seam is carved door-wide.
    door: Vec<bool>,
}

impl Joins {
    /// Reads `dungeon`, whose grid's walls are `walls`, a level at a time.
    fn of(dungeon: &Dungeon, walls: &Walls) -> Joins {
        let n = dungeon.dims().slot_count();
        let len = usize::from(dungeon.levels()) * n;
        let mut joins = Joins {
            carved: Vec::with_capacity(len),
            start: Vec::with_capacity(len + 1),
            to: Vec::new(),
            edge: Vec::new(),
            door: Vec::new(),
        };
        joins.start.push(0);
        for level in 0..dungeon.levels() {
            let carved = dungeon.carved_slots(level).expect("invariant: a level of the dungeon");
            let base = usize::from(level) * n;
            for (i, &is_carved) in carved.iter().enumerate() {
                // [`joined`], reading the carved flags before the seam.
                if is_carved {
                    for wall in walls.of_slot(i).iter().filter(|w| carved[w.to as usize]) {
                        if let Some(def) = dungeon.carved_seam_of(level, &carved, i, wall) {
                            joins.to.push((base + wall.to as usize) as u32);
                            joins.edge.push(wall.edge);
                            joins.door.push(def.carve == Carve::Door);
                        }
                    }
                }
                joins.start.push(joins.to.len() as u32);
            }
            joins.carved.extend(carved);
        }
        joins
    }

    /// Whether the seam joining node `i` to node `j` (joined) is carved door-wide.
    fn is_door(&self, i: usize, j: usize) -> bool {
        let at =
            self.of_node(i).iter().position(|&x| x as usize == j).expect("invariant: i and j are joined");
        self.door[self.start[i] as usize + at]
    }

    fn of_node(&self, i: usize) -> &[u32] {
        &self.to[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The edge indices of the seams joining node `i`, in the order of [`Joins::of_node`].
    fn edges_of(&self, i: usize) -> &[u32] {
        &self.edge[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// [`is_corridor_cell`] of node `i`, on these arrays.
    fn is_corridor(&self, i: usize) -> bool {
        let near = self.of_node(i);
        if near.is_empty() || near.len() > 2 {
            return false;
        }
        !near.iter().any(|&a| self.of_node(a as usize).iter().any(|&b| b as usize != i && near.contains(&b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::path::node_pos;

    /// A 3x1 strip of octagons, all floor, joined west to east: a corridor of three cells;
    /// carving the connectors between rows of a 2x2 block makes a room.
    #[test]
    fn a_strip_is_a_corridor_and_a_block_with_its_connector_is_a_room() {
        let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        for c in [0, 2, 4] {
            assert!(is_corridor_cell(&d, Pos::new(0, 0, c)), "col {c}");
        }
        let g = RoomGraph::of(&d);
        assert_eq!(g.rooms().len(), 1);
        assert_eq!(g.rooms()[0].kind, RoomKind::Corridor);
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::WALL).unwrap();
        let g = RoomGraph::of(&d);
        assert_eq!(
            g.rooms().iter().map(|r| r.kind).collect::<Vec<_>>(),
            [RoomKind::Room, RoomKind::Corridor]
        );
        assert!(g.portals().is_empty(), "a walled seam is no portal");

        let block = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        joins_agree_with_the_dungeon(&block);
        let g = RoomGraph::of(&block);
        assert_eq!(g.rooms().len(), 1);
        assert_eq!(g.rooms()[0].kind, RoomKind::Room);
        assert_eq!(g.rooms()[0].cells.len(), 5);
        let layout = block.layout();
        let cells: f64 =
            g.rooms()[0].cells.iter().map(|&s| signed_area(&layout.cell_polygon(s).unwrap())).sum();
        assert!(g.rooms()[0].area > cells, "the seams between its cells count");
    }

    /// The dense joins and corridor rule equal [`joined`] and [`is_corridor_cell`] on every
    /// node of `d`.
    fn joins_agree_with_the_dungeon(d: &Dungeon) {
        let joins = Joins::of(d, &Walls::of(d.dims()));
        let len = usize::from(d.levels()) * d.dims().slot_count();
        for i in 0..len {
            let Some(pos) = node_pos(d, i) else { continue };
            let want: Vec<u32> = joined(d, pos).map(|(_, p)| node_index(d, p).unwrap() as u32).collect();
            assert_eq!(joins.of_node(i), want, "node {i}");
            for (dir, p) in joined(d, pos) {
                let door = d.carved_seam(pos, dir).unwrap().carve == Carve::Door;
                assert_eq!(joins.is_door(i, node_index(d, p).unwrap()), door, "node {i} wall {dir:?}");
            }
            assert_eq!(joins.carved[i], d.is_carved(pos), "node {i}");
            assert_eq!(joins.carved[i] && joins.is_corridor(i), is_corridor_cell(d, pos), "node {i}");
        }
    }

    #[test]
    fn dense_joins_agree_on_a_generated_dungeon() {
        let options =
            crate::generate::GenerateOptions { seed: 3, levels: 2, cols: 9, rows: 7, ..Default::default() };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        joins_agree_with_the_dungeon(&d);
        let joins = Joins::of(&d, &Walls::of(d.dims()));
        let corridors = (0..usize::from(d.levels()) * d.dims().slot_count())
            .filter(|&i| joins.carved[i] && joins.is_corridor(i))
            .count();
        assert!(corridors > 0, "the dungeon has corridor cells to compare");
    }
}
