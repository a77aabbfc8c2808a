//! A level's navigation mesh (`--navmesh`): its walkable floor as triangles (convex
//! polygons) sharing edges, joined across levels by the stairs' ramps and by ramps.
//!
//! A ramp ([`Dungeon::ramps`]) belongs to the navigation mesh of its foot's level: the
//! floor under it is left out and its sloped top is added, piece by piece, from the same
//! outline points, so it shares the foot's wall with the foot's floor and its top edge with
//! the floor of the top's seam on the level above.
//!
//! Each stair's walking surface ([`mesh::stair_walk`]) belongs to the navigation mesh of
//! the level it stands on (its foot), as its ramp belongs to that level's collider. There
//! the floor the stair covers (column, steps, landing) is cut out of the stair octagon's
//! floor, and the rest (the gap sector and the walkway round the steps) is triangulated
//! from the octagon's own outline points, so it shares its edges with the seams round it
//! and the ramp's foot edge. The landing's edge on its wall lies where the floor of the
//! seam beyond begins on the level above (the hole there has no floor), so in world space
//! the two levels' navigation meshes share that edge: vertex for vertex, no gap, no riser.

use super::footprint::{Tri, centroid, exit_door, level_ramps, point, strictly_inside, walkway};
use super::physics::{compact, weld};
use crate::dungeon::Dungeon;
use crate::geometry::Place;
use crate::grid::{EdgeId, Pos};
use crate::mesh::{self, LevelMesh, MaterialRole, Primitive};

/// The steepest slope of any navigation mesh triangle (degrees from the horizontal): under
/// the 45 degrees that Unity's, Godot's and Recast's bakes keep by default (Recast keeps a
/// triangle only while its normal's `y` is above `cos 45`), with a degree to spare for
/// `f32` rounding. The floor is level; a stair's ramp leaves out the steep band round its
/// column to keep within it (it is built to a quarter of a degree less), as long as the
/// stair's walking line is no steeper: with the default base, at every cut preset, for
/// layer heights up to 15 m (the default is 12 m).
pub const NAVMESH_MAX_SLOPE_DEGREES: f64 = 44.0;

/// The slope the stairs' ramps are built to (degrees): a quarter of a degree under
/// [`NAVMESH_MAX_SLOPE_DEGREES`], so that rounding the corners to `f32` (a hundredth of a
/// degree on a ramp triangle kilometres from the origin) keeps them within it.
const RAMP_SLOPE_DEGREES: f64 = NAVMESH_MAX_SLOPE_DEGREES - 0.25;

/// One level's navigation mesh: the [`MaterialRole::Floor`] triangles (carved cells,
/// carved seams that meet a floor, door passages), with each stair standing on the level
/// cut out of its octagon's floor and its walking surface added, and each ramp's floor
/// replaced by its sloped top (see the module), welded
/// by position. Every triangle faces up, none steeper than [`NAVMESH_MAX_SLOPE_DEGREES`].
/// `None` when the level has nothing walkable.
pub(crate) fn navmesh(dungeon: &Dungeon, level: &LevelMesh) -> Option<Primitive> {
    let mut tris: Vec<Tri> = Vec::new();
    for (_, p) in level.primitives.iter().filter(|(r, _)| *r == MaterialRole::Floor) {
        let corner = |i: u32| p.vertices[i as usize].position;
        tris.extend(p.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]));
    }
    tris.retain(|t| match dungeon.layout().place_at(centroid(t)) {
        Some(Place::Seam(edge)) => seam_joins_floor(dungeon, level.level, edge),
        _ => true,
    });
    for (foot, landing, spec) in mesh::level_spirals(dungeon, level.level) {
        let walk =
            mesh::stair_walk(&spec, exit_door(dungeon, foot, landing), RAMP_SLOPE_DEGREES.to_radians());
        let octagon = dungeon.layout().octagon(foot.slot);
        let (inside, mut rest): (Vec<Tri>, Vec<Tri>) =
            tris.into_iter().partition(|t| strictly_inside(&octagon, centroid(t)));
        // Without a floor to cut (the hole of a stair below) the ramp stands alone; should
        // the floor's outline not run round the landing wall's ends, the floor stays whole.
        match walkway(&inside, &spec, &walk.rim) {
            Some(floor) => rest.extend(floor),
            None => rest.extend(inside),
        }
        rest.extend(walk.ramp.iter().map(|t| t.map(point)));
        tris = rest;
    }
    for plan in level_ramps(dungeon, level.level) {
        tris.retain(|t| !plan.covers(centroid(t)));
        tris.extend(plan.surface().into_iter().map(|t| t.map(point)));
    }
    let flat: Vec<[f32; 3]> = tris.into_iter().flatten().collect();
    let (positions, indices) = weld(&flat);
    (!indices.is_empty()).then(|| compact(&positions, &indices))
}

/// Whether the floor of the carved seam `edge` on `level` shares an edge with a floor on
/// either side, so that it belongs to the navigation mesh: a side joins it unless that side
/// is the hole above a stair whose exit is another wall (the hole has no floor, and only the
/// exit meets the landing), or a stair's own octagon whose landing stands against it (the
/// stair's footprint is cut out of that floor right up to the wall). A seam that joins
/// neither (between two holes, neither one's exit) would be a piece of floor no path node
/// stands on, touching the rest at a corner at most: it is left out.
fn seam_joins_floor(d: &Dungeon, level: u16, edge: EdgeId) -> bool {
    let Ok(sides) = d.dims().edge_sides(edge) else { return true };
    sides.iter().any(|&(slot, dir)| {
        let pos = Pos { level, slot };
        match d.stair_below(pos) {
            Some(foot) => d.stair_exit(foot) == Some(dir),
            None => d.stair_landing(pos) != Some(dir),
        }
    })
}

/// The off-mesh links of `level`'s navigation mesh, for an engine script to turn into nav
/// links: one per drop ([`Dungeon::drops`]), `{"kind": "drop", "one_way": true, "start",
/// "end"}`, `start` the middle of the drop edge on the floor it is stepped off and `end`
/// the centre of the cell it lands on, world metres `[x, y, z]`.
pub(crate) fn drop_links(dungeon: &Dungeon, level: u16) -> Vec<serde_json::Value> {
    let layout = dungeon.layout();
    let lift = |p: glam::DVec2, l: u16| [p.x, dungeon.proportions().floor_y(l), p.y];
    dungeon
        .drops(level)
        .into_iter()
        .filter_map(|drop| {
            let (from, dir) = drop.from;
            let [a, b] = layout.wall(from.slot, dir)?;
            let end = layout.center(drop.landing.slot);
            Some(serde_json::json!({
                "kind": "drop",
                "one_way": true,
                "start": lift((a + b) / 2.0, from.level),
                "end": lift(end, drop.landing.level),
            }))
        })
        .collect()
}
