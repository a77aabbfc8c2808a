//! Game objects in the export, read back with the `gltf` crate and the JSON chunk: door
//! nodes (one per door edge, pivot on the hinge end of the opening, a leaf that swings),
//! marker empties, torch lights (declared only when used), the room graph in the root's
//! extras, and OMI physics instead of the `-colonly` suffix.

mod support;

use glam::{DQuat, DVec3};
use octile::dungeon::{Carve, Dungeon};
use octile::export::{self, ExportOptions, PhysicsFormat};
use octile::generate::{GenerateOptions, generate};
use octile::grid::Pos;
use octile::rooms::{LightPreset, MarkerKind, Markers, RoomGraph, torch_lights};
use serde_json::Value;

fn dungeon(seed: u64) -> Dungeon {
    let options = GenerateOptions { seed, levels: 2, cols: 7, rows: 6, doors: 1.0, ..Default::default() };
    generate(&options, &mut |_| {}).unwrap()
}

fn read(d: &Dungeon, options: &ExportOptions) -> (gltf::Gltf, Value) {
    let bytes = export::Export::new(d, options).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    (g, json)
}

fn extras(node: &gltf::Node<'_>) -> Value {
    serde_json::from_str(node.extras().as_ref().expect("extras").get()).unwrap()
}

/// A node's world transform (translation, rotation), through its parents.
fn world(g: &gltf::Gltf, target: usize) -> (DVec3, DQuat) {
    let parent = |i: usize| g.nodes().find(|n| n.children().any(|c| c.index() == i)).map(|n| n.index());
    let mut chain = vec![target];
    while let Some(p) = parent(*chain.last().unwrap()) {
        chain.push(p);
    }
    let (mut t, mut r) = (DVec3::ZERO, DQuat::IDENTITY);
    for &i in chain.iter().rev() {
        let (lt, lr, _) = g.nodes().nth(i).unwrap().transform().decomposed();
        t += r * DVec3::from(lt.map(f64::from));
        r *= DQuat::from_array(lr.map(f64::from));
    }
    (t, r)
}

#[test]
fn door_nodes_are_the_door_edges_pivoted_on_the_hinge_end_of_their_opening() {
    for seed in [7, 21] {
        let d = dungeon(seed);
        let (g, _) = read(&d, &ExportOptions::default());
        // Every door edge with a carved seam, from the dungeon itself.
        let mut want = Vec::new();
        for level in 0..d.levels() {
            for edge in d.dims().edges() {
                let sides = d.dims().edge_sides(edge).unwrap();
                let cell = Pos { level, slot: sides[0].0 };
                if d.carved_seam(cell, sides[0].1).is_some_and(|s| s.carve == Carve::Door) {
                    want.push((level, edge, sides));
                }
            }
        }
        assert!(want.len() > 2, "seed {seed}: only {} doors", want.len());
        let doors: Vec<gltf::Node<'_>> =
            g.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with("Door_"))).collect();
        assert_eq!(doors.len(), want.len(), "seed {seed}: one node per door edge");
        let graph = RoomGraph::of(&d);
        for (level, edge, sides) in want {
            let name = match edge {
                octile::grid::EdgeId::Long(s) => format!("Door_{level:02}_{:03}_{:03}", s.row, s.col),
                octile::grid::EdgeId::Short(s, w) => {
                    format!("Door_{level:02}_{:03}_{:03}_{}", s.row, s.col, w.name())
                }
            };
            let node = doors.iter().find(|n| n.name() == Some(&name)).expect(&name);
            let e = extras(node);
            assert_eq!(e["role"], "door");
            assert_eq!(e["state"], "closed");
            let rooms: Vec<Value> =
                sides.iter().map(|s| graph.room_at(&d, Pos { level, slot: s.0 }).unwrap().0.into()).collect();
            assert_eq!(e["rooms"], Value::Array(rooms), "{name}");
            // The pivot is the first end of the opening in the first side's wall, at floor
            // height; the leaf's +X runs to the opening's other end.
            let [h, l] = d.layout().door_opening(sides, sides[0].0, sides[0].1).unwrap();
            let floor = d.proportions().floor_y(level);
            let (t, r) = world(&g, node.index());
            assert!(t.distance(DVec3::new(h.x, floor, h.y)) < 1e-4, "{name}: pivot {t} vs hinge {h}");
            let latch = t + r * DVec3::X * h.distance(l);
            assert!(latch.distance(DVec3::new(l.x, floor, l.y)) < 1e-4, "{name}: leaf runs to {latch}");
            // The leaf mesh lies within the opening, from its hinge.
            let mesh = node.mesh().expect("a leaf mesh");
            let bb = mesh.primitives().next().unwrap().bounding_box();
            assert!(bb.min[0] >= 0.0 && f64::from(bb.max[0]) <= h.distance(l) + 1e-6);
            assert!(bb.min[1] >= 0.0 && f64::from(bb.max[1]) <= d.proportions().door_height + 1e-6);
        }
        // Without doors, no door node.
        let none = GenerateOptions { seed, levels: 2, cols: 7, rows: 6, doors: 0.0, ..Default::default() };
        let (g, _) = read(&generate(&none, &mut |_| {}).unwrap(), &ExportOptions::default());
        assert!(!g.nodes().any(|n| n.name().is_some_and(|s| s.starts_with("Door_"))));
    }
}

#[test]
fn markers_and_lights_are_nodes_under_their_level_and_the_extension_only_when_used() {
    let d = dungeon(7);
    let (g, json) = read(&d, &ExportOptions::default());
    assert!(json.get("extensionsUsed").is_none(), "nothing used by default");
    assert!(!g.nodes().any(|n| n.name().is_some_and(|s| s.starts_with("Spawn_") || s.starts_with("Torch_"))));
    let markers = Markers::of(&d, &RoomGraph::of(&d));
    let options = ExportOptions { markers: true, lights: Some(LightPreset::Blender), ..Default::default() };
    let (g, json) = read(&d, &options);
    assert_eq!(json["extensionsUsed"], serde_json::json!(["KHR_lights_punctual"]));
    let lights = &json["extensions"]["KHR_lights_punctual"]["lights"];
    let torches = markers.iter().filter(|m| m.kind == MarkerKind::Torch).count();
    assert_eq!(lights.as_array().unwrap().len(), torches, "one light per torch node");
    assert_eq!(lights[0]["type"], "point");
    assert_eq!(lights[0]["intensity"].as_f64().unwrap(), LightPreset::BLENDER_CANDELA);
    for (prefix, kind) in
        [("Spawn_", MarkerKind::Spawn), ("Prop_", MarkerKind::Prop), ("Torch_", MarkerKind::Torch)]
    {
        let want: Vec<_> = markers.iter().filter(|m| m.kind == kind).collect();
        let got: Vec<gltf::Node<'_>> =
            g.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with(prefix))).collect();
        assert_eq!(got.len(), want.len(), "{prefix}");
        for n in &got {
            let e = extras(n);
            assert_eq!((e["role"].as_str(), e["kind"].as_str()), (Some("marker"), Some(kind.name())));
            let level = e["level"].as_u64().unwrap();
            let parent = g.nodes().find(|p| p.children().any(|c| c.index() == n.index())).unwrap();
            assert_eq!(parent.name().unwrap(), format!("Level_{level:02}"), "under its level");
            // Local -Z faces along `facing`.
            let (_, r) = world(&g, n.index());
            let f = e["facing"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>();
            assert!((r * DVec3::NEG_Z).distance(DVec3::new(f[0], f[1], f[2])) < 1e-5);
            let has_light = json["nodes"][n.index()]["extensions"].get("KHR_lights_punctual").is_some();
            assert_eq!(has_light, kind == MarkerKind::Torch, "{:?}", n.name());
        }
    }
    // Torch nodes stand where the library's torch lights are.
    for light in torch_lights(&markers, LightPreset::Godot) {
        let c = light.torch.cell;
        let name = format!("Torch_{:02}_{:03}_{:03}", c.level, c.slot.row, c.slot.col);
        let node = g.nodes().find(|n| n.name() == Some(&name)).unwrap();
        assert!(world(&g, node.index()).0.distance(light.position) < 1e-4);
    }
    // Lights alone write only the torch nodes.
    let (g, _) = read(&d, &ExportOptions { lights: Some(LightPreset::Godot), ..Default::default() });
    assert!(g.nodes().any(|n| n.name().is_some_and(|s| s.starts_with("Torch_"))));
    assert!(!g.nodes().any(|n| n.name().is_some_and(|s| s.starts_with("Spawn_") || s.starts_with("Prop_"))));
}

#[test]
fn the_root_holds_the_compact_room_graph() {
    let d = dungeon(21);
    let graph = RoomGraph::of(&d);
    let (g, _) = read(&d, &ExportOptions::default());
    let root = g.nodes().find(|n| n.name() == Some("Dungeon")).unwrap();
    let e = extras(&root);
    let (rooms, portals) = (&e["graph"]["rooms"], &e["graph"]["portals"]);
    let column = |v: &Value, key: &str| v[key].as_array().unwrap().clone();
    assert_eq!(column(rooms, "kind").len(), graph.rooms().len());
    assert_eq!(column(portals, "kind").len(), graph.portals().len());
    for (i, want) in graph.rooms().iter().enumerate() {
        assert_eq!(column(rooms, "kind")[i], want.kind.name());
        assert_eq!(column(rooms, "level")[i], want.level);
        assert_eq!(column(rooms, "cells")[i].as_u64().unwrap() as usize, want.cells.len());
        assert!((column(rooms, "area_m2")[i].as_f64().unwrap() - want.area).abs() <= 0.005 + 1e-9);
    }
    for (j, want) in graph.portals().iter().enumerate() {
        assert_eq!(column(portals, "kind")[j], want.kind.name());
        assert_eq!(column(portals, "from")[j], want.rooms[0].0);
        assert_eq!(column(portals, "to")[j], want.rooms[1].0);
    }
}

#[test]
fn omi_physics_replaces_the_suffix_never_both() {
    let d = dungeon(7);
    let options = ExportOptions { colliders: true, physics: PhysicsFormat::Omi, ..Default::default() };
    let (g, json) = read(&d, &options);
    let used: Vec<&str> =
        json["extensionsUsed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(used, ["OMI_physics_body", "OMI_physics_shape"]);
    let shapes = json["extensions"]["OMI_physics_shape"]["shapes"].as_array().unwrap();
    assert_eq!(shapes.len(), usize::from(d.levels()));
    assert!(!g.nodes().any(|n| n.name().is_some_and(|s| s.ends_with("-colonly"))), "no suffix");
    for level in 0..d.levels() {
        let name = format!("Level_{level:02}_Collider");
        let n = g.nodes().find(|n| n.name() == Some(&name)).expect(&name);
        assert!(n.mesh().is_none(), "the collider node draws nothing");
        let body = &json["nodes"][n.index()]["extensions"]["OMI_physics_body"];
        let shape = &shapes[body["collider"]["shape"].as_u64().unwrap() as usize];
        assert_eq!(shape["type"], "trimesh");
        let mesh = g.meshes().nth(shape["trimesh"]["mesh"].as_u64().unwrap() as usize).unwrap();
        assert_eq!(mesh.name(), Some(format!("{name}_Mesh").as_str()));
        assert_eq!(extras(&n), serde_json::json!({ "role": "collider", "level": level }));
    }
    // The default keeps the suffix and writes no OMI extension.
    let (_, json) = read(&d, &ExportOptions { colliders: true, ..Default::default() });
    assert!(json.get("extensionsUsed").is_none());
}
