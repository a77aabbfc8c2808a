//! `octile generate --keep` (issue 11): every pinned cell of the design survives, with its
//! tile and edges, for several seeds and sizes, and the result is one connected region
//! (the command line's `--keep` is tested in `cli_edit.rs`).

use octile::dungeon::Dungeon;
use octile::edit::{Command as Edit, Editor, rect_cells};
use octile::generate::{GenerateError, GenerateOptions, generate, generate_around};
use octile::grid::{Direction, Pos, Slot, SlotKind};
use octile::path::dungeon_regions;

/// Every pinned cell's tile and wall states.
fn pinned_state(d: &Dungeon) -> Vec<(Pos, usize, Vec<Option<usize>>)> {
    d.pinned()
        .map(|p| {
            let walls = d.dims().walls(p.slot).unwrap();
            (
                p,
                d.tile(p).unwrap().index(),
                walls.iter().map(|&w| d.edge_state(p, w).unwrap().map(|s| s.index())).collect(),
            )
        })
        .collect()
}

/// A design: a generated dungeon with one 3x3-octagon block pinned on each level, round a
/// floor octagon near a corner.
fn design(seed: u64, size: u32, levels: u32) -> Dungeon {
    let options = GenerateOptions { seed: seed + 100, levels, cols: size, rows: size, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let dims = d.dims();
    let mut editor = Editor::new(d.clone());
    for level in 0..d.levels() {
        let centre = d
            .cells()
            .filter(|p| {
                p.level == level && p.slot.kind() == SlotKind::Octagon && d.tile_def(*p).unwrap().carved
            })
            .min_by_key(|p| p.slot.row + p.slot.col)
            .unwrap();
        let from = Slot::new(centre.slot.row.saturating_sub(2), centre.slot.col.saturating_sub(2));
        let to =
            Slot::new((centre.slot.row + 2).min(dims.rows() - 1), (centre.slot.col + 2).min(dims.cols() - 1));
        editor.apply(&Edit::Pin { cells: rect_cells(dims, level, from, to).unwrap(), pinned: true }).unwrap();
    }
    editor.into_dungeon()
}

#[test]
fn pins_survive_and_the_result_is_connected() {
    for (seed, size, levels) in [(1, 10, 2), (2, 14, 3), (3, 18, 2), (4, 12, 1)] {
        let design = design(seed, size, levels);
        let pins = pinned_state(&design);
        assert!(pins.len() >= 9 * levels as usize);
        let options = GenerateOptions { seed, ..Default::default() };
        let d = generate_around(&options, &design, &mut |_| {}).unwrap();
        assert_eq!(pinned_state(&d), pins, "seed {seed}, {size}x{size}x{levels}");
        assert_eq!(dungeon_regions(&d).count(), 1, "seed {seed}: one region");
        assert!(d.problems().is_empty());
        assert_ne!(
            octile::format::to_json(&d),
            octile::format::to_json(&design),
            "the rest is generated anew"
        );
    }
}

#[test]
fn contradictory_pins_are_refused() {
    let mut d = Dungeon::new(4, 4, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 2, 4), Direction::W, octile::dungeon::Registry::WALL).unwrap();
    d.set_pinned(Pos::new(0, 2, 0), true).unwrap();
    d.set_pinned(Pos::new(0, 2, 4), true).unwrap();
    let err = generate_around(&GenerateOptions::default(), &d, &mut |_| {}).unwrap_err();
    assert!(matches!(err, GenerateError::BadOption { name: "keep", .. }), "{err}");
    assert!(err.to_string().contains("level 0, row 2, col 2"), "{err}");
}

/// Every design in `tests/data/field-report/`, by file stem.
fn field_report(name: &str) -> Dungeon {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/field-report");
    octile::format::load(&dir.join(format!("{name}.json"))).unwrap()
}

/// A rock design of `cols x rows x levels` with floor rooms painted and pinned by the
/// editor (painting walls every floor/rock seam, so each room is sealed), and the given
/// entrance and exit.
fn sketch(size: (u32, u32, u32), rooms: &[(u16, Slot, Slot)], markers: Option<(Pos, Pos)>) -> Dungeon {
    let d = Dungeon::new(size.0, size.1, size.2, Default::default(), octile::dungeon::Fill::Solid).unwrap();
    let dims = d.dims();
    let mut editor = Editor::new(d);
    for &(level, from, to) in rooms {
        let cells = rect_cells(dims, level, from, to).unwrap();
        editor.apply(&Edit::Paint { cells: cells.clone(), tile: octile::dungeon::Registry::FLOOR }).unwrap();
        editor.apply(&Edit::Pin { cells, pinned: true }).unwrap();
    }
    if let Some((entrance, exit)) = markers {
        editor.apply(&Edit::SetEntrance { pos: Some(entrance) }).unwrap();
        editor.apply(&Edit::SetExit { pos: Some(exit) }).unwrap();
    }
    editor.into_dungeon()
}

/// What `--keep` promises of a sealed pinned room: its tiles stay, every edge between two
/// pins stays, and an edge to an unpinned cell either stays or, at a doorway, was a wall
/// and is now open.
fn assert_kept_with_doorways(design: &Dungeon, d: &Dungeon, what: &str) -> usize {
    let mut doorways = 0;
    for p in design.pinned() {
        assert_eq!(d.tile(p).unwrap(), design.tile(p).unwrap(), "{what}: tile at {p}");
        assert!(d.is_pinned(p), "{what}: {p} stays pinned");
        for &dir in d.dims().walls(p.slot).unwrap() {
            let Some(beyond) = d.dims().neighbor(p.slot, dir).unwrap() else { continue };
            let (was, now) = (design.edge_state(p, dir).unwrap(), d.edge_state(p, dir).unwrap());
            if was != now {
                assert!(
                    !design.is_pinned(Pos { slot: beyond, ..p }),
                    "{what}: the wall {p} {dir:?} between pins moved"
                );
                assert_eq!(was, Some(octile::dungeon::Registry::WALL), "{what}: {p} {dir:?}");
                assert_eq!(now, Some(octile::dungeon::Registry::OPEN), "{what}: {p} {dir:?}");
                doorways += 1;
            }
        }
    }
    doorways
}

/// The field report's regression: a painted, pinned room is sealed by its walls, and every
/// layout was refused. Its walls facing unpinned cells are doorways now.
#[test]
fn a_sealed_pinned_room_gets_doorways_on_every_seed() {
    let design = sketch((8, 8, 2), &[(0, Slot::new(4, 4), Slot::new(8, 8))], None);
    for seed in 0..=20 {
        let options = GenerateOptions { seed, ..Default::default() };
        let d =
            generate_around(&options, &design, &mut |_| {}).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let doorways = assert_kept_with_doorways(&design, &d, &format!("seed {seed}"));
        assert!((1..=2).contains(&doorways), "seed {seed}: {doorways} doorways");
        assert_eq!(dungeon_regions(&d).count(), 1, "seed {seed}: one region");
        assert!(d.problems().is_empty(), "seed {seed}: {:?}", d.problems());
    }
}

/// A 20x20x2 sketch with four pinned halls, the entrance in the first and the exit in the
/// last: every seed of 0-20 generates, with the halls, entrance and exit where the design
/// put them.
#[test]
fn a_four_hall_sketch_keeps_its_halls_entrance_and_exit() {
    let halls = [
        (0, Slot::new(2, 2), Slot::new(8, 8)),
        (0, Slot::new(2, 28), Slot::new(10, 36)),
        (1, Slot::new(26, 2), Slot::new(34, 8)),
        (1, Slot::new(28, 26), Slot::new(36, 36)),
    ];
    let (entrance, exit) = (Pos::new(0, 4, 4), Pos::new(1, 32, 30));
    let design = sketch((20, 20, 2), &halls, Some((entrance, exit)));
    for seed in 0..=20 {
        let options = GenerateOptions { seed, ..Default::default() };
        let d =
            generate_around(&options, &design, &mut |_| {}).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let doorways = assert_kept_with_doorways(&design, &d, &format!("seed {seed}"));
        assert!(doorways >= 4, "seed {seed}: every hall has a doorway ({doorways})");
        assert_eq!((d.entrance(), d.exit()), (Some(entrance), Some(exit)), "seed {seed}");
        assert_eq!(dungeon_regions(&d).count(), 1, "seed {seed}: one region");
        assert!(d.problems().is_empty(), "seed {seed}: {:?}", d.problems());
    }
}

/// A pinned room every wall of which faces another pin or the grid's edge cannot get a
/// doorway: the refusal names the room and says why, not "more stairs".
#[test]
fn a_walled_in_pinned_room_is_refused_by_name() {
    let mut design = sketch((4, 4, 1), &[(0, Slot::new(0, 0), Slot::new(2, 2))], None);
    let dims = design.dims();
    for pos in rect_cells(dims, 0, Slot::new(0, 0), Slot::new(6, 6)).unwrap() {
        design.set_pinned(pos, true).unwrap();
    }
    let err = generate_around(&GenerateOptions::default(), &design, &mut |_| {}).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, GenerateError::BadOption { name: "keep", .. }), "{text}");
    assert!(text.contains("pinned room at level 0, row 0, col 0") && text.contains("walled in"), "{text}");
}

/// Pins are copied by name: a design whose registry lists its tiles or edge states in
/// another order generates the same dungeon, and a custom edge state on a pin survives.
#[test]
fn pins_are_kept_by_name_whatever_the_registry_order() {
    let options = GenerateOptions { seed: 1, ..Default::default() };
    let plan = |name: &str| {
        let d = generate_around(&options, &field_report(name), &mut |_| {}).unwrap();
        assert!(d.problems().is_empty(), "{name}");
        assert_eq!(dungeon_regions(&d).count(), 1, "{name}");
        octile::format::to_json(&d)
    };
    let base = plan("keep-registry-base");
    assert_eq!(plan("keep-registry-floor-first"), base, "tiles listed floor first");
    assert_eq!(plan("keep-registry-open-first"), base, "edge states listed open first");
    let design = field_report("keep-registry-custom-edge");
    let d = generate_around(&options, &design, &mut |_| {}).unwrap();
    let custom = d.registry().edge("curtain").expect("the design's custom state joins the registry");
    let on_pins = |d: &Dungeon, state| {
        d.pinned()
            .flat_map(|p| d.dims().walls(p.slot).unwrap().iter().map(move |&w| (p, w)).collect::<Vec<_>>())
            .filter(|&(p, w)| d.edge_state(p, w).unwrap() == Some(state))
            .count()
    };
    assert!(on_pins(&d, custom) > 0);
    assert_eq!(on_pins(&d, custom), on_pins(&design, design.registry().edge("curtain").unwrap()));
}

/// Whatever `generate --keep` writes validates: the field report's designs whose pinned
/// stairs got a new stair stacked on them, and a pinned level of a small five-level
/// dungeon over seeds 0-39.
#[test]
fn generating_around_pinned_stairs_writes_valid_dungeons() {
    let valid = |design: &Dungeon, options: &GenerateOptions, what: &str| {
        let d = generate_around(options, design, &mut |_| {}).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(d.problems().is_empty(), "{what}: {:?}", d.problems());
        assert_eq!(dungeon_regions(&d).count(), 1, "{what}");
        for stair in design.stairs().iter() {
            assert!(d.is_stair(stair.foot), "{what}: the design's stair at {} stays", stair.foot);
        }
    };
    let stacked = GenerateOptions { seed: 30, stairs: 2, doors: 0.5, ..Default::default() };
    valid(&field_report("keep-stacked-stairs"), &stacked, "keep-stacked-stairs");
    valid(
        &field_report("keep-invalid-2"),
        &GenerateOptions { seed: 865, ..Default::default() },
        "keep-invalid-2",
    );
    let options = GenerateOptions {
        seed: 7_750_145,
        cols: 3,
        rows: 3,
        levels: 5,
        doors: 0.5,
        stairs: 2,
        cut_ratio: 0.15,
        ..Default::default()
    };
    let mut editor = Editor::new(generate(&options, &mut |_| {}).unwrap());
    let dims = editor.dungeon().dims();
    editor
        .apply(&Edit::Pin {
            cells: rect_cells(dims, 2, Slot::new(3, 0), Slot::new(4, 2)).unwrap(),
            pinned: true,
        })
        .unwrap();
    let design = editor.into_dungeon();
    for seed in 0..40 {
        valid(&design, &GenerateOptions { seed, ..options.clone() }, &format!("3x3x5 seed {seed}"));
    }
}
