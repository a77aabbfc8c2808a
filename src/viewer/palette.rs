//! Colours of the viewer (a material role's colour is [`MaterialRole::colour`], shared with
//! the export) and the CPU twin of the shader's lighting, so tests can predict
//! the colour of a pixel.

use glam::Vec3;

use crate::mesh::{MaterialRole, RIBBON_COLOUR};

/// Shading constants (keep in step with `shaders/scene.wgsl`).
const AMBIENT: f32 = 0.35;
const SUN: f32 = 0.45;
const FILL: f32 = 0.25;

/// Unit direction toward the sun (world): high, from the south-east.
pub const LIGHT_DIR: Vec3 = Vec3::new(0.3, 0.9, 0.3);

/// Background and fog colour (linear RGB): the rock beyond the carved space.
pub const BACKGROUND: [f32; 3] = [0.02, 0.02, 0.03];

/// Colour of the path overlay (linear RGB, unlit): the route ribbon's, as exported.
pub const PATH: [f32; 3] = [RIBBON_COLOUR[0], RIBBON_COLOUR[1], RIBBON_COLOUR[2]];

/// Colour of the rock caps over the walls in the overviews (linear RGB, lit).
pub const ROCK_CAP: [f32; 3] = [0.16, 0.14, 0.13];

/// The tint of level `level` (linear RGB factors on its material colours): level 0 keeps
/// its colours, the levels above cycle through cool, warm, green and violet, so the
/// levels of an overview tell apart.
#[must_use]
pub fn level_tint(level: usize) -> [f32; 3] {
    const TINTS: [[f32; 3]; 5] =
        [[1.0, 1.0, 1.0], [0.62, 0.9, 1.45], [1.45, 0.95, 0.55], [0.7, 1.3, 0.7], [1.3, 0.7, 1.3]];
    TINTS[level % TINTS.len()]
}

/// Colour of marks on maps (linear RGB, unlit): the walker's arrow.
pub const MARK: [f32; 3] = [0.95, 0.12, 0.08];

/// Colour of the entrance's star in the top view and the maps (linear RGB, unlit).
pub const START_STAR: [f32; 3] = [0.7, 1.0, 0.7];

/// Colour of the goal's star in the top view and the maps (linear RGB, unlit).
pub const GOAL_STAR: [f32; 3] = [0.85, 0.04, 0.02];

/// Colour of the markers (linear RGB, lit).
pub const MARKER: [f32; 3] = [0.2, 0.75, 0.35];

/// Colour of a torch light's glow (linear RGB, unlit): the exported torch colour, bright.
pub const TORCH: [f32; 3] = [1.0, 0.62, 0.25];

/// Backdrop of the minimap (linear RGB, unlit).
pub const BACKDROP: [f32; 3] = [0.005, 0.005, 0.008];

/// Colour of the highlight overlay (linear RGB, unlit): a picked cell or selection.
pub const HIGHLIGHT: [f32; 3] = [0.9, 0.75, 0.1];

/// Colour of the floor cell outlines (linear RGB, unlit).
pub const OUTLINE: [f32; 3] = [0.12, 0.11, 0.09];

/// The lit colour (linear RGB, before fog) of `role` on a surface with unit `normal` seen
/// along unit `to_eye`, exactly as the shader computes it.
#[must_use]
pub fn shade(role: MaterialRole, normal: Vec3, to_eye: Vec3) -> [f32; 3] {
    let [r, g, b, _] = role.colour();
    lit([r, g, b], normal, to_eye)
}

/// The lit colour (linear RGB, before fog) of base colour `colour` on a surface with unit
/// `normal` seen along unit `to_eye`, exactly as the shader computes it (its `light`).
#[must_use]
pub fn lit(colour: [f32; 3], normal: Vec3, to_eye: Vec3) -> [f32; 3] {
    let l = AMBIENT + SUN * normal.dot(LIGHT_DIR.normalize()).max(0.0) + FILL * normal.dot(to_eye).max(0.0);
    colour.map(|c| c * l)
}

/// Linear to sRGB-encoded 8-bit, as an `Rgba8UnormSrgb` target stores it.
#[must_use]
pub fn to_srgb8(linear: [f32; 3]) -> [u8; 3] {
    linear.map(|c| {
        let c = c.clamp(0.0, 1.0);
        let s = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as u8
    })
}
