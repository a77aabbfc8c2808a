//! The rooms by role ([`crate::viewer::room_tints`]) on the GPU: per level, one buffer per
//! role, uploaded when a frame that draws rooms first shows the level; the entrance's and
//! goal's stars, uploaded with the first such frame.

use super::uniforms::{GOAL_STAR_SLOT, ROOM_SLOT, START_STAR_SLOT};
use super::{Frame, FrameStats, Renderer, triangles_buffer};
use crate::dungeon::RoomRole;
use crate::grid::Pos;
use crate::viewer::room_tints::{level_tints, start_and_goal};

/// One uploaded triangle list and its vertex count.
type Uploaded = Option<(wgpu::Buffer, u32)>;

/// The room layers the renderer has uploaded so far.
#[derive(Default)]
pub(crate) struct RoomLayers {
    /// Per level once shown: per role (in [`RoomRole::ALL`] order) its rooms' floors.
    levels: Vec<Option<[Uploaded; RoomRole::ALL.len()]>>,
    /// The entrance's and the goal's stars with their levels, once uploaded.
    stars: Option<[(Option<u16>, Uploaded); 2]>,
}

impl Renderer {
    /// Uploads the room tints of the levels `frame` shows and the stars, where not yet
    /// done and the frame draws rooms.
    pub(super) fn prepare_rooms(&mut self, device: &wgpu::Device, frame: &Frame) {
        if !frame.rooms {
            return;
        }
        let dungeon = self.dungeon.clone();
        let rooms = &mut self.rooms;
        rooms.levels.resize_with(self.levels.len(), || None);
        for level in frame.levels.clone() {
            let Some(slot) = rooms.levels.get_mut(usize::from(level)) else { continue };
            if slot.is_none() {
                let tints = level_tints(&dungeon, level);
                *slot = Some(tints.map(|t| triangles_buffer(device, "room tints", &t)));
            }
        }
        if rooms.stars.is_none() {
            let levels = [dungeon.entrance(), dungeon.exit()].map(|p| p.map(|p: Pos| p.level));
            let [start, goal] = start_and_goal(&dungeon);
            rooms.stars = Some([
                (levels[0], triangles_buffer(device, "entrance star", &start)),
                (levels[1], triangles_buffer(device, "goal star", &goal)),
            ]);
        }
    }

    /// The room tints of the shown levels, over their floors (depth tested).
    pub(super) fn draw_room_tints(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &Frame,
        stats: &mut FrameStats,
    ) {
        if !frame.rooms {
            return;
        }
        pass.set_pipeline(&self.overlay);
        for level in frame.levels.clone() {
            let Some(Some(roles)) = self.rooms.levels.get(usize::from(level)) else { continue };
            for (role, uploaded) in roles.iter().enumerate() {
                if let Some((buffer, n)) = uploaded {
                    self.bind_slot(pass, self.path_slot + ROOM_SLOT + role);
                    pass.set_vertex_buffer(0, buffer.slice(..));
                    pass.draw(0..*n, 0..1);
                    stats.draw_calls += 1;
                    stats.triangles += u64::from(*n / 3);
                }
            }
        }
    }

    /// The entrance's and the goal's stars, over everything, where their level is shown.
    pub(super) fn draw_stars(&self, pass: &mut wgpu::RenderPass<'_>, frame: &Frame, stats: &mut FrameStats) {
        let (true, Some(stars)) = (frame.rooms, &self.rooms.stars) else { return };
        pass.set_pipeline(&self.overlay_on_top);
        for ((level, uploaded), slot) in stars.iter().zip([START_STAR_SLOT, GOAL_STAR_SLOT]) {
            if let (Some(level), Some((buffer, n))) = (level, uploaded)
                && frame.levels.contains(level)
            {
                self.bind_slot(pass, self.path_slot + slot);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..*n, 0..1);
                stats.draw_calls += 1;
                stats.triangles += u64::from(*n / 3);
            }
        }
    }
}
