//! Native 128-bit building blocks for the fast paths of [`crate::math`]: a widening 128×128
//! product, a 256-by-128 division and conversions between `U256` and `(hi, lo)` halves.
//!
//! The division is the classic two-digit long division with base 2^64 digits (Knuth, TAOCP
//! vol. 2, 4.3.1, algorithm D, specialised to a two-digit divisor as in Hacker's Delight
//! `divlu`), so each quotient digit costs one hardware 128-by-64 division.

use primitive_types::U256;

const LO64: u128 = u64::MAX as u128;

/// `x` as a `u128` when it is below 2^128.
#[inline]
#[must_use]
pub fn to_u128(x: &U256) -> Option<u128> {
    let l = x.0;
    if l[2] == 0 && l[3] == 0 {
        Some(u128::from(l[0]) | (u128::from(l[1]) << 64))
    } else {
        None
    }
}

/// `(hi, lo)` 128-bit halves of `x`.
#[inline]
#[must_use]
pub fn split(x: &U256) -> (u128, u128) {
    let l = x.0;
    (
        u128::from(l[2]) | (u128::from(l[3]) << 64),
        u128::from(l[0]) | (u128::from(l[1]) << 64),
    )
}

/// The `U256` with value `x`.
#[inline]
#[must_use]
pub fn from_u128(x: u128) -> U256 {
    U256([x as u64, (x >> 64) as u64, 0, 0])
}

/// The `U256` with value `hi * 2^128 + lo`.
#[inline]
#[must_use]
pub fn from_parts(hi: u128, lo: u128) -> U256 {
    U256([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64])
}

/// The full product `a * b` as `(hi, lo)` 128-bit halves.
#[inline]
#[must_use]
pub fn mul_128(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = (a >> 64, a & LO64);
    let (b1, b0) = (b >> 64, b & LO64);
    if a1 == 0 && b1 == 0 {
        // Both < 2^64: the product is < 2^128.
        return (0, a0 * b0);
    }
    // Each partial product of two 64-bit digits is < 2^128.
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    // Three terms each < 2^64: the sum is < 3 * 2^64.
    let mid = (p00 >> 64) + (p01 & LO64) + (p10 & LO64);
    let lo = (p00 & LO64) | (mid << 64);
    // The true high half is < 2^128 because a * b < 2^256.
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// `(q, r)` with `q = floor((u1 * 2^128 + u0) / v)` and `r` the remainder.
///
/// Preconditions (callers guarantee them): `v != 0` and `u1 < v`, so the quotient fits 128 bits.
#[inline]
#[must_use]
pub fn div_256_by_128(u1: u128, u0: u128, v: u128) -> (u128, u128) {
    debug_assert!(v != 0 && u1 < v);
    if u1 == 0 {
        return (u0 / v, u0 % v);
    }
    // Normalise: shift so the divisor's top bit is set. u1 < v keeps the shifted high part
    // below 2^128.
    let s = v.leading_zeros();
    let v = v << s;
    let (vn1, vn0) = (v >> 64, v & LO64);
    let un32 = if s == 0 {
        u1
    } else {
        (u1 << s) | (u0 >> (128 - s))
    };
    let un10 = u0 << s;
    let (un1, un0) = (un10 >> 64, un10 & LO64);

    // First quotient digit. vn1 >= 2^63 so q1 < 2^65 + ... and the loop below runs at most
    // twice; inside it q1 <= 2^64 - 1 when the product is formed (short-circuit `||`).
    let mut q1 = un32 / vn1;
    let mut rhat = un32 - q1 * vn1;
    while q1 > LO64 || q1 * vn0 > ((rhat << 64) | un1) {
        q1 -= 1;
        rhat += vn1;
        if rhat > LO64 {
            break;
        }
    }
    // The partial remainder is < v < 2^128; compute it modulo 2^128.
    let un21 = ((un32 << 64) | un1).wrapping_sub(q1.wrapping_mul(v));

    let mut q0 = un21 / vn1;
    let mut rhat = un21 - q0 * vn1;
    while q0 > LO64 || q0 * vn0 > ((rhat << 64) | un0) {
        q0 -= 1;
        rhat += vn1;
        if rhat > LO64 {
            break;
        }
    }
    let r = ((un21 << 64) | un0).wrapping_sub(q0.wrapping_mul(v)) >> s;
    ((q1 << 64) | q0, r)
}

/// Floor square root of a `u128` (Newton from above, in native arithmetic).
#[must_use]
pub fn sqrt_u128(x: u128) -> u128 {
    if x < 2 {
        return x;
    }
    let bits = 128 - x.leading_zeros();
    // 2^ceil(bits/2) > sqrt(x); it is at most 2^64, and x / r < 2^64, so r + x / r < 2^65.
    let mut r: u128 = 1 << bits.div_ceil(2);
    loop {
        let next = (r + x / r) >> 1;
        if next >= r {
            return r;
        }
        r = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_256_by_128_small_cases() {
        // (2^128 + 5) / 3
        let (q, r) = div_256_by_128(1, 5, 3);
        // 2^128 = 3 * 113427455640312821154458202477256070485 + 1
        assert_eq!(q, 113_427_455_640_312_821_154_458_202_477_256_070_487);
        assert_eq!(r, 0);
        let (q, r) = div_256_by_128(u128::MAX - 1, u128::MAX, u128::MAX);
        assert_eq!(q, u128::MAX);
        assert_eq!(r, u128::MAX - 1);
    }

    #[test]
    fn mul_128_max() {
        let (hi, lo) = mul_128(u128::MAX, u128::MAX);
        assert_eq!(hi, u128::MAX - 1);
        assert_eq!(lo, 1);
    }
}
