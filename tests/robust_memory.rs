//! Regression test for issue 10: a tiny file declaring a huge grid is refused before any
//! layer is allocated. Alone in its file, so that the process's peak memory is its own.

use std::path::Path;

use octile::format::{FormatError, Problem, from_json};
use serde_json::Value;

/// The most memory this process has held so far (kB), where the system says (Linux:
/// `VmHWM` in `/proc/self/status`).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The sample with two levels and one stair, as JSON.
fn two_levels() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/two_levels.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A 1 KB file declaring 4096 x 2048 octagons allocated (and filled) 470 MB of layers
/// before it reported its wrong row count. This test has its process to itself, so the
/// process's peak memory must stay far below that.
#[test]
fn a_wrong_plan_shape_is_refused_before_allocating() {
    let mut v = two_levels();
    v["octagons"] = serde_json::json!([4096, 2048]);
    let text = v.to_string();
    let result = from_json(&text);
    let Err(FormatError::Invalid { problems }) = result else { panic!("{:?}", result.map(|_| ())) };
    assert!(
        problems
            .iter()
            .any(|p| matches!(p, Problem::RowCount { field: "slots", expected: 4095, found: 5, .. })),
        "{problems:?}"
    );
    match peak_memory_kb() {
        Some(kb) => assert!(kb < 100_000, "peak memory {kb} kB after refusing a {} byte file", text.len()),
        None => eprintln!(
            "a_wrong_plan_shape_is_refused_before_allocating: peak memory unknown here, not checked"
        ),
    }
}
