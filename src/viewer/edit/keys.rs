//! The keys of edit mode and fog of war, in one table that the help and the dispatcher
//! both read. As in view mode (`viewer::keys`), letters are matched by the
//! character typed (an AZERTY user undoes with Ctrl and the key marked Z), keys without a
//! character (F3) by position; with Ctrl and Shift.

use winit::keyboard::{Key, KeyCode, PhysicalKey};

use crate::viewer::keys::typed_letter;

/// What a binding answers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The key that types this letter (lower case).
    Letter(char),
    /// The key at this position (keys that type no character).
    Code(KeyCode),
}

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
    /// The room brush on or off: a left drag paints a room with one doorway per side.
    RoomBrush,
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

/// Every binding: key, Ctrl held, Shift held (`None`: either), command, key help. No
/// letter here is a view-mode letter (`viewer::keys::BINDINGS`) but E, which
/// exports in both (the edited dungeon once edit mode has been entered): edit mode takes
/// keys first, so a shared letter would hide the view's command while editing.
pub const EDIT_BINDINGS: &[(Trigger, bool, Option<bool>, EditKey, &str)] = &[
    (Trigger::Code(KeyCode::F3), false, None, EditKey::Edit, "F3 edit mode"),
    (Trigger::Letter('v'), false, None, EditKey::Fog, "V fog of war (walk)"),
    (Trigger::Letter('n'), false, Some(false), EditKey::Pin, "N pin cell"),
    (Trigger::Letter('n'), false, Some(true), EditKey::PinRoom, "Shift+N pin room"),
    (Trigger::Letter('b'), false, None, EditKey::Stair, "B stair"),
    (Trigger::Letter('c'), false, None, EditKey::RoomBrush, "C room brush (drag corner to corner)"),
    (Trigger::Letter('g'), false, None, EditKey::Resolve, "G re-solve"),
    (Trigger::Letter('z'), true, Some(false), EditKey::Undo, "Ctrl+Z undo"),
    (Trigger::Letter('z'), true, Some(true), EditKey::Redo, "Ctrl+Shift+Z/Ctrl+Y redo"),
    (Trigger::Letter('y'), true, None, EditKey::Redo, ""),
    (Trigger::Letter('s'), true, None, EditKey::Save, "Ctrl+S save"),
    (Trigger::Letter('e'), false, None, EditKey::Export, "E/X export edited .glb"),
    (Trigger::Letter('x'), false, None, EditKey::Export, ""),
];

/// The command of the key that typed `logical` at `physical` with these modifiers, if any.
#[must_use]
pub fn edit_key(logical: &Key, physical: PhysicalKey, ctrl: bool, shift: bool) -> Option<EditKey> {
    let letter = typed_letter(logical);
    EDIT_BINDINGS
        .iter()
        .find(|(trigger, c, s, _, _)| {
            let hit = match *trigger {
                Trigger::Letter(l) => letter == Some(l),
                Trigger::Code(code) => physical == PhysicalKey::Code(code),
            };
            hit && *c == ctrl && s.is_none_or(|s| s == shift)
        })
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

    /// The binding of the key at `code` that types `typed`.
    fn key(typed: &str, code: KeyCode, ctrl: bool, shift: bool) -> Option<EditKey> {
        edit_key(&Key::Character(typed.into()), PhysicalKey::Code(code), ctrl, shift)
    }

    #[test]
    fn modifiers_pick_the_binding() {
        assert_eq!(key("z", KeyCode::KeyZ, true, false), Some(EditKey::Undo));
        assert_eq!(key("Z", KeyCode::KeyZ, true, true), Some(EditKey::Redo));
        assert_eq!(key("y", KeyCode::KeyY, true, false), Some(EditKey::Redo));
        assert_eq!(key("z", KeyCode::KeyZ, false, false), None);
        assert_eq!(key("s", KeyCode::KeyS, false, false), None, "plain S walks");
        assert_eq!(key("N", KeyCode::KeyN, false, true), Some(EditKey::PinRoom));
        assert!(edit_help().iter().any(|l| l.contains("Ctrl+S save")));
        assert_eq!(key("e", KeyCode::KeyE, false, false), Some(EditKey::Export), "E exports the edits");
        assert_eq!(key("x", KeyCode::KeyX, false, false), Some(EditKey::Export));
        let f3 = edit_key(
            &Key::Named(winit::keyboard::NamedKey::F3),
            PhysicalKey::Code(KeyCode::F3),
            false,
            false,
        );
        assert_eq!(f3, Some(EditKey::Edit));
    }

    #[test]
    fn letters_go_by_the_character_typed() {
        // AZERTY: the key at QWERTY's W position types z; Ctrl+that key undoes.
        assert_eq!(key("z", KeyCode::KeyW, true, false), Some(EditKey::Undo));
        assert_eq!(key("w", KeyCode::KeyZ, true, false), None, "the position of Z does not undo");
        assert_eq!(key("b", KeyCode::KeyB, false, false), Some(EditKey::Stair));
    }

    #[test]
    fn edit_letters_leave_the_view_letters_alone() {
        use crate::viewer::keys::command;
        for (trigger, ..) in EDIT_BINDINGS {
            if let Trigger::Letter(l) = *trigger {
                let view = command(&Key::Character(l.to_string().into()));
                assert!(
                    view.is_none() || l == 'e',
                    "edit mode's {l} hides the view's {view:?} while editing"
                );
            }
        }
    }
}
