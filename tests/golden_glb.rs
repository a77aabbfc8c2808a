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
        (GenerateOptions::default(), "7931c5f9a842bae83ce43e5ae0ffd35c8f55dbf3c6ed5f8fc47bb4719bdbb799"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "15aae648e36871025d2a3fed3d4ed556483fb464983cf5a4f04d32e6bd605456",
        ),
        (
            GenerateOptions { seed: 3, cut_ratio: 0.29, ..GenerateOptions::default() },
            "ad5f24143d4a040e30637660a5b4ce651006190b0645551d45a293b94ed40744",
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
/// exactly those pinned before generation placed doors.
#[test]
fn without_doors_the_bytes_are_those_from_before_doors() {
    let options = GenerateOptions { doors: 0.0, ..GenerateOptions::default() };
    assert_eq!(sha(&glb(&options)), "2f0ee9890b93ede4cd712e55183d56893abd396acb247f3f670f80148c3cb51f");
}

#[test]
fn same_options_same_bytes_other_seed_other_bytes() {
    let a = GenerateOptions { seed: 11, levels: 2, cols: 8, rows: 8, ..GenerateOptions::default() };
    let b = GenerateOptions { seed: 12, ..a.clone() };
    assert_eq!(glb(&a), glb(&a));
    assert_ne!(glb(&a), glb(&b));
}
