//! Solidly pools as Aerodrome's `Pool.sol` (the Velodrome V2 code base) runs them: volatile
//! (x·y) and stable (x³y + xy³ on 18-decimal normalised reserves), the fee in basis points
//! taken from the input and moved out of the pool.
//!
//! The stable `getAmountOut` runs the contract's Newton loop `_get_y` step for step, quirks
//! included: the "y + 1" test calls the decimal-normalising `_k` on already normalised values,
//! and the loop reverts (`!y`) after 255 rounds. Every Solidity 0.8 checked-arithmetic revert is
//! a [`PoolError::Math`].
//!
//! # Invariants
//! `fee_bps < 10000`, decimals ≤ 18. The stable invariant `k` of the reserves is computed once
//! per state (it is also what the swap's K check compares against).

use super::pair;
use crate::error::{MathError, PoolError};
use crate::math::wide::{mul_div_128, to_u128};
use crate::math::{
    self, add, div, mul, mul_then_div, pow10, sqrt, sub, w_add, w_div, w_mul, w_mul_div_e18, w_sub,
    E18, W, W_E18,
};
use primitive_types::U256;

/// LP locked forever by the first mint (`MINIMUM_LIQUIDITY`).
pub(crate) const MINIMUM_LIQUIDITY: u64 = 1000;
/// A stable pool's first deposit must have `k > MINIMUM_K`.
pub(crate) const MINIMUM_K: u64 = 10_000_000_000;
/// Basis-point denominator of the fee.
pub const FEE_DENOMINATOR: u32 = 10_000;
/// Round limit of the Newton loop `_get_y`.
const MAX_ROUNDS: u32 = 255;

/// A Solidly pool state.
///
/// # Example
/// ```
/// use swapzap::pool::Solidly;
/// use swapzap::U256;
///
/// // A volatile pair (x·y = k) at a 30 bps fee: 1000 in pays 3 of fee, then
/// // 997·2e6 / (1e6 + 997) = 1992.01.. → 1992 out.
/// let pair = Solidly::new([U256::from(1_000_000u64), U256::from(2_000_000u64)], [18, 18], false, 30, U256::zero())?;
/// assert_eq!(pair.amount_out(0, 1, U256::from(1_000u64))?, U256::from(1_992u64));
/// // A stable pair (x³y + xy³ = k) of equal reserves gives nearly 1:1 less the fee.
/// let e21 = U256::exp10(21);
/// let stable = Solidly::new([e21, e21], [18, 18], true, 5, U256::zero())?;
/// let out = stable.amount_out(0, 1, U256::exp10(18))?;
/// assert!(out < U256::exp10(18) && out > U256::exp10(18) * 9990 / 10000);
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solidly {
    reserves: [U256; 2],
    decimals: [u8; 2],
    /// `10^decimals`, the contract's `decimals0` / `decimals1`.
    scale: [U256; 2],
    /// `10^(18 - decimals)`: normalisation without a division.
    up: [W; 2],
    stable: bool,
    fee_bps: u32,
    total_supply: U256,
    /// `_k(reserve0, reserve1)`, or the revert computing it would hit.
    k: Result<U256, MathError>,
    /// The reserves normalised to 18 decimals (stable pools), or the revert.
    norm: Result<[W; 2], MathError>,
}

/// The outcome of [`Solidly::mint_detailed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolidlyMint {
    /// LP minted to the depositor.
    pub minted: U256,
    /// The pool after the mint.
    pub pool: Solidly,
}

/// The outcome of [`Solidly::burn_detailed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolidlyBurn {
    /// Coins paid out, per coin.
    pub amounts: [U256; 2],
    /// The pool after the burn.
    pub pool: Solidly,
}

/// `x·1e18 / 10^dec` with the contract's checked product (`x * 1e18` reverts at 2^256).
/// `10^dec` divides `1e18` (dec ≤ 18), so the quotient is exactly `x·10^(18−dec)`: computed
/// without a division, after the same overflow check.
#[inline]
fn normalise(x: W, up: W) -> Result<W, MathError> {
    w_mul(x, W_E18)?;
    w_mul(x, up)
}

impl Solidly {
    /// A pool with `reserves`, token `decimals`, curve `stable`, fee `fee_bps / 10000` and LP
    /// `total_supply`.
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] for `fee_bps >= 10000` or decimals above 18.
    pub fn new(
        reserves: [U256; 2],
        decimals: [u8; 2],
        stable: bool,
        fee_bps: u32,
        total_supply: U256,
    ) -> Result<Self, PoolError> {
        if fee_bps >= FEE_DENOMINATOR {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeAbove10000Bps,
            ));
        }
        if decimals[0] > 18 || decimals[1] > 18 {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::DecimalsAbove18,
            ));
        }
        let scale = [pow10(decimals[0])?, pow10(decimals[1])?];
        let up = [
            W::from_u256(pow10(18u8.saturating_sub(decimals[0]))?),
            W::from_u256(pow10(18u8.saturating_sub(decimals[1]))?),
        ];
        let mut pool = Self {
            reserves,
            decimals,
            scale,
            up,
            stable,
            fee_bps,
            total_supply,
            k: Ok(U256::zero()),
            norm: Ok([W::ZERO; 2]),
        };
        pool.refresh();
        Ok(pool)
    }

    /// Recompute the cached per-state values after the reserves changed.
    fn refresh(&mut self) {
        let [r0, r1] = self.reserves;
        self.k = self.k_of(r0, r1);
        self.norm = if self.stable {
            normalise(W::from_u256(r0), self.up[0])
                .and_then(|a| Ok([a, normalise(W::from_u256(r1), self.up[1])?]))
        } else {
            Ok([W::ZERO; 2])
        };
    }

    two_coin_accessors!(reserves, "The reserves as a slice.", "LP total supply.");

    /// The reserves `[reserve0, reserve1]`.
    #[must_use]
    pub fn reserves(&self) -> [U256; 2] {
        self.reserves
    }

    /// Token decimals.
    #[must_use]
    pub fn decimals(&self) -> [u8; 2] {
        self.decimals
    }

    /// Whether this is a stable (x³y + xy³) pool.
    #[must_use]
    pub fn stable(&self) -> bool {
        self.stable
    }

    /// The fee in basis points (out of 10000), taken from the input.
    #[must_use]
    pub fn fee_bps(&self) -> u32 {
        self.fee_bps
    }

    /// The pool invariant of the current reserves as the contract's `_k` computes it
    /// (`x·y`, or the normalised `x³y + xy³`).
    ///
    /// # Errors
    /// [`PoolError::Math`] when the contract's computation overflows.
    pub fn invariant(&self) -> Result<U256, PoolError> {
        Ok(self.k?)
    }

    /// The contract's `_k(x, y)`.
    fn k_of(&self, x: U256, y: U256) -> Result<U256, MathError> {
        if self.stable {
            let x = normalise(W::from_u256(x), self.up[0])?;
            let y = normalise(W::from_u256(y), self.up[1])?;
            let a = w_mul_div_e18(x, y)?;
            let b = w_add(w_mul_div_e18(x, x)?, w_mul_div_e18(y, y)?)?;
            Ok(w_mul_div_e18(a, b)?.to_u256())
        } else {
            mul(x, y)
        }
    }

    /// The contract's `_get_y(x0, xy, y)`: Newton's method on `_f(x0, y) = xy` from the given
    /// `y`, returning the least `y` it settles on with `_f >= xy`, reproduced round for round.
    fn get_y(&self, x0: W, xy: U256, y: W) -> Result<W, PoolError> {
        // Run on native 128-bit halves (`W`); every op is checked exactly as in the contract.
        let (xy_u, xy, mut y) = (xy, W::from_u256(xy), y);
        // x0 is fixed through the loop, so its terms are computed once. Every one of them is
        // also evaluated (and overflow-checked) in the contract's first round, so a revert
        // here is a revert there.
        let x0_sq = w_mul_div_e18(x0, x0)?;
        let three_x0 = w_mul(W::small(3), x0)?;
        let d_tail = w_mul_div_e18(x0_sq, x0)?;
        for _ in 0..MAX_ROUNDS {
            let y_sq = w_mul_div_e18(y, y)?;
            let a = w_mul_div_e18(x0, y)?;
            let k = w_mul_div_e18(a, w_add(x0_sq, y_sq)?)?;
            let d = w_add(w_mul_div_e18(three_x0, y_sq)?, d_tail)?;
            if k < xy {
                let mut dy = w_div(w_mul(w_sub(xy, k)?, W_E18)?, d)?;
                if dy.is_zero() {
                    // (k == xy cannot hold on this branch.)
                    let y1 = w_add(y, W::ONE)?;
                    // Quirk kept: `_k` normalises by the token decimals again.
                    if self.k_of(x0.to_u256(), y1.to_u256())? > xy_u {
                        return Ok(y1);
                    }
                    dy = W::ONE;
                }
                y = w_add(y, dy)?;
            } else {
                let mut dy = w_div(w_mul(w_sub(k, xy)?, W_E18)?, d)?;
                if dy.is_zero() {
                    if k == xy || self.f_w(x0, x0_sq, w_sub(y, W::ONE)?)? < xy {
                        return Ok(y);
                    }
                    dy = W::ONE;
                }
                y = w_sub(y, dy)?;
            }
        }
        Err(PoolError::NoConvergence)
    }

    /// The contract's `_f(x0, y)` given `x0²/1e18`.
    #[inline]
    fn f_w(&self, x0: W, x0_sq: W, y: W) -> Result<W, MathError> {
        let a = w_mul_div_e18(x0, y)?;
        let b = w_add(x0_sq, w_mul_div_e18(y, y)?)?;
        w_mul_div_e18(a, b)
    }

    /// `_getAmountOut` on a net input (after the fee) of coin `i`.
    fn net_amount_out(&self, i: usize, a: U256) -> Result<U256, PoolError> {
        let j = 1usize.saturating_sub(i);
        let (r_in, r_out) = (self.reserves[i], self.reserves[j]);
        if self.stable {
            let xy = self.k?;
            let norm = self.norm?;
            let (ra, rb) = (norm[i], norm[j]);
            let an = normalise(W::from_u256(a), self.up[i])?;
            let y = w_sub(rb, self.get_y(w_add(an, ra)?, xy, rb)?)?;
            Ok(w_mul_div_e18(y, W::from_u256(self.scale[j]))?.to_u256())
        } else {
            if let (Some(a), Some(ri), Some(ro)) = (to_u128(&a), to_u128(&r_in), to_u128(&r_out)) {
                // Native fast path: a·r_out < 2^256 cannot revert, and the quotient is below
                // r_out; same value as the checked path below.
                if let Some(q) = ri.checked_add(a).and_then(|d| mul_div_128(a, ro, d)) {
                    return Ok(U256::from(q));
                }
            }
            Ok(mul_then_div(a, r_out, add(r_in, a)?)?)
        }
    }

    /// The fee the pool takes from an input: `a·fee/10000`, rounded down.
    #[inline]
    fn fee_of(&self, a: U256) -> Result<U256, MathError> {
        if let Some(f) = to_u128(&a)
            .and_then(|x| x.checked_mul(u128::from(self.fee_bps)))
            .and_then(|p| p.checked_div(u128::from(FEE_DENOMINATOR)))
        {
            // a·fee < 2^128: no revert possible; the division is the contract's floor.
            return Ok(U256::from(f));
        }
        mul_then_div(a, U256::from(self.fee_bps), U256::from(FEE_DENOMINATOR))
    }

    /// `Pool.getAmountOut(dx, token_i)`: the fee comes off the input first (rounded down, so
    /// the pool keeps the remainder), then the volatile or stable curve, rounded down.
    ///
    /// # Errors
    /// [`PoolError::NoConvergence`] when the stable Newton loop does not settle (`!y`),
    /// [`PoolError::Math`] for the contract's overflow, underflow or division-by-zero reverts,
    /// index errors.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        let a = sub(dx, self.fee_of(dx)?)?;
        self.net_amount_out(i, a)
    }

    /// An input of coin `i` whose exact [`Self::amount_out`] is at least `dy` while one unit
    /// less gives less (or reverts); the contract has no such function. A closed-form or float
    /// guess is refined by an integer search on the exact forward function, so the answer is
    /// checked, not estimated.
    ///
    /// Volatile pools, and stable pools whose forward function is monotone, get the least such
    /// input. The stable `_get_y` quirk (the mis-scaled "y + 1" test with non-18-decimal
    /// tokens) makes the forward function slightly non-monotone and lets it revert at scattered
    /// inputs, so there the guarantee is a local minimum: `amount_out(x) >= dy` and
    /// `amount_out(x − 1) < dy` or reverts. The answer is never above an input the search
    /// evaluated that reaches `dy`.
    ///
    /// # Errors
    /// [`PoolError::InsufficientOutputAmount`] for `dy == 0`, [`PoolError::UnreachableOutput`]
    /// when `dy >= reserve` or the search finds no input reaching `dy` below 2^256, index
    /// errors.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        if dy.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        if dy >= self.reserves[j] {
            return Err(PoolError::UnreachableOutput);
        }
        let mut guess = self.amount_in_guess(i, j, dy).max(U256::one());
        if self.stable {
            guess = self.refine_guess(i, j, dy, guess);
        }
        let (start, start_probe) = self.answering_start(i, j, dy, guess);
        let (lo, hi) = if start_probe == Some(true) {
            self.bracket_below(i, j, dy, start)
        } else {
            self.bracket_above(i, j, dy, start)?
        };
        self.bisect(i, j, dy, lo, hi)
    }

    /// A probe of the exact forward function at `x`: `Some(reaches dy)`, or `None` when it
    /// reverts.
    fn probe(&self, i: usize, j: usize, dy: U256, x: U256) -> Option<bool> {
        self.amount_out(i, j, x).ok().map(|o| o >= dy)
    }

    /// Whether the exact forward function at `x` pays at least `dy` (a revert does not).
    fn reaches(&self, i: usize, j: usize, dy: U256, x: U256) -> bool {
        self.probe(i, j, dy, x) == Some(true)
    }

    /// A guess where the forward function reverts may lie beyond the inputs it can take (a
    /// revert region above the answer): step down from it, with doubling steps, until it
    /// answers. The start and its probe.
    fn answering_start(&self, i: usize, j: usize, dy: U256, guess: U256) -> (U256, Option<bool>) {
        let mut start = guess;
        let mut start_probe = self.probe(i, j, dy, start);
        let mut step = U256::one();
        while start_probe.is_none() && !start.is_zero() {
            start = start.saturating_sub(step);
            start_probe = self.probe(i, j, dy, start);
            step = step.saturating_mul(U256::from(2u8));
        }
        (start, start_probe)
    }

    /// From a `start` that reaches `dy`, steps down growing from 1 (so a good guess costs only
    /// a few forward evaluations) to `(lo, hi)` with `!reaches(lo)` and `reaches(hi)`; `(0, 0)`
    /// when the forward function already reaches `dy` at 0 (no state does this; kept total).
    fn bracket_below(&self, i: usize, j: usize, dy: U256, start: U256) -> (U256, U256) {
        let mut hi = start;
        let mut step = U256::one();
        loop {
            let cand = hi.saturating_sub(step);
            if !self.reaches(i, j, dy, cand) {
                return (cand, hi);
            }
            if cand.is_zero() {
                return (cand, cand);
            }
            hi = cand;
            step = step.saturating_mul(U256::from(2u8));
        }
    }

    /// From a `start` that gives less than `dy` (or is 0), steps up to `(lo, hi)` with
    /// `!reaches(lo)` and `reaches(hi)`. A revert may be a scattered one or the start of a
    /// revert region past the answer, so the step is halved back towards `lo` first, and only a
    /// revert one unit above `lo` is stepped over.
    fn bracket_above(
        &self,
        i: usize,
        j: usize,
        dy: U256,
        start: U256,
    ) -> Result<(U256, U256), PoolError> {
        let two = U256::from(2u8);
        let mut lo = start;
        let mut step = U256::one();
        let mut step_over = false;
        loop {
            let cand = add(lo, step).map_err(|_| PoolError::UnreachableOutput)?;
            match self.probe(i, j, dy, cand) {
                Some(true) => return Ok((lo, cand)),
                Some(false) => {
                    lo = cand;
                    step = mul(step, two).map_err(|_| PoolError::UnreachableOutput)?;
                }
                None if step > U256::one() && !step_over => step = div(step, two)?,
                None => {
                    step_over = true;
                    lo = cand;
                    step = mul(step, two).map_err(|_| PoolError::UnreachableOutput)?;
                }
            }
        }
    }

    /// Bisection of a bracket (`!reaches(lo)`, `reaches(hi)`) down to adjacent inputs: `hi`.
    fn bisect(
        &self,
        i: usize,
        j: usize,
        dy: U256,
        mut lo: U256,
        mut hi: U256,
    ) -> Result<U256, PoolError> {
        let two = U256::from(2u8);
        while hi > add(lo, U256::one())? {
            let mid = add(lo, div(sub(hi, lo)?, two)?)?;
            if self.reaches(i, j, dy, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(hi)
    }

    /// Newton steps on the exact forward function from a float guess: the float solve cannot
    /// resolve single units of an 18-decimal reserve, so the residual `dy − out(x)` (exact) is
    /// divided by the curve's slope at the post-trade state (float) and added as an integer.
    /// A guess only: [`Self::amount_in`] still brackets and bisects on the exact function.
    fn refine_guess(&self, i: usize, j: usize, dy: U256, guess: U256) -> U256 {
        let mut x = guess;
        for _ in 0..4 {
            let Ok(o) = self.amount_out(i, j, x) else {
                break;
            };
            let gap = if dy >= o {
                math::float::to_f64(dy.saturating_sub(o))
            } else {
                -math::float::to_f64(o.saturating_sub(dy))
            };
            let slope = self.slope_after(i, j, x, o);
            if !positive(slope) {
                break;
            }
            let step = gap / slope;
            if step > -1.0 && step < 1.0 {
                break;
            }
            x = if step > 0.0 {
                x.saturating_add(math::float::from_f64_floor(step))
            } else {
                x.saturating_sub(math::float::from_f64_floor(-step))
                    .max(U256::one())
            };
        }
        x
    }

    /// d(out)/d(in) in raw units (fee included) after `x` of coin `i` went in and `o` of coin `j`
    /// came out: the stable curve's slope at the post-trade point. Search only.
    fn slope_after(&self, i: usize, j: usize, x: U256, o: U256) -> f64 {
        let (si, sj) = (
            math::float::to_f64(self.scale[i]),
            math::float::to_f64(self.scale[j]),
        );
        let g =
            f64::from(FEE_DENOMINATOR.saturating_sub(self.fee_bps)) / f64::from(FEE_DENOMINATOR);
        let xn = (math::float::to_f64(self.reserves[i]) + math::float::to_f64(x) * g) / si;
        let yn = math::float::to_f64(self.reserves[j].saturating_sub(o)) / sj;
        let num = 3.0 * xn * xn * yn + yn * yn * yn;
        let den = xn * xn * xn + 3.0 * xn * yn * yn;
        if !positive(den) {
            return 0.0;
        }
        num / den * (sj / si) * g
    }

    /// A guess for [`Self::amount_in`]: exact closed form for volatile pools (then grossed up
    /// for the fee), a float solve for stable pools. Never returned unchecked.
    fn amount_in_guess(&self, i: usize, j: usize, dy: U256) -> U256 {
        let (r_in, r_out) = (self.reserves[i], self.reserves[j]);
        let gross = |net: U256| -> U256 {
            // net·10000 / (10000 − fee), rounded up: the least gross input leaving `net`.
            math::mul_div_up(
                net,
                U256::from(FEE_DENOMINATOR),
                U256::from(FEE_DENOMINATOR.saturating_sub(self.fee_bps)),
            )
            .unwrap_or(U256::MAX)
        };
        if !self.stable {
            // out(a) >= dy  <=>  a·(r_out − dy) >= dy·r_in.
            let net = r_out
                .checked_sub(dy)
                .and_then(|room| math::mul_div_up(dy, r_in, room).ok())
                .unwrap_or(U256::MAX);
            return gross(net);
        }
        // Stable: solve x³y + xy³ = k for the new x in floats (normalised units).
        let si = math::float::to_f64(self.scale[i]);
        let sj = math::float::to_f64(self.scale[j]);
        let x = math::float::to_f64(r_in) / si;
        let y = math::float::to_f64(r_out) / sj;
        // The remaining reserve from the exact integer difference: `y − dy/sj` in floats
        // cancels to nothing (or below zero) when dy is within 1e-16 of the reserve.
        let y_new = math::float::to_f64(r_out.saturating_sub(dy)) / sj;
        if !positive(y_new) || !positive(x) {
            return U256::MAX;
        }
        let k = x * y * (x * x + y * y);
        // Newton on g(x') = x'^3·y_new + x'·y_new^3 − k from x' = x (g is increasing).
        let mut xn = x;
        for _ in 0..64 {
            let g = xn * xn * xn * y_new + xn * y_new * y_new * y_new - k;
            let dg = 3.0 * xn * xn * y_new + y_new * y_new * y_new;
            if !positive(dg) {
                break;
            }
            let next = xn - g / dg;
            if !(next.is_finite()) {
                break;
            }
            let step = if next > xn { next - xn } else { xn - next };
            if step <= 1e-15 * xn {
                xn = next;
                break;
            }
            xn = next;
        }
        let net = (xn - x).max(0.0) * si;
        gross(math::float::from_f64_floor(net))
    }

    /// `Pool.swap` after `amount_in` of coin `token_in` was transferred in, asking for
    /// `amount_out` of the other coin. The fee `amount_in·fee/10000` moves out to the fee
    /// contract, then the K check compares `_k` of the balances with `_k` of the reserves.
    /// Returns the pool after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientOutputAmount`] for `amount_out == 0`,
    /// [`PoolError::InsufficientLiquidity`] for `amount_out >= reserve`,
    /// [`PoolError::InsufficientInputAmount`] for `amount_in == 0`,
    /// [`PoolError::InvariantViolated`] when the K check fails, overflow, index errors.
    pub fn swap_exact(
        &self,
        token_in: usize,
        amount_in: U256,
        amount_out: U256,
    ) -> Result<Self, PoolError> {
        let j = 1usize.saturating_sub(token_in);
        pair(token_in, j)?;
        if amount_out.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        if amount_out >= self.reserves[j] {
            return Err(PoolError::InsufficientLiquidity);
        }
        let b_in = add(self.reserves[token_in], amount_in)?;
        let b_out = sub(self.reserves[j], amount_out)?;
        if amount_in.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let fee = self.fee_of(amount_in)?;
        if !fee.is_zero() {
            // `_update0/1` accrues `fee·1e18 / totalSupply` to the fee index (checked).
            let _ = div(mul(fee, E18)?, self.total_supply)?;
        }
        let b_in = sub(b_in, fee)?;
        let mut balances = self.reserves;
        balances[token_in] = b_in;
        balances[j] = b_out;
        let k_new = self.k_of(balances[0], balances[1])?;
        if k_new < self.k? {
            return Err(PoolError::InvariantViolated);
        }
        let mut next = self.clone();
        next.reserves = balances;
        next.refresh();
        debug_assert_eq!(next.k, Ok(k_new));
        Ok(next)
    }

    /// `Pool.mint` after `amounts` were transferred in. First mint: `√(a0·a1) − 1000` on raw
    /// amounts with 1000 locked; a stable pool also needs equal normalised amounts and
    /// `k > 1e10`. Later mints: `min(a_k·ts / r_k)`, floors. Returns the LP minted and the pool
    /// after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientLiquidityMinted`] when nothing would be minted,
    /// [`PoolError::InvalidFirstDeposit`] for a refused stable first deposit, overflow.
    pub fn mint_detailed(&self, amounts: [U256; 2]) -> Result<SolidlyMint, PoolError> {
        let [r0, r1] = self.reserves;
        let [a0, a1] = amounts;
        let b0 = add(r0, a0)?;
        let b1 = add(r1, a1)?;
        let ts = self.total_supply;
        let (minted, ts_after) = if ts.is_zero() {
            let minted = sub(sqrt(mul(a0, a1)?), U256::from(MINIMUM_LIQUIDITY))
                .map_err(|_| PoolError::InsufficientLiquidityMinted)?;
            if self.stable {
                if normalise(W::from_u256(a0), self.up[0])?
                    != normalise(W::from_u256(a1), self.up[1])?
                {
                    return Err(PoolError::InvalidFirstDeposit);
                }
                if self.k_of(a0, a1)? <= U256::from(MINIMUM_K) {
                    return Err(PoolError::InvalidFirstDeposit);
                }
            }
            (minted, add(U256::from(MINIMUM_LIQUIDITY), minted)?)
        } else {
            let l0 = mul_then_div(a0, ts, r0)?;
            let l1 = mul_then_div(a1, ts, r1)?;
            let minted = l0.min(l1);
            (minted, add(ts, minted)?)
        };
        if minted.is_zero() {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        let mut pool = self.clone();
        pool.reserves = [b0, b1];
        pool.total_supply = ts_after;
        pool.refresh();
        Ok(SolidlyMint { minted, pool })
    }

    /// `Pool.burn` of `lp`: `a_k = lp·r_k / ts`, floors. Returns the coins and the pool after.
    ///
    /// # Errors
    /// [`PoolError::BurnExceedsSupply`] for `lp > total_supply`,
    /// [`PoolError::InsufficientLiquidityBurned`] when a coin would pay 0, overflow.
    pub fn burn_detailed(&self, lp: U256) -> Result<SolidlyBurn, PoolError> {
        if lp > self.total_supply {
            return Err(PoolError::BurnExceedsSupply);
        }
        let [r0, r1] = self.reserves;
        let [a0, a1] = super::pro_rata_two(lp, [r0, r1], self.total_supply)?;
        let mut pool = self.clone();
        let (n0, n1) = (sub(r0, a0)?, sub(r1, a1)?);
        pool.reserves = [n0, n1];
        pool.total_supply = sub(self.total_supply, lp)?;
        pool.refresh();
        Ok(SolidlyBurn {
            amounts: [a0, a1],
            pool,
        })
    }

    pair_verbs!("(the fee has left it).");

    /// d(out)/d(in) of `i` into `j` at zero size, fee included, raw units. Volatile:
    /// `r_out/r_in·(1 − fee)`. Stable: `(3x²y + y³)/(x³ + 3xy²)` on normalised reserves, times
    /// `10^(dec_j − dec_i)` and `(1 − fee)`. 0 for an empty reserve or bad indices. Search only.
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if pair(i, j).is_err() {
            return 0.0;
        }
        let (r_in, r_out) = (self.reserves[i], self.reserves[j]);
        let g =
            f64::from(FEE_DENOMINATOR.saturating_sub(self.fee_bps)) / f64::from(FEE_DENOMINATOR);
        let (xi, yo) = (math::float::to_f64(r_in), math::float::to_f64(r_out));
        if !positive(xi) {
            return 0.0;
        }
        if !self.stable {
            return yo / xi * g;
        }
        let (si, sj) = (
            math::float::to_f64(self.scale[i]),
            math::float::to_f64(self.scale[j]),
        );
        let (x, y) = (xi / si, yo / sj);
        // dy/dx along x³y + xy³ = k, in normalised units, then back to raw units.
        let num = 3.0 * x * x * y + y * y * y;
        let den = x * x * x + 3.0 * x * y * y;
        if !positive(den) {
            return 0.0;
        }
        num / den * (sj / si) * g
    }
}

/// `x > 0`, false for NaN.
#[inline]
fn positive(x: f64) -> bool {
    x > 0.0
}
