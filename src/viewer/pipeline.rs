//! The renderer's bind group layouts and pipelines: one shader (`shaders/scene.wgsl`), one
//! vertex layout ([`Vertex`], the exported one), three pipelines (solid, overlay, lines).

use crate::mesh::Vertex;

/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The two bind group layouts: the frame's globals, and the per-draw uniforms (dynamic
/// offset).
pub(crate) struct Layouts {
    /// Group 0: the globals.
    pub(crate) globals: wgpu::BindGroupLayout,
    /// Group 1: one draw's uniforms.
    pub(crate) draw: wgpu::BindGroupLayout,
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
        Layouts { globals: uniform_layout(false, globals_size), draw: uniform_layout(true, draw_size) }
    }
}

/// The renderer's pipelines.
pub(crate) struct Pipelines {
    /// Lit triangles, back faces culled: the dungeon mesh.
    pub(crate) solid: wgpu::RenderPipeline,
    /// Unlit triangles, both faces: the path overlay.
    pub(crate) overlay: wgpu::RenderPipeline,
    /// The same, drawn over everything (no depth test): the route in the overviews.
    pub(crate) overlay_on_top: wgpu::RenderPipeline,
    /// Lines: the floor outlines.
    pub(crate) lines: wgpu::RenderPipeline,
}

impl Pipelines {
    /// The pipelines for `format` targets with `samples` MSAA.
    pub(crate) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Pipelines {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/scene.wgsl").into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene"),
            bind_group_layouts: &[Some(&layouts.globals), Some(&layouts.draw)],
            immediate_size: 0,
        });
        let make = |topology, cull, depth| {
            pipeline(device, &layout, &shader, (format, samples), topology, cull, depth)
        };
        let tested = wgpu::CompareFunction::LessEqual;
        Pipelines {
            solid: make(wgpu::PrimitiveTopology::TriangleList, Some(wgpu::Face::Back), tested),
            overlay: make(wgpu::PrimitiveTopology::TriangleList, None, tested),
            overlay_on_top: make(wgpu::PrimitiveTopology::TriangleList, None, wgpu::CompareFunction::Always),
            lines: make(wgpu::PrimitiveTopology::LineList, None, tested),
        }
    }
}

/// One pipeline of the scene shader over [`Vertex`] buffers, with depth testing.
fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    shader: &wgpu::ShaderModule,
    (format, samples): (wgpu::TextureFormat, u32),
    topology: wgpu::PrimitiveTopology,
    cull: Option<wgpu::Face>,
    depth: wgpu::CompareFunction,
) -> wgpu::RenderPipeline {
    let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x2];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("scene"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: shader,
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
            depth_write_enabled: Some(depth != wgpu::CompareFunction::Always),
            depth_compare: Some(depth),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}
