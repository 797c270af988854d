//! Saber StableSwap (chain 101): the two-coin Curve-style stable pool, as `stable-swap-math`
//! 1.8.1 computes it.
//!
//! What differs from Curve ([`super::StableSwap`]):
//!
//! - the amplification is a whole `A` with no `A_PRECISION`, ramped linearly between two
//!   timestamps; the snapshot carries the ramp *and the current time* as data ([`SaberAmp`]),
//!   the library reads no clock;
//! - balances are raw `u64` amounts (no rate scaling, the pool pairs same-decimal coins) and
//!   D lives in a 192-bit integer: any intermediate at or above 2^192 is an error;
//! - D and y stop at a difference of at most 1 after at most 256 rounds and return the last
//!   value without an error;
//! - the swap pays one unit less than the invariant allows (`dy = dst - y - 1`), takes the
//!   trade fee from the output, and the admin share of it leaves the pool;
//! - fee fractions go through two `mul_div` helpers whose `u64` paths overflow where the
//!   `u128` path would not (reproduced: they decide some errors);
//! - the deposit has no first-deposit branch (an empty pool is an error).

use super::{pair, Amounts, DIV0, OVERFLOW, UNDERFLOW};
use crate::error::PoolError;
use crate::math::wide::{to_u128, W};
use primitive_types::U256;
use smallvec::smallvec;

/// The pool's `Fees` (eight `u64` fields, numerator / denominator pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SaberFees {
    /// Admin share of the trade fee, numerator.
    pub admin_trade_fee_numerator: u64,
    /// Admin share of the trade fee, denominator.
    pub admin_trade_fee_denominator: u64,
    /// Admin share of the withdraw fee, numerator.
    pub admin_withdraw_fee_numerator: u64,
    /// Admin share of the withdraw fee, denominator.
    pub admin_withdraw_fee_denominator: u64,
    /// Trade fee numerator (on the swap output; normalised for deposits and one-coin exits).
    pub trade_fee_numerator: u64,
    /// Trade fee denominator.
    pub trade_fee_denominator: u64,
    /// Withdraw fee numerator (proportional withdrawals).
    pub withdraw_fee_numerator: u64,
    /// Withdraw fee denominator.
    pub withdraw_fee_denominator: u64,
}

/// The amplification ramp and the time it is read at (unix seconds, as data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SaberAmp {
    /// `A` before the ramp.
    pub initial_amp_factor: u64,
    /// `A` after the ramp.
    pub target_amp_factor: u64,
    /// Ramp start.
    pub start_ramp_ts: i64,
    /// Ramp stop (0: no ramp).
    pub stop_ramp_ts: i64,
    /// The time the pool is priced at.
    pub current_ts: i64,
}

impl SaberAmp {
    /// A constant `A` (no ramp).
    #[must_use]
    pub fn constant(a: u64) -> Self {
        Self {
            initial_amp_factor: a,
            target_amp_factor: a,
            ..Self::default()
        }
    }

    /// `compute_amp_factor`: `A` at `current_ts`.
    ///
    /// # Errors
    /// A ramp read before its start or with a negative length; overflow.
    pub fn amp_factor(&self) -> Result<u64, PoolError> {
        if self.current_ts >= self.stop_ramp_ts {
            return Ok(self.target_amp_factor);
        }
        let range = self
            .stop_ramp_ts
            .checked_sub(self.start_ramp_ts)
            .and_then(|r| u128::try_from(r).ok())
            .ok_or(PoolError::InvalidState(
                crate::error::PoolStateProblem::AmplificationRamp,
            ))?;
        let delta = self
            .current_ts
            .checked_sub(self.start_ramp_ts)
            .and_then(|d| u128::try_from(d).ok())
            .ok_or(PoolError::InvalidState(
                crate::error::PoolStateProblem::AmplificationRamp,
            ))?;
        let (init, target) = (self.initial_amp_factor, self.target_amp_factor);
        let step = |span: u64| -> Result<u64, PoolError> {
            let v = u128::from(span)
                .checked_mul(delta)
                .ok_or(OVERFLOW)?
                .checked_div(range)
                .ok_or(DIV0)?;
            u64::try_from(v).map_err(|_| OVERFLOW)
        };
        if target >= init {
            init.checked_add(step(target.saturating_sub(init))?)
                .ok_or(OVERFLOW)
        } else {
            init.checked_sub(step(init.saturating_sub(target))?)
                .ok_or(UNDERFLOW)
        }
    }
}

/// A Saber StableSwap pool state.
///
/// # Example
/// ```
/// use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
/// use swapzap::U256;
///
/// // Balanced 1e12 / 1e12 at A = 100, a 0.04 % trade fee on the output.
/// let amp = SaberAmp { initial_amp_factor: 100, target_amp_factor: 100, ..SaberAmp::default() };
/// let fees = SaberFees {
///     trade_fee_numerator: 4,
///     trade_fee_denominator: 10_000,
///     admin_trade_fee_denominator: 1, // the program divides by every denominator
///     admin_withdraw_fee_denominator: 1,
///     withdraw_fee_denominator: 1,
///     ..SaberFees::default()
/// };
/// let pool = SaberStableSwap::new([1_000_000_000_000, 1_000_000_000_000], 2_000_000_000_000, amp, fees);
/// let out = pool.amount_out(0, 1, U256::from(1_000_000u64))?;
/// assert!(out < U256::from(1_000_000u64) && out > U256::from(999_000u64));
/// let (paid, after) = pool.swap(0, 1, U256::from(1_000_000u64))?;
/// assert_eq!(paid, out);
/// assert!(after.amount_out(0, 1, U256::from(1_000_000u64))? <= out); // the price moved
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaberStableSwap {
    balances: [U256; 2],
    native: [u64; 2],
    total_supply: u64,
    amp: SaberAmp,
    /// `amp.amp_factor()`, computed once (an error makes every operation fail).
    amp_factor: Result<u64, PoolError>,
    fees: SaberFees,
}

/// The outcome of [`SaberStableSwap::swap_detailed`] (the crate's `SwapResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaberSwap {
    /// Destination tokens paid out.
    pub amount_out: u64,
    /// Trade fee (in destination tokens).
    pub fee: u64,
    /// Admin share of the fee (leaves the pool).
    pub admin_fee: u64,
    /// Source balance after.
    pub new_source_amount: u64,
    /// Destination balance after (`dst - amount_out - admin_fee`).
    pub new_destination_amount: u64,
}

/// One coin of a proportional withdrawal ([`SaberStableSwap::withdraw`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaberWithdrawn {
    /// Paid out (after the withdraw fee).
    pub amount: u64,
    /// Withdraw fee.
    pub fee: u64,
    /// Admin share of the withdraw fee (leaves the pool).
    pub admin_fee: u64,
}

/// `mul_div`: `u128` when a factor exceeds 2^32, else a `u64` product that can overflow.
fn mul_div(a: u64, b: u64, c: u64) -> Result<u64, PoolError> {
    mul_div_at(a, b, c, 1 << 32, 1 << 32)
}

/// `mul_div_imbalanced`: `u128` when `a > 2^48` or `b > 2^16`, else `u64`.
fn mul_div_imbalanced(a: u64, b: u64, c: u64) -> Result<u64, PoolError> {
    mul_div_at(a, b, c, 1 << 48, 1 << 16)
}

fn mul_div_at(a: u64, b: u64, c: u64, max_a: u64, max_b: u64) -> Result<u64, PoolError> {
    if a > max_a || b > max_b {
        let v = u128::from(a)
            .checked_mul(u128::from(b))
            .ok_or(OVERFLOW)?
            .checked_div(u128::from(c))
            .ok_or(DIV0)?;
        u64::try_from(v).map_err(|_| OVERFLOW)
    } else {
        a.checked_mul(b).ok_or(OVERFLOW)?.checked_div(c).ok_or(DIV0)
    }
}

/// 2^192: the bound of the crate's `U192`.
const U192_HI_LIMIT: u128 = 1 << 64;

/// A `U192` value (kept in a 256-bit [`W`], checked against 2^192 after every step).
#[inline]
fn u192(x: Option<W>) -> Result<W, PoolError> {
    match x {
        Some(v) if v.hi < U192_HI_LIMIT => Ok(v),
        _ => Err(OVERFLOW),
    }
}

#[inline]
fn mul192(a: W, b: W) -> Result<W, PoolError> {
    u192(a.checked_mul(b))
}

#[inline]
fn add192(a: W, b: W) -> Result<W, PoolError> {
    u192(a.checked_add(b))
}

#[inline]
fn div192(a: W, b: W) -> Result<W, PoolError> {
    a.checked_div_rem(b).map(|(q, _)| q).ok_or(DIV0)
}

#[inline]
fn w(x: u64) -> W {
    W::small(u128::from(x))
}

/// |a - b| <= 1.
#[inline]
fn close(a: W, b: W) -> bool {
    let d = if a > b {
        a.checked_sub(b)
    } else {
        b.checked_sub(a)
    };
    d.is_some_and(|d| d <= W::ONE)
}

fn to_u64(x: W) -> Result<u64, PoolError> {
    if x.hi != 0 {
        return Err(OVERFLOW);
    }
    u64::try_from(x.lo).map_err(|_| OVERFLOW)
}

/// `compute_d(a, b)` at amplification `amp`.
///
/// # Errors
/// `u64` overflow of the sum or the doubled balances, a zero balance beside a non-zero one,
/// `A = 0`, any `U192` overflow.
pub fn compute_d(amp: u64, a: u64, b: u64) -> Result<W, PoolError> {
    let sum = a.checked_add(b).ok_or(OVERFLOW)?;
    if sum == 0 {
        return Ok(W::ZERO);
    }
    let a2 = w(a.checked_mul(2).ok_or(OVERFLOW)?);
    let b2 = w(b.checked_mul(2).ok_or(OVERFLOW)?);
    let ann = amp.checked_mul(2).ok_or(OVERFLOW)?;
    let leverage = W::small(
        u128::from(sum)
            .checked_mul(u128::from(ann))
            .ok_or(OVERFLOW)?,
    );
    let ann_minus_one = w(ann.checked_sub(1).ok_or(UNDERFLOW)?);
    let mut d = w(sum);
    for _ in 0..256 {
        let d_prod = div192(mul192(d, d)?, a2)?;
        let d_prod = div192(mul192(d_prod, d)?, b2)?;
        let prev = d;
        let num = mul192(d, add192(mul192(d_prod, W::small(2))?, leverage)?)?;
        let den = add192(mul192(d, ann_minus_one)?, mul192(d_prod, W::small(3))?)?;
        d = div192(num, den)?;
        if close(d, prev) {
            break;
        }
    }
    Ok(d)
}

/// `compute_y_raw(x, d)`: the other balance at invariant `d` when one balance is `x`.
///
/// # Errors
/// `A = 0`, `x = 0`, overflow, a negative Newton denominator.
pub fn compute_y(amp: u64, x: u64, d: W) -> Result<W, PoolError> {
    let ann = amp.checked_mul(2).ok_or(OVERFLOW)?;
    let x2 = w(x.checked_mul(2).ok_or(OVERFLOW)?);
    let ann2 = w(ann.checked_mul(2).ok_or(OVERFLOW)?);
    let c = div192(mul192(d, d)?, x2)?;
    let c = div192(mul192(c, d)?, ann2)?;
    let b = add192(div192(d, w(ann))?, w(x))?;
    let mut y = d;
    for _ in 0..256 {
        let prev = y;
        let num = add192(mul192(y, y)?, c)?;
        let den = add192(mul192(y, W::small(2))?, b)?
            .checked_sub(d)
            .ok_or(UNDERFLOW)?;
        y = div192(num, den)?;
        if close(y, prev) {
            break;
        }
    }
    Ok(y)
}

#[inline]
fn other(i: usize) -> usize {
    usize::from(i == 0)
}

fn small(x: U256) -> Result<u64, PoolError> {
    to_u128(&x)
        .and_then(|v| u64::try_from(v).ok())
        .ok_or(OVERFLOW)
}

impl SaberStableSwap {
    /// A pool from its balances, LP supply, ramp (with the current time) and fees. Any values
    /// are accepted, as the crate accepts them; operations fail where the crate's do.
    #[must_use]
    pub fn new(balances: [u64; 2], total_supply: u64, amp: SaberAmp, fees: SaberFees) -> Self {
        Self {
            balances: [U256::from(balances[0]), U256::from(balances[1])],
            native: balances,
            total_supply,
            amp,
            amp_factor: amp.amp_factor(),
            fees,
        }
    }

    two_coin_accessors!(balances, "The reserves.", "LP supply.");

    /// The ramp and current time.
    #[must_use]
    pub fn amp(&self) -> SaberAmp {
        self.amp
    }

    /// The fees.
    #[must_use]
    pub fn fees(&self) -> SaberFees {
        self.fees
    }

    /// `A` at the pool's current time.
    ///
    /// # Errors
    /// As [`SaberAmp::amp_factor`].
    pub fn amp_factor(&self) -> Result<u64, PoolError> {
        self.amp_factor
    }

    /// D of balances `a`, `b` at the pool's `A`.
    ///
    /// # Errors
    /// As [`compute_d`].
    pub fn compute_d(&self, a: u64, b: u64) -> Result<W, PoolError> {
        // The crate answers 0 for empty balances before it reads A (so a bad ramp does not
        // fail there).
        if a.checked_add(b) == Some(0) {
            return Ok(W::ZERO);
        }
        compute_d(self.amp_factor?, a, b)
    }

    /// y for `x` at invariant `d` (must fit `u64`).
    ///
    /// # Errors
    /// As [`compute_y`]; a result at or above 2^64.
    pub fn compute_y(&self, x: u64, d: W) -> Result<u64, PoolError> {
        to_u64(compute_y(self.amp_factor?, x, d)?)
    }

    fn normalized_trade_fee(&self, amount: u64) -> Result<u64, PoolError> {
        let adj = mul_div(self.fees.trade_fee_numerator, 2, 4)?;
        mul_div(amount, adj, self.fees.trade_fee_denominator)
    }

    /// `swap_to`: `amount_in` of coin `i` into the other coin.
    ///
    /// # Errors
    /// Where the crate returns `None`.
    pub fn swap_detailed(&self, i: usize, amount_in: u64) -> Result<SaberSwap, PoolError> {
        pair(i, other(i))?;
        let (src, dst) = (self.native[i], self.native[other(i)]);
        let new_src = src.checked_add(amount_in).ok_or(OVERFLOW)?;
        let y = self.compute_y(new_src, self.compute_d(src, dst)?)?;
        let dy = dst
            .checked_sub(y)
            .and_then(|v| v.checked_sub(1))
            .ok_or(UNDERFLOW)?;
        let f = &self.fees;
        let fee = mul_div_imbalanced(dy, f.trade_fee_numerator, f.trade_fee_denominator)?;
        let admin_fee = mul_div_imbalanced(
            fee,
            f.admin_trade_fee_numerator,
            f.admin_trade_fee_denominator,
        )?;
        let amount_out = dy.checked_sub(fee).ok_or(UNDERFLOW)?;
        let new_dst = dst
            .checked_sub(amount_out)
            .and_then(|v| v.checked_sub(admin_fee))
            .ok_or(UNDERFLOW)?;
        Ok(SaberSwap {
            amount_out,
            fee,
            admin_fee,
            new_source_amount: new_src,
            new_destination_amount: new_dst,
        })
    }

    /// Output of `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// As [`Self::swap_detailed`]; `dx` above `u64`.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        Ok(U256::from(self.swap_detailed(i, small(dx)?)?.amount_out))
    }

    /// The least input of coin `i` whose output of coin `j` is at least `dy`.
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no `u64` input reaches `dy`.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        let want = super::exact_out_target(i, j, dy, &self.balances)?;
        let out = |x: u128| {
            u64::try_from(x)
                .ok()
                .and_then(|x| self.swap_detailed(i, x).ok())
                .map_or(0, |s| u128::from(s.amount_out))
        };
        let guess = want as f64 / self.marginal_rate(i, j).max(1e-300);
        super::least_input(guess, want, out).map(U256::from)
    }

    /// The swap as the program executes it: the output and the pool after (the admin fee
    /// leaves the pool).
    ///
    /// # Errors
    /// As [`Self::swap_detailed`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        pair(i, j)?;
        let s = self.swap_detailed(i, small(dx)?)?;
        let mut next = self.native;
        next[i] = s.new_source_amount;
        next[j] = s.new_destination_amount;
        Ok((U256::from(s.amount_out), self.with(next, self.total_supply)))
    }

    fn with(&self, balances: [u64; 2], total_supply: u64) -> Self {
        Self {
            balances: [U256::from(balances[0]), U256::from(balances[1])],
            native: balances,
            total_supply,
            ..self.clone()
        }
    }

    /// `compute_mint_amount_for_deposit`: LP minted for depositing `amounts`.
    ///
    /// # Errors
    /// A deposit that does not raise D (a zero deposit), an empty pool, overflow.
    pub fn deposit(&self, amounts: [u64; 2]) -> Result<u64, PoolError> {
        let old = self.native;
        let d0 = self.compute_d(old[0], old[1])?;
        let mut new = [
            old[0].checked_add(amounts[0]).ok_or(OVERFLOW)?,
            old[1].checked_add(amounts[1]).ok_or(OVERFLOW)?,
        ];
        let d1 = self.compute_d(new[0], new[1])?;
        if d1 <= d0 {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        for (n, &o) in new.iter_mut().zip(&old) {
            let ideal = to_u64(div192(mul192(d1, w(o))?, d0)?)?;
            let diff = ideal.abs_diff(*n);
            *n = n
                .checked_sub(self.normalized_trade_fee(diff)?)
                .ok_or(UNDERFLOW)?;
        }
        let d2 = self.compute_d(new[0], new[1])?;
        let grown = d2.checked_sub(d0).ok_or(UNDERFLOW)?;
        to_u64(div192(mul192(w(self.total_supply), grown)?, d0)?)
    }

    /// `compute_withdraw_one`: coin `i` paid for burning `lp`, and the fee (`dy_0 - dy`).
    ///
    /// # Errors
    /// Where the crate returns `None`.
    pub fn withdraw_one(&self, lp: u64, i: usize) -> Result<(u64, u64), PoolError> {
        pair(i, other(i))?;
        let (base, quote) = (self.native[i], self.native[other(i)]);
        let d0 = self.compute_d(base, quote)?;
        let burnt = div192(mul192(w(lp), d0)?, w(self.total_supply))?;
        let d1 = d0.checked_sub(burnt).ok_or(UNDERFLOW)?;
        let new_y = self.compute_y(quote, d1)?;
        let exp_base = to_u64(div192(mul192(w(base), d1)?, d0)?)?
            .checked_sub(new_y)
            .ok_or(UNDERFLOW)?;
        let exp_quote = quote
            .checked_sub(to_u64(div192(mul192(w(quote), d1)?, d0)?)?)
            .ok_or(UNDERFLOW)?;
        let new_base = base
            .checked_sub(self.normalized_trade_fee(exp_base)?)
            .ok_or(UNDERFLOW)?;
        let new_quote = quote
            .checked_sub(self.normalized_trade_fee(exp_quote)?)
            .ok_or(UNDERFLOW)?;
        let dy = new_base
            .checked_sub(self.compute_y(new_quote, d1)?)
            .and_then(|v| v.checked_sub(1))
            .ok_or(UNDERFLOW)?;
        let dy0 = base.checked_sub(new_y).ok_or(UNDERFLOW)?;
        Ok((dy, dy0.checked_sub(dy).ok_or(UNDERFLOW)?))
    }

    /// The proportional withdrawal of `lp` (`PoolTokenConverter::token_{a,b}_rate`).
    ///
    /// # Errors
    /// A zero supply, overflow, fee fractions that fail.
    pub fn withdraw(&self, lp: u64) -> Result<[SaberWithdrawn; 2], PoolError> {
        let f = &self.fees;
        let rate = |bal: u64| -> Result<SaberWithdrawn, PoolError> {
            let amount = u128::from(lp)
                .checked_mul(u128::from(bal))
                .ok_or(OVERFLOW)?
                .checked_div(u128::from(self.total_supply))
                .ok_or(DIV0)?;
            let amount = u64::try_from(amount).map_err(|_| OVERFLOW)?;
            let fee =
                mul_div_imbalanced(amount, f.withdraw_fee_numerator, f.withdraw_fee_denominator)?;
            let admin_fee = mul_div_imbalanced(
                fee,
                f.admin_withdraw_fee_numerator,
                f.admin_withdraw_fee_denominator,
            )?;
            Ok(SaberWithdrawn {
                amount: amount.checked_sub(fee).ok_or(UNDERFLOW)?,
                fee,
                admin_fee,
            })
        };
        Ok([rate(self.native[0])?, rate(self.native[1])?])
    }

    /// LP minted for depositing `amounts` (two coins), and the pool after (the whole deposit
    /// stays in the pool).
    ///
    /// # Errors
    /// As [`Self::deposit`]; a wrong number of amounts.
    pub fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        let [a, b] = amounts else {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SaberDepositTwoAmounts,
            ));
        };
        let (a, b) = (small(*a)?, small(*b)?);
        let minted = self.deposit([a, b])?;
        let next = [
            self.native[0].checked_add(a).ok_or(OVERFLOW)?,
            self.native[1].checked_add(b).ok_or(OVERFLOW)?,
        ];
        let supply = self.total_supply.checked_add(minted).ok_or(OVERFLOW)?;
        Ok((U256::from(minted), self.with(next, supply)))
    }

    /// Proportional withdrawal of `lp`: coins paid and the pool after (paid amount and admin
    /// fee leave the pool, the rest of the withdraw fee stays).
    ///
    /// # Errors
    /// As [`Self::withdraw`]; burning more than the supply.
    pub fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        let lp = small(lp)?;
        if lp > self.total_supply {
            return Err(PoolError::BurnExceedsSupply);
        }
        let out = self.withdraw(lp)?;
        let mut next = self.native;
        for (n, o) in next.iter_mut().zip(&out) {
            *n = n
                .checked_sub(o.amount)
                .and_then(|v| v.checked_sub(o.admin_fee))
                .ok_or(UNDERFLOW)?;
        }
        let supply = self.total_supply.checked_sub(lp).ok_or(UNDERFLOW)?;
        Ok((
            smallvec![U256::from(out[0].amount), U256::from(out[1].amount)],
            self.with(next, supply),
        ))
    }

    /// The program's one-coin withdrawal (`WithdrawOne`) of `lp` into coin `i`: the coin paid
    /// and the pool after. `compute_withdraw_one` gives `dy` and its trade fee; the program then
    /// takes the withdraw fee on `dy` (the user gets `dy` less it), and the admin's shares of
    /// both fees leave the pool with the payment; the LP is burned.
    ///
    /// # Errors
    /// As [`Self::withdraw_one`]; burning more than the supply; fee fractions that fail.
    pub fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        let lp = small(lp)?;
        if lp > self.total_supply {
            return Err(PoolError::BurnExceedsSupply);
        }
        let (dy, dy_fee) = self.withdraw_one(lp, i)?;
        let f = &self.fees;
        let withdraw_fee =
            mul_div_imbalanced(dy, f.withdraw_fee_numerator, f.withdraw_fee_denominator)?;
        let paid = dy.checked_sub(withdraw_fee).ok_or(UNDERFLOW)?;
        let admin = mul_div_imbalanced(
            dy_fee,
            f.admin_trade_fee_numerator,
            f.admin_trade_fee_denominator,
        )?
        .checked_add(mul_div_imbalanced(
            withdraw_fee,
            f.admin_withdraw_fee_numerator,
            f.admin_withdraw_fee_denominator,
        )?)
        .ok_or(OVERFLOW)?;
        let mut next = self.native;
        let slot = next.get_mut(i).ok_or(PoolError::TokenIndex {
            index: i,
            n_coins: 2,
        })?;
        *slot = slot
            .checked_sub(paid)
            .and_then(|v| v.checked_sub(admin))
            .ok_or(UNDERFLOW)?;
        let supply = self.total_supply.checked_sub(lp).ok_or(UNDERFLOW)?;
        Ok((U256::from(paid), self.with(next, supply)))
    }

    /// Marginal rate of `i` into `j` at zero size, trade fee included (float, search only):
    /// the stable-swap slope at the current balances.
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if pair(i, j).is_err() {
            return 0.0;
        }
        let (Ok(amp), Ok(d)) = (
            self.amp_factor,
            self.compute_d(self.native[0], self.native[1]),
        ) else {
            return 0.0;
        };
        let (x, y) = (self.native[i] as f64, self.native[j] as f64);
        if x <= 0.0 || y <= 0.0 {
            return 0.0;
        }
        let d = crate::math::float::to_f64(d.to_u256());
        // With Ann = 2A: F = Ann(x + y) + D - Ann D - D^3 / (4xy); rate = F_x / F_y.
        let ann = 2.0 * amp as f64;
        let k = d * d * d / (4.0 * x * y);
        let fx = ann + k / x;
        let fy = ann + k / y;
        let f = &self.fees;
        let keep = if f.trade_fee_denominator == 0 {
            1.0
        } else {
            1.0 - f.trade_fee_numerator as f64 / f.trade_fee_denominator as f64
        };
        (fx / fy * keep).max(0.0)
    }
}
