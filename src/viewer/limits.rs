//! The device limits the viewer checks before it creates a texture, a surface or a buffer:
//! an image side above `max_texture_dimension_2d` or a buffer above `max_buffer_size` makes
//! wgpu panic, so each is refused (or, for a window resized from outside, clamped) first.

use super::ViewerError;

/// The two limits of a device the viewer can exceed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Largest side of a 2D texture or surface (pixels).
    pub max_texture_dimension: u32,
    /// Largest buffer (bytes).
    pub max_buffer_size: u64,
}

impl DeviceLimits {
    /// The limits `device` was created with.
    #[must_use]
    pub fn of(device: &wgpu::Device) -> DeviceLimits {
        let limits = device.limits();
        DeviceLimits {
            max_texture_dimension: limits.max_texture_dimension_2d,
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// Checks that a `width x height` window surface or image fits the texture limit.
    ///
    /// # Errors
    /// [`ViewerError::BadSize`] when a side is zero or above `max_texture_dimension`.
    pub fn check_size(&self, width: u32, height: u32) -> Result<(), ViewerError> {
        let max = self.max_texture_dimension;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(ViewerError::BadSize { width, height, max });
        }
        Ok(())
    }

    /// Checks that a `width x height` screenshot fits: its texture and the buffer it is read
    /// back through ([`readback_bytes`]).
    ///
    /// # Errors
    /// [`ViewerError::BadSize`] as [`DeviceLimits::check_size`];
    /// [`ViewerError::ReadbackTooLarge`] when the read-back buffer exceeds `max_buffer_size`.
    pub fn check_screenshot(&self, width: u32, height: u32) -> Result<(), ViewerError> {
        self.check_size(width, height)?;
        let bytes = readback_bytes(width, height);
        if bytes > self.max_buffer_size {
            return Err(ViewerError::ReadbackTooLarge { width, height, bytes, max: self.max_buffer_size });
        }
        Ok(())
    }

    /// Checks that a buffer of `bytes` holding `what` of level `level` fits.
    ///
    /// # Errors
    /// [`ViewerError::LevelTooLarge`] when `bytes` exceeds `max_buffer_size`.
    pub fn check_level_buffer(
        &self,
        level: usize,
        what: &'static str,
        bytes: u64,
    ) -> Result<(), ViewerError> {
        if bytes > self.max_buffer_size {
            return Err(ViewerError::LevelTooLarge { level, what, bytes, max: self.max_buffer_size });
        }
        Ok(())
    }

    /// A window's inner size clamped to what a surface may have: at least 1 and at most
    /// `max_texture_dimension` on each side (a window resized past the limit shows the
    /// top-left part the surface covers, scaled by the window system).
    #[must_use]
    pub fn surface_size(&self, width: u32, height: u32) -> (u32, u32) {
        let max = self.max_texture_dimension.max(1);
        (width.clamp(1, max), height.clamp(1, max))
    }
}

/// Bytes of the buffer a `width x height` RGBA8 image is read back through: each row
/// padded to [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`], times the rows.
#[must_use]
pub fn readback_bytes(width: u32, height: u32) -> u64 {
    u64::from(padded_row_bytes(width)) * u64::from(height)
}

/// Bytes of one read-back row of a `width`-pixel RGBA8 image, padded to
/// [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`] (saturating at `u32::MAX`, far above any limit).
#[must_use]
pub fn padded_row_bytes(width: u32) -> u32 {
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    width.saturating_mul(4).div_ceil(align).saturating_mul(align)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lavapipe's limits with wgpu's downlevel defaults, as the viewer asks for them.
    const LAVAPIPE: DeviceLimits = DeviceLimits { max_texture_dimension: 16384, max_buffer_size: 1 << 28 };

    #[test]
    fn screenshots_past_the_readback_limit_are_refused_naming_it() {
        // Sizes that each pass the 16384 side check, none fits 256 MiB.
        for (w, h) in [(8193, 8192), (10000, 10000), (16384, 4097)] {
            assert!(LAVAPIPE.check_size(w, h).is_ok(), "{w}x{h}");
            let e = LAVAPIPE.check_screenshot(w, h).unwrap_err();
            assert!(matches!(e, ViewerError::ReadbackTooLarge { .. }), "{w}x{h}: {e:?}");
            let text = e.to_string();
            assert!(text.contains("max_buffer_size") && text.contains("268435456"), "{text}");
        }
        assert_eq!(readback_bytes(8193, 8192), 270_532_608, "just past 256 MiB");
        assert!(LAVAPIPE.check_screenshot(8192, 8192).is_ok(), "exactly 256 MiB fits");
        assert!(LAVAPIPE.check_screenshot(16384, 4096).is_ok());
    }

    #[test]
    fn sides_past_the_texture_limit_are_refused_and_surfaces_clamped() {
        for (w, h) in [(20000, 20000), (16385, 1), (0, 10)] {
            let e = LAVAPIPE.check_size(w, h).unwrap_err();
            assert!(matches!(e, ViewerError::BadSize { max: 16384, .. }), "{e:?}");
            assert!(e.to_string().contains("max_texture_dimension_2d"), "{e}");
        }
        assert_eq!(LAVAPIPE.surface_size(20000, 300), (16384, 300));
        assert_eq!(LAVAPIPE.surface_size(0, 16384), (1, 16384));
        assert_eq!(padded_row_bytes(1), 256);
        assert_eq!(padded_row_bytes(u32::MAX), u32::MAX, "saturates, never wraps");
    }
}
