//! The viewer window under a display (Xvfb in CI), driven from outside with `xdotool`: it
//! idles without using the CPU, mouse-look turns by the pixels moved times the
//! sensitivity, a click in the orbit view focuses the cell under it, in walk mode F
//! opens the door faced (the picture changes, the walker passes), and U puts the texture
//! set on and off (the picture changes, the HUD says so). Without a display,
//! an adapter or xdotool the tests print `SKIPPED` and pass unless
//! `VIEWER_REQUIRE_ADAPTER=1` / `VIEWER_REQUIRE_XDOTOOL=1`.
#![cfg(all(feature = "viewer", feature = "cli"))]
// Times the process it tests (a deadline, not an output); clippy.toml keeps `Instant` out of
// the library.
#![allow(clippy::disallowed_types)]

mod support;

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use support::xdotool;

/// One viewer window at a time: the pointer and the screen are shared, so a window of one
/// test would take the other's clicks and cursor moves.
static ONE_WINDOW: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A running viewer and its window id; `None` (after printing why) where the test cannot run.
struct Viewer {
    child: Child,
    window: String,
    _alone: std::sync::MutexGuard<'static, ()>,
}

impl Viewer {
    fn start(test: &str, args: &[&str], env: &[(&str, &str)]) -> Option<Viewer> {
        if std::env::var_os("DISPLAY").is_none() {
            support::skip(test, "no DISPLAY (run under xvfb-run)", "VIEWER_REQUIRE_ADAPTER");
            return None;
        }
        if xdotool(&["version"]).is_none() {
            support::skip(test, "xdotool is not installed", "VIEWER_REQUIRE_XDOTOOL");
            return None;
        }
        let alone = ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (child, window) = support::open_viewer_window(test, args, env)?;
        // Let the first frames (pipeline compilation) pass.
        std::thread::sleep(Duration::from_millis(2500));
        Some(Viewer { child, window, _alone: alone })
    }

    /// utime + stime of the viewer, in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }

    /// Closes the window and returns the viewer's stderr.
    fn close(mut self) -> String {
        xdotool(&["windowclose", &self.window]);
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().ok();
        let out = self.child.wait_with_output().unwrap();
        let err = support::stderr(&out);
        assert!(!err.contains("panicked"), "{err}");
        err
    }
}

#[test]
fn an_idle_window_uses_under_five_percent_of_a_core() {
    let Some(viewer) =
        Viewer::start("an_idle_window_uses_under_five_percent_of_a_core", &["assets/two_levels.json"], &[])
    else {
        return;
    };
    let ticks_per_second = 100.0; // USER_HZ on Linux
    // On a loaded machine the start-up (pipeline compilation, first frames) can run past
    // the pause in `start`: wait, at most 10 s, for a half second without a clock tick.
    for _ in 0..20 {
        let start = viewer.cpu_ticks();
        std::thread::sleep(Duration::from_millis(500));
        if viewer.cpu_ticks() == start {
            break;
        }
    }
    let before = viewer.cpu_ticks();
    std::thread::sleep(Duration::from_secs(2));
    let used = (viewer.cpu_ticks() - before) as f64 / ticks_per_second / 2.0;
    viewer.close();
    assert!(used < 0.05, "idle for 2 s the viewer used {:.1}% of a core", used * 100.0);
}

#[test]
fn mouse_look_turns_by_pixels_times_sensitivity() {
    let Some(viewer) = Viewer::start(
        "mouse_look_turns_by_pixels_times_sensitivity",
        &["assets/two_levels.json", "--camera", "walk", "--size", "400x300", "--look-speed", "0.002"],
        &[("OCTILE_VIEW_DEBUG", "look")],
    ) else {
        return;
    };
    // Real (XTest) events, not ones sent to the window: winit reads input through XInput2.
    xdotool(&["mousemove", "--window", &viewer.window, "200", "150"]);
    xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(500));
    // Small steps: X's pointer acceleration leaves moves of a few pixels alone.
    let (steps, step) = (40, 4);
    for _ in 0..steps {
        xdotool(&["mousemove_relative", "--", &step.to_string(), "0"]);
        std::thread::sleep(Duration::from_millis(15));
    }
    std::thread::sleep(Duration::from_millis(500));
    let err = viewer.close();
    let yaws: Vec<f64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("look: yaw "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(yaws.len() >= 2, "no mouse-look lines: {err}");
    let turned = yaws[yaws.len() - 1] - yaws[0];
    let expected = f64::from(steps * step) * 0.002;
    assert!(
        (turned - expected).abs() < 0.15 * expected,
        "moved {} px at 0.002 rad/px: turned {turned:.4} rad, expected {expected:.4}",
        steps * step
    );
}

#[test]
fn a_click_in_the_orbit_view_focuses_the_cell_under_it() {
    use octile::viewer::{ViewOptions, prepare};
    let options = ViewOptions { size: (400, 300), ..ViewOptions::default() };
    let dungeon = octile::format::from_json(include_str!("../assets/two_levels.json")).unwrap();
    let prepared = prepare(&dungeon, &options).unwrap();
    let frame = prepared.state.frame(&prepared.scene, &prepared.world, 400.0 / 300.0);
    // A carved cell of the top level, as the window first shows it.
    let top = dungeon.levels() - 1;
    let (cell, at): (glam::Vec3, (f32, f32)) = dungeon
        .cells()
        .filter(|p| p.level == top && dungeon.tile_def(*p).is_ok_and(|t| t.carved))
        .find_map(|p| {
            let c = dungeon.layout().center(p.slot);
            let at = glam::Vec3::new(c.x as f32, dungeon.proportions().floor_y(top) as f32, c.y as f32);
            frame.view.project(at, 400, 300).map(|px| (at, px))
        })
        .expect("a carved cell in view");
    let Some(viewer) = Viewer::start(
        "a_click_in_the_orbit_view_focuses_the_cell_under_it",
        &["assets/two_levels.json", "--size", "400x300"],
        &[("OCTILE_VIEW_DEBUG", "focus")],
    ) else {
        return;
    };
    let (x, y) = (at.0.round().to_string(), at.1.round().to_string());
    xdotool(&["mousemove", "--window", &viewer.window, &x, &y]);
    xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(800));
    let err = viewer.close();
    let focus: Vec<f32> = err
        .lines()
        .find_map(|l| l.strip_prefix("focus: "))
        .unwrap_or_else(|| panic!("no focus line: {err}"))
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    let focus = glam::Vec3::new(focus[0], focus[1], focus[2]);
    assert!(focus.distance(cell) < 0.6, "clicked {cell} at pixel {at:?}, focused {focus}");
}

/// Fraction of pixels of the middle third of two same-sized PNGs that differ.
fn middle_differs(a: &std::path::Path, b: &std::path::Path) -> f64 {
    let (a, b) = (image::open(a).unwrap().to_rgb8(), image::open(b).unwrap().to_rgb8());
    let (w, h) = a.dimensions();
    let (mut differ, mut all) = (0u32, 0u32);
    for y in h / 3..2 * h / 3 {
        for x in w / 3..2 * w / 3 {
            let d: u32 = (0..3).map(|i| u32::from(a.get_pixel(x, y)[i].abs_diff(b.get_pixel(x, y)[i]))).sum();
            differ += u32::from(d > 30);
            all += 1;
        }
    }
    f64::from(differ) / f64::from(all)
}

#[test]
fn in_a_window_f_opens_the_faced_door_and_the_walker_passes() {
    const TEST: &str = "in_a_window_f_opens_the_faced_door_and_the_walker_passes";
    use glam::DVec2;
    use octile::viewer::{ViewOptions, prepare};
    let generated = octile::generate::GenerateOptions {
        seed: 7,
        levels: 1,
        cols: 6,
        rows: 6,
        doors: 1.0,
        ..octile::generate::GenerateOptions::default()
    };
    let mut d = octile::generate::generate(&generated, &mut |_| {}).unwrap();
    let options =
        ViewOptions { camera: octile::viewer::CameraKind::Walk, size: (400, 300), ..ViewOptions::default() };
    // A closed door within reach of its hinge cell's spawn point: the walker starts there.
    let (walker, middle) = octile::mesh::door_leaves(&d)
        .into_iter()
        .filter(|l| !l.open)
        .find_map(|leaf| {
            d.set_entrance(Some(leaf.cell)).unwrap();
            let walker = prepare(&d, &options).unwrap().state.walker;
            let middle = DVec2::new(leaf.hinge.x, leaf.hinge.z) + leaf.along * (leaf.width * 0.5);
            (middle.distance(walker.xz()) < 2.8).then_some((walker, middle))
        })
        .expect("a closed door near its cell's centre");
    let scratch = support::Scratch::new(TEST);
    let file = scratch.join("doors.json");
    octile::format::save(&d, &file).unwrap();
    let file = file.to_str().unwrap().to_owned();
    let Some(viewer) = Viewer::start(
        TEST,
        &[&file, "--camera", "walk", "--size", "400x300", "--look-speed", "0.002"],
        &[("OCTILE_VIEW_DEBUG", "look,walk")],
    ) else {
        return;
    };
    // Keyboard focus (no window manager gives it), grab the mouse, then turn to face the
    // door (mouse-look: +x turns by px x 0.002).
    xdotool(&["windowfocus", "--sync", &viewer.window]);
    xdotool(&["mousemove", "--window", &viewer.window, "200", "150"]);
    xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(500));
    let to_door = middle - walker.xz();
    let turn = (octile::walk::compass_angle(to_door) - walker.yaw + std::f64::consts::PI)
        .rem_euclid(std::f64::consts::TAU)
        - std::f64::consts::PI;
    let steps = (turn / 0.002 / 4.0).round() as i32;
    for _ in 0..steps.abs() {
        xdotool(&["mousemove_relative", "--", &(4 * steps.signum()).to_string(), "0"]);
        std::thread::sleep(Duration::from_millis(15));
    }
    std::thread::sleep(Duration::from_millis(800));
    let shot = |name: &str| {
        let path = scratch.join(name);
        xdotool(&["mousemove", "--window", &viewer.window, "200", "150"]);
        let ok = Command::new("import").args(["-window", &viewer.window, path.to_str().unwrap()]).status();
        ok.is_ok_and(|s| s.success()).then_some(path)
    };
    let before = shot("before.png");
    xdotool(&["key", "--window", &viewer.window, "f"]);
    std::thread::sleep(Duration::from_millis(800));
    let after = shot("after.png");
    xdotool(&["keydown", "--window", &viewer.window, "w"]);
    std::thread::sleep(Duration::from_millis(3000));
    xdotool(&["keyup", "--window", &viewer.window, "w"]);
    std::thread::sleep(Duration::from_millis(300));
    let err = viewer.close();
    assert!(err.contains("opened"), "F opened no door: {err}");
    let last = err
        .lines()
        .filter_map(|l| l.strip_prefix("walk: "))
        .next_back()
        .unwrap_or_else(|| panic!("no walk: {err}"));
    let p: Vec<f64> = last.split_whitespace().map(|v| v.parse().unwrap()).collect();
    let through = to_door.normalize();
    let past = (DVec2::new(p[0], p[2]) - middle).dot(through);
    assert!(past > 0.5, "the walker stopped {past:.2} m past the door line");
    match (before, after) {
        (Some(before), Some(after)) => {
            let changed = middle_differs(&before, &after);
            assert!(changed > 0.02, "opening the door changed {:.1}% of the middle", changed * 100.0);
        }
        _ => eprintln!("{TEST}: no `import` (ImageMagick): the before/after pictures were not compared"),
    }
}

/// Presses `key` twice in `viewer`'s window: the window before the first press and `settle`
/// after it (an ImageMagick `import` each into `scratch`, `None` without one), and what the
/// viewer printed once closed after the second.
fn press_twice(
    scratch: &support::Scratch,
    viewer: Viewer,
    key: &str,
    settle: Duration,
) -> (Option<std::path::PathBuf>, Option<std::path::PathBuf>, String) {
    xdotool(&["windowfocus", "--sync", &viewer.window]);
    let shot = |name: &str| {
        let path = scratch.join(name);
        let ok = Command::new("import").args(["-window", &viewer.window, path.to_str().unwrap()]).status();
        ok.is_ok_and(|s| s.success()).then_some(path)
    };
    let before = shot("before.png");
    xdotool(&["key", "--window", &viewer.window, key]);
    std::thread::sleep(settle);
    let after = shot("after.png");
    xdotool(&["key", "--window", &viewer.window, key]);
    std::thread::sleep(Duration::from_millis(800));
    (before, after, viewer.close())
}

#[test]
fn in_a_window_u_switches_the_textures() {
    const TEST: &str = "in_a_window_u_switches_the_textures";
    let Some(viewer) =
        Viewer::start(TEST, &["assets/plus_arena.json", "--camera", "walk", "--size", "400x300"], &[])
    else {
        return;
    };
    // The first textured frame generates and uploads the set and compiles its pipeline.
    let scratch = support::Scratch::new(TEST);
    let (plain, textured, err) = press_twice(&scratch, viewer, "u", Duration::from_millis(1500));
    let on = err.find("textures on").unwrap_or_else(|| panic!("U did not switch the textures on: {err}"));
    assert!(err[on..].contains("textures off"), "U again did not switch them off: {err}");
    match (plain, textured) {
        (Some(plain), Some(textured)) => {
            let changed = middle_differs(&plain, &textured);
            assert!(changed > 0.05, "textures changed {:.1}% of the middle", changed * 100.0);
        }
        _ => eprintln!("{TEST}: no `import` (ImageMagick): the pictures were not compared"),
    }
}

#[test]
fn in_a_window_j_switches_the_rooms_by_role() {
    const TEST: &str = "in_a_window_j_switches_the_rooms_by_role";
    let args = ["--generate", "--seed", "5", "--octagons", "24x24", "--levels", "1", "--camera", "top"];
    let Some(viewer) = Viewer::start(TEST, &[&args[..], &["--size", "400x300"]].concat(), &[]) else {
        return;
    };
    let scratch = support::Scratch::new(TEST);
    let (tinted, plain, err) = press_twice(&scratch, viewer, "j", Duration::from_millis(800));
    let off =
        err.find("rooms by role off").unwrap_or_else(|| panic!("J did not switch the rooms off: {err}"));
    assert!(err[off..].contains("rooms by role on"), "J again did not switch them on: {err}");
    match (tinted, plain) {
        (Some(tinted), Some(plain)) => {
            let changed = middle_differs(&tinted, &plain);
            assert!(changed > 0.02, "the rooms changed {:.1}% of the middle", changed * 100.0);
        }
        _ => eprintln!("{TEST}: no `import` (ImageMagick): the pictures were not compared"),
    }
}

/// The last whole `walk: X Y Z` line of the viewer's debug output (`OCTILE_VIEW_DEBUG=walk`)
/// and its feet position; a line cut off at the close is passed over.
fn last_feet(err: &str) -> (String, [f64; 3]) {
    err.lines()
        .filter_map(|l| l.strip_prefix("walk: "))
        .filter_map(|l| {
            let p: Vec<f64> = l.split_whitespace().filter_map(|v| v.parse().ok()).collect();
            Some((l.to_owned(), <[f64; 3]>::try_from(p).ok()?))
        })
        .next_back()
        .unwrap_or_else(|| panic!("no walk: {err}"))
}

/// In a real window, a walker started on a balcony at a drop point and held walking (W)
/// into the atrium falls to the floor below; on the level above, the railings stop it
/// (docs/design.md, "Columns across storeys").
#[test]
fn in_a_window_the_walker_drops_into_an_atrium() {
    const TEST: &str = "in_a_window_the_walker_drops_into_an_atrium";
    let generated = octile::generate::GenerateOptions {
        seed: 2,
        levels: 2,
        cols: 16,
        rows: 16,
        ..octile::generate::GenerateOptions::default()
    };
    let mut d = octile::generate::generate(&generated, &mut |_| {}).unwrap();
    octile::generate::open_atria(&mut d).unwrap();
    let drop = *d.drops(1).first().expect("seed 2's atrium has a drop point");
    let scratch = support::Scratch::new(TEST);
    let file = scratch.join("atrium.json");
    octile::format::save(&d, &file).unwrap();
    let file = file.to_str().unwrap().to_owned();
    // The route from the balcony cell to the landing starts the walk there, facing the void.
    let cell = |p: octile::grid::Pos| format!("{},{},{}", p.level, p.slot.row, p.slot.col);
    let route = format!("{}:{}", cell(drop.from.0), cell(drop.landing));
    let Some(viewer) = Viewer::start(
        TEST,
        &[&file, "--camera", "walk", "--size", "400x300", "--path", &route],
        &[("OCTILE_VIEW_DEBUG", "walk")],
    ) else {
        return;
    };
    xdotool(&["windowfocus", "--sync", &viewer.window]);
    std::thread::sleep(Duration::from_millis(300));
    xdotool(&["keydown", "--window", &viewer.window, "w"]);
    std::thread::sleep(Duration::from_millis(5000));
    xdotool(&["keyup", "--window", &viewer.window, "w"]);
    std::thread::sleep(Duration::from_millis(1500));
    let (last, p) = last_feet(&viewer.close());
    assert!(p[1].abs() < 1e-3, "the walker should have landed on level 0's floor, feet at {last}");
    let landing = d.layout().center(drop.landing.slot);
    assert!(
        glam::DVec2::new(p[0], p[2]).distance(landing) < 2.0 * d.proportions().cell_spacing(),
        "it fell into the atrium, not somewhere else: {last}"
    );
}

/// In a real window, a walker started at a ramp's foot and held walking (W) up it climbs
/// onto the level above ([`support::ramp_hall`]: the ramp is the only way up).
#[test]
fn in_a_window_the_walker_climbs_a_ramp() {
    const TEST: &str = "in_a_window_the_walker_climbs_a_ramp";
    let (d, ramp) = support::ramp_hall();
    let scratch = support::Scratch::new(TEST);
    let file = scratch.join("ramp.json");
    octile::format::save(&d, &file).unwrap();
    let file = file.to_str().unwrap().to_owned();
    // The route from the foot to the floor beyond the top starts the walk facing up the ramp.
    let route = "0,0,0:1,0,8";
    let Some(viewer) = Viewer::start(
        TEST,
        &[&file, "--camera", "walk", "--size", "400x300", "--path", route],
        &[("OCTILE_VIEW_DEBUG", "walk")],
    ) else {
        return;
    };
    xdotool(&["windowfocus", "--sync", &viewer.window]);
    std::thread::sleep(Duration::from_millis(300));
    // Running (Shift): the top is 39 m on.
    xdotool(&["keydown", "--window", &viewer.window, "shift+w"]);
    std::thread::sleep(Duration::from_millis(10000));
    xdotool(&["keyup", "--window", &viewer.window, "shift+w"]);
    std::thread::sleep(Duration::from_millis(1000));
    let (last, p) = last_feet(&viewer.close());
    assert!((p[1] - 12.0).abs() < 1e-3, "the walker should stand on level 1's floor, feet at {last}");
    let top = d.ramp_plan(&ramp).unwrap().top[0];
    assert!(p[0] > top.x, "past the ramp's top: {last}");
}
