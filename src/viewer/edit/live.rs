//! The live mesh of edit mode: the dungeon's mesh kept as one GPU buffer pair per mesh
//! chunk ([`crate::mesh::chunk`]), so an edit re-meshes and re-uploads only the chunks it
//! dirtied, and the change shows in the next frame. Chunks are meshed when a frame first
//! shows them (inside the frustum, on a shown level) and kept in the viewer's chunk cache
//! ([`Demand`]), so turning edit mode on costs what the view shows, not the whole dungeon.
//! Drawn with the renderer's own shader and solid pipelines (textured when the frame is:
//! the renderer binds the texture set), inside its scene pass, while edit mode is on; the
//! rock caps of the levels shown too, where the frame draws caps (the top view), rebuilt
//! for a level an edit touched.

use std::sync::Arc;

use glam::Vec3;

use super::gpu::Drawn;
use crate::dungeon::Dungeon;
use crate::mesh::chunk::{ChunkId, all_chunks, build_chunks, live_options};
use crate::mesh::{MaterialRole, MeshError, MeshOptions};
use crate::viewer::chunks::demand::{DEFAULT_CAPACITY, Demand, DemandStats};
use crate::viewer::chunks::{chunk_bounds, in_frustum};
use crate::viewer::pipeline::{Layouts, Pipelines, Shading, SolidVariants};
use crate::viewer::renderer::{
    ChunkMesh, DRAW_SIZE, DRAW_STRIDE, DrawUniform, Frame, GLOBALS_SIZE, draw_bind_group, triangles_buffer,
};
use crate::viewer::scene::lit_level_caps;
use crate::viewer::torchlight::{TORCH_RANGE, Torchlight};

/// The live mesh on the GPU.
pub struct LiveMesh {
    /// The renderer's solid pipelines, and the shading drawn with.
    solids: SolidVariants,
    /// The renderer's pipeline for flat upward faces seen from straight above: the caps.
    flat: wgpu::RenderPipeline,
    /// Each level's rock caps, once a frame with caps showed it (`None`: not built, or
    /// an edit touched the level since); an inner `None` for a level without any.
    shading: Shading,
    draw_group: wgpu::BindGroup,
    /// The chunks meshed so far (`None`: nothing to draw in it), the least used dropped
    /// past the cache's capacity.
    chunks: Demand<Option<ChunkMesh>>,
    /// Every chunk of the dungeon (edits never change its size), in mesh order.
    all: Vec<ChunkId>,
    /// The chunks the last [`LiveMesh::prepare`] found in view, in mesh order.
    in_view: Vec<ChunkId>,
    options: MeshOptions,
    caps: Vec<Option<Option<(wgpu::Buffer, u32)>>>,
    /// The torch lights baked into every chunk: where the dungeon's rooms put them
    /// ([`LiveMesh::set_torches`] moves them after edits).
    torches: Arc<Torchlight>,
}

/// The draw slot of `role` on `level`.
fn slot(level: u16, role: MaterialRole) -> usize {
    usize::from(level) * MaterialRole::ALL.len() + role.index()
}

/// The draw slot of the rock caps of `level` of a dungeon of `levels`: after every role's.
fn cap_slot(levels: usize, level: u16) -> usize {
    levels * MaterialRole::ALL.len() + usize::from(level)
}

impl LiveMesh {
    /// An empty live mesh of `dungeon`, meshed with `options` (as [`live_options`]: not
    /// reordered by meshopt) as frames show its chunks ([`LiveMesh::prepare`]) and uploaded
    /// with the light of `torches` baked in, for a pass of `format` with `samples` MSAA.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
        dungeon: &Dungeon,
        options: &MeshOptions,
        torches: Arc<Torchlight>,
    ) -> LiveMesh {
        let layouts = Layouts::new(device, GLOBALS_SIZE, DRAW_SIZE);
        let pipelines = Pipelines::new(device, &layouts, format, samples);
        let draw_group = draw_uniforms(device, &layouts.draw, dungeon);
        let all = all_chunks(dungeon);
        LiveMesh {
            solids: pipelines.variants,
            flat: pipelines.flat,
            caps: (0..dungeon.levels()).map(|_| None).collect(),
            shading: Shading::DEFAULT,
            draw_group,
            chunks: Demand::new(all.len(), DEFAULT_CAPACITY, None),
            all,
            in_view: Vec::new(),
            options: live_options(options),
            torches,
        }
    }

    /// Before `frame` is drawn: meshes and uploads the chunks of `dungeon` it shows (on its
    /// levels, inside its frustum) that are not meshed yet, all of them (an edited
    /// dungeon has no coarse stand-in), and drops the chunks unused longest past the
    /// cache's capacity.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed; the chunks of that batch are drawn
    /// empty then (and not tried again until an edit dirties them).
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        dungeon: &Dungeon,
        frame: &Frame,
    ) -> Result<(), MeshError> {
        let (layout, proportions) = (dungeon.layout(), dungeon.proportions());
        self.chunks.begin_frame();
        self.in_view.clear();
        for &id in self.all.iter().filter(|id| frame.levels.contains(&id.level)) {
            let (min, max) = chunk_bounds(layout, proportions, id);
            if in_frustum(frame.view.view_proj, min, max) {
                self.chunks.want(id, frame.view.eye.clamp(min, max).distance(frame.view.eye));
                self.in_view.push(id);
            }
        }
        let missing = self.chunks.to_build();
        let built =
            if missing.is_empty() { Ok(Vec::new()) } else { build_chunks(dungeon, &missing, &self.options) };
        let result = match built {
            Ok(built) => {
                for (id, mesh) in built {
                    self.chunks.insert(
                        id,
                        ChunkMesh::upload(device, &mesh, &|role| slot(id.level, role), &self.torches),
                    );
                }
                Ok(())
            }
            Err(e) => {
                // Left out (drawn empty) rather than tried again every frame; an edit of
                // one of them re-meshes it.
                for id in missing {
                    self.chunks.insert(id, None);
                }
                Err(e)
            }
        };
        self.chunks.finish_frame();
        if frame.caps {
            self.prepare_caps(device, dungeon, frame);
        }
        result
    }

    /// Builds the rock caps of the levels `frame` shows that have none yet.
    fn prepare_caps(&mut self, device: &wgpu::Device, dungeon: &Dungeon, frame: &Frame) {
        let levels = self.caps.len();
        for level in frame.levels.clone().filter(|&l| usize::from(l) < levels) {
            let caps = &mut self.caps[usize::from(level)];
            if caps.is_none() {
                let vertices = lit_level_caps(dungeon, level, &self.torches);
                *caps = Some(triangles_buffer(device, "live rock caps", &vertices));
            }
        }
    }

    /// Re-meshes those of the chunks `ids` of `dungeon` that are meshed, bakes the torches'
    /// light into them and replaces their buffers (a chunk not meshed yet is meshed from the
    /// edited dungeon when a frame shows it); nothing else is touched.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed; no chunk is replaced then.
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        dungeon: &Dungeon,
        ids: &[ChunkId],
    ) -> Result<(), MeshError> {
        for id in ids {
            // Built again from the edited level when a frame shows caps.
            self.caps[usize::from(id.level)] = None;
        }
        let meshed: Vec<ChunkId> = ids.iter().copied().filter(|&id| self.chunks.get(id).is_some()).collect();
        for (id, mesh) in build_chunks(dungeon, &meshed, &self.options)? {
            self.chunks
                .insert(id, ChunkMesh::upload(device, &mesh, &|role| slot(id.level, role), &self.torches));
        }
        Ok(())
    }

    /// Lights the mesh with torches at `positions` (world metres: where the edited
    /// dungeon's rooms put them, [`crate::viewer::markers::torch_positions`]). The meshed
    /// chunks within reach of a torch that came or went are meshed again with the new
    /// light baked in; the others keep theirs. True when a torch came or went.
    ///
    /// # Errors
    /// [`MeshError`] when a chunk cannot be meshed: the new torches are kept, and the
    /// chunks not replaced keep the old light.
    pub fn set_torches(
        &mut self,
        device: &wgpu::Device,
        dungeon: &Dungeon,
        positions: &[Vec3],
    ) -> Result<bool, MeshError> {
        let key = |p: &Vec3| p.to_array().map(f32::to_bits);
        let sorted = |mut points: Vec<Vec3>| {
            points.sort_by_key(key);
            points
        };
        let old = sorted(self.torches.positions().collect());
        let new = sorted(positions.to_vec());
        let gone = old.iter().filter(|p| new.binary_search_by_key(&key(p), key).is_err());
        let came = new.iter().filter(|p| old.binary_search_by_key(&key(p), key).is_err());
        let moved: Vec<Vec3> = gone.chain(came).copied().collect();
        if moved.is_empty() {
            return Ok(false);
        }
        self.torches = Arc::new(Torchlight::new(positions));
        let (layout, proportions) = (dungeon.layout(), dungeon.proportions());
        let relit: Vec<ChunkId> = (self.all.iter().copied())
            .filter(|&id| {
                let (min, max) = chunk_bounds(layout, proportions, id);
                moved.iter().any(|&t| t.clamp(min, max).distance_squared(t) < TORCH_RANGE * TORCH_RANGE)
            })
            .collect();
        self.update(device, dungeon, &relit)?;
        Ok(true)
    }

    /// The chunk cache's counts: chunks meshed so far (`built`), kept now (`resident`),
    /// in view in the last prepared frame (`wanted`).
    #[must_use]
    pub fn stats(&self) -> DemandStats {
        self.chunks.stats()
    }

    /// Draws the next frames textured and torch-lit as `frame` says, as the renderer does
    /// (the pipeline compiled on first use).
    pub fn shade_as(&mut self, device: &wgpu::Device, frame: &Frame) {
        let v = &frame.view;
        let torches = self.torches.uniform(frame.torches, v.orthographic, v.eye)[0] > 0.0;
        self.shading = Shading { textures: frame.textures, torches, ..Shading::DEFAULT };
        self.solids.prepare(device, self.shading);
    }

    /// Draws the meshed chunks of the last prepared frame that are on `frame`'s levels and
    /// inside its frustum; returns the draw calls issued and their triangles. The frame's
    /// globals must be bound at group 0 (the scene pass binds them), and for a textured
    /// frame the texture set at group 2 (the renderer binds it before its extra draws).
    ///
    /// # Panics
    /// Never: [`LiveMesh::new`] and [`LiveMesh::shade_as`] compile the pipeline drawn with.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame) -> Drawn {
        let solid = self.solids.get(self.shading).expect("invariant: prepared by new or shade_as");
        let mut drawn = Drawn::default();
        if frame.caps {
            // First, as the renderer draws them: depth testing then rejects what they hide.
            pass.set_pipeline(if frame.view.orthographic { &self.flat } else { solid });
            for level in frame.levels.clone() {
                let Some(Some(Some((buffer, n)))) = self.caps.get(usize::from(level)) else { continue };
                pass.set_bind_group(
                    1,
                    &self.draw_group,
                    &[(cap_slot(self.caps.len(), level) as u64 * DRAW_STRIDE) as u32],
                );
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                drawn = drawn + Drawn { calls: 1, triangles: u64::from(*n / 3) };
            }
        }
        pass.set_pipeline(solid);
        for &id in &self.in_view {
            let Some(Some(chunk)) = self.chunks.get(id) else { continue };
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
    let levels = usize::from(dungeon.levels());
    let mut draws = vec![DrawUniform::default(); levels * (MaterialRole::ALL.len() + 1)];
    for level in 0..dungeon.levels() {
        let y = dungeon.proportions().floor_y(level) as f32;
        for role in MaterialRole::ALL {
            draws[slot(level, role)] = DrawUniform::level_role(usize::from(level), role, y);
        }
        draws[cap_slot(levels, level)] = DrawUniform::rock_caps(usize::from(level), y);
    }
    draw_bind_group(device, layout, "live draws", &draws)
}
