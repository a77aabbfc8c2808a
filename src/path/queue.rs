//! A monotone integer priority queue (radix heap) for Dijkstra and A* with a consistent
//! heuristic: keys popped never decrease while every key pushed is at least the last key
//! popped. A key below that floor is still accepted, at the price of re-sorting every
//! queued item (the generator re-seeds a search at cost 0 this way).
//!
//! Among equal keys the order is one of two, fixed when the heap is made ([`Ties`]): A*
//! takes the newest (deepest) node first; Dijkstra ([`super::search`]) the lowest node
//! index first, the order of a `BinaryHeap<Reverse<(key, node)>>`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Which of several items with the same key a [`RadixHeap`] pops first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ties {
    /// Items whose key equals the last popped key come out last-in first-out.
    Lifo,
    /// The item with the lowest node index comes out first.
    LowestNode,
}

/// Radix heap of `(key, node)` items.
#[derive(Debug, Clone)]
pub(crate) struct RadixHeap {
    last: u64,
    len: usize,
    ties: Ties,
    /// Bucket 0 holds the items whose key equals `last` ([`Ties::Lifo`] only; popped from
    /// its end).
    buckets: Vec<Vec<(u64, u32)>>,
    /// With [`Ties::LowestNode`], the nodes whose key equals `last`, lowest on top: each
    /// push and pop is O(log n), however many items share the key.
    floor: BinaryHeap<Reverse<u32>>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap::new(Ties::Lifo)
    }
}

/// The bucket of `key` relative to `last`: 0 when equal, else one plus the index of the
/// highest bit in which they differ.
fn bucket(key: u64, last: u64) -> usize {
    64 - (key ^ last).leading_zeros() as usize
}

impl RadixHeap {
    /// An empty heap breaking ties by `ties`.
    pub(crate) fn new(ties: Ties) -> RadixHeap {
        RadixHeap { last: 0, len: 0, ties, buckets: vec![Vec::new(); 65], floor: BinaryHeap::new() }
    }

    /// Empties the heap (keeping its allocations), resets the floor key to 0 and breaks
    /// ties by `ties` from now on.
    pub(crate) fn reset(&mut self, ties: Ties) {
        self.clear();
        self.ties = ties;
    }

    /// Empties the heap (keeping its allocations) and resets the floor key to 0.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.floor.clear();
        self.last = 0;
        self.len = 0;
    }

    /// Adds an item. A key below the last key popped lowers the floor to it, which moves
    /// every queued item (linear in their number); keys above it cost O(1), a key equal to
    /// it O(log n) with [`Ties::LowestNode`] (a heap of nodes), O(1) otherwise.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, node: u32) {
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
            0 if self.ties == Ties::LowestNode => self.floor.push(Reverse(node)),
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

    /// Removes an item with the smallest key.
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() && self.floor.is_empty() {
            let i = self.buckets.iter().position(|b| !b.is_empty()).expect("invariant: len > 0");
            let mut items = std::mem::take(&mut self.buckets[i]);
            self.last = items.iter().map(|&(k, _)| k).min().expect("invariant: bucket not empty");
            for &(k, n) in &items {
                self.place(k, n);
            }
            items.clear();
            self.buckets[i] = items;
        }
        self.len -= 1;
        match self.floor.pop() {
            Some(Reverse(n)) => Some((self.last, n)),
            None => self.buckets[0].pop(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_and_equal_keys_lifo() {
        let mut h = RadixHeap::default();
        for (k, n) in [(5, 0), (3, 1), (9, 2), (3, 3), (70, 4), (5, 5)] {
            h.push(k, n);
        }
        let mut out = Vec::new();
        while let Some(item) = h.pop() {
            out.push(item);
            if item.1 == 1 {
                h.push(3, 6); // equal to the last key: comes out next
            }
        }
        let keys: Vec<u64> = out.iter().map(|x| x.0).collect();
        assert_eq!(keys, vec![3, 3, 3, 5, 5, 9, 70]);
        assert_eq!(out[2], (3, 6));
        h.clear();
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
        let mut h = RadixHeap::new(Ties::LowestNode);
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
