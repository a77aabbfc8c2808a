//! The renderer's bind group layouts and pipelines: one shader (`shaders/scene.wgsl`, with
//! `shaders/textured.wgsl` after it for the textured variants), one vertex layout
//! ([`Vertex`], the exported one), pipelines for solid geometry (one per [`Shading`]),
//! overlays, lines, and flat upward faces seen from straight above.

use crate::mesh::Vertex;

/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The bind group layouts: the frame's globals, the per-draw uniforms (dynamic offset) and
/// the texture set (textured pipelines only).
pub(crate) struct Layouts {
    /// Group 0: the globals.
    pub(crate) globals: wgpu::BindGroupLayout,
    /// Group 1: one draw's uniforms.
    pub(crate) draw: wgpu::BindGroupLayout,
    /// Group 2 of the textured pipelines: the texture array and its sampler.
    pub(crate) textures: wgpu::BindGroupLayout,
}

impl Layouts {
    /// Layouts for globals of `globals_size` bytes and draw uniforms of `draw_size` bytes.
    pub(crate) fn new(device: &wgpu::Device, globals_size: u64, draw_size: u64) -> Layouts {
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
        Layouts {
            globals: uniform_layout(false, globals_size),
            draw: uniform_layout(true, draw_size),
            textures: super::textures::bind_group_layout(device),
        }
    }
}

/// The shading features a scene pipeline is compiled with. CPU renderers (lavapipe) run
/// every branch of a shader, taken or not, so a feature that is off is left out of the
/// code (a `const` the shader's branches test) rather than switched off by a uniform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Shading {
    /// Ambient occlusion (walls darker towards their foot and the ceiling).
    pub(crate) occlusion: bool,
    /// Torch light (globals `torch`; the light itself is baked into UV1, `viewer::torchlight`).
    pub(crate) torches: bool,
    /// Dithering against banding.
    pub(crate) dither: bool,
    /// The texture set modulates the material colours (group 2 bound: the textured entry
    /// points of `shaders/textured.wgsl`).
    pub(crate) textures: bool,
}

impl Shading {
    /// The shading of the default solid pipeline: occlusion only.
    pub(crate) const DEFAULT: Shading =
        Shading { occlusion: true, torches: false, dither: false, textures: false };

    /// Index among the [`SolidVariants`].
    fn index(self) -> usize {
        usize::from(self.occlusion)
            | usize::from(self.torches) << 1
            | usize::from(self.dither) << 2
            | usize::from(self.textures) << 3
    }

    /// The scene shader's source with these features (and `outline`: the outlines' fade);
    /// textured, it also has the textured entry points and group 2.
    fn source(self, outline: bool) -> String {
        let textured = if self.textures {
            format!(
                "const DETAIL_GAIN: f32 = {:?};\n{}",
                super::textures::DETAIL_GAIN,
                include_str!("../../shaders/textured.wgsl")
            )
        } else {
            String::new()
        };
        format!(
            "const OCCLUSION: bool = {};\nconst TORCHES: bool = {};\nconst DITHER: bool = {};\nconst OUTLINE: bool = {outline};\n{}{textured}",
            self.occlusion,
            self.torches,
            self.dither,
            include_str!("../../shaders/scene.wgsl")
        )
    }

    /// The vertex and fragment entry points of its pipeline.
    fn entry_points(self) -> Entries {
        if self.textures { ("vs_textured", "fs_textured") } else { PLAIN }
    }
}

/// A pipeline's vertex and fragment entry points in the scene shader.
type Entries = (&'static str, &'static str);

/// The untextured entry points.
const PLAIN: Entries = ("vs_main", "fs_main");
/// The entry points for flat upward faces seen by an orthographic camera.
const FLAT: Entries = ("vs_flat", "fs_flat");

/// The solid pipeline for each [`Shading`], compiled on first use.
pub(crate) struct SolidVariants {
    /// Groups 0 and 1.
    layout: wgpu::PipelineLayout,
    /// Groups 0, 1 and 2 (the texture set), for the textured variants.
    textured_layout: wgpu::PipelineLayout,
    target: (wgpu::TextureFormat, u32),
    made: [Option<wgpu::RenderPipeline>; 16],
}

impl SolidVariants {
    /// Compiles the pipeline for `shading` unless it exists.
    pub(crate) fn prepare(&mut self, device: &wgpu::Device, shading: Shading) {
        let layout = if shading.textures { &self.textured_layout } else { &self.layout };
        let target = self.target;
        self.made[shading.index()].get_or_insert_with(|| {
            let shader = module(device, &shading.source(false));
            let tested = wgpu::CompareFunction::LessEqual;
            let cull = Some(wgpu::Face::Back);
            let triangles = (wgpu::PrimitiveTopology::TriangleList, false);
            pipeline(device, layout, (&shader, shading.entry_points()), target, triangles, cull, tested)
        });
    }

    /// The pipeline for `shading`, when prepared.
    pub(crate) fn get(&self, shading: Shading) -> Option<&wgpu::RenderPipeline> {
        self.made[shading.index()].as_ref()
    }
}

/// The scene shader module of `source`.
fn module(device: &wgpu::Device, source: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("scene.wgsl"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    })
}

/// The renderer's pipelines.
pub(crate) struct Pipelines {
    /// Lit triangles, back faces culled: the dungeon mesh, one pipeline per [`Shading`]
    /// ([`Shading::DEFAULT`] made here, the others on first use).
    pub(crate) variants: SolidVariants,
    /// Unlit triangles, both faces: the path overlay.
    pub(crate) overlay: wgpu::RenderPipeline,
    /// The same, drawn over everything (no depth test): the route in the overviews.
    pub(crate) overlay_on_top: wgpu::RenderPipeline,
    /// Lines: the floor outlines, faded (blended).
    pub(crate) lines: wgpu::RenderPipeline,
    /// Flat upward faces seen by an orthographic camera, one colour per draw, back faces
    /// culled (`vs_flat`, `fs_flat`): the rock caps, and the floors where they are not
    /// textured.
    pub(crate) flat: wgpu::RenderPipeline,
    /// The same for lines, opaque: the outlines where they do not fade (cells large on
    /// screen in an orthographic view), without the cost of blending or varyings.
    pub(crate) flat_lines: wgpu::RenderPipeline,
}

impl Pipelines {
    /// The pipelines for `format` targets with `samples` MSAA.
    pub(crate) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Pipelines {
        let unlit = module(device, &Shading::default().source(false));
        let outlined = module(device, &Shading::default().source(true));
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene"),
            bind_group_layouts: &[Some(&layouts.globals), Some(&layouts.draw)],
            immediate_size: 0,
        });
        let textured_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("textured scene"),
            bind_group_layouts: &[Some(&layouts.globals), Some(&layouts.draw), Some(&layouts.textures)],
            immediate_size: 0,
        });
        let make = |shader, topology, cull, depth| {
            pipeline(device, &layout, shader, (format, samples), topology, cull, depth)
        };
        let (scene, flat) = ((&unlit, PLAIN), (&unlit, FLAT));
        let tested = wgpu::CompareFunction::LessEqual;
        let triangles = (wgpu::PrimitiveTopology::TriangleList, false);
        let overlay = make(scene, triangles, None, tested);
        let overlay_on_top = make(scene, triangles, None, wgpu::CompareFunction::Always);
        let lines = make((&outlined, PLAIN), (wgpu::PrimitiveTopology::LineList, true), None, tested);
        let flat_lines = make(flat, (wgpu::PrimitiveTopology::LineList, false), None, tested);
        let flat = make(flat, triangles, Some(wgpu::Face::Back), tested);
        let mut variants =
            SolidVariants { layout, textured_layout, target: (format, samples), made: Default::default() };
        variants.prepare(device, Shading::DEFAULT);
        Pipelines { variants, overlay, overlay_on_top, lines, flat, flat_lines }
    }
}

/// One pipeline of the scene shader (its module and entry points) over [`Vertex`] buffers,
/// with depth testing.
fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    (shader, (vertex, fragment)): (&wgpu::ShaderModule, Entries),
    (format, samples): (wgpu::TextureFormat, u32),
    (topology, blend): (wgpu::PrimitiveTopology, bool),
    cull: Option<wgpu::Face>,
    depth: wgpu::CompareFunction,
) -> wgpu::RenderPipeline {
    let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x2];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("scene"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some(vertex),
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
            depth_write_enabled: Some(depth != wgpu::CompareFunction::Always),
            depth_compare: Some(depth),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            // Fading outlines blend; everything else is opaque.
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: blend.then_some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
