//! The pathId-free [`Plan`]: exact integer amounts, steps in execution order.
//!
//! Every amount in a plan comes from integer simulation of the pools as their contracts compute
//! them; floats appear only in informational fields (`price_impact`, `upper_bound`).
//!
//! Rooms: the types, the gas table and the `min_amount` rule here; the holdings a plan's
//! steps move (and what they leave, the refunds) in `ledger`; [`Plan::verify`] (the steps
//! replayed exactly) in `verify`; [`Plan::verify_request`] (the plan against its request,
//! one check per field) in `verify_request`; the serde form in [`json`].

use crate::error::{PlanField, PlanProblem, RouteError};
use crate::graph::PoolGraph;
use crate::snapshot::PoolKind;
use crate::units::{PoolId, TokenId};
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

#[cfg(feature = "serde")]
pub mod json;
mod ledger;
mod reach;
mod verify;
mod verify_request;

pub(crate) use ledger::{partial_fill, unspent};

/// One step of a plan, executed in order on the evolving pool states.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// An exact-in swap through one pool.
    Swap {
        /// the pool
        pool: PoolId,
        /// token sold
        token_in: TokenId,
        /// token bought
        token_out: TokenId,
        /// exact input
        amount_in: U256,
        /// exact output, as the contract computes it on the pool state at this point
        amount_out: U256,
    },
    /// A deposit into a pool that mints LP.
    Mint {
        /// the pool
        pool: PoolId,
        /// amounts deposited, one per pool coin, in the pool's coin order
        amounts_in: Vec<U256>,
        /// LP minted
        lp_out: U256,
    },
    /// A proportional burn of LP.
    Burn {
        /// the pool
        pool: PoolId,
        /// LP burned
        lp_in: U256,
        /// amounts returned, one per pool coin, in the pool's coin order
        amounts_out: Vec<U256>,
    },
    /// A one-coin withdrawal of LP (Curve `remove_liquidity_one_coin`, Saber `WithdrawOne`),
    /// used by zaps where it gives more than the proportional burn.
    BurnOne {
        /// the pool
        pool: PoolId,
        /// LP burned
        lp_in: U256,
        /// the coin withdrawn
        token_out: TokenId,
        /// amount returned, as the pool computes it at this point
        amount_out: U256,
    },
}

/// A token and an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenAmount {
    /// the token
    pub token: TokenId,
    /// the amount, in base units
    pub amount: U256,
}

/// One output of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    /// the token
    pub token: TokenId,
    /// the exact amount the steps deliver
    pub amount: U256,
    /// the least amount accepted after slippage
    pub min_amount: U256,
}

/// A zap fee: the rate and the amounts taken from the inputs before any step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZapFee {
    /// fee rate in basis points of each input
    pub rate_bps: u32,
    /// amounts taken, per input token
    pub taken: Vec<TokenAmount>,
}

/// A pool the router left out of a plan because its exact simulation reverted while the plan
/// was recovered (the quote went on without it; see [`crate::route::quote`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Excluded {
    /// the pool
    pub pool: PoolId,
    /// what its exact swap refused
    pub error: crate::error::PoolError,
}

/// An executable plan: inputs, steps in execution order, outputs with slippage minimums.
///
/// Every amount is exact (integer simulation of the pools in step order). `value`,
/// `upper_bound` and `price_impact` are floats for information.
///
/// # Invariants (checked by [`Plan::verify`])
/// Replaying the steps from the inputs (less the zap fee) on the graph's pool states gives
/// every step's `amount_out` / `lp_out` / `amounts_out` exactly; a swap step's `amount_in` is
/// what the pool takes from it (see [`crate::pool::Pool::exact_offer`]); no step spends more of a token
/// than is held at that point; at the end the holdings are exactly `outputs` plus `refunds`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// Amounts spent, per input token.
    pub inputs: Vec<TokenAmount>,
    /// Steps, in execution order.
    pub steps: Vec<Step>,
    /// Outputs, in the request's order.
    pub outputs: Vec<Output>,
    /// Surplus returned to the user (zaps), beside the outputs.
    pub refunds: Vec<TokenAmount>,
    /// Zap fee, if any.
    pub zap_fee: Option<ZapFee>,
    /// The plan's objective: for one output its amount (base units, net of gas when a gas model
    /// is given); for several, the basket value `min_k v_k z_k / w_k` in base units of the first
    /// output (`v_k` the mid price of output k, see [`crate::route`]).
    pub value: f64,
    /// An upper bound on `value` for any plan of this request on this snapshot (the dual bound,
    /// see [`crate::route`]); `None` when not computed (e.g. zap plans).
    pub upper_bound: Option<f64>,
    /// The part of `upper_bound` that is integer rounding (same units): what the contracts'
    /// rounding lets a swap win against the pools' float curves, summed over the pool
    /// directions the certificate prices (a solidly fee is floored, so a swap can keep up to
    /// one unit of its input; a Curve or solidly-stable output can be a unit or two above the
    /// curve; x·y = k and concentrated-liquidity outputs are floors: nothing). So
    /// `upper_bound − rounding_slack` bounds every plan of the float model, the pools' curves
    /// without rounding, and [`Plan::float_gap`] is the plan's distance from that. A plan's
    /// own swaps take part of the slack on the directions they use (their floors, the trim's
    /// amounts); the rest would need dust swaps (fee-free amounts below `1/fee` units) on
    /// each other direction. `Some` on swap plans exactly when `upper_bound` is; `None` on
    /// zap plans.
    pub rounding_slack: Option<f64>,
    /// 1 − value received / value of the inputs at mid prices (fees and curvature included).
    pub price_impact: f64,
    /// Gas units of the steps under the request's gas model (0 without one).
    pub gas_units: u64,
    /// The gas price the plan was chosen with (output base units per gas unit; `None`: no gas
    /// model, `value` is the gross output).
    pub gas_price: Option<f64>,
    /// The hop limit `upper_bound` is over: `None` when it bounds every plan on the snapshot
    /// graph (any path length, all pools the source filters allow), `Some(h)` when the request
    /// set a hop limit and it bounds the plans that swap only through pool directions on some
    /// path of at most `h` hops from an input to an output
    /// ([`crate::route::RouteRequest::max_hops`]).
    pub bound_max_hops: Option<usize>,
    /// The slippage limit the plan was made with, as a fraction (0.005 = 0.5 %): every
    /// `min_amount` is `floor(amount × (1 − slippage))`.
    pub slippage: Ratio<u64>,
    /// Pools the router left out because their exact swap reverted on the amounts the plan
    /// sent them (each once, in the order found). They stay in the bound (see
    /// [`crate::route::quote`]). Empty for zap plans and for most quotes.
    pub excluded: Vec<Excluded>,
}

/// What a plan must answer, in graph terms: the request it was made for. See
/// [`Plan::verify_request`].
///
/// Plain data, made by the layer that knows the request: `PlanRequest::swap` (the router,
/// from a [`crate::route::RouteRequest`]), `PlanRequest::zap` (the zaps, from their options)
/// and `PlanRequest::from_request` (the service layer, from a validated spec body).
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRequest {
    /// Input tokens and the exact amounts to spend (repeated tokens are summed); for
    /// exact-out, the most to spend.
    pub inputs: Vec<(TokenId, U256)>,
    /// Output tokens, in the request's order, with their proportions.
    pub outputs: Vec<(TokenId, Ratio<u64>)>,
    /// The slippage limit as a fraction.
    pub slippage: Ratio<u64>,
    /// The zap fee rate in basis points for a zap (`Some`), `None` for a swap (no zap fee).
    pub zap_fee_bps: Option<u32>,
    /// The gas model the plan was priced with, if any.
    pub gas: Option<GasModel>,
    /// For a zap with several outputs, the outputs' documented mid prices in units of the
    /// first output (`crate::route::output_mid_prices` on the graph under the request's
    /// source filters and hop limit), or the error computing them gave; `None` otherwise.
    /// [`Plan::verify_request`] holds a zap-out's value shares to its proportions at these
    /// prices (and reports the error, if any, when it needs them).
    pub output_prices: Option<Result<Vec<f64>, RouteError>>,
    /// Exact-out ([`crate::route::RouteRequest::exact_out`]): at least this amount of the only
    /// output, the inputs' amounts being the most to spend; `None`: exact-in.
    pub exact_out: Option<U256>,
    /// The request's hop limit ([`crate::route::RouteRequest::max_hops`]): a swap plan's steps
    /// go only through pool directions on some path of at most this many hops from an input
    /// to an output, and its bound says it is over those plans ([`Plan::bound_max_hops`]).
    pub max_hops: Option<usize>,
    /// Only pools of these sources, when given: no step swaps through another.
    pub source_whitelist: Option<Vec<String>>,
    /// Never pools of these sources (not applied on chain 101, as the router does not).
    pub source_blacklist: Vec<String>,
}

/// How close a zap-out's output value shares must be to the requested proportions for
/// [`Plan::verify_request`] to accept the plan: 1e-6 of the basket value, beside the rounding of
/// whole base units (the value of one base unit of the dearest output, over the basket value:
/// moving one unit between two outputs moves both shares by up to that much). The zap-out
/// meets it on every zap-out of the tests (4221 over the public routing instances).
pub const ZAP_OUT_SHARE_TOLERANCE: f64 = 1e-6;

/// The crate's one gas table: gas units per step kind (integer units; a price turns them into
/// output). Swap units are the typical per-step costs (Uniswap V2 60k, solidly 80k, Curve 110k,
/// Uniswap V3 130k without tick crossings); `base` (router entry, transfers in and out), `mint`
/// and `burn` are round figures of the same order. Deployments set their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct GasTable {
    /// Once per transaction.
    pub base: u64,
    /// Per swap through a constant-product pool.
    pub constant_product: u64,
    /// Per swap through a solidly pool.
    pub solidly: u64,
    /// Per swap through a stable-swap pool.
    pub stableswap: u64,
    /// Per swap through a concentrated-liquidity pool (without tick crossings).
    #[cfg_attr(feature = "serde", serde(default = "cl_gas"))]
    pub concentrated_liquidity: u64,
    /// Per mint.
    pub mint: u64,
    /// Per burn.
    pub burn: u64,
}

/// The typical concentrated-liquidity row (the serde default of an older table without it).
#[cfg(feature = "serde")]
fn cl_gas() -> u64 {
    GasTable::TYPICAL.concentrated_liquidity
}

impl GasTable {
    /// The typical costs.
    pub const TYPICAL: GasTable = GasTable {
        base: 50_000,
        constant_product: 60_000,
        solidly: 80_000,
        stableswap: 110_000,
        concentrated_liquidity: 130_000,
        mint: 120_000,
        burn: 100_000,
    };

    /// Units of one swap through a pool of `kind`.
    #[must_use]
    pub fn swap(&self, kind: PoolKind) -> u64 {
        match kind {
            PoolKind::ConstantProduct | PoolKind::SplTokenSwap => self.constant_product,
            PoolKind::Solidly | PoolKind::OrcaWhirlpool => self.solidly,
            PoolKind::Stableswap | PoolKind::SaberStableswap => self.stableswap,
            PoolKind::ConcentratedLiquidity => self.concentrated_liquidity,
        }
    }

    /// The cheapest swap row (constant-product, solidly, stable-swap): a lower bound per hop.
    #[must_use]
    pub fn cheapest_swap(&self) -> u64 {
        self.stableswap.min(self.solidly).min(self.constant_product)
    }
}

impl Default for GasTable {
    fn default() -> Self {
        Self::TYPICAL
    }
}

/// Gas pricing for EVM chains: the [`GasTable`]'s units per swap step by pool family, and the
/// price of one gas unit in base units of the (first) output token.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GasModel {
    /// gas units per step kind
    pub table: GasTable,
    /// output base units per gas unit (≥ 0)
    pub gas_price: f64,
}

impl GasModel {
    /// [`GasTable::TYPICAL`] at `gas_price` output base units per gas unit.
    #[must_use]
    pub fn typical(gas_price: f64) -> Self {
        GasModel {
            table: GasTable::TYPICAL,
            gas_price,
        }
    }

    /// Gas units of one step through a pool of this kind.
    #[must_use]
    pub fn units(&self, kind: PoolKind) -> u64 {
        self.table.swap(kind)
    }
}

/// Gas units of `steps` under `gas`: the model's units for every swap step by its pool's
/// family (burns and mints are not priced); 0 without a model and on chain 101 (no gas
/// pricing there). The same count the router puts in [`Plan::gas_units`].
#[must_use]
pub(crate) fn swap_gas_units(steps: &[Step], graph: &PoolGraph, gas: Option<&GasModel>) -> u64 {
    let Some(gm) = gas else { return 0 };
    if graph.chain_id() == crate::chain::CHAIN_101 {
        return 0;
    }
    steps
        .iter()
        .filter_map(|s| match s {
            Step::Swap { pool, .. } => graph.pool(*pool).map(|p| gm.units(p.kind)),
            _ => None,
        })
        .fold(0u64, u64::saturating_add)
}

/// `floor(amount × (1 − s))` for a slippage fraction `s` in [0, 1]: the `min_amount` of an
/// output of `amount` (see [`Output::min_amount`]).
///
/// # Errors
/// [`RouteError::PlanMismatch`] on [`PlanField::Slippage`] for a fraction outside [0, 1].
pub(crate) fn min_after_slippage(amount: U256, s: Ratio<u64>) -> Result<U256, RouteError> {
    let (n, d) = (*s.numer(), *s.denom());
    check_fraction(n, d)?;
    Ok(crate::math::mul_div(
        amount,
        U256::from(d.saturating_sub(n)),
        U256::from(d),
    )?)
}

/// `n / d` is a slippage fraction in [0, 1], or the [`PlanField::Slippage`] mismatch.
fn check_fraction(n: u64, d: u64) -> Result<(), RouteError> {
    if d == 0 || n > d {
        return Err(mismatch(
            PlanField::Slippage,
            None,
            PlanProblem::NotAFractionInUnitRange,
        ));
    }
    Ok(())
}

/// The [`RouteError::PlanMismatch`] on `field` at `index`.
pub(crate) fn mismatch(field: PlanField, index: Option<usize>, why: PlanProblem) -> RouteError {
    RouteError::PlanMismatch { field, index, why }
}

/// `Ok` where a plan's stated `price_impact` is `own`, the engine's own for the same plan, to
/// `tol` (absolute); else [`PlanProblem::PriceImpactDiffers`] on [`PlanField::PriceImpact`].
/// A NaN on either side is refused.
#[allow(clippy::arithmetic_side_effects)] // f64
pub(crate) fn same_price_impact(claimed: f64, own: f64, tol: f64) -> Result<(), RouteError> {
    if (claimed - own).abs() <= tol {
        Ok(())
    } else {
        Err(mismatch(
            PlanField::PriceImpact,
            None,
            PlanProblem::PriceImpactDiffers,
        ))
    }
}

/// One side of a step, by its stated amounts: what it spends or what it receives.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Flow<'a> {
    /// An amount of one token (a swap's input or output, a one-coin burn's output).
    Token(TokenId, U256),
    /// An amount of the pool's LP token (a mint's output, a burn's input).
    Lp(U256),
    /// One amount per coin of the pool, in its coin order (a mint's deposit, a burn's coins).
    Coins(&'a [U256]),
}

impl Step {
    /// The pool the step goes through.
    #[must_use]
    pub(crate) fn pool_id(&self) -> PoolId {
        match self {
            Step::Swap { pool, .. }
            | Step::Mint { pool, .. }
            | Step::Burn { pool, .. }
            | Step::BurnOne { pool, .. } => *pool,
        }
    }

    /// A swap step as its pool, what it sells and what it buys; `None` for the other steps.
    ///
    /// ```
    /// # use swapzap::{plan::Step, units::{PoolId, TokenId}, U256};
    /// let step = Step::Swap {
    ///     pool: PoolId(0),
    ///     token_in: TokenId(1),
    ///     token_out: TokenId(2),
    ///     amount_in: U256::from(10u8),
    ///     amount_out: U256::from(9u8),
    /// };
    /// let (pool, sold, bought) = step.as_swap().ok_or("not a swap")?;
    /// assert_eq!((pool, sold.token, bought.amount), (PoolId(0), TokenId(1), U256::from(9u8)));
    /// # Ok::<(), &str>(())
    /// ```
    #[must_use]
    pub fn as_swap(&self) -> Option<(PoolId, TokenAmount, TokenAmount)> {
        match (self, self.spent(), self.received()) {
            (Step::Swap { .. }, Flow::Token(token_in, amount_in), Flow::Token(token, amount)) => {
                let sold = TokenAmount {
                    token: token_in,
                    amount: amount_in,
                };
                Some((self.pool_id(), sold, TokenAmount { token, amount }))
            }
            _ => None,
        }
    }

    /// What the step spends: a swap's input, a mint's coins, a burn's LP.
    #[must_use]
    pub(crate) fn spent(&self) -> Flow<'_> {
        match self {
            Step::Swap {
                token_in,
                amount_in,
                ..
            } => Flow::Token(*token_in, *amount_in),
            Step::Mint { amounts_in, .. } => Flow::Coins(amounts_in),
            Step::Burn { lp_in, .. } | Step::BurnOne { lp_in, .. } => Flow::Lp(*lp_in),
        }
    }

    /// What the step receives: a swap's or one-coin burn's output, a mint's LP, a burn's
    /// coins.
    #[must_use]
    pub(crate) fn received(&self) -> Flow<'_> {
        match self {
            Step::Swap {
                token_out,
                amount_out,
                ..
            }
            | Step::BurnOne {
                token_out,
                amount_out,
                ..
            } => Flow::Token(*token_out, *amount_out),
            Step::Mint { lp_out, .. } => Flow::Lp(*lp_out),
            Step::Burn { amounts_out, .. } => Flow::Coins(amounts_out),
        }
    }
}

impl Plan {
    /// How far the plan may be from the best: `(upper_bound − value) / upper_bound`, the
    /// certificate's relative gap (`None` without a bound).
    #[must_use]
    #[allow(clippy::arithmetic_side_effects)] // f64
    pub fn bound_gap(&self) -> Option<f64> {
        self.upper_bound
            .filter(|b| *b > 0.0 && b.is_finite())
            .map(|b| (b - self.value) / b)
    }

    /// The plan's distance from the float model's bound: `(f − value) / f` with `f =
    /// upper_bound − rounding_slack` (`None` without a bound or slack). What
    /// [`Plan::bound_gap`] is beyond this is integer rounding ([`Plan::rounding_slack`]);
    /// negative where the plan's own rounding beats the float curves.
    #[must_use]
    #[allow(clippy::arithmetic_side_effects)] // f64
    pub fn float_gap(&self) -> Option<f64> {
        let f = self.upper_bound? - self.rounding_slack?;
        (f > 0.0 && f.is_finite()).then(|| (f - self.value) / f)
    }

    /// The JSON view of the plan (ids and addresses from `graph`, amounts as decimal strings):
    /// `steps` with `pool`, `token_in`, `token_out`, `amount_in`, `amount_out` (the format of
    /// `../shared/routing/README.md` §7) and `outputs` with `token`, `amount`, `min_amount`,
    /// plus the other fields of the plan.
    ///
    /// # Errors
    /// [`RouteError::PoolOutOfRange`] / [`RouteError::TokenOutOfRange`] for ids not in `graph`.
    #[cfg(feature = "serde")]
    pub fn to_json(&self, graph: &PoolGraph) -> Result<json::PlanJson, RouteError> {
        json::PlanJson::new(self, graph)
    }

    /// The plan a JSON view describes on `graph` ([`json::PlanJson::to_plan`]): the way back
    /// from [`Plan::to_json`]. `Plan::from_json(&p.to_json(g)?, g) == p`, except for the
    /// reasons of [`Plan::excluded`] pools whose error carries values (a revert at a tick, a
    /// pool state check, a bad token index): those come back as their variant with the
    /// reason `ReadBack` and indices 0, since the JSON keeps only the error's message.
    ///
    /// # Errors
    /// Those of [`json::PlanJson::to_plan`].
    #[cfg(feature = "serde")]
    pub fn from_json(json: &json::PlanJson, graph: &PoolGraph) -> Result<Self, RouteError> {
        json.to_plan(graph)
    }
}
