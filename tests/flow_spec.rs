//! Room-graph specs: what a spec may say (docs/flow.md, docs/flow.schema.json), the
//! refusals that name the element at fault, and the command line.

mod support;

use std::process::Command;

use octile::dungeon::{PassageKind, RoomRole, RoomShape, SizeClass};
use octile::flow::{FlowError, FlowSpec, Grammar};
use octile::geometry::Proportions;
use support::Scratch;

fn octile() -> Command {
    Command::new(env!("CARGO_BIN_EXE_octile"))
}

/// A small valid spec: entrance -> hall -> goal upstairs.
const SPEC: &str = r#"{
  "format": "octile-flow",
  "version": 1,
  "rooms": [
    { "id": "entrance", "role": "entrance", "size": "small", "shape": "hall" },
    { "id": "hall", "size": [9, 12], "shape": "arena", "height": 6.5 },
    { "id": "goal", "role": "goal", "size": "small", "shape": "rotunda", "level": 1 }
  ],
  "connections": [
    { "from": "entrance", "to": "hall" },
    { "from": "hall", "to": "goal", "kind": "stair" }
  ]
}"#;

fn refusal(text: &str) -> String {
    let spec = match FlowSpec::from_json(text) {
        Ok(spec) => spec,
        Err(e) => return e.to_string(),
    };
    match spec.check(&Proportions::default()) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_spec_reads_and_its_levels_follow_the_stairs() {
    let spec = FlowSpec::from_json(SPEC).unwrap();
    let flow = spec.check(&Proportions::default()).unwrap();
    assert_eq!(flow.levels, [0, 0, 1]);
    assert_eq!(flow.level_count(), 2);
    assert_eq!(flow.connections[1].2, PassageKind::Stair);
    assert_eq!(FlowSpec::from_json(&spec.to_json()).unwrap(), spec, "round trip");
}

#[test]
fn refusals_name_the_element_and_why() {
    let cases: [(&str, &str, &str); 10] = [
        (
            r#""to": "hall" }"#,
            r#""to": "cellar" }"#,
            "connection 1 (entrance -> cellar): names room \"cellar\"",
        ),
        (r#""id": "hall","#, r#""id": "entrance","#, "room \"entrance\": the id is used by an earlier room"),
        (r#""role": "goal""#, r#""role": "entrance""#, "exactly one entrance room, this one 2"),
        (r#""height": 6.5"#, r#""height": 11.5"#, "room \"hall\": height 11.5 m"),
        (r#""size": [9, 12]"#, r#""size": [12, 9]"#, "room \"hall\": size [12, 9]"),
        (r#""kind": "stair""#, r#""kind": "door""#, "only a stair joins two levels"),
        (r#""level": 1"#, r#""level": 3"#, "a stair joins adjacent levels; the rooms are on levels 0 and 3"),
        (r#""to": "hall" }"#, r#""to": "hall", "lock": 2 }"#, "has a `lock` id but is door"),
        (r#""to": "hall" }"#, r#""to": "hall", "kind": "locked" }"#, "is locked but has no `lock` id"),
        (r#""shape": "arena""#, r#""shape": "dome""#, "unknown variant `dome`"),
    ];
    for (from, to, want) in cases {
        let text = SPEC.replacen(from, to, 1);
        let got = refusal(&text);
        assert!(got.contains(want), "{to}: {got}");
    }
    let lost = SPEC.replace(
        r#"{ "from": "hall", "to": "goal", "kind": "stair" }"#,
        r#"{ "from": "hall", "to": "entrance" }"#,
    );
    assert!(refusal(&lost).contains("room \"goal\": no connection leads to it from the entrance"));
    assert!(matches!(
        FlowSpec::from_json("{\"format\": \"octile-dungeon\", \"version\": 1}"),
        Err(FlowError::Format { .. })
    ));
    assert!(matches!(FlowSpec::from_json("{ nope"), Err(FlowError::Json { line: 1, .. })));
    let ring =
        SPEC.replace(r#""connections""#, r#""cycles": [{ "rooms": ["entrance", "hall"] }], "connections""#);
    assert!(refusal(&ring).contains("cycle 1: a cycle joins at least 3 rooms"));
}

#[test]
fn a_cycle_adds_the_connections_it_lacks() {
    let text = SPEC
        .replace(r#""level": 1"#, r#""level": 0"#)
        .replace(r#""kind": "stair""#, r#""kind": "open""#)
        .replace(
            r#""connections""#,
            r#""cycles": [{ "rooms": ["entrance", "hall", "goal"] }], "connections""#,
        );
    let flow = FlowSpec::from_json(&text).unwrap().check(&Proportions::default()).unwrap();
    assert_eq!(flow.connections.len(), 3, "goal -> entrance closes the ring");
    assert_eq!((flow.connections[2].0, flow.connections[2].1), (2, 0));
}

/// The schema's word lists are the library's: a new role or shape cannot be forgotten in
/// one of them.
#[test]
fn the_schema_names_what_the_library_reads() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../docs/flow.schema.json")).expect("the schema is JSON");
    let room = &schema["$defs"]["room"]["properties"];
    let words = |v: &serde_json::Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
    };
    assert_eq!(words(&room["role"]["enum"]), RoomRole::ALL.map(|r| r.name().to_string()));
    assert_eq!(words(&room["shape"]["enum"]), RoomShape::ALL.map(|r| r.name().to_string()));
    assert_eq!(words(&room["size"]["oneOf"][0]["enum"]), SizeClass::ALL.map(|r| r.name().to_string()));
    let kinds = &schema["$defs"]["connection"]["properties"]["kind"]["enum"];
    assert_eq!(words(kinds), PassageKind::ALL.map(|r| r.name().to_string()));
    // Every grammar's spec uses only fields the schema allows.
    let allowed = |def: &str| -> Vec<String> {
        schema["$defs"][def]["properties"].as_object().unwrap().keys().cloned().collect()
    };
    for grammar in Grammar::ALL {
        let spec = octile::flow::write(grammar, 24, 24, 2, 2, 1).unwrap();
        let value: serde_json::Value = serde_json::from_str(&spec.to_json()).unwrap();
        for r in value["rooms"].as_array().unwrap() {
            for key in r.as_object().unwrap().keys() {
                assert!(allowed("room").contains(key), "{grammar}: room field {key}");
            }
        }
    }
}

#[test]
fn the_command_line_prints_checks_and_realises_a_spec() {
    let dir = Scratch::new("the_command_line_prints_checks_and_realises_a_spec");
    let example =
        octile().args(["flow", "--example", "--octagons", "20x20", "--levels", "2"]).output().unwrap();
    assert!(example.status.success());
    std::fs::write(dir.join("example.json"), &example.stdout).unwrap();
    let check = octile().args(["flow", "--check"]).arg(dir.join("example.json")).output().unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success() && said.contains("rooms on 2 level(s)"), "{said}");
    std::fs::write(dir.join("spec.json"), SPEC).unwrap();
    let out = octile()
        .args(["generate", "--octagons", "16x16", "--seed", "2", "--flow"])
        .arg(dir.join("spec.json"))
        .arg("-o")
        .arg(dir.join("d.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d = octile::format::load(&dir.join("d.json")).unwrap();
    assert_eq!(d.levels(), 2, "the spec's rooms decide the levels");
    let names: Vec<&str> = d.rooms().iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["entrance", "hall", "goal"]);
    let info = octile().args(["info"]).arg(dir.join("d.json")).output().unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("room table  3 room(s) (entrance 1, goal 1, plain 1;"), "{text}");
    // A room too big for the grid is refused by name, with a non-zero exit and no file.
    std::fs::write(dir.join("big.json"), SPEC.replace(r#""size": [9, 12]"#, r#""size": [60, 64]"#)).unwrap();
    let out = octile()
        .args(["generate", "--octagons", "8x8", "--flow"])
        .arg(dir.join("big.json"))
        .arg("-o")
        .arg(dir.join("big-out.json"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("room \"hall\"") && err.contains("cannot be placed on 8x8 octagons"), "{err}");
    assert!(!dir.join("big-out.json").exists());
    // The export carries the room table in the `Dungeon` node's extras and the --graph file.
    let export = octile()
        .args(["export"])
        .arg(dir.join("d.json"))
        .arg("-o")
        .arg(dir.join("d.glb"))
        .arg("--graph")
        .arg(dir.join("g.json"))
        .output()
        .unwrap();
    assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
    let graph: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("g.json")).unwrap()).unwrap();
    let table = &graph["room_table"];
    assert_eq!(table["list"][1]["name"], "hall");
    assert_eq!(table["list"][1]["shape"], "arena");
    assert_eq!(table["list"][1]["height"], 6.5);
    assert_eq!(table["passages_list"][1]["kind"], "stair");
    let glb = std::fs::read(dir.join("d.glb")).unwrap();
    let text = String::from_utf8_lossy(&glb);
    assert!(
        text.contains(r#""room_table":{"#) && text.contains(r#""name":["entrance","hall","goal"]"#),
        "the Dungeon node's extras, in columns"
    );
    // The plan names the rooms.
    let plan =
        octile().args(["plan"]).arg(dir.join("d.json")).arg("-o").arg(dir.join("p.svg")).output().unwrap();
    assert!(plan.status.success());
    let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
    assert!(
        svg.contains(">hall, 6.5 m<") && svg.contains(">goal<") && svg.contains("up to goal"),
        "labels in the plan"
    );
    assert!(!svg.contains(">6.5 m<"), "a room's height is said once, in its label, not in every cell");
}

/// A room that asks for an atrium rises through the storey above: its cells there are void
/// where that storey is rock, and the dungeon stays one closed, valid whole.
#[test]
fn a_room_asking_for_an_atrium_opens_through_the_storey_above() {
    let spec = FlowSpec::from_json(&SPEC.replace(r#""height": 6.5 }"#, r#""atrium": true }"#)).unwrap();
    assert!(spec.rooms[1].atrium);
    assert_eq!(FlowSpec::from_json(&spec.to_json()).unwrap(), spec, "round trip");
    let flow = spec.check(&Proportions::default()).unwrap();
    let options = octile::generate::GenerateOptions { seed: 4, cols: 16, rows: 16, ..Default::default() };
    let d = octile::flow::realise(&flow, &options, &mut |_| {}).unwrap();
    let hall = d.room_named("hall").unwrap();
    let cells: Vec<_> = d.room_cells(hall).collect();
    let open = cells.iter().filter(|&&p| d.open_above(p)).count();
    assert!(open >= 3, "{open} of the hall's {} cells are open above", cells.len());
    // Nothing over the hall stays rock: each cell above is void or a floor (a balcony, a
    // bridge, a corridor crossing).
    for p in &cells {
        let above = octile::grid::Pos { level: p.level + 1, ..*p };
        assert!(d.tile_def(above).unwrap().carved, "rock over the atrium at {above}");
    }
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    assert_eq!(octile::path::dungeon_regions(&d).count(), 1);
    // Without the field, nothing is void.
    let plain = FlowSpec::from_json(SPEC).unwrap().check(&Proportions::default()).unwrap();
    let d = octile::flow::realise(&plain, &options, &mut |_| {}).unwrap();
    assert!(d.cells().all(|p| !d.is_void(p)));
}
