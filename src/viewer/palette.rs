//! Colours of the viewer and the CPU twin of the shader's lighting, so tests can predict
//! the colour of a pixel.

use glam::Vec3;

use crate::mesh::MaterialRole;

/// Shading constants (keep in step with `shaders/scene.wgsl`).
const AMBIENT: f32 = 0.35;
const SUN: f32 = 0.45;
const FILL: f32 = 0.25;

/// Unit direction toward the sun (world): high, from the south-east.
pub const LIGHT_DIR: Vec3 = Vec3::new(0.3, 0.9, 0.3);

/// Background and fog colour (linear RGB): the rock beyond the carved space.
pub const BACKGROUND: [f32; 3] = [0.02, 0.02, 0.03];

/// Colour of the path overlay (linear RGB, unlit).
pub const PATH: [f32; 3] = [1.0, 0.55, 0.05];

/// Colour of the floor cell outlines (linear RGB, unlit).
pub const OUTLINE: [f32; 3] = [0.12, 0.11, 0.09];

/// Base colour (linear RGB) of a material role.
#[must_use]
pub const fn base_colour(role: MaterialRole) -> [f32; 3] {
    match role {
        MaterialRole::Floor => [0.55, 0.45, 0.30],
        MaterialRole::Wall => [0.42, 0.42, 0.46],
        MaterialRole::Ceiling => [0.25, 0.24, 0.27],
        MaterialRole::Stair => [0.60, 0.30, 0.20],
        MaterialRole::DoorFrame => [0.35, 0.22, 0.12],
    }
}

/// The lit colour (linear RGB, before fog) of `role` on a surface with unit `normal` seen
/// along unit `to_eye`, exactly as the shader computes it.
#[must_use]
pub fn shade(role: MaterialRole, normal: Vec3, to_eye: Vec3) -> [f32; 3] {
    let l = AMBIENT + SUN * normal.dot(LIGHT_DIR.normalize()).max(0.0) + FILL * normal.dot(to_eye).max(0.0);
    base_colour(role).map(|c| c * l)
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
