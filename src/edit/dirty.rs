//! Dirty tracking: the mesh chunks ([`crate::mesh::chunk`]) a list of changes can alter,
//! and no more, so an edit re-meshes as little as it can.
//!
//! What a chunk's mesh reads (`mesh::level`): each of its cells reads its own tile, the
//! carve of its walls (the edge's state, and both cells' tiles when that state carves), and,
//! for a stair, the walls of the hole above and the stair's exit; each seam it owns
//! ([`crate::mesh::chunk::edge_slot`]) reads the carve of its edge. So:
//! - a changed edge dirties the chunks of its two cells and of its seam;
//! - a changed tile dirties its own chunk, and through each of its walls whose state carves
//!   (open, a door) the chunks of the cell beyond and of the seam (a wall's state that does
//!   not carve reads no tile);
//! - a stair reads the level above (its shaft walls, from the hole's walls; its exit, from
//!   the hole's walls that carve and the cells beyond them), so marking a cell also marks
//!   the stair straight below it, if any: the changes above reach it only through the hole
//!   itself, or through a cell beyond one of its carving walls, which the rules above mark;
//! - a stair's exit avoids a wall into another hole, so a tile change to or from a stair
//!   also dirties the stairs beside it on its level, and (the hole above a stair has no
//!   floor) its own chunk on the level above.
//!
//! - a changed room height dirties its own chunk and, through each of its walls whose state
//!   carves, the chunks of the cell beyond and of the seam;
//! - in a dungeon with room heights, a marked seam also marks the seams of its two cells'
//!   other walls: their pillar faces are split where a lower seam beside them stops;
//! - a changed pillar dirties the chunk of its connector (which holds an open pillar's floor
//!   and ceiling) and of its three seams (whose sides face it). A tile or edge change that
//!   turns a pillar into a column is recorded as a pillar change of its own.
//!
//! Markers and pins change no triangle.

use std::collections::BTreeSet;

use super::Change;
use crate::dungeon::{Carve, Dungeon};
use crate::grid::{EdgeId, Pos};
use crate::mesh::chunk::{ChunkId, edge_slot};

/// The chunks of `d` (as it is after the changes) that `changes` may alter, sorted.
#[must_use]
pub fn dirty_chunks(d: &Dungeon, changes: &[Change]) -> Vec<ChunkId> {
    let mut out = BTreeSet::new();
    let stair_tile = |t| d.registry().tile_def(t).is_some_and(|def| def.stair);
    for change in changes {
        match *change {
            Change::Tile { pos, before, after } => {
                mark(&mut out, d, pos);
                let dims = d.dims();
                for &dir in dims.walls(pos.slot).unwrap_or(&[]) {
                    let Ok(Some(edge)) = dims.edge(pos.slot, dir) else { continue };
                    if carves(d, pos.level, edge) {
                        mark_edge(&mut out, d, pos.level, edge);
                    }
                }
                if stair_tile(before) || stair_tile(after) {
                    if pos.level + 1 < d.levels() {
                        out.insert(ChunkId::of(Pos { level: pos.level + 1, ..pos }));
                    }
                    for &dir in dims.walls(pos.slot).unwrap_or(&[]) {
                        let beside =
                            dims.neighbor(pos.slot, dir).ok().flatten().map(|slot| Pos { slot, ..pos });
                        if let Some(stair) = beside.filter(|&p| d.is_stair(p)) {
                            out.insert(ChunkId::of(stair));
                        }
                    }
                }
            }
            Change::Edge { level, edge, .. } => mark_edge(&mut out, d, level, edge),
            Change::Height { pos, .. } => {
                // A cell's height sets its own ceiling and walls and the height of its carved
                // seams: the lintels on the cells beyond them, and where the seams beside
                // those are split ([`mark_edge`] marks those too). An open pillar beside the
                // cell is reached the same way: its connector is the cell or a cell beyond a
                // carved seam, and its three seams are among those marked.
                mark(&mut out, d, pos);
                let dims = d.dims();
                for &dir in dims.walls(pos.slot).unwrap_or(&[]) {
                    let Ok(Some(edge)) = dims.edge(pos.slot, dir) else { continue };
                    if carves(d, pos.level, edge) {
                        mark_edge_and_beside(&mut out, d, pos.level, edge, true);
                    }
                }
            }
            Change::Pillar { level, pillar, .. } => {
                out.insert(ChunkId::of(Pos { level, slot: pillar.connector() }));
                for seam in pillar.seams() {
                    out.insert(ChunkId::of(Pos { level, slot: edge_slot(seam) }));
                }
            }
            // A lock id is no geometry (the door it sits on is an Edge change of its own).
            Change::Entrance { .. } | Change::Exit { .. } | Change::Pin { .. } | Change::Lock { .. } => {}
        }
    }
    out.into_iter().collect()
}

/// True when `edge` of `level` has a state that carves (so the cells' tiles decide its mesh).
fn carves(d: &Dungeon, level: u16, edge: EdgeId) -> bool {
    let state = d.edge_state_of(level, edge);
    state.ok().and_then(|s| d.registry().edge_def(s)).is_some_and(|def| def.carve != Carve::None)
}

/// Marks the chunks of both cells of `edge` and of its seam (with the stairs below them).
/// In a dungeon with room heights, also the seams of both cells' other walls: their pillar
/// faces are split where this seam stops, when it is lower.
fn mark_edge(out: &mut BTreeSet<ChunkId>, d: &Dungeon, level: u16, edge: EdgeId) {
    mark_edge_and_beside(out, d, level, edge, d.has_room_heights());
}

/// [`mark_edge`], marking the seams beside when `beside` (a height change marks them even
/// when it leaves no height set: the splits it removes were there before).
fn mark_edge_and_beside(out: &mut BTreeSet<ChunkId>, d: &Dungeon, level: u16, edge: EdgeId, beside: bool) {
    let dims = d.dims();
    for (slot, _) in dims.edge_sides(edge).into_iter().flatten() {
        mark(out, d, Pos { level, slot });
        if beside {
            for &dir in dims.walls(slot).unwrap_or(&[]) {
                if let Ok(Some(e)) = dims.edge(slot, dir) {
                    out.insert(ChunkId::of(Pos { level, slot: edge_slot(e) }));
                }
            }
        }
    }
    out.insert(ChunkId::of(Pos { level, slot: edge_slot(edge) }));
}

/// Marks the chunk of `pos`, and the chunk of the stair straight below it, if any.
fn mark(out: &mut BTreeSet<ChunkId>, d: &Dungeon, pos: Pos) {
    out.insert(ChunkId::of(pos));
    if let Some(below) = pos.level.checked_sub(1).map(|level| Pos { level, ..pos })
        && d.is_stair(below)
    {
        out.insert(ChunkId::of(below));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn a_change_on_a_border_marks_both_chunks() {
        let mut d = Dungeon::new(20, 20, 3, Proportions::default(), Fill::Floor).unwrap();
        let change =
            Change::Tile { pos: Pos::new(1, 16, 16), before: Registry::SOLID, after: Registry::FLOOR };
        let square = |level| [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(row, col)| ChunkId { level, row, col });
        assert_eq!(dirty_chunks(&d, &[change]), square(1));
        let inside = Change::Tile { pos: Pos::new(0, 6, 6), before: Registry::SOLID, after: Registry::FLOOR };
        assert_eq!(dirty_chunks(&d, &[inside]), [ChunkId { level: 0, row: 0, col: 0 }]);
        let pin = Change::Pin { pos: Pos::new(0, 6, 6), before: false, after: true };
        assert_eq!(dirty_chunks(&d, &[pin]), []);
        // The stair below a marked cell dirties its own chunk there; a stair tile dirties the
        // level above.
        d.set_tile(Pos::new(0, 16, 18), Registry::STAIR).unwrap();
        let mut want = vec![ChunkId { level: 0, row: 1, col: 1 }];
        want.extend(square(1));
        assert_eq!(dirty_chunks(&d, &[change]), want);
        // Through a wall that does not carve a tile change reads nothing: walled off from the
        // chunks to its north, the octagon at (1, 16, 26) dirties its own chunk only.
        let cell = Pos::new(1, 16, 26);
        for dir in [Direction::NW, Direction::N, Direction::NE] {
            d.set_edge(cell, dir, Registry::WALL).unwrap();
        }
        // Nor does the stair under the cell beyond that wall see it.
        d.set_tile(Pos::new(0, 14, 26), Registry::STAIR).unwrap();
        let walled = Change::Tile { pos: cell, before: Registry::FLOOR, after: Registry::SOLID };
        assert_eq!(dirty_chunks(&d, &[walled]), [ChunkId { level: 1, row: 1, col: 1 }]);
        // The wall itself dirties both its cells' chunks and its seam's, and the stair under
        // the hole it is a wall of.
        let edge = d.dims().edge(cell.slot, Direction::N).unwrap().unwrap();
        let wall = Change::Edge { level: 1, edge, before: Registry::OPEN, after: Registry::WALL };
        let (north, here) = (ChunkId { level: 1, row: 0, col: 1 }, ChunkId { level: 1, row: 1, col: 1 });
        assert_eq!(dirty_chunks(&d, &[wall]), [ChunkId { level: 0, row: 0, col: 1 }, north, here]);
        // A stair tile dirties the stairs beside it on its level (their exits avoid holes).
        let beside =
            Change::Tile { pos: Pos::new(0, 16, 26), before: Registry::FLOOR, after: Registry::STAIR };
        assert!(dirty_chunks(&d, &[beside]).contains(&ChunkId { level: 0, row: 0, col: 1 }));
        let stair = Change::Tile { pos: Pos::new(1, 6, 6), before: Registry::FLOOR, after: Registry::STAIR };
        let (one, two) = (ChunkId { level: 1, row: 0, col: 0 }, ChunkId { level: 2, row: 0, col: 0 });
        assert_eq!(dirty_chunks(&d, &[stair]), [one, two]);
    }
}
