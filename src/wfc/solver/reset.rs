//! Setting up a solve: every cell's domain from its class, the fixed cells and the border;
//! the counts and weight sums; the first propagation (only walls that may take a tile); and
//! the queue of undecided cells.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::{Conflict, NO_CELL, NOT_QUEUED, SocketId, SolveError, SolveInput, Solver};

impl Solver {
    /// Prepares the state for a solve of `input`, its tie-breaking noise drawn from `rng`.
    /// Fails on bad fixed cells or when the problem has no solution before any choice.
    pub(super) fn reset(&mut self, input: &SolveInput, rng: &mut ChaCha8Rng) -> Result<(), SolveError> {
        self.start_domains(rng);
        for fixed in &input.fixed {
            self.restrict_fixed(fixed.cell as usize, &fixed.allowed)?;
        }
        if let Some(border) = input.border {
            self.restrict_border(border);
        }
        self.clear_search();
        let unsatisfiable = |conflict| SolveError::Unsatisfiable { seed: input.seed, conflict };
        self.count_domains().map_err(unsatisfiable)?;
        if !self.propagate() {
            let conflict = self.conflict.take().expect("invariant: a failed propagation records a conflict");
            return Err(unsatisfiable(conflict));
        }
        // The initial propagation is not undoable: it is the problem itself.
        self.trail.clear();
        self.touched.clear();
        self.epoch = self.epoch.wrapping_add(1);
        self.queue_undecided();
        Ok(())
    }

    /// Gives every cell the tiles of its class, and draws the tie-breaking noise: a seeded
    /// random permutation of the cells (Fisher-Yates).
    fn start_domains(&mut self, rng: &mut ChaCha8Rng) {
        by_words!(self, fill_domains);
        for k in (1..self.cells).rev() {
            let j = (rng.next_u64() % (k as u64 + 1)) as usize;
            let (a, b) = (self.state[k].noise, self.state[j].noise);
            (self.state[k].noise, self.state[j].noise) = (b, a);
        }
    }

    /// Gives every cell the tiles of its class and its own index as noise, with `W` domain
    /// words (0: the solver's own count).
    fn fill_domains<const W: usize>(&mut self) {
        let w = super::propagate::width::<W>(self.words);
        for (c, (dom, cell)) in self.domain.chunks_exact_mut(w).zip(&mut self.state).enumerate() {
            let k = usize::from(self.classes[c]);
            dom.copy_from_slice(&self.class_mask[k * w..k * w + w]);
            cell.noise = c as u32;
        }
    }

    /// Keeps only the tiles `allowed` in `cell`; refuses a cell or tile out of range.
    fn restrict_fixed(&mut self, cell: usize, allowed: &[super::TileIndex]) -> Result<(), SolveError> {
        let w = self.words;
        if cell >= self.cells {
            return Err(SolveError::BadInput {
                reason: format!("fixed cell {cell} is outside the {} cells", self.cells),
            });
        }
        let mut mask = vec![0u64; w];
        for t in allowed {
            let t = usize::from(t.0);
            if t >= self.tiles {
                return Err(SolveError::BadInput {
                    reason: format!("fixed cell {cell}: tile {t} is not in the {} tiles", self.tiles),
                });
            }
            mask[t / 64] |= 1 << (t % 64);
        }
        for (x, m) in self.domain[cell * w..(cell + 1) * w].iter_mut().zip(&mask) {
            *x &= m;
        }
        Ok(())
    }

    /// Keeps, on every border wall, only the tiles whose socket there may meet `border`.
    fn restrict_border(&mut self, border: SocketId) {
        let (w, d) = (self.words, self.dirs);
        let set = 1u16 << border.0;
        for j in 0..self.border_walls.len() {
            let at = self.border_walls[j] as usize;
            let (c, dir) = (at / d, at % d);
            for i in 0..w {
                self.domain[c * w + i] &= self.allowed::<0>(dir, set, i);
            }
        }
    }

    /// Empties the search state: logs, queues, the collapsed tally.
    fn clear_search(&mut self) {
        self.collapsed = 0;
        self.trail.clear();
        self.decisions.clear();
        if self.heap.clear() {
            // Bucket numbers are void: forget the cached ones (an all-zero entry never matches
            // a queued cell's domain).
            self.entropy_domains.fill(0);
        }
        for &c in &self.stack {
            self.state[c as usize].on_stack = false;
        }
        self.stack.clear();
        self.touched.clear();
        self.conflict = None;
    }

    /// Counts every cell's tiles and weights, and queues for the first propagation every
    /// cell with a wall that may take tiles from its neighbour (see [`Solver::class_tables`]).
    /// Fails at the first cell left without a tile.
    fn count_domains(&mut self) -> Result<(), Conflict> {
        by_words!(self, count_domains_words)
    }

    /// [`Solver::count_domains`] with `W` domain words (0: the solver's own count).
    fn count_domains_words<const W: usize>(&mut self) -> Result<(), Conflict> {
        let d = self.dirs;
        for c in 0..self.cells {
            let k = usize::from(self.classes[c]);
            let whole = self.is_whole::<W>(c);
            self.state[c].len = if whole {
                self.class_sums[k].0
            } else {
                self.domain(c).iter().map(|m| m.count_ones() as u16).sum()
            };
            match self.state[c].len {
                0 => return Err(self.conflict_at(c, 0, None)),
                1 => self.collapsed += 1,
                _ => {}
            }
            if whole && self.quiet_cell[c] {
                if self.offer_bytes.is_empty() {
                    for dir in 0..d {
                        self.revised[c * d + dir] = u64::from(self.class_offer[k * d + dir]);
                    }
                } else {
                    self.revised[c] = self.class_offer_all[k];
                }
                continue;
            }
            for dir in 0..d {
                let quiet = whole && self.is_quiet(c, dir);
                let set = if quiet { u64::from(self.class_offer[k * d + dir]) } else { 1 << self.sockets };
                self.set_revised(c, dir, set);
            }
            self.push(c);
        }
        Ok(())
    }

    /// Sets what wall `dir` of `cell` was last revised against: `set`, a socket set or the
    /// guard bit `1 << sockets` (in the layout `revised` has).
    fn set_revised(&mut self, cell: usize, dir: usize, set: u64) {
        if self.offer_bytes.is_empty() {
            self.revised[cell * self.dirs + dir] = set;
        } else {
            let shift = dir * super::tables::packed_stride(self.sockets);
            let field = (1u64 << super::tables::packed_stride(self.sockets)) - 1;
            self.revised[cell] = self.revised[cell] & !(field << shift) | set << shift;
        }
    }

    /// Whether wall `dir` of `cell`, holding its whole class, takes no tile from the
    /// neighbour's class (border and absent walls take none).
    fn is_quiet(&self, cell: usize, dir: usize) -> bool {
        let (d, classes) = (self.dirs, self.class_sums.len());
        let k = usize::from(self.classes[cell]);
        let beyond = self.neighbors[cell * d + dir];
        beyond >= NO_CELL || self.quiet[(k * d + dir) * classes + usize::from(self.classes[beyond as usize])]
    }

    /// Per (class, wall), the sockets a cell holding its whole class offers; per (class,
    /// wall, neighbour class), whether that offer leaves every tile of the neighbour's class
    /// (then the first propagation need not revise that wall of a cell still whole).
    pub(super) fn class_tables(&mut self, classes: usize) {
        let (w, d) = (self.words, self.dirs);
        let mut offer = vec![0u16; classes * d];
        let mut quiet = vec![false; classes * d * classes];
        let mut sums = vec![(0u16, 0u64, 0u64); classes];
        for k in 0..classes {
            let whole = &self.class_mask[k * w..(k + 1) * w];
            let (sw, swl) = self.weight_sums(0, whole);
            sums[k] = (whole.iter().map(|m| m.count_ones() as u16).sum(), sw, swl);
            for dir in 0..d {
                let set = self.offered_by(whole, dir);
                offer[k * d + dir] = set;
                let e = usize::from(self.opposite[dir]);
                for other in 0..classes {
                    quiet[(k * d + dir) * classes + other] =
                        (0..w).all(|i| self.class_mask[other * w + i] & !self.allowed::<0>(e, set, i) == 0);
                }
            }
        }
        self.class_offer_all = if self.offer_bytes.is_empty() {
            Vec::new()
        } else {
            (0..classes).map(|k| self.offered_all_of(&self.class_mask[k * w..(k + 1) * w])).collect()
        };
        (self.class_offer, self.quiet, self.class_sums) = (offer, quiet, sums);
        // A class quiet on every wall against every class needs no look at the neighbours.
        let everywhere: Vec<bool> = (0..classes)
            .map(|k| self.quiet[k * d * classes..(k + 1) * d * classes].iter().all(|&q| q))
            .collect();
        self.quiet_cell = (0..self.cells)
            .map(|c| everywhere[usize::from(self.classes[c])] || (0..d).all(|dir| self.is_quiet(c, dir)))
            .collect();
    }

    /// Queues every undecided cell for [`Solver::pick`]: a cell whose domain is still its
    /// whole class goes in that class's bucket (its entropy is known), any other in the
    /// bucket of its domain's entropy.
    fn queue_undecided(&mut self) {
        by_words!(self, queue_undecided_words);
    }

    /// [`Solver::queue_undecided`] with `W` domain words (0: the solver's own count).
    fn queue_undecided_words<const W: usize>(&mut self) {
        for c in 0..self.cells {
            self.by_noise[self.state[c].noise as usize] = c as u32;
        }
        let class_bucket: Vec<u32> = (self.class_sums.iter())
            .map(|&(_, sw, swl)| self.heap.bucket(super::entropy::entropy_key(sw, swl)))
            .collect();
        for c in 0..self.cells {
            self.state[c].queued = NOT_QUEUED;
            if self.state[c].len <= 1 {
                continue;
            }
            if self.is_whole::<W>(c) {
                let bucket = class_bucket[usize::from(self.classes[c])];
                self.heap.push(bucket, self.state[c].noise);
                self.state[c].queued = bucket;
            } else {
                self.enqueue::<W>(c);
            }
        }
    }
}
