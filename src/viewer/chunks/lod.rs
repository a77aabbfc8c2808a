//! Level of detail per chunk: how large a chunk's cells are on screen decides whether it is
//! drawn from the full mesh or the coarse one, and whether its floor outlines can show.

use glam::{Mat4, Vec3};

use crate::viewer::ViewerError;

/// A chunk whose octagons project below this many pixels is drawn from the coarse mesh:
/// there a wall panel or a door frame is a pixel or two.
pub const COARSE_BELOW_PX: f32 = 20.0;

/// Distance (metres) past which the outlines have faded out entirely in a perspective view:
/// the end of `outline_alpha`'s fade in `shaders/scene.wgsl`.
pub const OUTLINE_FADE_END: f32 = 110.0;

/// Pixels per metre below which the outlines are invisible in an orthographic view: the
/// start of `outline_alpha`'s fade in `shaders/scene.wgsl`.
pub const OUTLINE_MIN_PX_PER_METRE: f32 = 0.6;

/// Directions a wall's normal is sorted into (around the vertical, 45 degrees each: an
/// octile grid's walls face one of eight ways).
pub const FACING_SECTORS: u8 = 8;

/// The sector of a horizontal `normal` (`None` for a normal that is not horizontal): the
/// nearest of [`FACING_SECTORS`] directions, counter-clockwise from +x seen from above.
#[must_use]
pub fn facing_sector(normal: Vec3) -> Option<u8> {
    if normal.y.abs() > 1e-3 || normal.x.hypot(normal.z) < 0.5 {
        return None;
    }
    let step = std::f32::consts::TAU / f32::from(FACING_SECTORS);
    let turns = (normal.z.atan2(normal.x) / step).round() as i32;
    Some(turns.rem_euclid(i32::from(FACING_SECTORS)) as u8)
}

/// The unit normal at the middle of `sector`.
#[must_use]
pub fn sector_normal(sector: u8) -> Vec3 {
    let angle = f32::from(sector) * std::f32::consts::TAU / f32::from(FACING_SECTORS);
    Vec3::new(angle.cos(), 0.0, angle.sin())
}

/// Which chunks are drawn, and from which mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChunkPolicy {
    /// Every chunk of every shown level, full detail, every outline.
    All,
    /// Chunks in the frustum, full detail, every outline.
    Culled,
    /// Chunks in the frustum; far ones from the coarse mesh; outlines only where they can
    /// show; ceilings skipped when the camera is above them (they face away).
    #[default]
    Detail,
}

impl ChunkPolicy {
    /// The policy `OCTILE_VIEW_CHUNKS` names (`all`, `culled`, `detail`), the default
    /// ([`ChunkPolicy::Detail`]) when unset.
    ///
    /// # Errors
    /// [`ViewerError::BadChunks`] when it names none of the three.
    pub fn from_env() -> Result<ChunkPolicy, ViewerError> {
        match std::env::var("OCTILE_VIEW_CHUNKS").ok().as_deref() {
            None | Some("detail") => Ok(ChunkPolicy::Detail),
            Some("culled") => Ok(ChunkPolicy::Culled),
            Some("all") => Ok(ChunkPolicy::All),
            Some(other) => Err(ViewerError::BadChunks { value: other.to_string() }),
        }
    }
}

/// What one frame's camera says about chunks: built once per frame, asked per chunk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lod {
    view_proj: Mat4,
    frustum: super::Frustum,
    eye: Vec3,
    orthographic: bool,
    /// Pixels per metre at unit depth (perspective) or everywhere (orthographic).
    pixels_per_metre: f32,
    /// Octagon pitch (metres): two slots.
    octagon: f32,
}

impl Lod {
    /// The detail rule for a camera `view_proj` (eye at `eye`, or orthographic) drawing into
    /// a picture `height` pixels high, for cells `slot_spacing` metres apart.
    #[must_use]
    pub fn new(view_proj: Mat4, eye: Vec3, orthographic: bool, height: u32, slot_spacing: f32) -> Lod {
        // Clip y per world metre: the projection's y scale (the view is a rotation).
        let y_scale = view_proj.row(1).truncate().length();
        Lod {
            view_proj,
            frustum: super::Frustum::new(view_proj),
            eye,
            orthographic,
            pixels_per_metre: y_scale * height as f32 * 0.5,
            octagon: 2.0 * slot_spacing,
        }
    }

    /// Pixels an octagon covers at the point of the box `min..max` nearest the camera
    /// (along the view direction).
    #[must_use]
    pub fn octagon_pixels(&self, min: Vec3, max: Vec3) -> f32 {
        if self.orthographic {
            return self.octagon * self.pixels_per_metre;
        }
        let w_row = self.view_proj.row(3);
        let nearest = (0..8)
            .map(|i| {
                let p = Vec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                );
                w_row.dot(p.extend(1.0))
            })
            .fold(f32::MAX, f32::min);
        if nearest <= 1e-3 {
            return f32::MAX;
        }
        self.octagon * self.pixels_per_metre / nearest
    }

    /// True when the box `min..max` is in the camera's frustum ([`super::Frustum::sees`]).
    #[must_use]
    pub fn in_view(&self, min: Vec3, max: Vec3) -> bool {
        self.frustum.sees(min, max)
    }

    /// True when the box `min..max` is drawn from the coarse mesh.
    #[must_use]
    pub fn coarse(&self, min: Vec3, max: Vec3) -> bool {
        self.octagon_pixels(min, max) < COARSE_BELOW_PX
    }

    /// True when every vertical face whose normal lies within `spread` radians of
    /// `sector`'s and which stands in the box `min..max` faces away from the camera (back
    /// faces, culled anyway): the sign of `normal . (eye - p)` is the same over a plane,
    /// and it is negative at every corner of the box for every such normal.
    #[must_use]
    pub fn faces_away(&self, min: Vec3, max: Vec3, sector: u8, spread: f32) -> bool {
        let n = sector_normal(sector);
        let margin = spread.clamp(0.0, 1.5).sin();
        let away = |v: Vec3| {
            let flat = Vec3::new(v.x, 0.0, v.z);
            let length = flat.length();
            length > 1e-6 && n.dot(flat) < -(margin + 1e-4) * length
        };
        if self.orthographic {
            return away(self.eye);
        }
        (0..8).all(|i| {
            let corner = Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            );
            away(self.eye - corner)
        })
    }

    /// True when some outline in the box `min..max` can show (not wholly faded out).
    #[must_use]
    pub fn outlines_show(&self, min: Vec3, max: Vec3) -> bool {
        if self.orthographic {
            return self.pixels_per_metre >= OUTLINE_MIN_PX_PER_METRE;
        }
        self.eye.clamp(min, max).distance(self.eye) < OUTLINE_FADE_END
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_face_away_only_when_every_corner_is_behind_them() {
        assert_eq!(facing_sector(Vec3::X), Some(0));
        assert_eq!(facing_sector(Vec3::new(0.0, 0.0, -1.0)), Some(6));
        assert_eq!(facing_sector(Vec3::new(-1.0, 0.0, 1.0).normalize()), Some(3));
        assert_eq!(facing_sector(Vec3::Y), None);
        let proj = glam::camera::rh::proj::directx::perspective(0.9, 1.0, 0.1, 2000.0);
        let eye = Vec3::new(0.0, 50.0, 0.0);
        let view_proj = proj * glam::camera::rh::view::look_to_mat4(eye, Vec3::new(1.0, -1.0, 0.0), Vec3::Y);
        let lod = Lod::new(view_proj, eye, false, 720, 3.0);
        // A box east of the eye: walls facing east (+x) are seen from behind, west-facing
        // ones from the front; north/south-facing ones are edge-on at some corner.
        let (min, max) = (Vec3::new(100.0, 0.0, -10.0), Vec3::new(120.0, 3.0, 10.0));
        assert!(lod.faces_away(min, max, 0, 0.0));
        assert!(!lod.faces_away(min, max, 4, 0.0));
        assert!(!lod.faces_away(min, max, 2, 0.0));
        // A box the eye stands over faces no way away.
        assert!(!lod.faces_away(Vec3::splat(-10.0), Vec3::splat(10.0), 0, 0.0));
        // A wide spread keeps a face that a narrow one drops: the box is 5.7 degrees off.
        assert!(!lod.faces_away(min, max, 0, 1.5));
    }

    #[test]
    fn outline_fade_constants_match_the_shader() {
        let shader = include_str!("../../../shaders/scene.wgsl");
        let perspective = format!("smoothstep(30.0, {OUTLINE_FADE_END:.1}, dist)");
        let orthographic = format!("smoothstep({OUTLINE_MIN_PX_PER_METRE:.1}, 2.0, globals.shade.z)");
        assert!(shader.contains(&perspective), "scene.wgsl no longer has {perspective}");
        assert!(shader.contains(&orthographic), "scene.wgsl no longer has {orthographic}");
    }

    #[test]
    fn near_boxes_are_full_far_boxes_coarse_and_outlines_end_at_the_fade() {
        let proj = glam::camera::rh::proj::directx::perspective(0.9, 16.0 / 9.0, 0.1, 2000.0);
        let eye = Vec3::new(0.0, 2.0, 0.0);
        let view_proj = proj * glam::camera::rh::view::look_to_mat4(eye, Vec3::NEG_Z, Vec3::Y);
        let lod = Lod::new(view_proj, eye, false, 720, 3.0);
        let at = |z: f32| (Vec3::new(-5.0, 0.0, z - 10.0), Vec3::new(5.0, 3.0, z));
        let (near_min, near_max) = at(-5.0);
        assert!(!lod.coarse(near_min, near_max));
        assert!(lod.outlines_show(near_min, near_max));
        let (far_min, far_max) = at(-500.0);
        assert!(lod.coarse(far_min, far_max));
        assert!(!lod.outlines_show(far_min, far_max));
        // Pixels per octagon fall as one over the distance: the box at 100 m shows its
        // octagons 10 times larger than the one at 1000 m.
        let ratio =
            lod.octagon_pixels(at(-100.0).0, at(-100.0).1) / lod.octagon_pixels(at(-1000.0).0, at(-1000.0).1);
        assert!((ratio - 10.0).abs() < 0.2, "{ratio}");
        // A box the camera stands in is full detail.
        assert!(!lod.coarse(Vec3::splat(-50.0), Vec3::splat(50.0)));
    }
}
