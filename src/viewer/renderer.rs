//! The renderer: draws a scene (`viewer::scene::Scene`) into any `&TextureView` (a window's surface texture or
//! an offscreen image), with depth, MSAA where allowed, lit materials per role, fog,
//! outlines and the path overlay. One draw per material role per visible chunk of a
//! visible level; chunks outside the frustum are skipped, far ones drawn coarse, and near
//! ones meshed at full detail when a frame first needs them (`renderer/demand.rs`).

use std::ops::RangeInclusive;
use std::sync::Arc;

use bytemuck::{Pod, Zeroable};

use super::ViewerError;
use super::camera::View;
use super::chunks::demand::{DEFAULT_CAPACITY, Demand, DemandStats};
use super::chunks::lod::ChunkPolicy;
use super::hud::HudQuad;
use super::hud::draw::HudLayer;
use super::palette::{BACKGROUND, LIGHT_DIR};
use super::pipeline::{Layouts, Pipelines, Shading, SolidVariants};
use super::scene::Scene;
use super::torchlight::{Torchlight, UNLIT};
use crate::dungeon::Dungeon;
use crate::mesh::chunk::live_options;
use crate::mesh::{MeshOptions, Vertex};

mod chunk_mesh;
mod demand;
mod draw;
mod levels;
mod rooms;
mod shading;
mod uniforms;
mod upload;

pub(crate) use chunk_mesh::ChunkMesh;
use draw::{begin_pass, globals, pixels_per_metre};
use uniforms::{
    BACKDROP_SLOT, CAP_SLOT, LIGHT_SLOT, MARK_SLOT, MARKER_SLOT, OUTLINE_SLOT, SLOTS_PER_LEVEL,
    renderer_draws,
};
pub(crate) use uniforms::{DrawUniform, draw_bind_group};
pub use upload::check_level_fits;
pub(crate) use upload::triangles_buffer;
use upload::{LevelGpu, level_chunks};

pub use super::pipeline::DEPTH_FORMAT;
/// Stride of the per-draw uniforms (the WebGPU minimum dynamic offset alignment).
pub(crate) const DRAW_STRIDE: u64 = 256;
/// Size of the frame's globals (group 0), for another drawer in the scene pass.
pub(crate) const GLOBALS_SIZE: u64 = size_of::<Globals>() as u64;
/// Size of one draw's uniforms (group 1), for another drawer in the scene pass.
pub(crate) const DRAW_SIZE: u64 = size_of::<DrawUniform>() as u64;
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Globals {
    view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    light: [f32; 4],
    fog_colour: [f32; 4],
    params: [f32; 4],
    shade: [f32; 4],
    torch: [f32; 4],
}

/// What to draw this frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The camera.
    pub view: View,
    /// Levels to draw (everything else is culled).
    pub levels: RangeInclusive<u16>,
    /// Fog from `fog.0` to `fog.1` metres (perspective cameras only).
    pub fog: (f32, f32),
    /// Draw the floor cell outlines.
    pub outlines: bool,
    /// Draw the rock caps (overviews; the walkthrough is under the ceiling).
    pub caps: bool,
    /// Extra height between levels (metres): 0, or lifted apart in the exploded view.
    pub explode: f32,
    /// Draw the route over everything (overviews: a route on a lower level shows through
    /// the floors above).
    pub route_on_top: bool,
    /// Ambient occlusion: walls darker towards their foot and the ceiling.
    pub occlusion: bool,
    /// Draw the markers.
    pub markers: bool,
    /// Light the scene with the torches' baked light ([`super::torchlight`]; perspective
    /// cameras with a torch in reach).
    pub torches: bool,
    /// Dither half an 8-bit step against banding (costs about a sixth of a walk frame on
    /// a CPU renderer).
    pub dither: bool,
    /// Texture the levels' surfaces with the texture set (`viewer::textures`), sampled
    /// with the mesh's UV0; generated and uploaded on the first textured frame.
    pub textures: bool,
    /// Tint the rooms of the room table by role and mark the entrance and goal with stars
    /// ([`super::room_tints`]; the top view and the maps).
    pub rooms: bool,
    /// Marks drawn over everything in [`palette::MARK`](super::palette::MARK): a triangle
    /// list in world metres (the walker's arrow on a map).
    pub marks: Vec<Vertex>,
    /// A second view drawn into a corner (the minimap).
    pub inset: Option<Box<Inset>>,
}

/// A view drawn into a rectangle of the picture, over the frame: the minimap.
#[derive(Debug, Clone, PartialEq)]
pub struct Inset {
    /// What it shows.
    pub frame: Frame,
    /// Left, top, width, height in pixels.
    pub rect: [u32; 4],
}

/// Counts of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameStats {
    /// Draw calls issued.
    pub draw_calls: u32,
    /// Triangles submitted.
    pub triangles: u64,
    /// The chunk cache after the frame's building: chunks built, kept, pending.
    pub chunks: DemandStats,
}

struct Targets {
    size: (u32, u32),
    depth: wgpu::TextureView,
    msaa: Option<wgpu::TextureView>,
}

/// GPU state for one scene and one target format.
pub struct Renderer {
    format: wgpu::TextureFormat,
    samples: u32,
    /// The solid pipeline per shading, and the one this pass draws with.
    solids: SolidVariants,
    shading: Shading,
    overlay: wgpu::RenderPipeline,
    overlay_on_top: wgpu::RenderPipeline,
    lines: wgpu::RenderPipeline,
    flat: wgpu::RenderPipeline,
    flat_lines: wgpu::RenderPipeline,
    level_height: f32,
    room_height: f32,
    /// Per level, its tallest room's height (metres).
    tallest_room: Vec<f32>,
    globals: wgpu::Buffer,
    globals_group: wgpu::BindGroup,
    inset_globals: wgpu::Buffer,
    inset_group: wgpu::BindGroup,
    draw_group: wgpu::BindGroup,
    levels: Vec<LevelGpu>,
    floor_y: Vec<f32>,
    path: Option<(wgpu::Buffer, u32)>,
    highlight: Option<(wgpu::Buffer, u32)>,
    /// Door leaves per level (world metres).
    doors: Vec<Option<(wgpu::Buffer, u32)>>,
    /// Markers and torch lights (world metres).
    markers: [Option<(wgpu::Buffer, u32)>; 2],
    /// A mission's keys and locks (world metres) by lock colour, drawn with the markers.
    keys: Vec<Option<(wgpu::Buffer, u32)>>,
    /// The room tints and stars uploaded so far.
    rooms: rooms::RoomLayers,
    /// The torch lights, baked into every vertex buffer of the scene's geometry.
    torches: Arc<Torchlight>,
    path_slot: usize,
    chunk_size: f32,
    /// Which chunks are drawn and from which mesh (`OCTILE_VIEW_CHUNKS`).
    chunks: ChunkPolicy,
    /// The dungeon whose chunks are meshed on demand, and the options (as
    /// [`live_options`]: not reordered for the vertex cache).
    dungeon: Arc<Dungeon>,
    mesh_options: MeshOptions,
    /// The full-detail chunks built so far (`None`: built, nothing to draw).
    demand: Demand<Option<ChunkMesh>>,
    /// The first chunk that could not be meshed (reported once; drawn coarse).
    chunk_error: Option<String>,
    targets: Option<Targets>,
    hud: HudLayer,
    /// The layout of the texture set's group (2).
    texture_layout: wgpu::BindGroupLayout,
    /// The texture set, bound, once a frame asked for it.
    textures: Option<wgpu::BindGroup>,
}

impl Renderer {
    /// Lists `scene`'s chunks and builds the pipelines for
    /// `format` targets with `samples` MSAA.
    ///
    /// # Errors
    /// [`ViewerError::BadChunks`] when `OCTILE_VIEW_CHUNKS` names no policy. No mesh is
    /// built here: a level's coarse mesh, outline and caps are uploaded when a frame first
    /// shows the level (a level whose coarse mesh or outline does not fit one buffer,
    /// [`check_level_fits`], is said on stderr and drawn without them), and each chunk's
    /// full-detail mesh when a frame first needs it, all that a frame needs before it is
    /// drawn unless [`Renderer::set_chunk_budget`] says otherwise.
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
        scene: &Scene,
    ) -> Result<Renderer, ViewerError> {
        let layouts = Layouts::new(device, size_of::<Globals>() as u64, size_of::<DrawUniform>() as u64);
        let pipelines = Pipelines::new(device, &layouts, format, samples);
        let globals_pair = || {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("globals"),
                size: size_of::<Globals>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layouts.globals,
                entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
            });
            (buffer, group)
        };
        let (globals, globals_group) = globals_pair();
        let (inset_globals, inset_group) = globals_pair();
        let floor_y = scene.floor_y.clone();
        let path_slot = floor_y.len() * SLOTS_PER_LEVEL;
        let draw_group = draw_bind_group(device, &layouts.draw, "draws", &renderer_draws(&floor_y));
        // Only the chunks' bounds: each level's geometry is uploaded when a frame first
        // shows the level ([`Renderer::prepare_levels`]).
        let levels: Vec<LevelGpu> =
            (0..floor_y.len()).map(|l| LevelGpu { chunks: level_chunks(l, scene), geometry: None }).collect();
        let chunk_count = levels.iter().map(|l| l.chunks.len()).sum();
        Ok(Renderer {
            format,
            samples,
            solids: pipelines.variants,
            shading: Shading::DEFAULT,
            overlay: pipelines.overlay,
            overlay_on_top: pipelines.overlay_on_top,
            lines: pipelines.lines,
            flat: pipelines.flat,
            flat_lines: pipelines.flat_lines,
            level_height: scene.level_height,
            room_height: scene.room_height,
            tallest_room: scene.tallest_room.clone(),
            globals,
            globals_group,
            inset_globals,
            inset_group,
            draw_group,
            levels,
            floor_y,
            path: None,
            highlight: None,
            doors: Vec::new(),
            markers: [None, None],
            keys: Vec::new(),
            rooms: rooms::RoomLayers::default(),
            torches: scene.torches.clone(),
            path_slot,
            chunk_size: scene.chunk_size,
            chunks: ChunkPolicy::from_env()?,
            dungeon: scene.dungeon.clone(),
            mesh_options: live_options(&scene.mesh_options),
            demand: Demand::new(chunk_count, DEFAULT_CAPACITY, None),
            chunk_error: None,
            targets: None,
            hud: HudLayer::new(device, format, samples),
            texture_layout: layouts.textures,
            textures: None,
        })
    }

    /// The target format this renderer draws into.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// MSAA sample count.
    #[must_use]
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Sets (or clears, with an empty slice) the path overlay: a triangle list in world space.
    pub fn set_path(&mut self, device: &wgpu::Device, ribbon: &[Vertex]) {
        self.path = triangles_buffer(device, "path", ribbon);
    }

    /// Sets (or clears, with an empty slice) the highlight: a triangle list in world space
    /// drawn unlit in [`palette::HIGHLIGHT`](super::palette::HIGHLIGHT) over the scene, after the path (a picked cell, a
    /// selection).
    pub fn set_highlight(&mut self, device: &wgpu::Device, triangles: &[Vertex]) {
        self.highlight = triangles_buffer(device, "highlight", triangles);
    }

    /// Sets the markers (drawn when [`Frame::markers`]) and the torch lights (drawn always,
    /// glowing): triangle lists in world metres ([`super::markers`]).
    pub fn set_markers(&mut self, device: &wgpu::Device, markers: &[Vertex], lights: &[Vertex]) {
        self.markers =
            [triangles_buffer(device, "markers", markers), triangles_buffer(device, "torch lights", lights)];
    }

    /// Sets the markers alone (drawn when [`Frame::markers`]): a triangle list in world
    /// metres ([`super::markers::marker_triangles`]), the torch lights kept.
    pub fn set_marker_diamonds(&mut self, device: &wgpu::Device, markers: &[Vertex]) {
        self.markers[0] = triangles_buffer(device, "markers", markers);
    }

    /// Sets a mission's keys and locks (drawn when [`Frame::markers`]): per lock colour a
    /// triangle list in world metres ([`super::markers::key_triangles`]).
    pub fn set_keys(&mut self, device: &wgpu::Device, keys: &[Vec<Vertex>]) {
        self.keys = keys.iter().map(|k| triangles_buffer(device, "keys", k)).collect();
    }

    /// Sets the door leaves: a triangle list in world metres per level
    /// ([`super::doors::leaf_triangles`]), drawn with their level, lit by the torches.
    pub fn set_doors(&mut self, device: &wgpu::Device, per_level: &[Vec<Vertex>]) {
        self.doors = per_level
            .iter()
            .map(|t| {
                let mut leaves = t.clone();
                self.torches.bake(&mut leaves, 0.0);
                triangles_buffer(device, "door leaves", &leaves)
            })
            .collect();
    }

    /// Sets which chunks are drawn and from which mesh (the default comes from
    /// `OCTILE_VIEW_CHUNKS`, else [`ChunkPolicy::Detail`]).
    pub fn set_chunk_policy(&mut self, policy: ChunkPolicy) {
        self.chunks = policy;
    }

    /// Sets the HUD drawn over every frame (empty: none), as `viewer::hud::Hud::quads`
    /// lays it out for the target's size.
    pub fn set_hud(&mut self, device: &wgpu::Device, quads: &[HudQuad]) {
        self.hud.set(device, quads);
    }

    fn targets(&mut self, device: &wgpu::Device, size: (u32, u32)) -> &Targets {
        if self.targets.as_ref().is_none_or(|t| t.size != size) {
            let texture = |format, label| {
                device
                    .create_texture(&wgpu::TextureDescriptor {
                        label: Some(label),
                        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: self.samples,
                        dimension: wgpu::TextureDimension::D2,
                        format,
                        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                        view_formats: &[],
                    })
                    .create_view(&Default::default())
            };
            let depth = texture(DEPTH_FORMAT, "depth");
            let msaa = (self.samples > 1).then(|| texture(self.format, "msaa"));
            self.targets = Some(Targets { size, depth, msaa });
        }
        self.targets.as_ref().expect("invariant: just made")
    }

    /// Draws `frame` into `target` (of `size` pixels and this renderer's format).
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
        size: (u32, u32),
        frame: &Frame,
    ) -> FrameStats {
        self.render_with(device, queue, target, size, frame, &mut |_| {})
    }

    /// As [`Renderer::render`], and `extra` draws into the scene pass after the scene and
    /// the route, before the HUD, with the globals bound at group 0 and, in a textured
    /// frame, the texture set at group 2 (other viewer modules' overlays: the editor's
    /// picking highlight; its live mesh, drawn with the same pipelines).
    ///
    /// # Panics
    /// Never: the depth and multisample targets are (re)made for `size` just before use.
    pub fn render_with(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
        size: (u32, u32),
        frame: &Frame,
        extra: &mut dyn FnMut(&mut wgpu::RenderPass<'_>),
    ) -> FrameStats {
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        let shade =
            [self.room_height, flag(frame.occlusion), pixels_per_metre(frame, size), flag(frame.dither)];
        let torch = self.torches.uniform(frame.torches, frame.view.orthographic, frame.view.eye);
        self.use_shading(
            device,
            queue,
            Shading {
                occlusion: frame.occlusion,
                torches: torch[0] > 0.0,
                dither: frame.dither,
                textures: frame.textures,
            },
        );
        queue.write_buffer(
            &self.globals,
            0,
            bytemuck::bytes_of(&globals(frame, self.level_height, shade, torch)),
        );
        self.hud.prepare(queue, size);
        self.prepare_levels(device, queue, frame, size.1);
        self.prepare_chunks(device, frame, size.1);
        self.prepare_rooms(device, frame);
        if let Some(inset) = &frame.inset {
            self.prepare_rooms(device, &inset.frame);
        }
        let mut stats = FrameStats { chunks: self.demand.stats(), ..FrameStats::default() };
        let mut encoder = device.create_command_encoder(&Default::default());
        self.targets(device, size);
        let targets = self.targets.as_ref().expect("invariant: made above");
        {
            let mut pass = begin_pass(&mut encoder, targets, target);
            pass.set_bind_group(0, &self.globals_group, &[]);
            self.bind_textures(&mut pass);
            self.draw_levels(&mut pass, frame, size.1, &mut stats);
            self.draw_room_tints(&mut pass, frame, &mut stats);
            self.draw_doors(&mut pass, frame, &mut stats);
            self.draw_markers(&mut pass, frame, &mut stats);
            if frame.outlines {
                self.draw_outlines(&mut pass, frame, size, &mut stats);
            }
            self.draw_path(&mut pass, frame, &mut stats);
            self.draw_marks(&mut pass, device, frame, &mut stats);
            self.draw_stars(&mut pass, frame, &mut stats);
            // Other drawers' solid pipelines (edit mode's live mesh) share the bind groups.
            pass.set_bind_group(0, &self.globals_group, &[]);
            self.bind_textures(&mut pass);
            extra(&mut pass);
            stats.draw_calls += self.hud.draw(&mut pass);
        }
        if let Some(inset) = &frame.inset {
            let (w, h) = (inset.rect[2], inset.rect[3]);
            let shade = [self.room_height, 0.0, pixels_per_metre(&inset.frame, (w, h)), 0.0];
            queue.write_buffer(
                &self.inset_globals,
                0,
                bytemuck::bytes_of(&globals(&inset.frame, self.level_height, shade, UNLIT)),
            );
            self.use_shading(device, queue, Shading::default());
            let targets = self.targets.as_ref().expect("invariant: made above");
            let mut pass = draw::begin_inset_pass(&mut encoder, targets, target);
            let [x, y, w, h] = inset.rect.map(|v| v as f32);
            pass.set_viewport(x, y, w, h, 0.0, 1.0);
            pass.set_scissor_rect(inset.rect[0], inset.rect[1], inset.rect[2], inset.rect[3]);
            pass.set_bind_group(0, &self.inset_group, &[]);
            self.draw_inset(&mut pass, device, &inset.frame, inset.rect[3], &mut stats);
        }
        queue.submit([encoder.finish()]);
        stats
    }
}
