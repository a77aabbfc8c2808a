//! A monotone integer priority queue (radix heap) for Dijkstra and A* with a consistent
//! heuristic: keys popped never decrease, so every key pushed must be at least the last key
//! popped. Items whose key equals the last popped key are popped last-in first-out, which
//! makes A* prefer the newest (deepest) node among equal `f`, deterministically.

/// Radix heap of `(key, node)` items.
#[derive(Debug, Clone)]
pub(crate) struct RadixHeap {
    last: u64,
    len: usize,
    buckets: Vec<Vec<(u64, u32)>>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap { last: 0, len: 0, buckets: vec![Vec::new(); 65] }
    }
}

/// The bucket of `key` relative to `last`: 0 when equal, else one plus the index of the
/// highest bit in which they differ.
fn bucket(key: u64, last: u64) -> usize {
    64 - (key ^ last).leading_zeros() as usize
}

impl RadixHeap {
    /// Empties the heap (keeping its allocations) and resets the floor key to 0.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
        self.len = 0;
    }

    /// Adds an item; `key` must be at least the last key popped.
    pub(crate) fn push(&mut self, key: u64, node: u32) {
        debug_assert!(key >= self.last, "invariant: radix heap keys are monotone");
        self.buckets[bucket(key, self.last)].push((key, node));
        self.len += 1;
    }

    /// Removes an item with the smallest key.
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let i = self.buckets.iter().position(|b| !b.is_empty()).expect("invariant: len > 0");
            let mut items = std::mem::take(&mut self.buckets[i]);
            self.last = items.iter().map(|&(k, _)| k).min().expect("invariant: bucket not empty");
            for &(k, n) in &items {
                self.buckets[bucket(k, self.last)].push((k, n));
            }
            items.clear();
            self.buckets[i] = items;
        }
        self.len -= 1;
        self.buckets[0].pop()
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
}
