//! Connected regions: `label_regions` numbers every component at once. It works on flat
//! node indices and takes the graph as closures, so it runs on any layer (the pathing
//! graph's nodes, or every slot of a dungeon).

/// Id of a connected region, numbered from 0 in order of each region's lowest node index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(u32);

impl RegionId {
    /// The region's number, `0..count`, an index into [`Regions::sizes`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Region labels of every node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions {
    labels: Vec<u32>,
    count: u32,
    /// Per region, its lowest node index (increasing, as regions are numbered by it).
    first: Vec<u32>,
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

    /// Joins the regions of nodes `a` and `b` into one (a step now links them), numbered as
    /// [`label_regions`] would number them afresh; true when they were apart.
    pub(crate) fn join(&mut self, a: usize, b: usize) -> bool {
        let (Some(ra), Some(rb)) = (self.region(a), self.region(b)) else { return false };
        if ra == rb {
            return false;
        }
        let (lo, hi) = (ra.0.min(rb.0), ra.0.max(rb.0));
        for l in self.labels.iter_mut().filter(|l| **l != Self::NONE && **l >= hi) {
            *l = if *l == hi { lo } else { *l - 1 };
        }
        self.first.remove(hi as usize);
        self.count -= 1;
        true
    }

    /// Splits off `part` (node indices, all in one region, which holds other nodes too) as
    /// a region of its own, renumbering as [`label_regions`] would number them afresh.
    pub(crate) fn split_off(&mut self, part: &[usize]) {
        let Some(r) = part.first().and_then(|&i| self.region(i)) else { return };
        let r = r.0;
        let mut in_part = vec![false; self.labels.len()];
        for &i in part {
            in_part[i] = true;
        }
        // The piece that keeps the region's number holds its lowest node; the other one
        // is numbered by its own lowest node among the rest.
        let keeps_first = in_part[self.first[r as usize] as usize];
        let moved = |i: usize| in_part[i] != keeps_first;
        let Some(low) = (0..self.labels.len()).find(|&i| self.labels[i] == r && moved(i)) else { return };
        let k = self.first.partition_point(|&f| (f as usize) < low) as u32;
        for (i, l) in self.labels.iter_mut().enumerate() {
            if *l == r && moved(i) {
                *l = k;
            } else if *l != Self::NONE && *l >= k {
                *l += 1;
            }
        }
        self.first.insert(k as usize, low as u32);
        self.count += 1;
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

/// Numbers every connected component of the graph over indices `0..len`: `is_node(i)` says
/// whether `i` takes part; `neighbors(i, out)` pushes the indices one step from `i` (the
/// caller decides what passes; indices past `len` or not nodes are skipped). Regions are
/// numbered in order of their lowest node index.
///
/// ```
/// use octile::path::label_regions;
///
/// // A row of six cells; 2 and 3 are not joined, cell 5 does not take part.
/// let regions = label_regions(6, |i| i != 5, |i, out| {
///     if i > 0 && i != 3 {
///         out.push(i - 1);
///     }
///     if i != 2 {
///         out.push(i + 1);
///     }
/// });
/// assert_eq!(regions.count(), 2);
/// assert_eq!(regions.region(1), regions.region(2));
/// assert_ne!(regions.region(2), regions.region(3));
/// assert_eq!(regions.region(5), None);
/// assert_eq!(regions.sizes(), [3, 2]);
/// ```
pub fn label_regions(
    len: usize,
    mut is_node: impl FnMut(usize) -> bool,
    mut neighbors: impl FnMut(usize, &mut Vec<usize>),
) -> Regions {
    let mut labels = vec![Regions::NONE; len];
    let mut first = Vec::new();
    let mut count = 0u32;
    let mut stack = Vec::new();
    let mut next = Vec::new();
    for s in 0..len {
        if labels[s] != Regions::NONE || !is_node(s) {
            continue;
        }
        labels[s] = count;
        first.push(s as u32);
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
    Regions { labels, count, first }
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
        assert_eq!(r.region(2).map(RegionId::index), Some(0));
        assert_eq!(r.region(4).map(RegionId::index), Some(1));
        assert_eq!(r.region(5), None);
        assert_eq!(r.sizes(), vec![3, 2]);
    }
}
