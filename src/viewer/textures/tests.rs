//! The texture set is deterministic, tiles without a seam, varies, and keeps the lit
//! colour's brightness on average.

use super::*;

/// Luminance (0..255) of each texel of `texels`, `side` texels square, as rows.
fn grey(texels: &[[u8; 4]], side: usize) -> Vec<Vec<f64>> {
    texels
        .chunks_exact(side)
        .map(|row| {
            row.iter()
                .map(|t| 0.2126 * f64::from(t[0]) + 0.7152 * f64::from(t[1]) + 0.0722 * f64::from(t[2]))
                .collect()
        })
        .collect()
}

/// The mean absolute difference between the last and the first column of `rows` (the seam
/// where the texture meets its next repeat), and the mean of the same between columns a
/// quarter, a half and three quarters across (the same place in the patterns' block grid,
/// whose blocks divide a quarter of the texture, so joints fall there as at the seam).
fn seam_and_inside(rows: &[Vec<f64>]) -> (f64, f64) {
    let w = rows[0].len();
    let step = |a: usize, b: usize| rows.iter().map(|r| (r[a] - r[b]).abs()).sum::<f64>() / rows.len() as f64;
    let inside = [1, 2, 3].iter().map(|k| step(k * w / 4 - 1, k * w / 4)).sum::<f64>() / 3.0;
    (step(w - 1, 0), inside)
}

/// `rows` turned a quarter (columns become rows).
fn transposed(rows: &[Vec<f64>]) -> Vec<Vec<f64>> {
    (0..rows[0].len()).map(|x| rows.iter().map(|r| r[x]).collect()).collect()
}

/// FNV-1a over every texel of every mip level.
fn fnv(set: &TextureSet) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for texel in set.layers.iter().flat_map(|l| l.mips.iter().flatten()) {
        for &b in texel {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[test]
fn the_set_is_the_same_every_time() {
    let (a, b) = (TextureSet::generate(), TextureSet::generate());
    assert_eq!(a, b);
    assert_eq!(a.size, TEXTURE_SIZE);
    assert_eq!(a.layers.iter().map(|l| l.surface).collect::<Vec<_>>(), Surface::ALL);
    // Pinned: a change to a pattern, the noise or the mips changes this on purpose only.
    assert_eq!(fnv(&a), 1_882_338_857_390_516_315, "texel hash");
}

#[test]
fn every_surface_tiles_without_a_seam_and_varies() {
    let set = TextureSet::generate();
    let side = set.size as usize;
    for layer in &set.layers {
        let rows = grey(&layer.mips[0], side);
        for (axis, rows) in [("left/right", rows.clone()), ("top/bottom", transposed(&rows))] {
            let (seam, inside) = seam_and_inside(&rows);
            assert!(
                seam <= 1.5 * inside,
                "{:?} {axis}: the edges differ by {seam:.2} grey levels on average, neighbours inside by {inside:.2}",
                layer.surface
            );
            // The measure sees a seam where there is one: a copy cut 5/16 of the
            // texture short (mid-block for every pattern) does not tile.
            let cropped: Vec<Vec<f64>> = rows.iter().map(|r| r[..side * 11 / 16].to_vec()).collect();
            let (cut, _) = seam_and_inside(&cropped);
            assert!(
                cut > 1.5 * inside,
                "{:?} {axis}: a cropped copy shows a seam ({cut:.2} vs {inside:.2})",
                layer.surface
            );
        }
        let all: Vec<f64> = rows.iter().flatten().copied().collect();
        let mean = all.iter().sum::<f64>() / all.len() as f64;
        let deviation = (all.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / all.len() as f64).sqrt();
        // Mean luminance 1 / DETAIL_GAIN of full scale: the shader's gain brings it to 1.
        let expected = 255.0 / f64::from(DETAIL_GAIN);
        assert!((mean - expected).abs() < 2.0, "{:?}: mean {mean:.1}, expected {expected:.1}", layer.surface);
        assert!(deviation > 8.0, "{:?}: flat, deviation {deviation:.1} grey levels", layer.surface);
    }
}

#[test]
fn mips_halve_down_to_one_texel_of_the_mean() {
    let set = TextureSet::generate();
    assert_eq!(set.mip_levels(), 9);
    for layer in &set.layers {
        assert_eq!(layer.mips.len() as u32, set.mip_levels());
        for (i, level) in layer.mips.iter().enumerate() {
            assert_eq!(
                level.len(),
                ((set.size >> i) * (set.size >> i)) as usize,
                "{:?} level {i}",
                layer.surface
            );
        }
        let base = &layer.mips[0];
        let last = layer.mips.last().unwrap()[0];
        for c in 0..3 {
            let mean = base.iter().map(|t| f64::from(t[c])).sum::<f64>() / base.len() as f64;
            assert!(
                (f64::from(last[c]) - mean).abs() <= 2.0,
                "{:?} channel {c}: {} vs {mean:.1}",
                layer.surface,
                last[c]
            );
        }
    }
}

#[test]
fn every_role_has_a_surface_in_its_own_layer() {
    for (i, s) in Surface::ALL.iter().enumerate() {
        assert_eq!(s.layer() as usize, i);
    }
    assert_eq!(Surface::of(MaterialRole::Floor), Surface::Flagstones);
    assert_eq!(Surface::of(MaterialRole::Wall), Surface::Ashlar);
    assert_eq!(Surface::of(MaterialRole::Ceiling), Surface::Plaster);
    assert_eq!(Surface::of(MaterialRole::Stair), Surface::Tread);
}
