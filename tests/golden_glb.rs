//! Golden outputs: the SHA-256 of a few generated `.glb` files is pinned, so any change to
//! what users get (generation, meshing or export) is a visible, deliberate diff. When a
//! change is intended, update the hashes in the same commit and say why.
//!
//! The pins are meant to hold on every platform: no Rust code from options to bytes calls
//! the platform's maths library (the solver's entropy is integer fixed point, angles come
//! from `geometry::angle`, the rest is IEEE `+ - * /` and `sqrt`). One known gap: the
//! overdraw pass of meshoptimizer is C++, and a C++ compiler that fuses multiply-adds (the
//! default on aarch64) may order triangles differently (README, "What is guaranteed").
//! Checked here on x86-64 Linux.

use octile::export::{ExportOptions, to_glb};
use octile::generate::{GenerateOptions, generate};
use sha2::{Digest, Sha256};

fn glb(options: &GenerateOptions) -> Vec<u8> {
    let dungeon = generate(options, &mut |_| {}).unwrap();
    to_glb(&dungeon, &ExportOptions::default()).unwrap()
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn cases() -> Vec<(GenerateOptions, &'static str)> {
    vec![
        (GenerateOptions::default(), "7a6b9c335356a3c1febc3c11f8e0cd0e738663623a477bde0e2ef1828d4dc3ca"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "5b471a00a9c12b44ba63bdb8fdf66418b4b8e618634e501e76fb707b3b53022f",
        ),
        (
            GenerateOptions { seed: 3, cut_ratio: 0.29, ..GenerateOptions::default() },
            "370ce823232a331dc0bd374b230641381d501799d08130fbefaa871d943b73ee",
        ),
    ]
}

#[test]
fn golden_glb_hashes() {
    let got: Vec<String> = cases().iter().map(|(o, _)| sha(&glb(o))).collect();
    let want: Vec<&str> = cases().iter().map(|(_, h)| *h).collect();
    assert_eq!(got, want);
}

/// Doors are drawn after the layout, so with `doors: 0` the default dungeon's bytes are
/// those of the same export before generation placed doors (the engines merge's extras and
/// UV0 rebase included) but for the compact room graph in the `Dungeon` node's extras: no
/// door leaf node, no leaf mesh.
#[test]
fn without_doors_the_bytes_are_those_from_before_doors() {
    let options = GenerateOptions { doors: 0.0, ..GenerateOptions::default() };
    assert_eq!(sha(&glb(&options)), "94613b78cd5268ee5dde8df1d02b1b95d750f1deba434e81914bf60859f4d99f");
}

#[test]
fn same_options_same_bytes_other_seed_other_bytes() {
    let a = GenerateOptions { seed: 11, levels: 2, cols: 8, rows: 8, ..GenerateOptions::default() };
    let b = GenerateOptions { seed: 12, ..a.clone() };
    assert_eq!(glb(&a), glb(&a));
    assert_ne!(glb(&a), glb(&b));
}

/// What `octile generate` makes by default since room graphs: the default grammar's level
/// on the default size (12x12 octagons, 3 levels, seed 0). The maze hashes above pin
/// `--flow maze`, which the room graphs' filler also runs on.
#[test]
fn golden_room_graph_hash() {
    let options = GenerateOptions::default();
    let dungeon =
        octile::flow::realise_grammar(octile::flow::Grammar::Default, &options, &mut |_| {}).unwrap();
    let octile::flow::GrammarOutcome::Rooms(dungeon) = dungeon else { panic!("12x12 holds rooms") };
    let dungeon = *dungeon;
    let bytes = to_glb(&dungeon, &ExportOptions::default()).unwrap();
    assert_eq!(sha(&bytes), "81054b2de0af6610e2498412d825ddd5f3b958759c0b7aebc19dd10c84841066");
}
