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
#[inline(always)]
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
        let q = u0 / v;
        return (q, u0 - q * v);
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

/// A 256-bit value as two native `u128` halves, for the hot loops (the stable-swap Newton
/// iterations): cheaper to move and test than `U256` and with fast paths for small values.
/// Ordering compares `hi` first, then `lo`, which is numeric order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct W {
    /// bits 128..256
    pub hi: u128,
    /// bits 0..128
    pub lo: u128,
}

impl W {
    /// Zero.
    pub const ZERO: W = W { hi: 0, lo: 0 };
    /// One.
    pub const ONE: W = W { hi: 0, lo: 1 };

    /// The value `x`.
    #[inline]
    #[must_use]
    pub const fn small(x: u128) -> W {
        W { hi: 0, lo: x }
    }

    /// From a `U256`.
    #[inline]
    #[must_use]
    pub fn from_u256(x: U256) -> W {
        let (hi, lo) = split(&x);
        W { hi, lo }
    }

    /// To a `U256`.
    #[inline]
    #[must_use]
    pub fn to_u256(self) -> U256 {
        from_parts(self.hi, self.lo)
    }

    /// Whether the value is 0.
    #[inline]
    #[must_use]
    pub fn is_zero(self) -> bool {
        self.hi == 0 && self.lo == 0
    }

    /// `self + o`, `None` at 2^256.
    #[inline(always)]
    #[must_use]
    pub fn checked_add(self, o: W) -> Option<W> {
        let (lo, c) = self.lo.overflowing_add(o.lo);
        let hi = self.hi.checked_add(o.hi)?.checked_add(u128::from(c))?;
        Some(W { hi, lo })
    }

    /// `self - o`, `None` below zero.
    #[inline(always)]
    #[must_use]
    pub fn checked_sub(self, o: W) -> Option<W> {
        let (lo, b) = self.lo.overflowing_sub(o.lo);
        let hi = self.hi.checked_sub(o.hi)?.checked_sub(u128::from(b))?;
        Some(W { hi, lo })
    }

    /// `self * o`, `None` at 2^256.
    #[inline(always)]
    #[must_use]
    pub fn checked_mul(self, o: W) -> Option<W> {
        match (self.hi, o.hi) {
            (0, 0) => {
                let (hi, lo) = mul_128(self.lo, o.lo);
                Some(W { hi, lo })
            }
            (_, 0) => mul_w_128(self, o.lo),
            (0, _) => mul_w_128(o, self.lo),
            // Both >= 2^128: the product is >= 2^256 (unless one is zero, which it is not).
            _ => None,
        }
    }

    /// `self / d` rounded down with the remainder, `None` for `d == 0`.
    #[inline]
    #[must_use]
    pub fn checked_div_rem(self, d: W) -> Option<(W, W)> {
        if d.hi == 0 {
            if d.lo == 0 {
                return None;
            }
            let (q, r) = div_w_by_128(self, d.lo);
            return Some((q, W::small(r)));
        }
        if self < d {
            return Some((W::ZERO, self));
        }
        // d >= 2^128, so the quotient is < 2^128. Estimate it from the top 128 bits of the
        // normalised divisor (Knuth's theorem B: the estimate is at most 2 too large), then
        // correct with the exact product.
        let s = d.hi.leading_zeros();
        let (dt, nt) = if s == 0 {
            (d.hi, W::small(self.hi))
        } else {
            (
                (d.hi << s) | (d.lo >> (128 - s)),
                W {
                    hi: self.hi >> (128 - s),
                    lo: (self.hi << s) | (self.lo >> (128 - s)),
                },
            )
        };
        // nt.hi < 2^s <= dt because dt >= 2^127.
        let (mut q, _) = div_256_by_128(nt.hi, nt.lo, dt);
        loop {
            if let Some(p) = d.checked_mul(W::small(q)) {
                if p <= self {
                    // p <= self, so the subtraction cannot fail.
                    let r = self.checked_sub(p).unwrap_or(W::ZERO);
                    return Some((W::small(q), r));
                }
            }
            // q > 0 here: q == 0 gives p == 0 <= self.
            q -= 1;
        }
    }

    /// `floor(self / 10^18)` and the remainder, by multiplication with a precomputed
    /// reciprocal (no hardware division).
    #[inline(always)]
    #[must_use]
    pub fn div_rem_e18(self) -> (W, u64) {
        if self.hi == 0 {
            // Two limbs: the same steps on (0, 0, l1, l0).
            let (l1, l0) = ((self.lo >> 64) as u64, self.lo as u64);
            let top = l1 >> (64 - E18_SHIFT);
            let s1 = (l1 << E18_SHIFT) | (l0 >> (64 - E18_SHIFT));
            let s0 = l0 << E18_SHIFT;
            let (q1, r) = div_2by1_preinv(top, s1, E18_NORM, E18_INV);
            let (q0, r) = div_2by1_preinv(r, s0, E18_NORM, E18_INV);
            return (
                W::small((u128::from(q1) << 64) | u128::from(q0)),
                r >> E18_SHIFT,
            );
        }
        let l = [
            self.lo as u64,
            (self.lo >> 64) as u64,
            self.hi as u64,
            (self.hi >> 64) as u64,
        ];
        // Shift left by the normalisation of 1e18 (4 bits) into five limbs.
        let top = l[3] >> (64 - E18_SHIFT);
        let s3 = (l[3] << E18_SHIFT) | (l[2] >> (64 - E18_SHIFT));
        let s2 = (l[2] << E18_SHIFT) | (l[1] >> (64 - E18_SHIFT));
        let s1 = (l[1] << E18_SHIFT) | (l[0] >> (64 - E18_SHIFT));
        let s0 = l[0] << E18_SHIFT;
        // top < 16 < the normalised divisor, as the first step requires.
        let (q3, r) = div_2by1_preinv(top, s3, E18_NORM, E18_INV);
        let (q2, r) = div_2by1_preinv(r, s2, E18_NORM, E18_INV);
        let (q1, r) = div_2by1_preinv(r, s1, E18_NORM, E18_INV);
        let (q0, r) = div_2by1_preinv(r, s0, E18_NORM, E18_INV);
        (
            W {
                hi: (u128::from(q3) << 64) | u128::from(q2),
                lo: (u128::from(q1) << 64) | u128::from(q0),
            },
            r >> E18_SHIFT,
        )
    }
}

/// `a * b` for `b < 2^128`, `None` at 2^256.
#[inline(always)]
fn mul_w_128(a: W, b: u128) -> Option<W> {
    let (h1, l1) = mul_128(a.hi, b);
    if h1 != 0 {
        return None;
    }
    let (h0, l0) = mul_128(a.lo, b);
    Some(W {
        hi: l1.checked_add(h0)?,
        lo: l0,
    })
}

/// `n / d` and `n % d` for a divisor below 2^128 (`d != 0`).
#[inline]
fn div_w_by_128(n: W, d: u128) -> (W, u128) {
    if n.hi == 0 {
        let q = n.lo / d;
        return (W::small(q), n.lo - q * d);
    }
    if n.hi < d {
        let (q, r) = div_256_by_128(n.hi, n.lo, d);
        return (W::small(q), r);
    }
    let qh = n.hi / d;
    let rh = n.hi - qh * d;
    let (ql, r) = div_256_by_128(rh, n.lo, d);
    (W { hi: qh, lo: ql }, r)
}

/// 10^18 shifted left until its top bit is set.
const E18_SHIFT: u32 = 4;
const E18_NORM: u64 = 1_000_000_000_000_000_000u64 << E18_SHIFT;
/// The Möller–Granlund reciprocal of `E18_NORM`: `floor((2^128 - 1) / d) - 2^64`.
const E18_INV: u64 = ((u128::MAX / E18_NORM as u128) - (1u128 << 64)) as u64;

/// `(q, r)` of `(u1·2^64 + u0) / d` for a normalised `d` (top bit set), `u1 < d`, with its
/// precomputed reciprocal `v` (Möller and Granlund, "Improved division by invariant integers",
/// 2011, algorithm 4): two multiplications instead of a hardware division.
#[inline(always)]
fn div_2by1_preinv(u1: u64, u0: u64, d: u64, v: u64) -> (u64, u64) {
    let p = u128::from(v) * u128::from(u1);
    let p = p.wrapping_add((u128::from(u1) << 64) | u128::from(u0));
    let mut q1 = ((p >> 64) as u64).wrapping_add(1);
    let q0 = p as u64;
    let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
    if r > q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 = q1.wrapping_add(1);
        r = r.wrapping_sub(d);
    }
    (q1, r)
}

/// `floor(a * b / d)` for `u128` operands, `None` for `d == 0` or a quotient at or above
/// 2^128.
#[inline]
#[must_use]
pub fn mul_div_128(a: u128, b: u128, d: u128) -> Option<u128> {
    if d == 0 {
        return None;
    }
    let (hi, lo) = mul_128(a, b);
    if hi == 0 {
        return Some(lo / d);
    }
    if hi >= d {
        return None;
    }
    Some(div_256_by_128(hi, lo, d).0)
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
    fn div_e18_small() {
        let e18 = 1_000_000_000_000_000_000u128;
        let (q, r) = W::small(5 * e18 + 7).div_rem_e18();
        assert_eq!((q, r), (W::small(5), 7));
        let n = W {
            hi: u128::MAX,
            lo: u128::MAX,
        };
        let (q, r) = n.div_rem_e18();
        // q * 1e18 + r == n
        let back = q
            .checked_mul(W::small(e18))
            .unwrap()
            .checked_add(W::small(u128::from(r)));
        assert_eq!(back, Some(n));
        assert!(u128::from(r) < e18);
    }

    #[test]
    fn div_w_large_divisor() {
        let n = W {
            hi: u128::MAX,
            lo: 12345,
        };
        let d = W {
            hi: 3,
            lo: u128::MAX,
        };
        let (q, r) = n.checked_div_rem(d).unwrap();
        assert!(r < d);
        assert_eq!(d.checked_mul(q).unwrap().checked_add(r), Some(n));
    }

    #[test]
    fn mul_128_max() {
        let (hi, lo) = mul_128(u128::MAX, u128::MAX);
        assert_eq!(hi, u128::MAX - 1);
        assert_eq!(lo, 1);
    }
}
