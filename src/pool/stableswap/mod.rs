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

use super::Amounts;
use crate::error::PoolError;
use crate::math::{add, div, mul, mul_then_div, sub};
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
        Ok(Self::build(
            p.variant,
            p.balances,
            p.rates,
            admin_balances,
            amp,
            p.fee,
            p.admin_fee,
            p.offpeg_fee_multiplier,
            p.total_supply,
            None,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        variant: Variant,
        balances: Amounts,
        rates: Amounts,
        admin_balances: Amounts,
        amp: U256,
        fee: U256,
        admin_fee: U256,
        offpeg: U256,
        total_supply: U256,
        known_d: Option<U256>,
    ) -> Self {
        let xp = xp_mem(&rates, &balances);
        let d = match (&xp, known_d) {
            (Ok(_), Some(d)) => Ok(d),
            (Ok(xp), None) => fast::get_d(xp, amp, variant),
            (Err(e), _) => Err(*e),
        };
        Self {
            inner: Box::new(Inner {
                variant,
                balances,
                rates,
                admin_balances,
                amp,
                fee,
                admin_fee,
                offpeg,
                total_supply,
                xp,
                d,
            }),
        }
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
        Self::build(
            self.inner.variant,
            balances,
            self.inner.rates.clone(),
            admin_balances,
            self.inner.amp,
            self.inner.fee,
            self.inner.admin_fee,
            self.inner.offpeg,
            total_supply,
            known_d,
        )
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

    // ------------------------------------------------------------------ swaps

    /// `get_dy(i, j, dx)`: the contract's quote for selling `dx` of coin `i` for coin `j`
    /// (NG: the Views contract's). Rounds down, in the pool's favour (one more wei is kept).
    ///
    /// # Errors
    /// [`PoolError::TokenIndex`], [`PoolError::SameToken`], or what the contract reverts on
    /// (overflow, a zero balance, no convergence).
    pub fn get_dy(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        self.check_pair(i, j)?;
        if let Some(out) = fast::get_dy(self, i, j, dx) {
            return Ok(out);
        }
        let xp = self.xp()?;
        let d = self.inner.d?;
        let x = add(xp[i], md(dx, self.rate(i), PRECISION)?)?;
        let y = fast::get_y(i, j, x, xp, self.inner.amp, d, self.inner.variant)?;
        let dy = sub(sub(xp[j], y)?, U256::one())?;
        match self.inner.variant {
            Variant::Classic => {
                let fee = md(self.inner.fee, dy, FEE_DENOMINATOR)?;
                Ok(md(sub(dy, fee)?, PRECISION, self.rate(j))?)
            }
            Variant::ThreePool => {
                let dy = md(dy, PRECISION, self.rate(j))?;
                let fee = md(self.inner.fee, dy, FEE_DENOMINATOR)?;
                Ok(sub(dy, fee)?)
            }
            Variant::Ng => {
                let two = U256::from(2u8);
                let f = invariant::dynamic_fee(
                    div(add(xp[i], x)?, two)?,
                    div(add(xp[j], y)?, two)?,
                    self.inner.fee,
                    self.inner.offpeg,
                )?;
                let fee = md(f, dy, FEE_DENOMINATOR)?;
                Ok(md(sub(dy, fee)?, PRECISION, self.rate(j))?)
            }
        }
    }

    /// `exchange(i, j, dx, 0)`: coins out and the state after. Rounds down.
    ///
    /// # Errors
    /// As [`StableSwap::get_dy`]; NG also refuses `dx = 0`
    /// ([`PoolError::InsufficientInputAmount`]) and reverts when its oracle refresh does
    /// ([`PoolError::OracleRevert`]).
    pub fn exchange(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        self.check_pair(i, j)?;
        let ng = self.inner.variant == Variant::Ng;
        if ng && dx.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let xp = self.xp()?;
        let d = self.inner.d?;
        let (out, admin, x, y) = match fast::exchange(self, i, j, dx) {
            Some(r) => r,
            None => self.exchange_amounts(i, j, dx)?,
        };
        let mut balances = self.inner.balances.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        balances[i] = add(balances[i], dx)?;
        balances[j] = sub(sub(balances[j], out)?, admin)?;
        admin_balances[j] = add(admin_balances[j], admin)?;
        if ng {
            // The coin balance the contract stores must fit too.
            add(balances[i], admin_balances[i])?;
            let mut xo = xp.clone();
            xo[i] = x;
            xo[j] = y;
            invariant::oracle_check(&xo, self.inner.amp, d)?;
        }
        Ok((
            out,
            self.with_state(balances, admin_balances, self.inner.total_supply),
        ))
    }

    /// `exchange`'s amounts on U256: (out, admin fee in coin units, x, y).
    fn exchange_amounts(
        &self,
        i: usize,
        j: usize,
        dx: U256,
    ) -> Result<(U256, U256, U256, U256), PoolError> {
        let xp = self.xp()?;
        let d = self.inner.d?;
        let x = add(xp[i], md(dx, self.rate(i), PRECISION)?)?;
        let y = fast::get_y(i, j, x, xp, self.inner.amp, d, self.inner.variant)?;
        let dy = sub(sub(xp[j], y)?, U256::one())?;
        let f = if self.inner.variant == Variant::Ng {
            let two = U256::from(2u8);
            invariant::dynamic_fee(
                div(add(xp[i], x)?, two)?,
                div(add(xp[j], y)?, two)?,
                self.inner.fee,
                self.inner.offpeg,
            )?
        } else {
            self.inner.fee
        };
        let dy_fee = md(dy, f, FEE_DENOMINATOR)?;
        let out = md(sub(dy, dy_fee)?, PRECISION, self.rate(j))?;
        let admin = div(
            mul(
                md(dy_fee, self.inner.admin_fee, FEE_DENOMINATOR)?,
                PRECISION,
            )?,
            self.rate(j),
        )?;
        Ok((out, admin, x, y))
    }

    // ------------------------------------------------------------------ liquidity

    /// `get_D` of the pool's rates and amplification on other `balances`.
    fn d_of(&self, balances: &[U256]) -> Result<U256, PoolError> {
        fast::get_d(
            &xp_mem(&self.inner.rates, balances)?,
            self.inner.amp,
            self.inner.variant,
        )
    }

    /// `calc_token_amount(amounts, is_deposit)`. Classic and 3pool charge no fee (the D
    /// difference times supply over D0); NG (Views contract) charges the dynamic imbalance fee
    /// and returns `D1` on an empty pool. Rounds down.
    ///
    /// # Errors
    /// What the contract reverts on (a withdrawal above a balance, a D that shrinks on
    /// deposit, a zero `D0`, ...).
    pub fn calc_token_amount(&self, amounts: &[U256], is_deposit: bool) -> Result<U256, PoolError> {
        self.check_amounts(amounts)?;
        let d0 = self.inner.d?;
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            *b = if is_deposit { add(*b, a)? } else { sub(*b, a)? };
        }
        let d1 = self.d_of(&new)?;
        let ts = self.inner.total_supply;
        let d2 = if self.inner.variant == Variant::Ng {
            if ts.is_zero() {
                return Ok(d1);
            }
            let base_fee = self.base_fee()?;
            let ys = div(add(d0, d1)?, invariant::nu(self.n_coins()))?;
            for k in 0..self.n_coins() {
                let ideal = md(d1, old[k], d0)?;
                let diff = abs_diff(ideal, new[k]);
                let xs = md(self.rate(k), add(old[k], new[k])?, PRECISION)?;
                let f = invariant::dynamic_fee(xs, ys, base_fee, self.inner.offpeg)?;
                new[k] = sub(new[k], md(f, diff, FEE_DENOMINATOR)?)?;
            }
            self.d_of(&new)?
        } else {
            d1
        };
        let diff = if is_deposit {
            sub(d2, d0)?
        } else {
            sub(d0, d2)?
        };
        md(diff, ts, d0)
    }

    /// `add_liquidity(amounts, 0)`: LP minted and the state after. Rounds down.
    ///
    /// # Errors
    /// [`PoolError::InvalidFirstDeposit`] when the pool is empty and a coin is missing;
    /// [`PoolError::InsufficientLiquidityMinted`] when D does not grow; NG
    /// [`PoolError::OracleRevert`]; overflow.
    pub fn add_liquidity(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        self.check_amounts(amounts)?;
        let ts = self.inner.total_supply;
        let n = self.n_coins();
        let ng = self.inner.variant == Variant::Ng;
        let d0 = if self.inner.variant == Variant::ThreePool && ts.is_zero() {
            U256::zero()
        } else {
            self.inner.d?
        };
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            if ts.is_zero() && a.is_zero() {
                return Err(PoolError::InvalidFirstDeposit);
            }
            *b = add(*b, a)?;
        }
        if ng {
            for k in 0..n {
                add(new[k], self.inner.admin_balances[k])?;
            }
        }
        let d1 = self.d_of(&new)?;
        if d1 <= d0 {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        if ts.is_zero() {
            if ng && d1.bits() > 128 {
                return Err(PoolError::OracleRevert);
            }
            let st = self.with_state_d(
                new,
                self.inner.admin_balances.clone(),
                add(ts, d1)?,
                Some(d1),
            );
            return Ok((d1, st));
        }
        let (stored, admin_balances, d2) = self.charge_imbalance_fee(old, new, d0, d1)?;
        let minted = md(ts, sub(d2, d0)?, d0)?;
        let known = self.known_d_after_fees(d1, d2);
        let st = self.with_state_d(stored, admin_balances, add(ts, minted)?, known);
        Ok((minted, st))
    }

    /// The imbalance fee that `add_liquidity` and `remove_liquidity_imbalance` both charge:
    /// per coin `fee_k = f_k · |D1·old_k/D0 − new_k| / 1e10` (NG: `f_k` the dynamic fee at
    /// `xs = rate·(old + new)/1e18`, `ys = (D0 + D1)/N`), the admin share leaving the stored
    /// balance. Returns the stored balances, the admin balances after and D2 (computed on
    /// `new − fee`), with the NG oracle check on the post-fee state.
    fn charge_imbalance_fee(
        &self,
        old: &Amounts,
        mut new: Amounts,
        d0: U256,
        d1: U256,
    ) -> Result<(Amounts, Amounts, U256), PoolError> {
        let n = self.n_coins();
        let ng = self.inner.variant == Variant::Ng;
        let base_fee = self.base_fee()?;
        let ys = if ng {
            div(add(d0, d1)?, invariant::nu(n))?
        } else {
            U256::zero()
        };
        let mut stored = new.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        for k in 0..n {
            let ideal = md(d1, old[k], d0)?;
            let diff = abs_diff(ideal, new[k]);
            let f = if ng {
                let xs = md(self.rate(k), add(old[k], new[k])?, PRECISION)?;
                invariant::dynamic_fee(xs, ys, base_fee, self.inner.offpeg)?
            } else {
                base_fee
            };
            let fee_k = md(f, diff, FEE_DENOMINATOR)?;
            let admin_k = md(fee_k, self.inner.admin_fee, FEE_DENOMINATOR)?;
            stored[k] = sub(new[k], admin_k)?;
            admin_balances[k] = add(admin_balances[k], admin_k)?;
            new[k] = sub(new[k], fee_k)?;
        }
        let xp2 = xp_mem(&self.inner.rates, &new)?;
        let d2 = fast::get_d(&xp2, self.inner.amp, self.inner.variant)?;
        if ng {
            invariant::oracle_check(&xp2, self.inner.amp, d2)?;
        }
        Ok((stored, admin_balances, d2))
    }

    /// `remove_liquidity(lp, [0..])`: coins out (`balance · lp / supply`, rounded down) and
    /// the state after. No fee. NG pools also pay out the admin balances to the fee receiver
    /// in this call when one is set; that leaves `balances` unchanged, and this model keeps
    /// `admin_balances` as they were (a pool without a fee receiver).
    ///
    /// # Errors
    /// [`PoolError::BurnExceedsSupply`] when `lp` is above the supply; NG refuses `lp = 0`
    /// ([`PoolError::InsufficientInputAmount`]); division by zero on an empty classic pool.
    pub fn remove_liquidity(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        let ts = self.inner.total_supply;
        let ng = self.inner.variant == Variant::Ng;
        if ng && lp.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let mut out = Amounts::new();
        let mut balances = self.inner.balances.clone();
        for b in &mut balances {
            let prod = mul(*b, lp)?;
            // NG uses unsafe_div: a zero supply gives 0 (and the burn below reverts).
            let v = if ng && ts.is_zero() {
                U256::zero()
            } else {
                div(prod, ts)?
            };
            *b = sub(*b, v)?;
            out.push(v);
        }
        let ts_after = sub(ts, lp).map_err(|_| PoolError::BurnExceedsSupply)?;
        Ok((
            out,
            self.with_state(balances, self.inner.admin_balances.clone(), ts_after),
        ))
    }

    fn one_coin(&self, lp: U256, i: usize) -> Result<OneCoin, PoolError> {
        self.check_index(i)?;
        let xp = self.xp()?;
        let d0 = self.inner.d?;
        let ts = self.inner.total_supply;
        let d1 = sub(d0, md(lp, d0, ts)?)?;
        let new_y = fast::get_y_d(i, xp, self.inner.amp, d1, self.inner.variant)?;
        let base_fee = self.base_fee()?;
        let ng = self.inner.variant == Variant::Ng;
        let n = self.n_coins();
        let ys = if ng {
            div(add(d0, d1)?, mul(U256::from(2u8), invariant::nu(n))?)?
        } else {
            U256::zero()
        };
        let mut reduced = xp.clone();
        for k in 0..n {
            let xk = xp[k];
            let (dx_expected, xavg) = if k == i {
                let e = sub(md(xk, d1, d0)?, new_y)?;
                let avg = if ng {
                    div(add(xk, new_y)?, U256::from(2u8))?
                } else {
                    xk
                };
                (e, avg)
            } else {
                (sub(xk, md(xk, d1, d0)?)?, xk)
            };
            let f = if ng {
                invariant::dynamic_fee(xavg, ys, base_fee, self.inner.offpeg)?
            } else {
                base_fee
            };
            reduced[k] = sub(xk, md(f, dx_expected, FEE_DENOMINATOR)?)?;
        }
        let dy = sub(
            reduced[i],
            fast::get_y_d(i, &reduced, self.inner.amp, d1, self.inner.variant)?,
        )?;
        let (dy, dy0) = if ng {
            let r = self.rate(i);
            let dy0 = md(sub(xp[i], new_y)?, PRECISION, r)?;
            (md(sub(dy, U256::one())?, PRECISION, r)?, dy0)
        } else {
            let pm = self.precision_mul(i);
            let dy0 = div(sub(xp[i], new_y)?, pm)?;
            (div(sub(dy, U256::one())?, pm)?, dy0)
        };
        Ok(OneCoin {
            dy,
            fee: sub(dy0, dy)?,
            new_y,
            d1,
        })
    }

    /// `calc_withdraw_one_coin(lp, i)`: coins of `i` out for burning `lp`, fee included.
    /// Rounds down (one more wei is kept).
    ///
    /// # Errors
    /// [`PoolError::TokenIndex`], or what the contract reverts on.
    pub fn calc_withdraw_one_coin(&self, lp: U256, i: usize) -> Result<U256, PoolError> {
        Ok(self.one_coin(lp, i)?.dy)
    }

    /// `remove_liquidity_one_coin(lp, i, 0)`: coins of `i` out and the state after.
    ///
    /// # Errors
    /// As [`StableSwap::calc_withdraw_one_coin`]; [`PoolError::BurnExceedsSupply`]; NG refuses
    /// `lp = 0` and reverts on its oracle refresh (e.g. a coin drained to 0).
    pub fn remove_liquidity_one_coin(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        let ng = self.inner.variant == Variant::Ng;
        if ng && lp.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let r = self.one_coin(lp, i)?;
        let admin = md(r.fee, self.inner.admin_fee, FEE_DENOMINATOR)?;
        let mut balances = self.inner.balances.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        balances[i] = sub(balances[i], add(r.dy, admin)?)?;
        admin_balances[i] = add(admin_balances[i], admin)?;
        let ts_after =
            sub(self.inner.total_supply, lp).map_err(|_| PoolError::BurnExceedsSupply)?;
        if ng {
            let mut xo = self.xp()?.clone();
            xo[i] = r.new_y;
            invariant::oracle_check(&xo, self.inner.amp, r.d1)?;
        }
        Ok((r.dy, self.with_state(balances, admin_balances, ts_after)))
    }

    /// `remove_liquidity_imbalance(amounts, max)`: LP burned (rounded up: `+ 1`) and the state
    /// after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientLiquidityBurned`] when nothing would be burned;
    /// [`PoolError::BurnExceedsSupply`]; a withdrawal above a balance; NG
    /// [`PoolError::OracleRevert`]; 3pool refuses an empty pool
    /// ([`PoolError::InsufficientLiquidity`]).
    pub fn remove_liquidity_imbalance(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        self.check_amounts(amounts)?;
        let ts = self.inner.total_supply;
        if self.inner.variant == Variant::ThreePool && ts.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let d0 = self.inner.d?;
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            *b = sub(*b, a)?;
        }
        let d1 = self.d_of(&new)?;
        let (stored, admin_balances, d2) = self.charge_imbalance_fee(old, new, d0, d1)?;
        let burned = md(sub(d0, d2)?, ts, d0)?;
        if burned.is_zero() {
            return Err(PoolError::InsufficientLiquidityBurned);
        }
        let burned = add(burned, U256::one())?;
        let ts_after = sub(ts, burned).map_err(|_| PoolError::BurnExceedsSupply)?;
        let known = self.known_d_after_fees(d1, d2);
        Ok((
            burned,
            self.with_state_d(stored, admin_balances, ts_after, known),
        ))
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
    /// forward functions, so `dx - 1` pays less than `dy` by one of them.
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
