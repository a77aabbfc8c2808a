//! An edit session: the [`Editor`] of the dungeon shown, what the cursor hovers, the drag
//! stroke in progress, and where Ctrl+S saves and the export key writes. No window and no
//! GPU: the window turns clicks and keys into these calls, and draws what they report.

use std::path::{Path, PathBuf};

use crate::dungeon::{Dungeon, TileId};
use crate::edit::{Applied, Command, Connectivity, EditError, Editor};
use crate::geometry::Target;
use crate::grid::Pos;
use crate::mesh::chunk::ChunkId;

/// Radius (octagons) of the re-solve around the cursor.
pub const RESOLVE_RADIUS: u32 = 2;

/// The drag stroke in progress: every cell it painted is one undo step.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stroke {
    /// The tile the stroke paints (what its first cell became when it was toggled).
    tile: Option<TileId>,
    /// The last cell painted.
    last: Option<Pos>,
}

/// One edit session.
#[derive(Debug, Clone)]
pub struct Session {
    editor: Editor,
    save_to: PathBuf,
    stroke: Option<Stroke>,
    /// The room brush (`C`): a left drag paints a room ([`Command::PaintRoom`]) from the
    /// cell pressed to the cell released on, instead of a stroke.
    room_brush: bool,
    /// The room being dragged out: its first corner.
    corner: Option<Pos>,
    /// The chunks changed since the mesh was last brought up to date.
    dirty: Vec<ChunkId>,
    /// The last thing done or refused, for the status line.
    pub message: String,
}

impl Session {
    /// A session editing `dungeon`, saving to `save_to` (and exporting beside it).
    #[must_use]
    pub fn new(dungeon: Dungeon, save_to: PathBuf) -> Session {
        Session {
            editor: Editor::new(dungeon),
            save_to,
            stroke: None,
            room_brush: false,
            corner: None,
            dirty: Vec::new(),
            message: String::new(),
        }
    }

    /// The dungeon as edited.
    #[must_use]
    pub fn dungeon(&self) -> &Dungeon {
        self.editor.dungeon()
    }

    /// Where Ctrl+S saves.
    #[must_use]
    pub fn save_path(&self) -> &Path {
        &self.save_to
    }

    /// Where the export key writes: the save path with a `.glb` extension.
    #[must_use]
    pub fn export_path(&self) -> PathBuf {
        self.save_to.with_extension("glb")
    }

    /// True when there are changes not saved yet.
    #[must_use]
    pub fn is_modified(&self) -> bool {
        self.editor.is_modified()
    }

    /// Regions and unreachable cells now (the editor computes it once per change).
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.editor.connectivity()
    }

    /// The flow proof's verdict now, for a dungeon with a flow to prove
    /// ([`crate::edit::Editor::flow`]).
    #[must_use]
    pub fn flow(&self) -> Option<&crate::flow::Verdict> {
        self.editor.flow()
    }

    /// Undo and redo steps available.
    #[must_use]
    pub fn steps(&self) -> (usize, usize) {
        (self.editor.undo_steps(), self.editor.redo_steps())
    }

    /// Takes the chunks changed since the last call (to re-mesh and upload).
    pub fn take_dirty(&mut self) -> Vec<ChunkId> {
        std::mem::take(&mut self.dirty)
    }

    fn done(&mut self, what: &str, result: Result<Applied, EditError>) -> bool {
        match result {
            Ok(applied) => {
                let changed = !applied.changes.is_empty();
                self.dirty.extend(applied.dirty);
                self.dirty.sort_unstable();
                self.dirty.dedup();
                self.message = if changed { what.to_string() } else { format!("{what}: no change") };
                changed
            }
            Err(e) => {
                self.message = format!("{what} refused: {e}");
                false
            }
        }
    }

    fn run(&mut self, what: &str, cmd: &Command) -> bool {
        let result = self.editor.apply(cmd);
        self.done(what, result)
    }

    /// True when a left drag paints a room.
    #[must_use]
    pub fn is_room_brush(&self) -> bool {
        self.room_brush
    }

    /// Turns the room brush on or off.
    pub fn toggle_room_brush(&mut self) {
        self.release();
        self.room_brush = !self.room_brush;
        self.message = if self.room_brush {
            "room brush on: drag from one corner to the other".into()
        } else {
            "room brush off: clicks toggle cells".into()
        };
    }

    /// A left click on `target`: a wall cycles, a cell toggles and starts a paint stroke
    /// that [`Session::drag`] continues and [`Session::release`] ends (one undo step). With
    /// the room brush, a cell is the room's first corner and nothing changes yet.
    pub fn press(&mut self, target: Target) -> bool {
        if let (true, Target::Cell(pos)) = (self.room_brush, target) {
            self.corner = Some(pos);
            self.stroke = Some(Stroke { tile: None, last: Some(pos) });
            self.message = format!("room from {}", show(pos));
            return false;
        }
        match target {
            Target::Wall(pos, dir) => {
                self.run(&format!("cycle {} {dir:?}", show(pos)), &Command::Cycle { pos, dir })
            }
            Target::Cell(pos) => {
                self.editor.begin_group();
                let changed = self.run(&format!("toggle {}", show(pos)), &Command::Toggle { pos });
                let tile = self.editor.dungeon().tile(pos).ok();
                self.stroke = Some(Stroke { tile: tile.filter(|_| changed), last: Some(pos) });
                changed
            }
        }
    }

    /// The cursor moved over `target` with the button held: paints a newly entered cell
    /// with the stroke's tile.
    pub fn drag(&mut self, target: Option<Target>) -> bool {
        let Some(Target::Cell(pos)) = target else { return false };
        let Some(stroke) = self.stroke.as_mut().filter(|s| s.last != Some(pos)) else { return false };
        stroke.last = Some(pos);
        if self.corner.is_some() {
            return false;
        }
        let Some(tile) = stroke.tile else { return false };
        self.run(&format!("paint {}", show(pos)), &Command::Paint { cells: vec![pos], tile })
    }

    /// The button was released: the stroke becomes one undo step; a room dragged out
    /// with the room brush is painted, from its first corner to the last cell the drag
    /// reached on the same level. True when that changed the dungeon.
    pub fn release(&mut self) -> bool {
        let stroke = self.stroke.take();
        if let Some(from) = self.corner.take() {
            let to = stroke.and_then(|s| s.last).filter(|p| p.level == from.level).unwrap_or(from);
            let cmd = Command::PaintRoom { level: from.level, from: from.slot, to: to.slot };
            return self.run(
                &format!(
                    "room {} {},{}..{},{}",
                    from.level, from.slot.row, from.slot.col, to.slot.row, to.slot.col
                ),
                &cmd,
            );
        }
        if stroke.is_some() {
            self.editor.end_group();
        }
        false
    }

    /// Pins the cell at `pos`, or unpins it when it is pinned; with `room`, every cell of
    /// its room or corridor ([`crate::rooms::RoomGraph`]).
    pub fn pin(&mut self, pos: Pos, room: bool) -> bool {
        let pinned = self.dungeon().is_pinned(pos);
        let cells = if room { room_cells(self.dungeon(), pos) } else { vec![pos] };
        let what =
            format!("{} {} cell(s) at {}", if pinned { "unpin" } else { "pin" }, cells.len(), show(pos));
        self.run(&what, &Command::Pin { cells, pinned: !pinned })
    }

    /// Places a stair at `pos`, or removes the one there.
    pub fn stair(&mut self, pos: Pos) -> bool {
        if self.dungeon().is_stair(pos) {
            self.run(&format!("unstair {}", show(pos)), &Command::RemoveStair { pos })
        } else {
            self.run(&format!("stair {}", show(pos)), &Command::PlaceStair { pos })
        }
    }

    /// Re-solves the unpinned cells within [`RESOLVE_RADIUS`] octagons of `pos`.
    pub fn resolve(&mut self, pos: Pos) -> bool {
        self.release();
        let cmd = Command::Resolve { pos, radius: RESOLVE_RADIUS };
        self.run(&format!("resolve around {} radius {RESOLVE_RADIUS}", show(pos)), &cmd)
    }

    /// Undoes the last step.
    pub fn undo(&mut self) -> bool {
        self.release();
        let result = self.editor.undo();
        self.done("undo", result)
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) -> bool {
        self.release();
        let result = self.editor.redo();
        self.done("redo", result)
    }

    /// Saves the dungeon to [`Session::save_path`] atomically.
    ///
    /// # Errors
    /// [`crate::format::FormatError::Write`] when the file cannot be written.
    pub fn save(&mut self) -> Result<&Path, crate::format::FormatError> {
        self.release();
        crate::format::save(self.editor.dungeon(), &self.save_to)?;
        self.editor.mark_saved();
        self.message = format!("saved {}", self.save_to.display());
        Ok(&self.save_to)
    }

    /// Where [`Session::save_recovery`] writes: beside the save path, `NAME.unsaved.json`.
    #[must_use]
    pub fn recovery_path(&self) -> PathBuf {
        recovery_path(&self.save_to)
    }

    /// Writes the dungeon as edited to [`Session::recovery_path`], leaving the save path as
    /// it was and the changes still unsaved: what is kept when the window goes without a
    /// chance to ask (it was destroyed).
    ///
    /// # Errors
    /// [`crate::format::FormatError`] when the file cannot be written.
    pub fn save_recovery(&mut self) -> Result<PathBuf, crate::format::FormatError> {
        self.release();
        let to = self.recovery_path();
        crate::format::save(self.editor.dungeon(), &to)?;
        Ok(to)
    }

    /// Exports the dungeon as a `.glb` to [`Session::export_path`] with `options`.
    ///
    /// # Errors
    /// [`crate::export::ExportError`] as [`crate::export::Export::to_file`].
    pub fn export(
        &mut self,
        options: &crate::export::ExportOptions,
    ) -> Result<(PathBuf, crate::export::ExportSummary), crate::export::ExportError> {
        let to = self.export_path();
        let summary = crate::export::Export::new(self.editor.dungeon(), options).to_file(&to)?;
        self.message = format!("exported {}", to.display());
        Ok((to, summary))
    }
}

/// `L,R,C`, as scripts write positions.
#[must_use]
pub fn show(pos: Pos) -> String {
    format!("{},{},{}", pos.level, pos.slot.row, pos.slot.col)
}

/// The cells of the room or corridor holding `pos`, or just `pos` when it is in none.
fn room_cells(dungeon: &Dungeon, pos: Pos) -> Vec<Pos> {
    let graph = crate::rooms::RoomGraph::of(dungeon);
    match graph.room_at(dungeon, pos).and_then(|id| graph.room(id)) {
        Some(room) => room.cells.iter().map(|&slot| Pos { level: room.level, slot }).collect(),
        None => vec![pos],
    }
}

/// The recovery file of a dungeon saved to `save_to`: `NAME.unsaved.json` beside it, where
/// `NAME` is its file name less the extension.
fn recovery_path(save_to: &Path) -> PathBuf {
    let stem = save_to.file_stem().map_or_else(|| "dungeon".into(), |s| s.to_string_lossy().into_owned());
    save_to.with_file_name(format!("{stem}.unsaved.json"))
}
