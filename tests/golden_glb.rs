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
        (GenerateOptions::default(), "673198e980e47c15282bbeb211fe9f2ed33793a96d5b85826f17eb9dc66d0986"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "d416ad1b34d6d463ce3b12830ccfc09d42425ac6fa2893fa87d0651cd551a559",
        ),
        (
            GenerateOptions { seed: 3, cut_ratio: 0.29, ..GenerateOptions::default() },
            "9924ac64130d6907f8a0054e8da8dac510058bfa7f05ee2f43cad66c5f3a86b5",
        ),
    ]
}

#[test]
fn golden_glb_hashes() {
    let got: Vec<String> = cases().iter().map(|(o, _)| sha(&glb(o))).collect();
    let want: Vec<&str> = cases().iter().map(|(_, h)| *h).collect();
    assert_eq!(got, want);
}

#[test]
fn same_options_same_bytes_other_seed_other_bytes() {
    let a = GenerateOptions { seed: 11, levels: 2, cols: 8, rows: 8, ..GenerateOptions::default() };
    let b = GenerateOptions { seed: 12, ..a.clone() };
    assert_eq!(glb(&a), glb(&a));
    assert_ne!(glb(&a), glb(&b));
}
