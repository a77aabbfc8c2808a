//! Editing a dungeon: commands that set tiles and edges, paint, place stairs and
//! markers, pin cells and re-solve around a point with WFC; undo and redo one user action
//! at a time; and, for each edit, the mesh chunks to rebuild and a connectivity report.
//! `octile edit` runs the same commands from a script ([`script`]); `docs/editing.md`
//! describes them.

mod apply;
mod change;
mod command;
mod dirty;
mod editor;
mod error;
mod history;
mod local;
mod report;
pub mod resolve;
mod room;
pub mod script;
pub mod seams;

pub use change::Change;
pub use command::{Command, rect_cells};
pub use dirty::dirty_chunks;
pub use editor::{Applied, Editor};
pub use error::EditError;
pub use report::Connectivity;
