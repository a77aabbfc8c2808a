//! Extrusion of one level: floors, ceilings, walls, seams, open pillars, door passages, stair
//! shafts, stair solids and ramp solids, as panels (docs/design.md, "The mesh" and "Pillars").

use std::cell::Cell;

use glam::{DVec2, DVec3};

use super::panel::{Panel, at};
use super::panels::Panels;
use super::triangulate::{centre_fan, fan, strip};
use super::{MaterialRole, MeshError, ramp, stair};
use crate::dungeon::{Carve, Dungeon, DungeonError};
use crate::geometry::{Layout, Spiral};
use crate::grid::{Direction, EdgeId, PillarId, Pos, Slot, SlotKind};

/// Carved and stair flags of every slot of one level (dense, by slot index). The stairs are
/// those of the dungeon's stair table, so only a valid stair opens a shaft and cuts the hole
/// above it.
struct Flags {
    carved: Vec<bool>,
    stair: Vec<bool>,
}

fn flags(d: &Dungeon, level: u16) -> Flags {
    let carved = d.carved_slots(level).expect("invariant: level in range");
    let mut stair = vec![false; carved.len()];
    for s in d.stairs().iter().filter(|s| s.foot.level == level) {
        stair[d.dims().index(s.foot.slot).expect("invariant: stairs stand in the grid")] = true;
    }
    Flags { carved, stair }
}

/// The walls of a cell in winding order (wall `k` runs from outline vertex `k` to `k + 1`).
pub(crate) fn cell_walls(slot: Slot) -> &'static [Direction] {
    match slot.kind() {
        SlotKind::Octagon => &Direction::ALL,
        _ => &Direction::DIAGONALS,
    }
}

/// The heights strictly between 0 and `top` at which faces meet the vertical line through
/// the corner of `slot` that starts its wall `dir` (`end` 0) or ends it (`end` 1), lowest
/// first: the tops of the open seams of the two walls that meet there (`open` gives the
/// height of the open seam beyond a wall, `None` when it is not carved edge-wide). Every
/// face standing on that line is split at them, so the faces share their edges where a
/// lower seam's pillar face, a lintel and a wall meet.
fn corner_splits(
    slot: Slot,
    dir: Direction,
    end: usize,
    top: f64,
    open: impl Fn(Direction) -> Option<f64>,
) -> [Option<f64>; 2] {
    let walls = cell_walls(slot);
    let n = walls.len();
    let k = walls.iter().position(|&w| w == dir).expect("invariant: a wall of the cell");
    let other = if end == 0 { walls[(k + n - 1) % n] } else { walls[(k + 1) % n] };
    let inside = |h: Option<f64>| h.filter(|&h| h > 0.0 && h < top);
    match (inside(open(dir)), inside(open(other))) {
        (Some(a), Some(b)) if a == b => [Some(a), None],
        (Some(a), Some(b)) => [Some(a.min(b)), Some(a.max(b))],
        (a, b) => [a.or(b), None],
    }
}

/// The heights strictly between 0 and the room height of the cell at `pos` at which its
/// wall `dir` is split at its first and second end ([`corner_splits`], read from the
/// dungeon): for the stair ramps of the colliders, which stand against such walls.
pub(crate) fn wall_end_splits(d: &Dungeon, pos: Pos, dir: Direction) -> [Vec<f64>; 2] {
    let open = |w: Direction| {
        let edge = d.dims().edge(pos.slot, w).ok()??;
        d.carved_seam(pos, w).filter(|def| def.carve == Carve::Full).map(|_| d.seam_height(pos.level, edge))
    };
    let top = d.room_height_at(pos);
    [0, 1].map(|end| corner_splits(pos.slot, dir, end, top, open).into_iter().flatten().collect())
}

/// What the extruder needs to know about one level and its neighbours.
struct Ctx<'a> {
    d: &'a Dungeon,
    layout: &'a Layout,
    level: u16,
    here: Flags,
    below: Option<Flags>,
    /// How each edge of `level` is carved, by dense edge index, filled as the edges are
    /// first asked for (a wall is asked for by its cell, its seam and its neighbour).
    carves: Vec<Cell<Option<Carve>>>,
    /// Each cell's room height on `level` (metres, by slot index: [`Dungeon::room_heights`]).
    heights: Vec<f64>,
    /// The height of each seam of `level` ([`Dungeon::seam_height`]), by dense edge index,
    /// filled as the seams are first asked for.
    seam_heights: Vec<Cell<Option<f64>>>,
    /// Whether faces may stop at different heights (room heights of their own, or columns
    /// running through storeys): only then are corners split ([`corner_splits`]).
    varied: bool,
}

impl Ctx<'_> {
    fn idx(&self, slot: Slot) -> usize {
        self.d.dims().index(slot).expect("invariant: slot in grid")
    }

    /// How `edge` is carved on `level` (level is this one or the one above): the dungeon's
    /// own answer ([`Dungeon::carved_seam`]).
    fn carve(&self, level: u16, edge: EdgeId) -> Carve {
        let asked = || {
            let [(slot, dir), _] = self.d.dims().edge_sides(edge).expect("invariant: edge from the grid");
            self.d.carved_seam(Pos { level, slot }, dir).map_or(Carve::None, |def| def.carve)
        };
        if level != self.level {
            return asked();
        }
        let known = &self.carves[self.d.dims().edge_index(edge).expect("invariant: edge from the grid")];
        known.get().unwrap_or_else(|| {
            let carve = asked();
            known.set(Some(carve));
            carve
        })
    }

    /// The room height of the cell `slot` of this level (metres).
    fn height(&self, slot: Slot) -> f64 {
        self.heights[self.idx(slot)]
    }

    /// How high the seam `edge` of this level is carved: the dungeon's own answer
    /// ([`Dungeon::seam_height`], the lower of its cells').
    fn seam_height(&self, edge: EdgeId) -> f64 {
        let known =
            &self.seam_heights[self.d.dims().edge_index(edge).expect("invariant: edge from the grid")];
        known.get().unwrap_or_else(|| {
            let h = self.d.seam_height(self.level, edge);
            known.set(Some(h));
            h
        })
    }

    /// The height of the open seam beyond wall `dir` of `slot` on this level, or `None`
    /// when that seam is not carved edge-wide (a wall, a door or the border).
    fn open_height(&self, slot: Slot, dir: Direction) -> Option<f64> {
        match self.wall_carve(self.level, slot, dir) {
            (Carve::Full, Some(e)) => Some(self.seam_height(e)),
            _ => None,
        }
    }

    /// [`corner_splits`] of the corner of `slot` that starts (`end` 0) or ends (`end` 1) its
    /// wall `dir`, on this level.
    fn corner_splits(&self, slot: Slot, dir: Direction, end: usize, top: f64) -> [Option<f64>; 2] {
        if !self.varied {
            // Every cell and seam is the default height: nothing stops below a face's top.
            return [None; 2];
        }
        corner_splits(slot, dir, end, top, |d| self.open_height(slot, d))
    }

    /// The vertical chain at `p` from `lo` to `hi` through `splits` (those strictly between).
    fn column(p: DVec2, lo: f64, hi: f64, splits: [Option<f64>; 2]) -> Vec<DVec3> {
        let mut out = vec![at(p, lo)];
        out.extend(splits.into_iter().flatten().filter(|&h| h > lo && h < hi).map(|h| at(p, h)));
        out.push(at(p, hi));
        out
    }

    /// Carve state of wall `dir` of `slot` on `level`, with its edge (border walls are rock).
    fn wall_carve(&self, level: u16, slot: Slot, dir: Direction) -> (Carve, Option<EdgeId>) {
        match self.d.dims().edge(slot, dir).expect("invariant: wall of a cell") {
            None => (Carve::None, None),
            Some(e) => (self.carve(level, e), Some(e)),
        }
    }

    /// The two door points on wall `dir` of `slot`, in the wall's running order.
    fn door_points(&self, slot: Slot, dir: Direction, edge: EdgeId) -> [DVec2; 2] {
        let sides = self.d.dims().edge_sides(edge).expect("invariant: edge from the grid");
        self.layout.door_opening(sides, slot, dir).expect("invariant: (slot, dir) is a side of its edge")
    }

    /// The wall segment `dir` of `slot` and, on `level`, the door points it is split at.
    fn wall_splits(&self, level: u16, slot: Slot, dir: Direction) -> ([DVec2; 2], Option<[DVec2; 2]>) {
        let seg = self.layout.wall(slot, dir).expect("invariant: wall of a cell");
        match self.wall_carve(level, slot, dir) {
            (Carve::Door, Some(e)) => (seg, Some(self.door_points(slot, dir, e))),
            _ => (seg, None),
        }
    }

    /// The outline of a cell with this level's door points inserted.
    fn outline(&self, slot: Slot) -> (Vec<DVec2>, bool) {
        let mut out = Vec::with_capacity(12);
        let mut split = false;
        for &dir in cell_walls(slot) {
            let ([from, _], door) = self.wall_splits(self.level, slot, dir);
            out.push(from);
            if let Some(d) = door {
                out.extend(d);
                split = true;
            }
        }
        (out, split)
    }
}

/// Every panel of `level`, into `out` (emptied first: a worker meshing level after level
/// reuses one list, whose memory the level before has already paged in). Refuses a level
/// with a stair problem ([`Dungeon::stair_problems`]; the first in (row, col) order) other
/// than stacked stairs, which mesh watertight (the upper stair stands in the lower one's
/// hole).
pub(crate) fn extrude_into(d: &Dungeon, level: u16, out: &mut Panels) -> Result<(), MeshError> {
    out.clear();
    extrude_parts_into(d, level, &|_| Some(0), std::slice::from_mut(out))
}

/// [`extrude_into`] a new list (for tests).
#[cfg(test)]
pub(crate) fn extrude(d: &Dungeon, level: u16) -> Result<Panels, MeshError> {
    let mut out = Panels::default();
    extrude_into(d, level, &mut out)?;
    Ok(out)
}

/// Refuses `level` when it has a stair problem ([`Dungeon::stair_problems`]; the first in
/// (row, col) order) other than stacked stairs, which mesh watertight, or a column problem
/// ([`Dungeon::column_problems`]).
pub(crate) fn check_stairs(d: &Dungeon, level: u16) -> Result<(), MeshError> {
    match d.stair_problems(level).into_iter().find(|p| !matches!(p, DungeonError::StairOnStair { .. })) {
        Some(problem) => Err(MeshError::Stair(problem)),
        None => d.column_problems(level).into_iter().next().map_or(Ok(()), |p| Err(MeshError::Column(p))),
    }
}

/// [`extrude_into`] cut into `parts` lists: each cell goes to the part `part_of` its slot names,
/// each seam to the part of its owner slot ([`super::chunk::edge_slot`]), `None` leaves it
/// out; the level is read once for all of them (several mesh chunks of one edit).
pub(crate) fn extrude_parts(
    d: &Dungeon,
    level: u16,
    parts: usize,
    part_of: &dyn Fn(Slot) -> Option<usize>,
) -> Result<Vec<Panels>, MeshError> {
    let mut out: Vec<Panels> = (0..parts).map(|_| Panels::default()).collect();
    extrude_parts_into(d, level, part_of, &mut out)?;
    Ok(out)
}

/// [`extrude_parts`] appending to the lists `out`, one a part.
fn extrude_parts_into(
    d: &Dungeon,
    level: u16,
    part_of: &dyn Fn(Slot) -> Option<usize>,
    out: &mut [Panels],
) -> Result<(), MeshError> {
    check_stairs(d, level)?;
    let ctx = Ctx {
        d,
        layout: d.layout(),
        level,
        here: flags(d, level),
        below: (level > 0).then(|| flags(d, level - 1)),
        carves: vec![Cell::new(None); d.dims().edge_index_len()],
        heights: d.room_heights(level),
        seam_heights: vec![Cell::new(None); d.dims().edge_index_len()],
        varied: d.has_room_heights() || d.may_have_voids(),
    };
    let lh = d.proportions().layer_height;
    for (slot, part) in d.dims().cells().filter_map(|slot| part_of(slot).map(|p| (slot, p))) {
        let panels = &mut out[part];
        let i = ctx.idx(slot);
        if !ctx.here.carved[i] {
            continue;
        }
        let stair = ctx.here.stair[i];
        let under_stair = ctx.below.as_ref().is_some_and(|b| b.stair[i]);
        let pos = Pos { level, slot };
        // A void cell is the upper part of the cell below (no floor); a cell open above
        // runs on up into it (no ceiling).
        let (void, open_above) = (d.is_void(pos), d.open_above(pos));
        let (outline, split) = ctx.outline(slot);
        let tri = |y: f64| {
            let poly: Vec<_> = outline.iter().map(|&v| at(v, y)).collect();
            if split { centre_fan(&poly) } else { fan(&poly) }
        };
        if !under_stair && !void {
            let mut floor = Panel::horizontal(MaterialRole::Floor, true);
            floor.extend(tri(0.0));
            panels.push(floor);
        }
        let rh = ctx.height(slot);
        if !stair && !open_above {
            let mut ceiling = Panel::horizontal(MaterialRole::Ceiling, false);
            ceiling.extend(tri(rh));
            panels.push(ceiling);
        }
        let centre = ctx.layout.center(slot);
        for &dir in cell_walls(slot) {
            let (carve, edge) = ctx.wall_carve(level, slot, dir);
            let ([from, to], door) = ctx.wall_splits(level, slot, dir);
            let mut wall = Panel::vertical(MaterialRole::Wall, from, to, centre);
            let (lo, hi) = (ctx.corner_splits(slot, dir, 0, rh), ctx.corner_splits(slot, dir, 1, rh));
            match (carve, door) {
                (Carve::Full, _) => {
                    // A lintel: rock over a seam lower than this cell, on this cell's wall.
                    let top = ctx.open_height(slot, dir).expect("invariant: an open seam");
                    if top < rh {
                        wall.extend(strip(&Ctx::column(from, top, rh, lo), &Ctx::column(to, top, rh, hi)));
                    }
                }
                (_, Some([d0, d1])) => {
                    let dh = d.door_height_at(level, edge.expect("invariant: a door has an edge"));
                    wall.extend(strip(
                        &Ctx::column(from, 0.0, rh, lo),
                        &[at(d0, 0.0), at(d0, dh), at(d0, rh)],
                    ));
                    wall.extend(strip(&[at(d0, dh), at(d0, rh)], &[at(d1, dh), at(d1, rh)]));
                    wall.extend(strip(&[at(d1, 0.0), at(d1, dh), at(d1, rh)], &Ctx::column(to, 0.0, rh, hi)));
                }
                _ => wall.extend(strip(&Ctx::column(from, 0.0, rh, lo), &Ctx::column(to, 0.0, rh, hi))),
            }
            if !wall.tris.is_empty() {
                panels.push(wall);
            }
        }
        if stair {
            panels.extend(shaft(&ctx, slot, rh, lh));
            panels.extend(stair::spiral(&landing_spec(&ctx, slot)));
        }
        for ramp in d.ramps().iter().filter(|r| r.level == level && r.foot == slot) {
            panels.extend(d.ramp_plan(ramp).iter().flat_map(ramp::ramp_panels));
        }
    }
    for (edge, part) in d.dims().edges().filter_map(|e| part_of(super::chunk::edge_slot(e)).map(|p| (e, p))) {
        let panels = &mut out[part];
        let sides = d.dims().edge_sides(edge).expect("invariant: edge from the grid");
        match ctx.carve(level, edge) {
            Carve::None => {}
            Carve::Full => {
                let seam = ctx.layout.edge_seam(sides).expect("invariant: sides are walls");
                let height = ctx.seam_height(edge);
                let [(a, da), (b, db)] = sides;
                // The pillar faces either side meet the corners [a0, b1] and [b0, a1], where
                // the neighbouring walls' open seams may stop lower.
                let splits = [
                    [ctx.corner_splits(a, da, 0, height), ctx.corner_splits(b, db, 1, height)],
                    [ctx.corner_splits(b, db, 0, height), ctx.corner_splits(a, da, 1, height)],
                ];
                let open = open_pillars(&ctx, edge);
                let caps = Caps {
                    floor: !(level > 0 && d.seam_open_above(level - 1, edge)),
                    top: !d.seam_open_above(level, edge),
                };
                panels.extend(passage(
                    seam,
                    height,
                    splits,
                    caps,
                    MaterialRole::Ceiling,
                    MaterialRole::Wall,
                    &open,
                ));
            }
            Carve::Door => {
                let door = ctx.layout.door(sides[0], sides[1]).expect("invariant: sides are walls");
                let plain = [[[None; 2]; 2]; 2];
                let dh = d.door_height_at(level, edge);
                panels.extend(passage(
                    door,
                    dh,
                    plain,
                    Caps::BOTH,
                    MaterialRole::DoorFrame,
                    MaterialRole::DoorFrame,
                    &[],
                ));
            }
        }
    }
    for pillar in d.open_pillars_on(level) {
        if let Some(part) = part_of(pillar.connector()) {
            out[part].extend(open_pillar(&ctx, pillar, pillar_height(&ctx, pillar)));
        }
    }
    Ok(())
}

/// How high the open pillar `pillar` of this level is carved: the lowest of its three
/// cells' room heights ([`Dungeon::opening_height`]).
fn pillar_height(ctx: &Ctx<'_>, pillar: PillarId) -> f64 {
    ctx.d.opening_height(ctx.level, &pillar.cells())
}

/// The open pillars of this level at the ends of `edge`: each one's triangle and height.
fn open_pillars(ctx: &Ctx<'_>, edge: EdgeId) -> Vec<([DVec2; 3], f64)> {
    let open = ctx.d.open_pillars_at_edge(ctx.level, edge);
    open.into_iter()
        .filter_map(|p| Some((ctx.layout.pillar(p.connector(), p.tip())?, pillar_height(ctx, p))))
        .collect()
}

/// An open pillar (docs/design.md, "Pillars" and "Room heights"): floor and ceiling (at
/// `height`, the lowest of its cells') over its triangle and nothing else, as all three of
/// its sides face carved seams; where a seam beside it is taller, [`passage`] closes the step over that side.
fn open_pillar(ctx: &Ctx<'_>, pillar: PillarId, height: f64) -> Vec<Panel> {
    let tri = ctx.layout.pillar(pillar.connector(), pillar.tip()).expect("invariant: a pillar of the grid");
    let level = ctx.level;
    let mut out = Vec::with_capacity(2);
    if !(level > 0 && ctx.d.pillar_open_above(level - 1, pillar)) {
        let mut floor = Panel::horizontal(MaterialRole::Floor, true);
        floor.extend(fan(&tri.map(|v| at(v, 0.0))));
        out.push(floor);
    }
    if !ctx.d.pillar_open_above(level, pillar) {
        let mut ceiling = Panel::horizontal(MaterialRole::Ceiling, false);
        ceiling.extend(fan(&tri.map(|v| at(v, height))));
        out.push(ceiling);
    }
    out
}

/// Which horizontal faces a passage or pillar has: its floor (none where the same piece
/// below is open above into it) and its top (none where it is open above itself).
#[derive(Clone, Copy)]
struct Caps {
    floor: bool,
    top: bool,
}

impl Caps {
    /// Floor and top both (a door, or any piece of a dungeon without voids).
    const BOTH: Caps = Caps { floor: true, top: true };
}

/// A carved rectangle through a seam (`[a1, a0, b1, b0]`): floor and top at `height` (those
/// `caps` asks for), and the
/// two side walls that do not lie on a cell (pillar faces, or door jambs), `[a0 -> b1,
/// b0 -> a1]`, each end's vertical edge split at the heights `splits` names for it. A side
/// on a face of one of the pillars `open` (both its ends are corners of that triangle: the
/// layout copies corners bit for bit, so they compare exactly) stands only above the
/// pillar's height: a lintel up to `height` where the seam is taller, no face where not.
fn passage(
    rect: [DVec2; 4],
    height: f64,
    splits: [[[Option<f64>; 2]; 2]; 2],
    caps: Caps,
    top_role: MaterialRole,
    side_role: MaterialRole,
    open: &[([DVec2; 3], f64)],
) -> Vec<Panel> {
    let [a1, a0, b1, b0] = rect;
    let mid = (a1 + a0 + b1 + b0) / 4.0;
    let mut out = Vec::with_capacity(4);
    if caps.floor {
        let mut floor = Panel::horizontal(MaterialRole::Floor, true);
        floor.extend(fan(&rect.map(|v| at(v, 0.0))));
        out.push(floor);
    }
    if caps.top {
        let mut top = Panel::horizontal(top_role, false);
        top.extend(fan(&rect.map(|v| at(v, height))));
        out.push(top);
    }
    for ((p, q), [sp, sq]) in [(a0, b1), (b0, a1)].into_iter().zip(splits) {
        let on_pillar = open.iter().find(|(tri, _)| tri.contains(&p) && tri.contains(&q));
        let lo = on_pillar.map_or(0.0, |&(_, h)| h);
        if lo >= height {
            continue;
        }
        let mut side = Panel::vertical(side_role, p, q, mid);
        side.extend(strip(&Ctx::column(p, lo, height, sp), &Ctx::column(q, lo, height, sq)));
        out.push(side);
    }
    out.retain(|p| !p.tris.is_empty());
    out
}

/// The shaft walls of a stair octagon: from its ceiling height `rh` (its room height) up to
/// the next level's floor, split where either level's door passages meet them.
fn shaft(ctx: &Ctx<'_>, slot: Slot, rh: f64, lh: f64) -> Vec<Panel> {
    let centre = ctx.layout.center(slot);
    cell_walls(slot)
        .iter()
        .map(|&dir| {
            let ([from, to], low) = ctx.wall_splits(ctx.level, slot, dir);
            let (_, high) = ctx.wall_splits(ctx.level + 1, slot, dir);
            let chain = |y: f64, door: Option<[DVec2; 2]>| {
                let mut c = vec![at(from, y)];
                c.extend(door.into_iter().flatten().map(|v| at(v, y)));
                c.push(at(to, y));
                c
            };
            let mut wall = Panel::vertical(MaterialRole::Wall, from, to, centre);
            wall.extend(strip(&chain(rh, low), &chain(lh, high)));
            wall
        })
        .collect()
}

/// The plan of the stair in `slot`: its landing reaches the wall that the stair table names
/// ([`Dungeon::stair_landing`], the stair's exit).
fn landing_spec(ctx: &Ctx<'_>, slot: Slot) -> Spiral {
    let pos = Pos { level: ctx.level, slot };
    let dir = ctx.d.stair_landing(pos).expect("invariant: flags mark only stairs of the table");
    Spiral::new(ctx.layout, slot, dir, ctx.d.proportions().layer_height)
        .expect("invariant: stairs stand on octagons")
}
