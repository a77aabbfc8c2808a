//! Connectivity of a dungeon: carved, passable cells joined by passable edges and stairs.

use super::build::{Cells, Shafts};
use super::{Regions, label_regions};
use crate::dungeon::Dungeon;
use crate::grid::{Pos, Walls};

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

/// The position of every flat node index in order, `0, 1, ...`: what [`node_pos`] gives
/// node by node, walked level by level and row-major, without its divisions.
pub(crate) fn node_positions(dungeon: &Dungeon) -> impl Iterator<Item = Pos> {
    let dims = dungeon.dims();
    (0..dungeon.levels()).flat_map(move |level| dims.slots().map(move |slot| Pos { level, slot }))
}

/// Regions of passable floor over passable edges and stairs (a stair joins its cell to the
/// same octagon one level up, in both directions), indexed by flat node index
/// ([`node_index`]). The octagon above a stair is the shaft's hole: it joins its level only
/// through the stair's exit (the dungeon's stair table, [`Dungeon::shaft`]). The steps are those of the pathing
/// graph with doors open (the same rule, read by the same code), so the regions are
/// [`super::PathGraph::regions`] of `PathRules { open_doors: true }`, numbered alike.
///
/// # Panics
///
/// Never: only slots that hold a node are expanded, as the `expect` restates.
#[must_use]
pub fn dungeon_regions(dungeon: &Dungeon) -> Regions {
    let cells = Cells::read(dungeon);
    let shafts = Shafts::read(dungeon, &cells);
    let walls = Walls::of(dungeon.dims());
    let mut steps = Vec::new();
    label_regions(
        cells.slot_count(),
        |i| cells.node_of_slot(i).is_some(),
        |i, out| {
            let v = cells.node_of_slot(i).expect("invariant: only nodes are expanded");
            cells.steps_of(dungeon, &walls, &shafts, v, &mut steps);
            out.extend(steps.iter().map(|step| cells.slot_of_node(dungeon, step.to)));
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
    fn node_positions_are_node_pos_of_every_index() {
        let d = Dungeon::new(3, 2, 3, Proportions::default(), Fill::Solid).unwrap();
        let walked: Vec<Pos> = node_positions(&d).collect();
        let len = usize::from(d.levels()) * d.dims().slot_count();
        assert_eq!(walked.len(), len);
        for (i, &pos) in walked.iter().enumerate() {
            assert_eq!(Some(pos), node_pos(&d, i), "node {i}");
        }
    }

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
        // The stair now leaves west on level 1, and its landing stands against the west wall
        // on level 0, so the door there is blocked: level 0's west cell is on its own.
        assert_eq!(d.stair_exit(Pos::new(0, 0, 2)), Some(Direction::W));
        let r = dungeon_regions(&d);
        assert_eq!(r.count(), 2);
        let region = |p: Pos| r.region(node_index(&d, p).unwrap());
        assert_eq!(region(Pos::new(1, 0, 0)), region(Pos::new(0, 0, 2)));
    }

    #[test]
    fn the_hole_above_a_stair_joins_only_through_its_exit() {
        // Level 1 is a corridor W - hole - E; the stair's exit is east (the first cardinal
        // clockwise from north open above and closed below), so west is cut off.
        let mut d = Dungeon::new(3, 1, 2, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 0, 2), Registry::STAIR).unwrap();
        for dir in [Direction::E, Direction::W] {
            d.set_edge(Pos::new(0, 0, 2), dir, Registry::WALL).unwrap();
        }
        assert_eq!(d.stair_exit(Pos::new(0, 0, 2)), Some(Direction::E));
        let r = dungeon_regions(&d);
        let region = |p: Pos| r.region(node_index(&d, p).unwrap());
        assert_eq!(region(Pos::new(1, 0, 4)), region(Pos::new(0, 0, 2)), "through the exit");
        assert_ne!(region(Pos::new(1, 0, 0)), region(Pos::new(1, 0, 2)), "not past the hole");
        assert_eq!(r.count(), 4, "level 0 west, level 0 east, the stair with level 1 east, level 1 west");
    }
}
