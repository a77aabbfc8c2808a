//! The route ribbon: a thin strip 0.1 m above each floor through the cell centres of a
//! route, in world metres (the `Path` node stands at the origin).

use glam::DVec3;

use super::ExportError;
use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::mesh::{Primitive, Vertex};

/// Height of the ribbon above the floor (metres).
pub(crate) const LIFT: f64 = 0.1;

/// Width of the ribbon (metres).
pub(crate) const WIDTH: f64 = 0.3;

/// One flat quad per step between consecutive route positions (none for a repeated
/// position). A step that only climbs (a stair) is a vertical quad.
pub(crate) fn ribbon(dungeon: &Dungeon, route: &[Pos]) -> Result<Primitive, ExportError> {
    let mut points = Vec::with_capacity(route.len());
    for (index, &pos) in route.iter().enumerate() {
        dungeon.tile(pos).map_err(|_| ExportError::RouteOffGrid { index, pos })?;
        points.push(dungeon.layout().world_center(pos) + DVec3::new(0.0, LIFT, 0.0));
    }
    let mut prim = Primitive::default();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let d = b - a;
        if d.length() < 1e-9 {
            continue;
        }
        let flat = DVec3::new(d.x, 0.0, d.z);
        let side = if flat.length() < 1e-9 { DVec3::X } else { DVec3::new(-flat.z, 0.0, flat.x).normalize() };
        let mut normal = d.cross(side).normalize();
        if normal.y < 0.0 || (normal.y == 0.0 && normal.z < 0.0) {
            normal = -normal;
        }
        let half = side * (WIDTH / 2.0);
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
    Ok(prim)
}
