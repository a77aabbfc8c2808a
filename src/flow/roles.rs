//! Roles a spec leaves open, placed by depth on the spec's room graph (docs/flow.md, "Roles
//! left open"): a boss before the goal, treasure at the ends of branches, hubs where ways
//! meet, plain rooms elsewhere. The depths are the mission layer's ([`super::mission`]),
//! measured on the spec before it is realised.

use super::mission::spec_shape;
use crate::dungeon::{PassageKind, RoomRole};
use crate::flow::RoomSpec;

/// Connections that meet in a room for it to be a hub, in the grammars and for a room whose
/// role a spec leaves open.
pub(crate) const HUB_DEGREE: usize = 4;

/// Least normalized depth (0 at the entrance, 1 at the goal) of a room that becomes the boss
/// room when a spec leaves roles open and names no boss.
pub const BOSS_MIN_DEPTH: f64 = 0.8;

/// Gives every room of `rooms` whose role is open (`None`) one, on the graph of
/// `connections` from `entrance` to `goal`:
///
/// - when no room is the boss's, the open room joined to the goal at the greatest normalized
///   depth, at least [`BOSS_MIN_DEPTH`], is the boss room (ties: the first);
/// - an open room off the critical path with one connection (a branch's end) is a treasure
///   room;
/// - an open room where [`HUB_DEGREE`] or more connections meet is a hub;
/// - any other open room is plain.
pub(crate) fn place_open_roles(
    rooms: &mut [RoomSpec],
    connections: &[(usize, usize, PassageKind, Option<u32>)],
    entrance: usize,
    goal: usize,
) {
    if rooms.iter().all(|r| r.role.is_some()) {
        return;
    }
    let shape = spec_shape(rooms.len(), connections, entrance, goal);
    let joined_to_goal =
        |r: usize| connections.iter().any(|&(a, b, _, _)| (a, b) == (r, goal) || (a, b) == (goal, r));
    if !rooms.iter().any(|r| r.role == Some(RoomRole::Boss)) {
        let boss = (0..rooms.len())
            .filter(|&r| rooms[r].role.is_none() && joined_to_goal(r))
            .filter_map(|r| shape.depths[r].normalized.map(|d| (r, d)))
            .filter(|&(_, d)| d >= BOSS_MIN_DEPTH)
            .fold(None, |best: Option<(usize, f64)>, (r, d)| match best {
                Some((_, b)) if b >= d => best,
                _ => Some((r, d)),
            });
        if let Some((r, _)) = boss {
            rooms[r].role = Some(RoomRole::Boss);
        }
    }
    for (r, room) in rooms.iter_mut().enumerate() {
        if room.role.is_some() {
            continue;
        }
        room.role = Some(if !shape.on_path[r] && shape.degree[r] == 1 {
            RoomRole::Treasure
        } else if shape.degree[r] >= HUB_DEGREE {
            RoomRole::Hub
        } else {
            RoomRole::Plain
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::FlowSpec;

    /// A spec of `rooms` (id, role given or open) joined by `links` (from, to), all on one
    /// level, checked.
    fn checked(rooms: &[(&str, Option<&str>)], links: &[(&str, &str)]) -> crate::flow::Flow {
        let rooms: Vec<serde_json::Value> = rooms
            .iter()
            .map(|(id, role)| match role {
                Some(role) => serde_json::json!({ "id": id, "role": role }),
                None => serde_json::json!({ "id": id }),
            })
            .collect();
        let connections: Vec<serde_json::Value> =
            links.iter().map(|(a, b)| serde_json::json!({ "from": a, "to": b })).collect();
        let json = serde_json::json!({ "format": "octile-flow", "version": 1, "rooms": rooms, "connections": connections });
        FlowSpec::from_json(&json.to_string()).unwrap().check(&Default::default()).unwrap()
    }

    fn role_of(flow: &crate::flow::Flow, id: &str) -> RoomRole {
        flow.rooms.iter().find(|r| r.id == id).and_then(|r| r.role).unwrap()
    }

    /// A main path of six rooms to the goal, a hub on it with two branches: the room before
    /// the goal (normalized depth 0.8) is the boss's, the branches' ends are treasure, the
    /// room where four ways meet is a hub, the rest plain; set roles are kept.
    #[test]
    fn open_roles_are_placed_by_depth() {
        let rooms = [
            ("gate", Some("entrance")),
            ("yard", None),
            ("cross", None),
            ("nave", None),
            ("apse", None),
            ("altar", Some("goal")),
            ("vestry", None),
            ("crypt-stair", None),
            ("bone-pit", None),
            ("well", Some("plain")),
        ];
        let links = [
            ("gate", "yard"),
            ("yard", "cross"),
            ("cross", "nave"),
            ("nave", "apse"),
            ("apse", "altar"),
            ("cross", "vestry"),
            ("cross", "crypt-stair"),
            ("crypt-stair", "bone-pit"),
            ("yard", "well"),
        ];
        let flow = checked(&rooms, &links);
        assert!(flow.rooms.iter().all(|r| r.role.is_some()), "every role decided");
        assert_eq!(role_of(&flow, "apse"), RoomRole::Boss, "at 4/5 = 0.8, joined to the goal");
        assert_eq!(role_of(&flow, "vestry"), RoomRole::Treasure, "a branch's end");
        assert_eq!(role_of(&flow, "bone-pit"), RoomRole::Treasure, "the end of a two-room branch");
        assert_eq!(role_of(&flow, "crypt-stair"), RoomRole::Plain, "inside a branch");
        assert_eq!(role_of(&flow, "cross"), RoomRole::Hub, "four ways meet");
        assert_eq!(role_of(&flow, "yard"), RoomRole::Plain, "three ways: not a hub");
        assert_eq!(role_of(&flow, "well"), RoomRole::Plain, "a set role is kept, even at a branch's end");
        assert_eq!(role_of(&flow, "nave"), RoomRole::Plain);
    }

    /// No boss where the spec names one, nor where the room before the goal is shallower
    /// than [`BOSS_MIN_DEPTH`]; the critical path's rooms are never treasure.
    #[test]
    fn a_boss_only_deep_and_only_when_the_spec_names_none() {
        let short = checked(
            &[("in", Some("entrance")), ("a", None), ("b", None), ("out", Some("goal"))],
            &[("in", "a"), ("a", "b"), ("b", "out")],
        );
        // b stands at 2/3 < 0.8.
        assert_eq!(role_of(&short, "b"), RoomRole::Plain);
        assert_eq!(role_of(&short, "a"), RoomRole::Plain, "on the critical path: not a branch's end");
        let named = checked(
            &[
                ("in", Some("entrance")),
                ("a", None),
                ("b", None),
                ("c", None),
                ("d", None),
                ("lair", Some("boss")),
                ("out", Some("goal")),
            ],
            &[("in", "a"), ("a", "b"), ("b", "c"), ("c", "d"), ("d", "out"), ("a", "lair")],
        );
        assert_eq!(role_of(&named, "d"), RoomRole::Plain, "the spec has its boss");
        assert_eq!(role_of(&named, "lair"), RoomRole::Boss);
    }
}
