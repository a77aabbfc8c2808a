//! `Floors`: the working state of generation: which cells are floor and which hold stairs,
//! level by level, indexed by octile cell (see `wfc::Topology::octile`).

use crate::grid::{Dims, Direction, Slot};
use crate::wfc::{Neighbor, Topology};

/// Floor and stair flags of every cell on every level, with the level topology.
#[derive(Debug, Clone)]
pub(crate) struct Floors {
    pub(crate) topology: Topology,
    pub(crate) slots: Vec<Slot>,
    pub(crate) cells: usize,
    pub(crate) levels: usize,
    pub(crate) floor: Vec<bool>,
    pub(crate) stair: Vec<bool>,
}

impl Floors {
    pub(crate) fn new(dims: Dims, levels: usize) -> Floors {
        let topology = Topology::octile(dims);
        let cells = topology.cell_count();
        Floors {
            topology,
            slots: crate::wfc::octile_cell_slots(dims),
            cells,
            levels,
            floor: vec![false; cells * levels],
            stair: vec![false; cells * levels],
        }
    }

    /// Same-level neighbours of node `node` (level * cells + cell) with the step cost in
    /// thousandths of a long step: 1000 octagon to octagon, 707 to or from a connector.
    pub(crate) fn level_steps(&self, node: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (level, cell) = (node / self.cells, node % self.cells);
        (0..8).filter_map(move |d| match self.topology.neighbor(cell, d) {
            Neighbor::Cell(n) => {
                let cost = if Direction::ALL[d].is_diagonal() { DIAGONAL_STEP } else { LONG_STEP };
                Some((level * self.cells + n as usize, cost))
            }
            _ => None,
        })
    }
}

/// Cost of a step across a long edge, in thousandths of a long step.
pub(crate) const LONG_STEP: u32 = 1000;
/// Cost of a step across a short edge (octagon to connector): 1000 / sqrt 2.
pub(crate) const DIAGONAL_STEP: u32 = 707;
