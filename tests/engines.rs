//! What game engines read from the export, read back with the `gltf` crate: colliders
//! (`-colonly`, cheaper than the render mesh, closed where it is) and extras (a role on
//! every node, no `null`, the scene's copy of entrance, exit and levels). The navigation
//! mesh has its own tests (`tests/navmesh.rs`).

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use glam::DVec2;
use octile::dungeon::{Carve, Dungeon, Fill, Registry};
use octile::export::{self, ExportOptions};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::{Proportions, Spiral, angle, signed_area};
use octile::grid::{Direction, Pos};
use octile::mesh::{self, MaterialRole, MeshOptions};
use support::{Tri, assert_watertight};

/// The sample dungeons and two generated ones (with stairs and doors).
fn dungeons() -> Vec<(String, Dungeon)> {
    let mut all = support::samples();
    for seed in [7, 21] {
        let options = GenerateOptions { seed, levels: 2, cols: 7, rows: 6, ..GenerateOptions::default() };
        all.push((format!("seed {seed}"), generate(&options, &mut |_| {}).unwrap()));
    }
    all
}

fn glb(d: &Dungeon) -> gltf::Gltf {
    let options = ExportOptions { colliders: true, navmesh: true, ..Default::default() };
    gltf::Gltf::from_slice(&export::Export::new(d, &options).to_glb().unwrap()).unwrap()
}

/// The triangles (level-local metres) of the mesh of `node`.
fn node_triangles(g: &gltf::Gltf, node: &gltf::Node<'_>) -> Vec<Tri> {
    let blob = g.blob.as_deref().unwrap();
    let prim = node.mesh().unwrap().primitives().next().unwrap();
    let r = prim.reader(|_| Some(blob));
    let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
    let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
    idx.chunks_exact(3).map(|t| [0, 1, 2].map(|k| pos[t[k] as usize].map(f64::from))).collect()
}

fn child<'a>(g: &'a gltf::Gltf, level: u16, name: &str) -> Option<gltf::Node<'a>> {
    let parent = g.nodes().find(|n| n.name() == Some(&format!("Level_{level:02}")))?;
    parent.children().find(|n| n.name() == Some(name))
}

fn extras(node: &gltf::Node<'_>) -> serde_json::Value {
    serde_json::from_str(node.extras().as_ref().expect("extras").get()).unwrap()
}

/// `(area, normal y)` of a triangle seen from above: area of its plan, sign of its facing.
fn plan_area(t: &Tri) -> f64 {
    let [a, b, c] = t.map(|p| DVec2::new(p[0], p[2]));
    // Counter-clockwise seen from +Y (x right, z towards the viewer) is negative in (x, z).
    -(b - a).perp_dot(c - a) / 2.0
}

/// Upward-facing area at `y = 0` (level-local): the floor.
fn floor_area(tris: &[Tri]) -> f64 {
    tris.iter().filter(|t| t.iter().all(|p| p[1].abs() < 1e-6)).map(plan_area).filter(|a| *a > 0.0).sum()
}

/// The dungeons of [`dungeons`], generated ones of three and four levels, and stairs made by
/// hand: a door on the stair's octagon, a door as its only exit, a door in the wall behind
/// its landing, and all floor (the wall behind its landing open on its own level).
/// The stair of [`support::tall_and_low_rooms`].
fn stair_at() -> Pos {
    Pos::new(0, 2, 4)
}

fn collider_dungeons() -> Vec<(String, Dungeon)> {
    let mut all = dungeons();
    for (seed, levels, n, doors) in [(7, 3, 12, 0.5), (3, 4, 6, 0.5), (5, 3, 10, 1.0)] {
        let o = GenerateOptions { seed, levels, cols: n, rows: n, doors, ..GenerateOptions::default() };
        all.push((format!("seed {seed}, {levels} levels"), generate(&o, &mut |_| {}).unwrap()));
    }
    let stair = Pos::new(0, 2, 2);
    let floor = || {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(stair, Registry::STAIR).unwrap();
        d
    };
    let mut mixed = floor();
    mixed.set_edge(stair, Direction::E, Registry::DOOR).unwrap();
    mixed.set_edge(Pos::new(1, 2, 2), Direction::NW, Registry::DOOR).unwrap();
    let mut door_exit = floor();
    for dir in Direction::ALL {
        let state = if dir == Direction::S { Registry::DOOR } else { Registry::WALL };
        door_exit.set_edge(Pos::new(1, 2, 2), dir, state).unwrap();
        door_exit.set_edge(stair, dir, Registry::WALL).unwrap();
    }
    let mut door_behind = door_exit.clone();
    door_behind.set_edge(stair, Direction::S, Registry::DOOR).unwrap();
    assert_eq!(door_behind.stair_landing(stair), Some(Direction::S));
    all.extend([
        ("a door on the stair's octagon".into(), mixed),
        ("a door as the stair's exit".into(), door_exit),
        ("a door behind the landing".into(), door_behind),
        ("all floor".into(), floor()),
    ]);
    for cut in [0.15, 0.20, 0.29] {
        all.push((format!("tall and low rooms, cut {cut}"), support::tall_and_low_rooms(cut)));
    }
    let mut tall_landing = support::tall_and_low_rooms(0.20);
    // The stair's landing wall open onto a low room, its neighbour wall onto a taller one.
    let landing = tall_landing.stair_landing(stair_at()).unwrap();
    tall_landing
        .set_room_height(
            Pos {
                slot: tall_landing.dims().neighbor(stair_at().slot, landing).unwrap().unwrap(),
                ..stair_at()
            },
            3.5,
        )
        .unwrap();
    all.push(("a tall stair opening onto a low room".into(), tall_landing));
    all.extend(support::edited_dungeons());
    all
}

/// Each edge of `tris` (welded at 0.1 mm) that is not used by exactly two triangles, with
/// the number of triangles using it.
fn odd_edges(tris: &[Tri]) -> Vec<([[i64; 3]; 2], usize)> {
    let key = |p: [f64; 3]| p.map(|x| (x * 1e4).round() as i64);
    let mut edges: Vec<[[i64; 3]; 2]> = tris
        .iter()
        .flat_map(|t| (0..3).map(move |k| [key(t[k]), key(t[(k + 1) % 3])]))
        .map(|mut e| {
            e.sort();
            e
        })
        .collect();
    edges.sort();
    edges.chunk_by(|a, b| a == b).filter(|w| w.len() != 2).map(|w| (w[0], w.len())).collect()
}

/// The plan of a stair's footprint (column, steps and landing) on its floor: from the
/// landing wall's first end round the steps' rim, in along the first step's foot, round
/// the column over the gap and out to the wall's other end.
fn footprint(spec: &Spiral) -> Vec<DVec2> {
    let (n, beta, to) = (spec.steps(), spec.sector_angle(), spec.landing_angles().1);
    let at = |k: usize, r: f64| spec.centre + angle::unit(to + k as f64 * beta) * r;
    let mut out = vec![spec.landing[0]];
    out.extend((1..=n).rev().map(|k| at(k, spec.step_radius())));
    out.extend([at(1, spec.column_radius()), at(0, spec.column_radius()), spec.landing[1]]);
    out
}

#[test]
fn colliders_are_colonly_ramped_and_together_one_closed_surface() {
    for (what, d) in collider_dungeons() {
        let g = glb(&d);
        let m = mesh::build(&d, &MeshOptions::default()).unwrap();
        let (rh, lh) = (d.proportions().room_height, d.proportions().layer_height);
        let mut world: Vec<Tri> = Vec::new();
        for level in &m.levels {
            let l = level.level;
            let name = format!("Level_{l:02}_Collider-colonly");
            let Some(node) = child(&g, l, &name) else {
                assert!(level.primitives.is_empty(), "{what}: {name} missing");
                continue;
            };
            assert_eq!(extras(&node), serde_json::json!({ "role": "collider", "level": l }));
            let prim = node.mesh().unwrap().primitives().next().unwrap();
            assert_eq!(prim.attributes().count(), 1, "{what}: POSITION only");
            assert!(prim.material().index().is_none());
            let tris = node_triangles(&g, &node);
            let render: Vec<Tri> = support::level(&m, usize::from(l), |_| true);
            // Coplanar floor and ceiling polygons are merged (the render mesh fans a cell with
            // door points from its centre: that vertex goes) and stairs become ramps: fewer
            // triangles wherever a level has either, never more.
            let doors = d.dims().edges().any(|e| {
                let sides = d.dims().edge_sides(e).unwrap();
                d.carved_seam(Pos { level: l, slot: sides[0].0 }, sides[0].1)
                    .is_some_and(|s| s.carve == Carve::Door)
            });
            let stairs: Vec<Spiral> = d
                .stairs()
                .iter()
                .filter(|s| s.foot.level == l)
                .map(|s| Spiral::new(d.layout(), s.foot.slot, d.stair_landing(s.foot).unwrap(), lh).unwrap())
                .collect();
            let fewer = if !stairs.is_empty() || doors {
                tris.len() < render.len()
            } else {
                tris.len() <= render.len()
            };
            assert!(fewer, "{what} level {l}: {} triangles, render {}", tris.len(), render.len());
            // The floor is the render floor less the stairs' footprints; the ceiling is the
            // render ceiling.
            let footprints: f64 = stairs.iter().map(|s| signed_area(&footprint(s)).abs()).sum();
            let (got, want) = (
                floor_area(&tris),
                floor_area(&support::level(&m, usize::from(l), |r| r == MaterialRole::Floor)) - footprints,
            );
            assert!((got - want).abs() < 1e-3, "{what} level {l}: collider floor {got} m2, want {want} m2");
            let ceiling = |t: &[Tri]| -> f64 {
                t.iter()
                    .filter(|t| t.iter().all(|p| (p[1] - rh).abs() < 1e-4))
                    .map(plan_area)
                    .filter(|a| *a < 0.0)
                    .sum()
            };
            let (got, want) = (
                ceiling(&tris),
                ceiling(&support::level(&m, usize::from(l), |r| r == MaterialRole::Ceiling)),
            );
            assert!(
                (got - want).abs() < 1e-3,
                "{what} level {l}: collider ceiling {got} m2, render {want} m2"
            );
            // Every wall triangle of the carved volume is kept as it is, but those on the
            // walls the landings stand against, which the landings replace.
            let key = |t: &Tri| {
                let mut k = t.map(|p| p.map(|x| (x * 1e4).round() as i64));
                k.sort();
                k
            };
            let behind_landing = |t: &Tri| {
                stairs.iter().any(|s| {
                    let [a, b] = s.landing;
                    t.iter().all(|p| {
                        let q = DVec2::new(p[0], p[2]);
                        (b - a).perp_dot(q - a).abs() < 1e-3 && (q - a).dot(q - b) <= 1e-3
                    })
                })
            };
            let walls: Vec<_> = support::level(&m, usize::from(l), |r| {
                r != MaterialRole::Stair && r != MaterialRole::Floor && r != MaterialRole::Ceiling
            });
            let mut mine: Vec<_> = tris.iter().map(key).collect();
            mine.sort();
            for w in walls.iter().filter(|w| !behind_landing(w)) {
                assert!(mine.binary_search(&key(w)).is_ok(), "{what} level {l}: wall triangle {w:?} kept");
            }
            // One level's collider is open only where a stair's shaft meets the next level:
            // round the tops of its own stairs' shafts and round the holes of the stairs
            // below, each closed by the other level.
            let below: Vec<DVec2> = d
                .stairs()
                .iter()
                .filter(|s| s.foot.level + 1 == l)
                .map(|s| d.layout().center(s.foot.slot))
                .collect();
            let tops: Vec<DVec2> = stairs.iter().map(|s| s.centre).collect();
            let near = |q: DVec2, at: &[DVec2]| at.iter().any(|&c| q.distance(c) < d.proportions().base);
            // (The edges of four triangles beside a landing are counted over all levels below.)
            for (edge, users) in odd_edges(&tris).into_iter().filter(|&([a, b], u)| u != 4 || a[1] == b[1]) {
                let at_shaft = edge.iter().all(|p| {
                    let (q, y) = (DVec2::new(p[0] as f64, p[2] as f64) / 1e4, p[1] as f64 / 1e4);
                    ((y - lh).abs() < 1e-3 && near(q, &tops)) || (y.abs() < 1e-3 && near(q, &below))
                });
                assert!(users == 1 && at_shaft, "{what} level {l}: edge {edge:?} used by {users} triangles");
            }
            world.extend(tris.iter().map(|t| t.map(|p| [p[0], p[1] + level.floor_y, p[2]])));
        }
        // Together, welded in world space, one closed surface; but where a landing stands
        // against a wall open on its own level, both ends of that wall are an edge of four
        // triangles (the passage beyond and the walkway beside the landing touch there).
        let open_behind = d
            .stairs()
            .iter()
            .filter(|s| {
                let landing = d.stair_landing(s.foot).unwrap();
                d.carved_seam(s.foot, landing).is_some_and(|e| e.carve == Carve::Full)
            })
            .count();
        if open_behind == 0 {
            assert_watertight(&world, &format!("{what}: colliders"));
        } else {
            // (Each of those vertical edges is split where lower seams beside it stop.)
            let odd = odd_edges(&world);
            let mut lines: Vec<[i64; 2]> = odd.iter().map(|([a, _], _)| [a[0], a[2]]).collect();
            lines.sort();
            lines.dedup();
            assert_eq!(lines.len(), 2 * open_behind, "{what}: {odd:?}");
            for ([a, b], users) in odd {
                assert!(users == 4 && a[0] == b[0] && a[2] == b[2], "{what}: {a:?}-{b:?} used by {users}");
            }
        }
    }
}

/// Walks every extras object and array of `v`, failing on `null`.
fn assert_no_null(v: &serde_json::Value, at: &str) {
    match v {
        serde_json::Value::Null => panic!("{at}: null in extras"),
        serde_json::Value::Array(a) => {
            a.iter().enumerate().for_each(|(i, x)| assert_no_null(x, &format!("{at}[{i}]")))
        }
        serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| assert_no_null(x, &format!("{at}.{k}"))),
        _ => {}
    }
}

fn cell_json(p: Pos) -> serde_json::Value {
    serde_json::json!({ "level": p.level, "row": p.slot.row, "col": p.slot.col })
}

#[test]
fn extras_have_a_role_on_every_node_no_null_and_fixed_types() {
    let seedless = support::samples().into_iter().map(|(_, d)| d).find(|d| d.seed().is_none());
    let seedless = seedless.expect("a sample without a seed");
    let seeded = dungeons().pop().unwrap().1;
    for d in [&seedless, &seeded] {
        let route = d.entrance().zip(d.exit()).map(|(a, b)| vec![a, b]);
        let options = ExportOptions { colliders: true, navmesh: true, route, ..Default::default() };
        let g = gltf::Gltf::from_slice(&export::Export::new(d, &options).to_glb().unwrap()).unwrap();
        for node in g.nodes() {
            let e = extras(&node);
            assert_no_null(&e, node.name().unwrap());
            assert!(e["role"].is_string(), "{:?}: no role", node.name());
            if let Some(level) = e.get("level") {
                assert!(level.is_u64(), "{:?}: level {level}", node.name());
            }
        }
        let root = g.nodes().find(|n| n.name() == Some("Dungeon")).unwrap();
        let root_extras = extras(&root);
        match d.seed() {
            Some(seed) => assert_eq!(root_extras["seed"], seed.to_string()),
            None => assert!(root_extras.get("seed").is_none()),
        }
        let scene = g.default_scene().unwrap();
        let s: serde_json::Value = serde_json::from_str(scene.extras().as_ref().unwrap().get()).unwrap();
        assert_no_null(&s, "scene");
        let names: Vec<String> = (0..d.levels()).map(|l| format!("Level_{l:02}")).collect();
        assert_eq!(s["levels"], serde_json::json!(names));
        for (key, pos) in [("entrance", d.entrance()), ("exit", d.exit())] {
            match pos {
                Some(p) => assert_eq!(s[key], cell_json(p)),
                None => assert!(s.get(key).is_none()),
            }
        }
    }
}

/// The Godot 3 script of [`godot3_makes_navigation_from_the_navmesh_and_paths_across_levels`]:
/// instances `d.glb` under a `Navigation`, prints each `NavigationMeshInstance` and its
/// polygon count, then for each line `x y z x y z` of `points.txt` the path Godot finds
/// between the two points (its length, last point and highest y).
const GODOT_CHECK: &str = r#"extends SceneTree

func walk(n, out):
	out.append(n)
	for c in n.get_children():
		walk(c, out)

func _initialize():
	var nav = Navigation.new()
	get_root().add_child(nav)
	nav.add_child(load("res://d.glb").instance())
	var nodes = []
	walk(nav, nodes)
	for n in nodes:
		if n is NavigationMeshInstance:
			print("NAV ", n.name, " ", n.navmesh.get_polygon_count())
	var f = File.new()
	f.open("res://points.txt", File.READ)
	while not f.eof_reached():
		var v = f.get_line().strip_edges().split_floats(" ")
		if v.size() < 6:
			continue
		var path = nav.get_simple_path(Vector3(v[0], v[1], v[2]), Vector3(v[3], v[4], v[5]))
		var top = -1e9
		for p in path:
			top = max(top, p.y)
		var last = Vector3()
		if path.size() > 0:
			last = path[path.size() - 1]
		print("PATH ", path.size(), " ", last.x, " ", last.y, " ", last.z, " ", top)
	f.close()
	quit()
"#;

/// Runs `godot3-server` with `args` in `dir`, or says why it cannot.
fn godot(dir: &std::path::Path, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new("godot3-server")
        .arg("--path")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("godot3-server does not run ({e})"))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

/// Imports the project in `dir` (the editor's first scan). Godot 3.2.3's headless editor
/// writes the import within seconds but then hangs on its way out with `--quit`, so the
/// editor is stopped once every `.glb` has its import's `.md5` stamp (at most 120 s): a
/// project of several files stopped at the first stamp would leave the others unimported,
/// and loading one of those fails.
fn godot_import(dir: &std::path::Path) {
    let mut editor = std::process::Command::new("godot3-server")
        .arg("--path")
        .arg(dir)
        .args(["-e", "--quit"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let count = |folder: std::path::PathBuf, wanted: &dyn Fn(&str) -> bool| {
        std::fs::read_dir(folder).map_or(0, |files| {
            files.filter(|f| f.as_ref().is_ok_and(|f| wanted(&f.file_name().to_string_lossy()))).count()
        })
    };
    let scenes = count(dir.to_path_buf(), &|n| n.ends_with(".glb"));
    let stamped =
        || count(dir.join(".import"), &|n| n.contains(".glb-") && n.ends_with(".md5")) >= scenes.max(1);
    for _ in 0..600 {
        if stamped() || editor.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    if editor.try_wait().unwrap().is_none() {
        editor.kill().unwrap();
        editor.wait().unwrap();
    }
    assert!(stamped(), "godot imported nothing in {}", dir.display());
}

#[test]
fn godot3_makes_navigation_from_the_navmesh_and_paths_across_levels() {
    const TEST: &str = "godot3_makes_navigation_from_the_navmesh_and_paths_across_levels";
    let dir = support::Scratch::new(TEST);
    if let Err(why) = godot(dir.path(), &["--version"]) {
        support::skip(TEST, &why, "GODOT_REQUIRED");
        return;
    }
    let d = generate(&GenerateOptions { seed: 7, ..GenerateOptions::default() }, &mut |_| {}).unwrap();
    std::fs::write(dir.join("project.godot"), "config_version=4\n").unwrap();
    std::fs::write(dir.join("check.gd"), GODOT_CHECK).unwrap();
    export::Export::new(&d, &ExportOptions { navmesh: true, ..Default::default() })
        .to_file(&dir.join("d.glb"))
        .unwrap();
    // Floor cells' centres (not a stair's octagon, whose centre is its column, nor a hole),
    // by path region: a pair in the biggest region on the lowest and highest level it reaches.
    let regions = octile::path::dungeon_regions(&d);
    let mut cells: Vec<(usize, u16, glam::DVec3)> = Vec::new();
    for i in 0..d.dims().slot_count() * usize::from(d.levels()) {
        let (Some(r), Some(pos)) = (regions.region(i), octile::path::node_pos(&d, i)) else { continue };
        if d.stair_below(pos).is_none() && d.stairs().iter().all(|s| s.foot != pos) {
            cells.push((r.index(), pos.level, d.layout().world_center(pos)));
        }
    }
    let biggest = (0..regions.count()).max_by_key(|&r| cells.iter().filter(|c| c.0 == r).count()).unwrap();
    let mine: Vec<_> = cells.iter().filter(|c| c.0 == biggest).collect();
    let low = mine.iter().min_by_key(|c| c.1).unwrap();
    let high = mine.iter().max_by_key(|c| c.1).unwrap();
    assert!(high.1 >= low.1 + 2, "seed 7's main region spans three levels");
    let (a, b) = (low.2, high.2);
    std::fs::write(dir.join("points.txt"), format!("{} {} {} {} {} {}\n", a.x, a.y, a.z, b.x, b.y, b.z))
        .unwrap();
    godot_import(dir.path());
    let out = godot(dir.path(), &["-s", "check.gd"]).unwrap();
    let navs: Vec<&str> = out.lines().filter(|l| l.starts_with("NAV ")).collect();
    assert_eq!(navs.len(), usize::from(d.levels()), "one NavigationMeshInstance per level:\n{out}");
    let g = gltf::Gltf::from_slice(&std::fs::read(dir.join("d.glb")).unwrap()).unwrap();
    for (level, nav) in navs.iter().enumerate() {
        let node = child(&g, u16::try_from(level).unwrap(), &format!("Level_{level:02}-navmesh")).unwrap();
        let polygons: usize = nav.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(polygons, node_triangles(&g, &node).len(), "{nav}: a polygon per triangle");
    }
    let paths: Vec<Vec<f64>> = out
        .lines()
        .filter_map(|l| l.strip_prefix("PATH "))
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(paths.len(), 1, "{out}");
    let [count, x, y, z, top] = paths[0][..] else { panic!("{out}") };
    assert!(count >= 2.0, "Godot finds a path from level {} to level {}:\n{out}", low.1, high.1);
    assert!(glam::DVec3::new(x, y, z).distance(high.2) < 0.1, "the path ends at the goal:\n{out}");
    assert!(top >= high.2.y - 1e-3, "and climbs the stairs:\n{out}");
}

/// Godot 3 builds its navigation from the `-navmesh` nodes of a dungeon whose levels meet
/// only by a ramp ([`support::ramp_hall`]), and paths from a balcony (the ramp's top, over
/// an atrium behind a railing) down the ramp to the floor below the balcony, and back up.
#[test]
fn godot3_paths_from_a_balcony_down_a_ramp_to_the_floor_below() {
    const TEST: &str = "godot3_paths_from_a_balcony_down_a_ramp_to_the_floor_below";
    let dir = support::Scratch::new(TEST);
    if let Err(why) = godot(dir.path(), &["--version"]) {
        support::skip(TEST, &why, "GODOT_REQUIRED");
        return;
    }
    let (d, ramp) = support::ramp_hall();
    let balcony = Pos::new(1, 0, 6);
    assert_eq!(mesh::railings(&d).iter().filter(|r| r.floor == balcony).count(), 1, "a balcony");
    let below = Pos::new(0, 2, 6);
    assert!(d.open_above(below), "under the balcony's atrium");
    std::fs::write(dir.join("project.godot"), "config_version=4\n").unwrap();
    std::fs::write(dir.join("check.gd"), GODOT_CHECK).unwrap();
    export::Export::new(&d, &ExportOptions { navmesh: true, ..Default::default() })
        .to_file(&dir.join("d.glb"))
        .unwrap();
    let (a, b) = (d.layout().world_center(balcony), d.layout().world_center(below));
    std::fs::write(
        dir.join("points.txt"),
        format!(
            "{} {} {} {} {} {}\n{} {} {} {} {} {}\n",
            a.x, a.y, a.z, b.x, b.y, b.z, b.x, b.y, b.z, a.x, a.y, a.z
        ),
    )
    .unwrap();
    godot_import(dir.path());
    let out = godot(dir.path(), &["-s", "check.gd"]).unwrap();
    let paths: Vec<Vec<f64>> = out
        .lines()
        .filter_map(|l| l.strip_prefix("PATH "))
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(paths.len(), 2, "{out}");
    for (path, goal) in paths.iter().zip([b, a]) {
        let [count, x, y, z, _] = path[..] else { panic!("{out}") };
        assert!(count >= 3.0, "Godot finds a path between the levels:\n{out}");
        assert!(glam::DVec3::new(x, y, z).distance(goal) < 0.1, "it ends at {goal}:\n{out}");
    }
    // No stair and no drop: the levels meet nowhere but at the ramp's top.
    assert!(d.stairs().is_empty() && (0..d.levels()).all(|l| d.drops(l).is_empty()));
    assert_eq!(d.ramps(), &[ramp]);
}

/// The Godot 3 script of [`godot3_imports_railings_as_nodes_of_their_own`]: instances
/// `d.glb` and prints each node named `Railing_...` with its class, its parent's name and
/// its mesh's surface count.
const GODOT_RAILINGS: &str = r#"extends SceneTree

func walk(n):
	if n.name.begins_with("Railing_"):
		var surfaces = -1
		if n is MeshInstance and n.mesh != null:
			surfaces = n.mesh.get_surface_count()
		print("RAIL ", n.name, " ", n.get_class(), " ", n.get_parent().name, " ", surfaces)
	for c in n.get_children():
		walk(c)

func _initialize():
	var scene = load("res://d.glb").instance()
	get_root().add_child(scene)
	walk(scene)
	quit()
"#;

/// Godot 3 imports a dungeon with atria with each railing a `MeshInstance` of its own under
/// its level's node.
#[test]
fn godot3_imports_railings_as_nodes_of_their_own() {
    const TEST: &str = "godot3_imports_railings_as_nodes_of_their_own";
    let dir = support::Scratch::new(TEST);
    if let Err(why) = godot(dir.path(), &["--version"]) {
        support::skip(TEST, &why, "GODOT_REQUIRED");
        return;
    }
    let options = GenerateOptions { seed: 3, levels: 3, cols: 16, rows: 16, ..GenerateOptions::default() };
    let mut d = generate(&options, &mut |_| {}).unwrap();
    assert_eq!(octile::generate::open_atria(&mut d).unwrap().len(), 2);
    let railings = mesh::railings(&d);
    assert!(!railings.is_empty());
    std::fs::write(dir.join("project.godot"), "config_version=4\n").unwrap();
    std::fs::write(dir.join("rails.gd"), GODOT_RAILINGS).unwrap();
    export::Export::new(&d, &ExportOptions::default()).to_file(&dir.join("d.glb")).unwrap();
    godot_import(dir.path());
    let out = godot(dir.path(), &["-s", "rails.gd"]).unwrap();
    let rails: Vec<Vec<&str>> =
        out.lines().filter_map(|l| l.strip_prefix("RAIL ")).map(|l| l.split(' ').collect()).collect();
    assert_eq!(rails.len(), railings.len(), "every railing is a node:\n{out}");
    for r in &rails {
        assert_eq!(r[1], "MeshInstance", "{r:?}");
        let level: u16 = r[0]["Railing_".len()..]["".len()..2].parse().unwrap();
        assert_eq!(r[2], format!("Level_{level:02}"), "under its level: {r:?}");
        assert_eq!(r[3], "1", "one surface: {r:?}");
    }
}

/// The Godot 3 script of [`godot3_reads_each_light_preset`]: for each `NAME.glb` listed in
/// `files.txt`, the first `OmniLight` with its energy, attenuation and range.
const GODOT_LIGHTS: &str = r#"extends SceneTree

func first_light(n):
	if n is OmniLight:
		return n
	for c in n.get_children():
		var l = first_light(c)
		if l != null:
			return l
	return null

func _initialize():
	var f = File.new()
	f.open("res://files.txt", File.READ)
	while not f.eof_reached():
		var name = f.get_line().strip_edges()
		if name == "":
			continue
		var scene = load("res://" + name + ".glb")
		if scene == null:
			print("NOT IMPORTED ", name)
			continue
		var l = first_light(scene.instance())
		if l == null:
			print("NO LIGHT ", name)
			continue
		print("LIGHT ", name, " ", l.light_energy, " ", l.omni_attenuation, " ", l.omni_range)
	f.close()
	quit()
"#;

/// Issue 25: Godot 3.2.3 keeps a point light's energy at 1 and turns the intensity into the
/// attenuation (`range / intensity`, an intensity above 10 first divided by 100), so the
/// `godot` preset (made for Godot 4's energy) is dim there and `blender` flat. Measured:
/// `godot3` gives Godot's own defaults (energy 1, attenuation 1), the others what
/// `docs/engines.md` says.
#[test]
fn godot3_reads_each_light_preset() {
    use octile::rooms::LightPreset;
    const TEST: &str = "godot3_reads_each_light_preset";
    let dir = support::Scratch::new(TEST);
    if let Err(why) = godot(dir.path(), &["--version"]) {
        support::skip(TEST, &why, "GODOT_REQUIRED");
        return;
    }
    let options = GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    std::fs::write(dir.join("project.godot"), "config_version=4\n").unwrap();
    std::fs::write(dir.join("lights.gd"), GODOT_LIGHTS).unwrap();
    let presets = [LightPreset::Blender, LightPreset::Godot, LightPreset::Godot3];
    for preset in presets {
        let options = ExportOptions { lights: Some(preset), ..Default::default() };
        export::Export::new(&d, &options).to_file(&dir.join(&format!("{}.glb", preset.name()))).unwrap();
    }
    let names: Vec<&str> = presets.iter().map(|p| p.name()).collect();
    std::fs::write(dir.join("files.txt"), names.join("\n") + "\n").unwrap();
    godot_import(dir.path());
    let out = godot(dir.path(), &["-s", "lights.gd"]).unwrap();
    let lights: Vec<Vec<&str>> =
        out.lines().filter_map(|l| l.strip_prefix("LIGHT ")).map(|l| l.split(' ').collect()).collect();
    assert_eq!(lights.len(), presets.len(), "a light per file:\n{out}");
    // (energy, attenuation, range) as Godot 3.2.3 reads them.
    let want = [("blender", 1.0, 0.175), ("godot", 1.0, 7.0), ("godot3", 1.0, 1.0)];
    for (light, (name, energy, attenuation)) in lights.iter().zip(want) {
        let [file, e, a, r] = light[..] else { panic!("{out}") };
        let [e, a, r]: [f64; 3] = [e, a, r].map(|x| x.parse().unwrap());
        assert_eq!(file, name, "{out}");
        assert!((e - energy).abs() < 1e-6, "{name}: energy {e}:\n{out}");
        assert!((a - attenuation).abs() < 1e-3, "{name}: attenuation {a}:\n{out}");
        assert!((r - octile::rooms::TORCH_RANGE).abs() < 1e-6, "{name}: range {r}:\n{out}");
    }
}

/// Issue 25: Assimp 5.2.5's `assimp export` (to any format) aborts (exit 134, an assertion
/// in `SceneCombiner.cpp`) on a node extra that is an array or an object, and on any light.
/// The workaround in `docs/engines.md`: a `.gltf` without `--lights`, its node extras cut
/// to their scalar values (the documented `jq` filter, done here with serde_json), exports
/// to `.obj` with every door, marker and level mesh.
#[test]
fn assimp_exports_once_node_extras_are_scalars() {
    const TEST: &str = "assimp_exports_once_node_extras_are_scalars";
    let dir = support::Scratch::new(TEST);
    let version = std::process::Command::new("assimp").arg("version").output();
    if let Err(e) = version {
        support::skip(TEST, &format!("assimp does not run ({e})"), "ASSIMP_REQUIRED");
        return;
    }
    let options = GenerateOptions { seed: 7, levels: 2, cols: 6, rows: 6, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let options = ExportOptions { markers: true, colliders: true, navmesh: true, ..Default::default() };
    export::Export::new(&d, &options).to_file(&dir.join("d.gltf")).unwrap();
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("d.gltf")).unwrap()).unwrap();
    let mut cut = 0;
    for node in doc["nodes"].as_array_mut().unwrap() {
        let extras = node["extras"].as_object_mut().unwrap();
        let before = extras.len();
        extras.retain(|_, v| !v.is_array() && !v.is_object());
        cut += before - extras.len();
    }
    assert!(cut > 0, "the file has array or object extras");
    std::fs::write(dir.join("s.gltf"), serde_json::to_vec(&doc).unwrap()).unwrap();
    let run = |from: &str, to: &str| {
        std::process::Command::new("assimp")
            .current_dir(dir.path())
            .args(["export", from, to])
            .output()
            .unwrap()
            .status
    };
    let status = run("s.gltf", "s.obj");
    assert!(status.success(), "assimp export of the scalar-extras file: {status}");
    // The .obj has a group per mesh instance, named after the mesh (empties are left out).
    let obj = std::fs::read_to_string(dir.join("s.obj")).unwrap();
    let groups: Vec<&str> = obj.lines().filter_map(|l| l.strip_prefix("g ")).collect();
    for level in 0..d.levels() {
        for name in ["_Mesh-0", "_Collider-colonly_Mesh", "-navmesh_Mesh"] {
            let name = format!("Level_{level:02}{name}");
            assert!(groups.contains(&name.as_str()), "{name} in the .obj: {groups:?}");
        }
    }
    let leaves = groups.iter().filter(|g| g.starts_with("DoorLeaf_")).count();
    assert!(leaves > 0, "doors to check: {groups:?}");
    assert_eq!(leaves, octile::mesh::door_leaves(&d).len(), "a leaf per door: {groups:?}");
    // What the docs say it is: the file as written aborts 5.2.5 (a later Assimp may not).
    let plain = run("d.gltf", "d.obj");
    let version = String::from_utf8_lossy(
        &std::process::Command::new("assimp").arg("version").output().unwrap().stdout,
    )
    .into_owned();
    if version.contains("5.2.5") || version.contains("Version 5.2") {
        assert!(!plain.success(), "Assimp 5.2 exports array extras now? {version}");
    }
}

/// three.js's `Euler.setFromRotationMatrix` for the orders `XYZ` (its default) and `YXZ`,
/// on the rotation of the unit quaternion `[x, y, z, w]` (its `Matrix4.compose` terms),
/// written here as three.js has it.
fn three_euler(q: [f64; 4], order: &str) -> [f64; 3] {
    let [x, y, z, w] = q;
    let m11 = 1.0 - 2.0 * (y * y + z * z);
    let (m12, m13) = (2.0 * (x * y - w * z), 2.0 * (x * z + w * y));
    let (m21, m22, m23) = (2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x));
    let (m31, m32, m33) = (2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y));
    match order {
        "XYZ" if m13.abs() < 0.9999999 => [(-m23).atan2(m33), m13.clamp(-1.0, 1.0).asin(), (-m12).atan2(m11)],
        "XYZ" => [m32.atan2(m22), m13.clamp(-1.0, 1.0).asin(), 0.0],
        _ if m23.abs() < 0.9999999 => [(-m23.clamp(-1.0, 1.0)).asin(), m13.atan2(m33), m21.atan2(m22)],
        _ => [(-m23.clamp(-1.0, 1.0)).asin(), (-m31).atan2(m11), 0.0],
    }
}

/// Issue 25: three.js reads a door turned 180 degrees as Euler (-pi, 0, -pi) (its default
/// order XYZ keeps y within +-90 degrees), so `rotation.y +=` swings the leaf out of the
/// passage. No quaternion sign changes that (both signs are one matrix); what the file
/// promises, and `docs/engines.md` builds on: every door's rotation is a plain yaw
/// `(0, sin t/2, 0, cos t/2)` with `w >= 0` (t in (-pi, pi]) that turns +X along the leaf;
/// in three.js's `YXZ` order (Godot's own) it reads back as `(0, t, 0)`; in `XYZ` a yaw
/// beyond 90 degrees reads as `(+-pi, +-pi - t, +-pi)`.
#[test]
fn door_rotations_are_plain_yaws_that_read_back_in_yxz_order() {
    use std::f64::consts::{FRAC_PI_2, PI};
    let options =
        GenerateOptions { seed: 7, levels: 2, cols: 8, rows: 8, doors: 1.0, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let g = gltf::Gltf::from_slice(&export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap())
        .unwrap();
    let leaves = mesh::door_leaves(&d);
    let (mut flipped, mut yaws) = (0, Vec::new());
    for leaf in &leaves {
        let name = format!("Door_{:02}_", leaf.level);
        let node = g
            .nodes()
            .filter(|n| n.name().is_some_and(|s| s.starts_with(&name)))
            .find(|n| {
                let t = glam::Vec3::from(n.transform().decomposed().0).as_dvec3();
                t.distance(leaf.hinge - glam::DVec3::Y * d.proportions().floor_y(leaf.level)) < 1e-4
            })
            .expect("a door node on each hinge");
        let q = node.transform().decomposed().1.map(f64::from);
        let [x, y, z, w] = q;
        assert_eq!((x, z), (0.0, 0.0), "{:?}: a plain yaw {q:?}", node.name());
        assert!(w >= 0.0 && ((y * y + w * w) - 1.0).abs() < 1e-6, "{:?}: {q:?}", node.name());
        let t = 2.0 * y.atan2(w);
        let along = glam::DQuat::from_array(q) * glam::DVec3::X;
        assert!(
            along.distance(glam::DVec3::new(leaf.along.x, 0.0, leaf.along.y)) < 1e-6,
            "{:?}",
            node.name()
        );
        let [ex, ey, ez] = three_euler(q, "YXZ");
        assert!(
            ex.abs() < 1e-6 && ez.abs() < 1e-6 && (ey - t).abs() < 1e-6,
            "{:?}: YXZ {ex} {ey} {ez}",
            node.name()
        );
        if t.abs() > FRAC_PI_2 + 1e-3 {
            let [ex, ey, ez] = three_euler(q, "XYZ");
            assert!(
                (ex.abs() - PI).abs() < 1e-6 && (ez.abs() - PI).abs() < 1e-6,
                "{:?}: XYZ {ex} {ez}",
                node.name()
            );
            assert!((ey.abs() - (PI - t.abs())).abs() < 1e-6, "{:?}: XYZ y {ey} for yaw {t}", node.name());
            flipped += 1;
        }
        yaws.push((t * 1e3).round() as i64);
    }
    yaws.sort_unstable();
    yaws.dedup();
    assert!(flipped > 0 && yaws.len() >= 4, "doors of several turns: {yaws:?}, {flipped} past 90 degrees");
}
