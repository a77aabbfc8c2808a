//! Errors of the pathing stage.

use crate::grid::Direction;

/// A path query or graph build that was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// A position outside the dungeon's levels or slot array.
    #[error(
        "level {level}, row {row}, col {col} is outside the dungeon ({levels} level(s) of {rows} x {cols} slots)"
    )]
    OutOfDungeon {
        /// Level asked for.
        level: u16,
        /// Row asked for.
        row: u32,
        /// Column asked for.
        col: u32,
        /// Levels in the dungeon.
        levels: u16,
        /// Slot rows per level.
        rows: u32,
        /// Slot columns per level.
        cols: u32,
    },
    /// A position on a Void slot (a seam between two octagons), which is not a cell.
    #[error(
        "level {level}, row {row}, col {col} is not a cell but {}",
        crate::grid::EdgeId::Long(crate::grid::Slot::new(*row, *col))
    )]
    NotACell {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A step whose cost (base step plus the registry's move costs) does not fit in `u32`
    /// thousandths of a long step.
    #[error("level {level}, row {row}, col {col}: {} costs more than {} thousandths", step_name(*dir), u32::MAX)]
    CostOverflow {
        /// Level of the cell the step leaves.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The wall stepped through, or `None` for a stair step.
        dir: Option<Direction>,
    },
    /// A kept Dijkstra map used with a graph of another shape than the one it was built on.
    #[error(
        "the Dijkstra map was built on a graph of {map_nodes} nodes, not this one of {graph_nodes} (or of other dimensions)"
    )]
    GraphMismatch {
        /// Nodes of the map's graph.
        map_nodes: usize,
        /// Nodes of the graph it was given.
        graph_nodes: usize,
    },
    /// A graph updated from a dungeon of another shape than the one it was read from.
    #[error("the path graph has {} level(s) of {} x {} slots, the dungeon {} of {} x {}", graph.0, graph.1, graph.2, dungeon.0, dungeon.1, dungeon.2)]
    DungeonMismatch {
        /// The graph's levels, slot rows and slot columns.
        graph: (u16, u32, u32),
        /// The dungeon's levels, slot rows and slot columns.
        dungeon: (u16, u32, u32),
    },
}

fn step_name(dir: Option<Direction>) -> String {
    match dir {
        Some(d) => format!("the step through wall {}", d.name()),
        None => "the stair step".into(),
    }
}
