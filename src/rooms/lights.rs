//! Torch lights: a point light in front of every torch socket ([`MarkerKind::Torch`]), with
//! a colour, a range and an intensity from a [`LightPreset`]. The export writes them as
//! `KHR_lights_punctual` point lights (`--lights`); the viewer can draw the same list.

use glam::DVec3;

use super::{Marker, MarkerKind, Markers};

/// How far in front of its wall socket a torch light hangs (metres), so the light is in
/// the room and not half inside the rock.
pub const LIGHT_OFFSET: f64 = 0.3;

/// Colour of a torch light (linear RGB): a warm flame.
pub const TORCH_COLOUR: [f32; 3] = [1.0, 0.62, 0.32];

/// Range of a torch light (metres): where engines that honour `range` cut it off, a bit
/// more than an octagon across.
pub const TORCH_RANGE: f64 = 14.0;

/// Which engine's brightness scale a light's intensity is chosen for. glTF states point
/// light intensity in candela, but importers read it differently: Blender divides by 683
/// lm/W and multiplies by 4 pi to get watts, Godot 4 uses the number as its unitless light
/// energy, Godot 3.2 keeps the energy at 1 and turns the number into the fall-off
/// (attenuation `range / intensity`, an intensity above 10 first divided by 100). No one
/// number looks right in all three, so each has a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LightPreset {
    /// [`LightPreset::BLENDER_CANDELA`] candela: about 147 W per torch in Blender's
    /// physically based import (its default), a lit room under Filmic/AgX at exposure 0;
    /// right for spec-following viewers (glTFast, Babylon.js) too.
    #[default]
    Blender,
    /// [`LightPreset::GODOT_ENERGY`]: Godot 4 takes the intensity as `light_energy` (1 is
    /// Godot's default), with the range as the omni light's range. (Godot 3.2 makes it an
    /// attenuation of 7: a steep fall-off, dim rooms; use [`LightPreset::Godot3`] there.)
    Godot,
    /// [`LightPreset::GODOT3_INTENSITY`]: Godot 3.2 imports it as an omni light of energy 1
    /// and attenuation 1 (`range / (intensity / 100)`), Godot's own defaults, with the range
    /// as the light's range.
    Godot3,
}

impl LightPreset {
    /// Candela of the Blender preset.
    pub const BLENDER_CANDELA: f64 = 8000.0;
    /// Intensity of the Godot preset (Godot's unitless light energy).
    pub const GODOT_ENERGY: f64 = 2.0;
    /// Intensity of the Godot 3 preset: 100 times [`TORCH_RANGE`], so Godot 3.2's importer
    /// reads an attenuation of 1.
    pub const GODOT3_INTENSITY: f64 = 100.0 * TORCH_RANGE;

    /// The intensity written (glTF's unit, candela).
    #[must_use]
    pub const fn intensity(self) -> f64 {
        match self {
            LightPreset::Blender => Self::BLENDER_CANDELA,
            LightPreset::Godot => Self::GODOT_ENERGY,
            LightPreset::Godot3 => Self::GODOT3_INTENSITY,
        }
    }

    /// `"blender"`, `"godot"` or `"godot3"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LightPreset::Blender => "blender",
            LightPreset::Godot => "godot",
            LightPreset::Godot3 => "godot3",
        }
    }
}

/// One torch light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TorchLight {
    /// The torch socket it lights from.
    pub torch: Marker,
    /// World position (metres): [`LIGHT_OFFSET`] in front of the socket.
    pub position: DVec3,
    /// Linear RGB colour.
    pub colour: [f32; 3],
    /// Intensity in candela (see [`LightPreset`]).
    pub intensity: f64,
    /// Range in metres.
    pub range: f64,
}

/// Where the torch of socket `torch` hangs: [`LIGHT_OFFSET`] in front of it (world metres).
/// The one owner of that point: its light ([`torch_lights`]) and its `Torch_` node in the
/// export (with `--markers`, `--lights` or both) stand there.
#[must_use]
pub fn light_position(torch: &Marker) -> DVec3 {
    torch.point + DVec3::new(torch.facing.x, 0.0, torch.facing.y) * LIGHT_OFFSET
}

/// A light for every torch socket of `markers`, in the markers' order (by cell).
#[must_use]
pub fn torch_lights(markers: &Markers, preset: LightPreset) -> Vec<TorchLight> {
    markers
        .iter()
        .filter(|m| m.kind == MarkerKind::Torch)
        .map(|&torch| TorchLight {
            torch,
            position: light_position(&torch),
            colour: TORCH_COLOUR,
            intensity: preset.intensity(),
            range: TORCH_RANGE,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
    use crate::rooms::RoomGraph;

    #[test]
    fn a_light_per_torch_in_front_of_its_wall() {
        let options = GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let markers = Markers::of(&d, &RoomGraph::of(&d));
        let lights = torch_lights(&markers, LightPreset::Godot);
        let torches = markers.iter().filter(|m| m.kind == MarkerKind::Torch).count();
        assert!(torches > 0);
        assert_eq!(lights.len(), torches);
        for l in &lights {
            let into = (l.position - l.torch.point).normalize();
            assert!(into.dot(DVec3::new(l.torch.facing.x, 0.0, l.torch.facing.y)) > 0.999);
            assert_eq!(l.intensity, LightPreset::GODOT_ENERGY);
        }
    }
}
