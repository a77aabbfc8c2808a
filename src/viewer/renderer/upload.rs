//! Uploading a level to the GPU: its mesh regrouped by chunk, its outline and rock caps,
//! each checked against the device's buffer limit first.

use wgpu::util::DeviceExt;

use super::uniforms::SLOTS_PER_LEVEL;
use crate::mesh::{LevelMesh, MaterialRole, Vertex};
use crate::viewer::ViewerError;
use crate::viewer::chunks::{ChunkedLevel, chunk_level};
use crate::viewer::limits::DeviceLimits;

/// A chunk's bounds (world metres) and its draws: (draw slot, first index, index count).
pub(super) type ChunkDraws = (glam::Vec3, glam::Vec3, Vec<(usize, u32, u32)>);

/// One level on the GPU: its chunked mesh, outline and rock caps.
pub(super) struct LevelGpu {
    /// The level's vertices (all chunks).
    pub(super) vertices: wgpu::Buffer,
    /// Its indices, grouped by chunk, then role.
    pub(super) indices: wgpu::Buffer,
    /// Per chunk: bounds and its draws.
    pub(super) chunks: Vec<ChunkDraws>,
    /// Floor outlines (line list) and vertex count.
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

/// Uploads level `l` (its chunked mesh and its outline) and lists its draws by chunk.
pub(super) fn upload_level(
    device: &wgpu::Device,
    l: usize,
    level: &LevelMesh,
    outline: &[Vertex],
    caps: &[Vertex],
    chunk_size: f32,
) -> Result<LevelGpu, ViewerError> {
    let chunked = chunk_level(level, chunk_size);
    check_level_fits(&DeviceLimits::of(device), l, &chunked, outline)?;
    let ChunkedLevel { vertices, indices, chunks } = chunked;
    let slot_of = |role: MaterialRole| {
        l * SLOTS_PER_LEVEL
            + MaterialRole::ALL.iter().position(|x| *x == role).expect("invariant: known role")
    };
    let chunks = chunks
        .into_iter()
        .map(|c| {
            let draws = c.draws.iter().map(|&(role, first, count)| (slot_of(role), first, count)).collect();
            (c.min, c.max, draws)
        })
        .collect();
    let buffer = |label, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
    };
    let outline = (!outline.is_empty()).then(|| {
        (buffer("outline", bytemuck::cast_slice(outline), wgpu::BufferUsages::VERTEX), outline.len() as u32)
    });
    // Buffers may not be empty: pad with one vertex / index.
    let vertex_bytes: &[u8] =
        if vertices.is_empty() { &[0u8; size_of::<Vertex>()] } else { bytemuck::cast_slice(&vertices) };
    let index_bytes: &[u8] = if indices.is_empty() { &[0u8; 4] } else { bytemuck::cast_slice(&indices) };
    Ok(LevelGpu {
        vertices: buffer("level vertices", vertex_bytes, wgpu::BufferUsages::VERTEX),
        indices: buffer("level indices", index_bytes, wgpu::BufferUsages::INDEX),
        chunks,
        outline,
        caps: triangles_buffer(device, "rock caps", caps),
    })
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
