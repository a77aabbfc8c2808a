//! Input: keys (through the binding table in [`super::keys`]), mouse drag, wheel and
//! mouse-look, and the walker's movement each frame.

use std::f64::consts::{PI, TAU};

use glam::DVec2;
use winit::event::{DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::window::CursorGrabMode;

mod commands;

use super::camera::{Bounds, CameraKind, ray_to_plane};
use super::keys::{Held, command_for};
use super::options::ViewOptions;
use super::state::ViewState;
use super::window::App;
use crate::walk::{Walker, compass_angle};

/// Seconds after a mouse-look during a tour before the tour turns the view again.
const FREE_LOOK_SECONDS: f64 = 2.0;

/// The state of the keyboard and mouse between events.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// Movement keys held.
    pub held: Held,
    /// A jump pressed and not yet made (a press is never lost between frames).
    pub jump: bool,
    drag: Option<MouseButton>,
    /// Where the left button went down (a release near it is a click: focus there).
    press_at: Option<(f64, f64)>,
    /// The cursor's position in the window (pixels).
    pub cursor: Option<(f64, f64)>,
    /// The mouse is grabbed for mouse-look.
    pub grabbed: bool,
    /// Where mouse-look reads motion: raw device motion while the cursor is locked, cursor
    /// moves (re-centred) while it is only confined (X11, whose raw motion arrives twice
    /// then). `None` while the mouse is free.
    look_source: Option<LookSource>,
    /// The cursor was warped to the window's centre and that move has not come back yet.
    warp_pending: bool,
    /// Seconds of free look left during a tour.
    look_hold: f64,
    /// Mouse-look radians per pixel.
    pub sensitivity: f64,
    /// Mouse-look up/down inverted.
    pub invert: bool,
    /// Print each mouse-look turn on stderr (`OCTILE_VIEW_DEBUG=look`).
    debug_look: bool,
    /// Print where the walker moves on stderr (`OCTILE_VIEW_DEBUG=walk`).
    debug_walk: bool,
    /// The walker moved in the last update.
    moved: bool,
    /// Shift, Ctrl, Alt and Super as last reported.
    pub modifiers: winit::keyboard::ModifiersState,
}

impl Input {
    /// The input state for `options`.
    #[must_use]
    pub fn new(options: &ViewOptions) -> Input {
        Input {
            held: Held::default(),
            jump: false,
            drag: None,
            press_at: None,
            cursor: None,
            grabbed: false,
            look_source: None,
            warp_pending: false,
            look_hold: 0.0,
            sensitivity: options.look_sensitivity,
            invert: options.invert_look,
            debug_look: std::env::var("OCTILE_VIEW_DEBUG").is_ok_and(|v| v.split(',').any(|w| w == "look")),
            debug_walk: std::env::var("OCTILE_VIEW_DEBUG").is_ok_and(|v| v.split(',').any(|w| w == "walk")),
            moved: false,
            modifiers: winit::keyboard::ModifiersState::empty(),
        }
    }

    /// True while the walk view changes without input: keys held, a jump, a tour, a fall.
    #[must_use]
    pub fn animating(&self, state: &ViewState) -> bool {
        state.camera == CameraKind::Walk
            && (self.held.moving() || self.jump || state.tour.is_some() || self.moved)
    }
}

/// Where mouse-look motion comes from (one source only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LookSource {
    /// Raw device motion (the cursor is locked).
    Device,
    /// Cursor moves, the cursor put back at the centre (it is confined).
    Cursor,
}

/// Handles a window event; true when the viewer should quit.
pub(crate) fn handle(app: &mut App, event_loop: &ActiveEventLoop, event: &WindowEvent) -> bool {
    match event {
        WindowEvent::KeyboardInput { event, is_synthetic, .. } => {
            let pressed = event.state == ElementState::Pressed;
            if app.input.held.set(event.physical_key, pressed) {
                return false;
            }
            if event.logical_key == winit::keyboard::Key::Named(winit::keyboard::NamedKey::Space) {
                app.input.jump |= pressed && !event.repeat;
                return false;
            }
            if let Some(c) = command_for(&event.logical_key, pressed, event.repeat, *is_synthetic) {
                return commands::run_command(app, event_loop, c);
            }
        }
        WindowEvent::MouseInput { state, button, .. } => {
            let pressed = *state == ElementState::Pressed;
            if pressed && *button == MouseButton::Left && app.prepared.state.camera == CameraKind::Walk {
                set_grab(app, true);
            }
            if *button == MouseButton::Left {
                let press = app.input.press_at.take();
                if pressed {
                    app.input.press_at = app.input.cursor;
                } else if let (Some(p), Some(c)) = (press, app.input.cursor)
                    && (c.0 - p.0).hypot(c.1 - p.1) <= super::focus::CLICK_SLOP
                {
                    super::focus::click(app, c);
                }
            }
            app.input.drag = if pressed { Some(*button) } else { None };
        }
        WindowEvent::CursorMoved { position, .. } if app.input.look_source == Some(LookSource::Cursor) => {
            cursor_look(app, position.x, position.y);
        }
        WindowEvent::CursorMoved { position, .. } => {
            let (x, y) = (position.x, position.y);
            if let (Some((px, py)), Some(button)) = (app.input.cursor, app.input.drag) {
                let size = app.gfx.as_ref().map_or((1.0, 1.0), |g| (g.size().0 as f32, g.size().1 as f32));
                let bounds = app.prepared.scene.bounds;
                drag(&mut app.prepared.state, &bounds, button, ((x - px) as f32, (y - py) as f32), size);
            }
            app.input.cursor = Some((x, y));
        }
        WindowEvent::MouseWheel { delta, .. } => {
            let lines = match delta {
                MouseScrollDelta::LineDelta(_, y) => *y,
                MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
            };
            wheel(app, lines);
        }
        WindowEvent::Focused(false) => app.input.held = Held::default(),
        WindowEvent::ModifiersChanged(m) => app.input.modifiers = m.state(),
        _ => {}
    }
    false
}

/// A drag of `(dx, dy)` pixels with `button` held on a picture of `size` pixels.
fn drag(state: &mut ViewState, bounds: &Bounds, button: MouseButton, (dx, dy): (f32, f32), size: (f32, f32)) {
    match state.camera {
        CameraKind::Orbit if button == MouseButton::Left => state.orbit.rotate(dx * 0.006, dy * 0.006),
        CameraKind::Orbit => {
            let k = state.orbit.distance * 0.0015;
            state.orbit.pan(dx * k, dy * k);
        }
        CameraKind::Top => state.top.pan(bounds, dx, dy, size),
        CameraKind::Walk => {}
    }
}

/// The wheel turned by `lines` notches: the orbit and top views zoom towards the cursor.
fn wheel(app: &mut App, lines: f32) {
    let Some(gfx) = &app.gfx else { return };
    let size = (gfx.size().0 as f32, gfx.size().1 as f32);
    let (cx, cy) = app.input.cursor.map_or((size.0 / 2.0, size.1 / 2.0), |(x, y)| (x as f32, y as f32));
    let p = &mut app.prepared;
    let bounds = p.scene.bounds;
    match p.state.camera {
        CameraKind::Orbit => {
            let view = p.state.orbit.view(size.0 / size.1.max(1.0));
            let floor = f32::from(p.state.current_level(&p.world)) * p.scene.level_height;
            let towards = ray_to_plane(&view, cx, cy, size, floor)
                .filter(|hit| hit.distance(p.state.orbit.target) < 4.0 * bounds.radius().max(5.0))
                .unwrap_or(p.state.orbit.target);
            p.state.orbit.zoom_towards(0.9f32.powf(lines), towards);
        }
        CameraKind::Top => p.state.top.zoom_at(&bounds, 1.1f32.powf(lines), cx, cy, size),
        CameraKind::Walk => {}
    }
}

/// Mouse-look from raw device motion while the cursor is locked; true when the view turned.
pub(crate) fn device(app: &mut App, _id: DeviceId, event: &DeviceEvent) -> bool {
    let DeviceEvent::MouseMotion { delta } = event else { return false };
    if app.input.look_source != Some(LookSource::Device) {
        return false;
    }
    look(app, delta.0, delta.1)
}

/// Mouse-look from a cursor move to `(x, y)` while the cursor is confined: the move from
/// the last position turns the view; far from the centre the cursor is put back there (and
/// that move, when it comes back, turns nothing).
fn cursor_look(app: &mut App, x: f64, y: f64) {
    let Some(gfx) = &app.gfx else { return };
    let centre = (f64::from(gfx.size().0 / 2), f64::from(gfx.size().1 / 2));
    if app.input.warp_pending && (x - centre.0).abs() < 0.5 && (y - centre.1).abs() < 0.5 {
        app.input.warp_pending = false;
        app.input.cursor = Some(centre);
        return;
    }
    let (px, py) = app.input.cursor.unwrap_or(centre);
    app.input.cursor = Some((x, y));
    look(app, x - px, y - py);
    if (x - centre.0).abs() > 40.0 || (y - centre.1).abs() > 40.0 {
        recentre(app);
    }
}

/// Puts the cursor back at the window's centre.
fn recentre(app: &mut App) {
    let Some(gfx) = &app.gfx else { return };
    let centre = (gfx.size().0 / 2, gfx.size().1 / 2);
    if gfx.window.set_cursor_position(winit::dpi::PhysicalPosition::new(centre.0, centre.1)).is_ok() {
        app.input.warp_pending = true;
    }
}

/// Turns the walk view by a mouse motion of `(dx, dy)` pixels; true when it turned.
fn look(app: &mut App, dx: f64, dy: f64) -> bool {
    let input = &mut app.input;
    let state = &mut app.prepared.state;
    if !input.grabbed || state.camera != CameraKind::Walk || (dx == 0.0 && dy == 0.0) {
        return false;
    }
    let k = input.sensitivity;
    let dy = if input.invert { -dy } else { dy };
    state.walker.yaw += dx * k;
    state.walker.pitch = (state.walker.pitch - dy * k).clamp(-1.4, 1.4);
    input.look_hold = FREE_LOOK_SECONDS;
    if input.debug_look {
        eprintln!("look: yaw {:.6} pitch {:.6}", state.walker.yaw, state.walker.pitch);
    }
    true
}

/// Grabs (or frees) the mouse for mouse-look.
pub(crate) fn set_grab(app: &mut App, grab: bool) {
    let Some(gfx) = &app.gfx else { return };
    let w = &gfx.window;
    if grab {
        let source = if w.set_cursor_grab(CursorGrabMode::Locked).is_ok() {
            Some(LookSource::Device)
        } else {
            w.set_cursor_grab(CursorGrabMode::Confined).ok().map(|()| LookSource::Cursor)
        };
        app.input.grabbed = source.is_some();
        app.input.look_source = source;
        w.set_cursor_visible(!app.input.grabbed);
        if source == Some(LookSource::Cursor) {
            app.input.cursor = None;
            recentre(app);
        }
        if app.input.debug_look {
            let walker = &app.prepared.state.walker;
            eprintln!(
                "look: yaw {:.6} pitch {:.6} (grabbed: {})",
                walker.yaw, walker.pitch, app.input.grabbed
            );
        }
    } else {
        let _ = w.set_cursor_grab(CursorGrabMode::None);
        w.set_cursor_visible(true);
        app.input.grabbed = false;
        app.input.look_source = None;
    }
}

/// Moves the walker by `dt` seconds: held keys, a pending jump, or the tour.
pub(crate) fn update(app: &mut App, dt: f64) {
    let world = &app.prepared.world;
    let state = &mut app.prepared.state;
    let input = &mut app.input;
    if state.camera != CameraKind::Walk {
        input.moved = false;
        return;
    }
    let w = &mut state.walker;
    let before = (w.feet, w.vertical_speed);
    let speed = if input.held.run { w.body.run_speed } else { w.body.walk_speed };
    let mut wish = None;
    input.look_hold = (input.look_hold - dt).max(0.0);
    if let Some(tour) = &mut state.tour {
        wish = tour.wish(w.xz(), speed, 0.2);
        match wish {
            Some(v) if input.look_hold <= 0.0 => {
                let turn = (compass_angle(v) - w.yaw + PI).rem_euclid(TAU) - PI;
                w.yaw += turn * (dt * 6.0).min(1.0);
            }
            Some(_) => {}
            None => {
                state.tour = None;
                let at = app.prepared.route.as_ref().and_then(|r| r.last()).map(ToString::to_string);
                app.hud.say(format!("arrived at {}", at.unwrap_or_default()));
            }
        }
    }
    let wish = wish.unwrap_or_else(|| {
        let k = &input.held;
        let f = f64::from(u8::from(k.forward)) - f64::from(u8::from(k.back));
        let s = f64::from(u8::from(k.right)) - f64::from(u8::from(k.left));
        let (sy, cy) = w.yaw.sin_cos();
        let v = DVec2::new(sy, -cy) * f + DVec2::new(cy, sy) * s;
        if v.length_squared() > 0.0 { v.normalize() * speed } else { v }
    });
    w.step(world, wish, std::mem::take(&mut input.jump), dt);
    if w.feet.y < -2.0 * world.level_height() {
        *w = respawn(world, state.spawn, state.spawn_yaw);
    }
    input.moved = (w.feet, w.vertical_speed) != before;
    if input.debug_walk && input.moved {
        eprintln!("walk: {:.3} {:.3} {:.3}", w.feet.x, w.feet.y, w.feet.z);
    }
}

pub(super) fn respawn(world: &crate::walk::World, spawn: crate::grid::Pos, yaw: f64) -> Walker {
    let mut w = Walker::spawn(world, spawn);
    w.yaw = yaw;
    w
}
