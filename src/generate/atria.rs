//! Atria (docs/design.md, "Columns across storeys"; `octile generate --atria`): on every
//! level but the top, one room of the finished dungeon is opened up through the storey
//! above it. The cells over it that are rock there become void (carved, no floor), the
//! open pillars among them are opened, and every edge between the void and a floor cell of
//! the storey above is opened: a balcony or a bridge over the atrium, with a railing
//! ([`Dungeon::railing_edges`]). The doors in the atrium's own walls become open seams (a
//! door's wall stops under a slab the atrium has not). Nothing walkable is added or taken
//! away, so every cell reaches what it reached before; where the dungeon has no mission
//! doors, one rim edge of each atrium is a drop point, a one-way way down into it.

use crate::dungeon::{Carve, Dungeon, DungeonError, PillarState, Registry};
use crate::grid::{EdgeId, Pos, Slot};
use crate::rooms::{RoomGraph, RoomKind};

/// Fewest cells of the storey above that an atrium opens (smaller rooms are passed over).
pub const MIN_ATRIUM_CELLS: usize = 3;

/// One atrium opened by [`open_atria`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atrium {
    /// The level of its floor.
    pub level: u16,
    /// The cells of the storey above made void, row-major.
    pub void: Vec<Slot>,
    /// Edges of the storey above between the void and a floor (each carries a railing but
    /// the drop point).
    pub rim: Vec<EdgeId>,
    /// The rim edge made a drop point, if any.
    pub drop: Option<EdgeId>,
}

/// What opening one room would do: the cells it voids and the floor edges it rims.
struct Candidate {
    void: Vec<Slot>,
    rim: Vec<EdgeId>,
}

impl Candidate {
    /// How good an atrium it makes: its void, and thrice its balcony edges (an atrium the
    /// storey above cannot look into is only a tall room).
    fn score(&self) -> usize {
        self.void.len() + 3 * self.rim.len()
    }
}

/// Opens one atrium on every level below the top where a room allows it (module docs),
/// choosing on each level the room with the best score (void cells of the
/// storey above, and balcony edges thrice) that voids at least [`MIN_ATRIUM_CELLS`] and
/// has a balcony edge (the lowest room id on a tie): deterministic, no randomness. The
/// drop point is the first rim edge of an atrium with two or more.
/// Returns the atria opened, level by level.
///
/// # Errors
/// [`DungeonError`] when the registry has no room for the void tile or the drop state.
pub fn open_atria(d: &mut Dungeon) -> Result<Vec<Atrium>, DungeonError> {
    let graph = RoomGraph::of(d);
    let drops = drops_allowed(d);
    let mut out = Vec::new();
    for level in 0..d.levels().saturating_sub(1) {
        let best = graph
            .rooms()
            .iter()
            .filter(|r| r.level == level && r.kind == RoomKind::Room)
            .filter_map(|r| candidate(d, level, &r.cells))
            .filter(|c| c.void.len() >= MIN_ATRIUM_CELLS && !c.rim.is_empty())
            .fold(None::<Candidate>, |best, c| match best {
                Some(b) if b.score() >= c.score() => Some(b),
                _ => Some(c),
            });
        let Some(c) = best else { continue };
        out.push(apply(d, level, c, drops)?);
    }
    Ok(out)
}

/// Opens the room of `cells` (slots of `level`) as an atrium (module docs), whatever its
/// size: what a room graph's room that asks for one gets ([`crate::flow::RoomSpec`]'s
/// `atrium`). `None`, changing nothing, on the top level, when a wall of the room is a
/// mission door (it stays a door, and the room a room) or when nothing above it is rock.
///
/// # Errors
/// As [`open_atria`].
pub fn open_atrium(d: &mut Dungeon, level: u16, cells: &[Slot]) -> Result<Option<Atrium>, DungeonError> {
    if level + 1 >= d.levels() {
        return Ok(None);
    }
    let drops = drops_allowed(d);
    match candidate(d, level, cells).filter(|c| !c.void.is_empty()) {
        Some(c) => Ok(Some(apply(d, level, c, drops)?)),
        None => Ok(None),
    }
}

/// Whether an atrium may get a drop point: not where the dungeon has mission doors (a drop
/// could pass a lock by).
fn drops_allowed(d: &Dungeon) -> bool {
    d.registry().edges().iter().all(|e| e.mechanism.is_none())
}

/// What opening the room of `cells` on `level` would void and rim; `None` when a wall of
/// it is a mission door (it stays a door).
fn candidate(d: &Dungeon, level: u16, cells: &[Slot]) -> Option<Candidate> {
    let up = level + 1;
    let mut void = Vec::new();
    for &slot in cells {
        let (here, above) = (Pos { level, slot }, Pos { level: up, slot });
        for &dir in d.dims().walls(slot).unwrap_or(&[]) {
            let mission = d.edge_state_at(here, dir).and_then(|s| d.registry().edge_def(s));
            if mission.is_some_and(|e| e.mechanism.is_some()) {
                return None;
            }
        }
        let ok = d.tile_def(here).is_ok_and(|t| t.carved && !t.stair && !t.void)
            && d.tile_def(above).is_ok_and(|t| !t.carved)
            && !d.is_pinned(above);
        if ok {
            void.push(slot);
        }
    }
    let mut rim = Vec::new();
    for &slot in &void {
        for &dir in d.dims().walls(slot).unwrap_or(&[]) {
            let Ok(Some(other)) = d.dims().neighbor(slot, dir) else { continue };
            let Ok(Some(edge)) = d.dims().edge(slot, dir) else { continue };
            let p = Pos { level: up, slot: other };
            let floor = d.tile_def(p).is_ok_and(|t| t.carved && t.walkable && !t.stair && !t.void);
            let hole = d.is_stair(Pos { level, slot: other });
            if floor && !hole && !d.is_pinned(p) && !void.contains(&other) {
                rim.push(edge);
            }
        }
    }
    rim.sort_unstable();
    rim.dedup();
    Some(Candidate { void, rim })
}

/// Opens the atrium `c` over `level`.
fn apply(d: &mut Dungeon, level: u16, c: Candidate, drops: bool) -> Result<Atrium, DungeonError> {
    let up = level + 1;
    let void_tile = d.void_tile()?;
    for &slot in &c.void {
        d.set_tile(Pos { level: up, slot }, void_tile)?;
    }
    let dims = d.dims();
    for &slot in &c.void {
        for &dir in dims.walls(slot).unwrap_or(&[]) {
            let Ok(Some(edge)) = dims.edge(slot, dir) else { continue };
            let Ok(Some(other)) = dims.neighbor(slot, dir) else { continue };
            // The void is one space, open to its balconies and walled off from the rest
            // (the edges of a cell that was rock held any state).
            let open = c.void.contains(&other) || c.rim.contains(&edge);
            d.set_edge_of(up, edge, if open { Registry::OPEN } else { Registry::WALL })?;
            // A door of the atrium's own walls becomes an open seam.
            if d.carved_seam(Pos { level, slot }, dir).is_some_and(|e| e.carve == Carve::Door) {
                d.set_edge_of(level, edge, Registry::OPEN)?;
            }
        }
    }
    let drop = match c.rim.first() {
        Some(&edge) if drops && c.rim.len() >= 2 => {
            let state = d.drop_state()?;
            d.set_edge_of(up, edge, state)?;
            Some(edge)
        }
        _ => None,
    };
    // Open pillars among void cells, so no rock stands in the air over the atrium.
    let pillars: Vec<_> = dims.pillars().collect();
    for pillar in pillars {
        if pillar.cells().iter().all(|s| c.void.contains(s)) && d.pillar_can_open(up, pillar).is_ok() {
            d.set_pillar(up, pillar, PillarState::Open)?;
        }
    }
    Ok(Atrium { level, void: c.void, rim: c.rim, drop })
}
