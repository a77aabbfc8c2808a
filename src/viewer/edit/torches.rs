//! Torches that follow the rooms an edit makes or fills. Finding them walks the whole
//! dungeon (its room graph: about 0.1 s on a 200x200x3 dungeon), so it runs on a thread of
//! its own once an edit is done (after a paint stroke, not per cell painted); the frame
//! that finds it finished lights the live mesh with the new torches.

use std::sync::mpsc::{Receiver, TryRecvError};

use super::live::LiveMesh;
use crate::dungeon::Dungeon;
use crate::rooms::Markers;
use crate::viewer::markers::{markers_of, torch_positions};

/// Where the edited dungeon's torches are being found, and what was found.
#[derive(Debug, Default)]
pub(super) struct TorchFollow {
    /// An edit was made since the torches were last looked for.
    stale: bool,
    /// The markers being found for the dungeon as it was when the search started.
    job: Option<Receiver<Markers>>,
    /// The markers of the edited dungeon when its torches moved, for the window.
    moved: Option<Markers>,
}

impl TorchFollow {
    /// An edit changed the dungeon: its torches may have moved.
    pub(super) fn edited(&mut self) {
        self.stale = true;
    }

    /// True while the torches are being found, or are to be found now that no stroke is
    /// under way (`painting`): the window keeps drawing frames until they are in.
    pub(super) fn busy(&self, painting: bool) -> bool {
        self.job.is_some() || (self.stale && !painting)
    }

    /// Once per frame: starts finding the torches of `dungeon` when an edit is done and no
    /// search runs (`painting`: a stroke is under way), and when a search has finished,
    /// lights `live` with its torches. A message for the HUD when the mesh cannot be lit.
    pub(super) fn step(
        &mut self,
        device: &wgpu::Device,
        painting: bool,
        dungeon: &Dungeon,
        live: &mut LiveMesh,
    ) -> Option<String> {
        if let Some(job) = &self.job {
            let found = match job.try_recv() {
                Ok(found) => found,
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.job = None;
                    return Some("edit: the torches could not be found again".to_string());
                }
            };
            self.job = None;
            // An edit made while it ran leaves `stale` set: the next frame looks again.
            match live.set_torches(device, dungeon, &torch_positions(&found)) {
                Ok(true) => self.moved = Some(found),
                Ok(false) => {}
                Err(e) => return Some(format!("edit: cannot light the edit: {e}")),
            }
        }
        if self.stale && !painting {
            self.stale = false;
            let (tx, rx) = std::sync::mpsc::channel();
            let edited = dungeon.clone();
            std::thread::spawn(move || {
                // The receiver is gone only when edit mode is: nothing to tell then.
                let _ = tx.send(markers_of(&edited));
            });
            self.job = Some(rx);
        }
        None
    }

    /// The markers of the edited dungeon when its torches moved since the last call.
    pub(super) fn take_moved(&mut self) -> Option<Markers> {
        self.moved.take()
    }
}
