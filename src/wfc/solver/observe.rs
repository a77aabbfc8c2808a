//! Observation: the entropy order of undecided cells (a bucketed queue plus one fresh list per class),
//! picking the next cell, choosing its tile by weight, and collapsing it.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::entropy::entropy_key;
use super::propagate::width;
use super::{CellState, ENTROPY_CACHE_BITS, NOT_QUEUED, Solver, tiles_of};

impl Solver {
    /// Puts `c` on the queue under its current entropy (ties: its noise). `W` is the
    /// number of domain words, or 0 for the solver's own count (see `propagate`).
    pub(super) fn enqueue<const W: usize>(&mut self, c: usize) {
        let (bucket, entropy) = self.domain_bucket::<W>(c);
        self.heap.push(bucket, self.state[c].noise);
        self.state[c].queued = entropy;
    }

    /// The queue's bucket of the [`entropy_key`] of `c`'s domain, and the key, through a small
    /// direct-mapped cache keyed by the domain words themselves: a solve meets few distinct
    /// domains, so most are found without summing weights. (An entry of zeros never matches:
    /// a queued cell's domain holds tiles.)
    #[inline(always)]
    fn domain_bucket<const W: usize>(&mut self, c: usize) -> (u32, u32) {
        let w = width::<W>(self.words);
        let (at, domain) = (c * w, &self.domain);
        let hash = (0..w)
            .fold(0u64, |h, i| (h ^ domain[at + i]).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29));
        let slot = (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ENTROPY_CACHE_BITS)) as usize;
        if (0..w).all(|i| self.entropy_domains[slot * w + i] == domain[at + i]) {
            return self.entropy_buckets[slot];
        }
        let (sw, swl) = self.weight_sums(0, &self.domain[at..at + w]);
        let entropy = entropy_key(sw, swl);
        let found = (self.heap.bucket(entropy), entropy);
        self.entropy_domains[slot * w..(slot + 1) * w].copy_from_slice(&self.domain[at..at + w]);
        self.entropy_buckets[slot] = found;
        found
    }

    /// The undecided cell of lowest entropy (ties: lowest noise), from the queue or from the
    /// head of a class's fresh list, whichever is lower.
    pub(super) fn pick(&mut self) -> Option<usize> {
        let (state, by_noise) = (&self.state, &self.by_noise);
        let mut best = self
            .heap
            .first(|entropy, noise| is_current(state, by_noise, entropy, noise))
            .map(|key| (key, by_noise[key as u32 as usize] as usize, usize::MAX));
        for k in 0..self.fresh.len() {
            let mut at = self.fresh_at[k];
            while let Some(&c) = self.fresh[k].get(at) {
                if self.state[c as usize].queued == NOT_QUEUED && self.state[c as usize].len > 1 {
                    break;
                }
                at += 1;
            }
            self.fresh_at[k] = at;
            if let Some(&c) = self.fresh[k].get(at) {
                let key = u64::from(self.fresh_key[k]) << 32 | u64::from(self.state[c as usize].noise);
                if best.is_none_or(|(b, _, _)| key < b) {
                    best = Some((key, c as usize, k));
                }
            }
        }
        let (_, c, from) = best?;
        if from == usize::MAX {
            self.heap.pop_first();
        } else {
            self.fresh_at[from] += 1;
        }
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
            }
        }
        touched.clear();
        self.touched = touched;
        self.epoch = self.epoch.wrapping_add(1);
        if self.heap.len() > self.heap_limit {
            self.compact_heap();
        }
    }

    /// Drops the queue's stale entries (a cell decided since, or queued again under another
    /// key). They would only be skipped when popped, but left in place they grow the queue
    /// far past the undecided cells and every pop walks its depth. Picks are unchanged.
    fn compact_heap(&mut self) {
        let (state, by_noise) = (&self.state, &self.by_noise);
        self.heap.retain(|entropy, noise| is_current(state, by_noise, entropy, noise));
        self.heap_limit = 2 * self.heap.len() + HEAP_SLACK;
    }
}

/// Whether the queue entry (`entropy`, `noise`) is current: its cell is undecided and was
/// queued last under `entropy`.
#[inline]
fn is_current(state: &[CellState], by_noise: &[u32], entropy: u32, noise: u32) -> bool {
    let cell = &state[by_noise[noise as usize] as usize];
    cell.len > 1 && cell.queued == entropy
}

/// Entries the queue may hold beyond twice its live ones before it is compacted.
pub(super) const HEAP_SLACK: usize = 4096;
