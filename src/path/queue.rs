//! Monotone integer priority queues for Dijkstra and A* with a consistent heuristic: keys
//! popped never decrease while every key pushed is at least the last key popped. A key
//! below that floor is still accepted (the generator re-seeds a search at cost 0 this
//! way): the [`BucketQueue`] re-files every queued item, the [`RadixHeap`] only those
//! queued below its floor before.
//!
//! Among equal keys: the [`RadixHeap`] (Dijkstra with parents, [`super::search`]) pops the
//! lowest node index first, the order of a `BinaryHeap<Reverse<(key, node)>>`; the
//! [`BucketQueue`] (A*, and Dijkstra without parents) the newest item first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Radix heap of `(key, node)` items, lowest node first among equal keys: it pops in the
/// order of a `BinaryHeap<Reverse<(key, node)>>`.
///
/// A key below the last key popped (a search re-seeded at cost 0) goes to a second heap of
/// its own, so only the items queued below the first heap's floor are ever re-filed, not
/// the whole frontier; each pop takes the lower of the two heaps' least items.
#[derive(Debug, Clone)]
pub(crate) struct RadixHeap {
    /// Every item at or above its floor when pushed.
    high: Radix,
    /// The items pushed below `high`'s floor.
    low: Radix,
}

impl RadixHeap {
    /// An empty heap.
    pub(crate) fn new() -> RadixHeap {
        RadixHeap { high: Radix::new(), low: Radix::new() }
    }

    /// Empties the heap (keeping its allocations) and resets the floor key to 0.
    pub(crate) fn clear(&mut self) {
        self.high.clear();
        self.low.clear();
    }

    /// Adds an item: O(1) at or above the first heap's floor (O(log n) when equal to it);
    /// below it, the same in the second heap, plus a re-filing of that heap's own items
    /// when the key is below its floor too.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, node: u32) {
        if key < self.high.last {
            self.low.push(key, node);
        } else {
            self.high.push(key, node);
        }
    }

    /// Removes an item with the smallest key (the lowest node among equal keys).
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        let from_low = match (self.low.peek(), self.high.peek()) {
            (Some(low), Some(high)) => low < high,
            (low, _) => low.is_some(),
        };
        if from_low { self.low.pop() } else { self.high.pop() }
    }
}

/// One radix heap of `(key, node)` items, lowest node first among equal keys.
#[derive(Debug, Clone)]
struct Radix {
    last: u64,
    len: usize,
    /// Bucket `b > 0` holds the items whose key differs from `last` first in bit `b - 1`
    /// (bucket 0 stays empty).
    buckets: Vec<Vec<(u64, u32)>>,
    /// The nodes whose key equals `last`, lowest on top: each push and pop is O(log n),
    /// however many items share the key.
    floor: BinaryHeap<Reverse<u32>>,
}

/// The bucket of `key` relative to `last`: 0 when equal, else one plus the index of the
/// highest bit in which they differ.
fn bucket(key: u64, last: u64) -> usize {
    64 - (key ^ last).leading_zeros() as usize
}

impl Radix {
    fn new() -> Radix {
        Radix { last: 0, len: 0, buckets: vec![Vec::new(); 65], floor: BinaryHeap::new() }
    }

    fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.floor.clear();
        self.last = 0;
        self.len = 0;
    }

    /// Adds an item. A key below the last key popped lowers the floor to it, which moves
    /// every queued item (linear in their number); keys above it cost O(1), a key equal to
    /// it O(log n) (a heap of nodes).
    #[inline]
    fn push(&mut self, key: u64, node: u32) {
        if key < self.last {
            self.lower_floor(key);
        }
        self.place(key, node);
        self.len += 1;
    }

    /// Files an item under its bucket against the current floor.
    #[inline]
    fn place(&mut self, key: u64, node: u32) {
        match bucket(key, self.last) {
            0 => self.floor.push(Reverse(node)),
            b => self.buckets[b].push((key, node)),
        }
    }

    /// Makes `key` (below `last`) the new floor and re-buckets every item against it.
    #[cold]
    fn lower_floor(&mut self, key: u64) {
        let old = self.last;
        let mut items: Vec<(u64, u32)> = self.buckets.iter_mut().flat_map(|b| b.drain(..)).collect();
        items.extend(self.floor.drain().map(|Reverse(n)| (old, n)));
        self.last = key;
        for (k, n) in items {
            // Every item is at least the old floor, so none lands in bucket 0.
            self.buckets[bucket(k, key)].push((k, n));
        }
    }

    /// The least item, left in place: the floor is filled from the first non-empty bucket
    /// when it is empty.
    fn peek(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.floor.is_empty() {
            let i = self.buckets.iter().position(|b| !b.is_empty()).expect("invariant: len > 0");
            let mut items = std::mem::take(&mut self.buckets[i]);
            self.last = items.iter().map(|&(k, _)| k).min().expect("invariant: bucket not empty");
            for &(k, n) in &items {
                self.place(k, n);
            }
            items.clear();
            self.buckets[i] = items;
        }
        self.floor.peek().map(|&Reverse(node)| (self.last, node))
    }

    /// Removes an item with the smallest key.
    fn pop(&mut self) -> Option<(u64, u32)> {
        let least = self.peek()?;
        self.len -= 1;
        self.floor.pop();
        Some(least)
    }
}

/// Keys within this of the lowest queued key sit in [`BucketQueue`]'s buckets (a power of
/// two, above the costliest step of a default graph: 1426 for a stair).
const WINDOW: u64 = 4096;

/// A monotone bucket queue (Dial's) of `(key, node)` items: one bucket per key in a window
/// of [`WINDOW`] keys above the floor, found through a bitmap, newest first within a
/// bucket. Keys past the window wait in a list and join their buckets as soon as the
/// window reaches them, so equal keys always pop newest first (A*'s tie order relies on
/// it); a key below the floor re-files everything.
#[derive(Debug, Clone)]
pub(crate) struct BucketQueue {
    /// No queued key is below it; the window is `base..base + WINDOW`.
    base: u64,
    /// Per bucket (`key % WINDOW`): its newest entry, or [`NONE`].
    heads: Box<[u32; WINDOW as usize]>,
    /// Which buckets hold entries.
    full: Box<[u64; WINDOW as usize / 64]>,
    /// Entries: the node and the next (older) entry of its bucket.
    entries: Vec<(u32, u32)>,
    /// Items in buckets.
    near: usize,
    /// Items whose key is at or past the window's end, and their least key.
    far: Vec<(u64, u32)>,
    far_min: u64,
}

const NONE: u32 = u32::MAX;

impl Default for BucketQueue {
    fn default() -> Self {
        BucketQueue {
            base: 0,
            heads: Box::new([NONE; WINDOW as usize]),
            full: Box::new([0; WINDOW as usize / 64]),
            entries: Vec::new(),
            near: 0,
            far: Vec::new(),
            far_min: u64::MAX,
        }
    }
}

impl BucketQueue {
    /// Empties the queue, keeping its allocations (in time linear in the full buckets).
    pub(crate) fn clear(&mut self) {
        for (w, word) in self.full.iter_mut().enumerate() {
            while *word != 0 {
                self.heads[w * 64 + word.trailing_zeros() as usize] = NONE;
                *word &= *word - 1;
            }
        }
        self.entries.clear();
        self.far.clear();
        (self.base, self.near, self.far_min) = (0, 0, u64::MAX);
    }

    /// Adds an item (O(1); a key below the floor re-files every item).
    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64, node: u32) {
        if key.wrapping_sub(self.base) < WINDOW {
            let b = (key % WINDOW) as usize;
            let entry = u32::try_from(self.entries.len()).expect("invariant: queue entries fit in u32");
            self.entries.push((node, self.heads[b]));
            self.heads[b] = entry;
            self.full[b / 64] |= 1 << (b % 64);
            self.near += 1;
        } else {
            self.push_outside(key, node);
        }
    }

    /// Adds an item whose key is below the floor or past the window.
    #[cold]
    #[inline(never)]
    fn push_outside(&mut self, key: u64, node: u32) {
        if key < self.base {
            self.lower_floor(key);
            self.push(key, node);
        } else {
            self.far.push((key, node));
            self.far_min = self.far_min.min(key);
        }
    }

    /// Removes an item with the smallest key: among equal keys the newest.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.near == 0 {
            if self.far.is_empty() {
                return None;
            }
            self.base = self.far_min;
            self.pull_far();
        }
        let from = (self.base % WINDOW) as usize;
        let b = self.next_full(from);
        if b != from {
            self.base += (b as u64).wrapping_sub(from as u64) % WINDOW;
            // The window moved: far items it now reaches join their buckets before any
            // newer item can, so equal keys still come out newest first.
            if self.far_min < self.base.saturating_add(WINDOW) {
                self.pull_far();
            }
        }
        let (node, next) = self.entries[self.heads[b] as usize];
        self.heads[b] = next;
        if next == NONE {
            self.full[b / 64] &= !(1 << (b % 64));
        }
        self.near -= 1;
        Some((self.base, node))
    }

    /// The first full bucket at or cyclically after `from` (there is one: `near > 0`).
    #[inline]
    fn next_full(&self, from: usize) -> usize {
        let words = self.full.len();
        let (w, bit) = (from / 64, from % 64);
        let first = self.full[w] & (u64::MAX << bit);
        if first != 0 {
            return w * 64 + first.trailing_zeros() as usize;
        }
        (1..=words)
            .map(|k| (w + k) % words)
            .find(|&i| self.full[i] != 0)
            .map(|i| i * 64 + self.full[i].trailing_zeros() as usize)
            .expect("invariant: a bucket is full")
    }

    /// Moves the far items the window now reaches into buckets.
    #[cold]
    #[inline(never)]
    fn pull_far(&mut self) {
        let far = std::mem::take(&mut self.far);
        self.far_min = u64::MAX;
        for (key, node) in far {
            self.push(key, node);
        }
    }

    /// Makes `key` the floor and re-files every item against it.
    #[cold]
    fn lower_floor(&mut self, key: u64) {
        let mut items = std::mem::take(&mut self.far);
        for b in 0..WINDOW as usize {
            let offset = (b as u64).wrapping_sub(self.base % WINDOW) % WINDOW;
            let mut e = self.heads[b];
            while e != NONE {
                items.push((self.base + offset, self.entries[e as usize].0));
                e = self.entries[e as usize].1;
            }
        }
        // Oldest first within a bucket, so re-filing keeps the newest on top.
        items.reverse();
        self.clear();
        self.base = key;
        for (k, n) in items {
            self.push(k, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_queue_pops_equal_keys_newest_first_across_the_window() {
        // Monotone pushes (each at least the last key popped), some past the window: the
        // order must be that of a heap on (key, newest first).
        let mut q = BucketQueue::default();
        let mut reference = BinaryHeap::new();
        let (mut seq, mut x) = (0u64, 12345u64);
        let mut last = 0;
        for round in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for _ in 0..(x % 3) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = last + [0, 1, 707, 2852, 4095, 4096, 9000][(x % 7) as usize];
                q.push(key, round);
                reference.push((Reverse(key), seq, round));
                seq += 1;
            }
            let want = reference.pop().map(|(Reverse(k), _, n)| (k, n));
            assert_eq!(q.pop(), want, "round {round}");
            last = want.map_or(last, |w| w.0);
        }
    }

    #[test]
    fn bucket_queue_pops_in_key_order_across_the_window_and_below_the_floor() {
        // Keys near, past the window and (pushed mid-way) below the floor; equal keys come
        // out newest first.
        let mut q = BucketQueue::default();
        let mut want: Vec<(u64, u32)> = Vec::new();
        for (k, n) in [(5, 0), (3, 1), (9000, 2), (3, 3), (70, 4), (5000, 5), (4096 + 3, 6), (20000, 7)] {
            q.push(k, n);
            want.push((k, n));
        }
        let mut got = Vec::new();
        while let Some(item) = q.pop() {
            got.push(item);
            match item.1 {
                1 => {
                    q.push(3, 8); // equal to the floor
                    want.push((3, 8));
                }
                4 => {
                    q.push(2, 9); // below the floor
                    want.push((2, 9));
                }
                5 => {
                    q.push(5000 + 4095, 10); // the window's last key
                    want.push((5000 + 4095, 10));
                }
                _ => {}
            }
        }
        let keys: Vec<u64> = got.iter().map(|x| x.0).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1] || w[1] == 2), "{keys:?}");
        assert_eq!(got[..3], [(3, 3), (3, 1), (3, 8)], "newest first among equal keys");
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        q.clear();
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn radix_heap_pops_like_a_binary_heap_through_many_reseeds() {
        // A search's pattern: pushes at or above the last key popped, and now and then a
        // burst at 0 (a re-seeded search), some while items below the floor are queued.
        let mut h = RadixHeap::new();
        let mut reference = BinaryHeap::new();
        let (mut x, mut last, mut popped) = (99u64, 0u64, 0);
        for round in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pushes = if x % 97 == 0 { 5 } else { x % 3 };
            for k in 0..pushes {
                let key = if x % 97 == 0 { k % 2 } else { last + (x >> 8) % 3000 };
                let node = (x >> 20) as u32 % 5000;
                h.push(key, node);
                reference.push(Reverse((key, node)));
            }
            let want = reference.pop().map(|Reverse(item)| item);
            assert_eq!(h.pop(), want, "round {round}");
            if let Some((k, _)) = want {
                last = k;
                popped += 1;
            }
        }
        assert!(popped > 15_000);
        while let Some(Reverse(item)) = reference.pop() {
            assert_eq!(h.pop(), Some(item));
        }
        assert_eq!(h.pop(), None);
    }

    #[test]
    fn lowest_node_ties_pop_like_a_binary_heap_even_below_the_floor() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        fn push(h: &mut RadixHeap, reference: &mut BinaryHeap<Reverse<(u64, u32)>>, k: u64, n: u32) {
            h.push(k, n);
            reference.push(Reverse((k, n)));
        }
        let mut h = RadixHeap::new();
        let mut reference = BinaryHeap::new();
        for (k, n) in [(5, 7), (3, 9), (9, 2), (3, 1), (70, 4), (5, 0), (3, 5)] {
            push(&mut h, &mut reference, k, n);
        }
        let mut popped = 0;
        while let Some(item) = h.pop() {
            assert_eq!(Some(Reverse(item)), reference.pop());
            popped += 1;
            match item.1 {
                1 => push(&mut h, &mut reference, 3, 8), // equal to the floor: sorted in
                7 => push(&mut h, &mut reference, 0, 6), // below the floor: re-bucketed
                6 => push(&mut h, &mut reference, 70, 3), // equal to a queued key
                _ => {}
            }
        }
        assert_eq!((popped, reference.pop()), (10, None));
    }
}
