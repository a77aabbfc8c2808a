//! Dirty tracking: the mesh chunks ([`crate::mesh::chunk`]) a list of changes can alter.
//!
//! A cell's mesh reads its own tile, its neighbours' tiles and the states of its walls (one
//! octagon step, two slots, away), the stair table (a stair's exit reads the cells round its
//! hole on the level above) and the level below (the hole above a stair has no floor). So a
//! changed tile or edge dirties, on its level and the levels just below and above, every
//! chunk that holds a slot within two slots of it (of either side of an edge): an edit on a
//! chunk border marks both chunks. Markers and pins change no triangle.

use std::collections::BTreeSet;

use super::Change;
use crate::grid::{Dims, Pos, Slot};
use crate::mesh::chunk::{ChunkId, chunk_counts};

/// How far (in slots, each way) a change reaches on its level: one octagon step.
const REACH: u32 = 2;

/// The chunks of a dungeon of `dims` and `levels` levels that `changes` may alter, sorted.
#[must_use]
pub fn dirty_chunks(dims: Dims, levels: u16, changes: &[Change]) -> Vec<ChunkId> {
    let mut out = BTreeSet::new();
    for change in changes {
        match *change {
            Change::Tile { pos, .. } => mark(&mut out, dims, levels, pos.level, pos.slot),
            Change::Edge { level, edge, .. } => {
                for (slot, _) in dims.edge_sides(edge).into_iter().flatten() {
                    mark(&mut out, dims, levels, level, slot);
                }
            }
            Change::Entrance { .. } | Change::Exit { .. } | Change::Pin { .. } => {}
        }
    }
    out.into_iter().collect()
}

/// Marks the chunks within [`REACH`] slots of `slot` on `level` and the levels beside it.
fn mark(out: &mut BTreeSet<ChunkId>, dims: Dims, levels: u16, level: u16, slot: Slot) {
    let (rows, cols) = chunk_counts(dims);
    let first = |x: u32| ChunkId::of(Pos::new(0, x.saturating_sub(REACH), 0)).row;
    let last = |x: u32, n: u32| ChunkId::of(Pos::new(0, x.saturating_add(REACH), 0)).row.min(n - 1);
    for l in level.saturating_sub(1)..=level.saturating_add(1).min(levels.saturating_sub(1)) {
        for row in first(slot.row)..=last(slot.row, rows) {
            for col in first(slot.col)..=last(slot.col, cols) {
                out.insert(ChunkId { level: l, row, col });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Registry;

    #[test]
    fn a_change_on_a_border_marks_both_chunks() {
        let dims = Dims::from_octagons(20, 20).unwrap();
        let change =
            Change::Tile { pos: Pos::new(1, 16, 16), before: Registry::SOLID, after: Registry::FLOOR };
        let got = dirty_chunks(dims, 2, &[change]);
        let want: Vec<ChunkId> = (0..2)
            .flat_map(|level| [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(row, col)| ChunkId { level, row, col }))
            .collect();
        assert_eq!(got, want);
        let inside = Change::Tile { pos: Pos::new(0, 6, 6), before: Registry::SOLID, after: Registry::FLOOR };
        assert_eq!(dirty_chunks(dims, 1, &[inside]), [ChunkId { level: 0, row: 0, col: 0 }]);
        let pin = Change::Pin { pos: Pos::new(0, 6, 6), before: false, after: true };
        assert_eq!(dirty_chunks(dims, 1, &[pin]), []);
    }
}
