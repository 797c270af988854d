//! Exact pool families. Each family is a plain value type in its own module with the same verbs:
//!
//! | verb | meaning |
//! |---|---|
//! | `amount_out(i, j, dx)` | the contract's own quote for an exact input (`getAmountOut`, `get_dy`) |
//! | `amount_in(i, j, dy)` | the least input whose exact output is at least `dy` |
//! | `swap(i, j, dx)` | the exact-in swap as the contract executes it: the output and the state after |
//! | `mint(amounts)` | LP minted for a deposit, and the state after |
//! | `burn(lp)` | the proportional withdrawal, and the state after |
//! | `burn_one(lp, i)` | one-coin withdrawal (Curve and Saber; other families: `Unsupported`) |
//! | `marginal_rate(i, j)` | d(out)/d(in) at zero size, fee included, raw units: a float for search only |
//!
//! Concentrated-liquidity pools ([`ConcentratedLiquidity`]) have the swap verbs and
//! `marginal_rate`; their positions are not LP tokens, so `mint` / `burn` here are
//! `Unsupported` (the position amounts are [`ConcentratedLiquidity::mint`] / `burn`).
//!
//! [`PoolFamily`] ([`family`]) is the trait of the swap verbs, implemented by all seven family
//! types and by [`Pool`]; [`LpFamily`] adds the LP verbs (`mint`, `burn`, `burn_one`) for the
//! five families with fungible LP tokens. [`Pool`] is a closed enum over the families with the
//! same verbs (one `match` per verb, no `dyn`). Pools are plain values;
//! nothing is shared or global, and every operation returns a new state instead of mutating.

pub mod concentrated_liquidity;
/// `n_coins` (2), `balances` and `total_supply` of a two-coin pool type with fields
/// `$balances: [U256; 2]` and a `total_supply` (an integer or a `U256`).
macro_rules! two_coin_accessors {
    ($balances:ident, $balances_doc:literal, $supply_doc:literal) => {
        /// Number of coins (2).
        #[must_use]
        pub fn n_coins(&self) -> usize {
            2
        }

        #[doc = $balances_doc]
        #[must_use]
        pub fn balances(&self) -> &[U256] {
            &self.$balances
        }

        #[doc = $supply_doc]
        #[must_use]
        pub fn total_supply(&self) -> U256 {
            U256::from(self.total_supply)
        }
    };
}

/// `swap`, `mint` and `burn` in the shape of the [`Pool`] verbs for a two-coin EVM pair with
/// `amount_out` and `swap_exact(i, dx, out)`, `mint_detailed([U256; 2])` (its outcome has
/// `minted` and `pool`) and `burn_detailed(lp)` (its outcome has `amounts: [U256; 2]` and
/// `pool`); `$fee_doc` ends the doc of `swap` with where the fee goes.
macro_rules! pair_verbs {
    ($fee_doc:literal) => {
        /// The exact-in swap as the router runs it: `getAmountOut`, then the contract's `swap`
        /// with exactly that output. Returns the output and the pool after
        #[doc = $fee_doc]
        ///
        /// # Errors
        /// As [`Self::amount_out`] and [`Self::swap_exact`].
        pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
            let out = self.amount_out(i, j, dx)?;
            let pool = self.swap_exact(i, dx, out)?;
            Ok((out, pool))
        }

        /// [`Self::mint_detailed`] in the shape of the [`super::Pool`] verbs: `amounts` must
        /// have two entries.
        ///
        /// # Errors
        /// [`PoolError::InvalidState`] for a slice of the wrong length; as
        /// [`Self::mint_detailed`].
        pub fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
            let &[a0, a1] = amounts else {
                return Err(PoolError::InvalidState(
                    crate::error::PoolStateProblem::MintTwoAmounts,
                ));
            };
            let m = self.mint_detailed([a0, a1])?;
            Ok((m.minted, m.pool))
        }

        /// [`Self::burn_detailed`] in the shape of the [`super::Pool`] verbs.
        ///
        /// # Errors
        /// As [`Self::burn_detailed`].
        pub fn burn(&self, lp: U256) -> Result<(super::Amounts, Self), PoolError> {
            let b = self.burn_detailed(lp)?;
            Ok((super::Amounts::from_slice(&b.amounts), b.pool))
        }
    };
}

pub mod constant_product;
pub mod family;
pub mod saber;
pub mod solidly;
pub mod spl_token_swap;
pub mod stableswap;
pub mod whirlpool;

use crate::error::{MathError, PoolError};
use primitive_types::U256;
use smallvec::SmallVec;

pub use concentrated_liquidity::ConcentratedLiquidity;
pub use constant_product::ConstantProduct;
pub use family::{LpFamily, PoolFamily};
pub use saber::SaberStableSwap;
pub use solidly::Solidly;
pub use spl_token_swap::SplTokenSwap;
pub use stableswap::StableSwap;
pub use whirlpool::Whirlpool;

/// Per-coin amounts of one pool (2 to 8 coins; inline up to 4).
pub type Amounts = SmallVec<[U256; 4]>;

/// The pool families the engine prices exactly.
///
/// A graph holds each pool as a `Pool` ([`crate::graph::PoolInfo::pool`]); the verbs dispatch to
/// the family's own, except `amount_in`, which is the least input for every family.
///
/// # Example
/// ```
/// # fn main() -> Result<(), swapzap::PoolError> {
/// use swapzap::pool::{ConstantProduct, Pool};
/// use swapzap::U256;
///
/// // a Uniswap V2 pair (0.3 % fee) holding 10^6 and 2·10^6
/// let r = [U256::from(1_000_000u64), U256::from(2_000_000u64)];
/// let pool = Pool::ConstantProduct(ConstantProduct::new(r, 3, 1000, U256::zero())?);
/// // getAmountOut: 1000 · 997 · 2·10^6 / (10^6 · 1000 + 1000 · 997) = 1992.01.., floored
/// let out = pool.amount_out(0, 1, U256::from(1_000u64))?;
/// assert_eq!(out, U256::from(1_992u64));
/// // the swap returns the output and the new state; the old one is unchanged
/// let (got, after) = pool.swap(0, 1, U256::from(1_000u64))?;
/// assert_eq!(got, out);
/// assert_eq!(after.balances(), [U256::from(1_001_000u64), U256::from(1_998_008u64)]);
/// assert_eq!(pool.balances()[0], U256::from(1_000_000u64));
/// // the least input that buys `out`: one unit less buys less
/// let least = pool.amount_in(0, 1, out)?;
/// assert_eq!(least, U256::from(1_000u64));
/// assert!(pool.amount_out(0, 1, least - 1)? < out);
/// // the zero-size rate, fee included (a float for searches, never an amount)
/// assert!((pool.marginal_rate(0, 1) - 2.0 * 0.997).abs() < 1e-12);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pool {
    /// Uniswap V2 style x·y = k with a fractional fee that stays in the pool.
    ConstantProduct(ConstantProduct),
    /// Aerodrome / Velodrome V2 pool, volatile or stable; the fee leaves the pool.
    Solidly(Solidly),
    /// Curve stable-swap: classic template, the mainnet 3pool variant, stableswap-ng.
    StableSwap(StableSwap),
    /// Chain 101: SPL Token Swap, constant-product curve (trade and owner fees stay in).
    SplTokenSwap(SplTokenSwap),
    /// Chain 101: Saber StableSwap (two coins, ramped whole A, admin fees leave the pool).
    Saber(SaberStableSwap),
    /// Chain 101: Orca Whirlpool over the tick arrays of the snapshot (no LP token).
    Whirlpool(Whirlpool),
    /// Uniswap V3 style concentrated liquidity (and its forks): ticks, fee tiers as data.
    ConcentratedLiquidity(ConcentratedLiquidity),
}

/// The verbs, callable without importing the traits: each is the [`PoolFamily`] or
/// [`LpFamily`] verb of `Pool` (`family.rs`), one `match` to the family's own.
impl Pool {
    /// Number of coins.
    #[must_use]
    #[inline]
    pub fn n_coins(&self) -> usize {
        PoolFamily::n_coins(self)
    }

    /// Per-coin balances (reserves) in raw units, as the pool counts them.
    #[must_use]
    #[inline]
    pub fn balances(&self) -> &[U256] {
        PoolFamily::balances(self)
    }

    /// LP total supply.
    #[must_use]
    #[inline]
    pub fn total_supply(&self) -> U256 {
        LpFamily::total_supply(self)
    }

    /// The contract's quote for `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// Whatever the contract reverts on, as a [`PoolError`].
    #[inline]
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        PoolFamily::amount_out(self, i, j, dx)
    }

    /// The least input of coin `i` whose exact output of coin `j` is at least `dy`.
    ///
    /// Chain-101 families answer with an exact search over their forward swap (Orca's own
    /// exact-out quote places it).
    ///
    /// Constant-product pools answer with [`ConstantProduct::min_amount_in`], not the router's
    /// `getAmountIn` ([`ConstantProduct::amount_in`], which adds 1 and so is one above the
    /// least when its division is exact). Stable Solidly pools with non-18-decimal tokens
    /// guarantee a local minimum only (see [`Solidly::amount_in`]).
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no input reaches `dy`; others as the contract.
    #[inline]
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        PoolFamily::amount_in(self, i, j, dy)
    }

    /// The exact-in swap as the contract executes it: the output and the state after.
    ///
    /// # Errors
    /// Whatever the contract reverts on.
    #[inline]
    pub fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Pool), PoolError> {
        PoolFamily::swap(self, i, j, dx)
    }

    /// The input to offer for an exact-in swap of up to `dx` so that the pool takes all of
    /// it: `dx` itself for every family except SPL Token Swap, whose program transfers only
    /// the source amount its curve used ([`SplTokenSwap::exact_offer`]; the output for the
    /// returned offer is at least the output for `dx`), and a concentrated-liquidity pool or
    /// Whirlpool whose known ticks cannot absorb `dx`: the input that takes the price exactly
    /// to the window's edge ([`ConcentratedLiquidity::exact_offer`],
    /// [`Whirlpool::exact_offer`]). A plan's swap step spends exactly its `amount_in`, so it
    /// offers this amount and keeps the difference.
    ///
    /// # Errors
    /// As [`Pool::swap`] for SPL Token Swap; `dx` above `u128` there; a concentrated-liquidity
    /// pool's or Whirlpool's own.
    #[inline]
    pub fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        PoolFamily::exact_offer(self, i, j, dx)
    }

    /// [`Pool::exact_offer`] then [`Pool::swap`] of that offer: `(amount taken, output, state
    /// after)`, with the amount taken at most `dx`.
    ///
    /// # Errors
    /// As [`Pool::exact_offer`] and [`Pool::swap`].
    #[inline]
    pub fn swap_taken(
        &self,
        i: usize,
        j: usize,
        dx: U256,
    ) -> Result<(U256, U256, Pool), PoolError> {
        PoolFamily::swap_taken(self, i, j, dx)
    }

    /// LP minted for depositing `amounts` (one per coin), and the state after.
    ///
    /// # Errors
    /// Whatever the contract reverts on.
    #[inline]
    pub fn mint(&self, amounts: &[U256]) -> Result<(U256, Pool), PoolError> {
        LpFamily::mint(self, amounts)
    }

    /// Coins returned for burning `lp` proportionally, and the state after.
    ///
    /// # Errors
    /// Whatever the contract reverts on.
    #[inline]
    pub fn burn(&self, lp: U256) -> Result<(Amounts, Pool), PoolError> {
        LpFamily::burn(self, lp)
    }

    /// Coins of `i` returned for burning `lp` into that one coin (Curve
    /// `remove_liquidity_one_coin`, Saber `WithdrawOne`), and the state after.
    ///
    /// # Errors
    /// [`PoolError::Unsupported`] for families without one-coin withdrawal; otherwise what the
    /// contract reverts on.
    #[inline]
    pub fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Pool), PoolError> {
        LpFamily::burn_one(self, lp, i)
    }

    /// Marginal exchange rate d(out)/d(in) of `i` into `j` at zero size, fee included, in raw
    /// units. For search only: never produces an amount.
    #[must_use]
    #[inline]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        PoolFamily::marginal_rate(self, i, j)
    }
}

/// [`MathError::Overflow`] as a pool error (for the native-width helpers of the pool files).
pub(crate) const OVERFLOW: PoolError = PoolError::Math(MathError::Overflow);
/// [`MathError::Underflow`] as a pool error.
pub(crate) const UNDERFLOW: PoolError = PoolError::Math(MathError::Underflow);
/// [`MathError::DivisionByZero`] as a pool error.
pub(crate) const DIV0: PoolError = PoolError::Math(MathError::DivisionByZero);

/// The coin indices of a two-coin pool's swap: both 0 or 1, and different.
///
/// # Errors
/// [`PoolError::TokenIndex`] for an index above 1, [`PoolError::SameToken`] for `i == j`.
#[inline]
pub(crate) fn pair(i: usize, j: usize) -> Result<(), PoolError> {
    for index in [i, j] {
        if index > 1 {
            return Err(PoolError::TokenIndex { index, n_coins: 2 });
        }
    }
    if i == j {
        return Err(PoolError::SameToken);
    }
    Ok(())
}

/// The coins a proportional burn of `lp` pays from two reserves over the supply `ts`:
/// `lp·r_k / ts`, floors (`UniswapV2Pair.burn`, Aerodrome `Pool.burn`).
///
/// # Errors
/// [`PoolError::InsufficientLiquidityBurned`] when a coin would pay 0; division by a zero
/// supply, overflow.
pub(crate) fn pro_rata_two(
    lp: U256,
    [r0, r1]: [U256; 2],
    ts: U256,
) -> Result<[U256; 2], PoolError> {
    let a0 = crate::math::mul_then_div(lp, r0, ts)?;
    let a1 = crate::math::mul_then_div(lp, r1, ts)?;
    if a0.is_zero() || a1.is_zero() {
        return Err(PoolError::InsufficientLiquidityBurned);
    }
    Ok([a0, a1])
}

/// The checks before an exact-out search on a two-coin pool: valid indices, `dy > 0` and
/// below the output balance. Returns `dy` as a `u128`.
///
/// # Errors
/// As [`pair`]; [`PoolError::InsufficientOutputAmount`] for 0,
/// [`PoolError::UnreachableOutput`] at or above the balance.
pub(crate) fn exact_out_target(
    i: usize,
    j: usize,
    dy: U256,
    balances: &[U256],
) -> Result<u128, PoolError> {
    pair(i, j)?;
    if dy.is_zero() {
        return Err(PoolError::InsufficientOutputAmount);
    }
    match (balances.get(j), crate::math::wide::to_u128(&dy)) {
        (Some(b), Some(want)) if dy < *b => Ok(want),
        _ => Err(PoolError::UnreachableOutput),
    }
}

/// The least input `x` with `out(x) >= want`, for a non-decreasing `out` (an exact forward
/// quote that answers 0 where the pool refuses). `guess` is a float estimate that only
/// places the search; the answer comes from `out` alone.
///
/// # Errors
/// [`PoolError::UnreachableOutput`] when even `u128::MAX` does not reach `want`.
pub(crate) fn least_input(
    guess: f64,
    want: u128,
    out: impl Fn(u128) -> u128,
) -> Result<u128, PoolError> {
    let g = if guess.is_finite() && guess >= 1.0 {
        if guess >= 3.4e38 {
            u128::MAX
        } else {
            guess as u128
        }
    } else {
        1
    };
    // Bracket: out(lo) < want <= out(hi), with lo = 0 allowed (out(0) is taken as 0 < want).
    let (mut lo, mut hi);
    if out(g) >= want {
        hi = g;
        let mut step: u128 = (g >> 20).max(1);
        loop {
            let l = hi.saturating_sub(step);
            if l == 0 || out(l) < want {
                lo = l;
                break;
            }
            hi = l;
            step = step.saturating_mul(2);
        }
    } else {
        lo = g;
        let mut step: u128 = (g >> 20).max(1);
        loop {
            let h = lo.saturating_add(step);
            if out(h) >= want {
                hi = h;
                break;
            }
            if h == u128::MAX {
                return Err(PoolError::UnreachableOutput);
            }
            lo = h;
            step = step.saturating_mul(2);
        }
    }
    while hi.saturating_sub(lo) > 1 {
        let mid = lo.saturating_add(hi.saturating_sub(lo) >> 1);
        if out(mid) >= want {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}
