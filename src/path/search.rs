//! The crate's general Dijkstra, in the shape of the `pathfinding` crate's `run_dijkstra`:
//! the search never knows how a graph is stored. It takes dense `u32` node indices, integer
//! `u64` costs, caller-supplied starts with their own initial costs, a successors closure
//! and a visit rule that may stop it. Landmark distances and the generator's "carve the
//! cheapest way through rock" are calls to [`Search::run`]; distance maps are too when the
//! bucket flood of `flood.rs` (a Dijkstra specialised to small integer steps, same values)
//! gives up.
//!
//! Order, fixed on every platform: nodes settle in increasing cost. When parents are
//! recorded ([`Parents::Record`]), among equal costs the lowest node index first (the order
//! of a `BinaryHeap<Reverse<(cost, node)>>` with lazy deletion); a node's cost is lowered
//! only by a strictly cheaper step, so its parent is the first settled node that reached it
//! at its final cost. With [`Parents::Skip`] the costs are all there is to read, and they
//! do not depend on the order among equal costs, so those settle newest first, from a
//! bucket queue (one bucket per cost in a window above the floor) instead of a radix heap
//! with a heap of nodes per key.
//!
//! The scratch (costs, parents, queue) is kept between searches: [`Search::reset`] reuses
//! it, so repeated searches on one graph allocate nothing.

use std::ops::ControlFlow;

use super::queue::{BucketQueue, RadixHeap};

/// Cost of a node the search has not reached.
pub(crate) const UNREACHED: u64 = u64::MAX;

/// Parent of a node that has none (a start, or not reached, or parents not recorded).
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Whether a search records, per node, the node it was reached from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parents {
    /// Record parents, for [`Search::parent`].
    Record,
    /// Costs only.
    Skip,
}

/// A Dijkstra search over nodes `0..n` with reusable scratch.
#[derive(Debug, Clone)]
pub(crate) struct Search {
    cost: Vec<u64>,
    parent: Vec<u32>,
    parents: Parents,
    /// The queue of [`Parents::Record`] searches (lowest node first among equal costs).
    heap: RadixHeap,
    /// The queue of [`Parents::Skip`] searches.
    buckets: BucketQueue,
}

impl Default for Search {
    fn default() -> Self {
        Search::new()
    }
}

impl Search {
    /// A search with empty scratch; call [`Search::reset`] before the first use.
    pub(crate) fn new() -> Search {
        Search {
            cost: Vec::new(),
            parent: Vec::new(),
            parents: Parents::Skip,
            heap: RadixHeap::new(),
            buckets: BucketQueue::default(),
        }
    }

    /// Prepares a search over `nodes` nodes: every cost [`UNREACHED`], no parents, nothing
    /// queued, ties ordered as the module docs say for `parents`. Reuses the buffers of
    /// earlier searches.
    pub(crate) fn reset(&mut self, nodes: usize, parents: Parents) {
        self.cost.clear();
        self.cost.resize(nodes, UNREACHED);
        self.parent.clear();
        if parents == Parents::Record {
            self.parent.resize(nodes, NO_PARENT);
        }
        self.parents = parents;
        self.heap.clear();
        self.buckets.clear();
    }

    /// Offers `node` as a start at `cost`: when that is cheaper than its cost so far, the
    /// node takes it, loses its parent and is queued. May be called between runs, also
    /// with a cost below what the search has already settled (the queue re-sorts, in time
    /// linear in its length); a later [`Search::run`] then continues from there.
    ///
    /// # Panics
    ///
    /// When `node` is not below the `nodes` given to [`Search::reset`], or `cost` is
    /// [`UNREACHED`].
    pub(crate) fn start(&mut self, node: u32, cost: u64) {
        assert!(cost != UNREACHED, "invariant: a start cost is below UNREACHED");
        let v = node as usize;
        if cost < self.cost[v] {
            self.cost[v] = cost;
            if self.parents == Parents::Record {
                self.parent[v] = NO_PARENT;
            }
            self.push(cost, node);
        }
    }

    #[inline]
    fn push(&mut self, cost: u64, node: u32) {
        match self.parents {
            Parents::Record => self.heap.push(cost, node),
            Parents::Skip => self.buckets.push(cost, node),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        match self.parents {
            Parents::Record => self.heap.pop(),
            Parents::Skip => self.buckets.pop(),
        }
    }

    /// Settles nodes in order (see the module docs) until the queue is empty or `visit`
    /// breaks. `visit(node, cost)` is called once per settled node, before its successors
    /// are expanded; on `Break(b)` the search stops with that node settled but not
    /// expanded and returns `Some(b)`, and a later `run` resumes where it stopped.
    /// `successors(node)` lists the steps out of `node` as `(to, step cost)`; a step whose
    /// total would reach [`UNREACHED`] is dropped.
    ///
    /// # Panics
    ///
    /// When a successor is not below the `nodes` given to [`Search::reset`].
    pub(crate) fn run<S, I, V, B>(&mut self, mut successors: S, mut visit: V) -> Option<B>
    where
        S: FnMut(u32) -> I,
        I: IntoIterator<Item = (u32, u64)>,
        V: FnMut(u32, u64) -> ControlFlow<B>,
    {
        while let Some((d, u)) = self.pop() {
            if d != self.cost[u as usize] {
                continue; // stale: lowered since it was queued
            }
            if let ControlFlow::Break(b) = visit(u, d) {
                return Some(b);
            }
            for (v, step) in successors(u) {
                let Some(nd) = d.checked_add(step).filter(|&x| x != UNREACHED) else { continue };
                if nd < self.cost[v as usize] {
                    self.cost[v as usize] = nd;
                    if self.parents == Parents::Record {
                        self.parent[v as usize] = u;
                    }
                    self.push(nd, v);
                }
            }
        }
        None
    }

    /// [`Search::run`] with no stop rule: settles everything reachable.
    pub(crate) fn run_to_end<S, I>(&mut self, successors: S)
    where
        S: FnMut(u32) -> I,
        I: IntoIterator<Item = (u32, u64)>,
    {
        self.run(successors, |_, _| ControlFlow::<()>::Continue(()));
    }

    /// The cost of every node so far ([`UNREACHED`] where not reached), indexed by node.
    pub(crate) fn costs(&self) -> &[u64] {
        &self.cost
    }

    /// The node `node` was reached from; `None` for a start, an unreached node, or when
    /// parents are not recorded.
    pub(crate) fn parent(&self, node: u32) -> Option<u32> {
        self.parent.get(node as usize).copied().filter(|&p| p != NO_PARENT)
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use super::*;

    /// `node`, its parent, that node's parent, ..., back to a start.
    fn path_to(search: &Search, node: u32) -> Vec<u32> {
        std::iter::successors(Some(node), |&v| search.parent(v)).collect()
    }

    /// The cost of `node`, `None` when not reached.
    fn cost(search: &Search, node: u32) -> Option<u64> {
        Some(search.costs()[node as usize]).filter(|&c| c != UNREACHED)
    }

    /// A small deterministic pseudo-random graph: `n` nodes, about `degree` arcs each,
    /// costs 0..max (zero-cost arcs included to exercise ties at the floor).
    fn graph(n: u32, degree: u32, max: u64, seed: u64) -> Vec<Vec<(u32, u64)>> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| (0..degree).map(|_| ((next() % u64::from(n)) as u32, next() % max)).collect())
            .collect()
    }

    /// Reference costs: Bellman-Ford relaxation to a fixed point.
    fn bellman_ford(g: &[Vec<(u32, u64)>], starts: &[(u32, u64)]) -> Vec<u64> {
        let mut cost = vec![UNREACHED; g.len()];
        for &(s, c) in starts {
            cost[s as usize] = cost[s as usize].min(c);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for u in 0..g.len() {
                if cost[u] == UNREACHED {
                    continue;
                }
                for &(v, c) in &g[u] {
                    if cost[u] + c < cost[v as usize] {
                        cost[v as usize] = cost[u] + c;
                        changed = true;
                    }
                }
            }
        }
        cost
    }

    /// Reference order and parents: the textbook `BinaryHeap<Reverse<(cost, node)>>`
    /// Dijkstra with lazy deletion and strict improvement.
    fn binary_heap_dijkstra(g: &[Vec<(u32, u64)>], starts: &[(u32, u64)]) -> (Vec<u32>, Vec<u32>) {
        let mut cost = vec![UNREACHED; g.len()];
        let mut parent = vec![NO_PARENT; g.len()];
        let mut heap = BinaryHeap::new();
        for &(s, c) in starts {
            if c < cost[s as usize] {
                cost[s as usize] = c;
                heap.push(Reverse((c, s)));
            }
        }
        let mut order = Vec::new();
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > cost[u as usize] {
                continue;
            }
            order.push(u);
            for &(v, c) in &g[u as usize] {
                if d + c < cost[v as usize] {
                    cost[v as usize] = d + c;
                    parent[v as usize] = u;
                    heap.push(Reverse((d + c, v)));
                }
            }
        }
        (order, parent)
    }

    #[test]
    fn costs_order_and_parents_match_plain_references() {
        let mut search = Search::new();
        for seed in 1..60 {
            // Zero-cost arcs (max 3 gives many) exercise pushes at the floor and ties.
            let g = graph(60, 3, if seed % 2 == 0 { 3 } else { 20 }, seed);
            let starts = [(seed as u32 % 60, 5), ((seed as u32 * 7) % 60, 0), (seed as u32 % 60, 2)];
            search.reset(g.len(), Parents::Record);
            for &(s, c) in &starts {
                search.start(s, c);
            }
            let mut order = Vec::new();
            search.run_to_end(|u| {
                order.push(u);
                g[u as usize].iter().copied()
            });
            let want = bellman_ford(&g, &starts);
            assert_eq!(search.costs(), &want[..], "seed {seed}");
            let (expected_order, expected_parent) = binary_heap_dijkstra(&g, &starts);
            assert_eq!(order, expected_order, "seed {seed}");
            for v in 0..g.len() as u32 {
                let expected = Some(expected_parent[v as usize]).filter(|&p| p != NO_PARENT);
                assert_eq!(search.parent(v), expected, "seed {seed}: parent of {v}");
                let path = path_to(&search, v);
                assert_eq!(path[0], v);
                let cost = |u: u32| cost(&search, u);
                assert!(path.windows(2).all(|w| cost(w[1]) <= cost(w[0])), "seed {seed}");
            }
            // Costs only: the other tie order, the same costs.
            search.reset(g.len(), Parents::Skip);
            for &(s, c) in &starts {
                search.start(s, c);
            }
            search.run_to_end(|u| g[u as usize].iter().copied());
            assert_eq!(search.costs(), &want[..], "seed {seed}, costs only");
        }
    }

    #[test]
    fn visit_stops_and_resumes_and_starts_below_the_floor() {
        // A line 0 - 1 - 2 - 3 - 4, each step 10.
        let line = |u: u32| {
            [u.checked_sub(1), Some(u + 1).filter(|&v| v < 5)].into_iter().flatten().map(|v| (v, 10))
        };
        let mut search = Search::new();
        search.reset(5, Parents::Record);
        search.start(0, 0);
        let stopped =
            search.run(line, |v, c| if v == 3 { ControlFlow::Break(c) } else { ControlFlow::Continue(()) });
        assert_eq!(stopped, Some(30));
        assert_eq!(cost(&search, 4), None, "3 settled but not expanded");
        assert_eq!(path_to(&search, 3), [3, 2, 1, 0]);
        // Re-seed at 4 with cost 0 (below the settled 30) and finish.
        search.start(4, 0);
        search.run_to_end(line);
        assert_eq!(search.costs(), &[0, 10, 20, 10, 0]);
        assert_eq!(search.parent(3), Some(4));
        assert_eq!(search.parent(4), None);
        // Without parents, and reused: nothing from the last search survives.
        search.reset(5, Parents::Skip);
        search.start(2, 7);
        search.run_to_end(line);
        assert_eq!(search.costs(), &[27, 17, 7, 17, 27]);
        assert_eq!(path_to(&search, 0), [0]);
    }

    #[test]
    fn overflowing_steps_are_dropped() {
        let mut search = Search::new();
        search.reset(3, Parents::Skip);
        search.start(0, UNREACHED - 5);
        search.run_to_end(|u| match u {
            0 => vec![(1, 4), (2, 5)],
            _ => vec![],
        });
        assert_eq!(cost(&search, 1), Some(UNREACHED - 1));
        assert_eq!(cost(&search, 2), None);
    }
}
