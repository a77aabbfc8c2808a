//! The entropy queue of undecided cells: entries keyed by (entropy, noise), lowest first,
//! with stale entries dropped lazily, as a binary heap would give them but cheaper.
//!
//! A solve meets few distinct entropies, so the entries are kept in one bucket per entropy
//! value, each a small min-heap of noise, and a second small heap orders the buckets that
//! may hold entries. Noise is a random permutation, so a push into a bucket rarely moves
//! up, and a pop walks the depth of one bucket, not of the whole queue. The first entry is
//! the lowest (entropy, noise) among the current ones, exactly as with one heap of
//! `entropy << 32 | noise`: the order of picks, and so every solution, is unchanged.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets kept across solves before the queue forgets them at a reset.
const MAX_BUCKETS: usize = 1 << 12;

/// Entries (entropy, noise) of cells, lowest first; see the module docs.
#[derive(Debug, Clone, Default)]
pub(super) struct EntropyQueue {
    /// The buckets, by number.
    buckets: Vec<Bucket>,
    /// (entropy, bucket) of every bucket, sorted by entropy.
    sorted: Vec<(u32, u32)>,
    /// (entropy, bucket) of the buckets that may hold entries, lowest on top; a bucket
    /// found empty on top leaves it.
    active: BinaryHeap<Reverse<(u32, u32)>>,
    /// Entries in all buckets, stale ones included.
    len: usize,
}

/// The entries of one entropy.
#[derive(Debug, Clone)]
struct Bucket {
    /// The noise of the entries queued under `entropy`, lowest on top.
    heap: BinaryHeap<Reverse<u32>>,
    /// The entropy key.
    entropy: u32,
    /// Whether the bucket is in `EntropyQueue::active`.
    listed: bool,
}

impl EntropyQueue {
    /// The bucket of entropy key `entropy`, made on first use. Its number stays valid until
    /// [`EntropyQueue::clear`] returns true.
    pub(super) fn bucket(&mut self, entropy: u32) -> u32 {
        match self.sorted.binary_search_by_key(&entropy, |&(e, _)| e) {
            Ok(at) => self.sorted[at].1,
            Err(at) => {
                let bucket = self.buckets.len() as u32;
                self.sorted.insert(at, (entropy, bucket));
                self.buckets.push(Bucket { heap: BinaryHeap::new(), entropy, listed: false });
                bucket
            }
        }
    }

    /// Queues the entry (the entropy of `bucket`, `noise`).
    #[inline]
    pub(super) fn push(&mut self, bucket: u32, noise: u32) {
        let b = &mut self.buckets[bucket as usize];
        b.heap.push(Reverse(noise));
        if !b.listed {
            b.listed = true;
            self.active.push(Reverse((b.entropy, bucket)));
        }
        self.len += 1;
    }

    /// The lowest entry for which `current(entropy, noise)` holds, as `entropy << 32 |
    /// noise`, after dropping every lower entry (all stale); `None` when none is current.
    pub(super) fn first(&mut self, mut current: impl FnMut(u32, u32) -> bool) -> Option<u64> {
        while let Some(&Reverse((entropy, bucket))) = self.active.peek() {
            let b = &mut self.buckets[bucket as usize];
            while let Some(&Reverse(noise)) = b.heap.peek() {
                if current(entropy, noise) {
                    return Some(u64::from(entropy) << 32 | u64::from(noise));
                }
                b.heap.pop();
                self.len -= 1;
            }
            b.listed = false;
            self.active.pop();
        }
        None
    }

    /// Removes the entry [`EntropyQueue::first`] returned last (no other call between).
    ///
    /// # Panics
    ///
    /// When the queue is empty: `first` found no entry.
    pub(super) fn pop_first(&mut self) {
        let &Reverse((_, bucket)) = self.active.peek().expect("invariant: pop_first follows a first entry");
        self.buckets[bucket as usize].heap.pop();
        self.len -= 1;
    }

    /// Drops every entry for which `current(entropy, noise)` fails.
    pub(super) fn retain(&mut self, mut current: impl FnMut(u32, u32) -> bool) {
        self.len = 0;
        for b in &mut self.buckets {
            let entropy = b.entropy;
            b.heap.retain(|&Reverse(noise)| current(entropy, noise));
            self.len += b.heap.len();
        }
    }

    /// Entries queued, stale ones included.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Empties the queue. Returns true when it also forgot its buckets (past
    /// [`MAX_BUCKETS`]), so that bucket numbers held elsewhere are void.
    pub(super) fn clear(&mut self) -> bool {
        self.active.clear();
        self.len = 0;
        if self.buckets.len() > MAX_BUCKETS {
            *self = Self::default();
            return true;
        }
        for b in &mut self.buckets {
            b.heap.clear();
            b.listed = false;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed xorshift stream.
    struct Stream(u64);

    impl Stream {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Random pushes, decisions, undos and compactions, applied to the queue and to the one
    /// heap of `entropy << 32 | noise` it replaces (the oracle, popped the same lazy way):
    /// both give the same entries in the same order.
    #[test]
    fn pops_in_the_order_of_one_heap() {
        for seed in 1..=20u64 {
            let mut rng = Stream(0x9e37_79b9_7f4a_7c15 ^ seed);
            let cells = 50 + rng.below(300) as usize;
            let entropies: Vec<u32> = (0..1 + rng.below(40)).map(|_| rng.below(1 << 28) as u32).collect();
            // Per cell (noise = cell here): the key it was queued under, if undecided.
            let mut queued: Vec<Option<u32>> = vec![None; cells];
            let mut queue = EntropyQueue::default();
            let mut oracle: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
            let (mut pops, mut retains) = (0, 0);
            for _ in 0..4000 {
                let cell = rng.below(cells as u64) as usize;
                match rng.below(10) {
                    0..=5 => {
                        let e = entropies[rng.below(entropies.len() as u64) as usize];
                        queued[cell] = Some(e);
                        let bucket = queue.bucket(e);
                        assert_eq!(queue.bucket(e), bucket, "one bucket per entropy");
                        queue.push(bucket, cell as u32);
                        oracle.push(Reverse(u64::from(e) << 32 | cell as u64));
                    }
                    6 => queued[cell] = None,
                    7 => {
                        let current = |e, n| queued[n as usize] == Some(e);
                        queue.retain(current);
                        oracle.retain(|&Reverse(k)| current((k >> 32) as u32, k as u32));
                        assert_eq!(queue.len(), oracle.len());
                        retains += 1;
                    }
                    _ => {
                        let current = |e, n| queued[n as usize] == Some(e);
                        let mut want = None;
                        while let Some(&Reverse(k)) = oracle.peek() {
                            if current((k >> 32) as u32, k as u32) {
                                want = Some(k);
                                break;
                            }
                            oracle.pop();
                        }
                        assert_eq!(queue.first(current), want, "seed {seed}");
                        if let Some(k) = want {
                            oracle.pop();
                            queue.pop_first();
                            queued[k as u32 as usize] = None;
                            pops += 1;
                        }
                    }
                }
            }
            assert!(pops > 100 && retains > 100, "the stream exercises pops and compaction");
            assert!(!queue.clear() && queue.len() == 0 && queue.first(|_, _| true).is_none());
        }
    }

    #[test]
    fn forgets_its_buckets_past_the_limit() {
        let mut queue = EntropyQueue::default();
        for e in 0..=MAX_BUCKETS as u32 {
            let b = queue.bucket(e * 3);
            queue.push(b, e);
        }
        assert_eq!(queue.first(|_, n| n >= 5), Some(15 << 32 | 5));
        assert!(queue.clear(), "past the limit the buckets are forgotten");
        assert_eq!(queue.bucket(7), 0);
        assert!(queue.first(|_, _| true).is_none());
    }
}
