//! Swaps on a [`Whirlpool`]: the tick walk (`compute_swap`), its step (`compute_swap_step`),
//! the program's quotes and the [`Pool`](crate::pool::Pool) verbs built on them.

use super::math::{
    amount_delta_a, amount_delta_b, apply_swap_fee, max_amount_with_slippage,
    min_amount_with_slippage, next_sqrt_price_from_a, next_sqrt_price_from_b,
    reverse_apply_swap_fee, sqrt_price_to_tick_index, tick_index_to_sqrt_price,
};
use super::{
    ExactInQuote, ExactOutQuote, OrcaSwap, Whirlpool, EXCEEDS_U64, MAX_SQRT_PRICE, MIN_SQRT_PRICE,
    OVERFLOW, UNDERFLOW,
};
use crate::error::PoolError;
use crate::pool::pair;
use primitive_types::U256;

struct Step {
    amount_in: u64,
    amount_out: u64,
    next_sqrt_price: u128,
    fee: u64,
}

impl Whirlpool {
    /// The next initialised tick strictly above `tick` (or the end of the arrays).
    fn next_initialized(&self, tick: i32) -> Result<(i128, i32), PoolError> {
        if tick >= self.seq_end {
            return Err(PoolError::TickArraySequence);
        }
        // The crate's search starts at the next initialisable tick and reads it from the
        // arrays: below their start that read fails ("Tick index out of bounds").
        let s = i32::from(self.state.tick_spacing);
        let first = tick.div_euclid(s).saturating_add(1).saturating_mul(s);
        if first < self.seq_start {
            return Err(PoolError::TickArraySequence);
        }
        let k = self.ticks.partition_point(|t| t.index <= tick);
        match self.ticks.get(k) {
            Some(t) if t.index <= self.seq_end => Ok((t.liquidity_net, t.index)),
            _ => Ok((0, self.seq_end)),
        }
    }

    /// The initialised tick at or below `tick` (or the start of the arrays).
    fn prev_initialized(&self, tick: i32) -> Result<(i128, i32), PoolError> {
        if tick < self.seq_start {
            return Err(PoolError::TickArraySequence);
        }
        // Likewise above the arrays' end, from the initialisable tick at or below.
        let s = i32::from(self.state.tick_spacing);
        if tick.div_euclid(s).saturating_mul(s) > self.seq_end {
            return Err(PoolError::TickArraySequence);
        }
        let k = self.ticks.partition_point(|t| t.index <= tick);
        match k.checked_sub(1).and_then(|k| self.ticks.get(k)) {
            Some(t) if t.index >= self.seq_start => Ok((t.liquidity_net, t.index)),
            _ => Ok((0, self.seq_start)),
        }
    }

    /// `compute_swap`'s checks: the price limit (0: the bound in the swap's direction) inside
    /// the bounds and beyond the current price, and an amount above 0.
    #[inline]
    fn checked_limit(
        &self,
        amount: u64,
        sqrt_price_limit: u128,
        a_to_b: bool,
    ) -> Result<u128, PoolError> {
        let limit = match (sqrt_price_limit, a_to_b) {
            (0, true) => MIN_SQRT_PRICE,
            (0, false) => MAX_SQRT_PRICE,
            (l, _) => l,
        };
        if !(MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&limit) {
            return Err(PoolError::PriceLimit);
        }
        let price = self.state.sqrt_price;
        if (a_to_b && limit >= price) || (!a_to_b && limit <= price) {
            return Err(PoolError::PriceLimit);
        }
        if amount == 0 {
            return Err(PoolError::InsufficientInputAmount);
        }
        Ok(limit)
    }

    /// `compute_swap`: `amount` in (`specified_input`) or out, A to B or B to A, stopping at
    /// `sqrt_price_limit` (0: the price bound). A partial fill (the limit reached) shows as a
    /// specified side below `amount`.
    ///
    /// # Errors
    /// [`PoolError::PriceLimit`] for a limit out of bounds, on the wrong side or at the price,
    /// [`PoolError::InsufficientInputAmount`] for a zero amount,
    /// [`PoolError::TickArraySequence`] when the arrays run out, overflow of `u64` amounts.
    pub fn compute_swap(
        &self,
        amount: u64,
        sqrt_price_limit: u128,
        a_to_b: bool,
        specified_input: bool,
    ) -> Result<OrcaSwap, PoolError> {
        let limit = self.checked_limit(amount, sqrt_price_limit, a_to_b)?;
        let s = &self.state;
        let mut remaining = amount;
        let mut calculated = 0u64;
        let mut price = s.sqrt_price;
        let mut tick = s.tick_current_index;
        let mut liquidity = s.liquidity;
        let mut fee_total = 0u64;
        while remaining > 0 && limit != price {
            let (net, next_tick) = if a_to_b {
                self.prev_initialized(tick)?
            } else {
                self.next_initialized(tick)?
            };
            let next_price = tick_index_to_sqrt_price(next_tick)?;
            let target = if a_to_b {
                next_price.max(limit)
            } else {
                next_price.min(limit)
            };
            let step = swap_step(
                remaining,
                s.fee_rate,
                liquidity,
                price,
                target,
                a_to_b,
                specified_input,
            )?;
            fee_total = fee_total.checked_add(step.fee).ok_or(OVERFLOW)?;
            (remaining, calculated) = step.account(remaining, calculated, specified_input)?;
            if step.next_sqrt_price == next_price {
                liquidity = cross(liquidity, net, a_to_b)?;
                tick = if a_to_b {
                    next_tick.checked_sub(1).ok_or(UNDERFLOW)?
                } else {
                    next_tick
                };
            } else if step.next_sqrt_price != price {
                tick = sqrt_price_to_tick_index(step.next_sqrt_price)?;
            }
            price = step.next_sqrt_price;
        }
        let swapped = amount.checked_sub(remaining).ok_or(UNDERFLOW)?;
        let (token_a, token_b) = if a_to_b == specified_input {
            (swapped, calculated)
        } else {
            (calculated, swapped)
        };
        Ok(OrcaSwap {
            token_a,
            token_b,
            trade_fee: fee_total,
            sqrt_price: price,
            tick_current_index: tick,
            liquidity,
        })
    }

    /// `swap_quote_by_input_token`: `token_in` of A (`specified_token_a`) or B in.
    ///
    /// # Errors
    /// As [`Self::compute_swap`]; a slippage above 10 000 bps (checked after the swap).
    pub fn quote_by_input(
        &self,
        token_in: u64,
        specified_token_a: bool,
        slippage_bps: u16,
    ) -> Result<ExactInQuote, PoolError> {
        let r = self.compute_swap(token_in, 0, specified_token_a, true)?;
        let (used, out) = r.sides(specified_token_a);
        Ok(ExactInQuote {
            token_in: used,
            token_est_out: out,
            token_min_out: min_amount_with_slippage(out, slippage_bps)?,
            trade_fee: r.trade_fee,
        })
    }

    /// `swap_quote_by_output_token`: `token_out` of A (`specified_token_a`) or B out.
    ///
    /// # Errors
    /// As [`Self::quote_by_input`].
    pub fn quote_by_output(
        &self,
        token_out: u64,
        specified_token_a: bool,
        slippage_bps: u16,
    ) -> Result<ExactOutQuote, PoolError> {
        let r = self.compute_swap(token_out, 0, !specified_token_a, false)?;
        let (out, est_in) = r.sides(specified_token_a);
        Ok(ExactOutQuote {
            token_out: out,
            token_est_in: est_in,
            token_max_in: max_amount_with_slippage(est_in, slippage_bps)?,
            trade_fee: r.trade_fee,
        })
    }

    /// The full exact-in swap of `dx` of coin `i` (0 = A): refused unless the whole input is
    /// used (a fill stopped by the price bound would leave input behind).
    fn full_swap(&self, i: usize, j: usize, dx: U256) -> Result<OrcaSwap, PoolError> {
        pair(i, j)?;
        let dx = small(dx)?;
        let r = self.compute_swap(dx, 0, i == 0, true)?;
        if r.sides(i == 0).0 != dx {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(r)
    }

    /// The largest input of at most `dx` of coin `i` the tick arrays absorb whole: `dx`
    /// itself when they do, else what the swap takes on its way to the arrays' end (the
    /// partial fill of a swap limited to that end's price), which an exact-in swap of that
    /// amount then takes whole, stopping at the end instead of failing with
    /// [`PoolError::TickArraySequence`]. A router offers this to a pool whose arrays it would
    /// otherwise overrun.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for 0, [`PoolError::InsufficientLiquidity`]
    /// when the price already sits at the arrays' end that way (nothing to absorb); as
    /// [`Self::compute_swap`] otherwise (an amount above `u64`, a swap that cannot start).
    pub fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        let a_to_b = i == 0;
        let end = tick_index_to_sqrt_price(if a_to_b { self.seq_start } else { self.seq_end })?;
        if end == self.state.sqrt_price {
            return Err(PoolError::InsufficientLiquidity);
        }
        let mut x = small(dx)?;
        // the partial fill's amount is absorbed whole (each step reaches the same targets: a
        // step's input and fee, offered alone, pay for the step again); a second round only
        // guards against a step that rounds otherwise
        for _ in 0..4 {
            let r = self.compute_swap(x, end, a_to_b, true)?;
            let used = r.sides(a_to_b).0;
            if used == x {
                return Ok(U256::from(x));
            }
            x = used;
        }
        Err(PoolError::InsufficientLiquidity)
    }

    /// Output of `dx` of coin `i` into coin `j` (exact in, no price limit).
    ///
    /// # Errors
    /// As [`Self::compute_swap`]; [`PoolError::InsufficientLiquidity`] for a partial fill.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        let r = self.full_swap(i, j, dx)?;
        Ok(U256::from(r.sides(i == 0).1))
    }

    /// The least input of coin `i` whose exact-in output of coin `j` is at least `dy` (the
    /// program's exact-out quote places the search; the forward swap decides).
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no input reaches `dy`.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        if dy.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        let want = small(dy).map_err(|_| PoolError::UnreachableOutput)?;
        let guess = match self.compute_swap(want, 0, i == 0, false) {
            Ok(r) if r.sides(i == 0).1 == want => r.sides(i == 0).0,
            _ => return Err(PoolError::UnreachableOutput),
        };
        let out = |x: u128| {
            u64::try_from(x)
                .ok()
                .and_then(|x| self.amount_out(i, j, U256::from(x)).ok())
                .map_or(0, |o| o.low_u128())
        };
        crate::pool::least_input(guess as f64, u128::from(want), out).map(U256::from)
    }

    /// The exact-in swap: the output and the pool after (price, tick, liquidity).
    ///
    /// # Errors
    /// As [`Self::amount_out`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        let r = self.full_swap(i, j, dx)?;
        let mut next = self.clone();
        next.state.sqrt_price = r.sqrt_price;
        next.state.tick_current_index = r.tick_current_index;
        next.state.liquidity = r.liquidity;
        next.virtual_reserves = next.virtual_at(r.sqrt_price);
        Ok((U256::from(r.sides(i == 0).1), next))
    }
}

fn small(x: U256) -> Result<u64, PoolError> {
    if x > U256::from(u64::MAX) {
        return Err(EXCEEDS_U64);
    }
    Ok(x.low_u64())
}

impl Step {
    /// The step's amounts taken from what remains of the specified side and added to the
    /// other side's total (the fee counts on the input side), checked in `u64`.
    #[inline]
    fn account(
        &self,
        remaining: u64,
        calculated: u64,
        specified_input: bool,
    ) -> Result<(u64, u64), PoolError> {
        if specified_input {
            let remaining = remaining
                .checked_sub(self.amount_in)
                .and_then(|r| r.checked_sub(self.fee))
                .ok_or(UNDERFLOW)?;
            let calculated = calculated.checked_add(self.amount_out).ok_or(OVERFLOW)?;
            Ok((remaining, calculated))
        } else {
            let remaining = remaining.checked_sub(self.amount_out).ok_or(UNDERFLOW)?;
            let calculated = calculated
                .checked_add(self.amount_in)
                .and_then(|c| c.checked_add(self.fee))
                .ok_or(OVERFLOW)?;
            Ok((remaining, calculated))
        }
    }
}

/// The active liquidity after crossing a tick of net liquidity `net`: A to B leaves the tick
/// below, so its net liquidity comes out.
#[inline]
fn cross(liquidity: u128, net: i128, a_to_b: bool) -> Result<u128, PoolError> {
    let m = net.unsigned_abs();
    if (net < 0) == a_to_b {
        liquidity.checked_add(m).ok_or(OVERFLOW)
    } else {
        liquidity.checked_sub(m).ok_or(UNDERFLOW)
    }
}

/// `compute_swap_step`.
fn swap_step(
    remaining: u64,
    fee_rate: u16,
    liquidity: u128,
    price: u128,
    target: u128,
    a_to_b: bool,
    specified_input: bool,
) -> Result<Step, PoolError> {
    // The fixed side is A when the direction and the specified side agree.
    let fixed = |to: u128| {
        if a_to_b == specified_input {
            amount_delta_a(price, to, liquidity, specified_input)
        } else {
            amount_delta_b(price, to, liquidity, specified_input)
        }
    };
    let unfixed = |to: u128| {
        if a_to_b == specified_input {
            amount_delta_b(price, to, liquidity, !specified_input)
        } else {
            amount_delta_a(price, to, liquidity, !specified_input)
        }
    };
    let initial = fixed(target);
    let initial_overflow = initial == Err(EXCEEDS_U64);
    let calc = if specified_input {
        apply_swap_fee(remaining, fee_rate)?
    } else {
        remaining
    };
    let reaches = if initial_overflow {
        false
    } else {
        initial? <= calc
    };
    let next = if reaches {
        target
    } else if a_to_b == specified_input {
        next_sqrt_price_from_a(price, liquidity, calc, specified_input)?
    } else {
        next_sqrt_price_from_b(price, liquidity, calc, specified_input)?
    };
    let is_max = next == target;
    let unfixed_amount = unfixed(next)?;
    let fixed_amount = if !is_max || initial_overflow {
        fixed(next)?
    } else {
        initial?
    };
    let (amount_in, mut amount_out) = if specified_input {
        (fixed_amount, unfixed_amount)
    } else {
        (unfixed_amount, fixed_amount)
    };
    if !specified_input && amount_out > remaining {
        amount_out = remaining;
    }
    let fee = if specified_input && !is_max {
        remaining.checked_sub(amount_in).ok_or(UNDERFLOW)?
    } else {
        reverse_apply_swap_fee(amount_in, fee_rate)?
            .checked_sub(amount_in)
            .ok_or(UNDERFLOW)?
    };
    Ok(Step {
        amount_in,
        amount_out,
        next_sqrt_price: next,
        fee,
    })
}
