//! Issue 10 through the `octile` binary: messages that said their cause twice or blamed
//! the wrong thing, an export that replaced its own input, the triangle budget flag, and
//! Ctrl+C leaving temporary files behind.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use support::Scratch;

fn octile(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octile")).args(args).current_dir(dir).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Hidden files (temporaries `.NAME.PID.INDEX.tmp`, backups) in `dir`.
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// `reading x.json: cannot read x.json: No such file ...: No such file ...` and the
/// 100000x100000 size error said twice.
#[test]
fn each_cause_is_said_once() {
    let dir = Scratch::new("each_cause_is_said_once");
    let missing = octile(&["info", "x.json"], dir.path());
    let err = stderr(&missing);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(err.matches("x.json").count(), 1, "{err}");
    assert_eq!(err.matches("os error 2").count(), 1, "{err}");
    let huge = octile(&["new", "--octagons", "100000x100000", "-o", "h.json"], dir.path());
    let err = stderr(&huge);
    assert_eq!(err.matches("at most 4096").count(), 1, "{err}");
    let zero = octile(&["generate", "--open-weight", "0", "--octagons", "4x4", "-o", "g.json"], dir.path());
    let err = stderr(&zero);
    assert!(err.contains("open-weight") && !err.contains("fixed cells"), "{err}");
}

/// `export d.json -o d.json` replaced its own input with glTF.
#[test]
fn an_export_never_replaces_its_input() {
    let dir = Scratch::new("an_export_never_replaces_its_input");
    let input = dir.join("d.json");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json");
    std::fs::copy(sample, &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    for output in ["d.json", "./d.json"] {
        let run = octile(&["export", "d.json", "-o", output], dir.path());
        assert_eq!(run.status.code(), Some(1));
        assert!(stderr(&run).contains("is the input file"), "{}", stderr(&run));
        assert_eq!(std::fs::read(&input).unwrap(), before, "-o {output}");
    }
    let plan = octile(&["plan", "d.json", "-o", "d.json"], dir.path());
    assert_eq!(plan.status.code(), Some(1));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// The budget flag: a dungeon over it is refused naming the flag, and writes nothing.
#[test]
fn max_triangles_refuses_a_larger_mesh() {
    let dir = Scratch::new("max_triangles_refuses_a_larger_mesh");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json");
    let run = octile(&["export", sample, "-o", "t.glb", "--max-triangles", "100"], dir.path());
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).contains("over the limit of 100") && stderr(&run).contains("--max-triangles"));
    assert!(!dir.join("t.glb").exists());
    let run = octile(&["export", sample, "-o", "t.glb", "--max-triangles", "100000"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
}

/// Ctrl+C during an export left its hidden temporary behind. SIGINT is sent while the
/// temporary exists; the command must then remove it and exit 130. The write is short, so
/// a run where the temporary is never seen is tried again with another, and the test skips
/// visibly when none is caught.
#[test]
fn ctrl_c_removes_the_temporary() {
    let dir = Scratch::new("ctrl_c_removes_the_temporary");
    let new = octile(&["new", "--octagons", "96x96", "--fill", "floor", "-o", "f.json"], dir.path());
    assert!(new.status.success(), "{}", stderr(&new));
    for _ in 0..5 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_octile"))
            .args(["export", "f.json", "-o", "f.glb"])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let caught = loop {
            if !hidden(dir.path()).is_empty() {
                let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
                break kill.is_ok_and(|s| s.success());
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        };
        let status = child.wait().unwrap();
        if caught && status.code() == Some(130) {
            assert_eq!(hidden(dir.path()), Vec::<String>::new(), "no temporary left behind");
            return;
        }
        assert_eq!(hidden(dir.path()), Vec::<String>::new(), "no temporary left behind ({status})");
        let _ = std::fs::remove_file(dir.join("f.glb"));
    }
    support::skip(
        "ctrl_c_removes_the_temporary",
        "the export's temporary was never caught alive",
        "OCTILE_REQUIRE_SIGNAL",
    );
}

/// `path` and `plan` of a 4096x4096 all-floor dungeon grew without bound (2 GB and 1.3 GB
/// after four minutes, still building); each is refused past its budget, naming the flag.
#[test]
fn path_and_plan_refuse_a_dungeon_over_their_budget() {
    let dir = Scratch::new("path_and_plan_refuse_a_dungeon_over_their_budget");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json");
    let path = octile(&["path", sample, "--from", "0,0,0", "--to", "0,2,0", "--max-nodes", "3"], dir.path());
    assert_eq!(path.status.code(), Some(1));
    assert!(stderr(&path).contains("over the limit of 3") && stderr(&path).contains("--max-nodes"));
    let plan = octile(&["plan", sample, "-o", "p.svg", "--max-svg-bytes", "1000"], dir.path());
    assert_eq!(plan.status.code(), Some(1));
    assert!(stderr(&plan).contains("over the limit of 1000") && stderr(&plan).contains("--max-svg-bytes"));
    assert!(!dir.join("p.svg").exists());
    let plan = octile(&["plan", sample, "-o", "p.svg"], dir.path());
    assert!(plan.status.success(), "{}", stderr(&plan));
    let carved = octile::format::load(Path::new(sample)).unwrap();
    let cells = carved.cells().filter(|&p| carved.tile_def(p).is_ok_and(|t| t.carved)).count() as u64;
    let bytes = std::fs::metadata(dir.join("p.svg")).unwrap().len();
    assert!(bytes <= 640 * cells + 4096, "{bytes} bytes of SVG for {cells} carved cells");
}

/// Issue 25: `octile view` with no file named only `<FILE>`, its help listed the generation
/// flags among the viewer's, and `--cut` promised "0 < r < 0.5" while 0.08 was refused as
/// a `door_width` problem, a flag `generate` does not have.
#[test]
fn view_and_cut_say_what_they_take() {
    let dir = Scratch::new("view_and_cut_say_what_they_take");
    let bare = octile(&["view"], dir.path());
    assert_eq!(bare.status.code(), Some(2));
    assert!(stderr(&bare).contains("octile view --generate"), "{}", stderr(&bare));
    let help = octile(&["view", "--help"], dir.path());
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let heading = help.find("Generation options (with --generate):").expect("a heading of their own");
    for flag in ["--seed", "--octagons", "--cut", "--void-weight"] {
        assert!(help.find(flag).is_some_and(|at| at > heading), "{flag} under the heading:\n{help}");
    }
    for flag in ["--screenshot", "--camera", "--frames", "--max-triangles"] {
        assert!(help.find(flag).is_some_and(|at| at < heading), "{flag} among the viewer's:\n{help}");
    }
    let help = octile(&["generate", "--help"], dir.path());
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    assert!(help.contains("0.112 to 0.421") && !help.contains("0 < r < 0.5"), "{help}");
    for cut in ["0.08", "0.44"] {
        let run = octile(&["generate", "--cut", cut, "--octagons", "3x3", "-o", "c.json"], dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--cut") && err.contains("0.112..=0.421") && !err.contains("door_width"),
            "{err}"
        );
    }
    let run = octile(
        &["generate", "--cut", "0.12", "--octagons", "3x3", "--levels", "1", "-o", "c.json"],
        dir.path(),
    );
    assert!(run.status.success(), "{}", stderr(&run));
}

/// `new --cut` takes the range `generate --cut` takes, in the same words.
#[test]
fn new_takes_the_cut_generate_takes() {
    let dir = Scratch::new("new_takes_the_cut_generate_takes");
    let run = octile(&["new", "--octagons", "2x2", "--cut", "0.08", "-o", "n.json"], dir.path());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("0.112..=0.421") && !stderr(&run).contains("door_width"),
        "{}",
        stderr(&run)
    );
    let run = octile(&["new", "--octagons", "2x2", "--cut", "0.29", "-o", "n.json"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
}

/// Issue 25: `path`, `sight` and `view` worded the same position error three ways, called
/// the seam between two octagons a "Void slot", and `--from 65536,0,0` or `0,-1,0` "not a
/// whole number".
#[test]
fn one_wording_for_a_position_that_is_not_a_cell() {
    let dir = Scratch::new("one_wording_for_a_position_that_is_not_a_cell");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json");
    let wall = "level 0, row 1, col 0 is not a cell but the wall between the octagons at row 0, col 0 and row 2, col 0";
    let runs = [
        octile(&["path", sample, "--from", "0,1,0", "--to", "0,2,0"], dir.path()),
        octile(&["sight", sample, "--from", "0,1,0", "--radius", "3"], dir.path()),
        octile(
            &["view", sample, "--path", "0,1,0:0,2,0", "--screenshot", "v.png", "--size", "32x32"],
            dir.path(),
        ),
    ];
    for (run, flag) in runs.iter().zip(["--from", "--from", "--path"]) {
        let err = stderr(run);
        assert!(!run.status.success());
        assert_eq!(err.trim_end(), format!("error: bad {flag}: {wall}"), "{err}");
    }
    let big = octile(&["path", sample, "--from", "65536,0,0", "--to", "0,2,0"], dir.path());
    assert!(stderr(&big).contains("is more than the largest level, 65535"), "{}", stderr(&big));
    let negative = octile(&["path", sample, "--from", "0,-1,0", "--to", "0,2,0"], dir.path());
    assert!(stderr(&negative).contains("is negative; rows count from 0"), "{}", stderr(&negative));
    let rock = octile(&["edit", sample, "--do", "paint 0 0,0..0,2 rock", "-o", "r.json"], dir.path());
    assert!(rock.status.success(), "rock names solid: {}", stderr(&rock));
    let void = octile(&["edit", sample, "--do", "cycle 0,0,1 tl", "-o", "r.json"], dir.path());
    assert!(stderr(&void).contains("is not a cell but the wall between the octagons"), "{}", stderr(&void));
    assert!(!stderr(&void).contains("octagon at level"), "{}", stderr(&void));
}

/// Issue 25: `wfc` errors named `--octagons` and the exit, which wfc has not; weights of 0
/// were blamed on "the fixed cells and border"; `--wall-factor=1e300` came back as weight
/// "tile 4" = inf; `--doors=1e300` was printed with 301 digits.
#[test]
fn weight_and_size_errors_name_the_flags_given() {
    let dir = Scratch::new("weight_and_size_errors_name_the_flags_given");
    let one = octile(&["wfc", "--tileset", "octile", "--size", "1x1"], dir.path());
    let err = stderr(&one);
    assert_eq!(one.status.code(), Some(1));
    assert!(err.contains("--size 1x1") && !err.contains("octagons`") && !err.contains("exit may"), "{err}");
    for args in [
        &["wfc", "--tileset", "octile", "--size", "3x3", "--wall-factor", "0"][..],
        &["wfc", "--size", "3x3", "--void-weight", "0", "--wall-factor", "0"][..],
        &["generate", "--octagons", "3x3", "--levels", "1", "--wall-factor", "0", "-o", "g.json"][..],
    ] {
        let run = octile(args, dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("--wall-factor 0") && !err.contains("fixed cells"), "{args:?}: {err}");
    }
    let huge = octile(&["generate", "--wall-factor=1e300", "-o", "g.json"], dir.path());
    let err = stderr(&huge);
    assert_eq!(huge.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--wall-factor") && err.contains("more than 1000000") && !err.contains("tile 4"),
        "{err}"
    );
    let doors = octile(&["generate", "--doors=1e300", "-o", "g.json"], dir.path());
    let err = stderr(&doors);
    assert_eq!(doors.status.code(), Some(2), "{err}");
    assert!(err.contains("1e300 is not a share from 0 to 1") && err.len() < 300, "{err}");
}

/// Issue 25: Rust internals leaked into messages: "expected struct TileDef" for a tile
/// written as a string, "levels must be 1..=256".
#[test]
fn file_errors_use_the_files_words() {
    let dir = Scratch::new("file_errors_use_the_files_words");
    let sample = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/l_bend.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&sample).unwrap();
    v["tiles"][0] = "solid".into();
    std::fs::write(dir.join("t.json"), v.to_string()).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&sample).unwrap();
    v["levels"] = 300.into();
    std::fs::write(dir.join("l.json"), v.to_string()).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&sample).unwrap();
    v["seed"] = (-1).into();
    std::fs::write(dir.join("s.json"), v.to_string()).unwrap();
    let said = |file: &str| {
        let run = octile(&["validate", file], dir.path());
        assert_eq!(run.status.code(), Some(1));
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    let tile = said("t.json");
    assert!(tile.contains("expected a tile object (name, symbol,") && !tile.contains("TileDef"), "{tile}");
    let levels = said("l.json");
    assert!(levels.contains("levels must be from 1 to 256") && !levels.contains("..="), "{levels}");
    let seed = said("s.json");
    assert!(seed.contains("expected a whole number") && !seed.contains("u64"), "{seed}");
}

/// Issue 25: `-o .`, `..` and `/` were refused as "needs a UTF-8 file name".
#[test]
fn a_directory_as_output_is_called_a_directory() {
    let dir = Scratch::new("a_directory_as_output_is_called_a_directory");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/l_bend.json");
    for out in [".", "..", "/", "sub/"] {
        let run = octile(&["export", sample, "-o", out], dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{out}: {err}");
        assert!(err.contains("names a directory, not a file") && !err.contains("UTF-8"), "{out}: {err}");
    }
}
