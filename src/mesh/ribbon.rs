//! The route ribbon: a flat strip just above each floor through the cell centres of a
//! route, in world metres. The one builder behind the exported `Path` node and the viewer's
//! path overlay, so both show the same strip.

use glam::DVec3;

use super::{Primitive, Vertex};
use crate::geometry::Layout;
use crate::grid::Pos;

/// Height of the ribbon above the floor (metres).
pub const RIBBON_LIFT: f64 = 0.1;

/// Width of the ribbon (metres).
pub const RIBBON_WIDTH: f64 = 0.5;

/// Colour of the ribbon (linear RGBA, opaque): the exported `path` material and the
/// viewer's unlit overlay.
pub const RIBBON_COLOUR: [f32; 4] = [1.0, 0.55, 0.05, 1.0];

/// The ribbon along `route` in world metres: one quad per step between consecutive
/// positions (none for a repeated position), [`RIBBON_WIDTH`] wide and [`RIBBON_LIFT`] above
/// the floor. A step that only climbs (a stair) is a vertical quad. Normals point up (or
/// north for a vertical quad), each quad is wound counter-clockwise seen along its normal,
/// UV0 runs across (0..1) and along (metres) the step, UV1 is zero.
///
/// Positions are mapped by `layout` whether or not they are cells of a dungeon; a caller
/// that takes a route from a user checks it first.
#[must_use]
pub fn route_ribbon(layout: &Layout, route: &[Pos]) -> Primitive {
    let points: Vec<DVec3> =
        route.iter().map(|&pos| layout.world_center(pos) + DVec3::new(0.0, RIBBON_LIFT, 0.0)).collect();
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
        let layout = Layout::new(Proportions::default()).unwrap();
        let route = [Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 2), Pos::new(1, 0, 2)];
        let prim = route_ribbon(&layout, &route);
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
