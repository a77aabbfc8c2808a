//! Markers: where a game puts things, from the geometry of [`Layout`](crate::geometry::Layout) and the room graph,
//! kept in the crate's one spatial index ([`SpatialIndex`], keyed by cell).
//!
//! - a **spawn** point per room (kind [`RoomKind::Room`]): the centre of the standable cell
//!   nearest the mean of the room's cell centres (octagons before connectors);
//! - **prop** anchors in room octagons: [`PROP_INSET`] in front of the midpoint of each long
//!   wall that faces rock, kept only when at least [`PASSAGE_CLEARANCE`] from every opening
//!   of the cell;
//! - a **torch** socket per standable octagon: the midpoint of its first long wall that faces
//!   rock (N, E, S, W), [`TORCH_HEIGHT`] above the floor, facing into the cell;
//! - a **door hinge** per door: the first end of the opening the door cuts in its first
//!   side's wall ([`crate::mesh::door_leaves`]), facing into that cell.
//!
//! A cell is *standable* when it is carved and walkable, not a stair and not the hole above
//! one (the spiral and the shaft own those).

use glam::{DVec2, DVec3};

use super::{RoomGraph, RoomId, RoomKind};
use crate::dungeon::{Carve, Dungeon};
use crate::grid::{Direction, EdgeId, Pos, Slot, SlotKind};
use crate::sight::SpatialIndex;

/// Height of a torch socket above its floor (metres), at most 3/4 of the room height.
pub const TORCH_HEIGHT: f64 = 2.2;

/// How far a prop anchor stands in front of its wall (metres).
pub const PROP_INSET: f64 = 1.0;

/// Least distance from a prop anchor to any opening of its cell (metres): a prop never
/// stands in a passage.
pub const PASSAGE_CLEARANCE: f64 = 2.5;

/// What a marker is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkerKind {
    /// Where a player or a monster group may appear.
    Spawn,
    /// A free spot on the floor against a wall (chests, barrels).
    Prop,
    /// A wall socket for a torch or a light.
    Torch,
    /// The hinge of the door across `edge` (on the marker's level).
    DoorHinge(EdgeId),
}

impl MarkerKind {
    /// `"spawn"`, `"prop"`, `"torch"` or `"door_hinge"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MarkerKind::Spawn => "spawn",
            MarkerKind::Prop => "prop",
            MarkerKind::Torch => "torch",
            MarkerKind::DoorHinge(_) => "door_hinge",
        }
    }
}

/// One marker: a world point with a facing, in a cell and a room.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Marker {
    /// What it is for.
    pub kind: MarkerKind,
    /// The room or corridor it belongs to.
    pub room: RoomId,
    /// The cell it is in (for a hinge: the door's first side).
    pub cell: Pos,
    /// World position, metres (`y` is the floor, or torch height for a torch).
    pub point: DVec3,
    /// Unit `(x, z)` direction it faces: into the room for torches, props and hinges, north
    /// for spawns.
    pub facing: DVec2,
}

/// Every marker of a dungeon, indexed by cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Markers {
    index: SpatialIndex<Marker>,
}

impl Markers {
    /// The markers of `dungeon`, whose rooms are `graph` ([`RoomGraph::of`] the same
    /// dungeon). The same dungeon gives the same markers in the same order.
    #[must_use]
    pub fn of(dungeon: &Dungeon, graph: &RoomGraph) -> Markers {
        let mut index = SpatialIndex::new();
        for room in graph.rooms() {
            if room.kind == RoomKind::Room
                && let Some(m) = spawn(dungeon, graph, room.id)
            {
                index.insert(m.cell, m);
            }
        }
        for pos in dungeon.cells().filter(|&p| standable(dungeon, p) && p.slot.kind() == SlotKind::Octagon) {
            let Some(room) = graph.room_at(dungeon, pos) else { continue };
            if graph.room(room).is_some_and(|r| r.kind == RoomKind::Room) {
                for m in props(dungeon, pos, room) {
                    index.insert(pos, m);
                }
            }
            if let Some(m) = torch(dungeon, pos, room) {
                index.insert(pos, m);
            }
        }
        for m in hinges(dungeon, graph) {
            index.insert(m.cell, m);
        }
        Markers { index }
    }

    /// The markers in the cell at `pos`.
    #[must_use]
    pub fn at(&self, pos: Pos) -> &[Marker] {
        self.index.at(pos)
    }

    /// Every marker, by cell in (level, row, col) order.
    pub fn iter(&self) -> impl Iterator<Item = &Marker> {
        self.index.iter().flat_map(|(_, list)| list.iter())
    }

    /// The index itself, for "what is near here" queries ([`SpatialIndex::within`]).
    #[must_use]
    pub fn index(&self) -> &SpatialIndex<Marker> {
        &self.index
    }
}

/// True when a marker may stand on the floor of the cell at `pos`.
fn standable(dungeon: &Dungeon, pos: Pos) -> bool {
    dungeon.tile_def(pos).is_ok_and(|t| t.carved && t.walkable)
        && !dungeon.is_stair(pos)
        && dungeon.stair_below(pos).is_none()
}

/// The spawn point of room `id`, when it has a standable cell.
fn spawn(dungeon: &Dungeon, graph: &RoomGraph, id: RoomId) -> Option<Marker> {
    let room = graph.room(id)?;
    let layout = dungeon.layout();
    let mean = room.cells.iter().map(|&s| layout.center(s)).sum::<DVec2>() / room.cells.len() as f64;
    let slot = room
        .cells
        .iter()
        .copied()
        .filter(|&slot| standable(dungeon, Pos { level: room.level, slot }))
        .min_by(|&a, &b| {
            let key = |s: Slot| (s.kind() != SlotKind::Octagon, layout.center(s).distance_squared(mean));
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })?;
    let cell = Pos { level: room.level, slot };
    Some(Marker {
        kind: MarkerKind::Spawn,
        room: id,
        cell,
        point: layout.world_center(cell),
        facing: DVec2::new(0.0, -1.0),
    })
}

/// Wall `dir` of the cell at `pos` with its inward unit normal, when it faces rock (no
/// carved seam beyond it).
fn rock_wall(dungeon: &Dungeon, pos: Pos, dir: Direction) -> Option<([DVec2; 2], DVec2)> {
    if dungeon.carved_seam(pos, dir).is_some() {
        return None;
    }
    let [a, b] = dungeon.layout().wall(pos.slot, dir)?;
    Some(([a, b], (b - a).perp().normalize()))
}

/// The openings of the cell at `pos`: the part of each wall its carved seam opens.
fn openings(dungeon: &Dungeon, pos: Pos) -> Vec<[DVec2; 2]> {
    let dims = dungeon.dims();
    let layout = dungeon.layout();
    let walls: &[Direction] = dims.walls(pos.slot).unwrap_or(&[]);
    walls
        .iter()
        .filter_map(|&dir| {
            let def = dungeon.carved_seam(pos, dir)?;
            if def.carve == Carve::Door {
                let sides = dims.edge_sides(dims.edge(pos.slot, dir).ok()??).ok()?;
                layout.door_opening(sides, pos.slot, dir)
            } else {
                layout.wall(pos.slot, dir)
            }
        })
        .collect()
}

/// Prop anchors of the standable room octagon at `pos`.
fn props(dungeon: &Dungeon, pos: Pos, room: RoomId) -> Vec<Marker> {
    let open = openings(dungeon, pos);
    let y = dungeon.proportions().floor_y(pos.level);
    Direction::CARDINALS
        .into_iter()
        .filter_map(|dir| rock_wall(dungeon, pos, dir))
        .map(|([a, b], inward)| ((a + b) / 2.0 + inward * PROP_INSET, inward))
        .filter(|&(p, _)| {
            open.iter().all(|&[a, b]| crate::walk::segment_distance(p, a, b) >= PASSAGE_CLEARANCE)
        })
        .map(|(p, facing)| Marker {
            kind: MarkerKind::Prop,
            room,
            cell: pos,
            point: DVec3::new(p.x, y, p.y),
            facing,
        })
        .collect()
}

/// The torch socket of the standable octagon at `pos`: on its first long wall facing rock.
fn torch(dungeon: &Dungeon, pos: Pos, room: RoomId) -> Option<Marker> {
    let ([a, b], facing) = Direction::CARDINALS.into_iter().find_map(|dir| rock_wall(dungeon, pos, dir))?;
    let p = (a + b) / 2.0;
    let props = dungeon.proportions();
    let y = props.floor_y(pos.level) + TORCH_HEIGHT.min(0.75 * props.room_height);
    Some(Marker { kind: MarkerKind::Torch, room, cell: pos, point: DVec3::new(p.x, y, p.y), facing })
}

/// The hinge of every door of every level, in level then edge order: the hinge of each
/// [`crate::mesh::door_leaves`] leaf (the one owner of where a door hinges), facing into
/// the leaf's cell.
fn hinges(dungeon: &Dungeon, graph: &RoomGraph) -> Vec<Marker> {
    crate::mesh::door_leaves(dungeon)
        .into_iter()
        .filter_map(|leaf| {
            Some(Marker {
                kind: MarkerKind::DoorHinge(leaf.edge),
                room: graph.room_at(dungeon, leaf.cell)?,
                cell: leaf.cell,
                point: leaf.hinge,
                facing: leaf.along.perp(),
            })
        })
        .collect()
}
