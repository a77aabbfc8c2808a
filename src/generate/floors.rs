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
    /// Per node: [`NOT_A_HOLE`], or for the octagon above a stair (the shaft's hole) the
    /// index of the wall it is entered and left by (the stair's exit).
    pub(crate) exit: Vec<u8>,
    /// Per node: [`NOT_A_HOLE`], or for a stair the index of the wall its landing stands
    /// against on the stair's own level (the same wall as the exit above).
    pub(crate) landing: Vec<u8>,
}

/// `exit` of a node that is not the hole above a stair.
pub(crate) const NOT_A_HOLE: u8 = u8::MAX;

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
            exit: vec![NOT_A_HOLE; cells * levels],
            landing: vec![NOT_A_HOLE; cells * levels],
        }
    }

    /// Same-level neighbours of node `node` (level * cells + cell) with the step cost in
    /// thousandths of a long step: 1000 octagon to octagon, 707 to or from a connector.
    /// Steps the shaft rule refuses are left out ([`Floors::allows`]).
    pub(crate) fn level_steps(&self, node: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (level, cell) = (node / self.cells, node % self.cells);
        (0..8).filter_map(move |d| match self.topology.neighbor(cell, d) {
            Neighbor::Cell(n) => {
                let dir = Direction::ALL[d];
                let v = level * self.cells + n as usize;
                if !self.allows(node, dir) || !self.allows(v, dir.opposite()) {
                    return None;
                }
                let cost = if dir.is_diagonal() { DIAGONAL_STEP } else { LONG_STEP };
                Some((v, cost))
            }
            _ => None,
        })
    }

    /// Whether node `v` may be left (or entered) through its wall `d` under the shaft rule of
    /// [`Dungeon::shaft_allows`](crate::dungeon::Dungeon::shaft_allows): a hole only through
    /// its exit, a stair never through its landing's wall.
    pub(crate) fn allows(&self, v: usize, d: Direction) -> bool {
        let d = d.index() as u8;
        (self.exit[v] == NOT_A_HOLE || self.exit[v] == d) && self.landing[v] != d
    }

    /// Chooses the exit of the stair on `cell` of `level` (and carves its cell above when it
    /// is rock): a wall of the hole above that leads to floor rather than rock, is closed on
    /// the stair's level (its landing would block an opening there), is long, and comes first
    /// clockwise from north: the order of [`Dungeon::stair_exit`](crate::dungeon::Dungeon::stair_exit),
    /// which then finds this wall as the hole's only open one. Never into another hole.
    pub(crate) fn choose_exit(&mut self, level: usize, cell: usize) {
        let n = self.cells;
        let (below, above) = (level * n, (level + 1) * n);
        let best = (0..8)
            .filter_map(|d| match self.topology.neighbor(cell, d) {
                Neighbor::Cell(nb) => Some((d, nb as usize)),
                _ => None,
            })
            .filter(|&(_, nb)| !self.stair[below + nb])
            .min_by_key(|&(d, nb)| {
                (!self.floor[above + nb], self.floor[below + nb], Direction::ALL[d].is_diagonal(), d)
            });
        if let Some((d, nb)) = best {
            self.floor[above + nb] = true;
            self.exit[above + cell] = d as u8;
            self.landing[below + cell] = d as u8;
        }
    }
}

/// Cost of a step across a long edge, in thousandths of a long step.
pub(crate) const LONG_STEP: u32 = 1000;
/// Cost of a step across a short edge (octagon to connector): 1000 / sqrt 2.
pub(crate) const DIAGONAL_STEP: u32 = 707;
