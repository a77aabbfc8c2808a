//! Connectivity of a dungeon: carved, passable cells joined by passable edges and stairs.

use super::{Regions, label_regions};
use crate::dungeon::Dungeon;
use crate::grid::Pos;

/// The flat node index of `pos`: `level * slot_count + row * cols + col`.
#[must_use]
pub fn node_index(dungeon: &Dungeon, pos: Pos) -> Option<usize> {
    let dims = dungeon.dims();
    if pos.level >= dungeon.levels() {
        return None;
    }
    dims.index(pos.slot).ok().map(|i| usize::from(pos.level) * dims.slot_count() + i)
}

/// The position of flat node index `i`.
#[must_use]
pub fn node_pos(dungeon: &Dungeon, i: usize) -> Option<Pos> {
    let n = dungeon.dims().slot_count();
    let level = u16::try_from(i / n).ok().filter(|l| *l < dungeon.levels())?;
    dungeon.dims().slot_at(i % n).map(|slot| Pos { level, slot })
}

/// Regions of passable floor over passable edges and stairs (a stair joins its cell to the
/// same octagon one level up, in both directions).
#[must_use]
pub fn dungeon_regions(dungeon: &Dungeon) -> Regions {
    let dims = dungeon.dims();
    let n = dims.slot_count();
    let reg = dungeon.registry();
    let passable_cell = |pos: Pos| dungeon.tile_def(pos).is_ok_and(|d| d.carved && d.passable);
    let is_stair = |pos: Pos| dungeon.tile_def(pos).is_ok_and(|d| d.stair);
    label_regions(
        n * usize::from(dungeon.levels()),
        |i| node_pos(dungeon, i).is_some_and(|p| p.slot.kind().is_cell() && passable_cell(p)),
        |i, out| {
            let pos = node_pos(dungeon, i).expect("invariant: node index in range");
            for &dir in dims.walls(pos.slot).expect("invariant: nodes are cells") {
                let Ok(Some(state)) = dungeon.edge_state(pos, dir) else { continue };
                if !reg.edge_def(state).is_some_and(|e| e.passable) {
                    continue;
                }
                if let Ok(Some(slot)) = dims.neighbor(pos.slot, dir) {
                    out.push(usize::from(pos.level) * n + dims.index(slot).expect("invariant"));
                }
            }
            if is_stair(pos) && pos.level + 1 < dungeon.levels() {
                out.push(i + n);
            }
            if pos.level > 0 && is_stair(Pos { level: pos.level - 1, ..pos }) {
                out.push(i - n);
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn stairs_join_levels_and_walls_split() {
        let mut d = Dungeon::new(2, 1, 2, Proportions::default(), Fill::Solid).unwrap();
        for l in 0..2 {
            d.set_tile(Pos::new(l, 0, 0), Registry::FLOOR).unwrap();
            d.set_tile(Pos::new(l, 0, 2), Registry::FLOOR).unwrap();
        }
        assert_eq!(dungeon_regions(&d).count(), 4);
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        assert_eq!(dungeon_regions(&d).count(), 3, "a closed door is passable");
        d.set_tile(Pos::new(0, 0, 2), Registry::STAIR).unwrap();
        assert_eq!(dungeon_regions(&d).count(), 2);
        d.set_edge(Pos::new(1, 0, 0), Direction::E, Registry::OPEN).unwrap();
        assert_eq!(dungeon_regions(&d).count(), 1);
    }
}
