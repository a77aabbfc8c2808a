//! The HUD on the GPU: the font atlas, one instanced pipeline of screen rectangles
//! (`shaders/hud.wgsl`), drawn last in the scene pass with depth testing off.

use wgpu::util::DeviceExt;

use super::font::{GLYPH_H, GLYPH_W, glyph};
use super::layout::HudQuad;
use crate::viewer::pipeline::DEPTH_FORMAT;

/// Characters in the atlas: printable ASCII from `' '` (32) to `'~'` (126).
const ATLAS_CHARS: u32 = 95;

/// The HUD's GPU state for one target format.
pub struct HudLayer {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    group: wgpu::BindGroup,
    quads: Option<(wgpu::Buffer, u32)>,
    atlas: wgpu::Texture,
    atlas_written: bool,
}

impl HudLayer {
    /// The atlas, the pipeline for `format` targets with `samples` MSAA and the depth
    /// format of the scene pass.
    #[must_use]
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> HudLayer {
        let screen = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hud screen"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let atlas = atlas_texture(device);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("hud"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(16),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
            ],
        });
        let view = atlas.create_view(&Default::default());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hud"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: screen.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&view) },
            ],
        });
        HudLayer {
            pipeline: pipeline(device, &layout, format, samples),
            screen,
            group,
            quads: None,
            atlas,
            atlas_written: false,
        }
    }

    /// Replaces the rectangles drawn (none: nothing drawn).
    pub fn set(&mut self, device: &wgpu::Device, quads: &[HudQuad]) {
        self.quads = (!quads.is_empty()).then(|| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("hud quads"),
                contents: bytemuck::cast_slice(quads),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, quads.len() as u32)
        });
    }

    /// Writes the target size (and the font, the first time); call before the pass that
    /// [`HudLayer::draw`]s.
    pub fn prepare(&mut self, queue: &wgpu::Queue, size: (u32, u32)) {
        if !self.atlas_written {
            let width = ATLAS_CHARS * GLYPH_W;
            queue.write_texture(
                self.atlas.as_image_copy(),
                &atlas_texels(),
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width), rows_per_image: None },
                wgpu::Extent3d { width, height: GLYPH_H, depth_or_array_layers: 1 },
            );
            self.atlas_written = true;
        }
        let data = [size.0 as f32, size.1 as f32, 0.0, 0.0];
        queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&data));
    }

    /// Draws the rectangles, if any. Returns the draw calls issued.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) -> u32 {
        let Some((buffer, n)) = &self.quads else { return 0 };
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(0..6, 0..*n);
        1
    }
}

/// The glyphs side by side, one byte per texel, 255 where lit.
fn atlas_texels() -> Vec<u8> {
    let width = ATLAS_CHARS * GLYPH_W;
    let mut texels = vec![0u8; (width * GLYPH_H) as usize];
    for (i, c) in (' '..='~').enumerate() {
        for (y, row) in glyph(c).iter().enumerate() {
            for x in 0..GLYPH_W {
                if row >> (GLYPH_W - 1 - x) & 1 == 1 {
                    texels[y * width as usize + i * GLYPH_W as usize + x as usize] = 255;
                }
            }
        }
    }
    texels
}

/// The (unwritten) R8 atlas texture.
fn atlas_texture(device: &wgpu::Device) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("hud font"),
        size: wgpu::Extent3d { width: ATLAS_CHARS * GLYPH_W, height: GLYPH_H, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
    samples: u32,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("hud.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("../../../shaders/hud.wgsl").into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("hud"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let attributes = wgpu::vertex_attr_array![0 => Float32x4, 1 => Uint32x4, 2 => Uint32];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("hud"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<HudQuad>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &attributes,
            })],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(false),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
