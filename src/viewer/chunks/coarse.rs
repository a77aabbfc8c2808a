//! The coarse mesh of a level, drawn for chunks far from the camera: every carved piece's
//! floor as a fan over its outline, every rock wall as one quad from floor to ceiling. No
//! ceilings (a chunk is far only from an overview, whose camera is above them: they face
//! away), outlines, door frames, stair solids or wall panels, in the same colours (one
//! primitive per role). It is built from the level plan, never from the full mesh, and cut
//! by mesh chunk ([`super::owner_chunk`]) so a far chunk's coarse triangles stand for the
//! same cells as its full mesh.

use glam::{DVec2, Vec3};

use super::{ByChunk, owner_chunk, piece_chunk};
use crate::geometry::Layout;
use crate::mesh::{LevelMesh, MaterialRole, Primitive, Vertex};
use crate::walk::{LevelPlan, WallKind};

/// How far (metres) a wall's midpoint is moved into its carved side to find the piece, and
/// so the chunk, it bounds.
const WALL_PROBE: f64 = 0.05;

/// The coarse mesh of `plan`'s level per mesh chunk, whose floor is at `floor_y` (world
/// metres) and whose rooms are `room_height` metres high: floors of the carved pieces (fans,
/// so a piece with `n` corners makes `n - 2` triangles) and rock walls (two triangles each),
/// level-local, counter-clockwise seen from the carved side as the full mesh is. A piece
/// goes to the chunk of its cell or seam, a wall to the chunk of the piece it bounds. UV0 is
/// metres in the plane over `texture_size` (metres per texture repeat), as the full mesh's
/// is, less its whole-number shift per panel.
#[must_use]
pub fn coarse_chunks(
    plan: &LevelPlan,
    layout: &Layout,
    floor_y: f64,
    room_height: f32,
    texture_size: f32,
) -> ByChunk<LevelMesh> {
    let mut parts: ByChunk<[Primitive; 2]> = ByChunk::new();
    let empty = || [(); 2].map(|()| Primitive { vertices: Vec::new(), indices: Vec::new() });
    for piece in plan.pieces.iter().filter(|p| p.floor) {
        let [floor, _] = parts.entry(piece_chunk(piece)).or_insert_with(empty);
        fan(floor, &piece.polygon, 0.0, Vec3::Y, texture_size);
    }
    for w in plan.walls.iter().filter(|w| w.kind == WallKind::Rock) {
        let along = w.b - w.a;
        if along.length() < 1e-4 {
            continue;
        }
        let probe = (w.a + w.b) * 0.5 + along.perp().normalize() * WALL_PROBE;
        let [_, wall] = parts.entry(owner_chunk(layout, probe)).or_insert_with(empty);
        wall_quad(wall, w.a, w.b, room_height, texture_size);
    }
    parts
        .into_iter()
        .map(|(key, [floor, wall])| {
            let primitives = [(MaterialRole::Floor, floor), (MaterialRole::Wall, wall)]
                .into_iter()
                .filter(|(_, p)| !p.indices.is_empty())
                .collect();
            (key, LevelMesh { level: plan.level, floor_y, primitives })
        })
        .collect()
}

/// A vertex at `p` with `normal` and planar texture coordinates `uv`.
fn vertex(p: Vec3, normal: Vec3, uv: [f32; 2]) -> Vertex {
    Vertex { position: p.to_array(), normal: normal.to_array(), uv, uv1: [0.0; 2] }
}

/// Appends a fan over the convex `polygon` (world `(x, z)`) at height `y`, wound
/// counter-clockwise seen from the side `normal` points to, UV0 `(x, z) / texture_size`.
fn fan(out: &mut Primitive, polygon: &[DVec2], y: f32, normal: Vec3, texture_size: f32) {
    if polygon.len() < 3 {
        return;
    }
    let base = out.vertices.len() as u32;
    out.vertices.extend(polygon.iter().map(|p| {
        let (x, z) = (p.x as f32, p.y as f32);
        vertex(Vec3::new(x, y, z), normal, [x / texture_size, z / texture_size])
    }));
    let at = |i: usize| Vec3::from(out.vertices[base as usize + i].position);
    let facing = (at(1) - at(0)).cross(at(2) - at(0)).dot(normal) >= 0.0;
    for i in 1..polygon.len() as u32 - 1 {
        let (b, c) = if facing { (i, i + 1) } else { (i + 1, i) };
        out.indices.extend([base, base + b, base + c]);
    }
}

/// Appends the wall `a -> b` (carved space on the side of `(b - a).perp()`) as one quad
/// from the floor to `height`, facing the carved side, UV0 (metres along it, height) over
/// `texture_size`.
fn wall_quad(out: &mut Primitive, a: DVec2, b: DVec2, height: f32, texture_size: f32) {
    let along = (b - a).as_vec2();
    let length = along.length();
    if length < 1e-4 {
        return;
    }
    let inward = along.perp() / length;
    let normal = Vec3::new(inward.x, 0.0, inward.y);
    let base = out.vertices.len() as u32;
    let (a, b) = (a.as_vec2(), b.as_vec2());
    for (p, u) in [(a, 0.0), (b, length)] {
        for y in [0.0, height] {
            out.vertices.push(vertex(Vec3::new(p.x, y, p.y), normal, [u / texture_size, y / texture_size]));
        }
    }
    // Corners: 0 a-floor, 1 a-top, 2 b-floor, 3 b-top.
    let at = |i: u32| Vec3::from(out.vertices[(base + i) as usize].position);
    let facing = (at(2) - at(0)).cross(at(1) - at(0)).dot(normal) >= 0.0;
    let order: [u32; 6] = if facing { [0, 2, 1, 1, 2, 3] } else { [0, 1, 2, 1, 3, 2] };
    out.indices.extend(order.map(|i| base + i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::level_plan;

    /// Every triangle of `mesh`'s `role` faces the way its vertices' normal says.
    fn faces_its_normal(mesh: &LevelMesh, role: MaterialRole) -> bool {
        let Some((_, prim)) = mesh.primitives.iter().find(|(r, _)| *r == role) else { return false };
        prim.indices.chunks_exact(3).all(|t| {
            let p = |i: u32| Vec3::from(prim.vertices[i as usize].position);
            let n = Vec3::from(prim.vertices[t[0] as usize].normal);
            (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).dot(n) > 0.0
        })
    }

    #[test]
    fn coarse_chunks_cover_every_floor_piece_facing_the_carved_side() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let plan = level_plan(&d, 0);
        let chunks = coarse_chunks(&plan, d.layout(), 0.0, 3.0, 4.0);
        let primitive = |role: MaterialRole| {
            let mut all = Primitive { vertices: Vec::new(), indices: Vec::new() };
            for mesh in chunks.values() {
                for (_, p) in mesh.primitives.iter().filter(|(r, _)| *r == role) {
                    let base = all.vertices.len() as u32;
                    all.vertices.extend_from_slice(&p.vertices);
                    all.indices.extend(p.indices.iter().map(|i| i + base));
                }
            }
            all
        };
        let (floor, wall) = (primitive(MaterialRole::Floor), primitive(MaterialRole::Wall));
        let mesh = LevelMesh {
            level: 0,
            floor_y: 0.0,
            primitives: vec![(MaterialRole::Floor, floor.clone()), (MaterialRole::Wall, wall.clone())],
        };
        for role in [MaterialRole::Floor, MaterialRole::Wall] {
            assert!(faces_its_normal(&mesh, role), "{role:?}");
        }
        // The floor's area is the carved pieces' area.
        let area: f32 = floor
            .indices
            .chunks_exact(3)
            .map(|t| {
                let p = |i: u32| Vec3::from(floor.vertices[i as usize].position);
                (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).length() * 0.5
            })
            .sum();
        let expected: f64 = plan
            .pieces
            .iter()
            .filter(|p| p.floor)
            .map(|p| {
                let n = p.polygon.len();
                (0..n).map(|i| p.polygon[i].perp_dot(p.polygon[(i + 1) % n])).sum::<f64>().abs() * 0.5
            })
            .sum();
        assert!((f64::from(area) - expected).abs() < 1e-3 * expected, "{area} vs {expected}");
        let walls = plan.walls.iter().filter(|w| w.kind == WallKind::Rock).count();
        assert_eq!(wall.indices.len(), walls * 6);
    }
}
