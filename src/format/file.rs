//! Reading and writing the versioned JSON dungeon file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{FormatError, Problem};
use crate::dungeon::{Dungeon, DungeonError, EdgeDef, PillarState, Registry, TileDef};
use crate::geometry::Proportions;
use crate::grid::{ConnectorWall, Direction, EdgeId, Grid, PillarId, Pos, Slot, SlotKind};

/// The `format` field of every dungeon file.
pub const FORMAT_NAME: &str = "octile-dungeon";
/// The newest file version; this build reads every version from 1. Version 2 added
/// `pins`, version 3 `rooms`, `passages`, `open_pillars` and `heights`. A file is written as
/// the oldest version that holds what it has: version 1 without pins, rooms, open pillars or
/// room heights (the same bytes as before any existed, readable by older builds), version 2
/// with pins only. Version 4 added `locks`, `keys` and edge states with a `mechanism`
/// (locked, one-way and secret doors); only a dungeon with them is written as version 4.
/// Version 5 added `ramps`; only a dungeon with ramps is written as version 5.
pub const FORMAT_VERSION: u32 = 5;

/// The version written for a dungeon without pins, rooms, open pillars or room heights.
const VERSION_WITHOUT_PINS: u32 = 1;

/// The version that added `pins`.
const VERSION_WITH_PINS: u32 = 2;

/// The version that added `rooms`, `passages`, `open_pillars` and `heights`.
const VERSION_3: u32 = 3;

/// The version that added `locks`, `keys` and mission door states.
const VERSION_4: u32 = 4;

/// The version that added `ramps`.
const VERSION_5: u32 = 5;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DungeonFile {
    format: String,
    version: u32,
    /// `[cols, rows]` of octagons.
    #[serde(deserialize_with = "octagons")]
    octagons: [u32; 2],
    levels: u32,
    proportions: Proportions,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default, deserialize_with = "marker")]
    entrance: Option<[u32; 3]>,
    #[serde(default, deserialize_with = "marker")]
    exit: Option<[u32; 3]>,
    /// Pinned cells, `[level, row, col]` each, level by level, row-major (version 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "pin_list")]
    pins: Vec<[u32; 3]>,
    /// Cells with a room height of their own, `[level, row, col, metres]` each, level by
    /// level, row-major (version 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "height_list")]
    heights: Vec<HeightEntry>,
    /// The room table's rooms (version 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rooms: Vec<super::rooms::RoomEntry>,
    /// The room table's passages (version 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    passages: Vec<super::rooms::PassageEntry>,
    /// Open pillars, level by level in the grid's pillar order (version 3); every other
    /// pillar is a column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    open_pillars: Vec<OpenPillar>,
    /// Lock ids of locked doors (version 4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    locks: Vec<super::mission::LockEntry>,
    /// Where each lock's key lies (version 4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    keys: Vec<super::mission::KeyEntry>,
    /// Ramps, each by its foot and the wall it rises through (version 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    ramps: Vec<RampEntry>,
    tiles: Vec<TileDef>,
    edges: Vec<EdgeDef>,
    plan: Vec<LevelPlan>,
}

/// One open pillar: its level, its connector's slot and the tip it sits at (`N`, `E`, `S`,
/// `W`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenPillar {
    level: u32,
    row: u32,
    col: u32,
    tip: String,
}

/// One ramp: the level, row and column of its foot and the long wall it rises through
/// (`N`, `E`, `S`, `W`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RampEntry {
    level: u32,
    row: u32,
    col: u32,
    dir: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelPlan {
    level: u32,
    /// One string per slot row: tile symbols on cells, long-edge symbols on Void slots.
    slots: Vec<String>,
    /// One string per connector row: four edge symbols (TL TR BR BL) per connector,
    /// connectors separated by a space.
    short_edges: Vec<String>,
}

/// The dungeon as pretty-printed JSON (the bytes [`save`] writes, ending in a newline).
///
/// # Panics
/// Never: it reads only the dungeon's own levels and edges, and plain data serialises.
#[must_use]
pub fn to_json(dungeon: &Dungeon) -> String {
    let dims = dungeon.dims();
    let reg = dungeon.registry();
    let plan = (0..dungeon.levels())
        .map(|level| {
            let tiles = dungeon.tile_layer(level).expect("invariant: level exists");
            let edges = dungeon.edge_layer(level).expect("invariant: level exists");
            let edge_symbol =
                |e: EdgeId| reg.edges()[usize::from(edges[dims.edge_index(e).expect("invariant")].0)].symbol;
            let slots = (0..dims.rows())
                .map(|row| {
                    (0..dims.cols())
                        .map(|col| {
                            let slot = Slot::new(row, col);
                            match slot.kind() {
                                SlotKind::Void => edge_symbol(EdgeId::Long(slot)),
                                _ => reg.tiles()[usize::from(tiles.get(slot).expect("invariant").0)].symbol,
                            }
                        })
                        .collect()
                })
                .collect();
            let short_edges = (0..dims.rows())
                .filter(|r| r & 1 == 1)
                .map(|row| {
                    (0..dims.cols())
                        .filter(|c| c & 1 == 1)
                        .map(|col| {
                            ConnectorWall::ALL
                                .iter()
                                .map(|w| edge_symbol(EdgeId::Short(Slot::new(row, col), *w)))
                                .collect::<String>()
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            LevelPlan { level: u32::from(level), slots, short_edges }
        })
        .collect();
    let marker = |p: Option<Pos>| p.map(|p| [u32::from(p.level), p.slot.row, p.slot.col]);
    let pins: Vec<[u32; 3]> = dungeon.pinned().filter_map(|p| marker(Some(p))).collect();
    let heights: Vec<HeightEntry> = dungeon
        .room_heights_set()
        .map(|(p, h)| HeightEntry {
            cell: [u32::from(p.level), p.slot.row, p.slot.col],
            metres: h.to_metres(),
        })
        .collect();
    let (rooms, passages) = super::rooms::room_entries(dungeon);
    let open_pillars: Vec<OpenPillar> = dungeon
        .open_pillars()
        .map(|(level, p)| OpenPillar {
            level: u32::from(level),
            row: p.connector().row,
            col: p.connector().col,
            tip: p.tip().name().into(),
        })
        .collect();
    let (locks, keys) = super::mission::mission_entries(dungeon);
    let mission_states = reg.edges().iter().any(|e| e.mechanism.is_some());
    let ramps: Vec<RampEntry> = dungeon
        .ramps()
        .iter()
        .map(|r| RampEntry {
            level: u32::from(r.level),
            row: r.foot.row,
            col: r.foot.col,
            dir: r.dir.name().into(),
        })
        .collect();
    let version = if !ramps.is_empty() {
        VERSION_5
    } else if !locks.is_empty() || !keys.is_empty() || mission_states {
        VERSION_4
    } else if !open_pillars.is_empty() || !rooms.is_empty() || !heights.is_empty() {
        VERSION_3
    } else if !pins.is_empty() {
        VERSION_WITH_PINS
    } else {
        VERSION_WITHOUT_PINS
    };
    let file = DungeonFile {
        format: FORMAT_NAME.into(),
        version,
        octagons: [dims.octagon_cols(), dims.octagon_rows()],
        levels: u32::from(dungeon.levels()),
        proportions: *dungeon.proportions(),
        seed: dungeon.seed(),
        entrance: marker(dungeon.entrance()),
        exit: marker(dungeon.exit()),
        pins,
        heights,
        rooms,
        passages,
        open_pillars,
        locks,
        keys,
        ramps,
        tiles: reg.tiles().to_vec(),
        edges: reg.edges().to_vec(),
        plan,
    };
    let value = serde_json::to_value(&file).expect("invariant: plain data serialises");
    super::pretty::to_pretty(&value)
}

/// Parses a dungeon file; every problem in the plan is reported at once.
///
/// # Errors
/// [`FormatError`]: not JSON (with line and column), not an octile dungeon, a missing or
/// unsupported version, bad proportions or registry, a plan of the wrong shape, or the
/// list of every problem in the plan and its stairs and markers (level, row and column).
pub fn from_json(text: &str) -> Result<Dungeon, FormatError> {
    // Check the header first so that another kind of file gets a clear message.
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        version: Option<u32>,
    }
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let header: Header = serde_json::from_str(text).map_err(json_err)?;
    match header.format {
        Some(f) if f == FORMAT_NAME => {}
        other => return Err(FormatError::NotADungeon { found: other.unwrap_or_default() }),
    }
    match header.version {
        Some(1..=FORMAT_VERSION) => {}
        Some(found) => return Err(FormatError::Version { found, supported: FORMAT_VERSION }),
        None => return Err(FormatError::NoVersion { supported: FORMAT_VERSION }),
    }
    let file: DungeonFile = serde_json::from_str(text).map_err(json_err)?;
    build(file)
}

/// A serde_json error as [`FormatError::Json`], its position said once (serde_json's
/// message ends with it too).
fn json_err(e: serde_json::Error) -> FormatError {
    let (line, column) = (e.line(), e.column());
    let mut message = e.to_string();
    if let Some(kept) = message.strip_suffix(&format!(" at line {line} column {column}")).map(str::len) {
        message.truncate(kept);
    }
    FormatError::Json { line, column, message: plain_words(&message) }
}

/// The file's parts by the Rust type serde names them with, as docs/format.md names them.
const PARTS: [(&str, &str); 14] = [
    ("struct RoomEntry", "a room object (name, role, shape, size, level, height, cells)"),
    ("struct PassageEntry", "a passage object (from, to, kind, lock)"),
    ("struct DungeonFile", "the dungeon object"),
    ("struct OpenPillar", "an open pillar object (level, row, col, tip)"),
    ("struct LevelPlan", "a level plan object (level, slots, short_edges)"),
    ("struct TileDef", "a tile object (name, symbol, carved, stair, walkable, ...)"),
    ("struct EdgeDef", "an edge state object (name, symbol, carve, walkable, ...)"),
    ("struct Proportions", "the proportions object (base, cut_ratio, ...)"),
    ("enum Carve", "a carve name"),
    ("expected u8", "expected a whole number from 0 to 255"),
    ("expected u16", "expected a whole number from 0 to 65535"),
    ("expected u32", "expected a whole number from 0 to 4294967295"),
    ("expected u64", "expected a whole number"),
    ("expected f64", "expected a number"),
];

/// serde's message with the Rust type names it leaks (`expected struct TileDef`) replaced
/// by what the file calls that part.
fn plain_words(message: &str) -> String {
    PARTS.iter().fold(message.to_string(), |m, (rust, words)| m.replace(rust, words))
}

/// Deserialises a fixed-length list of numbers (an entrance, exit or size), saying how many
/// numbers were found and what they stand for when the count is wrong (serde_json's own
/// message for a long array is "trailing characters").
fn exact<'de, D, const N: usize>(de: D, what: &'static str) -> Result<[u32; N], D::Error>
where
    D: serde::Deserializer<'de>,
{
    let numbers = Vec::<u32>::deserialize(de)?;
    let found = numbers.len();
    numbers.try_into().map_err(|_| serde::de::Error::invalid_length(found, &what))
}

fn octagons<'de, D: serde::Deserializer<'de>>(de: D) -> Result<[u32; 2], D::Error> {
    exact(de, "2 numbers: [cols, rows] of octagons")
}

fn marker<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<[u32; 3]>, D::Error> {
    Option::<Marker>::deserialize(de).map(|m| m.map(|m| m.0))
}

fn pin_list<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<[u32; 3]>, D::Error> {
    Vec::<Marker>::deserialize(de).map(|pins| pins.into_iter().map(|m| m.0).collect())
}

/// An entrance or exit: `[level, row, col]`.
struct Marker([u32; 3]);

fn height_list<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<HeightEntry>, D::Error> {
    Vec::<HeightEntry>::deserialize(de)
}

/// One cell's room height: `[level, row, col, metres]`.
struct HeightEntry {
    cell: [u32; 3],
    metres: f64,
}

impl Serialize for HeightEntry {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let [level, row, col] = self.cell;
        (level, row, col, self.metres).serialize(ser)
    }
}

impl<'de> Deserialize<'de> for HeightEntry {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let numbers = Vec::<serde_json::Number>::deserialize(de)?;
        let what = &"4 numbers: [level, row, col, metres]";
        let found = numbers.len();
        let [level, row, col, metres]: [serde_json::Number; 4] =
            numbers.try_into().map_err(|_| serde::de::Error::invalid_length(found, what))?;
        let whole = |n: &serde_json::Number| {
            n.as_u64().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
                serde::de::Error::custom(format!("{n} in {what} is not a whole number from 0 to 4294967295"))
            })
        };
        let cell = [whole(&level)?, whole(&row)?, whole(&col)?];
        let metres =
            metres.as_f64().ok_or_else(|| serde::de::Error::custom(format!("{metres} is not a number")))?;
        Ok(HeightEntry { cell, metres })
    }
}

impl<'de> Deserialize<'de> for Marker {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        exact(de, "3 numbers: [level, row, col]").map(Marker)
    }
}

fn build(file: DungeonFile) -> Result<Dungeon, FormatError> {
    let [cols, rows] = file.octagons;
    let registry = Registry::from_defs(file.tiles, file.edges).map_err(FormatError::Header)?;
    let dims = Dungeon::check_shape(cols, rows, file.levels).map_err(FormatError::Header)?;
    file.proportions.validate().map_err(|e| FormatError::Header(e.into()))?;
    // The plan's shape is checked before any layer is allocated: a tiny file may declare a
    // huge grid. A plan of the right shape holds a character per slot, so the layers are
    // then no larger than the file.
    let problems = plan_shape_problems(&file.plan, file.levels, dims);
    if !problems.is_empty() {
        return Err(FormatError::Invalid { problems });
    }
    let mut problems = Vec::new();
    let mut tiles = Vec::new();
    let mut edges = Vec::new();
    for (l, plan) in file.plan.iter().enumerate() {
        let level = l as u16;
        let mut tile_layer = Grid::filled(dims, crate::dungeon::TileId(0));
        let mut edge_layer = vec![crate::dungeon::EdgeStateId(0); dims.edge_index_len()];
        for (r, line) in plan.slots.iter().enumerate() {
            let row = r as u32;
            for (c, symbol) in line.chars().enumerate() {
                let slot = Slot::new(row, c as u32);
                if slot.kind() == SlotKind::Void {
                    match registry.edge_by_symbol(symbol) {
                        Some(e) => edge_layer[dims.edge_index(EdgeId::Long(slot)).expect("invariant")] = e,
                        None => problems.push(Problem::UnknownEdge {
                            level,
                            row,
                            col: slot.col,
                            wall: None,
                            symbol,
                        }),
                    }
                } else {
                    match registry.tile_by_symbol(symbol) {
                        Some(t) => *tile_layer.get_mut(slot).expect("invariant") = t,
                        None => problems.push(Problem::UnknownTile { level, row, col: slot.col, symbol }),
                    }
                }
            }
        }
        for (i, line) in plan.short_edges.iter().enumerate() {
            let row = 2 * i as u32 + 1;
            let groups = line.split(' ').filter(|g| !g.is_empty());
            for (j, group) in groups.enumerate() {
                let conn = Slot::new(row, 2 * j as u32 + 1);
                for (w, symbol) in ConnectorWall::ALL.iter().zip(group.chars()) {
                    match registry.edge_by_symbol(symbol) {
                        Some(e) => {
                            edge_layer[dims.edge_index(EdgeId::Short(conn, *w)).expect("invariant")] = e
                        }
                        None => problems.push(Problem::UnknownEdge {
                            level,
                            row,
                            col: conn.col,
                            wall: Some(w.name()),
                            symbol,
                        }),
                    }
                }
            }
        }
        tiles.push(tile_layer);
        edges.push(edge_layer);
    }
    let mut dungeon =
        Dungeon::from_parts(dims, file.proportions, registry, tiles, edges).map_err(FormatError::Header)?;
    let to_pos = |p: [u32; 3]| Pos::new(u16::try_from(p[0]).unwrap_or(u16::MAX), p[1], p[2]);
    let mut marker_problems = Vec::new();
    if let Err(cause) = dungeon.set_entrance(file.entrance.map(to_pos)) {
        marker_problems.push(Problem::BadMarker { what: "entrance", cause });
    }
    if let Err(cause) = dungeon.set_exit(file.exit.map(to_pos)) {
        marker_problems.push(Problem::BadMarker { what: "exit", cause });
    }
    if file.version < VERSION_WITH_PINS && !file.pins.is_empty() {
        marker_problems.push(Problem::PinsNeedVersion2 { count: file.pins.len() });
    }
    for pin in file.pins.iter().copied().map(to_pos) {
        if let Err(cause) = dungeon.set_pinned(pin, true) {
            marker_problems.push(Problem::BadMarker { what: "pin", cause });
        }
    }
    if file.version < VERSION_3 && !file.heights.is_empty() {
        marker_problems
            .push(Problem::HeightsNeedVersion3 { count: file.heights.len(), version: file.version });
    }
    for entry in &file.heights {
        if let Err(cause) = dungeon.set_room_height(to_pos(entry.cell), entry.metres) {
            marker_problems.push(Problem::BadMarker { what: "height", cause });
        }
    }
    if file.version < VERSION_3 && !(file.rooms.is_empty() && file.passages.is_empty()) {
        marker_problems.push(Problem::RoomsNeedVersion3 { count: file.rooms.len() + file.passages.len() });
    }
    marker_problems.extend(super::rooms::add_rooms(&mut dungeon, file.rooms, file.passages));
    if file.version < VERSION_3 && !file.open_pillars.is_empty() {
        marker_problems
            .push(Problem::PillarsNeedVersion3 { count: file.open_pillars.len(), version: file.version });
    }
    for entry in &file.open_pillars {
        if let Err(why) = open_pillar(&mut dungeon, entry) {
            let OpenPillar { level, row, col, .. } = *entry;
            marker_problems.push(Problem::BadPillar { level, row, col, tip: entry.tip.clone(), why });
        }
    }
    let mission = file.locks.len()
        + file.keys.len()
        + dungeon.registry().edges().iter().filter(|e| e.mechanism.is_some()).count();
    if file.version < VERSION_4 && mission > 0 {
        marker_problems.push(Problem::MissionNeedsVersion4 { count: mission, version: file.version });
    }
    marker_problems.extend(super::mission::add_mission(&mut dungeon, &file.locks, &file.keys));
    if file.version < VERSION_5 && !file.ramps.is_empty() {
        marker_problems.push(Problem::RampsNeedVersion5 { count: file.ramps.len(), version: file.version });
    }
    for entry in &file.ramps {
        if let Err(why) = add_ramp(&mut dungeon, entry) {
            let RampEntry { level, row, col, .. } = *entry;
            marker_problems.push(Problem::BadRamp { level, row, col, why });
        }
    }
    dungeon.set_seed(file.seed);
    // After the markers are set: a marker on rock is one of the dungeon's problems.
    problems.extend(dungeon.problems().into_iter().map(Problem::Dungeon));
    problems.extend(marker_problems);
    if problems.is_empty() { Ok(dungeon) } else { Err(FormatError::Invalid { problems }) }
}

/// Adds the ramp `entry` names, or says why it cannot be added.
fn add_ramp(dungeon: &mut Dungeon, entry: &RampEntry) -> Result<(), String> {
    let level = u16::try_from(entry.level)
        .ok()
        .filter(|&l| l < dungeon.levels())
        .ok_or_else(|| format!("the dungeon has {} levels", dungeon.levels()))?;
    let dir = Direction::CARDINALS.into_iter().find(|d| d.name() == entry.dir);
    let dir = dir.ok_or_else(|| "the direction must be one of \"N\", \"E\", \"S\", \"W\"".to_string())?;
    let foot = Slot::new(entry.row, entry.col);
    dungeon.add_ramp(crate::dungeon::Ramp { level, foot, dir }).map_err(|e| e.to_string())
}

/// Opens the pillar `entry` names, or says why it cannot be open.
fn open_pillar(dungeon: &mut Dungeon, entry: &OpenPillar) -> Result<(), String> {
    let level = u16::try_from(entry.level)
        .ok()
        .filter(|&l| l < dungeon.levels())
        .ok_or_else(|| format!("the dungeon has {} levels", dungeon.levels()))?;
    let tip = Direction::CARDINALS.into_iter().find(|d| d.name() == entry.tip);
    let tip = tip.ok_or_else(|| "the tip must be one of \"N\", \"E\", \"S\", \"W\"".to_string())?;
    let pillar = PillarId::new(Slot::new(entry.row, entry.col), tip).map_err(|e| e.to_string())?;
    dungeon.dims().check_pillar(pillar).map_err(|e| e.to_string())?;
    if dungeon.is_pillar_open(level, pillar) {
        return Err("listed twice".into());
    }
    dungeon.set_pillar(level, pillar, PillarState::Open).map_err(|e| match e {
        DungeonError::PillarCannotOpen { why, .. } => why,
        other => other.to_string(),
    })
}

/// Every way `plan` is not the shape of `levels` levels of `dims`: levels out of order or
/// missing, and rows of the wrong count or length. Allocates nothing per slot.
fn plan_shape_problems(plan: &[LevelPlan], levels: u32, dims: crate::grid::Dims) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, level_plan) in plan.iter().enumerate() {
        if level_plan.level != index as u32 {
            problems.push(Problem::LevelOrder { index, found: level_plan.level });
        }
    }
    if plan.len() != levels as usize {
        problems.push(Problem::LevelCount { expected: levels, found: plan.len() });
    }
    let conn_rows = dims.octagon_rows() as usize - 1;
    let conn_cols = dims.octagon_cols() as usize - 1;
    for (l, level_plan) in plan.iter().enumerate().take(levels as usize) {
        let level = l as u16;
        let rows = [
            ("slots", &level_plan.slots, dims.rows() as usize),
            ("short_edges", &level_plan.short_edges, conn_rows),
        ];
        for (field, lines, expected) in rows {
            if lines.len() != expected {
                problems.push(Problem::RowCount { level, field, expected, found: lines.len() });
            }
        }
        for (r, line) in level_plan.slots.iter().enumerate().take(dims.rows() as usize) {
            let found = line.chars().count();
            if found != dims.cols() as usize {
                let (row, expected) = (r as u32, dims.cols() as usize);
                problems.push(Problem::RowLength { level, field: "slots", row, expected, found });
            }
        }
        for (i, line) in level_plan.short_edges.iter().enumerate().take(conn_rows) {
            let groups: Vec<&str> = if line.is_empty() { Vec::new() } else { line.split(' ').collect() };
            if groups.len() != conn_cols || groups.iter().any(|g| g.chars().count() != 4) {
                let row = 2 * i as u32 + 1;
                let expected = if conn_cols == 0 { 0 } else { conn_cols * 5 - 1 };
                let found = line.chars().count();
                problems.push(Problem::RowLength { level, field: "short_edges", row, expected, found });
            }
        }
    }
    problems
}

/// Reads a dungeon file.
///
/// # Errors
/// [`FormatError::Read`] when the file cannot be read or is larger than
/// [`crate::io::MAX_INPUT_BYTES`]; then the errors of [`from_json`].
pub fn load(path: &Path) -> Result<Dungeon, FormatError> {
    let text = crate::io::read_limited(path, crate::io::MAX_INPUT_BYTES)
        .map_err(|cause| FormatError::Read { path: path.to_path_buf(), cause })?;
    from_json(&text)
}

/// Writes a dungeon file atomically.
///
/// # Errors
/// [`FormatError::Write`] when the file cannot be written (nothing is changed then).
pub fn save(dungeon: &Dungeon, path: &Path) -> Result<(), FormatError> {
    crate::io::write_atomic(path, to_json(dungeon).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::dungeon::{Passage, PassageKind, Room, RoomRole, RoomShape, SizeClass};
    use crate::grid::Direction;

    #[test]
    fn round_trip_small() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
        d.set_tile(Pos::new(1, 0, 0), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(0, 1, 1), Direction::NE, Registry::DOOR).unwrap();
        d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
        let text = to_json(&d);
        assert!(text.contains("\"version\": 1,") && !text.contains("pins"), "no pins: version 1");
        let back = from_json(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(to_json(&back), text);
    }

    #[test]
    fn heights_make_version_3_round_trip_and_are_checked() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
        let plain = to_json(&d);
        d.set_room_height(Pos::new(1, 1, 3), 7.25).unwrap();
        d.set_room_height(Pos::new(0, 2, 2), 11.0).unwrap();
        let text = to_json(&d);
        assert!(text.contains("\"version\": 3,"), "{text}");
        assert!(text.contains("\"heights\": [\n    [0, 2, 2, 11.0],\n    [1, 1, 3, 7.25]\n  ]"), "{text}");
        let back = from_json(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(back.room_height_at(Pos::new(1, 1, 3)), 7.25);
        assert_eq!(to_json(&back), text);
        // Cleared again, the file is the plain one, byte for byte.
        d.clear_room_height(Pos::new(1, 1, 3)).unwrap();
        d.clear_room_height(Pos::new(0, 2, 2)).unwrap();
        assert_eq!(to_json(&d), plain);
        assert!(plain.contains("\"version\": 1,") && !plain.contains("heights"));
        // Heights in an older version, out of range, or on a Void slot are named problems.
        let v2 = text.replace("\"version\": 3,", "\"version\": 2,");
        let err = from_json(&v2).unwrap_err().to_string();
        assert!(err.contains("room heights need version 3"), "{err}");
        let low = text.replace("[1, 1, 3, 7.25]", "[1, 1, 3, 2.49]");
        let err = from_json(&low).unwrap_err().to_string();
        assert!(err.contains("height: level 1: room height 2.49 m at row 1, col 3 is out of range"), "{err}");
        let high = text.replace("[0, 2, 2, 11.0]", "[0, 2, 2, 11.01]");
        let err = from_json(&high).unwrap_err().to_string();
        assert!(err.contains("level 0: room height 11.01 m at row 2, col 2"), "{err}");
        let void = text.replace("[1, 1, 3, 7.25]", "[1, 1, 2, 7.25]");
        let err = from_json(&void).unwrap_err().to_string();
        assert!(err.contains("height: level 1") && err.contains("is not a cell"), "{err}");
        let short = text.replace("[1, 1, 3, 7.25]", "[1, 1, 7.25]");
        let err = from_json(&short).unwrap_err().to_string();
        assert!(err.contains("[level, row, col, metres]"), "{err}");
    }

    #[test]
    fn rooms_make_version_3_and_round_trip() {
        let mut d = Dungeon::new(4, 3, 2, Proportions::default(), Fill::Solid).unwrap();
        let room = |name: &str, level| Room {
            name: name.into(),
            role: RoomRole::Boss,
            shape: RoomShape::LBend,
            size: SizeClass::Small,
            level,
            height: Some(6.5),
        };
        let cells = [Pos::new(1, 0, 0), Pos::new(1, 0, 2), Pos::new(1, 0, 6), Pos::new(1, 1, 1)];
        let a = d.add_room(room("crypt", 1), &cells).unwrap();
        let b = d.add_room(Room { height: None, ..room("hall", 1) }, &[Pos::new(1, 2, 2)]).unwrap();
        d.add_passage(Passage { from: b, to: a, kind: PassageKind::Locked, lock: Some(2) }).unwrap();
        let text = to_json(&d);
        assert!(text.contains("\"version\": 3,"), "{text}");
        assert!(
            text.contains("\"cells\": [\n        [0, 0, 2],\n        [0, 6, 6],\n        [1, 1, 1]\n      ]"),
            "{text}"
        );
        assert!(text.contains("\"role\": \"boss\"") && text.contains("\"shape\": \"l-bend\""), "{text}");
        let back = from_json(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(to_json(&back), text);
        // Rooms in an older file, a passage to no room and overlapping rooms are problems.
        let v2 = text.replace("\"version\": 3,", "\"version\": 2,");
        assert!(from_json(&v2).unwrap_err().to_string().contains("rooms need version 3"));
        let ghost = text.replace("\"to\": \"crypt\"", "\"to\": \"vault\"");
        let err = from_json(&ghost).unwrap_err().to_string();
        assert!(err.contains("room \"vault\": a passage names it"), "{err}");
        let overlap = text.replace("[2, 2, 2]", "[0, 0, 0]");
        let err = from_json(&overlap).unwrap_err().to_string();
        assert!(err.contains("in room \"crypt\" already"), "{err}");
        let odd = text.replace("[0, 6, 6]", "[0, 6, 7]");
        assert!(from_json(&odd).unwrap_err().to_string().contains("not a run of cells"));
    }

    #[test]
    fn open_pillars_make_version_3_and_round_trip_and_bad_ones_are_named() {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let p = PillarId::new(Slot::new(3, 1), Direction::E).unwrap();
        d.set_pillar(1, p, PillarState::Open).unwrap();
        d.set_pillar(0, PillarId::new(Slot::new(1, 3), Direction::N).unwrap(), PillarState::Open).unwrap();
        let text = to_json(&d);
        assert!(text.contains("\"version\": 3,"), "{text}");
        let listed = "\"open_pillars\": [\n    {\"level\": 0, \"row\": 1, \"col\": 3, \"tip\": \"N\"},\n    \
                      {\"level\": 1, \"row\": 3, \"col\": 1, \"tip\": \"E\"}\n  ]";
        assert!(text.contains(listed), "{text}");
        let back = from_json(&text).unwrap();
        // (A floor-filled dungeon holds floor in its unused Void entries, so compare what the
        // file holds.)
        assert_eq!(back.open_pillars().collect::<Vec<_>>(), d.open_pillars().collect::<Vec<_>>());
        assert_eq!(to_json(&back), text);
        assert_eq!(from_json(&to_json(&back)).unwrap(), back);
        // Pins alone still write version 2; neither, version 1.
        let mut pins = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        assert!(to_json(&pins).contains("\"version\": 1,") && !to_json(&pins).contains("open_pillars"));
        pins.set_pinned(Pos::new(0, 0, 0), true).unwrap();
        assert!(to_json(&pins).contains("\"version\": 2,"));
        assert!(from_json(&to_json(&pins)).is_ok(), "a version-2 file with pins reads");
        let err = |t: String| match from_json(&t) {
            Ok(_) => panic!("read without a problem: {t}"),
            Err(e) => e.to_string(),
        };
        let e = err(text.replace("\"version\": 3,", "\"version\": 2,"));
        assert!(e.contains("`open_pillars` lists 2 pillar(s) but `version` is 2"), "{e}");
        let e = err(text.replace("\"tip\": \"E\"", "\"tip\": \"NE\""));
        assert!(
            e.contains("open pillar at level 1, row 3, col 1, tip \"NE\"") && e.contains("N\", \"E\""),
            "{e}"
        );
        let e = err(text.replace("\"row\": 1, \"col\": 3", "\"row\": 2, \"col\": 3"));
        assert!(
            e.contains("open pillar at level 0, row 2, col 3") && e.contains("expected a connector"),
            "{e}"
        );
        let e = err(text.replace("\"row\": 1, \"col\": 3", "\"row\": 9, \"col\": 3"));
        assert!(e.contains("outside the grid"), "{e}");
        let e = err(text.replace("{\"level\": 1,", "{\"level\": 7,"));
        assert!(e.contains("level 7") && e.contains("the dungeon has 2 levels"), "{e}");
        let first = "{\"level\": 0, \"row\": 1, \"col\": 3, \"tip\": \"N\"}";
        let e = err(text.replace(first, &format!("{first},\n    {first}")));
        assert!(e.contains("listed twice"), "{e}");
        let e = err(text.replace("\"tip\": \"N\"}", "\"tip\": \"N\", \"open\": true}"));
        assert!(e.contains("unknown field `open`, expected one of `level`, `row`, `col`, `tip`"), "{e}");
        let e = err(text.replace(first, "7"));
        assert!(e.contains("expected an open pillar object"), "{e}");
        // A pillar whose seam is a wall in the plan is refused, naming the seam.
        let mut walled = d.clone();
        walled.set_edge_of(1, p.seams()[0], Registry::WALL).unwrap();
        let file_text = to_json(&walled).replace(
            "{\"level\": 0, \"row\": 1, \"col\": 3, \"tip\": \"N\"}",
            "{\"level\": 0, \"row\": 1, \"col\": 3, \"tip\": \"N\"},\n    {\"level\": 1, \"row\": 3, \"col\": 1, \"tip\": \"E\"}",
        );
        let e = err(file_text);
        assert!(
            e.contains("open pillar at level 1, row 3, col 1, tip \"E\"") && e.contains("\"wall\""),
            "{e}"
        );
    }

    #[test]
    fn pins_make_version_2_and_round_trip() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_pinned(Pos::new(1, 1, 3), true).unwrap();
        d.set_pinned(Pos::new(0, 2, 2), true).unwrap();
        let text = to_json(&d);
        assert!(text.contains("\"version\": 2,"), "{text}");
        assert!(text.contains("\"pins\": [\n    [0, 2, 2],\n    [1, 1, 3]\n  ]"), "{text}");
        let back = from_json(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(to_json(&back), text);
        // Pins in a version-1 file, and a pin on a Void slot, are named problems.
        let v1 = text.replace("\"version\": 2,", "\"version\": 1,");
        let err = from_json(&v1).unwrap_err().to_string();
        assert!(err.contains("pins need version 2"), "{err}");
        let void = text.replace("[1, 1, 3]", "[1, 1, 2]");
        let err = from_json(&void).unwrap_err().to_string();
        assert!(err.contains("pin: level 1") && err.contains("is not a cell but the wall between"), "{err}");
    }
}
