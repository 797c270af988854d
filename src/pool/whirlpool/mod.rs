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
//!   partial fill ([`Whirlpool::exact_offer`] is the most input that stops there);
//! - the fee is `fee_rate` millionths, taken from the input of each step; an exact-in step
//!   that stops inside the range charges the whole rest of the input as fee.
//!
//! A pool value holds the tick arrays it was given, flattened to the initialised ticks
//! (shared, so a swap's new state does not copy them).

use super::pair;
use math::Q64;

mod math;
mod swap;

use crate::error::{MathError, PoolError, PoolUnsupported};
use alloc::sync::Arc;
use alloc::vec::Vec;
pub use math::{
    amount_delta_a, amount_delta_b, next_sqrt_price_from_a, next_sqrt_price_from_b,
    sqrt_price_to_tick_index, tick_index_to_sqrt_price,
};
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
pub(crate) const BPS_DENOMINATOR: u16 = 10_000;

const OVERFLOW: PoolError = PoolError::Math(MathError::Overflow);
const UNDERFLOW: PoolError = PoolError::Math(MathError::Underflow);
const DIV0: PoolError = PoolError::Math(MathError::DivisionByZero);
/// The crate's "Amount exceeds max u64".
const EXCEEDS_U64: PoolError = OVERFLOW;

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

    /// The first and the last tick the tick arrays cover (clamped to the tick range): a swap
    /// takes the price to theirs at most, and one that needs to go further fails
    /// ([`PoolError::TickArraySequence`]).
    #[must_use]
    pub fn tick_window(&self) -> (i32, i32) {
        (self.seq_start, self.seq_end)
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
    /// liquidity moves the price less), which makes them an upper limit of what it can pay
    /// (depth and pricing). The router's search model is built from the ticks instead
    /// (`ClEdge::whirlpool` of the float models): it knows where the arrays end.
    #[must_use]
    pub fn balances(&self) -> &[U256] {
        &self.virtual_reserves
    }

    /// Whirlpools have no fungible LP token: 0.
    #[must_use]
    pub fn total_supply(&self) -> U256 {
        U256::zero()
    }

    /// Whirlpool positions are NFTs with a price range, not fungible LP: no mint by amounts.
    ///
    /// # Errors
    /// Always [`PoolError::Unsupported`].
    pub fn mint(&self, _amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        Err(PoolError::Unsupported(PoolUnsupported::WhirlpoolLp))
    }

    /// See [`Self::mint`].
    ///
    /// # Errors
    /// Always [`PoolError::Unsupported`].
    pub fn burn(&self, _lp: U256) -> Result<(super::Amounts, Self), PoolError> {
        Err(PoolError::Unsupported(PoolUnsupported::WhirlpoolLp))
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

#[cfg(test)]
pub(crate) mod tests;
