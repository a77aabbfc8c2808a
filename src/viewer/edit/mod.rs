//! Edit mode and fog of war in the viewer window. The window calls [`EditMode`] from a few
//! hooks (a key, the mouse, once per frame, one extra draw in the scene pass); everything
//! else lives here:
//!
//! - [`ray`]: the ray through the cursor, picked with [`crate::geometry::pick()`] on the CPU;
//! - [`session`]: the [`crate::edit::Editor`], clicks and strokes, save and export;
//! - [`live`]: the mesh kept per chunk, re-meshed and re-uploaded only where an edit
//!   dirtied it;
//! - [`fog`] and [`overlay`]: the cells the walker cannot see, and the hover highlight, as
//!   triangles; [`gpu`] draws them;
//! - [`keys`]: the bindings.

pub mod fog;
pub mod gpu;
pub mod keys;
pub mod live;
pub mod overlay;
mod pointer;
pub mod ray;
pub mod session;
mod torches;

use std::path::PathBuf;

use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::keyboard::ModifiersState;

use self::fog::Fog;
use self::gpu::{Drawn, OverlayGpu, Target as PassTarget};
use self::keys::{EditKey, edit_help, edit_key};
use self::live::LiveMesh;
use self::session::{Session, show};
use super::camera::View;
use super::options::{Prepared, VIEW_RULES};
use super::renderer::Frame;
use crate::dungeon::Dungeon;
use crate::geometry::{Layout, Pick, Target};
use crate::grid::Dims;
use crate::mesh::MeshOptions;
use crate::rooms::Markers;

/// An empty range of levels: the renderer draws none.
const NO_LEVELS: std::ops::RangeInclusive<u16> = std::ops::RangeInclusive::new(1, 0);

/// What the last frame showed, for picking between frames (a click arrives before the
/// next frame is drawn).
#[derive(Debug, Clone, Copy)]
struct Seen {
    view: View,
    size: (u32, u32),
    level: u16,
    layout: Layout,
    dims: Dims,
}

/// Edit mode, fog of war and their overlays.
pub struct EditMode {
    on: bool,
    fog: Fog,
    fog_stale: bool,
    plan_stale: bool,
    save_to: PathBuf,
    mesh: MeshOptions,
    session: Option<Session>,
    live: Option<LiveMesh>,
    overlay: Option<OverlayGpu>,
    hover: Option<Pick>,
    drawn_hover: Option<Option<Target>>,
    cursor: Option<(f64, f64)>,
    painting: bool,
    ctrl: bool,
    shift: bool,
    messages: Vec<String>,
    seen: Option<Seen>,
    levels: std::ops::RangeInclusive<u16>,
    /// The torches of the edited dungeon, found again after edits.
    torches: torches::TorchFollow,
    /// Whether the flow proof held after the last edit (`None` before the first, or for a
    /// dungeon with no flow to prove): an edit that changes it is said on the HUD.
    flow_held: Option<bool>,
}

impl EditMode {
    /// Edit mode (off), saving to `save_to` and meshing with `mesh`.
    #[must_use]
    pub fn new(save_to: PathBuf, mesh: MeshOptions) -> EditMode {
        EditMode {
            on: false,
            fog: Fog::default(),
            fog_stale: true,
            plan_stale: true,
            save_to,
            mesh,
            session: None,
            live: None,
            overlay: None,
            hover: None,
            drawn_hover: None,
            cursor: None,
            painting: false,
            ctrl: false,
            shift: false,
            messages: Vec::new(),
            seen: None,
            levels: NO_LEVELS,
            torches: torches::TorchFollow::default(),
            flow_held: None,
        }
    }

    /// True while edit mode is on.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// True when the edited dungeon has changes not saved yet (Ctrl+S saves them).
    #[must_use]
    pub fn has_unsaved_edits(&self) -> bool {
        self.session.as_ref().is_some_and(Session::is_modified)
    }

    /// Writes unsaved edits to the session's recovery file ([`Session::save_recovery`]),
    /// for a window that is gone before it could ask: `None` without unsaved edits.
    pub fn save_recovery(&mut self) -> Option<Result<PathBuf, crate::format::FormatError>> {
        let session = self.session.as_mut().filter(|s| s.is_modified())?;
        Some(session.save_recovery())
    }

    /// The dungeon as edited, once edit mode has been entered.
    #[must_use]
    pub fn edited(&self) -> Option<&Dungeon> {
        self.session.as_ref().map(Session::dungeon)
    }

    fn say(&mut self, message: String) {
        self.messages.push(message);
    }

    /// The markers of the edited dungeon when an edit moved its torches since the last
    /// call (the live mesh is lit by the new ones already): the window draws them.
    pub fn take_moved_markers(&mut self) -> Option<Markers> {
        self.torches.take_moved()
    }

    /// True while edit mode has work left for the next frames (the torches of an edit
    /// being found): the window keeps drawing.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.torches.busy(self.painting)
    }

    /// The messages since the last call (for the HUD, which also prints them).
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// The window's hook for one event: keys, the left button and cursor moves. True when
    /// edit mode used it (the window then ignores it). `modifiers` are the keyboard's
    /// modifiers; `dungeon` is the one the window opened (edit mode starts from it).
    pub fn event(&mut self, event: &WindowEvent, modifiers: ModifiersState, dungeon: &Dungeon) -> bool {
        (self.ctrl, self.shift) = (modifiers.control_key(), modifiers.shift_key());
        match event {
            // A synthetic press is one winit makes up, on focus, for a key held meanwhile:
            // not a press of the user's (it toggled edit mode off again after F3).
            WindowEvent::KeyboardInput { is_synthetic: true, .. } => false,
            WindowEvent::KeyboardInput { event, .. } => {
                let key = edit_key(&event.logical_key, event.physical_key, self.ctrl, self.shift);
                self.key(key, event.state == ElementState::Pressed, event.repeat, dungeon)
            }
            WindowEvent::MouseInput { state, button: MouseButton::Left, .. } => {
                self.left_button(*state == ElementState::Pressed)
            }
            WindowEvent::CursorMoved { position, .. } => self.cursor_moved(position.x, position.y),
            _ => false,
        }
    }

    /// A key's command (`None`: not an edit key; `repeat`: a press the keyboard repeats
    /// while the key is held); true when edit
    /// mode used it. A held key repeats only undo and redo: a repeated F3 or V would toggle
    /// back and forth, a repeated edit would undo itself or pile up.
    fn key(&mut self, key: Option<EditKey>, pressed: bool, repeat: bool, dungeon: &Dungeon) -> bool {
        let Some(key) = key else { return false };
        if !pressed || (repeat && !matches!(key, EditKey::Undo | EditKey::Redo)) {
            return self.on && key != EditKey::Fog;
        }
        match key {
            EditKey::Edit => {
                self.on = !self.on;
                if self.on && self.session.is_none() {
                    self.session = Some(Session::new(dungeon.clone(), self.save_to.clone()));
                }
                self.drawn_hover = None;
                self.plan_stale = true;
                let to = self.save_to.display();
                let said = if self.on {
                    format!("edit mode on: Ctrl+S saves to {to}")
                } else {
                    "edit mode off".into()
                };
                self.say(said);
            }
            EditKey::Fog => {
                self.fog.toggle();
                self.fog_stale = true;
                self.say(format!("fog of war {}", if self.fog.is_on() { "on" } else { "off" }));
            }
            // Once edit mode has been entered the window shows the edited dungeon (the live
            // mesh), so the export key writes it, in edit mode or not.
            EditKey::Export if self.session.is_some() => self.command(key),
            _ if !self.on => return false,
            _ => self.command(key),
        }
        true
    }

    /// Runs an edit-mode command on the hovered cell (or the whole dungeon).
    fn command(&mut self, key: EditKey) {
        let Some(session) = self.session.as_mut() else { return };
        let pos = self.hover.map(|h| h.target.pos());
        let changed = match (key, pos) {
            (EditKey::Pin, Some(pos)) => session.pin(pos, false),
            (EditKey::PinRoom, Some(pos)) => session.pin(pos, true),
            (EditKey::Stair, Some(pos)) => session.stair(pos),
            (EditKey::RoomBrush, _) => {
                session.toggle_room_brush();
                false
            }
            (EditKey::Resolve, Some(pos)) => session.resolve(pos),
            (EditKey::Undo, _) => session.undo(),
            (EditKey::Redo, _) => session.redo(),
            (EditKey::Save, _) => {
                if let Err(e) = session.save() {
                    session.message = format!("save failed: {e}");
                }
                false
            }
            (EditKey::Export, _) => {
                let options = crate::export::ExportOptions { mesh: self.mesh.clone(), ..Default::default() };
                match session.export(&options) {
                    Ok((to, s)) => {
                        session.message = format!(
                            "exported {} ({} triangles, {} bytes)",
                            to.display(),
                            s.triangles,
                            s.bytes
                        );
                    }
                    Err(e) => session.message = format!("export failed: {e}"),
                }
                false
            }
            _ => {
                session.message = "point at a cell first".to_string();
                false
            }
        };
        self.after_edit(changed);
    }

    fn after_edit(&mut self, changed: bool) {
        if let Some(message) = self.session.as_ref().map(|s| format!("edit: {}", s.message)) {
            self.say(message);
        }
        if changed {
            self.fog.invalidate();
            self.fog_stale = true;
            self.plan_stale = true;
            self.drawn_hover = None;
            self.torches.edited();
        }
    }

    /// Once per frame, before drawing: picks what the cursor hovers, re-meshes the chunks
    /// the last edits dirtied, rebuilds the walk world after an edit, recomputes the fog
    /// when the walker changed cell, and takes over drawing the levels while editing (it
    /// empties `frame.levels`: the renderer then draws no level, [`EditMode::draw`] does).
    ///
    /// # Panics
    /// Never: the overlays are made at the top of the call before they are used.
    pub fn frame(
        &mut self,
        gpu: &super::gpu::Gpu,
        target: PassTarget,
        dungeon: &Dungeon,
        prepared: &mut Prepared,
        frame: &mut Frame,
        size: (u32, u32),
    ) {
        let device = &gpu.device;
        let overlay = self.overlay.get_or_insert_with(|| OverlayGpu::new(device, target));
        overlay.prepare(&gpu.queue, frame.view.view_proj);
        if self.on && self.live.is_none() {
            let d = self.session.as_ref().map_or(dungeon, Session::dungeon);
            self.live = Some(LiveMesh::new(
                device,
                target.format,
                target.samples,
                d,
                &self.mesh,
                prepared.scene.torches.clone(),
            ));
        }
        let edited = self.session.as_mut().map(Session::take_dirty).unwrap_or_default();
        if let (Some(live), Some(session), false) =
            (self.live.as_mut(), self.session.as_ref(), edited.is_empty())
        {
            if let Err(e) = live.update(device, session.dungeon(), &edited) {
                self.messages.push(format!("edit: cannot re-mesh: {e}"));
            }
            prepared.world = crate::walk::World::with_rules(session.dungeon(), &VIEW_RULES);
        }
        if let Some(message) = self.session.as_ref().and_then(|s| flow_news(&mut self.flow_held, s)) {
            self.messages.push(message);
        }
        // Torches follow the rooms, found on a thread of their own once an edit is done.
        if let (Some(live), Some(session)) = (self.live.as_mut(), self.session.as_ref())
            && let Some(message) = self.torches.step(device, self.painting, session.dungeon(), live)
        {
            self.messages.push(message);
        }
        let d = self.session.as_ref().map_or(dungeon, Session::dungeon);
        let state = &prepared.state;
        let level = state.current_level(&prepared.world);
        self.seen = Some(Seen { view: frame.view, size, level, layout: *d.layout(), dims: d.dims() });
        self.hover = if self.on { self.pick_now() } else { None };
        let walker = state.walker.xz();
        let walker_level = prepared.world.level_at(state.walker.feet.y + state.walker.body.max_step);
        if self.fog.update(d, walker_level, walker) || self.fog_stale {
            let cells = self.fog.dimmed(d, 0..=d.levels().saturating_sub(1));
            let overlay = self.overlay.as_mut().expect("invariant: made above");
            overlay.set_fog(device, &overlay::fog_boxes(d.layout(), &cells));
            self.fog_stale = false;
        }
        if self.plan_stale {
            let (outlines, pins) = if self.on { plan_overlay(d) } else { (Vec::new(), Vec::new()) };
            self.overlay.as_mut().expect("invariant: made above").set_plan(device, &outlines, &pins);
            self.plan_stale = false;
        }
        let hovered = self.hover.map(|h| h.target);
        if self.drawn_hover != Some(hovered) {
            let vertices = hovered.map(|t| overlay::highlight(d.layout(), t)).unwrap_or_default();
            self.overlay.as_mut().expect("invariant: made above").set_highlight(device, &vertices);
            self.drawn_hover = Some(hovered);
        }
        self.levels = frame.levels.clone();
        if let Some(live) = self.live.as_mut() {
            live.shade_as(device, frame);
            if let Err(e) = live.prepare(device, d, frame) {
                self.messages.push(format!("edit: cannot mesh: {e}"));
            }
        }
        // Once made, the live mesh has the edits: it draws the levels even after edit mode.
        if self.live.is_some() {
            frame.levels = NO_LEVELS;
            frame.outlines = false;
        }
    }

    /// Draws the live mesh (while editing), the fog and the highlight into the scene pass;
    /// returns the draw calls issued and their triangles (the window adds them to the
    /// renderer's count in the HUD: while the live mesh draws the levels, the renderer
    /// draws none).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame) -> Drawn {
        let mut drawn = Drawn::default();
        if let Some(live) = self.live.as_ref() {
            let shown = Frame { levels: self.levels.clone(), ..frame.clone() };
            drawn = drawn + live.draw(pass, &shown);
        }
        if let Some(overlay) = &self.overlay {
            drawn = drawn + overlay.draw(pass);
        }
        drawn
    }

    /// The HUD lines of edit mode: mode and tool, hovered cell or wall (level,row,col,
    /// kind, state, pinned), regions, unsaved changes, the last edit, key help; empty when
    /// edit mode is off and there is no fog.
    #[must_use]
    pub fn hud_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.fog.is_on() {
            lines.push("fog of war: what the walker cannot see is dimmed (V)".to_string());
        }
        let Some(session) = self.session.as_ref().filter(|_| self.on) else { return lines };
        let d = session.dungeon();
        let tool = match (session.is_room_brush(), self.painting) {
            (true, true) => "room brush: release on the opposite corner",
            (true, false) => "room brush (C): drag corner to corner",
            (false, true) => "painting",
            (false, false) => "click/drag",
        };
        let hovered = self.hover.map_or_else(|| "nothing".to_string(), |h| describe(d, h.target));
        let (undo, redo) = session.steps();
        let saved = if session.is_modified() { "UNSAVED changes" } else { "saved" };
        lines.push(format!("EDIT mode | tool: {tool} | {saved} | undo {undo}, redo {redo}"));
        lines.push(format!("hover: {hovered}"));
        lines.push(format!("{} | file {}", session.connectivity(), session.save_path().display()));
        if let Some(verdict) = session.flow() {
            let mark = if verdict.holds() { "" } else { "FLOW BROKEN | " };
            lines.push(format!("{mark}{verdict}"));
        }
        lines.push(format!("E/X export the edited dungeon to {}", session.export_path().display()));
        if !session.message.is_empty() {
            lines.push(format!("last: {}", session.message));
        }
        lines.extend(edit_help());
        lines
    }

    /// The key help of edit mode, line by line.
    #[must_use]
    pub fn help() -> Vec<String> {
        edit_help()
    }
}

/// What to say when the flow proof's verdict on `session`'s dungeon changed since `held`
/// (which it then updates): `flow broken: ` and the first failure when an edit broke it,
/// `flow holds again` when one mended it; nothing the first time, or without a flow.
fn flow_news(held: &mut Option<bool>, session: &Session) -> Option<String> {
    let verdict = session.flow()?;
    let before = held.replace(verdict.holds())?;
    match (before, verdict.holds()) {
        (true, false) => {
            Some(format!("flow broken: {}", verdict.first().map(ToString::to_string).unwrap_or_default()))
        }
        (false, true) => Some("flow holds again".into()),
        _ => None,
    }
}

/// Edit mode's plan overlay of `d`: the outlines of its carved cells and the floors of its
/// pinned cells.
fn plan_overlay(d: &Dungeon) -> (Vec<overlay::OverlayVertex>, Vec<overlay::OverlayVertex>) {
    let carved: Vec<_> = d.cells().filter(|&p| d.is_carved(p)).collect();
    let pinned: Vec<_> = d.cells().filter(|&p| d.is_pinned(p)).collect();
    (overlay::outlines(d.layout(), &carved), overlay::floors(d.layout(), &pinned))
}

/// `cell L,R,C octagon floor pinned` or `wall L,R,C E octagon: door`.
#[must_use]
pub fn describe(d: &Dungeon, target: Target) -> String {
    let pos = target.pos();
    let kind = format!("{:?}", pos.slot.kind()).to_lowercase();
    let tile = d.tile_def(pos).map(|t| t.name.clone()).unwrap_or_default();
    let pinned = if d.is_pinned(pos) { " pinned" } else { "" };
    match target {
        Target::Cell(_) => format!("cell {} {kind} {tile}{pinned}", show(pos)),
        Target::Wall(_, dir) => {
            let state = match d.edge_state(pos, dir) {
                Ok(Some(s)) => d.registry().edge_def(s).map(|e| e.name.clone()).unwrap_or_default(),
                _ => "border wall".to_string(),
            };
            format!("wall {} {} of {kind} {tile}{pinned}: {state}", show(pos), dir.name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_f3_toggles_edit_mode_once() {
        let d = crate::format::from_json(include_str!("../../../assets/plus_arena.json")).unwrap();
        let mut edit = EditMode::new(PathBuf::from("arena.json"), MeshOptions::default());
        let f3 = Some(EditKey::Edit);
        assert!(edit.key(f3, true, false, &d));
        assert!(edit.is_on());
        // The keyboard repeats a held key: the repeats leave edit mode on.
        for _ in 0..3 {
            assert!(edit.key(f3, true, true, &d), "a repeat in edit mode is edit mode's");
        }
        assert!(edit.is_on(), "a repeated F3 toggled edit mode off");
        edit.key(f3, false, false, &d);
        edit.key(f3, true, false, &d);
        assert!(!edit.is_on(), "a second press leaves edit mode");
    }
}
