//! Fast forms of the invariant loops, the exact-out search and the marginal rate.

use super::invariant::{self, FEE_DENOMINATOR, PRECISION};
use super::{StableSwap, Variant};
use crate::error::PoolError;
use crate::math::float::to_f64;
use crate::math::{add, div, mul, sub};
use primitive_types::U256;

/// `get_D`, exact: the u128 form when every intermediate fits, else [`invariant::get_d`].
pub(super) fn get_d(xp: &[U256], amp: U256, variant: Variant) -> Result<U256, PoolError> {
    if let Some(d) = small(xp).and_then(|(a, n)| get_d_128(a.get(..n)?, to_u128(amp)?, variant)) {
        return Ok(U256::from(d));
    }
    invariant::get_d(xp, amp, variant)
}

/// `get_y`, exact: the u128 form when every intermediate fits, else [`invariant::get_y`].
pub(super) fn get_y(
    i: usize,
    j: usize,
    x: U256,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    let fast = small(xp).and_then(|(a, n)| {
        let (b, c) = coefficients_128(
            a.get(..n)?,
            Some((i, to_u128(x)?)),
            j,
            to_u128(amp)?,
            to_u128(d)?,
            variant,
        )?;
        newton_y_128(b, c, to_u128(d)?, variant)
    });
    match fast {
        Some(y) => Ok(U256::from(y)),
        None => invariant::get_y(i, j, x, xp, amp, d, variant),
    }
}

/// `get_y_D`, exact: the u128 form when every intermediate fits, else
/// [`invariant::get_y_d`].
pub(super) fn get_y_d(
    i: usize,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    let fast = small(xp).and_then(|(a, n)| {
        let (b, c) = coefficients_128(a.get(..n)?, None, i, to_u128(amp)?, to_u128(d)?, variant)?;
        newton_y_128(b, c, to_u128(d)?, variant)
    });
    match fast {
        Some(y) => Ok(U256::from(y)),
        None => invariant::get_y_d(i, xp, amp, d, variant),
    }
}

/// `div(mul(a, b)?, d)?` exactly (an overflowing product first, then a zero divisor), through
/// u128 arithmetic when the operands and the quotient fit.
#[inline]
pub(super) fn mul_div(a: U256, b: U256, d: U256) -> Result<U256, PoolError> {
    if let (Some(a), Some(b), Some(d)) = (to_u128(a), to_u128(b), to_u128(d)) {
        // The product of two u128 always fits 256 bits, so only the divisor can fail.
        if d == 0 {
            return Err(PoolError::Math(crate::error::MathError::DivisionByZero));
        }
        if let Some(q) = mul_div_128(a, b, d) {
            return Ok(U256::from(q));
        }
    }
    Ok(div(mul(a, b)?, d)?)
}

// ---------------------------------------------------------------------- 128-bit forms
//
// Each function below computes exactly what its `invariant` twin computes, on u128 values with
// 256-bit products, and returns `None` as soon as a value leaves the range it handles (a
// product or quotient above 128 bits where the twin keeps 256, an overflow, an underflow, a
// zero divisor, or no convergence where the twin reverts). The caller then runs the twin,
// which gives the same value or the contract's error. So `Some(v)` is always the twin's `Ok(v)`.

/// A U256 that fits in 128 bits.
#[inline]
pub(super) fn to_u128(v: U256) -> Option<u128> {
    let [l0, l1, l2, l3] = v.0;
    if l2 != 0 || l3 != 0 {
        return None;
    }
    Some(u128::from(l0) | (u128::from(l1) << 64))
}

/// `xp` as u128s in a fixed array (no allocation), with its length.
#[inline]
fn small(xp: &[U256]) -> Option<([u128; super::MAX_COINS], usize)> {
    let mut a = [0u128; super::MAX_COINS];
    for (slot, &x) in a.iter_mut().zip(xp) {
        *slot = to_u128(x)?;
    }
    Some((a, xp.len()))
}

/// A 256-bit intermediate as two 128-bit halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct W {
    hi: u128,
    lo: u128,
}

const M64: u128 = u64::MAX as u128;

/// The full 256-bit product of two u128.
#[inline]
#[allow(clippy::arithmetic_side_effects)]
// Every partial product is of two 64-bit halves, so below 2^128; `mid` adds three values below
// 2^64 each; `hi` is the exact high half of a product below 2^256, so it cannot overflow.
fn mul_full(a: u128, b: u128) -> W {
    if (a | b) >> 64 == 0 {
        return W { hi: 0, lo: a * b };
    }
    let (a1, a0) = (a >> 64, a & M64);
    let (b1, b0) = (b >> 64, b & M64);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & M64) + (p10 & M64);
    W {
        hi: p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64),
        lo: (mid << 64) | (p00 & M64),
    }
}

/// `w + c`, `None` at 2^256.
#[inline]
fn add_w(w: W, c: W) -> Option<W> {
    let (lo, carry) = w.lo.overflowing_add(c.lo);
    let hi = w.hi.checked_add(c.hi)?.checked_add(u128::from(carry))?;
    Some(W { hi, lo })
}

/// `w * k`, `None` at 2^256.
#[inline]
fn mul_w(w: W, k: u128) -> Option<W> {
    let lo = mul_full(w.lo, k);
    let hi = w.hi.checked_mul(k)?.checked_add(lo.hi)?;
    Some(W { hi, lo: lo.lo })
}

/// `floor(w / d)` when the quotient fits in 128 bits (`w.hi < d`); `None` otherwise or for
/// `d = 0`. Long division in 64-bit digits with a normalised divisor (Knuth's algorithm D,
/// as in Hacker's Delight `divlu`), on native u128 operations.
#[inline]
#[allow(clippy::arithmetic_side_effects)]
// Knuth D invariants: after normalisation `vn1 >= 2^63`, so each trial digit is at most
// 2^64 + 1 and is only multiplied once it is below 2^64; `rhat` is below 2^64 whenever it is
// shifted; `un21` is a true remainder below `v`, computed modulo 2^128 where it fits; `s < 64`
// in that branch, so `128 - s` is a valid shift.
fn div_w(w: W, d: u128) -> Option<u128> {
    if d == 0 || w.hi >= d {
        return None;
    }
    if w.hi == 0 {
        return Some(w.lo / d);
    }
    if d >> 64 == 0 {
        // hi < d < 2^64: two 128-by-64 steps.
        let t = (w.hi << 64) | (w.lo >> 64);
        let (q1, r1) = (t / d, t % d);
        let t2 = (r1 << 64) | (w.lo & M64);
        return Some((q1 << 64) | (t2 / d));
    }
    let s = d.leading_zeros();
    let v = d << s;
    let (vn1, vn0) = (v >> 64, v & M64);
    let un32 = if s == 0 {
        w.hi
    } else {
        (w.hi << s) | (w.lo >> (128 - s))
    };
    let un10 = w.lo << s;
    let (un1, un0) = (un10 >> 64, un10 & M64);

    let mut q1 = un32 / vn1;
    let mut rhat = un32 - q1 * vn1;
    while q1 >> 64 != 0 || q1 * vn0 > ((rhat << 64) | un1) {
        q1 -= 1;
        rhat += vn1;
        if rhat >> 64 != 0 {
            break;
        }
    }
    let un21 = ((un32 << 64) | un1).wrapping_sub(q1.wrapping_mul(v));
    let mut q0 = un21 / vn1;
    let mut rhat = un21 - q0 * vn1;
    while q0 >> 64 != 0 || q0 * vn0 > ((rhat << 64) | un0) {
        q0 -= 1;
        rhat += vn1;
        if rhat >> 64 != 0 {
            break;
        }
    }
    Some((q1 << 64) | q0)
}

/// The high and low 64-bit halves of a u128.
#[inline]
#[allow(clippy::cast_possible_truncation)] // splitting into halves on purpose
fn halves(x: u128) -> (u64, u64) {
    ((x >> 64) as u64, x as u64)
}

#[inline]
fn join(hi: u64, lo: u64) -> u128 {
    (u128::from(hi) << 64) | u128::from(lo)
}

/// A divisor of at least 2^64, normalised, with its 3-by-2 reciprocal (Möller and Granlund,
/// "Improved division by invariant integers", 2011, algorithms 5 and 6). Dividing by it needs
/// multiplications only, so a divisor used many times (`x_k · N` in `get_D`) pays for one
/// hardware division once.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    d: u128,
    s: u32,
    d1: u64,
    d0: u64,
    v: u64,
}

impl Divisor {
    /// `None` below 2^64 (use [`div_w`] there).
    #[inline]
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
    // `d1 >= 2^63` after normalisation, so `u128::MAX / d1` is in [2^64, 2^65) and the
    // subtraction of 2^64 fits; every other step is a wrapping u64 operation or a product of
    // two u64 (below 2^128), as in the paper's algorithm 6.
    fn new(d: u128) -> Option<Self> {
        if d >> 64 == 0 {
            return None;
        }
        let s = d.leading_zeros();
        let (d1, d0) = halves(d << s);
        let mut v = ((u128::MAX / u128::from(d1)) - (1u128 << 64)) as u64;
        let mut p = d1.wrapping_mul(v).wrapping_add(d0);
        if p < d0 {
            v = v.wrapping_sub(1);
            if p >= d1 {
                v = v.wrapping_sub(1);
                p = p.wrapping_sub(d1);
            }
            p = p.wrapping_sub(d1);
        }
        let (t1, t0) = halves(u128::from(v) * u128::from(d0));
        p = p.wrapping_add(t1);
        if p < t1 {
            v = v.wrapping_sub(1);
            if (p, t0) >= (d1, d0) {
                v = v.wrapping_sub(1);
            }
        }
        Some(Self { d, s, d1, d0, v })
    }

    /// Algorithm 5: `<u2, u1, u0> / <d1, d0>` for `<u2, u1> < <d1, d0>`: quotient word and
    /// remainder.
    #[inline]
    #[allow(clippy::arithmetic_side_effects)]
    // products of two u64 fit in u128; all else wraps as the algorithm states.
    fn div3by2(&self, u2: u64, u1: u64, u0: u64) -> (u64, u128) {
        let (d1, d0) = (self.d1, self.d0);
        let dd = join(d1, d0);
        let q = (u128::from(self.v) * u128::from(u2)).wrapping_add(join(u2, u1));
        let (mut q1, q0) = halves(q);
        let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
        let t = u128::from(d0) * u128::from(q1);
        let mut r = join(r1, u0).wrapping_sub(t).wrapping_sub(dd);
        q1 = q1.wrapping_add(1);
        if halves(r).0 >= q0 {
            q1 = q1.wrapping_sub(1);
            r = r.wrapping_add(dd);
        }
        if r >= dd {
            q1 = q1.wrapping_add(1);
            r = r.wrapping_sub(dd);
        }
        (q1, r)
    }

    /// `floor(w / d)` when it fits in 128 bits (`w.hi < d`).
    #[inline]
    #[allow(clippy::arithmetic_side_effects)] // shifts by 1..=63 (s < 64 as d >= 2^64)
    fn div(&self, w: W) -> Option<u128> {
        if w.hi >= self.d {
            return None;
        }
        let (nh, nl) = if self.s == 0 {
            (w.hi, w.lo)
        } else {
            ((w.hi << self.s) | (w.lo >> (128 - self.s)), w.lo << self.s)
        };
        let (n3, n2) = halves(nh);
        let (n1, n0) = halves(nl);
        let (q1, r) = self.div3by2(n3, n2, n1);
        let (r1, r0) = halves(r);
        let (q0, _) = self.div3by2(r1, r0, n0);
        Some(join(q1, q0))
    }
}

/// A divisor prepared for repeated use: the reciprocal form at or above 2^64, plain below.
#[derive(Clone, Copy, Debug)]
enum Prepared {
    Small(u128),
    Big(Divisor),
}

impl Prepared {
    #[inline]
    fn new(d: u128) -> Self {
        Divisor::new(d).map_or(Self::Small(d), Self::Big)
    }

    #[inline]
    fn div(&self, w: W) -> Option<u128> {
        match self {
            Self::Small(d) => div_w(w, *d),
            Self::Big(d) => d.div(w),
        }
    }
}

/// `floor(w / d)` for any 256-bit quotient; `None` for `d = 0`.
#[inline]
fn div_w_full(w: W, d: u128) -> Option<W> {
    let q_hi = w.hi.checked_div(d)?;
    let r = w.hi.checked_rem(d)?;
    let q_lo = div_w(W { hi: r, lo: w.lo }, d)?;
    Some(W { hi: q_hi, lo: q_lo })
}

/// `a * b / d` with a 256-bit product and a quotient that must fit 128 bits.
#[inline]
fn mul_div_128(a: u128, b: u128, d: u128) -> Option<u128> {
    div_w(mul_full(a, b), d)
}

#[inline]
fn close_128(a: u128, b: u128) -> bool {
    a.abs_diff(b) <= 1
}

/// u128 twin of [`invariant::get_d`].
fn get_d_128(xp: &[u128], amp: u128, variant: Variant) -> Option<u128> {
    let n = xp.len() as u128;
    let ap = if variant == Variant::ThreePool {
        1
    } else {
        100
    };
    let mut s: u128 = 0;
    for &x in xp {
        s = s.checked_add(x)?;
    }
    if s == 0 {
        return Some(0);
    }
    let ann = amp.checked_mul(n)?;
    let ng = variant == Variant::Ng;
    let nn = to_u128(invariant::n_pow_n(xp.len()))?;
    // Loop-invariant parts.
    let ann_s = ann.checked_mul(s)?.checked_div(ap)?;
    let ann_m = ann.checked_sub(ap)?;
    let mut xn = [Prepared::Small(0); super::MAX_COINS];
    for (slot, &x) in xn.iter_mut().zip(xp) {
        *slot = Prepared::new(if ng { x } else { x.checked_mul(n)? });
    }
    let xn = xn.get(..xp.len())?;
    let mut d = s;
    for _ in 0..invariant::MAX_ROUNDS {
        let mut dp = d;
        for x in xn {
            dp = x.div(mul_full(dp, d))?;
        }
        if ng {
            dp = dp.checked_div(nn)?;
        }
        let prev = d;
        let num = mul_full(ann_s.checked_add(dp.checked_mul(n)?)?, d);
        let den = ann_m
            .checked_mul(d)?
            .checked_div(ap)?
            .checked_add(n.checked_add(1)?.checked_mul(dp)?)?;
        d = div_w(num, den)?;
        if close_128(d, prev) {
            return Some(d);
        }
    }
    if variant.loops_revert() {
        None
    } else {
        Some(d)
    }
}

/// u128 twin of the coefficient step of [`invariant::get_y`] / [`invariant::get_y_d`]:
/// `b` (128 bits) and `c` (256 bits).
fn coefficients_128(
    xp: &[u128],
    replace: Option<(usize, u128)>,
    skip: usize,
    amp: u128,
    d: u128,
    variant: Variant,
) -> Option<(u128, W)> {
    let n = xp.len() as u128;
    let ap: u128 = if variant == Variant::ThreePool {
        1
    } else {
        100
    };
    let ann = amp.checked_mul(n)?;
    let mut c = d;
    let mut s: u128 = 0;
    for (k, &xk) in xp.iter().enumerate() {
        let x = match replace {
            Some((i, x)) if k == i => x,
            _ if k == skip => continue,
            _ => xk,
        };
        s = s.checked_add(x)?;
        c = mul_div_128(c, d, x.checked_mul(n)?)?;
    }
    let c = div_w_full(mul_w(mul_full(c, d), ap)?, ann.checked_mul(n)?)?;
    let b = s.checked_add(d.checked_mul(ap)?.checked_div(ann)?)?;
    Some((b, c))
}

/// u128 twin of [`invariant::newton_y`].
fn newton_y_128(b: u128, c: W, d: u128, variant: Variant) -> Option<u128> {
    let mut y = d;
    for _ in 0..invariant::MAX_ROUNDS {
        let prev = y;
        let num = add_w(mul_full(y, y), c)?;
        let den = y.checked_mul(2)?.checked_add(b)?.checked_sub(d)?;
        y = div_w(num, den)?;
        if close_128(y, prev) {
            return Some(y);
        }
    }
    if variant.loops_revert() {
        None
    } else {
        Some(y)
    }
}

// ---------------------------------------------------------------------- whole-op fast paths

const PRECISION_128: u128 = 1_000_000_000_000_000_000;
const FEE_DEN_128: u128 = 10_000_000_000;

/// The shared start of `get_dy` / `exchange` in u128: `x`, `y` and `dy = xp_j - y - 1`
/// (indices already checked).
#[inline]
fn swap_xy_128(p: &StableSwap, i: usize, j: usize, dx: U256) -> Option<(u128, u128, u128)> {
    let xp_u = p.inner.xp.as_ref().ok()?;
    let (xp, n) = small(xp_u)?;
    let xp = xp.get(..n)?;
    let d = to_u128(*p.inner.d.as_ref().ok()?)?;
    let amp = to_u128(p.inner.amp)?;
    let x = xp.get(i)?.checked_add(mul_div_128(
        to_u128(dx)?,
        to_u128(p.rate(i))?,
        PRECISION_128,
    )?)?;
    let (b, c) = coefficients_128(xp, Some((i, x)), j, amp, d, p.inner.variant)?;
    let y = newton_y_128(b, c, d, p.inner.variant)?;
    let dy = xp.get(j)?.checked_sub(y)?.checked_sub(1)?;
    Some((x, y, dy))
}

/// u128 twin of [`invariant::dynamic_fee`] (the one 256-by-256 division goes through U256).
fn dynamic_fee_128(xpi: u128, xpj: u128, fee: u128, m: u128) -> Option<u128> {
    if m <= FEE_DEN_128 {
        return Some(fee);
    }
    let sum = xpi.checked_add(xpj)?;
    let xps2 = mul_full(sum, sum);
    let k = m.checked_sub(FEE_DEN_128)?.checked_mul(4)?;
    let num = mul_w(mul_full(k, xpi), xpj)?;
    let t = if xps2.hi == 0 {
        div_w_full(num, xps2.lo)?
    } else {
        let q = crate::math::div(w_to_u256(num), w_to_u256(xps2)).ok()?;
        W {
            hi: 0,
            lo: to_u128(q)?,
        }
    };
    if t.hi != 0 {
        return None;
    }
    m.checked_mul(fee)?
        .checked_div(t.lo.checked_add(FEE_DEN_128)?)
}

/// [`invariant::dynamic_fee`] through [`dynamic_fee_128`] when the operands fit.
#[inline]
pub(super) fn dynamic_fee(xpi: U256, xpj: U256, fee: U256, m: U256) -> Option<U256> {
    dynamic_fee_128(to_u128(xpi)?, to_u128(xpj)?, to_u128(fee)?, to_u128(m)?).map(U256::from)
}

fn w_to_u256(w: W) -> U256 {
    #[allow(clippy::cast_possible_truncation)] // splitting into 64-bit limbs on purpose
    U256([
        w.lo as u64,
        (w.lo >> 64) as u64,
        w.hi as u64,
        (w.hi >> 64) as u64,
    ])
}

/// The swap fee rate for a trade that moves coin `i` to `x` and coin `j` to `y`.
#[inline]
fn swap_fee_128(p: &StableSwap, i: usize, j: usize, x: u128, y: u128) -> Option<u128> {
    let fee = to_u128(p.inner.fee)?;
    if p.inner.variant != Variant::Ng {
        return Some(fee);
    }
    let xp = p.inner.xp.as_ref().ok()?;
    let xi = to_u128(*xp.get(i)?)?;
    let xj = to_u128(*xp.get(j)?)?;
    dynamic_fee_128(
        xi.checked_add(x)?.checked_div(2)?,
        xj.checked_add(y)?.checked_div(2)?,
        fee,
        to_u128(p.inner.offpeg)?,
    )
}

/// `get_dy` entirely in u128 with 256-bit products; `None` sends the caller to the U256 path.
pub(super) fn get_dy(p: &StableSwap, i: usize, j: usize, dx: U256) -> Option<U256> {
    let (x, y, dy) = swap_xy_128(p, i, j, dx)?;
    let rate_j = to_u128(p.rate(j))?;
    let f = swap_fee_128(p, i, j, x, y)?;
    let out = if p.inner.variant == Variant::ThreePool {
        let dy = mul_div_128(dy, PRECISION_128, rate_j)?;
        dy.checked_sub(mul_div_128(f, dy, FEE_DEN_128)?)?
    } else {
        let fee = mul_div_128(f, dy, FEE_DEN_128)?;
        mul_div_128(dy.checked_sub(fee)?, PRECISION_128, rate_j)?
    };
    Some(U256::from(out))
}

/// `exchange`'s amounts in u128: (out, admin fee in coin units, x, y).
pub(super) fn exchange(
    p: &StableSwap,
    i: usize,
    j: usize,
    dx: U256,
) -> Option<(U256, U256, U256, U256)> {
    let (x, y, dy) = swap_xy_128(p, i, j, dx)?;
    let rate_j = to_u128(p.rate(j))?;
    let f = swap_fee_128(p, i, j, x, y)?;
    let dy_fee = mul_div_128(dy, f, FEE_DEN_128)?;
    let out = mul_div_128(dy.checked_sub(dy_fee)?, PRECISION_128, rate_j)?;
    let admin = mul_div_128(
        mul_div_128(dy_fee, to_u128(p.inner.admin_fee)?, FEE_DEN_128)?,
        PRECISION_128,
        rate_j,
    )?;
    Some((
        U256::from(out),
        U256::from(admin),
        U256::from(x),
        U256::from(y),
    ))
}

/// A close first guess of the input for `dy` out, by inverting the swap as NG's `get_dx`
/// does: the xp output before fee, the new `y`, then `get_y` for the input coin.
fn estimate_in(p: &StableSwap, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
    let xp = p.xp()?;
    let d = p.inner.d?;
    let t = add(mul_div(dy, p.rate(j), PRECISION)?, U256::one())?;
    // The input that gives `dy` out with fee rate `fee`: the xp output before fee, the new
    // `y`, then `get_y` for the input coin.
    let solve = |fee: U256| -> Result<(U256, U256), PoolError> {
        let dyx = crate::math::div_up(mul(t, FEE_DENOMINATOR)?, sub(FEE_DENOMINATOR, fee)?)?;
        let y = sub(sub(xp[j], dyx)?, U256::one())?;
        Ok((get_y(j, i, y, xp, p.inner.amp, d, p.inner.variant)?, y))
    };
    let (mut x, mut y) = solve(p.inner.fee)?;
    if p.inner.variant == Variant::Ng {
        // NG charges the fee at the trade's average balances: refine it twice.
        let two = U256::from(2u8);
        for _ in 0..2 {
            let f = invariant::dynamic_fee(
                div(add(xp[i], x)?, two)?,
                div(add(xp[j], y)?, two)?,
                p.inner.fee,
                p.inner.offpeg,
            )?;
            (x, y) = solve(f)?;
        }
    }
    crate::math::div_up(mul(sub(x, xp[i])?, PRECISION)?, p.rate(i)).map_err(PoolError::from)
}

/// The least `dx` with `forward_min(dx) >= dy`: gallop from the estimate to bracket it, then
/// bisect. A reverting forward call counts as "not enough" (it happens for tiny inputs, where
/// `xp_j - y - 1` underflows); running out of 256-bit room means the output is unreachable.
pub(super) fn amount_in(p: &StableSwap, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
    let ok = |dx: U256| matches!(p.forward_min(i, j, dx), Ok(v) if v >= dy);
    let est = estimate_in(p, i, j, dy)
        .unwrap_or(U256::one())
        .max(U256::one());
    let (mut lo, mut hi);
    if ok(est) {
        // Walk down until an input does not reach dy.
        hi = est;
        let mut step = U256::one();
        loop {
            if hi <= step {
                lo = U256::zero();
                break;
            }
            let cand = hi.overflowing_sub(step).0;
            if ok(cand) {
                hi = cand;
                step = step.saturating_mul(U256::from(2u8));
            } else {
                lo = cand;
                break;
            }
        }
    } else {
        lo = est;
        let mut step = U256::one();
        loop {
            let cand = add(lo, step).map_err(|_| PoolError::UnreachableOutput)?;
            if ok(cand) {
                hi = cand;
                break;
            }
            // Past this the input no longer fits the contract's arithmetic.
            if mul(cand, p.rate(i)).is_err() {
                return Err(PoolError::UnreachableOutput);
            }
            lo = cand;
            step = step.saturating_mul(U256::from(2u8));
        }
    }
    // Invariant: !ok(lo) (or lo = 0), ok(hi).
    while hi.overflowing_sub(lo).0 > U256::one() {
        let mid = add(lo, div(sub(hi, lo)?, U256::from(2u8))?)?;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// d(out)/d(in) at zero size: `(Ann + P/x_i) / (Ann + P/x_j) · (1 − fee) · rate_i / rate_j`
/// with `P = D^(n+1) / (n^n Π x)`, all in f64.
#[allow(clippy::arithmetic_side_effects)] // f64 arithmetic and usize counts <= 8
pub(super) fn marginal_rate(p: &StableSwap, i: usize, j: usize) -> Option<f64> {
    if p.check_pair(i, j).is_err() {
        return None;
    }
    let xp = p.xp().ok()?;
    let d = to_f64(p.inner.d.ok()?);
    let n = xp.len() as f64;
    let ann = to_f64(p.inner.amp) * n / to_f64(p.inner.variant.a_precision());
    // P = D · Π (D / (n x_k))
    let mut pp = d;
    for &x in xp {
        let xf = to_f64(x);
        if xf <= 0.0 {
            return None;
        }
        pp *= d / (n * xf);
    }
    let xi = to_f64(xp[i]);
    let xj = to_f64(xp[j]);
    let dxj_dxi = (ann + pp / xi) / (ann + pp / xj);
    let fee = if p.inner.variant == Variant::Ng {
        invariant::dynamic_fee(xp[i], xp[j], p.inner.fee, p.inner.offpeg).ok()?
    } else {
        p.inner.fee
    };
    let keep = 1.0 - to_f64(fee) / 1e10;
    let r = dxj_dxi * keep * to_f64(p.rate(i)) / to_f64(p.rate(j));
    if r.is_finite() && r > 0.0 {
        Some(r)
    } else {
        None
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// xorshift64*: deterministic pseudo-random bits for the tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn bits(&mut self, bits: u32) -> u128 {
            let v = (u128::from(self.next()) << 64) | u128::from(self.next());
            if bits == 0 {
                0
            } else {
                v >> (128 - bits)
            }
        }
    }

    #[test]
    fn div_w_matches_u256_division() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let total = 200_000u32;
        for _ in 0..total {
            let db = (rng.next() % 128) as u32 + 1;
            let d = rng.bits(db).max(1);
            let hb = (rng.next() % 129) as u32;
            let hi = rng.bits(hb) % d;
            let lo = rng.bits(128);
            let w = W { hi, lo };
            let want = w_to_u256(w) / U256::from(d);
            assert_eq!(div_w(w, d).map(U256::from), Some(want), "{w:?} / {d}");
            let full = div_w_full(w, d).unwrap();
            assert_eq!(w_to_u256(full), want);
        }
    }

    #[test]
    fn reciprocal_division_matches_u256_division() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..300_000 {
            let db = (rng.next() % 64) as u32 + 65;
            let d = rng.bits(db) | (1 << (db - 1));
            let dv = Divisor::new(d).unwrap();
            let hb = (rng.next() % 129) as u32;
            let hi = rng.bits(hb) % d;
            let lo = rng.bits(128);
            let w = W { hi, lo };
            let want = w_to_u256(w) / U256::from(d);
            assert_eq!(dv.div(w).map(U256::from), Some(want), "{w:?} / {d}");
        }
        // Edge divisors.
        for d in [
            1u128 << 64,
            (1u128 << 64) + 1,
            u128::MAX,
            u128::MAX - 1,
            1u128 << 127,
        ] {
            let dv = Divisor::new(d).unwrap();
            for w in [
                W {
                    hi: d - 1,
                    lo: u128::MAX,
                },
                W { hi: 0, lo: 0 },
                W { hi: d - 1, lo: 0 },
            ] {
                let want = w_to_u256(w) / U256::from(d);
                assert_eq!(dv.div(w).map(U256::from), Some(want), "{w:?} / {d}");
            }
        }
    }

    /// The u128 forms against the U256 reference loops on random states of every variant and
    /// size, from tiny to near-2^128 balances (where the fast forms must bail out correctly).
    #[test]
    fn fast_loops_match_the_reference_loops() {
        let mut rng = Rng(0x51_7CC1_B727_220A);
        let variants = [Variant::Classic, Variant::ThreePool, Variant::Ng];
        let mut fast_hits = 0u32;
        for round in 0..20_000u32 {
            let v = variants[(round % 3) as usize];
            let n = 2 + (rng.next() % 7) as usize;
            let scale = 20 + (rng.next() % 108) as u32;
            let xp: Vec<U256> = (0..n)
                .map(|_| U256::from(rng.bits(scale) | 1) * U256::from(1 + rng.next() % 3))
                .collect();
            let amp = U256::from(1 + rng.next() % 500_000);
            let d_ref = invariant::get_d(&xp, amp, v);
            assert_eq!(get_d(&xp, amp, v), d_ref, "get_D {v:?} {xp:?} {amp}");
            let Ok(d) = d_ref else { continue };
            let i = (rng.next() as usize) % n;
            let j = (i + 1 + (rng.next() as usize) % (n - 1)) % n;
            let x = xp[i] + U256::from(rng.bits(scale));
            assert_eq!(
                get_y(i, j, x, &xp, amp, d, v),
                invariant::get_y(i, j, x, &xp, amp, d, v),
                "get_y {v:?} {i} {j} {x} {xp:?} {amp} {d}"
            );
            let d1 = d - d / U256::from(1 + rng.next() % 1000);
            assert_eq!(
                get_y_d(i, &xp, amp, d1, v),
                invariant::get_y_d(i, &xp, amp, d1, v),
                "get_y_D {v:?} {i} {xp:?} {amp} {d1}"
            );
            if small(&xp)
                .and_then(|(a, k)| get_d_128(&a[..k], to_u128(amp)?, v))
                .is_some()
            {
                fast_hits += 1;
            }
        }
        assert!(fast_hits > 5_000, "{fast_hits}");
    }

    #[test]
    fn mul_full_matches_u256() {
        let mut rng = Rng(7);
        for _ in 0..100_000 {
            let (ab, bb) = ((rng.next() % 129) as u32, (rng.next() % 129) as u32);
            let (a, b) = (rng.bits(ab), rng.bits(bb));
            assert_eq!(
                w_to_u256(mul_full(a, b)),
                U256::from(a).full_mul(U256::from(b)).try_into().unwrap()
            );
        }
    }
}
