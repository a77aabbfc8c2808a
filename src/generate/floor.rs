//! The dungeon being connected, as dense arrays the repair, loop and distance searches read
//! many times: per cell of every level, the same-level steps the shaft rule allows (with
//! their costs, walls clockwise from north, as `carve::neighbours` lists them), whether the cell
//! is carved, and whether a stair leads up or down from it.
//!
//! The steps depend only on the grid and the stair table, which repairs and loops do not
//! change (they carve rock next to holes only through the exit the stairs already have, and
//! never fill a stair), so they are read once per layout; carving and filling go through
//! [`Floor::carve`] and [`Floor::fill`], which keep the carved flags current. A debug build
//! checks both against the dungeon after every layout ([`Floor::assert_current`]).

#[cfg(feature = "export")]
use super::carve::neighbours;
use super::carve::{Locked, Seams, carve, fill, step_cost};
use crate::dungeon::Dungeon;
use crate::dungeon::Shaft;
use crate::grid::{Pos, Wall, Walls};

/// A stair stands on the cell (a step up to the same octagon one level higher).
const UP: u8 = 1;
/// The cell is the hole above a stair (a step down to the same octagon one level lower).
const DOWN: u8 = 2;

/// Steps, carved flags and stair links per node (`level * slots + slot index`, as
/// [`crate::path::node_index`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Floor {
    /// Slots per level.
    slots: usize,
    /// Per node, where its steps start in `to` (one more entry at the end).
    start: Vec<u32>,
    /// Steps as (slot index on the same level, cost in thousandths of a long step).
    to: Vec<(u32, u32)>,
    carved: Vec<bool>,
    /// Per node, [`UP`] and [`DOWN`].
    lift: Vec<u8>,
}

impl Floor {
    /// Reads every level of `d`, whose grid's neighbours are `near`.
    pub(crate) fn of(d: &Dungeon, near: &Near) -> Floor {
        Floor::of_levels(d, near, 0..d.levels())
    }

    /// Reads the levels `levels` of `d`, whose grid's neighbours are `near` (nodes of other levels have no steps and are not
    /// carved).
    pub(crate) fn of_levels(d: &Dungeon, near: &Near, levels: std::ops::Range<u16>) -> Floor {
        let dims = d.dims();
        let slots = dims.slot_count();
        let nodes = slots * usize::from(d.levels());
        let mut floor = Floor {
            slots,
            start: Vec::with_capacity(nodes + 1),
            to: Vec::with_capacity(nodes * 4),
            carved: vec![false; nodes],
            lift: vec![0; nodes],
        };
        floor.start.push(0);
        let mut shafts = vec![Shaft::default(); slots];
        for level in 0..d.levels() {
            let base = usize::from(level) * slots;
            let read = levels.contains(&level);
            if read {
                let carved = d.carved_slots(level).expect("invariant: a level of the dungeon");
                floor.carved[base..base + slots].copy_from_slice(&carved);
                // Lifts and the shaft rule live at stairs' feet and holes only (every other
                // cell's shaft is the default, which lets everything through).
                shafts.fill(Shaft::default());
                for stair in d.stairs().iter() {
                    let i = dims.index(stair.foot.slot).expect("invariant: a stair on the grid");
                    let (foot, hole) = (stair.foot, stair.hole());
                    for (pos, lift) in
                        [(foot, UP), (hole, DOWN)].into_iter().filter(|(p, _)| p.level == level)
                    {
                        floor.lift[base + i] |= lift;
                        shafts[i] = d.shaft(pos);
                    }
                }
            }
            for i in 0..slots {
                if read {
                    // Same-level steps, through rock and floor alike, that the shaft rule allows
                    // (Void slots have no neighbours).
                    let steps = near
                        .of_slot(i)
                        .iter()
                        .filter(|w| shafts[i].allows_step(w.dir, shafts[w.to as usize]))
                        .map(|w| (w.to, step_cost(w.dir)));
                    floor.to.extend(steps);
                }
                floor.start.push(floor.to.len() as u32);
            }
        }
        floor
    }

    /// The same-level steps out of slot `slot` of `level`, as (slot index, cost).
    #[inline]
    pub(crate) fn steps(&self, level: u16, slot: u32) -> &[(u32, u32)] {
        let node = usize::from(level) * self.slots + slot as usize;
        &self.to[self.start[node] as usize..self.start[node + 1] as usize]
    }

    /// Whether node `node` is carved.
    #[inline]
    pub(crate) fn carved(&self, node: usize) -> bool {
        self.carved[node]
    }

    /// Whether slot `slot` of `level` is carved.
    #[inline]
    pub(crate) fn carved_at(&self, level: u16, slot: u32) -> bool {
        self.carved[usize::from(level) * self.slots + slot as usize]
    }

    /// Slots per level.
    pub(crate) fn slots(&self) -> usize {
        self.slots
    }

    /// Whether a stair leads up from node `node` / down from it.
    #[inline]
    pub(crate) fn lifts(&self, node: usize) -> (bool, bool) {
        (self.lift[node] & UP != 0, self.lift[node] & DOWN != 0)
    }

    /// [`carve`] with the shaft rule, keeping the carved flag of `pos` (slot `slot`).
    pub(crate) fn carve(&mut self, d: &mut Dungeon, pos: Pos, slot: u32, locked: Locked<'_>) {
        carve(d, pos, Seams::ShaftRule, locked);
        self.carved[usize::from(pos.level) * self.slots + slot as usize] = true;
    }

    /// [`fill`], keeping the carved flag of `pos` (slot `slot`).
    pub(crate) fn fill(&mut self, d: &mut Dungeon, pos: Pos, slot: u32) {
        fill(d, pos);
        self.carved[usize::from(pos.level) * self.slots + slot as usize] = false;
    }

    /// Panics unless these arrays equal a fresh read of `d` on `levels` (a debug check that
    /// nothing changed the steps or carved a cell behind their back).
    pub(crate) fn assert_current(&self, d: &Dungeon, near: &Near, levels: std::ops::Range<u16>) {
        assert_eq!(*self, Floor::of_levels(d, near, levels), "generation's floor arrays went stale");
    }
}

/// The grid's walls of every slot with a cell beyond ([`Walls`]) in clockwise order from
/// north, as [`neighbours`] lists them, the same on every level: read once.
pub(crate) struct Near {
    start: Vec<usize>,
    to: Vec<Wall>,
}

impl Near {
    /// Reads the grid whose walls are `walls`, putting each slot's in clockwise order from
    /// north.
    pub(crate) fn of(walls: &Walls) -> Near {
        let slots = walls.slot_count();
        let mut near = Near { start: Vec::with_capacity(slots + 1), to: Vec::with_capacity(slots * 4) };
        near.start.push(0);
        for i in 0..slots {
            let from = near.to.len();
            near.to.extend_from_slice(walls.of_slot(i));
            near.to[from..].sort_unstable_by_key(|w| w.dir.index());
            near.start.push(near.to.len());
        }
        near
    }

    /// The walls with a cell beyond of slot index `i`, clockwise from north.
    pub(crate) fn of_slot(&self, i: usize) -> &[Wall] {
        &self.to[self.start[i]..self.start[i + 1]]
    }
}

/// What the repair search reads and changes on one level: the same-level steps the shaft
/// rule allows out of a cell, whether a cell is carved, carving and filling. [`Floor`]
/// answers from its dense arrays (generation, which reads a layout many times);
/// [`OnDemand`] asks the dungeon per cell (an edit's repair, whose cost is that of the
/// window it searches, not the level's).
pub(crate) trait Cells {
    /// The steps out of slot `slot` of `level`, as (slot index, cost), walls clockwise from
    /// north.
    fn steps<'a>(&'a self, d: &'a Dungeon, level: u16, slot: u32) -> impl Iterator<Item = (u32, u32)> + 'a;

    /// Whether slot `slot` of `level` is carved.
    fn carved_at(&self, d: &Dungeon, level: u16, slot: u32) -> bool;

    /// [`carve`] with the shaft rule.
    fn carve(&mut self, d: &mut Dungeon, pos: Pos, slot: u32, locked: Locked<'_>);

    /// [`fill`].
    fn fill(&mut self, d: &mut Dungeon, pos: Pos, slot: u32);
}

impl Cells for Floor {
    fn steps<'a>(&'a self, _: &'a Dungeon, level: u16, slot: u32) -> impl Iterator<Item = (u32, u32)> + 'a {
        Floor::steps(self, level, slot).iter().copied()
    }

    fn carved_at(&self, _: &Dungeon, level: u16, slot: u32) -> bool {
        Floor::carved_at(self, level, slot)
    }

    fn carve(&mut self, d: &mut Dungeon, pos: Pos, slot: u32, locked: Locked<'_>) {
        Floor::carve(self, d, pos, slot, locked);
    }

    fn fill(&mut self, d: &mut Dungeon, pos: Pos, slot: u32) {
        Floor::fill(self, d, pos, slot);
    }
}

/// [`Cells`] read from the dungeon when asked.
// Edit's repairs only (`edit` needs the `export` feature).
#[cfg(feature = "export")]
pub(crate) struct OnDemand;

#[cfg(feature = "export")]
impl Cells for OnDemand {
    fn steps<'a>(&'a self, d: &'a Dungeon, level: u16, slot: u32) -> impl Iterator<Item = (u32, u32)> + 'a {
        let dims = d.dims();
        let pos = Pos { level, slot: dims.slot_at(slot as usize).expect("invariant: a slot index") };
        let shaft = d.shaft(pos);
        neighbours(d, pos).filter(move |&(dir, p)| shaft.allows_step(dir, d.shaft(p))).map(move |(dir, p)| {
            (dims.index(p.slot).expect("invariant: a neighbour in the grid") as u32, step_cost(dir))
        })
    }

    fn carved_at(&self, d: &Dungeon, level: u16, slot: u32) -> bool {
        dims_pos(d, level, slot).is_some_and(|p| d.is_carved(p))
    }

    fn carve(&mut self, d: &mut Dungeon, pos: Pos, _: u32, locked: Locked<'_>) {
        carve(d, pos, Seams::ShaftRule, locked);
    }

    fn fill(&mut self, d: &mut Dungeon, pos: Pos, _: u32) {
        fill(d, pos);
    }
}

/// The position of slot index `slot` on `level` of `d`.
#[cfg(feature = "export")]
fn dims_pos(d: &Dungeon, level: u16, slot: u32) -> Option<Pos> {
    d.dims().slot_at(slot as usize).map(|slot| Pos { level, slot })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::carve::grid_neighbours;
    use crate::grid::{Dims, Direction};

    #[test]
    fn near_lists_each_cells_neighbours_clockwise_from_north() {
        let dims = Dims::from_octagons(5, 4).unwrap();
        let near = Near::of(&Walls::of(dims));
        for i in 0..dims.slot_count() {
            let slot = dims.slot_at(i).unwrap();
            let want: Vec<(Direction, u32)> = if slot.kind().is_cell() {
                grid_neighbours(dims, slot).map(|(dir, s)| (dir, dims.index(s).unwrap() as u32)).collect()
            } else {
                Vec::new()
            };
            let got: Vec<(Direction, u32)> = near.of_slot(i).iter().map(|w| (w.dir, w.to)).collect();
            assert_eq!(got, want, "{slot:?}");
        }
    }
}
