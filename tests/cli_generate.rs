//! The `wfc`, `generate` and `plan` subcommands, run as a user would.

// Times the process it tests (a deadline, not an output); clippy.toml keeps `Instant` out of
// the library.
#![allow(clippy::disallowed_types)]

mod support;

use std::process::Command;

use octile::wfc::square17::derive_masks;
use support::Scratch;

fn octile() -> Command {
    Command::new(env!("CARGO_BIN_EXE_octile"))
}

#[test]
fn wfc_square17_prints_masks_that_obey_the_socket_rule() {
    let out =
        octile().args(["wfc", "--tileset", "square17", "--size", "32x20", "--seed", "3"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20);
    let cells: Vec<Option<u8>> = lines
        .iter()
        .flat_map(|l| {
            assert_eq!(l.len(), 32);
            l.chars().map(|c| if c == '#' { None } else { Some(c.to_digit(16).unwrap() as u8) })
        })
        .collect();
    let floor: Vec<bool> = cells.iter().map(Option::is_some).collect();
    // Masks equal the walls the floor map implies: exactly the F-F / W-E / E-E rule.
    assert_eq!(cells, derive_masks(&floor, 32, 20));
    let again = octile().args(["wfc", "--size", "32x20", "--seed", "3"]).output().unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text, "square17 is the default and deterministic");
}

#[test]
fn wfc_octile_and_bad_weights() {
    let out = octile().args(["wfc", "--tileset", "octile", "--size", "6x4", "--seed", "1"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 7);
    let out = octile().args(["wfc", "--size", "8x8", "--void-weight=-2"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--void-weight") && err.contains("negative"), "{err}");
    // The weight flags are the generator's: connector weights shape the octile set only.
    let args = ["wfc", "--tileset", "octile", "--size", "6x4", "--seed", "1"];
    let open =
        octile().args(args).args(["--connector-void-weight", "0", "--void-weight", "0"]).output().unwrap();
    assert!(open.status.success(), "{}", String::from_utf8_lossy(&open.stderr));
    let text = String::from_utf8(open.stdout).unwrap();
    assert!(!text.contains('#'), "no solid tile or connector with both void weights at 0:\n{text}");
    let out = octile().args(["wfc", "--size", "8x8", "--connector-open-weight", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("octile tile set only"));
}

#[test]
fn generate_writes_json_and_plan_draws_it() {
    let dir = Scratch::new("generate_writes_json_and_plan_draws_it");
    let json = dir.join("d.json");
    let copy = dir.join("copy.json");
    let out = octile()
        .args(["generate", "--seed", "4", "--levels", "2", "--octagons", "8x6", "--loops", "1", "-o"])
        .arg(&json)
        .arg("--save-dungeon")
        .arg(&copy)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d = octile::format::load(&json).unwrap();
    assert_eq!(d.levels(), 2);
    assert_eq!(d.seed(), Some(4));
    assert!(d.entrance().is_some() && d.exit().is_some());
    assert_eq!(std::fs::read(&json).unwrap(), std::fs::read(&copy).unwrap());
    let valid = octile().arg("validate").arg(&json).output().unwrap();
    assert!(valid.status.success());

    let svg = dir.join("plan.svg");
    let out = octile().arg("plan").arg(&json).arg("-o").arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("level-1"));
}

#[test]
fn generate_writes_glb_and_refuses_bad_options() {
    let dir = Scratch::new("generate_writes_glb_and_refuses_bad_options");
    let glb = dir.join("d.glb");
    let json = dir.join("d.json");
    let out = octile()
        .args(["generate", "--seed", "9", "-o"])
        .arg(&glb)
        .arg("--save-dungeon")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc = gltf::Gltf::from_slice(&std::fs::read(&glb).unwrap()).unwrap();
    let names: Vec<_> = doc.nodes().filter_map(|n| n.name().map(str::to_owned)).collect();
    for want in ["Dungeon", "Level_00", "Level_01", "Level_02", "Entrance", "Exit"] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    let d = octile::format::load(&json).unwrap();
    assert_eq!(d.seed(), Some(9));
    let (e, x) = (d.entrance().unwrap(), d.exit().unwrap());
    let route =
        format!("{},{},{}:{},{},{}", e.level, e.slot.row, e.slot.col, x.level, x.slot.row, x.slot.col);
    let with_path = dir.join("p.glb");
    let out = octile()
        .args(["export"])
        .arg(&json)
        .arg("-o")
        .arg(&with_path)
        .args(["--path", &route])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc = gltf::Gltf::from_slice(&std::fs::read(&with_path).unwrap()).unwrap();
    assert!(doc.nodes().any(|n| n.name() == Some("Path")));
    let out = octile()
        .args(["export"])
        .arg(&json)
        .arg("-o")
        .arg(&with_path)
        .args(["--path", "0,0,1:0,0,0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--path"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = octile().args(["generate", "--stairs", "500", "-o"]).arg(dir.join("e.json")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("more stairs than octagons"));
    let out =
        octile().args(["generate", "--octagons", "0x4", "-o"]).arg(dir.join("f.json")).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_save_dungeon_that_cannot_be_written_changes_no_file() {
    let dir = Scratch::new("a_save_dungeon_that_cannot_be_written_changes_no_file");
    let glb = dir.join("d.glb");
    let unwritable = dir.join("no").join("such").join("dir").join("d.json");
    let out = octile()
        .args(["generate", "--seed", "1", "--octagons", "4x4", "--levels", "2", "-o"])
        .arg(&glb)
        .arg("--save-dungeon")
        .arg(&unwritable)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("d.json"));
    assert!(!glb.exists(), "the main output is not written when the dungeon file cannot be");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "no temporary file left behind: {left:?}");
}

/// Stairs scale with the level's area when `--stairs` is not given: in a maze 2 per level
/// pair on 12x12, 4 on 32x32 (one per 256 octagons), and `--stairs` still decides when
/// given; a room graph's grammar asks for as many, but one per six rooms of a level at most
/// (1 on 12x12, 2 on 32x32).
#[test]
fn stairs_per_level_pair_scale_with_the_level_area() {
    let dir = Scratch::new("stairs_per_level_pair_scale_with_the_level_area");
    let stairs = |size: &str, extra: &[&str]| {
        let out = dir.join(&format!("{size}{}.json", extra.len()));
        let mut args = vec!["generate", "--seed", "3", "--levels", "2", "--octagons", size, "-o"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let run = octile().args(&args).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        octile::format::load(&out).unwrap().stairs().iter().count()
    };
    assert_eq!(stairs("12x12", &["--flow", "maze"]), 2);
    assert_eq!(stairs("32x32", &["--flow", "maze"]), 4);
    assert_eq!(stairs("32x32", &["--flow", "maze", "--stairs", "3"]), 3);
    assert_eq!(stairs("12x12", &[]), 1);
    assert_eq!(stairs("32x32", &[]), 2);
    assert_eq!(stairs("32x32", &["--stairs", "1"]), 1);
    assert_eq!(octile::generate::GenerateOptions::stairs_for_area(64, 64), 16);
}

/// Issue 25: `generate --octagons 300x300 --levels 64` worked for 51 s without a word when
/// standard error was not a terminal (no bar can be drawn there). A job that runs past two
/// seconds now says each stage on a line of its own. The assertion needs a run that long,
/// which a fast machine may not take: it is checked only then.
#[test]
fn a_long_generation_says_its_stages_off_a_terminal() {
    let dir = Scratch::new("a_long_generation_says_its_stages_off_a_terminal");
    let started = std::time::Instant::now();
    let out = octile()
        .args(["generate", "--flow", "maze", "--octagons", "160x160", "--levels", "4", "-o"])
        .arg(dir.join("g.json"))
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let stages: Vec<&str> = err.lines().filter(|l| l.ends_with("...")).collect();
    assert!(
        stages.len() <= 2 && stages.iter().all(|l| ["generating...", "connecting..."].contains(l)),
        "{err}"
    );
    if took > std::time::Duration::from_secs(4) {
        assert!(!stages.is_empty(), "{took:?} without a word: {err}");
    }
}

/// `generate --ramps` cuts a ramp on each level pair, `info` lists them, the plan draws them
/// and `path` routes from a ramp's foot to its top by the ramp.
#[test]
fn generate_ramps_and_route_up_one() {
    let dir = Scratch::new("generate_ramps_and_route_up_one");
    let json = dir.join("r.json");
    let args = ["generate", "--seed", "1", "--octagons", "12x12", "--levels", "3", "--ramps", "-o"];
    let run = octile().args(args).arg(&json).output().unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(err.contains("ramps: 2 joining 2 of 2 level pairs"), "{err}");
    let info = octile().args(["info", "--json"]).arg(&json).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    let ramps = v["columns"]["ramps"].as_array().unwrap().clone();
    assert_eq!(ramps.len(), 2, "{v}");
    let text = String::from_utf8(octile().arg("info").arg(&json).output().unwrap().stdout).unwrap();
    assert!(text.contains("ramps: ") && !text.contains("ramps: none"), "{text}");
    let svg = dir.join("r.svg");
    let plan = octile().arg("plan").arg(&json).arg("-o").arg(&svg).output().unwrap();
    assert!(plan.status.success(), "{}", String::from_utf8_lossy(&plan.stderr));
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches(r#"<g class="ramp""#).count(), 2);
    let cell = |r: &serde_json::Value, at: usize| format!("{},{},{}", r[at], r[at + 1], r[at + 2]);
    let (foot, top) = (cell(&ramps[0], 0), cell(&ramps[0], 4));
    let path = octile().args(["path", "--json", "--from", &foot, "--to", &top]).arg(&json).output().unwrap();
    assert!(path.status.success(), "{}", String::from_utf8_lossy(&path.stderr));
    let route: serde_json::Value = serde_json::from_slice(&path.stdout).unwrap();
    // Foot, the two octagons under the ramp, its top: two long steps and the climb.
    assert_eq!(route["steps"].as_array().unwrap().len(), 4, "{route}");
    assert_eq!(route["cost"], 3129, "{route}");
}
