//! Tileable noise for the texture set: an integer hash, value noise on a lattice that wraps
//! round the texture, and its fractal sum. Pure functions of their arguments (no state, no
//! randomness): the same texels on every run.

/// A 32-bit integer hash (Chris Wellons' "lowbias32"): the only source of variation.
#[must_use]
fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// A value in `[0, 1)` for the lattice point `(a, b)` of the noise named `salt`.
#[must_use]
pub(super) fn random(a: u32, b: u32, salt: u32) -> f32 {
    let h = hash(a.wrapping_mul(0x9e37_79b9) ^ hash(b ^ hash(salt)));
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// Smooth interpolation weight (`3t^2 - 2t^3`).
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in `[0, 1)` at texel position `(x, y)` (texels, `0 <= x, y < size`) of a
/// texture `size` texels wide, on a lattice of `cells.0 x cells.1` cells across it that
/// wraps round (each count at least 1): the noise tiles with the texture.
#[must_use]
pub(super) fn value(x: f32, y: f32, size: u32, cells: (u32, u32), salt: u32) -> f32 {
    let fx = x * cells.0 as f32 / size as f32;
    let fy = y * cells.1 as f32 / size as f32;
    let (ix, iy) = (fx.floor(), fy.floor());
    let (tx, ty) = (smooth(fx - ix), smooth(fy - iy));
    let (ix, iy) = (ix as u32, iy as u32);
    let at = |dx: u32, dy: u32| random((ix + dx) % cells.0, (iy + dy) % cells.1, salt);
    let top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
    let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
    top + (bottom - top) * ty
}

/// Fractal value noise in `[0, 1)`: `octaves` layers of [`value`], the first on a lattice
/// of `cells` cells, each next one twice as fine and half as strong.
#[must_use]
pub(super) fn fractal(x: f32, y: f32, size: u32, cells: (u32, u32), octaves: u32, salt: u32) -> f32 {
    let (mut sum, mut weight, mut amplitude) = (0.0, 0.0, 1.0);
    for octave in 0..octaves {
        let scale = 1 << octave;
        sum += amplitude * value(x, y, size, (cells.0 * scale, cells.1 * scale), salt.wrapping_add(octave));
        weight += amplitude;
        amplitude *= 0.5;
    }
    sum / weight
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_noise_wraps_round_the_texture() {
        for y in [0.5f32, 17.25, 63.5] {
            // The texel past the right edge is the first one again.
            let edge = value(64.0, y, 64, (4, 8), 3);
            let start = value(0.0, y, 64, (4, 8), 3);
            assert!((edge - start).abs() < 1e-6, "{edge} vs {start}");
        }
        let all: Vec<f32> = (0..64).map(|i| fractal(i as f32 + 0.5, 9.5, 64, (2, 2), 4, 1)).collect();
        assert!(all.iter().all(|v| (0.0..1.0).contains(v)), "{all:?}");
        let spread =
            all.iter().copied().fold(f32::MIN, f32::max) - all.iter().copied().fold(f32::MAX, f32::min);
        assert!(spread > 0.1, "the noise varies: {spread}");
    }
}
