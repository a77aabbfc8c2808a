//! Observation: the entropy order of undecided cells (a bucketed queue), picking the next
//! cell, choosing its tile by weight, and collapsing it.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::entropy::entropy_key;
use super::propagate::width;
use super::{CellState, ENTROPY_CACHE_BITS, NOT_QUEUED, Solver, tiles_of};

impl Solver {
    /// Puts `c` on the queue under its current entropy (ties: its noise), leaving the
    /// bucket it was queued in before, if another. `W` is the number of domain words, or 0
    /// for the solver's own count (see `propagate`).
    #[inline(always)]
    pub(super) fn enqueue<const W: usize>(&mut self, c: usize) {
        let bucket = self.domain_bucket::<W>(c);
        let CellState { queued, noise, .. } = self.state[c];
        if queued == bucket {
            return;
        }
        if queued != NOT_QUEUED {
            self.heap.remove(queued, noise);
        }
        self.heap.push(bucket, noise);
        self.state[c].queued = bucket;
    }

    /// Takes `c` off the queue, if it is on it (it was decided).
    #[inline(always)]
    fn dequeue(&mut self, c: usize) {
        let CellState { queued, noise, .. } = self.state[c];
        if queued != NOT_QUEUED {
            self.heap.remove(queued, noise);
            self.state[c].queued = NOT_QUEUED;
        }
    }

    /// The queue's bucket of the [`entropy_key`] of `c`'s domain, through a small
    /// direct-mapped cache keyed by the domain words themselves: a solve meets few distinct
    /// domains, so most are found without summing weights. (An entry of zeros never matches:
    /// a queued cell's domain holds tiles.)
    #[inline(always)]
    fn domain_bucket<const W: usize>(&mut self, c: usize) -> u32 {
        let w = width::<W>(self.words);
        let (at, domain) = (c * w, &self.domain);
        let hash = (0..w)
            .fold(0u64, |h, i| (h ^ domain[at + i]).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29));
        let slot = (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ENTROPY_CACHE_BITS)) as usize;
        if (0..w).all(|i| self.entropy_domains[slot * w + i] == domain[at + i]) {
            return self.entropy_buckets[slot];
        }
        let (sw, swl) = self.weight_sums(0, &self.domain[at..at + w]);
        let bucket = self.heap.bucket(entropy_key(sw, swl));
        self.entropy_domains[slot * w..(slot + 1) * w].copy_from_slice(&self.domain[at..at + w]);
        self.entropy_buckets[slot] = bucket;
        bucket
    }

    /// The undecided cell of lowest entropy (ties: lowest noise); it leaves the queue.
    pub(super) fn pick(&mut self) -> Option<usize> {
        let noise = self.heap.pop_first()?;
        let c = self.by_noise[noise as usize] as usize;
        self.state[c].queued = NOT_QUEUED;
        Some(c)
    }

    /// A tile of `cell`'s domain drawn with probability proportional to its weight.
    pub(super) fn choose(&self, cell: usize, rng: &mut ChaCha8Rng) -> usize {
        let total: f64 = tiles_of(self.domain(cell)).map(|t| self.weight[t]).sum();
        let mut r = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
        let mut last = 0;
        for t in tiles_of(self.domain(cell)) {
            last = t;
            r -= self.weight[t];
            if r < 0.0 {
                return t;
            }
        }
        last
    }

    /// Decides `cell` for tile `keep` and propagates; false on a contradiction.
    pub(super) fn collapse(&mut self, cell: usize, keep: usize) -> bool {
        self.decide(cell, keep);
        let ok = self.propagate();
        self.flush();
        ok
    }

    /// Queues every cell changed since the last flush under its new entropy.
    pub(super) fn flush(&mut self) {
        by_words!(self, flush_words)
    }

    /// [`Solver::flush`] with `W` domain words (0: the solver's own count).
    fn flush_words<const W: usize>(&mut self) {
        let mut touched = std::mem::take(&mut self.touched);
        for &c in &touched {
            if self.state[c as usize].len > 1 {
                self.enqueue::<W>(c as usize);
            } else {
                self.dequeue(c as usize);
            }
        }
        touched.clear();
        self.touched = touched;
        self.epoch = self.epoch.wrapping_add(1);
    }
}
