//! Every `f64` helper of the crate: integer ↔ float conversions, powers of ten and the roots
//! `core` lacks. For searches, guides, ranking and display only: a float never produces an
//! amount.
//!
//! With `std` the roots are the hardware / libm ones; without it, Newton iterations from a
//! bit-level first guess (accurate to a few ulp, which is all a search needs).
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
// f64 arithmetic cannot trap; every integer shift below is range-checked at its comment.
#![allow(clippy::arithmetic_side_effects)]

use super::wide::W;
use primitive_types::U256;

/// 2^256 as an `f64` (exact).
const TWO_256: f64 = 115_792_089_237_316_195_423_570_985_008_687_907_853_269_984_665_640_564_039_457_584_007_913_129_639_936.0;

/// `2^e` for `0 <= e <= 1023`, from the exponent bits.
#[inline]
fn pow2(e: u32) -> f64 {
    f64::from_bits(u64::from(1023 + e.min(1023)) << 52)
}

/// The nearest `f64` to a [`W`] (correctly rounded, ties to even, like Python's `float(int)`):
/// its top 64 bits with a sticky bit for the rest, converted once, times a power of two.
#[must_use]
#[inline]
pub(crate) fn wide_to_f64(x: W) -> f64 {
    let W { hi, lo } = x;
    if hi == 0 {
        if lo >> 64 == 0 {
            return lo as u64 as f64;
        }
        // lo >= 2^64: 1 <= sh <= 64, so both shifts are in range.
        let sh = 64 - lo.leading_zeros();
        let top = (lo >> sh) as u64;
        let sticky = u64::from(lo << (128 - sh) != 0);
        return (top | sticky) as f64 * pow2(sh);
    }
    // hi != 0: 65 <= sh <= 192, and x >> sh fits 64 bits.
    let sh = 192 - hi.leading_zeros();
    let (top, sticky) = if sh >= 128 {
        // 0 <= s <= 64; for s > 0 the left shift is 64..=127.
        let s = sh - 128;
        let lost = if s == 0 { 0 } else { hi << (128 - s) };
        ((hi >> s) as u64, lost != 0 || lo != 0)
    } else {
        // 65 <= sh <= 127: shifts of 1..=63 and 65..=127.
        (
            ((hi << (128 - sh)) | (lo >> sh)) as u64,
            lo << (128 - sh) != 0,
        )
    };
    (top | u64::from(sticky)) as f64 * pow2(sh)
}

/// A float within a relative 2^-52 of a [`W`], never above it: its top 63 bits (truncated)
/// times a power of two. Cheaper than [`wide_to_f64`]; for estimates an exact check settles.
#[must_use]
#[inline(always)]
pub(crate) fn wide_to_f64_approx(x: W) -> f64 {
    let W { hi, lo } = x;
    // `top`: the value shifted left until its top bit is set; `bits`: its bit length.
    let (top, bits) = if hi != 0 {
        let s = hi.leading_zeros();
        // 1 <= s <= 127 in the shifted case: both shifts are in range.
        let t = if s == 0 {
            hi
        } else {
            (hi << s) | (lo >> (128 - s))
        };
        (t, 256 - s)
    } else if lo != 0 {
        let s = lo.leading_zeros();
        (lo << s, 128 - s)
    } else {
        return 0.0;
    };
    // The top 63 bits fit an i64 (one signed conversion); the value is them times
    // 2^(bits − 63), an exponent in −62..=193.
    let v = (top >> 65) as i64 as f64;
    let e = i64::from(bits) - 63 + 1023;
    v * f64::from_bits((e as u64) << 52)
}

/// The nearest `f64` to a `U256` (correctly rounded, ties to even): the crate's one U256 → f64
/// conversion.
#[must_use]
#[inline]
pub fn to_f64(x: U256) -> f64 {
    wide_to_f64(W::from_u256(x))
}

/// `⌊x⌋` without `std` (`f64::floor` is not in `core`): exact for every finite `x` (a float of
/// magnitude 2^52 or more is already an integer), `-0.0` included; NaN and the infinities pass
/// through.
#[must_use]
pub(crate) fn floor(x: f64) -> f64 {
    const INTEGRAL: f64 = 4_503_599_627_370_496.0; // 2^52
                                                   // integers already (the zeros keep their sign), NaN and the infinities
    if !(x < INTEGRAL && x > -INTEGRAL) || x == 0.0 {
        return x;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_precision_loss,
        clippy::arithmetic_side_effects
    )]
    // |x| < 2^52: the truncation toward zero is exact in i64 and back; f64 subtraction
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// The largest `U256` at or below a float, saturating: 0 for negative values, values below 1
/// and NaN, `U256::MAX` at or above 2^256 (for turning a float guess into a search start only).
#[must_use]
pub(crate) fn from_f64_floor(x: f64) -> U256 {
    if !(x >= 1.0) {
        return U256::zero();
    }
    if x >= TWO_256 {
        return U256::MAX;
    }
    let bits = x.to_bits();
    // A normal positive float: value = mant * 2^(exp_field - 1075), with 1 <= value < 2^256,
    // so -52 <= exp <= 203 and the shifts below stay in range.
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = U256::from((bits & ((1u64 << 52) - 1)) | (1u64 << 52));
    if exp >= 0 {
        mant << (exp as usize)
    } else {
        mant >> ((-exp) as usize)
    }
}

/// A float guess as a `U256` search start in `[0, max]`: [`from_f64_floor`], `max` from
/// `to_f64(max)` up, 0 for NaN and anything not positive.
#[must_use]
pub(crate) fn from_f64_clamped(v: f64, max: U256) -> U256 {
    if !(v > 0.0) {
        return U256::zero();
    }
    if v >= to_f64(max) {
        return max;
    }
    from_f64_floor(v).min(max)
}

/// `10^e` for small `e` of either sign, by repeated multiplication (`powi` is not in `core`);
/// `1 / 10^|e|` for negative `e`. `|e|` is capped at 400 (the result is then 0 or infinite).
#[must_use]
pub(crate) fn pow10(e: i32) -> f64 {
    let mut v = 1.0f64;
    for _ in 0..e.unsigned_abs().min(400) {
        v *= 10.0;
    }
    if e < 0 {
        1.0 / v
    } else {
        v
    }
}

/// Square root; NaN for negative input, 0 for 0.
#[must_use]
#[inline]
pub(crate) fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        if !(x > 0.0) || x == f64::INFINITY {
            return if x == 0.0 || x == f64::INFINITY {
                x
            } else {
                f64::NAN
            };
        }
        let mut y = f64::from_bits((x.to_bits() >> 1) + 0x1FF8_0000_0000_0000);
        for _ in 0..6 {
            y = 0.5 * (y + x / y);
        }
        y
    }
}

/// Square root of what should be non-negative: 0 for NaN and anything not positive (a search
/// guide that must stay finite and non-negative).
#[must_use]
#[inline]
pub(crate) fn sqrt_or_zero(x: f64) -> f64 {
    if x > 0.0 {
        sqrt(x)
    } else {
        0.0
    }
}

/// Cube root (odd: `cbrt(-x) == -cbrt(x)`).
#[must_use]
#[inline]
pub(crate) fn cbrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.cbrt()
    }
    #[cfg(not(feature = "std"))]
    {
        if x == 0.0 || !x.is_finite() {
            return x;
        }
        let a = x.abs();
        let mut y = f64::from_bits(a.to_bits() / 3 + 0x2A9F_7893_782D_A1CE);
        for _ in 0..8 {
            y = (2.0 * y + a / (y * y)) / 3.0;
        }
        if x < 0.0 {
            -y
        } else {
            y
        }
    }
}

/// The least of `f` over `[lo, hi]` by `steps` golden-section steps (`f` unimodal there, or the
/// answer is only a good point): `(x, f(x))`, the better of the last two points.
#[allow(clippy::arithmetic_side_effects)] // f64
pub(crate) fn golden_min(
    lo: f64,
    hi: f64,
    steps: usize,
    mut f: impl FnMut(f64) -> f64,
) -> (f64, f64) {
    let g = 0.618_033_988_749_894_9;
    let (mut a, mut b) = (lo, hi);
    let mut x1 = b - g * (b - a);
    let mut x2 = a + g * (b - a);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..steps {
        if f1 <= f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    if f1 <= f2 {
        (x1, f1)
    } else {
        (x2, f2)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The nearest f64 by an independent route: the decimal string through the standard
    /// library's correctly rounded parser.
    fn nearest(x: U256) -> f64 {
        x.to_string().parse::<f64>().unwrap()
    }

    /// `floor` against the standard library's on values around the integers, the 2^52 edge,
    /// negatives and the non-finite values.
    #[test]
    fn floor_matches_std() {
        let mut xs = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.999_999, -2.000_001, 1e-300, -1e-300,
        ];
        for e in [30, 51, 52, 53, 60, 200] {
            let p = 2f64.powi(e);
            xs.extend([
                p,
                p - 0.5,
                p + 0.5,
                -p,
                -p + 0.5,
                -p - 0.5,
                p - 1.0,
                p + 1.0,
            ]);
        }
        xs.extend([f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN]);
        for x in xs {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x}");
        }
        assert!(floor(f64::NAN).is_nan());
    }

    #[test]
    fn to_f64_is_correctly_rounded() {
        let mut cases = vec![
            U256::zero(),
            U256::one(),
            U256::from(u64::MAX),
            U256::from(u64::MAX) + 1,
            U256::MAX,
            U256::from(u128::MAX),
            (U256::one() << 128) + 1,
            (U256::one() << 200) - 1,
        ];
        // ties and near-ties at every width: 2^k + 2^(k-53) (a tie to even, down) and
        // 2^k + 3·2^(k-53) (a tie, up), each with and without a sticky bit far below.
        for k in 54..256usize {
            for m in [1u8, 3] {
                let t = (U256::one() << k) + (U256::from(m) << (k - 53));
                cases.push(t);
                cases.push(t + 1);
                cases.push(t - 1);
            }
        }
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut l = [0u64; 4];
            for x in &mut l {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *x = s;
            }
            let v = U256(l) >> (s % 256) as usize;
            cases.push(v);
        }
        for v in cases {
            assert_eq!(to_f64(v).to_bits(), nearest(v).to_bits(), "{v}");
        }
    }

    /// The approximate conversion is at most the value and within a relative 2^-52 of it.
    #[test]
    fn approx_conversion_is_at_most_the_value_and_close() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..20_000u32 {
            let mut l = [0u64; 4];
            for x in &mut l {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *x = s;
            }
            let v = U256(l) >> (k % 256) as usize;
            let w = W::from_u256(v);
            let a = wide_to_f64_approx(w);
            let exact = nearest(v);
            assert!(a <= exact && (exact - a) <= exact * 2f64.powi(-52), "{v}");
        }
        assert_eq!(wide_to_f64_approx(W::ZERO), 0.0);
        assert_eq!(wide_to_f64_approx(W::ONE), 1.0);
    }

    #[test]
    fn floor_and_clamp() {
        assert_eq!(from_f64_floor(f64::NAN), U256::zero());
        assert_eq!(from_f64_floor(-3.0), U256::zero());
        assert_eq!(from_f64_floor(0.99), U256::zero());
        assert_eq!(from_f64_floor(7.9), U256::from(7u8));
        assert_eq!(from_f64_floor(f64::INFINITY), U256::MAX);
        assert_eq!(from_f64_floor(TWO_256), U256::MAX);
        assert_eq!(from_f64_floor(2f64.powi(200)), U256::one() << 200);
        assert_eq!(from_f64_clamped(12.5, U256::from(10u8)), U256::from(10u8));
        assert_eq!(from_f64_clamped(9.5, U256::from(10u8)), U256::from(9u8));
        assert_eq!(from_f64_clamped(f64::NAN, U256::from(10u8)), U256::zero());
    }

    #[test]
    fn powers_and_roots() {
        assert_eq!(pow10(0), 1.0);
        assert_eq!(pow10(6), 1e6);
        assert_eq!(pow10(-3), 1.0 / 1000.0);
        for x in [1e-30, 0.5, 2.0, 3.0, 1e10, 7.7e200] {
            let s = sqrt(x);
            assert!((s * s / x - 1.0).abs() < 1e-14);
            let c = cbrt(x);
            assert!((c * c * c / x - 1.0).abs() < 1e-14);
            assert!((cbrt(-x) + c).abs() <= 1e-14 * c);
        }
        assert_eq!(sqrt_or_zero(-1.0), 0.0);
        assert_eq!(sqrt_or_zero(f64::NAN), 0.0);
        assert_eq!(sqrt_or_zero(4.0), 2.0);
    }
}
