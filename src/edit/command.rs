//! Edit commands: every change a person makes to a dungeon, as data. The CLI's script lines
//! ([`super::script`]) and the viewer's clicks both become these, and [`super::Editor`]
//! applies them.

use super::EditError;
use crate::dungeon::{EdgeStateId, PillarState, RoomHeight, TileId};
use crate::grid::{Dims, Direction, PillarId, Pos, Slot};

/// One edit of a dungeon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Sets a cell's tile (octagon or connector; a stair tile as [`Command::PlaceStair`]).
    SetTile {
        /// The cell.
        pos: Pos,
        /// The new tile.
        tile: TileId,
    },
    /// Activates a cell: rock becomes the registry's plain floor, anything carved (floor, a
    /// stair) becomes rock; then its seams follow the seam rule ([`super::seams`]), so a
    /// cell activated beside floor opens onto it, and one filled is walled.
    Toggle {
        /// The cell.
        pos: Pos,
    },
    /// Moves a wall to the next edge state in the registry's order, wrapping round (`wall`
    /// -> `open` -> `door` -> `wall` for the standard registry).
    Cycle {
        /// The cell.
        pos: Pos,
        /// Its wall.
        dir: Direction,
    },
    /// Sets a wall's edge state.
    SetEdge {
        /// The cell.
        pos: Pos,
        /// Its wall.
        dir: Direction,
        /// The new state.
        state: EdgeStateId,
    },
    /// Sets a pillar's state: `open` only where its three cells are carved and its three
    /// seams open ([`crate::dungeon::Dungeon::pillar_can_open`]).
    SetPillar {
        /// The level.
        level: u16,
        /// The pillar.
        pillar: PillarId,
        /// The new state.
        state: PillarState,
    },
    /// Sets every listed cell's tile (a rectangle or a brush stroke), then sets each seam of
    /// a painted cell by the seam rule ([`super::seams`]): open between two carved cells, a
    /// wall on every floor/rock seam; then opens every pillar whose three cells were all
    /// painted and that may be open, so a painted hall is one open floor.
    Paint {
        /// The cells (all on one level or not, in any order; duplicates are harmless).
        cells: Vec<Pos>,
        /// The tile.
        tile: TileId,
    },
    /// Paints a room: every cell of the slot rectangle from `from` to `to` (inclusive, any
    /// order) on `level` becomes plain floor, its seams inside follow the seam rule, and its
    /// seams to the cells round it are walls except one doorway per side that borders the
    /// grid's inside: the long seam of the side's middle octagon, with the cell beyond carved
    /// when it was rock (its other seams walled toward the room, by the rule elsewhere). A
    /// side whose doorway the shaft rule forbids gets none. Every pillar inside the room
    /// that may be open is opened, as [`Command::Paint`] does.
    PaintRoom {
        /// The level.
        level: u16,
        /// One corner (slots).
        from: Slot,
        /// The opposite corner (slots).
        to: Slot,
    },
    /// Puts the registry's stair tile on an octagon below the top level whose octagon above
    /// is carved (the stair's landing).
    PlaceStair {
        /// The stair's foot.
        pos: Pos,
    },
    /// Replaces a stair with plain floor.
    RemoveStair {
        /// The stair's foot.
        pos: Pos,
    },
    /// Moves the entrance to a carved cell (or removes it).
    SetEntrance {
        /// The new entrance.
        pos: Option<Pos>,
    },
    /// Moves the exit to a carved cell (or removes it).
    SetExit {
        /// The new exit.
        pos: Option<Pos>,
    },
    /// Pins (`pinned`) or unpins every listed cell.
    Pin {
        /// The cells.
        cells: Vec<Pos>,
        /// Pin or unpin.
        pinned: bool,
    },
    /// Sets the room height of every listed cell ([`crate::dungeon::Dungeon::set_room_height`]),
    /// or gives them the dungeon's default again (`None`).
    SetHeight {
        /// The cells.
        cells: Vec<Pos>,
        /// The height, or `None` for the default.
        height: Option<RoomHeight>,
    },
    /// Re-solves the unpinned cells within `radius` octagons of `pos` on its level with WFC
    /// ([`super::resolve`]).
    Resolve {
        /// The centre.
        pos: Pos,
        /// Radius in octagons (at least 1).
        radius: u32,
    },
}

impl Command {
    /// The command's script keyword (`cell`, `toggle`, `cycle`, `edge`, `pillar`, `paint`,
    /// `room`, `stair`, `unstair`, `entrance`, `exit`, `pin`, `unpin`, `height`, `resolve`).
    #[must_use]
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::SetTile { .. } => "cell",
            Command::Toggle { .. } => "toggle",
            Command::Cycle { .. } => "cycle",
            Command::SetEdge { .. } => "edge",
            Command::SetPillar { .. } => "pillar",
            Command::Paint { .. } => "paint",
            Command::PaintRoom { .. } => "room",
            Command::PlaceStair { .. } => "stair",
            Command::RemoveStair { .. } => "unstair",
            Command::SetEntrance { .. } => "entrance",
            Command::SetExit { .. } => "exit",
            Command::Pin { pinned: true, .. } => "pin",
            Command::Pin { pinned: false, .. } => "unpin",
            Command::SetHeight { .. } => "height",
            Command::Resolve { .. } => "resolve",
        }
    }
}

/// Every cell (octagons and connectors) of the slot rectangle between corners `from` and
/// `to` (inclusive, in any order) on `level`, row-major.
///
/// # Errors
/// [`EditError::BadRect`] when a corner is outside a grid of `dims`.
pub fn rect_cells(dims: Dims, level: u16, from: Slot, to: Slot) -> Result<Vec<Pos>, EditError> {
    for corner in [from, to] {
        if !dims.contains(corner) {
            return Err(EditError::BadRect {
                from: Pos { level, slot: from },
                to: Pos { level, slot: to },
                reason: format!("{corner} is outside the grid of {} x {} slots", dims.rows(), dims.cols()),
            });
        }
    }
    let rows = from.row.min(to.row)..=from.row.max(to.row);
    let cols = from.col.min(to.col)..=from.col.max(to.col);
    Ok(rows
        .flat_map(|row| cols.clone().map(move |col| Slot::new(row, col)))
        .filter(|s| s.kind().is_cell())
        .map(|slot| Pos { level, slot })
        .collect())
}
