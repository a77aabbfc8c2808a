//! Issue 16: every dungeon `generate` returns is one connected region (over passable steps
//! and stairs, as `octile info` counts) with its exit a floor octagon on the last level that
//! is neither the entrance nor a hole; or `generate` refuses with
//! `GenerateError::Disconnected`, which says why and what to change. Never a silent wrong
//! result.
//!
//! Runs every shape below over `OCTILE_GEN_SEEDS` seeds (default 6, so `cargo test` stays
//! quick); for a full run:
//!
//!     OCTILE_GEN_SEEDS=1000 cargo test --release --test generate_connected -- --nocapture

use octile::dungeon::Dungeon;
use octile::generate::{GenerateError, GenerateOptions, generate};
use octile::grid::{Pos, SlotKind};
use octile::path::dungeon_regions;
use octile::wfc::octile::Weights;

/// The awkward shapes: 1xN, Nx1, 2xN, 3x3, many levels, one stair per level pair, high
/// void weight, single levels; `(cols, rows, levels, stairs, void_weight)`.
const SHAPES: &[(u32, u32, u32, u32, f64)] = &[
    (1, 6, 3, 1, 1.0),
    (6, 1, 3, 1, 1.0),
    (8, 1, 3, 1, 1.0),
    (1, 9, 4, 2, 1.0),
    (2, 4, 3, 1, 1.0),
    (5, 2, 3, 1, 1.0),
    (2, 7, 5, 1, 1.0),
    (3, 3, 3, 1, 1.0),
    (3, 3, 6, 1, 1.0),
    (4, 4, 3, 1, 1.0),
    (4, 4, 3, 2, 1.0),
    (5, 4, 10, 1, 1.0),
    (8, 8, 3, 1, 400.0),
    (3, 5, 4, 1, 50.0),
    (2, 1, 1, 1, 1.0),
    (1, 5, 1, 1, 1.0),
];

fn seeds() -> u64 {
    std::env::var("OCTILE_GEN_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(6)
}

/// The contract, checked from the outside: `None` when `d` keeps it, else what is wrong.
fn broken(d: &Dungeon) -> Option<String> {
    let regions = dungeon_regions(d).count();
    if regions != 1 {
        return Some(format!("{regions} regions"));
    }
    let (entrance, exit) = (d.entrance()?, d.exit()?);
    let floor_octagon = |p: Pos| p.slot.kind() == SlotKind::Octagon && d.tile_def(p).unwrap().walkable;
    if entrance.level != 0 || !floor_octagon(entrance) {
        return Some(format!("entrance {entrance}"));
    }
    if exit.level + 1 != d.levels() || !floor_octagon(exit) || exit == entrance {
        return Some(format!("exit {exit} (entrance {entrance})"));
    }
    if d.stair_below(exit).is_some() {
        return Some(format!("exit {exit} is a hole"));
    }
    None
}

#[test]
fn every_generated_dungeon_is_connected_or_refused() {
    let seeds = seeds();
    let mut report = Vec::new();
    for &(cols, rows, levels, stairs, void_weight) in SHAPES {
        let weights = Weights { void_weight, ..Weights::default() };
        let (mut ok, mut refused) = (0, 0);
        for seed in 0..seeds {
            let o = GenerateOptions { seed, cols, rows, levels, stairs, weights, ..Default::default() };
            match generate(&o, &mut |_| {}) {
                Ok(d) => {
                    assert_eq!(
                        broken(&d),
                        None,
                        "{cols}x{rows}, {levels} levels, {stairs} stairs, seed {seed}"
                    );
                    assert!(d.entrance().is_some() && d.exit().is_some(), "seed {seed}: markers set");
                    ok += 1;
                }
                Err(e @ GenerateError::Disconnected { .. }) => {
                    let msg = e.to_string();
                    assert!(
                        msg.contains(&format!("{cols}x{rows} octagons")) && msg.contains("wide"),
                        "{msg}"
                    );
                    refused += 1;
                }
                Err(e) => panic!("{cols}x{rows}, {levels} levels, seed {seed}: unexpected error {e}"),
            }
        }
        report.push(format!(
            "{cols}x{rows} x{levels} stairs {stairs} void {void_weight}: {ok} ok, {refused} refused"
        ));
        // Only one octagon wide may a shape be hard to connect; wider ones always connect.
        if cols > 1 && rows > 1 {
            assert_eq!(refused, 0, "{}", report.last().unwrap());
        }
    }
    println!("{}", report.join("\n"));
}

#[test]
fn a_single_octagon_is_refused_because_the_exit_would_be_the_entrance() {
    let o = GenerateOptions { cols: 1, rows: 1, levels: 1, ..Default::default() };
    let e = generate(&o, &mut |_| {}).unwrap_err();
    assert!(matches!(e, GenerateError::BadOption { name: "octagons", .. }), "{e}");
    assert!(e.to_string().contains("the exit may not be the entrance"), "{e}");
}

/// The cases of issue 16 that used to come out wrong.
#[test]
fn the_reported_cases_are_connected() {
    for o in [
        GenerateOptions { seed: 13, levels: 3, cols: 3, rows: 3, stairs: 1, ..Default::default() },
        GenerateOptions { seed: 0, cols: 4, rows: 4, ..Default::default() },
    ] {
        let d = generate(&o, &mut |_| {}).unwrap();
        assert_eq!(broken(&d), None, "{o:?}");
    }
}
