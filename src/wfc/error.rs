//! Errors of the WFC stage.

/// Where a solve got stuck: the cell whose domain emptied and the neighbour whose sockets
/// left it nothing. Coordinates are the topology's `(row, col)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// Cell index that ran out of tiles.
    pub cell: u32,
    /// Its `(row, col)`.
    pub at: (u32, u32),
    /// The wall of that cell facing the neighbour.
    pub dir: u8,
    /// The neighbour's `(row, col)`.
    pub neighbor_at: (u32, u32),
    /// The sockets the neighbour could still show on that seam.
    pub offered: Vec<String>,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cell at row {}, col {} has no tile left: its wall {} faces row {}, col {}, which can only show [{}]",
            self.at.0,
            self.at.1,
            self.dir,
            self.neighbor_at.0,
            self.neighbor_at.1,
            self.offered.join(", ")
        )
    }
}

/// A WFC problem that could not be set up or solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A weight that is negative, infinite or NaN.
    #[error("weight `{name}` = {value}: weights must be finite and not negative")]
    BadWeight {
        /// The option or tile it belongs to.
        name: String,
        /// The value given.
        value: f64,
    },
    /// A tile set that makes no sense.
    #[error("tile set: {reason}")]
    BadTileSet {
        /// What is wrong.
        reason: String,
    },
    /// Topology and tile set disagree, or a fixed cell is out of range.
    #[error("problem: {reason}")]
    BadInput {
        /// What is wrong.
        reason: String,
    },
    /// A problem larger than the solver's memory limit.
    #[error(
        "{cells} cells would need about {bytes} bytes of solver state; the limit is {limit} bytes \
         (see wfc::MEMORY_LIMIT)"
    )]
    TooLarge {
        /// Cells asked for.
        cells: usize,
        /// Estimated bytes.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// The constraints contradict each other before any choice (fixed cells or border).
    #[error("seed {seed}: no solution; the fixed cells and border already conflict: {conflict}")]
    Unsatisfiable {
        /// Seed of the solve.
        seed: u64,
        /// Where.
        conflict: Conflict,
    },
    /// The backtracking budget ran out.
    #[error(
        "seed {seed}: gave up after {budget} backtracks (the budget); last conflict: {conflict}; \
         try another seed or other weights"
    )]
    BudgetExhausted {
        /// Seed of the solve.
        seed: u64,
        /// Backtracks allowed.
        budget: u32,
        /// The last conflict found.
        conflict: Conflict,
    },
}
