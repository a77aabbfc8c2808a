//! `octile sight` and `octile plan --fov` on the sample dungeons, checked against the
//! library's answers.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use octile::grid::Pos;
use octile::sight::{field_of_view, line_of_sight};
use support::Scratch;

const SAMPLE: &str = "assets/two_levels.json";

/// Exit status of `octile sight` for a bad flag or position (documented in its `--help`).
const BAD_INPUT: i32 = 2;

fn octile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octile")).args(args).output().expect("the binary runs")
}

fn sample() -> octile::dungeon::Dungeon {
    octile::format::load(Path::new(SAMPLE)).unwrap()
}

#[test]
fn pairs_print_whether_they_see_each_other() {
    let d = sample();
    for (from, to, a, b) in [
        ("0,2,0", "0,2,4", Pos::new(0, 2, 0), Pos::new(0, 2, 4)),
        ("1,0,2", "1,2,4", Pos::new(1, 0, 2), Pos::new(1, 2, 4)),
    ] {
        let want = line_of_sight(&d, a, b).unwrap();
        let out = octile(&["sight", SAMPLE, "--from", from, "--to", to, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["visible"], want, "{from} -> {to}");
        assert_eq!(v["to"], serde_json::json!([b.level, b.slot.row, b.slot.col]));
        let text = String::from_utf8(octile(&["sight", SAMPLE, "--from", from, "--to", to]).stdout).unwrap();
        let verb = if want { " sees " } else { " does not see " };
        assert_eq!(text, format!("{a}{verb}{b}\n"));
    }
    // The corridor sees along itself; the ring on level 1 does not see across its rock middle.
    assert!(line_of_sight(&d, Pos::new(0, 2, 0), Pos::new(0, 2, 4)).unwrap());
    assert!(!line_of_sight(&d, Pos::new(1, 0, 2), Pos::new(1, 2, 4)).unwrap());
}

#[test]
fn a_radius_lists_the_field_of_view() {
    let d = sample();
    let viewer = Pos::new(1, 0, 2);
    let want: Vec<[u32; 3]> =
        field_of_view(&d, viewer, 30.0).unwrap().iter().map(|s| [1, s.row, s.col]).collect();
    assert!(want.len() >= 2);
    let out = octile(&["sight", SAMPLE, "--from", "1,0,2", "--radius", "30", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cells"], serde_json::json!(want));
    let text =
        String::from_utf8(octile(&["sight", SAMPLE, "--from", "1,0,2", "--radius", "30"]).stdout).unwrap();
    assert!(text.starts_with(&format!("{} cells visible from {viewer} within 30 m\n", want.len())), "{text}");
    assert_eq!(text.lines().count(), want.len() + 1);
}

#[test]
fn bad_positions_and_flags_exit_non_zero_with_a_message() {
    for (args, says) in [
        (&["--from", "0,2,1", "--to", "0,2,0"][..], "bad --from"),
        (&["--from", "0,2,0", "--to", "9,0,0"][..], "bad --to"),
        (&["--from", "0,2,0", "--storeys"][..], "--radius"),
        (&["--from", "0,2,0", "--radius=-1"][..], "radius"),
        (&["--from", "0,2,0"][..], "--to"),
        (&["--from", "0,2,0", "--to", "0,2,2", "--radius", "3"][..], "cannot be used with"),
        (&["--from", "0,2", "--to", "0,2,2"][..], "LEVEL,ROW,COL"),
    ] {
        let mut all = vec!["sight", SAMPLE];
        all.extend_from_slice(args);
        let out = octile(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(BAD_INPUT), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = octile(&["sight", "no-such-file.json", "--from", "0,0,0", "--to", "0,0,2"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn plan_fov_shades_the_visible_cells() {
    let dir = Scratch::new("plan_fov_shades_the_visible_cells");
    let svg_path = dir.join("plan.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let out = octile(&["plan", SAMPLE, "-o", svg_arg, "--fov", "1,0,2", "--fov-radius", "30"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let shaded: Vec<String> = svg
        .split(r#"<g class="fov" data-slot=""#)
        .skip(1)
        .map(|g| g.split('"').next().unwrap().to_string())
        .collect();
    let want: Vec<String> = field_of_view(&sample(), Pos::new(1, 0, 2), 30.0)
        .unwrap()
        .iter()
        .map(|s| format!("{},{}", s.row, s.col))
        .collect();
    assert_eq!(shaded, want);
    // Shading sits in level 1's group only.
    let level0 = svg.split(r#"<g id="level-1">"#).next().unwrap();
    assert!(!level0.contains("class=\"fov\""));
    let out = octile(&["plan", SAMPLE, "-o", svg_arg]);
    assert!(out.status.success());
    assert!(!std::fs::read_to_string(&svg_path).unwrap().contains("class=\"fov\""));
    let bad = octile(&["plan", SAMPLE, "-o", svg_arg, "--fov", "0,2,1"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--fov"));
}

#[test]
fn plan_fov_storeys_outlines_the_cells_seen_up_a_stair_shaft() {
    let dir = Scratch::new("plan_fov_storeys_outlines_the_cells_seen_up_a_stair_shaft");
    let svg_path = dir.join("plan.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let d = sample();
    let stair = d.cells().find(|&p| d.is_stair(p)).expect("the sample has a stair");
    let from = format!("{},{},{}", stair.level, stair.slot.row, stair.slot.col);
    let out = octile(&["plan", SAMPLE, "-o", svg_arg, "--fov", &from, "--fov-radius", "40", "--fov-storeys"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let outlined: Vec<String> = svg
        .split(r#"<g class="fov-storey" data-cell=""#)
        .skip(1)
        .map(|g| g.split('"').next().unwrap().to_string())
        .collect();
    let want: Vec<String> = octile::sight::field_of_view_3d(&d, stair, 40.0)
        .unwrap()
        .iter()
        .filter(|p| p.level != stair.level)
        .map(|p| format!("{},{},{}", p.level, p.slot.row, p.slot.col))
        .collect();
    assert!(!want.is_empty(), "the stair sees up its shaft");
    assert_eq!(outlined, want);
    let bad = octile(&["plan", SAMPLE, "-o", svg_arg, "--fov-storeys"]);
    assert_eq!(bad.status.code(), Some(2), "--fov-storeys needs --fov");
}
