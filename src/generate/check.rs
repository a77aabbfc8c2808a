//! What every generated dungeon must be (`docs/wfc.md`): one connected region
//! over passable steps and stairs (as `octile info` counts), every stair with an exit onto
//! a walkable cell that is not another hole, the entrance a floor octagon on level 0 and
//! the exit a floor octagon on the last level that is neither a hole nor the entrance.

use crate::dungeon::Dungeon;
use crate::grid::{Pos, SlotKind};
use crate::path::{PathGraph, PathRules};

/// Why `d` is not a dungeon `generate` may return, or `None` when it is one. `graph` is the
/// path graph of `d`: its regions with doors open are `octile info`'s
/// ([`crate::path::dungeon_regions`]). A design's exit (`kept_exit`) may stand on any level.
pub(crate) fn unsound(d: &Dungeon, graph: &PathGraph, kept_exit: bool) -> Option<String> {
    let regions = graph.regions(&PathRules { open_doors: true }).count();
    debug_assert_eq!(regions, crate::path::dungeon_regions(d).count(), "the graph's regions are info's");
    if regions != 1 {
        return Some(format!("{regions} connected regions"));
    }
    for stair in d.stairs().iter() {
        let Some(dir) = stair.exit else {
            return Some(format!("the stair at {} has no exit", stair.foot));
        };
        let top = stair.hole();
        let beyond = d.dims().neighbor(top.slot, dir).ok().flatten().map(|slot| Pos { slot, ..top });
        let usable = beyond.is_some_and(|b| {
            d.tile_def(b).is_ok_and(|t| t.walkable) && d.stair_below(b).is_none() && d.shaft_allows(top, dir)
        });
        if !usable {
            return Some(format!("the stair at {} leads into a hole", stair.foot));
        }
    }
    let floor_octagon =
        |p: Pos| p.slot.kind() == SlotKind::Octagon && d.tile_def(p).is_ok_and(|t| t.walkable);
    let (Some(entrance), Some(exit)) = (d.entrance(), d.exit()) else {
        return Some("no entrance or exit".into());
    };
    if entrance.level != 0 || !floor_octagon(entrance) {
        return Some(format!("the entrance at {entrance} is not a floor octagon on level 0"));
    }
    if (exit.level + 1 != d.levels() && !kept_exit)
        || !floor_octagon(exit)
        || d.stair_below(exit).is_some()
        || exit == entrance
    {
        return Some(format!("no octagon on the last level can hold the exit (the last tried: {exit})"));
    }
    None
}
