//! The `octile path` command on the sample dungeons.

use std::process::Command;

fn octile(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_octile")).args(args).output().unwrap()
}

#[test]
fn json_route_climbs_the_stair() {
    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "1,0,4", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Two long steps to the stair, the stair (1426), one long step north on level 1.
    assert_eq!(v["cost"], 4426);
    let steps = serde_json::json!([[0, 2, 0], [0, 2, 2], [0, 2, 4], [1, 2, 4], [1, 0, 4]]);
    assert_eq!(v["steps"], steps);
}

#[test]
fn text_output_and_failures() {
    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "1,0,2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("cost 5426 "), "{text}");
    assert!(text.contains("level 1, row 2, col 4"));

    // West of the stair's top on level 1: not across the shaft's hole (the stair leaves
    // north; its open west side is a drop), but round by the north: 2000 + 1426 + 3 long steps.
    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "1,2,2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("cost 6426 "), "{text}");
    assert!(text.contains("level 1, row 0, col 2"), "{text}");

    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "0,0,0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no path") && err.contains("level 0, row 0, col 0 is not floor"), "{err}");

    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "0,2,1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a cell"));
}

#[test]
fn closed_door_hint_and_open_doors_flag() {
    use octile::dungeon::{Dungeon, Fill, Registry};
    use octile::grid::{Direction, Pos};
    let mut d = Dungeon::new(2, 1, 1, octile::geometry::Proportions::default(), Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_path_door.json");
    octile::format::save(&d, &file).unwrap();
    let file = file.to_str().unwrap();
    let out = octile(&["path", file, "--from", "0,0,0", "--to", "0,0,2", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("try --open-doors"));
    let out = octile(&["path", file, "--from", "0,0,0", "--to", "0,0,2", "--json", "--open-doors"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, serde_json::json!({"cost": 1000, "steps": [[0, 0, 0], [0, 0, 2]]}));
}
