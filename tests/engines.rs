//! What game engines read from the export, read back with the `gltf` crate: colliders
//! (`-colonly`, cheaper than the render mesh, closed where it is), navigation meshes
//! (`-navmesh`: the walkable floor, connected as the path graph is) and extras (a role on
//! every node, no `null`, the scene's copy of entrance, exit and levels).

mod support;

use glam::DVec2;
use octile::dungeon::{Carve, Dungeon};
use octile::export::{self, ExportOptions};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::signed_area;
use octile::grid::{Pos, Slot};
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
    gltf::Gltf::from_slice(&export::to_glb(d, &options).unwrap()).unwrap()
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

#[test]
fn colliders_are_colonly_ramped_closed_and_cover_the_floor() {
    for (what, d) in dungeons() {
        let g = glb(&d);
        let m = mesh::build(&d, &MeshOptions::default()).unwrap();
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
            let stairs = d.stairs().iter().any(|s| s.foot.level == l);
            let fewer = if stairs || doors { tris.len() < render.len() } else { tris.len() <= render.len() };
            assert!(fewer, "{what} level {l}: {} triangles, render {}", tris.len(), render.len());
            let rh = d.proportions().room_height;
            let (got, want) = (
                floor_area(&tris),
                floor_area(&support::level(&m, usize::from(l), |r| r == MaterialRole::Floor)),
            );
            assert!(
                (got - want).abs() < 1e-3,
                "{what} level {l}: collider floor {got} m2, render floor {want} m2"
            );
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
            // Every wall triangle of the carved volume is kept as it is; what is neither a
            // wall, a floor (up at 0) nor a ceiling (down at the room height) is a ramp.
            let key = |t: &Tri| {
                let mut k = t.map(|p| p.map(|x| (x * 1e4).round() as i64));
                k.sort();
                k
            };
            let mut walls: Vec<_> = support::level(&m, usize::from(l), |r| {
                r != MaterialRole::Stair && r != MaterialRole::Floor && r != MaterialRole::Ceiling
            })
            .iter()
            .map(key)
            .collect();
            walls.sort();
            let flat = |t: &Tri, y: f64, up: bool| {
                t.iter().all(|p| (p[1] - y).abs() < 1e-4) && (plan_area(t) > 0.0) == up
            };
            let (kept, ramps): (Vec<Tri>, Vec<Tri>) = tris.iter().partition(|t| {
                walls.binary_search(&key(t)).is_ok() || flat(t, 0.0, true) || flat(t, rh, false)
            });
            let walls_kept = kept.iter().filter(|t| walls.binary_search(&key(t)).is_ok()).count();
            assert_eq!(walls_kept, walls.len(), "{what} level {l}: every wall triangle is kept");
            if stairs {
                assert_watertight(&ramps, &format!("{what}: ramps on level {l}"));
            } else {
                assert!(ramps.is_empty(), "{what} level {l}: no stair, no ramp");
            }
            world.extend(kept.iter().map(|t| t.map(|p| [p[0], p[1] + level.floor_y, p[2]])));
        }
        // The carved volume of every level together is closed (tests/mesh.rs); so is the collider's.
        assert_watertight(&world, &format!("{what}: collider"));
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
        let g = gltf::Gltf::from_slice(&export::to_glb(d, &options).unwrap()).unwrap();
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

/// Whether `slot` on `level` has floor: carved, and not the hole above a stair.
fn has_floor(d: &Dungeon, level: u16, slot: Slot) -> bool {
    let carved = d.tile_def(Pos { level, slot }).is_ok_and(|t| t.carved);
    let hole = level > 0 && d.tile_def(Pos { level: level - 1, slot }).is_ok_and(|t| t.stair);
    carved && !hole
}

/// The walkable plan area of `level` computed from the layout's polygons: cells with floor,
/// carved seams (full width) and door passages (door width).
fn walkable_area(d: &Dungeon, level: u16) -> f64 {
    let layout = d.layout();
    let cells: f64 = d
        .dims()
        .cells()
        .filter(|&s| has_floor(d, level, s))
        .map(|s| signed_area(&layout.cell_polygon(s).unwrap()).abs())
        .sum();
    let seams: f64 = d
        .dims()
        .edges()
        .filter_map(|e| {
            let sides = d.dims().edge_sides(e).unwrap();
            let def = d.carved_seam(Pos { level, slot: sides[0].0 }, sides[0].1)?;
            let rect = match def.carve {
                Carve::Door => layout.door(sides[0], sides[1]),
                _ => layout.edge_seam(sides),
            };
            Some(signed_area(&rect.unwrap()).abs())
        })
        .sum();
    cells + seams
}

/// Connected components of triangles that share an edge (positions keyed to 0.1 mm).
fn components(tris: &[Tri]) -> Vec<usize> {
    let key = |p: [f64; 3]| p.map(|x| (x * 1e4).round() as i64);
    let mut edges: Vec<([i64; 3], [i64; 3], usize)> = Vec::new();
    for (i, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (key(t[k]), key(t[(k + 1) % 3]));
            edges.push((a.min(b), a.max(b), i));
        }
    }
    edges.sort();
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    for w in edges.windows(2) {
        if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
            union(&mut parent, w[0].2, w[1].2);
        }
    }
    (0..tris.len()).map(|i| find(&mut parent, i)).collect()
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    parent[ra.max(rb)] = ra.min(rb);
}

/// The triangle whose plan holds `p` (edges included).
fn holding(tris: &[Tri], p: DVec2) -> Option<usize> {
    tris.iter().position(|t| {
        let [a, b, c] = t.map(|q| DVec2::new(q[0], q[2]));
        let s = [(b - a).perp_dot(p - a), (c - b).perp_dot(p - b), (a - c).perp_dot(p - c)];
        s.iter().all(|&x| x >= -1e-6) || s.iter().all(|&x| x <= 1e-6)
    })
}

#[test]
fn navmesh_is_the_walkable_floor_convex_and_connected_as_the_path_graph() {
    for (what, d) in dungeons() {
        let g = glb(&d);
        for level in 0..d.levels() {
            let want = walkable_area(&d, level);
            let name = format!("Level_{level:02}-navmesh");
            let Some(node) = child(&g, level, &name) else {
                assert!(want == 0.0, "{what}: {name} missing, {want} m2 walkable");
                continue;
            };
            assert_eq!(extras(&node), serde_json::json!({ "role": "navmesh", "level": level }));
            let tris = node_triangles(&g, &node);
            assert!(tris.iter().all(|t| t.iter().all(|p| p[1] == 0.0)), "{what}: flat at the floor");
            // Triangles are convex polygons; each must be a real one, facing up.
            assert!(
                tris.iter().all(|t| plan_area(t) > 1e-6),
                "{what} level {level}: a degenerate or downward triangle"
            );
            let got: f64 = tris.iter().map(plan_area).sum();
            assert!((got - want).abs() < 1e-3, "{what} level {level}: navmesh {got} m2, walkable {want} m2");
            // Cells joined in the path graph (a carved seam between two floors) lie in one
            // navmesh component, and cells the graph keeps apart in different ones.
            let comp = components(&tris);
            let floors: Vec<Slot> = d.dims().cells().filter(|&s| has_floor(&d, level, s)).collect();
            let at: Vec<usize> = floors
                .iter()
                .map(|&s| comp[holding(&tris, d.layout().center(s)).expect("a cell centre on the navmesh")])
                .collect();
            let mut parent: Vec<usize> = (0..floors.len()).collect();
            for e in d.dims().edges() {
                let [(a, da), (b, _)] = d.dims().edge_sides(e).unwrap();
                if d.carved_seam(Pos { level, slot: a }, da).is_none() {
                    continue;
                }
                let (Some(i), Some(j)) =
                    (floors.iter().position(|&s| s == a), floors.iter().position(|&s| s == b))
                else {
                    continue;
                };
                union(&mut parent, i, j);
            }
            for i in 0..floors.len() {
                for j in i + 1..floors.len() {
                    let graph = find(&mut parent, i) == find(&mut parent, j);
                    assert_eq!(
                        graph,
                        at[i] == at[j],
                        "{what} level {level}: {:?} and {:?}",
                        floors[i],
                        floors[j]
                    );
                }
            }
        }
    }
}
