//! The GPU context: instance, adapter, device and queue, for offscreen use or a window.

use super::ViewerError;

/// An adapter and its device.
pub struct Gpu {
    /// The instance that made the adapter.
    pub instance: wgpu::Instance,
    /// The adapter (a GPU, or a CPU renderer such as lavapipe).
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

/// Which adapter to prefer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AdapterPreference {
    /// The fastest adapter (a real GPU when there is one).
    #[default]
    HighPerformance,
    /// A CPU adapter when there is one (same pixels on every machine: tests).
    Cpu,
}

impl Gpu {
    /// A context without a window (screenshots, tests).
    ///
    /// # Errors
    /// As [`Gpu::with_instance`].
    pub fn offscreen(preference: AdapterPreference) -> Result<Gpu, ViewerError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Gpu::with_instance(instance, None, preference)
    }

    /// A context on `instance`, able to present to `surface` when given.
    ///
    /// # Errors
    /// [`ViewerError::NoAdapter`] when no adapter (of the preferred kind, or any) can draw
    /// (to `surface`); [`ViewerError::Device`] when the adapter refuses a device.
    pub fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
        preference: AdapterPreference,
    ) -> Result<Gpu, ViewerError> {
        let adapter = pick_adapter(&instance, surface, preference)?;
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("octile viewer"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| ViewerError::Device { adapter: info.name.clone(), reason: e.to_string() })?;
        Ok(Gpu { instance, adapter, device, queue })
    }

    /// "name (backend, device type)" of the adapter.
    #[must_use]
    pub fn describe(&self) -> String {
        let i = self.adapter.get_info();
        format!("{} ({:?}, {:?})", i.name, i.backend, i.device_type)
    }

    /// The MSAA sample count: 4 where the adapter allows it for `format` and depth, 1 on
    /// CPU adapters (lavapipe pays for every sample); `OCTILE_MSAA=1` or `4` overrides the
    /// choice (4 only where the adapter allows it).
    ///
    /// # Errors
    /// [`ViewerError::BadMsaa`] when `OCTILE_MSAA` holds anything but 1 or 4.
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> Result<u32, ViewerError> {
        let asked = msaa_request(std::env::var("OCTILE_MSAA").ok().as_deref())?;
        let cpu = self.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        let wanted = asked.unwrap_or(if cpu { 1 } else { 4 });
        let ok = |f| self.adapter.get_texture_format_features(f).flags.sample_count_supported(4);
        Ok(if wanted == 4 && ok(format) && ok(super::renderer::DEPTH_FORMAT) { 4 } else { 1 })
    }
}

/// The sample count `OCTILE_MSAA` asks for: `None` when unset or empty (the adapter's
/// default), `Some(1)` or `Some(4)`.
///
/// # Errors
/// [`ViewerError::BadMsaa`] for any other value.
pub fn msaa_request(value: Option<&str>) -> Result<Option<u32>, ViewerError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some("1") => Ok(Some(1)),
        Some("4") => Ok(Some(4)),
        Some(other) => Err(ViewerError::BadMsaa { value: other.to_owned() }),
    }
}

fn pick_adapter(
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface<'_>>,
    preference: AdapterPreference,
) -> Result<wgpu::Adapter, ViewerError> {
    if preference == AdapterPreference::Cpu {
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let cpu = adapters.into_iter().find(|a| {
            a.get_info().device_type == wgpu::DeviceType::Cpu
                && surface.is_none_or(|s| a.is_surface_supported(s))
        });
        if let Some(a) = cpu {
            return Ok(a);
        }
    }
    pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: surface,
        ..Default::default()
    }))
    .map_err(|e| ViewerError::NoAdapter { reason: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msaa_takes_1_or_4_and_refuses_the_rest() {
        assert_eq!(msaa_request(None).unwrap(), None);
        assert_eq!(msaa_request(Some("")).unwrap(), None);
        assert_eq!(msaa_request(Some("1")).unwrap(), Some(1));
        assert_eq!(msaa_request(Some("4")).unwrap(), Some(4));
        for bad in ["3", "8", "yes", "0"] {
            let e = msaa_request(Some(bad)).unwrap_err();
            assert!(matches!(e, ViewerError::BadMsaa { .. }), "{bad}: {e:?}");
            assert!(e.to_string().contains("use 1 (off) or 4") && e.to_string().contains(bad), "{e}");
        }
    }
}
