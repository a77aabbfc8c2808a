//! Walking costs over the dungeon being generated, for the loop carver: one call to the
//! crate's one Dijkstra ([`crate::path::search`]) over carved cells and stairs, with the
//! path module's step and stair costs and the dungeon's shaft rule. The exit is chosen on
//! the finished dungeon with `path::DijkstraMap`.

use super::floor::Floor;
use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::path::search::{Parents, Search};
use crate::path::{node_index, stair_cost};

/// Runs `search` from `sources` over every carved cell of every level (steps on a level,
/// stairs up and down), reading the steps and carved cells from `floor` (the dense arrays of
/// `d`); afterwards `search.costs()` holds, per [`node_index`], the cost in thousandths of
/// a long step (`UNREACHED` where not reached).
pub(crate) fn floor_distances(d: &Dungeon, floor: &Floor, sources: &[Pos], search: &mut Search) {
    let n = d.dims().slot_count();
    let stair = u64::from(stair_cost(d.proportions()));
    let node = |p: Pos| node_index(d, p).expect("invariant: a cell of the dungeon") as u32;
    search.reset(n * usize::from(d.levels()), Parents::Skip);
    for &s in sources.iter().filter(|&&s| floor.carved(node(s) as usize)) {
        search.start(node(s), 0);
    }
    search.run_to_end(|u| {
        let (level, slot) = ((u as usize / n) as u16, u % n as u32);
        let base = u - slot;
        let (up, down) = floor.lifts(u as usize);
        let up = up.then(|| (u + n as u32, stair));
        let down = down.then(|| (u - n as u32, stair));
        floor
            .steps(level, slot)
            .iter()
            .map(move |&(v, c)| (base + v, u64::from(c)))
            .chain(up)
            .chain(down)
            .filter(move |&(v, _)| floor.carved(v as usize))
    });
}
