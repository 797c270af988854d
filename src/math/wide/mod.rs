//! Native 128-bit building blocks for the fast paths of [`crate::math`]: a widening 128×128
//! product, a 256-by-128 division and conversions between `U256` and `(hi, lo)` halves.
//!
//! The division is the classic two-digit long division with base 2^64 digits (Knuth, TAOCP
//! vol. 2, 4.3.1, algorithm D, specialised to a two-digit divisor as in Hacker's Delight
//! `divlu`), so each quotient digit costs one hardware 128-by-64 division. The 512-by-256
//! division ([`div_512_by_256`]) lives in `div.rs`, the unit tests in `tests.rs`.

use primitive_types::U256;

mod div;
pub use div::{div_512_by_256, div_rem_by_wide};

const LO64: u128 = u64::MAX as u128;

/// `x` as a `u128` when it is below 2^128.
#[inline]
#[must_use]
pub(crate) fn to_u128(x: &U256) -> Option<u128> {
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
pub(crate) fn split(x: &U256) -> (u128, u128) {
    let l = x.0;
    (
        u128::from(l[2]) | (u128::from(l[3]) << 64),
        u128::from(l[0]) | (u128::from(l[1]) << 64),
    )
}

/// The `U256` with value `x`.
#[inline]
#[must_use]
#[cfg(test)]
pub(crate) fn from_u128(x: u128) -> U256 {
    U256([x as u64, (x >> 64) as u64, 0, 0])
}

/// The `U256` with value `hi * 2^128 + lo`.
#[inline]
#[must_use]
pub(crate) fn from_parts(hi: u128, lo: u128) -> U256 {
    U256([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64])
}

/// The full product `a * b` as `(hi, lo)` 128-bit halves.
#[inline(always)]
#[must_use]
pub(crate) const fn mul_128(a: u128, b: u128) -> (u128, u128) {
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
///
/// One hardware division (for the divisor's reciprocal) and two multiplication-based quotient
/// steps (Möller and Granlund, "Improved division by invariant integers", IEEE TC 2011,
/// algorithms 4 and 5: 2-by-1 and 3-by-2 division with a precomputed reciprocal).
#[inline]
#[must_use]
pub(crate) fn div_256_by_128(u1: u128, u0: u128, v: u128) -> (u128, u128) {
    debug_assert!(v != 0 && u1 < v);
    if u1 == 0 {
        let q = u0 / v;
        return (q, u0 - q * v);
    }
    let s = v.leading_zeros();
    if v <= LO64 {
        // One-limb divisor: u1 < v < 2^64. Normalise by sh < 64 bits, then two 2-by-1 steps
        // over the limbs (u1, u0_hi, u0_lo) shifted left by sh.
        let sh = s - 64;
        let d = (v as u64) << sh;
        let inv = reciprocal_word(d);
        let (h, l) = ((u0 >> 64) as u64, u0 as u64);
        let (n2, n1, n0) = if sh == 0 {
            (u1 as u64, h, l)
        } else {
            // u1 < v, so u1·2^sh plus the shifted-in bits stays below d.
            (
                ((u1 as u64) << sh) | (h >> (64 - sh)),
                (h << sh) | (l >> (64 - sh)),
                l << sh,
            )
        };
        let (q1, r) = div_2by1_preinv(n2, n1, d, inv);
        let (q0, r) = div_2by1_preinv(r, n0, d, inv);
        return ((u128::from(q1) << 64) | u128::from(q0), u128::from(r >> sh));
    }
    // Two-limb divisor, normalised so its top bit is set.
    let vn = v << s;
    let (d1, d0) = ((vn >> 64) as u64, vn as u64);
    let inv = reciprocal_3by2(d1, d0);
    let un32 = if s == 0 {
        u1
    } else {
        (u1 << s) | (u0 >> (128 - s))
    };
    let un10 = u0 << s;
    let top3 = (un32 << 64) | (un10 >> 64);
    let (q1, r) = if (un32 >> 64) == 0 && top3 < vn {
        // The high quotient digit is 0 (quotients below 2^64 are common): skip its step.
        (0, top3)
    } else {
        div_3by2_preinv(
            (un32 >> 64) as u64,
            un32 as u64,
            (un10 >> 64) as u64,
            d1,
            d0,
            inv,
        )
    };
    let (q0, r) = div_3by2_preinv((r >> 64) as u64, r as u64, un10 as u64, d1, d0, inv);
    ((u128::from(q1) << 64) | u128::from(q0), r >> s)
}

/// `floor((u1 * 2^128 + u0) / v)` for a normalised `v` (top bit set) with `u1 < v`, given
/// `inv = reciprocal_3by2(v >> 64, v as u64)`: the two-limb steps of [`div_256_by_128`]
/// without recomputing the reciprocal.
#[inline]
fn div_256_by_norm128(u1: u128, u0: u128, v: u128, inv: u64) -> u128 {
    let (d1, d0) = ((v >> 64) as u64, v as u64);
    let top3 = (u1 << 64) | (u0 >> 64);
    let (q1, r) = if (u1 >> 64) == 0 && top3 < v {
        (0, top3)
    } else {
        div_3by2_preinv((u1 >> 64) as u64, u1 as u64, (u0 >> 64) as u64, d1, d0, inv)
    };
    let (q0, _) = div_3by2_preinv((r >> 64) as u64, r as u64, u0 as u64, d1, d0, inv);
    (u128::from(q1) << 64) | u128::from(q0)
}

/// `floor((2^128 - 1) / d) - 2^64` for a normalised `d` (top bit set): the reciprocal the
/// preinverted divisions use. The quotient below is < 2^64, one hardware division.
#[inline(always)]
fn reciprocal_word(d: u64) -> u64 {
    let n = (u128::from(!d) << 64) | u128::from(u64::MAX);
    (n / u128::from(d)) as u64
}

/// The 3-by-2 reciprocal of a normalised two-limb divisor `(d1, d0)`:
/// `floor((2^192 - 1) / (d1·2^64 + d0)) - 2^64`.
#[inline(always)]
fn reciprocal_3by2(d1: u64, d0: u64) -> u64 {
    let mut v = reciprocal_word(d1);
    let mut p = d1.wrapping_mul(v).wrapping_add(d0);
    if p < d0 {
        v = v.wrapping_sub(1);
        if p >= d1 {
            v = v.wrapping_sub(1);
            p = p.wrapping_sub(d1);
        }
        p = p.wrapping_sub(d1);
    }
    let t = u128::from(v) * u128::from(d0);
    let (t1, t0) = ((t >> 64) as u64, t as u64);
    let p2 = p.wrapping_add(t1);
    if p2 < t1 {
        v = v.wrapping_sub(1);
        if (p2, t0) >= (d1, d0) {
            v = v.wrapping_sub(1);
        }
    }
    v
}

/// `(q, r)` of `(u2·2^128 + u1·2^64 + u0) / (d1·2^64 + d0)` for a normalised divisor with
/// `(u2, u1) < (d1, d0)`, given `v = reciprocal_3by2(d1, d0)`; `q < 2^64`, `r` two limbs.
#[inline(always)]
fn div_3by2_preinv(u2: u64, u1: u64, u0: u64, d1: u64, d0: u64, v: u64) -> (u64, u128) {
    let d = (u128::from(d1) << 64) | u128::from(d0);
    let q = (u128::from(v) * u128::from(u2)).wrapping_add((u128::from(u2) << 64) | u128::from(u1));
    let (mut q1, q0) = ((q >> 64) as u64, q as u64);
    let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
    let mut r = ((u128::from(r1) << 64) | u128::from(u0)).wrapping_sub(d);
    r = r.wrapping_sub(u128::from(d0) * u128::from(q1));
    q1 = q1.wrapping_add(1);
    if ((r >> 64) as u64) >= q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 = q1.wrapping_add(1);
        r = r.wrapping_sub(d);
    }
    (q1, r)
}

/// A 256-bit value as two native `u128` halves, for the hot loops (the stable-swap Newton
/// iterations): cheaper to move and test than `U256` and with fast paths for small values.
/// Ordering compares `hi` first, then `lo`, which is numeric order (the comparisons are a
/// subtraction's borrow: no branch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct W {
    /// bits 128..256
    pub hi: u128,
    /// bits 0..128
    pub lo: u128,
}

impl W {
    /// `self < o`: whether `self − o` borrows.
    #[inline(always)]
    fn borrows(self, o: W) -> bool {
        let (_, b) = self.lo.overflowing_sub(o.lo);
        let (d, b1) = self.hi.overflowing_sub(o.hi);
        let (_, b2) = d.overflowing_sub(u128::from(b));
        b1 | b2
    }
}

impl Ord for W {
    #[inline]
    fn cmp(&self, o: &Self) -> core::cmp::Ordering {
        (self.hi, self.lo).cmp(&(o.hi, o.lo))
    }
}

impl PartialOrd for W {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(o))
    }

    #[inline(always)]
    fn lt(&self, o: &Self) -> bool {
        self.borrows(*o)
    }

    #[inline(always)]
    fn le(&self, o: &Self) -> bool {
        !o.borrows(*self)
    }

    #[inline(always)]
    fn gt(&self, o: &Self) -> bool {
        o.borrows(*self)
    }

    #[inline(always)]
    fn ge(&self, o: &Self) -> bool {
        !self.borrows(*o)
    }
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
        if self.hi <= LO64 {
            // Three limbs: the same steps on (0, l2, l1, l0).
            let (l2, l1, l0) = (self.hi as u64, (self.lo >> 64) as u64, self.lo as u64);
            let top = l2 >> (64 - E18_SHIFT);
            let s2 = (l2 << E18_SHIFT) | (l1 >> (64 - E18_SHIFT));
            let s1 = (l1 << E18_SHIFT) | (l0 >> (64 - E18_SHIFT));
            let s0 = l0 << E18_SHIFT;
            let (q2, r) = div_2by1_preinv(top, s2, E18_NORM, E18_INV);
            let (q1, r) = div_2by1_preinv(r, s1, E18_NORM, E18_INV);
            let (q0, r) = div_2by1_preinv(r, s0, E18_NORM, E18_INV);
            return (
                W {
                    hi: u128::from(q2),
                    lo: (u128::from(q1) << 64) | u128::from(q0),
                },
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
#[must_use]
pub(crate) fn mul_w_128(a: W, b: u128) -> Option<W> {
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
#[must_use]
pub(crate) fn div_w_by_128(n: W, d: u128) -> (W, u128) {
    if n.hi == 0 {
        let q = n.lo / d;
        return (W::small(q), n.lo - q * d);
    }
    if n.hi < d {
        let (q, r) = div_256_by_128(n.hi, n.lo, d);
        return (W::small(q), r);
    }
    if d > LO64 {
        return div_w_by_two_limbs(n, d);
    }
    let qh = n.hi / d;
    let rh = n.hi - qh * d;
    let (ql, r) = div_256_by_128(rh, n.lo, d);
    (W { hi: qh, lo: ql }, r)
}

/// The full 512-bit product `a * b` as `(high, low)` 256-bit halves.
#[inline]
#[must_use]
pub(crate) fn mul_256_full(a: W, b: W) -> (W, W) {
    let (ll1, ll0) = mul_128(a.lo, b.lo);
    if a.hi == 0 && b.hi == 0 {
        return (W::ZERO, W { hi: ll1, lo: ll0 });
    }
    let (lh1, lh0) = mul_128(a.lo, b.hi);
    let (hl1, hl0) = mul_128(a.hi, b.lo);
    let (hh1, hh0) = mul_128(a.hi, b.hi);
    // Digit 1 (bits 128..256): ll1 + lh0 + hl0, carrying up to 2 into digit 2.
    let (d1, c1) = ll1.overflowing_add(lh0);
    let (d1, c2) = d1.overflowing_add(hl0);
    let carry1 = u128::from(c1) + u128::from(c2);
    // Digit 2: hh0 + lh1 + hl1 + carry1, carrying up to 3 into digit 3.
    let (d2, c1) = hh0.overflowing_add(lh1);
    let (d2, c2) = d2.overflowing_add(hl1);
    let (d2, c3) = d2.overflowing_add(carry1);
    // The product is below 2^512, so digit 3 cannot overflow.
    let d3 = hh1 + u128::from(c1) + u128::from(c2) + u128::from(c3);
    (W { hi: d3, lo: d2 }, W { hi: d1, lo: ll0 })
}

/// `n / d` and `n % d` for `2^64 <= d <= n.hi`: the three-limb quotient by three 3-by-2 steps
/// sharing one reciprocal of the normalised divisor (instead of a 128-by-128 division for the
/// high half and a second reciprocal for the low half).
#[inline]
fn div_w_by_two_limbs(n: W, d: u128) -> (W, u128) {
    let s = d.leading_zeros();
    let vn = d << s;
    let (d1, d0) = ((vn >> 64) as u64, vn as u64);
    let inv = reciprocal_3by2(d1, d0);
    // n shifted left by s < 64 into five limbs; d >= 2^64 keeps the top two below vn.
    let l = [
        n.lo as u64,
        (n.lo >> 64) as u64,
        n.hi as u64,
        (n.hi >> 64) as u64,
    ];
    let (n4, n3, n2, n1, n0) = if s == 0 {
        (0, l[3], l[2], l[1], l[0])
    } else {
        let t = 64 - s;
        (
            l[3] >> t,
            (l[3] << s) | (l[2] >> t),
            (l[2] << s) | (l[1] >> t),
            (l[1] << s) | (l[0] >> t),
            l[0] << s,
        )
    };
    let (q2, r) = div_3by2_preinv(n4, n3, n2, d1, d0, inv);
    let (q1, r) = div_3by2_preinv((r >> 64) as u64, r as u64, n1, d1, d0, inv);
    let (q0, r) = div_3by2_preinv((r >> 64) as u64, r as u64, n0, d1, d0, inv);
    (
        W {
            hi: u128::from(q2),
            lo: (u128::from(q1) << 64) | u128::from(q0),
        },
        r >> s,
    )
}

/// A divisor below 2^64 with its normalisation and Möller–Granlund reciprocal, for dividing
/// by a constant (the fee denominator) with multiplications only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Div64 {
    norm: u64,
    inv: u64,
    shift: u32,
}

impl Div64 {
    /// The divisor `d` (`d != 0`; 0 is taken as 1).
    #[must_use]
    pub const fn new(d: u64) -> Self {
        let d = if d == 0 { 1 } else { d };
        let shift = d.leading_zeros();
        let norm = d << shift;
        Self {
            norm,
            inv: ((u128::MAX / norm as u128) - (1u128 << 64)) as u64,
            shift,
        }
    }

    /// `(n / d, n % d)` (inlined: a constant divisor's shift and reciprocal fold in).
    #[inline(always)]
    #[must_use]
    pub fn div_rem(self, n: W) -> (W, u64) {
        let (sh, d, v) = (self.shift, self.norm, self.inv);
        if n.hi == 0 {
            // Two limbs (the usual size): the same steps on (0, 0, l1, l0), shifted left by
            // sh < 64 into a top limb below 2^sh <= d and two more.
            let (l1, l0) = ((n.lo >> 64) as u64, n.lo as u64);
            let (top, s1, s0) = if sh == 0 {
                (0, l1, l0)
            } else {
                (l1 >> (64 - sh), (l1 << sh) | (l0 >> (64 - sh)), l0 << sh)
            };
            let (q1, r) = div_2by1_preinv(top, s1, d, v);
            let (q0, r) = div_2by1_preinv(r, s0, d, v);
            return (W::small((u128::from(q1) << 64) | u128::from(q0)), r >> sh);
        }
        let l = [
            n.lo as u64,
            (n.lo >> 64) as u64,
            n.hi as u64,
            (n.hi >> 64) as u64,
        ];
        // Limbs shifted left by sh < 64: a top limb (below 2^sh <= d) and four more.
        let limb = |k: usize| -> u64 {
            let lo = if k == 0 || sh == 0 {
                0
            } else {
                l[k - 1] >> (64 - sh)
            };
            (l[k] << sh) | lo
        };
        let top = if sh == 0 { 0 } else { l[3] >> (64 - sh) };
        let (q3, r) = div_2by1_preinv(top, limb(3), d, v);
        let (q2, r) = div_2by1_preinv(r, limb(2), d, v);
        let (q1, r) = div_2by1_preinv(r, limb(1), d, v);
        let (q0, r) = div_2by1_preinv(r, limb(0), d, v);
        (
            W {
                hi: (u128::from(q3) << 64) | u128::from(q2),
                lo: (u128::from(q1) << 64) | u128::from(q0),
            },
            r >> sh,
        )
    }
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
pub(crate) fn mul_div_128(a: u128, b: u128, d: u128) -> Option<u128> {
    div_w_128(mul_128_w(a, b), d)
}

/// The full 256-bit product of two `u128` as a [`W`].
#[inline(always)]
#[must_use]
pub(crate) fn mul_128_w(a: u128, b: u128) -> W {
    let (hi, lo) = mul_128(a, b);
    W { hi, lo }
}

/// `floor(n / d)` when the quotient fits 128 bits (`n.hi < d`); `None` otherwise or for
/// `d == 0`.
#[inline]
#[must_use]
pub(crate) fn div_w_128(n: W, d: u128) -> Option<u128> {
    if d == 0 || n.hi >= d {
        return None;
    }
    Some(div_256_by_128(n.hi, n.lo, d).0)
}

/// A divisor below 2^128 prepared for many divisions of 256-bit values by it (the stable-swap
/// `get_D` loop divides by each `x_k · n` every round): at or above 2^64 it keeps its
/// normalised form and 3-by-2 reciprocal, so each division is multiplications only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Div128 {
    d: u128,
    s: u32,
    vn: u128,
    inv: u64,
}

impl Div128 {
    /// Prepare `d` (0 is accepted: every division by it is then `None`).
    #[inline]
    #[must_use]
    pub fn new(d: u128) -> Self {
        if d >> 64 == 0 {
            return Self {
                d,
                s: 0,
                vn: 0,
                inv: 0,
            };
        }
        let s = d.leading_zeros();
        let vn = d << s;
        Self {
            d,
            s,
            vn,
            inv: reciprocal_3by2((vn >> 64) as u64, vn as u64),
        }
    }

    /// [`Div128::new`], with a divisor below 2^64 prepared too (its normalised form and 2-by-1
    /// reciprocal): for a divisor kept for many divisions whatever its size (the liquidity of
    /// a concentrated-liquidity segment).
    #[inline]
    #[must_use]
    pub fn prepared(d: u128) -> Self {
        if d == 0 || d >> 64 != 0 {
            return Self::new(d);
        }
        // 1 <= d < 2^64: s = leading zeros of d as a u64, d << s < 2^64 with its top bit set.
        let s = d.leading_zeros() - 64;
        let vn = d << s;
        Self {
            d,
            s,
            vn,
            inv: reciprocal_word(vn as u64),
        }
    }

    /// The divisor.
    #[inline]
    #[must_use]
    pub fn divisor(&self) -> u128 {
        self.d
    }

    /// `floor(n / d)` when the quotient fits 128 bits (`n.hi < d`); `None` otherwise.
    #[inline]
    #[must_use]
    pub fn div(&self, n: W) -> Option<u128> {
        if self.vn == 0 {
            return div_w_128(n, self.d);
        }
        if n.hi >= self.d {
            return None;
        }
        if self.vn >> 64 == 0 {
            // A prepared divisor below 2^64 (`prepared`): n.hi < d, so the three limbs
            // (n.hi, n.lo's halves) shifted left by s keep the top one below the normalised
            // divisor, and two 2-by-1 steps give the quotient's two limbs.
            let (sh, dn) = (self.s, self.vn as u64);
            let (u1, h, l) = (n.hi as u64, (n.lo >> 64) as u64, n.lo as u64);
            let (n2, n1, n0) = if sh == 0 {
                (u1, h, l)
            } else {
                (
                    (u1 << sh) | (h >> (64 - sh)),
                    (h << sh) | (l >> (64 - sh)),
                    l << sh,
                )
            };
            let (q1, r) = div_2by1_preinv(n2, n1, dn, self.inv);
            let (q0, _) = div_2by1_preinv(r, n0, dn, self.inv);
            return Some((u128::from(q1) << 64) | u128::from(q0));
        }
        // d >= 2^64, so s < 64 and the shifts are in range; n.hi < d keeps nh < vn.
        let (nh, nl) = if self.s == 0 {
            (n.hi, n.lo)
        } else {
            ((n.hi << self.s) | (n.lo >> (128 - self.s)), n.lo << self.s)
        };
        Some(div_256_by_norm128(nh, nl, self.vn, self.inv))
    }
}

impl Div128 {
    /// `floor(x · 2^128 / d)` when it fits 128 bits (`x < d`), else `None`: [`Self::div`] of
    /// `x << 128`, whose low half is zero, inlined (the fee growth of a concentrated-liquidity
    /// step divides by the prepared liquidity this way).
    #[inline(always)]
    #[must_use]
    pub fn div_shifted(&self, x: u128) -> Option<u128> {
        if x >= self.d {
            return None;
        }
        if self.vn == 0 {
            return self.div(W { hi: x, lo: 0 });
        }
        if self.vn >> 64 == 0 {
            // A prepared divisor below 2^64: x < d < 2^64, so x << s stays below the
            // normalised divisor; the two lower limbs are zero.
            let (sh, dn) = (self.s, self.vn as u64);
            let (q1, r) = div_2by1_preinv((x as u64) << sh, 0, dn, self.inv);
            let (q0, _) = div_2by1_preinv(r, 0, dn, self.inv);
            return Some((u128::from(q1) << 64) | u128::from(q0));
        }
        // d >= 2^64 and x < d: x << s stays below the normalised divisor.
        Some(div_256_by_norm128(x << self.s, 0, self.vn, self.inv))
    }
}

/// Floor square root of a `u128` (Newton from above, in native arithmetic).
#[must_use]
pub(crate) fn sqrt_u128(x: u128) -> u128 {
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
mod tests;
