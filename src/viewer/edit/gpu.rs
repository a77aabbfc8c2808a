//! The GPU side of the overlays: fog of war multiplies what is behind it darker, the hover
//! highlight adds light on top of everything. Both are drawn inside the renderer's scene
//! pass (after the dungeon, through [`crate::viewer::renderer::Renderer::render_with`]), so
//! the fog is depth tested against the walls it stands behind.

use bytemuck::{Pod, Zeroable};
use glam::Mat4;
use wgpu::util::DeviceExt;

use super::overlay::OverlayVertex;
use crate::viewer::renderer::DEPTH_FORMAT;

/// What the fog multiplies the colour behind it by (linear RGB).
pub const FOG_DIM: [f32; 3] = [0.3, 0.3, 0.38];
/// What the highlight adds (linear RGB).
pub const HIGHLIGHT_ADD: [f32; 3] = [0.35, 0.22, 0.0];
/// What pinned cells' floors add (linear RGB).
pub const PIN_ADD: [f32; 3] = [0.0, 0.06, 0.3];
/// What cell outlines multiply the floor by (linear RGB).
pub const OUTLINE_DIM: [f32; 3] = [0.45, 0.45, 0.45];

const SHADER: &str = "
struct U { view_proj: mat4x4<f32>, colour: vec4<f32> };
@group(0) @binding(0) var<uniform> u: U;
@vertex fn vs(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> {
    return u.view_proj * vec4<f32>(p, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return u.colour; }
";

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Uniform {
    view_proj: [[f32; 4]; 4],
    colour: [f32; 4],
}

/// One overlay: its pipeline, its uniforms and its vertices.
struct Layer {
    pipeline: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    colour: [f32; 3],
    vertices: Option<(wgpu::Buffer, u32)>,
}

impl Layer {
    fn new(device: &wgpu::Device, target: Target, colour: [f32; 3], kind: Kind) -> Layer {
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("overlay uniform"),
            size: size_of::<Uniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("overlay"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("overlay"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
        });
        let pipeline = pipeline(device, &layout, target, kind);
        Layer { pipeline, uniform, group, colour, vertices: None }
    }

    fn set(&mut self, device: &wgpu::Device, vertices: &[OverlayVertex]) {
        self.vertices = (!vertices.is_empty()).then(|| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("overlay vertices"),
                contents: bytemuck::cast_slice(vertices),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, vertices.len() as u32)
        });
    }

    fn write(&self, queue: &wgpu::Queue, view_proj: Mat4) {
        let [r, g, b] = self.colour;
        let u = Uniform { view_proj: view_proj.to_cols_array_2d(), colour: [r, g, b, 1.0] };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&u));
    }

    fn draw(&self, pass: &mut wgpu::RenderPass<'_>) -> Drawn {
        let Some((buffer, n)) = &self.vertices else { return Drawn::default() };
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(0..*n, 0..1);
        Drawn { calls: 1, triangles: u64::from(*n / 3) }
    }
}

/// What edit mode drew into a pass: draw calls and triangles, for the HUD's count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Draw calls issued.
    pub calls: u32,
    /// Triangles they drew.
    pub triangles: u64,
}

impl std::ops::Add for Drawn {
    type Output = Drawn;
    fn add(self, other: Drawn) -> Drawn {
        Drawn { calls: self.calls + other.calls, triangles: self.triangles + other.triangles }
    }
}

impl std::iter::Sum for Drawn {
    fn sum<I: Iterator<Item = Drawn>>(iter: I) -> Drawn {
        iter.fold(Drawn::default(), |a, b| a + b)
    }
}

/// The colour target and sample count of the pass the overlays are drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The colour format.
    pub format: wgpu::TextureFormat,
    /// MSAA samples.
    pub samples: u32,
}

#[derive(Clone, Copy)]
enum Kind {
    /// Multiplies the colour behind it, depth tested.
    Dim,
    /// Adds its colour, depth tested.
    Tint,
    /// Adds its colour, over everything.
    Glow,
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    target: Target,
    kind: Kind,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("overlay"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("overlay"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let (component, compare) = match kind {
        Kind::Dim => (
            wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::Zero,
                dst_factor: wgpu::BlendFactor::Src,
                operation: wgpu::BlendOperation::Add,
            },
            wgpu::CompareFunction::LessEqual,
        ),
        Kind::Tint | Kind::Glow => (
            wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            if matches!(kind, Kind::Glow) {
                wgpu::CompareFunction::Always
            } else {
                wgpu::CompareFunction::LessEqual
            },
        ),
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("overlay"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<OverlayVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x3],
            })],
        },
        primitive: wgpu::PrimitiveState { cull_mode: None, ..Default::default() },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(false),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: target.samples, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: target.format,
                blend: Some(wgpu::BlendState { color: component, alpha: component }),
                write_mask: wgpu::ColorWrites::COLOR,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The overlays on the GPU.
pub struct OverlayGpu {
    fog: Layer,
    highlight: Layer,
    outlines: Layer,
    pins: Layer,
}

impl OverlayGpu {
    /// The overlay pipelines for a pass into `target`.
    #[must_use]
    pub fn new(device: &wgpu::Device, target: Target) -> OverlayGpu {
        OverlayGpu {
            fog: Layer::new(device, target, FOG_DIM, Kind::Dim),
            highlight: Layer::new(device, target, HIGHLIGHT_ADD, Kind::Glow),
            outlines: Layer::new(device, target, OUTLINE_DIM, Kind::Dim),
            pins: Layer::new(device, target, PIN_ADD, Kind::Tint),
        }
    }

    /// Replaces the cell outlines and the pinned floors (edit mode's plan).
    pub fn set_plan(&mut self, device: &wgpu::Device, outlines: &[OverlayVertex], pins: &[OverlayVertex]) {
        self.outlines.set(device, outlines);
        self.pins.set(device, pins);
    }

    /// Replaces the fog's triangles.
    pub fn set_fog(&mut self, device: &wgpu::Device, vertices: &[OverlayVertex]) {
        self.fog.set(device, vertices);
    }

    /// Replaces the highlight's triangles.
    pub fn set_highlight(&mut self, device: &wgpu::Device, vertices: &[OverlayVertex]) {
        self.highlight.set(device, vertices);
    }

    /// Writes this frame's camera.
    pub fn prepare(&self, queue: &wgpu::Queue, view_proj: Mat4) {
        for layer in [&self.fog, &self.highlight, &self.outlines, &self.pins] {
            layer.write(queue, view_proj);
        }
    }

    /// Draws the outlines, pins, fog, then the highlight, into `pass`; returns the draw
    /// calls issued and their triangles (an outline's thin quads count as triangles too).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) -> Drawn {
        [&self.outlines, &self.pins, &self.fog, &self.highlight].iter().map(|l| l.draw(pass)).sum()
    }
}
