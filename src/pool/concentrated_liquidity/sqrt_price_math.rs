//! `SqrtPriceMath` and `SwapMath.computeSwapStep`: the amount deltas between two prices, the
//! next price after an amount, and one swap step, each rounding exactly where the contract does
//! (amounts paid in round up, amounts paid out round down; the price moves in the pool's favour).
//!
//! Prices are Q64.96 `√(token1/token0)` values below 2^160, liquidity is a `u128`. Every product
//! is exact (512-bit where it must be, like `FullMath`), every revert is an error.

use crate::error::{PoolError, PoolRevert};
use crate::math::float::wide_to_f64_approx;
use crate::math::wide::{
    div_512_by_256, div_rem_by_wide, mul_128, mul_128_64, mul_128_w, mul_256_full,
    mul_w_128_small_hi, Div128, Div64,
};
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
/// products of two prices, `L·2^96 + amount·p`) by [`div_rem_by_wide`] (one estimate from
/// the divisor's top 128 bits, checked by one product), else the plain division.
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
        next_from_amount0_in(p, n1, amount, product).map(|(r, _)| r)
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

/// `getNextSqrtPriceFromAmount0RoundingUp` adding `amount` (`amount > 0`, `n1 = L·2^96`,
/// `product` = `amount·p` when it fits 256 bits), and whether the price is the contract's
/// first formula, `ceil(n1·p / (n1 + amount·p))`, the real price rounded up (false for its
/// fallback `ceil(n1 / (floor(n1 / p) + amount))` when the product or the sum overflows,
/// which can round further).
#[inline]
fn next_from_amount0_in(
    p: W,
    n1: W,
    amount: W,
    product: Option<W>,
) -> Result<(W, bool), PoolError> {
    if let Some((prod, den)) = product.and_then(|prod| Some((prod, n1.checked_add(prod)?))) {
        return Ok((next_from_amount0_added(p, n1, prod, den)?, true));
    }
    // The contract's fallback when amount·p or the sum overflows 256 bits.
    let q = math::w_div(n1, p)?;
    Ok((div_up(n1, math::w_add(q, amount)?)?, false))
}

/// The contract's `mulDivRoundingUp(n1, p, den)` with `den = n1 + prod`, `prod = amount·p`
/// (no overflow in either): the price after token0 comes in.
///
/// `n1·p = p·den − amount·p²`, so `ceil(n1·p / den) = p − floor(amount·p² / den)`: when
/// `amount·p²` fits 256 bits that is one 256-bit division with a small quotient (the price
/// move) instead of a 512-by-256 one. `den > amount·p` (n1 > 0), so the quotient is below `p`;
/// for `den >= 2^128` (liquidity of 2^32 or more) the division is [`div_rem`]'s by a wide
/// divisor.
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
///
/// The price the input less the fee would reach is computed first: it lies strictly beyond
/// the target exactly when that input falls short of the input to the target (the contract's
/// test `amountRemainingLessFee >= amountIn`), so the step that stops short (the last step
/// of every swap) computes no input to the target. Both amounts round so the pool never
/// gives more: the input to the target is the ceiling of the real one, so an input below it
/// is below the real one and its real price lies beyond the target, and the next price
/// rounds away from the target (up going down, down going up), so it lies beyond too; an
/// input at or above it reaches the target or passes it, and the rounded price does not lie
/// beyond. When the next price fails (an overflow the contract would only meet in the
/// short branch) or comes from the contract's overflow fallback (which may round past the
/// target), the contract's order decides.
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
    let less_fee = less_fee_by(remaining, gamma)?;
    // `getNextSqrtPriceFromInput` (token1 in by the prepared liquidity), and whether the
    // price is the real one rounded (see `next_from_amount0_in`).
    let early = if current.is_zero() || l == 0 {
        Err(PoolError::Revert(PoolRevert::ZeroPriceOrLiquidity))
    } else if less_fee.is_zero() {
        Ok((current, true))
    } else if zero_for_one {
        next_from_amount0_in(current, l_q96(l), less_fee, less_fee.checked_mul(current))
    } else {
        next_from_amount1(current, l, less_fee, true, l_div).map(|r| (r, true))
    };
    if let Ok((next, true)) = early {
        let beyond = if zero_for_one {
            next > target
        } else {
            next < target
        };
        if beyond {
            return Ok((next, W::ZERO, false, less_fee));
        }
    }
    let amount_in = input_delta(current, target, l, zero_for_one)?;
    let next = if less_fee >= amount_in {
        target
    } else {
        early?.0
    };
    Ok((next, amount_in, true, less_fee))
}

/// `FullMath.mulDiv(remaining, 1e6 − fee, 1e6)` with `gamma = 1e6 − fee`: below 2^230 the
/// product fits 256 bits and the division by 10^6 is a reciprocal multiplication.
#[inline(always)]
fn less_fee_by(remaining: W, gamma: W) -> Result<W, PoolError> {
    match remaining.checked_mul(gamma) {
        Some(prod) => Ok(FEE_DIV.div_rem(prod).0),
        None => mul_div(remaining, gamma, W::small(u128::from(FEE_DENOMINATOR))),
    }
}

/// An exact-input step's amount left less the fee (`amountRemainingLessFee`).
///
/// # Errors
/// As `FullMath.mulDiv` (not for amounts below 2^256).
#[inline]
pub(crate) fn less_fee(remaining: W, fee: StepFee) -> Result<W, PoolError> {
    less_fee_by(remaining, W::small(u128::from(fee.gamma())))
}

/// A step that reaches its target (the amount left sufficed), with the least exact-input
/// amount left that reaches it: `computeSwapStep`'s amounts when it reaches depend only on the
/// two prices, the liquidity and the fee, so a step with the same ends takes them whenever its
/// amount left covers the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reaching {
    /// The step.
    pub step: Step,
    /// The least exact input left whose input less the fee reaches `step.amount_in`
    /// (`ceil(amount_in · 10^6 / γ)`); `None` when it would be 2^256 or more.
    least_in: Option<W>,
    /// The step's fee growth with no protocol share, `mulDiv(fee_amount, 2^128, L)` (`None`
    /// for zero liquidity, where the contract adds none, and where it would revert).
    pub growth: Option<W>,
}

impl Reaching {
    /// The step (which reaches its target) with liquidity `l` of a pool with fee `fee`.
    ///
    /// The contract's test is `floor(remaining · γ / 10^6) >= amount_in`; for integers that
    /// is `remaining · γ / 10^6 >= amount_in`, that is `remaining >= amount_in · 10^6 / γ`,
    /// that is `remaining >= ceil(amount_in · 10^6 / γ)` (γ > 0: the fee is below 10^6).
    pub(crate) fn new(step: Step, l: u128, fee: StepFee) -> Self {
        let million = W::small(u128::from(FEE_DENOMINATOR));
        let gamma = W::small(u128::from(fee.gamma()));
        let growth = (l > 0)
            .then(|| mul_div(step.fee_amount, W { hi: 1, lo: 0 }, W::small(l)).ok())
            .flatten();
        Self {
            step,
            least_in: mul_div_up(step.amount_in, million, gamma).ok(),
            growth,
        }
    }

    /// Whether an amount left of `remaining` (an input when `exact_in`, else an output) covers
    /// the step: the contract's `amountRemainingLessFee >= amountIn`, or
    /// `amountRemaining >= amountOut`.
    #[inline]
    pub(crate) fn covered_by(&self, remaining: W, exact_in: bool) -> bool {
        if exact_in {
            self.least_in.is_some_and(|x| remaining >= x)
        } else {
            remaining >= self.step.amount_out
        }
    }
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

    /// γ = 10^6 − fee.
    #[inline]
    const fn gamma(self) -> u32 {
        FEE_DENOMINATOR.saturating_sub(self.pips)
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

/// `computeSwapStep` for an exact input of token0 that stops short of its target (the last
/// step of a swap), on native halves: `None` hands over to the general path, for a price or
/// an input less the fee at or above 2^128, `L·2^96 + amount·p` at or above 2^256, liquidity
/// below 2^32 while `amount·p²` is below 2^256 (at or above it the division is the 512-bit
/// one), and the rare steps below.
///
/// With `a` the input less the fee, `p` the price, `n1 = L·2^96` and `den = n1 + a·p`, the
/// next price is `p − f` with `a·p² = f·den + r`, `0 <= r < den` (see
/// `next_from_amount0_added`), strictly above the target exactly when `a` falls short of it
/// (see `exact_in_target`). The input to that price is `ceil(n1·f / (p'·p))` with
/// `p' = p − f`, and `a·p'·p = a·p² − a·f·p = f·n1 + r`, so `n1·f = a·p'·p − r` and the
/// input is `a − floor(r / (p'·p))`: `a` unless the remainder reaches `p'·p` (a few
/// subtractions, else the general path). The output is `floor(L·f / 2^96)` and the fee what
/// is left of the amount, as in the contract.
///
/// When the next price is at or past the target the input less the fee reaches it
/// ([`Token0In::Reaches`]: the contract's step to the target follows, with no second test).
/// A step that likely reaches its target ([`likely_reaches`]) takes the contract's order
/// instead: the input to the target, and the next price only when that input is not met.
/// `known_short` says the caller knows the step falls short (the amount left is below a
/// known step's to the same target): the guess is skipped (a guess only orders the exact
/// computations, so the answer is the same either way).
#[inline(always)]
fn short_step_token0_in(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    fee: StepFee,
    known_short: bool,
) -> Option<Token0In> {
    if current.hi != 0 || l == 0 {
        return None;
    }
    let p = current.lo;
    let a = less_fee(remaining, fee).ok()?;
    if a.hi != 0 || a.lo == 0 {
        return None;
    }
    let a = a.lo;
    // A step likely to reach its target (a float guess, checked exactly): the contract's
    // order, the input to the target first, spares the next price's division.
    if !known_short && likely_reaches(p, target.lo, l, a) && target.hi == 0 {
        let to_target = amount0_delta(target, current, l, true).ok()?;
        if W::small(a) >= to_target {
            return Some(Token0In::Reaches(Some(to_target)));
        }
    }
    // a·p by two multiplications when a < 2^64 (the usual input).
    let prod = if a >> 64 == 0 {
        mul_128_64(p, a as u64)
    } else {
        mul_128_w(a, p)
    };
    let den = l_q96(l).checked_add(prod)?;
    // f < p (den > a·p), so p − f > 0 and the quotient fits 128 bits.
    let (f, mut r) = match mul_w_128_small_hi(prod, p) {
        // den >= 2^128 for L >= 2^32 (else `None`).
        Some(x) => div_rem_by_wide(x, den)?,
        // a·p² at or above 2^256 (large inputs at high prices): the 512-by-256 division.
        None => {
            let (xh, xl) = mul_256_full(prod, W::small(p));
            let (q, r) = div_512_by_256(xh, xl, den)?;
            if q.hi != 0 {
                return None;
            }
            (q.lo, r)
        }
    };
    let next = p.checked_sub(f)?;
    if target.hi != 0 || next <= target.lo {
        return Some(Token0In::Reaches(None));
    }
    let den2 = mul_128_w(next, p);
    let mut amount_in = a;
    let mut settled = false;
    for _ in 0..4 {
        match r.checked_sub(den2) {
            Some(rest) => {
                r = rest;
                amount_in = amount_in.checked_sub(1)?;
            }
            None => {
                settled = true;
                break;
            }
        }
    }
    if !settled {
        return None;
    }
    // L·f < 2^256 (both below 2^128); the output is its top 160 bits.
    let (h, lo) = mul_128(l, f);
    let amount_out = W {
        hi: h >> 96,
        lo: (h << 32) | (lo >> 96),
    };
    let fee_amount = remaining.checked_sub(W::small(amount_in))?;
    Some(Token0In::Short(Step {
        sqrt_price_x96: W::small(next),
        amount_in: W::small(amount_in),
        amount_out,
        fee_amount,
    }))
}

/// `computeSwapStep` for an exact input of token1 that stops short of its target (the price
/// goes up), on native halves: `None` hands over to the general path (a price, an input less
/// the fee or the price move at or above 2^128, an input less the fee of 0, `L·q·2^96` at or
/// above 2^256, and a step whose input less the fee reaches its target).
///
/// With `a` the input less the fee, the next price is `p' = p + q`, `q = floor(a·2^96 / L)`
/// (`getNextSqrtPriceFromAmount1RoundingDown`, by the prepared liquidity `l_div` when given),
/// strictly below the target exactly when `a` falls short of it (see `exact_in_target`). The
/// input to `p'` is `ceil(L·q / 2^96)` (`getAmount1Delta` rounded up), the output
/// `floor(L·2^96·q / (p·p'))` (`getAmount0Delta` rounded down: its two floors compose into
/// one division, see [`amount0_delta`]) and the fee what is left of the amount, as in the
/// contract.
#[inline]
fn short_step_token1_in(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    fee: StepFee,
    l_div: Option<&Div128>,
) -> Option<Step> {
    if current.hi != 0 || l == 0 {
        return None;
    }
    let p = current.lo;
    let a = less_fee(remaining, fee).ok()?;
    if a.hi != 0 || a.lo == 0 {
        return None;
    }
    // a·2^96 (a < 2^128: fits 224 bits), divided by the liquidity.
    let shifted = W {
        hi: a.lo >> 32,
        lo: a.lo << 96,
    };
    let q = match l_div {
        Some(d) => d.div(shifted)?,
        None => crate::math::wide::div_w_128(shifted, l)?,
    };
    let next = p.checked_add(q)?;
    // At or past the target: the input less the fee reaches it (the contract's `max` step).
    if target.hi == 0 && next >= target.lo {
        return None;
    }
    // L·q < 2^256; the input rounds it up to a multiple of 2^96, the output divides it.
    let lq = mul_128_w(l, q);
    let up = u128::from(lq.lo & ((1u128 << 96) - 1) != 0);
    let amount_in = W {
        hi: lq.hi >> 96,
        lo: (lq.hi << 32) | (lq.lo >> 96),
    }
    .checked_add(W::small(up))?;
    if lq.hi >> 32 != 0 {
        return None;
    }
    let num = W {
        hi: (lq.hi << 96) | (lq.lo >> 32),
        lo: lq.lo << 96,
    };
    let (amount_out, _) = div_rem(num, mul_128_w(p, next)).ok()?;
    let fee_amount = remaining.checked_sub(amount_in)?;
    Some(Step {
        sqrt_price_x96: W::small(next),
        amount_in,
        amount_out,
        fee_amount,
    })
}

/// `computeSwapStep` for an exact input that stops short of its target, when the fast paths
/// can tell: the step, or `None` when it may reach the target (a float guess says it likely
/// does, or the exact next price does) or leaves the fast paths' ranges
/// ([`short_step_token0_in`], [`short_step_token1_in`]). `known_short` says the caller knows
/// the step falls short (the guess is skipped); `l_div` is `l` prepared for division.
///
/// A swap whose first step this gives ends with it: the fee is the rest of the amount.
#[inline(always)]
pub(crate) fn short_step(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    (fee, l_div): (StepFee, Option<&Div128>),
    known_short: bool,
) -> Option<Step> {
    // The guess first: a step that likely reaches is the loop's (which computes the input
    // to the target), with no exact work spent here.
    if !known_short && likely_reaches_in(current, target, l, remaining, fee) {
        return None;
    }
    if current > target {
        match short_step_token0_in(current, target, l, remaining, fee, true)? {
            Token0In::Short(step) => Some(step),
            Token0In::Reaches(_) => None,
        }
    } else {
        short_step_token1_in(current, target, l, remaining, fee, l_div)
    }
}

/// Whether an amount left of `remaining` likely reaches the target `t` from the price `p`
/// with liquidity `l`, in floats from the amount itself (its input less the fee about
/// `remaining·γ / 10^6`): token0 in (`t < p`) when `a·t·p >= L·2^96·(p − t)`, token1 in when
/// `a·2^96 >= L·(t − p)`. A guess that only decides whether the exact step is tried here.
#[inline(always)]
fn likely_reaches_in(p: W, t: W, l: u128, remaining: W, fee: StepFee) -> bool {
    const Q96_F: f64 = 79_228_162_514_264_337_593_543_950_336.0;
    let f = wide_to_f64_approx;
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: no traps
    let reaches = {
        let a = f(remaining) * (f64::from(fee.gamma()) * 1e-6);
        let lf = f(W::small(l));
        if p > t {
            a * (f(t) * f(p)) >= lf * Q96_F * f(p.checked_sub(t).unwrap_or(W::ZERO))
        } else {
            a * Q96_F >= lf * f(t.checked_sub(p).unwrap_or(W::ZERO))
        }
    };
    reaches
}

/// What [`short_step_token0_in`] found.
enum Token0In {
    /// The step, which stops short of its target.
    Short(Step),
    /// The input less the fee reaches the target (whose input, when computed).
    Reaches(Option<W>),
}

/// Whether an input less the fee of `a` likely reaches the target `t` from the price `p`
/// (token0 in, `t < p`): `a >= L·2^96·(p − t) / (t·p)` in floats, multiplied out. A guess
/// that only orders the exact computations.
#[inline(always)]
fn likely_reaches(p: u128, t: u128, l: u128, a: u128) -> bool {
    const Q96_F: f64 = 79_228_162_514_264_337_593_543_950_336.0;
    let f = |x: u128| wide_to_f64_approx(W::small(x));
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: no traps
    let reaches = f(a) * (f(t) * f(p)) >= f(l) * Q96_F * f(p.saturating_sub(t));
    reaches
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
    compute_swap_step_hinted(current, target, l, remaining, (exact_in, false), fee, l_div)
}

/// [`compute_swap_step`] for a step the caller knows falls short of its target
/// (`known_short`: the amount left is below that of a known step to the same target, so the
/// step computes no guess of whether it reaches; the answer is the same).
///
/// # Errors
/// As [`compute_swap_step`].
#[inline]
pub(crate) fn compute_swap_step_hinted(
    current: W,
    target: W,
    l: u128,
    remaining: W,
    (exact_in, known_short): (bool, bool),
    fee: StepFee,
    l_div: Option<&Div128>,
) -> Result<Step, PoolError> {
    let zero_for_one = current >= target;
    if exact_in && zero_for_one {
        match short_step_token0_in(current, target, l, remaining, fee, known_short) {
            Some(Token0In::Short(step)) => return Ok(step),
            // The input less the fee reaches the target: the contract's `max` branch.
            Some(Token0In::Reaches(to_target)) => {
                let amount_in = match to_target {
                    Some(x) => x,
                    None => input_delta(current, target, l, true)?,
                };
                return Ok(Step {
                    sqrt_price_x96: target,
                    amount_in,
                    amount_out: output_delta(current, target, l, true)?,
                    fee_amount: fee.of(amount_in)?,
                });
            }
            None => {}
        }
    }
    // Token1 in: the native short step when the step likely stops short (or is known to); it
    // hands over to the general step when the next price reaches the target after all.
    if exact_in
        && !zero_for_one
        && (known_short || !likely_reaches_in(current, target, l, remaining, fee))
    {
        if let Some(step) = short_step_token1_in(current, target, l, remaining, fee, l_div) {
            return Ok(step);
        }
    }
    compute_swap_step_general(current, target, l, remaining, exact_in, fee, l_div)
}

/// [`compute_swap_step`] without the token0-in fast path (its reference in the tests).
#[inline]
fn compute_swap_step_general(
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

    fn md(a: U256, b: U256, d: U256) -> Option<U256> {
        U256::try_from(a.full_mul(b) / primitive_types::U512::from(d)).ok()
    }

    fn md_up(a: U256, b: U256, d: U256) -> Option<U256> {
        let p = a.full_mul(b);
        let d = primitive_types::U512::from(d);
        let q = p / d + primitive_types::U512::from(u8::from(!(p % d).is_zero()));
        U256::try_from(q).ok()
    }

    fn div_up_u(a: U256, d: U256) -> U256 {
        a / d + U256::from(u8::from(!(a % d).is_zero()))
    }

    /// `computeSwapStep` for an exact input of token0, written from the contract on plain
    /// `U256` / `U512` operators: (price, input, output, fee), `None` where it reverts.
    fn step_token0_in_plain(
        p: U256,
        t: U256,
        l: u128,
        rem: U256,
        pips: u32,
    ) -> Option<(U256, U256, U256, U256)> {
        let million = U256::from(FEE_DENOMINATOR);
        let fee = U256::from(pips);
        let n1 = U256::from(l) << 96;
        let amount0_up =
            |a: U256, b: U256| -> Option<U256> { Some(div_up_u(md_up(n1, b - a, b)?, a)) };
        let less = md(rem, million - fee, million)?;
        let to_target = amount0_up(t, p)?;
        let next = if less >= to_target {
            t
        } else if less.is_zero() {
            p
        } else {
            let (prod, over) = less.overflowing_mul(p);
            let (den, over2) = n1.overflowing_add(prod);
            if !over && !over2 {
                md_up(n1, p, den)?
            } else {
                div_up_u(n1, (n1 / p).checked_add(less)?)
            }
        };
        let max = next == t;
        let amount_in = if max { to_target } else { amount0_up(next, p)? };
        let out = md(U256::from(l), p - next, U256::one() << 96)?;
        let fee_amount = if next != t {
            rem - amount_in
        } else {
            md_up(amount_in, fee, million - fee)?
        };
        Some((next, amount_in, out, fee_amount))
    }

    /// The token0-in fast path (`short_step_token0_in`, both its answers) equals the general
    /// step and a plain `U512` version of the contract's, on random operands and at its
    /// hand-overs: prices at 2^128 and next to it, liquidity at 2^32, the input less the fee
    /// at 2^128, `amount·p²` and `L·2^96 + amount·p` at 2^256, steps that end next to their
    /// target, and low prices where the remainder reaches `p'·p` (the input below the hint).
    #[test]
    fn token0_in_fast_step_equals_the_general_step_and_the_contract() {
        let seed = core::cell::Cell::new(0x2545_F491_4F6C_DD1Du64);
        let next = || {
            let mut x = seed.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            seed.set(x);
            x
        };
        let min = super::super::tick_math::MIN_SQRT_RATIO.to_u256();
        let max = super::super::tick_math::MAX_SQRT_RATIO.to_u256();
        let two128 = U256::one() << 128;
        let (mut fast, mut short, mut reaches, mut below_hint) = (0u32, 0u32, 0u32, 0u32);
        // Short steps whose `amount·p²` leaves 256 bits (the 512-bit division).
        let mut wide = 0u32;
        for k in 0..400_000u32 {
            let rnd = |bits: u64| -> U256 {
                let x = U256([next(), next(), next(), next()]);
                let b = bits.clamp(1, 256) as usize;
                (x >> (256 - b)) | (U256::one() << (b - 1))
            };
            let p = match k % 5 {
                0 => two128 - U256::from(next() % 1024),
                1 => two128 + U256::from(next() % 1024),
                2 => rnd(33 + next() % 10),
                _ => rnd(33 + next() % 128),
            }
            .clamp(min + 2, max - 1);
            let l: u128 = match k % 7 {
                0 => (1u128 << 32) - 1 + u128::from(next() % 3),
                1 => u128::MAX - u128::from(next() % 4),
                _ => rnd(1 + next() % 128).low_u128(),
            };
            // The target: anywhere below the price, or just below it.
            let t = match k % 3 {
                0 => p - U256::from(1 + next() % 64),
                _ => min + (p - min) / U256::from(1 + next() % 1000),
            }
            .max(min + 1)
            .min(p - 1);
            let pips = [0u32, 100, 500, 2500, 3000, 10_000, 999_999][(next() % 7) as usize];
            let pf = crate::math::float::to_f64(p);
            // The input less the fee to the target, and an amount whose input less the fee is
            // about `x` (γ > 0).
            let million = U256::from(FEE_DENOMINATOR);
            let gamma = U256::from(FEE_DENOMINATOR - pips);
            let n1 = U256::from(l) << 96;
            let to_target = md_up(n1, p - t, p).map(|v| div_up_u(v, t));
            let gross = |x: U256| md_up(x, million, gamma).unwrap_or(U256::MAX);
            let rem = match k % 8 {
                // amount·p² near 2^256, L·2^96 + amount·p near 2^256
                0 => gross(
                    crate::math::float::from_f64_floor(2f64.powi(256) / (pf * pf))
                        + U256::from(next() % 8),
                ),
                1 => gross(
                    crate::math::float::from_f64_floor(
                        (2f64.powi(256) - (l as f64) * 2f64.powi(96)).max(1.0) / pf,
                    ) - U256::from(next() % 8),
                ),
                // the input less the fee near 2^128
                2 => gross(two128) + U256::from(next() % 4) - U256::from(2u8),
                // a part of what reaches the target, or next to it
                3 | 4 => to_target.map_or(U256::one(), |v| {
                    gross(
                        md(v, U256::from(next() % (1 << 20)), U256::from(1u32 << 20)).unwrap_or(v),
                    )
                }),
                5 => to_target.map_or(U256::one(), |v| {
                    gross(v.saturating_sub(U256::from(2u8)) + U256::from(next() % 5))
                }),
                // short of the target with `amount·p²` below 2^256
                6 => {
                    let fit = crate::math::float::from_f64_floor(2f64.powi(255) / (pf * pf));
                    let cap = to_target.map_or(fit, |v| v.min(fit));
                    gross(
                        md(cap, U256::from(next() % (1 << 20)), U256::from(1u32 << 20))
                            .unwrap_or(cap),
                    )
                }
                _ => rnd(1 + next() % 200),
            }
            .max(U256::one())
            .min((U256::one() << 255) - 1);
            let (pw, tw, rw) = (W::from_u256(p), W::from_u256(t), W::from_u256(rem));
            let fee = StepFee::new(pips);
            match short_step_token0_in(pw, tw, l, rw, fee, false) {
                Some(Token0In::Short(s)) => {
                    fast += 1;
                    short += 1;
                    let a = less_fee(rw, fee).unwrap();
                    if s.amount_in < a {
                        below_hint += 1;
                    }
                    let x = primitive_types::U512::from(a.to_u256())
                        * primitive_types::U512::from(p)
                        * primitive_types::U512::from(p);
                    if x >= primitive_types::U512::one() << 256 {
                        wide += 1;
                    }
                }
                Some(Token0In::Reaches(_)) => {
                    fast += 1;
                    reaches += 1;
                }
                None => {}
            }
            let got = compute_swap_step(pw, tw, l, rw, true, fee, None);
            let general = compute_swap_step_general(pw, tw, l, rw, true, fee, None);
            assert_eq!(got, general, "{p} {t} {l} {rem} {pips}");
            let plain = step_token0_in_plain(p, t, l, rem, pips);
            let got = got.ok().map(|s| {
                (
                    s.sqrt_price_x96.to_u256(),
                    s.amount_in.to_u256(),
                    s.amount_out.to_u256(),
                    s.fee_amount.to_u256(),
                )
            });
            assert_eq!(got, plain, "{p} {t} {l} {rem} {pips}");
        }
        // Every branch of the fast path ran.
        assert!(
            fast > 20_000 && short > 5_000 && reaches > 10_000 && below_hint > 100 && wide > 1000,
            "{fast} {short} {reaches} {below_hint} {wide}"
        );
    }

    /// The token1-in fast step (`short_step_token1_in`, by the prepared liquidity and by the
    /// plain division) equals the general step wherever it answers, and hands over to it
    /// everywhere else: random operands and its hand-overs, prices at and next to 2^64 and
    /// 2^128, liquidity at 2^64 (the two prepared forms) and near 2^128, the input less the
    /// fee at 2^128, the price move `q` at 2^128, `L·q` at 2^160, steps that end next to
    /// their target (the next price one unit below it, on it, above it), every fee tier.
    /// Through `short_step` and the loop's `compute_swap_step_hinted`, with and without the
    /// float guess, the step is the general one.
    #[test]
    fn token1_in_fast_step_equals_the_general_step() {
        let gen = core::cell::RefCell::new(crate::math::wide::xorshift(0x3C6E_F372_FE94_F82Bu64));
        let next = || (gen.borrow_mut())();
        let min = super::super::tick_math::MIN_SQRT_RATIO.to_u256();
        let max = super::super::tick_math::MAX_SQRT_RATIO.to_u256();
        let (two64, two128) = (U256::one() << 64, U256::one() << 128);
        let mut counts = [0u32; 4];
        for k in 0..400_000u32 {
            let rnd = |bits: u64| -> U256 {
                let x = U256([next(), next(), next(), next()]);
                let b = bits.clamp(1, 256) as usize;
                (x >> (256 - b)) | (U256::one() << (b - 1))
            };
            let p = match k % 6 {
                0 => two128 - U256::from(1 + k % 1024),
                1 => two128 + U256::from(k % 1024),
                2 => two64 + U256::from(k % 1024) - U256::from(512u32),
                _ => {
                    let b = 33 + u64::from(k % 127);
                    rnd(b)
                }
            }
            .clamp(min + 1, max - 2);
            let l: u128 = match k % 7 {
                0 => (1u128 << 64) - 1 + u128::from(k % 3),
                1 => u128::MAX - u128::from(k % 4),
                _ => {
                    let b = 1 + u64::from(k % 128);
                    rnd(b).low_u128()
                }
            };
            let pips = [0u32, 100, 500, 2500, 3000, 10_000, 999_999][(k % 7) as usize];
            let fee = StepFee::new(pips);
            let gamma = U256::from(FEE_DENOMINATOR - pips);
            let million = U256::from(FEE_DENOMINATOR);
            let gross = |x: U256| -> U256 {
                let (q, r) = (x * million / gamma, (x * million) % gamma);
                q + U256::from(u8::from(!r.is_zero()))
            };
            // The input less the fee `a` and the target.
            let l256 = U256::from(l);
            let q96 = U256::one() << 96;
            let a = match k % 5 {
                // a near 2^128
                0 => two128 - U256::from(2u8) + U256::from(k % 4),
                // q = a·2^96 / L near 2^128
                1 => (two128 * l256 / q96).max(U256::one()) + U256::from(k % 3),
                // L·q near 2^160: q near 2^160 / L
                2 => {
                    ((U256::one() << 160) / l256 * l256 / q96).max(U256::one()) + U256::from(k % 3)
                }
                _ => {
                    let b = 1 + next() % 160;
                    rnd(b)
                }
            }
            .min(U256::one() << 200);
            let rem = gross(a).min((U256::one() << 255) - 1);
            // The next price the input less the fee reaches (floats; the exact one decides).
            let moved = p + (a * q96 / l256).min(max);
            let t = match k % 4 {
                0 => moved - U256::from(1u8),
                1 => moved,
                2 => moved + U256::from(1 + next() % 3),
                _ => p + U256::from(1 + next() % (1 << 40)),
            }
            .clamp(p + 1, max - 1);
            let (pw, tw, rw) = (W::from_u256(p), W::from_u256(t), W::from_u256(rem));
            let general = compute_swap_step_general(pw, tw, l, rw, true, fee, None);
            for (j, l_div) in [None, Some(Div128::prepared(l))].iter().enumerate() {
                for known_short in [false, true] {
                    let hinted = compute_swap_step_hinted(
                        pw,
                        tw,
                        l,
                        rw,
                        (true, known_short),
                        fee,
                        l_div.as_ref(),
                    );
                    assert_eq!(hinted, general, "{p} {t} {l} {rem} {pips}");
                }
                if let Some(step) = short_step_token1_in(pw, tw, l, rw, fee, l_div.as_ref()) {
                    counts[j] += 1;
                    assert_eq!(Ok(step), general, "{p} {t} {l} {rem} {pips}");
                    assert!(step.sqrt_price_x96 < tw);
                }
                for known_short in [false, true] {
                    if let Some(step) =
                        short_step(pw, tw, l, rw, (fee, l_div.as_ref()), known_short)
                    {
                        counts[2 + usize::from(known_short)] += 1;
                        assert_eq!(Ok(step), general, "{p} {t} {l} {rem} {pips}");
                    }
                }
            }
            // The general step short of its target with operands in range is the fast one's.
            if let Ok(g) = general {
                let a = U256::try_from(rem.full_mul(gamma) / primitive_types::U512::from(million))
                    .unwrap();
                let fits = p < two128 && a < two128 && !a.is_zero();
                let q = a * q96 / l256;
                let in_range = fits && q < two128 && p + q < two128;
                if in_range && g.sqrt_price_x96 != tw && (l256 * q) < (U256::one() << 160) {
                    let d = Div128::prepared(l);
                    assert_eq!(short_step_token1_in(pw, tw, l, rw, fee, Some(&d)), Some(g));
                }
            }
        }
        assert!(counts.iter().all(|&c| c > 15_000), "{counts:?}");
    }

    /// A reaching step's least amount left is the contract's test: an amount left covers the
    /// step exactly when its input less the fee reaches the step's input, at the least amount,
    /// one below and one above, on every tier, for inputs of every size (the `FullMath`
    /// hand-over of the input less the fee at 2^230, the least amount at 2^256).
    #[test]
    fn reaching_steps_least_amount_is_the_contracts_test() {
        let mut next = crate::math::wide::xorshift(0x6A09_E667_F3BC_C908u64);
        let max_in = W::from_u256((U256::one() << 255) - 1);
        let mut counted = [0u32; 2];
        for pips in [0u32, 1, 100, 500, 2500, 3000, 10_000, 999_999] {
            let fee = StepFee::new(pips);
            for k in 0..4_000u32 {
                let x = W {
                    hi: (u128::from(next()) << 64) | u128::from(next()),
                    lo: (u128::from(next()) << 64) | u128::from(next()),
                };
                let amount_in = match k % 4 {
                    0 => W::from_u256(x.to_u256() >> (next() % 256) as usize),
                    1 => W::from_u256((U256::one() << 230) - U256::from(k % 8)),
                    2 => W::from_u256(
                        (U256::MAX / U256::from(FEE_DENOMINATOR) * U256::from(fee.gamma()))
                            - U256::from(k % 8),
                    ),
                    _ => W::small(u128::from(next())),
                };
                let step = Step {
                    sqrt_price_x96: W::ONE,
                    amount_in,
                    amount_out: W::ZERO,
                    fee_amount: W::ZERO,
                };
                let r = Reaching::new(step, 1, fee);
                let covers = |rem: W| less_fee(rem, fee).is_ok_and(|a| a >= amount_in);
                match r.least_in {
                    Some(least) => {
                        counted[0] += 1;
                        assert!(covers(least), "{pips} {amount_in:?}");
                        assert!(r.covered_by(least, true));
                        if let Some(below) = least.checked_sub(W::ONE) {
                            assert_eq!(r.covered_by(below, true), covers(below));
                            assert!(!covers(below), "{pips} {amount_in:?}");
                        }
                        if let Some(above) = least.checked_add(W::ONE).filter(|a| *a <= max_in) {
                            assert!(r.covered_by(above, true) && covers(above));
                        }
                    }
                    None => {
                        counted[1] += 1;
                        assert!(!covers(W {
                            hi: u128::MAX,
                            lo: u128::MAX
                        }));
                    }
                }
            }
        }
        assert!(counted[0] > 20_000 && counted[1] > 32, "{counted:?}");
    }

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
