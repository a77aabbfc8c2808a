//! The mission layer as JSON: what `octile info --flow --json` prints and the glTF scene's
//! extras carry ([`report`]).

use serde_json::{Value, json};

use super::{Verdict, mission, verify};
use crate::dungeon::{Dungeon, RoomRole};
use crate::grid::Pos;

fn cell(p: Pos) -> Value {
    json!([p.level, p.slot.row, p.slot.col])
}

/// The critical path's length in metres: its cost in thousandths of a long step times the
/// long step (two cell spacings).
#[must_use]
pub fn critical_metres(d: &Dungeon, verdict: &Verdict) -> f64 {
    verdict.critical_cost as f64 / f64::from(crate::path::LONG_STEP) * 2.0 * d.proportions().cell_spacing()
}

/// The mission of `d` as one JSON object: rooms by role, the critical path (rooms, cells,
/// metres, locks), the key route and its nonlinearity ([`super::Mission::key_route`]),
/// each room's depths, cycles, dead ends, keys and locks, the levels the
/// critical path crosses, and the proof's verdict (`holds`, every failure as text). `None`
/// for a dungeon without an entrance room and a goal room in its room table and without
/// locks or keys.
#[must_use]
pub fn report(d: &Dungeon) -> Option<Value> {
    let m = mission(d);
    if m.is_none() && !d.has_mission() {
        return None;
    }
    let verdict = verify(d);
    let roles: serde_json::Map<String, Value> = RoomRole::ALL
        .iter()
        .map(|&role| (role, d.rooms().iter().filter(|r| r.role == role).count()))
        .filter(|&(_, n)| n > 0)
        .map(|(role, n)| (role.name().to_string(), json!(n)))
        .collect();
    let name = |id: crate::dungeon::RoomId| d.rooms()[usize::from(id.0)].name.clone();
    let mut v = json!({
        "holds": verdict.holds(),
        "failures": verdict.failures.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "rooms_by_role": roles,
        "critical_path": {
            "cells": verdict.critical_path.iter().map(|&p| cell(p)).collect::<Vec<_>>(),
            "metres": (critical_metres(d, &verdict) * 100.0).round() / 100.0,
            "locks": verdict.critical_locks,
        },
        "locks": d.locks().map(|l| json!({ "lock": l.id, "level": l.level, "edge": l.edge.to_string() })).collect::<Vec<_>>(),
        "keys": d.keys().map(|(id, p)| json!({ "lock": id, "at": cell(p) })).collect::<Vec<_>>(),
    });
    if let Some(m) = m {
        v["critical_path"]["rooms"] = json!(m.critical_path.iter().map(|&r| name(r)).collect::<Vec<_>>());
        v["key_route"] = json!({
            "rooms": m.key_route.iter().map(|&r| name(r)).collect::<Vec<_>>(),
            "nonlinearity": m.nonlinearity,
        });
        v["cycles"] = json!(m.cycles);
        v["dead_ends"] = json!(m.dead_ends.iter().map(|&r| name(r)).collect::<Vec<_>>());
        v["levels_crossed"] = json!(m.levels);
        v["depths"] = d
            .rooms()
            .iter()
            .zip(&m.rooms)
            .map(|(room, depth)| {
                json!({
                    "room": room.name,
                    "depth": depth.depth,
                    "normalized": depth.normalized.map(|x| (x * 1000.0).round() / 1000.0),
                    "branch": depth.branch,
                })
            })
            .collect();
    }
    Some(v)
}
