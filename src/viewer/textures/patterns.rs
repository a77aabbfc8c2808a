//! The four surfaces of the texture set, as detail factors per texel (linear RGB, about 1 on
//! average: the shader multiplies the lit material colour by them): flagstones for floors,
//! ashlar courses for walls, rough plaster for ceilings, worn tread stone for stairs. Each
//! is a pure function of the texel and the texture size, built from tileable noise and a
//! block pattern that wraps round the texture, so the texture repeats without a seam.

use super::noise::{fractal, random, value};

/// Courses of stone blocks with mortar joints (floors and walls share it).
struct Masonry {
    /// Block width and height, in texels (each divides the texture size).
    block: (u32, u32),
    /// Mortar joint half-width, in texels.
    mortar: f32,
    /// Texels over which a block's edge rounds off into the joint.
    bevel: f32,
    /// Each course's shift along the rows, in texels, from its index.
    stagger: fn(u32, u32) -> u32,
    /// Names this pattern's noise.
    salt: u32,
}

impl Masonry {
    /// The detail factor at texel `(x, y)` of a texture `size` texels wide.
    fn at(&self, x: u32, y: u32, size: u32) -> [f32; 3] {
        let (w, h) = self.block;
        let course = y / h;
        let along = (x + (self.stagger)(course, w)) % size;
        let block = along / w;
        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
        let (lx, ly) = ((along % w) as f32 + 0.5, (y % h) as f32 + 0.5);
        // Distance to the block's nearest edge, wobbled so joints are not ruled lines.
        let wobble = (value(px, py, size, (size / 8, size / 8), self.salt + 1) - 0.5) * 1.5;
        let edge = lx.min(w as f32 - lx).min(ly).min(h as f32 - ly) + wobble;
        let inside = smoothstep(self.mortar, self.mortar + self.bevel, edge);
        let tone = 0.78 + 0.4 * random(course, block, self.salt);
        let hue = (random(course, block, self.salt + 2) - 0.5) * 0.12;
        let surface = 0.8 + 0.4 * fractal(px, py, size, (8, 8), 4, self.salt + 3);
        let grain = 0.94 + 0.12 * random(x, y, self.salt + 4);
        let stone = tone * surface * grain;
        let mortar = 0.42 + 0.1 * grain;
        let mix = |s: f32, m: f32| m + (s - m) * inside;
        [mix(stone * (1.0 + hue), mortar * 1.04), mix(stone, mortar), mix(stone * (1.0 - hue), mortar * 0.95)]
    }
}

/// `0` below `low`, `1` above `high`, smooth between.
fn smoothstep(low: f32, high: f32, x: f32) -> f32 {
    let t = ((x - low) / (high - low)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Floors: square flagstones a quarter of the texture wide (1 m with the default 4 m
/// texture size), each course shifted by its own amount.
#[must_use]
pub(super) fn flagstones(x: u32, y: u32, size: u32) -> [f32; 3] {
    let block = size / 4;
    let stagger = |course: u32, w: u32| (random(course, 0, 11) * w as f32) as u32;
    Masonry { block: (block, block), mortar: 1.5, bevel: 4.0, stagger, salt: 10 }.at(x, y, size)
}

/// Walls: ashlar, blocks a quarter of the texture long and an eighth high (1 m by 0.5 m),
/// each course half a block along from the one below (give or take an eighth of a block).
#[must_use]
pub(super) fn ashlar(x: u32, y: u32, size: u32) -> [f32; 3] {
    let stagger =
        |course: u32, w: u32| (course & 1) * w / 2 + (random(course, 1, 21) * w as f32 / 8.0) as u32;
    Masonry { block: (size / 4, size / 8), mortar: 1.2, bevel: 3.0, stagger, salt: 20 }.at(x, y, size)
}

/// Ceilings: rough plaster, broad soft blotches and a fine grain.
#[must_use]
pub(super) fn plaster(x: u32, y: u32, size: u32) -> [f32; 3] {
    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
    let broad = fractal(px, py, size, (4, 4), 3, 30);
    let fine = fractal(px, py, size, (32, 32), 2, 33);
    let stain = smoothstep(0.55, 0.75, value(px, py, size, (3, 3), 31));
    let grain = 0.93 + 0.14 * random(x, y, 32);
    let v = (0.88 + 0.24 * broad) * (0.8 + 0.4 * fine) * (1.0 - 0.12 * stain) * grain;
    [v * 1.01, v, v * 0.97]
}

/// Stairs: worn stone, a gritty surface with fine chisel marks running along U.
#[must_use]
pub(super) fn tread(x: u32, y: u32, size: u32) -> [f32; 3] {
    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
    let grit = fractal(px, py, size, (16, 16), 3, 40);
    // A mark every 8 texels (0.125 m at the default 4 m texture size), bent by noise.
    let bend = value(px, py, size, (8, 8), 41) * 6.0;
    let period = 8.0;
    let marks = (std::f32::consts::TAU * (py + bend) / period).sin();
    let grain = 0.92 + 0.16 * random(x, y, 42);
    let v = (0.7 + 0.6 * grit) * (1.0 + 0.07 * marks) * grain;
    [v * 1.02, v, v * 0.96]
}
