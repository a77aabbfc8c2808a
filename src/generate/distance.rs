//! Walking costs over the dungeon being generated, for the loop carver: one call to the
//! crate's general Dijkstra ([`crate::path::search`]) over carved cells and stairs, with the
//! path module's step and stair costs and the dungeon's shaft rule. The exit is chosen on
//! the finished dungeon with `path::DijkstraMap`.

use super::floor::Floor;
use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::path::search::{Parents, Search, UNREACHED};
use crate::path::{node_index, stair_cost};

/// Runs `search` from `sources` over every carved cell of every level (steps on a level,
/// stairs up and down), reading the steps and carved cells from `floor` (the dense arrays of
/// `d`); afterwards `search.costs()` holds, per [`node_index`], the cost in thousandths of
/// a long step (`UNREACHED` where not reached).
pub(crate) fn floor_distances(d: &Dungeon, floor: &Floor, sources: &[Pos], search: &mut Search) {
    let n = d.dims().slot_count();
    let node = |p: Pos| node_index(d, p).expect("invariant: a cell of the dungeon") as u32;
    search.reset(n * usize::from(d.levels()), Parents::Skip);
    for &s in sources.iter().filter(|&&s| floor.carved(node(s) as usize)) {
        search.start(node(s), 0);
    }
    settle(d, floor, search);
}

/// Brings `search.costs()`, the costs [`floor_distances`] left, up to date after the nodes
/// `carved` (by [`node_index`]) were carved on `floor` and nothing else changed. Carving
/// only adds steps, so costs only fall, and every route that got cheaper enters a new node
/// from one already reached: each new node is offered at its cheapest step from a reached
/// neighbour (the steps are their own reverses, see [`moves`]), and the search runs on from
/// those. The costs are then those a fresh [`floor_distances`] gives (the search is exact,
/// whatever order it settles in).
pub(crate) fn after_carving(d: &Dungeon, floor: &Floor, carved: &[u32], search: &mut Search) {
    let (n, stair) = (d.dims().slot_count() as u32, u64::from(stair_cost(d.proportions())));
    for &c in carved {
        let costs = search.costs();
        let cheapest = moves(floor, n, stair, c)
            .filter_map(|(v, step)| costs[v as usize].checked_add(step))
            .filter(|&cost| cost != UNREACHED)
            .min();
        if let Some(cost) = cheapest {
            search.start(c, cost);
        }
    }
    settle(d, floor, search);
}

/// Runs `search` to the end over the carved cells and stairs of `floor`.
fn settle(d: &Dungeon, floor: &Floor, search: &mut Search) {
    let (n, stair) = (d.dims().slot_count() as u32, u64::from(stair_cost(d.proportions())));
    search.run_to_end(|u| moves(floor, n, stair, u));
}

/// The steps out of node `u` into carved nodes of `floor` (`n` slots a level), with their
/// costs: the same-level steps the shaft rule allows, and the stair up from a stair's foot
/// or down from the hole above it, at `stair`. Each is its own reverse at the same cost: the
/// shaft rule asks the cells on both sides, a step costs what its wall's kind costs, and a
/// stair joins its foot and its hole both ways.
fn moves(floor: &Floor, n: u32, stair: u64, u: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
    let (level, slot) = ((u / n) as u16, u % n);
    let base = u - slot;
    let (up, down) = floor.lifts(u as usize);
    let up = up.then(|| (u + n, stair));
    let down = down.then(|| (u - n, stair));
    floor
        .steps(level, slot)
        .iter()
        .map(move |&(v, c)| (base + v, u64::from(c)))
        .chain(up)
        .chain(down)
        .filter(move |&(v, _)| floor.carved(v as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::carve::Locked;
    use crate::generate::floor::Near;
    use crate::generate::{GenerateOptions, generate};

    #[test]
    fn costs_after_carving_equal_a_fresh_search() {
        for seed in [1, 2, 3] {
            let options = GenerateOptions { seed, levels: 3, cols: 12, rows: 10, ..Default::default() };
            let mut d = generate(&options, &mut |_| {}).unwrap();
            let near = Near::of(&crate::grid::Walls::of(d.dims()));
            let mut floor = Floor::of(&d, &near);
            let sources = [d.entrance().unwrap()];
            let n = d.dims().slot_count();
            let mut search = Search::new();
            floor_distances(&d, &floor, &sources, &mut search);
            // Carve, one to three at a time, rock cells beside the floor (every tenth found,
            // on every level), as loops do.
            let rock: Vec<u32> = (0..(n * usize::from(d.levels())) as u32)
                .filter(|&v| {
                    let (level, slot) = ((v as usize / n) as u16, v % n as u32);
                    let cell = d.dims().slot_at(slot as usize).unwrap().kind().is_cell();
                    cell && !floor.carved(v as usize)
                        && floor
                            .steps(level, slot)
                            .iter()
                            .any(|&(u, _)| floor.carved(level as usize * n + u as usize))
                })
                .step_by(10)
                .collect();
            assert!(rock.len() > 6, "seed {seed}: rock to carve");
            for batch in rock.chunks(3) {
                for &v in batch {
                    let pos = crate::path::node_pos(&d, v as usize).unwrap();
                    floor.carve(&mut d, pos, v % n as u32, Locked::NONE);
                }
                after_carving(&d, &floor, batch, &mut search);
                let mut fresh = Search::new();
                floor_distances(&d, &floor, &sources, &mut fresh);
                assert_eq!(search.costs(), fresh.costs(), "seed {seed}, after carving {batch:?}");
            }
        }
    }
}
