//! Connectivity repair for edits: joins a level's floor to the dungeon's main region with
//! the generator's own carving ([`super::connect`]), leaving locked (pinned) cells alone.

use super::carve::Locked;
use super::connect::{connect_level, fill_pockets};
use crate::dungeon::Dungeon;
use crate::path::dungeon_regions;
use crate::path::search::Search;

/// Joins every floor cell of `level` that can be joined to the main region: the entrance's
/// region when it has a cell on `level`, else the largest region with a cell there (the
/// first of equals). Carves through rock, never into, out of or beside a `guard` cell. Then
/// fills back with rock the floor cells that could not be joined and that `fillable`
/// accepts (per slot index of the level; a filled cell's edges all become walls). Returns
/// the number of rock cells carved (0 when the level has no floor).
pub(crate) fn join_level(d: &mut Dungeon, level: u16, guard: Locked<'_>, fillable: &[bool]) -> usize {
    let regions = dungeon_regions(d);
    let n = d.dims().slot_count();
    let on_level = usize::from(level) * n..usize::from(level + 1) * n;
    let mut sizes = vec![0usize; regions.count()];
    for i in on_level.clone() {
        if let Some(r) = regions.region(i) {
            sizes[r.index()] += 1;
        }
    }
    let entrance = d.entrance().and_then(|p| crate::path::node_index(d, p)).and_then(|i| regions.region(i));
    let main = entrance.map(|r| r.index()).filter(|&r| sizes[r] > 0).or_else(|| {
        (0..sizes.len()).filter(|&r| sizes[r] > 0).max_by_key(|&r| (sizes[r], std::cmp::Reverse(r)))
    });
    let Some(main) = main else { return 0 };
    let mut marks: Vec<bool> = (0..n * usize::from(d.levels()))
        .map(|i| regions.region(i).is_some_and(|r| r.index() == main))
        .collect();
    let carved = connect_level(d, level, &mut marks, &mut Search::new(), guard);
    let keep: Vec<bool> = fillable.iter().map(|&f| !f).collect();
    // Only cells `fillable` accepts are filled, and a stair never is (it is never fillable).
    let _ = fill_pockets(d, level, &marks, Locked(&keep));
    carved
}
