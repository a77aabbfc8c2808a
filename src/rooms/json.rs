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
