//! The 512-by-256 division of [`super`]: Knuth's algorithm D with base-2^128 digits.

use super::{div_256_by_128, div_256_by_norm128, mul_128, mul_w_128, reciprocal_3by2, W};

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

/// `(floor(n / d), n mod d)` for a divisor of at least 2^128 (so the quotient is below 2^128):
/// the quotient of the top 256 bits of `n·2^s` by the top 128 bits of `d·2^s` (`s` the
/// normalising shift), by the Möller–Granlund 3-by-2 steps with one reciprocal, then the exact
/// product `q·d` checked against `n` and `q` stepped down while it exceeds it.
///
/// The estimate is never below the quotient (the truncated divisor is at most the real one's
/// top bits) and at most 3 above it (the truncation changes the divisor by less than 2^-127
/// of itself and the quotient is below 2^128), so at most three steps down follow one
/// multiplication. `None` for `d < 2^128` (the caller divides the plain way).
#[doc(hidden)]
#[must_use]
#[inline]
pub fn div_rem_by_wide(n: W, d: W) -> Option<(u128, W)> {
    if d.hi == 0 {
        return None;
    }
    if n < d {
        return Some((0, n));
    }
    // Normalise: the divisor's top 128 bits `v` with the top bit set, and the dividend's
    // matching 256 bits (`u1 < 2^s <= v`, as the 3-by-2 steps require).
    let s = d.hi.leading_zeros();
    let (v, u1, u0) = if s == 0 {
        (d.hi, 0, n.hi)
    } else {
        let t = 128 - s;
        (
            (d.hi << s) | (d.lo >> t),
            n.hi >> t,
            (n.hi << s) | (n.lo >> t),
        )
    };
    let inv = reciprocal_3by2((v >> 64) as u64, v as u64);
    let mut q = div_256_by_norm128(u1, u0, v, inv);
    // At most three steps down (see above); the product is recomputed only when it
    // overflowed 256 bits (then it certainly exceeds n).
    let mut p = mul_w_128(d, q);
    for _ in 0..4 {
        match p {
            Some(x) if x <= n => {
                // x <= n: the remainder is below d (q is the floor quotient).
                return Some((q, n.checked_sub(x)?));
            }
            Some(x) => {
                q = q.checked_sub(1)?;
                p = x.checked_sub(d);
            }
            None => {
                q = q.checked_sub(1)?;
                p = mul_w_128(d, q);
            }
        }
    }
    None
}
