//! Carving on the dungeon being generated. Generation works on the `Dungeon` itself: a cell
//! is floor when its tile is carved, the shaft rule is the dungeon's own
//! ([`Dungeon::shaft_allows`], read from its stair table), and step costs are the path
//! module's ([`LONG_STEP`], [`SHORT_STEP`]).

use crate::dungeon::{Dungeon, Registry};
use crate::grid::{Dims, Direction, Pos, Slot};
use crate::path::{LONG_STEP, SHORT_STEP};

/// Which seams [`carve`] opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seams {
    /// Every seam to a carved neighbour (before the stairs' shafts are sealed).
    All,
    /// Only those the shaft rule allows (once the shafts are sealed).
    ShaftRule,
}

/// The cost of a step through wall `dir`, in thousandths of a long step.
pub(crate) fn step_cost(dir: Direction) -> u32 {
    if dir.is_diagonal() { SHORT_STEP } else { LONG_STEP }
}

/// The cells next to the cell at `pos` on its level, with the wall each lies beyond, walls
/// in clockwise order from north ([`crate::grid::Dims::walls`] in that order).
pub(crate) fn neighbours(d: &Dungeon, pos: Pos) -> impl Iterator<Item = (Direction, Pos)> + '_ {
    grid_neighbours(d.dims(), pos.slot).map(move |(dir, slot)| (dir, Pos { slot, ..pos }))
}

/// [`neighbours`] of the cell `slot` of a grid `dims` (the same on every level).
pub(crate) fn grid_neighbours(dims: Dims, slot: Slot) -> impl Iterator<Item = (Direction, Slot)> {
    let walls = dims.walls(slot).expect("invariant: generation works on cells");
    Direction::ALL
        .into_iter()
        .filter(move |dir| walls.contains(dir))
        .filter_map(move |dir| Some((dir, dims.neighbor(slot, dir).ok()??)))
}

/// Cells generation must leave as they are, tiles and edges (pins: `octile generate --keep`
/// and re-solving), per slot index of one level ([`crate::grid::Dims::index`]). Empty: none.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Locked<'a>(pub(crate) &'a [bool]);

impl Locked<'_> {
    /// Nothing locked.
    pub(crate) const NONE: Locked<'static> = Locked(&[]);

    /// True when the slot with index `i` is locked.
    pub(crate) fn at(self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }

    /// True when the cell at `pos` (on the level this lock is for) is locked.
    pub(crate) fn pos(self, d: &Dungeon, pos: Pos) -> bool {
        !self.0.is_empty() && d.dims().index(pos.slot).is_ok_and(|i| self.at(i))
    }
}

/// Carves the cell at `pos` into plain floor when it is rock, and opens its seams to carved
/// neighbours (`seams` says which) that are not `locked`. Does nothing to a cell already
/// carved.
pub(crate) fn carve(d: &mut Dungeon, pos: Pos, seams: Seams, locked: Locked<'_>) {
    if d.is_carved(pos) {
        return;
    }
    d.set_tile(pos, Registry::FLOOR).expect("invariant: generation carves cells of its dungeon");
    let open: Vec<Direction> = neighbours(d, pos)
        .filter(|&(dir, p)| d.is_carved(p) && (seams == Seams::All || d.shaft_allows(pos, dir)))
        .filter(|&(_, p)| !locked.pos(d, p))
        .map(|(dir, _)| dir)
        .collect();
    for dir in open {
        d.set_edge(pos, dir, Registry::OPEN).expect("invariant: a wall with a cell beyond");
    }
}

/// Fills the cell at `pos` back with rock and closes its seams (a pocket that cannot be
/// joined to the dungeon).
pub(crate) fn fill(d: &mut Dungeon, pos: Pos) {
    let walls: Vec<Direction> = neighbours(d, pos).map(|(dir, _)| dir).collect();
    for dir in walls {
        d.set_edge(pos, dir, Registry::WALL).expect("invariant: a wall with a cell beyond");
    }
    d.set_tile(pos, Registry::SOLID).expect("invariant: generation fills cells of its dungeon");
}
