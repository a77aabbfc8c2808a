//! The route ribbon: a strip just above the ground through the cell centres of a route, in
//! world metres: flat on floors, sloped on ramps. The one builder behind the exported
//! `Path` node and the viewer's path overlay, so both show the same strip.

use glam::{DVec2, DVec3};

use super::{Primitive, Vertex};
use crate::dungeon::Dungeon;
use crate::geometry::RampPlan;
use crate::grid::Pos;

/// Height of the ribbon above the floor (metres).
pub const RIBBON_LIFT: f64 = 0.1;

/// Width of the ribbon (metres).
pub const RIBBON_WIDTH: f64 = 0.5;

/// Colour of the ribbon (linear RGBA, opaque): the exported `path` material and the
/// viewer's unlit overlay.
pub const RIBBON_COLOUR: [f32; 4] = [1.0, 0.55, 0.05, 1.0];

/// The ribbon along `route` through `dungeon` in world metres: one quad per step between
/// consecutive positions (none for a repeated position), [`RIBBON_WIDTH`] wide and
/// [`RIBBON_LIFT`] above the ground. On a sound ramp the ground is the ramp's slope
/// ([`RampPlan::height_at`]): a cell of its run is lifted to the slope at its centre, and a
/// step across one of the ramp's seams bends at the seam's middle, so the strip lies on the
/// slope from the foot to the top. A step that only climbs (a stair) is a vertical quad.
/// Normals point up (or north for a vertical quad), each quad is wound counter-clockwise
/// seen along its normal, UV0 runs across (0..1) and along (metres) the step, UV1 is zero.
///
/// Positions are mapped by the dungeon's layout whether or not they are its cells; a caller
/// that takes a route from a user checks it first.
#[must_use]
pub fn route_ribbon(dungeon: &Dungeon, route: &[Pos]) -> Primitive {
    let layout = dungeon.layout();
    let ramps: Vec<(u16, RampPlan)> =
        dungeon.sound_ramps().filter_map(|r| Some((r.level, dungeon.ramp_plan(r)?))).collect();
    let ground = |level: u16, p: DVec2| {
        let slope = ramps.iter().filter(|(l, _)| *l == level).find_map(|(_, plan)| plan.height_at(p));
        DVec3::new(p.x, layout.proportions().floor_y(level) + slope.unwrap_or(0.0) + RIBBON_LIFT, p.y)
    };
    let mut points: Vec<DVec3> = Vec::with_capacity(route.len());
    for (i, &pos) in route.iter().enumerate() {
        let here = layout.center(pos.slot);
        if let Some(before) = i.checked_sub(1).map(|j| route[j]) {
            // Where the step crosses a ramp's foot wall or its top edge, the ground bends.
            let from = layout.center(before.slot);
            let lower = before.level.min(pos.level);
            let mut bends: Vec<(f64, DVec2)> = Vec::new();
            for (_, plan) in ramps.iter().filter(|(l, _)| *l == lower) {
                let (sa, sb) = ((from - plan.start).dot(plan.along), (here - plan.start).dot(plan.along));
                for line in [0.0, plan.run] {
                    if (sa - line) * (sb - line) < 0.0 {
                        let m = from + (here - from) * ((line - sa) / (sb - sa));
                        if plan.height_at(m).is_some() {
                            bends.push(((line - sa) / (sb - sa), m));
                        }
                    }
                }
            }
            bends.sort_by(|a, b| a.0.total_cmp(&b.0));
            points.extend(bends.into_iter().map(|(_, m)| ground(lower, m)));
        }
        points.push(ground(pos.level, here));
    }
    let mut prim = Primitive::default();
    for w in points.windows(2) {
        push_step(&mut prim, w[0], w[1]);
    }
    prim
}

/// Appends the quad of one step from `a` to `b` (nothing when they coincide).
fn push_step(prim: &mut Primitive, a: DVec3, b: DVec3) {
    let d = b - a;
    if d.length() < 1e-9 {
        return;
    }
    let flat = DVec3::new(d.x, 0.0, d.z);
    let side = if flat.length() < 1e-9 { DVec3::X } else { DVec3::new(-flat.z, 0.0, flat.x).normalize() };
    let mut normal = d.cross(side).normalize();
    if normal.y < 0.0 || (normal.y == 0.0 && normal.z < 0.0) {
        normal = -normal;
    }
    let half = side * (RIBBON_WIDTH / 2.0);
    let corners = [a - half, a + half, b + half, b - half];
    let base = prim.vertices.len() as u32;
    let along = d.length();
    for (i, c) in corners.iter().enumerate() {
        prim.vertices.push(Vertex {
            position: [c.x as f32, c.y as f32, c.z as f32],
            normal: [normal.x as f32, normal.y as f32, normal.z as f32],
            uv: [if i == 1 || i == 2 { 1.0 } else { 0.0 }, if i >= 2 { along as f32 } else { 0.0 }],
            uv1: [0.0, 0.0],
        });
    }
    let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
    let tris: [u32; 6] = if n.dot(normal) >= 0.0 { [0, 1, 2, 0, 2, 3] } else { [0, 2, 1, 0, 3, 2] };
    prim.indices.extend(tris.iter().map(|i| base + i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Proportions;

    #[test]
    fn a_step_is_one_quad_of_the_ribbon_width_above_the_floor() {
        let d = Dungeon::new(2, 1, 2, Proportions::default(), crate::dungeon::Fill::Floor).unwrap();
        let route = [Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 2), Pos::new(1, 0, 2)];
        let prim = route_ribbon(&d, &route);
        assert_eq!((prim.vertices.len(), prim.indices.len()), (8, 12), "two steps, the repeat skipped");
        let flat = &prim.vertices[..4];
        assert!(flat.iter().all(|v| (f64::from(v.position[1]) - RIBBON_LIFT).abs() < 1e-6));
        assert!(flat.iter().all(|v| v.normal == [0.0, 1.0, 0.0]));
        let across = f64::from(flat[1].position[2] - flat[0].position[2]).abs();
        assert!((across - RIBBON_WIDTH).abs() < 1e-6, "width {across}");
        let climb = &prim.vertices[4..];
        let top = Proportions::default().layer_height + RIBBON_LIFT;
        assert!(climb.iter().any(|v| (f64::from(v.position[1]) - top).abs() < 1e-5), "the stair step climbs");
        for t in prim.indices.chunks(3) {
            let p: Vec<glam::Vec3> = t.iter().map(|&i| prim.vertices[i as usize].position.into()).collect();
            let n = glam::Vec3::from(prim.vertices[t[0] as usize].normal);
            assert!((p[1] - p[0]).cross(p[2] - p[0]).dot(n) > 0.0, "wound along its normal");
        }
    }
}
