//! Headless rendering: draw one frame offscreen and read it back as RGBA pixels or a PNG.

use std::path::Path;

use super::ViewerError;
use super::camera::View;
use super::gpu::Gpu;
use super::limits::{DeviceLimits, padded_row_bytes, readback_bytes};
use super::renderer::{Frame, FrameStats, Renderer};
use super::scene::Scene;

/// The offscreen target format (sRGB, as a window's surface).
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A rendered image.
#[derive(Debug, Clone)]
pub struct Shot {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA, 8 bits per channel, sRGB encoded, rows top to bottom without padding.
    pub pixels: Vec<u8>,
    /// The camera it was taken with (to project world points onto it).
    pub view: View,
    /// What the frame cost.
    pub stats: FrameStats,
}

impl Shot {
    /// RGBA of pixel `(x, y)` (x right, y down), or `None` outside the image.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.pixels.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// Encodes the image as PNG and writes it atomically.
    ///
    /// # Errors
    /// [`ViewerError::NotPng`] when `path` does not end in `.png` ([`check_png_path`]);
    /// [`ViewerError::Png`] when the pixels do not match the size or cannot be encoded;
    /// [`ViewerError::Write`] when the file cannot be written.
    pub fn save_png(&self, path: &Path) -> Result<(), ViewerError> {
        check_png_path(path)?;
        let expected = self.width as usize * self.height as usize * 4;
        if self.pixels.len() != expected {
            let reason = format!(
                "{} bytes of pixels for {}x{} RGBA (expected {expected})",
                self.pixels.len(),
                self.width,
                self.height
            );
            return Err(ViewerError::Png { path: path.to_path_buf(), reason });
        }
        let mut bytes = Vec::new();
        let encoder = image::codecs::png::PngEncoder::new(&mut bytes);
        image::ImageEncoder::write_image(
            encoder,
            &self.pixels,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| ViewerError::Png { path: path.to_path_buf(), reason: e.to_string() })?;
        crate::io::write_atomic(path, &bytes)?;
        Ok(())
    }
}

/// Checks that a screenshot file name ends in `.png` (any case): the viewer writes PNG data
/// only, and a `.jpg` holding PNG would mislead every program that opens it.
///
/// # Errors
/// [`ViewerError::NotPng`] for any other extension, or none.
pub fn check_png_path(path: &Path) -> Result<(), ViewerError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Ok(()),
        _ => Err(ViewerError::NotPng { path: path.to_path_buf() }),
    }
}

/// An offscreen target and a renderer for one scene, reusable for many frames.
pub struct Offscreen {
    renderer: Renderer,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size: (u32, u32),
}

impl Offscreen {
    /// A `width x height` target for `scene`.
    ///
    /// # Errors
    /// Before anything is created: [`ViewerError::BadSize`] or
    /// [`ViewerError::ReadbackTooLarge`] when the image or its read-back buffer exceeds the
    /// device's limits (`DeviceLimits::check_screenshot`), [`ViewerError::BadMsaa`];
    /// then the errors of [`Renderer::new`].
    pub fn new(gpu: &Gpu, scene: &Scene, width: u32, height: u32) -> Result<Offscreen, ViewerError> {
        DeviceLimits::of(&gpu.device).check_screenshot(width, height)?;
        let renderer = Renderer::new(&gpu.device, FORMAT, gpu.sample_count(FORMAT)?, scene)?;
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("screenshot"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Ok(Offscreen { renderer, texture, view, size: (width, height) })
    }

    /// The renderer (to set the path overlay).
    pub fn renderer_mut(&mut self) -> &mut Renderer {
        &mut self.renderer
    }

    /// Draws `frame` and waits for the GPU (no readback).
    ///
    /// # Errors
    /// [`ViewerError::Readback`] when waiting for the device fails (a lost device).
    pub fn draw(&mut self, gpu: &Gpu, frame: &Frame) -> Result<FrameStats, ViewerError> {
        let stats = self.renderer.render(&gpu.device, &gpu.queue, &self.view, self.size, frame);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| ViewerError::Readback {
            width: self.size.0,
            height: self.size.1,
            reason: e.to_string(),
        })?;
        Ok(stats)
    }

    /// Draws `frame` and reads the image back.
    ///
    /// # Errors
    /// [`ViewerError::Readback`] when the device is lost or the buffer cannot be mapped.
    pub fn capture(&mut self, gpu: &Gpu, frame: &Frame) -> Result<Shot, ViewerError> {
        self.capture_with(gpu, frame, &mut |_| {})
    }

    /// As [`Offscreen::capture`], with `extra` drawing into the scene pass as
    /// [`Renderer::render_with`] says (another drawer's geometry: edit mode's live mesh).
    ///
    /// # Errors
    /// As [`Offscreen::capture`].
    pub fn capture_with(
        &mut self,
        gpu: &Gpu,
        frame: &Frame,
        extra: &mut dyn FnMut(&mut wgpu::RenderPass<'_>),
    ) -> Result<Shot, ViewerError> {
        let stats = self.renderer.render_with(&gpu.device, &gpu.queue, &self.view, self.size, frame, extra);
        let (width, height) = self.size;
        let fail = |reason: String| ViewerError::Readback { width, height, reason };
        let row = width * 4;
        let padded = padded_row_bytes(width);
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: readback_bytes(width, height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        gpu.queue.submit([encoder.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| fail(e.to_string()))?;
        rx.recv().map_err(|e| fail(e.to_string()))?.map_err(|e| fail(e.to_string()))?;
        let data = buffer.slice(..).get_mapped_range().map_err(|e| fail(e.to_string()))?;
        let mut pixels = Vec::with_capacity((row * height) as usize);
        for r in 0..height as usize {
            let at = r * padded as usize;
            pixels.extend_from_slice(&data[at..at + row as usize]);
        }
        drop(data);
        buffer.unmap();
        Ok(Shot { width, height, pixels, view: frame.view, stats })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shot(pixels: Vec<u8>) -> Shot {
        let view = View { view_proj: glam::Mat4::IDENTITY, eye: glam::Vec3::ZERO, orthographic: true };
        Shot { width: 2, height: 1, pixels, view, stats: FrameStats::default() }
    }

    #[test]
    fn png_round_trip_and_errors() {
        let dir = std::env::temp_dir().join(format!("octile-shot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.png");
        shot(vec![255, 0, 0, 255, 0, 0, 255, 255]).save_png(&ok).unwrap();
        let back = image::open(&ok).unwrap().to_rgba8();
        assert_eq!(back.get_pixel(1, 0).0, [0, 0, 255, 255]);
        assert_eq!(shot(vec![0; 4]).pixel(1, 0), None);
        let short = shot(vec![0; 4]).save_png(&dir.join("short.png"));
        assert!(matches!(short, Err(ViewerError::Png { .. })), "{short:?}");
        for name in ["x.jpg", "x", "x.png.tmp"] {
            let wrong = shot(vec![0; 8]).save_png(&dir.join(name));
            assert!(matches!(wrong, Err(ViewerError::NotPng { .. })), "{name}: {wrong:?}");
            assert!(wrong.unwrap_err().to_string().contains(".png extension"));
            assert!(!dir.join(name).exists(), "{name} is not written");
        }
        shot(vec![0; 8]).save_png(&dir.join("upper.PNG")).unwrap();
        let missing = shot(vec![0; 8]).save_png(&dir.join("no/such/dir/x.png"));
        assert!(matches!(missing, Err(ViewerError::Write(_))), "{missing:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gpu_failures_say_what_failed() {
        let device = ViewerError::Device { adapter: "llvmpipe".into(), reason: "limits".into() };
        assert!(device.to_string().contains("llvmpipe"));
        let readback = ViewerError::Readback { width: 4, height: 3, reason: "lost".into() };
        assert!(readback.to_string().contains("4x3"));
        let wrapped: crate::Error = readback.into();
        assert!(matches!(wrapped, crate::Error::Viewer(ViewerError::Readback { .. })));
    }
}
