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

mod liquidity;
pub mod sqrt_price_math;
mod swap;
pub mod tick_math;

use crate::error::{PoolError, PoolRevert, PoolStateProblem};
use crate::math::wide::Div128;
use crate::math::{self, W};
use alloc::sync::Arc;
use alloc::vec::Vec;
use primitive_types::U256;
use sqrt_price_math::{
    amount0_delta, amount1_delta, compute_swap_step, Reaching, StepFee, FEE_DENOMINATOR,
};
use tick_math::{sqrt_ratio_at_tick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK};

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
/// construction, so a swap step toward an initialised tick evaluates no `TickMath`), and the
/// active liquidity of each segment between them prepared for division (so the fee growth's
/// division by the liquidity computes no reciprocal).
///
/// It also holds what no swap changes (the fee and the spacing), so the state a swap returns
/// carries only what moves, and a swap shares the table instead of copying it.
#[derive(Debug, PartialEq, Eq)]
struct TickTable {
    /// The swap fee in pips (millionths).
    fee: u32,
    /// `fee` prepared for the steps.
    step_fee: StepFee,
    tick_spacing: i32,
    ticks: Vec<Tick>,
    ratios: Vec<W>,
    /// Per known tick, the current ticks from which the contract's next-tick search in the
    /// bitmap finds it within the word (`word_bounds`): going down, a current tick below the
    /// first entry (the known tick is the highest at or below it); going up, one at or above
    /// the second (it is the lowest above).
    words: Vec<[i32; 2]>,
    /// Entry k: the liquidity of a state with k known ticks at or below its tick (k = 0..=n),
    /// walked out from the state the table was built for; 0 past a walk that fails. A state
    /// uses an entry only when its divisor is the state's liquidity.
    segments: Vec<Div128>,
    /// Entry k (k = 1..n − 1, the segment between known ticks k − 1 and k): the swap step that
    /// crosses the whole segment with its liquidity, from √ratio(tick k) down to √ratio(tick
    /// k − 1) (`[0]`, token0 in) and up the other way (`[1]`, token1 in): `computeSwapStep`'s
    /// input, output and fee when the amount left suffices, which depend only on the two
    /// prices, the liquidity and the fee. `None` where a step would not reach the other end.
    crossings: Vec<[Option<Reaching>; 2]>,
    /// The first step of a swap from the state the table was built for (a snapshot's pool, or
    /// a position change's), in each direction, when it reaches its target.
    first: FirstSteps,
}

/// A step from a given price to a given target with a given liquidity that reaches the target
/// (`computeSwapStep` with an amount that suffices: its amounts depend on nothing else).
#[derive(Debug, Clone, Copy)]
struct KnownStep {
    price: W,
    target: W,
    liquidity: u128,
    step: Reaching,
}

/// The first steps of a table's own state (`[0]` token0 in, going down; `[1]` token1 in): from
/// its price to the next initialised tick in the word (or the word's edge). A cache of values
/// computed from the rest of the table and the state, so never part of the table's value:
/// any two are equal.
#[derive(Debug, Clone, Copy, Default)]
struct FirstSteps([Option<KnownStep>; 2]);

impl PartialEq for FirstSteps {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for FirstSteps {}

impl TickTable {
    /// The table of `ticks` (indices within ±887272, checked by the caller) for a state with
    /// active `liquidity` and `below` known ticks at or below its tick, in a pool with fee
    /// `fee` (pips, below 10^6) and `tick_spacing`.
    fn new(
        (fee, tick_spacing): (u32, i32),
        ticks: Vec<Tick>,
        liquidity: u128,
        below: usize,
    ) -> Result<Self, PoolError> {
        let ratios = ticks
            .iter()
            .map(|t| sqrt_ratio_at_tick(t.index))
            .collect::<Result<Vec<W>, PoolError>>()?;
        let mut segments = alloc::vec![Div128::prepared(0); ticks.len().saturating_add(1)];
        if let Some(slot) = segments.get_mut(below) {
            *slot = Div128::prepared(liquidity);
        }
        // Down: crossing tick k downwards leaves segment k for segment k (below = k).
        let mut l = liquidity;
        for (k, t) in ticks.iter().enumerate().take(below).rev() {
            let Ok(next) = sub_delta(l, t.liquidity_net) else {
                break;
            };
            l = next;
            if let Some(slot) = segments.get_mut(k) {
                *slot = Div128::prepared(l);
            }
        }
        // Up: crossing tick k upwards enters segment k + 1.
        let mut l = liquidity;
        for (k, t) in ticks.iter().enumerate().skip(below) {
            let Ok(next) = add_delta(l, t.liquidity_net) else {
                break;
            };
            l = next;
            if let Some(slot) = segments.get_mut(k.saturating_add(1)) {
                *slot = Div128::prepared(l);
            }
        }
        let step_fee = StepFee::new(fee);
        let crossings = crossings(&ratios, &segments, step_fee);
        let words = ticks
            .iter()
            .map(|t| word_bounds(t.index, tick_spacing))
            .collect();
        Ok(Self {
            fee,
            step_fee,
            tick_spacing,
            ticks,
            ratios,
            words,
            segments,
            crossings,
            first: FirstSteps::default(),
        })
    }

    /// The step from `price` to `target` with `liquidity` that reaches the target, when the
    /// table holds it: a whole segment's (`crossing`, `k` the number of known ticks at or below
    /// the state's tick) or the first step from the table's own state. The step's input less
    /// the fee, or its output, is what a step with the same ends needs to reach the target.
    #[inline]
    fn known_step(
        &self,
        k: usize,
        zero_for_one: bool,
        ends: (W, W),
        liquidity: u128,
    ) -> Option<&Reaching> {
        if let Some(step) = self.crossing(k, zero_for_one, ends, liquidity) {
            return Some(step);
        }
        let f = self.first.0.get(usize::from(!zero_for_one))?.as_ref()?;
        ((f.price, f.target) == ends && f.liquidity == liquidity).then_some(&f.step)
    }

    /// The step across segment `k` (see `crossings`) from `price` to `target` with liquidity
    /// `liquidity`, going down (`zero_for_one`) or up: `Some` only when the step starts and ends
    /// on the segment's two ticks and the liquidity is the segment's.
    #[inline]
    fn crossing(
        &self,
        k: usize,
        zero_for_one: bool,
        (price, target): (W, W),
        liquidity: u128,
    ) -> Option<&Reaching> {
        let (hi, lo) = (*self.ratios.get(k)?, *self.ratios.get(k.checked_sub(1)?)?);
        let ends = if zero_for_one { (hi, lo) } else { (lo, hi) };
        if ends != (price, target) || self.segments.get(k)?.divisor() != liquidity {
            return None;
        }
        self.crossings
            .get(k)?
            .get(usize::from(!zero_for_one))?
            .as_ref()
    }

    /// The prepared liquidity of segment `k` when it is `liquidity` (else `None`: the caller
    /// divides the plain way).
    #[inline]
    fn segment(&self, k: usize, liquidity: u128) -> Option<&Div128> {
        self.segments.get(k).filter(|d| d.divisor() == liquidity)
    }
}

/// The bounds of `words` for a known tick `x` (spacing `s >= 1`): with `w` the word of its
/// compressed index (`floor(x / s) >> 8`), a current tick finds it going down while in the same
/// word, below `(w + 1)·256·s` (the next word's first tick), and going up when the word the
/// search starts in (that of `floor(tick / s) + 1`) is `w`, that is from `(256·w − 1)·s` on
/// (`floor(tick / s) >= 256·w − 1`). Both fit an `i32` (within 256 spacings of `x`).
fn word_bounds(x: i32, s: i32) -> [i32; 2] {
    let s = i64::from(s.max(1));
    let w = i64::from(x.div_euclid(s as i32) >> 8);
    let fit = |v: Option<i64>| v.and_then(|v| i32::try_from(v).ok()).unwrap_or(i32::MAX);
    [
        fit(w
            .checked_add(1)
            .and_then(|v| v.checked_mul(256))
            .and_then(|v| v.checked_mul(s))),
        fit(w
            .checked_mul(256)
            .and_then(|v| v.checked_sub(1))
            .and_then(|v| v.checked_mul(s))),
    ]
}

/// An amount left that no step needs more of (2^255 − 1, the largest exact input): a step
/// computed with it reaches its target whenever any amount would.
const AMPLE: W = W {
    hi: u128::MAX >> 1,
    lo: u128::MAX,
};

/// The whole-segment steps of a tick table (see `TickTable::crossings`): for each segment
/// between two known ticks, `computeSwapStep` from one end to the other with an amount left
/// that no step needs more of (2^255 − 1), kept when it reaches the other end.
fn crossings(ratios: &[W], segments: &[Div128], fee: StepFee) -> Vec<[Option<Reaching>; 2]> {
    let whole = |from: W, to: W, l: u128| -> Option<Reaching> {
        let step = compute_swap_step(from, to, l, AMPLE, true, fee, None).ok()?;
        (step.sqrt_price_x96 == to).then_some(Reaching::new(step, l, fee))
    };
    let mut out = alloc::vec![[None, None]; ratios.len().saturating_add(1)];
    for (k, pair) in ratios.windows(2).enumerate() {
        let (&[lo, hi], Some(l)) = (pair, segments.get(k.saturating_add(1))) else {
            continue;
        };
        if let Some(slot) = out.get_mut(k.saturating_add(1)) {
            *slot = [whole(hi, lo, l.divisor()), whole(lo, hi, l.divisor())];
        }
    }
    out
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
#[derive(Clone)]
pub struct ConcentratedLiquidity {
    sqrt_price_x96: W,
    /// `slot0.tick` when it is settled (`tick == tick_hi`); else the lowest tick it can be:
    /// after a swap that stopped between two ticks, `getTickAtSqrtRatio` of the price is
    /// searched for within `tick..=tick_hi` only when read ([`Self::tick`], the next swap).
    tick: i32,
    /// The highest tick `slot0.tick` can be (see `tick`).
    tick_hi: i32,
    /// The number of known ticks at or below the tick (where a swap's search for the next tick
    /// starts; a function of the ticks and the tick, checked before use).
    below: usize,
    liquidity: u128,
    /// The known ticks, the fee and the spacing: shared by a state and every state its swaps
    /// produce.
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
            .ok_or(PoolError::Revert(PoolRevert::LiquiditySub))
    } else {
        x.checked_add(y.unsigned_abs())
            .ok_or(PoolError::Revert(PoolRevert::LiquidityAdd))
    }
}

/// `x − y` exactly (walking down across a tick): unlike `add_delta(x, −y)` it is exact for
/// `y = i128::MIN`, whose negation does not fit an `i128`.
#[inline]
fn sub_delta(x: u128, y: i128) -> Result<u128, PoolError> {
    if y < 0 {
        x.checked_add(y.unsigned_abs())
            .ok_or(PoolError::Revert(PoolRevert::LiquidityAdd))
    } else {
        x.checked_sub(y.unsigned_abs())
            .ok_or(PoolError::Revert(PoolRevert::LiquiditySub))
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
        Err(PoolError::Revert(PoolRevert::Int256Cast))
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

/// The bounds of `getTickAtSqrtRatio(p)` after a step moved the price from a state whose tick
/// lies in `lo..=hi` (settled: `lo == hi`) to some `p`, short of the step's target at tick
/// `next` (the next known tick or the word's edge, clamped).
///
/// A state's price lies in [√ratio(tick), √ratio(tick + 1)] (the constructor checks it and the
/// loop keeps it), so going down (`zero_for_one`) the new tick is in `next..=hi` (`p` is at
/// or above the target, which is at or above √ratio(next), and below the start), going up in
/// `lo..=next − 1` (`p` is above the start and below √ratio(next)): the search
/// ([`tick_math::tick_at_sqrt_ratio_between`]) settles it within those bounds. Both bounds
/// are within ±887272, so the search never reports `T`.
#[inline]
fn tick_bounds_after_move((lo, hi): (i32, i32), next: i32, zero_for_one: bool) -> (i32, i32) {
    if zero_for_one {
        (next, hi)
    } else {
        (lo, next.saturating_sub(1))
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

/// `new`'s first check: a fee below 10^6 pips and a spacing in 1..=16384.
fn check_fee_and_spacing(fee: u32, tick_spacing: i32) -> Result<(), PoolError> {
    if fee >= FEE_DENOMINATOR {
        return Err(PoolError::InvalidState(PoolStateProblem::FeeAbovePips));
    }
    if !(1..=16_384).contains(&tick_spacing) {
        return Err(PoolError::InvalidState(PoolStateProblem::TickSpacingRange));
    }
    Ok(())
}

/// The price and the tick within the contract's range, and the price in
/// [√ratio(`tick`), √ratio(`tick` + 1)] (the upper end is where a swap that stopped on a tick
/// leaves it).
fn check_price_at_tick(p: W, tick: i32) -> Result<(), PoolError> {
    if !(MIN_SQRT_RATIO..MAX_SQRT_RATIO).contains(&p) || !(MIN_TICK..MAX_TICK).contains(&tick) {
        return Err(PoolError::InvalidState(
            PoolStateProblem::SqrtPriceOrTickRange,
        ));
    }
    let at = sqrt_ratio_at_tick(tick)?;
    let above = sqrt_ratio_at_tick(tick.saturating_add(1))?;
    if p < at || p > above {
        return Err(PoolError::InvalidState(
            PoolStateProblem::SqrtPriceNotAtTick,
        ));
    }
    Ok(())
}

/// The tick list strictly ascending, on the spacing and within ±887272.
fn check_tick_list(ticks: &[Tick], tick_spacing: i32) -> Result<(), PoolError> {
    let mut prev: Option<i32> = None;
    for t in ticks {
        if prev.is_some_and(|q| q >= t.index) {
            return Err(PoolError::InvalidState(PoolStateProblem::TicksNotAscending));
        }
        if !on_spacing(t.index, tick_spacing) {
            return Err(PoolError::InvalidState(PoolStateProblem::TickNotOnSpacing));
        }
        if !(MIN_TICK..=MAX_TICK).contains(&t.index) {
            return Err(PoolError::InvalidState(PoolStateProblem::TickBeyondBounds));
        }
        prev = Some(t.index);
    }
    Ok(())
}

/// Net liquidity across the ticks, walking out from the current tick both ways (`below` of
/// them at or below it), stays within 0..=2^128 − 1.
fn check_net_liquidity(ticks: &[Tick], below: usize, liquidity: u128) -> Result<(), PoolError> {
    let (lower, upper) = ticks.split_at(below.min(ticks.len()));
    let negative = |_| PoolError::InvalidState(PoolStateProblem::LiquidityBelowZero);
    let mut l = liquidity;
    for t in lower.iter().rev() {
        l = sub_delta(l, t.liquidity_net).map_err(negative)?;
    }
    let mut l = liquidity;
    for t in upper {
        l = add_delta(l, t.liquidity_net).map_err(negative)?;
    }
    Ok(())
}

/// States are equal when they mean the same pool: the tick compared settled (a swap may leave
/// it as bounds to search), the tick table by value.
impl PartialEq for ConcentratedLiquidity {
    fn eq(&self, o: &Self) -> bool {
        self.sqrt_price_x96 == o.sqrt_price_x96
            && self.tick() == o.tick()
            && self.below == o.below
            && self.liquidity == o.liquidity
            && self.fee_protocol == o.fee_protocol
            && self.fee_growth_global == o.fee_growth_global
            && self.protocol_fees == o.protocol_fees
            && self.balances == o.balances
            && (Arc::ptr_eq(&self.table, &o.table) || self.table == o.table)
    }
}

impl Eq for ConcentratedLiquidity {}

impl core::fmt::Debug for ConcentratedLiquidity {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConcentratedLiquidity")
            .field("sqrt_price_x96", &self.sqrt_price_x96)
            .field("tick", &self.tick())
            .field("liquidity", &self.liquidity)
            .field("fee", &self.table.fee)
            .field("tick_spacing", &self.table.tick_spacing)
            .field("ticks", &self.table.ticks)
            .field("fee_protocol", &self.fee_protocol)
            .field("fee_growth_global", &self.fee_growth_global)
            .field("protocol_fees", &self.protocol_fees)
            .field("balances", &self.balances)
            .finish()
    }
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
        check_fee_and_spacing(fee, tick_spacing)?;
        let p = W::from_u256(sqrt_price_x96);
        check_price_at_tick(p, tick)?;
        check_tick_list(&ticks, tick_spacing)?;
        let below = ticks.partition_point(|t| t.index <= tick);
        check_net_liquidity(&ticks, below, liquidity)?;
        let table = TickTable::new((fee, tick_spacing), ticks, liquidity, below)?;
        let mut pool = Self {
            sqrt_price_x96: p,
            tick,
            tick_hi: tick,
            below,
            liquidity,
            table: Arc::new(table),
            fee_protocol: 0,
            fee_growth_global: [W::ZERO; 2],
            protocol_fees: [0; 2],
            balances: [U256::zero(); 2],
        };
        pool.balances = pool.window_amounts();
        pool.keep_first_steps();
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

    /// `slot0.tick`: `getTickAtSqrtRatio` of the price, or the tick below the one a swap
    /// stopped on (settled here when a swap left it between bounds).
    #[must_use]
    pub fn tick(&self) -> i32 {
        if self.tick == self.tick_hi {
            return self.tick;
        }
        // The bounds are the loop's (`tick_bounds_after_move`): within ±887272 and around the
        // price, so the search cannot fail; the lower bound is the answer's floor.
        tick_math::tick_at_sqrt_ratio_between(self.sqrt_price_x96, self.tick, self.tick_hi)
            .unwrap_or(self.tick)
    }

    /// Active liquidity.
    #[must_use]
    pub fn liquidity(&self) -> u128 {
        self.liquidity
    }

    /// The swap fee in pips (millionths).
    #[must_use]
    pub fn fee(&self) -> u32 {
        self.table.fee
    }

    /// The tick spacing.
    #[must_use]
    pub fn tick_spacing(&self) -> i32 {
        self.table.tick_spacing
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
            .checked_div(self.table.tick_spacing.unsigned_abs())
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
        let tick = self.tick();
        let split = self.ticks().partition_point(|t| t.index <= tick);
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
}

#[cfg(test)]
mod tests {
    #![allow(clippy::arithmetic_side_effects)]
    use super::word_bounds;

    /// The word bounds of a known tick say what the bitmap's word arithmetic says: going down
    /// from a tick at or above it, whether both lie in one word; going up from a tick below
    /// it, whether it lies in the word of the next compressed tick. Every spacing the
    /// constructor accepts at its ends and the usual ones, known ticks across the whole range
    /// and current ticks within a few words of them, both signs.
    #[test]
    fn word_bounds_are_the_bitmap_words() {
        let mut next = crate::math::wide::xorshift(0xBB67_AE85_84CA_A73Bu64);
        let word = |t: i32, s: i32| t.div_euclid(s) >> 8;
        for s in [1, 2, 10, 50, 60, 100, 200, 16_384] {
            for _ in 0..20_000 {
                let x = ((next() % 1_774_545) as i32 - 887_272) / s * s;
                let b = word_bounds(x, s);
                let reach = 3 * 256 * s;
                let t =
                    (x + (next() % (2 * reach as u64 + 1)) as i32 - reach).clamp(-887_272, 887_272);
                if t >= x {
                    assert_eq!(t < b[0], word(t, s) == word(x, s), "{x} {t} {s}");
                } else {
                    let start = (t.div_euclid(s) + 1) >> 8;
                    assert_eq!(t >= b[1], start == word(x, s), "{x} {t} {s}");
                }
            }
        }
    }
}
