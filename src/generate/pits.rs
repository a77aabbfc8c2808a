//! Pits (docs/design.md, "Columns across storeys"; `octile generate --pits`): on every level
//! but the ground, one octagon in the middle of a hall loses its floor and becomes a void
//! over the floor of the storey below: a hole with a railing round it and, where the
//! dungeon has no mission doors, one drop point, a one-way way down. The pit is only cut
//! where the hall stays one region without it, so every cell still reaches what it
//! reached; the drop adds a way down, never a way up.

use crate::dungeon::{Carve, Dungeon, DungeonError};
use crate::grid::{EdgeId, Pos, Slot, SlotKind};
use crate::path::{PathGraph, PathRules};
use crate::rooms::{RoomGraph, RoomKind};

/// One pit opened by [`open_pits`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pit {
    /// The void cell, on the hall's level.
    pub at: Pos,
    /// The floor under it, on the level below, where a drop lands.
    pub landing: Pos,
    /// Its rim: the edges between the void and the hall (each carries a railing but the
    /// drop point), in dense edge order.
    pub rim: Vec<EdgeId>,
    /// The rim edge made a drop point, if any.
    pub drop: Option<EdgeId>,
}

/// Opens one pit on every level above the ground where a hall allows it (module docs).
/// A pit's cell is an octagon of a room (the room with the most cells first, then the
/// next) with at least two long walls open to the room and no door in its walls, with no
/// stair, ramp, marker or pin on it, over a walkable floor that is no stair or ramp and has
/// no door in its walls;
/// of a room's cells, the one nearest its centre (the first in (row, col) order on a tie),
/// and only when the level keeps its region count without it. Deterministic, no
/// randomness. The drop point is the first of its long-edge rim edges (the first rim edge
/// when none is long). Returns the pits
/// opened, level by level.
///
/// # Errors
/// [`DungeonError`] when the registry has no room for the void tile or the drop state.
pub fn open_pits(d: &mut Dungeon) -> Result<Vec<Pit>, DungeonError> {
    let graph = RoomGraph::of(d);
    let drops = d.registry().edges().iter().all(|e| e.mechanism.is_none());
    let mut out = Vec::new();
    for level in 1..d.levels() {
        let mut rooms: Vec<_> =
            graph.rooms().iter().filter(|r| r.level == level && r.kind == RoomKind::Room).collect();
        rooms.sort_by_key(|r| std::cmp::Reverse(r.cells.len()));
        let before = regions(d);
        for room in rooms {
            let Some(slot) = centre_site(d, level, &room.cells) else { continue };
            if let Some(pit) = try_open(d, Pos { level, slot }, drops, before)? {
                out.push(pit);
                break;
            }
        }
    }
    Ok(out)
}

/// The cell of `cells` (on `level`) that can be a pit nearest the room's centre.
fn centre_site(d: &Dungeon, level: u16, cells: &[Slot]) -> Option<Slot> {
    let layout = d.layout();
    let centre = cells.iter().map(|&s| layout.center(s)).sum::<glam::DVec2>() / cells.len().max(1) as f64;
    let mut sites: Vec<(f64, Slot)> = cells
        .iter()
        .filter(|&&s| can_hold(d, Pos { level, slot: s }))
        .map(|&s| (layout.center(s).distance_squared(centre), s))
        .collect();
    sites.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    sites.first().map(|&(_, s)| s)
}

/// Whether the cell at `pos` may become a pit (see [`open_pits`]).
fn can_hold(d: &Dungeon, pos: Pos) -> bool {
    let below = Pos { level: pos.level - 1, ..pos };
    let plain = |p: Pos| {
        d.tile_def(p).is_ok_and(|t| t.carved && t.walkable && !t.void && !t.stair)
            && d.stair_below(p).is_none()
            && !d.is_pinned(p)
            && d.ramp_over(p).is_none()
            && d.ramps().iter().all(|r| d.ramp_cells(r).is_none_or(|c| c.foot != p && c.top != p))
    };
    let walls = d.dims().walls(pos.slot).unwrap_or(&[]);
    let open = |p: Pos, dir| d.carved_seam(p, dir).is_some_and(|e| e.carve == Carve::Full);
    pos.slot.kind() == SlotKind::Octagon
        && plain(pos)
        && plain(below)
        && !d.open_above(below)
        && d.entrance() != Some(pos)
        && d.exit() != Some(pos)
        && walls.iter().filter(|d| !d.is_diagonal()).filter(|&&dir| open(pos, dir)).count() >= 2
        && walls.iter().all(|&dir| d.carved_seam(pos, dir).is_none_or(|e| e.carve != Carve::Door))
        && walls.iter().all(|&dir| d.carved_seam(below, dir).is_none_or(|e| e.carve != Carve::Door))
}

/// How many passable regions `d` has (doors open).
fn regions(d: &Dungeon) -> usize {
    PathGraph::new(d).map(|g| g.regions(&PathRules { open_doors: true }).count()).unwrap_or(usize::MAX)
}

/// Opens the pit at `pos` when the dungeon keeps the `before` regions it has without it
/// (else changes nothing and says `None`).
fn try_open(d: &mut Dungeon, pos: Pos, drops: bool, before: usize) -> Result<Option<Pit>, DungeonError> {
    let mut trial = d.clone();
    let void = trial.void_tile()?;
    trial.set_tile(pos, void)?;
    if regions(&trial) > before {
        return Ok(None);
    }
    let dims = trial.dims();
    // The room below keeps its height round the landing: the hole is one in its ceiling,
    // not a deck over a storey-tall space (the cells beside the landing would otherwise
    // stand under one, [`Dungeon::under_deck`]).
    let landing = Pos { level: pos.level - 1, ..pos };
    for &dir in dims.walls(landing.slot).unwrap_or(&[]) {
        let Some(slot) = dims.neighbor(landing.slot, dir).ok().flatten() else { continue };
        let beside = Pos { slot, ..landing };
        // One already under a deck (an atrium's) keeps it.
        if trial.under_deck(beside) && !d.under_deck(beside) && trial.room_height_set(beside).is_none() {
            trial.set_room_height(beside, d.room_height_at(beside))?;
        }
    }
    let mut rim: Vec<EdgeId> = dims
        .walls(pos.slot)
        .unwrap_or(&[])
        .iter()
        .filter_map(|&dir| dims.edge(pos.slot, dir).ok().flatten())
        .collect();
    rim.sort_unstable();
    let rim: Vec<EdgeId> = rim.into_iter().filter(|&e| trial.railing_at(pos.level, e).is_some()).collect();
    let first = rim.iter().find(|e| matches!(e, EdgeId::Long(_))).or(rim.first());
    let drop = match first {
        Some(&edge) if drops => {
            let state = trial.drop_state()?;
            trial.set_edge_of(pos.level, edge, state)?;
            Some(edge)
        }
        _ => None,
    };
    *d = trial;
    Ok(Some(Pit { at: pos, landing, rim, drop }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    #[test]
    fn a_pit_opens_in_the_middle_of_a_hall_over_the_floor_below() {
        let mut d = Dungeon::new(5, 5, 2, Proportions::default(), Fill::Floor).unwrap();
        let pits = open_pits(&mut d).unwrap();
        assert_eq!(pits.len(), 1);
        let pit = &pits[0];
        assert_eq!(pit.at, Pos::new(1, 4, 4), "the hall's centre");
        assert!(d.is_void(pit.at) && d.open_above(pit.landing));
        assert_eq!(d.problems(), vec![]);
        assert_eq!(d.drops(1).len(), 1);
        assert_eq!(d.drops(1)[0].landing, pit.landing);
        assert_eq!(d.railing_edges(1).len(), pit.rim.len() - 1, "a railing round it but the drop");
        // The hall below keeps its height round the landing: a hole in its ceiling.
        let around = d.dims().walls(pit.landing.slot).unwrap().iter().filter_map(|&dir| {
            d.dims().neighbor(pit.landing.slot, dir).unwrap().map(|slot| Pos { slot, ..pit.landing })
        });
        for p in around {
            assert_eq!(d.room_height_at(p), d.proportions().room_height, "{p}");
        }
        assert_eq!(d.room_height_at(pit.landing), d.proportions().layer_height);
    }
}
