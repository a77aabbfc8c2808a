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
    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "1,2,2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("cost 4426 "), "{text}");
    assert!(text.contains("level 1, row 2, col 4"));

    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "0,0,0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no path"));

    let out = octile(&["path", "assets/two_levels.json", "--from", "0,2,0", "--to", "0,2,1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a cell"));
}
