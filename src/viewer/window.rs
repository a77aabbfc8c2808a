//! The window: a winit shell round the renderer, with keyboard and mouse controls for the
//! orbit, top and walkthrough cameras, level modes and the guided tour.

use std::sync::Arc;
use std::time::Instant;

use glam::DVec2;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, Window, WindowId};

use super::ViewerError;
use super::camera::CameraKind;
use super::gpu::Gpu;
use super::limits::DeviceLimits;
use super::options::{Prepared, ViewOptions, export_view, path_ribbon, prepare};
use super::renderer::Renderer;
use super::state::ViewState;
use crate::dungeon::Dungeon;
use crate::walk::{Tour, Walker, compass_angle, waypoints};

/// The controls, for `--help` and the window title.
pub const KEYS_HELP: &str =
    "Keys: Tab switch camera (orbit, walk, top) | L level mode (all, only, cutaway) | \
PageUp/PageDown level | O outlines | P auto-walk the --path route | R respawn | \
E export what is shown (octile-view.glb) | Q quit.
Orbit: left-drag turn, right-drag pan, wheel zoom. Walk: click to grab the mouse (Esc releases), \
mouse look, WASD move, Shift run, Space jump.";

const SHORT_HELP: &str =
    "Tab camera, L levels, PgUp/PgDn level, O outlines, P tour, E export, WASD+mouse walk, Q quit";

/// Opens a window on `dungeon` and runs until it is closed (or after `frames` frames). A
/// window closed or destroyed from outside ends it cleanly.
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
    let prepared = prepare(&dungeon, &options)?;
    let event_loop = EventLoop::new().map_err(|e| match e {
        winit::error::EventLoopError::Os(os) => {
            ViewerError::NoDisplay { reason: super::error::os_reason(&os.to_string()) }
        }
        other => ViewerError::Window { reason: other.to_string() },
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let edit = super::edit::EditMode::new(options.save_to.clone(), options.mesh.clone());
    let mut app = App {
        ribbon: path_ribbon(&dungeon, &prepared),
        dungeon,
        options,
        prepared,
        frames_left: frames,
        gfx: None,
        error: None,
        keys: Keys::default(),
        drag: None,
        cursor: None,
        grabbed: false,
        last: Instant::now(),
        timing: Timing::default(),
        edit,
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

struct Gfx {
    window: Arc<Window>,
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    limits: DeviceLimits,
    minimised: bool,
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
}

#[derive(Default)]
struct Keys {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
    run: bool,
    jump: bool,
}

/// Frames left out of the mean frame time (pipeline compilation, first present).
const WARM_UP_FRAMES: u64 = 3;

#[derive(Default)]
struct Timing {
    rendered: u64,
    frames: u64,
    total: f64,
    draw_calls: u32,
    triangles: u64,
    title_at: f64,
    window_frames: u64,
    window_time: f64,
    adapter: String,
}

impl Timing {
    fn summary(&self) -> String {
        let mean = if self.frames > 0 { self.total / self.frames as f64 * 1000.0 } else { 0.0 };
        format!(
            "frames: {} | mean frame time after {WARM_UP_FRAMES} warm-up frames: {mean:.2} ms | draw calls: {} | triangles: {} | adapter: {}",
            self.rendered, self.draw_calls, self.triangles, self.adapter
        )
    }
}

struct App {
    dungeon: Dungeon,
    options: ViewOptions,
    prepared: Prepared,
    ribbon: Vec<crate::mesh::Vertex>,
    frames_left: Option<u64>,
    gfx: Option<Gfx>,
    error: Option<ViewerError>,
    keys: Keys,
    drag: Option<MouseButton>,
    cursor: Option<(f64, f64)>,
    grabbed: bool,
    last: Instant,
    timing: Timing,
    edit: super::edit::EditMode,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: ViewerError) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn create(&mut self, event_loop: &ActiveEventLoop) -> Result<Gfx, ViewerError> {
        let window_error = |e: &dyn std::fmt::Display| ViewerError::Window { reason: e.to_string() };
        let (w, h) = self.options.size;
        let attributes = Window::default_attributes()
            .with_title(format!("octile view | {SHORT_HELP}"))
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
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: limits.surface_size(size.width, size.height).0,
            height: limits.surface_size(size.width, size.height).1,
            present_mode,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);
        let mut renderer =
            Renderer::new(&gpu.device, format, gpu.sample_count(format)?, &self.prepared.scene)?;
        renderer.set_path(&gpu.device, &self.ribbon);
        self.timing.adapter = gpu.describe();
        eprintln!("octile view: {} | {}", gpu.describe(), KEYS_HELP.lines().next().unwrap_or_default());
        Ok(Gfx {
            window,
            gpu,
            surface,
            config,
            renderer,
            limits,
            minimised: size.width == 0 || size.height == 0,
        })
    }

    fn state(&mut self) -> &mut ViewState {
        &mut self.prepared.state
    }

    fn update(&mut self, dt: f64) {
        let world = &self.prepared.world;
        let state = &mut self.prepared.state;
        if state.camera != CameraKind::Walk {
            return;
        }
        let w = &mut state.walker;
        let speed = if self.keys.run { w.body.run_speed } else { w.body.walk_speed };
        let mut wish = None;
        if let Some(tour) = &mut state.tour {
            wish = tour.wish(w.xz(), speed, 0.2);
            if let Some(v) = wish {
                let target = compass_angle(v);
                let turn = (target - w.yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                    - std::f64::consts::PI;
                w.yaw += turn * (dt * 6.0).min(1.0);
            } else {
                state.tour = None;
            }
        }
        let wish = wish.unwrap_or_else(|| {
            let k = &self.keys;
            let f = f64::from(u8::from(k.forward)) - f64::from(u8::from(k.back));
            let s = f64::from(u8::from(k.right)) - f64::from(u8::from(k.left));
            let (sy, cy) = w.yaw.sin_cos();
            let v = DVec2::new(sy, -cy) * f + DVec2::new(cy, sy) * s;
            if v.length_squared() > 0.0 { v.normalize() * speed } else { v }
        });
        w.step(world, wish, self.keys.jump, dt);
        if w.feet.y < -2.0 * world.level_height() {
            *w = respawn(world, state.spawn, w.yaw);
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f64();
        self.last = now;
        self.update(dt);
        let Some(gfx) = &mut self.gfx else { return };
        if gfx.minimised {
            return;
        }
        let texture = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                // Not the window's inner size: asking X for it panics once the window is gone.
                let (width, height) = (gfx.config.width, gfx.config.height);
                if !gfx.configure(width, height) {
                    event_loop.exit();
                }
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
        let size = (gfx.config.width, gfx.config.height);
        let p = &mut self.prepared;
        let mut frame = p.state.frame(&p.scene, &p.world, size.0 as f32 / size.1 as f32);
        let target =
            super::edit::gpu::Target { format: gfx.renderer.format(), samples: gfx.renderer.samples() };
        self.edit.frame(&gfx.gpu, target, &self.dungeon, p, &mut frame, size);
        let (edit, shown) = (&self.edit, frame.clone());
        let mut extra = |pass: &mut wgpu::RenderPass<'_>| edit.draw(pass, &shown);
        let stats =
            gfx.renderer.render_with(&gfx.gpu.device, &gfx.gpu.queue, &view, size, &frame, &mut extra);
        let p = &self.prepared;
        gfx.window.pre_present_notify();
        gfx.gpu.queue.present(texture);
        let t = &mut self.timing;
        t.rendered += 1;
        if t.rendered > WARM_UP_FRAMES {
            t.frames += 1;
            t.total += dt;
        }
        t.draw_calls = stats.draw_calls;
        t.triangles = stats.triangles;
        t.window_frames += 1;
        t.window_time += dt;
        t.title_at += dt;
        if t.title_at > 0.5 {
            let ms = t.window_time / t.window_frames as f64 * 1000.0;
            let s = &p.state;
            let camera = format!("{:?}", s.camera).to_lowercase();
            let help = if self.edit.is_on() { super::edit::EditMode::help() } else { SHORT_HELP.to_string() };
            gfx.window.set_title(&format!(
                "octile | {camera} | levels {} | level {} | {ms:.1} ms | {} draws | {}{help}",
                s.mode.name(),
                s.current_level(&p.world),
                stats.draw_calls,
                self.edit.status().map(|e| e + " | ").unwrap_or_default()
            ));
            (t.title_at, t.window_frames, t.window_time) = (0.0, 0, 0.0);
        }
        if let Some(n) = &mut self.frames_left {
            *n = n.saturating_sub(1);
            if *n == 0 {
                event_loop.exit();
            }
        }
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode, pressed: bool) {
        match code {
            KeyCode::KeyW | KeyCode::ArrowUp => self.keys.forward = pressed,
            KeyCode::KeyS | KeyCode::ArrowDown => self.keys.back = pressed,
            KeyCode::KeyA | KeyCode::ArrowLeft => self.keys.left = pressed,
            KeyCode::KeyD | KeyCode::ArrowRight => self.keys.right = pressed,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => self.keys.run = pressed,
            KeyCode::Space => self.keys.jump = pressed,
            _ => {}
        }
        if !pressed {
            return;
        }
        let levels = self.prepared.scene.levels();
        let world = self.prepared.world.clone();
        let steps = self.prepared.route.clone();
        let walk_refused = self.prepared.walk_refused.clone();
        let state = self.state();
        match code {
            KeyCode::Tab => {
                state.camera = match state.camera {
                    CameraKind::Orbit if walk_refused.is_none() => CameraKind::Walk,
                    CameraKind::Orbit | CameraKind::Walk => CameraKind::Top,
                    CameraKind::Top => CameraKind::Orbit,
                };
                if let Some(e) = walk_refused.filter(|_| state.camera == CameraKind::Top) {
                    eprintln!("walk camera skipped: {e}");
                }
                if state.camera != CameraKind::Walk {
                    self.set_grab(false);
                }
            }
            KeyCode::KeyL => state.mode = state.mode.next(),
            KeyCode::PageUp => state.level = (state.level + 1).min(levels.saturating_sub(1)),
            KeyCode::PageDown => state.level = state.level.saturating_sub(1),
            KeyCode::KeyO => state.outlines = !state.outlines,
            KeyCode::KeyR => {
                state.walker = respawn(&world, state.spawn, state.walker.yaw);
                state.tour = None;
            }
            KeyCode::KeyP => {
                if let Some(e) = walk_refused {
                    eprintln!("no tour: {e}");
                } else if state.tour.take().is_none()
                    && let Some(steps) = steps
                {
                    state.walker = Walker::spawn(&world, steps[0]);
                    state.tour = Some(Tour::new(waypoints(&world, &steps)));
                    state.camera = CameraKind::Walk;
                }
            }
            KeyCode::Escape => {
                if self.grabbed {
                    self.set_grab(false);
                } else {
                    event_loop.exit();
                }
            }
            KeyCode::KeyQ => event_loop.exit(),
            KeyCode::KeyE => self.export(),
            _ => {}
        }
    }

    /// Writes what the window shows (the scene's mesh, not built again, and the route).
    fn export(&self) {
        let to = &self.options.export_to;
        match export_view(&self.dungeon, &self.prepared, to) {
            Ok(s) => eprintln!("exported {} ({} triangles, {} bytes)", to.display(), s.triangles, s.bytes),
            Err(e) => eprintln!("export failed: {e}"),
        }
    }

    fn set_grab(&mut self, grab: bool) {
        let Some(gfx) = &self.gfx else { return };
        let w = &gfx.window;
        if grab {
            let ok = w
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| w.set_cursor_grab(CursorGrabMode::Confined));
            self.grabbed = ok.is_ok();
            w.set_cursor_visible(!self.grabbed);
        } else {
            let _ = w.set_cursor_grab(CursorGrabMode::None);
            w.set_cursor_visible(true);
            self.grabbed = false;
        }
    }
}

fn respawn(world: &crate::walk::World, spawn: crate::grid::Pos, yaw: f64) -> Walker {
    let mut w = Walker::spawn(world, spawn);
    w.yaw = yaw;
    w
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
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Some(gfx) = &mut self.gfx {
                    gfx.minimised = size.width == 0 || size.height == 0;
                    if !gfx.minimised && !gfx.configure(size.width, size.height) {
                        event_loop.exit();
                    }
                }
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            WindowEvent::KeyboardInput { event, .. } => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    if self.edit.key(code, event.state == ElementState::Pressed, &self.dungeon) {
                        return;
                    }
                    self.key(event_loop, code, event.state == ElementState::Pressed);
                }
            }
            WindowEvent::ModifiersChanged(m) => {
                self.edit.modifiers(m.state().control_key(), m.state().shift_key())
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let pressed = state == ElementState::Pressed;
                if button == MouseButton::Left && self.edit.left_button(pressed) {
                    return;
                }
                if pressed && button == MouseButton::Left && self.prepared.state.camera == CameraKind::Walk {
                    self.set_grab(true);
                }
                self.drag = if pressed { Some(button) } else { None };
            }
            WindowEvent::CursorMoved { position, .. } => {
                let (x, y) = (position.x, position.y);
                self.edit.cursor_moved(x, y);
                if let (Some((px, py)), Some(button)) = (self.cursor, self.drag) {
                    let (dx, dy) = ((x - px) as f32, (y - py) as f32);
                    let state = &mut self.prepared.state;
                    if state.camera == CameraKind::Orbit {
                        if button == MouseButton::Left {
                            state.orbit.rotate(dx * 0.006, dy * 0.006);
                        } else {
                            let k = state.orbit.distance * 0.0015;
                            state.orbit.pan(dx * k, dy * k);
                        }
                    }
                }
                self.cursor = Some((x, y));
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                self.prepared.state.orbit.zoom(0.9f32.powf(lines));
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta } = event {
            let state = &mut self.prepared.state;
            if self.grabbed && state.camera == CameraKind::Walk {
                state.walker.yaw += delta.0 * 0.003;
                state.walker.pitch = (state.walker.pitch - delta.1 * 0.003).clamp(-1.4, 1.4);
            }
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(gfx) = &self.gfx {
            gfx.window.request_redraw();
        }
    }
}
