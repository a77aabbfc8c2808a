//! Progress reporting of meshing and export: the calls are deterministic and monotone, end
//! at the total, and reporting never changes the output.

use std::path::PathBuf;

use octile::dungeon::{Dungeon, Fill};
use octile::export::{self, ExportOptions, Progress};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::Proportions;
use octile::mesh::{self, MeshOptions, MeshProgress};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octile-progress-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Five all-floor levels: more levels than worker threads, so a worker builds a run of them.
fn five_levels() -> Dungeon {
    Dungeon::new(3, 3, 5, Proportions::default(), Fill::Floor).unwrap()
}

fn generated() -> Dungeon {
    let options = GenerateOptions { seed: 11, levels: 3, cols: 6, rows: 6, ..Default::default() };
    generate(&options, &mut |_| {}).unwrap()
}

#[test]
fn mesh_progress_counts_every_level_in_order_and_keeps_the_mesh() {
    for d in [five_levels(), generated()] {
        let total = d.levels();
        let mut seen = Vec::new();
        let with = mesh::build_with_progress(&d, &MeshOptions::default(), &mut |p| seen.push(p)).unwrap();
        let expected: Vec<_> = (1..=total).map(|done| MeshProgress::Levels { done, total }).collect();
        assert_eq!(seen, expected, "one report per level, in level order, ending at the total");
        assert_eq!(with, mesh::build(&d, &MeshOptions::default()).unwrap());
    }
}

#[test]
fn mesh_progress_passes_errors_through() {
    let d = five_levels();
    let bad = MeshOptions { texture_size: 0.0, ..Default::default() };
    let mut calls = 0;
    let err = mesh::build_with_progress(&d, &bad, &mut |_| calls += 1).unwrap_err();
    assert_eq!(err, mesh::build(&d, &bad).unwrap_err());
    assert_eq!(calls, 0, "nothing is reported before the options are checked");
}

/// A number for each report that must not go down: the stage, then how far into it.
fn rank(p: &Progress) -> (u8, usize) {
    match *p {
        Progress::Mesh(MeshProgress::Levels { done, .. }) => (0, usize::from(done)),
        Progress::Document { done, .. } => (1, done),
        Progress::Writing { .. } => (2, 0),
    }
}

#[test]
fn export_progress_is_monotone_ends_at_the_totals_and_keeps_the_bytes() {
    let dir = temp_dir("glb");
    let d = generated();
    let levels = usize::from(d.levels());
    let options = ExportOptions { colliders: true, ..Default::default() };
    let (plain, reported) = (dir.join("plain.glb"), dir.join("reported.glb"));
    export::Export::new(&d, &options).to_file(&plain).unwrap();
    let mut seen = Vec::new();
    let summary =
        export::Export::new(&d, &options).progress(&mut |p| seen.push(p)).to_file(&reported).unwrap();
    let bytes = std::fs::read(&reported).unwrap();
    assert_eq!(bytes, std::fs::read(&plain).unwrap(), "progress must not change the file");
    assert_eq!(bytes, export::Export::new(&d, &options).to_glb().unwrap());
    assert!(seen.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])), "not monotone: {seen:?}");
    let meshed: Vec<_> = seen.iter().filter(|p| matches!(p, Progress::Mesh(_))).collect();
    let total = d.levels();
    assert_eq!(meshed.last(), Some(&&Progress::Mesh(MeshProgress::Levels { done: total, total })));
    assert_eq!(meshed.len(), levels);
    let packed: Vec<_> = seen.iter().filter(|p| matches!(p, Progress::Document { .. })).collect();
    assert_eq!(packed.len(), levels);
    assert_eq!(packed.last(), Some(&&Progress::Document { done: levels, total: levels }));
    assert_eq!(seen.last(), Some(&Progress::Writing { bytes: bytes.len() }));
    assert_eq!(summary.bytes, bytes.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gltf_export_reports_each_file_it_writes() {
    let dir = temp_dir("gltf");
    let d = five_levels();
    let path = dir.join("five.gltf");
    let mut writes = Vec::new();
    let summary = export::Export::new(&d, &ExportOptions::default())
        .progress(&mut |p| {
            if let Progress::Writing { bytes } = p {
                writes.push(bytes);
            }
        })
        .to_file(&path)
        .unwrap();
    let sizes: Vec<usize> = [dir.join("five.bin"), path.clone()]
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len() as usize)
        .collect();
    assert_eq!(writes, sizes, "the .bin first, then the JSON");
    assert_eq!(summary.bytes, sizes.iter().sum::<usize>());
    let plain = dir.join("plain.gltf");
    export::Export::new(&d, &ExportOptions::default()).to_file(&plain).unwrap();
    assert_eq!(std::fs::read(dir.join("five.bin")).unwrap(), std::fs::read(dir.join("plain.bin")).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}
