//! A small Dijkstra over the generator's floors: integer costs 1000 per long step, 707 per
//! short step and a stair cost, ties broken by node index. It exists only until generation
//! moves onto `path::DijkstraMap`, which answers the same question on a `Dungeon`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::floors::Floors;
use crate::geometry::Proportions;

/// Unreached.
pub(crate) const FAR: u32 = u32::MAX;

/// Cost of climbing one stair: the level height in thousandths of a long step (one long step
/// is the `2 s` between octagon centres).
#[must_use]
pub(crate) fn stair_cost(proportions: &Proportions) -> u32 {
    let long = 2.0 * proportions.cell_spacing();
    (1000.0 * proportions.layer_height / long).round().max(1.0) as u32
}

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
