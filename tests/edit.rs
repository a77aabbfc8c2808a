//! Editing (issue 11, core): undo/redo over random edit sequences gives back the exact
//! bytes, refused commands change nothing, and the dirty chunks re-meshed after each edit
//! equal a full rebuild of the edited dungeon, chunk by chunk.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use octile::dungeon::{Dungeon, EdgeStateId, Fill, PillarState, Registry, RoomHeight};
use octile::edit::script::run_line;
use octile::edit::{Change, Command, EditError, Editor, rect_cells};
use octile::format::to_json;
use octile::generate::{GenerateOptions, generate};
use octile::geometry::Proportions;
use octile::grid::{Direction, EdgeId, PillarId, Pos, Slot};
use octile::mesh::chunk::{ChunkId, all_chunks, build_chunk};
use octile::mesh::{LevelMesh, MeshOptions};
use proptest::prelude::*;

/// A generated 12x12x2 dungeon (23 x 23 slots: 2 x 2 chunks per level).
fn base() -> &'static Dungeon {
    static BASE: OnceLock<Dungeon> = OnceLock::new();
    BASE.get_or_init(|| {
        let options = GenerateOptions { seed: 5, levels: 2, cols: 12, rows: 12, ..Default::default() };
        generate(&options, &mut |_| {}).unwrap()
    })
}

/// A random command (many are refused: a Void slot, a stair with no landing, ...).
fn arb_command() -> impl Strategy<Value = Command> {
    let pos = (0u16..2, 0u32..23, 0u32..23).prop_map(|(l, r, c)| Pos::new(l, r, c));
    let dir = (0usize..8).prop_map(Direction::from_index);
    let tile = prop_oneof![Just(Registry::SOLID), Just(Registry::FLOOR)];
    let state = (0u8..3).prop_map(|s| [Registry::WALL, Registry::OPEN, Registry::DOOR][usize::from(s)]);
    prop_oneof![
        (pos.clone(), tile.clone()).prop_map(|(pos, tile)| Command::SetTile { pos, tile }),
        pos.clone().prop_map(|pos| Command::Toggle { pos }),
        (pos.clone(), dir.clone()).prop_map(|(pos, dir)| Command::Cycle { pos, dir }),
        (pos.clone(), dir, state).prop_map(|(pos, dir, state): (Pos, Direction, EdgeStateId)| {
            Command::SetEdge { pos, dir, state }
        }),
        (pos.clone(), 0u32..4, 0u32..4, tile).prop_map(|(p, h, w, tile)| {
            let to = Slot::new((p.slot.row + h).min(22), (p.slot.col + w).min(22));
            Command::Paint { cells: rect_cells(base().dims(), p.level, p.slot, to).unwrap(), tile }
        }),
        (pos.clone(), 0u32..6, 0u32..6).prop_map(|(p, h, w)| {
            let to = Slot::new((p.slot.row + h).min(22), (p.slot.col + w).min(22));
            Command::PaintRoom { level: p.level, from: p.slot, to }
        }),
        pos.clone().prop_map(|pos| Command::PlaceStair { pos }),
        pos.clone().prop_map(|pos| Command::RemoveStair { pos }),
        pos.clone().prop_map(|pos| Command::SetEntrance { pos: Some(pos) }),
        (pos.clone(), any::<bool>()).prop_map(|(pos, pinned)| Command::Pin { cells: vec![pos], pinned }),
        (pos.clone(), 0u32..4, 0u32..4, 0usize..5).prop_map(|(p, h, w, k)| {
            let to = Slot::new((p.slot.row + h).min(22), (p.slot.col + w).min(22));
            let height = [3.5, 6.0, 9.0, 11.0].get(k).and_then(|&m| RoomHeight::from_metres(m));
            Command::SetHeight { cells: rect_cells(base().dims(), p.level, p.slot, to).unwrap(), height }
        }),
        (pos, 1u32..4).prop_map(|(pos, radius)| Command::Resolve { pos, radius }),
        (0u16..2, 0u32..11, 0u32..11, 0usize..4, any::<bool>()).prop_map(|(level, r, c, tip, open)| {
            let pillar = PillarId::new(Slot::new(2 * r + 1, 2 * c + 1), Direction::CARDINALS[tip]).unwrap();
            Command::SetPillar {
                level,
                pillar,
                state: if open { PillarState::Open } else { PillarState::Column },
            }
        }),
    ]
}

fn options() -> MeshOptions {
    MeshOptions { lightmap_uv: false, optimize: false, ..MeshOptions::default() }
}

fn all_meshes(d: &Dungeon) -> BTreeMap<ChunkId, LevelMesh> {
    all_chunks(d).into_iter().map(|c| (c, build_chunk(d, c, &options()).unwrap())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn undo_all_and_redo_all_give_the_bytes_back(
        commands in prop::collection::vec(arb_command(), 1..24),
        groups in prop::collection::vec(0u8..4, 24),
    ) {
        let original = to_json(base());
        let mut editor = Editor::new(base().clone());
        for (i, cmd) in commands.iter().enumerate() {
            // Some commands share a group (one undo step, as a drag stroke).
            if groups[i] == 0 { editor.begin_group(); }
            let before = to_json(editor.dungeon());
            if editor.apply(cmd).is_err() {
                prop_assert_eq!(to_json(editor.dungeon()), before, "a refused command changed nothing");
            }
            if groups[i] == 1 { editor.end_group(); }
        }
        editor.end_group();
        let edited = to_json(editor.dungeon());
        let steps = editor.undo_steps();
        for _ in 0..steps { editor.undo().unwrap(); }
        prop_assert_eq!(to_json(editor.dungeon()), original.clone());
        prop_assert!(!editor.is_modified());
        prop_assert!(matches!(editor.undo(), Err(EditError::NothingTo("undo"))));
        for _ in 0..steps { editor.redo().unwrap(); }
        prop_assert_eq!(to_json(editor.dungeon()), edited);
        prop_assert_eq!(editor.is_modified(), steps > 0);
    }

    #[test]
    fn dirty_chunks_remeshed_equal_a_full_rebuild(commands in prop::collection::vec(arb_command(), 1..16)) {
        let mut editor = Editor::new(base().clone());
        let mut meshes = all_meshes(editor.dungeon());
        for cmd in &commands {
            if let Ok(done) = editor.apply(cmd) {
                for chunk in done.dirty {
                    meshes.insert(chunk, build_chunk(editor.dungeon(), chunk, &options()).unwrap());
                }
            }
        }
        let fresh = all_meshes(editor.dungeon());
        for (chunk, mesh) in &fresh {
            prop_assert_eq!(&meshes[chunk], mesh, "{}", chunk);
        }
        // And the same after undoing everything.
        while let Ok(done) = editor.undo() {
            for chunk in done.dirty {
                meshes.insert(chunk, build_chunk(editor.dungeon(), chunk, &options()).unwrap());
            }
        }
        prop_assert_eq!(meshes, all_meshes(base()));
    }
}

#[test]
fn cycling_a_wall_goes_through_the_registry_order() {
    let d = base().clone();
    let (pos, dir) = d
        .cells()
        .flat_map(|p| Direction::ALL.into_iter().map(move |dir| (p, dir)))
        .find(|&(p, dir)| d.edge_state(p, dir).ok().flatten() == Some(Registry::WALL))
        .unwrap();
    let mut editor = Editor::new(d);
    let mut seen = Vec::new();
    for _ in 0..3 {
        editor.apply(&Command::Cycle { pos, dir }).unwrap();
        seen.push(editor.dungeon().edge_state(pos, dir).unwrap().unwrap());
    }
    assert_eq!(seen, [Registry::OPEN, Registry::DOOR, Registry::WALL]);
    assert_eq!(editor.undo_steps(), 3);
}

#[test]
fn refusals_say_why() {
    let d = base().clone();
    let mut editor = Editor::new(d.clone());
    let top = Pos::new(1, 0, 0);
    let err = editor.apply(&Command::PlaceStair { pos: top }).unwrap_err();
    assert!(err.to_string().contains("leads up to level 2"), "{err}");
    let rock_above = d
        .cells()
        .filter(|p| p.level == 0 && p.slot.kind() == octile::grid::SlotKind::Octagon)
        .find(|&p| !d.tile_def(Pos { level: 1, ..p }).unwrap().carved && d.stair_below(p).is_none())
        .unwrap();
    assert_eq!(
        editor.apply(&Command::PlaceStair { pos: rock_above }),
        Err(EditError::NoLanding { pos: rock_above })
    );
    let void = Pos::new(0, 0, 1);
    let err = editor.apply(&Command::Pin { cells: vec![void], pinned: true }).unwrap_err();
    assert!(err.to_string().contains("is not a cell but the wall between the octagons"), "{err}");
    let floor = d.cells().find(|&p| d.tile_def(p).unwrap().carved && !d.is_stair(p)).unwrap();
    assert_eq!(editor.apply(&Command::RemoveStair { pos: floor }), Err(EditError::NotAStair { pos: floor }));
    let entrance = d.entrance().unwrap();
    let err = editor.apply(&Command::Toggle { pos: entrance }).unwrap_err();
    assert!(matches!(err, EditError::Problem { .. }), "{err}");
    assert_eq!(editor.dungeon(), &d);
    assert_eq!(editor.undo_steps(), 0);
}

#[test]
fn painting_opens_seams_exactly_between_floors() {
    let d = base().clone();
    let mut editor = Editor::new(d);
    let cells = rect_cells(editor.dungeon().dims(), 0, Slot::new(8, 8), Slot::new(12, 12)).unwrap();
    let done = editor.apply(&Command::Paint { cells: cells.clone(), tile: Registry::FLOOR }).unwrap();
    assert!(!done.changes.is_empty());
    let e = editor.dungeon();
    for &p in &cells {
        for &dir in e.dims().walls(p.slot).unwrap() {
            let Some(state) = e.edge_state(p, dir).unwrap() else { continue };
            let other = Pos { slot: e.dims().neighbor(p.slot, dir).unwrap().unwrap(), ..p };
            let floor = e.tile_def(other).unwrap().carved;
            if floor && e.shaft_allows(p, dir) {
                assert_ne!(state, Registry::WALL, "{p} {dir:?}");
            } else {
                assert_eq!(state, Registry::WALL, "{p} {dir:?}");
            }
        }
    }
    for level in 0..e.levels() {
        assert_eq!(octile::edit::seams::underived_seams(e, level), [], "level {level}");
    }
}

#[test]
fn the_report_counts_regions_and_unreachable_cells() {
    let d = base().clone();
    // A rock octagon whose every neighbour is rock: toggled, it is a region of its own.
    let lonely = d
        .cells()
        .find(|&p| {
            !d.tile_def(p).unwrap().carved
                && d.dims().walls(p.slot).unwrap().iter().all(|&w| {
                    d.dims()
                        .neighbor(p.slot, w)
                        .unwrap()
                        .is_none_or(|s| !d.tile_def(Pos { slot: s, ..p }).unwrap().carved)
                })
        })
        .unwrap();
    let mut editor = Editor::new(d);
    assert!(editor.connectivity().is_connected());
    editor.apply(&Command::Toggle { pos: lonely }).unwrap();
    let report = editor.connectivity();
    assert_eq!(report.regions, 2);
    assert_eq!(report.unreachable, [lonely]);
    assert_eq!(report.to_string(), "2 regions, 1 unreachable cell");
    editor.undo().unwrap();
    let back = editor.connectivity();
    assert!(back.is_connected() && back.unreachable.is_empty());
}

/// Edits round every hole (the octagon above a stair): the stair below reads them (its exit
/// and shaft), so its chunk is dirty too, and re-meshing the dirty chunks matches a rebuild.
#[test]
fn edits_round_a_hole_dirty_the_stair_below() {
    let d = base().clone();
    let mut editor = Editor::new(d.clone());
    let mut meshes = all_meshes(&d);
    let holes: Vec<Pos> = d.stairs().iter().map(|s| s.hole()).collect();
    assert!(!holes.is_empty());
    for hole in holes {
        let mut commands: Vec<Command> =
            Direction::ALL.iter().map(|&dir| Command::Cycle { pos: hole, dir }).collect();
        for &dir in &Direction::ALL {
            if let Ok(Some(slot)) = d.dims().neighbor(hole.slot, dir) {
                commands.push(Command::Toggle { pos: Pos { slot, ..hole } });
            }
        }
        for cmd in &commands {
            if let Ok(done) = editor.apply(cmd) {
                for chunk in done.dirty {
                    meshes.insert(chunk, build_chunk(editor.dungeon(), chunk, &options()).unwrap());
                }
                assert_eq!(meshes, all_meshes(editor.dungeon()), "after {cmd:?}");
            }
        }
    }
}

/// A rock level of `cols x rows` octagons, one level.
fn rock(cols: u32, rows: u32) -> Dungeon {
    Dungeon::new(cols, rows, 1, Default::default(), octile::dungeon::Fill::Solid).unwrap()
}

/// Activating a rock cell beside floor opens the seam to it (it used to leave a walled-in
/// cell); filling it walls it again; undo gives back the bytes.
#[test]
fn toggling_a_cell_beside_floor_opens_onto_it() {
    let mut d = rock(4, 4);
    d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
    let mut editor = Editor::new(d.clone());
    let beside = Pos::new(0, 2, 4);
    editor.apply(&Command::Toggle { pos: beside }).unwrap();
    let e = editor.dungeon();
    assert_eq!(e.edge_state(beside, Direction::W).unwrap(), Some(Registry::OPEN));
    assert_eq!(e.edge_state(beside, Direction::E).unwrap(), Some(Registry::WALL), "rock beyond stays walled");
    assert!(editor.connectivity().is_connected());
    editor.apply(&Command::Toggle { pos: beside }).unwrap();
    assert_eq!(editor.dungeon().edge_state(beside, Direction::W).unwrap(), Some(Registry::WALL));
    editor.undo().unwrap();
    editor.undo().unwrap();
    assert_eq!(to_json(editor.dungeon()), to_json(&d));
}

/// `room`: floor walled from its surroundings but for one doorway per side that borders the
/// grid's inside, each onto a carved cell; a side on the grid's edge has none; the room
/// and its doorways are one region, and a re-paint beside existing floor still walls it.
#[test]
fn a_painted_room_has_one_doorway_per_side() {
    let run = |d: Dungeon, from: Slot, to: Slot| {
        let mut editor = Editor::new(d);
        editor.apply(&Command::PaintRoom { level: 0, from, to }).unwrap();
        editor.into_dungeon()
    };
    let doorways = |d: &Dungeon, from: Slot, to: Slot| {
        let cells = rect_cells(d.dims(), 0, from, to).unwrap();
        let inside = |s: Slot| cells.iter().any(|p| p.slot == s);
        let mut out = Vec::new();
        for p in &cells {
            assert!(d.tile_def(*p).unwrap().carved, "{p} is floor");
            for &dir in d.dims().walls(p.slot).unwrap() {
                let Some(beyond) = d.dims().neighbor(p.slot, dir).unwrap() else { continue };
                if !inside(beyond) && d.edge_state(*p, dir).unwrap() != Some(Registry::WALL) {
                    assert!(
                        d.is_carved(Pos { slot: beyond, ..*p }),
                        "the doorway at {p} {dir:?} leads onto floor"
                    );
                    out.push((p.slot, dir));
                }
            }
        }
        out
    };
    let (from, to) = (Slot::new(2, 2), Slot::new(6, 8));
    let d = run(rock(6, 6), from, to);
    assert_eq!(
        doorways(&d, from, to),
        [
            (Slot::new(2, 4), Direction::N),
            (Slot::new(4, 2), Direction::W),
            (Slot::new(4, 8), Direction::E),
            (Slot::new(6, 4), Direction::S)
        ]
    );
    assert_eq!(octile::path::dungeon_regions(&d).count(), 1);
    // In a corner: the sides on the grid's edge have none.
    let corner = run(rock(6, 6), Slot::new(0, 0), Slot::new(4, 4));
    assert_eq!(
        doorways(&corner, Slot::new(0, 0), Slot::new(4, 4)),
        [(Slot::new(2, 4), Direction::E), (Slot::new(4, 2), Direction::S)]
    );
    // Beside floor: walled but for the doorway.
    let mut floor = Dungeon::new(6, 6, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    floor.set_tile(Pos::new(0, 0, 0), Registry::FLOOR).unwrap();
    let painted = run(floor, from, to);
    assert_eq!(doorways(&painted, from, to).len(), 4);
}

/// A design sketched with `room` and pinned keeps exactly the designer's doorways when the
/// rest is generated (no doorway is added to a room a seam already leaves).
#[test]
fn generating_around_painted_rooms_keeps_their_doorways() {
    let (from, to) = (Slot::new(6, 6), Slot::new(12, 12));
    let mut editor = Editor::new(rock(10, 10));
    editor.apply(&Command::PaintRoom { level: 0, from, to }).unwrap();
    editor
        .apply(&Command::Pin {
            cells: rect_cells(editor.dungeon().dims(), 0, from, to).unwrap(),
            pinned: true,
        })
        .unwrap();
    let design = editor.into_dungeon();
    for seed in 0..8 {
        let options = GenerateOptions { seed, ..Default::default() };
        let d = octile::generate::generate_around(&options, &design, &mut |_| {}).unwrap();
        for p in design.pinned() {
            for &dir in d.dims().walls(p.slot).unwrap() {
                assert_eq!(
                    d.edge_state(p, dir).unwrap(),
                    design.edge_state(p, dir).unwrap(),
                    "seed {seed}: {p} {dir:?}"
                );
            }
        }
        assert_eq!(octile::path::dungeon_regions(&d).count(), 1, "seed {seed}");
    }
}

/// A room height sets where the pillar faces of the seams beside its cell's seams are split,
/// and those seams may lie in another chunk: the octagon (14, 16) is in chunk (0, 1), its
/// seam south to (16, 16) too, and the seam from (16, 16) to the connector (15, 15), whose
/// pillar face meets that seam's end, in chunk (0, 0). Each edit's dirty chunks re-meshed
/// equal a rebuild, clearing the last height too. Two open pillars of the connector (15, 15)
/// stand beside the changed cells: their ceilings and lintels follow the heights too.
#[test]
fn height_edits_dirty_the_seams_beside() {
    let mut editor = Editor::new(Dungeon::new(12, 12, 1, Proportions::default(), Fill::Floor).unwrap());
    let mut meshes = all_meshes(editor.dungeon());
    let lines = [
        "pillar 0,15,15 n open",
        "pillar 0,15,15 e open",
        "height 0 15,15..16,16 9",
        "height 0,14,16 3.5",
        "height 0,14,16 5",
        "edge 0,14,16 s wall",
        "edge 0,14,16 s open",
        "pillar 0,15,15 e open",
        "height 0,14,16 default",
        "height 0 15,15..16,16 default",
        "pillar 0,15,15 n column",
        "pillar 0,15,15 e column",
    ];
    for line in lines {
        let done = run_line(&mut editor, line).unwrap().unwrap();
        for chunk in done.dirty {
            meshes.insert(chunk, build_chunk(editor.dungeon(), chunk, &options()).unwrap());
        }
        assert!(meshes == all_meshes(editor.dungeon()), "after {line:?} a chunk is stale");
    }
    assert_eq!(meshes, all_meshes(&Dungeon::new(12, 12, 1, Proportions::default(), Fill::Floor).unwrap()));
}

#[test]
fn a_painted_hall_opens_its_pillars_and_undo_restores_cells_seams_and_pillars_together() {
    let d = Dungeon::new(5, 5, 1, Proportions::default(), Fill::Solid).unwrap();
    let mut editor = Editor::new(d.clone());
    run_line(&mut editor, "room 0 2,2..6,6").unwrap();
    let open: Vec<(u16, PillarId)> = editor.dungeon().open_pillars().collect();
    assert_eq!(open.len(), 16, "2 x 2 connectors inside the room, four pillars each");
    let hall = to_json(editor.dungeon());
    // Closing one seam turns the two pillars at its ends back into columns in the same step.
    let seam = EdgeId::Short(Slot::new(3, 3), octile::grid::ConnectorWall::TL);
    let done = run_line(&mut editor, "edge 0,3,3 tl wall").unwrap().unwrap();
    let mut closed: Vec<PillarId> = done
        .changes
        .iter()
        .filter_map(|c| match *c {
            Change::Pillar { pillar, before: PillarState::Open, after: PillarState::Column, .. } => {
                Some(pillar)
            }
            _ => None,
        })
        .collect();
    closed.sort_unstable();
    let at_seam: Vec<PillarId> = open.iter().map(|&(_, p)| p).filter(|p| p.seams().contains(&seam)).collect();
    assert_eq!(closed, at_seam);
    assert_eq!(closed.len(), 2);
    assert_eq!(editor.dungeon().open_pillars().count(), 14);
    editor.undo().unwrap();
    assert_eq!(to_json(editor.dungeon()), hall, "undo puts the seam and both pillars back");
    // Filling a cell does the same for the pillars round it.
    run_line(&mut editor, "cell 0,4,4 solid").unwrap();
    assert_eq!(editor.dungeon().open_pillars().count(), 16 - 8);
    editor.undo().unwrap();
    assert_eq!(to_json(editor.dungeon()), hall);
    editor.redo().unwrap();
    assert_eq!(editor.dungeon().open_pillars().count(), 8);
    editor.undo().unwrap();
    // The command: a column and back, and a refusal naming the pillar and why.
    run_line(&mut editor, "pillar 0,3,3 n column").unwrap();
    assert_eq!(editor.dungeon().open_pillars().count(), 15);
    run_line(&mut editor, "pillar 0,3,3 N open").unwrap();
    assert_eq!(to_json(editor.dungeon()), hall);
    let err = run_line(&mut editor, "pillar 0,1,1 e open").unwrap_err().to_string();
    assert!(
        err.contains("level 0: the pillar at tip E of the connector at row 1, col 1 cannot be open")
            && err.contains("is not carved"),
        "{err}"
    );
    for _ in 0..editor.undo_steps() {
        editor.undo().unwrap();
    }
    assert_eq!(to_json(editor.dungeon()), to_json(&d));
}
