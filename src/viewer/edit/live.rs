//! The live mesh of edit mode: the dungeon's mesh kept as one GPU buffer pair per mesh
//! chunk ([`crate::mesh::chunk`]), so an edit re-meshes and re-uploads only the chunks it
//! dirtied, and the change shows in the next frame. Drawn with the renderer's own shader and
//! solid pipelines (textured when the frame is: the renderer binds the texture set), inside
//! its scene pass, while edit mode is on.

use std::collections::BTreeMap;

use wgpu::util::DeviceExt;

use super::gpu::Drawn;
use crate::dungeon::Dungeon;
use crate::mesh::chunk::{ChunkId, all_chunks, build_chunks, live_options};
use crate::mesh::{MaterialRole, MeshError, MeshOptions};
use crate::viewer::chunks::{ChunkedLevel, chunk_level, in_frustum};
use crate::viewer::pipeline::{Layouts, Pipelines, Shading, SolidVariants};
use crate::viewer::renderer::{DRAW_SIZE, DRAW_STRIDE, DrawUniform, Frame, GLOBALS_SIZE, draw_bind_group};

/// One chunk on the GPU: bounds (world metres) and per role (draw slot, first, count).
struct ChunkGpu {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    min: glam::Vec3,
    max: glam::Vec3,
    draws: Vec<(usize, u32, u32)>,
}

/// The live mesh on the GPU.
pub struct LiveMesh {
    /// The renderer's solid pipelines, and the shading drawn with.
    solids: SolidVariants,
    shading: Shading,
    draw_group: wgpu::BindGroup,
    chunks: BTreeMap<ChunkId, ChunkGpu>,
    options: MeshOptions,
    /// Chunks re-meshed so far (all of them once, then the dirty ones): for the status.
    pub remeshed: usize,
}

/// The draw slot of `role` on `level`.
fn slot(level: u16, role: MaterialRole) -> usize {
    let r = MaterialRole::ALL.iter().position(|x| *x == role).expect("invariant: known role");
    usize::from(level) * MaterialRole::ALL.len() + r
}

impl LiveMesh {
    /// Meshes every chunk of `dungeon` with `options` (as [`live_options`]: not reordered by
    /// meshopt) and uploads them, for a pass of `format` with `samples` MSAA.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed ([`build_chunks`]).
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
        dungeon: &Dungeon,
        options: &MeshOptions,
    ) -> Result<LiveMesh, MeshError> {
        let layouts = Layouts::new(device, GLOBALS_SIZE, DRAW_SIZE);
        let solids = Pipelines::new(device, &layouts, format, samples).variants;
        let draw_group = draw_uniforms(device, &layouts.draw, dungeon);
        let options = live_options(options);
        let mut live = LiveMesh {
            solids,
            shading: Shading::DEFAULT,
            draw_group,
            chunks: BTreeMap::new(),
            options,
            remeshed: 0,
        };
        live.update(device, dungeon, &all_chunks(dungeon))?;
        Ok(live)
    }

    /// Re-meshes the chunks `ids` of `dungeon` and replaces their buffers; nothing else
    /// is touched.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed; no chunk is replaced then.
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        dungeon: &Dungeon,
        ids: &[ChunkId],
    ) -> Result<(), MeshError> {
        for (id, mesh) in build_chunks(dungeon, ids, &self.options)? {
            self.remeshed += 1;
            let ChunkedLevel { vertices, indices, chunks } = chunk_level(&mesh, f32::MAX);
            // A mesh chunk may straddle the renderer's squares (the grid's first row and
            // column reach below zero): keep every square's draws, with their union's bounds.
            if indices.is_empty() {
                self.chunks.remove(&id);
                continue;
            }
            let min = chunks.iter().fold(glam::Vec3::splat(f32::MAX), |m, c| m.min(c.min));
            let max = chunks.iter().fold(glam::Vec3::splat(f32::MIN), |m, c| m.max(c.max));
            let buffer = |label, contents: &[u8], usage| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents,
                    usage,
                })
            };
            let draws = chunks
                .iter()
                .flat_map(|c| &c.draws)
                .map(|&(role, first, count)| (slot(id.level, role), first, count))
                .collect();
            self.chunks.insert(
                id,
                ChunkGpu {
                    vertices: buffer(
                        "live vertices",
                        bytemuck::cast_slice(&vertices),
                        wgpu::BufferUsages::VERTEX,
                    ),
                    indices: buffer(
                        "live indices",
                        bytemuck::cast_slice(&indices),
                        wgpu::BufferUsages::INDEX,
                    ),
                    min,
                    max,
                    draws,
                },
            );
        }
        Ok(())
    }

    /// Draws the next frames textured as `frame` says (the pipeline compiled on first use).
    pub fn shade_as(&mut self, device: &wgpu::Device, frame: &Frame) {
        self.shading = Shading { textures: frame.textures, ..Shading::DEFAULT };
        self.solids.prepare(device, self.shading);
    }

    /// Draws the chunks of `frame`'s levels inside the frustum; returns the draw calls
    /// issued and their triangles. The frame's globals must be bound at group 0 (the scene
    /// pass binds them), and for a textured frame the texture set at group 2 (the renderer
    /// binds it before its extra draws).
    ///
    /// # Panics
    /// Never: [`LiveMesh::new`] and [`LiveMesh::shade_as`] compile the pipeline drawn with.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame) -> Drawn {
        let solid = self.solids.get(self.shading).expect("invariant: prepared by new or shade_as");
        pass.set_pipeline(solid);
        let mut drawn = Drawn::default();
        for (id, chunk) in &self.chunks {
            if !frame.levels.contains(&id.level) || !in_frustum(frame.view.view_proj, chunk.min, chunk.max) {
                continue;
            }
            pass.set_vertex_buffer(0, chunk.vertices.slice(..));
            pass.set_index_buffer(chunk.indices.slice(..), wgpu::IndexFormat::Uint32);
            for &(slot, first, count) in &chunk.draws {
                pass.set_bind_group(1, &self.draw_group, &[(slot as u64 * DRAW_STRIDE) as u32]);
                pass.draw_indexed(first..first + count, 0, 0..1);
                drawn = drawn + Drawn { calls: 1, triangles: u64::from(count / 3) };
            }
        }
        drawn
    }
}

/// The per-draw uniforms: every (level, role) at [`slot`], as the renderer draws them.
fn draw_uniforms(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    dungeon: &Dungeon,
) -> wgpu::BindGroup {
    let mut draws = vec![DrawUniform::default(); usize::from(dungeon.levels()) * MaterialRole::ALL.len()];
    for level in 0..dungeon.levels() {
        let y = dungeon.proportions().floor_y(level) as f32;
        for role in MaterialRole::ALL {
            draws[slot(level, role)] = DrawUniform::level_role(usize::from(level), role, y);
        }
    }
    draw_bind_group(device, layout, "live draws", &draws)
}
