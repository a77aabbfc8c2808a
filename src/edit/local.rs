//! Local connectivity after a re-solve: whether the freed floor and the floor round it are
//! joined inside a small window, so the level keeps every path it had and the new floor
//! hangs on to it without labelling the whole dungeon.
//!
//! Every path that crossed the freed cells entered and left them through a carved cell next
//! to them (a re-solve writes only the freed cells' tiles and seams). When all those cells
//! and every freed floor cell are one component of the floor inside the window, each such
//! path can be rerouted inside it, and each freed floor cell reaches the floor it had round
//! it. A step here is the dungeon's own: a passable carved seam ([`Dungeon::carved_seam`])
//! between passable carved cells that the shaft rule lets through
//! ([`crate::dungeon::Stairs::allows_step`]); stairs between levels are not followed, which
//! can only make the answer "not joined" (the caller then joins the level as a whole).

use std::ops::RangeInclusive;

use crate::dungeon::Dungeon;
use crate::grid::{Dims, Direction, Pos, Slot};

/// The slots round `free` (their bounding box grown by one octagon step, inside the level).
pub(crate) fn window(dims: Dims, free: impl Iterator<Item = Slot>) -> Area {
    grown(dims, free, 2)
}

/// The bounding box of `free` grown by `by` slots each way, inside the level.
pub(crate) fn grown(dims: Dims, free: impl Iterator<Item = Slot>, by: u32) -> Area {
    let (mut r0, mut c0, mut r1, mut c1) = (u32::MAX, u32::MAX, 0, 0);
    for s in free {
        (r0, c0, r1, c1) = (r0.min(s.row), c0.min(s.col), r1.max(s.row), c1.max(s.col));
    }
    if r0 > r1 {
        return (RangeInclusive::new(1, 0), RangeInclusive::new(1, 0));
    }
    let grow = |lo: u32, hi: u32, len: u32| lo.saturating_sub(by)..=hi.saturating_add(by).min(len - 1);
    (grow(r0, r1, dims.rows()), grow(c0, c1, dims.cols()))
}

/// The slots of a rectangle of a level: rows, columns.
pub(crate) type Area = (RangeInclusive<u32>, RangeInclusive<u32>);

/// The cells that must end up joined after a re-solve of `free`: every floor cell of
/// `free`, and every floor cell a path could enter the freed cells from before (`was_open`:
/// the wall `dir` of freed cell `slot` was a passable seam from floor). `is_free` says
/// whether a slot is one of `free`.
pub(crate) fn must_join(
    d: &Dungeon,
    level: u16,
    free: &[Slot],
    is_free: &dyn Fn(Slot) -> bool,
    was_open: &dyn Fn(Slot, Direction) -> bool,
) -> Vec<Slot> {
    let dims = d.dims();
    let mut must = Vec::new();
    for &s in free {
        if floor(d, level, s) {
            must.push(s);
        }
        for &dir in dims.walls(s).unwrap_or(&[]) {
            if let Ok(Some(n)) = dims.neighbor(s, dir)
                && !is_free(n)
                && floor(d, level, n)
                && was_open(s, dir)
            {
                must.push(n);
            }
        }
    }
    must
}

fn floor(d: &Dungeon, level: u16, slot: Slot) -> bool {
    d.tile_def(Pos { level, slot }).is_ok_and(|t| t.carved && t.passable)
}

/// The floor cells joined to `start` by steps inside `area`, sorted (row, col).
pub(crate) fn component(d: &Dungeon, level: u16, area: &Area, start: Slot) -> Vec<Slot> {
    let dims = d.dims();
    let (rows, cols) = area;
    let inside = |s: Slot| rows.contains(&s.row) && cols.contains(&s.col);
    let width = (cols.end() + 1 - cols.start()) as usize;
    let local = |s: Slot| (s.row - rows.start()) as usize * width + (s.col - cols.start()) as usize;
    let mut seen = vec![false; width * (rows.end() + 1 - rows.start()) as usize];
    let mut out = Vec::new();
    if !inside(start) || !floor(d, level, start) {
        return out;
    }
    seen[local(start)] = true;
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        out.push(s);
        let here = Pos { level, slot: s };
        for &dir in dims.walls(s).unwrap_or(&[]) {
            let Ok(Some(n)) = dims.neighbor(s, dir) else { continue };
            if !inside(n) || seen[local(n)] || !floor(d, level, n) {
                continue;
            }
            let there = Pos { level, slot: n };
            if d.carved_seam(here, dir).is_some_and(|e| e.passable)
                && d.stairs().allows_step(here, dir, there)
            {
                seen[local(n)] = true;
                stack.push(n);
            }
        }
    }
    out.sort_unstable_by_key(|s| (s.row, s.col));
    out
}

/// True when the cells [`must_join`] names are joined by steps inside `area` (at least
/// [`window`] of `free`), to at least one cell that was not freed (see the module doc).
pub(crate) fn joined(
    d: &Dungeon,
    level: u16,
    free: &[Slot],
    is_free: &dyn Fn(Slot) -> bool,
    was_open: &dyn Fn(Slot, Direction) -> bool,
    area: &Area,
) -> bool {
    let must = must_join(d, level, free, is_free, was_open);
    let Some(&start) = must.first() else { return true };
    let reached = component(d, level, area, start);
    let has = |s: &Slot| reached.binary_search_by_key(&(s.row, s.col), |r| (r.row, r.col)).is_ok();
    reached.iter().any(|&s| !is_free(s)) && must.iter().all(has)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;

    #[test]
    fn floor_cut_off_inside_the_window_is_not_joined() {
        let mut d = Dungeon::new(6, 6, 1, Proportions::default(), Fill::Floor).unwrap();
        let free: Vec<Slot> = [(4, 4), (4, 6), (5, 5), (6, 4), (6, 6)].map(|(r, c)| Slot::new(r, c)).to_vec();
        let is_free = |s: Slot| free.contains(&s);
        let open = |_: Slot, _: Direction| true;
        let win = window(d.dims(), free.iter().copied());
        assert!(joined(&d, 0, &free, &is_free, &open, &win), "open floor everywhere");
        // Wall one freed octagon off on every side: it is floor that nothing reaches.
        let cell = Pos::new(0, 6, 6);
        for &dir in d.dims().walls(cell.slot).unwrap() {
            d.set_edge(cell, dir, Registry::WALL).unwrap();
        }
        assert!(!joined(&d, 0, &free, &is_free, &open, &win));
        // As rock it asks for nothing.
        d.set_tile(cell, Registry::SOLID).unwrap();
        assert!(joined(&d, 0, &free, &is_free, &open, &win));
        // Floor that no path entered the freed cells from need not be joined; but freed floor
        // that reaches nothing outside them is an island.
        let (x, out) = (Slot::new(3, 3), Pos::new(0, 2, 2));
        for &dir in d.dims().walls(out.slot).unwrap() {
            d.set_edge(out, dir, Registry::WALL).unwrap();
        }
        let entered = |s: Slot, dir: Direction| !(s == x && dir == Direction::NW);
        let mut with_x = free.clone();
        with_x.insert(0, x);
        let is_free_x = |s: Slot| with_x.contains(&s);
        let win_x = window(d.dims(), with_x.iter().copied());
        assert!(!joined(&d, 0, &with_x, &is_free_x, &open, &win_x), "(2, 2) is walled off");
        assert!(joined(&d, 0, &with_x, &is_free_x, &entered, &win_x), "and no path came from it");
        let all = |_: Slot| true;
        assert!(!joined(&d, 0, &free, &all, &open, &win), "nothing outside the freed cells");
        assert_eq!(window(d.dims(), free.iter().copied()), (2..=8, 2..=8));
    }
}
