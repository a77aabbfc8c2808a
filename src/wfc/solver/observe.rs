//! Observation: the entropy order of undecided cells (a heap plus one fresh list per class),
//! picking the next cell, choosing its tile by weight, and collapsing it.

use std::cmp::Reverse;

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::entropy::entropy_key;
use super::{ENTROPY_CACHE_BITS, NOT_QUEUED, Solver, tiles_of};

impl Solver {
    /// Puts `c` on the heap under its current entropy (ties: its noise).
    pub(super) fn enqueue(&mut self, c: usize) {
        let entropy = self.domain_entropy(c);
        self.heap.push(Reverse(u64::from(entropy) << 32 | u64::from(self.state[c].noise)));
        self.state[c].queued = entropy;
    }

    /// [`entropy_key`] of `c`'s domain, through a small direct-mapped cache keyed by the
    /// domain words themselves: a solve meets few distinct domains, so most keys are found
    /// without summing weights. (An entry of zeros is correct: the empty domain's key is 0.)
    #[inline]
    fn domain_entropy(&mut self, c: usize) -> u32 {
        let w = self.words;
        let dom = &self.domain[c * w..(c + 1) * w];
        let hash = dom.iter().fold(0u64, |h, &x| (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29));
        let slot = (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ENTROPY_CACHE_BITS)) as usize;
        if self.entropy_domains[slot * w..(slot + 1) * w] == *dom {
            return self.entropy_keys[slot];
        }
        let (sw, swl) = self.weight_sums(0, dom);
        let key = entropy_key(sw, swl);
        self.entropy_domains[slot * w..(slot + 1) * w].copy_from_slice(&self.domain[c * w..(c + 1) * w]);
        self.entropy_keys[slot] = key;
        key
    }

    /// The undecided cell of lowest entropy (ties: lowest noise), from the heap or from the
    /// head of a class's fresh list, whichever is lower.
    pub(super) fn pick(&mut self) -> Option<usize> {
        let mut best: Option<(u64, usize, usize)> = None;
        while let Some(&Reverse(key)) = self.heap.peek() {
            let c = self.by_noise[key as u32 as usize] as usize;
            if self.state[c].len > 1 && self.state[c].queued == (key >> 32) as u32 {
                best = Some((key, c, usize::MAX));
                break;
            }
            self.heap.pop();
        }
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
            self.heap.pop();
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
        for i in 0..self.touched.len() {
            let c = self.touched[i] as usize;
            if self.state[c].len > 1 {
                self.enqueue(c);
            }
        }
        self.touched.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.heap.len() > self.heap_limit {
            self.compact_heap();
        }
    }

    /// Drops the heap's stale entries (a cell decided since, or queued again under another
    /// key). They would only be skipped when popped, but left in place they grow the heap
    /// far past the undecided cells and every pop walks its depth. Picks are unchanged.
    fn compact_heap(&mut self) {
        let (state, by_noise) = (&self.state, &self.by_noise);
        self.heap.retain(|&Reverse(key)| {
            let cell = &state[by_noise[key as u32 as usize] as usize];
            cell.len > 1 && cell.queued == (key >> 32) as u32
        });
        self.heap_limit = 2 * self.heap.len() + HEAP_SLACK;
    }
}

/// Entries the heap may hold beyond twice its live ones before it is compacted.
pub(super) const HEAP_SLACK: usize = 4096;
