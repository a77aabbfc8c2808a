//! An independent checker of realised room graphs, written from docs/flow.md alone: it reads
//! the generated dungeon through its public model (tiles, seams, stairs, the room table) and
//! the spec, and never calls the generator's placement code. "What the dungeon promises":
//! every spec room is one room of its shape and size on its level, two rooms are joined
//! exactly when the spec connects them, the dungeon is one region with the exit in the goal
//! room, and the same seed gives the same bytes.
//!
//! `OCTILE_FLOW_SEEDS=N` checks N seeds of each size (the default is a few, for CI).

use octile::dungeon::{Dungeon, PassageKind, RoomRole, RoomShape};
use octile::flow::{Flow, FlowSpec, Grammar, LevelSpec};
use octile::generate::GenerateOptions;
use octile::grid::{Direction, Pos, Slot, SlotKind};

/// Seeds checked per size: `OCTILE_FLOW_SEEDS`, or `default`.
fn seeds(default: u64) -> u64 {
    std::env::var("OCTILE_FLOW_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The octagons `(row, col)` of a set of cells, in octagon coordinates.
fn octagons(cells: &[Pos]) -> Vec<(u32, u32)> {
    let mut o: Vec<(u32, u32)> = cells
        .iter()
        .filter(|p| p.slot.kind() == SlotKind::Octagon)
        .map(|p| (p.slot.row / 2, p.slot.col / 2))
        .collect();
    o.sort_unstable();
    o
}

/// One half of a room's box (a test on an octagon's offset in it).
type Half<'a> = dyn Fn(&(u32, u32)) -> bool + 'a;

/// Whether `set` (octagon coordinates) has the outline docs/flow.md gives `shape`.
fn has_shape(shape: RoomShape, set: &[(u32, u32)]) -> Result<(), String> {
    let r0 = set.iter().map(|p| p.0).min().ok_or("no octagons")?;
    let c0 = set.iter().map(|p| p.1).min().ok_or("no octagons")?;
    let h = set.iter().map(|p| p.0).max().unwrap() - r0 + 1;
    let w = set.iter().map(|p| p.1).max().unwrap() - c0 + 1;
    let inside = |r: u32, c: u32| set.binary_search(&(r + r0, c + c0)).is_ok();
    let boxed = |keep: &dyn Fn(u32, u32) -> bool| (0..h).all(|r| (0..w).all(|c| inside(r, c) == keep(r, c)));
    // The box's cells that are not the room's.
    let gone: Vec<(u32, u32)> =
        (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).filter(|&(r, c)| !inside(r, c)).collect();
    let is_corner_rect = |cells: &[(u32, u32)]| -> Option<(bool, bool, u32, u32)> {
        // A rectangle that touches one corner of the box: (south?, east?, rows, cols).
        let (a, b) = (cells.iter().map(|p| p.0).min()?, cells.iter().map(|p| p.0).max()?);
        let (c, d) = (cells.iter().map(|p| p.1).min()?, cells.iter().map(|p| p.1).max()?);
        let full = (b - a + 1) * (d - c + 1) == cells.len() as u32;
        let south = b == h - 1;
        let east = d == w - 1;
        (full && (a == 0 || south) && (c == 0 || east) && !(a == 0 && south) && !(c == 0 && east))
            .then_some((south, east, b - a + 1, d - c + 1))
    };
    let ok = match shape {
        RoomShape::Hall => h >= 2 && w >= 2 && gone.is_empty(),
        RoomShape::Arena => {
            let c = (h.min(w) / 3).max(1);
            h >= 3 && w >= 3 && boxed(&|r, col| !((r < c || r >= h - c) && (col < c || col >= w - c)))
        }
        RoomShape::LBend => is_corner_rect(&gone).is_some(),
        RoomShape::Tee => {
            // Two equal corner rectangles on one side, apart.
            let sides: [&Half<'_>; 4] =
                [&|p| p.1 < w / 2, &|p| p.0 < h / 2, &|p| p.1 >= w / 2, &|p| p.0 >= h / 2];
            sides.iter().any(|first| {
                let a: Vec<(u32, u32)> = gone.iter().copied().filter(|p| first(p)).collect();
                let b: Vec<(u32, u32)> = gone.iter().copied().filter(|p| !first(p)).collect();
                match (is_corner_rect(&a), is_corner_rect(&b)) {
                    (Some(x), Some(y)) => {
                        let same_side = (x.0 == y.0 && x.1 != y.1) || (x.1 == y.1 && x.0 != y.0);
                        same_side && (x.2, x.3) == (y.2, y.3)
                    }
                    _ => false,
                }
            })
        }
        RoomShape::Rotunda => {
            let n = h;
            let t = (n / 2).min(n.div_ceil(3));
            h == w && n >= 3 && boxed(&|r, c| r.min(n - 1 - r) + c.min(n - 1 - c) >= t)
        }
        RoomShape::Cavern => {
            let mut seen = vec![set[0]];
            let mut i = 0;
            while i < seen.len() {
                let (r, c) = seen[i];
                for n in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
                    if set.binary_search(&n).is_ok() && !seen.contains(&n) {
                        seen.push(n);
                    }
                }
                i += 1;
            }
            seen.len() == set.len()
        }
        RoomShape::Corridor => (h == 1 || w == 1) && h.max(w) >= 3 && gone.is_empty(),
    };
    if ok { Ok(()) } else { Err(format!("{h}x{w} box, octagons {set:?}")) }
}

/// Checks `d` against `flow` (the spec checked) as docs/flow.md promises; panics naming the
/// first failure.
fn check(d: &Dungeon, spec: &FlowSpec, flow: &Flow, what: &str) {
    // 1. Rooms.
    assert_eq!(d.rooms().len(), spec.rooms.len(), "{what}: one table room per spec room");
    let mut ids = Vec::new();
    for (i, room) in spec.rooms.iter().enumerate() {
        let id =
            d.room_named(&room.id).unwrap_or_else(|| panic!("{what}: room {:?} not in the table", room.id));
        let r = &d.rooms()[usize::from(id.0)];
        assert_eq!(r.shape, room.shape, "{what}: room {:?}", room.id);
        // A role the spec sets is kept; one it leaves open is placed by depth (tested in
        // src/flow/roles.rs) and is never the entrance's or the goal's.
        match room.role {
            Some(role) => assert_eq!(r.role, role, "{what}: room {:?}", room.id),
            None => {
                assert!(![RoomRole::Entrance, RoomRole::Goal].contains(&r.role), "{what}: room {:?}", room.id)
            }
        }
        let (lo, hi) = match room.level {
            LevelSpec::One(l) => (l, l),
            LevelSpec::Range([a, b]) => (a, b),
        };
        assert!((lo..=hi).contains(&u32::from(r.level)), "{what}: room {:?} on level {}", room.id, r.level);
        assert_eq!(r.level, flow.levels[i], "{what}: room {:?}", room.id);
        let cells: Vec<Pos> = d.room_cells(id).collect();
        let oct = octagons(&cells);
        let (min, max) = room.size.octagons();
        assert!(
            (min..=max).contains(&(oct.len() as u32)),
            "{what}: room {:?} has {} octagons",
            room.id,
            oct.len()
        );
        assert!(
            (*r.size.octagons().start()..=*r.size.octagons().end()).contains(&(oct.len() as u32)),
            "{what}: room {:?}'s recorded class",
            room.id
        );
        has_shape(room.shape, &oct)
            .unwrap_or_else(|e| panic!("{what}: room {:?} is no {}: {e}", room.id, room.shape));
        // Its connectors are exactly those whose four octagons are its own.
        for p in &cells {
            assert!(d.is_carved(*p), "{what}: room {:?} cell {p} is rock", room.id);
            if p.slot.kind() == SlotKind::Connector {
                let (r, c) = ((p.slot.row - 1) / 2, (p.slot.col - 1) / 2);
                let four = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)];
                assert!(
                    four.iter().all(|o| oct.binary_search(o).is_ok()),
                    "{what}: connector {p} of {:?}",
                    room.id
                );
            }
        }
        let connectors = cells.iter().filter(|p| p.slot.kind() == SlotKind::Connector).count();
        let inner = oct
            .iter()
            .filter(|&&(r, c)| {
                [(r + 1, c), (r, c + 1), (r + 1, c + 1)].iter().all(|o| oct.binary_search(o).is_ok())
            })
            .count();
        assert_eq!(connectors, inner, "{what}: room {:?} has every inner connector", room.id);
        // The seams between its cells are open.
        for p in &cells {
            for &dir in d.dims().walls(p.slot).unwrap() {
                if let Some(next) = d.dims().neighbor(p.slot, dir).unwrap() {
                    let q = Pos { slot: next, ..*p };
                    if d.room_at(q) == Some(id) {
                        assert!(
                            d.carved_seam(*p, dir).is_some(),
                            "{what}: seam {p} {dir:?} inside {:?}",
                            room.id
                        );
                    }
                }
            }
        }
        // Its height, where the spec gives one, on every cell.
        if let Some(h) = room.height {
            for p in &cells {
                assert!((d.room_height_at(*p) - h).abs() < 0.006, "{what}: room {:?} height at {p}", room.id);
            }
        }
        ids.push(id);
    }
    // 2. Joined exactly as the spec connects.
    let level_cells = usize::from(d.levels()) * d.dims().slot_count();
    let index = |p: Pos| usize::from(p.level) * d.dims().slot_count() + d.dims().index(p.slot).unwrap();
    for (i, &id) in ids.iter().enumerate() {
        let mut want: Vec<usize> = flow
            .connections
            .iter()
            .filter_map(|&(a, b, _, _)| {
                if a == i {
                    Some(b)
                } else if b == i {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        want.sort_unstable();
        want.dedup();
        let mut seen = vec![false; level_cells];
        let mut stack: Vec<Pos> = d.room_cells(id).collect();
        for p in &stack {
            seen[index(*p)] = true;
        }
        let mut joined = Vec::new();
        while let Some(p) = stack.pop() {
            let mut next: Vec<Pos> = d
                .dims()
                .walls(p.slot)
                .unwrap()
                .iter()
                .filter(|&&dir| d.carved_seam(p, dir).is_some())
                .map(|&dir| Pos { slot: d.dims().neighbor(p.slot, dir).unwrap().unwrap(), ..p })
                .collect();
            if d.is_stair(p) {
                next.push(Pos { level: p.level + 1, ..p });
            }
            if let Some(foot) = d.stair_below(p) {
                next.push(foot);
            }
            for q in next {
                if seen[index(q)] || !d.is_carved(q) {
                    continue;
                }
                seen[index(q)] = true;
                match d.room_at(q) {
                    Some(other) if other != id => {
                        let j = ids.iter().position(|&x| x == other).unwrap();
                        if !joined.contains(&j) {
                            joined.push(j);
                        }
                    }
                    _ => stack.push(q),
                }
            }
        }
        joined.sort_unstable();
        let names = |v: &[usize]| v.iter().map(|&k| spec.rooms[k].id.clone()).collect::<Vec<_>>();
        assert_eq!(names(&joined), names(&want), "{what}: rooms joined to {:?}", spec.rooms[i].id);
    }
    // 3. One region, the entrance and exit in their rooms.
    assert_eq!(octile::path::dungeon_regions(d).count(), 1, "{what}: one region");
    let role_of = |p: Option<Pos>| p.and_then(|p| d.room_at(p)).map(|r| d.rooms()[usize::from(r.0)].role);
    assert_eq!(role_of(d.entrance()), Some(RoomRole::Entrance), "{what}: the entrance");
    assert_eq!(role_of(d.exit()), Some(RoomRole::Goal), "{what}: the exit");
    // The room table's passages are the spec's connections.
    assert_eq!(d.passages().len(), flow.connections.len(), "{what}: passages");
    for (p, &(a, b, kind, lock)) in d.passages().iter().zip(&flow.connections) {
        assert_eq!((p.from, p.to, p.kind, p.lock), (ids[a], ids[b], kind, lock), "{what}: a passage");
    }
    let stairs = flow.connections.iter().filter(|c| c.2 == PassageKind::Stair).count();
    assert!(d.stairs().len() >= stairs, "{what}: a stair for each stair connection");
}

/// Generates and checks `seeds` seeds of the default grammar on `cols x rows x levels`.
fn check_grammar(grammar: Grammar, cols: u32, rows: u32, levels: u32, seeds: u64) {
    let proportions = octile::geometry::Proportions::default();
    for seed in 0..seeds {
        let options = GenerateOptions {
            seed,
            cols,
            rows,
            levels,
            stairs: GenerateOptions::stairs_for_area(cols, rows),
            ..Default::default()
        };
        let what = format!("{grammar} {cols}x{rows}x{levels} seed {seed}");
        let d = octile::flow::realise_grammar(grammar, &options, &mut |_| {})
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let octile::flow::GrammarOutcome::Rooms(d) = d else { panic!("{what}: no rooms: {d:?}") };
        let d = *d;
        // The spec it realised: the sparsest step whose rooms the table holds.
        let spec = (0..=3)
            .filter_map(|k| octile::flow::write_sparser(grammar, cols, rows, levels, options.stairs, seed, k))
            .find(|s| s.rooms.len() == d.rooms().len())
            .expect("a spec of the table's size");
        let flow = spec.check(&proportions).unwrap();
        check(&d, &spec, &flow, &what);
        if seed == 0 {
            let again = octile::flow::realise_grammar(grammar, &options, &mut |_| {}).unwrap();
            let octile::flow::GrammarOutcome::Rooms(again) = again else { panic!("{what}: no rooms") };
            let again = *again;
            assert_eq!(
                octile::format::to_json(&again),
                octile::format::to_json(&d),
                "{what}: same seed, same bytes"
            );
        }
    }
}

#[test]
fn default_grammar_24x24x1() {
    check_grammar(Grammar::Default, 24, 24, 1, seeds(6));
}

#[test]
fn default_grammar_32x32x3() {
    check_grammar(Grammar::Default, 32, 32, 3, seeds(3));
}

#[test]
fn default_grammar_64x64x4() {
    check_grammar(Grammar::Default, 64, 64, 4, seeds(1));
}

#[test]
fn the_other_grammars_keep_their_promises() {
    for grammar in [Grammar::Linear, Grammar::Hub, Grammar::Cyclic] {
        check_grammar(grammar, 20, 20, 2, seeds(2));
    }
}

/// The checker itself can fail: a dungeon whose filler joins two rooms the spec keeps apart,
/// or whose room lost its shape, is refused.
#[test]
fn the_checker_refuses_a_broken_realisation() {
    let options = GenerateOptions { seed: 2, cols: 20, rows: 20, levels: 1, ..Default::default() };
    let spec = octile::flow::write(Grammar::Linear, 20, 20, 1, 1, 2).unwrap();
    let flow = spec.check(&octile::geometry::Proportions::default()).unwrap();
    let d = octile::flow::realise(&flow, &options, &mut |_| {}).unwrap();
    check(&d, &spec, &flow, "intact");
    // Join the first and last rooms' cells through the rock between them: paint a straight
    // line of floor between their middles and open its seams.
    let first = d.room_named(&spec.rooms[0].id).unwrap();
    let last = d.room_named(&spec.rooms[spec.rooms.len() - 1].id).unwrap();
    let a = d.room_cells(first).find(|p| p.slot.kind() == SlotKind::Octagon).unwrap();
    let b = d.room_cells(last).find(|p| p.slot.kind() == SlotKind::Octagon).unwrap();
    let mut broken = d.clone();
    let mut here = a.slot;
    while here != b.slot {
        let step = |from: u32, to: u32| if to > from { 1 } else { -1 };
        let (dir, next) = if here.row != b.slot.row {
            let dr = step(here.row, b.slot.row);
            (Direction::from_unit(dr, 0).unwrap(), Slot::new(here.row.wrapping_add_signed(2 * dr), here.col))
        } else {
            let dc = step(here.col, b.slot.col);
            (Direction::from_unit(0, dc).unwrap(), Slot::new(here.row, here.col.wrapping_add_signed(2 * dc)))
        };
        let p = Pos { level: 0, slot: next };
        if !broken.is_carved(p) {
            broken.set_tile(p, octile::dungeon::Registry::FLOOR).unwrap();
        }
        broken.set_edge(Pos { level: 0, slot: here }, dir, octile::dungeon::Registry::OPEN).unwrap();
        here = next;
    }
    let refused = std::panic::catch_unwind(|| check(&broken, &spec, &flow, "broken"));
    assert!(refused.is_err(), "a shortcut between the first and last rooms must be seen");
}

/// The hand-written specs of `tests/flow_specs/` (10-40 rooms, up to 4 cycles, up to 3
/// levels), each realised on 32x32 octagons over `OCTILE_FLOW_SPEC_SEEDS` seeds (2 by
/// default; the figure is 20): at least 99% of (spec, seed) pairs realise, and
/// every one that does keeps the promises.
#[test]
fn the_hand_written_specs_realise_and_keep_their_promises() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/flow_specs");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    assert!(files.len() >= 10, "specs in {dir}: {}", files.len());
    let seeds: u64 = std::env::var("OCTILE_FLOW_SPEC_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(2);
    let proportions = octile::geometry::Proportions::default();
    let (mut pairs, mut failed) = (0u32, Vec::new());
    for file in &files {
        let spec = FlowSpec::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
        let flow = spec.check(&proportions).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rooms = spec.rooms.len();
        assert!((10..=40).contains(&rooms), "{}: {rooms} rooms", file.display());
        assert!(flow.level_count() <= 3, "{}", file.display());
        for seed in 0..seeds {
            pairs += 1;
            let options = GenerateOptions { seed, cols: 32, rows: 32, ..Default::default() };
            let what = format!("{} seed {seed}", file.display());
            match octile::flow::realise(&flow, &options, &mut |_| {}) {
                Ok(d) => check(&d, &spec, &flow, &what),
                Err(e) => failed.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(failed.len() * 100 <= pairs as usize, "{} of {pairs} failed: {failed:#?}", failed.len());
}
