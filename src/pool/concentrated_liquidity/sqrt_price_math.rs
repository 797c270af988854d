//! `SqrtPriceMath` and `SwapMath.computeSwapStep`: the amount deltas between two prices, the
//! next price after an amount, and one swap step, each rounding exactly where the contract does
//! (amounts paid in round up, amounts paid out round down; the price moves in the pool's favour).
//!
//! Prices are Q64.96 `√(token1/token0)` values below 2^160, liquidity is a `u128`. Every product
//! is exact (512-bit where it must be, like `FullMath`), every revert is an error.

use crate::error::{PoolError, PoolRevert};
use crate::math::float::wide_to_f64;
use crate::math::wide::{div_rem_by_wide, Div128, Div64};
use crate::math::{self, W};

/// 2^96 as a [`W`].
const Q96: W = W::small(1 << 96);
/// The fee denominator: fees are in pips (millionths).
pub const FEE_DENOMINATOR: u32 = 1_000_000;
/// Division by the fee denominator with a precomputed reciprocal.
const FEE_DIV: Div64 = Div64::new(FEE_DENOMINATOR as u64);
/// 2^160: every price must stay below it (`uint160`).
const P_LIMIT: W = W { hi: 1 << 32, lo: 0 };

/// `FullMath.mulDiv` (floor) on [`W`].
#[inline]
pub(super) fn mul_div(a: W, b: W, d: W) -> Result<W, PoolError> {
    Ok(math::w_mul_div_rem(a, b, d)?.0)
}

/// `FullMath.mulDivRoundingUp` on [`W`].
#[inline]
pub(super) fn mul_div_up(a: W, b: W, d: W) -> Result<W, PoolError> {
    let (q, r) = math::w_mul_div_rem(a, b, d)?;
    if r.is_zero() {
        Ok(q)
    } else {
        Ok(math::w_add(q, W::ONE)?)
    }
}

/// `(floor(n / d), n mod d)`, an error for `d == 0`: for a divisor of at least 2^128 (the
/// products of two prices, `L·2^96 + amount·p`) by a float-guided estimate checked exactly
/// ([`div_rem_by_wide`]: no reciprocal of the divisor), else the plain division.
#[inline]
fn div_rem(n: W, d: W) -> Result<(W, W), PoolError> {
    if let Some((q, r)) = div_rem_by_wide(n, d) {
        return Ok((W::small(q), r));
    }
    n.checked_div_rem(d)
        .ok_or(PoolError::Math(crate::error::MathError::DivisionByZero))
}

/// `ceil(a / d)` (`UnsafeMath.divRoundingUp`), an error for `d == 0`.
#[inline]
fn div_up(a: W, d: W) -> Result<W, PoolError> {
    let (q, r) = a
        .checked_div_rem(d)
        .ok_or(PoolError::Math(crate::error::MathError::DivisionByZero))?;
    if r.is_zero() {
        Ok(q)
    } else {
        Ok(math::w_add(q, W::ONE)?)
    }
}

/// `L << 96` (exact: L < 2^128).
#[inline]
fn l_q96(l: u128) -> W {
    W {
        hi: l >> 32,
        lo: l << 96,
    }
}

/// `SqrtPriceMath.getAmount0Delta(a, b, L, roundUp)`: the token0 amount between two prices,
/// `L·2^96·(b − a) / b / a` with the two divisions rounded the same way.
///
/// # Errors
/// [`PoolError::Revert`] when the lower price is 0; overflow of the result.
#[inline]
pub fn amount0_delta(a: W, b: W, l: u128, round_up: bool) -> Result<W, PoolError> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    if a.is_zero() {
        return Err(PoolError::Revert(PoolRevert::ZeroSqrtPrice));
    }
    let n1 = l_q96(l);
    let n2 = math::w_sub(b, a)?;
    if let (Some(num), Some(den)) = (n1.checked_mul(n2), a.checked_mul(b)) {
        // Both products fit 256 bits: one division. Nested divisions by positive integers
        // compose, floor(floor(x / b) / a) = floor(x / (a·b)) and likewise ceil, so this is
        // the contract's two roundings exactly (and its quotient cannot overflow).
        let (q, r) = div_rem(num, den)?;
        return if round_up && !r.is_zero() {
            Ok(math::w_add(q, W::ONE)?)
        } else {
            Ok(q)
        };
    }
    amount0_delta_two_divisions(a, b, n1, n2, round_up)
}

/// [`amount0_delta`] rounded up, given `hint`, a value the answer is expected at or a few
/// units below (the input less the fee whose next price `a` is, going down from `b`: the
/// price rounds up, so the input that reaches it is at most that, and usually equal).
///
/// When both products fit 256 bits the answer is `ceil(num / den)`, the `q` with
/// `(q − 1)·den < num <= q·den` (see [`amount0_delta`]): the hint is checked by one
/// multiplication and stepped down by subtractions of `den` at most four times, with no
/// division; a hint below the answer or farther above it falls back to [`amount0_delta`].
///
/// # Errors
/// As [`amount0_delta`].
#[inline]
pub fn amount0_delta_up_near(a: W, b: W, l: u128, hint: W) -> Result<W, PoolError> {
    let (lo, hi) = if a > b { (b, a) } else { (a, b) };
    if lo.is_zero() {
        return Err(PoolError::Revert(PoolRevert::ZeroSqrtPrice));
    }
    let n2 = math::w_sub(hi, lo)?;
    if let (Some(num), Some(den)) = (l_q96(l).checked_mul(n2), lo.checked_mul(hi)) {
        // p = q·den >= num throughout; den > 0 (both prices are positive).
        if let Some(mut p) = den.checked_mul(hint).filter(|p| *p >= num) {
            let mut q = hint;
            for _ in 0..4 {
                match p.checked_sub(den) {
                    // (q − 1)·den >= num: q − 1 (>= 0, as p >= den) also reaches it.
                    Some(lower) if lower >= num => {
                        p = lower;
                        q = math::w_sub(q, W::ONE)?;
                    }
                    // (q − 1)·den < num, or q == 0 (then num == 0): q is the ceiling.
                    _ => return Ok(q),
                }
            }
        }
    }
    amount0_delta(a, b, l, true)
}

/// [`amount0_delta`] as the contract computes it, `FullMath` then a second division (`a < b`,
/// `a > 0`): the general path, and the reference of the one-division path.
#[inline]
fn amount0_delta_two_divisions(a: W, b: W, n1: W, n2: W, round_up: bool) -> Result<W, PoolError> {
    if round_up {
        div_up(mul_div_up(n1, n2, b)?, a)
    } else {
        Ok(math::w_div(mul_div(n1, n2, b)?, a)?)
    }
}

/// [`amount0_delta`] always by the contract's two divisions (for the tests of the one-division
/// path).
///
/// # Errors
/// As [`amount0_delta`].
#[doc(hidden)]
pub fn amount0_delta_plain(a: W, b: W, l: u128, round_up: bool) -> Result<W, PoolError> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    if a.is_zero() {
        return Err(PoolError::Revert(PoolRevert::ZeroSqrtPrice));
    }
    amount0_delta_two_divisions(a, b, l_q96(l), math::w_sub(b, a)?, round_up)
}

/// `SqrtPriceMath.getAmount1Delta(a, b, L, roundUp)`: the token1 amount between two prices,
/// `L·(b − a) / 2^96`.
///
/// # Errors
/// Overflow of the result.
#[inline]
pub fn amount1_delta(a: W, b: W, l: u128, round_up: bool) -> Result<W, PoolError> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    let d = math::w_sub(b, a)?;
    // When the product fits 256 bits, the division by 2^96 is a shift; otherwise FullMath.
    let Some(prod) = W::small(l).checked_mul(d) else {
        return if round_up {
            mul_div_up(W::small(l), d, Q96)
        } else {
            mul_div(W::small(l), d, Q96)
        };
    };
    let q = W {
        hi: prod.hi >> 96,
        lo: (prod.lo >> 96) | (prod.hi << 32),
    };
    if round_up && prod.lo & ((1u128 << 96) - 1) != 0 {
        Ok(math::w_add(q, W::ONE)?)
    } else {
        Ok(q)
    }
}

/// `getNextSqrtPriceFromAmount0RoundingUp`.
fn next_from_amount0(p: W, l: u128, amount: W, add: bool) -> Result<W, PoolError> {
    if amount.is_zero() {
        return Ok(p);
    }
    let n1 = l_q96(l);
    let product = amount.checked_mul(p);
    if add {
        if let Some((prod, den)) = product.and_then(|prod| Some((prod, n1.checked_add(prod)?))) {
            return next_from_amount0_added(p, n1, prod, den);
        }
        // The contract's fallback when amount·p or the sum overflows 256 bits.
        let q = math::w_div(n1, p)?;
        div_up(n1, math::w_add(q, amount)?)
    } else {
        let product = product.ok_or(PoolError::Revert(PoolRevert::Amount0OutputOverflow))?;
        if n1 <= product {
            return Err(PoolError::Revert(PoolRevert::Amount0OutputExceedsLiquidity));
        }
        let den = math::w_sub(n1, product)?;
        let r = mul_div_up(n1, p, den)?;
        if r >= P_LIMIT {
            return Err(PoolError::Revert(PoolRevert::PriceAboveUint160));
        }
        Ok(r)
    }
}

/// The contract's `mulDivRoundingUp(n1, p, den)` with `den = n1 + prod`, `prod = amount·p`
/// (no overflow in either): the price after token0 comes in.
///
/// `n1·p = p·den − amount·p²`, so `ceil(n1·p / den) = p − floor(amount·p² / den)`: when
/// `amount·p²` fits 256 bits that is one 256-bit division with a small quotient (the price
/// move) instead of a 512-by-256 one. `den > amount·p` (n1 > 0), so the quotient is below `p`;
/// for `den >= 2^128` (liquidity of 2^32 or more) the division computes no reciprocal (see
/// [`div_rem`]).
#[inline]
fn next_from_amount0_added(p: W, n1: W, prod: W, den: W) -> Result<W, PoolError> {
    match prod.checked_mul(p) {
        Some(x) => {
            let (f, _) = div_rem(x, den)?;
            Ok(math::w_sub(p, f)?)
        }
        None => mul_div_up(n1, p, den),
    }
}

/// [`next_sqrt_price_from_input`] for token0 in, always by the contract's 512-bit `mulDiv`
/// (for the tests of the fast path).
///
/// # Errors
/// As [`next_sqrt_price_from_input`].
#[doc(hidden)]
pub fn next_sqrt_price_from_amount0_in_plain(p: W, l: u128, amount: W) -> Result<W, PoolError> {
    if p.is_zero() || l == 0 {
        return Err(PoolError::Revert(PoolRevert::ZeroPriceOrLiquidity));
    }
    if amount.is_zero() {
        return Ok(p);
    }
    let n1 = l_q96(l);
    if let Some(den) = amount.checked_mul(p).and_then(|prod| n1.checked_add(prod)) {
        return mul_div_up(n1, p, den);
    }
    let q = math::w_div(n1, p)?;
    div_up(n1, math::w_add(q, amount)?)
}

/// `getNextSqrtPriceFromAmount1RoundingDown`; `l_div`, when given, is `l` prepared for
/// division.
fn next_from_amount1(
    p: W,
    l: u128,
    amount: W,
    add: bool,
    l_div: Option<&Div128>,
) -> Result<W, PoolError> {
    let l = W::small(l);
    if add {
        // `amount << 96` fits 256 bits below 2^160; then `floor(amount·2^96 / L)` by the
        // prepared liquidity when the quotient fits 128 bits, else `FullMath`.
        let prepared = l_div.filter(|_| amount.hi >> 32 == 0).and_then(|d| {
            d.div(W {
                hi: (amount.hi << 96) | (amount.lo >> 32),
                lo: amount.lo << 96,
            })
        });
        let q = match prepared {
            Some(q) => W::small(q),
            None => mul_div(amount, Q96, l)?,
        };
        let r = math::w_add(p, q)?;
        if r >= P_LIMIT {
            return Err(PoolError::Revert(PoolRevert::PriceAboveUint160));
        }
        Ok(r)
    } else {
        let q = mul_div_up(amount, Q96, l)?;
        if p <= q {
            return Err(PoolError::Revert(PoolRevert::Amount1OutputExceedsPrice));
        }
        Ok(math::w_sub(p, q)?)
    }
}

/// [`next_sqrt_price_from_input`] for token1 in by the liquidity prepared for division (as a
/// swap step with a tick table does), for the tests of that path.
///
/// # Errors
/// As [`next_sqrt_price_from_input`].
#[doc(hidden)]
pub fn next_sqrt_price_from_amount1_in_prepared(p: W, l: u128, amount: W) -> Result<W, PoolError> {
    if p.is_zero() || l == 0 {
        return Err(PoolError::Revert(PoolRevert::ZeroPriceOrLiquidity));
    }
    next_from_amount1(p, l, amount, true, Some(&Div128::prepared(l)))
}

/// `SqrtPriceMath.getNextSqrtPriceFromInput`: the price after `amount_in` enters (token0 when
/// `zero_for_one`), rounded so the pool never gives more.
///
/// # Errors
/// [`PoolError::Revert`] for a zero price or liquidity; overflow.
#[inline]
pub fn next_sqrt_price_from_input(
    p: W,
    l: u128,
    amount_in: W,
    zero_for_one: bool,
) -> Result<W, PoolError> {
    if p.is_zero() || l == 0 {
        return Err(PoolError::Revert(PoolRevert::ZeroPriceOrLiquidity));
    }
    if zero_for_one {
        next_from_amount0(p, l, amount_in, true)
    } else {
        next_from_amount1(p, l, amount_in, true, None)
    }
}

/// `SqrtPriceMath.getNextSqrtPriceFromOutput`: the price after `amount_out` leaves (token1 when
/// `zero_for_one`).
///
/// # Errors
/// [`PoolError::Revert`] for a zero price or liquidity, or an output the liquidity cannot pay.
#[inline]
pub fn next_sqrt_price_from_output(
    p: W,
    l: u128,
    amount_out: W,
    zero_for_one: bool,
) -> Result<W, PoolError> {
    if p.is_zero() || l == 0 {
        return Err(PoolError::Revert(PoolRevert::ZeroPriceOrLiquidity));
    }
    if zero_for_one {
        next_from_amount1(p, l, amount_out, false, None)
    } else {
        next_from_amount0(p, l, amount_out, false)
    }
}

/// Whether `less_fee` is certainly below the input needed to move the price from `current` to
/// `target` (token0 in when `zero_for_one`), judged by a float estimate with a wide margin.
///
/// The estimate `L·(b − a)·2^96/(a·b)` (token0) or `L·(b − a)/2^96` (token1) is built from
/// conversions within a relative 2^-52 and a few float operations, so its relative error is below
/// 1e-14; the exact (rounded-up) amount is at least the real value. A margin of 1e-9 relative
/// and 4 units absolute makes a `true` answer certain; `false` only means "compute exactly".
/// The float decides which exact formula runs, never an amount.
#[inline]
fn clearly_short(current: W, target: W, l: u128, less_fee: W, zero_for_one: bool) -> bool {
    const Q96_F: f64 = 79_228_162_514_264_337_593_543_950_336.0;
    let (a, b) = if current > target {
        (target, current)
    } else {
        (current, target)
    };
    let Some(d) = b.checked_sub(a) else {
        return false;
    };
    let (af, bf, df) = (wide_to_f64(a), wide_to_f64(b), wide_to_f64(d));
    // Correctly rounded, like the conversions above.
    let lf = wide_to_f64(W::small(l));
    let have = wide_to_f64(less_fee);
    // `have + 4 < need·(1 − 1e-9)` with `need` as above, multiplied out so that no float
    // division runs: for token0 both sides times `a·b` (positive), for token1 `need` scaled by
    // the exact power of two 2^-96. Every product stays below 2^600, far inside the f64
    // range, and each side is a few correctly rounded operations, so the relative error stays
    // below 1e-14 as before and the margin still makes `true` certain.
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: no traps
    if zero_for_one {
        af > 0.0 && bf > 0.0 && (have + 4.0) * (af * bf) < lf * df * (Q96_F * (1.0 - 1e-9))
    } else {
        have + 4.0 < lf * df * (1.0 / Q96_F) * (1.0 - 1e-9)
    }
}

/// One step of a swap (`SwapMath.computeSwapStep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    /// The price after the step.
    pub sqrt_price_x96: W,
    /// Input taken, fee excluded (rounded up).
    pub amount_in: W,
    /// Output paid (rounded down).
    pub amount_out: W,
    /// Fee taken on top of `amount_in`.
    pub fee_amount: W,
}

/// The input (rounded up, fee excluded) that moves the price from `from` to `to`: token0 when
/// `zero_for_one` (the price falls), else token1.
#[inline]
fn input_delta(from: W, to: W, l: u128, zero_for_one: bool) -> Result<W, PoolError> {
    if zero_for_one {
        amount0_delta(to, from, l, true)
    } else {
        amount1_delta(from, to, l, true)
    }
}

/// The output (rounded down) of moving the price from `from` to `to`: token1 when
/// `zero_for_one`, else token0.
#[inline]
fn output_delta(from: W, to: W, l: u128, zero_for_one: bool) -> Result<W, PoolError> {
    if zero_for_one {
        amount1_delta(to, from, l, false)
    } else {
        amount0_delta(from, to, l, false)
    }
}

/// The exact-input half of a step: the remaining input less the fee, then the price it
/// reaches (the target, or short of it). Returns the next price, the input to the target
/// (zero when not computed), whether it was computed, and the input less the fee.
#[inline]
fn exact_in_target(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    gamma: W,
    zero_for_one: bool,
    l_div: Option<&Div128>,
) -> Result<(W, W, bool, W), PoolError> {
    // `FullMath.mulDiv(remaining, 1e6 − fee, 1e6)`: below 2^230 the product fits 256 bits
    // and the division by 10^6 is a reciprocal multiplication.
    let less_fee = match remaining.checked_mul(gamma) {
        Some(prod) => FEE_DIV.div_rem(prod).0,
        None => mul_div(remaining, gamma, W::small(u128::from(FEE_DENOMINATOR)))?,
    };
    // `getNextSqrtPriceFromInput`, token1 in by the prepared liquidity.
    let next_price = |amount: W| -> Result<W, PoolError> {
        if zero_for_one || current.is_zero() || l == 0 {
            next_sqrt_price_from_input(current, l, amount, zero_for_one)
        } else {
            next_from_amount1(current, l, amount, true, l_div)
        }
    };
    if clearly_short(current, target, l, less_fee, zero_for_one) {
        return Ok((next_price(less_fee)?, W::ZERO, false, less_fee));
    }
    let amount_in = input_delta(current, target, l, zero_for_one)?;
    let next = if less_fee >= amount_in {
        target
    } else {
        next_price(less_fee)?
    };
    Ok((next, amount_in, true, less_fee))
}

/// A pool's fee in pips with its complement `γ = 10^6 − fee` prepared for division: the fee of
/// a step that reaches its target is `ceil(amount_in · fee / γ)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StepFee {
    pips: u32,
    gamma: Div64,
}

impl StepFee {
    /// The fee of `pips` (below 10^6, as the pool's constructor checks).
    pub(crate) const fn new(pips: u32) -> Self {
        Self {
            pips,
            gamma: Div64::new(FEE_DENOMINATOR.saturating_sub(pips) as u64),
        }
    }

    /// `FullMath.mulDivRoundingUp(amount_in, fee, γ)`: when the product fits 256 bits (below
    /// 2^236 in), a division by the prepared γ (multiplications only).
    #[inline]
    fn of(self, amount_in: W) -> Result<W, PoolError> {
        let fee = W::small(u128::from(self.pips));
        match amount_in.checked_mul(fee) {
            Some(prod) => {
                let (q, r) = self.gamma.div_rem(prod);
                if r == 0 {
                    Ok(q)
                } else {
                    Ok(math::w_add(q, W::ONE)?)
                }
            }
            None => {
                let gamma = u128::from(FEE_DENOMINATOR.saturating_sub(self.pips));
                mul_div_up(amount_in, fee, W::small(gamma))
            }
        }
    }
}

/// `SwapMath.computeSwapStep`: move from `current` toward `target` with liquidity `l`, spending
/// at most `remaining` input (`exact_in`) or paying at most `remaining` output, fee `fee`;
/// `l_div`, when given, is `l` prepared for division.
///
/// # Errors
/// What the contract reverts on (overflow in the deltas or the next price).
#[inline]
pub(crate) fn compute_swap_step(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    exact_in: bool,
    fee: StepFee,
    l_div: Option<&Div128>,
) -> Result<Step, PoolError> {
    let zero_for_one = current >= target;
    // fee.pips < 10^6 (checked at construction), so this does not underflow.
    let gamma = W::small(u128::from(FEE_DENOMINATOR.saturating_sub(fee.pips)));
    let mut amount_out = W::ZERO;
    // Whether `amount_in` still holds the input to reach the target (it is skipped when a
    // float estimate shows the remaining input falls clearly short of it).
    let (next, mut amount_in, in_to_target, in_less_fee) = if exact_in {
        exact_in_target(current, target, l, remaining, gamma, zero_for_one, l_div)?
    } else {
        amount_out = output_delta(current, target, l, zero_for_one)?;
        let next = if remaining >= amount_out {
            target
        } else {
            next_sqrt_price_from_output(current, l, remaining, zero_for_one)?
        };
        (next, W::ZERO, true, W::ZERO)
    };
    let max = target == next;
    if max && exact_in && !in_to_target {
        // Rounding landed the short input exactly on the target: the contract keeps the input
        // it computed to reach it.
        amount_in = input_delta(current, target, l, zero_for_one)?;
    }
    if !(max && exact_in) {
        amount_in = if exact_in && zero_for_one {
            // The price the input less the fee reached: the input to reach it is at or a
            // little below that, found without a division.
            amount0_delta_up_near(next, current, l, in_less_fee)?
        } else {
            input_delta(current, next, l, zero_for_one)?
        };
    }
    if !max || exact_in {
        amount_out = output_delta(current, next, l, zero_for_one)?;
    }
    if !exact_in && amount_out > remaining {
        amount_out = remaining;
    }
    let fee_amount = if exact_in && next != target {
        math::w_sub(remaining, amount_in)?
    } else {
        fee.of(amount_in)?
    };
    Ok(Step {
        sqrt_price_x96: next,
        amount_in,
        amount_out,
        fee_amount,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
    use super::*;
    use primitive_types::U256;

    /// The fee by the prepared γ equals `mulDivRoundingUp(amount, fee, γ)` on every tier, for
    /// amounts of every size, exact multiples of γ and the 2^236 hand-over to `FullMath`.
    #[test]
    fn step_fee_by_the_prepared_gamma_equals_mul_div_up() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for pips in [0u32, 1, 100, 500, 2500, 3000, 10_000, 999_999] {
            let fee = StepFee::new(pips);
            let gamma = W::small(u128::from(FEE_DENOMINATOR - pips));
            let pw = W::small(u128::from(pips));
            for k in 0..20_000u32 {
                let x = W {
                    hi: (u128::from(next()) << 64) | u128::from(next()),
                    lo: (u128::from(next()) << 64) | u128::from(next()),
                };
                let a = match k % 4 {
                    0 => W::from_u256(x.to_u256() >> (next() % 256) as usize),
                    1 => W::from_u256(
                        (U256::one() << 236) - U256::from(next() % 4) + U256::from(k % 8),
                    ),
                    2 => gamma.checked_mul(W::small(u128::from(next()))).unwrap(),
                    _ => x,
                };
                assert_eq!(
                    fee.of(a).ok(),
                    mul_div_up(a, pw, gamma).ok(),
                    "{pips} {a:?}"
                );
            }
        }
    }
}
