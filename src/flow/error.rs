//! Errors of room-graph specs and their realisation.

use crate::dungeon::DungeonError;
use crate::generate::GenerateError;

/// A spec that could not be read or realised.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FlowError {
    /// The text is not JSON or not a spec's shape.
    #[error("flow spec, line {line}, column {column}: {message}")]
    Json {
        /// Line (from 1).
        line: usize,
        /// Column (from 1).
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// Another kind of file, or a version this build does not read.
    #[error(
        "not an octile flow spec: `format` is {format:?} and `version` {version:?}; a spec says \"format\": \"octile-flow\", \"version\": 1"
    )]
    Format {
        /// The `format` found.
        format: Option<String>,
        /// The `version` found.
        version: Option<u32>,
    },
    /// An element of the spec that is wrong on its own (before any grid is tried).
    #[error("flow spec, {element}: {why}")]
    Spec {
        /// The room, connection or cycle at fault (`room "hall"`, `connection 3 (a -> b)`).
        element: String,
        /// What is wrong.
        why: String,
    },
    /// An element that does not fit the grid: the last of the layouts tried failed on it.
    #[error(
        "flow spec, {element}: cannot be placed on {cols}x{rows} octagons x {levels} level(s) (seed {seed}, {tries} layouts): {why}"
    )]
    Placement {
        /// The room or connection that could not be placed.
        element: String,
        /// Why.
        why: String,
        /// Octagon columns.
        cols: u32,
        /// Octagon rows.
        rows: u32,
        /// Levels.
        levels: u32,
        /// The seed.
        seed: u64,
        /// Layouts tried.
        tries: u32,
    },
    /// Generating the rest around the placed rooms failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The dungeon refused a room or cell (an internal limit).
    #[error(transparent)]
    Dungeon(#[from] DungeonError),
}
