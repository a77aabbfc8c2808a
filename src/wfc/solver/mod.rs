//! The WFC solver: bitset domains, arc consistency by socket tables, lowest entropy choice
//! with seeded tie-breaking noise, and depth-first backtracking over a log of undoable
//! removals, with a budget.
//!
//! Compatibility is defined on sockets, so a cell constrains its neighbour across a wall
//! only through the set of sockets it can still show there (a few bits). Per wall and
//! socket set, one precomputed mask holds the tiles that may face it; revising an arc is a
//! lookup and an AND per domain word. Every wall remembers the socket set its neighbour was
//! last revised against, so a cell that lost tiles revises only the walls whose set changed.
//! The socket sets of all walls come from one table lookup per domain byte. The fixed point
//! of this propagation is the same whatever order arcs are revised in, and the observation
//! order depends only on the domains, so the solution is a function of the inputs and the
//! RNG alone.
//!
//! The solver's state lives here and its constant tables in `tables`; `reset` prepares the
//! domains of a solve, `propagate` removes tiles, puts them back and revises arcs,
//! `observe` picks the next cell by entropy and chooses its tile, `entropy` computes that
//! entropy in fixed point with integers only, so a solve gives the same tiles on every
//! platform.

/// Calls `$solver.$method::<W>()` with `W` the solver's number of domain words when it is 1
/// to 5, else with `W` = 0 (read at run time): the hot loops' word count as a constant.
macro_rules! by_words {
    ($solver:expr, $method:ident) => {
        match $solver.words {
            1 => $solver.$method::<1>(),
            2 => $solver.$method::<2>(),
            3 => $solver.$method::<3>(),
            4 => $solver.$method::<4>(),
            5 => $solver.$method::<5>(),
            _ => $solver.$method::<0>(),
        }
    };
}

/// Calls `$solver.$method::<W, D>()` with `W` the number of domain words (1 to 5) and `D`
/// the walls per cell (4 or 8), else with `W` = `D` = 0 (read at run time): the hot loops'
/// shape as constants.
macro_rules! by_shape {
    ($solver:expr, $method:ident) => {
        match ($solver.words, $solver.dirs) {
            (1, 4) => $solver.$method::<1, 4>(),
            (1, 8) => $solver.$method::<1, 8>(),
            (2, 4) => $solver.$method::<2, 4>(),
            (2, 8) => $solver.$method::<2, 8>(),
            (3, 4) => $solver.$method::<3, 4>(),
            (3, 8) => $solver.$method::<3, 8>(),
            (4, 4) => $solver.$method::<4, 4>(),
            (4, 8) => $solver.$method::<4, 8>(),
            (5, 4) => $solver.$method::<5, 4>(),
            (5, 8) => $solver.$method::<5, 8>(),
            _ => $solver.$method::<0, 0>(),
        }
    };
}

mod cell;
mod entropy;
mod input;
mod observe;
mod packed;
mod propagate;
mod queue;
#[cfg(test)]
mod reference;
mod reset;
mod tables;

use rand_chacha::ChaCha8Rng;

use self::cell::{CellState, NOT_QUEUED};
pub use self::input::{DEFAULT_BUDGET, FixedCell, MEMORY_LIMIT, SolveInput, SolveProgress, estimated_bytes};
use super::{Conflict, SocketId, SolveError, TileIndex, TileSet, Topology};

/// Neighbour values at or above this are border or absent.
const NO_CELL: u32 = u32::MAX - 1;

/// Index bits of the entropy cache (`Solver::entropy`).
const ENTROPY_CACHE_BITS: u32 = 10;

#[derive(Debug, Clone, Copy)]
struct Decision {
    trail: usize,
    cell: u32,
    tile: u16,
}

/// Solver state for one topology and tile set, allocated once and reused by every
/// [`Solver::solve`] call (attempts, levels).
#[derive(Debug, Clone)]
pub struct Solver {
    cells: usize,
    dirs: usize,
    sockets: usize,
    tiles: usize,
    words: usize,
    neighbors: Vec<u32>,
    opposite: Vec<u8>,
    classes: Vec<u8>,
    coords: Vec<(u32, u32)>,
    socket_names: Vec<String>,
    /// Per class, the tiles of that class with a positive weight.
    class_mask: Vec<u64>,
    /// Every border wall, as `cell * dirs + wall`.
    border_walls: Vec<u32>,
    /// Per cell: whether, while it and its neighbours hold their whole classes, none of its
    /// walls takes a tile from beyond (see `Solver::class_tables`).
    quiet_cell: Vec<bool>,
    /// Per tile, its weight (for choosing a tile).
    weight: Vec<f64>,
    /// Per (dir, socket): tiles showing that socket on that wall.
    socket_mask: Vec<u64>,
    /// Per (chunk of 8 sockets, dir, subset of the chunk): the tiles whose socket on that
    /// wall may meet some socket of the subset (see [`Solver::allowed`]).
    allow: Vec<u64>,
    /// Per wall `dir`: the first row (of `words` words) of `allow` for the facing wall, in
    /// the first chunk; the row for socket set `set` is this plus `set`.
    allow_row: Vec<usize>,
    /// Chunks of 8 sockets, and subsets per chunk (`2^min(sockets, 8)`).
    chunks: usize,
    chunk_sets: usize,
    /// Per (domain byte, byte value): the sockets its tiles show, packed `sockets + 1` bits
    /// per wall (see [`Solver::offered_all_of`]); empty when they do not fit 64 bits.
    offer_bytes: Vec<u64>,
    /// Per (domain byte, byte value): the sums of the tiles' fixed weights and `W log2 W`
    /// (see `entropy`) (see [`Solver::weight_sums`]).
    sum_bytes: Vec<(u64, u64)>,
    /// Per (class, wall): the sockets a cell with the whole class offers there.
    class_offer: Vec<u16>,
    /// Per class: the same for every wall, packed (when `offer_bytes` is built).
    class_offer_all: Vec<u64>,
    /// Per class: the length and weight sums of its whole domain.
    class_sums: Vec<(u16, u64, u64)>,
    /// Per (class, wall, neighbour class): whether a cell with the whole class takes no tile
    /// from a neighbour of that class across that wall (so the first propagation may skip it).
    quiet: Vec<bool>,
    // State, reset by every solve.
    domain: Vec<u64>,
    /// Per cell, the state the hot loops touch together (one place in memory).
    state: Vec<CellState>,
    /// Undo log: (cell * words + word, the bits removed from that domain word).
    trail: Vec<(u32, u64)>,
    decisions: Vec<Decision>,
    /// Undecided cells, by (fixed-point entropy, noise).
    heap: queue::EntropyQueue,
    /// The cell with each noise value (noise is a permutation of the cells).
    by_noise: Vec<u32>,
    /// Entropy keys by domain, direct-mapped ([`ENTROPY_CACHE_BITS`] bits of index): the
    /// domain words of each entry, and the queue's bucket of its key.
    entropy_domains: Vec<u64>,
    entropy_buckets: Vec<u32>,
    /// Cells whose neighbours must be revised against their domain.
    stack: Vec<u32>,
    /// The sockets each cell offered on its walls when the neighbours beyond were last
    /// revised against it: per cell, packed like `offer_bytes`, when that table is built;
    /// else per (cell, wall). A wall not yet revised in a solve holds the guard bit
    /// (`1 << sockets` in its field), which no offered set has.
    revised: Vec<u64>,
    /// Cells changed since the last flush (`CellState::stamp` is the current epoch).
    touched: Vec<u32>,
    epoch: u32,
    collapsed: usize,
    conflict: Option<Conflict>,
}

impl Solver {
    /// Builds the solver tables; refuses mismatched inputs and problems over [`MEMORY_LIMIT`].
    ///
    /// # Errors
    ///
    /// [`SolveError::BadInput`] when the tile set's walls per tile differ from the
    /// topology's directions, or the topology has no cells; [`SolveError::TooLarge`] when the
    /// estimated solver state exceeds [`MEMORY_LIMIT`] or there are too many cells to index.
    pub fn new(topology: &Topology, tileset: &TileSet) -> Result<Solver, SolveError> {
        Solver::from_topology(topology.clone(), tileset)
    }

    /// [`Solver::new`] taking the topology by value: its tables move into the solver instead
    /// of being copied (for callers that build a topology for one solver).
    pub(crate) fn from_topology(topology: Topology, tileset: &TileSet) -> Result<Solver, SolveError> {
        let (cells, dirs, sockets, tiles) =
            (topology.cell_count(), topology.dirs(), tileset.socket_count(), tileset.len());
        if tileset.dirs() != dirs {
            return Err(SolveError::BadInput {
                reason: format!("tile set has {} walls per tile, topology {dirs}", tileset.dirs()),
            });
        }
        if cells == 0 {
            return Err(SolveError::BadInput { reason: "the topology has no cells".into() });
        }
        let words = tiles.div_ceil(64);
        let classes_n = topology.classes().iter().copied().max().map_or(1, |k| usize::from(k) + 1);
        let bytes = estimated_bytes(cells as u64, tileset);
        if bytes > MEMORY_LIMIT || cells >= NO_CELL as usize {
            return Err(SolveError::TooLarge { cells, bytes, limit: MEMORY_LIMIT });
        }
        let (class_mask, socket_mask) = tables::tile_masks(tileset, classes_n);
        let weight: Vec<f64> = tileset.tiles().iter().map(|t| t.weight).collect();
        // Padded to whole domain words with zeros (tiles past the last are never in a domain).
        let mut fixed_weight = entropy::fixed_weights(&weight);
        fixed_weight.resize(words * 64, 0);
        let weight_log: Vec<u64> = fixed_weight.iter().map(|&w| entropy::weight_log(w)).collect();
        let (chunks, chunk_sets, allow) = tables::allow_table(tileset, &socket_mask);
        let offer_bytes = tables::offer_bytes(tileset);
        let revised_per_cell = if offer_bytes.is_empty() { dirs } else { 1 };
        let allow_row = (0..dirs).map(|d| topology.opposite(d) * chunk_sets).collect();
        let sum_bytes = tables::sum_bytes(&fixed_weight, &weight_log);
        let border_walls = (topology.raw_neighbors().iter().enumerate())
            .filter(|&(_, &n)| n == Topology::RAW_BORDER)
            .map(|(at, _)| at as u32)
            .collect();
        let opposite = (0..dirs).map(|d| topology.opposite(d) as u8).collect();
        let (neighbors, classes, coords) = topology.into_parts();
        let mut solver = Solver {
            cells,
            dirs,
            sockets,
            tiles,
            words,
            neighbors,
            opposite,
            classes,
            coords,
            socket_names: (0..sockets).map(|s| tileset.socket_name(SocketId(s as u8)).to_string()).collect(),
            class_mask,
            border_walls,
            quiet_cell: Vec::new(),
            weight,
            socket_mask,
            allow,
            allow_row,
            chunks,
            chunk_sets,
            offer_bytes,
            sum_bytes,
            class_offer: Vec::new(),
            class_offer_all: Vec::new(),
            class_sums: Vec::new(),
            quiet: Vec::new(),
            domain: vec![0; cells * words],
            state: vec![CellState::default(); cells],
            // Typical solves log a few removals per domain word and decide most cells:
            // reserved (address space only until used) so a solve does not regrow them.
            trail: Vec::with_capacity(cells * words * 4),
            decisions: Vec::with_capacity(cells),
            heap: queue::EntropyQueue::new(cells),
            by_noise: vec![0; cells],
            entropy_domains: vec![0; words << ENTROPY_CACHE_BITS],
            entropy_buckets: vec![0; 1 << ENTROPY_CACHE_BITS],
            stack: Vec::new(),
            revised: vec![0; cells * revised_per_cell],
            touched: Vec::new(),
            epoch: 1,
            collapsed: 0,
            conflict: None,
        };
        solver.class_tables(classes_n);
        Ok(solver)
    }

    /// Solves the problem: one tile per cell, every seam legal, or an error saying where it
    /// got stuck. Same RNG state and input, same result.
    ///
    /// # Errors
    ///
    /// [`SolveError::BadInput`] when a fixed cell of `input` is outside the topology or
    /// allows a tile outside the tile set; [`SolveError::Unsatisfiable`] when the fixed
    /// cells and border already conflict before any choice, or when backtracking undoes
    /// every choice without finding a solution; [`SolveError::BudgetExhausted`] when a
    /// conflict comes after `input.budget` backtracks have been used.
    ///
    /// # Panics
    ///
    /// Never: the `expect` restates that a failed propagation always records its conflict.
    pub fn solve(
        &mut self,
        input: &SolveInput,
        rng: &mut ChaCha8Rng,
        progress: &mut dyn FnMut(SolveProgress),
    ) -> Result<Vec<TileIndex>, SolveError> {
        self.reset(input, rng)?;
        let step = (self.cells / 100).max(1);
        let mut next_report = step;
        let mut backtracks = 0u32;
        while let Some(cell) = self.pick() {
            let tile = self.choose(cell, rng);
            self.decisions.push(Decision { trail: self.trail.len(), cell: cell as u32, tile: tile as u16 });
            let mut ok = self.collapse(cell, tile);
            while !ok {
                let conflict =
                    self.conflict.take().expect("invariant: a failed propagation records a conflict");
                let Some(dec) = self.decisions.pop() else {
                    return Err(SolveError::Unsatisfiable { seed: input.seed, conflict });
                };
                if backtracks >= input.budget {
                    return Err(SolveError::BudgetExhausted {
                        seed: input.seed,
                        budget: input.budget,
                        conflict,
                    });
                }
                backtracks += 1;
                self.undo_to(dec.trail);
                self.remove_tile(dec.cell as usize, usize::from(dec.tile));
                ok = self.propagate();
                self.flush();
            }
            if self.collapsed >= next_report {
                next_report = self.collapsed + step;
                progress(SolveProgress { collapsed: self.collapsed, total: self.cells, backtracks });
            }
        }
        progress(SolveProgress { collapsed: self.cells, total: self.cells, backtracks });
        Ok(self.solution())
    }

    /// The one tile left in every cell, once all are decided.
    fn solution(&self) -> Vec<TileIndex> {
        (0..self.cells)
            .map(|c| {
                let tile = tiles_of(self.domain(c)).next().expect("invariant: solved cells keep one tile");
                TileIndex(tile as u16)
            })
            .collect()
    }

    /// The domain words of `cell`.
    fn domain(&self, cell: usize) -> &[u64] {
        &self.domain[cell * self.words..(cell + 1) * self.words]
    }

    /// Sums of `fixed_weight` and `weight_log` over the tiles in `words`, which are domain
    /// words from word `first` on: one table lookup per nonzero byte.
    #[inline]
    fn weight_sums(&self, first: usize, words: &[u64]) -> (u64, u64) {
        let (mut sw, mut swl) = (0, 0);
        for (i, &word) in words.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let b = m.trailing_zeros() / 8;
                let (w, wl) =
                    self.sum_bytes[((first + i) * 8 + b as usize) << 8 | ((m >> (8 * b)) & 0xff) as usize];
                sw += w;
                swl += wl;
                m &= !(0xff << (8 * b));
            }
        }
        (sw, swl)
    }

    /// Drops the packed offer table, so that propagation takes the per-wall path (tests
    /// compare the two).
    #[cfg(test)]
    fn unpack_offers(&mut self) {
        self.offer_bytes.clear();
        self.revised = vec![0; self.cells * self.dirs];
    }

    /// Whether `cell`'s domain is still the whole of its class. `W` is the number of domain
    /// words, or 0 for the solver's own count (see `propagate`).
    #[inline(always)]
    fn is_whole<const W: usize>(&self, cell: usize) -> bool {
        let (w, k) = (propagate::width::<W>(self.words), usize::from(self.classes[cell]));
        self.domain[cell * w..cell * w + w] == self.class_mask[k * w..k * w + w]
    }
}

/// The tiles whose bits are set in `words` (bit `t % 64` of word `t / 64`), lowest first.
fn tiles_of(words: &[u64]) -> Tiles<'_> {
    Tiles { rest: words.get(1..).unwrap_or(&[]), base: 0, bits: words.first().copied().unwrap_or(0) }
}

/// Iterator of [`tiles_of`]: the bits left of the current word, and the words after it.
struct Tiles<'a> {
    rest: &'a [u64],
    /// The tile of bit 0 of the current word.
    base: usize,
    bits: u64,
}

impl Iterator for Tiles<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            let (&next, rest) = self.rest.split_first()?;
            (self.bits, self.rest, self.base) = (next, rest, self.base + 64);
        }
        let t = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::grid::Dims;
    use crate::wfc::TileSpec;

    /// Two colours that must differ across every seam: impossible on the octile grid's
    /// triangles (two octagons and the connector between them), yet arc consistent at start.
    fn two_colours() -> (Topology, TileSet) {
        let tile = |class, s| TileSpec { class, weight: 1.0, sockets: vec![SocketId(s); 8] };
        let set = TileSet::new(
            8,
            &["X", "Y"],
            &[(SocketId(0), SocketId(1))],
            vec![tile(0, 0), tile(0, 1), tile(1, 0), tile(1, 1)],
        )
        .unwrap();
        (Topology::octile(Dims::from_octagons(3, 3).unwrap()), set)
    }

    #[test]
    fn budget_and_exhaustion_are_errors_with_conflicts() {
        let (topo, set) = two_colours();
        let mut solver = Solver::new(&topo, &set).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let input = SolveInput { seed: 77, budget: 0, ..SolveInput::default() };
        let e = solver.solve(&input, &mut rng, &mut |_| {}).unwrap_err();
        let SolveError::BudgetExhausted { seed: 77, budget: 0, conflict } = &e else { panic!("{e}") };
        assert!(!conflict.offered.is_empty());
        assert!(e.to_string().contains("seed 77") && e.to_string().contains("0 backtracks"), "{e}");
        // With budget to spare the search runs out of choices instead.
        let input = SolveInput { seed: 77, budget: 1000, ..SolveInput::default() };
        let e = solver.solve(&input, &mut rng, &mut |_| {}).unwrap_err();
        assert!(matches!(e, SolveError::Unsatisfiable { seed: 77, .. }), "{e}");
    }

    #[test]
    fn fixed_cells_are_kept_and_checked() {
        let set = crate::wfc::square17::tileset(&crate::wfc::square17::Weights::default()).unwrap();
        let topo = Topology::square(6, 6);
        let mut solver = Solver::new(&topo, &set).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let want = crate::wfc::square17::tile(Some(0));
        let fixed = vec![FixedCell { cell: 14, allowed: vec![want] }];
        let input = SolveInput { border: Some(crate::wfc::SOCKET_SOLID), fixed, ..SolveInput::default() };
        let mut reports = 0;
        let tiles = solver.solve(&input, &mut rng, &mut |_| reports += 1).unwrap();
        assert_eq!(tiles[14], want);
        assert!(reports > 0, "progress is reported");
        let bad =
            SolveInput { fixed: vec![FixedCell { cell: 99, allowed: vec![want] }], ..SolveInput::default() };
        assert!(matches!(solver.solve(&bad, &mut rng, &mut |_| {}), Err(SolveError::BadInput { .. })));
        let bad = SolveInput {
            fixed: vec![FixedCell { cell: 0, allowed: vec![TileIndex(40)] }],
            ..SolveInput::default()
        };
        assert!(matches!(solver.solve(&bad, &mut rng, &mut |_| {}), Err(SolveError::BadInput { .. })));
        // A fixed floor cell with no walls in a corner contradicts the solid border at once.
        let corner = SolveInput {
            border: Some(crate::wfc::SOCKET_SOLID),
            fixed: vec![FixedCell { cell: 0, allowed: vec![want] }],
            ..SolveInput::default()
        };
        assert!(matches!(
            solver.solve(&corner, &mut rng, &mut |_| {}),
            Err(SolveError::Unsatisfiable { .. })
        ));
        let four = Topology::octile(Dims::from_octagons(2, 2).unwrap());
        assert!(matches!(Solver::new(&four, &set), Err(SolveError::BadInput { .. })));
    }
}
