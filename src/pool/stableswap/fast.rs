//! Fast forms of the invariant loops, the exact-out search and the marginal rate.

use super::invariant::{self, FEE_DENOMINATOR, PRECISION};
use super::{StableSwap, Variant};
use crate::error::PoolError;
use crate::math::{add, div, mul, sub};
use primitive_types::U256;

/// `get_D`, exact (see [`invariant::get_d`]).
pub(super) fn get_d(xp: &[U256], amp: U256, variant: Variant) -> Result<U256, PoolError> {
    invariant::get_d(xp, amp, variant)
}

/// `get_y`, exact (see [`invariant::get_y`]).
pub(super) fn get_y(
    i: usize,
    j: usize,
    x: U256,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    invariant::get_y(i, j, x, xp, amp, d, variant)
}

/// `get_y_D`, exact (see [`invariant::get_y_d`]).
pub(super) fn get_y_d(
    i: usize,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    invariant::get_y_d(i, xp, amp, d, variant)
}

/// A close first guess of the input for `dy` out, by inverting the swap as NG's `get_dx`
/// does: the xp output before fee, the new `y`, then `get_y` for the input coin.
fn estimate_in(p: &StableSwap, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
    let xp = p.xp()?;
    let d = p.d?;
    let fee = if p.variant == Variant::Ng {
        invariant::dynamic_fee(xp[i], xp[j], p.fee, p.offpeg)?
    } else {
        p.fee
    };
    let t = add(div(mul(dy, p.rate(j))?, PRECISION)?, U256::one())?;
    let dyx = crate::math::div_up(mul(t, FEE_DENOMINATOR)?, sub(FEE_DENOMINATOR, fee)?)?;
    let y = sub(sub(xp[j], dyx)?, U256::one())?;
    let x = get_y(j, i, y, xp, p.amp, d, p.variant)?;
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
        let mid = lo.overflowing_add(hi.overflowing_sub(lo).0 >> 1).0;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// A U256 as the nearest-below f64 (exact to 53 bits; enough for a search hint).
pub(super) fn to_f64(v: U256) -> f64 {
    const TWO64: f64 = 18_446_744_073_709_551_616.0;
    let mut acc = 0.0;
    for limb in v.0.iter().rev() {
        #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic cannot overflow to a panic
        {
            acc = acc * TWO64 + (*limb as f64);
        }
    }
    acc
}

/// d(out)/d(in) at zero size: `(Ann + P/x_i) / (Ann + P/x_j) · (1 − fee) · rate_i / rate_j`
/// with `P = D^(n+1) / (n^n Π x)`, all in f64.
#[allow(clippy::arithmetic_side_effects)] // f64 arithmetic and usize counts <= 8
pub(super) fn marginal_rate(p: &StableSwap, i: usize, j: usize) -> Option<f64> {
    if p.check_pair(i, j).is_err() {
        return None;
    }
    let xp = p.xp().ok()?;
    let d = to_f64(p.d.ok()?);
    let n = xp.len() as f64;
    let ann = to_f64(p.amp) * n / to_f64(p.variant.a_precision());
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
    let fee = if p.variant == Variant::Ng {
        invariant::dynamic_fee(xp[i], xp[j], p.fee, p.offpeg).ok()?
    } else {
        p.fee
    };
    let keep = 1.0 - to_f64(fee) / 1e10;
    let r = dxj_dxi * keep * to_f64(p.rate(i)) / to_f64(p.rate(j));
    if r.is_finite() && r > 0.0 {
        Some(r)
    } else {
        None
    }
}
