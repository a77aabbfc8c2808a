//! Setting up a solve: every cell's domain from its class, the fixed cells and the border;
//! the support counts; the initial propagation; and the queue of undecided cells.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::propagate::Support;
use super::{Conflict, NO_CELL, NOT_QUEUED, SocketId, SolveError, SolveInput, Solver, Topology};

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
        self.count_supports().map_err(unsatisfiable)?;
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
        let w = self.words;
        for c in 0..self.cells {
            let k = usize::from(self.classes[c]);
            self.domain[c * w..(c + 1) * w].copy_from_slice(&self.class_mask[k * w..(k + 1) * w]);
            self.noise[c] = c as u32;
        }
        for k in (1..self.cells).rev() {
            let j = (rng.next_u64() % (k as u64 + 1)) as usize;
            self.noise.swap(k, j);
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
        let (w, d, s) = (self.words, self.dirs, self.sockets);
        let b = usize::from(border.0);
        for c in 0..self.cells {
            for dir in 0..d {
                if self.neighbors[c * d + dir] != Topology::RAW_BORDER {
                    continue;
                }
                for i in 0..w {
                    let mut ok = 0u64;
                    for t in 0..s {
                        if self.partners[t] >> b & 1 == 1 {
                            ok |= self.socket_mask[(dir * s + t) * w + i];
                        }
                    }
                    self.domain[c * w + i] &= ok;
                }
            }
        }
    }

    /// Empties the search state: counts, logs, queues, the collapsed tally.
    fn clear_search(&mut self) {
        self.counts.fill(0);
        self.collapsed = 0;
        self.trail.clear();
        self.decisions.clear();
        self.heap.clear();
        self.pending.clear();
        self.touched.clear();
        self.conflict = None;
    }

    /// Counts every cell's tiles, weights and supports, and queues each (cell, wall, socket)
    /// with no support for propagation. Fails at the first cell left without a tile.
    fn count_supports(&mut self) -> Result<(), Conflict> {
        let (w, d, s) = (self.words, self.dirs, self.sockets);
        for c in 0..self.cells {
            let n: u32 = self.domain(c).iter().map(|m| m.count_ones()).sum();
            let (sw, swl) = self.weight_sums(0, self.domain(c));
            for i in 0..w {
                self.shift_supports(c, i, self.domain[c * w + i], Support::Gained);
            }
            (self.len[c], self.sum_w[c], self.sum_wl[c]) = (n as u16, sw, swl);
            if n == 0 {
                return Err(self.conflict_at(c, 0, None));
            }
            if n == 1 {
                self.collapsed += 1;
            }
            for dir in 0..d {
                if self.neighbors[c * d + dir] >= NO_CELL {
                    continue;
                }
                for sock in 0..s {
                    if self.counts[(c * d + dir) * s + sock] == 0 {
                        self.pending.push((c as u32, dir as u8, sock as u8));
                    }
                }
            }
        }
        Ok(())
    }

    /// Queues every undecided cell for [`Solver::pick`]: a cell whose domain is still its
    /// whole class goes on the class's fresh list (in noise order), any other on the heap.
    fn queue_undecided(&mut self) {
        let w = self.words;
        // `noise[c]` is c's position in the permutation; walk it in that order.
        for c in 0..self.cells {
            self.by_noise[self.noise[c] as usize] = c as u32;
        }
        for k in 0..self.fresh.len() {
            self.fresh[k].clear();
            self.fresh_at[k] = 0;
            let (sw, swl) = self.weight_sums(0, &self.class_mask[k * w..(k + 1) * w]);
            self.fresh_key[k] = super::entropy::entropy_key(sw, swl);
        }
        self.queued.fill(NOT_QUEUED);
        for i in 0..self.cells {
            let c = self.by_noise[i] as usize;
            if self.len[c] <= 1 {
                continue;
            }
            let k = usize::from(self.classes[c]);
            if self.domain[c * w..(c + 1) * w] == self.class_mask[k * w..(k + 1) * w] {
                self.fresh[k].push(c as u32);
            } else {
                self.enqueue(c);
            }
        }
    }
}
