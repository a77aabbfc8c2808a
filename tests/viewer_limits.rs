//! `octile view` at and past the device's limits and the window system's edges (issue 10):
//! every case is a message and exit 1 (or a clean exit 0), never a panic (exit 101).
//!
//! Cases that need an adapter or a display skip with a `SKIPPED` line when there is none, as
//! tests/window.rs does; `VIEWER_REQUIRE_ADAPTER=1` turns those skips into failures. The
//! outside resize and close also need `xdotool` (`VIEWER_REQUIRE_XDOTOOL=1` requires it).
#![cfg(all(feature = "cli", feature = "viewer"))]
// Times the process it tests (a deadline, not an output); clippy.toml keeps `Instant` out of
// the library.
#![allow(clippy::disallowed_types)]

mod support;

use std::time::{Duration, Instant};

use support::{run_octile as octile, stderr};

/// True (after a `SKIPPED` line) when `err` says there is no adapter.
fn skip_without_adapter(test: &str, err: &str) -> bool {
    if err.contains("no GPU adapter") {
        support::skip(test, err.trim(), "VIEWER_REQUIRE_ADAPTER");
        return true;
    }
    false
}

/// True (after a `SKIPPED` line) when there is no display.
fn skip_without_display(test: &str) -> bool {
    if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        return false;
    }
    support::skip(test, "no DISPLAY or WAYLAND_DISPLAY (run under xvfb-run)", "VIEWER_REQUIRE_ADAPTER");
    true
}

#[test]
fn screenshots_whose_readback_exceeds_the_buffer_limit_are_refused() {
    let dir = support::Scratch::new("readback");
    let png = dir.join("x.png");
    // Each passes the 16384 side limit; each read-back buffer exceeds 256 MiB.
    for size in ["8193x8192", "16384x4097"] {
        let o = octile(
            &["view", "assets/plus_arena.json", "--size", size, "--screenshot", png.to_str().unwrap()],
            &[],
        );
        let err = stderr(&o);
        if skip_without_adapter("screenshots_whose_readback_exceeds_the_buffer_limit_are_refused", &err) {
            return;
        }
        assert_eq!(o.status.code(), Some(1), "{size}: {err}");
        assert!(
            err.contains("max_buffer_size") && err.contains("--size") && !err.contains("panicked"),
            "{err}"
        );
        assert!(!png.exists(), "nothing written");
    }
}

#[test]
fn screenshots_must_be_png_files() {
    let dir = support::Scratch::new("jpg");
    let jpg = dir.join("x.jpg");
    let o = octile(
        &["view", "assets/two_levels.json", "--size", "32x32", "--screenshot", jpg.to_str().unwrap()],
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(".png extension"), "{err}");
    assert!(!jpg.exists(), "no PNG data in a .jpg");
}

#[test]
fn msaa_other_than_1_or_4_is_refused() {
    let dir = support::Scratch::new("msaa");
    let png = dir.join("m.png");
    let o = octile(
        &["view", "assets/two_levels.json", "--size", "32x32", "--screenshot", png.to_str().unwrap()],
        &[("OCTILE_MSAA", Some("3"))],
    );
    let err = stderr(&o);
    if skip_without_adapter("msaa_other_than_1_or_4_is_refused", &err) {
        return;
    }
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("OCTILE_MSAA=\"3\"") && err.contains("use 1 (off) or 4"), "{err}");
}

#[test]
fn zero_frames_are_refused() {
    let o = octile(&["view", "assets/two_levels.json", "--frames", "0"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--frames") && !err.contains("frames: 1"), "{err}");
}

/// One window test at a time: the resize test asks Xvfb for a huge window, which keeps the
/// server busy while the other test's viewer starts.
static ONE_WINDOW: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_window_size_past_the_texture_limit_is_refused() {
    let test = "a_window_size_past_the_texture_limit_is_refused";
    let _alone = ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if skip_without_display(test) {
        return;
    }
    let o = octile(&["view", "assets/two_levels.json", "--size", "20000x20000", "--frames", "2"], &[]);
    let err = stderr(&o);
    if skip_without_adapter(test, &err) {
        return;
    }
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("20000x20000") && err.contains("max_texture_dimension_2d"), "{err}");
}

use support::xdotool;

#[test]
fn a_window_resized_past_the_limit_then_closed_from_outside_exits_cleanly() {
    let _alone = ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let test = "a_window_resized_past_the_limit_then_closed_from_outside_exits_cleanly";
    if skip_without_display(test) {
        return;
    }
    if xdotool(&["version"]).is_none() {
        support::skip(test, "xdotool is not installed", "VIEWER_REQUIRE_XDOTOOL");
        return;
    }
    let Some((mut child, window)) =
        support::open_viewer_window(test, &["assets/two_levels.json", "--size", "320x240"], &[])
    else {
        return;
    };
    std::thread::sleep(Duration::from_millis(1500));
    for (w, h) in [("20000", "20000"), ("16385", "200"), ("400", "300")] {
        xdotool(&["windowsize", &window, w, h]);
        std::thread::sleep(Duration::from_millis(1500));
        assert!(child.try_wait().unwrap().is_none(), "the viewer died after a resize to {w}x{h}");
    }
    xdotool(&["windowclose", &window]);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    if child.try_wait().unwrap().is_none() {
        child.kill().ok();
    }
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
