//! Stair exits during generation. The exit rule has one owner, the dungeon's stair table:
//! the generator asks it which wall it prefers while the level above may still be carved
//! ([`Dungeon::preferred_stair_exit`]), carves that wall's seam and the cell beyond, then
//! seals the shaft (the hole's other walls and the landing's wall below become walls), so
//! [`Dungeon::stair_exit`] reads back the same wall as the hole's only carved one.

use super::carve::{Locked, Seams, carve};
use crate::dungeon::{Dungeon, Registry};
use crate::grid::{Direction, Pos};

/// Chooses and carves the exit of each stair in `feet`, in order, on a dungeon whose seams
/// between carved cells are all open. Returns each stair with its exit (`None` only for an
/// octagon with no neighbour).
/// With `keep`, the cell beyond opens no seam onto a cell carving must leave alone.
pub(crate) fn carve_exits(
    d: &mut Dungeon,
    feet: &[Pos],
    keep: Option<&super::keep::Keep<'_>>,
) -> Vec<(Pos, Option<Direction>)> {
    feet.iter()
        .map(|&foot| {
            let exit = d.preferred_stair_exit(foot);
            if let Some(dir) = exit {
                let top = Pos { level: foot.level + 1, ..foot };
                let beyond = d.dims().neighbor(top.slot, dir).expect("invariant: an octagon's wall");
                let beyond = Pos { slot: beyond.expect("invariant: the exit has a cell beyond"), ..top };
                carve(d, beyond, Seams::All, keep.map_or(Locked::NONE, |k| k.guard(top.level)));
            }
            (foot, exit)
        })
        .collect()
}

/// Closes, for each stair and its exit, every wall of the hole above it but the exit and,
/// on the stair's own level, the wall its landing stands against: afterwards every seam is
/// open exactly between two carved cells where the shaft rule allows it.
pub(crate) fn seal_shafts(d: &mut Dungeon, exits: &[(Pos, Option<Direction>)]) {
    let wall = |d: &mut Dungeon, pos: Pos, dir: Direction| {
        if d.edge_state(pos, dir).is_ok_and(|e| e.is_some()) {
            d.set_edge(pos, dir, Registry::WALL).expect("invariant: a wall with a cell beyond");
        }
    };
    for &(foot, exit) in exits {
        let top = Pos { level: foot.level + 1, ..foot };
        for dir in Direction::ALL.into_iter().filter(|&dir| Some(dir) != exit) {
            wall(d, top, dir);
        }
        wall(d, foot, exit.unwrap_or(Direction::N));
    }
}
