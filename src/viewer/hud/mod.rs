//! The on-screen HUD: lines of text in sections (one per owner: the view's own lines, the
//! editor's, ...), short-lived messages ("arrived", "no route: pass --path", errors) and the
//! key help, drawn over the scene with a small bitmap font ([`font`]).
//!
//! Any viewer code holds the [`Hud`] through the window and pushes to it:
//! [`Hud::set_section`] replaces its owner's lines, [`Hud::say`] and [`Hud::warn`] show a
//! message for [`MESSAGE_SECONDS`]. [`Hud::quads`] lays everything out as screen rectangles
//! ([`HudQuad`]) that the renderer draws on top of the frame.

pub mod draw;
pub mod font;
mod info;
mod layout;

pub use info::view_lines;
pub use layout::{HudQuad, Style, layout_lines};

/// How long a message stays on screen (seconds).
pub const MESSAGE_SECONDS: f64 = 4.0;

/// How a message reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// News ("arrived").
    Info,
    /// Something refused or failed.
    Error,
}

/// A message and the seconds it has left.
#[derive(Debug, Clone, PartialEq)]
struct Message {
    text: String,
    tone: Tone,
    left: f64,
}

/// The HUD's content. Every change bumps [`Hud::revision`], so the window redraws (and
/// re-uploads the quads) only when something changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Hud {
    sections: Vec<(String, Vec<String>)>,
    messages: Vec<Message>,
    help: Vec<String>,
    show_help: bool,
    shown: bool,
    revision: u64,
}

impl Hud {
    /// An empty HUD whose help panel shows `help` (one line per `\n`), help hidden.
    #[must_use]
    pub fn new(help: &str) -> Hud {
        Hud {
            sections: Vec::new(),
            messages: Vec::new(),
            help: help.lines().map(str::to_owned).collect(),
            show_help: false,
            shown: true,
            revision: 0,
        }
    }

    /// Replaces the lines of section `owner` (created after the existing ones the first
    /// time). Sections are drawn top-left in the order they were first set.
    pub fn set_section(&mut self, owner: &str, lines: Vec<String>) {
        match self.sections.iter_mut().find(|(o, _)| o == owner) {
            Some((_, old)) if *old == lines => return,
            Some((_, old)) => *old = lines,
            None => self.sections.push((owner.to_owned(), lines)),
        }
        self.revision += 1;
    }

    /// Removes section `owner`.
    pub fn clear_section(&mut self, owner: &str) {
        let before = self.sections.len();
        self.sections.retain(|(o, _)| o != owner);
        if self.sections.len() != before {
            self.revision += 1;
        }
    }

    /// The lines of section `owner`, if set (what the tests read back).
    #[cfg(test)]
    #[must_use]
    pub fn section(&self, owner: &str) -> Option<&[String]> {
        self.sections.iter().find(|(o, _)| o == owner).map(|(_, l)| l.as_slice())
    }

    /// Shows `text` for [`MESSAGE_SECONDS`] (and prints it on stderr, for scripts and logs).
    pub fn say(&mut self, text: impl Into<String>) {
        self.push(text.into(), Tone::Info);
    }

    /// Shows `text` as an error for [`MESSAGE_SECONDS`] (and prints it on stderr).
    pub fn warn(&mut self, text: impl Into<String>) {
        self.push(text.into(), Tone::Error);
    }

    fn push(&mut self, text: String, tone: Tone) {
        eprintln!("{text}");
        self.messages.retain(|m| m.text != text);
        self.messages.push(Message { text, tone, left: MESSAGE_SECONDS });
        if self.messages.len() > 4 {
            self.messages.remove(0);
        }
        self.revision += 1;
    }

    /// The messages on screen, oldest first (what the tests read back).
    #[cfg(test)]
    pub fn messages(&self) -> impl Iterator<Item = (&str, Tone)> {
        self.messages.iter().map(|m| (m.text.as_str(), m.tone))
    }

    /// Lets `dt` seconds pass: expired messages go.
    pub fn tick(&mut self, dt: f64) {
        let before = self.messages.len();
        for m in &mut self.messages {
            m.left -= dt;
        }
        self.messages.retain(|m| m.left > 0.0);
        if self.messages.len() != before {
            self.revision += 1;
        }
    }

    /// Seconds until the next message expires (the window wakes then), if any is shown.
    #[must_use]
    pub fn next_expiry(&self) -> Option<f64> {
        self.messages.iter().map(|m| m.left).reduce(f64::min)
    }

    /// Shows or hides the key help.
    pub fn toggle_help(&mut self) {
        self.show_help = !self.show_help;
        self.revision += 1;
    }

    /// True while the key help is shown.
    #[must_use]
    pub fn help_shown(&self) -> bool {
        self.show_help
    }

    /// Shows or hides the whole HUD (messages stay).
    pub fn set_shown(&mut self, shown: bool) {
        if self.shown != shown {
            self.shown = shown;
            self.revision += 1;
        }
    }

    /// True while the sections are drawn.
    #[must_use]
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// A number that changes whenever anything drawn changes.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The HUD laid out on a `width x height` pixel screen: sections top-left (with a hint
    /// for the help key), messages bottom centre, the help centred when shown.
    #[must_use]
    pub fn quads(&self, width: u32, height: u32) -> Vec<HudQuad> {
        let style = Style::for_screen(height);
        let mut quads = Vec::new();
        // Where the top-left panel ends (pixels from the top): the help goes below it when
        // the screen is tall enough.
        let mut below_sections = 0;
        if self.shown {
            let mut lines: Vec<(&str, [u8; 4])> =
                self.sections.iter().flat_map(|(_, l)| l.iter()).map(|l| (l.as_str(), style.text)).collect();
            if !self.show_help {
                lines.push(("F1 or H: keys", style.dim));
            }
            if !lines.is_empty() {
                below_sections = 2 * style.margin + style.panel_size(&lines, width).1;
            }
            quads.extend(layout_lines(&lines, (style.margin, style.margin), width, &style));
        }
        if !self.messages.is_empty() {
            let lines: Vec<(&str, [u8; 4])> = self
                .messages
                .iter()
                .map(|m| (m.text.as_str(), if m.tone == Tone::Error { style.error } else { style.news }))
                .collect();
            let (w, h) = style.panel_size(&lines, width);
            let at = (width.saturating_sub(w) / 2, height.saturating_sub(h + 4 * style.margin));
            quads.extend(layout_lines(&lines, at, width, &style));
        }
        if self.show_help {
            let lines: Vec<(&str, [u8; 4])> = self.help.iter().map(|l| (l.as_str(), style.text)).collect();
            let (w, h) = style.panel_size(&lines, width);
            let centred = height.saturating_sub(h) / 2;
            let top = if below_sections + h <= height { centred.max(below_sections) } else { centred };
            quads.extend(layout_lines(&lines, (width.saturating_sub(w) / 2, top), width, &style));
        }
        quads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_messages_and_help_change_the_revision_and_the_quads() {
        let mut hud = Hud::new("Tab camera\nQ quit");
        let r0 = hud.revision();
        hud.set_section("view", vec!["level 0".into()]);
        assert!(hud.revision() > r0);
        let r1 = hud.revision();
        hud.set_section("view", vec!["level 0".into()]);
        assert_eq!(hud.revision(), r1, "the same lines are no change");
        hud.set_section("edit", vec!["edit: floor".into()]);
        assert_eq!(hud.section("edit"), Some(&["edit: floor".to_owned()][..]));
        let plain = hud.quads(800, 600).len();
        hud.say("arrived");
        assert!(hud.quads(800, 600).len() > plain, "a message adds quads");
        assert!(hud.next_expiry().is_some_and(|s| s > 3.9));
        hud.tick(MESSAGE_SECONDS + 0.1);
        assert_eq!(hud.messages().count(), 0);
        assert_eq!(hud.next_expiry(), None);
        hud.toggle_help();
        assert!(hud.help_shown());
        assert!(hud.quads(800, 600).len() > plain, "the help adds its lines");
        hud.clear_section("edit");
        assert_eq!(hud.section("edit"), None);
        hud.set_shown(false);
        hud.toggle_help();
        assert!(hud.quads(800, 600).is_empty(), "hidden and no help or messages: nothing drawn");
    }

    #[test]
    fn the_help_starts_below_the_top_left_panel_where_the_screen_has_room() {
        let help: String = (0..20).map(|i| format!("key {i} does something\n")).collect();
        let mut hud = Hud::new(&help);
        hud.set_section("view", (0..5).map(|i| format!("view line {i}")).collect());
        let sections_bottom = |hud: &Hud, w, h| hud.quads(w, h)[0].rect[1] + hud.quads(w, h)[0].rect[3];
        hud.toggle_help();
        for (w, h) in [(1280, 720), (800, 600)] {
            let quads = hud.quads(w, h);
            // Panels are the solid quads: the sections' first, then the help's.
            let panels: Vec<&HudQuad> = quads.iter().filter(|q| q.glyph == layout::SOLID).collect();
            assert_eq!(panels.len(), 2, "{w}x{h}");
            assert!(panels[1].rect[1] >= sections_bottom(&hud, w, h), "{w}x{h}: the help covers the HUD");
            assert!(
                panels[1].rect[1] + panels[1].rect[3] <= h as f32,
                "{w}x{h}: the help runs off the screen"
            );
        }
        // Too short a screen for both: the help is centred over the HUD rather than cut.
        let quads = hud.quads(640, 240);
        let help_panel = quads.iter().filter(|q| q.glyph == layout::SOLID).nth(1).unwrap();
        assert!(help_panel.rect[1] < sections_bottom(&hud, 640, 240));
    }
}
