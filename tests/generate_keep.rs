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
