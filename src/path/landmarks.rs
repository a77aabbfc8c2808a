//! Landmarks for the ALT heuristic: exact distances from a few chosen nodes give, by the
//! triangle inequality, a lower bound `|d(L, t) - d(L, v)|` on the cost from `v` to `t`.
//!
//! Distances are measured on the passable graph (doors open) with crossing costs only
//! (no tile move costs), which is symmetric and never dearer than any search's graph, so
//! the bound stays admissible and consistent for every [`super::PathRules`]. Stairs make
//! the bound much tighter than octile distance when the route must detour to a stair.

use super::PathGraph;
use super::search::{Parents, Search, UNREACHED};

const INF: u32 = u32::MAX;

/// Distances from each landmark to every node, interleaved per node.
#[derive(Debug, Clone)]
pub(crate) struct Landmarks {
    count: usize,
    dist: Vec<u32>,
}

impl Landmarks {
    /// Most landmarks a graph may use.
    pub(crate) const MAX: usize = 16;

    /// Chooses up to `count` landmarks by farthest-point selection in the largest passable
    /// region. `None` when there is nothing to choose or a distance does not fit in `u32`.
    pub(crate) fn build(graph: &PathGraph, count: usize) -> Option<Landmarks> {
        let n = graph.node_count();
        let sizes = graph.regions(&super::PathRules { open_doors: true }).sizes();
        let largest = (0..sizes.len()).max_by_key(|&r| (sizes[r], std::cmp::Reverse(r)))?;
        let regions = graph.regions(&super::PathRules { open_doors: true });
        let seed = (0..n).find(|&v| regions.region(v).is_some_and(|r| r.index() == largest))?;
        let mut search = Search::new();
        distances(graph, seed as u32, &mut search);
        let mut near = search.costs().to_vec(); // distance to the nearest landmark so far (seed first)
        let mut rows: Vec<Vec<u64>> = Vec::new();
        while rows.len() < count {
            let Some(far) = farthest(&near) else { break };
            distances(graph, far as u32, &mut search);
            let dist = search.costs();
            if rows.is_empty() {
                near.fill(UNREACHED);
            }
            for (m, &d) in near.iter_mut().zip(dist) {
                *m = (*m).min(d);
            }
            rows.push(dist.to_vec());
        }
        let k = rows.len();
        if k == 0 {
            return None;
        }
        let mut packed = vec![INF; n * k];
        for (j, row) in rows.iter().enumerate() {
            for (v, &d) in row.iter().enumerate() {
                if d != UNREACHED {
                    packed[v * k + j] = u32::try_from(d).ok().filter(|&d| d != INF)?;
                }
            }
        }
        Some(Landmarks { count: k, dist: packed })
    }

    /// Number of landmarks.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The distances of node `v` to every landmark, padded with `INF` to [`Self::MAX`].
    pub(crate) fn row(&self, v: u32) -> [u32; Self::MAX] {
        let mut out = [INF; Self::MAX];
        let k = self.count;
        out[..k].copy_from_slice(&self.dist[v as usize * k..v as usize * k + k]);
        out
    }

    /// The landmark lower bound from `v` to the target whose row is `target`.
    #[inline]
    pub(crate) fn bound(&self, v: u32, target: &[u32; Self::MAX]) -> u64 {
        let k = self.count;
        let row = &self.dist[v as usize * k..v as usize * k + k];
        let mut best = 0u32;
        for (&a, &b) in row.iter().zip(target) {
            if a != INF && b != INF {
                best = best.max(a.abs_diff(b));
            }
        }
        u64::from(best)
    }
}

/// The reached node farthest from the landmarks so far (lowest id on ties); `None` when
/// every reached node is already a landmark.
fn farthest(near: &[u64]) -> Option<usize> {
    let mut best: Option<(u64, usize)> = None;
    for (v, &d) in near.iter().enumerate() {
        if d != UNREACHED && d > 0 && best.is_none_or(|(b, _)| d > b) {
            best = Some((d, v));
        }
    }
    best.map(|(_, v)| v)
}

/// Dijkstra over the passable graph with crossing costs, from `source`, into `search`.
fn distances(graph: &PathGraph, source: u32, search: &mut Search) {
    search.reset(graph.node_count(), Parents::Skip);
    search.start(source, 0);
    let csr = graph.pass_csr();
    search.run_to_end(|v| csr.row(v).iter().map(|a| (a.to, graph.cross_cost(a))));
}
