//! Undo and redo: a stack of steps, each the changes of one user action. A step is one
//! command, or every command between [`History::begin`] and [`History::end`] (a drag
//! stroke, an edit with the re-solve it triggered).

use super::Change;

/// One undo step: its changes in the order they were made, and an id for "saved here".
#[derive(Debug, Clone, PartialEq, Eq)]
struct Step {
    id: u64,
    changes: Vec<Change>,
}

/// The undo and redo stacks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
    /// The step being gathered between `begin` and `end`.
    open: Option<Vec<Change>>,
    next_id: u64,
    /// Id of the top step of `done` when the dungeon was last saved (0: none).
    saved: u64,
}

impl History {
    /// Opens a group: every change recorded until [`History::end`] is one step. A group
    /// already open stays open (groups do not nest).
    pub(crate) fn begin(&mut self) {
        self.open.get_or_insert_with(Vec::new);
    }

    /// Closes the open group; true when it made a step (it changed something).
    pub(crate) fn end(&mut self) -> bool {
        match self.open.take() {
            Some(changes) if !changes.is_empty() => {
                self.push(changes);
                true
            }
            _ => false,
        }
    }

    /// True while a group is open.
    pub(crate) fn in_group(&self) -> bool {
        self.open.is_some()
    }

    /// Records the changes of one command (into the open group, or as a step of its own).
    /// Clears the redo stack when anything changed.
    pub(crate) fn record(&mut self, changes: &[Change]) {
        if changes.is_empty() {
            return;
        }
        self.undone.clear();
        match &mut self.open {
            Some(group) => group.extend_from_slice(changes),
            None => self.push(changes.to_vec()),
        }
    }

    fn push(&mut self, changes: Vec<Change>) {
        self.undone.clear();
        self.next_id += 1;
        self.done.push(Step { id: self.next_id, changes });
    }

    /// The changes that undo the last step, in the order to make them (its changes
    /// inverted, last first); the step moves to the redo stack. Closes an open group first.
    pub(crate) fn undo(&mut self) -> Option<Vec<Change>> {
        self.end();
        let step = self.done.pop()?;
        let back = step.changes.iter().rev().map(|c| c.inverse()).collect();
        self.undone.push(step);
        Some(back)
    }

    /// The changes that redo the last undone step; it moves back to the undo stack.
    pub(crate) fn redo(&mut self) -> Option<Vec<Change>> {
        self.end();
        let step = self.undone.pop()?;
        let again = step.changes.clone();
        self.done.push(step);
        Some(again)
    }

    /// Undo steps available (a group still open counts when it changed something).
    pub(crate) fn undo_len(&self) -> usize {
        self.done.len() + usize::from(self.open.as_ref().is_some_and(|g| !g.is_empty()))
    }

    /// Redo steps available.
    pub(crate) fn redo_len(&self) -> usize {
        self.undone.len()
    }

    /// Remembers the present state as saved.
    pub(crate) fn mark_saved(&mut self) {
        self.end();
        self.saved = self.done.last().map_or(0, |s| s.id);
    }

    /// True when the dungeon differs from the last saved state by the steps taken since
    /// (undoing back to it counts as unmodified).
    pub(crate) fn is_modified(&self) -> bool {
        self.open.as_ref().is_some_and(|g| !g.is_empty())
            || self.done.last().map_or(0, |s| s.id) != self.saved
    }
}
