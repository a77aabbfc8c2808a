//! The window: a winit shell round the renderer. It redraws only when something changed
//! (input, the walker moving, a tour, a message expiring) and never while minimised or
//! hidden. Input is handled in `viewer::input`, the HUD in `viewer::hud`.
//!
//! Hooks for other viewer modules (keep these call sites stable): events go through
//! `App::dispatch` (a module that consumes an event returns before the view's own
//! handling, see `HOOK(event)`), and `App::redraw` calls per-frame work just before the
//! frame is drawn (`HOOK(frame)`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use super::ViewerError;
use super::gpu::Gpu;
use super::hud::{Hud, view_lines};
use super::input::Input;
use super::limits::DeviceLimits;
use super::options::{Prepared, ViewOptions, path_ribbon, prepare};
use super::renderer::Renderer;
use crate::dungeon::Dungeon;

/// The controls, for `--help` and the window's help panel (F1): the key table
/// (`viewer::keys::BINDINGS`) in words, then edit mode's keys
/// ([`super::edit::keys::EDIT_BINDINGS`]).
#[must_use]
pub fn keys_help() -> String {
    let mut help = super::keys::help_text();
    help.push_str("Edit mode (F3; the HUD lists these while editing):\n");
    for line in super::edit::keys::edit_help() {
        help.push_str(&format!("  {line}\n"));
    }
    help
}

/// Opens a window on `dungeon` and runs until it is closed (or after `frames` frames, drawn
/// back to back). A window closed or destroyed from outside ends it cleanly.
///
/// # Errors
/// [`ViewerError::NoFrames`] for `Some(0)` frames; the errors of [`prepare`];
/// [`ViewerError::NoDisplay`] without a display; [`ViewerError::BadSize`] when the window
/// size exceeds the device's texture limit; [`ViewerError::Window`] when the window system
/// or the surface fails.
pub fn run(dungeon: Dungeon, options: ViewOptions, frames: Option<u64>) -> Result<(), ViewerError> {
    if frames == Some(0) {
        return Err(ViewerError::NoFrames);
    }
    let dungeon = super::options::view_dungeon(dungeon, &options)?;
    let prepared = prepare(&dungeon, &options)?;
    let event_loop = EventLoop::new().map_err(|e| match e {
        winit::error::EventLoopError::Os(os) => {
            ViewerError::NoDisplay { reason: super::error::os_reason(&os.to_string()) }
        }
        other => ViewerError::Window { reason: other.to_string() },
    })?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let edit = super::edit::EditMode::new(options.save_to.clone(), options.mesh.clone());
    let mut app = App {
        edit,
        ribbon: path_ribbon(&dungeon, &prepared),
        input: Input::new(&options),
        dungeon,
        options,
        prepared,
        frames_left: frames,
        gfx: None,
        error: None,
        hud: Hud::new(&keys_help()),
        dirty: true,
        hidden: false,
        animated: false,
        last: Instant::now(),
        hud_clock: Instant::now(),
        timing: Timing::default(),
        quit_asked: None,
    };
    event_loop.run_app(&mut app).map_err(|e| ViewerError::Window { reason: e.to_string() })?;
    if let Some(e) = app.error {
        return Err(e);
    }
    if frames.is_some() {
        eprintln!("{}", app.timing.summary());
    }
    Ok(())
}

/// The window, the device and what is drawn.
pub(crate) struct Gfx {
    pub(crate) window: Arc<Window>,
    pub(crate) gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    pub(crate) renderer: Renderer,
    limits: DeviceLimits,
    minimised: bool,
    /// The HUD revision and surface size last uploaded.
    hud_drawn: Option<(u64, (u32, u32))>,
    /// The markers' diamonds are uploaded (at start with `--markers`, else when K first
    /// shows them).
    markers_built: bool,
}

impl Gfx {
    /// Configures the surface for a window of `width x height` (clamped to the device's
    /// texture limit). False when the surface can no longer present (its window was
    /// destroyed from outside): configuring it would panic, so the caller exits instead.
    fn configure(&mut self, width: u32, height: u32) -> bool {
        if !self.gpu.adapter.is_surface_supported(&self.surface) {
            return false;
        }
        (self.config.width, self.config.height) = self.limits.surface_size(width, height);
        self.surface.configure(&self.gpu.device, &self.config);
        true
    }

    /// The surface size in pixels.
    pub(crate) fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }
}

/// Frames left out of the mean frame time (pipeline compilation, first present).
const WARM_UP_FRAMES: u64 = 3;

#[derive(Default)]
struct Timing {
    rendered: u64,
    frames: u64,
    total: f64,
    /// Seconds between frames over every frame, the warm-up ones included (the mean of a
    /// run too short to leave any out).
    total_all: f64,
    draw_calls: u32,
    triangles: u64,
    adapter: String,
    /// The frame time shown in the HUD (ms), updated twice a second.
    shown_ms: f64,
    since_shown: f64,
    work: f64,
    work_frames: u32,
}

impl Timing {
    fn summary(&self) -> String {
        let mean = |total: f64, frames: u64| total / frames.max(1) as f64 * 1000.0;
        let time = if self.frames > 0 {
            format!(
                "mean frame time after {WARM_UP_FRAMES} warm-up frames: {:.2} ms",
                mean(self.total, self.frames)
            )
        } else {
            format!(
                "mean frame time {:.2} ms, warm-up included (a run of more than {WARM_UP_FRAMES} frames leaves it out)",
                mean(self.total_all, self.rendered)
            )
        };
        format!(
            "frames: {} | {time} | draw calls: {} | triangles: {} | adapter: {}",
            self.rendered, self.draw_calls, self.triangles, self.adapter
        )
    }

    /// Counts a frame that took `work` seconds to draw and came `interval` seconds after
    /// the one before.
    fn count(&mut self, work: f64, interval: f64) {
        self.rendered += 1;
        self.total_all += interval;
        if self.rendered > WARM_UP_FRAMES {
            self.frames += 1;
            self.total += interval;
        }
        self.work += work;
        self.work_frames += 1;
        self.since_shown += interval.min(1.0);
        if self.since_shown > 0.5 || self.shown_ms == 0.0 {
            self.shown_ms = self.work / f64::from(self.work_frames) * 1000.0;
            (self.since_shown, self.work, self.work_frames) = (0.0, 0.0, 0);
        }
    }
}

/// The viewer application: the dungeon, its prepared view, the input state, the HUD and
/// the window's GPU state.
pub(crate) struct App {
    pub(crate) dungeon: Dungeon,
    pub(crate) options: ViewOptions,
    pub(crate) prepared: Prepared,
    pub(crate) ribbon: Vec<crate::mesh::Vertex>,
    pub(crate) input: Input,
    pub(crate) hud: Hud,
    pub(crate) gfx: Option<Gfx>,
    frames_left: Option<u64>,
    error: Option<ViewerError>,
    /// Something changed since the last frame: draw one.
    pub(crate) dirty: bool,
    /// The window is occluded (hidden, on another desktop): nothing is drawn.
    hidden: bool,
    /// The last frame was drawn because something moves (not for a single change).
    animated: bool,
    last: Instant,
    hud_clock: Instant,
    timing: Timing,
    /// Edit mode and fog of war (src/viewer/edit/).
    edit: super::edit::EditMode,
    /// When Q or Esc was last refused for unsaved edits: pressed again within
    /// [`QUIT_CONFIRM_SECONDS`], it quits.
    pub(crate) quit_asked: Option<Instant>,
}

/// How long a refused quit (unsaved edits) waits for the key again.
pub(crate) const QUIT_CONFIRM_SECONDS: f64 = 5.0;

impl App {
    /// True when edit mode holds changes not saved yet.
    pub(crate) fn has_unsaved_edits(&self) -> bool {
        self.edit.has_unsaved_edits()
    }

    /// Whether a quit (`again` says how the user asks for one: "Q or Esc", "close the
    /// window") goes ahead now: at once without unsaved edits; with them, only when asked
    /// again within [`QUIT_CONFIRM_SECONDS`] of the first time, which says what is at stake.
    pub(crate) fn confirm_quit(&mut self, again: &str) -> bool {
        if !self.has_unsaved_edits() {
            return true;
        }
        let asked_again = self.quit_asked.is_some_and(|t| t.elapsed().as_secs_f64() < QUIT_CONFIRM_SECONDS);
        if !asked_again {
            self.quit_asked = Some(Instant::now());
            self.hud.warn(format!("unsaved edits: Ctrl+S saves them; {again} again quits without saving"));
        }
        asked_again
    }

    /// The window is gone without a chance to ask (destroyed): unsaved edits go to the
    /// recovery file beside the dungeon's, and the terminal says where.
    fn keep_unsaved_edits(&mut self) {
        match self.edit.save_recovery() {
            None => {}
            Some(Ok(to)) => eprintln!(
                "octile view: the window was closed with unsaved edits; they are in {} (the dungeon's own file is as it was)",
                to.display()
            ),
            Some(Err(e)) => eprintln!(
                "octile view: the window was closed with unsaved edits, and keeping them failed: {e}"
            ),
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: ViewerError) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn create(&mut self, event_loop: &ActiveEventLoop) -> Result<Gfx, ViewerError> {
        let window_error = |e: &dyn std::fmt::Display| ViewerError::Window { reason: e.to_string() };
        let (w, h) = self.options.size;
        let attributes = Window::default_attributes()
            .with_title("octile view | F1 or H: keys")
            .with_inner_size(PhysicalSize::new(w, h));
        let window = Arc::new(event_loop.create_window(attributes).map_err(|e| window_error(&e))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
            Box::new(event_loop.owned_display_handle()),
        ));
        let surface = instance.create_surface(window.clone()).map_err(|e| window_error(&e))?;
        let gpu = Gpu::with_instance(instance, Some(&surface), self.options.adapter)?;
        let limits = DeviceLimits::of(&gpu.device);
        limits.check_size(w, h)?;
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(wgpu::TextureFormat::is_srgb)
            .or(caps.formats.first().copied())
            .ok_or_else(|| ViewerError::Window {
                reason: format!("{} cannot present to this window", gpu.describe()),
            })?;
        let size = window.inner_size();
        let present_mode = if self.frames_left.is_some() {
            wgpu::PresentMode::AutoNoVsync
        } else {
            wgpu::PresentMode::AutoVsync
        };
        let (width, height) = limits.surface_size(size.width, size.height);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width,
            height,
            present_mode,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);
        let mut renderer =
            Renderer::new(&gpu.device, format, gpu.sample_count(format)?, &self.prepared.scene)?;
        // A window builds a few chunks per frame (the coarse mesh stands in for the rest
        // until they are built), so the first frame comes at once and input stays smooth.
        renderer.set_chunk_budget(Some(super::chunks::demand::DEFAULT_BUDGET));
        renderer.set_path(&gpu.device, &self.ribbon);
        renderer.set_doors(&gpu.device, &super::doors::leaf_triangles(&self.dungeon));
        let (markers, lights) = super::options::marker_and_light_triangles(&self.dungeon, &self.options);
        renderer.set_markers(&gpu.device, &markers, &lights);
        renderer.set_keys(&gpu.device, &super::markers::key_triangles(&self.dungeon));
        self.timing.adapter = gpu.describe();
        eprintln!("octile view: {} | F1 or H shows the keys", gpu.describe());
        Ok(Gfx {
            window,
            gpu,
            surface,
            config,
            renderer,
            limits,
            minimised: size.width == 0 || size.height == 0,
            hud_drawn: None,
            markers_built: self.options.markers,
        })
    }

    /// True while frames must follow each other without input: the walker moving, a tour,
    /// a timed run (`--frames`).
    fn animating(&self) -> bool {
        self.frames_left.is_some() || self.input.animating(&self.prepared.state)
    }

    /// Handles one window event. Modules that take events first are called at `HOOK(event)`
    /// and return true when they consumed it; any input marks the view for a redraw.
    fn dispatch(&mut self, event_loop: &ActiveEventLoop, event: &WindowEvent) {
        match event {
            WindowEvent::CloseRequested => {
                if self.confirm_quit("close the window") {
                    event_loop.exit();
                }
                return;
            }
            WindowEvent::Destroyed => {
                self.keep_unsaved_edits();
                event_loop.exit();
                return;
            }
            WindowEvent::RedrawRequested => {
                self.redraw(event_loop);
                return;
            }
            WindowEvent::Resized(size) => {
                if let Some(gfx) = &mut self.gfx {
                    gfx.minimised = size.width == 0 || size.height == 0;
                    if !gfx.minimised && !gfx.configure(size.width, size.height) {
                        event_loop.exit();
                    }
                }
            }
            WindowEvent::Occluded(hidden) => self.hidden = *hidden,
            _ => {}
        }
        self.dirty = true;
        // HOOK(event): e.g. `if self.edit_event(event) { return; }`
        if self.edit.event(event, self.input.modifiers, &self.dungeon) {
            return;
        }
        if super::input::handle(self, event_loop, event) {
            event_loop.exit();
        }
    }

    /// Draws one frame: moves the walker, updates the HUD, renders and presents.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let started = Instant::now();
        let interval = (started - self.last).as_secs_f64();
        self.last = started;
        self.dirty = false;
        let Some(gfx) = &self.gfx else { return };
        if gfx.minimised || self.hidden {
            return;
        }
        super::input::update(self, interval.min(0.1));
        // HOOK(frame): per-frame work of other modules goes here, before the frame is drawn.
        let Some(gfx) = &mut self.gfx else { return };
        let texture = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                // Not the window's inner size: asking X for it panics once the window is gone.
                let (width, height) = gfx.size();
                if !gfx.configure(width, height) {
                    event_loop.exit();
                }
                self.dirty = true;
                return;
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => return,
            other => {
                let reason = format!("the surface failed: {other:?}");
                self.fail(event_loop, ViewerError::Window { reason });
                return;
            }
        };
        let view = texture.texture.create_view(&Default::default());
        let size = gfx.size();
        let p = &self.prepared;
        let mut frame = p.state.frame_sized(&p.scene, &p.world, size);
        if frame.markers && !gfx.markers_built {
            let shown = self.edit.edited().unwrap_or(&self.dungeon);
            let markers = super::markers::marker_triangles(&super::markers::markers_of(shown));
            gfx.renderer.set_marker_diamonds(&gfx.gpu.device, &markers);
            gfx.renderer.set_keys(&gfx.gpu.device, &super::markers::key_triangles(shown));
            gfx.markers_built = true;
        }
        let target =
            super::edit::gpu::Target { format: gfx.renderer.format(), samples: gfx.renderer.samples() };
        self.edit.frame(&gfx.gpu, target, &self.dungeon, &mut self.prepared, &mut frame, size);
        if let Some(found) = self.edit.take_moved_markers() {
            // An edit moved the torches: their glow (`--lights`) and the markers follow.
            let lights =
                if self.options.lights { super::markers::light_triangles(&found) } else { Vec::new() };
            gfx.renderer.set_markers(&gfx.gpu.device, &super::markers::marker_triangles(&found), &lights);
            gfx.markers_built = true;
        }
        for message in self.edit.take_messages() {
            self.hud.say(message);
        }
        match self.edit.hud_lines() {
            lines if lines.is_empty() => self.hud.clear_section("edit"),
            lines => self.hud.set_section("edit", lines),
        }
        let p = &self.prepared;
        let t = &self.timing;
        self.hud.set_section("view", view_lines(p, Some((t.shown_ms, t.draw_calls, t.triangles))));
        if gfx.hud_drawn != Some((self.hud.revision(), size)) {
            gfx.renderer.set_hud(&gfx.gpu.device, &self.hud.quads(size.0, size.1));
            gfx.hud_drawn = Some((self.hud.revision(), size));
        }
        let (edit, shown) = (&self.edit, frame.clone());
        let mut edit_drawn = super::edit::gpu::Drawn::default();
        let mut extra = |pass: &mut wgpu::RenderPass<'_>| {
            edit_drawn = edit.draw(pass, &shown);
        };
        let stats =
            gfx.renderer.render_with(&gfx.gpu.device, &gfx.gpu.queue, &view, size, &frame, &mut extra);
        gfx.window.pre_present_notify();
        gfx.gpu.queue.present(texture);
        self.timing.draw_calls = stats.draw_calls + edit_drawn.calls;
        self.timing.triangles = stats.triangles + edit_drawn.triangles;
        self.timing.count(started.elapsed().as_secs_f64(), interval);
        if let Some(n) = &mut self.frames_left {
            *n = n.saturating_sub(1);
            if *n == 0 {
                event_loop.exit();
            }
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match self.create(event_loop) {
            Ok(gfx) => {
                gfx.window.request_redraw();
                self.gfx = Some(gfx);
                self.last = Instant::now();
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        self.dispatch(event_loop, &event);
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, id: DeviceId, event: DeviceEvent) {
        if super::input::device(self, id, &event) {
            self.dirty = true;
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        self.hud.tick((now - self.hud_clock).as_secs_f64());
        self.hud_clock = now;
        let Some(gfx) = &self.gfx else { return };
        if gfx.minimised || self.hidden {
            event_loop.set_control_flow(ControlFlow::Wait);
            return;
        }
        if gfx.hud_drawn.is_some_and(|(revision, _)| revision != self.hud.revision()) {
            self.dirty = true;
        }
        // Chunks still to build: more frames, until the view is complete.
        let animating = self.animating() || gfx.renderer.chunk_stats().pending > 0 || self.edit.busy();
        if self.dirty || animating {
            if !self.animated {
                // The first frame after a pause: the walker moves from now, not from the
                // last frame drawn.
                self.last = now - Duration::from_millis(16);
            }
            gfx.window.request_redraw();
        }
        self.animated = animating;
        event_loop.set_control_flow(match self.hud.next_expiry() {
            Some(s) => ControlFlow::WaitUntil(now + Duration::from_secs_f64(s.max(0.01))),
            None => ControlFlow::Wait,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_shorter_than_the_warm_up_still_reports_a_frame_time() {
        let mut timing = Timing::default();
        for _ in 0..3 {
            timing.count(0.010, 0.020);
        }
        let short = timing.summary();
        assert!(short.starts_with("frames: 3 | mean frame time 20.00 ms, warm-up included"), "{short}");
        timing.count(0.010, 0.040);
        let long = timing.summary();
        assert!(long.contains("frames: 4 | mean frame time after 3 warm-up frames: 40.00 ms"), "{long}");
    }
}
