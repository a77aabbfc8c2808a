//! Uploading a level to the GPU: its mesh regrouped by chunk, its coarse mesh (for far
//! chunks) and outline regrouped by the same chunks, its rock caps; the mesh and outline
//! checked against the device's buffer limit first.

use std::collections::BTreeMap;

use glam::Vec3;
use wgpu::util::DeviceExt;

use super::uniforms::SLOTS_PER_LEVEL;
use crate::mesh::{LevelMesh, MaterialRole, Vertex};
use crate::viewer::ViewerError;
use crate::viewer::chunks::lod::{facing_sector, sector_normal};
use crate::viewer::chunks::{ChunkKey, ChunkedLevel, chunk_key, chunk_level, group_triangles};
use crate::viewer::limits::DeviceLimits;

/// One chunk of a level on the GPU: bounds, full-detail draws, its outline's lines.
pub(super) struct ChunkGpu {
    /// Smallest corner of its full and coarse triangles and outlines (world metres).
    pub(super) min: Vec3,
    /// Largest corner.
    pub(super) max: Vec3,
    /// Full detail: (draw slot, first index, index count) per role.
    pub(super) full: Vec<(usize, u32, u32)>,
    /// Its outline: first vertex and vertex count in the level's outline buffer.
    pub(super) outline: (u32, u32),
}

/// One group of a level's coarse triangles, drawn with one slot.
pub(super) struct CoarseGroup {
    /// Its draw slot (its role on its level).
    pub(super) slot: usize,
    /// For walls: the sector their normals lie in ([`facing_sector`]).
    pub(super) sector: Option<u8>,
    /// Per chunk that has some: (chunk, first index, count); each range starts where the
    /// one before it ends.
    pub(super) runs: Vec<(usize, u32, u32)>,
}

/// A level's coarse mesh on the GPU, its indices grouped by role (walls also by the way
/// they face), then chunk (in the order of [`LevelGpu::chunks`]), so neighbouring far
/// chunks draw as one call.
pub(super) struct CoarseGpu {
    /// Its vertices.
    pub(super) vertices: wgpu::Buffer,
    /// Its indices.
    pub(super) indices: wgpu::Buffer,
    /// The groups, floors first.
    pub(super) groups: Vec<CoarseGroup>,
    /// The largest angle (radians) between a wall's normal and its sector's middle.
    pub(super) spread: f32,
}

/// One level on the GPU: its chunked mesh, coarse mesh, outline and rock caps.
pub(super) struct LevelGpu {
    /// The level's vertices (all chunks).
    pub(super) vertices: wgpu::Buffer,
    /// Its indices, grouped by chunk, then role.
    pub(super) indices: wgpu::Buffer,
    /// The chunks, by place.
    pub(super) chunks: Vec<ChunkGpu>,
    /// The coarse mesh far chunks are drawn from (none: always full detail).
    pub(super) coarse: Option<CoarseGpu>,
    /// Floor outlines (line list, grouped by chunk) and vertex count.
    pub(super) outline: Option<(wgpu::Buffer, u32)>,
    /// Rock caps (triangle list) and vertex count.
    pub(super) caps: Option<(wgpu::Buffer, u32)>,
}

/// Checks that level `l`'s buffers (its chunked vertices and indices, its outline) fit the
/// device's `max_buffer_size` before any is created.
///
/// # Errors
/// [`ViewerError::LevelTooLarge`] naming the level, the buffer and the limit.
pub fn check_level_fits(
    limits: &DeviceLimits,
    l: usize,
    chunked: &ChunkedLevel,
    outline: &[Vertex],
) -> Result<(), ViewerError> {
    let bytes = |n: usize, each: usize| (n as u64).saturating_mul(each as u64);
    limits.check_level_buffer(l, "vertices", bytes(chunked.vertices.len(), size_of::<Vertex>()))?;
    limits.check_level_buffer(l, "indices", bytes(chunked.indices.len(), size_of::<u32>()))?;
    limits.check_level_buffer(l, "outline", bytes(outline.len(), size_of::<Vertex>()))
}

/// The draw slot of `role` on level `l`.
fn slot_of(l: usize, role: MaterialRole) -> usize {
    l * SLOTS_PER_LEVEL + MaterialRole::ALL.iter().position(|x| *x == role).expect("invariant: known role")
}

/// A buffer holding `contents` (one zero element when empty: buffers may not be empty).
fn buffer_of<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    contents: &[T],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let bytes: &[u8] = bytemuck::cast_slice(contents);
    let pad = vec![0u8; size_of::<T>()];
    let contents = if bytes.is_empty() { &pad[..] } else { bytes };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}

/// Uploads level `l` (its chunked mesh, its coarse mesh when given, its outline and caps)
/// and lists its chunks.
pub(super) fn upload_level(
    device: &wgpu::Device,
    l: usize,
    level: &LevelMesh,
    coarse: Option<&LevelMesh>,
    outline: &[Vertex],
    caps: &[Vertex],
    chunk_size: f32,
) -> Result<LevelGpu, ViewerError> {
    let chunked = chunk_level(level, chunk_size);
    check_level_fits(&DeviceLimits::of(device), l, &chunked, outline)?;
    let ChunkedLevel { vertices, indices, chunks } = chunked;
    let mut places: BTreeMap<ChunkKey, ChunkGpu> = chunks
        .into_iter()
        .map(|c| {
            let full = c.draws.iter().map(|&(role, first, count)| (slot_of(l, role), first, count)).collect();
            (c.key, ChunkGpu { min: c.min, max: c.max, full, outline: (0, 0) })
        })
        .collect();
    let lift = Vec3::Y * level.floor_y as f32;
    let outline = group_outline(outline, chunk_size, lift, &mut places);
    let coarse = coarse.map(|mesh| group_coarse(mesh, chunk_size, &mut places));
    let keys: Vec<ChunkKey> = places.keys().copied().collect();
    let coarse = coarse.map(|(vertices, roles, spread)| {
        let mut indices = Vec::new();
        let groups = roles
            .into_iter()
            .map(|((role, sector), by_chunk)| {
                let runs = by_chunk
                    .into_iter()
                    .map(|(key, list)| {
                        let chunk = keys.binary_search(&key).expect("invariant: every key is a place");
                        let first = indices.len() as u32;
                        indices.extend(list);
                        (chunk, first, indices.len() as u32 - first)
                    })
                    .collect();
                CoarseGroup { slot: slot_of(l, role), sector, runs }
            })
            .collect();
        CoarseGpu {
            vertices: buffer_of(device, "coarse vertices", &vertices, wgpu::BufferUsages::VERTEX),
            indices: buffer_of(device, "coarse indices", &indices, wgpu::BufferUsages::INDEX),
            groups,
            spread,
        }
    });
    Ok(LevelGpu {
        vertices: buffer_of(device, "level vertices", &vertices, wgpu::BufferUsages::VERTEX),
        indices: buffer_of(device, "level indices", &indices, wgpu::BufferUsages::INDEX),
        chunks: places.into_values().collect(),
        coarse,
        outline: (!outline.is_empty()).then(|| {
            (buffer_of(device, "outline", &outline, wgpu::BufferUsages::VERTEX), outline.len() as u32)
        }),
        caps: triangles_buffer(device, "rock caps", caps),
    })
}

/// The chunk of `key` in `places`, made empty (bounds to be grown) when new.
fn place(places: &mut BTreeMap<ChunkKey, ChunkGpu>, key: ChunkKey) -> &mut ChunkGpu {
    places.entry(key).or_insert_with(|| ChunkGpu {
        min: Vec3::splat(f32::MAX),
        max: Vec3::splat(f32::MIN),
        full: Vec::new(),
        outline: (0, 0),
    })
}

/// The outline's lines regrouped by chunk (by their midpoint); each chunk's range and
/// bounds (lifted by `lift` to world metres) are set in `places`.
fn group_outline(
    outline: &[Vertex],
    size: f32,
    lift: Vec3,
    places: &mut BTreeMap<ChunkKey, ChunkGpu>,
) -> Vec<Vertex> {
    let mut by_chunk: BTreeMap<ChunkKey, Vec<Vertex>> = BTreeMap::new();
    for line in outline.chunks_exact(2) {
        let mid = (Vec3::from(line[0].position) + Vec3::from(line[1].position)) * 0.5;
        by_chunk.entry(chunk_key(mid, size)).or_default().extend_from_slice(line);
    }
    let mut out = Vec::with_capacity(outline.len());
    for (key, lines) in by_chunk {
        let chunk = place(places, key);
        for v in &lines {
            let p = Vec3::from(v.position) + lift;
            chunk.min = chunk.min.min(p);
            chunk.max = chunk.max.max(p);
        }
        chunk.outline = (out.len() as u32, lines.len() as u32);
        out.extend(lines);
    }
    out
}

/// Coarse triangles (absolute indices) by role and wall sector, then chunk.
type CoarseGroups = BTreeMap<(MaterialRole, Option<u8>), BTreeMap<ChunkKey, Vec<u32>>>;

/// Per role of the coarse `mesh` (walls also per [`facing_sector`]), per chunk, its
/// triangles (absolute indices into the returned vertices), and the largest angle between a
/// wall's normal and its sector's middle; the chunks' bounds in `places` grow to hold them.
fn group_coarse(
    mesh: &LevelMesh,
    size: f32,
    places: &mut BTreeMap<ChunkKey, ChunkGpu>,
) -> (Vec<Vertex>, CoarseGroups, f32) {
    let (vertices, groups) = group_triangles(mesh, size);
    let lift = Vec3::Y * mesh.floor_y as f32;
    let mut out = CoarseGroups::new();
    let mut spread = 0.0f32;
    for (key, by_role) in groups {
        let chunk = place(places, key);
        for (role, list) in by_role {
            for tri in list.chunks_exact(3) {
                for &i in tri {
                    let p = Vec3::from(vertices[i as usize].position) + lift;
                    chunk.min = chunk.min.min(p);
                    chunk.max = chunk.max.max(p);
                }
                let normal = Vec3::from(vertices[tri[0] as usize].normal);
                let sector = if role == MaterialRole::Wall { facing_sector(normal) } else { None };
                if let Some(s) = sector {
                    spread = spread.max(normal.angle_between(sector_normal(s)));
                }
                out.entry((role, sector)).or_default().entry(key).or_default().extend_from_slice(tri);
            }
        }
    }
    (vertices, out, spread)
}

/// A vertex buffer of `triangles` (none when empty) and its vertex count.
pub(super) fn triangles_buffer(
    device: &wgpu::Device,
    label: &str,
    triangles: &[Vertex],
) -> Option<(wgpu::Buffer, u32)> {
    (!triangles.is_empty()).then(|| {
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(triangles),
            usage: wgpu::BufferUsages::VERTEX,
        });
        (buffer, triangles.len() as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::scene::Scene;

    #[test]
    fn a_level_past_the_buffer_limit_is_refused_naming_level_and_limit() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let scene = Scene::new(&d, &crate::mesh::MeshOptions::default()).unwrap();
        let chunked = chunk_level(&scene.mesh.levels[1], scene.chunk_size);
        let vertex_bytes = (chunked.vertices.len() * size_of::<Vertex>()) as u64;
        let fits = DeviceLimits { max_texture_dimension: 16384, max_buffer_size: 1 << 28 };
        assert!(check_level_fits(&fits, 1, &chunked, &scene.outlines[1]).is_ok());
        // A limit one byte below what the level's vertices need: refused before any upload.
        let tight = DeviceLimits { max_buffer_size: vertex_bytes - 1, ..fits };
        let e = check_level_fits(&tight, 1, &chunked, &scene.outlines[1]).unwrap_err();
        assert!(
            matches!(e, ViewerError::LevelTooLarge { level: 1, what: "vertices", bytes, max }
                if bytes == vertex_bytes && max == vertex_bytes - 1),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.contains("level 1")
                && text.contains("max_buffer_size")
                && text.contains(&format!("{}", vertex_bytes - 1)),
            "{text}"
        );
    }
}
