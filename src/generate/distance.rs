//! Walking costs over the dungeon being generated, for the loop carver: one call to the
//! crate's one Dijkstra ([`crate::path::search`]) over carved cells and stairs, with the
//! path module's step and stair costs and the dungeon's shaft rule. The exit is chosen on
//! the finished dungeon with `path::DijkstraMap`.

use super::carve::{is_carved, level_steps};
use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::path::search::{Parents, Search};
use crate::path::{node_index, node_pos, stair_cost};

/// Runs `search` from `sources` over every carved cell of every level (steps on a level,
/// stairs up and down); afterwards `search.costs()` holds, per [`node_index`], the cost in
/// thousandths of a long step (`UNREACHED` where not reached).
pub(crate) fn floor_distances(d: &Dungeon, sources: &[Pos], search: &mut Search) {
    let n = d.dims().slot_count();
    let stair = u64::from(stair_cost(d.proportions()));
    let node = |p: Pos| node_index(d, p).expect("invariant: a cell of the dungeon") as u32;
    search.reset(n * usize::from(d.levels()), Parents::Skip);
    for &s in sources.iter().filter(|&&s| is_carved(d, s)) {
        search.start(node(s), 0);
    }
    search.run_to_end(|u| {
        let pos = node_pos(d, u as usize).expect("invariant: node of the dungeon");
        let up = d.is_stair(pos).then(|| (Pos { level: pos.level + 1, ..pos }, stair));
        let down = d.stair_below(pos).map(|below| (below, stair));
        level_steps(d, pos)
            .map(|(p, c)| (p, u64::from(c)))
            .chain(up)
            .chain(down)
            .filter(move |&(p, _)| is_carved(d, p))
            .map(move |(p, c)| (node(p), c))
    });
}
