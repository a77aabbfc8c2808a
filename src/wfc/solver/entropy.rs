//! Entropy in fixed point, by integer arithmetic only, so that the order in which cells are
//! observed, and with it the solution, is the same on every platform. (`f64::ln` comes from
//! the platform's maths library, whose last bits differ between platforms.)
//!
//! Each tile gets a fixed weight `W`: its weight scaled so that the heaviest tile weighs
//! `2^WEIGHT_BITS`, rounded, at least 1. A domain's Shannon entropy in bits is then
//! `H = log2(S) - L / S` with `S = sum W` and `L = sum W log2 W`, both integer sums (so
//! removing tiles and putting them back restores them exactly), and logarithms in fixed
//! point with [`FRAC_BITS`] fraction bits.

/// Fraction bits of the fixed-point logarithms and entropies.
pub(super) const FRAC_BITS: u32 = 24;

/// The heaviest tile's fixed weight is `2^WEIGHT_BITS`. With at most
/// [`MAX_TILES`](crate::wfc::MAX_TILES) = 2^12 tiles, `S < 2^33` and `L < 2^61`.
const WEIGHT_BITS: u32 = 20;

/// The fixed weight of each tile (see the module docs); zero for a zero weight. Weights are
/// finite and not negative (checked by [`TileSet::new`](crate::wfc::TileSet::new)). Uses one
/// IEEE division and multiplication per tile, which give the same bits everywhere.
#[must_use]
pub(super) fn fixed_weights(weights: &[f64]) -> Vec<u64> {
    let heaviest = weights.iter().copied().fold(0.0, f64::max);
    let scale = f64::from(1u32 << WEIGHT_BITS);
    weights.iter().map(|&w| if w > 0.0 { ((w / heaviest * scale + 0.5) as u64).max(1) } else { 0 }).collect()
}

/// `log2(x)` in fixed point with [`FRAC_BITS`] fraction bits, rounded to nearest (within one
/// unit of the last place); 0 for `x <= 1`. Integer arithmetic only: the mantissa `m` in
/// `[1, 2)` is divided by the centre `c` of its 1/256-wide slice (a multiplication by a
/// tabled reciprocal), `log2(c)` comes from the table, and `log2(m / c)`, with `m / c`
/// within 2^-9 of 1, from three terms of the series of `log2(1 + t)`.
#[must_use]
pub(super) fn log2_fixed(x: u64) -> u64 {
    if x <= 1 {
        return 0;
    }
    let int = 63 - x.leading_zeros();
    // The mantissa in [1, 2), 32 fraction bits.
    let m = if int >= 32 { x >> (int - 32) } else { x << (32 - int) };
    let (recip, log_centre) = SLICES[(m >> (32 - SLICE_BITS)) as usize & ((1 << SLICE_BITS) - 1)];
    // t = m / c - 1, 32 fraction bits, |t| < 2^-9 (so |t| < 2^23 here).
    let t = ((u128::from(m) * u128::from(recip)) >> 32) as i64 - (1 << 32);
    let t2 = (t * t) >> 32;
    let t3 = (t2 * t) >> 32;
    let ln = t - t2 / 2 + t3 / 3;
    let log = ((i128::from(ln) * i128::from(INV_LN2)) >> 32) as i64;
    let q32 = (i64::from(int) << 32) + log_centre + log;
    ((q32 + (1 << (31 - FRAC_BITS))) >> (32 - FRAC_BITS)) as u64
}

/// The mantissa's top `SLICE_BITS` fraction bits pick its slice.
const SLICE_BITS: u32 = 8;

/// `1 / ln 2` with 32 fraction bits.
const INV_LN2: i64 = 6_196_328_019;

/// Per slice `i` of `[1, 2)`, with centre `c = 1 + (i + 1/2) / 256`: `1 / c` rounded to 32
/// fraction bits (`r`), and `log2(1 / r)` (close to `log2(c)`, and exactly what dividing by
/// `r` takes away) with 32 fraction bits; computed at compile time with integers.
static SLICES: [(u64, i64); 1 << SLICE_BITS] = slices();

const fn slices() -> [(u64, i64); 1 << SLICE_BITS] {
    let mut table = [(0u64, 0i64); 1 << SLICE_BITS];
    let mut i = 0;
    while i < table.len() {
        let centre = (1u128 << 32) + ((2 * i as u128 + 1) << (31 - SLICE_BITS));
        let recip = ((1u128 << 64) + centre / 2) / centre;
        // log2(2^64 / recip) = 32 - log2(recip), recip in (2^31, 2^32).
        table[i] = (recip as u64, (32i64 << 32) - precise_log2_q32(recip));
        i += 1;
    }
    table
}

/// `log2(x)` for `2^31 <= x < 2^32`, 32 fraction bits, rounded: repeated squaring of the
/// mantissa kept to 62 fraction bits (each square at or above 2 is a one bit).
const fn precise_log2_q32(x: u128) -> i64 {
    let mut m = x << 31; // [2^62, 2^63): the mantissa with 62 fraction bits
    let mut frac: i64 = 0;
    let mut bit = 0;
    while bit < 36 {
        m = (m * m) >> 62;
        frac <<= 1;
        if m >= 1 << 63 {
            m >>= 1;
            frac |= 1;
        }
        bit += 1;
    }
    (31i64 << 32) + ((frac + 8) >> 4)
}

/// `W log2 W` in fixed point, the term a tile of fixed weight `w` adds to `L`.
#[must_use]
pub(super) fn weight_log(w: u64) -> u64 {
    w * log2_fixed(w)
}

/// The entropy of a domain with fixed-weight sum `s` and `L` sum `l`, in bits with
/// [`FRAC_BITS`] fraction bits (at most 12 bits of integer part, so it fits a `u32`); 0 for an
/// empty domain. Lower entropy, lower key.
#[must_use]
pub(super) fn entropy_key(s: u64, l: u64) -> u32 {
    if s == 0 {
        return 0;
    }
    let h = log2_fixed(s).saturating_sub(l / s);
    u32::try_from(h).unwrap_or(u32::MAX)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's log2 is the reference the fixed-point entropy is checked against
mod tests {
    use super::*;

    const ONE: f64 = (1u64 << FRAC_BITS) as f64;

    #[test]
    fn log2_is_exact_at_powers_of_two_and_close_elsewhere() {
        for k in 0..63u32 {
            assert_eq!(log2_fixed(1u64 << k), u64::from(k) << FRAC_BITS, "2^{k}");
        }
        // Against std, in the test only: within one unit of 2^-24.
        let mut x = 1u64;
        while x < u64::MAX / 2 {
            let want = (x as f64).log2() * ONE;
            let got = log2_fixed(x) as f64;
            assert!((got - want).abs() <= 1.0, "log2({x}): {got} vs {want}");
            x += x / 8 + 1;
        }
        for x in 2..100_000u64 {
            let want = (x as f64).log2() * ONE;
            assert!((log2_fixed(x) as f64 - want).abs() <= 1.0, "log2({x})");
        }
    }

    /// Pinned values: the same integers on every platform (no float maths involved).
    #[test]
    fn pinned_values() {
        assert_eq!(log2_fixed(3), 26_591_258);
        assert_eq!(log2_fixed(10), 55_732_705);
        assert_eq!(log2_fixed(1_000_000), 334_396_231);
        assert_eq!(fixed_weights(&[12.0, 2.0, 0.4, 0.0, 1e-9]), [1 << 20, 174_763, 34_953, 0, 1]);
        let w = fixed_weights(&[12.0, 2.0, 0.4]);
        let (s, l) = (w.iter().sum(), w.iter().map(|&w| weight_log(w)).sum());
        assert_eq!(entropy_key(s, l), 12_723_198);
    }

    /// Shannon entropy in bits of the weights, in f64 with std's logarithm (test only).
    fn reference(weights: &[f64]) -> f64 {
        let s: f64 = weights.iter().sum();
        weights.iter().filter(|&&w| w > 0.0).map(|&w| -(w / s) * (w / s).log2()).sum()
    }

    fn key(weights: &[f64], all: &[f64]) -> u32 {
        let fixed = fixed_weights(all);
        let mine: Vec<u64> =
            weights.iter().map(|w| fixed[all.iter().position(|a| a == w).unwrap()]).collect();
        entropy_key(mine.iter().sum(), mine.iter().map(|&w| weight_log(w)).sum())
    }

    #[test]
    fn entropy_matches_shannon_and_keeps_its_order() {
        let all: Vec<f64> = (1..=40).map(|k| f64::from(k) * 0.37 + 0.05 * f64::from(k * k % 7)).collect();
        // Subsets of the tiles, by a fixed xorshift stream.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut domains: Vec<Vec<f64>> = Vec::new();
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let d: Vec<f64> =
                all.iter().enumerate().filter(|(i, _)| state >> i & 1 == 1).map(|(_, &w)| w).collect();
            if !d.is_empty() {
                domains.push(d);
            }
        }
        let scored: Vec<(f64, u32)> = domains.iter().map(|d| (reference(d), key(d, &all))).collect();
        for (d, &(want, got)) in domains.iter().zip(&scored) {
            let got = f64::from(got) / ONE;
            assert!((got - want).abs() < 1e-5, "{d:?}: {got} vs {want}");
        }
        for &(ra, ka) in &scored {
            for &(rb, kb) in &scored {
                if ra + 1e-5 < rb {
                    assert!(ka < kb, "entropy {ra} keyed {ka}, {rb} keyed {kb}");
                }
            }
        }
        assert_eq!(entropy_key(0, 0), 0);
        assert_eq!(key(&[all[3]], &all), 0, "one tile: no uncertainty");
    }
}
