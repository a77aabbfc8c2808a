//! What each key's [`Command`] does: camera and level modes, toggles, the door in front
//! of the walker, the guided tour, and exporting what the window shows.

use winit::event_loop::ActiveEventLoop;

use super::{respawn, set_grab};
use crate::viewer::camera::CameraKind;
use crate::viewer::keys::Command;
use crate::viewer::options::export_view;
use crate::viewer::window::App;
use crate::walk::{Tour, Walker, waypoints};

/// Runs a key's command; true to quit.
pub(super) fn run_command(app: &mut App, event_loop: &ActiveEventLoop, c: Command) -> bool {
    let levels = app.prepared.scene.levels();
    let state = &mut app.prepared.state;
    match c {
        Command::Camera => switch_camera(app),
        Command::LevelMode => {
            state.mode = state.mode.next();
            let name = state.mode.name();
            app.hud.say(format!("levels: {name}"));
        }
        Command::LevelUp => state.level = (state.level + 1).min(levels.saturating_sub(1)),
        Command::LevelDown => state.level = state.level.saturating_sub(1),
        Command::Outlines => state.outlines = !state.outlines,
        Command::Respawn => {
            state.walker = respawn(&app.prepared.world, state.spawn, state.spawn_yaw);
            state.tour = None;
        }
        Command::Tour => tour(app),
        Command::Export => export(app),
        Command::Help => app.hud.toggle_help(),
        Command::Hud => {
            let shown = app.hud.shown();
            app.hud.set_shown(!shown);
        }
        Command::Home => {
            let aspect =
                app.gfx.as_ref().map_or(16.0 / 9.0, |g| g.size().0 as f32 / g.size().1.max(1) as f32);
            state.orbit = crate::viewer::camera::Orbit::framing_for(&app.prepared.scene.bounds, aspect);
            state.top = crate::viewer::camera::TopCamera::default();
        }
        Command::LookFaster | Command::LookSlower => {
            let f = if c == Command::LookFaster { 1.25 } else { 0.8 };
            app.input.sensitivity = (app.input.sensitivity * f).clamp(0.0002, 0.05);
            let s = app.input.sensitivity;
            app.hud.say(format!("mouse-look {s:.4} rad per pixel"));
        }
        Command::InvertLook => {
            app.input.invert = !app.input.invert;
            let inverted = if app.input.invert { "inverted" } else { "normal" };
            app.hud.say(format!("mouse-look up/down {inverted}"));
        }
        Command::Door => door(app),
        Command::Map => {
            state.map = state.map.next();
            let name = match state.map {
                crate::viewer::state::MapMode::Off => "map off",
                crate::viewer::state::MapMode::Mini => "minimap",
                crate::viewer::state::MapMode::Full => "full map (M again: off)",
            };
            app.hud.say(name);
        }
        Command::Markers => toggle(&mut state.markers, "markers", &mut app.hud),
        Command::Rooms => toggle(&mut state.rooms, "rooms by role", &mut app.hud),
        Command::Torches => toggle(&mut state.torches, "torch light", &mut app.hud),
        Command::Textures => toggle(&mut state.textures, "textures", &mut app.hud),
        Command::Escape if app.input.grabbed => set_grab(app, false),
        Command::Escape if app.hud.help_shown() => app.hud.toggle_help(),
        Command::Escape | Command::Quit => return app.confirm_quit("Q or Esc"),
    }
    let _ = event_loop;
    false
}

/// Switches `flag` and says "`name` on" or "off" in the HUD.
fn toggle(flag: &mut bool, name: &str, hud: &mut crate::viewer::hud::Hud) {
    *flag = !*flag;
    hud.say(format!("{name} {}", if *flag { "on" } else { "off" }));
}

fn switch_camera(app: &mut App) {
    let refused = app.prepared.walk_refused.clone();
    let state = &mut app.prepared.state;
    state.camera = match state.camera {
        CameraKind::Orbit if refused.is_none() => CameraKind::Walk,
        CameraKind::Orbit | CameraKind::Walk => CameraKind::Top,
        CameraKind::Top => CameraKind::Orbit,
    };
    if let Some(e) = refused.filter(|_| state.camera == CameraKind::Top) {
        app.hud.warn(format!("walk camera skipped: {e}"));
    }
    if app.prepared.state.camera != CameraKind::Walk {
        set_grab(app, false);
    }
}

/// F: opens or closes the door the walker faces; the walk world, the leaves and the route
/// follow.
fn door(app: &mut App) {
    let state = &app.prepared.state;
    if state.camera != CameraKind::Walk {
        app.hud.warn("doors open in walk mode: Tab to walk, face a door, F");
        return;
    }
    let level = state.current_level(&app.prepared.world);
    let Some(leaf) = crate::viewer::doors::faced_door(&app.dungeon, &state.walker, level) else {
        app.hud.say("no door in reach: face one within 3 m");
        return;
    };
    let open = match crate::viewer::doors::toggle(&mut app.dungeon, &leaf) {
        Ok(open) => open,
        Err(e) => {
            app.hud.warn(format!("door: {e}"));
            return;
        }
    };
    app.prepared.world = crate::walk::World::with_rules(&app.dungeon, &crate::viewer::options::VIEW_RULES);
    let c = leaf.cell;
    app.hud.say(format!(
        "door at {},{},{} {}",
        c.level,
        c.slot.row,
        c.slot.col,
        if open { "opened" } else { "closed" }
    ));
    if let Some((from, to)) = app.options.path {
        match crate::viewer::options::route(&app.dungeon, from, to) {
            Ok(steps) => app.prepared.route = Some(steps),
            Err(e) => {
                app.prepared.route = None;
                app.hud.warn(e.to_string());
            }
        }
        app.ribbon = crate::viewer::options::path_ribbon(&app.dungeon, &app.prepared);
    }
    if let Some(gfx) = &mut app.gfx {
        gfx.renderer.set_doors(&gfx.gpu.device, &crate::viewer::doors::leaf_triangles(&app.dungeon));
        gfx.renderer.set_path(&gfx.gpu.device, &app.ribbon);
    }
}

/// P: start the guided tour of the route (or stop it), or say why there is none.
fn tour(app: &mut App) {
    if let Some(e) = &app.prepared.walk_refused {
        app.hud.warn(format!("no tour: {e}"));
        return;
    }
    let world = &app.prepared.world;
    let state = &mut app.prepared.state;
    if state.tour.take().is_some() {
        app.hud.say("tour stopped");
        return;
    }
    let Some(steps) = &app.prepared.route else {
        app.hud.warn("no route: pass --path L,R,C:L,R,C");
        return;
    };
    state.walker = Walker::spawn(world, steps[0]);
    state.tour = Some(Tour::new(waypoints(world, steps)));
    state.camera = CameraKind::Walk;
    app.hud.say(format!("touring to {} (P stops)", steps[steps.len() - 1]));
}

/// Writes what the window shows (the scene's mesh, not built again, and the route).
fn export(app: &mut App) {
    let to = &app.options.export_to;
    match export_view(&app.dungeon, &app.prepared, to) {
        Ok(s) => {
            app.hud.say(format!("exported {} ({} triangles, {} bytes)", to.display(), s.triangles, s.bytes))
        }
        Err(e) => app.hud.warn(format!("export failed: {e}")),
    }
}
