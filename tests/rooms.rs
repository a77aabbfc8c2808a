//! Rooms, corridors and portals (issue 12, section 2), on the samples in `assets/` and on
//! generated dungeons: every carved cell is in exactly one room or corridor, the corridor
//! rule agrees with a plain reference written here, portals join exactly two rooms, and the
//! rooms' areas with the portals' seams add up to the level's carved plan.

mod support;

use octile::dungeon::{Carve, Dungeon};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::signed_area;
use octile::grid::{Pos, Slot, SlotKind};
use octile::rooms::{PortalKind, PortalPlace, RoomGraph, RoomKind, is_corridor_cell};
use octile::walk::level_plan;

/// The samples and a few generated dungeons, by name.
fn dungeons() -> Vec<(String, Dungeon)> {
    let mut out = support::samples();
    for (seed, cols, rows, levels) in [(7, 8, 8, 2), (3, 12, 12, 3), (11, 6, 10, 2)] {
        let options = GenerateOptions { seed, cols, rows, levels, ..Default::default() };
        out.push((format!("seed {seed}"), generate(&options, &mut |_| {}).unwrap()));
    }
    out
}

/// The cells joined to `pos` (same level, across a carved seam), found by trying every
/// slot offset a wall can reach instead of asking the grid for neighbours.
fn joined_reference(d: &Dungeon, pos: Pos) -> Vec<Pos> {
    let dims = d.dims();
    let Ok(walls) = dims.walls(pos.slot) else { return Vec::new() };
    walls
        .iter()
        .filter(|&&dir| d.carved_seam(pos, dir).is_some())
        .map(|&dir| {
            let (dr, dc) = dir.unit();
            let step = if pos.slot.kind() == SlotKind::Octagon && !dir.is_diagonal() { 2 } else { 1 };
            let slot = pos.slot.offset(dr * step, dc * step).unwrap();
            Pos { slot, ..pos }
        })
        .collect()
}

fn carved(d: &Dungeon, pos: Pos) -> bool {
    d.tile_def(pos).is_ok_and(|t| t.carved)
}

#[test]
fn every_carved_cell_is_in_exactly_one_room_or_corridor() {
    for (name, d) in dungeons() {
        let g = RoomGraph::of(&d);
        let mut seen: Vec<Pos> = Vec::new();
        for room in g.rooms() {
            assert!(!room.cells.is_empty(), "{name}: room {:?} is empty", room.id);
            assert_eq!(g.room(room.id), Some(room), "{name}: ids index rooms");
            for &slot in &room.cells {
                let pos = Pos { level: room.level, slot };
                assert!(carved(&d, pos), "{name}: {pos} is not carved");
                assert_eq!(g.room_at(&d, pos), Some(room.id), "{name}: {pos}");
                let corridor = room.kind == RoomKind::Corridor;
                assert_eq!(is_corridor_cell(&d, pos), corridor, "{name}: {pos} in a {:?}", room.kind);
                seen.push(pos);
            }
        }
        let count = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), count, "{name}: a cell is in two rooms");
        let all: Vec<Pos> = d.cells().filter(|&p| carved(&d, p)).collect();
        assert_eq!(seen, all, "{name}: every carved cell is in a room");
        for pos in d.cells().filter(|&p| !carved(&d, p)) {
            assert_eq!(g.room_at(&d, pos), None, "{name}: rock {pos} is in no room");
        }
        let kinds = |k| g.rooms().iter().filter(|r| r.kind == k).count();
        eprintln!("{name}: {} rooms, {} corridors", kinds(RoomKind::Room), kinds(RoomKind::Corridor));
    }
}

#[test]
fn the_corridor_rule_matches_a_plain_reference() {
    let mut corridors = 0;
    for (name, d) in dungeons() {
        for pos in d.cells() {
            let near = joined_reference(&d, pos);
            let on_triangle =
                near.iter().any(|&a| joined_reference(&d, a).iter().any(|b| *b != pos && near.contains(b)));
            let want = carved(&d, pos) && (1..=2).contains(&near.len()) && !on_triangle;
            assert_eq!(is_corridor_cell(&d, pos), want, "{name}: {pos}, joined to {near:?}");
            corridors += usize::from(want);
        }
    }
    assert!(corridors > 20, "the dungeons have corridors ({corridors})");
}

#[test]
fn rooms_are_joined_groups_and_portals_join_exactly_two() {
    for (name, d) in dungeons() {
        let g = RoomGraph::of(&d);
        // Two joined cells of one kind are in one room; of two kinds, a portal joins them.
        let mut seam_portals = 0;
        for pos in d.cells().filter(|&p| carved(&d, p)) {
            for other in joined_reference(&d, pos) {
                let (a, b) = (g.room_at(&d, pos).unwrap(), g.room_at(&d, other).unwrap());
                let same_kind = g.room(a).unwrap().kind == g.room(b).unwrap().kind;
                assert_eq!(a == b, same_kind, "{name}: {pos} and {other}");
                seam_portals += usize::from(a != b);
            }
        }
        assert_eq!(seam_portals % 2, 0);
        let seams = g.portals().iter().filter(|p| matches!(p.place, PortalPlace::Seam { .. })).count();
        assert_eq!(seams, seam_portals / 2, "{name}: one portal per seam between two rooms");
        for p in g.portals() {
            let [a, b] = p.rooms;
            assert_ne!(a, b, "{name}: {p:?} joins a room to itself");
            let (ra, rb) = (g.room(a).unwrap(), g.room(b).unwrap());
            match p.place {
                PortalPlace::Seam { level, edge } => {
                    let sides = d.dims().edge_sides(edge).unwrap();
                    let at = |s: Slot| g.room_at(&d, Pos { level, slot: s });
                    assert_eq!([at(sides[0].0), at(sides[1].0)], [Some(a), Some(b)], "{name}: {p:?}");
                    assert_ne!(ra.kind, rb.kind, "{name}: a seam portal joins a room and a corridor");
                    let def = d.carved_seam(Pos { level, slot: sides[0].0 }, sides[0].1).unwrap();
                    assert_eq!(p.kind == PortalKind::Door, def.carve == Carve::Door, "{name}: {p:?}");
                }
                PortalPlace::Stair { foot } => {
                    assert_eq!(p.kind, PortalKind::Stair);
                    assert!(d.is_stair(foot), "{name}: {foot}");
                    assert_eq!((ra.level, rb.level), (foot.level, foot.level + 1), "{name}: {p:?}");
                    assert_eq!(g.room_at(&d, Pos { level: foot.level + 1, ..foot }), Some(b));
                }
            }
        }
        let stairs = g.portals().iter().filter(|p| p.kind == PortalKind::Stair).count();
        assert_eq!(stairs, d.stairs().len(), "{name}: a portal per stair");
    }
}

#[test]
fn room_areas_and_portal_seams_add_up_to_the_carved_plan() {
    for (name, d) in dungeons() {
        let g = RoomGraph::of(&d);
        let layout = d.layout();
        for level in 0..d.levels() {
            let plan: f64 = level_plan(&d, level).pieces.iter().map(|p| signed_area(&p.polygon)).sum();
            let rooms: f64 = g.rooms().iter().filter(|r| r.level == level).map(|r| r.area).sum();
            let portals: f64 = g
                .portals()
                .iter()
                .filter_map(|p| match p.place {
                    PortalPlace::Seam { level: l, edge } if l == level => Some((p.kind, edge)),
                    _ => None,
                })
                .map(|(kind, edge)| {
                    let sides = d.dims().edge_sides(edge).unwrap();
                    let rect = if kind == PortalKind::Door {
                        layout.door(sides[0], sides[1])
                    } else {
                        layout.edge_seam(sides)
                    };
                    signed_area(&rect.unwrap()).abs()
                })
                .sum();
            assert!(
                (rooms + portals - plan).abs() < 1e-6,
                "{name} level {level}: {rooms} + {portals} != {plan}"
            );
            assert!(g.rooms().iter().all(|r| r.area > 0.0), "{name}: every room has an area");
        }
    }
}

#[test]
fn a_two_by_two_hall_with_a_corridor_off_it() {
    // Level 0 of 3x2 octagons: a hall of the west 2x2 block with its connector, and one
    // octagon east of it joined by a single long seam: a room, a corridor, one open portal.
    let mut d = Dungeon::new(3, 2, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    d.set_tile(Pos::new(0, 1, 3), octile::dungeon::Registry::SOLID).unwrap();
    d.set_tile(Pos::new(0, 2, 4), octile::dungeon::Registry::SOLID).unwrap();
    let g = RoomGraph::of(&d);
    let kinds: Vec<_> = g.rooms().iter().map(|r| (r.kind, r.cells.len())).collect();
    assert_eq!(kinds, [(RoomKind::Room, 5), (RoomKind::Corridor, 1)]);
    assert_eq!(g.portals().len(), 1);
    assert_eq!(g.portals()[0].kind, PortalKind::Open);
    assert_eq!(g.portals_of(g.rooms()[1].id).count(), 1);
}

/// `octile info --json` lists the rooms (cells, area, kind) and portals (two rooms) of the
/// library's graph.
#[cfg(feature = "cli")]
#[test]
fn info_json_lists_rooms_and_portals() {
    for (name, d) in support::samples() {
        let path = format!("assets/{name}");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_octile"))
            .args(["info", &path, "--json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let g = RoomGraph::of(&d);
        let rooms = v["rooms"].as_array().unwrap();
        assert_eq!(rooms.len(), g.rooms().len(), "{name}");
        for (json, room) in rooms.iter().zip(g.rooms()) {
            assert_eq!(json["id"], room.id.0);
            assert_eq!(json["kind"], room.kind.name());
            assert_eq!(json["level"], room.level);
            let cells: Vec<[u32; 2]> = serde_json::from_value(json["cells"].clone()).unwrap();
            assert_eq!(cells, room.cells.iter().map(|s| [s.row, s.col]).collect::<Vec<_>>());
            assert!((json["area_m2"].as_f64().unwrap() - room.area).abs() < 1e-9);
        }
        let portals = v["portals"].as_array().unwrap();
        assert_eq!(portals.len(), g.portals().len(), "{name}");
        for (json, portal) in portals.iter().zip(g.portals()) {
            assert_eq!(json["kind"], portal.kind.name());
            assert_eq!(json["rooms"], serde_json::json!([portal.rooms[0].0, portal.rooms[1].0]));
        }
    }
}

/// Doors (issue 12, section 1) placed with `place_doors`: only between a room and a
/// corridor, none on a stair's cells (landing, exit wall), more with a higher density (and
/// every door of a lower one kept), the rooms unchanged, and with every door closed the
/// dungeon is still one passable region.
#[test]
fn doors_join_rooms_to_corridors_away_from_stairs_and_keep_one_region() {
    use octile::rooms::{DoorError, door_sites, place_doors};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    for seed in [7, 3] {
        let options =
            GenerateOptions { seed, cols: 10, rows: 10, levels: 3, doors: 0.0, ..Default::default() };
        let plain = generate(&options, &mut |_| {}).unwrap();
        let graph = RoomGraph::of(&plain);
        let sites = door_sites(&plain, &graph);
        assert!(sites.len() > 5, "seed {seed}: {} sites", sites.len());
        let mut counts = Vec::new();
        let mut previous: Vec<(u16, octile::grid::EdgeId)> = Vec::new();
        for density in [0.0, 0.25, 0.5, 1.0] {
            let mut d = plain.clone();
            let placed = place_doors(&mut d, density, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
            let doors: Vec<(u16, octile::grid::EdgeId)> = (0..d.levels())
                .flat_map(|level| d.dims().edges().map(move |e| (level, e)))
                .filter(|&(level, e)| {
                    let (slot, dir) = d.dims().edge_sides(e).unwrap()[0];
                    d.carved_seam(Pos { level, slot }, dir).is_some_and(|s| s.carve == Carve::Door)
                })
                .collect();
            assert_eq!(doors.len(), placed, "seed {seed} density {density}");
            assert!(previous.iter().all(|p| doors.contains(p)), "a higher density keeps the doors");
            for &(level, edge) in &doors {
                let sides = d.dims().edge_sides(edge).unwrap();
                let rooms: Vec<_> =
                    sides.iter().map(|&(s, _)| graph.room_at(&plain, Pos { level, slot: s })).collect();
                let kinds: Vec<_> = rooms.iter().map(|r| graph.room(r.unwrap()).unwrap().kind).collect();
                assert_ne!(kinds[0], kinds[1], "seed {seed}: a door between a room and a corridor");
                for &(slot, _) in &sides {
                    let pos = Pos { level, slot };
                    assert!(
                        !d.is_stair(pos) && d.stair_below(pos).is_none(),
                        "seed {seed}: door at a stair {pos}"
                    );
                }
            }
            assert_eq!(RoomGraph::of(&d).rooms(), graph.rooms(), "doors do not change the rooms");
            assert_eq!(d.stairs(), plain.stairs(), "doors do not move stair exits");
            assert_eq!(
                octile::path::dungeon_regions(&d).count(),
                1,
                "seed {seed}: closed doors are passable"
            );
            counts.push(placed);
            previous = doors;
        }
        assert_eq!(counts[0], 0, "density 0: no doors");
        assert_eq!(counts[3], sites.len(), "density 1: every site");
        assert!(counts.windows(2).all(|w| w[0] < w[1]), "seed {seed}: counts grow: {counts:?}");
    }
    let mut d = support::samples().remove(0).1;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(matches!(place_doors(&mut d, 1.5, &mut rng), Err(DoorError::BadDensity { .. })));
    assert!(matches!(place_doors(&mut d, f64::NAN, &mut rng), Err(DoorError::BadDensity { .. })));
    let standard = octile::dungeon::Registry::standard();
    let edges = standard.edges().iter().filter(|e| e.carve != Carve::Door).cloned().collect();
    let registry = octile::dungeon::Registry::from_defs(standard.tiles().to_vec(), edges).unwrap();
    let fill = octile::dungeon::Fill::Floor;
    let mut doorless = Dungeon::with_registry(3, 1, 1, Default::default(), registry, fill).unwrap();
    assert!(matches!(place_doors(&mut doorless, 0.5, &mut rng), Err(DoorError::NoDoorState)));
}

/// `generate` places doors with `GenerateOptions::doors`: none at 0, more as it grows, each
/// between a room and a corridor and away from stairs, the dungeon still one passable region
/// with every door closed; the default dungeon has some.
#[test]
fn generated_doors_follow_the_density() {
    let doors_of = |d: &Dungeon| -> Vec<(u16, Slot, octile::grid::Direction)> {
        (0..d.levels())
            .flat_map(|level| d.dims().edges().map(move |e| (level, e)))
            .filter_map(|(level, e)| {
                let (slot, dir) = d.dims().edge_sides(e).unwrap()[0];
                let def = d.carved_seam(Pos { level, slot }, dir)?;
                (def.carve == Carve::Door).then_some((level, slot, dir))
            })
            .collect()
    };
    let mut counts = Vec::new();
    for doors in [0.0, 0.3, 1.0] {
        let options = GenerateOptions { seed: 5, cols: 10, rows: 10, levels: 3, doors, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let g = RoomGraph::of(&d);
        let found = doors_of(&d);
        for &(level, slot, dir) in &found {
            let other = d.dims().neighbor(slot, dir).unwrap().unwrap();
            let kind = |s: Slot| g.room(g.room_at(&d, Pos { level, slot: s }).unwrap()).unwrap().kind;
            assert_ne!(kind(slot), kind(other), "doors {doors}: a door between a room and a corridor");
            for s in [slot, other] {
                let pos = Pos { level, slot: s };
                assert!(!d.is_stair(pos) && d.stair_below(pos).is_none(), "doors {doors}: at a stair {pos}");
            }
        }
        assert_eq!(octile::path::dungeon_regions(&d).count(), 1, "doors {doors}: one passable region");
        counts.push(found.len());
    }
    assert_eq!(counts[0], 0, "doors 0: none");
    assert!(counts[0] < counts[1] && counts[1] < counts[2], "counts grow: {counts:?}");
    let default = generate(&GenerateOptions::default(), &mut |_| {}).unwrap();
    assert!(!doors_of(&default).is_empty(), "the default dungeon has doors");
}
