//! Regression tests for issue 10's bad inputs: each case panicked, aborted, read or
//! allocated without bound, or changed a file while failing. Each now gets a typed error
//! that names the limit, and a failed write leaves every file as it was.

use std::path::{Path, PathBuf};

#[cfg(feature = "export")]
use octile::export::{self, ExportOptions};
use octile::format::{FormatError, from_json, load};
use octile::generate::{GenerateOptions, generate};
use serde_json::Value;

/// A fresh, empty folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octile-robust-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The sample with two levels and one stair, as JSON.
fn two_levels() -> Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/two_levels.json"))
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn message(v: &Value) -> String {
    from_json(&v.to_string()).map(|_| ()).expect_err("the file is refused").to_string()
}

/// `layer_height` 1e8 aborted allocating 6.4 GB of stair steps; 1e17 overflowed capacity;
/// `base` 1e39 exported `null` accessor bounds; every proportion at 1e-300 panicked.
#[test]
fn extreme_proportions_are_refused_naming_the_limit() {
    let cases: [(&str, f64, &str); 5] = [
        ("layer_height", 1e17, "MAX_LAYER_HEIGHT"),
        ("layer_height", 1e8, "MAX_LAYER_HEIGHT"),
        ("base", 1e39, "MAX_BASE"),
        ("cut_ratio", 0.4999999, "MAX_CUT_RATIO"),
        ("door_width", 1e-300, "MIN_DOOR_WIDTH"),
    ];
    for (field, value, limit) in cases {
        let mut v = two_levels();
        v["proportions"][field] = value.into();
        let msg = message(&v);
        assert!(msg.contains(field) && msg.contains(limit), "{field} = {value}: {msg}");
    }
    let mut v = two_levels();
    for field in ["base", "cut_ratio", "layer_height", "room_height", "door_width", "door_height"] {
        v["proportions"][field] = 1e-300.into();
    }
    assert!(message(&v).contains("MIN_BASE"), "{}", message(&v));
}

#[test]
fn unknown_proportion_fields_are_refused() {
    let mut v = two_levels();
    v["proportions"]["stair_rise"] = 0.2.into();
    let msg = message(&v);
    assert!(msg.contains("unknown field `stair_rise`"), "{msg}");
}

/// `generate --cut 0.4999999` panicked in the vertex-fetch remap.
#[test]
fn a_cut_ratio_near_one_half_is_refused() {
    let options = GenerateOptions { cut_ratio: 0.4999999, cols: 4, rows: 4, ..Default::default() };
    let msg = generate(&options, &mut |_| {}).map(|_| ()).unwrap_err().to_string();
    assert!(msg.contains("cut_ratio") && msg.contains("MAX_CUT_RATIO"), "{msg}");
}

/// A file that says it is larger than the input limit is refused before it is read (it
/// was read whole, and `/dev/zero` until memory ran out).
#[test]
fn an_oversized_file_is_refused_unread() {
    let dir = folder("oversized");
    let path = dir.join("huge.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(octile::io::MAX_INPUT_BYTES + 1).unwrap(); // sparse: no disk used
    match load(&path) {
        Err(FormatError::Read { cause: source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::FileTooLarge);
            assert!(source.to_string().contains("MAX_INPUT_BYTES"), "{source}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-o p.gltf` when `p.gltf` could not be written had already replaced `p.bin`.
#[cfg(feature = "export")]
#[test]
fn a_failed_gltf_export_leaves_the_bin_as_it_was() {
    let dir = folder("gltf");
    let d = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/l_bend.json")).unwrap();
    let (gltf, bin) = (dir.join("p.gltf"), dir.join("p.bin"));
    std::fs::write(&bin, b"old").unwrap();
    std::fs::create_dir(&gltf).unwrap();
    assert!(export::Export::new(&d, &ExportOptions::default()).to_file(&gltf).is_err());
    assert_eq!(std::fs::read(&bin).unwrap(), b"old");
    let mut left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["p.bin", "p.gltf"], "no temporary left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A legal 245-byte output name failed: the temporary name was longer than 255 bytes (a
/// 250-byte name fails whatever the process id).
#[cfg(feature = "export")]
#[test]
fn a_long_output_name_is_written() {
    let dir = folder("long");
    let d = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/l_bend.json")).unwrap();
    let path = dir.join("d".repeat(246) + ".glb");
    let summary = export::Export::new(&d, &ExportOptions::default()).to_file(&path).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len() as usize, summary.bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}
