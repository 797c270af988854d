//! Concentrated-liquidity pools: Uniswap V3 and the forks with the same math (PancakeSwap V3,
//! SushiSwap V3, Aerodrome Slipstream, Velodrome CL).
//!
//! Reproduces `UniswapV3Pool` bit for bit: `TickMath` ([`tick_math`]), `SqrtPriceMath` and
//! `SwapMath.computeSwapStep` ([`sqrt_price_math`]), the swap loop over initialised ticks
//! ([`ConcentratedLiquidity::execute_swap`]: exact input and exact output, any price limit,
//! partial fills, the fee per step, the protocol fee, fee growth) and the amounts of position
//! `mint` / `burn` ([`ConcentratedLiquidity::mint`], [`ConcentratedLiquidity::burn`]).
//!
//! The fee (in pips, millionths) and the tick spacing are data, not constants: any fee tier and
//! spacing a fork uses (Uniswap's 100/500/3000/10000, PancakeSwap's 100/500/2500/10000,
//! Slipstream's spacing-keyed pools) is a value of this one type.
//!
//! # The swap loop
//!
//! Each step's target is the next initialised tick **inside the current 256-bit bitmap word**
//! of the contract's `tickBitmap`, or that word's edge, clamped to ±887272 and to the price
//! limit. Every step rounds on its own, so the word edges change the amounts by a few wei; the
//! loop stops at them exactly as the contract does, computing the word from the sorted tick list
//! instead of a bitmap.
//!
//! # A window of ticks
//!
//! A snapshot often holds only the ticks a reader loaded around the price. The family verbs
//! ([`ConcentratedLiquidity::amount_out`], [`ConcentratedLiquidity::amount_in`],
//! [`ConcentratedLiquidity::swap`]) therefore never move the price past the lowest or the
//! highest tick the pool knows: the window's edges are the end of the pool's range, and a trade
//! that would need more fails with [`PoolError::InsufficientLiquidity`] (exact input) or
//! [`PoolError::UnreachableOutput`] (exact output) instead of promising liquidity that may not
//! be there. With a complete tick list (liquidity zero beyond the outermost ticks) this changes
//! nothing. [`ConcentratedLiquidity::execute_swap`] is the contract's own loop, with no window.

pub mod sqrt_price_math;
pub mod tick_math;

use crate::error::PoolError;
use crate::math::{self, W};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Shr;
use primitive_types::U256;
use sqrt_price_math::{amount0_delta, amount1_delta, compute_swap_step, mul_div, FEE_DENOMINATOR};
use tick_math::{
    sqrt_ratio_at_tick, sqrt_ratio_at_tick_le, tick_at_sqrt_ratio, MAX_SQRT_RATIO, MAX_TICK,
    MIN_SQRT_RATIO, MIN_TICK,
};

/// An initialised tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tick {
    /// The tick index (a multiple of the pool's spacing).
    pub index: i32,
    /// Liquidity added when the price crosses the tick upwards (removed downwards).
    pub liquidity_net: i128,
    /// Total liquidity referencing the tick (`liquidityGross`); only position `mint` / `burn`
    /// read it (its `maxLiquidityPerTick` check and whether a tick flips).
    pub liquidity_gross: u128,
}

/// The amount of a contract swap: `amountSpecified` > 0 (exact input) or < 0 (exact output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwapAmount {
    /// Spend exactly this much input (below 2^255).
    ExactIn(U256),
    /// Receive exactly this much output (at most 2^255).
    ExactOut(U256),
}

/// The outcome of [`ConcentratedLiquidity::execute_swap`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClSwap {
    /// Paid into the pool, fee included (`amount0` for zero-for-one swaps, else `amount1`).
    pub amount_in: U256,
    /// Paid out of the pool (the magnitude of the negative amount).
    pub amount_out: U256,
    /// The pool after the swap (price, tick, liquidity, fee growth, protocol fees).
    pub pool: ConcentratedLiquidity,
}

/// The outcome of [`ConcentratedLiquidity::mint`] / [`ConcentratedLiquidity::burn`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClPosition {
    /// Token0 paid in (mint, rounded up) or credited (burn, rounded down).
    pub amount0: U256,
    /// Token1, likewise.
    pub amount1: U256,
    /// The pool after the change (ticks and, when in range, active liquidity).
    pub pool: ConcentratedLiquidity,
}

/// The known ticks and their √ratios (`getSqrtRatioAtTick` of each index, computed once at
/// construction, so a swap step toward an initialised tick evaluates no `TickMath`).
#[derive(Debug, PartialEq, Eq)]
struct TickTable {
    ticks: Vec<Tick>,
    ratios: Vec<W>,
}

impl TickTable {
    /// The table of `ticks` (indices within ±887272, checked by the caller).
    fn new(ticks: Vec<Tick>) -> Result<Self, PoolError> {
        let ratios = ticks
            .iter()
            .map(|t| sqrt_ratio_at_tick(t.index))
            .collect::<Result<Vec<W>, PoolError>>()?;
        Ok(Self { ticks, ratios })
    }
}

/// A concentrated-liquidity pool state (`slot0`, liquidity, fees and the known ticks).
///
/// The ticks are shared between a state and the states its swaps produce (a swap does not
/// change them), so a swap does not allocate.
///
/// # Example
/// ```
/// use swapzap::pool::concentrated_liquidity::{ConcentratedLiquidity, Tick};
/// use swapzap::U256;
///
/// // Price 1 (√P = 2^96, tick 0), one full-range position of liquidity 10^18, a 0.3 % fee.
/// let l: u128 = 1_000_000_000_000_000_000;
/// let ticks = vec![
///     Tick { index: -887_220, liquidity_net: l as i128, liquidity_gross: l },
///     Tick { index: 887_220, liquidity_net: -(l as i128), liquidity_gross: l },
/// ];
/// let pool = ConcentratedLiquidity::new(U256::one() << 96, 0, l, 3_000, 60, ticks)?;
/// // 10^6 in: 0.3 % fee, then x·y = L² at a price that hardly moves.
/// let out = pool.amount_out(0, 1, U256::from(1_000_000u64))?;
/// assert!(out < U256::from(997_000u64) && out > U256::from(996_990u64));
/// let (paid, after) = pool.swap(0, 1, U256::from(1_000_000u64))?;
/// assert_eq!(paid, out);
/// assert!(after.amount_out(0, 1, U256::from(1_000_000u64))? <= out);
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConcentratedLiquidity {
    sqrt_price_x96: W,
    tick: i32,
    liquidity: u128,
    fee: u32,
    tick_spacing: i32,
    table: Arc<TickTable>,
    fee_protocol: u8,
    fee_growth_global: [W; 2],
    protocol_fees: [u128; 2],
    /// Tokens the known ticks hold (see [`Self::balances`]).
    balances: [U256; 2],
}

/// `LiquidityMath.addDelta` (`LS` below zero, `LA` above 2^128 − 1).
#[inline]
fn add_delta(x: u128, y: i128) -> Result<u128, PoolError> {
    if y < 0 {
        x.checked_sub(y.unsigned_abs())
            .ok_or(PoolError::Revert("LS"))
    } else {
        x.checked_add(y.unsigned_abs())
            .ok_or(PoolError::Revert("LA"))
    }
}

/// `x − y` exactly (walking down across a tick): unlike `add_delta(x, −y)` it is exact for
/// `y = i128::MIN`, whose negation does not fit an `i128`.
#[inline]
fn sub_delta(x: u128, y: i128) -> Result<u128, PoolError> {
    if y < 0 {
        x.checked_add(y.unsigned_abs())
            .ok_or(PoolError::Revert("LA"))
    } else {
        x.checked_sub(y.unsigned_abs())
            .ok_or(PoolError::Revert("LS"))
    }
}

/// `a + b` modulo 2^256 (the contract's unchecked fee growth).
#[inline]
fn wrapping_add(a: W, b: W) -> W {
    let (lo, c) = a.lo.overflowing_add(b.lo);
    W {
        hi: a.hi.wrapping_add(b.hi).wrapping_add(u128::from(c)),
        lo,
    }
}

/// 2^255: `int256` magnitudes stay at or below it.
const I256_MIN_MAG: W = W {
    hi: 1 << 127,
    lo: 0,
};

/// `SafeCast.toInt256`: the value must be below 2^255.
#[inline]
fn to_int256(x: W) -> Result<W, PoolError> {
    if x >= I256_MIN_MAG {
        Err(PoolError::Revert("int256 cast"))
    } else {
        Ok(x)
    }
}

/// `SqrtPriceMath.getAmount{0,1}Delta(a, b, int128 delta)`: rounded up for a positive delta
/// (what a mint owes), down for a negative one (what a burn credits), as a magnitude.
fn signed_delta(token1: bool, a: W, b: W, delta: i128) -> Result<W, PoolError> {
    let (l, up) = (delta.unsigned_abs(), delta > 0);
    let v = if token1 {
        amount1_delta(a, b, l, up)?
    } else {
        amount0_delta(a, b, l, up)?
    };
    to_int256(v)
}

/// `getTickAtSqrtRatio(p)` after the price moved within a step from a state at `tick` to `p`:
/// when √ratio(tick) <= p < √ratio(tick + 1) the tick is unchanged (two comparisons by
/// multiplication, [`sqrt_ratio_at_tick_le`]), otherwise it is searched.
#[inline]
fn tick_after_move(tick: i32, p: W) -> Result<i32, PoolError> {
    if sqrt_ratio_at_tick_le(tick, p)?
        && tick < MAX_TICK
        && !sqrt_ratio_at_tick_le(tick.saturating_add(1), p)?
    {
        Ok(tick)
    } else {
        tick_at_sqrt_ratio(p)
    }
}

/// Whether `tick` is a multiple of the spacing `s` (`s >= 1`).
#[inline]
fn on_spacing(tick: i32, s: i32) -> bool {
    tick.checked_rem(s) == Some(0)
}

/// The floor of `x / s` for `s > 0` (a tick's compressed index).
#[inline]
fn floor_div(x: i32, s: i32) -> i32 {
    x.div_euclid(s.max(1))
}

impl ConcentratedLiquidity {
    /// A pool at `sqrt_price_x96` / `tick` with active `liquidity`, fee `fee` in pips
    /// (millionths), `tick_spacing` and the initialised `ticks` it knows, ascending.
    ///
    /// The protocol fee is off and fee growth is 0 (see [`Self::with_fees`]).
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] naming the field for: a fee at or above 10^6, a spacing
    /// outside 1..=16384, a price outside the contract's range or not at `tick` (the price may
    /// be exactly √ratio(`tick` + 1), where a swap that stopped on a tick leaves it), ticks
    /// unsorted, repeated, off the spacing or outside ±887272, and net liquidity that goes
    /// negative (or above 2^128 − 1) across the ticks.
    pub fn new(
        sqrt_price_x96: U256,
        tick: i32,
        liquidity: u128,
        fee: u32,
        tick_spacing: i32,
        ticks: Vec<Tick>,
    ) -> Result<Self, PoolError> {
        if fee >= FEE_DENOMINATOR {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeAbovePips,
            ));
        }
        if !(1..=16_384).contains(&tick_spacing) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::TickSpacingRange,
            ));
        }
        let p = W::from_u256(sqrt_price_x96);
        if !(MIN_SQRT_RATIO..MAX_SQRT_RATIO).contains(&p) || !(MIN_TICK..MAX_TICK).contains(&tick) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SqrtPriceOrTickRange,
            ));
        }
        let at = sqrt_ratio_at_tick(tick)?;
        let above = sqrt_ratio_at_tick(tick.saturating_add(1))?;
        if p < at || p > above {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::SqrtPriceNotAtTick,
            ));
        }
        let mut prev: Option<i32> = None;
        for t in &ticks {
            if prev.is_some_and(|q| q >= t.index) {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::TicksNotAscending,
                ));
            }
            if !on_spacing(t.index, tick_spacing) {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::TickNotOnSpacing,
                ));
            }
            if !(MIN_TICK..=MAX_TICK).contains(&t.index) {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::TickBeyondBounds,
                ));
            }
            prev = Some(t.index);
        }
        // Net liquidity across the ticks, walking out from the current tick both ways.
        let split = ticks.partition_point(|t| t.index <= tick);
        let (below, above_ticks) = ticks.split_at(split);
        let mut l = liquidity;
        for t in below.iter().rev() {
            l = sub_delta(l, t.liquidity_net).map_err(|_| {
                PoolError::InvalidState(crate::error::PoolStateProblem::LiquidityBelowZero)
            })?;
        }
        let mut l = liquidity;
        for t in above_ticks {
            l = add_delta(l, t.liquidity_net).map_err(|_| {
                PoolError::InvalidState(crate::error::PoolStateProblem::LiquidityBelowZero)
            })?;
        }
        let mut pool = Self {
            sqrt_price_x96: p,
            tick,
            liquidity,
            fee,
            tick_spacing,
            table: Arc::new(TickTable::new(ticks)?),
            fee_protocol: 0,
            fee_growth_global: [W::ZERO; 2],
            protocol_fees: [0; 2],
            balances: [U256::zero(); 2],
        };
        pool.balances = pool.window_amounts();
        Ok(pool)
    }

    /// The same pool with its fee state: the raw `slot0.feeProtocol` byte (low nibble: token0's
    /// share, high nibble: token1's; 0 = off, n = 1/n of the fee), `feeGrowthGlobal{0,1}X128`
    /// and `protocolFees`.
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] for a nibble other than 0 or 4..=10.
    pub fn with_fees(
        mut self,
        fee_protocol: u8,
        fee_growth_global_x128: [U256; 2],
        protocol_fees: [u128; 2],
    ) -> Result<Self, PoolError> {
        let ok = |n: u8| n == 0 || (4..=10).contains(&n);
        if !ok(fee_protocol & 15) || !ok(fee_protocol >> 4) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeProtocolNibble,
            ));
        }
        self.fee_protocol = fee_protocol;
        self.fee_growth_global = fee_growth_global_x128.map(W::from_u256);
        self.protocol_fees = protocol_fees;
        Ok(self)
    }

    /// `slot0.sqrtPriceX96`.
    #[must_use]
    pub fn sqrt_price_x96(&self) -> U256 {
        self.sqrt_price_x96.to_u256()
    }

    /// `slot0.tick`.
    #[must_use]
    pub fn tick(&self) -> i32 {
        self.tick
    }

    /// Active liquidity.
    #[must_use]
    pub fn liquidity(&self) -> u128 {
        self.liquidity
    }

    /// The swap fee in pips (millionths).
    #[must_use]
    pub fn fee(&self) -> u32 {
        self.fee
    }

    /// The tick spacing.
    #[must_use]
    pub fn tick_spacing(&self) -> i32 {
        self.tick_spacing
    }

    /// The initialised ticks the pool knows, ascending.
    #[must_use]
    pub fn ticks(&self) -> &[Tick] {
        &self.table.ticks
    }

    /// `feeGrowthGlobal0X128` and `feeGrowthGlobal1X128`.
    #[must_use]
    pub fn fee_growth_global_x128(&self) -> [U256; 2] {
        self.fee_growth_global.map(W::to_u256)
    }

    /// `protocolFees` (token0, token1).
    #[must_use]
    pub fn protocol_fees(&self) -> [u128; 2] {
        self.protocol_fees
    }

    /// `maxLiquidityPerTick` for the pool's spacing: (2^128 − 1) / the number of usable ticks.
    #[must_use]
    pub fn max_liquidity_per_tick(&self) -> u128 {
        // MIN/MAX_TICK truncated towards zero to the spacing are ∓(887272 / s)·s, so the usable
        // ticks number 2·(887272 / s) + 1; s >= 1 (constructor invariant).
        let per_side = MAX_TICK
            .unsigned_abs()
            .checked_div(self.tick_spacing.unsigned_abs())
            .unwrap_or(0);
        let n = u128::from(per_side).saturating_mul(2).saturating_add(1);
        u128::MAX.checked_div(n).unwrap_or(0)
    }

    /// Number of coins (2).
    #[must_use]
    pub fn n_coins(&self) -> usize {
        2
    }

    /// The tokens the known ticks hold: token0 between the price and each range above it,
    /// token1 below, rounded down, as of construction and moved by each swap's amounts (fees
    /// excluded). For depth and pricing only; the swap amounts never read it.
    #[must_use]
    pub fn balances(&self) -> &[U256] {
        &self.balances
    }

    /// LP supply: 0 (positions are not fungible tokens).
    #[must_use]
    pub fn total_supply(&self) -> U256 {
        U256::zero()
    }

    /// Token amounts backing the known ticks at the current price (for [`Self::balances`]),
    /// saturating at `U256::MAX` where a sum would not fit.
    fn window_amounts(&self) -> [U256; 2] {
        self.try_window_amounts().unwrap_or([U256::MAX; 2])
    }

    fn try_window_amounts(&self) -> Result<[U256; 2], PoolError> {
        let split = self.ticks().partition_point(|t| t.index <= self.tick);
        let (below, above) = self.ticks().split_at(split);
        let p = self.sqrt_price_x96;
        let mut out = [W::ZERO; 2];
        // Above: token0 from the price (or the segment's start) to each next tick.
        let (mut l, mut from) = (self.liquidity, p);
        for t in above {
            let to = sqrt_ratio_at_tick(t.index)?;
            out[0] = math::w_add(out[0], amount0_delta(from, to, l, false)?)?;
            l = add_delta(l, t.liquidity_net)?;
            from = to;
        }
        let (mut l, mut from) = (self.liquidity, p);
        for t in below.iter().rev() {
            let to = sqrt_ratio_at_tick(t.index)?;
            out[1] = math::w_add(out[1], amount1_delta(to, from, l, false)?)?;
            l = sub_delta(l, t.liquidity_net)?;
            from = to;
        }
        Ok(out.map(W::to_u256))
    }

    /// `tickBitmap.nextInitializedTickWithinOneWord`: the next initialised tick at or below
    /// (`lte`) or above the current tick within its 256-tick-spacing word, or the word's edge.
    fn next_tick_in_word(&self, tick: i32, lte: bool) -> (i32, Option<usize>) {
        let s = self.tick_spacing;
        let compressed = floor_div(tick, s);
        // |compressed| <= 887272 and 256·s <= 2^22: every product below fits i32.
        #[allow(clippy::arithmetic_side_effects)]
        if lte {
            let word_lo = (compressed >> 8) << 8;
            let (lo, hi) = (word_lo * s, compressed * s);
            let k = self.ticks().partition_point(|t| t.index <= hi);
            match k
                .checked_sub(1)
                .and_then(|k| self.ticks().get(k).map(|t| (k, t)))
            {
                Some((k, t)) if t.index >= lo => (t.index, Some(k)),
                _ => (lo, None),
            }
        } else {
            let c1 = compressed + 1;
            let word_hi = ((c1 >> 8) << 8) + 255;
            let (lo, hi) = (c1 * s, word_hi * s);
            let k = self.ticks().partition_point(|t| t.index < lo);
            match self.ticks().get(k) {
                Some(t) if t.index <= hi => (t.index, Some(k)),
                _ => (hi, None),
            }
        }
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
    #[allow(clippy::too_many_lines)]
    fn swap_loop(
        &self,
        zero_for_one: bool,
        amount: SwapAmount,
        limit: W,
    ) -> Result<(ClSwap, W), PoolError> {
        let (exact_in, specified) = match amount {
            SwapAmount::ExactIn(a) => (true, W::from_u256(a)),
            SwapAmount::ExactOut(a) => (false, W::from_u256(a)),
        };
        if specified.is_zero() {
            return Err(PoolError::Revert("AS"));
        }
        if (exact_in && specified >= I256_MIN_MAG) || specified > I256_MIN_MAG {
            return Err(PoolError::Revert("amountSpecified outside int256"));
        }
        let p0 = self.sqrt_price_x96;
        let limit_ok = if zero_for_one {
            limit < p0 && limit > MIN_SQRT_RATIO
        } else {
            limit > p0 && limit < MAX_SQRT_RATIO
        };
        if !limit_ok {
            return Err(PoolError::Revert("SPL"));
        }
        let proto_n = if zero_for_one {
            self.fee_protocol & 15
        } else {
            self.fee_protocol >> 4
        };
        let side = usize::from(!zero_for_one);
        let mut fee_growth = self.fee_growth_global[side];
        let mut protocol = 0u128;
        let (mut price, mut tick, mut liquidity) = (p0, self.tick, self.liquidity);
        // Magnitudes: the remaining amount, what the other side adds up to, the fee-free input.
        let mut remaining = specified;
        let mut calculated = W::ZERO;
        let mut net_in = W::ZERO;
        while !remaining.is_zero() && price != limit {
            let start = price;
            let (next, initialized) = self.next_tick_in_word(tick, zero_for_one);
            let next = next.clamp(MIN_TICK, MAX_TICK);
            // An initialised tick's √ratio is in the table; a word's edge is computed.
            let p_next = match initialized.and_then(|k| self.table.ratios.get(k)) {
                Some(&r) => r,
                None => sqrt_ratio_at_tick(next)?,
            };
            let target = if (zero_for_one && p_next < limit) || (!zero_for_one && p_next > limit) {
                limit
            } else {
                p_next
            };
            let step = compute_swap_step(price, target, liquidity, remaining, exact_in, self.fee)?;
            price = step.sqrt_price_x96;
            // `(amountIn + feeAmount)` is an unchecked uint256 sum in the contract.
            let paid = to_int256(wrapping_add(step.amount_in, step.fee_amount))?;
            let out = to_int256(step.amount_out)?;
            if exact_in {
                remaining = math::w_sub(remaining, paid)?;
                calculated = math::w_add(calculated, out)?;
                if calculated > I256_MIN_MAG {
                    return Err(PoolError::Revert("amountCalculated below int256"));
                }
            } else {
                remaining = math::w_sub(remaining, out)?;
                calculated = math::w_add(calculated, paid)?;
                if calculated >= I256_MIN_MAG {
                    return Err(PoolError::Revert("amountCalculated above int256"));
                }
            }
            net_in = wrapping_add(net_in, step.amount_in);
            let mut fee_amount = step.fee_amount;
            if proto_n > 0 {
                let d = math::w_div(fee_amount, W::small(u128::from(proto_n)))?;
                fee_amount = math::w_sub(fee_amount, d)?;
                // `uint128(delta)` truncates; the uint128 sum wraps.
                protocol = protocol.wrapping_add(d.lo);
            }
            if liquidity > 0 {
                let g = mul_div(fee_amount, W { hi: 1, lo: 0 }, W::small(liquidity))?;
                fee_growth = wrapping_add(fee_growth, g);
            }
            if price == p_next {
                if let Some(k) = initialized {
                    let net = self.ticks().get(k).map_or(0, |t| t.liquidity_net);
                    let net = if zero_for_one {
                        net.wrapping_neg()
                    } else {
                        net
                    };
                    liquidity = add_delta(liquidity, net)?;
                }
                // next is within ±887272, so next − 1 fits.
                tick = if zero_for_one {
                    next.saturating_sub(1)
                } else {
                    next
                };
            } else if price != start {
                tick = tick_after_move(tick, price)?;
            }
        }
        let spent = math::w_sub(specified, remaining)?;
        let (amount_in, amount_out) = if exact_in {
            (spent, calculated)
        } else {
            (calculated, spent)
        };
        let mut pool = self.clone();
        pool.sqrt_price_x96 = price;
        pool.tick = tick;
        pool.liquidity = liquidity;
        if let Some(g) = pool.fee_growth_global.get_mut(side) {
            *g = fee_growth;
        }
        if let Some(f) = pool.protocol_fees.get_mut(side) {
            *f = f.wrapping_add(protocol);
        }
        let (bi, bo) = if zero_for_one { (0, 1) } else { (1, 0) };
        let (in_u, out_u) = (amount_in.to_u256(), amount_out.to_u256());
        if let Some(b) = pool.balances.get_mut(bi) {
            *b = b.saturating_add(net_in.to_u256());
        }
        if let Some(b) = pool.balances.get_mut(bo) {
            *b = b.saturating_sub(out_u);
        }
        Ok((
            ClSwap {
                amount_in: in_u,
                amount_out: out_u,
                pool,
            },
            net_in,
        ))
    }

    /// √ratio of the outermost known ticks.
    fn window_edges(&self) -> Option<[W; 2]> {
        Some([*self.table.ratios.first()?, *self.table.ratios.last()?])
    }

    /// The price limit of the known window in one direction: the lowest known tick's price
    /// going down, the highest's going up (or the contract's own limit past them), `None` when
    /// no known tick lies that way.
    fn window_limit(&self, zero_for_one: bool) -> Option<W> {
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

    /// A swap of `i` into `j` bounded by the known window.
    fn window_swap(&self, i: usize, j: usize, amount: SwapAmount) -> Result<ClSwap, PoolError> {
        super::pair(i, j)?;
        let zero_for_one = i == 0;
        let limit = self
            .window_limit(zero_for_one)
            .ok_or(PoolError::InsufficientLiquidity)?;
        self.swap_loop(zero_for_one, amount, limit).map(|(s, _)| s)
    }

    /// The output of an exact-input swap of `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for 0, [`PoolError::InsufficientLiquidity`] when
    /// the known ticks cannot absorb all of `dx` (the contract would fill it partially);
    /// contract reverts.
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        self.swap(i, j, dx).map(|(o, _)| o)
    }

    /// The exact-input swap: the output and the state after (see [`Self::amount_out`]).
    ///
    /// # Errors
    /// As [`Self::amount_out`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        if dx.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let s = self.window_swap(i, j, SwapAmount::ExactIn(dx))?;
        if s.amount_in != dx {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok((s.amount_out, s.pool))
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
            let s = self.window_swap(i, j, SwapAmount::ExactIn(x))?;
            if s.amount_in == x {
                return Ok(x);
            }
            x = s.amount_in;
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
        let s = self
            .window_swap(i, j, SwapAmount::ExactOut(dy))
            .map_err(|e| match e {
                PoolError::InsufficientLiquidity => PoolError::UnreachableOutput,
                e => e,
            })?;
        if s.amount_out != dy {
            return Err(PoolError::UnreachableOutput);
        }
        Ok(s.amount_in)
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
        if super::pair(i, j).is_err() || self.window_limit(i == 0).is_none() {
            return 0.0;
        }
        let s = math::float::to_f64(self.sqrt_price_x96.to_u256())
            / 79_228_162_514_264_337_593_543_950_336.0;
        let price = s * s;
        let g = 1.0 - f64::from(self.fee) / f64::from(FEE_DENOMINATOR);
        if i == 0 {
            price * g
        } else if price > 0.0 {
            g / price
        } else {
            0.0
        }
    }

    /// `UniswapV3Pool.mint(tickLower, tickUpper, amount)`: the token amounts owed (rounded up)
    /// and the pool after.
    ///
    /// # Errors
    /// The contract's reverts: amount 0 or ≥ 2^127, `TLU`, `TLM`, `TUM`, `LO` (a tick above
    /// `maxLiquidityPerTick`), a newly initialised tick off the spacing.
    pub fn mint(
        &self,
        tick_lower: i32,
        tick_upper: i32,
        amount: u128,
    ) -> Result<ClPosition, PoolError> {
        if amount == 0 {
            return Err(PoolError::Revert("mint amount is zero"));
        }
        let delta = i128::try_from(amount).map_err(|_| PoolError::Revert("int128 cast"))?;
        self.modify_position(tick_lower, tick_upper, delta, 0)
    }

    /// `UniswapV3Pool.burn(tickLower, tickUpper, amount)` of a position holding
    /// `position_liquidity`: the amounts credited (rounded down) and the pool after.
    ///
    /// # Errors
    /// The contract's reverts: `NP` (burning 0 of an empty position), `LS` (more than the
    /// position or a tick holds), ticks out of order or range, amount ≥ 2^127.
    pub fn burn(
        &self,
        tick_lower: i32,
        tick_upper: i32,
        amount: u128,
        position_liquidity: u128,
    ) -> Result<ClPosition, PoolError> {
        let delta = i128::try_from(amount).map_err(|_| PoolError::Revert("int128 cast"))?;
        self.modify_position(
            tick_lower,
            tick_upper,
            delta.wrapping_neg(),
            position_liquidity,
        )
    }

    /// `_modifyPosition`: tick checks, tick and position updates, then the amounts.
    fn modify_position(
        &self,
        lower: i32,
        upper: i32,
        delta: i128,
        position_liquidity: u128,
    ) -> Result<ClPosition, PoolError> {
        if lower >= upper {
            return Err(PoolError::Revert("TLU"));
        }
        if lower < MIN_TICK {
            return Err(PoolError::Revert("TLM"));
        }
        if upper > MAX_TICK {
            return Err(PoolError::Revert("TUM"));
        }
        let mut ticks: Vec<Tick> = self.ticks().to_vec();
        if delta != 0 {
            let max = self.max_liquidity_per_tick();
            for (index, is_upper) in [(lower, false), (upper, true)] {
                let k = ticks.partition_point(|t| t.index < index);
                let existing = ticks.get(k).filter(|t| t.index == index).copied();
                let before = existing.unwrap_or(Tick {
                    index,
                    liquidity_net: 0,
                    liquidity_gross: 0,
                });
                let gross = add_delta(before.liquidity_gross, delta)?;
                if gross > max {
                    return Err(PoolError::Revert("LO"));
                }
                let net = if is_upper {
                    before.liquidity_net.checked_sub(delta)
                } else {
                    before.liquidity_net.checked_add(delta)
                }
                .ok_or(PoolError::Revert("int128 liquidity_net"))?;
                let flipped = (gross == 0) != (before.liquidity_gross == 0);
                if flipped && !on_spacing(index, self.tick_spacing) {
                    return Err(PoolError::Revert("tick not on the spacing"));
                }
                let t = Tick {
                    index,
                    liquidity_net: net,
                    liquidity_gross: gross,
                };
                match (existing.is_some(), gross == 0) {
                    (true, true) => {
                        ticks.remove(k);
                    }
                    (true, false) => {
                        if let Some(slot) = ticks.get_mut(k) {
                            *slot = t;
                        }
                    }
                    (false, _) => ticks.insert(k, t),
                }
            }
        }
        // Position.update: burning 0 needs a live position; the position cannot go negative.
        if delta == 0 && position_liquidity == 0 {
            return Err(PoolError::Revert("NP"));
        }
        add_delta(position_liquidity, delta)?;
        let mut pool = self.clone();
        let (mut a0, mut a1) = (W::ZERO, W::ZERO);
        if delta != 0 {
            let (pl, pu) = (sqrt_ratio_at_tick(lower)?, sqrt_ratio_at_tick(upper)?);
            if self.tick < lower {
                a0 = signed_delta(false, pl, pu, delta)?;
            } else if self.tick < upper {
                a0 = signed_delta(false, self.sqrt_price_x96, pu, delta)?;
                a1 = signed_delta(true, pl, self.sqrt_price_x96, delta)?;
                pool.liquidity = add_delta(self.liquidity, delta)?;
            } else {
                a1 = signed_delta(true, pl, pu, delta)?;
            }
        }
        pool.table = Arc::new(TickTable::new(ticks)?);
        pool.balances = pool.window_amounts();
        Ok(ClPosition {
            amount0: a0.to_u256(),
            amount1: a1.to_u256(),
            pool,
        })
    }
}
