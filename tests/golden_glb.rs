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
        (GenerateOptions::default(), "fbfcdd9a4d271b0ec30f8ebaa45b0ed923307e66fa08aa2689ea2110c15b3098"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "f20ea8cd48c02f5d0b424685931c06d2b50ad8142b007b6e35e2734e362faf2d",
        ),
        (
            GenerateOptions { seed: 3, cut_ratio: 0.29, ..GenerateOptions::default() },
            "9b7c4f47f2e9cff1e2be26bf883d9312f82819851e4abcb8a26ac7e4899f9f24",
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
