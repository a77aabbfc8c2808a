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
/// `moves` holds, arc by arc, the kind of step (an index into [`STEPS`]), and `back` the
/// same arcs walked the other way (filled by [`Csr::finish`]).
#[derive(Debug, Clone)]
pub(crate) struct Csr {
    start: Vec<u32>,
    arcs: Vec<Arc>,
    moves: Vec<u8>,
    /// Per arc `v -> to`: `to` and the cost of the step `to -> v` (what a flood towards
    /// `v` pays), so a flood reads one array and no entry costs.
    back: Vec<Arc>,
    /// The dearest cost in `arcs` and `back` (0 when there are none).
    max_cost: u32,
}

impl Default for Csr {
    /// No rows yet: arcs pushed now belong to node 0.
    fn default() -> Self {
        Csr { start: vec![0], arcs: Vec::new(), moves: Vec::new(), back: Vec::new(), max_cost: 0 }
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

    /// Fills the reverse costs once every row is closed: an arc's cost less the move cost
    /// of entering its end (`enter`, per node) plus that of entering its start (saturating
    /// at `u32::MAX`, which no flood accepts).
    pub(crate) fn finish(&mut self, enter: &[u32]) {
        self.back.clear();
        for v in 0..self.start.len() - 1 {
            let (a, b) = (self.start[v] as usize, self.start[v + 1] as usize);
            for arc in &self.arcs[a..b] {
                let cross = arc.cost - enter[arc.to as usize];
                self.back.push(Arc { to: arc.to, cost: cross.saturating_add(enter[v]) });
            }
        }
        let costs = self.arcs.iter().chain(&self.back).map(|a| a.cost);
        self.max_cost = costs.max().unwrap_or(0);
    }

    /// The dearest step cost of either direction (0 when there are no arcs).
    pub(crate) fn max_cost(&self) -> u32 {
        self.max_cost
    }

    /// The arcs of `v` walked backwards: per arc `v -> to`, `to` and the cost of `to -> v`.
    #[inline]
    pub(crate) fn back_row(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.back[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// The arcs of `v`.
    pub(crate) fn row(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.arcs[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// The arcs of `v` with their kinds of step.
    #[inline]
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
/// (Padded to 16 so that indexing needs no bounds check.)
const STEPS: [(i32, i32, i32); 16] = step_table();

const fn step_table() -> [(i32, i32, i32); 16] {
    let mut table = [(0, 0, 0); 16];
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
        let (dl, dr, dc) = STEPS[usize::from(step) % STEPS.len()];
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
        csr.finish(&[2, 0, 3]);
        assert_eq!(csr.row(0).len(), 1);
        assert_eq!((csr.back_row(0)[0].to, csr.back_row(0)[0].cost), (1, 7), "5 - 0 + 2");
        assert_eq!((csr.back_row(2)[0].to, csr.back_row(2)[0].cost), (0, 8), "7 - 2 + 3");
        assert_eq!(csr.max_cost(), 8);
        assert!(csr.row(1).is_empty());
        let (arcs, moves) = csr.row_moves(2);
        assert_eq!((arcs[0].to, arcs[0].cost, moves), (0, 7, &[6u8][..]));
    }
}
