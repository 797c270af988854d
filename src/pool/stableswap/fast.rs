//! Fast forms of the invariant loops, the exact-out search and the marginal rate.

use super::invariant::{self, FEE_DENOMINATOR, PRECISION};
use super::{StableSwap, Variant};
use crate::error::PoolError;
use crate::math::float::to_f64;
use crate::math::wide::{div_w_128, div_w_by_128, mul_128_w, mul_div_128, mul_w_128, Div128, W};
use crate::math::{add, div, mul, mul_then_div, sub};
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
    solve_y(xp, Some((i, x)), j, amp, d, variant)
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
    solve_y(xp, None, i, amp, d, variant)
}

/// The balance of coin `solve` that gives invariant `d` with the other coins as in `xp`, coin
/// `i` set to `x` for `set = Some((i, x))` (`get_y`) or as it is for `None` (`get_y_D`): the
/// u128 form when every intermediate fits, else the twin in [`invariant`].
fn solve_y(
    xp: &[U256],
    set: Option<(usize, U256)>,
    solve: usize,
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    let fast = small(xp).and_then(|(a, n)| {
        let set = match set {
            Some((i, x)) => Some((i, to_u128(x)?)),
            None => None,
        };
        let (b, c) =
            coefficients_128(a.get(..n)?, set, solve, to_u128(amp)?, to_u128(d)?, variant)?;
        newton_y_128(b, c, to_u128(d)?, variant)
    });
    match (fast, set) {
        (Some(y), _) => Ok(U256::from(y)),
        (None, Some((i, x))) => invariant::get_y(i, solve, x, xp, amp, d, variant),
        (None, None) => invariant::get_y_d(solve, xp, amp, d, variant),
    }
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

/// `floor(w / d)` for any 256-bit quotient; `None` for `d = 0`.
#[inline]
fn div_w_full(w: W, d: u128) -> Option<W> {
    (d != 0).then(|| div_w_by_128(w, d).0)
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
    let mut xn = [Div128::new(0); super::MAX_COINS];
    for (slot, &x) in xn.iter_mut().zip(xp) {
        *slot = Div128::new(if ng { x } else { x.checked_mul(n)? });
    }
    let xn = xn.get(..xp.len())?;
    let mut d = s;
    for _ in 0..invariant::MAX_ROUNDS {
        let mut dp = d;
        for x in xn {
            dp = x.div(mul_128_w(dp, d))?;
        }
        if ng {
            dp = dp.checked_div(nn)?;
        }
        let prev = d;
        let num = mul_128_w(ann_s.checked_add(dp.checked_mul(n)?)?, d);
        let den = ann_m
            .checked_mul(d)?
            .checked_div(ap)?
            .checked_add(n.checked_add(1)?.checked_mul(dp)?)?;
        d = div_w_128(num, den)?;
        if close_128(d, prev) {
            return Some(d);
        }
    }
    variant.after_rounds(d)
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
    let c = div_w_full(mul_w_128(mul_128_w(c, d), ap)?, ann.checked_mul(n)?)?;
    let b = s.checked_add(d.checked_mul(ap)?.checked_div(ann)?)?;
    Some((b, c))
}

/// u128 twin of [`invariant::newton_y`].
fn newton_y_128(b: u128, c: W, d: u128, variant: Variant) -> Option<u128> {
    let mut y = d;
    for _ in 0..invariant::MAX_ROUNDS {
        let prev = y;
        let num = mul_128_w(y, y).checked_add(c)?;
        let den = y.checked_mul(2)?.checked_add(b)?.checked_sub(d)?;
        y = div_w_128(num, den)?;
        if close_128(y, prev) {
            return Some(y);
        }
    }
    variant.after_rounds(y)
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
    let xps2 = mul_128_w(sum, sum);
    let k = m.checked_sub(FEE_DEN_128)?.checked_mul(4)?;
    let num = mul_w_128(mul_128_w(k, xpi), xpj)?;
    let t = if xps2.hi == 0 {
        div_w_full(num, xps2.lo)?
    } else {
        let q = crate::math::div(num.to_u256(), xps2.to_u256()).ok()?;
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
    let t = add(mul_then_div(dy, p.rate(j), PRECISION)?, U256::one())?;
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
    // Invariant: !ok(lo) (or lo = 0, not yet tried), ok(hi).
    while hi.overflowing_sub(lo).0 > U256::one() {
        let mid = add(lo, div(sub(hi, lo)?, U256::from(2u8))?)?;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // A pool whose stored balances sit off its invariant can pay out for a zero input (the
    // rounding of `D` and `y` both leave coin `j` over): then nothing has to be paid in.
    if lo.is_zero() && ok(lo) {
        return Ok(lo);
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
            let want = w.to_u256() / U256::from(d);
            assert_eq!(div_w_128(w, d).map(U256::from), Some(want), "{w:?} / {d}");
            let full = div_w_full(w, d).unwrap();
            assert_eq!(full.to_u256(), want);
        }
    }

    #[test]
    fn reciprocal_division_matches_u256_division() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..300_000 {
            let db = (rng.next() % 64) as u32 + 65;
            let d = rng.bits(db) | (1 << (db - 1));
            let dv = Div128::new(d);
            let hb = (rng.next() % 129) as u32;
            let hi = rng.bits(hb) % d;
            let lo = rng.bits(128);
            let w = W { hi, lo };
            let want = w.to_u256() / U256::from(d);
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
            let dv = Div128::new(d);
            for w in [
                W {
                    hi: d - 1,
                    lo: u128::MAX,
                },
                W { hi: 0, lo: 0 },
                W { hi: d - 1, lo: 0 },
            ] {
                let want = w.to_u256() / U256::from(d);
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
                mul_128_w(a, b).to_u256(),
                U256::from(a).full_mul(U256::from(b)).try_into().unwrap()
            );
        }
    }
}
