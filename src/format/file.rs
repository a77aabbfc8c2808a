//! Reading and writing the versioned JSON dungeon file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{FormatError, Problem};
use crate::dungeon::{Dungeon, EdgeDef, EdgeStateId, Registry, TileDef, TileId};
use crate::geometry::Proportions;
use crate::grid::{ConnectorWall, Dims, EdgeId, Grid, Pos, Slot, SlotKind};

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

/// The dungeon of a parsed file, or every problem found in it at once.
fn build(file: DungeonFile) -> Result<Dungeon, FormatError> {
    let [cols, rows] = file.octagons;
    let registry = Registry::from_defs(file.tiles, file.edges).map_err(FormatError::Header)?;
    let dims = Dungeon::check_shape(cols, rows, file.levels).map_err(FormatError::Header)?;
    file.proportions.validate().map_err(|e| FormatError::Header(e.into()))?;
    let mut problems = plan_problems(&file.plan, file.levels);
    let mut tiles = Vec::new();
    let mut edges = Vec::new();
    for (l, plan) in file.plan.iter().enumerate().take(file.levels as usize) {
        let mut reader = LevelReader::new(&registry, dims, l as u16, &mut problems);
        reader.slots(&plan.slots);
        reader.short_edges(&plan.short_edges);
        tiles.push(reader.tiles);
        edges.push(reader.edges);
    }
    // Keep going past plan problems so that every problem is reported at once: missing
    // levels are padded with tile 0 / edge state 0.
    while tiles.len() < file.levels as usize {
        tiles.push(Grid::filled(dims, TileId(0)));
        edges.push(vec![EdgeStateId(0); dims.edge_index_len()]);
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

/// Problems of the plan list itself: levels out of order, or not `levels` of them.
fn plan_problems(plan: &[LevelPlan], levels: u32) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, level) in plan.iter().enumerate() {
        if level.level != index as u32 {
            problems.push(Problem::LevelOrder { index, found: level.level });
        }
    }
    if plan.len() != levels as usize {
        problems.push(Problem::RowCount {
            level: plan.len() as u16,
            field: "plan",
            expected: levels as usize,
            found: plan.len(),
        });
    }
    problems
}

/// Reads one level's rows into its tile and edge layers, noting every problem.
struct LevelReader<'a> {
    registry: &'a Registry,
    dims: Dims,
    level: u16,
    problems: &'a mut Vec<Problem>,
    /// The level's tiles (tile 0 where nothing was read).
    tiles: Grid<TileId>,
    /// The level's edge states by edge index (state 0 where nothing was read).
    edges: Vec<EdgeStateId>,
}

impl<'a> LevelReader<'a> {
    fn new(
        registry: &'a Registry,
        dims: Dims,
        level: u16,
        problems: &'a mut Vec<Problem>,
    ) -> LevelReader<'a> {
        let (tiles, edges) = (Grid::filled(dims, TileId(0)), vec![EdgeStateId(0); dims.edge_index_len()]);
        LevelReader { registry, dims, level, problems, tiles, edges }
    }

    /// The `slots` rows: one symbol per slot, a tile on a cell, a long edge's state on a
    /// Void slot.
    fn slots(&mut self, lines: &[String]) {
        let (dims, level) = (self.dims, self.level);
        if lines.len() != dims.rows() as usize {
            self.problems.push(Problem::RowCount {
                level,
                field: "slots",
                expected: dims.rows() as usize,
                found: lines.len(),
            });
        }
        for (r, line) in lines.iter().enumerate().take(dims.rows() as usize) {
            let row = r as u32;
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != dims.cols() as usize {
                self.problems.push(Problem::RowLength {
                    level,
                    field: "slots",
                    row,
                    expected: dims.cols() as usize,
                    found: chars.len(),
                });
                continue;
            }
            for (c, &symbol) in chars.iter().enumerate() {
                self.slot(Slot::new(row, c as u32), symbol);
            }
        }
    }

    /// One symbol of the `slots` rows.
    fn slot(&mut self, slot: Slot, symbol: char) {
        let (level, row, col) = (self.level, slot.row, slot.col);
        if slot.kind() == SlotKind::Void {
            match self.registry.edge_by_symbol(symbol) {
                Some(e) => self.edges[self.dims.edge_index(EdgeId::Long(slot)).expect("invariant")] = e,
                None => self.problems.push(Problem::UnknownEdge { level, row, col, wall: None, symbol }),
            }
        } else {
            match self.registry.tile_by_symbol(symbol) {
                Some(t) => *self.tiles.get_mut(slot).expect("invariant") = t,
                None => self.problems.push(Problem::UnknownTile { level, row, col, symbol }),
            }
        }
    }

    /// The `short_edges` rows: per connector row, one group of four symbols per connector
    /// (its walls TL, TR, BR, BL), groups separated by a space.
    fn short_edges(&mut self, lines: &[String]) {
        let (dims, level) = (self.dims, self.level);
        let conn_rows = dims.octagon_rows() as usize - 1;
        let conn_cols = dims.octagon_cols() as usize - 1;
        if lines.len() != conn_rows {
            self.problems.push(Problem::RowCount {
                level,
                field: "short_edges",
                expected: conn_rows,
                found: lines.len(),
            });
        }
        for (i, line) in lines.iter().enumerate().take(conn_rows) {
            let row = 2 * i as u32 + 1;
            let groups: Vec<&str> = if line.is_empty() { Vec::new() } else { line.split(' ').collect() };
            let expected = if conn_cols == 0 { 0 } else { conn_cols * 5 - 1 };
            if groups.len() != conn_cols || groups.iter().any(|g| g.chars().count() != 4) {
                self.problems.push(Problem::RowLength {
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
                    match self.registry.edge_by_symbol(symbol) {
                        Some(e) => {
                            self.edges[self.dims.edge_index(EdgeId::Short(conn, *w)).expect("invariant")] = e
                        }
                        None => self.problems.push(Problem::UnknownEdge {
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
    }
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
