//! Ramps (docs/design.md, "Columns across storeys"): a straight sloped floor over a row of
//! octagons joining one level to the next. The carved volume round a ramp stays closed, the
//! ramp is a closed solid of its own within the slope limit, paths, Dijkstra maps, the
//! walker and the navigation mesh all cross it, the file keeps it, and `--ramps` cuts
//! sound ones into generated dungeons.

mod support;

use glam::DVec2;
use octile::dungeon::{DungeonError, Registry};
use octile::export::{self, ExportOptions};
use octile::geometry::MAX_RAMP_SLOPE;
use octile::grid::Pos;
use octile::mesh::{self, MaterialRole, MeshError, MeshOptions};
use octile::path::{AStar, DijkstraMap, MapBounds, PathGraph, PathRules, ramp_climb_cost};
use support::{Tri, assert_watertight, ramp_hall, world};

#[test]
fn the_carved_volume_round_a_ramp_is_closed_and_the_ramp_closed_on_its_own() {
    let (d, ramp) = ramp_hall();
    assert_eq!(d.problems(), vec![]);
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    assert_watertight(&world(&m, |r| r != MaterialRole::Stair), "the carved volume");
    // No stair: the stair role is the ramp's solid alone.
    let solid = world(&m, |r| r == MaterialRole::Stair);
    assert_watertight(&solid, "the ramp's solid");
    let top = solid.iter().flatten().map(|v| v[1]).fold(f64::MIN, f64::max);
    let bottom = solid.iter().flatten().map(|v| v[1]).fold(f64::MAX, f64::min);
    assert!((bottom - 0.0).abs() < 1e-4 && (top - 12.0).abs() < 1e-4, "{bottom}..{top}");
    let plan = d.ramp_plan(&ramp).unwrap();
    assert!(plan.slope() <= MAX_RAMP_SLOPE, "1 : {:.2}", 1.0 / plan.slope());
    assert!(plan.run >= 30.0, "{} m", plan.run);
    // Its top edge is the floor's edge on the level above: the two share both corners.
    let floor_above: Vec<Tri> = support::level(&m, 1, |r| r == MaterialRole::Floor);
    for corner in plan.top {
        let near = |v: &[f64; 3]| DVec2::new(v[0], v[2]).distance(corner) < 1e-4 && v[1].abs() < 1e-4;
        assert!(floor_above.iter().flatten().any(near), "level 1's floor reaches the ramp's top at {corner}");
    }
    // The top carries no railing; the balcony's edge over the atrium does.
    let rails = mesh::railings(&d);
    assert_eq!(rails.len(), 1, "{rails:?}");
    assert_eq!(rails[0].floor, Pos::new(1, 0, 6));
}

#[test]
fn a_broken_ramp_is_refused_by_the_mesher_naming_it() {
    let (mut d, _) = ramp_hall();
    d.set_tile(Pos::new(1, 0, 4), Registry::SOLID).unwrap();
    let err = mesh::build(&d, &MeshOptions::default()).unwrap_err();
    assert!(
        matches!(err, MeshError::Column(DungeonError::RampBroken { level: 0, row: 0, col: 0, .. })),
        "{err}"
    );
    assert!(err.to_string().contains("over it is not void"), "{err}");
}

#[test]
fn paths_and_dijkstra_maps_cross_the_ramp_both_ways_at_its_sloped_length() {
    let (d, _) = ramp_hall();
    let g = PathGraph::new(&d).unwrap();
    let rules = PathRules::default();
    let (balcony, below) = (Pos::new(1, 0, 8), Pos::new(0, 2, 6));
    let climb = u64::from(ramp_climb_cost(d.proportions()));
    assert_eq!(climb, 129, "hypot(32.84, 12) - 32.84 m in thousandths of 16.42 m");
    let mut astar = AStar::new();
    let down = astar.find(&g, balcony, below, &rules).unwrap().expect("down the ramp");
    // Balcony -> top -> the run's two octagons -> foot -> the corridor: 8 long steps.
    assert_eq!(down.cost, 8 * 1000 + climb);
    assert!(down.steps.windows(2).any(|w| w[0] == Pos::new(1, 0, 6) && w[1] == Pos::new(0, 0, 4)));
    let up = astar.find(&g, below, balcony, &rules).unwrap().expect("up the ramp");
    assert_eq!(up.cost, down.cost, "a ramp is walked both ways");
    assert_eq!(g.regions(&rules).count(), 1);
    let map = DijkstraMap::new(&g, &[below], &MapBounds::everywhere(&g), &rules).unwrap();
    assert_eq!(map.value(balcony).unwrap(), i64::try_from(down.cost).unwrap());
    let descent = map.descend(balcony).unwrap().expect("the map leads down the ramp");
    assert_eq!(descent.steps.last(), Some(&below));
}

/// The route ribbon (`octile path`'s `Path` node, the viewer's overlay) lies on the ramp's
/// slope, the lift above the ground the walker stands on, along the whole route up it: not
/// on the level's floor under the slope, nor cutting through its top edge.
#[test]
fn the_route_ribbon_lies_on_the_ramp_from_foot_to_top() {
    use octile::walk::World;
    let (d, _) = ramp_hall();
    let g = PathGraph::new(&d).unwrap();
    let route =
        AStar::new().find(&g, Pos::new(0, 2, 6), Pos::new(1, 0, 8), &PathRules::default()).unwrap().unwrap();
    let ribbon = mesh::route_ribbon(&d, &route.steps);
    let world = World::new(&d);
    let mut on_the_slope = 0;
    // Along the middle of every quad, not only at its corners.
    for quad in ribbon.vertices.chunks(4) {
        let at = |i: usize| glam::DVec3::from(quad[i].position.map(f64::from));
        let (a, b) = ((at(0) + at(1)) / 2.0, (at(2) + at(3)) / 2.0);
        for k in 0..=10 {
            let p = a.lerp(b, f64::from(k) / 10.0);
            let ground = world.ground(DVec2::new(p.x, p.z), p.y).expect("ground under the ribbon");
            let lift = p.y - ground;
            assert!((lift - mesh::RIBBON_LIFT).abs() < 1e-4, "{p}: {lift} m above the ground at {ground}");
            if ground > 0.5 && ground < 11.5 {
                on_the_slope += 1;
            }
        }
    }
    assert!(on_the_slope >= 20, "{on_the_slope} ribbon points on the slope");
    // One quad a step, and one more where the ground bends: the foot's wall, the top edge.
    assert_eq!(ribbon.indices.len() / 6, route.steps.len() - 1 + 2, "{:?}", route.steps);
}

#[test]
fn a_walker_walks_up_the_ramp_onto_the_level_above() {
    use octile::walk::{Walker, World};
    let (d, _) = ramp_hall();
    let world = World::new(&d);
    assert_eq!(world.ramps().len(), 1);
    let target = d.layout().center(Pos::new(1, 0, 8).slot);
    let mut w = Walker::spawn(&world, Pos::new(0, 0, 0));
    let mut highest_on_the_slope = 0.0_f64;
    for _ in 0..400 {
        let wish = (target - w.xz()).normalize_or_zero() * 4.0;
        w.step(&world, wish, false, 0.05);
        if w.feet.y < 11.9 {
            highest_on_the_slope = highest_on_the_slope.max(w.feet.y);
        }
    }
    assert!((w.feet.y - 12.0).abs() < 1e-6, "on level 1: {}", w.feet);
    assert!(w.xz().distance(target) < 1.0, "at the far floor: {}", w.feet);
    assert!(highest_on_the_slope > 6.0, "it climbed the slope: {highest_on_the_slope}");
    // And back down to the foot.
    let foot = d.layout().center(Pos::new(0, 0, 0).slot);
    for _ in 0..400 {
        let wish = (foot - w.xz()).normalize_or_zero() * 4.0;
        w.step(&world, wish, false, 0.05);
    }
    assert!(w.feet.y.abs() < 1e-6 && w.xz().distance(foot) < 1.0, "back at the foot: {}", w.feet);
}

/// The navigation mesh's triangles of every level in world metres.
fn navmesh_world(d: &octile::dungeon::Dungeon) -> Vec<Tri> {
    let bytes =
        export::Export::new(d, &ExportOptions { navmesh: true, ..Default::default() }).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let blob = g.blob.as_deref().unwrap();
    let mut out = Vec::new();
    for level in 0..d.levels() {
        let name = format!("Level_{level:02}-navmesh");
        let node = g.nodes().find(|n| n.name() == Some(name.as_str())).unwrap();
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        let r = prim.reader(|_| Some(blob));
        let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
        let y = d.proportions().floor_y(level);
        out.extend(idx.chunks_exact(3).map(|t| {
            [0, 1, 2].map(|k| {
                let p = pos[t[k] as usize].map(f64::from);
                [p[0], p[1] + y, p[2]]
            })
        }));
    }
    out
}

#[test]
fn the_navmesh_runs_up_the_ramp_from_one_level_into_the_next() {
    let (d, ramp) = ramp_hall();
    let tris = navmesh_world(&d);
    let key = |p: [f64; 3]| p.map(|x| (x * 1e3).round() as i64);
    // Triangles joined across shared edges (welded by position), from the foot's floor.
    let edges = |t: &Tri| {
        let k = t.map(key);
        [0, 1, 2].map(|i| {
            let (a, b) = (k[i], k[(i + 1) % 3]);
            if a < b { (a, b) } else { (b, a) }
        })
    };
    let centre = |p: Pos| {
        let c = d.layout().center(p.slot);
        (c, d.proportions().floor_y(p.level))
    };
    let holding = |p: Pos| {
        let (c, y) = centre(p);
        let under = |t: &Tri| {
            let plan = t.map(|v| DVec2::new(v[0], v[2]));
            (t[0][1] - y).abs() < 1e-3
                && (octile::geometry::in_triangle(c, plan, 1.0)
                    || octile::geometry::in_triangle(c, plan, -1.0))
        };
        tris.iter().position(under).unwrap_or_else(|| panic!("no navmesh triangle under {p}"))
    };
    let (start, goal) = (holding(Pos::new(0, 2, 6)), holding(Pos::new(1, 0, 8)));
    let mut seen = vec![false; tris.len()];
    let mut queue = vec![start];
    seen[start] = true;
    while let Some(i) = queue.pop() {
        for (j, t) in tris.iter().enumerate() {
            if !seen[j] && edges(t).iter().any(|e| edges(&tris[i]).contains(e)) {
                seen[j] = true;
                queue.push(j);
            }
        }
    }
    assert!(seen[goal], "the navmesh joins the floor below the balcony to the level above");
    // Over the ramp it is sloped, never steeper than the ramp, and it replaces the run's floor.
    let plan = d.ramp_plan(&ramp).unwrap();
    let sloped: Vec<&Tri> = tris.iter().filter(|t| t.iter().any(|v| v[1] > 0.1 && v[1] < 11.9)).collect();
    assert!(!sloped.is_empty());
    for t in &sloped {
        let mid = t.iter().fold(DVec2::ZERO, |s, v| s + DVec2::new(v[0], v[2]) / 3.0);
        assert!(plan.covers(mid), "a sloped triangle off the ramp: {t:?}");
    }
    let run_floor = tris.iter().filter(|t| {
        let mid = t.iter().fold(DVec2::ZERO, |s, v| s + DVec2::new(v[0], v[2]) / 3.0);
        plan.covers(mid) && t.iter().all(|v| v[1].abs() < 1e-3)
    });
    assert_eq!(run_floor.count(), 0, "no floor left under the ramp");
}

#[test]
fn ramps_round_trip_in_version_5_files_and_older_versions_refuse_them() {
    let (d, ramp) = ramp_hall();
    let text = octile::format::to_json(&d);
    assert!(text.contains(r#""version": 5"#), "{}", &text[..200]);
    assert!(text.contains(r#"{"level": 0, "row": 0, "col": 0, "dir": "E"}"#), "{text}");
    let back = octile::format::from_json(&text).unwrap();
    assert_eq!(back.ramps(), &[ramp]);
    assert_eq!(octile::format::to_json(&back), text);
    let old = octile::format::from_json(&text.replace(r#""version": 5"#, r#""version": 4"#)).unwrap_err();
    assert!(old.to_string().contains("ramps need version 5"), "{old}");
    let bad = octile::format::from_json(&text.replace(r#""dir": "E""#, r#""dir": "NE""#)).unwrap_err();
    assert!(bad.to_string().contains(r#"must be one of "N", "E", "S", "W""#), "{bad}");
    // A ramp whose cells do not hold it is named with what it lacks.
    let broken = text.replace(r#""col": 0, "dir": "E""#, r#""col": 2, "dir": "E""#);
    let err = octile::format::from_json(&broken).unwrap_err();
    assert!(err.to_string().contains("the ramp from row 0, col 2 rising E"), "{err}");
}

#[test]
fn generated_ramps_are_sound_and_closed() {
    for seed in [1, 2] {
        let options =
            octile::generate::GenerateOptions { seed, levels: 3, cols: 12, rows: 12, ..Default::default() };
        let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
        let before = PathGraph::new(&d).unwrap().regions(&PathRules::default()).count();
        let ramps = octile::generate::cut_ramps(&mut d).unwrap();
        assert_eq!(ramps.len(), 2, "seed {seed}: one a level pair: {ramps:?}");
        assert!(d.problems().is_empty(), "seed {seed}: {:?}", d.problems());
        assert!(ramps.iter().all(|r| d.ramp_is_sound(r)));
        let m = mesh::build(&d, &MeshOptions::default()).unwrap();
        assert_watertight(&world(&m, |r| r != MaterialRole::Stair), &format!("seed {seed}: carved volume"));
        let g = PathGraph::new(&d).unwrap();
        assert!(g.regions(&PathRules::default()).count() <= before, "seed {seed}: nothing is cut off");
        // Each ramp is a way between its foot and its top.
        let mut astar = AStar::new();
        for r in &ramps {
            let cells = d.ramp_cells(r).unwrap();
            let route = astar.find(&g, cells.foot, cells.top, &PathRules::default()).unwrap().unwrap();
            let direct = (1 + cells.run.len() as u64) * 1000 + u64::from(ramp_climb_cost(d.proportions()));
            assert!(route.cost <= direct, "seed {seed}: {r:?} costs {} > {direct}", route.cost);
        }
    }
}
