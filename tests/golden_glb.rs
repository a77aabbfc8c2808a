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

use octile::export::{Export, ExportOptions};
use octile::generate::{GenerateOptions, generate};
use sha2::{Digest, Sha256};

fn glb(options: &GenerateOptions) -> Vec<u8> {
    let dungeon = generate(options, &mut |_| {}).unwrap();
    Export::new(&dungeon, &ExportOptions::default()).to_glb().unwrap()
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn cases() -> Vec<(GenerateOptions, &'static str)> {
    vec![
        (GenerateOptions::default(), "19accb61732c544a508173a68a406be4e39bcc51a7d241f5e2c52d1447bb82ad"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "5b471a00a9c12b44ba63bdb8fdf66418b4b8e618634e501e76fb707b3b53022f",
        ),
        (
            GenerateOptions { seed: 3, cut_ratio: 0.29, ..GenerateOptions::default() },
            "0556ab1254de97be226f524451d824ef736eecaf5b46e9508c4337e22695c1be",
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
    assert_eq!(sha(&glb(&options)), "459622d165c98bde10d0340c366ed384c68e09144f88bcd5a088659c2be6ed3c");
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
    let bytes = Export::new(&dungeon, &ExportOptions::default()).to_glb().unwrap();
    assert_eq!(sha(&bytes), "81054b2de0af6610e2498412d825ddd5f3b958759c0b7aebc19dd10c84841066");
}
