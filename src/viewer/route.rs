//! Where routes come from. Switch to `path::find_path` at merge: this breadth-first search
//! over walkable cells, walkable edges and stairs stands in for the pathing core.

use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::path::{node_index, node_pos};
use crate::walk::{edge_carve, is_stair, stair_exit};

/// The cells from `from` to `to` (both included), fewest steps first, or `None` when `to`
/// cannot be reached. The octagon above a stair is a hole: it is only passed through
/// between the stair and the cell beyond the stair's exit wall.
#[must_use]
pub fn route(dungeon: &Dungeon, from: Pos, to: Pos) -> Option<Vec<Pos>> {
    let walkable = |p: Pos| dungeon.tile_def(p).is_ok_and(|t| t.carved && t.walkable);
    let (start, goal) = (node_index(dungeon, from)?, node_index(dungeon, to)?);
    if !walkable(from) || !walkable(to) {
        return None;
    }
    let n = dungeon.dims().slot_count() * usize::from(dungeon.levels());
    let mut parent = vec![usize::MAX; n];
    parent[start] = start;
    let mut queue = std::collections::VecDeque::from([start]);
    let mut next = Vec::new();
    while let Some(i) = queue.pop_front() {
        if i == goal {
            let mut steps = vec![node_pos(dungeon, i)?];
            let mut j = i;
            while j != start {
                j = parent[j];
                steps.push(node_pos(dungeon, j)?);
            }
            steps.reverse();
            return Some(steps);
        }
        let pos = node_pos(dungeon, i)?;
        successors(dungeon, pos, &mut next);
        for &q in &next {
            let Some(k) = node_index(dungeon, q) else { continue };
            if walkable(q) && parent[k] == usize::MAX {
                parent[k] = i;
                queue.push_back(k);
            }
        }
    }
    None
}

/// Cells one step from `pos` for a walker.
fn successors(dungeon: &Dungeon, pos: Pos, out: &mut Vec<Pos>) {
    out.clear();
    let dims = dungeon.dims();
    let below =
        (pos.level > 0).then(|| Pos { level: pos.level - 1, ..pos }).filter(|&b| is_stair(dungeon, b));
    if let Some(b) = below {
        // The hole above a stair: down the stair, or out through the exit wall.
        out.push(b);
        if let Some(Ok(Some(slot))) = stair_exit(dungeon, b).map(|d| dims.neighbor(pos.slot, d)) {
            out.push(Pos { slot, ..pos });
        }
        return;
    }
    if is_stair(dungeon, pos) && stair_exit(dungeon, pos).is_some() {
        out.push(Pos { level: pos.level + 1, ..pos });
    }
    for &dir in dims.walls(pos.slot).unwrap_or(&[]) {
        if !edge_carve(dungeon, pos, dir).is_some_and(|(_, walkable)| walkable) {
            continue;
        }
        let Ok(Some(slot)) = dims.neighbor(pos.slot, dir) else { continue };
        let q = Pos { slot, ..pos };
        let hole = pos.level > 0 && is_stair(dungeon, Pos { level: pos.level - 1, ..q });
        if hole && stair_exit(dungeon, Pos { level: pos.level - 1, ..q }) != Some(dir.opposite()) {
            continue;
        }
        out.push(q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbs_the_stair_of_two_levels() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let r = route(&d, Pos::new(0, 2, 0), Pos::new(1, 0, 2)).unwrap();
        assert_eq!(r.first(), Some(&Pos::new(0, 2, 0)));
        assert_eq!(r.last(), Some(&Pos::new(1, 0, 2)));
        assert!(r.contains(&Pos::new(0, 2, 4)) && r.contains(&Pos::new(1, 2, 4)));
        assert_eq!(route(&d, Pos::new(0, 2, 0), Pos::new(0, 0, 0)), None, "solid goal");
    }
}
