//! Orca Whirlpools (chain 101): concentrated liquidity with Q64.64 square-root prices, as
//! `orca_whirlpools_core` 2.1.1 quotes it (the Whirlpool program's swap math).
//!
//! What differs from Uniswap V3:
//!
//! - prices are Q64.64 (not Q64.96) and ticks stop at ±443 636; the tick → price map
//!   multiplies Q96 factors for positive ticks (floor, then `>> 32`) and Q64 factors for
//!   negative ones, without an inversion;
//! - the token deltas are single divisions (`(L·Δ << 64) / (lo·hi)` for A), and the 256-bit
//!   shift drops bits above 2^256 as the crate's `ethnum` arithmetic does;
//! - a step runs straight to the next *initialised* tick of the tick arrays given (no bitmap
//!   words), and the end of the last array is a step target; a swap that needs to go past it
//!   fails with [`PoolError::TickArraySequence`] ("pass more tick arrays"), it is not a
//!   partial fill;
//! - the fee is `fee_rate` millionths, taken from the input of each step; an exact-in step
//!   that stops inside the range charges the whole rest of the input as fee.
//!
//! A pool value holds the tick arrays it was given, flattened to the initialised ticks
//! (shared, so a swap's new state does not copy them).

use super::pair;
use crate::error::{MathError, PoolError};
use crate::math::wide::{mul_128, W};
use alloc::sync::Arc;
use alloc::vec::Vec;
use primitive_types::U256;

/// Lowest tick.
pub const MIN_TICK_INDEX: i32 = -443_636;
/// Highest tick.
pub const MAX_TICK_INDEX: i32 = 443_636;
/// Lowest square-root price (Q64.64), the price of [`MIN_TICK_INDEX`].
pub const MIN_SQRT_PRICE: u128 = 4_295_048_016;
/// Highest square-root price (Q64.64), the price of [`MAX_TICK_INDEX`].
pub const MAX_SQRT_PRICE: u128 = 79_226_673_515_401_279_992_447_579_055;
/// Ticks per tick array.
pub const TICK_ARRAY_SIZE: i32 = 88;
/// Denominator of `fee_rate` (hundredths of a basis point).
pub const FEE_RATE_DENOMINATOR: u32 = 1_000_000;
/// Denominator of slippage tolerances (basis points).
pub const BPS_DENOMINATOR: u16 = 10_000;

const OVERFLOW: PoolError = PoolError::Math(MathError::Overflow);
const UNDERFLOW: PoolError = PoolError::Math(MathError::Underflow);
const DIV0: PoolError = PoolError::Math(MathError::DivisionByZero);
/// The crate's "Amount exceeds max u64".
const EXCEEDS_U64: PoolError = OVERFLOW;

/// `floor(2^96 · 1.0001^(2^k / 2))` for k = 0..=18: the factor of bit k of a positive tick.
/// Computed for this crate with 200-digit decimal arithmetic (the same values the Whirlpool
/// program uses; the tick vectors check them).
const POS_Q96: [u128; 19] = [
    79_232_123_823_359_799_118_286_999_567,
    79_236_085_330_515_764_027_303_304_731,
    79_244_008_939_048_815_603_706_035_061,
    79_259_858_533_276_714_757_314_932_305,
    79_291_567_232_598_584_799_939_703_904,
    79_355_022_692_464_371_645_785_046_466,
    79_482_085_999_252_804_386_437_311_141,
    79_736_823_300_114_093_921_829_183_326,
    80_248_749_790_819_932_309_965_073_892,
    81_282_483_887_344_747_381_513_967_011,
    83_390_072_131_320_151_908_154_831_281,
    87_770_609_709_833_776_024_991_924_138,
    97_234_110_755_111_693_312_479_820_773,
    119_332_217_159_966_728_226_237_229_890,
    179_736_315_981_702_064_433_883_588_727,
    407_748_233_172_238_350_107_850_275_304,
    2_098_478_828_474_011_932_436_660_412_517,
    55_581_415_166_113_811_149_459_800_483_533,
    38_992_368_544_603_139_932_233_054_999_993_551,
];

/// `floor(2^64 / 1.0001^(2^k / 2))` for k = 0..=18: the factor of bit k of a negative tick.
const NEG_Q64: [u128; 19] = [
    18_445_821_805_675_392_311,
    18_444_899_583_751_176_498,
    18_443_055_278_223_354_162,
    18_439_367_220_385_604_838,
    18_431_993_317_065_449_817,
    18_417_254_355_718_160_513,
    18_387_811_781_193_591_352,
    18_329_067_761_203_520_168,
    18_212_142_134_806_087_854,
    17_980_523_815_641_551_639,
    17_526_086_738_831_147_013,
    16_651_378_430_235_024_244,
    15_030_750_278_693_429_944,
    12_247_334_978_882_834_399,
    8_131_365_268_884_726_200,
    3_584_323_654_723_342_297,
    696_457_651_847_595_233,
    26_294_789_957_452_057,
    37_481_735_321_082,
];

const Q96: u128 = 1 << 96;
const Q64: u128 = 1 << 64;

/// `tick_index_to_sqrt_price`: √(1.0001^tick) in Q64.64, rounded as the program rounds.
///
/// # Errors
/// [`PoolError::InvalidState`] for a tick outside ±443 636.
pub fn tick_index_to_sqrt_price(tick: i32) -> Result<u128, PoolError> {
    if !(MIN_TICK_INDEX..=MAX_TICK_INDEX).contains(&tick) {
        return Err(PoolError::InvalidState(
            crate::error::PoolStateProblem::TickIndexOutOfRange,
        ));
    }
    let abs = tick.unsigned_abs();
    if tick >= 0 {
        let mut r: u128 = if abs & 1 != 0 { POS_Q96[0] } else { Q96 };
        for (k, &f) in POS_Q96.iter().enumerate().skip(1) {
            if abs & (1 << k) != 0 {
                // r < 2^128 and f < 2^128; (r·f) >> 96 stays below 2^128 in range.
                let (hi, lo) = mul_128(r, f);
                r = (hi << 32) | (lo >> 96);
            }
        }
        Ok(r >> 32)
    } else {
        let mut r: u128 = if abs & 1 != 0 { NEG_Q64[0] } else { Q64 };
        for (k, &f) in NEG_Q64.iter().enumerate().skip(1) {
            if abs & (1 << k) != 0 {
                // r <= 2^64 and f < 2^64: the product fits u128.
                let (hi, lo) = mul_128(r, f);
                r = (hi << 64) | (lo >> 64);
            }
        }
        Ok(r)
    }
}

/// ln(x) for x > 0 in `core` (no `std`): exponent split, then 2·atanh series on [1, 2).
/// Only places a search.
fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let exp = (((bits >> 52) & 0x7ff) as i64).wrapping_sub(1023);
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += term / (f64::from(k) * 2.0 + 1.0);
        term *= z2;
    }
    exp as f64 * core::f64::consts::LN_2 + 2.0 * sum
}

/// `sqrt_price_to_tick_index`: the greatest tick whose price is at most `sqrt_price`.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`] outside `[MIN_SQRT_PRICE, MAX_SQRT_PRICE]`.
pub fn sqrt_price_to_tick_index(sqrt_price: u128) -> Result<i32, PoolError> {
    if !(MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&sqrt_price) {
        return Err(PoolError::SqrtPriceOutOfBounds);
    }
    // A float estimate (good to a small fraction of a tick), then exact comparisons: walk
    // down while the tick's price is above `p`, up while the next tick's is at most `p`.
    let est = ln(sqrt_price as f64 / Q64 as f64) * 2.0 / ln(1.0001);
    let mut t = (est as i32).clamp(MIN_TICK_INDEX, MAX_TICK_INDEX);
    while t > MIN_TICK_INDEX && tick_index_to_sqrt_price(t)? > sqrt_price {
        t = t.saturating_sub(1);
    }
    while t < MAX_TICK_INDEX && tick_index_to_sqrt_price(t.saturating_add(1))? <= sqrt_price {
        t = t.saturating_add(1);
    }
    Ok(t)
}

/// `(L·Δ << 64)` modulo 2^256, as `ethnum`'s `checked_shl(64)` leaves it.
fn shl64_wrapping(hi: u128, lo: u128) -> W {
    W {
        hi: (hi << 64) | (lo >> 64),
        lo: lo << 64,
    }
}

fn to_u64(x: W) -> Result<u64, PoolError> {
    if x.hi != 0 {
        return Err(EXCEEDS_U64);
    }
    u64::try_from(x.lo).map_err(|_| EXCEEDS_U64)
}

fn div_rem(a: W, b: W) -> Result<(W, W), PoolError> {
    a.checked_div_rem(b).ok_or(DIV0)
}

fn inc(x: W) -> Result<W, PoolError> {
    x.checked_add(W::ONE).ok_or(OVERFLOW)
}

/// The two prices in order and `L·(hi − lo)` as 256-bit halves.
fn span_product(p1: u128, p2: u128, liquidity: u128) -> (u128, u128, (u128, u128)) {
    let (lo, hi) = if p1 < p2 { (p1, p2) } else { (p2, p1) };
    (lo, hi, mul_128(liquidity, hi.saturating_sub(lo)))
}

/// `try_get_amount_delta_a`: `L·(hi − lo) << 64 / (lo·hi)`, rounded up on request.
///
/// # Errors
/// A result at or above 2^64 ("Amount exceeds max u64"); a zero price.
pub fn amount_delta_a(
    p1: u128,
    p2: u128,
    liquidity: u128,
    round_up: bool,
) -> Result<u64, PoolError> {
    let (lo, hi, (nh, nl)) = span_product(p1, p2, liquidity);
    let num = shl64_wrapping(nh, nl);
    let (dh, dl) = mul_128(lo, hi);
    let (q, r) = div_rem(num, W { hi: dh, lo: dl })?;
    to_u64(if round_up && !r.is_zero() { inc(q)? } else { q })
}

/// `try_get_amount_delta_b`: `L·(hi − lo) >> 64`, rounded up on request.
///
/// # Errors
/// A result at or above 2^64.
pub fn amount_delta_b(
    p1: u128,
    p2: u128,
    liquidity: u128,
    round_up: bool,
) -> Result<u64, PoolError> {
    let (_, _, (ph, pl)) = span_product(p1, p2, liquidity);
    let q = W {
        hi: ph >> 64,
        lo: (ph << 64) | (pl >> 64),
    };
    let frac = pl & u128::from(u64::MAX);
    to_u64(if round_up && frac != 0 { inc(q)? } else { q })
}

fn in_bounds(p: W) -> Result<u128, PoolError> {
    if p.hi == 0 && (MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&p.lo) {
        Ok(p.lo)
    } else {
        Err(PoolError::SqrtPriceOutOfBounds)
    }
}

/// `try_get_next_sqrt_price_from_a`: the price after `amount` of A in (or out), rounded up.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`] (also for an output at or above what the liquidity
/// holds); a zero denominator.
pub fn next_sqrt_price_from_a(
    sqrt_price: u128,
    liquidity: u128,
    amount: u64,
    specified_input: bool,
) -> Result<u128, PoolError> {
    if amount == 0 {
        return Ok(sqrt_price);
    }
    let (ph, pl) = mul_128(sqrt_price, u128::from(amount));
    let p = W { hi: ph, lo: pl };
    let (nh, nl) = mul_128(liquidity, sqrt_price);
    let num = shl64_wrapping(nh, nl);
    let l_shifted = W {
        hi: liquidity >> 64,
        lo: liquidity << 64,
    };
    let den = if specified_input {
        l_shifted.checked_add(p).ok_or(OVERFLOW)?
    } else {
        // Below zero the crate's release build wraps to a huge denominator and lands out of
        // bounds; that is the error here too.
        l_shifted
            .checked_sub(p)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    };
    let (q, r) = div_rem(num, den)?;
    in_bounds(if r.is_zero() { q } else { inc(q)? })
}

/// `try_get_next_sqrt_price_from_b`: the price after `amount` of B in (or out); the
/// quotient rounds up for an output only.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`]; zero liquidity.
pub fn next_sqrt_price_from_b(
    sqrt_price: u128,
    liquidity: u128,
    amount: u64,
    specified_input: bool,
) -> Result<u128, PoolError> {
    if amount == 0 {
        return Ok(sqrt_price);
    }
    let shifted = W {
        hi: 0,
        lo: u128::from(amount) << 64,
    };
    let (q, r) = div_rem(shifted, W::small(liquidity))?;
    let delta = if !specified_input && !r.is_zero() {
        inc(q)?
    } else {
        q
    };
    let p = W::small(sqrt_price);
    let next = if specified_input {
        p.checked_add(delta)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    } else {
        p.checked_sub(delta)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    };
    in_bounds(next)
}

/// `amount · num / den` rounded as asked, 0 for a zero amount or numerator.
fn mul_div_u64(amount: u64, num: u128, den: u128, round_up: bool) -> Result<u64, PoolError> {
    if amount == 0 || num == 0 {
        return Ok(0);
    }
    let n = u128::from(amount).checked_mul(num).ok_or(OVERFLOW)?;
    let q = n.checked_div(den).ok_or(DIV0)?;
    let r = n.checked_rem(den).ok_or(DIV0)?;
    let v = if round_up && r != 0 {
        q.checked_add(1).ok_or(OVERFLOW)?
    } else {
        q
    };
    u64::try_from(v).map_err(|_| EXCEEDS_U64)
}

fn apply_swap_fee(amount: u64, fee_rate: u16) -> Result<u64, PoolError> {
    let keep = u128::from(FEE_RATE_DENOMINATOR.saturating_sub(u32::from(fee_rate)));
    mul_div_u64(amount, keep, u128::from(FEE_RATE_DENOMINATOR), false)
}

fn reverse_apply_swap_fee(amount: u64, fee_rate: u16) -> Result<u64, PoolError> {
    let keep = u128::from(FEE_RATE_DENOMINATOR.saturating_sub(u32::from(fee_rate)));
    mul_div_u64(amount, u128::from(FEE_RATE_DENOMINATOR), keep, true)
}

/// `try_get_min_amount_with_slippage_tolerance`: `floor(amount · (10^4 − bps) / 10^4)`.
///
/// # Errors
/// `bps` above 10 000.
pub fn min_amount_with_slippage(amount: u64, bps: u16) -> Result<u64, PoolError> {
    let keep = BPS_DENOMINATOR
        .checked_sub(bps)
        .ok_or(PoolError::InvalidArgument(
            "slippage tolerance above 10000 bps",
        ))?;
    mul_div_u64(amount, u128::from(keep), u128::from(BPS_DENOMINATOR), false)
}

/// `try_get_max_amount_with_slippage_tolerance`: `ceil(amount · (10^4 + bps) / 10^4)`.
///
/// # Errors
/// `bps` above 10 000; a result above `u64`.
pub fn max_amount_with_slippage(amount: u64, bps: u16) -> Result<u64, PoolError> {
    if bps > BPS_DENOMINATOR {
        return Err(PoolError::InvalidArgument(
            "slippage tolerance above 10000 bps",
        ));
    }
    let up = u128::from(BPS_DENOMINATOR).saturating_add(u128::from(bps));
    mul_div_u64(amount, up, u128::from(BPS_DENOMINATOR), true)
}

/// One initialised tick of a tick array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrcaTick {
    /// Tick index (a multiple of the spacing, inside its array).
    pub index: i32,
    /// Liquidity added when the price crosses the tick upwards.
    pub liquidity_net: i128,
    /// Total liquidity referencing the tick.
    pub liquidity_gross: u128,
}

/// A tick array as passed to a quote: its start and its initialised ticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrcaTickArray {
    /// First tick of the array (a multiple of 88 · spacing).
    pub start_tick_index: i32,
    /// The initialised ticks (the other slots are uninitialised).
    pub ticks: Vec<OrcaTick>,
}

/// The Whirlpool fields a quote reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WhirlpoolState {
    /// √(price of A in B), Q64.64.
    pub sqrt_price: u128,
    /// The stored current tick.
    pub tick_current_index: i32,
    /// Active liquidity.
    pub liquidity: u128,
    /// Swap fee in millionths.
    pub fee_rate: u16,
    /// Protocol share of the fee in basis points (metadata: quotes report the whole fee).
    pub protocol_fee_rate: u16,
    /// Tick spacing.
    pub tick_spacing: u16,
}

/// The result of [`Whirlpool::compute_swap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrcaSwap {
    /// Amount of A (input with fee, or output).
    pub token_a: u64,
    /// Amount of B.
    pub token_b: u64,
    /// Total fee, in input tokens.
    pub trade_fee: u64,
    /// Price after.
    pub sqrt_price: u128,
    /// Tick after.
    pub tick_current_index: i32,
    /// Active liquidity after.
    pub liquidity: u128,
}

impl OrcaSwap {
    /// `(A, B)` when `a_first`, else `(B, A)`.
    #[must_use]
    pub fn sides(&self, a_first: bool) -> (u64, u64) {
        if a_first {
            (self.token_a, self.token_b)
        } else {
            (self.token_b, self.token_a)
        }
    }
}

/// An exact-in quote ([`Whirlpool::quote_by_input`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactInQuote {
    /// Input used.
    pub token_in: u64,
    /// Estimated output.
    pub token_est_out: u64,
    /// Output after slippage.
    pub token_min_out: u64,
    /// Fee, in input tokens.
    pub trade_fee: u64,
}

/// An exact-out quote ([`Whirlpool::quote_by_output`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactOutQuote {
    /// Output.
    pub token_out: u64,
    /// Estimated input.
    pub token_est_in: u64,
    /// Input after slippage.
    pub token_max_in: u64,
    /// Fee, in input tokens.
    pub trade_fee: u64,
}

/// A Whirlpool with the tick arrays a quote was given.
///
/// # Example
/// ```
/// use swapzap::pool::whirlpool::{OrcaTickArray, Whirlpool, WhirlpoolState};
/// use swapzap::U256;
///
/// // Price 1 (√P = 2^64 in Q64.64, tick 0), liquidity 10^12, a 0.3 % fee, spacing 64, and the
/// // tick arrays on both sides of the price (no initialised ticks: the liquidity is constant).
/// let state = WhirlpoolState {
///     sqrt_price: 1u128 << 64,
///     tick_current_index: 0,
///     liquidity: 1_000_000_000_000,
///     fee_rate: 3_000,
///     protocol_fee_rate: 0,
///     tick_spacing: 64,
/// };
/// let arrays = [-2, -1, 0, 1].map(|k| OrcaTickArray { start_tick_index: k * 88 * 64, ticks: vec![] });
/// let pool = Whirlpool::new(state, &arrays)?;
/// // 10^6 of A in: 0.3 % fee, then x·y = L² at a price that hardly moves.
/// let out = pool.amount_out(0, 1, U256::from(1_000_000u64))?;
/// assert!(out < U256::from(997_000u64) && out > U256::from(996_000u64));
/// let (paid, _after) = pool.swap(0, 1, U256::from(1_000_000u64))?;
/// assert_eq!(paid, out);
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whirlpool {
    state: WhirlpoolState,
    /// Initialised ticks of all arrays, by index.
    ticks: Arc<[OrcaTick]>,
    /// The arrays' start indices, ascending.
    starts: Arc<[i32]>,
    /// First and last tick the arrays cover (clamped to the tick range).
    seq_start: i32,
    seq_end: i32,
    /// The largest active liquidity the tick arrays give anywhere in their range.
    max_liquidity: u128,
    /// Virtual reserves of `max_liquidity` at the current price ([`Self::balances`]).
    virtual_reserves: [U256; 2],
}

struct Step {
    amount_in: u64,
    amount_out: u64,
    next_sqrt_price: u128,
    fee: u64,
}

impl Whirlpool {
    /// A pool from its state and the tick arrays to quote over (any order; they must be
    /// contiguous, and each tick a multiple of the spacing inside its array).
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] naming what is wrong (zero spacing, a tick outside its
    /// array or off the spacing, a duplicate tick); [`PoolError::TickArraySequence`] for no
    /// arrays or arrays that are not contiguous.
    pub fn new(state: WhirlpoolState, arrays: &[OrcaTickArray]) -> Result<Self, PoolError> {
        if state.tick_spacing == 0 {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::TickSpacingZero,
            ));
        }
        let span = TICK_ARRAY_SIZE.saturating_mul(i32::from(state.tick_spacing));
        let mut starts: Vec<i32> = arrays.iter().map(|a| a.start_tick_index).collect();
        starts.sort_unstable();
        if starts.is_empty() {
            return Err(PoolError::TickArraySequence);
        }
        if starts
            .windows(2)
            .any(|w| w[1].checked_sub(w[0]) != Some(span))
        {
            return Err(PoolError::TickArraySequence);
        }
        let mut ticks: Vec<OrcaTick> = Vec::new();
        for a in arrays {
            let end = a.start_tick_index.checked_add(span).ok_or(OVERFLOW)?;
            for t in &a.ticks {
                if t.index < a.start_tick_index || t.index >= end {
                    return Err(PoolError::InvalidState(
                        crate::error::PoolStateProblem::TickOutsideArray,
                    ));
                }
                if t.index.rem_euclid(i32::from(state.tick_spacing)) != 0 {
                    return Err(PoolError::InvalidState(
                        crate::error::PoolStateProblem::TickNotOnSpacing,
                    ));
                }
                ticks.push(*t);
            }
        }
        ticks.sort_unstable_by_key(|t| t.index);
        if ticks.windows(2).any(|w| w[0].index == w[1].index) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::DuplicateTick,
            ));
        }
        let first = starts.first().copied().unwrap_or_default();
        let last = starts.last().copied().unwrap_or_default();
        let max_liquidity = max_liquidity(&state, &ticks);
        let mut pool = Self {
            state,
            ticks: ticks.into(),
            starts: starts.into(),
            seq_start: first.max(MIN_TICK_INDEX),
            seq_end: last
                .saturating_add(span)
                .saturating_sub(1)
                .min(MAX_TICK_INDEX),
            max_liquidity,
            virtual_reserves: [U256::zero(); 2],
        };
        pool.virtual_reserves = pool.virtual_at(state.sqrt_price);
        Ok(pool)
    }

    /// `[L·2^64 / √P, L·√P / 2^64]` for the largest liquidity `L` of the arrays.
    fn virtual_at(&self, sqrt_price: u128) -> [U256; 2] {
        let l = U256::from(self.max_liquidity);
        let p = U256::from(sqrt_price.max(1));
        [
            crate::math::mul_div(l, U256::from(Q64), p).unwrap_or(U256::MAX),
            crate::math::mul_div(l, p, U256::from(Q64)).unwrap_or(U256::MAX),
        ]
    }

    /// The largest active liquidity anywhere in the arrays' range.
    #[must_use]
    pub fn max_liquidity(&self) -> u128 {
        self.max_liquidity
    }

    /// The pool state.
    #[must_use]
    pub fn state(&self) -> WhirlpoolState {
        self.state
    }

    /// The initialised ticks of the arrays, ascending.
    #[must_use]
    pub fn ticks(&self) -> &[OrcaTick] {
        &self.ticks
    }

    /// Start indices of the tick arrays, ascending.
    #[must_use]
    pub fn tick_array_starts(&self) -> &[i32] {
        &self.starts
    }

    /// Number of coins (2).
    #[must_use]
    pub fn n_coins(&self) -> usize {
        2
    }

    /// Virtual reserves `[L/√P, L·√P]` (raw units) of the largest liquidity `L` the tick
    /// arrays give, at the current price. Not vault balances: an x·y = k pool with these
    /// reserves and the same fee pays at least as much as the Whirlpool for any input (more
    /// liquidity moves the price less), so search models built on them bound it from above.
    #[must_use]
    pub fn balances(&self) -> &[U256] {
        &self.virtual_reserves
    }

    /// Whirlpools have no fungible LP token: 0.
    #[must_use]
    pub fn total_supply(&self) -> U256 {
        U256::zero()
    }

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
        let s = &self.state;
        let limit = match (sqrt_price_limit, a_to_b) {
            (0, true) => MIN_SQRT_PRICE,
            (0, false) => MAX_SQRT_PRICE,
            (l, _) => l,
        };
        if !(MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&limit) {
            return Err(PoolError::PriceLimit);
        }
        if (a_to_b && limit >= s.sqrt_price) || (!a_to_b && limit <= s.sqrt_price) {
            return Err(PoolError::PriceLimit);
        }
        if amount == 0 {
            return Err(PoolError::InsufficientInputAmount);
        }
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
            if specified_input {
                remaining = remaining
                    .checked_sub(step.amount_in)
                    .and_then(|r| r.checked_sub(step.fee))
                    .ok_or(UNDERFLOW)?;
                calculated = calculated.checked_add(step.amount_out).ok_or(OVERFLOW)?;
            } else {
                remaining = remaining.checked_sub(step.amount_out).ok_or(UNDERFLOW)?;
                calculated = calculated
                    .checked_add(step.amount_in)
                    .and_then(|c| c.checked_add(step.fee))
                    .ok_or(OVERFLOW)?;
            }
            if step.next_sqrt_price == next_price {
                // Crossing: A to B leaves the tick below, so its net liquidity comes out.
                let up = (net < 0) == a_to_b;
                let m = net.unsigned_abs();
                liquidity = if up {
                    liquidity.checked_add(m).ok_or(OVERFLOW)?
                } else {
                    liquidity.checked_sub(m).ok_or(UNDERFLOW)?
                };
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
        super::least_input(guess as f64, u128::from(want), out).map(U256::from)
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

    /// Whirlpool positions are NFTs with a price range, not fungible LP: no mint by amounts.
    ///
    /// # Errors
    /// Always [`PoolError::Unsupported`].
    pub fn mint(&self, _amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        Err(PoolError::Unsupported("Whirlpool has no fungible LP token"))
    }

    /// See [`Self::mint`].
    ///
    /// # Errors
    /// Always [`PoolError::Unsupported`].
    pub fn burn(&self, _lp: U256) -> Result<(super::Amounts, Self), PoolError> {
        Err(PoolError::Unsupported("Whirlpool has no fungible LP token"))
    }

    /// Marginal rate of `i` into `j` at zero size, fee included (float, search only).
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if pair(i, j).is_err() {
            return 0.0;
        }
        let p = self.state.sqrt_price as f64 / Q64 as f64;
        let price = p * p;
        let keep = 1.0 - f64::from(self.state.fee_rate) / f64::from(FEE_RATE_DENOMINATOR);
        if price <= 0.0 || self.state.liquidity == 0 {
            return 0.0;
        }
        if i == 0 {
            price * keep
        } else {
            keep / price
        }
    }
}

/// The largest active liquidity reached by walking the ticks from the current one, both ways
/// (crossing up adds `liquidity_net`, crossing down subtracts it; saturating on bad data).
fn max_liquidity(state: &WhirlpoolState, ticks: &[OrcaTick]) -> u128 {
    let cur = state.tick_current_index;
    let mut best = state.liquidity;
    let step = |l: u128, net: i128, up: bool| -> u128 {
        if (net >= 0) == up {
            l.saturating_add(net.unsigned_abs())
        } else {
            l.saturating_sub(net.unsigned_abs())
        }
    };
    let mut l = state.liquidity;
    for t in ticks.iter().filter(|t| t.index > cur) {
        l = step(l, t.liquidity_net, true);
        best = best.max(l);
    }
    let mut l = state.liquidity;
    for t in ticks.iter().rev().filter(|t| t.index <= cur) {
        l = step(l, t.liquidity_net, false);
        best = best.max(l);
    }
    best
}

fn small(x: U256) -> Result<u64, PoolError> {
    if x > U256::from(u64::MAX) {
        return Err(EXCEEDS_U64);
    }
    Ok(x.low_u64())
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn tick_bounds_map_to_price_bounds() {
        assert_eq!(
            tick_index_to_sqrt_price(MIN_TICK_INDEX).unwrap(),
            MIN_SQRT_PRICE
        );
        assert_eq!(
            tick_index_to_sqrt_price(MAX_TICK_INDEX).unwrap(),
            MAX_SQRT_PRICE
        );
        assert_eq!(tick_index_to_sqrt_price(0).unwrap(), Q64);
        assert_eq!(
            sqrt_price_to_tick_index(MIN_SQRT_PRICE).unwrap(),
            MIN_TICK_INDEX
        );
        assert_eq!(
            sqrt_price_to_tick_index(MAX_SQRT_PRICE).unwrap(),
            MAX_TICK_INDEX
        );
        assert_eq!(sqrt_price_to_tick_index(Q64).unwrap(), 0);
        assert_eq!(sqrt_price_to_tick_index(Q64 - 1).unwrap(), -1);
    }

    #[test]
    fn a_current_tick_outside_the_arrays_is_an_error_both_ways() {
        let arrays = [OrcaTickArray {
            start_tick_index: 0,
            ticks: alloc::vec![OrcaTick {
                index: 40,
                liquidity_net: 1_000_000,
                liquidity_gross: 1_000_000,
            }],
        }];
        for t in [-50, 200] {
            let state = WhirlpoolState {
                sqrt_price: tick_index_to_sqrt_price(t).unwrap() + 1,
                tick_current_index: t,
                liquidity: 1_000_000_000,
                fee_rate: 3000,
                protocol_fee_rate: 0,
                tick_spacing: 1,
            };
            let w = Whirlpool::new(state, &arrays).unwrap();
            for a_to_b in [true, false] {
                assert_eq!(
                    w.compute_swap(1000, 0, a_to_b, true),
                    Err(PoolError::TickArraySequence),
                    "tick {t}, a_to_b {a_to_b}"
                );
            }
        }
    }

    #[test]
    fn price_to_tick_is_the_greatest_tick_at_or_below() {
        for t in [-443_000, -70_001, -1, 1, 2, 887, 30_723, 443_635] {
            let p = tick_index_to_sqrt_price(t).unwrap();
            assert_eq!(sqrt_price_to_tick_index(p).unwrap(), t);
            assert_eq!(sqrt_price_to_tick_index(p - 1).unwrap(), t - 1);
        }
    }
}
