//! The `octile view` binary: a window for a few frames under a display, and messages (never
//! panics) when there is no display, no adapter or a bad argument. Without a display or an
//! adapter the window checks show `SKIPPED <test>: <reason>` in `cargo test`'s output and
//! pass, unless `VIEWER_REQUIRE_ADAPTER=1` (set by `.ci/run`, under `xvfb-run`) makes them fail.

mod support;

use support::{run_octile as octile, stderr};

#[test]
fn window_renders_frames_and_exits() {
    const TEST: &str = "window_renders_frames_and_exits";
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        let why = "no DISPLAY or WAYLAND_DISPLAY (run under xvfb-run)";
        support::skip(TEST, why, "VIEWER_REQUIRE_ADAPTER");
        return;
    }
    let o = octile(&["view", "assets/two_levels.json", "--frames", "8", "--camera", "walk"], &[]);
    let err = stderr(&o);
    if err.contains("no GPU adapter") {
        support::skip(TEST, err.trim(), "VIEWER_REQUIRE_ADAPTER");
        return;
    }
    assert!(o.status.success(), "{err}");
    assert!(err.contains("frames: 8"), "{err}");
}

/// Issue 25: a walk window with the minimap, at least 120 px high and narrower than about
/// 0.31 of its height, panicked in wgpu's scissor check; and `--frames 3` (no more than the
/// warm-up) printed a mean frame time of 0.00 ms.
#[test]
fn a_narrow_walk_window_with_the_minimap_runs() {
    const TEST: &str = "a_narrow_walk_window_with_the_minimap_runs";
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        let why = "no DISPLAY or WAYLAND_DISPLAY (run under xvfb-run)";
        support::skip(TEST, why, "VIEWER_REQUIRE_ADAPTER");
        return;
    }
    let args = ["view", "assets/two_levels.json", "--frames", "3", "--camera", "walk", "--map", "mini"];
    let o = octile(&[&args[..], &["--size", "30x120"]].concat(), &[]);
    let err = stderr(&o);
    if err.contains("no GPU adapter") {
        support::skip(TEST, err.trim(), "VIEWER_REQUIRE_ADAPTER");
        return;
    }
    assert!(o.status.success() && !err.contains("panicked"), "{err}");
    assert!(err.contains("frames: 3 | mean frame time") && !err.contains(" 0.00 ms"), "{err}");
}

#[test]
fn no_display_is_a_message() {
    let o = octile(
        &["view", "assets/two_levels.json", "--frames", "2"],
        &[("DISPLAY", None), ("WAYLAND_DISPLAY", None), ("WAYLAND_SOCKET", None)],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: window:") && !err.contains("panicked"), "{err}");
    assert!(err.contains("window: cannot open one (neither") && err.contains("--screenshot"), "{err}");
    assert!(!err.contains(".cargo") && !err.contains(".rs:"), "no source path: {err}");
}

#[test]
fn no_adapter_is_a_message() {
    let o = octile(
        &["view", "assets/two_levels.json", "--screenshot", "/tmp/octile-never-written.png"],
        &[("WGPU_BACKEND", Some("metal"))],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no GPU adapter found") && !err.contains("panicked"), "{err}");
}

#[test]
fn bad_arguments_are_messages() {
    let level =
        octile(&["view", "assets/two_levels.json", "--screenshot", "/tmp/x.png", "--level", "7"], &[]);
    assert!(stderr(&level).contains("level 7 does not exist"), "{}", stderr(&level));
    let path = octile(
        &["view", "assets/two_levels.json", "--screenshot", "/tmp/x.png", "--path", "0,2,0:0,0,0"],
        &[],
    );
    assert!(stderr(&path).contains("no walkable route"), "{}", stderr(&path));
    let camera = octile(&["view", "assets/two_levels.json", "--camera", "fly"], &[]);
    assert!(stderr(&camera).contains("expected orbit, walk or top"), "{}", stderr(&camera));
}

#[test]
fn view_generate_shares_the_generate_options() {
    let dir = support::Scratch::new("view_generate_shares_the_generate_options");
    let png = dir.join("gen.png");
    let json = dir.join("gen.json");
    let opts = ["--seed", "4", "--levels", "2", "--octagons", "5x4", "--loops", "1"];
    let made = octile(&[&["generate", "-o", json.to_str().unwrap()][..], &opts[..]].concat(), &[]);
    assert!(made.status.success(), "{}", stderr(&made));
    let d = octile::format::load(&json).unwrap();
    let (e, x) = (d.entrance().unwrap(), d.exit().unwrap());
    let shot =
        [&["view", "--generate", "--screenshot", png.to_str().unwrap(), "--size", "64x48"][..], &opts[..]];
    let o = octile(&shot.concat(), &[]);
    let err = stderr(&o);
    // The same options make the same dungeon: the same entrance and exit are reported.
    assert!(err.contains(&format!("generated seed 4: entrance {e}, exit {x}")), "{err}");
    if err.contains("no GPU adapter found") {
        let test = "view_generate_shares_the_generate_options (its screenshot)";
        support::skip(test, err.trim(), "VIEWER_REQUIRE_ADAPTER");
    } else {
        assert!(o.status.success(), "{err}");
        assert_eq!(image_size(&png), (64, 48));
    }
    // Generation options need --generate; a file and --generate exclude each other.
    let alone = octile(&["view", "--seed", "3"], &[]);
    assert!(!alone.status.success() && stderr(&alone).contains("<FILE>"), "{}", stderr(&alone));
    let both = octile(&["view", "assets/two_levels.json", "--seed", "3"], &[]);
    assert!(!both.status.success() && stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
    let both = octile(&["view", "assets/two_levels.json", "--generate"], &[]);
    assert!(!both.status.success() && stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
    let weight = octile(&["view", "assets/two_levels.json", "--void-weight", "3"], &[]);
    assert!(
        !weight.status.success() && stderr(&weight).contains("cannot be used with"),
        "{}",
        stderr(&weight)
    );
}

/// Width and height of a PNG file, from its header.
fn image_size(path: &std::path::Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn the_viewer_docs_list_every_flag() {
    let help = octile(&["view", "--help"], &[]);
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/viewer.md")).unwrap();
    let view_only = text.split("Usage:").nth(1).unwrap_or(&text);
    let mut flags = 0;
    for flag in view_only.split_whitespace().filter(|w| w.starts_with("--") && w.len() > 2) {
        let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        // The generation flags are `octile generate`'s, documented there.
        if ["--help"].contains(&flag) || !text.contains(&format!("  {flag}")) {
            continue;
        }
        flags += 1;
        let documented = docs.contains(&format!("`{flag}")) || docs.contains(&format!("{flag} "));
        assert!(documented || is_generation_flag(flag), "docs/viewer.md does not mention {flag}");
    }
    assert!(flags >= 10, "{flags} flags read from --help: {text}");
}

/// Flags `octile view --generate` shares with `octile generate` (docs/viewer.md points there).
fn is_generation_flag(flag: &str) -> bool {
    let o = octile(&["generate", "--help"], &[]);
    String::from_utf8_lossy(&o.stdout).contains(&format!("  {flag}"))
}

#[test]
fn view_help_lists_the_view_keys_and_edit_modes_keys() {
    let o = octile(&["view", "--help"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = String::from_utf8_lossy(&o.stdout);
    for key in [
        "Tab",
        "F1 or H",
        "Space jump",
        "F3 edit mode",
        "B stair",
        "Ctrl+Z undo",
        "Ctrl+S save",
        "N pin cell",
    ] {
        assert!(help.contains(key), "`octile view --help` does not list {key:?}:\n{help}");
    }
}
