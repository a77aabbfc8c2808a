//! What the solver's hot loops know of one cell ([`CellState`]), kept in one cache line,
//! and the one bookkeeping of a revised cell ([`CellState::shrunk_to`]).

/// `CellState::queued` of a cell not on the queue (decided). Bucket numbers stay below it.
pub(super) const NOT_QUEUED: u32 = u32::MAX;

/// What the hot loops know of one cell, kept together so that a cell costs one cache line.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct CellState {
    /// Tiles left in the domain.
    pub(super) len: u16,
    /// Whether the cell is on the propagation stack.
    pub(super) on_stack: bool,
    /// The epoch of the cell's last change (see `Solver::touched`).
    pub(super) stamp: u32,
    /// The queue bucket (of its entropy) the cell is queued in, or [`NOT_QUEUED`]. Every
    /// change to a domain is flushed to the queue before the next pick, so the queue holds
    /// exactly the undecided cells, each under its current entropy.
    pub(super) queued: u32,
    /// Tie-breaking noise: the cell's place in a seeded permutation of the cells.
    pub(super) noise: u32,
}

impl CellState {
    /// Records that the cell (index `n`) shrank to `len` tiles in `epoch`: the first change
    /// of the epoch puts it on `touched`, and a cell with tiles left that is not on `stack`
    /// goes on it. The one bookkeeping of a revision, for every propagation path.
    #[inline(always)]
    pub(super) fn shrunk_to(
        &mut self,
        len: u16,
        epoch: u32,
        n: u32,
        touched: &mut Vec<u32>,
        stack: &mut Vec<u32>,
    ) {
        self.len = len;
        if self.stamp != epoch {
            self.stamp = epoch;
            touched.push(n);
        }
        if len > 0 && !self.on_stack {
            self.on_stack = true;
            stack.push(n);
        }
    }
}
