//! Issues 10 and 25 through the `octile` binary: messages that said their cause twice or
//! blamed the wrong thing, outputs that replaced an input or each other, links and devices
//! replaced by files, the budget flags, a closed or full standard output, and Ctrl+C
//! leaving temporary files behind.

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
        // The command's output check words it first; the library's export says "names a
        // directory, not a file" to callers that skip it.
        let named = err.contains("is a folder") || err.contains("names a directory, not a file");
        assert!(named && !err.contains("UTF-8"), "{out}: {err}");
    }
}

/// Names of every file in `dir`, sorted (temporaries and backups included).
fn all_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Issue 25: an output replaced an input of the same command (`export in.json -o in.glb
/// --graph in.json`, `generate --keep k.json -o k.json`, `edit --script s.txt -o s.txt`),
/// and when a second output could not be placed (the same file spelled otherwise, a
/// folder) the first was left behind after exit 1. Each is refused before anything is
/// written, naming the flag.
#[test]
fn outputs_never_replace_inputs_or_each_other() {
    let dir = Scratch::new("outputs_never_replace_inputs_or_each_other");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::create_dir(dir.join("folder")).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    for name in ["in.json", "k.json", "d.json"] {
        std::fs::copy(sample, dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("s.txt"), "toggle 0,0,0\n").unwrap();
    let before = all_names(dir.path());
    let generate = ["generate", "--octagons", "4x4", "--levels", "1"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["export", "in.json", "-o", "in.glb", "--graph", "in.json"],
            "--graph in.json: is the input file",
        ),
        (vec!["export", "in.json", "-o", "x.gltf", "--graph", "x.bin"], "is also the -o (its .bin) output"),
        (vec!["export", "d.json", "-o", "c.glb", "--graph", "sub/../c.glb"], "is also the -o output"),
        ([&generate[..], &["--keep", "k.json", "-o", "k.json"]].concat(), "-o k.json: is the input file"),
        (
            [&generate[..], &["--keep", "k.json", "-o", "g.glb", "--save-dungeon", "./k.json"]].concat(),
            "input file",
        ),
        ([&generate[..], &["--keep", "k.json", "-o", "g.glb", "--graph", "k.json"]].concat(), "input file"),
        ([&generate[..], &["-o", "a.glb", "--save-dungeon", "a.glb"]].concat(), "is also the -o output"),
        ([&generate[..], &["-o", "a.glb", "--save-dungeon", "folder"]].concat(), "is a folder"),
        ([&generate[..], &["-o", "a.glb", "--save-dungeon", "none/a.json"]].concat(), "no folder"),
        (vec!["edit", "d.json", "--script", "s.txt", "-o", "s.txt"], "-o s.txt: is the input file"),
        (vec!["plan", "d.json", "-o", "folder"], "is a folder"),
        (vec!["new", "-o", "folder"], "is a folder"),
    ];
    for (args, message) in cases {
        let run = octile(&args, dir.path());
        assert_eq!(run.status.code(), Some(1), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{args:?}: {}", stderr(&run));
        assert_eq!(all_names(dir.path()), before, "{args:?} wrote nothing");
        for name in ["in.json", "k.json", "d.json"] {
            assert_eq!(std::fs::read(dir.join(name)).unwrap(), std::fs::read(sample).unwrap(), "{args:?}");
        }
        assert_eq!(std::fs::read_to_string(dir.join("s.txt")).unwrap(), "toggle 0,0,0\n", "{args:?}");
    }
    // Editing in place (no -o, or -o naming the file itself) is what edit is for.
    let run = octile(&["edit", "d.json", "--do", "toggle 0,0,0", "-o", "./d.json"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
    assert_ne!(std::fs::read(dir.join("d.json")).unwrap(), std::fs::read(sample).unwrap());
}

/// Issue 25: `edit link.json` replaced the symbolic link with a file and left its target
/// unedited; a read-only file was replaced; `-o` onto a device node replaced the device.
#[cfg(unix)]
#[test]
fn edits_go_through_links_and_devices_stay_devices() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = Scratch::new("edits_go_through_links_and_devices_stay_devices");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    std::fs::copy(sample, dir.join("d.json")).unwrap();
    std::os::unix::fs::symlink("d.json", dir.join("link.json")).unwrap();
    let run = octile(&["edit", "link.json", "--do", "toggle 0,0,0"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(std::fs::symlink_metadata(dir.join("link.json")).unwrap().file_type().is_symlink());
    assert_ne!(std::fs::read(dir.join("d.json")).unwrap(), std::fs::read(sample).unwrap(), "target edited");
    let edited = std::fs::read(dir.join("d.json")).unwrap();
    std::fs::set_permissions(dir.join("d.json"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let run = octile(&["edit", "d.json", "--do", "toggle 0,0,0"], dir.path());
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).contains("read-only"), "{}", stderr(&run));
    assert_eq!(std::fs::read(dir.join("d.json")).unwrap(), edited);
    std::fs::set_permissions(dir.join("d.json"), std::fs::Permissions::from_mode(0o644)).unwrap();
    // A copy of /dev/null (mknod needs root), never the system's own.
    let made = Command::new("mknod").arg(dir.join("n")).args(["c", "1", "3"]).output();
    if made.is_ok_and(|o| o.status.success()) {
        let run = octile(&["export", "d.json", "-o", "n", "--graph", "n"], dir.path());
        assert!(run.status.success(), "{}", stderr(&run));
        assert!(std::fs::metadata(dir.join("n")).unwrap().file_type().is_char_device(), "still a device");
    }
    assert_eq!(hidden(dir.path()), Vec::<String>::new(), "no temporary left behind");
}

/// A command whose standard error is closed or full still does its work and exits as it
/// would: its status lines ("wrote ...", warnings, "no path") are dropped, not a panic
/// (exit 101) after the files are written.
#[cfg(unix)]
#[test]
fn a_closed_or_full_stderr_is_no_panic() {
    use std::process::Stdio;
    let dir = Scratch::new("a_closed_or_full_stderr_is_no_panic");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    std::fs::copy(sample, dir.join("d.json")).unwrap();
    // Each writes a file and then a line on standard error (path's "no path" is its exit 3).
    let commands: [(&[&str], Option<&str>, i32); 4] = [
        (&["plan", "d.json", "-o", "p.svg"], Some("p.svg"), 0),
        (&["new", "--octagons", "4x4", "-o", "n.json"], Some("n.json"), 0),
        (&["generate", "--octagons", "4x4", "--levels", "1", "-o", "g.json"], Some("g.json"), 0),
        (&["path", "d.json", "--from", "0,4,4", "--to", "0,0,0"], None, 3),
    ];
    for (args, file, code) in commands {
        for full in [false, true] {
            if let Some(f) = file {
                let _ = std::fs::remove_file(dir.join(f));
            }
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_octile"));
            cmd.args(args).current_dir(dir.path()).stdout(Stdio::null());
            let status = if full {
                cmd.stderr(std::fs::File::create("/dev/full").unwrap()).status().unwrap()
            } else {
                cmd.stderr(closed_pipe()).status().unwrap()
            };
            assert_eq!(status.code(), Some(code), "{args:?} (full: {full})");
            if let Some(f) = file {
                assert!(dir.join(f).is_file(), "{args:?} (full: {full}) wrote {f}");
            }
        }
    }
}

/// The write end of a pipe whose read end is already closed: the command's first write
/// meets a closed pipe however fast it runs (closing the read end after spawning raced a
/// command that wrote everything into the pipe's buffer first).
#[cfg(unix)]
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

/// Issue 25: every command that prints to standard output panicked (exit 101) when it was
/// closed or full, and `edit` then saved nothing while `export` had written its file. A
/// closed pipe now ends the command quietly with 141 (as SIGPIPE would), a full one is an
/// error (exit 1); the files are written either way.
#[cfg(unix)]
#[test]
fn a_closed_or_full_stdout_is_no_panic() {
    use std::process::Stdio;
    let dir = Scratch::new("a_closed_or_full_stdout_is_no_panic");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    std::fs::copy(sample, dir.join("d.json")).unwrap();
    let commands: [&[&str]; 10] = [
        &["info", "d.json"],
        &["info", "--json", "d.json"],
        &["validate", "d.json"],
        &["path", "d.json", "--from", "0,4,4", "--to", "0,2,2"],
        &["sight", "d.json", "--from", "0,4,4", "--radius", "100"],
        &["wfc", "--size", "64x64"],
        &["new", "--octagons", "8x8"],
        &["edit", "e.json", "--do", "toggle 0,0,0"],
        &["export", "d.json", "-o", "x.glb"],
        &["generate", "--octagons", "4x4", "--levels", "1", "-o", "g.glb", "--save-dungeon", "g.json"],
    ];
    for args in commands {
        for full in [false, true] {
            std::fs::copy(sample, dir.join("e.json")).unwrap();
            for out in ["x.glb", "g.glb", "g.json"] {
                let _ = std::fs::remove_file(dir.join(out));
            }
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_octile"));
            cmd.args(args).current_dir(dir.path()).stderr(Stdio::piped());
            let output = if full {
                cmd.stdout(std::fs::File::create("/dev/full").unwrap()).output().unwrap()
            } else {
                cmd.stdout(closed_pipe()).output().unwrap()
            };
            let err = stderr(&output);
            assert!(!err.contains("panicked"), "{args:?} (full: {full}): {err}");
            if full {
                assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
                assert!(err.contains("cannot write to standard output"), "{args:?}: {err}");
            } else {
                assert_eq!(output.status.code(), Some(141), "{args:?}: {err}");
                assert_eq!(err, "", "{args:?}: a closed pipe is no message");
            }
            match args[0] {
                "edit" => {
                    assert_ne!(std::fs::read(dir.join("e.json")).unwrap(), std::fs::read(sample).unwrap())
                }
                "export" => assert!(dir.join("x.glb").exists(), "{args:?} (full: {full})"),
                "generate" => {
                    assert!(dir.join("g.glb").exists() && dir.join("g.json").exists(), "{args:?} ({full})")
                }
                _ => {}
            }
            assert_eq!(hidden(dir.path()), Vec::<String>::new(), "{args:?}: no temporary left behind");
        }
    }
}

/// Issue 25: `--texture-size 1e-300` wrote Infinity and `5e-324` NaN into the UV accessors
/// (export and generate), `plan --scale 1.7976931348623157e308` wrote `width="inf"` and
/// `--scale 1e-3` `width="0"`, all with exit 0. Each is refused naming the flag and the
/// accepted range, and nothing is written.
#[test]
fn numbers_out_of_range_are_refused_naming_the_flag() {
    let dir = Scratch::new("numbers_out_of_range_are_refused_naming_the_flag");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    let generate = ["generate", "--octagons", "4x4", "--levels", "1", "-o", "g.glb"];
    for size in ["1e-300", "5e-324", "0", "1e300", "NaN"] {
        for args in [&["export", sample, "-o", "x.glb"][..], &generate[..]] {
            let run = octile(&[args, &["--texture-size", size]].concat(), dir.path());
            assert_eq!(run.status.code(), Some(2), "{args:?} {size}: {}", stderr(&run));
            assert!(stderr(&run).contains("--texture-size") && stderr(&run).contains("0.001 to 1000000"));
        }
    }
    for scale in ["1.7976931348623157e308", "1e-3", "inf", "0"] {
        let run = octile(&["plan", sample, "-o", "p.svg", "--scale", scale], dir.path());
        assert_eq!(run.status.code(), Some(2), "--scale {scale}: {}", stderr(&run));
        assert!(stderr(&run).contains("--scale") && stderr(&run).contains("0.1 to 1000"), "{}", stderr(&run));
    }
    assert_eq!(all_names(dir.path()), Vec::<String>::new(), "nothing written");
    let run = octile(&["export", sample, "-o", "x.glb", "--texture-size", "0.001"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
    let run = octile(&["plan", sample, "-o", "p.svg", "--scale", "0.1"], dir.path());
    assert!(run.status.success(), "{}", stderr(&run));
    let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
    assert!(!svg.contains(r#"width="0""#) && !svg.contains("inf"), "{}", &svg[..200]);
}

/// Issue 25: `plan --fov` on a long open level drew a number of pieces that grows with the
/// square of its length (2048x1: 1.02 GB of SVG) past `--max-svg-bytes`, which counted the
/// levels only. The shading is counted too, before anything is drawn.
#[test]
fn max_svg_bytes_counts_the_fov_shading() {
    let dir = Scratch::new("max_svg_bytes_counts_the_fov_shading");
    let new = octile(&["new", "--octagons", "96x1", "--fill", "floor", "-o", "line.json"], dir.path());
    assert!(new.status.success(), "{}", stderr(&new));
    let plain = octile(&["plan", "line.json", "-o", "p.svg", "--max-svg-bytes", "1000000"], dir.path());
    assert!(plain.status.success(), "{}", stderr(&plain));
    let args = ["plan", "line.json", "-o", "f.svg", "--fov", "0,0,0", "--max-svg-bytes", "1000000"];
    let fov = octile(&args, dir.path());
    assert_eq!(fov.status.code(), Some(1), "{}", stderr(&fov));
    assert!(
        stderr(&fov).contains("--fov shading") && stderr(&fov).contains("--max-svg-bytes"),
        "{}",
        stderr(&fov)
    );
    assert!(!dir.join("f.svg").exists());
    let fov = octile(&args[..6], dir.path());
    assert!(fov.status.success(), "{}", stderr(&fov));
    let bytes = std::fs::metadata(dir.join("f.svg")).unwrap().len();
    assert!(bytes > 1_000_000, "the shading alone is over the limit: {bytes} bytes");
}

/// Issue 25: on the largest dungeon the format accepts, `info` (its room graph) and `edit`
/// (the region labels it reports after every line) aborted allocating gigabytes. Both
/// refuse a dungeon over `--max-cells` first, naming the flag, and write nothing.
#[test]
fn info_and_edit_refuse_a_dungeon_over_max_cells() {
    let dir = Scratch::new("info_and_edit_refuse_a_dungeon_over_max_cells");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/plus_arena.json");
    std::fs::copy(sample, dir.join("d.json")).unwrap();
    let runs: [&[&str]; 3] = [
        &["info", "d.json", "--max-cells", "10"],
        &["info", "--json", "d.json", "--max-cells", "10"],
        &["edit", "d.json", "--do", "toggle 0,0,0", "--max-cells", "10"],
    ];
    for args in runs {
        let run = octile(args, dir.path());
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        let err = stderr(&run);
        assert!(err.contains("over the limit of 10") && err.contains("--max-cells"), "{args:?}: {err}");
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(std::fs::read(dir.join("d.json")).unwrap(), std::fs::read(sample).unwrap());
    assert!(octile(&["info", "d.json"], dir.path()).status.success(), "the default is far above 10");
}
