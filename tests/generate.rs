//! Multi-level generation: connectivity, stairs, determinism, golden hashes, weights that
//! matter, and clear errors for bad options.

use octile::dungeon::{Dungeon, Registry};
use octile::generate::{GenerateError, GenerateOptions, generate};
use octile::grid::{Pos, SlotKind};
use octile::path::dungeon_regions;
use octile::wfc::{SolveError, octile as oct};
use sha2::{Digest, Sha256};

fn make(options: &GenerateOptions) -> Dungeon {
    generate(options, &mut |_| {}).unwrap()
}

fn json_sha(d: &Dungeon) -> String {
    Sha256::digest(octile::format::to_json(d).as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Panics unless the dungeon is one region over all levels (under the shaft rule: the hole
/// above a stair joins its level only through the stair's exit), every stair lands on carved
/// floor and has an exit, entrance and exit are floor octagons (entrance on level 0, exit on
/// the last level, not a hole) and every edge is open exactly between two carved cells,
/// except the walls of a hole other than its exit (open or a door: generation puts doors on
/// some seams between a room and a corridor).
fn assert_sound(d: &Dungeon) {
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    let regions = dungeon_regions(d);
    assert_eq!(regions.count(), 1, "one region over all levels");
    let entrance = d.entrance().expect("entrance set");
    let exit = d.exit().expect("exit set");
    assert_eq!(entrance.level, 0);
    assert_eq!(exit.level, d.levels() - 1);
    assert!(d.stair_below(exit).is_none(), "the exit {exit} is not the hole above a stair");
    for p in [entrance, exit] {
        assert_eq!(p.slot.kind(), SlotKind::Octagon);
        assert!(d.tile_def(p).unwrap().carved);
    }
    let dims = d.dims();
    for level in 0..d.levels() {
        for edge in dims.edges() {
            let sides = dims.edge_sides(edge).unwrap();
            let both = sides.iter().all(|(s, _)| d.tile_def(Pos { level, slot: *s }).unwrap().carved);
            let (slot, dir) = sides[0];
            let allowed = d.shaft_allows(Pos { level, slot }, dir);
            let state = d.edge_state_of(level, edge).unwrap();
            let open = state == Registry::OPEN || state == Registry::DOOR;
            assert_eq!(open, both && allowed, "level {level} {edge}");
        }
    }
    let mut stairs = vec![0; usize::from(d.levels())];
    for p in d.cells() {
        if d.tile_def(p).unwrap().stair {
            stairs[usize::from(p.level)] += 1;
            assert!(
                d.tile_def(Pos { level: p.level + 1, ..p }).unwrap().carved,
                "stair at {p} lands on rock"
            );
            let exit = d.stair_exit(p).unwrap_or_else(|| panic!("stair at {p} has no exit"));
            let top = Pos { level: p.level + 1, ..p };
            let beyond = Pos { slot: d.dims().neighbor(top.slot, exit).unwrap().unwrap(), ..top };
            assert!(d.tile_def(beyond).unwrap().walkable && d.stair_below(beyond).is_none(), "stair at {p}");
        }
    }
    for (l, n) in stairs.iter().enumerate().take(usize::from(d.levels()) - 1) {
        assert!(*n >= 1, "level {l} has no stair up");
    }
}

#[test]
fn default_dungeon_is_sound() {
    let d = make(&GenerateOptions::default());
    assert_eq!(d.levels(), 3);
    assert_eq!((d.dims().octagon_cols(), d.dims().octagon_rows()), (12, 12));
    assert_eq!(d.seed(), Some(0));
    assert_sound(&d);
}

#[test]
fn many_seeds_and_shapes_are_sound() {
    for seed in 0..12 {
        let o = GenerateOptions {
            seed,
            levels: 1 + (seed % 4) as u32,
            cols: 3 + (seed * 5 % 11) as u32,
            rows: 2 + (seed * 3 % 7) as u32,
            stairs: 1,
            loops: (seed % 3) as u32,
            ..GenerateOptions::default()
        };
        assert_sound(&make(&o));
    }
    // The smallest dungeons (one octagon is refused: the exit may not be the entrance).
    assert_sound(&make(&GenerateOptions { cols: 2, rows: 1, levels: 1, ..GenerateOptions::default() }));
    assert_sound(&make(&GenerateOptions {
        cols: 3,
        rows: 1,
        levels: 2,
        stairs: 1,
        ..GenerateOptions::default()
    }));
}

#[test]
fn sparse_weights_are_repaired_into_one_region() {
    // Mostly rock: many pockets, all joined by carving.
    let w = oct::Weights { void_weight: 400.0, ..oct::Weights::default() };
    let d = make(&GenerateOptions { weights: w, seed: 9, cols: 16, rows: 16, ..GenerateOptions::default() });
    assert_sound(&d);
}

#[test]
fn same_seed_same_bytes_other_seed_other_dungeon() {
    let o = GenerateOptions { seed: 42, ..GenerateOptions::default() };
    let a = octile::format::to_json(&make(&o));
    assert_eq!(a, octile::format::to_json(&make(&o)));
    let b = octile::format::to_json(&make(&GenerateOptions { seed: 43, ..o }));
    assert_ne!(a, b);
}

#[test]
fn loops_add_cycles_that_save_the_walk_asked_for() {
    let base = GenerateOptions {
        seed: 3,
        levels: 1,
        cols: 16,
        rows: 16,
        loops: 0,
        loop_gain: 3,
        ..GenerateOptions::default()
    };
    let floor = |d: &Dungeon| d.cells().filter(|p| d.tile_def(*p).unwrap().carved).count();
    let without = make(&base);
    let with = make(&GenerateOptions { loops: 4, ..base });
    assert!(floor(&with) > floor(&without), "loops saving 3 long steps carve rock");
    assert_sound(&with);
    // No loop saves a thousand long steps on 16x16: the knob leaves the maze a tree.
    let never = make(&GenerateOptions { loops: 4, loop_gain: 1000, ..base });
    assert_eq!(octile::format::to_json(&never), octile::format::to_json(&without));
}

/// Pins of the dungeon JSON of a few seeds: any change to generated output is a visible,
/// deliberate diff here.
#[test]
fn golden_json_hashes() {
    let cases = [
        (GenerateOptions::default(), "8d5ac7a8aa0099df41d53b4557d1814fb09b25ba4ae573549d61dddf657ac0db"),
        (
            GenerateOptions { seed: 7, levels: 2, cols: 9, rows: 6, ..GenerateOptions::default() },
            "98f759d53905287a9684b577f40af9d7c968c45f04a72ea1926f51d3b5d187e3",
        ),
        (
            GenerateOptions {
                seed: 12345,
                levels: 4,
                cols: 20,
                rows: 20,
                stairs: 3,
                ..GenerateOptions::default()
            },
            "44652ed9ab6cab6ec7861ff28e33a3b77536fb818259e973ffd28fd111db96df",
        ),
    ];
    let got: Vec<String> = cases.iter().map(|(o, _)| json_sha(&make(o))).collect();
    let want: Vec<&str> = cases.iter().map(|(_, h)| *h).collect();
    assert_eq!(got, want);
}

fn bad(o: GenerateOptions) -> GenerateError {
    generate(&o, &mut |_| {}).unwrap_err()
}

#[test]
fn bad_options_are_clear_errors() {
    let d = GenerateOptions::default();
    let e = bad(GenerateOptions { cols: 0, ..d.clone() });
    assert!(matches!(e, GenerateError::BadOption { name: "octagons", .. }), "{e}");
    assert!(matches!(
        bad(GenerateOptions { levels: 0, ..d.clone() }),
        GenerateError::BadOption { name: "levels", .. }
    ));
    let e = bad(GenerateOptions { doors: 1.5, ..d.clone() });
    assert!(matches!(e, GenerateError::BadOption { name: "doors", .. }), "{e}");
    let e = bad(GenerateOptions { stairs: 72, ..d.clone() });
    assert!(matches!(e, GenerateError::BadOption { name: "stairs", .. }));
    assert!(e.to_string().contains("more stairs than octagons"), "{e}");
    assert!(matches!(
        bad(GenerateOptions { stairs: 0, ..d.clone() }),
        GenerateError::BadOption { name: "stairs", .. }
    ));
    assert!(matches!(
        bad(GenerateOptions { attempts: 0, ..d.clone() }),
        GenerateError::BadOption { name: "attempts", .. }
    ));
    let w = oct::Weights { void_weight: -1.0, ..oct::Weights::default() };
    let e = bad(GenerateOptions { weights: w, ..d.clone() });
    assert!(
        matches!(&e, GenerateError::Tiles(SolveError::BadWeight { name, .. }) if name == "void_weight"),
        "{e}"
    );
    let w = oct::Weights { wall_factor: f64::NAN, ..oct::Weights::default() };
    assert!(matches!(
        bad(GenerateOptions { weights: w, ..d.clone() }),
        GenerateError::Tiles(SolveError::BadWeight { .. })
    ));
    assert!(matches!(bad(GenerateOptions { cut_ratio: 0.6, ..d.clone() }), GenerateError::Dungeon(_)));
    // Over the dungeon's slot limit.
    assert!(matches!(
        bad(GenerateOptions { cols: 4000, rows: 4000, ..d.clone() }),
        GenerateError::Dungeon(_)
    ));
    // Within the dungeon's limit but over the solver's memory limit (about 2.3 KB a cell).
    let e = bad(GenerateOptions { cols: 1000, rows: 1000, levels: 1, ..d.clone() });
    assert!(matches!(e, GenerateError::Tiles(SolveError::TooLarge { .. })), "{e}");
}

#[test]
fn a_level_that_cannot_be_solved_names_level_and_seed() {
    // No connector tile has a weight, so no connector cell can take one. (A zero
    // open_weight, which made no floor octagon, is now refused as an option.)
    let w =
        oct::Weights { connector_void_weight: 0.0, connector_open_weight: 0.0, ..oct::Weights::default() };
    let e = bad(GenerateOptions { weights: w, seed: 5, ..GenerateOptions::default() });
    assert!(
        matches!(
            &e,
            GenerateError::Level { level: 0, seed: 5, attempts: 3, cause: SolveError::Unsatisfiable { .. } }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("level 0 (seed 5"), "{e}");
}

#[test]
fn weights_matter() {
    // Raising void_weight raises the solid fraction; lowering wall_factor lowers the mean
    // wall count. Fixed seeds, square17, 40x40.
    use octile::wfc::square17::{Weights, generate as sq};
    let stats = |w: Weights| {
        let (mut solid, mut walls, mut floor) = (0usize, 0u32, 0u32);
        for seed in 0..20 {
            let g = sq(40, 40, &w, seed, &mut |_| {}).unwrap();
            for c in &g.cells {
                match c {
                    None => solid += 1,
                    Some(m) => {
                        floor += 1;
                        walls += m.count_ones();
                    }
                }
            }
        }
        (solid as f64 / (20.0 * 1600.0), f64::from(walls) / f64::from(floor.max(1)))
    };
    let base = Weights { void_weight: 1.0, ..Weights::default() };
    let (solid_lo, _) = stats(Weights { void_weight: 1.0, ..base });
    let (solid_hi, _) = stats(Weights { void_weight: 10.0, ..base });
    assert!(solid_hi > solid_lo + 0.05, "solid fraction {solid_lo} -> {solid_hi}");
    let (_, walls_hi) = stats(Weights { wall_factor: 1.0, ..base });
    let (_, walls_lo) = stats(Weights { wall_factor: 0.3, ..base });
    assert!(walls_lo < walls_hi - 0.1, "mean walls {walls_hi} -> {walls_lo}");
}

#[test]
fn stage_errors_wrap_into_the_crate_error() {
    let e: octile::Error = bad(GenerateOptions { levels: 0, ..GenerateOptions::default() }).into();
    assert!(matches!(e, octile::Error::Generate(GenerateError::BadOption { .. })));
    let w = octile::wfc::square17::Weights { open_weight: f64::INFINITY, ..Default::default() };
    let e: octile::Error = octile::wfc::square17::tileset(&w).unwrap_err().into();
    assert!(matches!(e, octile::Error::Solve(SolveError::BadWeight { .. })));
    assert!(e.to_string().contains("open_weight"));
}
