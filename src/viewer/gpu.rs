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
    pub fn offscreen(preference: AdapterPreference) -> Result<Gpu, ViewerError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Gpu::with_instance(instance, None, preference)
    }

    /// A context on `instance`, able to present to `surface` when given.
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
    /// CPU adapters (lavapipe pays for every sample) unless `OCTILE_MSAA=4` asks for it.
    #[must_use]
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let cpu = self.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        if cpu && std::env::var("OCTILE_MSAA").as_deref() != Ok("4") {
            return 1;
        }
        let ok = |f| self.adapter.get_texture_format_features(f).flags.sample_count_supported(4);
        if ok(format) && ok(super::renderer::DEPTH_FORMAT) { 4 } else { 1 }
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
