//! The coarse mesh of a level, drawn for chunks far from the camera: the floors of the
//! carved pieces, joined where that saves triangles (rows and columns of octagons, a
//! connector with the diagonal seams that open off it: [`super::merge::merged_floors`]),
//! and every straight run of rock wall as one quad from floor to ceiling
//! ([`super::merge::wall_runs`]). No ceilings (a chunk is far only from an
//! overview, whose camera is above them: they face away), outlines, door frames, stair
//! solids or wall panels, in the same colours (one primitive per role). It is built from the
//! level plan, never from the full mesh, and cut by mesh chunk ([`super::owner_chunk`]) so
//! a far chunk's coarse triangles stand for the same cells as its full mesh.

use glam::{DVec2, DVec3, Vec3};

use super::ByChunk;
use super::merge::{WallRun, merged_floors};
use crate::mesh::panel::{Panel, at, uv0};
use crate::mesh::{LevelMesh, MaterialRole, Primitive, Vertex};
use crate::walk::LevelPlan;

/// The coarse mesh of `plan`'s level per mesh chunk, whose floor is at `floor_y` (world
/// metres): floors of the carved pieces
/// ([`super::merge::merged_floors`]: a polygon of `n` corners makes `n - 2` triangles) and
/// its rock walls' straight runs `walls` ([`super::merge::wall_runs`] of the plan: two
/// triangles each, as high as the run), level-local, counter-clockwise seen from the carved side as the full
/// mesh is. A piece goes to the chunk of its cell or seam, a wall to the chunk of the piece
/// it bounds. UV0 is the full mesh's (`mesh::panel::uv0`: metres in the panel's frame over
/// `texture_size`, less its whole-number shift), each floor polygon and wall run its own
/// panel.
#[must_use]
pub fn coarse_chunks(
    plan: &LevelPlan,
    walls: &[WallRun],
    floor_y: f64,
    texture_size: f32,
) -> ByChunk<LevelMesh> {
    let inv = 1.0 / f64::from(texture_size);
    let mut parts: ByChunk<[Primitive; 2]> = ByChunk::new();
    let empty = || [(); 2].map(|()| Primitive { vertices: Vec::new(), indices: Vec::new() });
    for polygon in merged_floors(plan) {
        let [floor, _] = parts.entry(polygon.chunk).or_insert_with(empty);
        floor_polygon(floor, &polygon.outline, &polygon.triangles, 0.0, inv);
    }
    for run in walls {
        let [_, wall] = parts.entry(run.chunk).or_insert_with(empty);
        wall_quad(wall, run.a, run.b, run.height, inv);
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

/// A vertex at `p` with `normal` and texture coordinates `uv`.
fn vertex(p: Vec3, normal: Vec3, uv: [f32; 2]) -> Vertex {
    Vertex { position: p.to_array(), normal: normal.to_array(), uv, uv1: [0.0; 2] }
}

/// Appends `points`, the corners of a polygon in `panel`'s plane, as vertices with UV0 as
/// the full mesh writes it (the panel's frame, [`uv0`]) at `inv` repeats per metre; returns
/// the index of the first.
fn push_corners(out: &mut Primitive, panel: &Panel, points: &[DVec3], inv: f64) -> u32 {
    let base = out.vertices.len() as u32;
    let panel = panel.view();
    let origin = panel.uv_origin_of(points.iter().copied(), inv);
    let normal = panel.frame.normal.as_vec3();
    out.vertices
        .extend(points.iter().map(|&p| vertex(p.as_vec3(), normal, uv0(panel.uv_metres(p), inv, origin))));
    base
}

/// Appends the polygon `outline` (world `(x, z)`) at height `y` as a floor panel at `inv`
/// texture repeats per metre: its corners once, and its `triangles` (corner indices) each
/// wound counter-clockwise seen from above.
fn floor_polygon(out: &mut Primitive, outline: &[DVec2], triangles: &[[u32; 3]], y: f64, inv: f64) {
    if outline.len() < 3 {
        return;
    }
    let panel = Panel::horizontal(MaterialRole::Floor, true);
    let points: Vec<DVec3> = outline.iter().map(|&p| at(p, y)).collect();
    let base = push_corners(out, &panel, &points, inv);
    for &[a, b, c] in triangles {
        let p = |i: u32| points[i as usize];
        let facing = (p(b) - p(a)).cross(p(c) - p(a)).dot(panel.frame.normal) >= 0.0;
        let (b, c) = if facing { (b, c) } else { (c, b) };
        out.indices.extend([base + a, base + b, base + c]);
    }
}

/// Appends the wall `a -> b` (carved space on the side of `(b - a).perp()`) as one quad
/// from the floor to `height`, facing the carved side, as a wall panel (UV0 in its frame)
/// at `inv` texture repeats per metre.
fn wall_quad(out: &mut Primitive, a: DVec2, b: DVec2, height: f64, inv: f64) {
    let along = b - a;
    if along.length() < 1e-4 {
        return;
    }
    let panel = Panel::vertical(MaterialRole::Wall, a, b, (a + b) * 0.5 + along.perp());
    // Corners: 0 a-floor, 1 a-top, 2 b-floor, 3 b-top.
    let points = [at(a, 0.0), at(a, height), at(b, 0.0), at(b, height)];
    let base = push_corners(out, &panel, &points, inv);
    let facing = (points[2] - points[0]).cross(points[1] - points[0]).dot(panel.frame.normal) >= 0.0;
    let order: [u32; 6] = if facing { [0, 2, 1, 1, 2, 3] } else { [0, 1, 2, 1, 3, 2] };
    out.indices.extend(order.map(|i| base + i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::chunks::merge::wall_runs;
    use crate::walk::{WallKind, level_plan};

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
    fn coarse_uv0_is_the_full_meshs_where_they_share_a_point() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let full = crate::mesh::build(&d, &crate::mesh::MeshOptions::default()).unwrap();
        let plan = level_plan(&d, 0);
        let chunks = coarse_chunks(&plan, &wall_runs(&plan, d.layout()), 0.0, 4.0);
        for role in [MaterialRole::Floor, MaterialRole::Wall] {
            // The full mesh's UV0 by (position, normal), in whole millimetres.
            let key = |v: &Vertex| {
                let mm = |x: f32| (x * 1000.0).round() as i64;
                (v.position.map(mm), v.normal.map(|n| (n * 100.0).round() as i64))
            };
            let mut uv_at = std::collections::BTreeMap::new();
            for (_, prim) in full.levels[0].primitives.iter().filter(|(r, _)| *r == role) {
                for v in &prim.vertices {
                    uv_at.insert(key(v), v.uv);
                }
            }
            let (mut shared, mut coarse) = (0, 0);
            for (_, prim) in chunks.values().flat_map(|m| m.primitives.iter()).filter(|(r, _)| *r == role) {
                for v in &prim.vertices {
                    coarse += 1;
                    if let Some(uv) = uv_at.get(&key(v)) {
                        shared += 1;
                        // The same texture place: equal up to a whole number of repeats (a
                        // full-mesh panel may be a part of the coarse one).
                        for i in 0..2 {
                            let d = f64::from(uv[i] - v.uv[i]);
                            assert!(
                                (d - d.round()).abs() < 1e-4,
                                "{role:?} at {:?}: {uv:?} vs {:?}",
                                v.position,
                                v.uv
                            );
                        }
                    }
                }
            }
            assert!(
                shared * 2 > coarse,
                "{role:?}: only {shared} of {coarse} coarse vertices found in the full mesh"
            );
        }
    }

    #[test]
    fn coarse_chunks_cover_every_floor_piece_facing_the_carved_side() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let plan = level_plan(&d, 0);
        let chunks = coarse_chunks(&plan, &wall_runs(&plan, d.layout()), 0.0, 4.0);
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
        // The walls' area is the rock walls' length times the room height (3 m), in at most
        // one quad per wall.
        let area_of = |p: &Primitive| -> f64 {
            p.indices
                .chunks_exact(3)
                .map(|t| {
                    let q = |i: u32| Vec3::from(p.vertices[i as usize].position).as_dvec3();
                    (q(t[1]) - q(t[0])).cross(q(t[2]) - q(t[0])).length() * 0.5
                })
                .sum()
        };
        let rock: Vec<_> = plan.walls.iter().filter(|w| w.kind == WallKind::Rock).collect();
        let length: f64 = rock.iter().map(|w| (w.b - w.a).length()).sum();
        // Each wall as high as the plan says (its cell's room height, a seam's height).
        let want: f64 = rock.iter().map(|w| (w.b - w.a).length() * w.height).sum();
        assert!((area_of(&wall) - want).abs() < 1e-4 * length, "{} vs {want}", area_of(&wall));
        assert!(wall.indices.len() <= rock.len() * 6);
    }
}
