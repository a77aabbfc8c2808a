//! Chunks at full detail on demand: before a frame is drawn, the chunks it shows near
//! enough for full detail ([`Renderer::chunk_detail`]) are wanted; those not built yet are
//! meshed with [`build_chunks`] (nearest first, at most the budget) and uploaded, and the
//! cache drops the ones unused longest ([`crate::viewer::chunks::demand`]). A wanted chunk
//! not built yet is drawn from the coarse mesh meanwhile.

use glam::Vec3;

use super::upload::{ChunkGpu, slot_of};
use super::{ChunkMesh, Frame, Renderer};
use crate::mesh::chunk::build_chunks;
use crate::viewer::chunks::demand::DemandStats;
use crate::viewer::chunks::lod::{ChunkPolicy, Lod};

/// How a chunk is drawn in a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Detail {
    /// From its full-detail mesh (built on demand).
    Full,
    /// From the level's coarse mesh.
    Coarse,
}

impl Renderer {
    /// Sets how many chunks are built per frame: `None` (the default) builds every chunk a
    /// frame needs before drawing it (screenshots are complete); `Some(n)` builds the `n`
    /// nearest and draws the rest coarse until later frames have built them (a window
    /// stays responsive; [`super::FrameStats::chunks`] says how many are pending).
    pub fn set_chunk_budget(&mut self, budget: Option<usize>) {
        self.demand.set_budget(budget);
    }

    /// Sets how many built chunks are kept (more only while one frame needs more).
    pub fn set_chunk_capacity(&mut self, capacity: usize) {
        self.demand.set_capacity(capacity);
    }

    /// The chunk cache's counts after the last frame.
    #[must_use]
    pub fn chunk_stats(&self) -> DemandStats {
        self.demand.stats()
    }

    /// How many levels have their coarse mesh, outline and caps uploaded: those a frame
    /// has shown so far.
    #[must_use]
    pub fn levels_built(&self) -> usize {
        self.levels.iter().filter(|l| l.geometry.is_some()).count()
    }

    /// How many levels have their rock caps uploaded: those a frame that draws caps (the
    /// top view) has shown so far.
    #[must_use]
    pub fn levels_with_caps(&self) -> usize {
        self.levels.iter().filter(|l| l.geometry.as_ref().is_some_and(|g| g.caps.is_some())).count()
    }

    /// How `chunk` of level `i` is drawn in `frame` (`lod` its detail rule): `None` when it
    /// is outside the frustum, [`Detail::Coarse`] when it is far (with
    /// [`ChunkPolicy::Detail`] and a coarse mesh), else [`Detail::Full`].
    pub(super) fn chunk_detail(
        &self,
        frame: &Frame,
        i: usize,
        chunk: &ChunkGpu,
        lod: &Lod,
    ) -> Option<Detail> {
        let (min, max) = self.chunk_in_view(frame, i, chunk, lod)?;
        let coarse = self.levels[i].geometry.as_ref().is_some_and(|g| g.coarse.is_some());
        let coarse_ok = self.chunks == ChunkPolicy::Detail && coarse;
        Some(if coarse_ok && lod.coarse(min, max) { Detail::Coarse } else { Detail::Full })
    }

    /// `chunk` of level `i`'s bounds as `frame` places them (lifted by the exploded view's
    /// gap: chunk bounds are in world metres, floor height included), or `None` when it is
    /// outside the frustum and the chunk policy culls.
    pub(super) fn chunk_in_view(
        &self,
        frame: &Frame,
        i: usize,
        chunk: &ChunkGpu,
        lod: &Lod,
    ) -> Option<(Vec3, Vec3)> {
        let lift = Vec3::Y * (i as f32 * frame.explode);
        let (min, max) = (chunk.min + lift, chunk.max + lift);
        (self.chunks == ChunkPolicy::All || lod.in_view(min, max)).then_some((min, max))
    }

    /// Builds the full-detail chunks that `frame` (drawn `height` pixels high) and its
    /// inset need and are not built yet (as many as the budget allows, nearest first), and
    /// drops the chunks unused longest past the cache's capacity.
    pub(super) fn prepare_chunks(&mut self, device: &wgpu::Device, frame: &Frame, height: u32) {
        self.demand.begin_frame();
        self.want_chunks(frame, height);
        if let Some(inset) = &frame.inset {
            self.want_chunks(&inset.frame, inset.rect[3]);
        }
        let ids = self.demand.to_build();
        if !ids.is_empty() {
            match build_chunks(&self.dungeon, &ids, &self.mesh_options) {
                Ok(built) => {
                    for (id, mesh) in built {
                        let l = usize::from(id.level);
                        let chunk = ChunkMesh::upload(device, &mesh, &|role| slot_of(l, role), &self.torches);
                        self.demand.insert(id, chunk);
                    }
                }
                Err(e) => {
                    // Checked at start-up (`check_meshable`), so not expected: say it once
                    // and leave these chunks out rather than retry every frame.
                    if self.chunk_error.is_none() {
                        eprintln!("octile view: a chunk could not be meshed and is left out: {e}");
                        self.chunk_error = Some(e.to_string());
                    }
                    for id in ids {
                        self.demand.insert(id, None);
                    }
                }
            }
        }
        self.demand.finish_frame();
    }

    /// Tells the cache which chunks of `frame`'s levels it draws at full detail, with their
    /// distance to the camera.
    fn want_chunks(&mut self, frame: &Frame, height: u32) {
        let lod = self.lod(frame, height);
        let eye = frame.view.eye;
        let mut wanted = Vec::new();
        for (i, level) in self.levels.iter().enumerate() {
            if !frame.levels.contains(&(i as u16)) {
                continue;
            }
            let lift = Vec3::Y * (i as f32 * frame.explode);
            for chunk in &level.chunks {
                if self.chunk_detail(frame, i, chunk, &lod) == Some(Detail::Full) {
                    wanted.push((chunk.id, eye.clamp(chunk.min + lift, chunk.max + lift).distance(eye)));
                }
            }
        }
        for (id, distance) in wanted {
            self.demand.want(id, distance);
        }
    }
}
