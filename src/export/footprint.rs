//! A stair's footprint cut out of its octagon's floor, shared by the collider
//! ([`super::physics`]) and the navigation mesh ([`super::navmesh`]): what is left of the
//! floor is triangulated from the octagon's own outline points, so it meets the seams round
//! it edge to edge, and the rim of the stair's footprint. Also the ramps both stand on
//! ([`level_ramps`]).

use glam::{DVec2, DVec3};

use super::merge::ear_clip;
use crate::dungeon::{Carve, Dungeon};
use crate::geometry::Spiral;
use crate::grid::{Direction, Pos};

/// The plans of the sound ramps whose foot is on `level` ([`Dungeon::sound_ramps`]): each
/// stands on its level's floor in the collider and replaces it in the navigation mesh.
pub(super) fn level_ramps(dungeon: &Dungeon, level: u16) -> Vec<crate::geometry::RampPlan> {
    dungeon.sound_ramps().filter(|r| r.level == level).filter_map(|r| dungeon.ramp_plan(r)).collect()
}

/// One triangle in level-local metres.
pub(super) type Tri = [[f32; 3]; 3];

/// The opening a door cuts in the wall `landing` of the hole above the stair at `foot`,
/// when that wall is carved as a door there: the landing's edge is split at its ends, as
/// the floor beyond is.
pub(super) fn exit_door(d: &Dungeon, foot: Pos, landing: Direction) -> Option<[DVec2; 2]> {
    let hole = Pos { level: foot.level + 1, ..foot };
    if d.carved_seam(hole, landing)?.carve != Carve::Door {
        return None;
    }
    let edge = d.dims().edge(hole.slot, landing).ok()??;
    d.layout().door_opening(d.dims().edge_sides(edge).ok()?, hole.slot, landing)
}

/// `v` in `f32` as the mesh stores it (`-0.0` made `0.0`, so welding by bits sees one point).
pub(super) fn point(v: DVec3) -> [f32; 3] {
    [v.x, v.y, v.z].map(|x| (x as f32) + 0.0)
}

pub(super) fn plan(p: [f32; 3]) -> DVec2 {
    DVec2::new(f64::from(p[0]), f64::from(p[2]))
}

pub(super) fn centroid(t: &Tri) -> DVec2 {
    t.iter().map(|&p| plan(p)).sum::<DVec2>() / 3.0
}

/// Whether `p` is inside the convex polygon `poly` (wound with growing plan angle) and not
/// on its edges: a neighbour's floor touches the octagon only along them.
pub(super) fn strictly_inside(poly: &[DVec2], p: DVec2) -> bool {
    (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) > 1e-6)
}

/// The floor of the stair octagon that the stair leaves free, triangulated (facing up)
/// from the outline of the octagon's floor triangles `cell` and the stair's `rim`: the
/// outline from the landing wall's second end round to its first, then the rim. `None`
/// when `cell` has no single outline through both ends of the landing wall.
pub(super) fn walkway(cell: &[Tri], spec: &Spiral, rim: &[DVec2]) -> Option<Vec<Tri>> {
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
