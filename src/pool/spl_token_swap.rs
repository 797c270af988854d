//! SPL Token Swap (chain 101), constant-product curve, as `spl-token-swap` 3.0.0 computes it.
//!
//! What differs from Uniswap V2 ([`super::ConstantProduct`]):
//!
//! - two fees, the trade fee and the owner fee, each charged on the whole input and each at
//!   least one unit when its numerator is non-zero (`calculate_fee`), and both stay in the pool;
//! - the curve divides rounding the new destination balance *up* and then recomputes the least
//!   source balance that gives it (`checked_ceil_div`): the input actually swapped can be less
//!   than the input net of fees, and the unused part is not charged;
//! - a zero output, or a quotient of zero, is an error rather than a zero quote;
//! - the single-sided deposit and withdrawal go through spl-math's `PreciseNumber` (a 256-bit
//!   value scaled by 10^12 with half-up rounding, and its Newton square root).
//!
//! Balances and the supply are `u128` as in the program's curve; fee fields are `u64`.
//! Every checked operation of the crate that returns `None` is a [`PoolError`] here.
//!
//! After a swap the program mints pool tokens for the owner fee (`process_swap`): the pool's
//! new state carries that supply ([`SplTokenSwap::owner_fee_pool_tokens`]). The host fee only
//! moves part of those tokens to another account (the total minted is the same) and is not
//! modelled.

use super::{pair, Amounts, DIV0, OVERFLOW, UNDERFLOW};
use crate::error::{PoolError, PoolRevert};
use crate::math::wide::{to_u128, W};
use crate::math::{w_add, w_div, w_mul, w_sub};
use primitive_types::U256;
use smallvec::smallvec;

/// The program's `Fees` struct (eight `u64` fields, numerator / denominator pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplFees {
    /// Trade fee numerator (stays in the pool for liquidity providers).
    pub trade_fee_numerator: u64,
    /// Trade fee denominator.
    pub trade_fee_denominator: u64,
    /// Owner trade fee numerator (stays in the pool; the program mints pool tokens for it).
    pub owner_trade_fee_numerator: u64,
    /// Owner trade fee denominator.
    pub owner_trade_fee_denominator: u64,
    /// Owner withdraw fee numerator (in pool tokens, on withdrawals).
    pub owner_withdraw_fee_numerator: u64,
    /// Owner withdraw fee denominator.
    pub owner_withdraw_fee_denominator: u64,
    /// Host fee numerator (a share of the owner fee; recorded, unused by the math here).
    pub host_fee_numerator: u64,
    /// Host fee denominator.
    pub host_fee_denominator: u64,
}

/// An SPL Token Swap pool on the constant-product curve.
///
/// # Example
/// ```
/// use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
/// use swapzap::U256;
///
/// // Reserves 1e9 / 2e9 with a 0.25 % trade fee: 1e6 in gives a little under 2e6 · 0.9975.
/// let fees = SplFees { trade_fee_numerator: 25, trade_fee_denominator: 10_000, ..SplFees::default() };
/// let pool = SplTokenSwap::new([1_000_000_000, 2_000_000_000], 1_000_000, fees);
/// let out = pool.amount_out(0, 1, U256::from(1_000_000u64))?;
/// assert!(out < U256::from(1_995_000u64) && out > U256::from(1_990_000u64));
/// let (paid, after) = pool.swap(0, 1, U256::from(1_000_000u64))?;
/// assert_eq!(paid, out);
/// assert_eq!(after.balances()[1], U256::from(2_000_000_000u64) - out);
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplTokenSwap {
    balances: [U256; 2],
    native: [u128; 2],
    total_supply: u128,
    fees: SplFees,
}

/// The outcome of [`SplTokenSwap::swap_detailed`] (the crate's `SwapResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplSwap {
    /// Destination tokens paid out.
    pub amount_out: u128,
    /// Source tokens taken: what the curve used plus both fees (at most the input).
    pub source_amount_swapped: u128,
    /// Trade fee, in source tokens.
    pub trade_fee: u128,
    /// Owner trade fee, in source tokens.
    pub owner_fee: u128,
    /// Source balance after the swap.
    pub new_source_amount: u128,
    /// Destination balance after the swap.
    pub new_destination_amount: u128,
}

#[inline]
fn add(a: u128, b: u128) -> Result<u128, PoolError> {
    a.checked_add(b).ok_or(OVERFLOW)
}

#[inline]
fn sub(a: u128, b: u128) -> Result<u128, PoolError> {
    a.checked_sub(b).ok_or(UNDERFLOW)
}

#[inline]
fn mul(a: u128, b: u128) -> Result<u128, PoolError> {
    a.checked_mul(b).ok_or(OVERFLOW)
}

#[inline]
fn div_rem(a: u128, b: u128) -> Result<(u128, u128), PoolError> {
    Ok((a.checked_div(b).ok_or(DIV0)?, a.checked_rem(b).ok_or(DIV0)?))
}

/// `calculate_fee`: `floor(x * num / den)`, 0 when `num` or `x` is 0, and at least 1 otherwise.
///
/// # Errors
/// Overflow of the `u128` product, or a zero denominator with a non-zero numerator.
pub fn calculate_fee(x: u128, num: u64, den: u64) -> Result<u128, PoolError> {
    if num == 0 || x == 0 {
        return Ok(0);
    }
    let (f, _) = div_rem(mul(x, u128::from(num))?, u128::from(den))?;
    Ok(f.max(1))
}

/// spl-math `checked_ceil_div`: `(ceil(a / b), the least b' with ceil(a / b') = that)`;
/// a quotient of 0 is an error.
fn ceil_div(a: u128, b: u128) -> Result<(u128, u128), PoolError> {
    let (q, r) = div_rem(a, b)?;
    if q == 0 {
        return Err(PoolError::InsufficientOutputAmount);
    }
    if r == 0 {
        return Ok((q, b));
    }
    let q = add(q, 1)?;
    let (b2, r2) = div_rem(a, q)?;
    Ok((q, if r2 > 0 { add(b2, 1)? } else { b2 }))
}

fn small(x: U256) -> Result<u128, PoolError> {
    to_u128(&x).ok_or(OVERFLOW)
}

impl SplTokenSwap {
    /// A pool from its swap-account balances, pool-token supply and fees. Any values are
    /// accepted, as the crate accepts them; operations fail where the crate's do.
    #[must_use]
    pub fn new(balances: [u128; 2], total_supply: u128, fees: SplFees) -> Self {
        Self {
            balances: [U256::from(balances[0]), U256::from(balances[1])],
            native: balances,
            total_supply,
            fees,
        }
    }

    two_coin_accessors!(balances, "The swap-account balances.", "Pool-token supply.");

    /// The fee fields.
    #[must_use]
    pub fn fees(&self) -> SplFees {
        self.fees
    }

    /// `SwapCurve::swap` for `amount_in` of coin `i` (0 = A to B, 1 = B to A).
    ///
    /// # Errors
    /// Where the crate returns `None`: overflow, fees above the input, a zero output.
    pub fn swap_detailed(&self, i: usize, amount_in: u128) -> Result<SplSwap, PoolError> {
        pair(i, usize::from(i == 0))?;
        let (src, dst) = (self.native[i], self.native[usize::from(i == 0)]);
        let f = &self.fees;
        let trade_fee = calculate_fee(amount_in, f.trade_fee_numerator, f.trade_fee_denominator)?;
        let owner_fee = calculate_fee(
            amount_in,
            f.owner_trade_fee_numerator,
            f.owner_trade_fee_denominator,
        )?;
        let total_fees = add(trade_fee, owner_fee)?;
        let less = sub(amount_in, total_fees)?;
        let invariant = mul(src, dst)?;
        let (new_dst, new_src) = ceil_div(invariant, add(src, less)?)?;
        let used = sub(new_src, src)?;
        let amount_out = sub(dst, new_dst)?;
        if amount_out == 0 {
            return Err(PoolError::InsufficientOutputAmount);
        }
        let source_amount_swapped = add(used, total_fees)?;
        Ok(SplSwap {
            amount_out,
            source_amount_swapped,
            trade_fee,
            owner_fee,
            new_source_amount: add(src, source_amount_swapped)?,
            new_destination_amount: sub(dst, amount_out)?,
        })
    }

    /// The largest offer at most `offered` found that the program takes whole: the program
    /// transfers only `source_amount_swapped` from the user, so offering `offered` spends less
    /// than `offered` when the curve's rounding leaves part of it unused. Offering the amount
    /// taken pays at least as much (its fees are no higher, so its net input is no lower), and
    /// repeating that reaches an offer whose `source_amount_swapped` is the offer itself.
    ///
    /// # Errors
    /// As [`Self::swap_detailed`] on `offered` or on an offer on the way;
    /// [`PoolError::InvalidState`] if no such offer is reached in 64 rounds.
    pub fn exact_offer(&self, i: usize, offered: u128) -> Result<u128, PoolError> {
        let mut x = offered;
        for _ in 0..64 {
            let taken = self.swap_detailed(i, x)?.source_amount_swapped;
            if taken >= x {
                return Ok(x);
            }
            x = taken;
        }
        Err(PoolError::InvalidState(
            crate::error::PoolStateProblem::SplOfferNoRound,
        ))
    }

    /// Output of `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// As [`Self::swap_detailed`]; `dx` above `u128`.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        Ok(U256::from(self.swap_detailed(i, small(dx)?)?.amount_out))
    }

    /// The least input of coin `i` whose output of coin `j` is at least `dy`.
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no input reaches `dy`.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        let want = super::exact_out_target(i, j, dy, &self.balances)?;
        let out = |x: u128| self.swap_detailed(i, x).map(|s| s.amount_out).unwrap_or(0);
        // The fee-free ideal input (a float guess only), then an exact monotone search.
        let (r_in, r_out) = (self.native[i] as f64, self.native[j] as f64);
        let guess = r_in * want as f64 / (r_out - want as f64);
        super::least_input(guess, want, out).map(U256::from)
    }

    /// The swap as the program executes it: the output and the pool after, the fees in its
    /// balances and the owner-fee pool tokens ([`Self::owner_fee_pool_tokens`]) in its supply.
    ///
    /// # Errors
    /// As [`Self::swap_detailed`] and [`Self::owner_fee_pool_tokens`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        pair(i, j)?;
        let s = self.swap_detailed(i, small(dx)?)?;
        let mut next = self.native;
        next[i] = s.new_source_amount;
        next[j] = s.new_destination_amount;
        let after = Self::new(next, self.total_supply, self.fees);
        let minted = after.owner_fee_pool_tokens(i, s.owner_fee)?;
        let supply = add(self.total_supply, minted)?;
        Ok((
            U256::from(s.amount_out),
            Self {
                total_supply: supply,
                ..after
            },
        ))
    }

    /// The pool tokens spl-token-swap 3.0.0's `process_swap` mints for the owner fee, called
    /// on the pool *after* the swap (new balances, supply before the mint): `SwapCurve::
    /// withdraw_single_token_type_exact_out(owner_fee, ...)` with `i` the swap's source coin
    /// ([`Self::withdraw_single_token_type_exact_out`]: the trade fee on half the owner fee
    /// taken off, rounded up; 0 for a zero owner fee or a zero supply). The program mints
    /// them only when non-zero, through spl-token `MintTo` (a `u64` amount and supply).
    ///
    /// # Errors
    /// [`PoolError::Revert`] where the program fails the swap: the calculation returning
    /// `None` (`FeeCalculationFailure`), or a non-zero amount or the supply after it above
    /// `u64` (`to_u64`, `MintTo`'s supply overflow).
    pub fn owner_fee_pool_tokens(&self, i: usize, owner_fee: u128) -> Result<u128, PoolError> {
        let minted = self
            .withdraw_single_token_type_exact_out(i, owner_fee)
            .map_err(|_| PoolError::Revert(PoolRevert::SplOwnerFeeCalculation))?;
        if minted > 0 {
            let fits = matches!(self.total_supply.checked_add(minted), Some(t) if t <= u128::from(u64::MAX));
            if !fits {
                return Err(PoolError::Revert(PoolRevert::SplOwnerFeeAboveU64));
            }
        }
        Ok(minted)
    }

    /// `pool_tokens_to_trading_tokens`: coins worth `pool_tokens`, rounded down or (for
    /// `round_up`, the program's deposit) up where the floored value is non-zero.
    ///
    /// # Errors
    /// Overflow, or a zero supply.
    pub fn pool_tokens_to_trading_tokens(
        &self,
        pool_tokens: u128,
        round_up: bool,
    ) -> Result<[u128; 2], PoolError> {
        let mut out = [0u128; 2];
        for (o, &bal) in out.iter_mut().zip(&self.native) {
            let (q, r) = div_rem(mul(pool_tokens, bal)?, self.total_supply)?;
            *o = if round_up && r > 0 && q > 0 {
                add(q, 1)?
            } else {
                q
            };
        }
        Ok(out)
    }

    /// `Fees::owner_withdraw_fee`: the pool tokens the owner takes from a withdrawal.
    ///
    /// # Errors
    /// As [`calculate_fee`].
    pub fn owner_withdraw_fee(&self, pool_tokens: u128) -> Result<u128, PoolError> {
        calculate_fee(
            pool_tokens,
            self.fees.owner_withdraw_fee_numerator,
            self.fees.owner_withdraw_fee_denominator,
        )
    }

    /// The single-sided operations' first part: `None` for a zero amount, else the amount
    /// less the trade fee on half of it (at least one unit), over coin `i`'s balance.
    fn single_side_ratio(&self, i: usize, amount: u128) -> Result<Option<Precise>, PoolError> {
        pair(i, usize::from(i == 0))?;
        if amount == 0 {
            return Ok(None);
        }
        let half = (amount >> 1).max(1);
        let fee = calculate_fee(
            half,
            self.fees.trade_fee_numerator,
            self.fees.trade_fee_denominator,
        )?;
        let amount = sub(amount, fee)?;
        Ok(Some(
            Precise::new(amount)?.div(Precise::new(self.native[i])?)?,
        ))
    }

    /// `SwapCurve::deposit_single_token_type`: pool tokens for depositing `amount` of coin
    /// `i` alone (rounded down). The trade fee on half the amount is taken off first.
    ///
    /// # Errors
    /// Where the crate returns `None`.
    pub fn deposit_single_token_type(&self, i: usize, amount: u128) -> Result<u128, PoolError> {
        let Some(ratio) = self.single_side_ratio(i, amount)? else {
            return Ok(0);
        };
        let root = Precise::ONE.add(ratio)?.sqrt()?.sub(Precise::ONE)?;
        let tokens = Precise::new(self.total_supply)?.mul(root)?;
        tokens.floor()?.to_imprecise()
    }

    /// `SwapCurve::withdraw_single_token_type_exact_out`: pool tokens to burn for exactly
    /// `amount` of coin `i` out (rounded up), the trade fee on half the amount included.
    ///
    /// # Errors
    /// Where the crate returns `None` (among others: `amount` above the balance).
    pub fn withdraw_single_token_type_exact_out(
        &self,
        i: usize,
        amount: u128,
    ) -> Result<u128, PoolError> {
        let Some(ratio) = self.single_side_ratio(i, amount)? else {
            return Ok(0);
        };
        let root = Precise::ONE.sub(Precise::ONE.sub(ratio)?.sqrt()?)?;
        let tokens = Precise::new(self.total_supply)?.mul(root)?;
        tokens.ceiling()?.to_imprecise()
    }

    /// The program's `DepositAllTokenTypes` for the most pool tokens `amounts` (both coins) pay
    /// for: `P = min_k floor(amounts[k] · supply / balance[k])`, and the coins it takes,
    /// `pool_tokens_to_trading_tokens(P, ceiling)`. Returns `(P, coins taken)`; the coins
    /// taken are at most `amounts`, and each is non-zero (the program refuses a zero one).
    ///
    /// # Errors
    /// A zero supply or balance (the program's first deposit is not modelled), overflow,
    /// [`PoolError::InsufficientLiquidityMinted`] when no pool token is paid for or a coin
    /// would be zero.
    pub fn deposit_all_token_types(
        &self,
        amounts: [u128; 2],
    ) -> Result<(u128, [u128; 2]), PoolError> {
        if self.total_supply == 0 || self.native.contains(&0) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SplDepositEmptyPool,
            ));
        }
        let mut pool_tokens = u128::MAX;
        for (&a, &bal) in amounts.iter().zip(&self.native) {
            let p = crate::math::mul_div(
                U256::from(a),
                U256::from(self.total_supply),
                U256::from(bal),
            )?;
            pool_tokens = pool_tokens.min(to_u128(&p).unwrap_or(u128::MAX));
        }
        if pool_tokens == 0 {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        let taken = self.pool_tokens_to_trading_tokens(pool_tokens, true)?;
        if taken.contains(&0) || taken[0] > amounts[0] || taken[1] > amounts[1] {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        Ok((pool_tokens, taken))
    }

    /// A deposit. One coin (`amounts` with one non-zero entry): the program's
    /// `DepositSingleTokenTypeExactAmountIn`, pool tokens from
    /// [`Self::deposit_single_token_type`], the whole amount entering the pool. Both coins:
    /// `DepositAllTokenTypes` ([`Self::deposit_all_token_types`]), which takes exactly
    /// `ceil(P · balance / supply)` of each coin for `P` pool tokens; `amounts` must be
    /// exactly what it takes (a deposit step spends what the program transfers).
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] for not two amounts, or two amounts the program would not
    /// take whole; [`PoolError::InsufficientLiquidityMinted`] for zero pool tokens; as
    /// [`Self::deposit_all_token_types`].
    pub fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        let [a, b] = amounts else {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SplDepositTwoAmounts,
            ));
        };
        let (a, b) = (small(*a)?, small(*b)?);
        let (minted, taken) = match (a, b) {
            (0, 0) => return Err(PoolError::InsufficientInputAmount),
            (x, 0) => (self.deposit_single_token_type(0, x)?, [x, 0]),
            (0, x) => (self.deposit_single_token_type(1, x)?, [0, x]),
            _ => self.deposit_all_token_types([a, b])?,
        };
        if taken != [a, b] {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SplDepositNotProportional,
            ));
        }
        if minted == 0 {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        let next = [add(self.native[0], a)?, add(self.native[1], b)?];
        Ok((
            U256::from(minted),
            Self::new(next, add(self.total_supply, minted)?, self.fees),
        ))
    }

    /// `withdraw_all_token_types` for `lp` pool tokens: the owner withdraw fee is taken in
    /// pool tokens, the rest is burned for both coins rounded down; the pool after.
    ///
    /// # Errors
    /// Burning more than the supply; a coin that would pay out zero from a non-empty balance.
    pub fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        let lp = small(lp)?;
        if lp > self.total_supply {
            return Err(PoolError::BurnExceedsSupply);
        }
        let fee = self.owner_withdraw_fee(lp)?;
        let burned = sub(lp, fee)?;
        let out = self.pool_tokens_to_trading_tokens(burned, false)?;
        let mut next = self.native;
        for (n, &o) in next.iter_mut().zip(&out) {
            let o = o.min(*n);
            if o == 0 && *n != 0 {
                return Err(PoolError::InsufficientLiquidityBurned);
            }
            *n = sub(*n, o)?;
        }
        Ok((
            smallvec![U256::from(out[0]), U256::from(out[1])],
            Self::new(next, sub(self.total_supply, burned)?, self.fees),
        ))
    }

    /// Marginal rate of `i` into `j` at zero size, both fees included (float, search only).
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if pair(i, j).is_err() || self.native[i] == 0 {
            return 0.0;
        }
        let keep = |n: u64, d: u64| {
            if n == 0 || d == 0 {
                1.0
            } else {
                1.0 - n as f64 / d as f64
            }
        };
        let f = &self.fees;
        let g = keep(f.trade_fee_numerator, f.trade_fee_denominator)
            + keep(f.owner_trade_fee_numerator, f.owner_trade_fee_denominator)
            - 1.0;
        self.native[j] as f64 / self.native[i] as f64 * g.max(0.0)
    }
}

/// spl-math `PreciseNumber`: a 256-bit value scaled by 10^12, half-up rounding in `mul` and
/// `div`, each with the crate's fall-back when the widened product overflows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Precise(W);

const PRECISE_ONE: u128 = 1_000_000_000_000;
const HALF: W = W::small(PRECISE_ONE / 2);
const ONE_W: W = W::small(PRECISE_ONE);

impl Precise {
    const ONE: Precise = Precise(ONE_W);

    fn new(x: u128) -> Result<Self, PoolError> {
        Ok(Self(w_mul(W::small(x), ONE_W)?))
    }

    fn add(self, o: Self) -> Result<Self, PoolError> {
        Ok(Self(w_add(self.0, o.0)?))
    }

    fn sub(self, o: Self) -> Result<Self, PoolError> {
        Ok(Self(w_sub(self.0, o.0)?))
    }

    fn mul(self, o: Self) -> Result<Self, PoolError> {
        match self.0.checked_mul(o.0) {
            Some(p) => Ok(Self(w_div(w_add(p, HALF)?, ONE_W)?)),
            None => {
                let (big, other) = if self.0 >= o.0 {
                    (self.0, o.0)
                } else {
                    (o.0, self.0)
                };
                Ok(Self(w_mul(w_div(big, ONE_W)?, other)?))
            }
        }
    }

    fn div(self, o: Self) -> Result<Self, PoolError> {
        if o.0.is_zero() {
            return Err(DIV0);
        }
        match self.0.checked_mul(ONE_W) {
            Some(p) => Ok(Self(w_div(w_add(p, HALF)?, o.0)?)),
            None => Ok(Self(w_mul(w_div(w_add(self.0, HALF)?, o.0)?, ONE_W)?)),
        }
    }

    fn floor(self) -> Result<Self, PoolError> {
        Ok(Self(w_mul(w_div(self.0, ONE_W)?, ONE_W)?))
    }

    fn ceiling(self) -> Result<Self, PoolError> {
        let up = w_add(self.0, W::small(PRECISE_ONE - 1))?;
        Ok(Self(w_mul(w_div(up, ONE_W)?, ONE_W)?))
    }

    fn to_imprecise(self) -> Result<u128, PoolError> {
        let v = w_div(w_add(self.0, HALF)?, ONE_W)?;
        if v.hi != 0 {
            return Err(OVERFLOW);
        }
        Ok(v.lo)
    }

    /// Newton's square root from the guess `(x + 1) / 2`, at most 100 rounds, stopping when
    /// two guesses differ by less than 100 raw units; inputs above `u128::MAX` (as numbers)
    /// are refused.
    fn sqrt(self) -> Result<Self, PoolError> {
        let max = w_mul(W::small(u128::MAX), ONE_W)?;
        if self.0 > max {
            return Err(OVERFLOW);
        }
        if self.0.is_zero() {
            return Ok(self);
        }
        let two = Precise::new(2)?;
        let mut guess = self.add(Self::ONE)?.div(two)?;
        let mut last = guess;
        for _ in 0..100 {
            let first = Self::ONE.mul(guess)?;
            let second = self.div(guess)?;
            guess = first.add(second)?.div(two)?;
            let diff = if last.0 >= guess.0 {
                w_sub(last.0, guess.0)?
            } else {
                w_sub(guess.0, last.0)?
            };
            if diff < W::small(100) {
                break;
            }
            last = guess;
        }
        Ok(guess)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn minimum_fee_is_one_unit() {
        assert_eq!(calculate_fee(10, 1, 1000).unwrap(), 1);
        assert_eq!(calculate_fee(0, 1, 1000).unwrap(), 0);
        assert_eq!(calculate_fee(10, 0, 0).unwrap(), 0);
        assert!(calculate_fee(10, 1, 0).is_err());
    }

    #[test]
    fn swap_recomputes_the_input_it_used() {
        // inv = 1000 * 50000; new source 1099 (1 fee): ceil(50e6 / 1099) = 45496, and the
        // least source giving it is ceil(50e6 / 45496) = 1099.
        let fees = SplFees {
            trade_fee_numerator: 1,
            trade_fee_denominator: 100,
            ..SplFees::default()
        };
        let p = SplTokenSwap::new([1000, 50_000], 0, fees);
        let s = p.swap_detailed(0, 100).unwrap();
        assert_eq!(s.trade_fee, 1);
        assert_eq!(s.amount_out, 50_000 - 45_496);
        assert_eq!(s.source_amount_swapped, 100);
    }

    #[test]
    fn precise_sqrt_of_four() {
        let r = Precise::new(4).unwrap().sqrt().unwrap();
        assert_eq!(r.floor().unwrap().to_imprecise().unwrap(), 2);
    }
}
