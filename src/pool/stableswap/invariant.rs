//! The Curve invariant loops on 256-bit integers, checked exactly where Vyper checks.
//!
//! These are the reference forms: every multiplication, addition and subtraction is checked
//! (Vyper reverts on overflow and underflow), every `/` floors and reverts on a zero divisor.
//! The fast paths in [`super::fast`] must give the same value or the same error; they fall back
//! to these functions whenever a bound they rely on does not hold.

use super::Variant;
use crate::error::PoolError;
use crate::math::{add, div, mul, sub};
use primitive_types::U256;

/// 10^18: the contracts' `PRECISION`.
pub(super) const PRECISION: U256 = U256([1_000_000_000_000_000_000, 0, 0, 0]);
/// 10^10: `FEE_DENOMINATOR`.
pub(super) const FEE_DENOMINATOR: U256 = U256([10_000_000_000, 0, 0, 0]);
/// The Newton loops' round limit.
pub(super) const MAX_ROUNDS: usize = 255;

/// `|a - b| <= 1`, the contracts' convergence test.
#[inline]
pub(super) fn close(a: U256, b: U256) -> bool {
    let diff = if a > b {
        a.overflowing_sub(b).0
    } else {
        b.overflowing_sub(a).0
    };
    diff <= U256::one()
}

/// `n` as a U256.
#[inline]
pub(super) fn nu(n: usize) -> U256 {
    U256::from(n)
}

/// `n^n` for `n <= 8` (at most 16 777 216), as NG's `pow_mod256(N_COINS, N_COINS)`.
#[inline]
pub(super) fn n_pow_n(n: usize) -> U256 {
    let mut p: u64 = 1;
    for _ in 0..n {
        p = p.saturating_mul(n as u64);
    }
    U256::from(p)
}

/// `get_D` (classic `_get_D`, 3pool `get_D`, NG `get_D`): the invariant of `xp` for
/// `amp = A * A_PRECISION`.
///
/// Classic and 3pool floor `D_P` at every coin (`D_P * D / (x * N)`); NG divides by each `x`
/// and then once by `N^N`. The template and NG revert after 255 rounds, the 3pool returns the
/// last value.
pub(super) fn get_d(xp: &[U256], amp: U256, variant: Variant) -> Result<U256, PoolError> {
    let n = nu(xp.len());
    let ap = variant.a_precision();
    let mut s = U256::zero();
    for &x in xp {
        s = add(s, x)?;
    }
    if s.is_zero() {
        return Ok(U256::zero());
    }
    let mut d = s;
    let ann = mul(amp, n)?;
    let n1 = add(n, U256::one())?;
    for _ in 0..MAX_ROUNDS {
        let mut dp = d;
        if variant == Variant::Ng {
            for &x in xp {
                dp = div(mul(dp, d)?, x)?;
            }
            dp = div(dp, n_pow_n(xp.len()))?;
        } else {
            for &x in xp {
                dp = div(mul(dp, d)?, mul(x, n)?)?;
            }
        }
        let prev = d;
        let num = mul(add(div(mul(ann, s)?, ap)?, mul(dp, n)?)?, d)?;
        let den = add(div(mul(sub(ann, ap)?, d)?, ap)?, mul(n1, dp)?)?;
        d = div(num, den)?;
        if close(d, prev) {
            return Ok(d);
        }
    }
    variant.after_rounds(d).ok_or(PoolError::NoConvergence)
}

/// The quadratic Newton loop shared by `get_y` and `get_y_D`: `y <- (y^2 + c) / (2y + b - D)`
/// from `y = D`.
pub(super) fn newton_y(b: U256, c: U256, d: U256, variant: Variant) -> Result<U256, PoolError> {
    let mut y = d;
    let two = U256::from(2u8);
    for _ in 0..MAX_ROUNDS {
        let prev = y;
        let num = add(mul(y, y)?, c)?;
        let den = sub(add(mul(two, y)?, b)?, d)?;
        y = div(num, den)?;
        if close(y, prev) {
            return Ok(y);
        }
    }
    variant.after_rounds(y).ok_or(PoolError::NoConvergence)
}

/// `b` and `c` of the quadratic for the coin `skip_j`, from the coins other than `skip_j`
/// (with coin `i` set to `x` when `i` is given).
fn coefficients(
    xp: &[U256],
    replace: Option<(usize, U256)>,
    skip: usize,
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<(U256, U256), PoolError> {
    let n = nu(xp.len());
    let ap = variant.a_precision();
    let ann = mul(amp, n)?;
    let mut c = d;
    let mut s = U256::zero();
    for (k, &xk) in xp.iter().enumerate() {
        let x = match replace {
            Some((i, x)) if k == i => x,
            _ if k == skip => continue,
            _ => xk,
        };
        s = add(s, x)?;
        c = div(mul(c, d)?, mul(x, n)?)?;
    }
    c = div(mul(mul(c, d)?, ap)?, mul(ann, n)?)?;
    let b = add(s, div(mul(d, ap)?, ann)?)?;
    Ok((b, c))
}

/// `get_y(i, j, x, xp)`: the balance of coin `j` that keeps `D` when coin `i` is set to `x`.
pub(super) fn get_y(
    i: usize,
    j: usize,
    x: U256,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    let (b, c) = coefficients(xp, Some((i, x)), j, amp, d, variant)?;
    newton_y(b, c, d, variant)
}

/// `get_y_D(A, i, xp, D)`: the balance of coin `i` that gives invariant `d` with the others as
/// in `xp`.
pub(super) fn get_y_d(
    i: usize,
    xp: &[U256],
    amp: U256,
    d: U256,
    variant: Variant,
) -> Result<U256, PoolError> {
    let (b, c) = coefficients(xp, None, i, amp, d, variant)?;
    newton_y(b, c, d, variant)
}

/// NG `_dynamic_fee(xpi, xpj, fee)`: `m·f / ((m − 1e10)·4·xi·xj/(xi + xj)² + 1e10)` when the
/// off-peg multiplier `m` is above 1e10, else `fee`.
///
/// `m·f` is an unchecked product in the contract; the constructor bounds it by
/// `MAX_FEE · FEE_DENOMINATOR`, so it cannot wrap here.
pub(super) fn dynamic_fee(xpi: U256, xpj: U256, fee: U256, m: U256) -> Result<U256, PoolError> {
    if m <= FEE_DENOMINATOR {
        return Ok(fee);
    }
    if let Some(f) = super::fast::dynamic_fee(xpi, xpj, fee, m) {
        return Ok(f);
    }
    let sum = add(xpi, xpj)?;
    let xps2 = mul(sum, sum)?;
    let t = div(
        mul(
            mul(mul(sub(m, FEE_DENOMINATOR)?, U256::from(4u8))?, xpi)?,
            xpj,
        )?,
        xps2,
    )?;
    Ok(div(mul(m, fee)?, add(t, FEE_DENOMINATOR)?)?)
}

/// NG `upkeep_oracles(xp, amp, D)`: the parts that can revert. `_get_p` divides by every
/// `xp_k` and multiplies checked; `pack_2` needs `D < 2^128`. The stored oracle values are
/// below 2^128 by construction, so their moving averages cannot overflow.
pub(super) fn oracle_check(xp: &[U256], amp: U256, d: U256) -> Result<(), PoolError> {
    fn inner(xp: &[U256], amp: U256, d: U256) -> Result<(), PoolError> {
        let n = xp.len();
        let ann = amp.overflowing_mul(nu(n)).0; // unsafe_mul in the contract
        let mut dr = div(d, n_pow_n(n))?;
        for &x in xp {
            dr = div(mul(dr, d)?, x)?;
        }
        let x0 = xp.first().copied().unwrap_or_default();
        let xp0_a = div(mul(ann, x0)?, U256::from(100u8))?;
        for &xi in xp.iter().skip(1) {
            let inner = add(xp0_a, div(mul(dr, x0)?, xi)?)?;
            div(mul(PRECISION, inner)?, add(xp0_a, dr)?)?;
        }
        if d.bits() > 128 {
            return Err(PoolError::OracleRevert);
        }
        Ok(())
    }
    inner(xp, amp, d).map_err(|_| PoolError::OracleRevert)
}
