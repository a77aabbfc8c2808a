//! PROVISIONAL: replaced by the real mesh builder at merge.
//!
//! A stand-in with the real builder's signature so the viewer runs before it lands: floors
//! and ceilings of every carved piece (cells and carved seams, fan-triangulated), rock
//! walls from floor to ceiling, the eight walls of each stair shaft above the room, and a
//! stepped spiral (top faces, risers and the column only) where the walk model puts the
//! ramp (`walk::Stair`). No closed stair solid, no door frames, no lightmap UVs.

use glam::DVec2;

use super::{DungeonMesh, LevelMesh, MaterialRole, Primitive, Vertex};
use crate::dungeon::Dungeon;
use crate::walk::{
    COLUMN_RADIUS, LANDING, WallKind, compass_angle, compass_dir, is_stair, level_plan, stair_exit,
};

/// Options of the mesh builder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshOptions {
    /// Side of one texture repeat in metres (UV0 = world metres / texture_size).
    pub texture_size: f64,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions { texture_size: 4.0 }
    }
}

/// Why a mesh could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// The texture size is not a finite positive length.
    #[error("mesh option texture_size = {texture_size}: must be finite and positive (metres)")]
    InvalidTextureSize {
        /// The rejected value.
        texture_size: f64,
    },
}

/// Builds the mesh of every level of `dungeon`.
pub fn build(dungeon: &Dungeon, options: &MeshOptions) -> Result<DungeonMesh, MeshError> {
    let t = options.texture_size;
    if !t.is_finite() || t <= 0.0 {
        return Err(MeshError::InvalidTextureSize { texture_size: t });
    }
    let p = dungeon.proportions();
    let (room, shaft) = (p.room_height as f32, p.layer_height as f32);
    let levels = (0..dungeon.levels())
        .map(|level| {
            let plan = level_plan(dungeon, level);
            let mut prims: Vec<(MaterialRole, Primitive)> = Vec::new();
            let mut floor = Primitive::default();
            let mut ceiling = Primitive::default();
            let mut wall = Primitive::default();
            for piece in &plan.pieces {
                if piece.floor {
                    fan(&mut floor, &piece.polygon, 0.0, true, t);
                }
                if piece.ceiling {
                    fan(&mut ceiling, &piece.polygon, room, false, t);
                }
            }
            for w in plan.walls.iter().filter(|w| w.kind == WallKind::Rock) {
                quad(&mut wall, w.a, w.b, 0.0, room, t);
            }
            let mut stair = Primitive::default();
            for slot in dungeon.dims().cells() {
                let pos = crate::grid::Pos { level, slot };
                if is_stair(dungeon, pos) {
                    let poly = dungeon.layout().cell_polygon(slot).expect("invariant: stair on a cell");
                    for i in 0..poly.len() {
                        quad(&mut wall, poly[i], poly[(i + 1) % poly.len()], room, shaft, t);
                    }
                    if let Some(exit) = stair_exit(dungeon, pos) {
                        let (dr, dc) = exit.unit();
                        let start = compass_angle(DVec2::new(f64::from(dc), f64::from(dr)));
                        spiral(&mut stair, dungeon.layout().center(slot), start, p.half_base(), shaft, t);
                    }
                }
            }
            for (role, prim) in [
                (MaterialRole::Floor, floor),
                (MaterialRole::Wall, wall),
                (MaterialRole::Ceiling, ceiling),
                (MaterialRole::Stair, stair),
            ] {
                if !prim.indices.is_empty() {
                    prims.push((role, prim));
                }
            }
            prims.sort_by_key(|(r, _)| *r);
            LevelMesh { level, floor_y: p.floor_y(level), primitives: prims }
        })
        .collect();
    Ok(DungeonMesh { levels })
}

fn vertex(p: DVec2, y: f32, normal: [f32; 3], uv: [f32; 2]) -> Vertex {
    Vertex { position: [p.x as f32, y, p.y as f32], normal, uv, uv1: [0.0, 0.0] }
}

/// A fan over a positively wound (x, z) polygon: facing up for floors, down for ceilings.
fn fan(prim: &mut Primitive, polygon: &[DVec2], y: f32, up: bool, t: f64) {
    let base = prim.vertices.len() as u32;
    let normal = if up { [0.0, 1.0, 0.0] } else { [0.0, -1.0, 0.0] };
    prim.vertices.extend(polygon.iter().map(|&v| vertex(v, y, normal, [(v.x / t) as f32, (v.y / t) as f32])));
    for i in 1..polygon.len() as u32 - 1 {
        // Positive (x, z) winding faces down (x cross z = -y), so floors reverse it.
        if up {
            prim.indices.extend([base, base + i + 1, base + i]);
        } else {
            prim.indices.extend([base, base + i, base + i + 1]);
        }
    }
}

/// A wall quad on segment a -> b from y0 to y1, facing the segment's left (carved) side.
fn quad(prim: &mut Primitive, a: DVec2, b: DVec2, y0: f32, y1: f32, t: f64) {
    let n = (b - a).perp().normalize();
    let normal = [n.x as f32, 0.0, n.y as f32];
    let len = ((b - a).length() / t) as f32;
    let u0 = ((a.x + a.y) / t) as f32;
    let (v0, v1) = (y0 / t as f32, y1 / t as f32);
    let base = prim.vertices.len() as u32;
    prim.vertices.extend([
        vertex(a, y0, normal, [u0, v0]),
        vertex(b, y0, normal, [u0 + len, v0]),
        vertex(b, y1, normal, [u0 + len, v1]),
        vertex(a, y1, normal, [u0, v1]),
    ]);
    prim.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
}

/// Steps of one turn of the spiral (the rise per step stays under 0.25 m for 12 m levels).
const SPIRAL_STEPS: usize = 64;

/// A stepped spiral round `centre` rising `rise` in one clockwise turn from compass angle
/// `start`, ending in a landing; out to `radius`, round a column.
fn spiral(prim: &mut Primitive, centre: DVec2, start: f64, radius: f64, rise: f32, t: f64) {
    let tau = std::f64::consts::TAU;
    let at = |a: f64, r: f64| centre + compass_dir(a) * r;
    for i in 0..SPIRAL_STEPS {
        let (a0, a1) = (
            start + tau * i as f64 / SPIRAL_STEPS as f64,
            start + tau * (i + 1) as f64 / SPIRAL_STEPS as f64,
        );
        let frac = (i as f64 + 0.5) / SPIRAL_STEPS as f64;
        let h = rise * ((frac / (1.0 - LANDING)).min(1.0) as f32);
        // Tread, wound positively in (x, z) like every other floor piece.
        let tread = [at(a0, radius), at(a1, radius), at(a1, COLUMN_RADIUS), at(a0, COLUMN_RADIUS)];
        fan(prim, &tread, h, true, t);
        // Riser at the step's start, facing the way down the spiral.
        let prev = rise * (((i as f64 - 0.5) / SPIRAL_STEPS as f64 / (1.0 - LANDING)).clamp(0.0, 1.0) as f32);
        if i > 0 && h > prev {
            quad(prim, at(a0, radius), at(a0, COLUMN_RADIUS), prev, h, t);
        }
    }
    let sides = 16;
    for i in 0..sides {
        let (a0, a1) = (tau * i as f64 / sides as f64, tau * (i + 1) as f64 / sides as f64);
        // Column faces point outward: walk the circle the other way round.
        quad(prim, at(a1, COLUMN_RADIUS), at(a0, COLUMN_RADIUS), 0.0, rise, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    #[test]
    fn floors_face_up_and_bad_options_fail() {
        let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        let mesh = build(&d, &MeshOptions::default()).unwrap();
        let (role, floor) = &mesh.levels[0].primitives[0];
        assert_eq!(*role, MaterialRole::Floor);
        for tri in floor.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|i| glam::Vec3::from(floor.vertices[tri[i] as usize].position));
            assert!((b - a).cross(c - a).y > 0.0, "floor triangles wind counter-clockwise from above");
        }
        let bad = build(&d, &MeshOptions { texture_size: 0.0 });
        assert_eq!(bad, Err(MeshError::InvalidTextureSize { texture_size: 0.0 }));
    }
}
