//! The dungeon file format: exact round trips and clear errors for malformed files.

use octile::dungeon::{Dungeon, Fill, Registry};
use octile::format::{FormatError, Problem, from_json, to_json};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos};
use proptest::prelude::*;
use serde_json::Value;

/// A random but consistent dungeon: any tiles and edges, stairs only where legal.
fn arb_dungeon() -> impl Strategy<Value = Dungeon> {
    (
        1u32..6,
        1u32..6,
        1u32..4,
        0.05f64..0.45,
        8.0f64..20.0,
        any::<u64>(),
        any::<Option<u64>>(),
        any::<bool>(),
    )
        .prop_map(|(cols, rows, levels, cut, base, bits, seed, mark)| {
            let p = Proportions { base, cut_ratio: cut, door_width: 0.5, ..Default::default() };
            let mut d = Dungeon::new(cols, rows, levels, p, Fill::Solid).unwrap();
            let mut rng = bits;
            let mut next = move || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let cells: Vec<Pos> = d.cells().collect();
            for &pos in &cells {
                if next() % 2 == 0 {
                    d.set_tile(pos, Registry::FLOOR).unwrap();
                }
                for &dir in d.dims().walls(pos.slot).unwrap() {
                    let state = [Registry::WALL, Registry::OPEN, Registry::DOOR][(next() % 3) as usize];
                    let _ = d.set_edge(pos, dir, state); // border walls refuse, as they should
                }
            }
            for &pos in &cells {
                let up = Pos { level: pos.level + 1, ..pos };
                // Stairs do not stack: never on the top of another stair.
                if next() % 5 == 0
                    && d.stair_below(pos).is_none()
                    && d.set_tile(pos, Registry::STAIR).is_ok()
                    && !d.tile_def(up).unwrap().carved
                {
                    d.set_tile(up, Registry::FLOOR).unwrap();
                }
            }
            if mark {
                // Markers stand on carved cells (one on rock is a problem).
                let carved: Vec<Pos> =
                    cells.iter().copied().filter(|&p| d.tile_def(p).is_ok_and(|t| t.carved)).collect();
                d.set_entrance(carved.first().copied()).unwrap();
                d.set_exit(carved.last().copied()).unwrap();
            }
            d.set_seed(seed);
            assert!(d.problems().is_empty());
            d
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_dungeons_round_trip_byte_identically(d in arb_dungeon()) {
        let text = to_json(&d);
        let back = from_json(&text).unwrap();
        prop_assert_eq!(&back, &d);
        prop_assert_eq!(to_json(&back), text);
    }
}

fn sample() -> Value {
    serde_json::from_str(include_str!("../assets/two_levels.json")).unwrap()
}

fn load(v: &Value) -> Result<Dungeon, FormatError> {
    from_json(&serde_json::to_string(v).unwrap())
}

fn problems(v: &Value) -> Vec<Problem> {
    match load(v) {
        Err(FormatError::Invalid { problems }) => problems,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn samples_load_and_round_trip() {
    for name in ["plus_arena", "l_bend", "two_levels"] {
        let text = std::fs::read_to_string(format!("assets/{name}.json")).unwrap();
        let d = from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(to_json(&d), text, "{name} is stored in canonical form");
    }
}

#[test]
fn bad_json_names_line_and_column() {
    let e = from_json("{\n  \"format\": \"octile-dungeon\",\n  oops\n}").unwrap_err();
    match e {
        FormatError::Json { line, .. } => assert_eq!(line, 3),
        other => panic!("{other:?}"),
    }
    assert!(matches!(from_json("{\"format\": \"gltf\"}"), Err(FormatError::NotADungeon { .. })));
    let mut v = sample();
    v["version"] = 99.into();
    assert!(matches!(load(&v), Err(FormatError::Version { found: 99, .. })));
}

#[test]
fn unknown_tile_names_level_and_slot() {
    let mut v = sample();
    v["plan"][1]["slots"][2] = "#|?o.".into();
    let p = problems(&v);
    assert_eq!(p, vec![Problem::UnknownTile { level: 1, row: 2, col: 2, symbol: '?' }]);
    assert!(p[0].to_string().contains("level 1: row 2, col 2"));
    let mut v = sample();
    v["plan"][0]["short_edges"][1] = "|||| |x||".into();
    let p = problems(&v);
    assert_eq!(p, vec![Problem::UnknownEdge { level: 0, row: 3, col: 3, wall: Some("TR"), symbol: 'x' }]);
}

#[test]
fn unknown_tile_name_in_registry_is_refused() {
    let mut v = sample();
    v["tiles"][1]["name"] = "solid".into();
    assert!(matches!(load(&v), Err(FormatError::Header(_))));
}

#[test]
fn wrong_dimensions_are_reported_per_level() {
    let mut v = sample();
    v["octagons"] = serde_json::json!([4, 3]);
    let p = problems(&v);
    assert!(
        p.iter().any(|p| matches!(p, Problem::RowLength { level: 0, row: 0, expected: 7, found: 5, .. })),
        "{p:?}"
    );
    let mut v = sample();
    v["plan"][1]["slots"].as_array_mut().unwrap().pop();
    let p = problems(&v);
    assert!(
        matches!(p.as_slice(), [Problem::RowCount { level: 1, field: "slots", expected: 5, found: 4 }]),
        "{p:?}"
    );
    let mut v = sample();
    v["levels"] = 3.into();
    assert!(!problems(&v).is_empty());
    let mut v = sample();
    v["octagons"] = serde_json::json!([0, 3]);
    assert!(matches!(load(&v), Err(FormatError::Header(_))));
}

#[test]
fn stair_on_connector_names_level_and_slot() {
    let mut v = sample();
    v["plan"][0]["slots"][1] = "|S|#|".into();
    let p = problems(&v);
    assert_eq!(p.len(), 1, "{p:?}");
    let msg = p[0].to_string();
    assert!(msg.contains("level 0") && msg.contains("row 1, col 1") && msg.contains("Connector"), "{msg}");
}

#[test]
fn stair_off_the_top_level_names_level_and_slot() {
    let mut v = sample();
    v["plan"][1]["slots"][2] = "#|.oS".into();
    let p = problems(&v);
    // The top-level stair also stands on the stair from level 0: stairs may not stack.
    assert_eq!(p.len(), 2, "{p:?}");
    let msg = p[0].to_string();
    assert!(
        msg.contains("level 0") && msg.contains("row 2, col 4") && msg.contains("may not stack"),
        "{msg}"
    );
    let msg = p[1].to_string();
    assert!(msg.contains("level 1") && msg.contains("row 2, col 4") && msg.contains("2 levels"), "{msg}");
}

#[test]
fn stair_landing_on_rock_and_bad_markers_are_reported() {
    let mut v = sample();
    v["plan"][1]["slots"][2] = "#|.o#".into();
    v["entrance"] = serde_json::json!([0, 0, 1]);
    v["exit"] = serde_json::json!([5, 0, 0]);
    let p = problems(&v);
    assert_eq!(p.len(), 3, "{p:?}");
    assert!(p[0].to_string().contains("lands on uncarved rock"));
    assert!(matches!(p[1], Problem::BadMarker { what: "entrance", .. }));
    assert!(matches!(p[2], Problem::BadMarker { what: "exit", .. }));
}

#[test]
fn every_problem_is_listed_at_once() {
    let mut v = sample();
    v["plan"][0]["slots"][0] = "?|#|?".into();
    v["plan"][1]["slots"][4] = "#|#|!".into();
    assert_eq!(problems(&v).len(), 3);
}

#[test]
fn plan_edges_are_shared_by_both_cells() {
    let d = from_json(include_str!("../assets/two_levels.json")).unwrap();
    let open = d.registry().edge("open").unwrap();
    assert_eq!(d.edge_state(Pos::new(1, 2, 4), Direction::N).unwrap(), Some(open));
    assert_eq!(d.edge_state(Pos::new(1, 0, 4), Direction::S).unwrap(), Some(open));
}

#[test]
fn levels_out_of_order_are_named() {
    let mut v = sample();
    v["plan"][0]["level"] = 1.into();
    v["plan"][1]["level"] = 0.into();
    let p = problems(&v);
    assert!(p.contains(&Problem::LevelOrder { index: 0, found: 1 }), "{p:?}");
    assert!(p.contains(&Problem::LevelOrder { index: 1, found: 0 }), "{p:?}");
}

#[test]
fn saving_into_a_missing_folder_is_a_write_error() {
    let d = from_json(include_str!("../assets/l_bend.json")).unwrap();
    let path = std::env::temp_dir().join("octile-no-such-folder").join("d.json");
    match octile::format::save(&d, &path) {
        Err(FormatError::Write(e)) => assert!(e.to_string().contains("octile-no-such-folder")),
        other => panic!("{other:?}"),
    }
}
