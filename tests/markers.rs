//! Markers (issue 12, section 3), on the samples in `assets/` and on generated dungeons,
//! checked against the walk module's carved plan of each level: spawns and props stand on
//! walkable floor, torches on a rock wall facing carved space, hinges on the end of their
//! door's opening; every marker is at least the walker's body radius from every wall it
//! does not stand on; the same seed gives the same markers.

mod support;

use glam::DVec2;
use octile::dungeon::{Dungeon, Registry};
use octile::generate::{GenerateOptions, generate};
use octile::grid::Pos;
use octile::rooms::{Marker, MarkerKind, Markers, PASSAGE_CLEARANCE, PortalPlace, RoomGraph, RoomKind};
use octile::walk::{Body, LevelPlan, PieceKind, WallKind, contains, level_plan, segment_distance};

fn generated(seed: u64) -> Dungeon {
    let options = GenerateOptions { seed, cols: 8, rows: 8, levels: 2, ..Default::default() };
    generate(&options, &mut |_| {}).unwrap()
}

/// A generated dungeon with a door on every open seam between a room and a corridor, so
/// hinges are tested on many doors.
fn with_doors(seed: u64) -> Dungeon {
    let mut d = generated(seed);
    let g = RoomGraph::of(&d);
    for p in g.portals() {
        if let PortalPlace::Seam { level, edge } = p.place {
            d.set_edge_of(level, edge, Registry::DOOR).unwrap();
        }
    }
    d
}

fn dungeons() -> Vec<(String, Dungeon)> {
    let mut out = support::samples();
    out.push(("seed 7".into(), generated(7)));
    out.push(("seed 7 with doors".into(), with_doors(7)));
    out.push(("seed 12 with doors".into(), with_doors(12)));
    out
}

fn flat(m: &Marker) -> DVec2 {
    DVec2::new(m.point.x, m.point.z)
}

/// The floor piece under `p` that is a walkable cell, not a stair and not a hole.
fn on_walkable_floor(d: &Dungeon, plan: &LevelPlan, p: DVec2) -> bool {
    plan.pieces.iter().any(|piece| {
        let PieceKind::Cell(slot) = piece.kind else { return false };
        let pos = Pos { level: plan.level, slot };
        piece.floor && !d.is_stair(pos) && d.tile_def(pos).unwrap().walkable && contains(&piece.polygon, p)
    })
}

#[test]
fn every_marker_stands_on_floor_or_a_wall_and_clear_of_other_walls() {
    let radius = Body::default().radius;
    let mut kinds = [0usize; 4];
    for (name, d) in dungeons() {
        let g = RoomGraph::of(&d);
        let markers = Markers::of(&d, &g);
        let plans: Vec<LevelPlan> = (0..d.levels()).map(|l| level_plan(&d, l)).collect();
        for m in markers.iter() {
            let plan = &plans[usize::from(m.cell.level)];
            let p = flat(m);
            let floor = d.proportions().floor_y(m.cell.level);
            let own: Vec<bool> = plan.walls.iter().map(|w| segment_distance(p, w.a, w.b) < 1e-9).collect();
            match m.kind {
                MarkerKind::Spawn | MarkerKind::Prop => {
                    assert!(on_walkable_floor(&d, plan, p), "{name}: {m:?} is not on walkable floor");
                    assert!(!own.contains(&true), "{name}: {m:?} stands on a wall");
                    assert_eq!(m.point.y, floor);
                }
                MarkerKind::Torch => {
                    let i = own.iter().position(|&o| o).unwrap_or_else(|| panic!("{name}: {m:?} on no wall"));
                    let w = plan.walls[i];
                    assert_eq!(w.kind, WallKind::Rock);
                    assert!((m.facing - (w.b - w.a).perp().normalize()).length() < 1e-9, "{name}: {m:?}");
                    assert!(on_walkable_floor(&d, plan, p + m.facing * 0.05), "{name}: {m:?} faces rock");
                    assert!(m.point.y > floor && m.point.y < floor + d.proportions().room_height);
                }
                MarkerKind::DoorHinge(edge) => {
                    let sides = d.dims().edge_sides(edge).unwrap();
                    let opening = d.layout().door_opening(sides, sides[0].0, sides[0].1).unwrap();
                    assert!(p.distance(opening[0]) < 1e-12, "{name}: {m:?} is not on its opening's end");
                    assert!(own.contains(&true), "{name}: {m:?} touches its jamb");
                }
            }
            for (w, _) in plan.walls.iter().zip(&own).filter(|(_, o)| !**o) {
                let dist = segment_distance(p, w.a, w.b);
                assert!(dist >= radius, "{name}: {m:?} is {dist:.3} m from {w:?}");
            }
            assert!(markers.at(m.cell).contains(m), "{name}: the index holds {m:?} at its cell");
            kinds[match m.kind {
                MarkerKind::Spawn => 0,
                MarkerKind::Prop => 1,
                MarkerKind::Torch => 2,
                MarkerKind::DoorHinge(_) => 3,
            }] += 1;
        }
    }
    assert!(kinds.iter().all(|&k| k > 3), "every kind is tested: {kinds:?}");
}

#[test]
fn a_spawn_per_room_and_props_clear_of_passages() {
    for (name, d) in dungeons() {
        let g = RoomGraph::of(&d);
        let markers = Markers::of(&d, &g);
        for room in g.rooms() {
            let spawns = markers.iter().filter(|m| m.kind == MarkerKind::Spawn && m.room == room.id).count();
            let standable = room.cells.iter().any(|&slot| {
                let pos = Pos { level: room.level, slot };
                !d.is_stair(pos) && d.stair_below(pos).is_none()
            });
            let want = usize::from(room.kind == RoomKind::Room && standable);
            assert_eq!(spawns, want, "{name}: room {:?} ({:?})", room.id, room.kind);
        }
        for m in markers.iter().filter(|m| !matches!(m.kind, MarkerKind::DoorHinge(_))) {
            assert_eq!(g.room_at(&d, m.cell), Some(m.room), "{name}: {m:?}");
            let cell = d.layout().cell_polygon(m.cell.slot).unwrap();
            assert!(contains(&cell, flat(m)), "{name}: {m:?} lies in its cell");
        }
        let plans: Vec<LevelPlan> = (0..d.levels()).map(|l| level_plan(&d, l)).collect();
        for m in markers.iter().filter(|m| m.kind == MarkerKind::Prop) {
            for piece in plans[usize::from(m.cell.level)].pieces.iter() {
                let PieceKind::Seam(_) = piece.kind else { continue };
                let n = piece.polygon.len();
                let near = (0..n)
                    .map(|i| segment_distance(flat(m), piece.polygon[i], piece.polygon[(i + 1) % n]))
                    .fold(f64::INFINITY, f64::min);
                assert!(near >= PASSAGE_CLEARANCE - 1e-9, "{name}: {m:?} is {near:.2} m from a passage");
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_markers() {
    let of = |d: &Dungeon| Markers::of(d, &RoomGraph::of(d));
    let (a, b) = (of(&with_doors(7)), of(&with_doors(7)));
    assert_eq!(a, b);
    let listed: Vec<Marker> = a.iter().copied().collect();
    assert_eq!(listed, b.iter().copied().collect::<Vec<_>>());
    assert!(listed.windows(2).all(|w| w[0].cell <= w[1].cell), "in cell order");
    assert_ne!(a, of(&with_doors(8)), "another seed, other markers");
}

/// Issue 25: a torch node stood on the wall with `--markers` and 0.3 m in front of it with
/// `--lights`. One owner (`rooms::light_position`): the `Torch_` node is at the same point
/// with markers, lights or both, and that is where the library's torch light hangs.
#[test]
fn a_torch_node_stands_where_its_light_hangs_with_or_without_lights() {
    use octile::export::{Export, ExportOptions};
    use octile::rooms::{LightPreset, torch_lights};
    let d = with_doors(7);
    // Every `Torch_` node's world point (level translation plus its own), by name.
    let torches = |options: &ExportOptions| -> Vec<(String, glam::DVec3)> {
        let g = gltf::Gltf::from_slice(&Export::new(&d, options).to_glb().unwrap()).unwrap();
        let mut out = Vec::new();
        for level in g.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with("Level_"))) {
            let lift = glam::Vec3::from(level.transform().decomposed().0).as_dvec3();
            for n in level.children().filter(|n| n.name().is_some_and(|s| s.starts_with("Torch_"))) {
                let at = glam::Vec3::from(n.transform().decomposed().0).as_dvec3();
                out.push((n.name().unwrap().to_string(), lift + at));
            }
        }
        out
    };
    let markers = torches(&ExportOptions { markers: true, ..Default::default() });
    let lights = torches(&ExportOptions { lights: Some(LightPreset::Godot), ..Default::default() });
    let both =
        torches(&ExportOptions { markers: true, lights: Some(LightPreset::Blender), ..Default::default() });
    let library = torch_lights(&Markers::of(&d, &RoomGraph::of(&d)), LightPreset::Blender);
    assert!(library.len() > 3);
    assert_eq!(markers.len(), library.len());
    for (((m, l), b), light) in markers.iter().zip(&lights).zip(&both).zip(&library) {
        assert_eq!((&m.0, &l.0), (&b.0, &b.0));
        assert!(m.1.distance(l.1) < 1e-4 && b.1.distance(l.1) < 1e-4, "{}: {} / {} / {}", m.0, m.1, l.1, b.1);
        assert!(m.1.distance(light.position) < 1e-4, "{}: node {}, light {}", m.0, m.1, light.position);
    }
}
