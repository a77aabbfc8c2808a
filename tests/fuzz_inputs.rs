//! Fuzz-style property test (issue 10): bad input gets a typed error, never a panic, and
//! whatever is accepted exports a valid glTF.
//!
//! Each case takes a seed file (the samples in `assets/` and a few generated dungeons),
//! mutates it (bytes, JSON tokens, the proportions across the whole float range, or plan
//! symbols and markers), and
//! runs through the library what the subcommands run: `validate` and `info` (parse, count,
//! regions, round trip), `export` (to bytes, and every few cases to a `.glb` or `.gltf` path),
//! `path` (entrance to exit, or first to last floor cell) and `plan` (SVG). A second
//! family checks random proportions (NaN and infinities included) with `Layout::new`, and
//! puts the ones it accepts into a sample file, which must then load and export. It
//! asserts no panic, and where export succeeds, a glTF that the `gltf` crate loads with
//! finite accessor min/max that bound every position, and indices in range.
//!
//! Knobs (environment variables):
//! - `OCTILE_FUZZ_CASES`: cases per family (default 400, about a second in debug). A long
//!   run: `OCTILE_FUZZ_CASES=20000 cargo test --release --test fuzz_inputs -- --nocapture`.
//! - `OCTILE_FUZZ_SEED`: the first case's seed (default 0); case `i` uses seed + i, so a
//!   failure reported as `case N` reruns alone with `OCTILE_FUZZ_SEED=N OCTILE_FUZZ_CASES=1`.
//!
//! Failing inputs are written to `CARGO_TARGET_TMPDIR/fuzz-failures/`.

// `powf` draws magnitudes for the fuzzer's inputs; no output comes from it.
#![allow(clippy::disallowed_methods)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use octile::dungeon::Dungeon;
use octile::export::{self, ExportOptions};
use octile::format::{from_json, load, to_json};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::{Layout, Proportions};
use octile::path::{PathRules, dungeon_regions, find_path};
use octile::plan::{PlanOptions, to_svg};
use serde_json::Value;

/// splitmix64: a small seeded generator, the same stream on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The samples and a few small generated dungeons, as `(name, JSON text)`.
fn seed_files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    for seed in [1, 2] {
        let options = GenerateOptions { seed, levels: 2, cols: 4, rows: 4, ..Default::default() };
        let d = generate(&options, &mut |_| {}).expect("small dungeons generate");
        files.push((format!("generated-{seed}"), to_json(&d)));
    }
    files
}

/// A float from anywhere in the range: specials, limits and their neighbours, everyday
/// lengths, and random magnitudes and bit patterns.
fn any_float(rng: &mut Rng) -> f64 {
    let limits: [f64; 11] = [
        Proportions::MIN_BASE,
        Proportions::MAX_BASE,
        Proportions::MIN_CUT_RATIO,
        Proportions::MAX_CUT_RATIO,
        Proportions::MIN_LAYER_HEIGHT,
        Proportions::MAX_LAYER_HEIGHT,
        Proportions::MIN_ROOM_HEIGHT,
        Proportions::MIN_DOOR_WIDTH,
        Proportions::MIN_DOOR_HEIGHT,
        0.4999999,
        0.5,
    ];
    match rng.below(6) {
        0 => *rng.pick(&[0.0, -0.0, f64::MIN_POSITIVE, f64::MAX, -1.0, 1e-300, 1e39, 1e17, 1e8, 31622.0]),
        1 => {
            let l = *rng.pick(&limits);
            *rng.pick(&[l, l.next_up(), l.next_down(), l * 1.5, l / 1.5])
        }
        2 => 0.5 + rng.below(60_000) as f64 / 1000.0,
        3 => 10f64.powf(rng.below(640) as f64 - 320.0) * if rng.below(4) == 0 { -1.0 } else { 1.0 },
        4 => rng.below(1000) as f64 / 1000.0,
        _ => f64::from_bits(rng.next()),
    }
}

/// A JSON token to put somewhere it may not belong.
fn any_token(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => serde_json::json!(*rng.pick(&[0i64, -1, 1, 2, 3, 255, 256, 4096, 4097, 65535, 65536, 1 << 32])),
        3 => serde_json::json!(*rng.pick(&[u64::MAX, i64::MAX as u64, 1 << 53])),
        4 => serde_json::Number::from_f64(any_float(rng)).map_or(Value::Null, Value::Number),
        5 => Value::String(
            (*rng.pick(&["", "#", ".", "S", "o", "|", "D", "?", "é", "\u{feff}", "oooo"])).into(),
        ),
        6 => serde_json::json!([]),
        7 => serde_json::json!({}),
        _ => serde_json::json!([rng.below(4), rng.below(9), rng.below(9)]),
    }
}

/// Changes one randomly chosen node of `v`: replaced, removed, duplicated, or (strings)
/// edited by a character.
fn mutate_value(v: &mut Value, rng: &mut Rng) {
    let depth_stop = rng.below(4) == 0;
    match v {
        Value::Object(map) if !map.is_empty() && !depth_stop => {
            let key = map.keys().nth(rng.below(map.len())).unwrap().clone();
            match rng.below(8) {
                0 => {
                    map.shift_remove(&key);
                }
                1 => {
                    map.insert(format!("{key}_extra"), any_token(rng));
                }
                _ => mutate_value(map.get_mut(&key).unwrap(), rng),
            }
        }
        Value::Array(items) if !items.is_empty() && !depth_stop => {
            let i = rng.below(items.len());
            match rng.below(8) {
                0 => {
                    items.remove(i);
                }
                1 => {
                    let copy = items[i].clone();
                    items.insert(i, copy);
                }
                _ => mutate_value(&mut items[i], rng),
            }
        }
        Value::String(s) if !s.is_empty() && rng.below(2) == 0 => {
            let mut chars: Vec<char> = s.chars().collect();
            let i = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[i] = *rng.pick(&['#', '.', 'S', 'o', '|', 'D', ' ', '?', 'é']),
                1 => {
                    chars.remove(i);
                }
                _ => chars.insert(i, *rng.pick(&['#', '.', 'S', 'o', '|', ' '])),
            }
            *s = chars.into_iter().collect();
        }
        _ => *v = any_token(rng),
    }
}

/// Sets a few plan symbols (cells, long edges, short edges) to symbols of the legend, and
/// sometimes the entrance or exit to a random position: the file keeps its shape, so
/// these mostly reach the dungeon's own checks and the export.
fn mutate_plan(v: &mut Value, rng: &mut Rng) {
    for _ in 0..1 + rng.below(6) {
        let levels = v["plan"].as_array().map_or(0, Vec::len);
        if levels == 0 {
            return;
        }
        let field = *rng.pick(&["slots", "slots", "short_edges"]);
        let level = rng.below(levels);
        let Some(rows) = v["plan"][level][field].as_array_mut().filter(|r| !r.is_empty()) else { continue };
        let row = rng.below(rows.len());
        let mut chars: Vec<char> = rows[row].as_str().unwrap_or_default().chars().collect();
        if chars.is_empty() || chars.iter().all(|&c| c == ' ') {
            continue;
        }
        let i = (0..).map(|_| rng.below(chars.len())).find(|&i| chars[i] != ' ').unwrap();
        // A cell slot (row and column of the same parity) takes a tile, the rest an edge.
        let cell = field == "slots" && (row ^ i) & 1 == 0;
        chars[i] = if cell { *rng.pick(&['#', '.', '.', 'S']) } else { *rng.pick(&['o', 'o', '|', 'D']) };
        rows[row] = Value::String(chars.into_iter().collect());
    }
    if rng.below(3) == 0 {
        let marker = *rng.pick(&["entrance", "exit"]);
        v[marker] = serde_json::json!([rng.below(3), rng.below(9), rng.below(9)]);
    }
}

/// One mutated input: bytes (possibly not UTF-8), JSON tokens, proportions, or plan
/// symbols.
fn mutate(text: &str, rng: &mut Rng) -> Vec<u8> {
    match rng.below(4) {
        0 => {
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..1 + rng.below(8) {
                let i = rng.below(bytes.len().max(1)).min(bytes.len().saturating_sub(1));
                match rng.below(4) {
                    0 => bytes[i] = rng.next() as u8,
                    1 => bytes[i] = *rng.pick(b"{}[],:\"0123456789.-eE#SoD| \n"),
                    2 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(i, *rng.pick(b"{}[],:\"09-e#.S ")),
                }
            }
            bytes
        }
        1 => {
            let mut v: Value = serde_json::from_str(text).unwrap();
            for _ in 0..1 + rng.below(3) {
                mutate_value(&mut v, rng);
            }
            v.to_string().into_bytes()
        }
        2 => {
            let mut v: Value = serde_json::from_str(text).unwrap();
            mutate_plan(&mut v, rng);
            v.to_string().into_bytes()
        }
        _ => {
            let mut v: Value = serde_json::from_str(text).unwrap();
            let fields = ["base", "cut_ratio", "layer_height", "room_height", "door_width", "door_height"];
            for _ in 0..1 + rng.below(3) {
                let x = serde_json::Number::from_f64(any_float(rng)).map_or(Value::Null, Value::Number);
                v["proportions"][*rng.pick(&fields)] = x;
            }
            v.to_string().into_bytes()
        }
    }
}

/// Loads `bytes` as a `.glb` and checks it: it parses and validates, every accessor's
/// min/max is finite, positions are finite and inside their accessor's bounds, and every
/// index points at a vertex.
fn check_glb(bytes: &[u8]) -> Result<(), String> {
    let g = gltf::Gltf::from_slice(bytes).map_err(|e| format!("gltf does not load: {e}"))?;
    for a in g.accessors() {
        for bound in [a.min(), a.max()].into_iter().flatten() {
            let finite =
                bound.as_array().is_some_and(|xs| xs.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)));
            if !finite {
                return Err(format!("accessor {:?}: bound {bound}", a.name()));
            }
        }
    }
    let blob = g.blob.as_deref();
    for mesh in g.meshes() {
        for p in mesh.primitives() {
            let reader = p.reader(|_| blob);
            let pos: Vec<[f32; 3]> = reader.read_positions().ok_or("no POSITION")?.collect();
            let bounds = p.bounding_box();
            let inside = |q: &[f32; 3]| {
                (0..3).all(|k| q[k].is_finite() && bounds.min[k] <= q[k] && q[k] <= bounds.max[k])
            };
            if !pos.iter().all(inside) {
                return Err(format!("mesh {:?}: a position outside its accessor bounds", mesh.name()));
            }
            if let Some(idx) = reader.read_indices()
                && idx.into_u32().any(|i| i as usize >= pos.len())
            {
                return Err(format!("mesh {:?}: an index past {} vertices", mesh.name(), pos.len()));
            }
        }
    }
    Ok(())
}

/// What `info`, `validate`, `export`, `path` and `plan` do with an accepted dungeon.
fn exercise(d: &Dungeon, case: u64, scratch: &Path) -> Result<(), String> {
    let _ = (d.dims(), d.levels(), d.proportions().cell_spacing(), dungeon_regions(d).count());
    let text = to_json(d);
    match from_json(&text) {
        Ok(back) if back == *d => {}
        other => return Err(format!("round trip: {:?}", other.map(|_| ()))),
    }
    let floors: Vec<_> = d.cells().filter(|&p| d.tile_def(p).is_ok_and(|t| t.walkable)).collect();
    let ends = d.entrance().zip(d.exit()).or_else(|| floors.first().copied().zip(floors.last().copied()));
    let route = ends.and_then(|(a, b)| find_path(d, a, b, &PathRules { open_doors: true }).ok().flatten());
    let _ = to_svg(d, &PlanOptions::default());
    let options = ExportOptions {
        route: route.map(|r| r.steps),
        colliders: case.is_multiple_of(3),
        ..Default::default()
    };
    let Ok(glb) = export::Export::new(d, &options).to_glb() else { return Ok(()) };
    check_glb(&glb)?;
    if case.is_multiple_of(8) {
        let name = if case.is_multiple_of(16) { "d.gltf" } else { "d.glb" };
        let summary = export::Export::new(d, &options)
            .to_file(&scratch.join(name))
            .map_err(|e| format!("export: {e}"))?;
        let mut left: Vec<_> = std::fs::read_dir(scratch).unwrap().map(|e| e.unwrap().path()).collect();
        left.sort();
        let mut written = summary.files.clone();
        written.sort();
        if left != written {
            return Err(format!("export left {left:?}, wrote {written:?}"));
        }
        written.iter().for_each(|p| std::fs::remove_file(p).unwrap());
    }
    Ok(())
}

/// Runs one mutated input through parsing and, when accepted, [`exercise`].
fn run_bytes(bytes: &[u8], case: u64, scratch: &Path) -> Result<(), String> {
    let parsed = match std::str::from_utf8(bytes) {
        Ok(text) => from_json(text),
        Err(_) => {
            let path = scratch.join("input.json");
            std::fs::write(&path, bytes).unwrap();
            let result = load(&path);
            std::fs::remove_file(&path).unwrap();
            result
        }
    };
    match parsed {
        Ok(d) => exercise(&d, case, scratch),
        Err(e) if e.to_string().is_empty() => Err("an error with an empty message".into()),
        Err(_) => Ok(()),
    }
}

/// Runs `family` for every case, catching panics; returns `(cases run, accepted, failures)`.
fn run_family(
    family: &str,
    mut one: impl FnMut(&mut Rng, u64, &Path) -> (bool, Vec<u8>, Result<(), String>),
) -> (u64, u64, Vec<String>) {
    let (first, cases) = (env_u64("OCTILE_FUZZ_SEED", 0), env_u64("OCTILE_FUZZ_CASES", 400));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let scratch =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{family}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let (mut accepted, mut failures) = (0, Vec::new());
    for case in first..first + cases {
        let mut rng = Rng(case ^ 0x5EED_0000_0000_0000);
        let result = catch_unwind(AssertUnwindSafe(|| one(&mut rng, case, &scratch)));
        let (ok, input, verdict) = match result {
            Ok(r) => r,
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                (false, Vec::new(), Err(format!("panic: {}", msg.unwrap_or_default())))
            }
        };
        accepted += u64::from(ok);
        if let Err(why) = verdict {
            std::fs::create_dir_all(&out).unwrap();
            std::fs::write(out.join(format!("{family}-{case}.json")), &input).unwrap();
            failures.push(format!("{family} case {case}: {why}"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!(
        "fuzz {family}: {cases} cases from seed {first}, {accepted} accepted, {} failed",
        failures.len()
    );
    (cases, accepted, failures)
}

#[test]
fn mutated_files_never_panic_and_export_valid_gltf() {
    let seeds = seed_files();
    let (cases, accepted, failures) = run_family("files", |rng, case, scratch| {
        let (_, text) = rng.pick(&seeds);
        let input = mutate(text, rng);
        let parses = std::str::from_utf8(&input).is_ok_and(|t| from_json(t).is_ok());
        let verdict = run_bytes(&input, case, scratch);
        (parses, input, verdict)
    });
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    assert!(cases < 20 || accepted > 0, "no mutated file was accepted: nothing was exported");
}

#[test]
fn random_proportions_are_refused_or_export_valid_gltf() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/two_levels.json"))
        .unwrap();
    let sample: Value = serde_json::from_str(&text).unwrap();
    let (cases, accepted, failures) = run_family("proportions", |rng, case, scratch| {
        let mut p: Proportions = serde_json::from_value(sample["proportions"].clone()).unwrap();
        for _ in 0..1 + rng.below(2) {
            let x = any_float(rng);
            match rng.below(6) {
                0 => p.base = x,
                1 => p.cut_ratio = x,
                2 => p.layer_height = x,
                3 => p.room_height = x,
                4 => p.door_width = x,
                _ => p.door_height = x,
            }
        }
        let input = format!("{p:?}").into_bytes();
        match Layout::new(p) {
            // Proportions the library accepts, a file accepts too, and the dungeon exports.
            Ok(_) => {
                let mut file = sample.clone();
                file["proportions"] = serde_json::to_value(p).unwrap();
                let verdict = match from_json(&file.to_string()) {
                    Ok(d) => exercise(&d, case, scratch),
                    Err(e) => Err(format!("valid proportions refused in a file: {e}")),
                };
                (true, input, verdict)
            }
            Err(e) if e.to_string().contains(' ') => (false, input, Ok(())),
            Err(e) => (false, input, Err(format!("unclear error {e}"))),
        }
    });
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    assert!(cases < 20 || accepted > 0, "no proportions were accepted: nothing was exported");
}
