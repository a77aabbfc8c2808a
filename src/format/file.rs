//! Reading and writing the versioned JSON dungeon file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{FormatError, Problem};
use crate::dungeon::{Dungeon, EdgeDef, Registry, TileDef};
use crate::geometry::Proportions;
use crate::grid::{ConnectorWall, EdgeId, Grid, Pos, Slot, SlotKind};

/// The `format` field of every dungeon file.
pub const FORMAT_NAME: &str = "octile-dungeon";
/// The file version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DungeonFile {
    format: String,
    version: u32,
    /// `[cols, rows]` of octagons.
    octagons: [u32; 2],
    levels: u32,
    proportions: Proportions,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    entrance: Option<[u32; 3]>,
    #[serde(default)]
    exit: Option<[u32; 3]>,
    tiles: Vec<TileDef>,
    edges: Vec<EdgeDef>,
    plan: Vec<LevelPlan>,
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
    let file = DungeonFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        octagons: [dims.octagon_cols(), dims.octagon_rows()],
        levels: u32::from(dungeon.levels()),
        proportions: *dungeon.proportions(),
        seed: dungeon.seed(),
        entrance: marker(dungeon.entrance()),
        exit: marker(dungeon.exit()),
        tiles: reg.tiles().to_vec(),
        edges: reg.edges().to_vec(),
        plan,
    };
    let value = serde_json::to_value(&file).expect("invariant: plain data serialises");
    super::pretty::to_pretty(&value)
}

/// Parses a dungeon file; every problem in the plan is reported at once.
pub fn from_json(text: &str) -> Result<Dungeon, FormatError> {
    // Check the header first so that another kind of file gets a clear message.
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        version: Option<u32>,
    }
    let json_err = |e: serde_json::Error| FormatError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    };
    let header: Header = serde_json::from_str(text).map_err(json_err)?;
    match header.format {
        Some(f) if f == FORMAT_NAME => {}
        other => return Err(FormatError::NotADungeon { found: other.unwrap_or_default() }),
    }
    match header.version {
        Some(FORMAT_VERSION) => {}
        other => return Err(FormatError::Version { found: other.unwrap_or(0), supported: FORMAT_VERSION }),
    }
    let file: DungeonFile = serde_json::from_str(text).map_err(json_err)?;
    build(file)
}

fn build(file: DungeonFile) -> Result<Dungeon, FormatError> {
    let [cols, rows] = file.octagons;
    let registry = Registry::from_defs(file.tiles, file.edges).map_err(FormatError::Header)?;
    let dims = Dungeon::check_shape(cols, rows, file.levels).map_err(FormatError::Header)?;
    file.proportions.validate().map_err(|e| FormatError::Header(e.into()))?;
    let mut problems = Vec::new();
    let mut tiles = Vec::new();
    let mut edges = Vec::new();
    for (index, plan) in file.plan.iter().enumerate() {
        if plan.level != index as u32 {
            problems.push(Problem::LevelOrder { index, found: plan.level });
        }
    }
    if file.plan.len() != file.levels as usize {
        problems.push(Problem::RowCount {
            level: file.plan.len() as u16,
            field: "plan",
            expected: file.levels as usize,
            found: file.plan.len(),
        });
    }
    for (l, plan) in file.plan.iter().enumerate().take(file.levels as usize) {
        let level = l as u16;
        let mut tile_layer = Grid::filled(dims, crate::dungeon::TileId(0));
        let mut edge_layer = vec![crate::dungeon::EdgeStateId(0); dims.edge_index_len()];
        if plan.slots.len() != dims.rows() as usize {
            problems.push(Problem::RowCount {
                level,
                field: "slots",
                expected: dims.rows() as usize,
                found: plan.slots.len(),
            });
        }
        for (r, line) in plan.slots.iter().enumerate().take(dims.rows() as usize) {
            let row = r as u32;
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != dims.cols() as usize {
                problems.push(Problem::RowLength {
                    level,
                    field: "slots",
                    row,
                    expected: dims.cols() as usize,
                    found: chars.len(),
                });
                continue;
            }
            for (c, &symbol) in chars.iter().enumerate() {
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
        let conn_rows = dims.octagon_rows() as usize - 1;
        let conn_cols = dims.octagon_cols() as usize - 1;
        if plan.short_edges.len() != conn_rows {
            problems.push(Problem::RowCount {
                level,
                field: "short_edges",
                expected: conn_rows,
                found: plan.short_edges.len(),
            });
        }
        for (i, line) in plan.short_edges.iter().enumerate().take(conn_rows) {
            let row = 2 * i as u32 + 1;
            let groups: Vec<&str> = if line.is_empty() { Vec::new() } else { line.split(' ').collect() };
            let expected = if conn_cols == 0 { 0 } else { conn_cols * 5 - 1 };
            if groups.len() != conn_cols || groups.iter().any(|g| g.chars().count() != 4) {
                problems.push(Problem::RowLength {
                    level,
                    field: "short_edges",
                    row,
                    expected,
                    found: line.chars().count(),
                });
                continue;
            }
            for (j, group) in groups.iter().enumerate() {
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
    // Keep going past plan problems so that every problem is reported at once: missing
    // levels are padded with tile 0 / edge state 0.
    while tiles.len() < file.levels as usize {
        tiles.push(Grid::filled(dims, crate::dungeon::TileId(0)));
        edges.push(vec![crate::dungeon::EdgeStateId(0); dims.edge_index_len()]);
    }
    let mut dungeon =
        Dungeon::from_parts(dims, file.proportions, registry, tiles, edges).map_err(FormatError::Header)?;
    problems.extend(dungeon.problems().into_iter().map(Problem::Dungeon));
    let to_pos = |p: [u32; 3]| Pos::new(u16::try_from(p[0]).unwrap_or(u16::MAX), p[1], p[2]);
    if let Err(source) = dungeon.set_entrance(file.entrance.map(to_pos)) {
        problems.push(Problem::BadMarker { what: "entrance", source });
    }
    if let Err(source) = dungeon.set_exit(file.exit.map(to_pos)) {
        problems.push(Problem::BadMarker { what: "exit", source });
    }
    dungeon.set_seed(file.seed);
    if problems.is_empty() { Ok(dungeon) } else { Err(FormatError::Invalid { problems }) }
}

/// Reads a dungeon file.
pub fn load(path: &Path) -> Result<Dungeon, FormatError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| FormatError::Read { path: path.to_path_buf(), source })?;
    from_json(&text)
}

/// Writes a dungeon file atomically.
pub fn save(dungeon: &Dungeon, path: &Path) -> Result<(), FormatError> {
    crate::io::write_atomic(path, to_json(dungeon).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::grid::Direction;

    #[test]
    fn round_trip_small() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
        d.set_tile(Pos::new(1, 0, 0), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(0, 1, 1), Direction::NE, Registry::DOOR).unwrap();
        d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
        let text = to_json(&d);
        let back = from_json(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(to_json(&back), text);
    }
}
