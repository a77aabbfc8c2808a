//! One mesh chunk's full-detail mesh on the GPU: a vertex and an index buffer and a draw
//! per material role. The renderer keeps the chunks a frame needs ([`super::demand`]); edit
//! mode's live mesh keeps those its frames show and replaces the ones an edit dirtied.

use wgpu::util::DeviceExt;

use crate::mesh::{LevelMesh, MaterialRole};
use crate::viewer::torchlight::Torchlight;

/// A chunk's mesh on the GPU.
pub(crate) struct ChunkMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Per role that has triangles: (draw slot, first index, index count).
    pub(crate) draws: Vec<(usize, u32, u32)>,
    /// Smallest corner of its vertices (world metres).
    pub(crate) min: glam::Vec3,
    /// Largest corner.
    pub(crate) max: glam::Vec3,
}

impl ChunkMesh {
    /// Uploads `mesh` (one chunk, level-local) as one vertex and one index list, a draw per
    /// primitive at the slot `slot` gives its role, with the light of `torches` baked in;
    /// `None` when it has no triangle.
    pub(crate) fn upload(
        device: &wgpu::Device,
        mesh: &LevelMesh,
        slot: &dyn Fn(MaterialRole) -> usize,
        torches: &Torchlight,
    ) -> Option<ChunkMesh> {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut draws = Vec::new();
        let lift = glam::Vec3::Y * mesh.floor_y as f32;
        let (mut min, mut max) = (glam::Vec3::splat(f32::MAX), glam::Vec3::splat(f32::MIN));
        for (role, prim) in mesh.primitives.iter().filter(|(_, p)| !p.indices.is_empty()) {
            let base = vertices.len() as u32;
            for v in &prim.vertices {
                let p = glam::Vec3::from(v.position) + lift;
                (min, max) = (min.min(p), max.max(p));
            }
            vertices.extend_from_slice(&prim.vertices);
            draws.push((slot(*role), indices.len() as u32, prim.indices.len() as u32));
            indices.extend(prim.indices.iter().map(|i| i + base));
        }
        if indices.is_empty() {
            return None;
        }
        torches.bake(&mut vertices, lift.y);
        let buffer = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        Some(ChunkMesh {
            vertices: buffer("chunk vertices", bytemuck::cast_slice(&vertices), wgpu::BufferUsages::VERTEX),
            indices: buffer("chunk indices", bytemuck::cast_slice(&indices), wgpu::BufferUsages::INDEX),
            draws,
            min,
            max,
        })
    }

    /// Binds its buffers in `pass` for its draws.
    pub(crate) fn bind(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
    }
}
