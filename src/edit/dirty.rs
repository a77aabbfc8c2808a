//! Dirty tracking: the mesh chunks ([`crate::mesh::chunk`]) a list of changes can alter.
//!
//! A cell's mesh reads its own tile, its neighbours' tiles and the states of its walls (one
//! octagon step, two slots, away). So a changed tile or edge dirties every chunk of its
//! level that holds a slot within two slots of it (of either side of an edge): an edit on a
//! chunk border marks both chunks. Two more reach across levels:
//! - a stair reads the level above (its exit, from the cells round its hole; its shaft
//!   walls, from the hole's walls), so a change also dirties the level below where a stair
//!   stands within reach;
//! - the hole above a stair has no floor, so a tile change to or from a stair also dirties
//!   the level above.
//!
//! Markers and pins change no triangle.

use std::collections::BTreeSet;

use super::Change;
use crate::dungeon::Dungeon;
use crate::grid::{Pos, Slot};
use crate::mesh::chunk::{ChunkId, chunk_counts};

/// How far (in slots, each way) a change reaches on its level: one octagon step.
const REACH: u32 = 2;

/// The chunks of `d` (as it is after the changes) that `changes` may alter, sorted.
#[must_use]
pub fn dirty_chunks(d: &Dungeon, changes: &[Change]) -> Vec<ChunkId> {
    let mut out = BTreeSet::new();
    let stair_tile = |t| d.registry().tile_def(t).is_some_and(|def| def.stair);
    for change in changes {
        match *change {
            Change::Tile { pos, before, after } => {
                mark(&mut out, d, pos.level, pos.slot);
                if stair_tile(before) || stair_tile(after) {
                    mark_level(&mut out, d, pos.level + 1, pos.slot);
                }
            }
            Change::Edge { level, edge, .. } => {
                for (slot, _) in d.dims().edge_sides(edge).into_iter().flatten() {
                    mark(&mut out, d, level, slot);
                }
            }
            Change::Entrance { .. } | Change::Exit { .. } | Change::Pin { .. } => {}
        }
    }
    out.into_iter().collect()
}

/// Marks the chunks within [`REACH`] of `slot` on `level`, and on the level below when a
/// stair stands there within reach.
fn mark(out: &mut BTreeSet<ChunkId>, d: &Dungeon, level: u16, slot: Slot) {
    mark_level(out, d, level, slot);
    if let Some(below) = level.checked_sub(1) {
        let near = |x: u32| x.saturating_sub(REACH)..=x.saturating_add(REACH);
        let stair_near = near(slot.row)
            .flat_map(|row| near(slot.col).map(move |col| Pos::new(below, row, col)))
            .any(|p| d.is_stair(p));
        if stair_near {
            mark_level(out, d, below, slot);
        }
    }
}

/// Marks the chunks within [`REACH`] of `slot` on `level` (none for a level outside `d`).
fn mark_level(out: &mut BTreeSet<ChunkId>, d: &Dungeon, level: u16, slot: Slot) {
    if level >= d.levels() {
        return;
    }
    let (rows, cols) = chunk_counts(d.dims());
    let first = |x: u32| ChunkId::of(Pos::new(0, x.saturating_sub(REACH), 0)).row;
    let last = |x: u32, n: u32| ChunkId::of(Pos::new(0, x.saturating_add(REACH), 0)).row.min(n - 1);
    for row in first(slot.row)..=last(slot.row, rows) {
        for col in first(slot.col)..=last(slot.col, cols) {
            out.insert(ChunkId { level, row, col });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;

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
        // A stair below within reach dirties its level too; a stair tile dirties the level above.
        d.set_tile(Pos::new(0, 16, 18), Registry::STAIR).unwrap();
        let mut want = square(0).to_vec();
        want.extend(square(1));
        assert_eq!(dirty_chunks(&d, &[change]), want);
        let stair = Change::Tile { pos: Pos::new(1, 6, 6), before: Registry::FLOOR, after: Registry::STAIR };
        let (one, two) = (ChunkId { level: 1, row: 0, col: 0 }, ChunkId { level: 2, row: 0, col: 0 });
        assert_eq!(dirty_chunks(&d, &[stair]), [one, two]);
    }
}
