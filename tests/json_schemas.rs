//! The JSON the project reads and writes against its schemas in docs/, checked by Ajv (npm
//! `ajv`, strict mode, run by `tools/check_schema.mjs`), not by code of ours:
//!
//! - every room-graph spec in tests/ and every built-in grammar's spec validates against
//!   docs/flow.schema.json;
//! - the mission report (`octile info --flow --json`, the `--graph` file's `mission`) of
//!   realised missions, of a broken one and of a dungeon with locks but no room table
//!   validates against docs/mission.schema.json;
//! - a report with a misspelt field or a wrong type is refused (the negative control).
//!
//! Without node or the package the tests show `SKIPPED ...` and pass, unless
//! `SCHEMA_CHECK_REQUIRED=1` (set by `.ci/run`) makes that a failure.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use octile::dungeon::{Dungeon, Fill, Mechanism};
use octile::flow::Grammar;
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether Ajv can run; `Err` says why not.
fn ajv_ready() -> Result<(), String> {
    let tools = root().join("tools");
    if !tools.join("node_modules/ajv").is_dir() {
        return Err(format!("{} has no node_modules/ajv (run `npm ci` there)", tools.display()));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err("node is not installed (the schema check runs on node)".into()),
    }
}

/// Runs the checker on `files` against `schema` (relative to the repository root): per file
/// whether it is valid, and the checker's output.
fn check(schema: &str, files: &[PathBuf]) -> (Vec<bool>, String) {
    let out = Command::new("node")
        .arg(root().join("tools/check_schema.mjs"))
        .arg(root().join(schema))
        .args(files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "the checker could not run: {text}");
    let verdicts = files
        .iter()
        .map(|f| {
            let line = format!("{} ", f.display());
            let said = text.lines().find(|l| l.starts_with(&line)).unwrap_or_else(|| panic!("{text}"));
            said.ends_with(" ok")
        })
        .collect();
    (verdicts, text)
}

fn write(dir: &Path, name: &str, value: &serde_json::Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
    path
}

#[test]
fn every_spec_validates_against_the_flow_schema() {
    if let Err(why) = ajv_ready() {
        return support::skip("every_spec_validates_against_the_flow_schema", &why, "SCHEMA_CHECK_REQUIRED");
    }
    let dir = support::Scratch::new("every_spec_validates_against_the_flow_schema");
    let mut files: Vec<PathBuf> = Vec::new();
    for folder in ["tests/flow_specs", "tests/mission_specs", "tests/missions"] {
        let mut here: Vec<PathBuf> =
            std::fs::read_dir(root().join(folder)).unwrap().map(|e| e.unwrap().path()).collect();
        here.sort();
        files.extend(here);
    }
    assert!(files.len() >= 53, "{} spec files", files.len());
    for grammar in Grammar::ALL {
        for (size, levels) in [(16, 1), (32, 3)] {
            let spec = octile::flow::write(grammar, size, size, levels, 2, 1).unwrap();
            let name = format!("{}-{size}x{size}x{levels}.json", grammar.name());
            let value: serde_json::Value = serde_json::from_str(&spec.to_json()).unwrap();
            files.push(write(dir.path(), &name, &value));
        }
    }
    let (valid, text) = check("docs/flow.schema.json", &files);
    assert!(valid.iter().all(|&v| v), "{text}");
    // The negative control: a room with a field the spec does not have.
    let mut wrong: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    wrong["rooms"][0]["colour"] = "red".into();
    let (valid, text) = check("docs/flow.schema.json", &[write(dir.path(), "wrong.json", &wrong)]);
    assert_eq!(valid, [false], "{text}");
}

/// A dungeon with a locked door, its key and no room table: a report without the room
/// graph's parts.
fn locks_without_rooms() -> Dungeon {
    let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor).unwrap();
    let locked = d.mission_state(Mechanism::Locked).unwrap();
    d.set_edge(Pos::new(0, 0, 2), Direction::E, locked).unwrap();
    d.set_lock(Pos::new(0, 0, 2), Direction::E, Some(1)).unwrap();
    d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
    d.set_exit(Some(Pos::new(0, 0, 4))).unwrap();
    d.set_key(1, Some(Pos::new(0, 0, 0))).unwrap();
    d
}

#[test]
fn mission_reports_validate_against_the_mission_schema() {
    if let Err(why) = ajv_ready() {
        return support::skip(
            "mission_reports_validate_against_the_mission_schema",
            &why,
            "SCHEMA_CHECK_REQUIRED",
        );
    }
    let dir = support::Scratch::new("mission_reports_validate_against_the_mission_schema");
    let mut reports = Vec::new();
    for (name, size, levels) in [("one-level.json", 24, 1), ("three-levels.json", 32, 3)] {
        let mut d = support::realised_mission(name, size, levels, 1);
        reports.push((format!("{name}.report.json"), octile::flow::report(&d).unwrap()));
        // Broken: a key taken away, so the proof fails and the key route is gone.
        d.set_key(1, None).unwrap();
        let broken = octile::flow::report(&d).unwrap();
        assert_eq!(broken["holds"], false);
        assert!(broken["key_route"]["nonlinearity"].is_null(), "{}", broken["key_route"]);
        reports.push((format!("{name}.broken.json"), broken));
    }
    let bare = octile::flow::report(&locks_without_rooms()).unwrap();
    assert!(bare.get("key_route").is_none() && bare["holds"] == true, "{bare}");
    reports.push(("bare.json".into(), bare));
    let files: Vec<PathBuf> = reports.iter().map(|(n, v)| write(dir.path(), n, v)).collect();
    let (valid, text) = check("docs/mission.schema.json", &files);
    assert!(valid.iter().all(|&v| v), "{text}");
    // The negative controls: a misspelt field, a wrong type, a cell of two numbers.
    let good = &reports[0].1;
    let mut misspelt = good.clone();
    misspelt["key_route"]["nonlinear"] = 1.into();
    let mut typed = good.clone();
    typed["holds"] = "yes".into();
    let mut short = good.clone();
    short["keys"][0]["at"] = serde_json::json!([0, 4]);
    let files: Vec<PathBuf> = [("misspelt", misspelt), ("typed", typed), ("short", short)]
        .iter()
        .map(|(n, v)| write(dir.path(), &format!("{n}.json"), v))
        .collect();
    let (valid, text) = check("docs/mission.schema.json", &files);
    assert_eq!(valid, [false, false, false], "{text}");
}
