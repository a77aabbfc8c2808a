//! The room-graph spec (`--flow spec.json`, docs/flow.md, docs/flow.schema.json): rooms with
//! a role, size, shape, level and height; connections between them; cycle requests. Parsing
//! checks the spec on its own ([`FlowSpec::check`]); whether it fits a grid is the
//! realisation's question.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::FlowError;
use crate::dungeon::{PassageKind, RoomRole, RoomShape, SizeClass};
use crate::geometry::Proportions;

/// The `format` field of every spec.
pub const FLOW_FORMAT: &str = "octile-flow";

/// The spec version this build reads and writes.
pub const FLOW_VERSION: u32 = 1;

/// Most rooms a spec may have.
pub const MAX_SPEC_ROOMS: usize = 512;

/// A room graph to realise on the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Always [`FLOW_FORMAT`].
    pub format: String,
    /// Always [`FLOW_VERSION`].
    pub version: u32,
    /// The rooms.
    pub rooms: Vec<RoomSpec>,
    /// The connections between rooms.
    #[serde(default)]
    pub connections: Vec<ConnectionSpec>,
    /// Loops asked for: each joins its rooms in a ring (a connection between each room and
    /// the next, and the last and the first, added where the spec has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycles: Vec<CycleSpec>,
}

/// One room of a spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSpec {
    /// The room's id: unique, used by connections and kept as the room's name.
    pub id: String,
    /// What the room is for; absent, the spec leaves it open and [`FlowSpec::check`] places
    /// it by depth (a boss before the goal, treasure at branch ends, hubs where ways meet,
    /// else plain: docs/flow.md, "Roles left open").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<RoomRole>,
    /// Its size: a class name or `[min, max]` octagons.
    #[serde(default)]
    pub size: SizeSpec,
    /// Its outline.
    #[serde(default)]
    pub shape: RoomShape,
    /// Its level, or `[lowest, highest]` levels it may stand on.
    #[serde(default)]
    pub level: LevelSpec,
    /// Floor to ceiling in metres; absent: the dungeon's room height.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Keep the rock pillars between the room's cells standing (a colonnade); by default a
    /// room is one open floor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub columns: bool,
    /// Open the room up through the storey above ([`crate::generate::open_atrium`]): an
    /// atrium, looked into from that storey's floors beside it. Nothing on the top level.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub atrium: bool,
}

/// A room's size in a spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SizeSpec {
    /// One of the size classes.
    Class(SizeClass),
    /// `[min, max]` octagons.
    Range([u32; 2]),
}

impl Default for SizeSpec {
    fn default() -> Self {
        SizeSpec::Class(SizeClass::Medium)
    }
}

impl SizeSpec {
    /// The octagon counts allowed.
    #[must_use]
    pub fn octagons(self) -> (u32, u32) {
        match self {
            SizeSpec::Class(c) => (*c.octagons().start(), *c.octagons().end()),
            SizeSpec::Range([a, b]) => (a, b),
        }
    }

    /// The size class a room of `octagons` octagons falls in.
    #[must_use]
    pub fn class_of(octagons: u32) -> SizeClass {
        SizeClass::ALL.into_iter().find(|c| octagons <= *c.octagons().end()).unwrap_or(SizeClass::Huge)
    }
}

/// A room's level in a spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelSpec {
    /// Exactly this level.
    One(u32),
    /// Any level from the first to the second.
    Range([u32; 2]),
}

impl Default for LevelSpec {
    fn default() -> Self {
        LevelSpec::One(0)
    }
}

impl LevelSpec {
    /// The lowest and highest level allowed.
    #[must_use]
    pub fn bounds(self) -> (u32, u32) {
        match self {
            LevelSpec::One(l) => (l, l),
            LevelSpec::Range([a, b]) => (a, b),
        }
    }
}

/// One connection of a spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSpec {
    /// The room it leaves (for a one-way connection, where it may be walked from; for a
    /// stair, either end).
    pub from: String,
    /// The room it reaches.
    pub to: String,
    /// What kind of way it is.
    #[serde(default)]
    pub kind: PassageKind,
    /// The lock's id, for a locked connection (required there, refused elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<u32>,
}

/// A loop asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CycleSpec {
    /// The rooms of the ring, in order (at least 3).
    pub rooms: Vec<String>,
}

/// A spec checked on its own: rooms by index, every connection (cycles' included) between
/// two of them, each room's level and role decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    /// The rooms, as in the spec but that every `role` is set (those the spec left open
    /// placed by depth: docs/flow.md, "Roles left open").
    pub rooms: Vec<RoomSpec>,
    /// Each room's level.
    pub levels: Vec<u16>,
    /// Each connection as `(from, to, kind, lock)` room indices, the spec's first, then those
    /// the cycles add.
    pub connections: Vec<(usize, usize, PassageKind, Option<u32>)>,
}

impl Flow {
    /// The index of the entrance room.
    ///
    /// # Panics
    /// Never for a flow from [`FlowSpec::check`], which has exactly one.
    #[must_use]
    pub fn entrance(&self) -> usize {
        role_index(&self.rooms, RoomRole::Entrance)
    }

    /// The index of the goal room.
    ///
    /// # Panics
    /// Never for a flow from [`FlowSpec::check`], which has exactly one.
    #[must_use]
    pub fn goal(&self) -> usize {
        role_index(&self.rooms, RoomRole::Goal)
    }

    /// The connections that touch room `room`, as `(the room at their other end, its kind)`,
    /// in the flow's order.
    pub fn neighbours(&self, room: usize) -> impl Iterator<Item = (usize, PassageKind)> + '_ {
        self.connections.iter().filter_map(move |&(a, b, kind, _)| match (a == room, b == room) {
            (true, _) => Some((b, kind)),
            (_, true) => Some((a, kind)),
            _ => None,
        })
    }

    /// Levels the rooms stand on: one more than the highest.
    #[must_use]
    pub fn level_count(&self) -> u32 {
        self.levels.iter().map(|&l| u32::from(l) + 1).max().unwrap_or(1)
    }
}

impl FlowSpec {
    /// Parses a spec from JSON.
    ///
    /// # Errors
    /// [`FlowError::Json`] for text that is not a spec (with line and column),
    /// [`FlowError::Format`] for another kind of file or version.
    pub fn from_json(text: &str) -> Result<FlowSpec, FlowError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        #[derive(Deserialize)]
        struct Header {
            format: Option<String>,
            version: Option<u32>,
        }
        let json = |e: serde_json::Error| FlowError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        };
        let header: Header = serde_json::from_str(text).map_err(json)?;
        if header.format.as_deref() != Some(FLOW_FORMAT) || header.version != Some(FLOW_VERSION) {
            return Err(FlowError::Format { format: header.format, version: header.version });
        }
        serde_json::from_str(text).map_err(json)
    }

    /// The spec as pretty JSON (what `octile flow --example` prints), ending in a newline.
    ///
    /// # Panics
    /// Never: a spec is plain data.
    #[must_use]
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("invariant: plain data serialises");
        crate::format::to_pretty(&value)
    }

    /// Checks the spec on its own and decides each room's level.
    ///
    /// # Errors
    /// [`FlowError::Spec`] naming the room or connection at fault: no rooms or too many, an
    /// empty or repeated id, not exactly one entrance and one goal, a size or height out of
    /// range, a connection to no room or to itself, a lock on a connection that is not
    /// locked (or a locked one without), a stair between rooms not on adjacent levels or
    /// another connection between rooms on different levels, a cycle of fewer than 3 rooms,
    /// rooms no connection reaches from the entrance.
    pub fn check(&self, proportions: &Proportions) -> Result<Flow, FlowError> {
        let spec = |element: String, why: String| FlowError::Spec { element, why };
        if self.rooms.is_empty() || self.rooms.len() > MAX_SPEC_ROOMS {
            return Err(spec(
                "rooms".into(),
                format!("a spec has 1 to {MAX_SPEC_ROOMS} rooms, this one {}", self.rooms.len()),
            ));
        }
        let mut index = BTreeMap::new();
        for (i, room) in self.rooms.iter().enumerate() {
            let element = format!("room {:?}", room.id);
            if room.id.trim().is_empty() {
                return Err(spec(format!("room {}", i + 1), "has an empty id".into()));
            }
            if index.insert(room.id.as_str(), i).is_some() {
                return Err(spec(element, "the id is used by an earlier room".into()));
            }
            let (lo, hi) = room.size.octagons();
            if lo < 1 || lo > hi || hi > 64 {
                return Err(spec(
                    element,
                    format!("size [{lo}, {hi}]: octagons from 1 to 64, the first not above the second"),
                ));
            }
            let (a, b) = room.level.bounds();
            if a > b || b >= crate::dungeon::MAX_LEVELS {
                return Err(spec(
                    element,
                    format!(
                        "level [{a}, {b}]: the first not above the second, below {}",
                        crate::dungeon::MAX_LEVELS
                    ),
                ));
            }
            if let Some(h) = room.height {
                let (min, max) = (2.5, proportions.layer_height - 1.0);
                if !(min..=max).contains(&h) {
                    return Err(spec(
                        element,
                        format!(
                            "height {h} m: a room is {min} m to {max} m tall (the level height less 1 m of slab)"
                        ),
                    ));
                }
            }
        }
        for role in [RoomRole::Entrance, RoomRole::Goal] {
            let count = self.rooms.iter().filter(|r| r.role == Some(role)).count();
            if count != 1 {
                return Err(spec(
                    "rooms".into(),
                    format!("a spec has exactly one {role} room, this one {count}"),
                ));
            }
        }
        let room = |name: &str, element: &str| {
            index.get(name).copied().ok_or_else(|| {
                spec(element.to_string(), format!("names room {name:?}, which the spec does not have"))
            })
        };
        let mut connections = Vec::new();
        for (i, c) in self.connections.iter().enumerate() {
            let element = format!("connection {} ({} -> {})", i + 1, c.from, c.to);
            let (a, b) = (room(&c.from, &element)?, room(&c.to, &element)?);
            if a == b {
                return Err(spec(element, "joins a room to itself".into()));
            }
            match (c.kind, c.lock) {
                (PassageKind::Locked, None) => {
                    return Err(spec(element, "is locked but has no `lock` id".into()));
                }
                (k, Some(_)) if k != PassageKind::Locked => {
                    return Err(spec(element, format!("has a `lock` id but is {k}, not locked")));
                }
                _ => {}
            }
            connections.push((a, b, c.kind, c.lock));
        }
        for (i, cycle) in self.cycles.iter().enumerate() {
            let element = format!("cycle {}", i + 1);
            if cycle.rooms.len() < 3 {
                return Err(spec(
                    element,
                    format!("a cycle joins at least 3 rooms, this one {}", cycle.rooms.len()),
                ));
            }
            let ids: Vec<usize> = cycle.rooms.iter().map(|n| room(n, &element)).collect::<Result<_, _>>()?;
            for k in 0..ids.len() {
                let (a, b) = (ids[k], ids[(k + 1) % ids.len()]);
                if a == b {
                    return Err(spec(element, format!("lists room {:?} twice in a row", self.rooms[a].id)));
                }
                let joined = connections.iter().any(|&(x, y, _, _)| (x, y) == (a, b) || (x, y) == (b, a));
                if !joined {
                    connections.push((a, b, PassageKind::Door, None));
                }
            }
        }
        // A way round a lock is made one-way, walked from behind it (docs/flow.md, "No way
        // round a lock"); the entrance room was checked above.
        if let Some(entrance) = self.rooms.iter().position(|r| r.role == Some(RoomRole::Entrance)) {
            super::guard::guard_locks(self.rooms.len(), entrance, &mut connections);
        }
        let levels = decide_levels(self, &connections)?;
        let mut rooms = self.rooms.clone();
        let (entrance, goal) = (role_index(&rooms, RoomRole::Entrance), role_index(&rooms, RoomRole::Goal));
        super::roles::place_open_roles(&mut rooms, &connections, entrance, goal);
        Ok(Flow { rooms, levels, connections })
    }
}

/// The index of the one room of `role` among `rooms` (the entrance or the goal, of which a
/// checked spec has exactly one).
fn role_index(rooms: &[RoomSpec], role: RoomRole) -> usize {
    rooms.iter().position(|r| r.role == Some(role)).expect("invariant: checked")
}

/// Each room's level: rooms joined by anything but a stair share a level, a stair climbs one;
/// each room takes the lowest level its own range and its neighbours allow, walking the
/// graph from the entrance.
fn decide_levels(
    spec: &FlowSpec,
    connections: &[(usize, usize, PassageKind, Option<u32>)],
) -> Result<Vec<u16>, FlowError> {
    let n = spec.rooms.len();
    let mut level: Vec<Option<u32>> = vec![None; n];
    let entrance = role_index(&spec.rooms, RoomRole::Entrance);
    level[entrance] = Some(spec.rooms[entrance].level.bounds().0);
    let mut queue = std::collections::VecDeque::from([entrance]);
    while let Some(a) = queue.pop_front() {
        let la = level[a].expect("invariant: queued rooms have levels");
        for &(x, y, kind, _) in connections {
            let b = match (x == a, y == a) {
                (true, _) => y,
                (_, true) => x,
                _ => continue,
            };
            if level[b].is_some() {
                continue;
            }
            let (lo, hi) = spec.rooms[b].level.bounds();
            let wanted: &[u32] =
                if kind == PassageKind::Stair { &[la + 1, la.wrapping_sub(1)] } else { &[la] };
            level[b] = Some(wanted.iter().copied().find(|l| (lo..=hi).contains(l)).unwrap_or(lo));
            queue.push_back(b);
        }
    }
    if let Some(lost) = level.iter().position(Option::is_none) {
        return Err(FlowError::Spec {
            element: format!("room {:?}", spec.rooms[lost].id),
            why: "no connection leads to it from the entrance".into(),
        });
    }
    let level: Vec<u32> = level.into_iter().map(|l| l.expect("invariant: all set")).collect();
    for (i, &(a, b, kind, _)) in connections.iter().enumerate() {
        let (la, lb) = (level[a], level[b]);
        let element = format!("connection {} ({} -> {})", i + 1, spec.rooms[a].id, spec.rooms[b].id);
        if kind == PassageKind::Stair && la.abs_diff(lb) != 1 {
            return Err(FlowError::Spec {
                element,
                why: format!("a stair joins adjacent levels; the rooms are on levels {la} and {lb}"),
            });
        }
        if kind != PassageKind::Stair && la != lb {
            return Err(FlowError::Spec {
                element,
                why: format!("joins rooms on levels {la} and {lb}; only a stair joins two levels"),
            });
        }
    }
    for (r, &l) in spec.rooms.iter().zip(&level) {
        let (lo, hi) = r.level.bounds();
        if !(lo..=hi).contains(&l) {
            return Err(FlowError::Spec {
                element: format!("room {:?}", r.id),
                why: format!("its connections put it on level {l}, outside its levels {lo} to {hi}"),
            });
        }
    }
    let used: Vec<bool> =
        (0..=level.iter().copied().max().unwrap_or(0)).map(|l| level.contains(&l)).collect();
    if let Some(empty) = used.iter().position(|&u| !u) {
        return Err(FlowError::Spec {
            element: "rooms".into(),
            why: format!("no room stands on level {empty}, between rooms below and above it"),
        });
    }
    Ok(level.into_iter().map(|l| l as u16).collect())
}
