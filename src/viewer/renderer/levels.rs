//! Drawing the levels chunk by chunk: chunks outside the frustum skipped, far chunks drawn
//! from the coarse mesh (neighbouring ones in one call), near ones from their full-detail
//! mesh once built (`demand.rs`), outlines only where they can show, as the renderer's
//! [`ChunkPolicy`] says.

use glam::Vec3;

use super::demand::Detail;
use super::draw::pixels_per_metre;
use super::{CAP_SLOT, Frame, FrameStats, OUTLINE_SLOT, Renderer, SLOTS_PER_LEVEL};
use crate::mesh::MaterialRole;
use crate::mesh::chunk::CHUNK_SLOTS;
use crate::viewer::chunks::lod::{ChunkPolicy, Lod};

/// Draws the index ranges `(first, count)` that `runs` lists, joining each range to the one
/// before when both are drawn and the second starts where the first ends: far chunks side
/// by side become one draw. `drawn` says whether a chunk's range is drawn.
fn draw_runs(
    runs: impl Iterator<Item = (usize, u32, u32)>,
    drawn: &dyn Fn(usize) -> bool,
    draw: &mut dyn FnMut(u32, u32),
) {
    let mut open: Option<(u32, u32)> = None;
    for (chunk, first, count) in runs {
        if count == 0 || !drawn(chunk) {
            continue;
        }
        match open {
            Some((start, end)) if end == first => open = Some((start, first + count)),
            _ => {
                if let Some((start, end)) = open {
                    draw(start, end);
                }
                open = Some((first, first + count));
            }
        }
    }
    if let Some((start, end)) = open {
        draw(start, end);
    }
}

impl Renderer {
    /// The detail rule for `frame` drawn `height` pixels high.
    pub(super) fn lod(&self, frame: &Frame, height: u32) -> Lod {
        let v = &frame.view;
        Lod::new(v.view_proj, v.eye, v.orthographic, height, self.chunk_size / CHUNK_SLOTS as f32)
    }

    /// True when `role`'s draws of level `i` cannot show in `frame`: straight down, walls
    /// have no area and ceilings face away; with [`ChunkPolicy::Detail`], ceilings below a
    /// perspective camera face away too.
    fn role_hidden(&self, frame: &Frame, i: usize, role: Option<&MaterialRole>) -> bool {
        let v = &frame.view;
        match role {
            Some(MaterialRole::Wall) => v.orthographic,
            Some(MaterialRole::Ceiling) => {
                let tallest = self.tallest_room.get(i).copied().unwrap_or(self.room_height);
                let ceiling = self.floor_y[i] + i as f32 * frame.explode + tallest;
                v.orthographic || (self.chunks == ChunkPolicy::Detail && v.eye.y > ceiling + 0.01)
            }
            _ => false,
        }
    }

    /// The visible levels' meshes and (when [`Frame::caps`]) rock caps, nearest level first
    /// (so depth testing rejects the levels it hides), chunks outside the frustum skipped,
    /// far chunks coarse.
    pub(super) fn draw_levels(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &Frame,
        height: u32,
        stats: &mut FrameStats,
    ) {
        let v = &frame.view;
        let mut order: Vec<usize> =
            (0..self.levels.len()).filter(|&i| frame.levels.contains(&(i as u16))).collect();
        order.sort_by_key(|&i| {
            let y = self.floor_y[i];
            let key = if v.orthographic { -y * v.eye.y.signum() } else { (v.eye.y - y).abs() };
            (key * 16.0) as i64
        });
        let lod = self.lod(frame, height);
        // Seen by an orthographic camera an upward face has the same light all over: the
        // caps and floors are drawn flat, a few instructions a fragment and no varyings
        // (on lavapipe the lit pipeline made the caps cost a quarter of the top view and
        // the floors half of it).
        let flat = v.orthographic;
        // Textured floors keep the textured pipeline: their texture is what the view shows.
        let flat_floors = flat && !self.shading.textures;
        for &i in &order {
            // The level's rock caps (over its walls, above its floor) first: depth testing
            // then rejects what they hide.
            let caps =
                self.levels[i].geometry.as_ref().and_then(|g| g.caps.as_ref()).and_then(Option::as_ref);
            if let (true, Some((buffer, n))) = (frame.caps, caps) {
                pass.set_pipeline(if flat { &self.flat } else { self.solid() });
                self.bind_slot(pass, i * SLOTS_PER_LEVEL + CAP_SLOT);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
            if flat_floors {
                let floor = |role: Option<&MaterialRole>| role == Some(&MaterialRole::Floor);
                pass.set_pipeline(&self.flat);
                self.draw_level(pass, frame, i, &lod, &floor, stats);
                pass.set_pipeline(self.solid());
                self.draw_level(pass, frame, i, &lod, &|role| !floor(role), stats);
            } else {
                pass.set_pipeline(self.solid());
                self.draw_level(pass, frame, i, &lod, &|_| true, stats);
            }
        }
    }

    /// Level `i`'s draws of the roles `wanted` picks, with the pipeline set: near chunks
    /// from their full-detail mesh (from the coarse mesh until built), far ones from its
    /// coarse mesh.
    fn draw_level(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &Frame,
        i: usize,
        lod: &Lod,
        wanted: &dyn Fn(Option<&MaterialRole>) -> bool,
        stats: &mut FrameStats,
    ) {
        let shown = |slot: usize| {
            let role = MaterialRole::ALL.get(slot % SLOTS_PER_LEVEL);
            wanted(role) && !self.role_hidden(frame, i, role)
        };
        let level = &self.levels[i];
        let lift = Vec3::Y * (i as f32 * frame.explode);
        let mut coarse = vec![false; level.chunks.len()];
        let mut bind = |pass: &mut wgpu::RenderPass<'_>, slot: usize, range: (u32, u32)| {
            self.bind_slot(pass, slot);
            pass.draw_indexed(range.0..range.1, 0, 0..1);
            stats.draw_calls += 1;
            stats.triangles += u64::from((range.1 - range.0) / 3);
        };
        for (c, chunk) in level.chunks.iter().enumerate() {
            match self.chunk_detail(frame, i, chunk, lod) {
                None => {}
                Some(Detail::Coarse) => coarse[c] = true,
                Some(Detail::Full) => match self.demand.get(chunk.id) {
                    Some(Some(mesh)) => {
                        mesh.bind(pass);
                        for &(slot, first, count) in mesh.draws.iter().filter(|(slot, _, _)| shown(*slot)) {
                            bind(pass, slot, (first, first + count));
                        }
                    }
                    // Built, and nothing to draw.
                    Some(None) => {}
                    // Not built yet (the budget ran out): the coarse mesh stands in.
                    None => coarse[c] = true,
                },
            }
        }
        let far = level.geometry.as_ref().and_then(|g| g.coarse.as_ref());
        let Some(far) = far.filter(|_| coarse.contains(&true)) else { return };
        pass.set_vertex_buffer(0, far.vertices.slice(..));
        pass.set_index_buffer(far.indices.slice(..), wgpu::IndexFormat::Uint32);
        for group in far.groups.iter().filter(|g| shown(g.slot)) {
            // Walls whose whole sector faces away from the camera are back faces: skipped.
            let drawn = |c: usize| {
                let chunk = &level.chunks[c];
                coarse[c]
                    && group
                        .sector
                        .is_none_or(|s| !lod.faces_away(chunk.min + lift, chunk.max + lift, s, far.spread))
            };
            draw_runs(group.runs.iter().copied(), &drawn, &mut |a, b| bind(pass, group.slot, (a, b)));
        }
    }

    /// The floor outlines of the visible levels: of the chunks in the frustum, and with
    /// [`ChunkPolicy::Detail`] only where they have not faded out.
    pub(super) fn draw_outlines(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &Frame,
        size: (u32, u32),
        stats: &mut FrameStats,
    ) {
        let lod = self.lod(frame, size.1);
        // An orthographic view whose cells are large on screen draws them unfaded (the
        // shader's `outline_alpha` is 1 from 2 pixels per metre).
        let opaque = frame.view.orthographic && pixels_per_metre(frame, size) >= 2.0;
        pass.set_pipeline(if opaque { &self.flat_lines } else { &self.lines });
        for (i, level) in self.levels.iter().enumerate().filter(|(i, _)| frame.levels.contains(&(*i as u16)))
        {
            let Some(geometry) = &level.geometry else { continue };
            let Some((buffer, _)) = &geometry.outline else { continue };
            let lift = Vec3::Y * (i as f32 * frame.explode);
            let shown: Vec<bool> = level
                .chunks
                .iter()
                .map(|c| {
                    let (min, max) = (c.min + lift, c.max + lift);
                    match self.chunks {
                        ChunkPolicy::All => true,
                        ChunkPolicy::Culled => lod.in_view(min, max),
                        ChunkPolicy::Detail => lod.outlines_show(min, max) && lod.in_view(min, max),
                    }
                })
                .collect();
            if !shown.contains(&true) {
                continue;
            }
            self.bind_slot(pass, i * SLOTS_PER_LEVEL + OUTLINE_SLOT);
            pass.set_vertex_buffer(0, buffer.slice(..));
            let runs =
                geometry.outline_ranges.iter().enumerate().map(|(c, &(first, count))| (c, first, count));
            draw_runs(runs, &|c| shown[c], &mut |a, b| {
                pass.draw(a..b, 0..1);
                stats.draw_calls += 1;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_drawn_neighbours_join_and_gaps_split() {
        // Chunks 0..5 with ranges 0..3, 3..6, 6..9 (chunk 3 has none), 9..12, 12..15.
        let runs = [(0, 0, 3), (1, 3, 3), (2, 6, 3), (4, 9, 3), (5, 12, 3)];
        let drawn = [true, true, false, true, true, true];
        let mut draws = Vec::new();
        draw_runs(runs.iter().copied(), &|c| drawn[c], &mut |a, b| draws.push((a, b)));
        assert_eq!(draws, [(0, 6), (9, 15)]);
        let mut none = Vec::new();
        draw_runs(runs.iter().copied(), &|_| false, &mut |a, b| none.push((a, b)));
        assert!(none.is_empty());
    }
}
