//! The distance flood behind [`super::DijkstraMap`]: Dijkstra towards a set of starts over
//! the graph's reverse arcs, with `u32` distances and a circular array of wide buckets.
//!
//! Every step costs at least [`Step::length`] (the [`StepCosts`] contract), so at least the
//! graph's shortest length. With buckets `2^shift` keys wide, no wider than that, relaxing
//! a node of the lowest bucket can only reach later buckets: every node in the lowest
//! bucket already has its final distance, and the bucket is settled in one pass, in any
//! order, with no priority queue. Distances are unique, so the map does not depend on
//! that order. A step outside the bucket range (cheaper than a bucket, dearer than the
//! window, or a total past `u32`) makes [`flood`] give up; the caller then runs the general
//! [`super::search::Search`].

use super::csr::Csr;
use super::{PathGraph, SHORT_STEP, Step, StepCosts};

/// Distance of a node the flood did not reach.
pub(crate) const FAR: u32 = u32::MAX;

/// Buckets are `2^SHIFT` keys wide: no wider than the cheapest step of a default graph
/// (a short step, 707; a stair, 1426).
const SHIFT: u32 = 9;

/// Buckets in the ring: steps up to `(RING - 1) << SHIFT` (7680) fit its window. (Few
/// buckets, so each is reused often and grows once.)
const RING: usize = 16;

/// Steps must cost at least this (a bucket's width)...
const CHEAPEST: u64 = 1 << SHIFT;

/// ... and less than this, to land in a later bucket of the window.
const DEAREST: u64 = (RING as u64 - 1) << SHIFT;

/// The ring bucket of `key`.
#[inline]
fn bucket(key: u64) -> usize {
    (key >> SHIFT) as usize % RING
}

/// Distances from every node to the nearest start (`starts`: node and its initial cost),
/// stepping over the arcs of `csr` walked backwards (a node's value is what it costs to
/// walk from it to a start), only into nodes `keep` accepts, at the costs `costs` charges.
/// [`FAR`] where not reached; `None` when a start or a step falls outside what the buckets
/// hold (see the module docs).
///
/// # Panics
///
/// When a start is not a node of `graph`.
pub(crate) fn flood<C: StepCosts>(
    graph: &PathGraph,
    csr: &Csr,
    keep: impl Fn(u32) -> bool,
    costs: &C,
    starts: &[(u32, u64)],
) -> Option<Vec<u32>> {
    // Every graph step costs at least its length, so these bound the graph's own costs.
    if u64::from(SHORT_STEP.min(graph.stair_cost())) < CHEAPEST || u64::from(csr.max_cost()) >= DEAREST {
        return None;
    }
    let back = csr.back_arcs()?;
    let mut dist = vec![FAR; graph.node_count()];
    // Starts, lowest last, join the buckets as the window reaches them.
    let mut pending = Vec::with_capacity(starts.len());
    for &(v, cost) in starts {
        let cost = u32::try_from(cost).ok().filter(|&c| c != FAR)?;
        let d = &mut dist[v as usize];
        *d = (*d).min(cost);
        pending.push((cost, v));
    }
    pending.sort_unstable_by(|a, b| b.cmp(a));
    let mut ring: [Vec<(u32, u32)>; RING] = std::array::from_fn(|_| Vec::new());
    let mut queued = 0usize;
    let Some(&(first, _)) = pending.last() else { return Some(dist) };
    // The lowest bucket, counted from key 0 (not wrapped).
    let mut k = u64::from(first) >> SHIFT;
    // The steps that lowered a distance while settling one bucket, `(distance, node)` in
    // `lowered[..count]`; the slots past `count` are spare room, written before it is known
    // whether a step lowers anything (see below).
    let mut lowered: Vec<(u32, u32)> = Vec::new();
    loop {
        while let Some(&(cost, v)) = pending.last().filter(|&&(c, _)| u64::from(c) >> SHIFT < k + RING as u64)
        {
            pending.pop();
            if dist[v as usize] == cost {
                ring[bucket(u64::from(cost))].push((cost, v));
                queued += 1;
            }
        }
        let slot = k as usize % RING;
        let mut items = std::mem::take(&mut ring[slot]);
        queued -= items.len();
        let mut count = 0;
        for &(d, u) in &items {
            if dist[u as usize] != d {
                continue; // lowered since it was queued
            }
            if u64::from(d) >= u64::from(FAR) - DEAREST {
                return None; // a step from here could pass u32
            }
            let arcs = back.row(u);
            if lowered.len() < count + arcs.len() {
                lowered.resize(2 * (count + arcs.len()), (0, 0));
            }
            for &packed in arcs {
                let (to, step_cost) = back.unpack(packed);
                if !keep(to) {
                    continue;
                }
                let Some(cost) = costs.cost(Step::new(graph, to, u, u64::from(step_cost))) else {
                    continue;
                };
                // The graph's own costs were checked on entry (so for them this compiles away).
                if cost != u64::from(step_cost) && cost.wrapping_sub(CHEAPEST) >= DEAREST - CHEAPEST {
                    return None;
                }
                // `d` is below `FAR - DEAREST` and `cost` below `DEAREST`: the sum fits in
                // u32 and is not FAR.
                let total = d + cost as u32;
                let next = &mut dist[to as usize];
                // Whether a step lowers its end is a coin toss on a grid (about half the
                // neighbours are settled), so it is computed, not branched on: the step is
                // written to the next free slot either way and kept by counting it.
                let lower = total < *next;
                *next = (*next).min(total);
                lowered[count] = (total, to);
                count += usize::from(lower);
            }
        }
        // Every step from bucket `k` costs at least a bucket's width and less than the
        // window, so it lands in a later bucket of the ring.
        for &(total, v) in &lowered[..count] {
            ring[bucket(u64::from(total))].push((total, v));
        }
        queued += count;
        items.clear();
        ring[slot] = items;
        if queued == 0 {
            let Some(&(cost, _)) = pending.last() else { return Some(dist) };
            k = u64::from(cost) >> SHIFT;
        } else {
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Pos;
    use crate::path::search::{Parents, Search, UNREACHED};
    use crate::path::{CostChange, Overlay, PathRules, RegistryCosts};

    fn graph() -> PathGraph {
        let mut d = Dungeon::new(9, 7, 2, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 4, 6), Registry::STAIR).unwrap();
        PathGraph::new(&d).unwrap()
    }

    /// The general search over the same reverse steps, as `u32` (FAR where not reached).
    fn reference(g: &PathGraph, keep: impl Fn(u32) -> bool, starts: &[(u32, u64)]) -> Vec<u32> {
        let csr = g.csr(&PathRules::default());
        let mut search = Search::new();
        search.reset(g.node_count(), Parents::Skip);
        for &(v, c) in starts {
            search.start(v, c);
        }
        search.run_to_end(|u| {
            let arcs = csr.row(u).iter().filter(|a| keep(a.to));
            arcs.map(move |a| (a.to, g.reverse_cost(u, a))).collect::<Vec<_>>()
        });
        search.costs().iter().map(|&c| if c == UNREACHED { FAR } else { c as u32 }).collect()
    }

    #[test]
    fn matches_the_general_search_with_starts_past_the_window_and_a_mask() {
        let g = graph();
        let csr = g.csr(&PathRules::default());
        let last = g.node_count() as u32 - 1;
        // A start far past the ring's window, a repeated start, one at the far corner.
        let starts = [(0, 0), (40, 70_000), (last, 3), (40, 100)];
        let got = flood(&g, csr, |_| true, &RegistryCosts, &starts).unwrap();
        assert_eq!(got, reference(&g, |_| true, &starts));
        assert!(got.iter().all(|&d| d != FAR), "one connected floor");
        let keep = |v: u32| v % 7 != 3;
        let got = flood(&g, csr, keep, &RegistryCosts, &starts).unwrap();
        assert_eq!(got, reference(&g, keep, &starts));
        assert!(got.contains(&FAR), "the mask cuts some nodes off");
        assert!(flood(&g, csr, |_| true, &RegistryCosts, &[]).unwrap().iter().all(|&d| d == FAR));
    }

    #[test]
    fn gives_up_on_steps_and_starts_outside_its_range() {
        let g = graph();
        let csr = g.csr(&PathRules::default());
        let mut smoke = Overlay::new();
        smoke.set_cell(Pos::new(0, 0, 2), CostChange::Add(10_000));
        assert_eq!(flood(&g, csr, |_| true, &smoke, &[(0, 0)]), None, "a step dearer than the ring");
        smoke.set_cell(Pos::new(0, 0, 2), CostChange::Add(5_000));
        assert!(flood(&g, csr, |_| true, &smoke, &[(0, 0)]).is_some(), "within the ring");
        assert_eq!(
            flood(&g, csr, |_| true, &RegistryCosts, &[(0, u64::from(FAR))]),
            None,
            "a start past u32"
        );
        let high = u64::from(FAR) - 3000;
        assert_eq!(flood(&g, csr, |_| true, &RegistryCosts, &[(0, high)]), None, "distances would pass u32");
    }
}
