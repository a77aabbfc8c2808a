//! The dungeon file format: versioned, human-readable JSON that names tiles and edge states
//! by name and draws each level as a plan of symbols. See `docs/format.md`.

mod error;
mod file;
mod mission;
mod pretty;
mod rooms;

pub(crate) use pretty::to_pretty;

pub use error::{FormatError, Problem};
pub use file::{FORMAT_NAME, FORMAT_VERSION, from_json, load, save, to_json};
