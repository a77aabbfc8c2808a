//! A small Dijkstra over the generator's floors: integer costs 1000 per long step, 707 per
//! short step and the pathing core's stair cost, ties broken by node index, the shaft rule
//! kept (see `Floors::level_steps`). Only the loop carver uses it: it runs on the working
//! floors, before a `Dungeon` exists, and after every tunnel. The exit is chosen on the
//! finished dungeon with `path::DijkstraMap`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::floors::Floors;

/// Unreached.
pub(crate) const FAR: u32 = u32::MAX;

/// Costs from `sources` to every floor node of every level (FAR where unreached), walking
/// floor cells, and stairs in both directions.
pub(crate) fn floor_distances(floors: &Floors, sources: &[usize], stair: u32) -> Vec<u32> {
    let n = floors.cells;
    let mut dist = vec![FAR; floors.floor.len()];
    let mut heap = BinaryHeap::new();
    for &s in sources {
        if floors.floor[s] {
            dist[s] = 0;
            heap.push(Reverse((0u32, s)));
        }
    }
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        let up = (floors.stair[u] && u + n < dist.len()).then(|| (u + n, stair));
        let down = (u >= n && floors.stair[u - n]).then(|| (u - n, stair));
        for (v, c) in floors.level_steps(u).chain(up).chain(down) {
            if floors.floor[v] && d + c < dist[v] {
                dist[v] = d + c;
                heap.push(Reverse((d + c, v)));
            }
        }
    }
    dist
}
