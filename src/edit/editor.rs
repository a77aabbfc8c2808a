//! The editor: a dungeon, the commands applied to it, and their undo history.

use super::change::Recorder;
use super::dirty::dirty_chunks;
use super::{Change, Command, Connectivity, EditError, apply};
use crate::dungeon::Dungeon;
use crate::flow::Verdict;
use crate::mesh::chunk::ChunkId;
use std::sync::OnceLock;

/// What one applied command (or undo, or redo) did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// Every value changed, in the order it was changed (empty when the command changed
    /// nothing: setting a wall to the state it has).
    pub changes: Vec<Change>,
    /// The mesh chunks to rebuild ([`crate::mesh::chunk::build_chunk`]), sorted.
    pub dirty: Vec<ChunkId>,
}

/// A dungeon being edited: applies [`Command`]s or refuses them with an [`EditError`]
/// (leaving the dungeon as it was), and undoes and redoes them one user action at a time.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::edit::{Command, Editor};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
///
/// let d = Dungeon::new(4, 4, 1, Proportions::default(), Fill::Floor).unwrap();
/// let mut editor = Editor::new(d.clone());
/// let done = editor.apply(&Command::Cycle { pos: Pos::new(0, 2, 2), dir: Direction::E }).unwrap();
/// assert_eq!(done.changes.len(), 1);
/// assert!(!done.dirty.is_empty());
/// editor.undo().unwrap();
/// assert_eq!(editor.dungeon(), &d);
/// ```
#[derive(Debug, Clone)]
pub struct Editor {
    dungeon: Dungeon,
    history: super::history::History,
    /// The connectivity report of `dungeon`, once asked for, until the next change.
    report: OnceLock<Connectivity>,
    /// The flow proof's verdict on `dungeon`, once asked for, until the next change.
    flow: OnceLock<Option<Verdict>>,
}

impl Editor {
    /// An editor of `dungeon`, with an empty history, counted as saved.
    #[must_use]
    pub fn new(dungeon: Dungeon) -> Editor {
        Editor {
            dungeon,
            history: super::history::History::default(),
            report: OnceLock::new(),
            flow: OnceLock::new(),
        }
    }

    /// The flow proof's verdict on the dungeon as it is now ([`crate::flow::verify`]), for a
    /// dungeon with a flow to prove ([`Dungeon::has_flow`]; `None` otherwise): an edit may
    /// break it (a wall round a key, a passage round a lock), and the editor says so rather
    /// than refusing the edit. Computed when first asked for after a change, then kept.
    #[must_use]
    pub fn flow(&self) -> Option<&Verdict> {
        self.flow.get_or_init(|| self.dungeon.has_flow().then(|| crate::flow::verify(&self.dungeon))).as_ref()
    }

    /// Regions and unreachable cells of the dungeon as it is now (edits may split it; the
    /// editor reports it and never forbids an edit for it). Computed when first asked for
    /// after a change (a labelling of the whole dungeon), then kept.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.report.get_or_init(|| Connectivity::of(&self.dungeon)).clone()
    }

    /// The dungeon as edited so far.
    #[must_use]
    pub fn dungeon(&self) -> &Dungeon {
        &self.dungeon
    }

    /// The edited dungeon, giving up the history.
    #[must_use]
    pub fn into_dungeon(self) -> Dungeon {
        self.dungeon
    }

    /// Applies `cmd` as one undo step (or as part of the open group).
    ///
    /// # Errors
    /// [`EditError`] saying why the command was refused; the dungeon is then unchanged.
    pub fn apply(&mut self, cmd: &Command) -> Result<Applied, EditError> {
        let mut rec = Recorder::new(&mut self.dungeon);
        apply::apply(&mut rec, cmd)?;
        let changes = rec.changes;
        self.history.record(&changes);
        Ok(self.applied(changes))
    }

    /// Starts one undo step that gathers every command until [`Editor::end_group`] (a drag
    /// stroke; an edit and the re-solve it triggers).
    pub fn begin_group(&mut self) {
        self.history.begin();
    }

    /// Ends the group; true when it made an undo step (something changed).
    pub fn end_group(&mut self) -> bool {
        self.history.end()
    }

    /// True between [`Editor::begin_group`] and [`Editor::end_group`].
    #[must_use]
    pub fn in_group(&self) -> bool {
        self.history.in_group()
    }

    /// Undoes the last step (closing an open group first).
    ///
    /// # Errors
    /// [`EditError::NothingTo`] when there is nothing to undo.
    pub fn undo(&mut self) -> Result<Applied, EditError> {
        let changes = self.history.undo().ok_or(EditError::NothingTo("undo"))?;
        Ok(self.replay(changes))
    }

    /// Redoes the last undone step.
    ///
    /// # Errors
    /// [`EditError::NothingTo`] when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Applied, EditError> {
        let changes = self.history.redo().ok_or(EditError::NothingTo("redo"))?;
        Ok(self.replay(changes))
    }

    /// Steps that [`Editor::undo`] can undo.
    #[must_use]
    pub fn undo_steps(&self) -> usize {
        self.history.undo_len()
    }

    /// Steps that [`Editor::redo`] can redo.
    #[must_use]
    pub fn redo_steps(&self) -> usize {
        self.history.redo_len()
    }

    /// Makes the dungeon's registry know the standard state `name` (`void`, `drop`, a mission
    /// door) when it has nothing of that name yet ([`Dungeon::add_standard_state`]), so a
    /// command may name it. Not an edit: nothing is changed on the grid, and undo keeps the
    /// registry's new entry (it is unused until a command uses it). True when it was added.
    ///
    /// # Errors
    /// [`EditError::Dungeon`] when the registry has no room for it.
    pub fn add_standard_state(&mut self, name: &str) -> Result<bool, EditError> {
        Ok(self.dungeon.add_standard_state(name)?)
    }

    /// True when the dungeon has changes since it was opened or last saved.
    #[must_use]
    pub fn is_modified(&self) -> bool {
        self.history.is_modified()
    }

    /// Remembers the present state as saved (call after writing the file).
    pub fn mark_saved(&mut self) {
        self.history.mark_saved();
    }

    /// Writes recorded changes again (undo's inverses, or redo's changes).
    fn replay(&mut self, changes: Vec<Change>) -> Applied {
        for change in &changes {
            change.apply_to(&mut self.dungeon).expect("invariant: recorded values were valid here");
        }
        self.applied(changes)
    }

    fn applied(&mut self, changes: Vec<Change>) -> Applied {
        if !changes.is_empty() {
            self.report = OnceLock::new();
            self.flow = OnceLock::new();
        }
        let d = &self.dungeon;
        Applied { dirty: dirty_chunks(d, &changes), changes }
    }
}
