//! Connectivity repair and loops. Unreachable pockets are repaired, not prevented: every
//! floor region of a level that is not yet joined to the dungeon's main region is joined by
//! carving rock along the cheapest path (Dijkstra, 1000 per long step and 707 per short
//! step through rock), nearest pocket first. Nothing is ever deleted.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::distance::{FAR, floor_distances};
use super::floors::Floors;

/// Joins every floor cell of `level` to the nodes marked in `main` (which must hold at least
/// one node of that level), carving through rock; marks everything joined in `main`.
/// Returns the number of rock cells carved.
pub(crate) fn connect_level(floors: &mut Floors, level: usize, main: &mut [bool]) -> usize {
    let n = floors.cells;
    let base = level * n;
    let mut dist = vec![FAR; n];
    let mut parent = vec![u32::MAX; n];
    let mut heap = BinaryHeap::new();
    for c in 0..n {
        if main[base + c] {
            dist[c] = 0;
            heap.push(Reverse((0u32, c as u32)));
        }
    }
    let mut carved = 0;
    let mut stack = Vec::new();
    while let Some(Reverse((d, u))) = heap.pop() {
        let u = u as usize;
        if d > dist[u] {
            continue;
        }
        if floors.floor[base + u] && !main[base + u] {
            // A pocket: carve the path back to the main region, then take in its whole region.
            let mut x = parent[u];
            while x != u32::MAX && !main[base + x as usize] {
                let xi = x as usize;
                floors.floor[base + xi] = true;
                main[base + xi] = true;
                dist[xi] = 0;
                heap.push(Reverse((0, x)));
                carved += 1;
                x = parent[xi];
            }
            stack.push(u);
            main[base + u] = true;
            while let Some(c) = stack.pop() {
                dist[c] = 0;
                heap.push(Reverse((0, c as u32)));
                let node = base + c;
                let next: Vec<usize> = floors.level_steps(node).map(|(v, _)| v).collect();
                for v in next {
                    if floors.floor[v] && !main[v] {
                        main[v] = true;
                        stack.push(v - base);
                    }
                }
            }
            continue;
        }
        let steps: Vec<(usize, u32)> = floors.level_steps(base + u).collect();
        for (v, c) in steps {
            let vc = v - base;
            if main[v] {
                continue;
            }
            let nd = d + c;
            if nd < dist[vc] {
                dist[vc] = nd;
                parent[vc] = u as u32;
                heap.push(Reverse((nd, vc as u32)));
            }
        }
    }
    carved
}

/// Smallest detour, in thousandths of a long step, that a carved loop must cut short.
pub(crate) const MIN_LOOP_GAIN: u32 = 6000;

/// Carves up to `count` single rock cells on `level` that join two floor cells whose costs
/// from `sources` differ most (so each carve closes the longest cycle it can). Returns the
/// number carved.
pub(crate) fn add_loops(floors: &mut Floors, level: usize, count: u32, sources: &[usize], stair: u32) -> u32 {
    let n = floors.cells;
    let base = level * n;
    let mut made = 0;
    for _ in 0..count {
        let dist = floor_distances(floors, sources, stair);
        let mut best: Option<(u32, usize)> = None;
        for c in 0..n {
            let node = base + c;
            if floors.floor[node] {
                continue;
            }
            let (mut lo, mut hi) = (FAR, 0u32);
            for (v, _) in floors.level_steps(node) {
                if floors.floor[v] && dist[v] != FAR {
                    lo = lo.min(dist[v]);
                    hi = hi.max(dist[v]);
                }
            }
            if lo == FAR {
                continue;
            }
            let gain = hi - lo;
            if gain >= MIN_LOOP_GAIN && best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, node));
            }
        }
        let Some((_, node)) = best else { break };
        floors.floor[node] = true;
        made += 1;
    }
    made
}
