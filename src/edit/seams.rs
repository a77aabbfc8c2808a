//! The seam rule of painting and re-solving (the tutorial's `deriveMasks`): a seam between
//! two carved cells is open (a door stays a door), unless the shaft rule forbids the step
//! (the walls round the hole above a stair but its exit, and the wall a stair's landing
//! stands against); every other seam (floor against rock, rock against rock) is a wall.
//! Walls therefore appear exactly on floor/rock seams. Generated dungeons follow the rule
//! everywhere; hand edits (`cycle`, `edge`) may leave it, and [`seam_is_derived`] says where.

use crate::dungeon::{Carve, Dungeon, EdgeStateId};
use crate::grid::{EdgeId, Pos};

/// The state the seam `edge` of `level` has under the rule, given the cells and stairs as
/// they are now: its current state when that already carves and the seam may be carved,
/// else `open` or `wall`. `None` when the registry lacks an open or a wall state, or the
/// edge is not one of the dungeon's.
#[must_use]
pub fn derived_state(d: &Dungeon, level: u16, edge: EdgeId) -> Option<EdgeStateId> {
    let reg = d.registry();
    let [(a, dir), (b, _)] = d.dims().edge_sides(edge).ok()?;
    let (pa, pb) = (Pos { level, slot: a }, Pos { level, slot: b });
    let current = d.edge_state_of(level, edge).ok()?;
    let carves = reg.edge_def(current).is_some_and(|e| e.carve != Carve::None);
    if d.is_carved(pa) && d.is_carved(pb) && d.stairs().allows_step(pa, dir, pb) {
        if carves { Some(current) } else { reg.open_edge() }
    } else {
        reg.wall_edge()
    }
}

/// True when the seam `edge` of `level` follows the rule ([`derived_state`]).
#[must_use]
pub fn seam_is_derived(d: &Dungeon, level: u16, edge: EdgeId) -> bool {
    d.edge_state_of(level, edge).ok().is_some_and(|s| derived_state(d, level, edge) == Some(s))
}

/// Every seam of `level` that does not follow the rule, in the grid's edge order.
#[must_use]
pub fn underived_seams(d: &Dungeon, level: u16) -> Vec<EdgeId> {
    d.dims().edges().filter(|&e| !seam_is_derived(d, level, e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};

    #[test]
    fn generated_dungeons_follow_the_rule() {
        for seed in 0..4 {
            let options = GenerateOptions { seed, levels: 3, cols: 9, rows: 7, ..Default::default() };
            let d = generate(&options, &mut |_| {}).unwrap();
            for level in 0..d.levels() {
                assert_eq!(underived_seams(&d, level), [], "seed {seed}, level {level}");
            }
        }
    }

    #[test]
    fn a_wall_between_floors_is_not_derived() {
        let options = GenerateOptions { seed: 1, levels: 1, cols: 6, rows: 6, ..Default::default() };
        let mut d = generate(&options, &mut |_| {}).unwrap();
        let open = d.dims().edges().find(|&e| d.edge_state_of(0, e) == Ok(crate::dungeon::Registry::OPEN));
        let open = open.expect("a generated level has an open seam");
        d.set_edge_of(0, open, crate::dungeon::Registry::WALL).unwrap();
        assert_eq!(underived_seams(&d, 0), [open]);
    }
}
