//! Regression tests for issue 10's library calls and sizes: each case overflowed, indexed
//! out of bounds, ran out of memory or said the wrong thing. Each now gets a typed error
//! naming what and where (or a documented panic), and a size past a budget is refused
//! before the work is done.

mod support;

use octile::dungeon::{Dungeon, DungeonError, Fill};
use octile::format::{FORMAT_VERSION, FormatError, Problem, from_json, to_json};
use octile::generate::{GenerateError, GenerateOptions, generate};
use octile::geometry::Proportions;
use octile::grid::Pos;
use octile::mesh::{self, DEFAULT_MAX_TRIANGLES, MeshError, MeshOptions, estimated_triangles};
use octile::path::{PathGraph, PathRules};
use serde_json::Value;

fn triangles(m: &mesh::DungeonMesh) -> u64 {
    m.levels.iter().flat_map(|l| &l.primitives).map(|(_, p)| p.indices.len() as u64 / 3).sum()
}

/// The estimate is an upper bound of the mesh it stands for, and not a wild one (within 4x)
/// on dungeons with rooms, doors, stairs and all-floor levels.
#[test]
fn the_triangle_estimate_bounds_the_mesh() {
    let mut dungeons: Vec<(String, Dungeon)> = support::samples();
    for (seed, levels) in [(0, 3), (7, 2), (11, 4)] {
        let options = GenerateOptions { seed, levels, cols: 10, rows: 9, ..Default::default() };
        dungeons.push((format!("seed {seed}"), generate(&options, &mut |_| {}).unwrap()));
    }
    let floor = Dungeon::new(9, 7, 1, Proportions::default(), Fill::Floor).unwrap();
    dungeons.push(("floor".into(), floor));
    for (name, d) in &dungeons {
        let actual = triangles(&mesh::build(d, &MeshOptions::default()).unwrap());
        let estimate = estimated_triangles(d);
        assert!(actual <= estimate, "{name}: {actual} triangles, estimated {estimate}");
        assert!(estimate <= 4 * actual.max(100), "{name}: {actual} triangles, estimated {estimate}");
    }
}

/// `export` of a 512x512 all-floor dungeon ran out of memory (5.6 GB and rising after four
/// minutes); it is now refused before meshing, naming the limit and how to raise it.
#[test]
fn a_mesh_over_the_triangle_budget_is_refused_before_it_is_built() {
    let d = Dungeon::new(512, 512, 1, Proportions::default(), Fill::Floor).unwrap();
    let err = mesh::build(&d, &MeshOptions::default()).unwrap_err();
    let MeshError::TooLarge { estimate, limit } = err else { panic!("{err:?}") };
    assert_eq!(limit, DEFAULT_MAX_TRIANGLES);
    assert_eq!(estimate, estimated_triangles(&d));
    let message = err.to_string();
    assert!(message.contains("max_triangles") && message.contains("--max-triangles"), "{message}");
    let small = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
    let tight = MeshOptions { max_triangles: estimated_triangles(&small) - 1, ..Default::default() };
    assert!(matches!(mesh::build(&small, &tight), Err(MeshError::TooLarge { .. })));
    let enough = MeshOptions { max_triangles: estimated_triangles(&small), ..Default::default() };
    assert!(mesh::build(&small, &enough).is_ok());
}

/// `is_stair` on level `u16::MAX` overflowed `level + 1`.
#[test]
fn is_stair_on_the_last_possible_level_is_false() {
    let d = Dungeon::new(2, 2, 2, Proportions::default(), Fill::Floor).unwrap();
    assert!(!d.is_stair(Pos::new(u16::MAX, 0, 0)));
}

/// A node of a larger graph is not a node of a smaller one: `connected` said two such
/// nodes were connected (both had no region, and "none" equalled "none").
#[test]
fn a_node_of_another_graph_is_connected_to_nothing() {
    let small = PathGraph::new(&Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap()).unwrap();
    let large = PathGraph::new(&Dungeon::new(6, 6, 1, Proportions::default(), Fill::Floor).unwrap()).unwrap();
    let foreign: Vec<_> = large.nodes().skip(small.node_count()).take(2).collect();
    let rules = PathRules::default();
    assert!(!small.connected(foreign[0], foreign[1], &rules));
    let own: Vec<_> = small.nodes().take(2).collect();
    assert!(small.connected(own[0], own[1], &rules));
}

/// `--open-weight 0` blamed "the fixed cells and border" twice; it is refused by name.
#[test]
fn a_zero_open_weight_is_refused_by_name() {
    let mut options = GenerateOptions { cols: 4, rows: 4, ..Default::default() };
    options.weights.open_weight = 0.0;
    let err = generate(&options, &mut |_| {}).map(|_| ()).unwrap_err();
    assert!(matches!(err, GenerateError::BadOption { name: "open-weight", .. }), "{err}");
}

fn sample() -> Value {
    let d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Floor).unwrap();
    serde_json::from_str(&to_json(&d)).unwrap()
}

fn refusal(v: &Value) -> FormatError {
    from_json(&v.to_string()).map(|_| ()).expect_err("refused")
}

/// `"version": null` said "`version` is 0".
#[test]
fn a_null_version_is_called_null() {
    let mut v = sample();
    v["version"] = Value::Null;
    let err = refusal(&v);
    assert!(matches!(err, FormatError::NoVersion { supported: FORMAT_VERSION }), "{err}");
    assert!(err.to_string().contains("missing or null"), "{err}");
}

/// A UTF-8 byte-order mark gave "line 1, column 1: expected value at line 1 column 1".
#[test]
fn a_byte_order_mark_is_accepted() {
    let text = to_json(&Dungeon::new(3, 2, 1, Proportions::default(), Fill::Floor).unwrap());
    let with_bom = format!("\u{feff}{text}");
    assert_eq!(from_json(&with_bom).unwrap(), from_json(&text).unwrap());
    let err = from_json("{").map(|_| ()).unwrap_err().to_string();
    assert_eq!(err.matches("line 1").count(), 1, "the position is said once: {err}");
}

/// An entrance with four numbers said "trailing characters".
#[test]
fn a_marker_of_four_numbers_says_how_many() {
    let mut v = sample();
    v["entrance"] = serde_json::json!([0, 0, 0, 1]);
    let err = refusal(&v).to_string();
    assert!(err.contains("invalid length 4") && err.contains("[level, row, col]"), "{err}");
    assert!(!err.contains("trailing"), "{err}");
    let mut v = sample();
    v["octagons"] = serde_json::json!([3, 2, 1]);
    let err = refusal(&v).to_string();
    assert!(err.contains("invalid length 3") && err.contains("[cols, rows]"), "{err}");
}

/// A plan with too few levels said "`plan` has 1 rows".
#[test]
fn a_plan_with_too_few_levels_counts_levels() {
    let mut v = sample();
    v["plan"].as_array_mut().unwrap().pop();
    let FormatError::Invalid { problems } = refusal(&v) else { panic!("not a plan problem") };
    assert_eq!(problems, [Problem::LevelCount { expected: 2, found: 1 }]);
    assert!(!problems[0].to_string().contains("rows"), "{}", problems[0]);
}

/// A missing file said its cause twice through an error chain.
#[test]
fn a_read_error_says_its_cause_once() {
    let err = octile::format::load(std::path::Path::new("no/such/file.json")).unwrap_err();
    let cause = match &err {
        FormatError::Read { cause, .. } => cause.to_string(),
        other => panic!("{other:?}"),
    };
    let chain = format!("{:#}", anyhow::Error::from(err));
    assert_eq!(chain.matches(&cause).count(), 1, "{chain}");
}

/// `validate` said ok for an entrance or exit on rock.
#[test]
fn a_marker_on_rock_is_a_problem() {
    let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
    d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
    d.set_exit(Some(Pos::new(1, 2, 2))).unwrap();
    let problems = d.problems();
    let on_rock = |what| DungeonError::MarkerOnRock { what, level: 0, row: 0, col: 0 };
    assert!(problems.contains(&on_rock("entrance")), "{problems:?}");
    assert!(problems.contains(&DungeonError::MarkerOnRock { what: "exit", level: 1, row: 2, col: 2 }));
    let FormatError::Invalid { problems } = from_json(&to_json(&d)).map(|_| ()).unwrap_err() else {
        panic!("not a plan problem")
    };
    assert!(problems.contains(&Problem::Dungeon(on_rock("entrance"))), "{problems:?}");
    let message = on_rock("entrance").to_string();
    assert!(message.contains("entrance at level 0, row 0, col 0 is on rock"), "{message}");
}

/// `validate` said ok for a stair tile declared `"carved": false` (an open mesh, a walker
/// falling through).
#[test]
fn a_stair_tile_that_is_not_carved_is_a_problem() {
    let mut v = sample();
    let tiles = v["tiles"].as_array_mut().unwrap();
    let stair = tiles.iter_mut().find(|t| t["stair"] == Value::Bool(true)).unwrap();
    stair["carved"] = Value::Bool(false);
    let FormatError::Invalid { problems } = refusal(&v) else { panic!("not a plan problem") };
    assert_eq!(problems, [Problem::Dungeon(DungeonError::StairNotCarved { symbol: 'S' })]);
    assert!(problems[0].to_string().contains("\"carved\": false"), "{}", problems[0]);
}

/// `Walker::step` with a huge wish took as many substeps as the wish asked (up to
/// `usize::MAX`); the wish is capped at 1000 m/s, and one that is not finite does not move.
#[test]
fn a_huge_wish_is_capped() {
    use glam::DVec2;
    use octile::walk::{Walker, World};
    let d = Dungeon::new(40, 2, 1, Proportions::default(), Fill::Floor).unwrap();
    let world = World::new(&d);
    for wish in [DVec2::new(1e9, 0.0), DVec2::new(-1e9, 0.0)] {
        let mut w = Walker::spawn(&world, Pos::new(0, 0, 38));
        let start = w.xz();
        w.step(&world, wish, false, 0.1);
        let moved = w.xz().distance(start);
        assert!(moved <= 100.0 + 1e-6, "{wish}: moved {moved} m in 0.1 s");
    }
    let mut w = Walker::spawn(&world, Pos::new(0, 0, 38));
    let start = w.xz();
    w.step(&world, DVec2::new(f64::NAN, f64::INFINITY), false, 0.1);
    assert_eq!(w.xz(), start);
}
