//! Re-solving around a point (issue 11): pinned cells and their edges stay, every seam of
//! the level follows the seam rule, the dungeon stays one region, and pins that contradict
//! each other are named while the dungeon is left as it was.

use octile::dungeon::{Dungeon, Fill, Registry};
use octile::edit::seams::underived_seams;
use octile::edit::{Command, Connectivity, EditError, Editor, rect_cells};
use octile::format::to_json;
use octile::generate::{GenerateOptions, generate};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos, Slot, SlotKind};

/// Every pinned cell's tile and wall states, to compare before and after.
fn pinned_state(d: &Dungeon) -> Vec<(Pos, u16, Vec<Option<u8>>)> {
    d.pinned()
        .map(|p| {
            let walls = d.dims().walls(p.slot).unwrap();
            let edges = walls.iter().map(|&w| d.edge_state(p, w).unwrap().map(|s| s.index() as u8)).collect();
            (p, d.tile(p).unwrap().index() as u16, edges)
        })
        .collect()
}

/// A generated dungeon with the 5x5-octagon block round a floor octagon of level 0 pinned.
fn pinned_dungeon(seed: u64, size: u32) -> (Dungeon, Pos) {
    let options = GenerateOptions { seed, levels: 2, cols: size, rows: size, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let mid = (size - 1) / 2 * 2;
    let centre = d
        .cells()
        .filter(|p| p.level == 0 && p.slot.kind() == SlotKind::Octagon && d.tile_def(*p).unwrap().carved)
        .min_by_key(|p| p.slot.row.abs_diff(mid) + p.slot.col.abs_diff(mid))
        .unwrap();
    let dims = d.dims();
    let lo = |x: u32| x.saturating_sub(4);
    let hi = |x: u32, n: u32| (x + 4).min(n - 1);
    let from = Slot::new(lo(centre.slot.row), lo(centre.slot.col));
    let to = Slot::new(hi(centre.slot.row, dims.rows()), hi(centre.slot.col, dims.cols()));
    let mut editor = Editor::new(d);
    editor.apply(&Command::Pin { cells: rect_cells(dims, 0, from, to).unwrap(), pinned: true }).unwrap();
    (editor.into_dungeon(), centre)
}

#[test]
fn resolve_keeps_pins_and_leaves_a_legal_connected_level() {
    for (seed, size) in [(1, 12), (2, 16), (3, 20), (4, 12)] {
        let (d, centre) = pinned_dungeon(seed, size);
        let pins = pinned_state(&d);
        assert!(pins.len() > 20);
        for (dr, dc) in [(0, 8), (8, 0), (6, 6)] {
            let at = Pos::new(
                0,
                (centre.slot.row + dr).min(d.dims().rows() - 1) & !1,
                (centre.slot.col + dc).min(d.dims().cols() - 1) & !1,
            );
            let mut editor = Editor::new(d.clone());
            let done = editor.apply(&Command::Resolve { pos: at, radius: 3 }).unwrap();
            let e = editor.dungeon();
            assert_eq!(pinned_state(e), pins, "seed {seed}: pins and their edges unchanged");
            assert_eq!(underived_seams(e, 0), [], "seed {seed} at {at}: every seam legal");
            assert!(!done.dirty.is_empty());
            let report = editor.connectivity();
            assert_eq!(report, Connectivity::of(e));
            assert!(report.is_connected(), "seed {seed} at {at}: {report}");
            assert!(e.problems().is_empty(), "{:?}", e.problems());
            // One undo step gives the exact bytes back.
            editor.undo().unwrap();
            assert_eq!(to_json(editor.dungeon()), to_json(&d));
        }
    }
}

#[test]
fn resolve_changes_something_and_is_repeatable() {
    let (d, centre) = pinned_dungeon(7, 16);
    let at = Pos::new(0, (centre.slot.row + 10).min(30), centre.slot.col);
    let run = || {
        let mut editor = Editor::new(d.clone());
        editor.apply(&Command::Resolve { pos: at, radius: 3 }).unwrap();
        to_json(editor.dungeon())
    };
    let once = run();
    assert_eq!(once, run(), "same dungeon, same re-solve");
    assert_ne!(once, to_json(&d), "a re-solve of radius 3 changes the layout");
}

#[test]
fn contradictory_pins_are_named_and_change_nothing() {
    let mut d = Dungeon::new(5, 5, 1, Proportions::default(), Fill::Floor).unwrap();
    // (0,4,0) opens onto (0,4,2); (0,4,4) is walled from it: one needs it floor, one rock.
    d.set_edge(Pos::new(0, 4, 4), Direction::W, Registry::WALL).unwrap();
    d.set_pinned(Pos::new(0, 4, 0), true).unwrap();
    d.set_pinned(Pos::new(0, 4, 4), true).unwrap();
    let before = to_json(&d);
    let mut editor = Editor::new(d);
    let err = editor.apply(&Command::Resolve { pos: Pos::new(0, 4, 2), radius: 1 }).unwrap_err();
    match &err {
        EditError::ConflictingPins { pins, at, .. } => {
            assert_eq!(pins, &[Pos::new(0, 4, 0), Pos::new(0, 4, 4)]);
            assert_eq!(*at, Pos::new(0, 4, 2));
        }
        other => panic!("expected conflicting pins, got {other}"),
    }
    assert!(
        err.to_string().contains("level 0, row 4, col 0")
            && err.to_string().contains("level 0, row 4, col 4"),
        "{err}"
    );
    assert_eq!(to_json(editor.dungeon()), before);
    assert_eq!(editor.undo_steps(), 0);
}

#[test]
fn a_bad_radius_is_refused() {
    let d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
    let mut editor = Editor::new(d);
    assert!(matches!(
        editor.apply(&Command::Resolve { pos: Pos::new(0, 2, 2), radius: 0 }),
        Err(EditError::BadRadius { radius: 0, .. })
    ));
    assert!(matches!(
        editor.apply(&Command::Resolve { pos: Pos::new(0, 2, 3), radius: 1 }),
        Err(EditError::Dungeon(_))
    ));
}

/// Regression: the solver made corner octagons floor that the pinned room's walls cut off
/// from everything; they are filled back, so the arena stays one region.
#[test]
fn floor_that_cannot_be_joined_is_filled_back() {
    let arena = octile::format::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/plus_arena.json"
    )))
    .unwrap();
    for (pins, at, radius) in
        [((2, 6), Pos::new(0, 8, 4), 2), ((2, 6), Pos::new(0, 8, 4), 4), ((3, 5), Pos::new(0, 0, 8), 3)]
    {
        let mut editor = Editor::new(arena.clone());
        let cells =
            rect_cells(arena.dims(), 0, Slot::new(pins.0, pins.0), Slot::new(pins.1, pins.1)).unwrap();
        editor.apply(&Command::Pin { cells, pinned: true }).unwrap();
        editor.apply(&Command::Resolve { pos: at, radius }).unwrap();
        let report = editor.connectivity();
        assert!(report.is_connected(), "{pins:?} {at}: {report}");
        assert_eq!(underived_seams(editor.dungeon(), 0), []);
    }
}

/// Re-solves all over generated levels (most join back inside their window, some need the
/// whole level): every one leaves one region, legal seams, and undoes to the same bytes.
#[test]
fn resolves_anywhere_keep_the_level_connected_and_legal() {
    for seed in 0..4 {
        let options = GenerateOptions { seed, levels: 2, cols: 20, rows: 20, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        for (i, radius) in (0..6).zip([2, 3, 4].into_iter().cycle()) {
            let at = Pos::new(i % 2, (6 + 10 * i as u32) % 38, (30 + 28 * i as u32) % 38);
            let mut editor = Editor::new(d.clone());
            editor.apply(&Command::Resolve { pos: at, radius }).unwrap();
            let e = editor.dungeon();
            let report = Connectivity::of(e);
            assert!(report.is_connected(), "seed {seed} at {at} radius {radius}: {report}");
            assert_eq!(underived_seams(e, at.level), [], "seed {seed} at {at}: every seam legal");
            assert!(e.problems().is_empty(), "{:?}", e.problems());
            if editor.undo_steps() > 0 {
                editor.undo().unwrap();
            }
            assert_eq!(to_json(editor.dungeon()), to_json(&d));
        }
    }
}

/// The field report's re-solves that split a connected dungeon (floor carved beside a stair
/// hole, walled from it, that nothing could join or fill back): small generated dungeons
/// with a door on every seam, re-solved all over; each stays one region (or is refused with
/// nothing changed).
#[test]
fn resolves_never_split_a_connected_dungeon() {
    let mut resolved = 0;
    for seed in 0..6 {
        let options = GenerateOptions { seed, cols: 5, rows: 4, levels: 3, doors: 1.0, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        assert!(Connectivity::of(&d).is_connected());
        for at in d.cells().filter(|p| p.slot.row % 3 == 1 && p.slot.col % 3 == 0) {
            for radius in [1, 2] {
                let mut editor = Editor::new(d.clone());
                match editor.apply(&Command::Resolve { pos: at, radius }) {
                    Ok(_) => resolved += 1,
                    Err(EditError::WouldSplit { .. }) => {
                        assert_eq!(to_json(editor.dungeon()), to_json(&d), "a refusal changes nothing");
                        continue;
                    }
                    Err(e) => panic!("seed {seed} at {at}: {e}"),
                }
                let report = Connectivity::of(editor.dungeon());
                assert!(report.is_connected(), "seed {seed}: resolve {at} {radius} left {report}");
                assert!(editor.dungeon().problems().is_empty());
            }
        }
    }
    assert!(resolved > 100, "{resolved} re-solves ran");
}

/// The field report's reproducers: `generate --seed 2 --octagons 5x4 --levels 3 --doors 1`
/// re-solved at 2,1,3 radius 1, and the committed design and script.
#[test]
fn the_field_reports_splitting_resolves_stay_connected() {
    let options = GenerateOptions { seed: 2, cols: 5, rows: 4, levels: 3, doors: 1.0, ..Default::default() };
    let mut editor = Editor::new(generate(&options, &mut |_| {}).unwrap());
    editor.apply(&Command::Resolve { pos: Pos::new(2, 1, 3), radius: 1 }).unwrap();
    assert_eq!(Connectivity::of(editor.dungeon()).to_string(), "1 region");

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/field-report");
    let mut editor = Editor::new(octile::format::load(&dir.join("resolve-splits.json")).unwrap());
    let script = std::fs::read_to_string(dir.join("resolve-splits.txt")).unwrap();
    for line in script.lines() {
        match octile::edit::script::parse_line(editor.dungeon(), line).unwrap() {
            Some(octile::edit::script::Line::Command(cmd)) => drop(editor.apply(&cmd).unwrap()),
            other => panic!("{line}: {other:?}"),
        }
    }
    assert_eq!(Connectivity::of(editor.dungeon()).to_string(), "1 region");
}
