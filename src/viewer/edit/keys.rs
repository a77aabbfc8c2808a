//! The keys of edit mode and fog of war, in one table that the help and the dispatcher
//! both read. Matched by key position, with Ctrl and Shift.

use winit::keyboard::KeyCode;

/// What a key does in edit mode (or, for [`EditKey::Edit`] and [`EditKey::Fog`], always).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditKey {
    /// Enter or leave edit mode.
    Edit,
    /// Fog of war on/off (what the walker cannot see is dimmed).
    Fog,
    /// Pin or unpin the hovered cell.
    Pin,
    /// Pin or unpin the hovered cell's whole room.
    PinRoom,
    /// Place or remove a stair on the hovered cell.
    Stair,
    /// Re-solve around the hovered cell.
    Resolve,
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Save the dungeon file.
    Save,
    /// Export the edited dungeon as a `.glb` next to the dungeon file (in edit mode E, the
    /// viewer's export key, does this instead of exporting the mesh it opened with).
    Export,
}

/// Every binding: key, Ctrl held, Shift held (`None`: either), command, key help.
pub const EDIT_BINDINGS: &[(KeyCode, bool, Option<bool>, EditKey, &str)] = &[
    (KeyCode::F3, false, None, EditKey::Edit, "F3 edit mode"),
    (KeyCode::KeyV, false, None, EditKey::Fog, "V fog of war (walk)"),
    (KeyCode::KeyN, false, Some(false), EditKey::Pin, "N pin cell"),
    (KeyCode::KeyN, false, Some(true), EditKey::PinRoom, "Shift+N pin room"),
    (KeyCode::KeyT, false, None, EditKey::Stair, "T stair"),
    (KeyCode::KeyG, false, None, EditKey::Resolve, "G re-solve"),
    (KeyCode::KeyZ, true, Some(false), EditKey::Undo, "Ctrl+Z undo"),
    (KeyCode::KeyZ, true, Some(true), EditKey::Redo, "Ctrl+Shift+Z/Ctrl+Y redo"),
    (KeyCode::KeyY, true, None, EditKey::Redo, ""),
    (KeyCode::KeyS, true, None, EditKey::Save, "Ctrl+S save"),
    (KeyCode::KeyE, false, None, EditKey::Export, "E/X export edited .glb"),
    (KeyCode::KeyX, false, None, EditKey::Export, ""),
];

/// The command of `code` with these modifiers, if any.
#[must_use]
pub fn edit_key(code: KeyCode, ctrl: bool, shift: bool) -> Option<EditKey> {
    EDIT_BINDINGS
        .iter()
        .find(|(k, c, s, _, _)| *k == code && *c == ctrl && s.is_none_or(|s| s == shift))
        .map(|b| b.3)
}

/// The key help of edit mode: the mouse, then the keys, four to a line.
#[must_use]
pub fn edit_help() -> Vec<String> {
    let keys: Vec<&str> = EDIT_BINDINGS.iter().map(|b| b.4).filter(|h| !h.is_empty()).collect();
    std::iter::once("click wall: cycle | click cell: toggle | drag: paint".to_string())
        .chain(keys.chunks(4).map(|c| c.join(" | ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_pick_the_binding() {
        assert_eq!(edit_key(KeyCode::KeyZ, true, false), Some(EditKey::Undo));
        assert_eq!(edit_key(KeyCode::KeyZ, true, true), Some(EditKey::Redo));
        assert_eq!(edit_key(KeyCode::KeyY, true, false), Some(EditKey::Redo));
        assert_eq!(edit_key(KeyCode::KeyZ, false, false), None);
        assert_eq!(edit_key(KeyCode::KeyS, false, false), None, "plain S walks");
        assert_eq!(edit_key(KeyCode::KeyN, false, true), Some(EditKey::PinRoom));
        assert!(edit_help().iter().any(|l| l.contains("Ctrl+S save")));
        assert_eq!(edit_key(KeyCode::KeyE, false, false), Some(EditKey::Export), "E exports the edits");
        assert_eq!(edit_key(KeyCode::KeyX, false, false), Some(EditKey::Export));
    }
}
