//! Zaps: into and out of liquidity positions, with provably optimal rebalancing.
//!
//! | function | what it does |
//! |---|---|
//! | [`zap_in_pool`] | the single-pool optimiser: given a pool and per-coin amounts (any ratio), the plan (zero or one swap through the same pool, then one mint) that mints the most LP |
//! | [`zap_in`] | any tokens and LP tokens into one LP over a [`crate::graph::PoolGraph`]: burns, routed legs, the optimal mint, as one [`crate::plan::Plan`] |
//! | [`zap_out`] | LP tokens (and tokens) into target tokens by proportions: burns, then routed legs |
//! | [`lp_to_lp`] | burn source LPs and zap into a target LP, in one plan |
//!
//! # The single-pool optimiser
//!
//! A plan swaps `s` of coin `i` into coin `j` of the target pool (or nothing), then mints with
//! what the user holds. Every amount comes from the pool types' integer simulation.
//!
//! * **Constant-product and solidly** (volatile and stable). With `h` the holdings after the
//!   swap, `r` the post-swap reserves and `T` the supply the mint uses (Uniswap V2: after
//!   `_mintFee` on the post-swap reserves), the mint is `L(s) = min_k floor(h_k·T/r_k)`. The
//!   term of the coin sold does not increase with `s`, the other does not decrease, so `L` is
//!   the minimum of a decreasing and an increasing step function: an integer binary search
//!   finds their crossing, which holds the maximum, and a second binary search finds the left
//!   end of the plateau of optimal `s`. That end is taken: the smallest swap that mints the
//!   most, so nothing is donated to the pool beyond what the mint needs. Only the coin in
//!   excess at `s = 0` can gain by being sold, so one direction is searched. Constant-product
//!   and solidly volatile first solve the continuous problem in closed form with the pool's
//!   own fee, so the integer searches start next to the answer. Aerodrome's stable `get_y`
//!   reverts (`!y`) at scattered inputs and is slightly non-monotone with non-18-decimal coins:
//!   the searches probe the nearest non-reverting neighbour, and windows around the crossing
//!   and left of the plateau's end are scanned. The user deposits the least amounts that still
//!   mint `L`, `ceil(L·r_k/T)`, and keeps the rest (the refunds of a plan).
//! * **Curve stable-swap.** `add_liquidity` takes any ratio (with imbalance fees), so the
//!   plan is the better of the direct add and, for each ordered coin pair, `exchange(i, j, s)`
//!   followed by adding everything held. `s` is searched with a float-guided integer search;
//!   see [`ZapConfig`].
//!
//! The result's `minted` is always re-simulated: the swap and the mint of the returned plan
//! are run through the pool types, and the optimiser never reports more than they mint.
//!
//! # Plan-level zaps ([`zap_in`], [`zap_out`], [`lp_to_lp`])
//!
//! Each returns one [`crate::plan::Plan`] (steps `Swap`, `Mint`, `Burn`, `BurnOne`, refunds,
//! zap fee) that [`crate::plan::Plan::verify`] re-simulates step by step.
//!
//! # Order of the steps
//!
//! 1. **Fee.** The zap fee ([`ZAP_FEE_BPS`] = 1 bps = 0.01 %, spec item 8: zaps go through
//!    `swapMulti`) is taken from **each input amount as the user gives it**, before any step:
//!    `fee = floor(amount · 1 / 10000)` per input token (LP inputs included), listed in
//!    [`crate::plan::Plan::zap_fee`]. Nothing else is charged: no fee on positive slippage,
//!    none on outputs, none on the rebalancing swap.
//! 2. **Burns.** Every LP input (other than the target LP of a zap-in, which is passed through
//!    to the output as it is) is burned proportionally ([`crate::plan::Step::Burn`]). A Curve
//!    or Saber LP whose pool has exactly one coin the zap needs is instead withdrawn in that coin
//!    ([`crate::plan::Step::BurnOne`]) when that returns more of it than burning proportionally
//!    and swapping the other coins into it through the same pool (compared exactly). That is
//!    the default; a zap-in holding LP tokens of other pools also tries the other ways to
//!    treat each LP token held or delivered by a burn (kept for the deposit or the router,
//!    burned, burned in each coin of a Curve or Saber pool, a quarter to three quarters of an
//!    LP token that is a coin of the target burned), each finished by steps 3 and 4, and keeps
//!    the one that ends with strictly more LP; the amount burned of an LP token that is a coin
//!    of the target is then searched between the quarters around the best (at most 12 more
//!    plans, each finished exactly, kept where it mints strictly more; `multi/treat.rs`).
//! 3. **Routing.** Tokens that are not coins of the target pool (zap-in) or not outputs
//!    (zap-out) are routed by [`crate::route::quote`] on the pool states left by the burns. A
//!    zap-in routes them into the target pool's coins at the output mix that mints the most:
//!    the value shares of the pool's own balances (corrected for target coins the user
//!    already holds) are the default, then every coin alone and a search of the mix, each
//!    candidate quoted, simulated and minted exactly, the default kept unless another mints
//!    strictly more (at most 10 more router quotes; it stops early when the best mint is
//!    within 1e-6 of the certified bound). A zap-out routes them into
//!    the outputs by the proportions; output tokens the burns already delivered count toward
//!    their share, and any excess of them is routed into the other outputs.
//!    With several outputs the split is then solved on exact re-simulations so that the
//!    outputs' value shares at the documented prices ([`zap_out_prices`]: the router's mid
//!    prices on the snapshot's states) are the proportions to 1e-6 where integer amounts allow.
//! 4. **Mint** (zap-in). [`zap_in_pool`] on the target's state after the routing: the
//!    optimal rebalancing swap through the target pool, then [`crate::plan::Step::Mint`] of
//!    the least amounts that mint the most LP.
//!
//! What the mint does not take is returned in [`crate::plan::Plan::refunds`]: the ratio
//! remainder (ceil rounding of the deposit, dust below one LP unit) and, with a surplus
//! threshold, the unmatched surplus the plan chose not to swap ([`ZapInPlan::rebalance`] says
//! which).

pub(crate) mod bound;
mod curve;
mod multi;
mod two;

pub use bound::{mint_upper_bound, SPL_TARGET_SWAPS};
pub use multi::{
    lp_to_lp, zap_fee, zap_in, zap_out, zap_out_prices, ZapCost, ZapInPlan, ZapOptions,
    MAX_ZAP_FEE_BPS, ZAP_FEE_BPS,
};

use crate::error::ZapError;
use crate::pool::{Amounts, Pool};
use primitive_types::U256;

/// Settings of the zap optimiser.
///
/// # The surplus threshold
///
/// `surplus_threshold_ppm` (parts per million of the input value) decides whether the
/// rebalancing swap is made. Without a swap the user deposits the ratio-matched part and gets
/// the unmatched surplus back; the swap converts that surplus into more LP at the cost of the
/// pool's fee. The swap is made only when the value the no-swap plan leaves unminted exceeds
/// the threshold.
///
/// The default is **0**: always the exact optimum. Two reasons. First, nothing is lost by
/// swapping exactly: the optimiser takes the smallest swap that reaches the maximum mint, so it
/// donates nothing, and the pool fee on the swap is part of the optimum's accounting. Second,
/// what a skipped swap saves is gas, which this library does not price; a service that knows the
/// gas price and the input's value can set a threshold (e.g. 100 ppm = 1 bps) so that small
/// imbalances are refunded instead of swapped. Surplus that cannot be matched exactly (integer
/// rounding, a pool where balancing is not possible) is always refunded, never donated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZapConfig {
    /// Rebalance only when the value left unminted without the swap exceeds this many parts
    /// per million of the input value. Default 0 (always optimal).
    pub surplus_threshold_ppm: u32,
    /// Curve: how many integer evaluations the swap-first search may spend per ordered coin
    /// pair beyond its float-guided start. Default 96, at most [`MAX_CURVE_SEARCH_BUDGET`]
    /// (the search ends by itself within about 900: each evaluation pair cuts the bracket of
    /// a 256-bit amount by a third).
    pub curve_search_budget: u32,
}

/// `value` of option `field` within `0..=max`, else [`ZapError::BadOption`].
pub(crate) fn at_most(field: &'static str, value: u32, max: u32) -> Result<(), ZapError> {
    if value > max {
        return Err(ZapError::BadOption {
            field,
            max: u64::from(max),
        });
    }
    Ok(())
}

/// The largest [`ZapConfig::curve_search_budget`] accepted.
pub const MAX_CURVE_SEARCH_BUDGET: u32 = 4096;

/// The largest [`ZapConfig::surplus_threshold_ppm`] accepted (a million parts per million).
pub const MAX_SURPLUS_THRESHOLD_PPM: u32 = 1_000_000;

impl Default for ZapConfig {
    fn default() -> Self {
        Self {
            surplus_threshold_ppm: 0,
            curve_search_budget: 96,
        }
    }
}

impl ZapConfig {
    /// Check every setting against its documented range.
    ///
    /// # Errors
    /// [`ZapError::BadOption`] naming the first setting beyond its range.
    pub fn check(&self) -> Result<(), ZapError> {
        at_most(
            "surplus_threshold_ppm",
            self.surplus_threshold_ppm,
            MAX_SURPLUS_THRESHOLD_PPM,
        )?;
        at_most(
            "curve_search_budget",
            self.curve_search_budget,
            MAX_CURVE_SEARCH_BUDGET,
        )
    }

    /// The exact optimum (threshold 0); the same as [`ZapConfig::default`].
    #[must_use]
    pub fn exact() -> Self {
        Self::default()
    }

    /// This config with another surplus threshold, in parts per million of the input value.
    #[must_use]
    pub fn with_surplus_threshold_ppm(mut self, ppm: u32) -> Self {
        self.surplus_threshold_ppm = ppm;
        self
    }
}

/// The rebalancing swap of a single-pool zap: `amount_in` of coin `from` into coin `to` of the
/// same pool, paying `amount_out`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZapSwap {
    /// coin index sold
    pub from: usize,
    /// coin index bought
    pub to: usize,
    /// exact input
    pub amount_in: U256,
    /// exact output, as the pool computes it
    pub amount_out: U256,
}

/// Why the plan swaps or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rebalance {
    /// No swap mints more than the direct deposit.
    NotNeeded,
    /// The optimal swap is made.
    Swapped,
    /// A swap would mint more, but the value the direct deposit leaves unminted is at most the
    /// surplus threshold: it is refunded instead.
    BelowThreshold {
        /// the unminted value of the direct deposit, in parts per million of the input value
        wasted_ppm: u32,
    },
    /// Under a gas model (plan-level zap-in): the swap would mint `gain` more LP, worth less
    /// than its gas cost (`gas units × gas price`, the price in LP base units per gas unit),
    /// so the plan deposits without it and refunds the surplus.
    NotWorthGas {
        /// LP the swap would have added
        gain: U256,
    },
}

/// The result of [`zap_in_pool`]: one optional swap through the pool, then one mint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZapIn {
    /// the rebalancing swap, if any
    pub swap: Option<ZapSwap>,
    /// LP minted, re-simulated through the pool types
    pub minted: U256,
    /// amounts transferred to the mint, one per coin
    pub deposit: Amounts,
    /// amounts the user keeps (holdings after the swap less the deposit): the refunds
    pub leftover: Amounts,
    /// why the plan swaps or not
    pub rebalance: Rebalance,
    /// which strategy of the optimiser found the plan
    pub strategy: Strategy,
}

/// Which strategy of the single-pool optimiser ([`zap_in_pool`]) found the plan. The
/// two-coin optimiser (constant-product and solidly) tries its searches in the order below,
/// cheapest first, and the first that answers wins; every answer is the same exact optimum,
/// so this says how it was reached, not what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// No search answered with a better plan: the deposit of what is held (holdings already
    /// in the pool's ratio, an empty pool's first mint, a direct deposit that mints at least as
    /// much as any swap, one that the surplus threshold keeps, or a one-coin SPL deposit).
    Direct,
    /// Uniswap V2 with a constant mint supply (protocol fee off or `kLast` 0) whose reserve of
    /// the sold coin is at least 16× the LP supply: the optimum in closed form over the mint,
    /// checked by exact evaluation.
    ClosedForm,
    /// Constant-product and solidly volatile pools whose reserves, amounts and supply fit 128
    /// bits: the crossing of the two mint terms by galloping from the float guess and
    /// bisection, in native `u128` arithmetic.
    Native,
    /// The general search (every two-coin family, 256-bit): the crossing bracketed by
    /// galloping from the float guess, then bisected.
    Bracket,
    /// The general search when the float guess is of no use (none, outside the range of swaps,
    /// or reverting around it): bisection over the whole range of swaps.
    FirstTrue,
    /// Curve and Saber stable-swap: the float-guided integer search of the swap before the
    /// add, over the ordered coin pairs ([`ZapConfig::curve_search_budget`]).
    CurveSearch,
    /// SPL Token Swap: the best of the program's deposit forms after a swap (bisection and a
    /// window for swap-then-deposit-all, or everything swapped then deposited single-sided).
    SplSwap,
}

/// The plan that mints the most LP of `pool` for `amounts` (one per pool coin, any ratio).
///
/// See the [module docs](self) for the method. With [`ZapConfig::exact`] the result is the
/// exact optimum for constant-product and solidly pools (the maximum over every integer swap
/// amount in both directions, and among those the smallest swap), and the best found for Curve.
///
/// # Errors
/// [`ZapError::AmountCount`] when `amounts` has not one entry per coin; [`ZapError::EmptyInput`]
/// when all are zero; [`ZapError::NothingToMint`] when no plan mints anything (dust, or every
/// plan reverts); [`ZapError::Pool`] when the pool state cannot be used;
/// [`ZapError::BadOption`] for a setting of `cfg` beyond its range ([`ZapConfig::check`]).
///
/// # Example
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use swapzap::pool::{ConstantProduct, Pool};
/// use swapzap::zap::{zap_in_pool, ZapConfig};
/// use swapzap::U256;
///
/// // a Uniswap V2 pair (0.3 % fee) holding 10^6 and 2·10^6 with 10^6 LP; zap in 10^4 of coin 0
/// let (r, supply) = ([U256::from(1_000_000u64), U256::from(2_000_000u64)], U256::from(1_000_000u64));
/// let pool = Pool::ConstantProduct(ConstantProduct::new(r, 3, 1000, supply)?);
/// let a = U256::from(10_000u64);
/// let z = zap_in_pool(&pool, &[a, U256::zero()], &ZapConfig::exact())?;
/// // one-sided: part of coin 0 is swapped into coin 1 first
/// let swap = z.swap.ok_or("one-sided zaps swap")?;
/// assert_eq!((swap.from, swap.to), (0, 1));
/// // every unit is accounted for: deposited or kept
/// assert_eq!(z.deposit[0] + z.leftover[0] + swap.amount_in, a);
/// assert_eq!(z.deposit[1] + z.leftover[1], swap.amount_out);
/// // and the LP minted is the pair's own mint of the deposit on the state after the swap
/// let (out, after) = pool.swap(0, 1, swap.amount_in)?;
/// assert_eq!(out, swap.amount_out);
/// assert_eq!(after.mint(&z.deposit)?.0, z.minted);
/// # Ok(())
/// # }
/// ```
pub fn zap_in_pool(pool: &Pool, amounts: &[U256], cfg: &ZapConfig) -> Result<ZapIn, ZapError> {
    cfg.check()?;
    if amounts.len() != pool.n_coins() {
        return Err(ZapError::AmountCount {
            expected: pool.n_coins(),
            got: amounts.len(),
        });
    }
    if amounts.iter().all(U256::is_zero) {
        return Err(ZapError::EmptyInput);
    }
    match pool {
        Pool::ConstantProduct(_) | Pool::Solidly(_) => two::zap_in(pool, amounts, cfg),
        Pool::StableSwap(_) | Pool::Saber(_) => curve::zap_in(pool, amounts, cfg),
        Pool::SplTokenSwap(_) => spl_zap_in(pool, amounts),
        Pool::Whirlpool(_) => Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::WhirlpoolPosition,
        )),
        Pool::ConcentratedLiquidity(_) => Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::ConcentratedLiquidity,
        )),
    }
}

/// SPL Token Swap zap-in, every amount from the program's own math: the most pool tokens of
///
/// * the direct deposit of what is held: one coin, its single-sided deposit
///   (`DepositSingleTokenTypeExactAmountIn`, the trade fee on half of it); both coins,
///   `DepositAllTokenTypes` (`P = min_k floor(h_k·T/r_k)`, the program taking `ceil(P·r_k/T)`
///   of each coin);
/// * a swap of `s` of the coin in excess through the pool, then `DepositAllTokenTypes` (the
///   first term of `P` falls with `s` and the second rises, so an integer bisection finds their
///   crossing and a window around it is evaluated exactly, as for constant-product pools); with
///   one coin held this beats its single-sided deposit where the deposit is small against the
///   pool (the single-sided math's 10^-12 fixed point costs up to about 10^-12·T pool tokens);
/// * swapping all of one coin into the other, then its single-sided deposit.
///
/// Ties keep the earlier of these.
///
/// Every swap offers what the program takes ([`Pool::exact_offer`]); what is not deposited is
/// the leftover (refunded by a plan).
fn spl_zap_in(pool: &Pool, amounts: &[U256]) -> Result<ZapIn, ZapError> {
    let zero = || Amounts::from_slice(&[U256::zero(), U256::zero()]);
    let (a, b) = match amounts {
        [a, b] => (*a, *b),
        _ => {
            return Err(ZapError::Unsupported(
                crate::error::ZapUnsupported::NotTwoCoins {
                    given: amounts.len(),
                },
            ))
        }
    };
    let mut best: Option<ZapIn> = None;
    let mut consider = |z: Option<ZapIn>| {
        if let Some(z) = z {
            if best.as_ref().map_or(true, |b| z.minted > b.minted) {
                best = Some(z);
            }
        }
    };
    if a.is_zero() || b.is_zero() {
        // One coin: its single-sided deposit first; the swap-then-deposit forms below can
        // still mint more (the single-sided deposit's 10^-12 fixed point costs up to about
        // 10^-12·T pool tokens, which dominates on amounts far below the pool's).
        consider(pool.mint(amounts).ok().map(|(minted, _)| ZapIn {
            swap: None,
            minted,
            deposit: Amounts::from_slice(amounts),
            leftover: zero(),
            rebalance: Rebalance::NotNeeded,
            strategy: Strategy::Direct,
        }));
    } else {
        consider(spl_deposit_all(pool, [a, b], None));
    }
    // the coin in excess at s = 0: the larger h_k / r_k
    let r = pool.balances();
    let (ra, rb) = (
        r.first().copied().unwrap_or_default(),
        r.get(1).copied().unwrap_or_default(),
    );
    let excess_a = crate::math::mul(a, rb)
        .ok()
        .zip(crate::math::mul(b, ra).ok())
        .map_or(a > b, |(x, y)| x >= y);
    let (from, to, held) = if excess_a { (0, 1, a) } else { (1, 0, b) };
    let eval = |s: U256| spl_swap_then_deposit_all(pool, [a, b], from, to, s);
    // bisection on "the sold coin still pays for at least as many pool tokens as the other"
    // (a plan whose deposit mints nothing still steers by its terms; only a swap that
    // reverts, a dust swap paying nothing, counts as ahead)
    let sold_ahead =
        |z: &Option<(Option<ZapIn>, [U256; 2])>| z.as_ref().map_or(true, |(_, t)| t[0] >= t[1]);
    let (mut lo, mut hi) = (U256::zero(), held);
    while hi.saturating_sub(lo) > U256::one() {
        #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
        let mid = lo.saturating_add(hi.saturating_sub(lo) >> 1);
        if sold_ahead(&eval(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut s = lo.saturating_sub(U256::from(2u8));
    let end = hi.saturating_add(U256::from(2u8)).min(held);
    while s <= end {
        consider(eval(s).and_then(|(z, _)| z));
        s = s.saturating_add(U256::one());
        if s.is_zero() {
            break;
        }
    }
    for (from, to, sell, keep) in [(1, 0, b, a), (0, 1, a, b)] {
        if !sell.is_zero() {
            consider(spl_swap_all_then_single(pool, from, to, sell, keep));
        }
    }
    best.ok_or(ZapError::NothingToMint)
}

/// `DepositAllTokenTypes` of `held` on `pool`, after the optional swap `sw`.
fn spl_deposit_all(pool: &Pool, held: [U256; 2], sw: Option<ZapSwap>) -> Option<ZapIn> {
    let deposit = spl_all_taken(pool, held)?;
    let (minted, _) = pool.mint(&deposit).ok()?;
    let leftover = Amounts::from_slice(&[
        held[0].checked_sub(deposit[0])?,
        held[1].checked_sub(deposit[1])?,
    ]);
    Some(ZapIn {
        swap: sw,
        minted,
        deposit: Amounts::from_slice(&deposit),
        leftover,
        rebalance: if sw.is_some() {
            Rebalance::Swapped
        } else {
            Rebalance::NotNeeded
        },
        strategy: if sw.is_some() {
            Strategy::SplSwap
        } else {
            Strategy::Direct
        },
    })
}

/// The coins `DepositAllTokenTypes` takes from `held` (at most `held`).
fn spl_all_taken(pool: &Pool, held: [U256; 2]) -> Option<[U256; 2]> {
    let Pool::SplTokenSwap(p) = pool else {
        return None;
    };
    let h = [
        crate::math::wide::to_u128(&held[0])?,
        crate::math::wide::to_u128(&held[1])?,
    ];
    let (_, t) = p.deposit_all_token_types(h).ok()?;
    Some([U256::from(t[0]), U256::from(t[1])])
}

/// Swap `s` of coin `from` (what the program takes of it), then `DepositAllTokenTypes` of the
/// holdings (`None` where it mints nothing); with it, the two terms of `P` (pool tokens each
/// coin pays for: `floor(h·T/r)`, the sold coin's first), for the bisection. `None` where the
/// swap reverts.
fn spl_swap_then_deposit_all(
    pool: &Pool,
    held: [U256; 2],
    from: usize,
    to: usize,
    s: U256,
) -> Option<(Option<ZapIn>, [U256; 2])> {
    if s.is_zero() {
        return None;
    }
    let (taken, out, after) = pool.swap_taken(from, to, s).ok()?;
    let mut h = held;
    h[from] = h[from].checked_sub(taken)?;
    h[to] = h[to].checked_add(out)?;
    let r = after.balances();
    let t = after.total_supply();
    let pays = |k: usize| crate::math::mul_div(h[k], t, *r.get(k)?).ok();
    let terms = [pays(from)?, pays(to)?];
    let sw = ZapSwap {
        from,
        to,
        amount_in: taken,
        amount_out: out,
    };
    Some((spl_deposit_all(&after, h, Some(sw)), terms))
}

/// Swap all of `sell` of coin `from` into `to` (what the program takes of it), then the
/// single-sided deposit of `to`.
fn spl_swap_all_then_single(
    pool: &Pool,
    from: usize,
    to: usize,
    sell: U256,
    keep: U256,
) -> Option<ZapIn> {
    let (taken, out, after) = pool.swap_taken(from, to, sell).ok()?;
    let mut deposit = Amounts::from_slice(&[U256::zero(), U256::zero()]);
    *deposit.get_mut(to)? = keep.checked_add(out)?;
    let (minted, _) = after.mint(&deposit).ok()?;
    let mut leftover = Amounts::from_slice(&[U256::zero(), U256::zero()]);
    *leftover.get_mut(from)? = sell.checked_sub(taken)?;
    Some(ZapIn {
        swap: Some(ZapSwap {
            from,
            to,
            amount_in: taken,
            amount_out: out,
        }),
        minted,
        deposit,
        leftover,
        rebalance: Rebalance::Swapped,
        strategy: Strategy::SplSwap,
    })
}

/// Parts per million of `part / whole` in floats, saturating; for the threshold decision only.
fn ppm(part: f64, whole: f64) -> u32 {
    if whole <= 0.0 || part.is_nan() || whole.is_nan() {
        return 0;
    }
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: no overflow traps.
    let v = part / whole * 1e6;
    if v >= f64::from(u32::MAX) {
        u32::MAX
    } else if v <= 0.0 {
        0
    } else {
        // in range, checked above
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let r = v as u32;
        r
    }
}
