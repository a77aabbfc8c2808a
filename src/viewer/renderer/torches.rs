//! Torch lights in the shader: the torches nearest the camera, as point lights with a
//! smooth falloff to nothing at their range (globals `torch` and `torches`).

use glam::Vec3;

/// Torches the shader lights a frame with, at most.
pub const MAX_TORCHES: usize = 4;

/// Range of a torch's light in the viewer (metres): about a room across, so a torch lights
/// its room and little beyond (the viewer has no shadows to stop it at the walls).
pub const TORCH_RANGE: f32 = 7.0;

/// A torch's strength at its own position (a factor on the lit material colour).
const STRENGTH: f32 = 3.0;

/// A torch slot not in use: far away with a range of a metre, so it adds nothing.
const UNUSED: [f32; 4] = [1e9, 1e9, 1e9, 1.0];

/// Factor on the sun, ambient and fill light while torches light the scene, so their
/// pools of light read.
const DIMMED: f32 = 0.7;

/// The torch part of the globals: `torch` (count, light factor, strength, unused) and
/// up to [`MAX_TORCHES`] lights (position, 1 / range squared).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct TorchUniform {
    /// Count, factor on the other lights, strength, unused.
    pub(crate) torch: [f32; 4],
    /// Position (world metres) and 1 / range squared of each torch in use.
    pub(crate) torches: [[f32; 4]; MAX_TORCHES],
}

impl TorchUniform {
    /// No torches: the other lights at full strength.
    pub(crate) const NONE: TorchUniform =
        TorchUniform { torch: [0.0, 1.0, 0.0, 0.0], torches: [UNUSED; MAX_TORCHES] };

    /// The up to [`MAX_TORCHES`] torches of `lights` (world metres) nearest `eye` and
    /// within [`TORCH_RANGE`] of it; [`TorchUniform::NONE`] when none is.
    pub(crate) fn nearest(lights: &[Vec3], eye: Vec3) -> TorchUniform {
        let mut near: Vec<(f32, Vec3)> = lights
            .iter()
            .map(|&p| (p.distance_squared(eye), p))
            .filter(|(d2, _)| *d2 < TORCH_RANGE * TORCH_RANGE * 4.0)
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        near.truncate(MAX_TORCHES);
        if near.is_empty() {
            return TorchUniform::NONE;
        }
        let mut torches = [UNUSED; MAX_TORCHES];
        for (slot, (_, p)) in torches.iter_mut().zip(&near) {
            *slot = [p.x, p.y, p.z, 1.0 / (TORCH_RANGE * TORCH_RANGE)];
        }
        TorchUniform { torch: [near.len() as f32, DIMMED, STRENGTH, 0.0], torches }
    }

    /// A torch's light at `p` on a surface facing unit `n` (the shader's `torchlight`, as
    /// a factor on the material colour), for tests.
    #[cfg(test)]
    pub(crate) fn light_at(&self, p: Vec3, n: Vec3) -> f32 {
        let mut sum = 0.0;
        for t in &self.torches {
            let d = Vec3::new(t[0], t[1], t[2]) - p;
            let d2 = d.length_squared();
            let falloff = (1.0 - d2 * t[3]).max(0.0);
            sum += falloff * falloff * (0.25 + 0.75 * n.dot(d).max(0.0) / (d2 + 0.01).sqrt());
        }
        sum * self.torch[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_torches_in_reach_light_and_fall_off_to_nothing() {
        let lights: Vec<Vec3> = (0..10).map(|i| Vec3::new(i as f32 * 3.0, 2.0, 0.0)).collect();
        let u = TorchUniform::nearest(&lights, Vec3::new(8.0, 1.7, 0.0));
        assert_eq!(u.torch[0], MAX_TORCHES as f32);
        let xs: Vec<f32> = u.torches.iter().map(|t| t[0]).collect();
        assert_eq!(xs, [9.0, 6.0, 12.0, 3.0]);
        // Brightest under a torch, nothing past every torch's range.
        let floor = Vec3::Y;
        let under = u.light_at(Vec3::new(9.0, 0.0, 0.0), floor);
        let aside = u.light_at(Vec3::new(9.0, 0.0, 4.0), floor);
        assert!(under > aside && aside > 0.0, "{under} {aside}");
        assert_eq!(u.light_at(Vec3::new(9.0, 0.0, 40.0), floor), 0.0);
        // No torch in reach: none, and the other lights at full strength.
        assert_eq!(TorchUniform::nearest(&lights, Vec3::new(0.0, 0.0, 500.0)), TorchUniform::NONE);
        assert_eq!(TorchUniform::nearest(&[], Vec3::ZERO).torch[1], 1.0);
    }
}
