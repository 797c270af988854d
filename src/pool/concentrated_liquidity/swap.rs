//! Swaps on a [`ConcentratedLiquidity`] pool: the contract's loop over initialised ticks
//! (bitmap words, steps, crossings, fees) and the family verbs bounded by the known window.

use super::sqrt_price_math::{
    compute_swap_step, compute_swap_step_hinted, mul_div, short_step, Reaching, Step,
    FEE_DENOMINATOR,
};
use super::tick_math::{
    sqrt_ratio_at_tick, tick_at_sqrt_ratio_between, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO,
    MIN_TICK,
};
use super::{
    add_delta, floor_div, tick_bounds_after_move, to_int256, wrapping_add, ClSwap,
    ConcentratedLiquidity, FirstSteps, KnownStep, SwapAmount, AMPLE, I256_MIN_MAG,
};
use crate::error::{PoolError, PoolRevert};
use crate::math::wide::Div128;
use crate::math::{self, W};
use alloc::sync::Arc;
use core::ops::Shr;
use primitive_types::U256;

impl ConcentratedLiquidity {
    /// `tickBitmap.nextInitializedTickWithinOneWord`: the next initialised tick at or below
    /// (`lte`) or above the current tick within its 256-tick-spacing word, or the word's edge,
    /// with the index of the tick found.
    ///
    /// `hint` is the number of known ticks at or below `tick` (the swap loop keeps it as it
    /// crosses); a wrong hint is detected and searched for. The known ticks are on the
    /// spacing, so none lies between `tick` and the nearest multiple of the spacing that way:
    /// the candidate is the tick just below the hint (`lte`) or at it.
    #[inline(always)]
    pub(super) fn next_tick_in_word(
        &self,
        tick: i32,
        lte: bool,
        hint: usize,
    ) -> (i32, Option<usize>) {
        let ticks = self.ticks();
        let below = hint
            .checked_sub(1)
            .map_or(true, |j| ticks.get(j).is_some_and(|t| t.index <= tick));
        let above = ticks
            .get(hint)
            .map_or(hint <= ticks.len(), |t| t.index > tick);
        let k = if below && above {
            hint
        } else {
            ticks.partition_point(|t| t.index <= tick)
        };
        // The known tick that way, when it lies in the word the search looks in (the
        // table's word bounds: no division).
        let words = &self.table.words;
        if lte {
            if let Some(j) = k.checked_sub(1) {
                if let (Some(t), Some(w)) = (ticks.get(j), words.get(j)) {
                    if tick < w[0] {
                        return (t.index, Some(j));
                    }
                }
            }
        } else if let (Some(t), Some(w)) = (ticks.get(k), words.get(k)) {
            if tick >= w[1] {
                return (t.index, Some(k));
            }
        }
        // Else the word's edge.
        let s = self.table.tick_spacing;
        let compressed = floor_div(tick, s);
        // |compressed| <= 887272 and 256·s <= 2^22: every product below fits i32.
        #[allow(clippy::arithmetic_side_effects)]
        if lte {
            (((compressed >> 8) << 8) * s, None)
        } else {
            (((((compressed + 1) >> 8) << 8) + 255) * s, None)
        }
    }

    /// Keeps the first step of a swap from this state in each direction (see
    /// [`Self::first_step`]) in its tick table, when the table is this state's alone (just
    /// built): a swap from this state takes it when the amount covers it, as it takes a
    /// whole segment's step.
    pub(super) fn keep_first_steps(&mut self) {
        let first = [true, false].map(|zero_for_one| self.first_step(zero_for_one));
        if let Some(table) = Arc::get_mut(&mut self.table) {
            table.first = FirstSteps(first);
        }
    }

    /// The contract's first step of a swap from this state (settled) toward the next
    /// initialised tick in the word or the word's edge, with an amount that suffices: `None`
    /// where it would not reach that target or would not move the price.
    fn first_step(&self, zero_for_one: bool) -> Option<KnownStep> {
        if self.tick != self.tick_hi {
            return None;
        }
        let (next, initialized) = self.next_tick_in_word(self.tick, zero_for_one, self.below);
        let next = next.clamp(MIN_TICK, MAX_TICK);
        let target = match initialized.and_then(|k| self.table.ratios.get(k)) {
            Some(&r) => r,
            None => sqrt_ratio_at_tick(next).ok()?,
        };
        let price = self.sqrt_price_x96;
        if (zero_for_one && target >= price) || (!zero_for_one && target <= price) {
            return None;
        }
        let l_div = self.table.segment(self.below, self.liquidity);
        let fee = self.table.step_fee;
        let step =
            compute_swap_step(price, target, self.liquidity, AMPLE, true, fee, l_div).ok()?;
        (step.sqrt_price_x96 == target).then_some(KnownStep {
            price,
            target,
            liquidity: self.liquidity,
            step: Reaching::new(step, self.liquidity, fee),
        })
    }

    /// `UniswapV3Pool.swap`: the contract's loop, exactly, with no window (the pool's own
    /// semantics; a state whose tick list is a window should use the family verbs instead).
    ///
    /// # Errors
    /// [`PoolError::Revert`] with the contract's message: `AS` (amount 0), `SPL` (a limit not
    /// strictly between the current price and the end of the range), `LS`/`LA` at a crossing,
    /// casts; [`PoolError::Math`] where `FullMath` reverts.
    pub fn execute_swap(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        sqrt_price_limit_x96: U256,
    ) -> Result<ClSwap, PoolError> {
        self.swap_loop(zero_for_one, amount, W::from_u256(sqrt_price_limit_x96))
            .map(|(s, _)| s)
    }

    /// The swap loop; also returns the input actually spent without fees (for the balances).
    pub(super) fn swap_loop(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        limit: W,
    ) -> Result<(ClSwap, W), PoolError> {
        let run = self.run(zero_for_one, amount, limit, true)?;
        self.after_loop(&run)
    }

    /// [`Self::execute_swap`] with every step computed by `computeSwapStep`, none taken from
    /// the tick table's whole-segment steps (for the tests of those).
    ///
    /// # Errors
    /// As [`Self::execute_swap`].
    #[doc(hidden)]
    pub fn execute_swap_stepwise(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        sqrt_price_limit_x96: U256,
    ) -> Result<ClSwap, PoolError> {
        let limit = W::from_u256(sqrt_price_limit_x96);
        let run = self.run_with(zero_for_one, amount, limit, true, false)?;
        self.after_loop(&run).map(|(s, _)| s)
    }

    /// The contract's loop from this state until the amount is used up or the price is at
    /// `limit`. With `fees` false the fee growth and protocol fees are not summed (only the
    /// amounts are wanted), but every revert of their arithmetic is still checked.
    #[inline(always)]
    fn run(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        limit: W,
        fees: bool,
    ) -> Result<Run, PoolError> {
        self.run_with(zero_for_one, amount, limit, fees, true)
    }

    /// [`Self::run`], taking whole-segment steps from the tick table or not (`table_steps`).
    #[inline(always)]
    fn run_with(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        limit: W,
        fees: bool,
        table_steps: bool,
    ) -> Result<Run, PoolError> {
        let (exact_in, specified) = self.swap_args(zero_for_one, amount, limit)?;
        let dir = Direction {
            zero_for_one,
            exact_in,
            limit,
            proto_n: if zero_for_one {
                self.fee_protocol & 15
            } else {
                self.fee_protocol >> 4
            },
            fees,
            table_steps,
        };
        let mut s = LoopState {
            remaining: specified,
            calculated: W::ZERO,
            net_in: W::ZERO,
            price: self.sqrt_price_x96,
            tick: self.tick,
            liquidity: self.liquidity,
            fee_growth: self.fee_growth_global[usize::from(!zero_for_one)],
            protocol: 0,
            below: self.below,
            // A state a swap left between bounds: the first step settles its tick.
            tick_between: (self.tick != self.tick_hi).then_some((self.tick, self.tick_hi)),
        };
        while !s.remaining.is_zero() && s.price != limit {
            self.loop_step(&mut s, &dir)?;
        }
        // The tick of the state after stays as bounds until read (`tick`, the next swap).
        Ok(Run { s, dir, specified })
    }

    /// `swap`'s checks (`AS`, the int256 range, `SPL`): whether the amount is an input, and
    /// its magnitude.
    #[inline]
    fn swap_args(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        limit: W,
    ) -> Result<(bool, W), PoolError> {
        let (exact_in, specified) = match amount {
            SwapAmount::ExactIn(a) => (true, W::from_u256(a)),
            SwapAmount::ExactOut(a) => (false, W::from_u256(a)),
        };
        if specified.is_zero() {
            return Err(PoolError::Revert(PoolRevert::ZeroAmountSpecified));
        }
        if (exact_in && specified >= I256_MIN_MAG) || specified > I256_MIN_MAG {
            return Err(PoolError::Revert(PoolRevert::AmountSpecifiedOutsideInt256));
        }
        let p0 = self.sqrt_price_x96;
        let limit_ok = if zero_for_one {
            limit < p0 && limit > MIN_SQRT_RATIO
        } else {
            limit > p0 && limit < MAX_SQRT_RATIO
        };
        if !limit_ok {
            return Err(PoolError::Revert(PoolRevert::SqrtPriceLimit));
        }
        Ok((exact_in, specified))
    }

    /// The next initialised tick in the word (or its edge) from the loop's tick: when the
    /// tick is left as bounds, the search from both bounds, and only when they differ the
    /// tick settled first. The search's answer is monotone in the tick and no known tick lies
    /// between the bounds (they come from a step that stopped short of the next one), so equal
    /// answers at the bounds are the answer from every tick between them.
    #[inline(always)]
    fn next_tick_after(
        &self,
        s: &mut LoopState,
        zero_for_one: bool,
    ) -> Result<(i32, Option<usize>), PoolError> {
        if let Some((lo, hi)) = s.tick_between {
            let at_lo = self.next_tick_in_word(lo, zero_for_one, s.below);
            if at_lo == self.next_tick_in_word(hi, zero_for_one, s.below) {
                return Ok(at_lo);
            }
            s.settle_tick()?;
        }
        Ok(self.next_tick_in_word(s.tick, zero_for_one, s.below))
    }

    /// One iteration of the loop: a `computeSwapStep` to the next initialised tick in the
    /// word (or the limit), its amounts and fees, then the crossing or the new tick.
    #[inline]
    fn loop_step(&self, s: &mut LoopState, dir: &Direction) -> Result<(), PoolError> {
        let zero_for_one = dir.zero_for_one;
        let start = s.price;
        let (next, initialized) = self.next_tick_after(s, zero_for_one)?;
        let next = next.clamp(MIN_TICK, MAX_TICK);
        // An initialised tick's √ratio is in the table; a word's edge is computed.
        let p_next = match initialized.and_then(|k| self.table.ratios.get(k)) {
            Some(&r) => r,
            None => sqrt_ratio_at_tick(next)?,
        };
        let limit = dir.limit;
        let target = if (zero_for_one && p_next < limit) || (!zero_for_one && p_next > limit) {
            limit
        } else {
            p_next
        };
        let l_div = self.table.segment(s.below, s.liquidity);
        // A step the table knows (across a whole segment between known ticks, or the first
        // from the table's own state) is the table's when the amount left covers it (the
        // contract's test: input less the fee, or output, at least the step's); else it falls
        // short of the target, and is computed knowing that.
        let known = self
            .table
            .known_step(s.below, zero_for_one, (s.price, target), s.liquidity)
            .filter(|_| dir.table_steps);
        let covered = known.filter(|c| c.covered_by(s.remaining, dir.exact_in));
        // A known step's fee growth is known too (with no protocol share).
        let growth = covered.and_then(|c| c.growth.filter(|_| dir.proto_n == 0));
        let step = match covered {
            Some(c) => c.step,
            None => compute_swap_step_hinted(
                s.price,
                target,
                s.liquidity,
                s.remaining,
                (dir.exact_in, known.is_some()),
                self.table.step_fee,
                l_div,
            )?,
        };
        s.price = step.sqrt_price_x96;
        s.account(&step, dir, (l_div, growth))?;
        if s.price == p_next {
            if let Some(k) = initialized {
                let net = self.ticks().get(k).map_or(0, |t| t.liquidity_net);
                let net = if zero_for_one {
                    net.wrapping_neg()
                } else {
                    net
                };
                s.liquidity = add_delta(s.liquidity, net)?;
                // Crossed tick k: down, it is no longer at or below the tick; up, it is.
                s.below = if zero_for_one { k } else { k.saturating_add(1) };
            }
            // next is within ±887272, so next − 1 fits.
            s.tick = if zero_for_one {
                next.saturating_sub(1)
            } else {
                next
            };
            s.tick_between = None;
        } else if s.price != start {
            // `getTickAtSqrtRatio` of the new price, settled when a later step or the state
            // after reads it (the verbs that only want amounts never do).
            let bounds = s.tick_between.unwrap_or((s.tick, s.tick));
            s.tick_between = Some(tick_bounds_after_move(bounds, next, zero_for_one));
        }
        Ok(())
    }

    /// The swap's amounts and the pool after the loop.
    fn after_loop(&self, run: &Run) -> Result<(ClSwap, W), PoolError> {
        let spent = math::w_sub(run.specified, run.s.remaining)?;
        let (amount_in, amount_out) = if run.dir.exact_in {
            (spent, run.s.calculated)
        } else {
            (run.s.calculated, spent)
        };
        let out_u = amount_out.to_u256();
        Ok((
            ClSwap {
                amount_in: amount_in.to_u256(),
                amount_out: out_u,
                pool: self.state_after(&run.s, &run.dir, out_u),
            },
            run.s.net_in,
        ))
    }

    /// The pool after a loop that paid `amount_out`: price, tick (or its bounds), liquidity,
    /// fee growth, protocol fees and the balances of the known window (the ticks, the fee and
    /// the spacing are shared).
    #[inline(always)]
    fn state_after(&self, s: &LoopState, dir: &Direction, amount_out: U256) -> Self {
        let side = usize::from(!dir.zero_for_one);
        let mut fee_growth_global = self.fee_growth_global;
        if let Some(g) = fee_growth_global.get_mut(side) {
            *g = s.fee_growth;
        }
        let mut protocol_fees = self.protocol_fees;
        if let Some(f) = protocol_fees.get_mut(side) {
            *f = f.wrapping_add(s.protocol);
        }
        let (bi, bo) = if dir.zero_for_one { (0, 1) } else { (1, 0) };
        let mut balances = self.balances;
        if let Some(b) = balances.get_mut(bi) {
            *b = W::from_u256(*b)
                .checked_add(s.net_in)
                .map_or(U256::MAX, W::to_u256);
        }
        if let Some(b) = balances.get_mut(bo) {
            *b = W::from_u256(*b)
                .checked_sub(W::from_u256(amount_out))
                .map_or(U256::zero(), W::to_u256);
        }
        let (tick, tick_hi) = s.tick_between.unwrap_or((s.tick, s.tick));
        Self {
            sqrt_price_x96: s.price,
            tick,
            tick_hi,
            below: s.below,
            liquidity: s.liquidity,
            table: Arc::clone(&self.table),
            fee_protocol: self.fee_protocol,
            fee_growth_global,
            protocol_fees,
            balances,
        }
    }

    /// An exact-input swap of `dx` (`i` into `j`, within the known window) that ends inside
    /// the current segment: the contract's loop takes one step, short of its target (the next
    /// initialised tick in the word, the word's edge or the window's edge), and that step's
    /// fee is the rest of the amount. `None` when the swap may go further or for anything the
    /// loop handles otherwise (its errors included): the caller runs the loop.
    ///
    /// The step is the loop's first: the same target, liquidity and prepared divisor, and
    /// [`short_step`]'s amounts are `computeSwapStep`'s. A state a swap left between tick
    /// bounds is not settled when the next tick in the word is the same from both bounds
    /// (the search's answer is monotone in the tick, and no known tick lies between the
    /// bounds), so the target is the same from every tick between them.
    #[inline(always)]
    fn segment_swap(
        &self,
        i: usize,
        j: usize,
        dx: U256,
        fees: bool,
    ) -> Option<(LoopState, Direction)> {
        let zero_for_one = match (i, j) {
            (0, 1) => true,
            (1, 0) => false,
            _ => return None,
        };
        let dx = W::from_u256(dx);
        // The loop's checks: an amount of 0 or at or above 2^255 is its error.
        if dx.is_zero() || dx >= I256_MIN_MAG {
            return None;
        }
        let price = self.sqrt_price_x96;
        let l = self.liquidity;
        // The table's first step from its own state (same price and liquidity): an amount
        // that covers it reaches that target (or the window's edge before it), so the swap
        // goes on: the loop's, decided before any search. Else the step falls short of it.
        let own = self.table.first.0[usize::from(!zero_for_one)]
            .as_ref()
            .filter(|f| f.price == price && f.liquidity == l);
        if own.is_some_and(|f| f.step.covered_by(dx, true)) {
            return None;
        }
        let limit = self.window_limit(zero_for_one)?;
        let (next, initialized) = self.next_tick_in_word(self.tick, zero_for_one, self.below);
        if self.tick != self.tick_hi
            && self.next_tick_in_word(self.tick_hi, zero_for_one, self.below) != (next, initialized)
        {
            return None;
        }
        let next = next.clamp(MIN_TICK, MAX_TICK);
        let p_next = match initialized.and_then(|k| self.table.ratios.get(k)) {
            Some(&r) => r,
            None => sqrt_ratio_at_tick(next).ok()?,
        };
        let target = if (zero_for_one && p_next < limit) || (!zero_for_one && p_next > limit) {
            limit
        } else {
            p_next
        };
        // A step that does not move toward its target, or no liquidity: the loop's.
        if (zero_for_one && target >= price) || (!zero_for_one && target <= price) || l == 0 {
            return None;
        }
        let l_div = self.table.segment(self.below, l);
        let step = short_step(
            price,
            target,
            l,
            dx,
            (self.table.step_fee, l_div),
            own.is_some(),
        )?;
        let dir = Direction {
            zero_for_one,
            exact_in: true,
            limit,
            proto_n: if zero_for_one {
                self.fee_protocol & 15
            } else {
                self.fee_protocol >> 4
            },
            fees,
            table_steps: true,
        };
        // The step's fee is the rest of the amount (`paid` is dx < 2^255), so the loop's
        // int256 checks are the output's.
        if step.amount_out >= I256_MIN_MAG {
            return None;
        }
        let mut fee_amount = step.fee_amount;
        let mut protocol = 0u128;
        if dir.proto_n > 0 {
            let d = math::w_div(fee_amount, W::small(u128::from(dir.proto_n))).ok()?;
            fee_amount = math::w_sub(fee_amount, d).ok()?;
            protocol = d.lo;
        }
        let mut fee_growth = self.fee_growth_global[usize::from(!zero_for_one)];
        if fee_amount.hi != 0 {
            // Fee growth past the prepared division (or its revert): the loop's.
            return None;
        }
        if fees {
            let g = l_div.and_then(|d| d.div_shifted(fee_amount.lo))?;
            fee_growth = wrapping_add(fee_growth, W::small(g));
        }
        // The tick: between the target's tick and the start's (bounds, settled when read),
        // or unchanged when the price did not move.
        let tick_between = if step.sqrt_price_x96 == price {
            (self.tick != self.tick_hi).then_some((self.tick, self.tick_hi))
        } else {
            Some(tick_bounds_after_move(
                (self.tick, self.tick_hi),
                next,
                zero_for_one,
            ))
        };
        let s = LoopState {
            remaining: W::ZERO,
            calculated: step.amount_out,
            net_in: step.amount_in,
            price: step.sqrt_price_x96,
            tick: self.tick,
            liquidity: l,
            fee_growth,
            protocol,
            below: self.below,
            tick_between,
        };
        Some((s, dir))
    }

    /// √ratio of the outermost known ticks.
    pub(super) fn window_edges(&self) -> Option<[W; 2]> {
        Some([*self.table.ratios.first()?, *self.table.ratios.last()?])
    }

    /// The price limit of the known window in one direction: the lowest known tick's price
    /// going down, the highest's going up (or the contract's own limit past them), `None` when
    /// no known tick lies that way.
    pub(super) fn window_limit(&self, zero_for_one: bool) -> Option<W> {
        let [lo, hi] = self.window_edges()?;
        let p = if zero_for_one { lo } else { hi };
        if zero_for_one {
            let lim = p.max(MIN_SQRT_RATIO.checked_add(W::ONE)?);
            (lim < self.sqrt_price_x96).then_some(lim)
        } else {
            let lim = p.min(MAX_SQRT_RATIO.checked_sub(W::ONE)?);
            (lim > self.sqrt_price_x96).then_some(lim)
        }
    }

    /// The loop of a swap of `i` into `j` bounded by the known window (see [`Self::run`]).
    #[inline(always)]
    fn window_run(
        &self,
        i: usize,
        j: usize,
        amount: SwapAmount,
        fees: bool,
    ) -> Result<Run, PoolError> {
        crate::pool::pair(i, j)?;
        let zero_for_one = i == 0;
        let limit = self
            .window_limit(zero_for_one)
            .ok_or(PoolError::InsufficientLiquidity)?;
        self.run(zero_for_one, amount, limit, fees)
    }

    /// The output of an exact-input swap of `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for 0, [`PoolError::InsufficientLiquidity`] when
    /// the known ticks cannot absorb all of `dx` (the contract would fill it partially);
    /// contract reverts.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        if let Some((s, _)) = self.segment_swap(i, j, dx, false) {
            return Ok(s.calculated.to_u256());
        }
        self.amount_out_loop(i, j, dx)
    }

    /// [`Self::amount_out`] always by the loop (the reference of its one-step path).
    ///
    /// # Errors
    /// As [`Self::amount_out`].
    #[doc(hidden)]
    pub fn amount_out_by_loop(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        self.amount_out_loop(i, j, dx)
    }

    #[inline(always)]
    fn amount_out_loop(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        if dx.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let run = self.window_run(i, j, SwapAmount::ExactIn(dx), false)?;
        // The input spent is dx exactly when nothing remains.
        if !run.s.remaining.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(run.s.calculated.to_u256())
    }

    /// The exact-input swap: the output and the state after (see [`Self::amount_out`]).
    ///
    /// # Errors
    /// As [`Self::amount_out`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        if let Some((s, dir)) = self.segment_swap(i, j, dx, true) {
            let out = s.calculated.to_u256();
            return Ok((out, self.state_after(&s, &dir, out)));
        }
        self.swap_loop_verb(i, j, dx)
    }

    /// [`Self::swap`] by its one-step path alone: `Some` when the swap ends inside the current
    /// segment and that path takes it (for the tests of that path).
    #[doc(hidden)]
    #[must_use]
    pub fn swap_in_segment(&self, i: usize, j: usize, dx: U256) -> Option<(U256, Self)> {
        let (s, dir) = self.segment_swap(i, j, dx, true)?;
        let out = s.calculated.to_u256();
        Some((out, self.state_after(&s, &dir, out)))
    }

    /// [`Self::swap`] always by the loop (the reference of its one-step path).
    ///
    /// # Errors
    /// As [`Self::amount_out`].
    #[doc(hidden)]
    pub fn swap_by_loop(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        self.swap_loop_verb(i, j, dx)
    }

    #[inline(always)]
    fn swap_loop_verb(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        if dx.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let run = self.window_run(i, j, SwapAmount::ExactIn(dx), true)?;
        if !run.s.remaining.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let out = run.s.calculated.to_u256();
        Ok((out, self.state_after(&run.s, &run.dir, out)))
    }

    /// The largest input of at most `dx` the known window absorbs whole: `dx` itself when it
    /// does, else what the contract's loop takes on its way to the window's edge (the
    /// partial fill), which an exact-in swap of that amount then takes whole, ending on the
    /// edge. A router offers this to a pool whose window it would otherwise overrun.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for 0, [`PoolError::InsufficientLiquidity`] when
    /// no known tick lies that way (nothing to absorb anything); contract reverts.
    pub fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        let mut x = dx;
        // the partial fill's amount is absorbed whole (each step of the loop then reaches the
        // same targets); a second round only guards against a step that rounds otherwise
        for _ in 0..4 {
            if x.is_zero() {
                return Err(PoolError::InsufficientInputAmount);
            }
            let run = self.window_run(i, j, SwapAmount::ExactIn(x), false)?;
            if run.s.remaining.is_zero() {
                return Ok(x);
            }
            x = math::w_sub(run.specified, run.s.remaining)?.to_u256();
        }
        Err(PoolError::InsufficientLiquidity)
    }

    /// The contract's exact-output swap within the known window: the input it charges for
    /// exactly `dy` of coin `j`.
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when the known ticks cannot pay `dy`.
    pub fn amount_in_exact_out(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        if dy.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        let run = self
            .window_run(i, j, SwapAmount::ExactOut(dy), false)
            .map_err(|e| match e {
                PoolError::InsufficientLiquidity => PoolError::UnreachableOutput,
                e => e,
            })?;
        // The output paid is dy exactly when nothing remains.
        if !run.s.remaining.is_zero() {
            return Err(PoolError::UnreachableOutput);
        }
        Ok(run.s.calculated.to_u256())
    }

    /// The least input of coin `i` whose exact-input swap pays at least `dy` of coin `j`.
    ///
    /// Starts from the contract's exact-output answer ([`Self::amount_in_exact_out`]) and
    /// settles the least input with exact forward swaps (the two directions round separately,
    /// so they can differ by a few wei).
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no input within the known ticks reaches `dy`.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        let x = self.amount_in_exact_out(i, j, dy)?;
        // amount_out(0) is an error, so `reaches(0)` is false and the searches below end.
        let reaches = |x: U256| -> bool { self.amount_out(i, j, x).is_ok_and(|o| o >= dy) };
        // An upper bound that reaches dy (the exact-output input normally does).
        let mut hi = x;
        let mut step = U256::one();
        while !reaches(hi) {
            hi = hi.checked_add(step).ok_or(PoolError::UnreachableOutput)?;
            step = step
                .checked_mul(U256::from(2u8))
                .ok_or(PoolError::UnreachableOutput)?;
        }
        // Gallop down to an input that does not reach dy, then bisect between the two.
        let mut step = U256::one();
        let mut lo = loop {
            let cand = hi.saturating_sub(step);
            if !reaches(cand) {
                break cand;
            }
            hi = cand;
            step = step.saturating_mul(U256::from(2u8));
        };
        // lo < hi here, so the difference is positive and the midpoint lies between them.
        while hi.saturating_sub(lo) > U256::one() {
            let mid = lo.saturating_add(hi.saturating_sub(lo).shr(1));
            if reaches(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(hi)
    }

    /// Marginal rate d(out)/d(in) of `i` into `j` at zero size, fee included, raw units: the
    /// price (`(sqrtPrice / 2^96)^2` token1 per token0) times (1 − fee); 0 when the known ticks
    /// hold no liquidity that way. For search only.
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if crate::pool::pair(i, j).is_err() || self.window_limit(i == 0).is_none() {
            return 0.0;
        }
        let s = math::float::to_f64(self.sqrt_price_x96.to_u256())
            / 79_228_162_514_264_337_593_543_950_336.0;
        let price = s * s;
        let g = 1.0 - f64::from(self.table.fee) / f64::from(FEE_DENOMINATOR);
        if i == 0 {
            price * g
        } else if price > 0.0 {
            g / price
        } else {
            0.0
        }
    }
}

/// What a swap loop is asked: its direction, whether the amount is an input, the price limit
/// and the protocol's share of the fee (`1/proto_n`, 0 for none).
struct Direction {
    zero_for_one: bool,
    exact_in: bool,
    limit: W,
    proto_n: u8,
    /// Whether to sum fee growth and protocol fees (else only check their reverts).
    fees: bool,
    /// Whether a step across a whole segment may come from the tick table.
    table_steps: bool,
}

/// A finished loop: its state, what it was asked and the magnitude of the specified amount.
struct Run {
    s: LoopState,
    dir: Direction,
    specified: W,
}

/// The contract's `SwapState` during the loop, plus the fee-free input spent.
struct LoopState {
    /// Magnitude of the specified amount still to trade.
    remaining: W,
    /// Magnitude of what the other side adds up to.
    calculated: W,
    /// Input spent without fees.
    net_in: W,
    price: W,
    tick: i32,
    liquidity: u128,
    /// Fee growth of the input token.
    fee_growth: W,
    /// Protocol fees taken (`uint128`, wrapping).
    protocol: u128,
    /// The number of known ticks at or below `tick` (a hint for the next tick's search).
    below: usize,
    /// When the price moved short of a step's target, the bounds of its tick (`tick` is then
    /// stale until [`LoopState::settle_tick`]).
    tick_between: Option<(i32, i32)>,
}

impl LoopState {
    /// `tick = getTickAtSqrtRatio(price)` after a move short of the target, searched within
    /// its bounds.
    #[inline]
    fn settle_tick(&mut self) -> Result<(), PoolError> {
        if let Some((lo, hi)) = self.tick_between.take() {
            self.tick = tick_at_sqrt_ratio_between(self.price, lo, hi)?;
        }
        Ok(())
    }

    /// A step's amounts into the totals (the int256 checks of the contract), then its fee into
    /// the protocol's share and the fee growth.
    ///
    /// `l_div` is the active liquidity prepared for division, when the tick table has it;
    /// `growth` the step's fee growth, when the table knows it.
    #[inline]
    fn account(
        &mut self,
        step: &Step,
        dir: &Direction,
        (l_div, growth): (Option<&Div128>, Option<W>),
    ) -> Result<(), PoolError> {
        // `(amountIn + feeAmount)` is an unchecked uint256 sum in the contract.
        let paid = to_int256(wrapping_add(step.amount_in, step.fee_amount))?;
        let out = to_int256(step.amount_out)?;
        if dir.exact_in {
            self.remaining = math::w_sub(self.remaining, paid)?;
            self.calculated = math::w_add(self.calculated, out)?;
            if self.calculated > I256_MIN_MAG {
                return Err(PoolError::Revert(PoolRevert::AmountCalculatedBelowInt256));
            }
        } else {
            self.remaining = math::w_sub(self.remaining, out)?;
            self.calculated = math::w_add(self.calculated, paid)?;
            if self.calculated >= I256_MIN_MAG {
                return Err(PoolError::Revert(PoolRevert::AmountCalculatedAboveInt256));
            }
        }
        self.net_in = wrapping_add(self.net_in, step.amount_in);
        let mut fee_amount = step.fee_amount;
        if dir.proto_n > 0 {
            let d = math::w_div(fee_amount, W::small(u128::from(dir.proto_n)))?;
            fee_amount = math::w_sub(fee_amount, d)?;
            // `uint128(delta)` truncates; the uint128 sum wraps.
            self.protocol = self.protocol.wrapping_add(d.lo);
        }
        if self.liquidity > 0 {
            if let (true, Some(g)) = (dir.fees, growth) {
                self.fee_growth = wrapping_add(self.fee_growth, g);
            } else if dir.fees {
                // `mulDiv(fee, 2^128, L)`: for a fee below 2^128 the product is `fee << 128`,
                // divided by the prepared liquidity when the quotient fits 128 bits.
                let prepared = l_div
                    .filter(|_| fee_amount.hi == 0)
                    .and_then(|d| d.div_shifted(fee_amount.lo));
                let g = match prepared {
                    Some(q) => W::small(q),
                    None => mul_div(fee_amount, W { hi: 1, lo: 0 }, W::small(self.liquidity))?,
                };
                self.fee_growth = wrapping_add(self.fee_growth, g);
            } else if fee_amount.hi >= self.liquidity {
                // `mulDiv(fee, 2^128, L)` reverts exactly when fee >= L·2^128.
                return Err(crate::error::MathError::Overflow.into());
            }
        }
        Ok(())
    }
}
