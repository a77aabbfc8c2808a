//! Corridors: the way of one connection across free ground, as straight runs of octagons
//! (through long seams) and true 45-degree runs (octagon, connector, octagon), found by a
//! cheapest-path search that charges for every turn.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::ground::{Ground, Owner};
use crate::grid::{Direction, Slot, SlotKind};

/// Cost of a step between octagons across a long seam.
const STRAIGHT: u32 = 10;
/// Cost of a diagonal step through a connector (about `STRAIGHT * sqrt(2)`).
const DIAGONAL: u32 = 14;
/// Cost of each 45 degrees a corridor turns: turns are dearer than a few steps, so
/// corridors run straight where they can.
const TURN: u32 = 12;

/// Extra cost of an octagon beside a room the corridor does not join: corridors keep off
/// other rooms' walls, so they do not ring rooms in.
const BESIDE_A_ROOM: u32 = 25;

/// A corridor found: the octagons from a cell of the first room to a cell of the second, and
/// the direction of each step between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Way {
    /// Octagons in order: the first and last are the rooms' own (or the stair's octagon).
    pub(crate) octagons: Vec<Slot>,
    /// `steps[i]` leads from `octagons[i]` to `octagons[i + 1]`.
    pub(crate) steps: Vec<Direction>,
}

impl Way {
    /// The corridor's own cells: the octagons between the ends and the connector of every
    /// diagonal step.
    pub(crate) fn cells(&self) -> Vec<Slot> {
        let mut out = Vec::new();
        for (i, &dir) in self.steps.iter().enumerate() {
            if dir.is_diagonal() {
                out.push(connector_of(self.octagons[i], dir));
            }
            if i + 1 < self.steps.len() {
                out.push(self.octagons[i + 1]);
            }
        }
        out
    }
}

/// The connector a diagonal step from octagon `from` in direction `dir` passes through.
pub(crate) fn connector_of(from: Slot, dir: Direction) -> Slot {
    let (dr, dc) = dir.unit();
    from.offset(dr, dc).expect("invariant: a diagonal step inside the grid")
}

/// The octagon one step from octagon `from` in direction `dir`, when it is on the grid.
fn octagon_step(ground: &Ground, from: Slot, dir: Direction) -> Option<Slot> {
    let (dr, dc) = dir.unit();
    let (r, c) = from.octagon_coords()?;
    ground.octagon(i64::from(r) + i64::from(dr), i64::from(c) + i64::from(dc))
}

/// A box of octagon coordinates, `(first_row, first_col, last_row, last_col)`, the corridor
/// search's goal (it steers the search toward the box; the target test decides).
pub(crate) type Goal = (u32, u32, u32, u32);

/// The corridor search, with buffers kept between searches (a state is valid when its stamp
/// is the current search's).
#[derive(Debug, Default)]
pub(crate) struct Router {
    cost: Vec<u32>,
    came: Vec<u32>,
    stamp: Vec<u32>,
    search: u32,
    heap: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// Per slot: whether it stands beside another room (valid when `beside_stamp` is the
    /// current search's), worked out once per search and slot.
    beside: Vec<bool>,
    beside_stamp: Vec<u32>,
}

impl Router {
    /// The cheapest corridor on `level` from any octagon of `sources` to an octagon for which
    /// `is_target` holds, through free octagons and connectors only; `goal` bounds the
    /// targets (the search's estimate). `entry_ok(dir)` says whether the last step may
    /// enter the target in direction `dir`. `None` when none exists.
    pub(crate) fn find(
        &mut self,
        ground: &Ground,
        level: u16,
        sources: &[Slot],
        goal: Goal,
        is_target: &dyn Fn(Slot) -> bool,
        entry_ok: &dyn Fn(Direction) -> bool,
    ) -> Option<Way> {
        let dims = ground.dims;
        let states = dims.slot_count() * 9;
        if self.cost.len() != states {
            self.cost = vec![0; states];
            self.came = vec![0; states];
            self.stamp = vec![0; states];
            self.beside = vec![false; dims.slot_count()];
            self.beside_stamp = vec![0; dims.slot_count()];
            self.search = 0;
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.stamp.fill(0);
            self.beside_stamp.fill(0);
            self.search = 1;
        }
        self.heap.clear();
        // The octile distance, in step costs, from octagon `s` to the goal box: never more
        // than a corridor's cost, so the first target popped is a cheapest one.
        let estimate = |s: Slot| {
            let (r, c) = s.octagon_coords().expect("invariant: octagons");
            let dr = goal.0.saturating_sub(r).max(r.saturating_sub(goal.2));
            let dc = goal.1.saturating_sub(c).max(c.saturating_sub(goal.3));
            STRAIGHT * dr.max(dc) + (DIAGONAL - STRAIGHT) * dr.min(dc)
        };
        // State: slot index * 9 + the direction of the step that led here (8: a source).
        let state = |slot: Slot, dir: Option<Direction>| {
            dims.index(slot).expect("invariant: on the grid") * 9 + dir.map_or(8, Direction::index)
        };
        let search = self.search;
        // The sources are one room's octagons (or a stair's): its cells are not another's.
        let source_owner = sources.first().map_or(Owner::Free, |&s| ground.owner(level, s));
        for &s in sources {
            let i = state(s, None);
            self.stamp[i] = search;
            self.cost[i] = 0;
            self.heap.push(Reverse((estimate(s), 0, i as u32)));
        }
        let slot_of = |i: usize| dims.slot_at(i / 9).expect("invariant: a state of the grid");
        let dir_of = |i: usize| (i % 9 < 8).then(|| Direction::from_index(i % 9));
        while let Some(Reverse((_, c, i))) = self.heap.pop() {
            let i = i as usize;
            if c > self.cost[i] {
                continue;
            }
            let here = slot_of(i);
            let last = dir_of(i);
            if last.is_some() && is_target(here) {
                return Some(unwind(&self.came, i, &slot_of, &dir_of));
            }
            // Only a source, or a free octagon of the corridor, is left again.
            if last.is_some() && ground.owner(level, here) != Owner::Free {
                continue;
            }
            for dir in Direction::ALL {
                let Some(next) = octagon_step(ground, here, dir) else { continue };
                let target = is_target(next);
                let allowed = if target { entry_ok(dir) } else { ground.is_free(level, next) };
                if !allowed || (dir.is_diagonal() && !ground.is_free(level, connector_of(here, dir))) {
                    continue;
                }
                let turn = last.map_or(0, |l| {
                    let d = (l.index() + 8 - dir.index()) % 8;
                    d.min(8 - d) as u32 * TURN
                });
                let step = if dir.is_diagonal() { DIAGONAL } else { STRAIGHT };
                let penalty = if target {
                    0
                } else {
                    let at = dims.index(next).expect("invariant: on the grid");
                    if self.beside_stamp[at] != search {
                        self.beside_stamp[at] = search;
                        self.beside[at] = Direction::ALL
                            .into_iter()
                            .filter_map(|d| octagon_step(ground, next, d))
                            .any(|n| {
                                let owner = ground.owner(level, n);
                                matches!(owner, Owner::Room(_)) && owner != source_owner && !is_target(n)
                            });
                    }
                    if self.beside[at] { BESIDE_A_ROOM } else { 0 }
                };
                let j = state(next, Some(dir));
                let nc = c + step + turn + penalty;
                if self.stamp[j] != search || nc < self.cost[j] {
                    self.stamp[j] = search;
                    self.cost[j] = nc;
                    self.came[j] = i as u32;
                    self.heap.push(Reverse((nc + estimate(next), nc, j as u32)));
                }
            }
        }
        None
    }
}

/// [`Router::find`] with buffers of its own (tests).
#[cfg(test)]
fn find(
    ground: &Ground,
    level: u16,
    sources: &[Slot],
    is_target: &dyn Fn(Slot) -> bool,
    entry_ok: &dyn Fn(Direction) -> bool,
) -> Option<Way> {
    let (rows, cols) = (ground.dims.octagon_rows(), ground.dims.octagon_cols());
    Router::default().find(ground, level, sources, (0, 0, rows - 1, cols - 1), is_target, entry_ok)
}

/// Per slot index of `level`: the piece of free ground each free octagon belongs to
/// (octagons joined as corridors step), or `u32::MAX`.
pub(crate) fn pieces(ground: &Ground, level: u16) -> Vec<u32> {
    let dims = ground.dims;
    let mut label = vec![u32::MAX; dims.slot_count()];
    let mut next_label = 0;
    for start in dims.cells().filter(|s| s.kind() == SlotKind::Octagon) {
        let i = dims.index(start).expect("invariant: on the grid");
        if label[i] != u32::MAX || !ground.is_free(level, start) {
            continue;
        }
        label[i] = next_label;
        let mut stack = vec![start];
        while let Some(here) = stack.pop() {
            for dir in Direction::ALL {
                let Some(next) = octagon_step(ground, here, dir) else { continue };
                let j = dims.index(next).expect("invariant: on the grid");
                if label[j] != u32::MAX || !ground.is_free(level, next) {
                    continue;
                }
                if dir.is_diagonal() && !ground.is_free(level, connector_of(here, dir)) {
                    continue;
                }
                label[j] = next_label;
                stack.push(next);
            }
        }
        next_label += 1;
    }
    label
}

/// The octagon a corridor step from octagon `from` in direction `dir` reaches, if any.
pub(crate) fn octagon_beyond(ground: &Ground, from: Slot, dir: Direction) -> Option<Slot> {
    octagon_step(ground, from, dir)
}

/// Per slot index of `level`: the free octagons a corridor from `sources` (octagons) could
/// reach, stepping as [`find`] does.
pub(crate) fn reachable(ground: &Ground, level: u16, sources: &[Slot]) -> Vec<bool> {
    let dims = ground.dims;
    let mut seen = vec![false; dims.slot_count()];
    let mut stack: Vec<Slot> = sources.to_vec();
    while let Some(here) = stack.pop() {
        for dir in Direction::ALL {
            let Some(next) = octagon_step(ground, here, dir) else { continue };
            let i = dims.index(next).expect("invariant: on the grid");
            if seen[i] || !ground.is_free(level, next) {
                continue;
            }
            if dir.is_diagonal() && !ground.is_free(level, connector_of(here, dir)) {
                continue;
            }
            seen[i] = true;
            stack.push(next);
        }
    }
    seen
}

/// The way that ends in state `end`, read back along `came`.
fn unwind(
    came: &[u32],
    end: usize,
    slot_of: &dyn Fn(usize) -> Slot,
    dir_of: &dyn Fn(usize) -> Option<Direction>,
) -> Way {
    let mut octagons = vec![slot_of(end)];
    let mut steps = Vec::new();
    let mut i = end;
    while let Some(dir) = dir_of(i) {
        steps.push(dir);
        i = came[i] as usize;
        octagons.push(slot_of(i));
    }
    octagons.reverse();
    steps.reverse();
    Way { octagons, steps }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dims;

    #[test]
    fn corridors_run_straight_and_at_45_degrees() {
        let dims = Dims::from_octagons(12, 12).unwrap();
        let ground = Ground::new(dims, 1);
        let from = [Slot::octagon(2, 1)];
        let target = Slot::octagon(8, 9);
        let way = find(&ground, 0, &from, &|s| s == target, &|_| true).unwrap();
        assert_eq!(way.octagons.first(), Some(&from[0]));
        assert_eq!(way.octagons.last(), Some(&target));
        // 6 rows and 8 columns apart: 6 diagonal steps and 2 straight ones, one turn.
        let turns = way.steps.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!((way.steps.len(), turns), (8, 1), "{:?}", way.steps);
        let diagonal = way.steps.iter().filter(|d| d.is_diagonal()).count();
        assert_eq!(diagonal, 6);
        assert_eq!(way.cells().len(), 7 + 6, "7 octagons between the ends and 6 connectors");
    }

    #[test]
    fn corridors_go_round_what_is_taken_and_obey_the_entry_rule() {
        let dims = Dims::from_octagons(8, 5).unwrap();
        let mut ground = Ground::new(dims, 1);
        for r in 0..4 {
            ground.set(0, Slot::octagon(r, 4), Owner::Room(7));
        }
        for r in 0..4 {
            ground.set(0, Slot::new(2 * r + 1, 7), Owner::Room(7));
            ground.set(0, Slot::new(2 * r + 1, 9), Owner::Room(7));
        }
        let target = Slot::octagon(0, 7);
        let way = find(&ground, 0, &[Slot::octagon(0, 0)], &|s| s == target, &|d| d != Direction::N).unwrap();
        assert!(way.octagons.iter().any(|s| s.row == 8), "round the wall's south end: {way:?}");
        assert_ne!(way.steps.last(), Some(&Direction::N));
        assert!(way.cells().iter().all(|&s| ground.is_free(0, s)));
        // Walled off entirely: no way.
        ground.set(0, Slot::octagon(4, 4), Owner::Corridor(0));
        assert_eq!(find(&ground, 0, &[Slot::octagon(0, 0)], &|s| s == target, &|_| true), None);
    }
}
