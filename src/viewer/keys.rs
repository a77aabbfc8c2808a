//! The viewer's key bindings, in one table that both the help text and the dispatcher
//! read. Letters are matched by the character typed (so an AZERTY user quits with the key
//! marked Q); movement (WASD and the arrows), Shift and Space go by key position.

use winit::keyboard::{Key, KeyCode, NamedKey, PhysicalKey};

/// A command the keyboard gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Switch camera: orbit, walk, top.
    Camera,
    /// Next level mode.
    LevelMode,
    /// Next level up.
    LevelUp,
    /// Next level down.
    LevelDown,
    /// Floor outlines on/off.
    Outlines,
    /// Start or stop the guided tour of the `--path` route.
    Tour,
    /// Respawn at the entrance, facing the spawn heading.
    Respawn,
    /// Export what is shown.
    Export,
    /// Show or hide the key help.
    Help,
    /// Show or hide the HUD.
    Hud,
    /// Frame the whole dungeon (orbit and top).
    Home,
    /// Mouse-look faster.
    LookFaster,
    /// Mouse-look slower.
    LookSlower,
    /// Invert mouse-look's vertical axis.
    InvertLook,
    /// Open or close the door faced in walk mode.
    Door,
    /// Markers on/off.
    Markers,
    /// Rooms by role (and the entrance and goal stars) on/off in the top view and maps.
    Rooms,
    /// Torch light on/off.
    Torches,
    /// Texture set on/off.
    Textures,
    /// Minimap on/off (walk), full map (orbit and top).
    Map,
    /// Release the mouse, else quit.
    Escape,
    /// Quit.
    Quit,
}

impl Command {
    /// True when a press the keyboard repeats while the key is held gives this command
    /// again: the stepping ones (level up and down, mouse-look speed). Toggles and one-shot
    /// commands act once per press: a held T would switch torch light on and off, a held E
    /// export again and again, a held Esc quit after releasing the mouse.
    #[must_use]
    pub fn repeats(self) -> bool {
        matches!(self, Command::LevelUp | Command::LevelDown | Command::LookFaster | Command::LookSlower)
    }
}

/// Every binding: the key as the help shows it, what it matches, the command, what it does.
pub const BINDINGS: &[(&str, Binding, Command, &str)] = &[
    ("Tab", Binding::Named(NamedKey::Tab), Command::Camera, "switch camera: orbit, walk, top"),
    ("L", Binding::Char('l'), Command::LevelMode, "level mode: all, only, cutaway, exploded"),
    ("PgUp/PgDn", Binding::Named(NamedKey::PageUp), Command::LevelUp, "choose the level (orbit, top)"),
    ("", Binding::Named(NamedKey::PageDown), Command::LevelDown, ""),
    ("Home", Binding::Named(NamedKey::Home), Command::Home, "frame the whole dungeon (orbit, top)"),
    ("O", Binding::Char('o'), Command::Outlines, "floor outlines on/off"),
    ("P", Binding::Char('p'), Command::Tour, "walk the --path route (again: stop)"),
    ("R", Binding::Char('r'), Command::Respawn, "respawn at the entrance"),
    ("F", Binding::Char('f'), Command::Door, "open or close the door you face (walk)"),
    ("K", Binding::Char('k'), Command::Markers, "markers on/off (spawns, props, torches, hinges)"),
    ("J", Binding::Char('j'), Command::Rooms, "rooms by role, entrance and goal stars on/off (top, maps)"),
    (
        "T",
        Binding::Char('t'),
        Command::Torches,
        "torch light on/off (torches near the camera light the walk)",
    ),
    ("U", Binding::Char('u'), Command::Textures, "textures on/off (sampled with the exported UVs)"),
    ("M", Binding::Char('m'), Command::Map, "minimap (walk) / full map"),
    ("E", Binding::Char('e'), Command::Export, "export what is shown (octile-view.glb)"),
    ("[ ]", Binding::Char('['), Command::LookSlower, "mouse-look slower / faster"),
    ("", Binding::Char(']'), Command::LookFaster, ""),
    ("I", Binding::Char('i'), Command::InvertLook, "invert mouse-look up/down"),
    ("F1 or H", Binding::Named(NamedKey::F1), Command::Help, "this help"),
    ("", Binding::Char('h'), Command::Help, ""),
    ("F2", Binding::Named(NamedKey::F2), Command::Hud, "HUD on/off"),
    (
        "Esc",
        Binding::Named(NamedKey::Escape),
        Command::Escape,
        "release the mouse, else close the help, else quit",
    ),
    ("Q", Binding::Char('q'), Command::Quit, "quit (twice with unsaved edits)"),
];

/// Mouse and movement help, after the key table.
pub const MOUSE_HELP: &[&str] = &[
    "Orbit: left-drag turn, right-drag pan, wheel zoom to the cursor, click focus",
    "Top: wheel zoom to the cursor, drag pan",
    "Walk: click grabs the mouse, mouse look, WASD/arrows move, Shift run, Space jump",
];

/// What a binding matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// The character typed (lower case).
    Char(char),
    /// A named key.
    Named(NamedKey),
}

/// The movement keys, by position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    /// Forward (W, Up).
    pub forward: bool,
    /// Back (S, Down).
    pub back: bool,
    /// Left (A, Left).
    pub left: bool,
    /// Right (D, Right).
    pub right: bool,
    /// Run (Shift).
    pub run: bool,
}

impl Held {
    /// Records a movement key by position; true when `key` is one (it then gives no command).
    pub fn set(&mut self, key: PhysicalKey, pressed: bool) -> bool {
        let PhysicalKey::Code(code) = key else { return false };
        let flag = match code {
            KeyCode::KeyW | KeyCode::ArrowUp => &mut self.forward,
            KeyCode::KeyS | KeyCode::ArrowDown => &mut self.back,
            KeyCode::KeyA | KeyCode::ArrowLeft => &mut self.left,
            KeyCode::KeyD | KeyCode::ArrowRight => &mut self.right,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => &mut self.run,
            _ => return false,
        };
        *flag = pressed;
        true
    }

    /// True while a key that moves the walker is held.
    #[must_use]
    pub fn moving(&self) -> bool {
        self.forward || self.back || self.left || self.right
    }
}

/// The letter (lower case) a key typed, as bindings match it: `logical` is winit's key with
/// every modifier but Ctrl applied, so Shift+Q and Ctrl+Z give `q` and `z`; `None` for a key
/// that types no character.
#[must_use]
pub fn typed_letter(logical: &Key) -> Option<char> {
    match logical {
        Key::Character(s) => s.chars().next()?.to_lowercase().next(),
        _ => None,
    }
}

/// The command of the key that typed `logical` (None for keys without one).
#[must_use]
pub fn command(logical: &Key) -> Option<Command> {
    let binding = match logical {
        Key::Character(_) => Binding::Char(typed_letter(logical)?),
        Key::Named(n) => Binding::Named(*n),
        _ => return None,
    };
    BINDINGS.iter().find(|b| b.1 == binding).map(|b| b.2)
}

/// The command a key event gives in view mode: the binding of `logical` when `pressed`,
/// unless the press is one the keyboard repeats (`repeat`) and the command does not
/// [`Command::repeats`], or one winit makes up (`synthetic`: on focus, for a key held
/// meanwhile), as edit mode treats its keys.
#[must_use]
pub fn command_for(logical: &Key, pressed: bool, repeat: bool, synthetic: bool) -> Option<Command> {
    command(logical).filter(|c| pressed && !synthetic && (!repeat || c.repeats()))
}

/// The key help, one line per binding (for `--help`, the window's help panel, docs).
#[must_use]
pub fn help_text() -> String {
    let mut out = String::new();
    for (key, _, _, does) in BINDINGS.iter().filter(|b| !b.0.is_empty()) {
        out.push_str(&format!("{key:<10} {does}\n"));
    }
    for line in MOUSE_HELP {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_go_by_character_and_movement_by_position() {
        assert_eq!(command(&Key::Character("q".into())), Some(Command::Quit));
        assert_eq!(command(&Key::Character("Q".into())), Some(Command::Quit), "Shift+Q too");
        assert_eq!(command(&Key::Named(NamedKey::F1)), Some(Command::Help));
        assert_eq!(command(&Key::Character("z".into())), None);
        let mut held = Held::default();
        // AZERTY: the key at QWERTY's A types 'q' but moves left and quits nothing.
        assert!(held.set(PhysicalKey::Code(KeyCode::KeyA), true));
        assert!(held.left && held.moving());
        assert!(!held.set(PhysicalKey::Code(KeyCode::KeyQ), true));
        let help = help_text();
        assert!(help.contains("Tab") && help.contains("F1 or H") && help.contains("Space jump"), "{help}");
        let commands: Vec<Command> = BINDINGS.iter().map(|b| b.2).collect();
        assert_eq!(command(&Key::Character("u".into())), Some(Command::Textures));
        for c in [Command::Quit, Command::Door, Command::Map, Command::Home, Command::Textures] {
            assert!(commands.contains(&c), "{c:?} has a key");
        }
    }

    #[test]
    fn a_held_toggle_key_acts_once_and_a_stepping_key_repeats() {
        let key = |c: &str| Key::Character(c.into());
        // T held: the press switches torch light, the keyboard's repeats do nothing.
        assert_eq!(command_for(&key("t"), true, false, false), Some(Command::Torches));
        for toggle in ["t", "u", "m", "k", "o", "l", "p", "f", "e", "i", "h"] {
            assert_eq!(command_for(&key(toggle), true, true, false), None, "{toggle} repeated");
        }
        for named in [NamedKey::Tab, NamedKey::Escape, NamedKey::F1, NamedKey::F2, NamedKey::Home] {
            assert_eq!(command_for(&Key::Named(named), true, true, false), None, "{named:?} repeated");
        }
        // Stepping keys step on.
        assert_eq!(command_for(&Key::Named(NamedKey::PageUp), true, true, false), Some(Command::LevelUp));
        assert_eq!(command_for(&key("]"), true, true, false), Some(Command::LookFaster));
        // Releases and made-up presses (winit's, on focus) give nothing.
        assert_eq!(command_for(&key("t"), false, false, false), None);
        assert_eq!(command_for(&key("t"), true, false, true), None);
        assert_eq!(command_for(&Key::Named(NamedKey::PageUp), true, false, true), None);
    }

    #[test]
    fn the_viewer_docs_list_every_key() {
        let docs = include_str!("../../docs/viewer.md");
        for (key, _, _, _) in BINDINGS.iter().filter(|b| !b.0.is_empty()) {
            assert!(docs.contains(&format!("| {key} |")), "docs/viewer.md has no row for key {key}");
        }
    }
}
