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
pub(crate) const MIN_LOOP_GAIN: u32 = 3000;

/// Longest tunnel through rock, in cells, that a loop may carve.
pub(crate) const MAX_TUNNEL: usize = 3;

/// Carves up to `count` short tunnels (at most [`MAX_TUNNEL`] rock cells) on `level`, each
/// joining two floor cells whose costs from `sources` differ most for the rock carved, so
/// each tunnel closes the longest cycle it can. Returns the number carved.
pub(crate) fn add_loops(floors: &mut Floors, level: usize, count: u32, sources: &[usize], stair: u32) -> u32 {
    let n = floors.cells;
    let base = level * n;
    let mut made = 0;
    // Scratch for the bounded searches, reused for every start cell.
    let mut seen = vec![u32::MAX; n];
    let mut parent = vec![u32::MAX; n];
    let mut frontier = Vec::new();
    let mut next = Vec::new();
    let mut tunnel = Vec::new();
    for _ in 0..count {
        let dist = floor_distances(floors, sources, stair);
        // The best gain so far (first found wins ties) and its tunnel's rock cells.
        let mut best: Option<u32> = None;
        for a in 0..n {
            let da = dist[base + a];
            if !floors.floor[base + a] || da == FAR {
                continue;
            }
            frontier.clear();
            seen[a] = a as u32;
            frontier.push(a);
            for depth in 0..MAX_TUNNEL {
                next.clear();
                for &u in &frontier {
                    for (v, _) in floors.level_steps(base + u) {
                        let vc = v - base;
                        if seen[vc] == a as u32 {
                            continue;
                        }
                        seen[vc] = a as u32;
                        if floors.floor[v] {
                            // A floor cell reached through `depth` rock cells (none when u == a).
                            if depth == 0 || dist[v] == FAR || dist[v] <= da {
                                continue;
                            }
                            let cost = depth as u32 * 1000;
                            let gain = (dist[v] - da).saturating_sub(cost);
                            if gain >= MIN_LOOP_GAIN && best.is_none_or(|g| gain > g) {
                                best = Some(gain);
                                tunnel.clear();
                                let mut x = u;
                                while x != a {
                                    tunnel.push(x);
                                    x = parent[x] as usize;
                                }
                            }
                        } else {
                            parent[vc] = u as u32;
                            next.push(vc);
                        }
                    }
                }
                std::mem::swap(&mut frontier, &mut next);
            }
        }
        if best.is_none() {
            break;
        }
        for &c in &tunnel {
            floors.floor[base + c] = true;
        }
        seen.fill(u32::MAX);
        made += 1;
    }
    made
}
