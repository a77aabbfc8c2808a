//! The `wfc`, `generate` and `plan` subcommands, run as a user would.

use std::path::PathBuf;
use std::process::Command;

use octile::wfc::square17::derive_masks;

fn octile() -> Command {
    Command::new(env!("CARGO_BIN_EXE_octile"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octile-cli-wfc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("void_weight"));
}

#[test]
fn generate_writes_json_and_plan_draws_it() {
    let json = temp("d.json");
    let copy = temp("copy.json");
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

    let svg = temp("plan.svg");
    let out = octile().arg("plan").arg(&json).arg("-o").arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("level-1"));
}

#[test]
fn generate_refuses_glb_for_now_and_bad_options() {
    let out = octile().args(["generate", "-o"]).arg(temp("d.glb")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("glb export not available yet"));
    let out = octile().args(["generate", "--stairs", "500", "-o"]).arg(temp("e.json")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("more stairs than octagons"));
    let out = octile().args(["generate", "--octagons", "0x4", "-o"]).arg(temp("f.json")).output().unwrap();
    assert!(!out.status.success());
}
