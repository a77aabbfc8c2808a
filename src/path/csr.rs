//! How a [`super::PathGraph`] stores its steps: adjacency in compressed rows, each arc with
//! its full cost and its kind of step, and the table that turns a kind of step into a move
//! on the grid (so a search finds a neighbour's coordinates without reading them).

use crate::grid::{Direction, octagon_wall};

/// One step out of a node: the node it reaches and the full cost of the step (base step,
/// the edge's move cost and the entered tile's move cost).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arc {
    pub(crate) to: u32,
    pub(crate) cost: u32,
}

/// Adjacency in compressed rows: the arcs of node `v` are `arcs[start[v]..start[v + 1]]`;
/// `moves` holds, arc by arc, the kind of step (an index into [`STEPS`]).
#[derive(Debug, Clone)]
pub(crate) struct Csr {
    start: Vec<u32>,
    arcs: Vec<Arc>,
    moves: Vec<u8>,
}

impl Default for Csr {
    /// No rows yet: arcs pushed now belong to node 0.
    fn default() -> Self {
        Csr { start: vec![0], arcs: Vec::new(), moves: Vec::new() }
    }
}

impl Csr {
    /// Ends the current node's row; the next arcs belong to the next node.
    pub(crate) fn close_row(&mut self) {
        self.start.push(u32::try_from(self.arcs.len()).expect("invariant: arcs fit in u32"));
    }

    /// Adds an arc of kind `step` to the current node's row.
    pub(crate) fn push(&mut self, arc: Arc, step: u8) {
        self.arcs.push(arc);
        self.moves.push(step);
    }

    /// The arcs of `v`.
    pub(crate) fn row(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.arcs[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// The arcs of `v` with their kinds of step.
    pub(crate) fn row_moves(&self, v: u32) -> (&[Arc], &[u8]) {
        let (a, b) = (self.start[v as usize] as usize, self.start[v as usize + 1] as usize);
        (&self.arcs[a..b], &self.moves[a..b])
    }
}

/// Kind of step up a stair.
pub(crate) const STEP_UP: u8 = 8;
/// Kind of step down a stair.
pub(crate) const STEP_DOWN: u8 = 9;

/// The kind of step across wall `dir` (equal to the wall's index).
pub(crate) const fn step_across(dir: Direction) -> u8 {
    dir.index() as u8
}

/// `(d_level, d_row, d_col)` of each kind of step: across walls 0..7 (clockwise from north,
/// the grid's own wall table: long walls two slots, short walls one diagonal slot, for
/// octagons and connectors alike), then [`STEP_UP`], then [`STEP_DOWN`].
const STEPS: [(i32, i32, i32); 10] = step_table();

const fn step_table() -> [(i32, i32, i32); 10] {
    let mut table = [(0, 0, 0); 10];
    let mut i = 0;
    while i < 8 {
        let (d_row, d_col) = octagon_wall(Direction::from_index(i)).1;
        table[i] = (0, d_row, d_col);
        i += 1;
    }
    table[STEP_UP as usize] = (1, 0, 0);
    table[STEP_DOWN as usize] = (-1, 0, 0);
    table
}

/// Where a node is, unpacked for the heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Coord {
    pub(crate) level: u32,
    pub(crate) row: u32,
    pub(crate) col: u32,
}

impl Coord {
    /// The coordinates after one step of kind `step` (see [`STEPS`]).
    #[inline]
    pub(crate) fn moved(self, step: u8) -> Coord {
        let (dl, dr, dc) = STEPS[usize::from(step)];
        Coord {
            level: self.level.wrapping_add_signed(dl),
            row: self.row.wrapping_add_signed(dr),
            col: self.col.wrapping_add_signed(dc),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Dims, Slot};

    #[test]
    fn steps_across_walls_reach_the_grids_neighbours() {
        let dims = Dims::from_octagons(3, 3).unwrap();
        for slot in [Slot::new(2, 2), Slot::new(1, 1), Slot::new(3, 3)] {
            for &dir in dims.walls(slot).unwrap() {
                let to = dims.neighbor(slot, dir).unwrap().unwrap();
                let from = Coord { level: 1, row: slot.row, col: slot.col };
                assert_eq!(from.moved(step_across(dir)), Coord { level: 1, row: to.row, col: to.col });
            }
        }
        let c = Coord { level: 1, row: 2, col: 2 };
        assert_eq!(c.moved(STEP_UP).level, 2);
        assert_eq!(c.moved(STEP_DOWN), Coord { level: 0, ..c });
    }

    #[test]
    fn rows_hold_their_own_arcs() {
        let mut csr = Csr::default();
        csr.push(Arc { to: 1, cost: 5 }, 2);
        csr.close_row();
        csr.close_row();
        csr.push(Arc { to: 0, cost: 7 }, 6);
        csr.close_row();
        assert_eq!(csr.row(0).len(), 1);
        assert!(csr.row(1).is_empty());
        let (arcs, moves) = csr.row_moves(2);
        assert_eq!((arcs[0].to, arcs[0].cost, moves), (0, 7, &[6u8][..]));
    }
}
