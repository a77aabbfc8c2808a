//! The viewer's optional texture set: a few tileable surfaces generated at start-up
//! (flagstones, ashlar, plaster, worn tread stone), one per material role, sampled with the
//! mesh's UV0 (world metres / `MeshOptions::texture_size`, as the exporter writes it), so
//! the view shows the texture layout an engine gets from the exported UVs. They are detail
//! maps: the shader multiplies the lit, tinted material colour by `DETAIL_GAIN` times the
//! texel, and each surface averages 1 after that gain, so a textured view is as bright as
//! an untextured one. Generated from fixed formulas (no randomness): the same texels on
//! every run.

mod gpu;
mod noise;
mod patterns;

pub(crate) use gpu::{bind_group, bind_group_layout};

use crate::mesh::MaterialRole;

/// Texels along each side of a surface (one texture repeat).
pub const TEXTURE_SIZE: u32 = 256;

/// What the shader multiplies a texel (stored in `[0, 1]`) by: the detail factor it encodes
/// (a surface averages 1, its brightest texels reach 2).
pub const DETAIL_GAIN: f32 = 2.0;

/// One surface of the set, one layer of the texture array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Square flagstones (floors).
    Flagstones,
    /// Stone courses (walls and door frames).
    Ashlar,
    /// Rough plaster (ceilings).
    Plaster,
    /// Worn stone with chisel marks (stairs).
    Tread,
}

impl Surface {
    /// Every surface, in layer order.
    pub const ALL: [Surface; 4] = [Surface::Flagstones, Surface::Ashlar, Surface::Plaster, Surface::Tread];

    /// The surface a material role is drawn with.
    #[must_use]
    pub const fn of(role: MaterialRole) -> Surface {
        match role {
            MaterialRole::Floor => Surface::Flagstones,
            MaterialRole::Wall | MaterialRole::DoorFrame => Surface::Ashlar,
            MaterialRole::Ceiling => Surface::Plaster,
            MaterialRole::Stair => Surface::Tread,
        }
    }

    /// Its layer in the texture array.
    #[must_use]
    pub const fn layer(self) -> u32 {
        self as u32
    }

    /// The detail factor (linear RGB, before normalising) at texel `(x, y)` of a texture
    /// `size` texels wide.
    fn texel(self, x: u32, y: u32, size: u32) -> [f32; 3] {
        match self {
            Surface::Flagstones => patterns::flagstones(x, y, size),
            Surface::Ashlar => patterns::ashlar(x, y, size),
            Surface::Plaster => patterns::plaster(x, y, size),
            Surface::Tread => patterns::tread(x, y, size),
        }
    }
}

/// One surface's texels: RGBA8 (linear, alpha 255), rows top to bottom, and its mip chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// Which surface.
    pub surface: Surface,
    /// Mip level `i` is `size >> i` texels square; the last is 1x1.
    pub mips: Vec<Vec<[u8; 4]>>,
}

/// The texture set: every [`Surface`], [`TEXTURE_SIZE`] texels square with full mip
/// chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureSet {
    /// Texels along each side of mip level 0.
    pub size: u32,
    /// One per surface, in [`Surface::ALL`] order.
    pub layers: Vec<Layer>,
}

impl TextureSet {
    /// Generates the set ([`TEXTURE_SIZE`] texels square).
    #[must_use]
    pub fn generate() -> TextureSet {
        TextureSet::of_size(TEXTURE_SIZE)
    }

    /// The set at `size` texels square (a power of two, at least 64: the patterns divide it
    /// into eighths of eighths).
    fn of_size(size: u32) -> TextureSet {
        let layers =
            Surface::ALL.iter().map(|&surface| Layer { surface, mips: mips(encode(surface, size), size) });
        TextureSet { size, layers: layers.collect() }
    }

    /// Mip levels per layer.
    #[must_use]
    pub fn mip_levels(&self) -> u32 {
        self.size.ilog2() + 1
    }
}

/// Relative luminance of linear RGB.
fn luminance(c: [f32; 3]) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// `surface`'s texels at `size` texels square, scaled so their mean luminance is 1, then
/// stored divided by [`DETAIL_GAIN`].
fn encode(surface: Surface, size: u32) -> Vec<[u8; 4]> {
    let texels: Vec<[f32; 3]> = (0..size * size).map(|i| surface.texel(i % size, i / size, size)).collect();
    let mean = texels.iter().map(|&c| f64::from(luminance(c))).sum::<f64>() / texels.len() as f64;
    let scale = 1.0 / (mean as f32 * DETAIL_GAIN);
    let byte = |v: f32| ((v * scale).clamp(0.0, 1.0) * 255.0).round() as u8;
    texels.iter().map(|c| [byte(c[0]), byte(c[1]), byte(c[2]), 255]).collect()
}

/// The mip chain of `base` (`size` texels square): each level the 2x2 box average of the
/// one before, rounded, down to 1x1.
fn mips(base: Vec<[u8; 4]>, size: u32) -> Vec<Vec<[u8; 4]>> {
    let mut chain = vec![base];
    let mut side = size as usize;
    while side > 1 {
        let above = chain.last().expect("invariant: starts with the base");
        let half = side / 2;
        let level = (0..half * half)
            .map(|i| {
                let (x, y) = (i % half * 2, i / half * 2);
                let at = |dx: usize, dy: usize| above[(y + dy) * side + x + dx];
                std::array::from_fn(|c| {
                    let sum: u32 =
                        [at(0, 0), at(1, 0), at(0, 1), at(1, 1)].iter().map(|t| u32::from(t[c])).sum();
                    ((sum + 2) / 4) as u8
                })
            })
            .collect();
        chain.push(level);
        side = half;
    }
    chain
}

#[cfg(test)]
mod tests;
