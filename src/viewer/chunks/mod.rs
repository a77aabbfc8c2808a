//! Splits a level's mesh into square chunks with bounds, so the renderer can skip chunks
//! outside the camera's frustum: draws per frame grow with what is seen, not with the
//! dungeon (a few per visible chunk: one per material role). Far chunks are drawn from a
//! coarse mesh ([`coarse`]) chosen per frame by their size on screen ([`lod`]).

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};

use crate::mesh::{LevelMesh, MaterialRole, Vertex};

pub mod coarse;
pub mod lod;

/// A chunk's place: its row (`z / size`, floored) and column (`x / size`, floored).
pub type ChunkKey = (i32, i32);

/// The chunk of a level-local point `p` for chunks of `size` metres (any `size` that is not
/// finite and positive makes one chunk).
#[must_use]
pub fn chunk_key(p: Vec3, size: f32) -> ChunkKey {
    if !(size.is_finite() && size > 0.0) {
        return (0, 0);
    }
    ((p.z / size).floor() as i32, (p.x / size).floor() as i32)
}

/// Triangles (absolute vertex indices) by chunk, then role.
pub type ChunkGroups = BTreeMap<ChunkKey, BTreeMap<MaterialRole, Vec<u32>>>;

/// The triangles of `level` grouped by chunk (by their centroid), then role, as absolute
/// indices into the returned vertex list (every primitive's vertices, in order).
#[must_use]
pub fn group_triangles(level: &LevelMesh, size: f32) -> (Vec<Vertex>, ChunkGroups) {
    let mut vertices = Vec::new();
    let mut groups = ChunkGroups::new();
    for (role, prim) in &level.primitives {
        let base = vertices.len() as u32;
        vertices.extend_from_slice(&prim.vertices);
        for tri in prim.indices.chunks_exact(3) {
            let c = tri.iter().map(|&i| Vec3::from(prim.vertices[i as usize].position)).sum::<Vec3>() / 3.0;
            groups
                .entry(chunk_key(c, size))
                .or_default()
                .entry(*role)
                .or_default()
                .extend(tri.iter().map(|&i| i + base));
        }
    }
    (vertices, groups)
}

/// One chunk: its place, its bounds (world metres) and its index ranges per role.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// Its place in the level.
    pub key: ChunkKey,
    /// Smallest corner of its triangles' bounds (world).
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
    /// Per role: first index and index count in the level's index list.
    pub draws: Vec<(MaterialRole, u32, u32)>,
}

/// A level's mesh regrouped by chunk: one vertex list, one index list (absolute indices).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChunkedLevel {
    /// All vertices of the level (level-local positions).
    pub vertices: Vec<Vertex>,
    /// Triangle list, grouped by chunk, then role.
    pub indices: Vec<u32>,
    /// The chunks, in (row, col) order.
    pub chunks: Vec<Chunk>,
}

/// Groups the triangles of `level` into square chunks of `size` metres by the position of
/// their centroid.
#[must_use]
pub fn chunk_level(level: &LevelMesh, size: f32) -> ChunkedLevel {
    let (vertices, groups) = group_triangles(level, size);
    let mut out = ChunkedLevel { vertices, ..ChunkedLevel::default() };
    let lift = Vec3::new(0.0, level.floor_y as f32, 0.0);
    for (key, roles) in groups {
        let mut chunk =
            Chunk { key, min: Vec3::splat(f32::MAX), max: Vec3::splat(f32::MIN), draws: Vec::new() };
        for (role, indices) in roles {
            for &i in &indices {
                let p = Vec3::from(out.vertices[i as usize].position) + lift;
                chunk.min = chunk.min.min(p);
                chunk.max = chunk.max.max(p);
            }
            chunk.draws.push((role, out.indices.len() as u32, indices.len() as u32));
            out.indices.extend(indices);
        }
        out.chunks.push(chunk);
    }
    out
}

/// False when the box `min..max` lies wholly outside one plane of the frustum of
/// `view_proj` (wgpu clip space: depth 0..1).
#[must_use]
pub fn in_frustum(view_proj: Mat4, min: Vec3, max: Vec3) -> bool {
    let corners = (0..8).map(|i| {
        let p = Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        );
        view_proj * p.extend(1.0)
    });
    let corners: Vec<_> = corners.collect();
    let outside = |f: &dyn Fn(glam::Vec4) -> bool| corners.iter().all(|&c| f(c));
    !(outside(&|c| c.x < -c.w)
        || outside(&|c| c.x > c.w)
        || outside(&|c| c.y < -c.w)
        || outside(&|c| c.y > c.w)
        || outside(&|c| c.z < 0.0)
        || outside(&|c| c.z > c.w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::mesh::{MeshOptions, build};

    #[test]
    fn chunks_keep_every_triangle_and_cull_what_is_behind() {
        let d = Dungeon::new(8, 8, 1, Proportions::default(), Fill::Floor).unwrap();
        let mesh = build(&d, &MeshOptions::default()).unwrap();
        let level = &mesh.levels[0];
        let total: usize = level.primitives.iter().map(|(_, p)| p.indices.len()).sum();
        let chunked = chunk_level(level, 40.0);
        assert_eq!(chunked.indices.len(), total);
        assert!(chunked.chunks.len() >= 4, "{} chunks", chunked.chunks.len());
        let counted: u32 = chunked.chunks.iter().flat_map(|c| &c.draws).map(|d| d.2).sum();
        assert_eq!(counted as usize, total);
        // A camera at the west edge looking west sees none of it; looking east sees some.
        let proj = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 500.0);
        let eye = Vec3::new(-20.0, 2.0, 60.0);
        let west = proj * glam::camera::rh::view::look_to_mat4(eye, -Vec3::X, Vec3::Y);
        let east = proj * glam::camera::rh::view::look_to_mat4(eye, Vec3::X, Vec3::Y);
        assert!(chunked.chunks.iter().all(|c| !in_frustum(west, c.min, c.max)));
        assert!(chunked.chunks.iter().any(|c| in_frustum(east, c.min, c.max)));
    }
}
