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
}

/// Exit status of `octile path` when there is no route (documented in its `--help`).
const NO_ROUTE: i32 = 3;
/// Exit status of `octile path` for a position that is not a cell of the dungeon.
const BAD_POSITION: i32 = 2;

#[test]
fn no_route_and_bad_positions_have_their_own_exit_status() {
    let path = |from: &str, to: &str| octile(&["path", "assets/two_levels.json", "--from", from, "--to", to]);
    let out = path("0,2,0", "0,0,0");
    assert_eq!(out.status.code(), Some(NO_ROUTE));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no path") && err.contains("level 0, row 0, col 0 is not floor"), "{err}");

    // A Void slot, a level past the top, a row past the edge: each names the flag.
    for (from, to, flag, says) in [
        ("0,2,0", "0,2,1", "--to", "not a cell"),
        ("9,2,0", "0,2,0", "--from", "level 9"),
        ("0,2,0", "0,99,0", "--to", "row 99"),
    ] {
        let out = path(from, to);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(BAD_POSITION), "{from} -> {to}: {err}");
        assert!(err.contains(&format!("bad {flag}")) && err.contains(says), "{err}");
    }
    // A malformed position is refused by the argument parser with the same status.
    assert_eq!(path("0,2", "0,2,0").status.code(), Some(BAD_POSITION));
    // An unreadable file is neither.
    let out = octile(&["path", "assets/no_such_file.json", "--from", "0,2,0", "--to", "0,2,0"]);
    assert_eq!(out.status.code(), Some(1));

    let help = octile(&["path", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("Exit status") && help.contains("3  no route") && help.contains("2  --from or --to"),
        "{help}"
    );
}

#[test]
fn routes_open_doors_unless_told_to_keep_them_closed() {
    use octile::dungeon::{Dungeon, Fill, Registry};
    use octile::grid::{Direction, Pos};
    let mut d = Dungeon::new(2, 1, 1, octile::geometry::Proportions::default(), Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_path_door.json");
    octile::format::save(&d, &file).unwrap();
    let file = file.to_str().unwrap();
    let route = serde_json::json!({"cost": 1000, "steps": [[0, 0, 0], [0, 0, 2]]});
    // By default the route opens the closed door, as a walker would.
    let out = octile(&["path", file, "--from", "0,0,0", "--to", "0,0,2", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(), route);
    // --closed-doors keeps to what is walkable now, and says what blocks it.
    let out = octile(&["path", file, "--from", "0,0,0", "--to", "0,0,2", "--json", "--closed-doors"]);
    assert_eq!(out.status.code(), Some(NO_ROUTE));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("closed doors block it") && err.contains("leave out --closed-doors"), "{err}");
    // The old --open-doors still runs (it is the default now).
    let out = octile(&["path", file, "--from", "0,0,0", "--to", "0,0,2", "--json", "--open-doors"]);
    assert!(out.status.success());
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(), route);
}

/// Generated doors start closed; seed 1 needs at least one of them opened.
#[test]
fn a_generated_dungeon_has_a_route_from_entrance_to_exit_by_default() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_path_generated");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("d.json");
    let file = file.to_str().unwrap();
    let out = octile(&["generate", "--seed", "1", "--octagons", "6x6", "--levels", "2", "-o", file]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d = octile::format::load(std::path::Path::new(file)).unwrap();
    let (a, b) = (d.entrance().unwrap(), d.exit().unwrap());
    let pos = |p: octile::grid::Pos| format!("{},{},{}", p.level, p.slot.row, p.slot.col);
    let out = octile(&["path", file, "--from", &pos(a), "--to", &pos(b)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("cost "));
}
