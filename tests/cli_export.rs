//! `octile export` end to end: the two-level sample becomes a .glb that reads back.

mod support;

use std::process::Command;

use support::Scratch;

#[test]
fn export_writes_a_glb_and_refuses_bad_options() {
    let dir = Scratch::new("export_writes_a_glb_and_refuses_bad_options");
    let out = dir.join("two.glb");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json");
    let run = Command::new(env!("CARGO_BIN_EXE_octile"))
        .args(["export", sample, "-o"])
        .arg(&out)
        .args(["--texture-size", "2", "--no-lightmap-uv"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains("2 level(s)"));
    let g = gltf::Gltf::open(&out).unwrap();
    assert!(g.nodes().any(|n| n.name() == Some("Level_01")));
    assert!(
        g.meshes()
            .flat_map(|m| m.primitives().collect::<Vec<_>>())
            .all(|p| p.get(&gltf::Semantic::TexCoords(1)).is_none())
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_octile"))
        .args(["export", sample, "-o"])
        .arg(&out)
        .args(["--texture-size", "0"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--texture-size"));
}
