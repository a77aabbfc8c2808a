//! The export flags for game objects on the command line: `--graph FILE` writes the full
//! room graph beside the glTF (as `octile info --json` lists it), `--lights`, `--markers`
//! and `--physics omi` reach the file, and a `--graph` that would overwrite the glTF is
//! refused before anything is written.
#![cfg(feature = "cli")]

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
