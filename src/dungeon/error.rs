//! Errors of the dungeon model.

use crate::geometry::GeometryError;
use crate::grid::{Direction, GridError, SlotKind};

/// A dungeon operation that was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DungeonError {
    /// A grid address problem, with the level it happened on.
    #[error("level {level}: {source}")]
    Grid {
        /// The level addressed.
        level: u16,
        /// What was wrong with the address.
        #[source]
        source: GridError,
    },
    /// A level index outside the dungeon.
    #[error(transparent)]
    Level(GridError),
    /// Bad proportions.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A bad level count or a dungeon too large to hold.
    #[error("dungeon of {cols}x{rows} octagons x {levels} levels: {reason}")]
    BadShape {
        /// Octagon columns.
        cols: u32,
        /// Octagon rows.
        rows: u32,
        /// Levels.
        levels: u32,
        /// Why it was refused.
        reason: String,
    },
    /// A tile or edge state refused by the registry, or a name it lacks.
    #[error(transparent)]
    Register(#[from] super::RegisterError),
    /// A registry definition problem.
    #[error("registry: {what}")]
    Registry {
        /// What was wrong.
        what: String,
    },
    /// A tile or edge id that the registry does not define.
    #[error("{what} id {id} is not in the registry")]
    UnknownId {
        /// "tile" or "edge state".
        what: &'static str,
        /// The id.
        id: u32,
    },
    /// A stair placed on a slot that is not an octagon.
    #[error("level {level}: stair at row {row}, col {col} is on a {kind:?} slot; stairs stand on octagons")]
    StairOffOctagon {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// What the slot is.
        kind: SlotKind,
    },
    /// A stair on the top level (it would lead to a level that does not exist).
    #[error("level {level}: stair at row {row}, col {col} leads up to level {}, but the dungeon has {levels} levels", level + 1)]
    StairOffTop {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Levels in the dungeon.
        levels: u16,
    },
    /// A stair whose top lands on rock.
    #[error("level {level}: stair at row {row}, col {col} lands on uncarved rock on level {}", level + 1)]
    StairLandsOnRock {
        /// Level of the stair's foot.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A stair whose top lands on another stair: the octagon above a stair is the shaft's
    /// hole (only the landing is floor), so a second spiral there would stand on nothing.
    #[error("level {level}: stair at row {row}, col {col} lands on the stair at level {}, row {row}, col {col}; stairs may not stack (the octagon above a stair is its shaft)", level + 1)]
    StairOnStair {
        /// Level of the lower stair's foot.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A void cell with nothing carved under it to be the upper part of: on the ground
    /// level, over rock, or over a stair (whose top must land on a floor).
    #[error(
        "level {level}: void cell at row {row}, col {col} is not over carved space: {why}; a void is the upper part of the cell below it"
    )]
    VoidUnsupported {
        /// Level of the void cell.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// What is under it.
        why: &'static str,
    },
    /// A door on a wall of a void cell or of a cell open above: the door's wall would stop
    /// under a slab that is not there. Make the edge open (or a wall), or move the door.
    #[error(
        "level {level}: door on the {dir:?} wall of row {row}, col {col}, a cell that is void or open above (an atrium); such a cell's walls may be open, walls or drop points, not doors"
    )]
    DoorIntoVoid {
        /// Level of the cell.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The wall holding the door.
        dir: crate::grid::Direction,
    },
    /// A ramp ([`crate::dungeon::Ramp`]) whose cells do not hold it: named by its foot and
    /// direction, with the first rule it breaks.
    #[error("level {level}: the ramp from row {row}, col {col} rising {dir:?}: {why}")]
    RampBroken {
        /// Level of the ramp's foot.
        level: u16,
        /// Row of its foot.
        row: u32,
        /// Column of its foot.
        col: u32,
        /// The direction it rises in.
        dir: crate::grid::Direction,
        /// The rule it breaks.
        why: String,
    },
    /// A ramp that cannot be added: its foot is not an octagon below the top level, its
    /// direction is diagonal, it leaves the grid or it shares a cell with another ramp.
    #[error("level {level}: no ramp can rise {dir:?} from row {row}, col {col}: {why}")]
    BadRamp {
        /// Level of the foot.
        level: u16,
        /// Row of the foot.
        row: u32,
        /// Column of the foot.
        col: u32,
        /// The direction asked for.
        dir: crate::grid::Direction,
        /// Why not.
        why: &'static str,
    },
    /// A tile declared both a stair and not carved: the stair's shaft would be open rock.
    #[error("tile {symbol:?} is a stair but declared `\"carved\": false`; a stair tile must be carved")]
    StairNotCarved {
        /// The tile's symbol.
        symbol: char,
    },
    /// An entrance or exit on a cell that is not carved (rock).
    #[error("{what} at level {level}, row {row}, col {col} is on rock; it must be on a carved cell")]
    MarkerOnRock {
        /// `entrance` or `exit`.
        what: &'static str,
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A room height outside the legal range ([`super::Dungeon::room_height_range`]), or
    /// not a number.
    #[error(
        "level {level}: room height {metres} m at row {row}, col {col} is out of range; a room here is {min} m to {max} m high (at least 2.5 m, at most the layer height less 1 m of rock)"
    )]
    RoomHeightOutOfRange {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The height asked for (metres).
        metres: f64,
        /// Lowest legal height (metres).
        min: f64,
        /// Highest legal height (metres).
        max: f64,
    },
    /// An edge state set on a border wall (border walls face solid rock and carry no state).
    #[error("level {level}: wall {} of the cell at row {row}, col {col} is on the grid's border and carries no state", dir.name())]
    BorderEdge {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The wall.
        dir: Direction,
    },
    /// An edge state whose `opens_to` or `closes_to` names no edge state of the registry.
    #[error("registry: edge state {edge:?} {field} {target:?}, which is not an edge state of the registry")]
    UnknownTransition {
        /// The edge state that names it.
        edge: String,
        /// `opens_to` or `closes_to`.
        field: &'static str,
        /// The name that is not an edge state.
        target: String,
    },
    /// A door opened or closed where the edge's state has no such change (`opens_to` /
    /// `closes_to` in the registry): a wall, an open seam, or a door already in that state.
    #[error("level {level}: wall {} of the cell at row {row}, col {col} is {state:?}, which cannot {change} (its registry entry has no {}_to)", dir.name(), if *change == "open" { "opens" } else { "closes" })]
    NoDoorChange {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The wall.
        dir: Direction,
        /// The edge's current state.
        state: String,
        /// `open` or `close`.
        change: &'static str,
    },
    /// A room or passage the room table refuses.
    #[error("room {room:?}: {why}")]
    Room {
        /// The room's name (or `#id` for an id the table lacks).
        room: String,
        /// Why it was refused.
        why: String,
    },
    /// A pillar set open where the rule refuses it
    /// ([`crate::dungeon::Dungeon::pillar_can_open`]).
    #[error("level {level}: the pillar at tip {} of the connector at row {row}, col {col} cannot be open: {why}", tip.name())]
    PillarCannotOpen {
        /// Level.
        level: u16,
        /// The connector's row.
        row: u32,
        /// The connector's column.
        col: u32,
        /// The tip it sits at (N, E, S or W).
        tip: Direction,
        /// Which part of the rule fails.
        why: String,
    },
    /// A lock id given to a wall whose state is not a locked door
    /// ([`crate::dungeon::Mechanism::Locked`]).
    #[error("level {level}: wall {} of the cell at row {row}, col {col} is {state:?}, not a locked door; only a locked door carries a lock id", dir.name())]
    NotLocked {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The wall.
        dir: Direction,
        /// The edge's state (`wall` for the grid's border).
        state: String,
    },
}
