//! Connected regions: `flood` (what one node reaches) and `label_regions` (every component
//! at once). Both work on flat node indices and take the graph as closures, so they run on
//! any layer.

/// Id of a connected region, numbered from 0 in order of each region's lowest node index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(pub u32);

/// A fixed-size set of flat node indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    /// An empty set over indices `0..len`.
    #[must_use]
    pub fn new(len: usize) -> BitSet {
        BitSet { words: vec![0; len.div_ceil(64)], len }
    }

    /// Whether `i` is in the set (`false` past the end).
    #[must_use]
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `i`; returns whether it was new. Indices past the end are ignored.
    pub fn insert(&mut self, i: usize) -> bool {
        if i >= self.len {
            return false;
        }
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Number of members.
    #[must_use]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).filter(|&i| self.contains(i))
    }
}

/// Every node reachable from `start` (itself included when it is a node).
/// `is_node(i)` says whether `i` takes part; `neighbors(i, out)` pushes the nodes one step
/// from `i` (the caller decides what passes).
pub fn flood(
    len: usize,
    start: usize,
    mut is_node: impl FnMut(usize) -> bool,
    mut neighbors: impl FnMut(usize, &mut Vec<usize>),
) -> BitSet {
    let mut seen = BitSet::new(len);
    if start >= len || !is_node(start) {
        return seen;
    }
    let mut stack = vec![start];
    let mut next = Vec::new();
    seen.insert(start);
    while let Some(i) = stack.pop() {
        next.clear();
        neighbors(i, &mut next);
        for &j in &next {
            if j < len && !seen.contains(j) && is_node(j) {
                seen.insert(j);
                stack.push(j);
            }
        }
    }
    seen
}

/// Region labels of every node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions {
    labels: Vec<u32>,
    count: u32,
}

impl Regions {
    const NONE: u32 = u32::MAX;

    /// Number of regions.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// The region of node `i`, or `None` when `i` is not a node.
    #[must_use]
    pub fn region(&self, i: usize) -> Option<RegionId> {
        self.labels.get(i).copied().filter(|&l| l != Self::NONE).map(RegionId)
    }

    /// Node count of every region, by id.
    #[must_use]
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.count as usize];
        for &l in &self.labels {
            if l != Self::NONE {
                sizes[l as usize] += 1;
            }
        }
        sizes
    }
}

/// Numbers every connected component of the graph given by `is_node` and `neighbors`
/// (see [`flood`]). Regions are numbered in order of their lowest node index.
pub fn label_regions(
    len: usize,
    mut is_node: impl FnMut(usize) -> bool,
    mut neighbors: impl FnMut(usize, &mut Vec<usize>),
) -> Regions {
    let mut labels = vec![Regions::NONE; len];
    let mut count = 0u32;
    let mut stack = Vec::new();
    let mut next = Vec::new();
    for s in 0..len {
        if labels[s] != Regions::NONE || !is_node(s) {
            continue;
        }
        labels[s] = count;
        stack.push(s);
        while let Some(i) = stack.pop() {
            next.clear();
            neighbors(i, &mut next);
            for &j in &next {
                if j < len && labels[j] == Regions::NONE && is_node(j) {
                    labels[j] = count;
                    stack.push(j);
                }
            }
        }
        count += 1;
    }
    Regions { labels, count }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line 0-1-2 3-4 (3 and 4 joined, 2 and 3 not), node 5 excluded.
    fn line(i: usize, out: &mut Vec<usize>) {
        let joined = [(0, 1), (1, 2), (3, 4), (4, 5)];
        for (a, b) in joined {
            if a == i {
                out.push(b);
            }
            if b == i {
                out.push(a);
            }
        }
    }

    #[test]
    fn labels_components() {
        let r = label_regions(6, |i| i != 5, line);
        assert_eq!(r.count(), 2);
        assert_eq!(r.region(2), Some(RegionId(0)));
        assert_eq!(r.region(4), Some(RegionId(1)));
        assert_eq!(r.region(5), None);
        assert_eq!(r.sizes(), vec![3, 2]);
    }

    #[test]
    fn floods_one_component() {
        let f = flood(6, 1, |i| i != 5, line);
        assert_eq!(f.iter().collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(flood(6, 5, |i| i != 5, line).count(), 0);
    }
}
