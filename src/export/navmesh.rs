//! A level's navigation mesh (`--navmesh`): its walkable floor as triangles (convex
//! polygons) sharing edges, joined across levels by the stairs' ramps.
//!
//! Each stair's walking surface ([`mesh::stair_walk`]) belongs to the navigation mesh of
//! the level it stands on (its foot), as its ramp belongs to that level's collider. There
//! the floor the stair covers (column, steps, landing) is cut out of the stair octagon's
//! floor, and the rest (the gap sector and the walkway round the steps) is triangulated
//! from the octagon's own outline points, so it shares its edges with the seams round it
//! and the ramp's foot edge. The landing's edge on its wall lies where the floor of the
//! seam beyond begins on the level above (the hole there has no floor), so in world space
//! the two levels' navigation meshes share that edge: vertex for vertex, no gap, no riser.

use glam::{DVec2, DVec3};

use super::merge::ear_clip;
use super::physics::{compact, weld};
use crate::dungeon::{Carve, Dungeon};
use crate::geometry::{Place, Spiral};
use crate::grid::{Direction, EdgeId, Pos};
use crate::mesh::{self, LevelMesh, MaterialRole, Primitive};

/// The steepest slope of any navigation mesh triangle (degrees from the horizontal): under
/// the 45 degrees that Unity's, Godot's and Recast's bakes keep by default (Recast keeps a
/// triangle only while its normal's `y` is above `cos 45`), with a degree to spare for
/// `f32` rounding. The floor is level; a stair's ramp leaves out the steep band round its
/// column to keep within it (it is built to a quarter of a degree less), as long as the stair's walking line is no steeper (with the
/// default base and cut, layer heights up to 15 m; the default is 12 m).
pub const NAVMESH_MAX_SLOPE_DEGREES: f64 = 44.0;

/// The slope the stairs' ramps are built to (degrees): a quarter of a degree under
/// [`NAVMESH_MAX_SLOPE_DEGREES`], so that rounding the corners to `f32` (a hundredth of a
/// degree on a ramp triangle kilometres from the origin) keeps them within it.
const RAMP_SLOPE_DEGREES: f64 = NAVMESH_MAX_SLOPE_DEGREES - 0.25;

/// One triangle in level-local metres.
type Tri = [[f32; 3]; 3];

/// One level's navigation mesh: the [`MaterialRole::Floor`] triangles (carved cells,
/// carved seams, door passages), with each stair standing on the level cut out of its
/// octagon's floor and its walking surface added (see the module), welded by position.
/// Every triangle faces up. `None` when the level has nothing walkable.
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
    let flat: Vec<[f32; 3]> = tris.into_iter().flatten().collect();
    let (positions, indices) = weld(std::iter::empty(), &flat);
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

/// The opening a door cuts in the wall `landing` of the hole above the stair at `foot`,
/// when that wall is carved as a door there: the landing's edge is split at its ends, as
/// the floor beyond is.
fn exit_door(d: &Dungeon, foot: Pos, landing: Direction) -> Option<[DVec2; 2]> {
    let hole = Pos { level: foot.level + 1, ..foot };
    if d.carved_seam(hole, landing)?.carve != Carve::Door {
        return None;
    }
    let edge = d.dims().edge(hole.slot, landing).ok()??;
    d.layout().door_opening(d.dims().edge_sides(edge).ok()?, hole.slot, landing)
}

/// `v` in `f32` as the mesh stores it (`-0.0` made `0.0`, so welding by bits sees one point).
fn point(v: DVec3) -> [f32; 3] {
    [v.x, v.y, v.z].map(|x| (x as f32) + 0.0)
}

fn plan(p: [f32; 3]) -> DVec2 {
    DVec2::new(f64::from(p[0]), f64::from(p[2]))
}

fn centroid(t: &Tri) -> DVec2 {
    t.iter().map(|&p| plan(p)).sum::<DVec2>() / 3.0
}

/// Whether `p` is inside the convex polygon `poly` (wound with growing plan angle) and not
/// on its edges: a neighbour's floor touches the octagon only along them.
fn strictly_inside(poly: &[DVec2], p: DVec2) -> bool {
    (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) > 1e-6)
}

/// The floor of the stair octagon that the stair leaves free, triangulated (facing up)
/// from the outline of the octagon's floor triangles `cell` and the stair's `rim`: the
/// outline from the landing wall's second end round to its first, then the rim. `None`
/// when `cell` has no single outline through both ends of the landing wall.
fn walkway(cell: &[Tri], spec: &Spiral, rim: &[DVec2]) -> Option<Vec<Tri>> {
    let outline = outline(cell)?;
    let [ea, eb] = spec.landing.map(|v| point(DVec3::new(v.x, 0.0, v.y)));
    let start = outline.iter().position(|&p| p == eb)?;
    let mut ring: Vec<[f32; 3]> = Vec::with_capacity(outline.len() + rim.len());
    for k in 0..outline.len() {
        let p = outline[(start + k) % outline.len()];
        ring.push(p);
        if p == ea {
            break;
        }
    }
    if ring.last() != Some(&ea) {
        return None;
    }
    ring.extend(rim.iter().map(|v| point(DVec3::new(v.x, 0.0, v.y))));
    let flat: Vec<DVec2> = ring.iter().map(|&p| plan(p)).collect();
    let order: Vec<u32> = (0..u32::try_from(ring.len()).ok()?).collect();
    // The ring runs with growing plan angle: counter-clockwise in (x, z); up is the other way.
    let tris = ear_clip(&order, &flat, 1.0)?;
    Some(tris.into_iter().map(|[a, b, c]| [a, c, b].map(|i| ring[i as usize])).collect())
}

/// The outline of the triangles `tris` (one polygon, edges shared by position between
/// neighbours), wound with growing plan angle (counter-clockwise in `(x, z)`). `None` unless
/// their boundary edges close exactly one loop.
fn outline(tris: &[Tri]) -> Option<Vec<[f32; 3]>> {
    let key = |p: [f32; 3]| p.map(f32::to_bits);
    let mut edges: Vec<([u32; 3], [u32; 3])> =
        tris.iter().flat_map(|t| (0..3).map(move |k| (key(t[k]), key(t[(k + 1) % 3])))).collect();
    edges.sort_unstable();
    let boundary: Vec<([u32; 3], [u32; 3])> =
        edges.iter().copied().filter(|&(a, b)| edges.binary_search(&(b, a)).is_err()).collect();
    let first = *boundary.first()?;
    let mut ring = vec![first.0];
    let mut next = first.1;
    while next != first.0 {
        if ring.len() >= boundary.len() {
            return None;
        }
        ring.push(next);
        let at = boundary.partition_point(|e| e.0 < next);
        next = boundary.get(at).filter(|e| e.0 == next)?.1;
    }
    if ring.len() != boundary.len() {
        return None;
    }
    let mut ring: Vec<[f32; 3]> = ring.into_iter().map(|k| k.map(f32::from_bits)).collect();
    let area: f64 = (0..ring.len()).map(|i| plan(ring[i]).perp_dot(plan(ring[(i + 1) % ring.len()]))).sum();
    if area < 0.0 {
        ring.reverse();
    }
    Some(ring)
}
