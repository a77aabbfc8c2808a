//! Invariant checkers and helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

use octile::dungeon::Dungeon;
#[cfg(feature = "export")]
use octile::mesh::{DungeonMesh, MaterialRole, Primitive};

/// Every sample dungeon in `assets/`, by file name.
pub fn samples() -> Vec<(String, Dungeon)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into(), octile::format::load(&p).unwrap()))
        .collect()
}

/// A triangle in world or level-local metres.
pub type Tri = [[f64; 3]; 3];

/// The triangles of one primitive, lifted by `dy`.
#[cfg(feature = "export")]
pub fn triangles(p: &Primitive, dy: f64) -> Vec<Tri> {
    p.indices
        .chunks_exact(3)
        .map(|t| {
            [t[0], t[1], t[2]].map(|i| {
                let v = p.vertices[i as usize].position;
                [f64::from(v[0]), f64::from(v[1]) + dy, f64::from(v[2])]
            })
        })
        .collect()
}

/// World triangles of every level, keeping the roles `keep` accepts.
#[cfg(feature = "export")]
pub fn world(mesh: &DungeonMesh, keep: impl Fn(MaterialRole) -> bool) -> Vec<Tri> {
    let mut out = Vec::new();
    for level in &mesh.levels {
        for (role, p) in &level.primitives {
            if keep(*role) {
                out.extend(triangles(p, level.floor_y));
            }
        }
    }
    out
}

/// Triangles of one level (level-local), keeping the roles `keep` accepts.
#[cfg(feature = "export")]
pub fn level(mesh: &DungeonMesh, l: usize, keep: impl Fn(MaterialRole) -> bool) -> Vec<Tri> {
    let level = &mesh.levels[l];
    level.primitives.iter().filter(|(r, _)| keep(*r)).flat_map(|(_, p)| triangles(p, 0.0)).collect()
}

fn key(p: [f64; 3]) -> [i64; 3] {
    p.map(|x| (x * 1e4).round() as i64)
}

/// Asserts that `tris`, welded by position (0.1 mm), form a closed oriented 2-manifold:
/// every edge is used by exactly two triangles, once in each direction.
pub fn assert_watertight(tris: &[Tri], what: &str) {
    assert!(!tris.is_empty(), "{what}: no triangles");
    let mut directed: Vec<([i64; 3], [i64; 3])> = Vec::with_capacity(tris.len() * 3);
    for t in tris {
        let k = t.map(key);
        assert!(k[0] != k[1] && k[1] != k[2] && k[0] != k[2], "{what}: degenerate triangle {t:?}");
        for i in 0..3 {
            directed.push((k[i], k[(i + 1) % 3]));
        }
    }
    directed.sort();
    for w in directed.windows(2) {
        assert!(w[0] != w[1], "{what}: edge {:?} used twice in the same direction", w[0]);
    }
    let mut undirected: Vec<_> = directed.iter().map(|&(a, b)| if a < b { (a, b) } else { (b, a) }).collect();
    undirected.sort();
    let mut i = 0;
    while i < undirected.len() {
        let mut j = i;
        while j < undirected.len() && undirected[j] == undirected[i] {
            j += 1;
        }
        assert_eq!(j - i, 2, "{what}: edge {:?} is used by {} triangles", undirected[i], j - i);
        i = j;
    }
}

/// The volume enclosed by `tris` (normals pointing inward), by the divergence theorem with
/// the field `(x, 0, 0)`: horizontal openings (a shaft's top) add nothing to it.
pub fn volume_inward(tris: &[Tri]) -> f64 {
    let mut v = 0.0;
    for t in tris {
        let [a, b, c] = t;
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let nx = u[1] * w[2] - u[2] * w[1];
        v += nx / 2.0 * (a[0] + b[0] + c[0]) / 3.0;
    }
    -v
}

/// Two stairs side by side on a 3x2 floor (the long seam between their holes carved on the
/// level above, issue 25) and 16 dungeons edited at random from all-floor starts: cells
/// filled and carved, walls cycled, stairs placed (each named by its seed and commands).
#[cfg(feature = "export")]
pub fn edited_dungeons() -> Vec<(String, Dungeon)> {
    use octile::dungeon::Fill;
    use octile::geometry::Proportions;
    use rand_core::{Rng, SeedableRng};
    let mut pair =
        octile::edit::Editor::new(Dungeon::new(3, 2, 2, Proportions::default(), Fill::Floor).unwrap());
    for line in ["stair 0,0,0", "stair 0,0,2"] {
        octile::edit::script::run_line(&mut pair, line).unwrap();
    }
    let mut all = vec![("two stairs side by side".to_string(), pair.into_dungeon())];
    let walls = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
    for seed in 0..16u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut pick = |n: u64| (rng.next_u64() % n) as u32;
        let mut editor =
            octile::edit::Editor::new(Dungeon::new(4, 4, 3, Proportions::default(), Fill::Floor).unwrap());
        let mut lines = Vec::new();
        for _ in 0..24 {
            let (level, row, col) = (pick(3), pick(7), pick(7));
            let line = match pick(6) {
                0 | 1 => format!("toggle {level},{row},{col}"),
                2 | 3 => format!("cycle {level},{row},{col} {}", walls[pick(8) as usize]),
                _ => format!("stair {},{},{}", pick(2), 2 * pick(4), 2 * pick(4)),
            };
            if octile::edit::script::run_line(&mut editor, &line).is_ok() {
                lines.push(line);
            }
        }
        all.push((format!("edit seed {seed}: {}", lines.join("; ")), editor.into_dungeon()));
    }
    all
}

/// A 5x4-octagon, 2-level floor with rooms of several heights at cut ratio `cut`: a tall
/// hall (9 m) of four octagons and their connector, a 6 m octagon beside it behind a door,
/// a low corridor of connectors and octagons at 3.5 m, a 2.5 m crypt behind a door, a stair
/// (6 m) opening beside the hall and a tall room above it, the rest at the default 4 m.
pub fn tall_and_low_rooms(cut: f64) -> Dungeon {
    use octile::dungeon::{Fill, Registry};
    use octile::geometry::Proportions;
    use octile::grid::{Direction, Pos};
    let mut d = Dungeon::new(5, 4, 2, Proportions::default().with_cut_ratio(cut), Fill::Floor).unwrap();
    let hall = [(0, 0), (0, 2), (2, 0), (2, 2), (1, 1)];
    for (row, col) in hall {
        d.set_room_height(Pos::new(0, row, col), 9.0).unwrap();
    }
    d.set_room_height(Pos::new(0, 0, 4), 6.0).unwrap();
    d.set_edge(Pos::new(0, 0, 2), Direction::E, Registry::DOOR).unwrap();
    for (row, col) in [(4, 0), (5, 1), (4, 2), (5, 3), (6, 4)] {
        d.set_room_height(Pos::new(0, row, col), 3.5).unwrap();
    }
    // A crypt lower than the doors (2 m under its 2.5 m seam), behind a door.
    d.set_room_height(Pos::new(0, 6, 8), 2.5).unwrap();
    d.set_edge(Pos::new(0, 6, 6), Direction::E, Registry::DOOR).unwrap();
    d.set_tile(Pos::new(0, 2, 4), Registry::STAIR).unwrap();
    d.set_room_height(Pos::new(0, 2, 4), 6.0).unwrap();
    d.set_edge(Pos::new(0, 2, 4), Direction::S, Registry::WALL).unwrap();
    for (row, col) in [(0, 6), (1, 7), (2, 6), (2, 8)] {
        d.set_room_height(Pos::new(1, row, col), 11.0).unwrap();
    }
    d
}

/// A check that needs a tool this machine may lack (node, a GPU adapter, a display) skips:
/// it writes `SKIPPED <test>: <why>` to standard error where `cargo test` shows it (a direct
/// write, which the test harness does not capture), unless `required` names an environment
/// variable set to `1`, which makes the skip a failure (`.ci/run` sets them).
///
/// # Panics
///
/// When `required` is set to `1`.
pub fn skip(test: &str, why: &str, required: &str) {
    assert_ne!(std::env::var(required).as_deref(), Ok("1"), "{test}: {why} (and {required}=1 requires it)");
    let line = format!("SKIPPED {test}: {why} (set {required}=1 to make this a failure)\n");
    // Not eprintln!: the harness captures that and shows it only when the test fails.
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// An empty directory of one test's own, under cargo's scratch space for integration tests
/// (`target/tmp`), so parallel tests never share a file. Removed when dropped, kept when the
/// test fails (for a look at what it wrote).
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh directory for `test` (unique within this test binary and this process).
    pub fn new(test: &str) -> Scratch {
        let name = format!("{}-{test}-{}", env!("CARGO_CRATE_NAME"), std::process::id());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `name` inside the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs the `octile` binary in the crate root with `args`; each `env` entry sets a variable
/// (`Some`) or removes it (`None`) for that run.
#[cfg(feature = "cli")]
pub fn run_octile(args: &[&str], env: &[(&str, Option<&str>)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_octile"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.output().expect("runs the binary")
}

/// A process's standard error as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `xdotool` with `args` (stderr dropped); `None` when it is not installed.
pub fn xdotool(args: &[&str]) -> Option<std::process::Output> {
    std::process::Command::new("xdotool").args(args).stderr(std::process::Stdio::null()).output().ok()
}

/// The id of the visible window of `child`, polled for up to 30 s (a loaded machine can take
/// long to map it, and one xdotool call can fail to reach the display); `None` when it never
/// appears or the process exits first.
pub fn find_window(child: &mut std::process::Child) -> Option<String> {
    let pid = child.id().to_string();
    for _ in 0..120 {
        if child.try_wait().ok().flatten().is_some() {
            return None;
        }
        let found = xdotool(&["search", "--onlyvisible", "--pid", &pid])
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_owned());
        if let Some(window) = found.filter(|w| !w.is_empty()) {
            return Some(window);
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    None
}

/// Starts `octile view ARGS` (with the variables `env` set) and finds its window: the
/// viewer and the window id, or `None` (after a `SKIPPED` line) where the machine has no GPU
/// adapter. Run it under `xvfb-run -s "... -noreset"`: without `-noreset` Xvfb resets when
/// its last client leaves, and a viewer connecting during the reset gets "Failed to open
/// connection to X server".
///
/// # Panics
///
/// When no window appears for any other reason, with the viewer's standard error.
#[cfg(feature = "cli")]
pub fn open_viewer_window(
    test: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Option<(std::process::Child, String)> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_octile"))
        .arg("view")
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts the viewer");
    if let Some(window) = find_window(&mut child) {
        return Some((child, window));
    }
    child.kill().ok();
    let err = stderr(&child.wait_with_output().expect("the viewer's exit"));
    if err.contains("no GPU adapter") {
        skip(test, err.trim(), "VIEWER_REQUIRE_ADAPTER");
        return None;
    }
    panic!("{test}: no viewer window: {err}");
}

/// Renders a screenshot of `dungeon`, or returns `None` (after printing why) when no
/// adapter exists and the environment does not require one; panics on any other error.
#[cfg(feature = "viewer")]
pub fn shoot(
    test: &str,
    dungeon: &Dungeon,
    options: &octile::viewer::ViewOptions,
) -> Option<octile::viewer::Shot> {
    match octile::viewer::screenshot(dungeon, options) {
        Ok(shot) => Some(shot),
        Err(e @ octile::viewer::ViewerError::NoAdapter { .. }) => {
            skip(test, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

/// Pixels of `a` and `b` (pictures of one size) whose colour differs by more than 8 in a
/// channel: the measure the render tests compare two frames by.
#[cfg(feature = "viewer")]
pub fn differing(a: &octile::viewer::Shot, b: &octile::viewer::Shot) -> usize {
    a.pixels
        .chunks(4)
        .zip(b.pixels.chunks(4))
        .filter(|(p, q)| (0..3).any(|i| p[i].abs_diff(q[i]) > 8))
        .count()
}

/// Edit mode's live mesh of `d` for `off`'s pass, meshed with `mesh` and lit by `d`'s
/// torches as the window builds it (nothing meshed until [`draw_live`] or a `prepare`).
#[cfg(feature = "viewer")]
pub fn live_mesh(
    gpu: &octile::viewer::gpu::Gpu,
    off: &mut octile::viewer::screenshot::Offscreen,
    d: &Dungeon,
    mesh: &octile::mesh::MeshOptions,
) -> octile::viewer::edit::live::LiveMesh {
    let renderer = off.renderer_mut();
    let (format, samples) = (renderer.format(), renderer.samples());
    let torches = std::sync::Arc::new(octile::viewer::torchlight::Torchlight::new(
        &octile::viewer::markers::torch_positions(&octile::viewer::markers::markers_of(d)),
    ));
    octile::viewer::edit::live::LiveMesh::new(&gpu.device, format, samples, d, mesh, torches)
}

/// `frame` of `d` as the window draws it while editing: the renderer draws no level and
/// `live` (shaded and prepared for `frame` here) draws them in its pass. The picture and
/// what the live mesh drew.
///
/// # Panics
/// When a chunk cannot be meshed or the frame cannot be read back.
#[cfg(feature = "viewer")]
pub fn draw_live(
    gpu: &octile::viewer::gpu::Gpu,
    off: &mut octile::viewer::screenshot::Offscreen,
    live: &mut octile::viewer::edit::live::LiveMesh,
    d: &Dungeon,
    frame: &octile::viewer::renderer::Frame,
) -> (octile::viewer::Shot, octile::viewer::edit::gpu::Drawn) {
    live.shade_as(&gpu.device, frame);
    live.prepare(&gpu.device, d, frame).expect("the live mesh's chunks mesh");
    let empty =
        octile::viewer::renderer::Frame { levels: std::ops::RangeInclusive::new(1, 0), ..frame.clone() };
    let mut drawn = octile::viewer::edit::gpu::Drawn::default();
    let shot = off.capture_with(gpu, &empty, &mut |pass| drawn = live.draw(pass, frame)).expect("a frame");
    (shot, drawn)
}

/// A hall with a ramp (docs/design.md, "Columns across storeys"), 5x2 octagons and 2 levels
/// cut out of rock, and no stair: on level 0 the ramp's foot (0, 0, 0) and the two
/// octagons it runs over east of it, and a corridor along row 2 from under the foot to
/// (0, 2, 6); on level 1 the voids over the run, the ramp's top (1, 0, 6) with a floor
/// beyond it, and a void over (0, 2, 6) that the top looks down into past a railing (a
/// balcony). The ramp is the only way between the levels.
pub fn ramp_hall() -> (Dungeon, octile::dungeon::Ramp) {
    use octile::dungeon::{Fill, Ramp, Registry};
    use octile::grid::{Direction, Pos, Slot};
    let mut d = Dungeon::new(5, 2, 2, octile::geometry::Proportions::default(), Fill::Solid).unwrap();
    let void = d.void_tile().unwrap();
    let floor = |d: &mut Dungeon, cells: &[(u16, u32, u32)]| {
        for &(l, r, c) in cells {
            d.set_tile(Pos::new(l, r, c), Registry::FLOOR).unwrap();
        }
    };
    floor(&mut d, &[(0, 0, 0), (0, 0, 2), (0, 0, 4), (0, 2, 0), (0, 2, 2), (0, 2, 4), (0, 2, 6)]);
    floor(&mut d, &[(1, 0, 6), (1, 0, 8)]);
    for (r, c) in [(0, 2), (0, 4), (2, 6)] {
        d.set_tile(Pos::new(1, r, c), void).unwrap();
    }
    let open = |d: &mut Dungeon, l: u16, r: u32, c: u32, dir: Direction| {
        d.set_edge(Pos::new(l, r, c), dir, Registry::OPEN).unwrap();
    };
    for (r, c) in [(0, 0), (0, 2), (2, 0), (2, 2), (2, 4)] {
        open(&mut d, 0, r, c, Direction::E);
    }
    open(&mut d, 0, 0, 0, Direction::S);
    for c in [2, 4, 6] {
        open(&mut d, 1, 0, c, Direction::E);
    }
    open(&mut d, 1, 0, 6, Direction::S);
    let ramp = Ramp { level: 0, foot: Slot::new(0, 0), dir: Direction::E };
    d.add_ramp(ramp).unwrap();
    (d, ramp)
}

/// Runs `octile generate --flow tests/mission_specs/NAME --octagons SIZExSIZE --seed SEED
/// -o TO` and asserts it succeeded: a mission's dungeon file, made as a user makes one.
#[cfg(feature = "cli")]
pub fn generate_mission_file(name: &str, size: u32, seed: u64, to: &Path) {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mission_specs").join(name);
    let octagons = format!("{size}x{size}");
    let seed = seed.to_string();
    let args = ["generate", "--flow", spec.to_str().unwrap(), "--octagons", &octagons, "--seed", &seed, "-o"];
    let out = run_octile(&[&args[..], &[to.to_str().unwrap()]].concat(), &[]);
    assert!(out.status.success(), "octile {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The mission spec `name` of `tests/mission_specs` realised with `seed` on `size x size`
/// octagons and `levels` levels.
///
/// # Panics
/// When the spec does not read, check or realise.
pub fn realised_mission(name: &str, size: u32, levels: u32, seed: u64) -> Dungeon {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mission_specs").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let flow = octile::flow::FlowSpec::from_json(&text).unwrap().check(&Default::default()).unwrap();
    let options =
        octile::generate::GenerateOptions { seed, cols: size, rows: size, levels, ..Default::default() };
    octile::flow::realise(&flow, &options, &mut |_| {}).unwrap()
}
