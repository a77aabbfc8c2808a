//! The per-draw uniforms (group 1): one slot of [`DRAW_STRIDE`] bytes per draw, holding its
//! colour, how it is shaded and the level it stands on; and the renderer's slot layout.

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::DRAW_STRIDE;
use crate::dungeon::RoomRole;
use crate::mesh::MaterialRole;
use crate::viewer::palette::{
    BACKDROP, GOAL_STAR, HIGHLIGHT, MARK, MARKER, OUTLINE, PATH, ROCK_CAP, START_STAR, TORCH, level_tint,
};
use crate::viewer::room_tints::{lock_colour, tint_colour};
use crate::viewer::textures::Surface;

/// Draw slots per level: the roles, then the outline, then the rock caps.
pub(super) const SLOTS_PER_LEVEL: usize = MaterialRole::ALL.len() + 2;
/// A level's outline slot, after its roles.
pub(super) const OUTLINE_SLOT: usize = MaterialRole::ALL.len();
/// A level's rock cap slot.
pub(super) const CAP_SLOT: usize = MaterialRole::ALL.len() + 1;
/// After the path slot: the marks' slot.
pub(super) const MARK_SLOT: usize = 3;
/// After the path slot: the inset's backdrop.
pub(super) const BACKDROP_SLOT: usize = 4;
/// After the path slot: the markers.
pub(super) const MARKER_SLOT: usize = 5;
/// After the path slot: the torch lights.
pub(super) const LIGHT_SLOT: usize = 6;
/// After the path slot: the first of the room tints, one slot per role in
/// [`RoomRole::ALL`] order.
pub(super) const ROOM_SLOT: usize = 7;
/// After the path slot: the entrance's star.
pub(super) const START_STAR_SLOT: usize = ROOM_SLOT + RoomRole::ALL.len();
/// After the path slot: the goal's star.
pub(super) const GOAL_STAR_SLOT: usize = START_STAR_SLOT + 1;
/// After the path slot: the first of a mission's keys and locks, one slot per lock colour
/// ([`crate::plan::LOCK_COLOUR_COUNT`]).
pub(super) const KEY_SLOT: usize = GOAL_STAR_SLOT + 1;
/// Slots after the path slot: path, highlight, door leaves, the four above, the room
/// tints, the two stars and the keys' colours.
const OVERLAY_SLOTS: usize = KEY_SLOT + crate::plan::LOCK_COLOUR_COUNT;

/// A draw's colour alpha in the shader: lit by the lights.
const LIT: f32 = 1.0;
/// Unlit (overlays).
const EMISSIVE: f32 = 0.0;
/// Unlit and faded with distance (outlines).
const FADED: f32 = 2.0;

/// One draw's uniforms, as the shader reads them.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable, Default)]
pub(crate) struct DrawUniform {
    colour: [f32; 4],
    offset: [f32; 4],
    /// x: the texture layer of its surface; y: 1 = textured (a level's roles), 0 = plain.
    material: [f32; 4],
}

impl DrawUniform {
    /// A draw of `colour` shaded as `lit` says ([`LIT`], [`EMISSIVE`], [`FADED`]) on
    /// `level`, lifted to floor height `y` (metres; the exploded view lifts levels apart),
    /// or in world space (the level found from the height) when `level` is `None`.
    fn new(colour: [f32; 3], lit: f32, y: f32, level: Option<usize>) -> DrawUniform {
        DrawUniform {
            colour: [colour[0], colour[1], colour[2], lit],
            offset: [y, level.unwrap_or(0) as f32, if level.is_none() { 1.0 } else { 0.0 }, 0.0],
            material: [0.0; 4],
        }
    }

    /// The draw of the rock caps of `level`, whose floor is at `y`: their colour tinted by
    /// the level, lit.
    pub(crate) fn rock_caps(level: usize, y: f32) -> DrawUniform {
        DrawUniform::new(tinted(ROCK_CAP, level), LIT, y, Some(level))
    }

    /// The draw of `role` on `level`, whose floor is at `y`: the role's colour tinted by
    /// the level, lit (a stair's treads shaded by their height), textured with the role's
    /// [`Surface`] when the pipeline is.
    pub(crate) fn level_role(level: usize, role: MaterialRole, y: f32) -> DrawUniform {
        let [red, green, blue, _] = role.colour();
        let mut draw = DrawUniform::new(tinted([red, green, blue], level), LIT, y, Some(level));
        // Stairs: treads shaded by their height, so the steps show from above.
        draw.offset[3] = if role == MaterialRole::Stair { 1.0 } else { 0.0 };
        draw.material = [Surface::of(role).layer() as f32, 1.0, 0.0, 0.0];
        draw
    }
}

/// `colour` times `level`'s tint.
fn tinted(colour: [f32; 3], level: usize) -> [f32; 3] {
    let tint = level_tint(level);
    [colour[0] * tint[0], colour[1] * tint[1], colour[2] * tint[2]]
}

/// A bind group over `draws`, each in its own slot of [`DRAW_STRIDE`] bytes (bound with a
/// dynamic offset of `slot * DRAW_STRIDE`).
pub(crate) fn draw_bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    draws: &[DrawUniform],
) -> wgpu::BindGroup {
    let mut bytes = vec![0u8; draws.len().max(1) * DRAW_STRIDE as usize];
    for (slot, draw) in draws.iter().enumerate() {
        let at = slot * DRAW_STRIDE as usize;
        bytes[at..at + size_of::<DrawUniform>()].copy_from_slice(bytemuck::bytes_of(draw));
    }
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: &bytes,
        usage: wgpu::BufferUsages::UNIFORM,
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &buffer,
                offset: 0,
                size: wgpu::BufferSize::new(size_of::<DrawUniform>() as u64),
            }),
        }],
    })
}

/// The renderer's draws: per level (floors at `floor_y`) its roles, outline and rock caps,
/// then the path, highlight, door leaves, marks, inset backdrop, markers, torch lights, room
/// tints by role, the entrance's and goal's stars and the keys and locks by colour.
pub(super) fn renderer_draws(floor_y: &[f32]) -> Vec<DrawUniform> {
    let mut draws = Vec::with_capacity(floor_y.len() * SLOTS_PER_LEVEL + OVERLAY_SLOTS);
    for (l, &y) in floor_y.iter().enumerate() {
        draws.extend(MaterialRole::ALL.into_iter().map(|role| DrawUniform::level_role(l, role, y)));
        draws.push(DrawUniform::new(OUTLINE, FADED, y, Some(l)));
        draws.push(DrawUniform::rock_caps(l, y));
    }
    let [r, g, b, _] = crate::mesh::LEAF_COLOUR;
    let world = |colour, lit| DrawUniform::new(colour, lit, 0.0, None);
    draws.extend([
        world(PATH, EMISSIVE),
        world(HIGHLIGHT, EMISSIVE),
        world([r, g, b], LIT),
        world(MARK, EMISSIVE),
        world(BACKDROP, EMISSIVE),
        world(MARKER, LIT),
        world(TORCH, EMISSIVE),
    ]);
    draws.extend(RoomRole::ALL.map(|role| world(tint_colour(role), EMISSIVE)));
    draws.extend([world(START_STAR, EMISSIVE), world(GOAL_STAR, EMISSIVE)]);
    draws.extend((0..crate::plan::LOCK_COLOUR_COUNT as u32).map(|id| world(lock_colour(id), LIT)));
    draws
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_slots_follow_the_levels_in_order() {
        let draws = renderer_draws(&[0.0, 12.0]);
        let path = 2 * SLOTS_PER_LEVEL;
        assert_eq!(draws.len(), path + OVERLAY_SLOTS);
        let colour = |slot: usize| draws[slot].colour;
        assert_eq!(colour(path)[..3], PATH);
        assert_eq!(colour(path + MARK_SLOT)[..3], MARK);
        assert_eq!(colour(path + BACKDROP_SLOT)[..3], BACKDROP);
        assert_eq!(colour(path + MARKER_SLOT)[..3], MARKER);
        assert_eq!(colour(path + LIGHT_SLOT)[..3], TORCH);
        assert_eq!(colour(path + ROOM_SLOT + RoomRole::Goal.index())[..3], tint_colour(RoomRole::Goal));
        assert_eq!(colour(path + GOAL_STAR_SLOT)[..3], GOAL_STAR);
        assert_eq!(colour(path + KEY_SLOT + 1)[..3], lock_colour(1), "lock 1's keys in the plan's colour");
        assert_eq!(colour(SLOTS_PER_LEVEL + OUTLINE_SLOT), [OUTLINE[0], OUTLINE[1], OUTLINE[2], FADED]);
        // Level 1's floor draw stands at its floor height, on level 1.
        assert_eq!(draws[SLOTS_PER_LEVEL].offset[..2], [12.0, 1.0]);
        // Only the stair draws shade their treads by height.
        let stair = MaterialRole::Stair.index();
        for (i, draw) in draws[..SLOTS_PER_LEVEL].iter().enumerate() {
            assert_eq!(draw.offset[3], if i == stair { 1.0 } else { 0.0 }, "slot {i}");
        }
        // The roles are textured with their surface's layer; outlines, caps and overlays
        // are plain.
        for (i, role) in MaterialRole::ALL.iter().enumerate() {
            assert_eq!(draws[SLOTS_PER_LEVEL + i].material[..2], [Surface::of(*role).layer() as f32, 1.0]);
        }
        for slot in [OUTLINE_SLOT, CAP_SLOT, SLOTS_PER_LEVEL + CAP_SLOT, path, path + MARKER_SLOT, path + 2] {
            assert_eq!(draws[slot].material[1], 0.0, "slot {slot} is plain");
        }
    }
}
