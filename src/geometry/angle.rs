//! Sine, cosine, tangent and arc tangent in plain IEEE arithmetic (`+ - * /` and
//! comparisons), so that every angle the mesh, the stair plan, sight and the walk model
//! compute has the same bits on every platform. Rust's `f64::sin`, `cos`, `tan` and `atan2`
//! call the platform's maths library, whose last bits differ between platforms; this module
//! is the crate's one owner of angles, and `clippy.toml` refuses the std functions
//! elsewhere. Within 1 ulp of the true value (2 for [`atan2`]) for `|x| < 1.6e6` radians;
//! beyond that still deterministic, less accurate.
//!
//! The kernels and the argument reduction follow fdlibm, as in musl:
//!
//! > Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//! >
//! > Developed at SunPro, a Sun Microsystems, Inc. business.
//! > Permission to use, copy, modify, and distribute this
//! > software is freely granted, provided that this notice
//! > is preserved.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use glam::DVec2;

/// The unit vector `(cos a, sin a)` of angle `a` (radians), like `DVec2::from_angle`.
#[must_use]
pub fn unit(a: f64) -> DVec2 {
    let (s, c) = sin_cos(a);
    DVec2::new(c, s)
}

/// The sine of `x` (radians).
#[must_use]
pub fn sin(x: f64) -> f64 {
    sin_cos(x).0
}

/// The cosine of `x` (radians).
#[must_use]
pub fn cos(x: f64) -> f64 {
    sin_cos(x).1
}

/// `(sin x, cos x)` of `x` (radians); NaN for an infinite or NaN `x`.
#[must_use]
pub fn sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    if x.abs() <= FRAC_PI_4 {
        return (kernel_sin(x, 0.0), kernel_cos(x, 0.0));
    }
    let (n, hi, lo) = reduce(x);
    let (s, c) = (kernel_sin(hi, lo), kernel_cos(hi, lo));
    match n & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `x - n pi/2` as `hi + lo` with `|hi| <= pi/4` (about), and `n`: Cody-Waite reduction with
/// pi/2 split in three (fdlibm's `__rem_pio2`, medium case; exact products for
/// `|n| < 2^20`).
fn reduce(x: f64) -> (i64, f64, f64) {
    const INV_PIO2: f64 = f64::from_bits(0x3FE4_5F30_6DC9_C883);
    const PIO2_1: f64 = f64::from_bits(0x3FF9_21FB_5440_0000);
    const PIO2_1T: f64 = f64::from_bits(0x3DD0_B461_1A62_6331);
    const PIO2_2: f64 = f64::from_bits(0x3DD0_B461_1A60_0000);
    const PIO2_2T: f64 = f64::from_bits(0x3BA3_198A_2E03_7073);
    const PIO2_3: f64 = f64::from_bits(0x3BA3_198A_2E00_0000);
    const PIO2_3T: f64 = f64::from_bits(0x397B_839A_2520_49C1);
    // Round to nearest by adding and removing 1.5 * 2^52.
    const TO_INT: f64 = 1.5 / f64::EPSILON;
    let mut f = x * INV_PIO2 + TO_INT - TO_INT;
    let mut r = x - f * PIO2_1;
    let mut w = f * PIO2_1T;
    if r - w < -FRAC_PI_4 {
        f -= 1.0;
        (r, w) = (x - f * PIO2_1, f * PIO2_1T);
    } else if r - w > FRAC_PI_4 {
        f += 1.0;
        (r, w) = (x - f * PIO2_1, f * PIO2_1T);
    }
    let exponent = |v: f64| (v.to_bits() >> 52 & 0x7ff) as i64;
    let mut hi = r - w;
    if exponent(x) - exponent(hi) > 16 {
        // Cancellation: a second round, good to 118 bits.
        let t = r;
        w = f * PIO2_2;
        r = t - w;
        w = f * PIO2_2T - ((t - r) - w);
        hi = r - w;
        if exponent(x) - exponent(hi) > 49 {
            // A third, good to 151 bits.
            let t = r;
            w = f * PIO2_3;
            r = t - w;
            w = f * PIO2_3T - ((t - r) - w);
            hi = r - w;
        }
    }
    (f as i64, hi, (r - hi) - w)
}

/// `sin(x + y)` for `|x + y| <= pi/4`, `y` a small correction (fdlibm's `__kernel_sin`).
fn kernel_sin(x: f64, y: f64) -> f64 {
    const S1: f64 = f64::from_bits(0xBFC5_5555_5555_5549);
    const S2: f64 = f64::from_bits(0x3F81_1111_1110_F8A6);
    const S3: f64 = f64::from_bits(0xBF2A_01A0_19C1_61D5);
    const S4: f64 = f64::from_bits(0x3EC7_1DE3_57B1_FE7D);
    const S5: f64 = f64::from_bits(0xBE5A_E5E6_8A2B_9CEB);
    const S6: f64 = f64::from_bits(0x3DE5_D93A_5ACF_D57C);
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// `cos(x + y)` for `|x + y| <= pi/4`, `y` a small correction (fdlibm's `__kernel_cos`).
fn kernel_cos(x: f64, y: f64) -> f64 {
    const C1: f64 = f64::from_bits(0x3FA5_5555_5555_554C);
    const C2: f64 = f64::from_bits(0xBF56_C16C_16C1_5177);
    const C3: f64 = f64::from_bits(0x3EFA_01A0_19CB_1590);
    const C4: f64 = f64::from_bits(0xBE92_7E4F_809C_52AD);
    const C5: f64 = f64::from_bits(0x3E21_EE9E_BDB4_B1C4);
    const C6: f64 = f64::from_bits(0xBDA8_FAE9_BE88_38D4);
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// The tangent of `x` (radians); NaN for an infinite or NaN `x` (fdlibm's `tan`).
#[must_use]
pub fn tan(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    if x.abs() <= FRAC_PI_4 {
        return if x.abs() < 7.450_580_596_923_828e-9 { x } else { kernel_tan(x, 0.0, false) };
    }
    let (n, hi, lo) = reduce(x);
    kernel_tan(hi, lo, n & 1 == 1)
}

/// `tan(x + y)` for `|x + y| <= pi/4` (about), `y` a small correction, or `-1 / tan(x + y)`
/// when `odd` (fdlibm's `__kernel_tan`).
fn kernel_tan(mut x: f64, mut y: f64, odd: bool) -> f64 {
    const T: [u64; 13] = [
        0x3FD5_5555_5555_5563,
        0x3FC1_1111_1110_FE7A,
        0x3FAB_A1BA_1BB3_41FE,
        0x3F96_64F4_8406_D637,
        0x3F82_26E3_E96E_8493,
        0x3F6D_6D22_C956_0328,
        0x3F57_DBC8_FEE0_8315,
        0x3F43_44D8_F2F2_6501,
        0x3F30_26F7_1A8D_1068,
        0x3F14_7E88_A037_92A6,
        0x3F12_B80F_32F0_A7E9,
        0xBEF3_75CB_DB60_5373,
        0x3EFB_2A70_74BF_7AD4,
    ];
    const PIO4_LO: f64 = f64::from_bits(0x3C81_A626_3314_5C07);
    let t = |i: usize| f64::from_bits(T[i]);
    // Near pi/4 the series converges slowly: use tan(pi/4 - x) instead.
    let big = x.abs() >= f64::from_bits(0x3FE5_9428_0000_0000);
    let negative = x.is_sign_negative();
    if big {
        if negative {
            (x, y) = (-x, -y);
        }
        x = (FRAC_PI_4 - x) + (PIO4_LO - y);
        y = 0.0;
    }
    let z = x * x;
    let w = z * z;
    let r = t(1) + w * (t(3) + w * (t(5) + w * (t(7) + w * (t(9) + w * t(11)))));
    let v = z * (t(2) + w * (t(4) + w * (t(6) + w * (t(8) + w * (t(10) + w * t(12))))));
    let s = z * x;
    let r = y + z * (s * (r + v) + y) + s * t(0);
    let w = x + r;
    if big {
        let s = if odd { -1.0 } else { 1.0 };
        let v = s - 2.0 * (x + (r - w * w / (w + s)));
        return if negative { -v } else { v };
    }
    if !odd {
        return w;
    }
    // -1 / (x + r) to within 1 ulp: split w and -1/w in high and low halves.
    let high = |v: f64| f64::from_bits(v.to_bits() & 0xFFFF_FFFF_0000_0000);
    let w0 = high(w);
    let v = r - (w0 - x);
    let a = -1.0 / w;
    let a0 = high(a);
    a0 + a * (1.0 + a0 * w0 + a0 * v)
}

/// The arc tangent of `x` (radians, in `[-pi/2, pi/2]`; fdlibm's `atan`).
#[must_use]
pub fn atan(x: f64) -> f64 {
    const HI: [f64; 4] = [
        f64::from_bits(0x3FDD_AC67_0561_BB4F), // atan(0.5)
        f64::from_bits(0x3FE9_21FB_5444_2D18), // atan(1)
        f64::from_bits(0x3FEF_730B_D281_F69B), // atan(1.5)
        f64::from_bits(0x3FF9_21FB_5444_2D18), // atan(inf)
    ];
    const LO: [f64; 4] = [
        f64::from_bits(0x3C7A_2B7F_222F_65E2),
        f64::from_bits(0x3C81_A626_3314_5C07),
        f64::from_bits(0x3C70_0788_7AF0_CBBD),
        f64::from_bits(0x3C91_A626_3314_5C07),
    ];
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    if a >= 7.378_697_629_483_821e19 {
        // |x| >= 2^66: atan(x) rounds to +-pi/2.
        return FRAC_PI_2.copysign(x);
    }
    if a < 0.4375 {
        return if a < 7.450_580_596_923_828e-9 { x } else { x - x * atan_series(x) };
    }
    let (id, t) = if a < 0.6875 {
        (0, (2.0 * a - 1.0) / (2.0 + a))
    } else if a < 1.1875 {
        (1, (a - 1.0) / (a + 1.0))
    } else if a < 2.4375 {
        (2, (a - 1.5) / (1.0 + 1.5 * a))
    } else {
        (3, -1.0 / a)
    };
    let z = HI[id] - ((t * atan_series(t) - LO[id]) - t);
    z.copysign(x)
}

/// `(atan(t) - t) / -t` for small `t`: fdlibm's odd and even polynomial halves.
fn atan_series(t: f64) -> f64 {
    const AT: [u64; 11] = [
        0x3FD5_5555_5555_550D,
        0xBFC9_9999_9998_EBC4,
        0x3FC2_4924_9200_83FF,
        0xBFBC_71C6_FE23_1671,
        0x3FB7_45CD_C54C_206E,
        0xBFB3_B0F2_AF74_9A6D,
        0x3FB1_0D66_A0D0_3D51,
        0xBFAD_DE2D_52DE_FD9A,
        0x3FA9_7B4B_2476_0DEB,
        0xBFA2_B444_2C6A_6C2F,
        0x3F90_AD3A_E322_DA11,
    ];
    let at = |i: usize| f64::from_bits(AT[i]);
    let z = t * t;
    let w = z * z;
    let s1 = z * (at(0) + w * (at(2) + w * (at(4) + w * (at(6) + w * (at(8) + w * at(10))))));
    let s2 = w * (at(1) + w * (at(3) + w * (at(5) + w * (at(7) + w * at(9)))));
    s1 + s2
}

/// The angle of the point `(x, y)` from the `x` axis (radians, in `[-pi, pi]`; fdlibm's
/// `atan2`, the same conventions as `f64::atan2` for zeros and infinities).
#[must_use]
pub fn atan2(y: f64, x: f64) -> f64 {
    const PI_LO: f64 = f64::from_bits(0x3CA1_A626_3314_5C07);
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == 1.0 {
        return atan(y);
    }
    let (negative_y, negative_x) = (y.is_sign_negative(), x.is_sign_negative());
    let signed = |v: f64| if negative_y { -v } else { v };
    if y == 0.0 {
        return if negative_x { signed(PI) } else { y };
    }
    if x == 0.0 {
        return signed(FRAC_PI_2);
    }
    if x.is_infinite() {
        return match (y.is_infinite(), negative_x) {
            (true, false) => signed(FRAC_PI_4),
            (true, true) => signed(3.0 * FRAC_PI_4),
            (false, false) => signed(0.0),
            (false, true) => signed(PI),
        };
    }
    let exponent = |v: f64| (v.to_bits() >> 52 & 0x7ff) as i64;
    if y.is_infinite() || exponent(y) - exponent(x) > 64 {
        return signed(FRAC_PI_2);
    }
    let z = if negative_x && exponent(x) - exponent(y) > 64 { 0.0 } else { atan((y / x).abs()) };
    match (negative_y, negative_x) {
        (false, false) => z,
        (true, false) => -z,
        (false, true) => PI - (z - PI_LO),
        (true, true) => (z - PI_LO) - PI,
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's functions are the reference these are checked against
mod tests {
    use super::*;

    /// Angles from -20 to 20 radians in uneven steps, with the multiples of pi/4 and their
    /// neighbours, where reduction is hardest.
    fn angles() -> Vec<f64> {
        let mut v: Vec<f64> = (0..200_000).map(|k| -20.0 + f64::from(k) * 2.000_013e-4).collect();
        for k in -40..=40 {
            let a = f64::from(k) * FRAC_PI_4;
            v.extend([a, f64::from_bits(a.to_bits() + 1), f64::from_bits(a.to_bits().saturating_sub(1))]);
        }
        v.extend([0.0, -0.0, 1e-300, 1e-9, 123_456.789, -1.5e6]);
        v
    }

    #[test]
    fn sin_cos_match_std_closely() {
        for a in angles() {
            let (s, c) = sin_cos(a);
            assert!((s - a.sin()).abs() <= 1e-15, "sin({a}) = {s}, std {}", a.sin());
            assert!((c - a.cos()).abs() <= 1e-15, "cos({a}) = {c}, std {}", a.cos());
            assert_eq!(unit(a), DVec2::new(c, s));
            let (t, want) = (tan(a), a.tan());
            assert!((t - want).abs() <= 4.0 * f64::EPSILON * want.abs(), "tan({a}) = {t}, std {want}");
        }
        assert!(sin(f64::INFINITY).is_nan() && cos(f64::NAN).is_nan() && tan(f64::NEG_INFINITY).is_nan());
        assert_eq!(tan(-0.0).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn atan2_matches_std_closely() {
        for (k, a) in angles().into_iter().enumerate().step_by(7) {
            let r = 0.01 + (k % 97) as f64 * 0.37;
            let (x, y) = (r * a.cos(), r * a.sin());
            let got = atan2(y, x);
            assert!((got - y.atan2(x)).abs() <= 1e-15, "atan2({y}, {x}) = {got}, std {}", y.atan2(x));
            assert!((atan(a) - a.atan()).abs() <= 1e-15, "atan({a})");
        }
        let special = [0.0, -0.0, 1.0, -1.0, 2.5, f64::INFINITY, f64::NEG_INFINITY, 1e300, 1e-300];
        for y in special {
            for x in special {
                let (got, want) = (atan2(y, x), y.atan2(x));
                let exact = [x, y].iter().any(|v| *v == 0.0 || v.is_infinite());
                assert!(if exact { got == want } else { (got - want).abs() <= 1e-15 }, "atan2({y}, {x})");
                assert_eq!(got.is_sign_negative(), want.is_sign_negative(), "atan2({y}, {x})");
            }
        }
        assert!(atan2(f64::NAN, 1.0).is_nan() && atan(f64::NAN).is_nan());
    }

    /// Pinned bits: these functions use only IEEE `+ - * /`, so these are the bits on every
    /// platform. (std's results may differ in the last bit from platform to platform.)
    #[test]
    fn pinned_bits() {
        let got: Vec<u64> =
            [sin(1.0), cos(1.0), sin(2.5), cos(-7.0), sin(1000.0), atan2(3.84, -6.4), atan(0.3)]
                .iter()
                .map(|v| v.to_bits())
                .collect();
        let pinned = [
            0x3fea_ed54_8f09_0cee,
            0x3fe1_4a28_0fb5_068c,
            0x3fe3_26af_0dcf_cab0,
            0x3fe8_1ff7_9ed9_2017,
            0x3fea_75cc_150a_206b,
            0x4004_cf33_dec5_e9e0,
            0x3fd2_a73a_661e_af06,
        ];
        assert_eq!(got, pinned);
    }
}
