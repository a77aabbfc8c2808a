//! The renderer: draws a [`Scene`] into any `&TextureView` (a window's surface texture or
//! an offscreen image), with depth, MSAA where allowed, lit materials per role, fog,
//! outlines and the path overlay. One draw per material role per visible chunk of a
//! visible level; chunks outside the frustum are skipped.

use std::ops::RangeInclusive;

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::camera::View;
use super::chunks::{ChunkedLevel, chunk_level, in_frustum};
use super::palette::{BACKGROUND, LIGHT_DIR, OUTLINE, PATH};
use super::scene::Scene;
use crate::mesh::{MaterialRole, Vertex};

/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Stride of the per-draw uniforms (the WebGPU minimum dynamic offset alignment).
const DRAW_STRIDE: u64 = 256;
/// Draw slots per level: the roles, then the outline.
const SLOTS_PER_LEVEL: usize = MaterialRole::ALL.len() + 1;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Globals {
    view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    light: [f32; 4],
    fog_colour: [f32; 4],
    params: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct DrawUniform {
    colour: [f32; 4],
    offset: [f32; 4],
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
}

/// Counts of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameStats {
    /// Draw calls issued.
    pub draw_calls: u32,
    /// Triangles submitted.
    pub triangles: u64,
}

/// A chunk's bounds (world metres) and its draws: (draw slot, first index, index count).
type ChunkDraws = (glam::Vec3, glam::Vec3, Vec<(usize, u32, u32)>);

struct LevelGpu {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Per chunk: bounds and its draws.
    chunks: Vec<ChunkDraws>,
    outline: Option<(wgpu::Buffer, u32)>,
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
    solid: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
    lines: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    globals_group: wgpu::BindGroup,
    draw_group: wgpu::BindGroup,
    levels: Vec<LevelGpu>,
    floor_y: Vec<f32>,
    path: Option<(wgpu::Buffer, u32)>,
    path_slot: usize,
    targets: Option<Targets>,
}

impl Renderer {
    /// Uploads `scene` and builds the pipelines for `format` targets with `samples` MSAA.
    #[must_use]
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32, scene: &Scene) -> Renderer {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/scene.wgsl").into()),
        });
        let uniform_layout = |dynamic: bool, size: u64| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &[wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: dynamic,
                        min_binding_size: wgpu::BufferSize::new(size),
                    },
                    count: None,
                }],
            })
        };
        let globals_layout = uniform_layout(false, size_of::<Globals>() as u64);
        let draw_layout = uniform_layout(true, size_of::<DrawUniform>() as u64);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene"),
            bind_group_layouts: &[Some(&globals_layout), Some(&draw_layout)],
            immediate_size: 0,
        });
        let pipeline = |topology, cull| {
            let attributes =
                wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x2];
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("scene"),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: size_of::<Vertex>() as u64,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &attributes,
                    })],
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: cull,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(format.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let solid = pipeline(wgpu::PrimitiveTopology::TriangleList, Some(wgpu::Face::Back));
        let overlay = pipeline(wgpu::PrimitiveTopology::TriangleList, None);
        let lines = pipeline(wgpu::PrimitiveTopology::LineList, None);

        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("globals"),
            size: size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let globals_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &globals_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });

        // Per-draw uniforms: every (level, role) and outline, then the path.
        let floor_y: Vec<f32> = scene.mesh.levels.iter().map(|l| l.floor_y as f32).collect();
        let path_slot = floor_y.len() * SLOTS_PER_LEVEL;
        let mut bytes = vec![0u8; (path_slot + 1) * DRAW_STRIDE as usize];
        let mut put = |slot: usize, colour: [f32; 3], lit: bool, y: f32| {
            let u = DrawUniform {
                colour: [colour[0], colour[1], colour[2], if lit { 1.0 } else { 0.0 }],
                offset: [y, 0.0, 0.0, 0.0],
            };
            let at = slot * DRAW_STRIDE as usize;
            bytes[at..at + size_of::<DrawUniform>()].copy_from_slice(bytemuck::bytes_of(&u));
        };
        for (l, &y) in floor_y.iter().enumerate() {
            for (r, role) in MaterialRole::ALL.into_iter().enumerate() {
                let [red, green, blue, _] = role.colour();
                put(l * SLOTS_PER_LEVEL + r, [red, green, blue], true, y);
            }
            put(l * SLOTS_PER_LEVEL + MaterialRole::ALL.len(), OUTLINE, false, y);
        }
        put(path_slot, PATH, false, 0.0);
        let draws = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("draws"),
            contents: &bytes,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let draw_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &draw_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &draws,
                    offset: 0,
                    size: wgpu::BufferSize::new(size_of::<DrawUniform>() as u64),
                }),
            }],
        });

        let levels = scene
            .mesh
            .levels
            .iter()
            .zip(&scene.outlines)
            .enumerate()
            .map(|(l, (level, outline))| {
                let ChunkedLevel { vertices, indices, chunks } = chunk_level(level, scene.chunk_size);
                let chunks = chunks
                    .into_iter()
                    .map(|c| {
                        let draws = c
                            .draws
                            .iter()
                            .map(|&(role, first, count)| {
                                let r = MaterialRole::ALL
                                    .iter()
                                    .position(|x| *x == role)
                                    .expect("invariant: known role");
                                (l * SLOTS_PER_LEVEL + r, first, count)
                            })
                            .collect();
                        (c.min, c.max, draws)
                    })
                    .collect();
                let buffer = |label, contents: &[u8], usage| {
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some(label),
                        contents,
                        usage,
                    })
                };
                let outline = (!outline.is_empty()).then(|| {
                    (
                        buffer("outline", bytemuck::cast_slice(outline), wgpu::BufferUsages::VERTEX),
                        outline.len() as u32,
                    )
                });
                LevelGpu {
                    // Buffers may not be empty: pad with one vertex / index.
                    vertices: buffer(
                        "level vertices",
                        if vertices.is_empty() {
                            &[0u8; size_of::<Vertex>()]
                        } else {
                            bytemuck::cast_slice(&vertices)
                        },
                        wgpu::BufferUsages::VERTEX,
                    ),
                    indices: buffer(
                        "level indices",
                        if indices.is_empty() { &[0u8; 4] } else { bytemuck::cast_slice(&indices) },
                        wgpu::BufferUsages::INDEX,
                    ),
                    chunks,
                    outline,
                }
            })
            .collect();
        Renderer {
            format,
            samples,
            solid,
            overlay,
            lines,
            globals,
            globals_group,
            draw_group,
            levels,
            floor_y,
            path: None,
            path_slot,
            targets: None,
        }
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
        self.path = (!ribbon.is_empty()).then(|| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("path"),
                contents: bytemuck::cast_slice(ribbon),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, ribbon.len() as u32)
        });
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
        let v = &frame.view;
        let l = LIGHT_DIR.normalize();
        let globals = Globals {
            view_proj: v.view_proj.to_cols_array_2d(),
            eye: [v.eye.x, v.eye.y, v.eye.z, if v.orthographic { 1.0 } else { 0.0 }],
            light: [l.x, l.y, l.z, 0.0],
            fog_colour: [BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 1.0],
            params: [frame.fog.0, frame.fog.1, 0.0, 0.0],
        };
        queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
        let mut stats = FrameStats::default();
        let mut encoder = device.create_command_encoder(&Default::default());
        self.targets(device, size);
        let targets = self.targets.as_ref().expect("invariant: made above");
        let (view, resolve) = match &targets.msaa {
            Some(m) => (m, Some(target)),
            None => (target, None),
        };
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("scene"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: resolve,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(BACKGROUND[0]),
                            g: f64::from(BACKGROUND[1]),
                            b: f64::from(BACKGROUND[2]),
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &self.globals_group, &[]);
            let visible = |i: usize| frame.levels.contains(&(i as u16));
            // Nearest level first, so depth testing rejects the levels it hides.
            let mut order: Vec<usize> = (0..self.levels.len()).filter(|&i| visible(i)).collect();
            order.sort_by_key(|&i| {
                let y = self.floor_y[i];
                let key = if v.orthographic { -y * v.eye.y.signum() } else { (v.eye.y - y).abs() };
                (key * 16.0) as i64
            });
            pass.set_pipeline(&self.solid);
            for level in order.iter().map(|&i| &self.levels[i]) {
                pass.set_vertex_buffer(0, level.vertices.slice(..));
                pass.set_index_buffer(level.indices.slice(..), wgpu::IndexFormat::Uint32);
                for (min, max, draws) in &level.chunks {
                    if !in_frustum(frame.view.view_proj, *min, *max) {
                        continue;
                    }
                    for &(slot, first, count) in draws {
                        pass.set_bind_group(1, &self.draw_group, &[(slot as u64 * DRAW_STRIDE) as u32]);
                        pass.draw_indexed(first..first + count, 0, 0..1);
                        stats.draw_calls += 1;
                        stats.triangles += u64::from(count / 3);
                    }
                }
            }
            if frame.outlines {
                pass.set_pipeline(&self.lines);
                for (i, level) in self.levels.iter().enumerate().filter(|(i, _)| visible(*i)) {
                    if let Some((buffer, n)) = &level.outline {
                        let slot = i * SLOTS_PER_LEVEL + MaterialRole::ALL.len();
                        pass.set_bind_group(1, &self.draw_group, &[(slot as u64 * DRAW_STRIDE) as u32]);
                        pass.set_vertex_buffer(0, buffer.slice(..));
                        pass.draw(0..*n, 0..1);
                        stats.draw_calls += 1;
                    }
                }
            }
            if let Some((buffer, n)) = &self.path {
                pass.set_pipeline(&self.overlay);
                pass.set_bind_group(1, &self.draw_group, &[(self.path_slot as u64 * DRAW_STRIDE) as u32]);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
        }
        queue.submit([encoder.finish()]);
        stats
    }
}
