//! The room graph as JSON: in full for `octile info --json` and `--graph FILE`, and compact
//! for the `Dungeon` node's extras in a `.glb`.

use serde_json::{Value, json};

use super::{PortalPlace, RoomGraph};
use crate::dungeon::Dungeon;

/// The rooms and portals of `graph` (built from `dungeon`) in full: `{"rooms": [...],
/// "portals": [...]}`, rooms with their `id`, `kind`, `level`, `cells` (`[row, col]`) and
/// `area_m2`; portals with their `kind`, two `rooms` and place (a seam's two `cells`
/// `[level, row, col]`, or a stair's `foot`).
///
/// # Panics
/// Never: portals name edges of the dungeon's grid.
#[must_use]
pub fn graph_json(dungeon: &Dungeon, graph: &RoomGraph) -> Value {
    let rooms: Vec<Value> = graph
        .rooms()
        .iter()
        .map(|r| {
            json!({
                "id": r.id.0,
                "kind": r.kind.name(),
                "level": r.level,
                "cells": r.cells.iter().map(|s| [s.row, s.col]).collect::<Vec<_>>(),
                "area_m2": r.area,
            })
        })
        .collect();
    let portals: Vec<Value> = graph
        .portals()
        .iter()
        .map(|p| {
            let mut v = json!({ "kind": p.kind.name(), "rooms": [p.rooms[0].0, p.rooms[1].0] });
            match p.place {
                PortalPlace::Seam { level, edge } => {
                    let sides = dungeon.dims().edge_sides(edge).expect("invariant: portals name edges");
                    let cell = |i: usize| [u32::from(level), sides[i].0.row, sides[i].0.col];
                    v["cells"] = json!([cell(0), cell(1)]);
                }
                PortalPlace::Stair { foot } => {
                    v["foot"] = json!([u32::from(foot.level), foot.slot.row, foot.slot.col]);
                }
            }
            v
        })
        .collect();
    json!({ "rooms": rooms, "portals": portals })
}

/// The graph in compact form, for a `.glb`'s root extras: columns of one type each (so
/// importers that keep only homogeneous arrays, like Blender's custom properties, keep
/// them): `{"rooms": {"kind": [..], "level": [..], "cells": [..], "area_m2": [..]},
/// "portals": {"kind": [..], "from": [..], "to": [..]}}`. Room `i` is entry `i` of each
/// room column (its id); `cells` counts its cells; areas are rounded to 0.01 m2; a portal
/// joins rooms `from[j]` and `to[j]`. The full lists are [`graph_json`]'s.
#[must_use]
pub fn compact_graph_json(graph: &RoomGraph) -> Value {
    let rooms = graph.rooms();
    let portals = graph.portals();
    json!({
        "rooms": {
            "kind": rooms.iter().map(|r| r.kind.name()).collect::<Vec<_>>(),
            "level": rooms.iter().map(|r| r.level).collect::<Vec<_>>(),
            "cells": rooms.iter().map(|r| r.cells.len()).collect::<Vec<_>>(),
            "area_m2": rooms.iter().map(|r| (r.area * 100.0).round() / 100.0).collect::<Vec<_>>(),
        },
        "portals": {
            "kind": portals.iter().map(|p| p.kind.name()).collect::<Vec<_>>(),
            "from": portals.iter().map(|p| p.rooms[0].0).collect::<Vec<_>>(),
            "to": portals.iter().map(|p| p.rooms[1].0).collect::<Vec<_>>(),
        },
    })
}

/// The dungeon's room table (the rooms a room graph was built from, docs/flow.md) as JSON:
/// `{"rooms": N, "passages": M, "by_role": {"entrance": 1, ...}, "by_size": {"small": 3,
/// ...}, "list": [{"name", "role", "shape", "size", "level", "octagons", "centre", "height"},
/// ...], "passages_list": [{"from", "to", "kind", "lock"}, ...]}`. `centre` is the mean of the
/// room's octagon centres on its floor, in world metres `[x, y, z]`; `height` and `lock` are
/// left out where there is none (glTF extras never hold `null`). `octile info --json`, the
/// `--graph` file and the `Dungeon` node's extras carry it.
#[must_use]
pub fn room_table_json(dungeon: &Dungeon) -> Value {
    use crate::dungeon::{RoomId, RoomRole, SizeClass};
    use crate::grid::SlotKind;
    let count = |f: &dyn Fn(&crate::dungeon::Room) -> bool| dungeon.rooms().iter().filter(|r| f(r)).count();
    let mut by_role = serde_json::Map::new();
    for role in RoomRole::ALL {
        let n = count(&|r| r.role == role);
        if n > 0 {
            by_role.insert(role.name().into(), n.into());
        }
    }
    let mut by_size = serde_json::Map::new();
    for size in SizeClass::ALL {
        let n = count(&|r| r.size == size);
        if n > 0 {
            by_size.insert(size.name().into(), n.into());
        }
    }
    let list: Vec<Value> = dungeon
        .rooms()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let octagons: Vec<_> =
                dungeon.room_cells(RoomId(i as u16)).filter(|p| p.slot.kind() == SlotKind::Octagon).collect();
            let n = octagons.len().max(1) as f64;
            let centre = octagons.iter().map(|&p| dungeon.layout().world_center(p)).sum::<glam::DVec3>() / n;
            let mut v = json!({
                "name": r.name, "role": r.role.name(), "shape": r.shape.name(), "size": r.size.name(),
                "level": r.level, "octagons": octagons.len(), "centre": [centre.x, centre.y, centre.z],
            });
            if let Some(h) = r.height {
                v["height"] = json!(h);
            }
            v
        })
        .collect();
    let name = |id: RoomId| dungeon.rooms()[usize::from(id.0)].name.clone();
    let passages: Vec<Value> = dungeon
        .passages()
        .iter()
        .map(|p| {
            let mut v = json!({ "from": name(p.from), "to": name(p.to), "kind": p.kind.name() });
            if let Some(lock) = p.lock {
                v["lock"] = json!(lock);
            }
            v
        })
        .collect();
    json!({
        "rooms": dungeon.rooms().len(),
        "passages": dungeon.passages().len(),
        "by_role": by_role,
        "by_size": by_size,
        "list": list,
        "passages_list": passages,
    })
}

/// [`room_table_json`] for the `Dungeon` node's extras, in columns of one type each (as
/// [`compact_graph_json`], so Blender keeps them as custom properties): `name`, `role`,
/// `shape`, `size`, `level`, `octagons`, `height` (metres; the dungeon's room height where a
/// room has none of its own), `centre_x`, `centre_y`, `centre_z` (metres), indexed by room;
/// `passage_from`, `passage_to` (room indices) and `passage_kind`.
#[must_use]
pub fn compact_room_table_json(dungeon: &Dungeon) -> Value {
    let full = room_table_json(dungeon);
    let list = full["list"].as_array().cloned().unwrap_or_default();
    let column = |key: &str| Value::Array(list.iter().map(|r| r[key].clone()).collect());
    let default_h = dungeon.proportions().room_height;
    let heights: Vec<Value> = dungeon.rooms().iter().map(|r| json!(r.height.unwrap_or(default_h))).collect();
    let centre = |k: usize| Value::Array(list.iter().map(|r| r["centre"][k].clone()).collect());
    let passages = dungeon.passages();
    json!({
        "name": column("name"),
        "role": column("role"),
        "shape": column("shape"),
        "size": column("size"),
        "level": column("level"),
        "octagons": column("octagons"),
        "height": heights,
        "centre_x": centre(0),
        "centre_y": centre(1),
        "centre_z": centre(2),
        "passage_from": passages.iter().map(|p| p.from.0).collect::<Vec<_>>(),
        "passage_to": passages.iter().map(|p| p.to.0).collect::<Vec<_>>(),
        "passage_kind": passages.iter().map(|p| p.kind.name()).collect::<Vec<_>>(),
    })
}
