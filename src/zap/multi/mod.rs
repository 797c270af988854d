//! Plan-level zaps over a [`PoolGraph`]; documented in the [`zap`](super) module. One room
//! per step:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the options, the zap-in result, the helpers both directions share (gas, prices, proportions) |
//! | `ctx.rs` | the plan being built: states, holdings, steps; the fee, burns, swaps and routed legs |
//! | `zap_in.rs` | zap-in and its bound: legs routed into the target's coins, then the optimal mint |
//! | `lp_bound.rs` | the bound of zap-ins with LP inputs of other pools (the burned pools bounded as a whole) |
//! | `treat.rs` | zap-in with LP tokens held: the ways to treat each (kept, burned, burned in one coin), chosen by exact mint |
//! | `split.rs` | zap-in: the output mix of the routed legs that mints the most, each candidate an exact plan |
//! | `zap_out.rs` | zap-out: legs routed into the outputs, the split solved on exact re-simulations |

use super::{Rebalance, Strategy, ZapConfig};
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::math::float::{sqrt_or_zero, to_f64};
use crate::plan::Plan;
use crate::pool::Pool;
use crate::route::GasModel;
use crate::units::{PoolId, TokenId};
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

mod ctx;
mod lp_bound;
mod shares;
mod split;
mod treat;
mod zap_in;
mod zap_out;

pub use zap_in::zap_in;
pub use zap_out::{zap_out, zap_out_prices};

/// The zap fee in basis points: 0.01 % (spec item 8, `swapMulti`).
pub const ZAP_FEE_BPS: u32 = 1;

/// The largest [`ZapOptions::fee_bps`] accepted: 10,000 basis points, the whole input.
pub const MAX_ZAP_FEE_BPS: u32 = 10_000;

/// The zap fee of `fee_bps` basis points on `amount`: `floor(amount · fee_bps / 10_000)` (the
/// user keeps the remainder).
///
/// # Errors
/// None in practice (a full-width `mul_div` by a non-zero constant); typed all the same.
pub fn zap_fee(amount: U256, fee_bps: u32) -> Result<U256, crate::error::MathError> {
    crate::math::mul_div(amount, U256::from(fee_bps), U256::from(MAX_ZAP_FEE_BPS))
}

/// Options of a plan-level zap. Every size has a range and a typed error beyond it:
/// `fee_bps` ([`MAX_ZAP_FEE_BPS`]) and `config` ([`ZapConfig::check`]) as
/// [`ZapError::BadOption`], `max_hops` (1 to [`crate::route::MAX_HOPS_LIMIT`]) and `slippage`
/// ([0, 1]) as the router's [`crate::error::RouteError::BadRequest`] inside
/// [`ZapError::Route`].
#[derive(Debug, Clone, PartialEq)]
pub struct ZapOptions {
    /// The single-pool optimiser's settings (surplus threshold).
    pub config: ZapConfig,
    /// Slippage limit as a fraction: `min_amount = floor(amount × (1 − slippage))`.
    pub slippage: Ratio<u64>,
    /// Hop limit of the swap legs (`None`: none, as [`crate::route::RouteRequest::max_hops`]).
    pub max_hops: Option<usize>,
    /// The zap fee in basis points of each input (default [`ZAP_FEE_BPS`]; at most
    /// [`MAX_ZAP_FEE_BPS`], the whole input).
    pub fee_bps: u32,
    /// Only pools of these sources for the swap legs (when given). Burns of the LP inputs and
    /// the target pool's own rebalancing swap and mint are named by the request and always
    /// allowed.
    pub source_whitelist: Option<Vec<String>>,
    /// Never pools of these sources for the swap legs.
    pub source_blacklist: Vec<String>,
    /// Optional gas pricing of the swap legs (see
    /// [`RouteRequest::gas`](crate::route::RouteRequest::gas)); the plan's `gas_units` count
    /// every swap step under it.
    pub gas: Option<GasModel>,
}

impl ZapOptions {
    /// Check every option against its documented range (the router checks `max_hops` and
    /// `slippage` when a swap leg is quoted).
    ///
    /// # Errors
    /// [`ZapError::BadOption`] naming the first option beyond its range.
    pub fn check(&self) -> Result<(), ZapError> {
        super::at_most("fee_bps", self.fee_bps, MAX_ZAP_FEE_BPS)?;
        self.config.check()
    }
}

impl Default for ZapOptions {
    fn default() -> Self {
        Self {
            config: ZapConfig::default(),
            slippage: Ratio::new_raw(5, 1000),
            max_hops: None,
            fee_bps: ZAP_FEE_BPS,
            source_whitelist: None,
            source_blacklist: Vec::new(),
            gas: None,
        }
    }
}

/// A zap-in plan and what its final mint decided.
#[derive(Debug, Clone)]
pub struct ZapInPlan {
    /// the plan
    pub plan: Plan,
    /// the target pool
    pub pool: PoolId,
    /// LP minted by the final mint (the output may also hold target LP passed through)
    pub minted: U256,
    /// whether the target pool's rebalancing swap was made, and why
    pub rebalance: Rebalance,
    /// which strategy of the single-pool optimiser found the final mint (`None`: nothing was
    /// minted, only the target's own LP was given)
    pub strategy: Option<Strategy>,
    /// what the plan cost to find: router quotes and certified bound solves
    pub cost: ZapCost,
}

/// What a zap-in spent finding its plan, in the router's units of work: each is one
/// certified dual solve of the routed legs over the graph (the split search's quotes, the
/// bound's solves). Nothing is timed; the counts are the same on every run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ZapCost {
    /// router quotes of the routed legs (every output mix tried; 0 when nothing was routed)
    pub router_quotes: u32,
    /// certified bounds on the routed legs ([`crate::route::weighted_output_bound`] and its
    /// form with burned pools)
    pub bound_solves: u32,
}

/// The gas price of the options' gas model, where gas is priced (not on chain 101).
fn gas_price_of(graph: &PoolGraph, opts: &ZapOptions) -> Option<f64> {
    opts.gas
        .filter(|_| graph.chain_id() != crate::chain::CHAIN_101)
        .map(|g| g.gas_price)
}

/// `amount` less the gas cost of `units` under the options' gas model (none on chain 101), as a
/// float: the value of a one-output plan.
fn net_of_gas(graph: &PoolGraph, amount: U256, units: u64, opts: &ZapOptions) -> f64 {
    let price = gas_price_of(graph, opts).unwrap_or(0.0);
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let v = to_f64(amount) - units as f64 * price;
    v
}

/// Float shares (positive, any scale) as proportions summing to exactly 1 (parts per 10^9);
/// zero shares are dropped.
fn proportions(shares: &[(TokenId, f64)]) -> Vec<(TokenId, Ratio<u64>)> {
    const DEN: u64 = 1_000_000_000;
    let total: f64 = shares.iter().map(|s| s.1.max(0.0)).sum();
    if total <= 0.0 || total.is_nan() {
        return Vec::new();
    }
    let mut parts: Vec<(TokenId, u64)> = shares
        .iter()
        .filter_map(|(t, w)| {
            #[allow(
                clippy::arithmetic_side_effects,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            // f64 in [0, 1e9]
            let p = (w.max(0.0) / total * DEN as f64 + 0.5) as u64;
            (p > 0).then_some((*t, p))
        })
        .collect();
    let sum: u64 = parts.iter().map(|p| p.1).fold(0u64, u64::saturating_add);
    // Put the rounding difference on the largest part.
    if let Some(big) = parts.iter_mut().max_by_key(|p| p.1) {
        if sum > DEN {
            big.1 = big.1.saturating_sub(sum.saturating_sub(DEN));
        } else {
            big.1 = big.1.saturating_add(DEN.saturating_sub(sum));
        }
    }
    parts.retain(|p| p.1 > 0);
    parts
        .into_iter()
        .map(|(t, p)| (t, Ratio::new(p, DEN)))
        .collect()
}

/// Value of one raw unit of each coin of `pool` in raw units of coin 0, from the pool's own
/// marginal rates (fee-free mid: `√(rate(k→0) / rate(0→k))`). A guide for the split only.
fn coin_prices(pool: &Pool) -> Vec<f64> {
    (0..pool.n_coins())
        .map(|k| {
            if k == 0 {
                return 1.0;
            }
            let fwd = pool.marginal_rate(k, 0);
            let back = pool.marginal_rate(0, k);
            #[allow(clippy::arithmetic_side_effects)] // f64
            if fwd > 0.0 && back > 0.0 {
                sqrt_or_zero(fwd / back)
            } else if fwd > 0.0 {
                fwd
            } else {
                0.0
            }
        })
        .collect()
}

/// LP-to-LP: burn the source LP(s) (and take any tokens), zap into `lp_out`, in one plan. The
/// same as [`zap_in`] with LP inputs.
///
/// # Errors
/// As [`zap_in`].
///
/// # Example
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use swapzap::{graph::PoolGraph, plan::Step, snapshot::Snapshot, zap, U256};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
/// let graph = PoolGraph::from_snapshot(&serde_json::from_str::<Snapshot>(&std::fs::read_to_string(path)?)?)?;
/// let id = |a: &str| graph.token_id(a).ok_or("not in the snapshot");
/// // the bundled Uniswap V2 WETH/USDC pair's LP token (the pair's own address) into the LP of
/// // the bundled Curve USDC/USDT pool
/// let pair_lp = id("0x1e48158bcf643bec030d22e9a6477d2670a148ff")?;
/// let curve_lp = id("0x89fece4f54010d7cfb3003a5ccae7d7fda3b9042")?;
/// let z = zap::lp_to_lp(&graph, &[(pair_lp, U256::exp10(15))], curve_lp, &zap::ZapOptions::default())?;
/// // the pair's LP is burned first, then its coins are routed and minted into the target
/// assert!(matches!(z.plan.steps.first(), Some(Step::Burn { .. })));
/// assert!(matches!(z.plan.steps.last(), Some(Step::Mint { .. })));
/// assert_eq!((z.plan.outputs[0].token, z.plan.outputs[0].amount), (curve_lp, z.minted));
/// z.plan.verify(&graph)?;
/// # Ok(())
/// # }
/// ```
pub fn lp_to_lp(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    lp_out: TokenId,
    opts: &ZapOptions,
) -> Result<ZapInPlan, ZapError> {
    zap_in(graph, inputs, lp_out, opts)
}
