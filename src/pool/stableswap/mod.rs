//! Curve stable-swap pools, bit-exact with three contract families:
//!
//! | [`Variant`] | contract | `A_PRECISION` | differences |
//! |---|---|---|---|
//! | [`Variant::Classic`] | `SwapTemplateBase.vy` (vyper 0.2.8) | 100 | the reference behaviour |
//! | [`Variant::ThreePool`] | mainnet `StableSwap3Pool.vy` (vyper 0.2.4) | 1 | `get_dy` converts to coin units before the fee; the Newton loops return their last value instead of reverting; `add_liquidity` skips `D0` on an empty pool; `remove_liquidity_imbalance` refuses an empty pool |
//! | [`Variant::Ng`] | `CurveStableSwapNG.vy` + `CurveStableSwapNGViews.vy` (vyper 0.3.10) | 100 | `D_P` divided by `N^N` once; dynamic off-peg fee; admin fees kept in `admin_balances`; `calc_token_amount` charges the imbalance fee; the price-oracle refresh may revert ([`PoolError::OracleRevert`]); zero `dx` / zero LP refused |
//!
//! A [`StableSwap`] is an immutable value: every operation returns a new state. The invariant
//! `D` of the state is computed once, when the state is built, and reused by every quote.
//!
//! # Units
//! Amounts are raw token units. `rates` are 1e18-scaled per-coin multipliers (`10^(36 - dec)`
//! for plain tokens), so `xp_k = balance_k · rate_k / 1e18` is the 18-decimal balance. Fees
//! are out of 1e10.
//!
//! # How it is fast and still exact
//! The Newton loops (`get_D`, `get_y`, `get_y_D`) and the amount formulas run on u128 values
//! with 256-bit products and an exact 256-by-128 division (the `x_k · N` divisors of `get_D`
//! through a precomputed reciprocal), step for step the contract's operations. Whenever a
//! value leaves that range (balances near 2^128, an overflow, a zero divisor, no convergence)
//! the computation restarts on the plain checked U256 form, which gives the contract's value
//! or its revert. Floats are used only by [`StableSwap::marginal_rate`].
//!
//! # From a routing snapshot
//! The routing snapshot gives `a` already multiplied by `a_precision`: use
//! [`StableSwap::from_snapshot`], which builds a [`Variant::Classic`] pool (or a
//! [`Variant::ThreePool`] one when `a_precision` is 1).

mod fast;
mod invariant;
mod liquidity;
mod swap;

use super::Amounts;
use crate::error::PoolError;
use crate::math::{div, mul, mul_then_div, sub};
use alloc::boxed::Box;
use invariant::{FEE_DENOMINATOR, PRECISION};
use primitive_types::U256;

/// Which Curve contract a pool reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Variant {
    /// `SwapTemplateBase.vy`: the classic plain-pool template, `A_PRECISION = 100`.
    #[default]
    Classic,
    /// The mainnet 3pool (`StableSwap3Pool.vy`): `A_PRECISION = 1`, its own `get_dy` rounding,
    /// non-reverting Newton loops.
    ThreePool,
    /// stableswap-ng (`CurveStableSwapNG.vy` and its Views contract).
    Ng,
}

impl Variant {
    /// The contract's `A_PRECISION`: 100, or 1 for the 3pool.
    #[must_use]
    pub fn a_precision(self) -> U256 {
        match self {
            Self::ThreePool => U256::one(),
            Self::Classic | Self::Ng => U256::from(100u8),
        }
    }

    /// Whether `get_D` / `get_y` revert after 255 rounds (all but the 3pool).
    #[must_use]
    pub(crate) fn loops_revert(self) -> bool {
        self != Self::ThreePool
    }

    /// What a Newton loop that ran out of rounds gives: the 3pool returns its `last` value,
    /// the template and NG revert (`None`).
    #[inline]
    pub(crate) fn after_rounds<T>(self, last: T) -> Option<T> {
        (!self.loops_revert()).then_some(last)
    }
}

/// `MAX_FEE = 5e9` (50 %): NG bounds `offpeg_fee_multiplier · fee` by `MAX_FEE · 1e10`.
const MAX_FEE: u64 = 5_000_000_000;
/// Most coins a pool may have (NG's `MAX_COINS`).
pub const MAX_COINS: usize = 8;

/// Everything that defines a stable-swap pool state, as the contracts expose it.
///
/// `admin_balances` may be left empty (all zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StableSwapParams {
    /// Which contract.
    pub variant: Variant,
    /// Per-coin balances in raw units, as `balances(i)` returns them (NG: net of admin fees).
    pub balances: Amounts,
    /// Per-coin rates, 1e18-scaled: `10^(36 - decimals)` for a plain token.
    pub rates: Amounts,
    /// The amplification coefficient as `A()` returns it (whole number, without precision).
    pub a: U256,
    /// The fee out of 1e10.
    pub fee: U256,
    /// The admin share of fees out of 1e10.
    pub admin_fee: U256,
    /// LP total supply.
    pub total_supply: U256,
    /// Admin fees the pool holds outside `balances` (classic: coin balance − `balances(i)`).
    pub admin_balances: Amounts,
    /// NG off-peg fee multiplier out of 1e10 (at most 1e10 disables the dynamic fee). Ignored
    /// by the classic variants.
    pub offpeg_fee_multiplier: U256,
}

/// A Curve stable-swap pool state (2 to 8 coins).
///
/// # Invariants
/// Checked by [`StableSwap::new`]: 2 to [`MAX_COINS`] coins, one rate and one admin balance per
/// coin, every rate non-zero (classic variants: a multiple of 1e18, i.e. decimals at most 18),
/// `A > 0` (the contracts' ramp keeps it below `MAX_A = 10^6`, but the math does not need
/// that), `fee < 1e10`, `admin_fee <= 1e10`, and for NG
/// `offpeg_fee_multiplier · fee <= 5e9 · 1e10` (what the NG factory and `set_new_fee` enforce).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StableSwap {
    /// Boxed: a pool state is several hundred bytes, and [`super::Pool`] stays small.
    inner: Box<Inner>,
}

/// The state behind a [`StableSwap`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    variant: Variant,
    balances: Amounts,
    rates: Amounts,
    admin_balances: Amounts,
    /// `A * A_PRECISION` (`A_precise()`).
    amp: U256,
    fee: U256,
    admin_fee: U256,
    offpeg: U256,
    total_supply: U256,
    /// `xp` of the balances, or why the contract cannot compute it (overflow).
    xp: Result<Amounts, PoolError>,
    /// `D` of `xp`, or why `get_D` reverts for this state.
    d: Result<U256, PoolError>,
}

/// Result of a one-coin withdrawal quote: coins out and the fee part (coin units).
#[derive(Debug, Clone, Copy)]
struct OneCoin {
    dy: U256,
    fee: U256,
    /// NG: `xp` with coin `i` set to `new_y`, and `D1`, for the oracle refresh.
    new_y: U256,
    d1: U256,
}

impl StableSwap {
    /// Builds and validates a pool state.
    ///
    /// # Example
    /// ```
    /// use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
    /// use swapzap::U256;
    ///
    /// // A USDC (6 decimals) / DAI (18 decimals) classic pool with A = 200 and a 0.04 % fee.
    /// let pool = StableSwap::new(StableSwapParams {
    ///     variant: Variant::Classic,
    ///     balances: [U256::exp10(12), U256::exp10(24)].into_iter().collect(),
    ///     rates: [U256::exp10(30), U256::exp10(18)].into_iter().collect(),
    ///     a: U256::from(200u8),
    ///     fee: U256::from(4_000_000u32),
    ///     admin_fee: U256::zero(),
    ///     total_supply: U256::exp10(24) * 2,
    ///     admin_balances: Default::default(),
    ///     offpeg_fee_multiplier: U256::zero(),
    /// })?;
    /// // 1000 USDC in: a little under 1000 DAI out (the 0.04 % fee and the curve).
    /// let out = pool.get_dy(0, 1, U256::exp10(9))?;
    /// assert!(out < U256::exp10(21) && out > U256::exp10(21) * 9995 / 10000);
    /// // The same as the state change of the exchange.
    /// let (paid, after) = pool.exchange(0, 1, U256::exp10(9))?;
    /// assert_eq!(paid, out);
    /// assert_eq!(after.balances()[1], pool.balances()[1] - out);
    /// # Ok::<(), swapzap::PoolError>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] naming the field that breaks an invariant (see the type's
    /// `# Invariants`).
    pub fn new(p: StableSwapParams) -> Result<Self, PoolError> {
        let amp = mul(p.a, p.variant.a_precision())?;
        Self::with_amp(p, amp)
    }

    /// Builds a pool from a routing snapshot's `stableswap` entry (`../shared/routing/README.md`
    /// §2): `a_precise` is the snapshot's `a` (already multiplied by `a_precision`),
    /// `admin_fee` defaults to 0 and there are no admin balances. `a_precision` 100 gives a
    /// [`Variant::Classic`] pool, 1 a [`Variant::ThreePool`] one.
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] as [`StableSwap::new`], or for another `a_precision`.
    pub fn from_snapshot(
        balances: &[U256],
        rates: &[U256],
        a_precise: U256,
        a_precision: U256,
        fee: U256,
        admin_fee: Option<U256>,
        total_supply: U256,
    ) -> Result<Self, PoolError> {
        let variant = if a_precision == U256::from(100u8) {
            Variant::Classic
        } else if a_precision == U256::one() {
            Variant::ThreePool
        } else {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::APrecision,
            ));
        };
        let p = StableSwapParams {
            variant,
            balances: balances.iter().copied().collect(),
            rates: rates.iter().copied().collect(),
            a: div(a_precise, a_precision)?,
            fee,
            admin_fee: admin_fee.unwrap_or_default(),
            total_supply,
            admin_balances: Amounts::new(),
            offpeg_fee_multiplier: U256::zero(),
        };
        Self::with_amp(p, a_precise)
    }

    /// This pool with other balances (same `A_precise`, rates, fees, supply): for bounds that
    /// need `D` of a hypothetical state.
    pub(crate) fn with_balances(&self, balances: Amounts) -> Result<Self, PoolError> {
        let mut p = self.params();
        p.balances = balances;
        Self::with_amp(p, self.inner.amp)
    }

    fn with_amp(p: StableSwapParams, amp: U256) -> Result<Self, PoolError> {
        let n = p.balances.len();
        if !(2..=MAX_COINS).contains(&n) {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::CoinCount,
            ));
        }
        if p.rates.len() != n {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::RatesCount,
            ));
        }
        let mut admin_balances = p.admin_balances;
        if admin_balances.is_empty() {
            admin_balances = core::iter::repeat(U256::zero()).take(n).collect();
        }
        if admin_balances.len() != n {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::AdminBalancesCount,
            ));
        }
        for r in &p.rates {
            if r.is_zero() {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::RateZero,
                ));
            }
            if p.variant != Variant::Ng && (*r < PRECISION || !r.div_mod(PRECISION).1.is_zero()) {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::ClassicRate,
                ));
            }
        }
        if amp.is_zero() {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::AZero,
            ));
        }
        if p.fee >= FEE_DENOMINATOR {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeAbove1e10,
            ));
        }
        if p.admin_fee > FEE_DENOMINATOR {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::AdminFeeAbove1e10,
            ));
        }
        if p.variant == Variant::Ng {
            let cap = mul(U256::from(MAX_FEE), FEE_DENOMINATOR)?;
            let prod = p.offpeg_fee_multiplier.checked_mul(p.fee);
            if prod.map_or(true, |v| v > cap) {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::OffpegFeeMultiplier,
                ));
            }
        }
        let (xp, d) = derived(&p.rates, &p.balances, amp, p.variant, None);
        Ok(Self {
            inner: Box::new(Inner {
                variant: p.variant,
                balances: p.balances,
                rates: p.rates,
                admin_balances,
                amp,
                fee: p.fee,
                admin_fee: p.admin_fee,
                offpeg: p.offpeg_fee_multiplier,
                total_supply: p.total_supply,
                xp,
                d,
            }),
        })
    }

    /// The same pool with new balances, admin balances and supply.
    fn with_state(&self, balances: Amounts, admin_balances: Amounts, total_supply: U256) -> Self {
        self.with_state_d(balances, admin_balances, total_supply, None)
    }

    /// As [`Self::with_state`] when the caller already knows `D` of the new balances.
    fn with_state_d(
        &self,
        balances: Amounts,
        admin_balances: Amounts,
        total_supply: U256,
        known_d: Option<U256>,
    ) -> Self {
        let inner = &*self.inner;
        let (xp, d) = derived(&inner.rates, &balances, inner.amp, inner.variant, known_d);
        Self {
            inner: Box::new(Inner {
                balances,
                rates: inner.rates.clone(),
                admin_balances,
                total_supply,
                xp,
                d,
                ..*inner
            }),
        }
    }

    // ------------------------------------------------------------------ getters

    /// Number of coins.
    #[must_use]
    pub fn n_coins(&self) -> usize {
        self.inner.balances.len()
    }

    /// Per-coin balances in raw units, as `balances(i)` returns them.
    #[must_use]
    pub fn balances(&self) -> &[U256] {
        &self.inner.balances
    }

    /// Per-coin 1e18-scaled rates.
    #[must_use]
    pub fn rates(&self) -> &[U256] {
        &self.inner.rates
    }

    /// Admin fees held outside `balances`, per coin.
    #[must_use]
    pub fn admin_balances(&self) -> &[U256] {
        &self.inner.admin_balances
    }

    /// LP total supply.
    #[must_use]
    pub fn total_supply(&self) -> U256 {
        self.inner.total_supply
    }

    /// The contract variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.inner.variant
    }

    /// `A()`: the amplification coefficient without precision (`A_precise / A_PRECISION`).
    #[must_use]
    pub fn a(&self) -> U256 {
        div(self.inner.amp, self.inner.variant.a_precision()).unwrap_or_default()
    }

    /// `A_precise()`: `A * A_PRECISION`, what the math uses.
    #[must_use]
    pub fn a_precise(&self) -> U256 {
        self.inner.amp
    }

    /// The fee out of 1e10.
    #[must_use]
    pub fn fee(&self) -> U256 {
        self.inner.fee
    }

    /// The admin share of fees out of 1e10.
    #[must_use]
    pub fn admin_fee(&self) -> U256 {
        self.inner.admin_fee
    }

    /// NG off-peg fee multiplier out of 1e10.
    #[must_use]
    pub fn offpeg_fee_multiplier(&self) -> U256 {
        self.inner.offpeg
    }

    /// The parameters this state was built from (with its current balances and supply):
    /// `StableSwap::new(p.params())` rebuilds an equal pool (for a pool from
    /// [`StableSwap::from_snapshot`], when `a_precise` is a multiple of `a_precision`).
    #[must_use]
    pub fn params(&self) -> StableSwapParams {
        StableSwapParams {
            variant: self.inner.variant,
            balances: self.inner.balances.clone(),
            rates: self.inner.rates.clone(),
            a: self.a(),
            fee: self.inner.fee,
            admin_fee: self.inner.admin_fee,
            total_supply: self.inner.total_supply,
            admin_balances: self.inner.admin_balances.clone(),
            offpeg_fee_multiplier: self.inner.offpeg,
        }
    }

    /// The invariant `D` of the current balances (cached).
    ///
    /// # Errors
    /// What `get_D` reverts with for this state (a zero balance, overflow, no convergence).
    pub fn d(&self) -> Result<U256, PoolError> {
        self.inner.d
    }

    /// `get_virtual_price()`: `D · 1e18 / total_supply`.
    ///
    /// # Errors
    /// As [`StableSwap::d`], or division by zero on an empty pool.
    pub fn virtual_price(&self) -> Result<U256, PoolError> {
        md(self.inner.d?, PRECISION, self.inner.total_supply)
    }

    // ------------------------------------------------------------------ helpers

    fn xp(&self) -> Result<&Amounts, PoolError> {
        self.inner.xp.as_ref().map_err(|e| *e)
    }

    fn check_index(&self, i: usize) -> Result<(), PoolError> {
        if i < self.n_coins() {
            Ok(())
        } else {
            Err(PoolError::TokenIndex {
                index: i,
                n_coins: self.n_coins(),
            })
        }
    }

    fn check_pair(&self, i: usize, j: usize) -> Result<(), PoolError> {
        self.check_index(i)?;
        self.check_index(j)?;
        if i == j {
            return Err(PoolError::SameToken);
        }
        Ok(())
    }

    fn check_amounts(&self, amounts: &[U256]) -> Result<(), PoolError> {
        if amounts.len() == self.n_coins() {
            Ok(())
        } else {
            Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::AmountsCount,
            ))
        }
    }

    /// `fee · N / (4 (N − 1))`: the imbalance fee base.
    fn base_fee(&self) -> Result<U256, PoolError> {
        let n = invariant::nu(self.n_coins());
        Ok(div(
            mul(self.inner.fee, n)?,
            mul(U256::from(4u8), sub(n, U256::one())?)?,
        )?)
    }

    fn rate(&self, i: usize) -> U256 {
        self.inner.rates.get(i).copied().unwrap_or_default()
    }

    /// Classic `PRECISION_MUL[i]` = `rate / 1e18` (`10^(18 - dec)`).
    fn precision_mul(&self, i: usize) -> U256 {
        div(self.rate(i), PRECISION).unwrap_or_default()
    }

    /// `D` of the stored balances after an imbalance fee, when it is one already computed:
    /// with no admin fee the pool keeps every fee (stored = balances before fees, `D1`); with
    /// a 100 % admin fee it keeps none (stored = balances after fees, `D2`).
    fn known_d_after_fees(&self, d1: U256, d2: U256) -> Option<U256> {
        if self.inner.admin_fee.is_zero() {
            Some(d1)
        } else if self.inner.admin_fee == FEE_DENOMINATOR {
            Some(d2)
        } else {
            None
        }
    }

    // ------------------------------------------------------------------ Pool verbs

    /// `get_dy`: the contract's quote for `dx` of coin `i` into coin `j` (see
    /// [`StableSwap::get_dy`]).
    ///
    /// # Errors
    /// As [`StableSwap::get_dy`].
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        self.get_dy(i, j, dx)
    }

    /// The least `dx` of coin `i` for which both `get_dy` and `exchange` pay at least `dy` of
    /// coin `j` (they agree except in the 3pool, whose `get_dy` rounds differently). Curve has
    /// no such function: the answer is searched from a close estimate and checked with the
    /// forward functions, so `dx - 1` pays less than `dy` by one of them. The answer is 0 when
    /// a zero input already pays `dy` (a pool whose balances sit a little off its invariant).
    ///
    /// # Errors
    /// [`PoolError::InsufficientOutputAmount`] for `dy = 0`; [`PoolError::UnreachableOutput`]
    /// when no input reaches `dy` (at or above what the pool holds); index errors.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        self.check_pair(i, j)?;
        if dy.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        if dy >= self.inner.balances[j] {
            return Err(PoolError::UnreachableOutput);
        }
        fast::amount_in(self, i, j, dy)
    }

    /// The output `amount_in` is checked with: `get_dy`, and for the 3pool the smaller of
    /// `get_dy` and the `exchange` output.
    pub(crate) fn forward_min(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        let q = self.get_dy(i, j, dx)?;
        if self.inner.variant == Variant::ThreePool {
            let out = match fast::exchange(self, i, j, dx) {
                Some((out, ..)) => out,
                None => self.exchange_amounts(i, j, dx)?.0,
            };
            return Ok(q.min(out));
        }
        Ok(q)
    }

    /// `exchange`: coins out and the state after (see [`StableSwap::exchange`]).
    ///
    /// # Errors
    /// As [`StableSwap::exchange`].
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        self.exchange(i, j, dx)
    }

    /// `add_liquidity`: LP minted and the state after (see [`StableSwap::add_liquidity`]).
    ///
    /// # Errors
    /// As [`StableSwap::add_liquidity`].
    pub fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        self.add_liquidity(amounts)
    }

    /// `remove_liquidity`: coins out and the state after (see
    /// [`StableSwap::remove_liquidity`]).
    ///
    /// # Errors
    /// As [`StableSwap::remove_liquidity`].
    pub fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        self.remove_liquidity(lp)
    }

    /// `remove_liquidity_one_coin`: coins of `i` out and the state after.
    ///
    /// # Errors
    /// As [`StableSwap::remove_liquidity_one_coin`].
    pub fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        self.remove_liquidity_one_coin(lp, i)
    }

    /// Marginal rate d(out)/d(in) of `i` into `j` at zero size, fee included, raw units: from
    /// the invariant's partial derivatives, `(Ann + P/x_i) / (Ann + P/x_j)` with
    /// `P = D^(n+1) / (n^n Π x)`, times `(1 − fee)` and `rate_i / rate_j`. For search only;
    /// 0 when the pool cannot quote.
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        fast::marginal_rate(self, i, j).unwrap_or(0.0)
    }
}

/// Vyper's `a * b / d` ([`mul_then_div`]: the product checked, then floored) as a pool error.
#[inline]
fn md(a: U256, b: U256, d: U256) -> Result<U256, PoolError> {
    Ok(mul_then_div(a, b, d)?)
}

/// `xp` of `balances` and `D` of it (`known_d` when the caller knows it), or why the contract
/// cannot compute them: what a state keeps beside its balances.
fn derived(
    rates: &[U256],
    balances: &[U256],
    amp: U256,
    variant: Variant,
    known_d: Option<U256>,
) -> (Result<Amounts, PoolError>, Result<U256, PoolError>) {
    let xp = xp_mem(rates, balances);
    let d = match (&xp, known_d) {
        (Ok(_), Some(d)) => Ok(d),
        (Ok(xp), None) => fast::get_d(xp, amp, variant),
        (Err(e), _) => Err(*e),
    };
    (xp, d)
}

/// `_xp_mem(rates, balances)`: `rate · balance / 1e18` per coin, the product checked.
fn xp_mem(rates: &[U256], balances: &[U256]) -> Result<Amounts, PoolError> {
    rates
        .iter()
        .zip(balances)
        .map(|(&r, &b)| md(r, b, PRECISION))
        .collect()
}

fn abs_diff(a: U256, b: U256) -> U256 {
    if a > b {
        a.overflowing_sub(b).0
    } else {
        b.overflowing_sub(a).0
    }
}
