//! Edit mode in the real window (issue 11), driven by `xdotool` under a virtual display: a
//! click on the pixel where a known wall projects cycles that wall, Ctrl+S saves the file
//! with the new state, a screenshot of the window differs at that place, and E exports the
//! edited dungeon (not the one the window opened with) beside the file.
//!
//! Skips with a `SKIPPED` line without a display or an adapter (as tests/window.rs;
//! `VIEWER_REQUIRE_ADAPTER=1` makes that a failure) and without `xdotool` or ImageMagick's
//! `import` for the window screenshots (`VIEWER_REQUIRE_XDOTOOL=1` makes that a failure).
#![cfg(all(feature = "cli", feature = "viewer"))]
// Times the process it tests (a deadline, not an output); clippy.toml keeps `Instant` out of
// the library.
#![allow(clippy::disallowed_types)]

mod support;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use octile::dungeon::Dungeon;
use octile::grid::{Direction, Pos};
use octile::viewer::CameraKind;
use octile::viewer::{ViewOptions, prepare};

const SIZE: (u32, u32) = (800, 600);

/// One window at a time: xdotool types into whichever window has the focus.
static ONE_WINDOW: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds [`ONE_WINDOW`] for the rest of a test (a failed test does not block the next).
fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn tool(name: &str, args: &[&str]) -> Option<Output> {
    Command::new(name).args(args).stderr(Stdio::null()).output().ok()
}

use support::xdotool;

fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// An open edge between two floor octagons of level 0, near the middle of the plan.
fn known_wall(d: &Dungeon) -> (Pos, Direction) {
    let dims = d.dims();
    let middle = (dims.rows() / 2, dims.cols() / 2);
    let floor = |p: Pos| d.tile_def(p).is_ok_and(|t| t.carved && !t.stair);
    d.cells()
        .filter(|p| p.level == 0 && p.slot.kind() == octile::grid::SlotKind::Octagon && floor(*p))
        .flat_map(|p| [Direction::E, Direction::S].map(|dir| (p, dir)))
        .filter(|&(p, dir)| {
            let open = d.registry().edge("open");
            let next = dims.neighbor(p.slot, dir).ok().flatten();
            next.is_some_and(|s| floor(Pos { slot: s, ..p })) && d.edge_state(p, dir).ok().flatten() == open
        })
        .min_by_key(|(p, _)| p.slot.row.abs_diff(middle.0) + p.slot.col.abs_diff(middle.1))
        .expect("plus_arena has an open edge between two floor octagons")
}

/// The window's pixel where the level-0 floor point `p` (plan metres) projects, in the top
/// camera.
fn top_pixel(d: &Dungeon, p: glam::DVec2) -> (u32, u32) {
    let options = ViewOptions { camera: CameraKind::Top, size: SIZE, ..ViewOptions::default() };
    let prepared = prepare(d, &options).unwrap();
    let view = prepared.state.view(&prepared.scene, SIZE.0 as f32 / SIZE.1 as f32);
    let (x, y) = view.project(glam::Vec3::new(p.x as f32, 0.0, p.y as f32), SIZE.0, SIZE.1).unwrap();
    (x.round() as u32, y.round() as u32)
}

/// The window's pixel where the seam of wall `dir` of `pos` projects, in the top camera.
fn seam_pixel(d: &Dungeon, pos: Pos, dir: Direction) -> (u32, u32) {
    let layout = d.layout();
    let [a, b] = layout.wall(pos.slot, dir).unwrap();
    let next = d.dims().neighbor(pos.slot, dir).unwrap().unwrap();
    let [c, e] = layout.wall(next, dir.opposite()).unwrap();
    top_pixel(d, (a + b + c + e) / 4.0)
}

/// A screenshot of window `window` (ImageMagick's `import`), as RGB rows.
fn grab(window: &str, to: &Path) -> image::RgbImage {
    let out = tool("import", &["-window", window, to.to_str().unwrap()]).expect("import runs");
    assert!(out.status.success(), "import failed");
    image::open(to).unwrap().to_rgb8()
}

/// Pixels within `r` of `(x, y)` that differ between `a` and `b` by more than a little.
fn differing_near(a: &image::RgbImage, b: &image::RgbImage, (x, y): (u32, u32), r: u32) -> usize {
    let mut n = 0;
    for py in y.saturating_sub(r)..(y + r).min(a.height()) {
        for px in x.saturating_sub(r)..(x + r).min(a.width()) {
            let (p, q) = (a.get_pixel(px, py).0, b.get_pixel(px, py).0);
            n += usize::from(p.iter().zip(q).any(|(u, v)| u.abs_diff(v) > 24));
        }
    }
    n
}

/// Triangles of every primitive of the `.glb` at `path`.
fn glb_triangles(path: &Path) -> usize {
    let doc = gltf::Gltf::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let prims = doc.meshes().flat_map(|m| m.primitives().collect::<Vec<_>>());
    prims.map(|p| p.indices().map_or(0, |a| a.count() / 3)).sum()
}

/// A scratch folder for `test` holding a copy of `assets/plus_arena.json`, the copy's path
/// and the dungeon it holds.
fn arena_copy(test: &str) -> (support::Scratch, std::path::PathBuf, Dungeon) {
    let dir = support::Scratch::new(test);
    let file = dir.join("arena.json");
    std::fs::copy("assets/plus_arena.json", &file).unwrap();
    let dungeon = octile::format::load(&file).unwrap();
    (dir, file, dungeon)
}

/// Starts `octile view FILE --camera top` and finds its window; `None` (after a `SKIPPED`
/// line) where the machine has no adapter.
fn open_top_view(test: &str, file: &Path) -> Option<(Child, String)> {
    let size = format!("{}x{}", SIZE.0, SIZE.1);
    support::open_viewer_window(test, &[file.to_str().unwrap(), "--camera", "top", "--size", &size], &[])
}

/// False (after a `SKIPPED` line) without a display, `xdotool` or ImageMagick's `import`.
fn window_tools(test: &str) -> bool {
    if std::env::var_os("DISPLAY").is_none() {
        support::skip(test, "no DISPLAY (run under xvfb-run)", "VIEWER_REQUIRE_ADAPTER");
        return false;
    }
    if xdotool(&["version"]).is_none() || tool("import", &["-version"]).is_none() {
        support::skip(test, "xdotool or ImageMagick's import is not installed", "VIEWER_REQUIRE_XDOTOOL");
        return false;
    }
    true
}

/// In the window `window` (just opened, edit mode off): F3, then a click on `pixel` with
/// the cursor moved off the plan before and after (so nothing is hovered in the pictures).
/// Screenshots of the window before and after the click (kept in `dir`).
fn click_in_edit_mode(window: &str, pixel: (u32, u32), dir: &Path) -> (image::RgbImage, image::RgbImage) {
    pause(2500);
    xdotool(&["windowfocus", "--sync", window]);
    xdotool(&["key", "F3"]);
    xdotool(&["mousemove", "--window", window, "2", "2"]);
    pause(1200);
    let before = grab(window, &dir.join("before.png"));
    xdotool(&["mousemove", "--window", window, &pixel.0.to_string(), &pixel.1.to_string()]);
    pause(600);
    xdotool(&["click", "1"]);
    pause(600);
    xdotool(&["mousemove", "--window", window, "2", "2"]);
    pause(1500);
    (before, grab(window, &dir.join("after.png")))
}

/// A left drag in `window` from pixel `from` to pixel `to`, the cursor jumping there in
/// one motion event.
fn drag(window: &str, from: (u32, u32), to: (u32, u32)) {
    xdotool(&["mousemove", "--window", window, &from.0.to_string(), &from.1.to_string()]);
    pause(1200);
    xdotool(&["mousedown", "1"]);
    pause(600);
    xdotool(&["mousemove", "--window", window, &to.0.to_string(), &to.1.to_string()]);
    pause(600);
    xdotool(&["mouseup", "1"]);
    pause(600);
}

/// The start of a window test: the window lock held, and [`arena_copy`]; `None` (after a
/// `SKIPPED` line) without the window tools ([`window_tools`]).
fn window_test(
    test: &str,
) -> Option<(std::sync::MutexGuard<'static, ()>, support::Scratch, std::path::PathBuf, Dungeon)> {
    let alone = alone();
    if !window_tools(test) {
        return None;
    }
    let (dir, file, dungeon) = arena_copy(test);
    Some((alone, dir, file, dungeon))
}

/// Q (quit), then the viewer's stderr and the dungeon it saved to `file`.
fn quit_and_load(child: Child, file: &Path) -> (Dungeon, String) {
    xdotool(&["key", "q"]);
    let err = finish(child);
    assert!(!err.contains("panicked"), "{err}");
    let after = octile::format::load(file).unwrap_or_else(|e| panic!("{e}: {err}"));
    (after, err)
}

fn finish(mut child: Child) -> String {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(10) {
        pause(100);
    }
    if child.try_wait().unwrap().is_none() {
        child.kill().ok();
    }
    support::stderr(&child.wait_with_output().unwrap())
}

#[test]
fn a_click_on_a_wall_in_edit_mode_cycles_it_and_ctrl_s_saves_it() {
    const TEST: &str = "a_click_on_a_wall_in_edit_mode_cycles_it_and_ctrl_s_saves_it";
    let Some((_alone, dir, file, before)) = window_test(TEST) else { return };
    let (pos, wall) = known_wall(&before);
    let pixel = seam_pixel(&before, pos, wall);
    let Some((child, window)) = open_top_view(TEST, &file) else { return };
    let (shot_before, shot_after) = click_in_edit_mode(&window, pixel, dir.path());
    xdotool(&["key", "ctrl+s"]);
    pause(1500);
    // E, the viewer's export key, writes the edited dungeon beside the file in edit mode.
    xdotool(&["key", "e"]);
    pause(2500);
    let (after, err) = quit_and_load(child, &file);
    let door = after.registry().edge("door");
    assert_eq!(after.edge_state(pos, wall).unwrap(), door, "open -> door after one click: {err}");
    assert!(err.contains(&format!("saved {}", file.display())), "{err}");
    let glb = file.with_extension("glb");
    assert!(err.contains(&format!("exported {}", glb.display())), "{err}");
    let reference = |d: &Dungeon, name: &str| {
        let to = dir.join(name);
        octile::export::Export::new(d, &octile::export::ExportOptions::default()).to_file(&to).unwrap();
        glb_triangles(&to)
    };
    let exported = glb_triangles(&glb);
    assert_eq!(exported, reference(&after, "edited.glb"), "the export holds the edited dungeon");
    assert_ne!(exported, reference(&before, "original.glb"), "not the dungeon it opened with");
    let changed = differing_near(&shot_before, &shot_after, pixel, 12);
    assert!(changed > 10, "the seam at {pixel:?} looks the same after the click ({changed} pixels): {err}");
    // The bottom-left corner: background, away from the HUD (top left, bottom centre).
    let far = differing_near(&shot_before, &shot_after, (4, SIZE.1 - 4), 3);
    assert_eq!(far, 0, "nothing changed far from the click");
}

#[test]
fn a_fast_drag_paints_every_cell_it_crosses() {
    const TEST: &str = "a_fast_drag_paints_every_cell_it_crosses";
    let Some((_alone, _dir, file, before)) = window_test(TEST) else { return };
    // Row 2 of plus_arena: floor octagons at columns 2, 4 and 6, away from the entrance.
    let cell_at = |row: u32, col: u32| Pos { level: 0, slot: octile::grid::Slot { row, col } };
    let cell = |col: u32| cell_at(2, col);
    let floor_at = |d: &Dungeon, p: Pos| d.tile_def(p).is_ok_and(|t| t.carved);
    let is_floor = |d: &Dungeon, col: u32| floor_at(d, cell(col));
    assert!([2, 4, 6].iter().all(|&c| is_floor(&before, c)), "plus_arena's row 2 is floor at 2, 4, 6");
    let pixel = |col: u32| top_pixel(&before, before.layout().center(cell(col).slot));
    let (start, end) = (pixel(2), pixel(6));
    let Some((child, window)) = open_top_view(TEST, &file) else { return };
    pause(2500);
    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["key", "F3"]);
    // Press on column 2 (it becomes rock), jump straight to column 6 in one motion event,
    // release: the stroke paints column 4, which the cursor crossed, too.
    drag(&window, start, end);
    xdotool(&["key", "ctrl+s"]);
    pause(1500);
    let (after, err) = quit_and_load(child, &file);
    for col in [2, 4, 6] {
        assert!(
            !is_floor(&after, col),
            "0,2,{col} is still floor after the drag from {start:?} to {end:?}: {err}"
        );
    }
    let beside = cell_at(4, 4);
    assert!(
        floor_at(&before, beside) && floor_at(&after, beside),
        "a cell off the cursor's path stays floor"
    );
}

#[test]
fn a_room_made_in_edit_mode_gets_its_torch() {
    const TEST: &str = "a_room_made_in_edit_mode_gets_its_torch";
    let Some((_alone, dir, file, before)) = window_test(TEST) else { return };
    // A rock octagon in a corner with no floor beside it (bottom right, clear of the HUD): a click makes it floor, walled
    // all round (nothing to open onto), so a room of its own, and rooms get a torch on
    // their first long rock wall.
    let cell = Pos { level: 0, slot: octile::grid::Slot::new(8, 8) };
    assert!(before.tile_def(cell).is_ok_and(|t| !t.carved), "0,8,8 is rock in plus_arena");
    let centre = top_pixel(&before, before.layout().center(cell.slot));
    let size = format!("{}x{}", SIZE.0, SIZE.1);
    let args = [file.to_str().unwrap(), "--camera", "top", "--size", &size, "--lights"];
    let Some((child, window)) = support::open_viewer_window(TEST, &args, &[]) else { return };
    let (_, shot) = click_in_edit_mode(&window, centre, dir.path());
    xdotool(&["key", "ctrl+s"]);
    pause(1500);
    let (after, err) = quit_and_load(child, &file);
    assert!(after.tile_def(cell).is_ok_and(|t| t.carved), "the click made 0,8,8 floor: {err}");
    let markers = octile::viewer::markers::markers_of(&after);
    let lights = octile::rooms::torch_lights(&markers, octile::rooms::LightPreset::Blender);
    let light = lights.iter().find(|l| l.torch.cell == cell).expect("the new room has a torch");
    let options = ViewOptions { camera: CameraKind::Top, size: SIZE, ..ViewOptions::default() };
    let prepared = prepare(&after, &options).unwrap();
    let view = prepared.state.view(&prepared.scene, SIZE.0 as f32 / SIZE.1 as f32);
    let (x, y) = view.project(light.position.as_vec3(), SIZE.0, SIZE.1).unwrap();
    // Its glow (`--lights`) is drawn where the edited room put it: a warm pixel there.
    let warm = (x as u32 - 2..=x as u32 + 2)
        .flat_map(|px| (y as u32 - 2..=y as u32 + 2).map(move |py| (px, py)))
        .map(|(px, py)| shot.get_pixel(px, py).0)
        .any(|[r, g, b]| r > 180 && i32::from(r) - i32::from(b) > 60 && g > 100);
    assert!(warm, "no torch glow at ({x:.0}, {y:.0}) after the click: {err}");
}

/// The room brush (C): a drag from one rock octagon to another paints a room between them,
/// walled but for one doorway per side that borders the grid's inside, and a click on rock
/// beside floor opens onto it.
#[test]
fn the_room_brush_paints_a_room_with_doorways() {
    const TEST: &str = "the_room_brush_paints_a_room_with_doorways";
    let Some((_alone, dir, file, before)) = window_test(TEST) else { return };
    let at = |row: u32, col: u32| Pos { level: 0, slot: octile::grid::Slot::new(row, col) };
    let carved = |d: &Dungeon, p: Pos| d.tile_def(p).is_ok_and(|t| t.carved);
    // plus_arena's top-left corner is rock: 0,0,0, 0,0,2 and 0,2,0; 0,0,4 is floor; and
    // 0,8,2 is rock beside the floor at 0,6,2.
    assert!(!carved(&before, at(0, 0)) && !carved(&before, at(0, 2)) && !carved(&before, at(2, 0)));
    assert!(carved(&before, at(0, 4)) && !carved(&before, at(8, 2)) && carved(&before, at(6, 2)));
    let pixel = |p: Pos| top_pixel(&before, before.layout().center(p.slot));
    let (start, end, beside) = (pixel(at(0, 0)), pixel(at(0, 2)), pixel(at(8, 2)));
    let Some((child, window)) = open_top_view(TEST, &file) else { return };
    pause(2500);
    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["key", "F3"]);
    // A click on rock beside floor first (the room brush is off): it opens onto the floor.
    xdotool(&["mousemove", "--window", &window, &beside.0.to_string(), &beside.1.to_string()]);
    pause(800);
    xdotool(&["click", "1"]);
    pause(600);
    xdotool(&["key", "c"]);
    drag(&window, start, end);
    xdotool(&["mousemove", "--window", &window, "2", "2"]);
    pause(1500);
    grab(&window, &dir.join("room.png"));
    xdotool(&["key", "ctrl+s"]);
    pause(1500);
    let (after, err) = quit_and_load(child, &file);
    assert!(carved(&after, at(8, 2)), "the click made 0,8,2 floor: {err}");
    assert_eq!(after.edge_state(at(8, 2), Direction::N).unwrap(), after.registry().edge("open"), "{err}");
    assert!(carved(&after, at(0, 0)) && carved(&after, at(0, 2)), "the drag painted the room: {err}");
    let open = after.registry().edge("open");
    assert_eq!(after.edge_state(at(0, 2), Direction::E).unwrap(), open, "the east doorway onto 0,0,4");
    assert_eq!(after.edge_state(at(0, 0), Direction::S).unwrap(), open, "the south doorway");
    assert!(carved(&after, at(2, 0)), "the south doorway's cell is carved");
    assert_eq!(
        after.edge_state(at(0, 2), Direction::S).unwrap(),
        after.registry().edge("wall"),
        "one doorway a side"
    );
    assert!(err.contains("room 0 0,0..0,2"), "the status line says what was done: {err}");
}

/// Edit mode says when an edit breaks the flow proof, and when undoing it mends it: a click
/// on a locked door cycles it to another state (its lock id goes), the HUD (and stderr)
/// say `flow broken: ...`; Ctrl+Z puts the door and its id back, `flow holds again`.
#[test]
fn an_edit_that_breaks_the_flow_is_said_and_undo_mends_it() {
    const TEST: &str = "an_edit_that_breaks_the_flow_is_said_and_undo_mends_it";
    let Some((_alone, dir, _, _)) = window_test(TEST) else { return };
    let file = dir.join("mission.json");
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mission_specs/one-level.json");
    let made = Command::new(env!("CARGO_BIN_EXE_octile"))
        .args([
            "generate",
            "--flow",
            spec,
            "--octagons",
            "24x24",
            "--seed",
            "1",
            "-o",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", support::stderr(&made));
    let d = octile::format::load(&file).unwrap();
    let lock = d.locks().find(|l| l.id == 1).expect("lock 1");
    let (slot, wall, _) = d.edge_cells(lock.edge).unwrap();
    let pixel = seam_pixel(&d, Pos { level: lock.level, slot }, wall);
    let Some((child, window)) = open_top_view(TEST, &file) else { return };
    let (_, broken) = click_in_edit_mode(&window, pixel, dir.path());
    xdotool(&["key", "ctrl+z"]);
    pause(1500);
    let mended = grab(&window, &dir.join("mended.png"));
    let (_, err) = quit_and_load(child, &file);
    assert!(err.contains("flow broken: "), "the broken flow is said: {err}");
    let (at_break, at_mend) = (err.find("flow broken: ").unwrap(), err.find("flow holds again"));
    assert!(at_mend.is_some_and(|m| m > at_break), "undo mends it, and says so: {err}");
    assert!(differing_near(&broken, &mended, pixel, 12) > 10, "the door looks different once mended");
}

/// Q with unsaved edits does not quit at once: it says what is at stake, and a second Q
/// quits without saving (the file keeps what it had). Esc with the help open closes the
/// help, not the window.
#[test]
fn quitting_with_unsaved_edits_asks_first_and_esc_closes_the_help() {
    const TEST: &str = "quitting_with_unsaved_edits_asks_first_and_esc_closes_the_help";
    let Some((_alone, dir, file, before)) = window_test(TEST) else { return };
    let (pos, wall) = known_wall(&before);
    let Some((mut child, window)) = open_top_view(TEST, &file) else { return };
    pause(2500);
    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["key", "F1"]);
    pause(800);
    xdotool(&["key", "Escape"]);
    pause(1500);
    assert!(child.try_wait().unwrap().is_none(), "Esc closed the help, not the window");
    let _ = click_in_edit_mode(&window, seam_pixel(&before, pos, wall), dir.path());
    xdotool(&["key", "q"]);
    pause(1500);
    assert!(child.try_wait().unwrap().is_none(), "one Q with unsaved edits does not quit");
    xdotool(&["key", "q"]);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(5) {
        pause(100);
    }
    let quit = child.try_wait().unwrap().is_some();
    let err = finish(child);
    assert!(quit, "the second Q quits: {err}");
    assert!(err.contains("unsaved edits: Ctrl+S saves them; Q or Esc again quits without saving"), "{err}");
    assert!(!err.contains(&format!("saved {}", file.display())), "nothing saved: {err}");
    assert_eq!(octile::format::load(&file).unwrap(), before, "the file keeps what it had");
}

/// Asks `window` to close as a window manager does for its close button (a
/// `WM_DELETE_WINDOW` client message, which winit reports as `CloseRequested`); xdotool
/// can only destroy a window or kill its client.
fn ask_to_close(window: &str) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};
    let id: u32 = window.trim().parse().unwrap_or_else(|e| panic!("window id {window:?}: {e}"));
    let (conn, _) = x11rb::connect(None).expect("the display the window is on");
    let atom = |name: &[u8]| conn.intern_atom(false, name).unwrap().reply().unwrap().atom;
    let (protocols, delete) = (atom(b"WM_PROTOCOLS"), atom(b"WM_DELETE_WINDOW"));
    let message = ClientMessageEvent::new(32, id, protocols, [delete, x11rb::CURRENT_TIME, 0, 0, 0]);
    conn.send_event(false, id, EventMask::NO_EVENT, message).unwrap();
    conn.flush().unwrap();
}

/// Waits up to `seconds` for `child` to end; true when it did.
fn ended_within(child: &mut Child, seconds: u64) -> bool {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(seconds) {
        pause(100);
    }
    child.try_wait().unwrap().is_some()
}

/// The window manager's close (the title bar's button) with unsaved edits asks first, as
/// Q does: the window stays, says what is at stake, and a second close quits without
/// saving. A window destroyed outright (it cannot ask) keeps the edits in the recovery file
/// `NAME.unsaved.json` beside the dungeon's, whose own file stays as it was.
#[test]
fn closing_the_window_with_unsaved_edits_asks_first_and_a_destroyed_window_keeps_them() {
    const TEST: &str = "closing_the_window_with_unsaved_edits_asks_first_and_a_destroyed_window_keeps_them";
    let Some((_alone, dir, file, before)) = window_test(TEST) else { return };
    let (pos, wall) = known_wall(&before);
    let recovery =
        file.with_file_name(format!("{}.unsaved.json", file.file_stem().unwrap().to_str().unwrap()));

    let Some((mut child, window)) = open_top_view(TEST, &file) else { return };
    let _ = click_in_edit_mode(&window, seam_pixel(&before, pos, wall), dir.path());
    ask_to_close(&window);
    pause(1500);
    assert!(child.try_wait().unwrap().is_none(), "one close with unsaved edits does not quit");
    ask_to_close(&window);
    let quit = ended_within(&mut child, 5);
    let err = finish(child);
    assert!(quit, "the second close quits: {err}");
    assert!(
        err.contains("unsaved edits: Ctrl+S saves them; close the window again quits without saving"),
        "{err}"
    );
    assert_eq!(octile::format::load(&file).unwrap(), before, "the file keeps what it had");
    assert!(!recovery.exists(), "a close the user confirmed keeps nothing: {err}");

    let Some((mut child, window)) = open_top_view(TEST, &file) else { return };
    let _ = click_in_edit_mode(&window, seam_pixel(&before, pos, wall), dir.path());
    xdotool(&["windowclose", &window]);
    let quit = ended_within(&mut child, 10);
    let err = finish(child);
    assert!(quit, "a destroyed window ends the viewer: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(&format!("they are in {}", recovery.display())), "{err}");
    assert_eq!(octile::format::load(&file).unwrap(), before, "the dungeon's own file is as it was");
    let kept = octile::format::load(&recovery).unwrap_or_else(|e| panic!("the recovery file: {e}: {err}"));
    assert_eq!(kept.edge_state(pos, wall).unwrap(), kept.registry().edge("door"), "the edit is kept: {err}");
}
