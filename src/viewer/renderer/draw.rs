//! The renderer's draw calls other than the levels (those, with their rock caps and
//! outlines, are drawn chunk by chunk in `levels.rs`) and the rooms (`rooms.rs`): doors,
//! markers, the route and marks; the frame's globals and the scene pass.

use super::uniforms::KEY_SLOT;
use super::{
    BACKDROP_SLOT, BACKGROUND, DRAW_STRIDE, Frame, FrameStats, Globals, LIGHT_DIR, LIGHT_SLOT, MARK_SLOT,
    MARKER_SLOT, Renderer, Targets, triangles_buffer,
};
use crate::mesh::Vertex;

impl Renderer {
    /// The markers (when asked) and the torch lights.
    pub(super) fn draw_markers(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &Frame,
        stats: &mut FrameStats,
    ) {
        let keys = self.keys.iter().enumerate().map(|(i, k)| (KEY_SLOT + i, frame.markers, k));
        let fixed = [(MARKER_SLOT, frame.markers, &self.markers[0]), (LIGHT_SLOT, true, &self.markers[1])];
        for (slot, drawn, buffer) in fixed.into_iter().chain(keys) {
            if let (true, Some((buffer, n))) = (drawn, buffer) {
                pass.set_pipeline(self.solid());
                self.bind_slot(pass, self.path_slot + slot);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
        }
    }

    /// The marks over everything (a buffer made for this frame: a few triangles).
    pub(super) fn draw_marks(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        device: &wgpu::Device,
        frame: &Frame,
        stats: &mut FrameStats,
    ) {
        if let Some((buffer, n)) = triangles_buffer(device, "marks", &frame.marks) {
            pass.set_pipeline(&self.overlay_on_top);
            self.bind_slot(pass, self.path_slot + MARK_SLOT);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..n, 0..1);
            stats.draw_calls += 1;
        }
    }

    /// The inset's view (globals already bound): a dark backdrop over its whole rectangle,
    /// then its levels (with their caps), doors, route and marks.
    pub(super) fn draw_inset(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        device: &wgpu::Device,
        frame: &Frame,
        height: u32,
        stats: &mut FrameStats,
    ) {
        let inverse = frame.view.view_proj.inverse();
        let corner = |x: f32, y: f32| {
            let p = inverse.project_point3(glam::Vec3::new(x, y, 0.999));
            Vertex { position: p.to_array(), normal: [0.0, 1.0, 0.0], uv: [0.0; 2], uv1: [0.0; 2] }
        };
        let quad = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
        let backdrop: Vec<Vertex> = [0, 1, 2, 0, 2, 3].iter().map(|&i| quad[i]).collect();
        if let Some((buffer, n)) = triangles_buffer(device, "inset backdrop", &backdrop) {
            pass.set_pipeline(&self.overlay_on_top);
            self.bind_slot(pass, self.path_slot + BACKDROP_SLOT);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..n, 0..1);
            stats.draw_calls += 1;
        }
        self.draw_levels(pass, frame, height, stats);
        self.draw_room_tints(pass, frame, stats);
        self.draw_doors(pass, frame, stats);
        self.draw_path(pass, frame, stats);
        self.draw_marks(pass, device, frame, stats);
        self.draw_stars(pass, frame, stats);
    }
}

impl Renderer {
    /// Binds per-draw uniform slot `slot`.
    pub(super) fn bind_slot(&self, pass: &mut wgpu::RenderPass<'_>, slot: usize) {
        pass.set_bind_group(1, &self.draw_group, &[(slot as u64 * DRAW_STRIDE) as u32]);
    }

    /// The door leaves of the visible levels.
    pub(super) fn draw_doors(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame, stats: &mut FrameStats) {
        pass.set_pipeline(self.solid());
        self.bind_slot(pass, self.path_slot + 2);
        for (_, doors) in self.doors.iter().enumerate().filter(|(i, _)| frame.levels.contains(&(*i as u16))) {
            if let Some((buffer, n)) = doors {
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
        }
    }

    /// The path overlay and the highlight, when set: over everything in the overviews.
    pub(super) fn draw_path(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame, stats: &mut FrameStats) {
        let pipeline = if frame.route_on_top { &self.overlay_on_top } else { &self.overlay };
        for (slot, overlay) in [(self.path_slot, &self.path), (self.path_slot + 1, &self.highlight)] {
            if let Some((buffer, n)) = overlay {
                pass.set_pipeline(pipeline);
                self.bind_slot(pass, slot);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
        }
    }
}

/// Pixels per metre of an orthographic view on a target of `size` (0 for perspective).
pub(super) fn pixels_per_metre(frame: &Frame, size: (u32, u32)) -> f32 {
    if frame.view.orthographic {
        // The projection's x scale is 2 / (visible width in metres).
        frame.view.view_proj.x_axis.x.abs() * 0.5 * size.0 as f32
    } else {
        0.0
    }
}

/// The frame's globals: camera, light, fog, the exploded view's lift per level, shading,
/// torch light ([`crate::viewer::torchlight::LIT`] or `UNLIT`).
pub(super) fn globals(frame: &Frame, level_height: f32, shade: [f32; 4], torch: [f32; 4]) -> Globals {
    let v = &frame.view;
    let l = LIGHT_DIR.normalize();
    Globals {
        view_proj: v.view_proj.to_cols_array_2d(),
        eye: [v.eye.x, v.eye.y, v.eye.z, if v.orthographic { 1.0 } else { 0.0 }],
        light: [l.x, l.y, l.z, 0.0],
        fog_colour: [BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 1.0],
        params: [frame.fog.0, frame.fog.1, frame.explode, level_height],
        shade,
        torch,
    }
}

/// The inset's pass into `target`: the frame kept, depth cleared.
pub(super) fn begin_inset_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    targets: &Targets,
    target: &wgpu::TextureView,
) -> wgpu::RenderPass<'e> {
    pass_into(encoder, targets, target, "inset", wgpu::LoadOp::Load)
}

/// The scene pass into `target` (through the MSAA target when there is one), cleared to
/// the background colour and far depth.
pub(super) fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    targets: &Targets,
    target: &wgpu::TextureView,
) -> wgpu::RenderPass<'e> {
    let [r, g, b] = BACKGROUND.map(f64::from);
    pass_into(encoder, targets, target, "scene", wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a: 1.0 }))
}

/// A pass into `target` (through the MSAA target when there is one) whose colour starts as
/// `load` says and whose depth starts far.
fn pass_into<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    targets: &Targets,
    target: &wgpu::TextureView,
    label: &str,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'e> {
    let (view, resolve) = match &targets.msaa {
        Some(m) => (m, Some(target)),
        None => (target, None),
    };
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: resolve,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
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
    })
}
