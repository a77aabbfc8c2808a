//! The `octile` binary: `new`, `info --json` and `validate`, run as a user would.

mod support;

use std::process::{Command, Output};

use support::Scratch;

fn octile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octile")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn new_then_info_json() {
    let dir = Scratch::new("new_then_info_json");
    let path = dir.join("floor.json");
    let p = path.to_str().unwrap();
    let o =
        octile(&["new", "--octagons", "10x7", "--levels", "2", "--fill", "floor", "--cut", "0.29", "-o", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = octile(&["info", p, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["slots"], serde_json::json!([13, 19]), "[rows, cols] of one level");
    assert_eq!(v["levels"], 2);
    assert_eq!(v["octagons"], 140);
    assert_eq!(v["connectors"], 2 * 9 * 6);
    assert_eq!(v["floor_cells"], 140 + 108);
    assert_eq!(v["regions"], 2, "two levels without stairs");
    let prop = &v["proportions"];
    assert_eq!(prop["cut_ratio"], 0.29);
    let k = 0.29 * 12.8;
    assert!((prop["long_edge"].as_f64().unwrap() - (12.8 - 2.0 * k)).abs() < 1e-9);
    for key in ["base", "layer_height", "room_height", "cell_spacing", "short_edge", "seam_gap"] {
        assert!(prop[key].as_f64().is_some(), "{key}");
    }
    let o = octile(&["info", p]);
    assert!(stdout(&o).contains("10x7 octagons"), "{}", stdout(&o));
}

#[test]
fn new_solid_has_no_floor() {
    let dir = Scratch::new("new_solid_has_no_floor");
    let path = dir.join("solid.json");
    let p = path.to_str().unwrap();
    assert!(octile(&["new", "--octagons", "3x4", "-o", p]).status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&octile(&["info", p, "--json"]))).unwrap();
    assert_eq!(v["floor_cells"], 0);
    assert_eq!(v["regions"], 0);
    assert_eq!(v["slots"], serde_json::json!([7, 5]));
}

#[test]
fn sample_info_counts_regions_across_the_stair() {
    let o = octile(&["info", "assets/two_levels.json", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["regions"], 1);
    assert_eq!(v["floor_cells"], 7);
    assert_eq!(v["levels"], 2);
}

/// Issue 25: the text said nothing of the entrance, the exit or the stairs.
#[test]
fn info_text_names_the_entrance_exit_and_stairs() {
    let o = octile(&["info", "assets/two_levels.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&octile(&["info", "assets/two_levels.json", "--json"]))).unwrap();
    let at = |key: &str| match &v[key] {
        serde_json::Value::Null => "none".to_string(),
        p => format!("level {}, row {}, col {}", p[0], p[1], p[2]),
    };
    assert_eq!((at("entrance").as_str(), at("exit").as_str()), ("level 0, row 2, col 0", "none"));
    assert!(text.contains(&format!("  entrance    {}\n", at("entrance"))), "{text}");
    assert!(text.contains(&format!("  exit        {}\n", at("exit"))), "{text}");
    assert!(text.contains("  stairs      level 0, row 2, col 4 (up to level 1)\n"), "{text}");
}

#[test]
fn validate_accepts_samples_and_lists_problems() {
    let dir = Scratch::new("validate_accepts_samples_and_lists_problems");
    for s in ["assets/plus_arena.json", "assets/l_bend.json", "assets/two_levels.json"] {
        let o = octile(&["validate", s]);
        assert!(o.status.success(), "{s}: {}", stdout(&o));
    }
    let text = std::fs::read_to_string("assets/two_levels.json").unwrap();
    let bad = text.replacen("\"|#|#|\",\n        \".o.oS\"", "\"|S|#|\",\n        \".o.o?\"", 1);
    assert_ne!(bad, text);
    let path = dir.join("bad.json");
    std::fs::write(&path, bad).unwrap();
    let o = octile(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("level 0: row 2, col 4: unknown tile symbol '?'"), "{out}");
    assert!(out.contains("2 problem(s)") || stderr(&o).contains("2 problem(s)"), "{out}");
}

#[test]
fn bad_input_exits_non_zero_with_a_message() {
    let dir = Scratch::new("bad_input_exits_non_zero_with_a_message");
    let o = octile(&["info", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no/such/file.json"), "{}", stderr(&o));
    let o = octile(&["new", "--octagons", "0x3"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("at least 1"), "{}", stderr(&o));
    let o = octile(&["new", "--cut", "0.6"]);
    assert_eq!(o.status.code(), Some(2), "refused by the argument parser");
    assert!(stderr(&o).contains("--cut") && stderr(&o).contains("0.112..=0.421"), "{}", stderr(&o));
    let o = octile(&["new", "--levels", "0"]);
    assert_eq!(o.status.code(), Some(1));
    let path = dir.join("not-json.json");
    std::fs::write(&path, "hello").unwrap();
    let o = octile(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("line 1"), "{}", stdout(&o));
}

/// Issue 25: `edge ... door` between floor and rock was accepted and `validate` said ok,
/// while the export still has the wall there. `validate` warns (the file stays valid).
#[test]
fn validate_warns_of_a_passage_into_rock() {
    use octile::dungeon::{Dungeon, Fill, Registry};
    use octile::grid::{Direction, Pos};
    let dir = Scratch::new("validate_warns_of_a_passage_into_rock");
    let mut d = Dungeon::new(2, 1, 1, octile::geometry::Proportions::default(), Fill::Solid).unwrap();
    d.set_tile(Pos::new(0, 0, 0), Registry::FLOOR).unwrap();
    d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
    let path = dir.join("into-rock.json");
    octile::format::save(&d, &path).unwrap();
    let o = octile(&["validate", path.to_str().unwrap()]);
    assert!(o.status.success(), "a warning, not a problem: {}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "warning: level 0, row 0, col 0: wall E is \"door\", but level 0, row 0, col 2 beyond it is rock"
        ),
        "{out}"
    );
    assert!(out.contains("ok (1 level(s), 2x1 octagons, 1 warning(s))"), "{out}");
    let o = octile(&["validate", "assets/plus_arena.json"]);
    assert!(!stdout(&o).contains("warning"), "{}", stdout(&o));
    // `octile edit` says so when it writes such a file.
    let edited = dir.join("edited.json");
    let p = path.to_str().unwrap();
    let o = octile(&["edit", p, "--do", "edge 0,0,0 e open", "-o", edited.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: level 0, row 0, col 0: wall E is \"open\""), "{}", stderr(&o));
}

#[test]
fn validate_proves_a_mission_and_info_flow_reports_it() {
    let dir = Scratch::new("validate_proves_a_mission");
    let path = dir.join("m.json");
    let p = path.to_str().unwrap();
    support::generate_mission_file("one-level.json", 24, 1, &path);
    let o = octile(&["validate", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("flow holds (3 lock(s), 3 key(s)"), "{}", stdout(&o));
    let o = octile(&["info", p, "--flow", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!((v["holds"].clone(), v["cycles"].clone()), (serde_json::json!(true), serde_json::json!(2)));
    assert_eq!(v["critical_path"]["locks"], serde_json::json!([1, 2, 3]));
    assert_eq!(v["key_route"]["nonlinearity"], 2, "{}", v["key_route"]);
    let o = octile(&["info", p, "--flow"]);
    assert!(
        stdout(&o).contains("key route     12 room(s) entered, 2 of them more than once"),
        "{}",
        stdout(&o)
    );
    // An export's --graph file holds the same report as `mission`.
    let (glb, graph) = (dir.join("m.glb"), dir.join("graph.json"));
    let o = octile(&["export", p, "-o", glb.to_str().unwrap(), "--graph", graph.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let sidecar: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&graph).unwrap()).unwrap();
    assert_eq!(sidecar["mission"], v, "the --graph file's mission is info --flow --json's report");
    // The key of lock 1 moved onto the exit's cell: behind its own lock.
    let mut d: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    d["keys"][0]["at"] = d["exit"].clone();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, d.to_string()).unwrap();
    let o = octile(&["validate", broken.to_str().unwrap()]);
    assert!(!o.status.success(), "a broken flow fails validate");
    assert!(stdout(&o).contains("flow: the goal at"), "{}", stdout(&o));
    assert!(stderr(&o).contains("the flow does not hold"), "{}", stderr(&o));
}
