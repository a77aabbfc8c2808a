//! Extrusion of one level: floors, ceilings, walls, seams, open pillars, door passages, stair
//! shafts and stair solids, as panels (DESIGN.md sections 2 and 7).

use std::cell::Cell;

use glam::DVec2;

use super::panel::{Panel, at};
use super::panels::Panels;
use super::triangulate::{centre_fan, fan, strip};
use super::{MaterialRole, MeshError, stair};
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
/// (row, col) order) other than stacked stairs, which mesh watertight.
pub(crate) fn check_stairs(d: &Dungeon, level: u16) -> Result<(), MeshError> {
    match d.stair_problems(level).into_iter().find(|p| !matches!(p, DungeonError::StairOnStair { .. })) {
        Some(problem) => Err(MeshError::Stair(problem)),
        None => Ok(()),
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
    };
    let p = d.proportions();
    let (rh, dh, lh) = (p.room_height, p.door_height, p.layer_height);
    for (slot, part) in d.dims().cells().filter_map(|slot| part_of(slot).map(|p| (slot, p))) {
        let panels = &mut out[part];
        let i = ctx.idx(slot);
        if !ctx.here.carved[i] {
            continue;
        }
        let stair = ctx.here.stair[i];
        let under_stair = ctx.below.as_ref().is_some_and(|b| b.stair[i]);
        let (outline, split) = ctx.outline(slot);
        let tri = |y: f64| {
            let poly: Vec<_> = outline.iter().map(|&v| at(v, y)).collect();
            if split { centre_fan(&poly) } else { fan(&poly) }
        };
        if !under_stair {
            let mut floor = Panel::horizontal(MaterialRole::Floor, true);
            floor.extend(tri(0.0));
            panels.push(floor);
        }
        if !stair {
            let mut ceiling = Panel::horizontal(MaterialRole::Ceiling, false);
            ceiling.extend(tri(rh));
            panels.push(ceiling);
        }
        let centre = ctx.layout.center(slot);
        for &dir in cell_walls(slot) {
            let (carve, _) = ctx.wall_carve(level, slot, dir);
            let ([from, to], door) = ctx.wall_splits(level, slot, dir);
            let mut wall = Panel::vertical(MaterialRole::Wall, from, to, centre);
            match (carve, door) {
                (Carve::Full, _) => {}
                (_, Some([d0, d1])) => {
                    wall.extend(strip(
                        &[at(from, 0.0), at(from, rh)],
                        &[at(d0, 0.0), at(d0, dh), at(d0, rh)],
                    ));
                    wall.extend(strip(&[at(d0, dh), at(d0, rh)], &[at(d1, dh), at(d1, rh)]));
                    wall.extend(strip(&[at(d1, 0.0), at(d1, dh), at(d1, rh)], &[at(to, 0.0), at(to, rh)]));
                }
                _ => wall.extend(strip(&[at(from, 0.0), at(from, rh)], &[at(to, 0.0), at(to, rh)])),
            }
            if !wall.tris.is_empty() {
                panels.push(wall);
            }
        }
        if stair {
            panels.extend(shaft(&ctx, slot, rh, lh));
            panels.extend(stair::spiral(&landing_spec(&ctx, slot)));
        }
    }
    for (edge, part) in d.dims().edges().filter_map(|e| part_of(super::chunk::edge_slot(e)).map(|p| (e, p))) {
        let panels = &mut out[part];
        let sides = d.dims().edge_sides(edge).expect("invariant: edge from the grid");
        match ctx.carve(level, edge) {
            Carve::None => {}
            Carve::Full => {
                let seam = ctx.layout.edge_seam(sides).expect("invariant: sides are walls");
                let open = open_pillars(&ctx, edge);
                panels.extend(passage(seam, rh, MaterialRole::Ceiling, MaterialRole::Wall, &open));
            }
            Carve::Door => {
                let door = ctx.layout.door(sides[0], sides[1]).expect("invariant: sides are walls");
                panels.extend(passage(door, dh, MaterialRole::DoorFrame, MaterialRole::DoorFrame, &[]));
            }
        }
    }
    for pillar in d.open_pillars_on(level) {
        if let Some(part) = part_of(pillar.connector()) {
            out[part].extend(open_pillar(&ctx, pillar, rh));
        }
    }
    Ok(())
}

/// The triangles of the open pillars of this level at the ends of `edge`.
fn open_pillars(ctx: &Ctx<'_>, edge: EdgeId) -> Vec<[DVec2; 3]> {
    let open = ctx.d.open_pillars_at_edge(ctx.level, edge);
    open.into_iter().filter_map(|p| ctx.layout.pillar(p.connector(), p.tip())).collect()
}

/// An open pillar (DESIGN.md section 7): floor and ceiling over its triangle and nothing
/// else, as all three of its sides face carved seams.
fn open_pillar(ctx: &Ctx<'_>, pillar: PillarId, height: f64) -> Vec<Panel> {
    let tri = ctx.layout.pillar(pillar.connector(), pillar.tip()).expect("invariant: a pillar of the grid");
    let mut floor = Panel::horizontal(MaterialRole::Floor, true);
    floor.extend(fan(&tri.map(|v| at(v, 0.0))));
    let mut ceiling = Panel::horizontal(MaterialRole::Ceiling, false);
    ceiling.extend(fan(&tri.map(|v| at(v, height))));
    vec![floor, ceiling]
}

/// A carved rectangle through a seam (`[a1, a0, b1, b0]`): floor, top at `height`, and the
/// two side walls that do not lie on a cell (pillar faces, or door jambs), but for a side on
/// a face of one of the pillars `open` (both its ends are corners of that triangle: the
/// layout copies corners bit for bit, so they compare exactly).
fn passage(
    rect: [DVec2; 4],
    height: f64,
    top_role: MaterialRole,
    side_role: MaterialRole,
    open: &[[DVec2; 3]],
) -> Vec<Panel> {
    let [a1, a0, b1, b0] = rect;
    let mid = (a1 + a0 + b1 + b0) / 4.0;
    let mut floor = Panel::horizontal(MaterialRole::Floor, true);
    floor.extend(fan(&rect.map(|v| at(v, 0.0))));
    let mut top = Panel::horizontal(top_role, false);
    top.extend(fan(&rect.map(|v| at(v, height))));
    let mut out = vec![floor, top];
    for (p, q) in [(a0, b1), (b0, a1)] {
        if open.iter().any(|tri| tri.contains(&p) && tri.contains(&q)) {
            continue;
        }
        let mut side = Panel::vertical(side_role, p, q, mid);
        side.extend(strip(&[at(p, 0.0), at(p, height)], &[at(q, 0.0), at(q, height)]));
        out.push(side);
    }
    out.retain(|p| !p.tris.is_empty());
    out
}

/// The shaft walls of a stair octagon: from this level's ceiling height up to the next
/// level's floor, split where either level's door passages meet them.
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
