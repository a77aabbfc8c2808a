//! The export flags for game objects on the command line: `--graph FILE` writes the full
//! room graph beside the glTF (as `octile info --json` lists it), `--lights`, `--markers`
//! and `--physics omi` reach the file, a `--graph` that would overwrite the glTF is
//! refused before anything is written, and the field report's commands (issue 25) give
//! colliders that are one closed surface and a navmesh of one piece per region.
#![cfg(feature = "cli")]
// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use serde_json::Value;
use support::{Scratch, run_octile, stderr};

fn json_chunk(path: &std::path::Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

#[test]
fn graph_lights_markers_and_omi_from_the_command_line() {
    let dir = Scratch::new("graph_lights_markers_and_omi_from_the_command_line");
    let (glb, graph, dungeon) = (dir.join("d.glb"), dir.join("d.graph.json"), dir.join("d.json"));
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let common = ["generate", "--seed", "7", "--levels", "2", "--octagons", "6x6", "--doors", "0.5"];
    let mut args: Vec<String> = common.iter().map(|a| a.to_string()).collect();
    args.extend(["-o", &s(&glb), "--graph", &s(&graph), "--save-dungeon", &s(&dungeon)].map(String::from));
    args.extend(["--lights", "--markers", "--physics", "omi"].map(String::from));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_octile(&refs, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let sidecar: Value = serde_json::from_slice(&std::fs::read(&graph).unwrap()).unwrap();
    let info = run_octile(&["info", "--json", &s(&dungeon)], &[]);
    let info: Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(sidecar["rooms"], info["rooms"]);
    assert_eq!(sidecar["portals"], info["portals"]);
    let doc = json_chunk(&glb);
    let used: Vec<&str> =
        doc["extensionsUsed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(used, ["OMI_physics_body", "OMI_physics_shape", "KHR_lights_punctual"]);
    let names: Vec<&str> =
        doc["nodes"].as_array().unwrap().iter().filter_map(|n| n["name"].as_str()).collect();
    for prefix in ["Door_", "Spawn_", "Prop_", "Torch_"] {
        assert!(names.iter().any(|n| n.starts_with(prefix)), "{prefix}");
    }
    // --graph onto the glTF itself is refused, and the glTF is left as it was.
    let before = std::fs::read(&glb).unwrap();
    let out = run_octile(&["generate", "--seed", "8", "-o", &s(&glb), "--graph", &s(&glb)], &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--graph"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&glb).unwrap(), before);
}

/// `--lights PRESET` writes that preset's intensity on every light (`godot3`: Godot 3.2
/// reads 1400 as attenuation 1, `tests/engines.rs`).
#[test]
fn lights_take_a_preset_by_name() {
    let dir = Scratch::new("lights_take_a_preset_by_name");
    for (name, want) in [("blender", 8000.0), ("godot", 2.0), ("godot3", 1400.0)] {
        let glb = dir.join(&format!("{name}.glb"));
        let common = [
            "generate",
            "--seed",
            "7",
            "--levels",
            "1",
            "--octagons",
            "5x5",
            &format!("--lights={name}"),
            "-o",
        ];
        let mut args = common.to_vec();
        args.push(glb.to_str().unwrap());
        let out = run_octile(&args, &[]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let lights = json_chunk(&glb)["extensions"]["KHR_lights_punctual"]["lights"].clone();
        let lights = lights.as_array().unwrap().clone();
        assert!(!lights.is_empty(), "{name}");
        assert!(lights.iter().all(|l| l["intensity"].as_f64() == Some(want)), "{name}: {lights:?}");
    }
}

/// World triangles of every node whose name ends with `suffix`, read back from `path`
/// (through each node's translation and its parent's).
fn world_triangles(path: &std::path::Path, suffix: &str) -> Vec<support::Tri> {
    let g = gltf::Gltf::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let blob = g.blob.as_deref().unwrap();
    let mut out = Vec::new();
    for node in g.nodes().filter(|n| n.name().is_some_and(|s| s.ends_with(suffix))) {
        let parent = g.nodes().find(|p| p.children().any(|c| c.index() == node.index())).unwrap();
        let t: Vec<f64> = (0..3)
            .map(|k| f64::from(parent.transform().decomposed().0[k] + node.transform().decomposed().0[k]))
            .collect();
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        let r = prim.reader(|_| Some(blob));
        let pos: Vec<[f64; 3]> =
            r.read_positions().unwrap().map(|p| [0, 1, 2].map(|k| f64::from(p[k]) + t[k])).collect();
        let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
        out.extend(idx.chunks_exact(3).map(|c| [0, 1, 2].map(|k| pos[c[k] as usize])));
    }
    out
}

/// Pieces of `tris` joined where two share an edge (corners within 0.1 mm are one).
fn pieces(tris: &[support::Tri]) -> usize {
    let key = |p: [f64; 3]| p.map(|x| (x * 1e4).round() as i64);
    let mut edges: Vec<([[i64; 3]; 2], usize)> = Vec::new();
    for (i, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let mut e = [key(t[k]), key(t[(k + 1) % 3])];
            e.sort();
            edges.push((e, i));
        }
    }
    edges.sort();
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for w in edges.chunk_by(|a, b| a.0 == b.0) {
        for e in &w[1..] {
            let (a, b) = (root(&mut parent, w[0].1), root(&mut parent, e.1));
            parent[a.max(b)] = a.min(b);
        }
    }
    (0..tris.len()).filter(|&i| root(&mut parent, i) == i).count()
}

#[test]
fn the_field_reports_commands_give_closed_colliders_and_one_navmesh_piece_per_region() {
    let dir =
        Scratch::new("the_field_reports_commands_give_closed_colliders_and_one_navmesh_piece_per_region");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    // Issue 25: the colliders of seed 7, welded across levels, are one closed surface.
    let glb = dir.join("d.glb");
    let out = run_octile(&["generate", "--seed", "7", "--colliders", "--navmesh", "-o", &s(&glb)], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    support::assert_watertight(&world_triangles(&glb, "-colonly"), "seed 7 colliders");
    let nav = world_triangles(&glb, "-navmesh");
    assert_eq!(pieces(&nav), 1, "seed 7 is one region");
    for t in &nav {
        let [a, b, c] = t.map(glam::DVec3::from);
        let n = (b - a).cross(c - a);
        let slope = (n.y.abs() / n.length()).acos().to_degrees();
        assert!(slope <= octile::export::NAVMESH_MAX_SLOPE_DEGREES + 1e-3, "{slope} degrees: {t:?}");
    }
    // Two stairs side by side on an all-floor start: one region, one navmesh piece.
    let (json, glb) = (dir.join("r.json"), dir.join("r.glb"));
    let steps: [&[&str]; 3] = [
        &["new", "--octagons", "3x2", "--levels", "2", "--fill", "floor", "-o", &s(&json)],
        &["edit", &s(&json), "--do", "stair 0,0,0", "--do", "stair 0,0,2"],
        &["export", &s(&json), "--navmesh", "-o", &s(&glb)],
    ];
    for args in steps {
        let out = run_octile(args, &[]);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(pieces(&world_triangles(&glb, "-navmesh")), 1, "one region, one piece");
}

/// Issue 25: `--lights` took the next word as its preset (`export --lights d.json -o x.glb`
/// read `d.json` as one); a preset now needs `--lights=PRESET`.
#[test]
fn lights_leaves_the_next_word_alone() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lights_leaves_the_next_word_alone");
    std::fs::create_dir_all(&dir).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    let out = dir.join("x.glb");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_octile"))
        .args(["export", "--lights", sample, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let godot = std::process::Command::new(env!("CARGO_BIN_EXE_octile"))
        .args(["export", sample, "--lights=godot", "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(godot.status.success(), "{}", String::from_utf8_lossy(&godot.stderr));
    let glb = std::fs::read(&out).unwrap();
    let name = b"KHR_lights_punctual";
    assert!(glb.windows(name.len()).any(|w| w == name), "the lights are written");
}
