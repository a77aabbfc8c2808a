//! Frames on a CPU renderer keep their memory (`viewer::memory`): drawing the top view of
//! a generated 12x12x3 dungeon again and again, the process takes almost no new pages per
//! frame (before, glibc returned lavapipe's few megabytes of binned triangles to the
//! kernel after every frame and the next frame faulted them in again: about 530 page
//! faults per frame). Linux only (page faults from `/proc/self/stat`); one test in its own
//! process, so no other test's allocations count. Without an adapter the test prints
//! `SKIPPED` and passes unless `VIEWER_REQUIRE_ADAPTER=1`.
#![cfg(all(feature = "viewer", target_os = "linux"))]

mod support;

use octile::generate::{GenerateOptions, generate};
use octile::viewer::AdapterPreference;
use octile::viewer::CameraKind;
use octile::viewer::{ViewOptions, ViewerError, offscreen_view};

/// Minor page faults of this process so far (`/proc/self/stat`, field 10).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The command name (field 2) may hold spaces: count the fields after its ')'.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    after.split(' ').nth(7).unwrap().parse().unwrap()
}

#[test]
fn top_view_frames_take_almost_no_new_pages() {
    const TEST: &str = "top_view_frames_take_almost_no_new_pages";
    octile::viewer::memory::keep_frame_memory();
    let options = GenerateOptions { seed: 7, levels: 3, cols: 12, rows: 12, ..GenerateOptions::default() };
    let dungeon = generate(&options, &mut |_| {}).unwrap();
    let view = ViewOptions {
        camera: CameraKind::Top,
        size: (1280, 720),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let (gpu, mut offscreen, frame) = match offscreen_view(&dungeon, &view) {
        Ok(v) => v,
        Err(e @ ViewerError::NoAdapter { .. }) => {
            support::skip(TEST, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
            return;
        }
        Err(e) => panic!("{TEST}: {e}"),
    };
    for _ in 0..3 {
        offscreen.draw(&gpu, &frame).unwrap();
    }
    const FRAMES: u64 = 20;
    let before = minor_faults();
    for _ in 0..FRAMES {
        offscreen.draw(&gpu, &frame).unwrap();
    }
    let per_frame = (minor_faults() - before) / FRAMES;
    assert!(per_frame < 50, "{per_frame} page faults per frame (the memory of a frame is not kept)");
}
