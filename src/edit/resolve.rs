//! Re-solving around a point: the unpinned cells within a radius of it on its level are
//! freed and solved again with WFC (the `octile` tile set, as generation), everything else
//! fixed as their boundary. When the freed floor and the floor round it are joined inside a
//! window one octagon larger (`edit::local`), the level keeps every path it had and
//! nothing else is read; otherwise the level is joined to the dungeon's main region with the
//! generator's carving, which never touches a pin. When the freed cells have no solution the
//! radius doubles, up to the whole level.
//!
//! Locked (never freed, tiles and edges kept): pinned cells, stairs and the holes above
//! them, the entrance and the exit. A locked cell constrains a free neighbour through their
//! shared edge, which stays as it is: an open seam (or a door) from a carved locked cell
//! needs the neighbour carved; a wall from a carved locked cell that the shaft rule would let
//! one cross needs it rock, as does an open seam from locked rock. Two locked cells that
//! demand opposite things of one free cell are [`EditError::ConflictingPins`], checked before
//! anything changes. Every other seam of a freed cell follows [`super::seams`].

use std::ops::RangeInclusive;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::change::{LevelCopy, Recorder};
use super::seams::derived_state;
use super::{Connectivity, EditError, local};
use crate::dungeon::Dungeon;
use crate::generate::keep::{Demand, class_tiles, demand_of, guarded, join_window};
use crate::generate::{Locked, join_level};
use crate::grid::{Dims, Direction, Pos, Slot};
use crate::wfc::octile::{self, Weights};
use crate::wfc::{DEFAULT_BUDGET, FixedCell, SolveError, SolveInput, Solver, Topology};

/// Re-solves around `pos` (see the module doc); records every change in `rec`.
pub(crate) fn resolve(rec: &mut Recorder<'_>, pos: Pos, radius: u32) -> Result<(), EditError> {
    rec.d.tile(pos)?;
    let dims = rec.d.dims();
    let whole = dims.octagon_rows().max(dims.octagon_cols());
    if radius == 0 {
        return Err(EditError::BadRadius { radius, reason: "at least 1 octagon".into() });
    }
    let reg = rec.d.registry();
    if reg.plain_floor().is_none()
        || reg.rock().is_none()
        || reg.open_edge().is_none()
        || reg.wall_edge().is_none()
    {
        return Err(EditError::RegistryLacks {
            what: "plain floor, rock, open and wall",
            command: "resolve",
        });
    }
    let level = pos.level;
    let before = LevelCopy::of(rec.d, level)?;
    let (was, mark) = (Connectivity::of(rec.d).regions, rec.changes.len());
    let mut r = radius.min(whole);
    loop {
        // Read within reach of the freed square only (its cells' neighbours), unless the
        // whole level is joined below.
        let locked = locked_cells(rec.d, level, square(dims, pos, r.saturating_add(1)));
        let free = demands(rec.d, level, &free_cells(dims, pos, r, &locked), &locked)?;
        match solve(rec.d, level, &free, seed(rec.d, pos, r), r >= whole) {
            Ok(carved) => {
                write(rec.d, level, &free, &carved, &locked);
                rejoin(rec, level, &free, &before);
                return keep_connected(rec, pos, &free, &before, was, mark);
            }
            Err(cause) if r >= whole => {
                let pins = free.iter().flat_map(|(_, d)| d.carved.iter().chain(&d.rock)).copied();
                let mut pins: Vec<Pos> = pins.collect();
                pins.sort_unstable();
                pins.dedup();
                return Err(EditError::Unsolvable { level, pins, cause });
            }
            Err(_) => r = r.saturating_mul(2).min(whole),
        }
    }
}

/// The layers of one level: tiles, and edge states by edge index.
/// Joins the freed floor back to the level and records every change: nothing to do when it
/// is joined inside the window already ([`local::joined`]); else the generator's joining
/// inside a window four octagons round the freed cells
/// ([`crate::generate::keep::join_window`]), the cells there that were not freed counting
/// as joined; and when that is not enough, over the whole level as generation does.
fn rejoin(rec: &mut Recorder<'_>, level: u16, free: &[(Slot, Demand)], before: &LevelCopy) {
    let dims = rec.d.dims();
    let cells: Vec<Slot> = free.iter().map(|(s, _)| *s).collect();
    let is_free = |s: Slot| cells.binary_search_by_key(&(s.row, s.col), |f| (f.row, f.col)).is_ok();
    let open = |slot: Slot, dir| was_open(rec.d, before, slot, dir);
    if local::joined(rec.d, level, &cells, &is_free, &open, &local::window(dims, cells.iter().copied())) {
        return rec.record_cells(level, before, &cells);
    }
    let (rows, cols) = local::grown(dims, cells.iter().copied(), 8);
    let inside = |s: Slot| rows.contains(&s.row) && cols.contains(&s.col);
    // Locked cells read two octagons beyond the window (a guard reads its neighbours).
    let locked = locked_cells(rec.d, level, local::grown(dims, cells.iter().copied(), 12));
    // The window's floor joined to a cell a path came in from (else to freed floor) is the
    // main part; the rest of the window's floor is joined to it.
    let must = local::must_join(rec.d, level, &cells, &is_free, &open);
    let anchor = must.iter().find(|&&s| !is_free(s)).or(must.first());
    let area = (rows.clone(), cols.clone());
    let part = anchor.map(|&a| local::component(rec.d, level, &area, a)).unwrap_or_default();
    let mut main = vec![false; dims.slot_count()];
    for s in part {
        main[dims.index(s).expect("invariant: inside")] = true;
    }
    let (guard, fill) = (guarded(rec.d, level, &locked), fillable(rec.d, level, free, &locked));
    join_window(rec.d, level, &main, &inside, &guard, &fill);
    let area = rows.clone().flat_map(|row| cols.clone().map(move |col| Slot::new(row, col)));
    let area: Vec<Slot> = area.filter(|s| s.kind().is_cell()).collect();
    // A cell carved at the window's rim keeps its seams out of the window as walls: open
    // them by the seam rule, as `write` does.
    let tile_of = |s: Slot| rec.d.tile(Pos { level, slot: s }).ok();
    let carved: Vec<Slot> = area
        .iter()
        .copied()
        .filter(|&s| !is_free(s) && tile_of(s) != before.tiles.get(s).ok().copied())
        .collect();
    derive_seams(rec.d, level, carved.into_iter(), &locked);
    let open = |slot: Slot, dir| was_open(rec.d, before, slot, dir);
    if local::joined(rec.d, level, &cells, &is_free, &open, &(rows, cols)) {
        return rec.record_cells(level, before, &area);
    }
    join_whole_level(rec.d, level, free);
    rec.record_level(level, before);
}

/// Joins the whole of `level` to the dungeon's main region with the generator's carving
/// ([`join_level`]), never touching a locked cell; filling back only freed cells with no
/// locked neighbour.
fn join_whole_level(d: &mut Dungeon, level: u16, free: &[(Slot, Demand)]) {
    let dims = d.dims();
    let whole = dims.octagon_rows().max(dims.octagon_cols());
    let locked = locked_cells(d, level, square(dims, Pos { level, slot: Slot::new(0, 0) }, whole));
    let fillable = fillable(d, level, free, &locked);
    join_level(d, level, Locked(&guarded(d, level, &locked)), &fillable);
}

/// The promise that a re-solve keeps joined what was joined: when the dungeon now has more
/// regions than the `was` it had before, the whole level is joined as generation joins it
/// (the changes recorded since `mark` replaced by the level's), and when even that leaves
/// it split the re-solve is refused ([`EditError::WouldSplit`]; the caller rolls it back).
fn keep_connected(
    rec: &mut Recorder<'_>,
    at: Pos,
    free: &[(Slot, Demand)],
    before: &LevelCopy,
    was: usize,
    mark: usize,
) -> Result<(), EditError> {
    if Connectivity::of(rec.d).regions <= was {
        return Ok(());
    }
    join_whole_level(rec.d, at.level, free);
    rec.changes.truncate(mark);
    rec.record_level(at.level, before);
    let now = Connectivity::of(rec.d).regions;
    if now <= was { Ok(()) } else { Err(EditError::WouldSplit { at, was, now }) }
}

/// True when, in the level's layers `before` the re-solve, wall `dir` of the cell at `slot`
/// was a passable seam out of floor (a path could cross it; the wall's cell beyond is
/// checked by the caller).
fn was_open(d: &Dungeon, before: &LevelCopy, slot: Slot, dir: Direction) -> bool {
    let (dims, reg) = (d.dims(), d.registry());
    let floor =
        before.tiles.get(slot).ok().and_then(|&t| reg.tile_def(t)).is_some_and(|t| t.carved && t.passable);
    let Ok(Some(edge)) = dims.edge(slot, dir) else { return false };
    let state = dims.edge_index(edge).ok().and_then(|i| before.edges.get(i)).and_then(|&e| reg.edge_def(e));
    floor && state.is_some_and(|e| e.passable)
}

/// Per slot of `level`: true for a cell of `area` that re-solving keeps (pinned, a stair, a
/// hole above a stair, the entrance, the exit); false outside `area`.
fn locked_cells(d: &Dungeon, level: u16, area: (RangeInclusive<u32>, RangeInclusive<u32>)) -> Vec<bool> {
    let dims = d.dims();
    let mut locked = vec![false; dims.slot_count()];
    let (rows, cols) = area;
    let cells = rows.flat_map(|row| cols.clone().map(move |col| Slot::new(row, col)));
    for slot in cells.filter(|s| s.kind().is_cell()) {
        let p = Pos { level, slot };
        locked[dims.index(slot).expect("invariant: a cell of the grid")] = d.is_pinned(p)
            || d.is_stair(p)
            || d.stair_below(p).is_some()
            || d.entrance() == Some(p)
            || d.exit() == Some(p);
    }
    locked
}

/// The slots within `radius` octagons of `pos` (a square: at most `2 * radius` slots away
/// on each axis), inside the level.
fn square(dims: Dims, pos: Pos, radius: u32) -> (RangeInclusive<u32>, RangeInclusive<u32>) {
    let reach = radius.saturating_mul(2);
    let span = |x: u32, len: u32| x.saturating_sub(reach)..=x.saturating_add(reach).min(len - 1);
    (span(pos.slot.row, dims.rows()), span(pos.slot.col, dims.cols()))
}

/// The unlocked cells within `radius` octagons of `pos` ([`square`]), row-major, each with
/// an empty demand.
fn free_cells(dims: Dims, pos: Pos, radius: u32, locked: &[bool]) -> Vec<(Slot, Demand)> {
    let (rows, cols) = square(dims, pos, radius);
    rows.flat_map(|row| cols.clone().map(move |col| Slot::new(row, col)))
        .filter(|s| s.kind().is_cell() && !locked[dims.index(*s).expect("invariant: inside")])
        .map(|s| (s, Demand::default()))
        .collect()
}

/// Fills in what each free cell's locked neighbours require of it; refuses a cell they
/// disagree about.
fn demands(
    d: &Dungeon,
    level: u16,
    free: &[(Slot, Demand)],
    locked: &[bool],
) -> Result<Vec<(Slot, Demand)>, EditError> {
    let mut out = Vec::with_capacity(free.len());
    for &(slot, _) in free {
        let demand = demand_of(d, level, slot, locked);
        if let Err((a, b)) = demand.class() {
            let mut pins: Vec<Pos> = demand.carved.iter().chain(&demand.rock).copied().collect();
            pins.sort_unstable();
            return Err(EditError::ConflictingPins {
                pins,
                at: Pos { level, slot },
                reason: format!("an open seam from {a} needs it floor, a wall from {b} needs it rock"),
            });
        }
        out.push((slot, demand));
    }
    Ok(out)
}

/// Per slot of `level`: a free cell that may be filled back with rock when it cannot be
/// joined. Filling walls every edge of the cell, so a cell qualifies unless it has a carved
/// seam (open or a door) to a locked neighbour, whose edges stay as they are.
fn fillable(d: &Dungeon, level: u16, free: &[(Slot, Demand)], locked: &[bool]) -> Vec<bool> {
    let dims = d.dims();
    let mut out = vec![false; dims.slot_count()];
    for (slot, _) in free {
        let pos = Pos { level, slot: *slot };
        let seam_to_lock = dims.walls(*slot).expect("invariant: a cell").iter().any(|&dir| {
            let beside = dims.neighbor(*slot, dir).ok().flatten();
            beside.is_some_and(|n| locked[dims.index(n).expect("inside")]) && d.edge_carves(pos, dir)
        });
        out[dims.index(*slot).expect("invariant: inside")] = !seam_to_lock;
    }
    out
}

/// The seed of one re-solve: the dungeon's seed, the centre and the radius.
fn seed(d: &Dungeon, pos: Pos, radius: u32) -> u64 {
    let mix = [u64::from(pos.level), u64::from(pos.slot.row), u64::from(pos.slot.col), u64::from(radius)];
    mix.iter().fold(d.seed().unwrap_or(0) ^ 0x9e37_79b9_7f4a_7c15, |h, &x| {
        (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(23)
    })
}

/// Solves the free cells in a window of the level (their bounding box and one octagon
/// round it, every other cell of the window fixed to floor or rock as it is). Returns, per
/// free cell, whether it is carved. `last` allows dead-end connectors after a failure with
/// the generator's weights, so a level whose fixed cells need one still solves.
fn solve(
    d: &Dungeon,
    level: u16,
    free: &[(Slot, Demand)],
    seed: u64,
    last: bool,
) -> Result<Vec<bool>, SolveError> {
    if free.is_empty() {
        return Ok(Vec::new());
    }
    let window = Window::around(d.dims(), free);
    let once = |weights: &Weights| window.solve(d, level, free, seed, weights);
    match once(&Weights::default()) {
        Err(_) if last => once(&Weights { dead_end_connectors: true, ..Weights::default() }),
        other => other,
    }
}

/// A rectangle of a level's slots, from an octagon to an octagon, solved as a grid of its
/// own.
struct Window {
    origin: Slot,
    dims: Dims,
}

impl Window {
    fn around(dims: Dims, free: &[(Slot, Demand)]) -> Window {
        let (mut r0, mut c0, mut r1, mut c1) = (u32::MAX, u32::MAX, 0, 0);
        for (s, _) in free {
            (r0, c0, r1, c1) = (r0.min(s.row), c0.min(s.col), r1.max(s.row), c1.max(s.col));
        }
        let down = |x: u32| x.saturating_sub(2) & !1;
        let up = |x: u32, len: u32| (x + 3).min(len - 1) & !1;
        let (r0, c0, r1, c1) = (down(r0), down(c0), up(r1, dims.rows()), up(c1, dims.cols()));
        let dims =
            Dims::from_octagons((c1 - c0) / 2 + 1, (r1 - r0) / 2 + 1).expect("invariant: inside a grid");
        Window { origin: Slot::new(r0, c0), dims }
    }

    fn solve(
        &self,
        d: &Dungeon,
        level: u16,
        free: &[(Slot, Demand)],
        seed: u64,
        weights: &Weights,
    ) -> Result<Vec<bool>, SolveError> {
        let topology = Topology::octile(self.dims);
        let tileset = octile::tileset(weights)?;
        let slots = crate::wfc::octile_cell_slots(self.dims);
        let global = |s: Slot| Slot::new(s.row + self.origin.row, s.col + self.origin.col);
        let demand_of = |s: Slot| free.binary_search_by_key(&(s.row, s.col), |(f, _)| (f.row, f.col)).ok();
        let fixed = slots
            .iter()
            .enumerate()
            .filter_map(|(cell, &local)| {
                let slot = global(local);
                let carved = match demand_of(slot) {
                    Some(i) => free[i].1.class().ok().flatten()?,
                    None => d.is_carved(Pos { level, slot }),
                };
                Some(FixedCell { cell: cell as u32, allowed: class_tiles(slot.kind(), carved) })
            })
            .collect();
        let input = SolveInput { seed, border: None, fixed, budget: DEFAULT_BUDGET };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tiles = Solver::new(&topology, &tileset)?.solve(&input, &mut rng, &mut |_| {})?;
        let index_of = |s: Slot| {
            let local = Slot::new(s.row - self.origin.row, s.col - self.origin.col);
            slots
                .binary_search_by_key(&(local.row, local.col), |l| (l.row, l.col))
                .expect("invariant: in the window")
        };
        Ok(free.iter().map(|(s, _)| octile::decode(tiles[index_of(*s)]).1.is_some()).collect())
    }
}

/// Writes the solution: each free cell's tile (kept when its class is unchanged), then each
/// seam of a free cell not shared with a locked cell by the seam rule.
fn write(d: &mut Dungeon, level: u16, free: &[(Slot, Demand)], carved: &[bool], locked: &[bool]) {
    let (floor, rock) = (d.registry().plain_floor(), d.registry().rock());
    for ((slot, _), &carve) in free.iter().zip(carved) {
        let pos = Pos { level, slot: *slot };
        if d.is_carved(pos) != carve {
            let tile = if carve { floor } else { rock };
            d.set_tile(pos, tile.expect("invariant: checked registry")).expect("invariant: a free cell");
        }
    }
    derive_seams(d, level, free.iter().map(|(s, _)| *s), locked);
}

/// Sets each seam of `cells` not shared with a locked cell by the seam rule.
fn derive_seams(d: &mut Dungeon, level: u16, cells: impl Iterator<Item = Slot>, locked: &[bool]) {
    let dims = d.dims();
    for slot in cells {
        for &dir in dims.walls(slot).expect("invariant: a cell") {
            let Some(other) = dims.neighbor(slot, dir).ok().flatten() else { continue };
            if locked[dims.index(other).expect("invariant: inside")] {
                continue;
            }
            let edge = dims.edge(slot, dir).ok().flatten().expect("invariant: a wall with a cell beyond");
            if let Some(state) = derived_state(d, level, edge) {
                d.set_edge_of(level, edge, state).expect("invariant: an edge of the level");
            }
        }
    }
}
