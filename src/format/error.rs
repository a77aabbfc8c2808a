//! Errors of reading and writing dungeon files.

use std::path::PathBuf;

use crate::dungeon::DungeonError;

/// One thing wrong in a dungeon file, with where it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The plan of a level has the wrong number of rows.
    #[error("level {level}: `{field}` has {found} rows, expected {expected}")]
    RowCount {
        /// Level.
        level: u16,
        /// `slots` or `short_edges`.
        field: &'static str,
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// A row of a level's plan has the wrong length.
    #[error("level {level}: `{field}` row {row} has {found} characters, expected {expected}")]
    RowLength {
        /// Level.
        level: u16,
        /// `slots` or `short_edges`.
        field: &'static str,
        /// Row of the slot grid.
        row: u32,
        /// Characters expected.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A symbol the file's tile legend does not define, on a cell slot.
    #[error("level {level}: row {row}, col {col}: unknown tile symbol {symbol:?}")]
    UnknownTile {
        /// Level.
        level: u16,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// The symbol found.
        symbol: char,
    },
    /// A symbol the file's edge legend does not define, on a Void slot or a short edge.
    #[error("level {level}: row {row}, col {col}{}: unknown edge symbol {symbol:?}", wall.map(|w| format!(" wall {w}")).unwrap_or_default())]
    UnknownEdge {
        /// Level.
        level: u16,
        /// Row of the Void slot or connector.
        row: u32,
        /// Column.
        col: u32,
        /// Connector wall name for short edges.
        wall: Option<&'static str>,
        /// The symbol found.
        symbol: char,
    },
    /// The plan lists another number of levels than the header's `levels`.
    #[error("`plan` lists {found} level(s); `levels` says {expected}")]
    LevelCount {
        /// Levels the header declares.
        expected: u32,
        /// Levels the plan lists.
        found: usize,
    },
    /// Levels listed out of order or missing.
    #[error("plan entry {index} is for level {found}; levels must be listed 0, 1, 2, ...")]
    LevelOrder {
        /// Position in the `plan` list.
        index: usize,
        /// Level it names.
        found: u32,
    },
    /// An entrance, exit, pin or room height the dungeon refuses. The message ends with the
    /// cause, so the cause is not also its [`std::error::Error::source`] (an error chain
    /// would print it twice).
    #[error("{what}: {cause}")]
    BadMarker {
        /// `entrance`, `exit`, `pin` or `height`.
        what: &'static str,
        /// Why.
        cause: DungeonError,
    },
    /// Pins in a version-1 file (pins came with version 2).
    #[error("`pins` lists {count} cell(s) but `version` is 1; pins need version 2")]
    PinsNeedVersion2 {
        /// Pins listed.
        count: usize,
    },
    /// Room heights in a file of a version before 3 (heights came with version 3).
    #[error("`heights` lists {count} cell(s) but `version` is {version}; room heights need version 3")]
    HeightsNeedVersion3 {
        /// Heights listed.
        count: usize,
        /// The file's version.
        version: u32,
    },
    /// Rooms or passages in a file older than version 3.
    #[error("`rooms` and `passages` list {count} entries but `version` is below 3; rooms need version 3")]
    RoomsNeedVersion3 {
        /// Rooms and passages listed.
        count: usize,
    },
    /// Open pillars in a file older than version 3 (open pillars came with version 3).
    #[error("`open_pillars` lists {count} pillar(s) but `version` is {version}; open pillars need version 3")]
    PillarsNeedVersion3 {
        /// Pillars listed.
        count: usize,
        /// The file's version.
        version: u32,
    },
    /// An entry of `open_pillars` that names no pillar of the dungeon, or one that may not
    /// be open ([`crate::dungeon::Dungeon::pillar_can_open`]).
    #[error("open pillar at level {level}, row {row}, col {col}, tip {tip:?}: {why}")]
    BadPillar {
        /// The entry's level.
        level: u32,
        /// The entry's connector row.
        row: u32,
        /// The entry's connector column.
        col: u32,
        /// The entry's tip, as written.
        tip: String,
        /// What is wrong with it.
        why: String,
    },
    /// An entry of `locks` that names no locked door of the dungeon.
    #[error("lock at {}, wall {wall:?}: {why}", at.map(|v| v.to_string()).join(","))]
    BadLock {
        /// The entry's cell, `[level, row, col]`.
        at: [u32; 3],
        /// The entry's wall, as written.
        wall: String,
        /// What is wrong with it.
        why: String,
    },
    /// Locks, keys or mission doors in a file older than version 4.
    #[error(
        "the file has {count} lock(s), key(s) or mission door state(s) but `version` is {version}; they need version 4"
    )]
    MissionNeedsVersion4 {
        /// Locks, keys and edge states with a mechanism.
        count: usize,
        /// The file's version.
        version: u32,
    },
    /// Ramps in a file older than version 5.
    #[error("the file has {count} ramp(s) but `version` is {version}; ramps need version 5")]
    RampsNeedVersion5 {
        /// Ramps listed.
        count: usize,
        /// The file's version.
        version: u32,
    },
    /// A ramp entry whose direction is not `N`, `E`, `S` or `W`, or that the dungeon refuses
    /// ([`crate::dungeon::Dungeon::add_ramp`]).
    #[error("ramp at level {level}, row {row}, col {col}: {why}")]
    BadRamp {
        /// Level of its foot.
        level: u32,
        /// Row of its foot.
        row: u32,
        /// Column of its foot.
        col: u32,
        /// What is wrong with it.
        why: String,
    },
    /// An inconsistency of the dungeon itself (stairs, for instance).
    #[error(transparent)]
    Dungeon(DungeonError),
}

/// A dungeon file that could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// The file could not be read. The message ends with the cause, so the cause is not
    /// also its [`std::error::Error::source`] (an error chain would print it twice).
    #[error("cannot read {path}: {cause}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    /// Not JSON, or JSON of the wrong shape.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// Another kind of file.
    #[error("`format` is {found:?}; an octile dungeon file says \"octile-dungeon\"")]
    NotADungeon {
        /// The `format` field found.
        found: String,
    },
    /// A version this build does not read.
    #[error("`version` is {found}; this build reads versions 1 to {supported}")]
    Version {
        /// Version found.
        found: u32,
        /// Version supported.
        supported: u32,
    },
    /// No `version` field, or `"version": null`.
    #[error("`version` is missing or null; this build reads versions 1 to {supported}")]
    NoVersion {
        /// Version supported.
        supported: u32,
    },
    /// The header (size, levels, proportions, registry) cannot make a dungeon.
    #[error(transparent)]
    Header(DungeonError),
    /// The plan has problems; every one is listed.
    #[error("{} problem(s):\n{}", problems.len(), problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid {
        /// Every problem found.
        problems: Vec<Problem>,
    },
}
