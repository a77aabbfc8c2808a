//! `octile edit`: scripts and --do commands on a dungeon file, written atomically; a bad
//! line names its line and leaves every file untouched.

mod support;

use std::process::{Command, Output};

use octile::dungeon::Registry;
use octile::grid::{Direction, Pos};
use support::Scratch;

fn octile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octile")).args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const ARENA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");

#[test]
fn a_script_edits_in_place_and_reports() {
    let dir = Scratch::new("edit_script_in_place");
    let file = dir.join("arena.json");
    std::fs::copy(ARENA, &file).unwrap();
    let before = octile::format::load(&file).unwrap();
    let east = before.edge_state(Pos::new(0, 4, 4), Direction::E).unwrap().unwrap();
    let script = dir.join("edits.txt");
    std::fs::write(
        &script,
        "# a comment line\n\
         cycle 0,4,4 e   # the east wall of the centre\n\
         pin 0 2,2..6,6\n\
         toggle 0,0,0\n\
         undo\n",
    )
    .unwrap();
    let o = octile(&[
        "edit",
        file.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
        "--do",
        "unpin 0,4,4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("line 2: cycle 0,4,4 e:"), "{out}");
    assert!(out.contains("--do 1: unpin 0,4,4"), "{out}");
    assert!(out.contains("wrote"), "{out}");
    let after = octile::format::load(&file).unwrap();
    let cycled = after.edge_state(Pos::new(0, 4, 4), Direction::E).unwrap().unwrap();
    assert_eq!(cycled.index(), (east.index() + 1) % 3, "cycled once");
    assert!(after.is_pinned(Pos::new(0, 2, 2)) && !after.is_pinned(Pos::new(0, 4, 4)));
    assert_eq!(after.tile(Pos::new(0, 0, 0)), before.tile(Pos::new(0, 0, 0)), "the toggle was undone");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"version\": 2"), "pins are saved in version 2");
}

#[test]
fn output_goes_elsewhere_and_do_runs_in_order() {
    let dir = Scratch::new("edit_output_elsewhere");
    let file = dir.join("arena.json");
    std::fs::copy(ARENA, &file).unwrap();
    let original = std::fs::read(&file).unwrap();
    let out = dir.join("out.json");
    let o = octile(&[
        "edit",
        file.to_str().unwrap(),
        "--do",
        "edge 0,4,4 w door",
        "--do",
        "edge 0,4,4 w open",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&file).unwrap(), original, "the input is untouched with -o");
    let d = octile::format::load(&out).unwrap();
    assert_eq!(d.edge_state(Pos::new(0, 4, 4), Direction::W).unwrap(), Some(Registry::OPEN));
}

#[test]
fn a_bad_line_names_its_line_and_writes_nothing() {
    let dir = Scratch::new("edit_bad_line");
    let file = dir.join("arena.json");
    std::fs::copy(ARENA, &file).unwrap();
    let original = std::fs::read(&file).unwrap();
    let out = dir.join("out.json");
    let script = dir.join("edits.txt");
    for (body, needle) in [
        ("cycle 0,4,4 e\n\ncycle 0,4,4 up\n", "line 3: cycle 0,4,4 up"),
        ("toggle 0,0,0\npin 0,0,1\n", "line 2: pin 0,0,1"),
        ("toggle 0,4,4\n", "line 1: toggle 0,4,4: refused: entrance"),
        ("cell 0,4,4 lava\n", "line 1: cell 0,4,4 lava: no tile named \"lava\""),
        ("undo\n", "line 1: undo: nothing to undo"),
        ("stair 0,4,4\n", "line 1: stair 0,4,4"),
    ] {
        std::fs::write(&script, body).unwrap();
        for target in [None, Some(&out)] {
            let mut args = vec!["edit", file.to_str().unwrap(), "--script", script.to_str().unwrap()];
            if let Some(t) = target {
                args.extend(["-o", t.to_str().unwrap()]);
            }
            let o = octile(&args);
            assert!(!o.status.success(), "{body}");
            let err = stderr(&o);
            assert!(err.contains(needle) && err.contains("nothing written"), "{body}: {err}");
            assert_eq!(std::fs::read(&file).unwrap(), original, "{body}: the input is untouched");
            assert!(!out.exists(), "{body}: no output");
        }
    }
    let o = octile(&["edit", file.to_str().unwrap()]);
    assert!(!o.status.success() && stderr(&o).contains("nothing to do"), "{}", stderr(&o));
}

#[test]
fn paint_opens_a_hall_and_pillar_sets_one_back_to_a_column() {
    let dir = Scratch::new("edit_pillars");
    let file = dir.join("hall.json");
    let f = file.to_str().unwrap();
    let o = octile(&["new", "--octagons", "6x6", "--levels", "1", "--fill", "solid", "-o", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = octile(&["edit", f, "--do", "paint 0 2,2..8,8 floor", "--do", "pillar 0,3,3 n column"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("36 pillar(s)"), "{out}");
    assert!(
        out.contains("level 0, the pillar at tip N of the connector at row 3, col 3: open -> column"),
        "{out}"
    );
    let d = octile::format::load(&file).unwrap();
    assert_eq!(d.open_pillars().count(), 35);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"version\": 3") && text.contains("\"open_pillars\""), "{text}");
    let o = octile(&["edit", f, "--do", "pillar 0,1,1 n open"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("--do 1: pillar 0,1,1 n open") && err.contains("is not carved"), "{err}");
}

#[test]
fn help_lists_the_grammar() {
    let o = octile(&["edit", "--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for word in [
        "cycle L,R,C WALL",
        "paint L R1,C1..R2,C2 TILE",
        "pillar L,R,C TIP open|column",
        "resolve L,R,C RADIUS",
        "undo | redo",
        "--script",
        "--do",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

#[test]
fn generate_keeps_a_design_pinned_with_edit() {
    let dir = Scratch::new("generate_keep_cli");
    let design = dir.join("design.json");
    let out = dir.join("out.json");
    let (d, o, ds) = (design.to_str().unwrap(), out.to_str().unwrap(), "--do");
    let run = |args: &[&str]| {
        let o = octile(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    run(&["generate", "--seed", "4", "--levels", "2", "--octagons", "10x10", "-o", d]);
    run(&["edit", d, ds, "pin 0 0,0..4,4", ds, "pin 1 10,10..14,14"]);
    run(&["generate", "--seed", "9", "--keep", d, "-o", o]);
    let (design, kept) = (octile::format::load(&design).unwrap(), octile::format::load(&out).unwrap());
    assert_eq!((kept.levels(), kept.dims()), (design.levels(), design.dims()), "the design decides the size");
    let pins: Vec<Pos> = design.pinned().collect();
    assert_eq!(pins.len(), 2 * 13);
    assert_eq!(kept.pinned().collect::<Vec<_>>(), pins);
    for p in pins {
        assert_eq!(kept.tile(p).unwrap(), design.tile(p).unwrap(), "{p}");
        for &w in design.dims().walls(p.slot).unwrap() {
            assert_eq!(kept.edge_state(p, w).unwrap(), design.edge_state(p, w).unwrap(), "{p} {w:?}");
        }
    }
    assert_eq!(octile::path::dungeon_regions(&kept).count(), 1);
}

/// Issue 25: the README's `octile edit d.json --do "cycle 0,4,4 e"` acted on a rock cell
/// of the dungeon its first command generates, so nothing visible happened. The example's
/// wall must stand between two carved cells of that dungeon and change.
#[test]
fn the_readme_edit_example_changes_something_visible() {
    let readme = include_str!("../README.md");
    let line =
        readme.lines().find(|l| l.starts_with("octile edit d.json --do \"cycle ")).expect("an example");
    let command = line.split('"').nth(1).unwrap();
    let mut words = command.split_whitespace().skip(1);
    let (pos, wall) = (words.next().unwrap(), words.next().unwrap());
    let n: Vec<u32> = pos.split(',').map(|v| v.parse().unwrap()).collect();
    let pos = Pos::new(n[0] as u16, n[1], n[2]);
    let dir = Direction::ALL.into_iter().find(|d| d.name().eq_ignore_ascii_case(wall)).unwrap();

    let dir_ = Scratch::new("the_readme_edit_example_changes_something_visible");
    let d_json = dir_.join("d.json");
    let generate = readme.lines().find(|l| l.starts_with("octile generate --seed 7 --levels 3")).unwrap();
    assert!(generate.contains("--octagons 12x12"), "{generate}");
    let file = d_json.to_str().unwrap();
    let out = octile(&["generate", "--seed", "7", "--levels", "3", "--octagons", "12x12", "-o", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let d = octile::format::load(&d_json).unwrap();
    let beyond = d.dims().neighbor(pos.slot, dir).unwrap().unwrap();
    for cell in [pos, Pos { level: pos.level, slot: beyond }] {
        assert!(d.tile_def(cell).unwrap().carved, "{cell} is carved");
    }
    let edited = dir_.join("d2.json");
    let out = octile(&["edit", file, "--do", command, "-o", edited.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = octile::format::load(&edited).unwrap();
    assert_ne!(after.edge_state(pos, dir).unwrap(), d.edge_state(pos, dir).unwrap());
    let said = format!(
        "the wall between the octagons at row {}, col {} and row {}, col {}: open -> door",
        pos.slot.row, pos.slot.col, beyond.row, beyond.col
    );
    assert!(stdout(&out).contains(&said), "{}", stdout(&out));
}

/// On a dungeon with a flow to prove, every line reports the proof's verdict: walling up a
/// locked door breaks it (the goal is cut off), and undoing it gives the door back its
/// lock id, so the flow holds again and the file validates.
#[test]
fn each_line_says_whether_the_flow_still_holds_and_undo_gives_a_lock_back() {
    let dir = Scratch::new("edit_flow_per_line");
    let file = dir.join("m.json");
    let f = file.to_str().unwrap();
    support::generate_mission_file("one-level.json", 24, 1, &file);
    let d = octile::format::load(&file).unwrap();
    let lock = d.locks().find(|l| l.id == 1).expect("lock 1");
    let (slot, dir_of, _) = d.edge_cells(lock.edge).unwrap();
    let wall = format!("edge {},{},{} {} wall", lock.level, slot.row, slot.col, dir_of.name());
    let out = dir.join("e.json");
    let o = octile(&["edit", f, "--do", &wall, "--do", "undo", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("lock 1 -> none") && lines[0].contains("; flow: the goal at"), "{text}");
    assert!(lines[1].contains("lock none -> 1") && lines[1].contains("; flow holds (3 lock(s)"), "{text}");
    assert!(lines[2].starts_with("wrote ") && lines[2].contains("flow holds"), "{text}");
    let edited = octile::format::load(&out).unwrap();
    assert_eq!(edited.lock_of(lock.level, lock.edge), Some(1));
    assert!(octile::flow::verify(&edited).holds());
    // A dungeon without a flow reports none.
    let plain = dir.join("arena.json");
    std::fs::copy(ARENA, &plain).unwrap();
    let o = octile(&["edit", plain.to_str().unwrap(), "--do", "cycle 0,2,2 E"]);
    assert!(!stdout(&o).contains("; flow"), "{}", stdout(&o));
}
