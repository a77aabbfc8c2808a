//! The live mesh of edit mode: the dungeon's mesh kept as one GPU buffer pair per mesh
//! chunk ([`crate::mesh::chunk`]), so an edit re-meshes and re-uploads only the chunks it
//! dirtied, and the change shows in the next frame. Drawn with the renderer's own shader and
//! solid pipelines (textured when the frame is: the renderer binds the texture set), inside
//! its scene pass, while edit mode is on.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::gpu::Drawn;
use crate::dungeon::Dungeon;
use crate::mesh::chunk::{ChunkId, all_chunks, build_chunks, live_options};
use crate::mesh::{MaterialRole, MeshError, MeshOptions};
use crate::viewer::chunks::in_frustum;
use crate::viewer::pipeline::{Layouts, Pipelines, Shading, SolidVariants};
use crate::viewer::renderer::{
    ChunkMesh, DRAW_SIZE, DRAW_STRIDE, DrawUniform, Frame, GLOBALS_SIZE, draw_bind_group,
};
use crate::viewer::torchlight::Torchlight;

/// The live mesh on the GPU.
pub struct LiveMesh {
    /// The renderer's solid pipelines, and the shading drawn with.
    solids: SolidVariants,
    shading: Shading,
    draw_group: wgpu::BindGroup,
    chunks: BTreeMap<ChunkId, ChunkMesh>,
    options: MeshOptions,
    /// The torch lights baked into every chunk (those of the dungeon as loaded: an edit
    /// does not move them).
    torches: Arc<Torchlight>,
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
    /// meshopt) and uploads them with the light of `torches` baked in, for a pass of
    /// `format` with `samples` MSAA.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed ([`build_chunks`]).
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
        dungeon: &Dungeon,
        options: &MeshOptions,
        torches: Arc<Torchlight>,
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
            torches,
            remeshed: 0,
        };
        live.update(device, dungeon, &all_chunks(dungeon))?;
        Ok(live)
    }

    /// Re-meshes the chunks `ids` of `dungeon`, bakes the torches' light into them and
    /// replaces their buffers; nothing else is touched.
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
            match ChunkMesh::upload(device, &mesh, &|role| slot(id.level, role), &self.torches) {
                Some(chunk) => self.chunks.insert(id, chunk),
                None => self.chunks.remove(&id),
            };
        }
        Ok(())
    }

    /// Draws the next frames textured and torch-lit as `frame` says, as the renderer does
    /// (the pipeline compiled on first use).
    pub fn shade_as(&mut self, device: &wgpu::Device, frame: &Frame) {
        let v = &frame.view;
        let torches = self.torches.uniform(frame.torches, v.orthographic, v.eye)[0] > 0.0;
        self.shading = Shading { textures: frame.textures, torches, ..Shading::DEFAULT };
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
            chunk.bind(pass);
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
