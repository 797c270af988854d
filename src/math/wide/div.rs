//! The 512-by-256 division of [`super`]: Knuth's algorithm D with base-2^128 digits.

use super::{div_256_by_128, div_256_by_norm128, mul_128, mul_w_128, reciprocal_3by2, W};
use crate::math::float::{floor_to_u128, wide_to_f64_approx};

/// `(floor(n / d), n mod d)` for the 512-bit `n = nh·2^256 + nl`; `None` when `d == 0` or the
/// quotient does not fit 256 bits (`nh >= d`).
///
/// Knuth's algorithm D (TAOCP vol. 2, 4.3.1) with base-2^128 digits: the divisor has at most
/// two digits, so the quotient has two, each estimated from the top two digits of the running
/// remainder by the divisor's normalised top digit (at most two too large, theorem B) and
/// corrected against the exact three-digit product.
#[must_use]
pub fn div_512_by_256(nh: W, nl: W, d: W) -> Option<(W, W)> {
    if d.is_zero() || nh >= d {
        return None;
    }
    if nh.is_zero() {
        return nl.checked_div_rem(d);
    }
    if d.hi == 0 {
        // One-digit divisor: nh < d < 2^128, so nh.hi == 0 and nh.lo < d.lo; each step's
        // remainder stays below the divisor, as `div_256_by_128` requires.
        let v = d.lo;
        let (q1, r) = div_256_by_128(nh.lo, nl.hi, v);
        let (q0, r) = div_256_by_128(r, nl.lo, v);
        return Some((W { hi: q1, lo: q0 }, W::small(r)));
    }
    // Two-digit divisor, normalised so its top bit is set; the dividend shifted the same way.
    // nh < d, so the shifted dividend's fifth digit is 0 and (n3, n2) < (v1, v0).
    let s = d.hi.leading_zeros();
    let (v1, v0, n3, n2, n1, n0) = if s == 0 {
        (d.hi, d.lo, nh.hi, nh.lo, nl.hi, nl.lo)
    } else {
        let t = 128 - s;
        (
            (d.hi << s) | (d.lo >> t),
            d.lo << s,
            (nh.hi << s) | (nh.lo >> t),
            (nh.lo << s) | (nl.hi >> t),
            (nl.hi << s) | (nl.lo >> t),
            nl.lo << s,
        )
    };
    // One reciprocal of the top digit for both digit estimates.
    let top = (v1 >> 64) as u64;
    let inv = reciprocal_3by2(top, v1 as u64);
    let (q1, r1, r0) = div_3by2_digits(n3, n2, n1, v1, v0, inv);
    let (q0, r1, r0) = div_3by2_digits(r1, r0, n0, v1, v0, inv);
    let r = if s == 0 {
        W { hi: r1, lo: r0 }
    } else {
        W {
            hi: r1 >> s,
            lo: (r0 >> s) | (r1 << (128 - s)),
        }
    };
    Some((W { hi: q1, lo: q0 }, r))
}

/// One step of [`div_512_by_256`]: `(q, r1, r0)` with `q = floor((u2, u1, u0) / (v1, v0))` in
/// base-2^128 digits and `(r1, r0)` the remainder, for a normalised `v1` (top bit set) and
/// `(u2, u1) < (v1, v0)` (so `q` is one digit); `inv` is `reciprocal_3by2` of `v1`'s limbs.
#[inline]
fn div_3by2_digits(
    u2: u128,
    u1: u128,
    u0: u128,
    v1: u128,
    v0: u128,
    inv: u64,
) -> (u128, u128, u128) {
    // (u2, u1) < (v1, v0) gives u2 <= v1; at u2 == v1 the estimate is the largest digit.
    let mut q = if u2 >= v1 {
        u128::MAX
    } else {
        div_256_by_norm128(u2, u1, v1, inv)
    };
    // p = q · (v1, v0) in three digits; q·v1 <= (2^128 − 1)^2, so its high digit is at most
    // 2^128 − 2 and the carry into it cannot overflow.
    let (a1, a0) = mul_128(q, v0);
    let (b1, b0) = mul_128(q, v1);
    let (p1, c) = b0.overflowing_add(a1);
    let mut p = (b1 + u128::from(c), p1, a0);
    let u = (u2, u1, u0);
    // The estimate is at least the quotient and at most 2 above it (theorem B): step it down
    // while the product exceeds the dividend. Each pass keeps p = q · v and p > u >= 0, so
    // q >= 1 and p >= v: nothing below underflows.
    while p > u {
        q -= 1;
        let (x0, b) = p.2.overflowing_sub(v0);
        let (x1, b1) = p.1.overflowing_sub(v1);
        let (x1, b2) = x1.overflowing_sub(u128::from(b));
        p = (p.0 - u128::from(b1) - u128::from(b2), x1, x0);
    }
    // r = u − p < v: its top digit is 0.
    let (r0, b) = u.2.overflowing_sub(p.2);
    let (r1, _) = u.1.overflowing_sub(p.1);
    let r1 = r1.wrapping_sub(u128::from(b));
    (q, r1, r0)
}

/// `(floor(n / d), n mod d)` for a divisor of at least 2^128 (so the quotient is below 2^128)
/// without a reciprocal of the divisor: a float estimate of the quotient, corrected by the exact
/// remainder `n − q·d` until `0 <= n − q·d < d`, the definition of the floor quotient, holds.
///
/// Each round multiplies the divisor by the estimate exactly and divides the float of what is
/// left by the float of `d` (both from their top 63 bits, [`wide_to_f64_approx`]; the
/// estimate goes to an integer from its bits), so the estimate's error shrinks by about 2^-50
/// a round: two rounds settle quotients below 2^50, three below 2^100, four any other. `None`
/// for `d < 2^128` and when eight rounds do not settle it (not seen; the caller then divides
/// the plain way). The float only steers the estimate: the answer is the one `q` the exact
/// check accepts.
#[doc(hidden)]
#[must_use]
#[inline]
pub fn div_rem_by_wide(n: W, d: W) -> Option<(u128, W)> {
    if d.hi == 0 {
        return None;
    }
    // d >= 2^128: the float is positive and finite, and so is its reciprocal.
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: no traps
    let inv = 1.0 / wide_to_f64_approx(d);
    #[allow(clippy::arithmetic_side_effects)]
    let mut q = floor_to_u128(wide_to_f64_approx(n) * inv);
    for _ in 0..8 {
        let Some(p) = mul_w_128(d, q) else {
            // q·d >= 2^256 > n: too large (an estimate next to 2^256 / d); step down.
            q = q.saturating_sub((q >> 40).saturating_add(1));
            continue;
        };
        if let Some(r) = n.checked_sub(p) {
            if r < d {
                return Some((q, r));
            }
            // Too small by about r / d >= 1.
            #[allow(clippy::arithmetic_side_effects)]
            let up = floor_to_u128(wide_to_f64_approx(r) * inv).max(1);
            q = q.checked_add(up)?;
        } else {
            // Too large by ceil((p − n) / d) >= 1 (p > n here).
            let e = p.checked_sub(n)?;
            #[allow(clippy::arithmetic_side_effects)]
            let down = floor_to_u128(wide_to_f64_approx(e) * inv).saturating_add(1);
            q = q.saturating_sub(down);
        }
    }
    None
}
