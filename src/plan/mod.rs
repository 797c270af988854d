//! The pathId-free [`Plan`]: exact integer amounts, steps in execution order.
//!
//! Every amount in a plan comes from integer simulation of the pools as their contracts compute
//! them; floats appear only in informational fields (`price_impact`, `upper_bound`).

use crate::error::{PlanField, RouteError};
use crate::graph::PoolGraph;
use crate::pool::Pool;
use crate::snapshot::PoolKind;
use crate::units::{PoolId, TokenId};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

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
/// what the pool takes from it (see [`Pool::exact_offer`]); no step spends more of a token
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
    /// 1 − value received / value of the inputs at mid prices (fees and curvature included).
    pub price_impact: f64,
    /// Gas units of the steps under the request's gas model (0 without one).
    pub gas_units: u64,
    /// The gas price the plan was chosen with (output base units per gas unit; `None`: no gas
    /// model, `value` is the gross output).
    pub gas_price: Option<f64>,
    /// The hop limit `upper_bound` is over: `None` when it bounds every plan on the snapshot
    /// graph (any path length, all pools the source filters allow), `Some(h)` when the request
    /// set a hop limit and it bounds the plans whose paths have at most `h` hops.
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
    /// Input tokens and the exact amounts to spend (repeated tokens are summed).
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
}

/// How close a zap-out's output value shares must be to the requested proportions for
/// [`Plan::verify_request`] to accept the plan, beside one base unit of each output: 1e-3 of
/// the basket value. The zap-out itself aims at 1e-7 and meets 1e-6 on most requests (on
/// 4221 zap-outs over the public routing instances, all but 133, the worst at 9.5e-4): the
/// check refuses plans made for other proportions without refusing the library's own.
pub const ZAP_OUT_SHARE_TOLERANCE: f64 = 1e-3;

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
pub fn swap_gas_units(steps: &[Step], graph: &PoolGraph, gas: Option<&GasModel>) -> u64 {
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

/// `floor(amount × (1 − s))` for a slippage fraction `s` in [0, 1].
///
/// # Errors
/// [`RouteError::PlanMismatch`] on [`PlanField::Slippage`] for a fraction outside [0, 1].
pub fn min_after_slippage(amount: U256, s: Ratio<u64>) -> Result<U256, RouteError> {
    let (n, d) = (*s.numer(), *s.denom());
    if d == 0 || n > d {
        return Err(RouteError::PlanMismatch {
            field: PlanField::Slippage,
            index: None,
            why: "not a fraction in [0, 1]",
        });
    }
    Ok(crate::math::mul_div(
        amount,
        U256::from(d.saturating_sub(n)),
        U256::from(d),
    )?)
}

fn mismatch(field: PlanField, index: Option<usize>, why: &'static str) -> RouteError {
    RouteError::PlanMismatch { field, index, why }
}

/// Token amounts as a map, summing repeats; `Err(k)` at the first index whose token repeats
/// when `distinct`.
fn amount_map(
    items: impl Iterator<Item = (TokenId, U256)>,
    distinct: bool,
) -> Result<BTreeMap<TokenId, U256>, Option<usize>> {
    let mut m: BTreeMap<TokenId, U256> = BTreeMap::new();
    for (k, (t, a)) in items.enumerate() {
        match m.get_mut(&t) {
            Some(_) if distinct => return Err(Some(k)),
            Some(v) => *v = v.checked_add(a).ok_or(None)?,
            None => {
                m.insert(t, a);
            }
        }
    }
    Ok(m)
}

/// Change the holding of `t` by `f` (a checked add or sub of an amount), or the
/// [`RouteError::InvalidPlan`] at `step` saying `why` when it fails.
fn adjust(
    hold: &mut BTreeMap<TokenId, U256>,
    t: TokenId,
    step: Option<usize>,
    why: &'static str,
    f: impl FnOnce(U256) -> Option<U256>,
) -> Result<(), RouteError> {
    let h = hold.entry(t).or_insert_with(U256::zero);
    *h = f(*h).ok_or(RouteError::InvalidPlan { step, why })?;
    Ok(())
}

fn credit(
    hold: &mut BTreeMap<TokenId, U256>,
    t: TokenId,
    a: U256,
    step: Option<usize>,
) -> Result<(), RouteError> {
    adjust(hold, t, step, "holding overflows", |h| h.checked_add(a))
}

fn debit(
    hold: &mut BTreeMap<TokenId, U256>,
    t: TokenId,
    a: U256,
    step: Option<usize>,
) -> Result<(), RouteError> {
    adjust(
        hold,
        t,
        step,
        "spends more than is held at this point",
        |h| h.checked_sub(a),
    )
}

/// What is left of `inputs` after `steps` (their stated amounts, no pool math) and `outputs`,
/// per token in token order, zero amounts left out: the refunds of a plan that spends its
/// inputs through these steps (for a router plan, what SPL Token Swap steps did not take).
///
/// # Errors
/// [`RouteError::InvalidPlan`] when a step or output spends more than is held;
/// [`RouteError::PoolOutOfRange`] for an LP step on an unknown pool.
pub(crate) fn unspent(
    graph: &PoolGraph,
    inputs: &[TokenAmount],
    steps: &[Step],
    outputs: &[Output],
) -> Result<Vec<TokenAmount>, RouteError> {
    let mut hold: BTreeMap<TokenId, U256> = BTreeMap::new();
    for i in inputs {
        credit(&mut hold, i.token, i.amount, None)?;
    }
    for (k, step) in steps.iter().enumerate() {
        let at = Some(k);
        let info = |p: &PoolId| graph.pool(*p).ok_or(RouteError::PoolOutOfRange(*p));
        match step {
            Step::Swap {
                token_in,
                token_out,
                amount_in,
                amount_out,
                ..
            } => {
                debit(&mut hold, *token_in, *amount_in, at)?;
                credit(&mut hold, *token_out, *amount_out, at)?;
            }
            Step::Mint {
                pool,
                amounts_in,
                lp_out,
            } => {
                let info = info(pool)?;
                for (t, a) in info.tokens.iter().zip(amounts_in) {
                    debit(&mut hold, *t, *a, at)?;
                }
                credit(&mut hold, info.lp_token, *lp_out, at)?;
            }
            Step::Burn {
                pool,
                lp_in,
                amounts_out,
            } => {
                let info = info(pool)?;
                debit(&mut hold, info.lp_token, *lp_in, at)?;
                for (t, a) in info.tokens.iter().zip(amounts_out) {
                    credit(&mut hold, *t, *a, at)?;
                }
            }
            Step::BurnOne {
                pool,
                lp_in,
                token_out,
                amount_out,
            } => {
                debit(&mut hold, info(pool)?.lp_token, *lp_in, at)?;
                credit(&mut hold, *token_out, *amount_out, at)?;
            }
        }
    }
    for o in outputs {
        debit(&mut hold, o.token, o.amount, None)?;
    }
    Ok(hold
        .into_iter()
        .filter(|(_, a)| !a.is_zero())
        .map(|(token, amount)| TokenAmount { token, amount })
        .collect())
}

impl Plan {
    /// Re-simulate every step exactly on `graph`'s pool states and check conservation.
    ///
    /// Starting from the inputs (less the zap fee), each step must: name a pool of the graph and
    /// coins of that pool; spend no more than is held; reproduce its `amount_out` / `lp_out` /
    /// `amounts_out` exactly on the pool state left by the earlier steps, and a swap's
    /// `amount_in` must be all the pool takes from it (an SPL Token Swap step that claims an
    /// input its program would only partly transfer is refused). At the end every
    /// token's holding must equal its `outputs` amount plus its `refunds` amount (so inputs are
    /// spent exactly and nothing is created or lost), and each `min_amount` must not exceed its
    /// amount.
    ///
    /// # Errors
    /// [`RouteError::InvalidPlan`] naming the first failing step (or `None` for totals);
    /// [`RouteError::PoolOutOfRange`] / [`RouteError::TokenOutOfRange`] for unknown ids.
    ///
    /// # Complexity
    /// One exact pool operation per step, O(S log S) bookkeeping.
    ///
    /// # Example
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use num_rational::Ratio;
    /// use swapzap::{graph::PoolGraph, plan::Step, route, snapshot::Snapshot, U256};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
    /// let snapshot: Snapshot = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    /// let graph = PoolGraph::from_snapshot(&snapshot)?;
    /// let weth = graph.token_id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a").ok_or("no WETH")?;
    /// let usdt = graph.token_id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b").ok_or("no USDT")?;
    /// let req = route::RouteRequest::new(vec![(weth, U256::exp10(19))], vec![(usdt, Ratio::from_integer(1))]);
    /// let plan = route::quote(&graph, &req)?;
    /// plan.verify(&graph)?; // every step re-simulated exactly, holdings conserved
    ///
    /// // One base unit more out of the first swap than the pool pays: refused at that step.
    /// let mut forged = plan.clone();
    /// if let Some(Step::Swap { amount_out, .. }) = forged.steps.first_mut() {
    ///     *amount_out += U256::one();
    /// }
    /// assert!(matches!(
    ///     forged.verify(&graph),
    ///     Err(swapzap::RouteError::InvalidPlan { step: Some(0), .. })
    /// ));
    /// # Ok(())
    /// # }
    /// ```
    pub fn verify(&self, graph: &PoolGraph) -> Result<(), RouteError> {
        let mut hold: BTreeMap<TokenId, U256> = BTreeMap::new();
        for i in &self.inputs {
            graph
                .token(i.token)
                .ok_or(RouteError::TokenOutOfRange(i.token))?;
            credit(&mut hold, i.token, i.amount, None)?;
        }
        if let Some(f) = &self.zap_fee {
            for t in &f.taken {
                debit(&mut hold, t.token, t.amount, None)?;
            }
        }
        let mut states: BTreeMap<PoolId, Pool> = BTreeMap::new();
        for (k, step) in self.steps.iter().enumerate() {
            let at = Some(k);
            let bad = |why| RouteError::InvalidPlan { step: at, why };
            let pool_id = match step {
                Step::Swap { pool, .. }
                | Step::Mint { pool, .. }
                | Step::Burn { pool, .. }
                | Step::BurnOne { pool, .. } => *pool,
            };
            let info = graph
                .pool(pool_id)
                .ok_or(RouteError::PoolOutOfRange(pool_id))?;
            if !matches!(step, Step::Swap { .. }) && !info.supply_known {
                return Err(bad(
                    "an LP step on a pool whose snapshot gives no total_supply",
                ));
            }
            let state = states.get(&pool_id).unwrap_or(&info.pool);
            let next = match step {
                Step::Swap {
                    token_in,
                    token_out,
                    amount_in,
                    amount_out,
                    ..
                } => {
                    let i = graph
                        .coin_index(pool_id, *token_in)
                        .ok_or(bad("token_in is not a coin of the pool"))?;
                    let j = graph
                        .coin_index(pool_id, *token_out)
                        .ok_or(bad("token_out is not a coin of the pool"))?;
                    if amount_in.is_zero() {
                        return Err(bad("zero amount_in"));
                    }
                    debit(&mut hold, *token_in, *amount_in, at)?;
                    let taken = state
                        .exact_offer(i, j, *amount_in)
                        .map_err(|_| bad("the swap reverts"))?;
                    if taken != *amount_in {
                        return Err(bad(
                            "the pool takes less than amount_in (SPL Token Swap transfers only source_amount_swapped)",
                        ));
                    }
                    let (o, next) = state
                        .swap(i, j, *amount_in)
                        .map_err(|_| bad("the swap reverts"))?;
                    if o != *amount_out {
                        return Err(bad("amount_out differs from the exact simulation"));
                    }
                    credit(&mut hold, *token_out, o, at)?;
                    next
                }
                Step::Mint {
                    amounts_in, lp_out, ..
                } => {
                    if amounts_in.len() != info.tokens.len() {
                        return Err(bad("amounts_in needs one amount per coin"));
                    }
                    for (t, a) in info.tokens.iter().zip(amounts_in) {
                        debit(&mut hold, *t, *a, at)?;
                    }
                    let (lp, next) = state
                        .mint(amounts_in)
                        .map_err(|_| bad("the mint reverts"))?;
                    if lp != *lp_out {
                        return Err(bad("lp_out differs from the exact simulation"));
                    }
                    credit(&mut hold, info.lp_token, lp, at)?;
                    next
                }
                Step::Burn {
                    lp_in, amounts_out, ..
                } => {
                    debit(&mut hold, info.lp_token, *lp_in, at)?;
                    let (amts, next) = state.burn(*lp_in).map_err(|_| bad("the burn reverts"))?;
                    if amts.as_slice() != amounts_out.as_slice() {
                        return Err(bad("amounts_out differ from the exact simulation"));
                    }
                    for (t, a) in info.tokens.iter().zip(amts.iter()) {
                        credit(&mut hold, *t, *a, at)?;
                    }
                    next
                }
                Step::BurnOne {
                    lp_in,
                    token_out,
                    amount_out,
                    ..
                } => {
                    let i = graph
                        .coin_index(pool_id, *token_out)
                        .ok_or(bad("token_out is not a coin of the pool"))?;
                    debit(&mut hold, info.lp_token, *lp_in, at)?;
                    let (o, next) = state
                        .burn_one(*lp_in, i)
                        .map_err(|_| bad("the burn reverts"))?;
                    if o != *amount_out {
                        return Err(bad("amount_out differs from the exact simulation"));
                    }
                    credit(&mut hold, *token_out, o, at)?;
                    next
                }
            };
            states.insert(pool_id, next);
        }
        let mut expect: BTreeMap<TokenId, U256> = BTreeMap::new();
        for o in &self.outputs {
            if o.min_amount > o.amount {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "min_amount above amount",
                });
            }
            credit(&mut expect, o.token, o.amount, None)?;
        }
        for r in &self.refunds {
            credit(&mut expect, r.token, r.amount, None)?;
        }
        for (t, h) in &hold {
            let e = expect.get(t).copied().unwrap_or_default();
            if *h != e {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "final holdings differ from outputs plus refunds",
                });
            }
        }
        for (t, e) in &expect {
            if !e.is_zero() && hold.get(t).copied().unwrap_or_default() != *e {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "an output is not delivered",
                });
            }
        }
        Ok(())
    }

    /// How far the plan may be from the best: `(upper_bound − value) / upper_bound`, the
    /// certificate's relative gap (`None` without a bound).
    #[must_use]
    #[allow(clippy::arithmetic_side_effects)] // f64
    pub fn bound_gap(&self) -> Option<f64> {
        self.upper_bound
            .filter(|b| *b > 0.0 && b.is_finite())
            .map(|b| (b - self.value) / b)
    }

    /// [`Plan::verify`], and that the plan answers `want`, field by field:
    ///
    /// * `inputs`: exactly the request's tokens and amounts (repeats summed), each once;
    /// * `zap_fee`: none for a swap; for a zap the documented rate, and exactly
    ///   `floor(amount × rate / 10000)` of each input (zero fees omitted), nothing else;
    /// * `slippage`: the request's; `outputs`: one per requested token, in the request's order;
    ///   each `min_amount` exactly `floor(amount × (1 − slippage))`;
    /// * `steps`: every step re-simulated exactly, in order, on the states the earlier steps
    ///   leave, spending only what is held ([`Plan::verify`]); the inputs less the fee are spent
    ///   exactly: what the steps leave is the outputs plus the refunds;
    /// * `refunds`: only what is left, each token once, never an output token, never zero;
    /// * `gas_units`: the gas model's count of the swap steps ([`swap_gas_units`]);
    /// * `value`: finite; for one output its amount less the gas cost (to 1e-9 relative, the
    ///   float's own rounding); `upper_bound`, when given, not below `value`.
    ///
    /// * `proportions` (a zap with several outputs): each output's value share at the
    ///   documented prices ([`PlanRequest::output_prices`]), is its proportion to within [`ZAP_OUT_SHARE_TOLERANCE`] plus
    ///   one base unit of that output.
    ///
    /// A swap with several outputs is not held to its shares here: the router maximises the
    /// basket value `min_k v_k z_k / w_k` and keeps any surplus of one output above its share
    /// (see [`crate::route`]), so its shares may exceed the proportions.
    ///
    /// # Errors
    /// [`RouteError::PlanMismatch`] naming the field and the element or step; the errors of
    /// [`Plan::verify`] for a step are reported as [`PlanField::Steps`] at that step.
    pub fn verify_request(&self, graph: &PoolGraph, want: &PlanRequest) -> Result<(), RouteError> {
        use PlanField as F;
        // inputs
        let want_in = amount_map(want.inputs.iter().copied(), false)
            .map_err(|_| mismatch(F::Inputs, None, "request amounts overflow"))?;
        let got_in = amount_map(self.inputs.iter().map(|i| (i.token, i.amount)), true)
            .map_err(|k| mismatch(F::Inputs, k, "token listed twice"))?;
        for (k, i) in self.inputs.iter().enumerate() {
            match want_in.get(&i.token) {
                None => return Err(mismatch(F::Inputs, Some(k), "not an input of the request")),
                Some(a) if *a != i.amount => {
                    return Err(mismatch(
                        F::Inputs,
                        Some(k),
                        "amount differs from the request's",
                    ))
                }
                Some(_) => {}
            }
        }
        if got_in.len() != want_in.len() {
            return Err(mismatch(F::Inputs, None, "a requested input is missing"));
        }
        // zap fee
        match (want.zap_fee_bps, &self.zap_fee) {
            (None, None) => {}
            (None, Some(_)) => return Err(mismatch(F::ZapFee, None, "a swap takes no zap fee")),
            (Some(_), None) => return Err(mismatch(F::ZapFee, None, "the zap fee is missing")),
            (Some(bps), Some(f)) => {
                if f.rate_bps != bps {
                    return Err(mismatch(
                        F::ZapFee,
                        None,
                        "rate differs from the documented rate",
                    ));
                }
                let mut fees = BTreeMap::new();
                for (t, a) in &got_in {
                    let fee = crate::math::mul_div(*a, U256::from(bps), U256::from(10_000u32))?;
                    if !fee.is_zero() {
                        fees.insert(*t, fee);
                    }
                }
                let taken = amount_map(f.taken.iter().map(|t| (t.token, t.amount)), true)
                    .map_err(|k| mismatch(F::ZapFee, k, "token charged twice"))?;
                for (k, t) in f.taken.iter().enumerate() {
                    if fees.get(&t.token) != Some(&t.amount) {
                        return Err(mismatch(
                            F::ZapFee,
                            Some(k),
                            "not floor(input amount × rate / 10000)",
                        ));
                    }
                }
                if taken.len() != fees.len() {
                    return Err(mismatch(F::ZapFee, None, "an input's fee is missing"));
                }
            }
        }
        // slippage and outputs
        if self.slippage != want.slippage {
            return Err(mismatch(F::Slippage, None, "differs from the request's"));
        }
        if self.outputs.len() != want.outputs.len() {
            return Err(mismatch(
                F::Outputs,
                None,
                "not one output per requested token",
            ));
        }
        for (k, (o, w)) in self.outputs.iter().zip(&want.outputs).enumerate() {
            if o.token != w.0 {
                return Err(mismatch(
                    F::Outputs,
                    Some(k),
                    "token is not the request's output at this place",
                ));
            }
            if o.min_amount != min_after_slippage(o.amount, self.slippage)? {
                return Err(mismatch(
                    F::MinAmount,
                    Some(k),
                    "not floor(amount × (1 − slippage))",
                ));
            }
        }
        // refunds: each token once, never zero, never an output
        let mut seen = alloc::collections::BTreeSet::new();
        for (k, r) in self.refunds.iter().enumerate() {
            if r.amount.is_zero() {
                return Err(mismatch(F::Refunds, Some(k), "a zero refund"));
            }
            if self.outputs.iter().any(|o| o.token == r.token) {
                return Err(mismatch(
                    F::Refunds,
                    Some(k),
                    "an output token refunded (it belongs in outputs)",
                ));
            }
            if !seen.insert(r.token) {
                return Err(mismatch(F::Refunds, Some(k), "token refunded twice"));
            }
        }
        // the steps, and conservation
        self.verify(graph).map_err(|e| match e {
            RouteError::InvalidPlan { step: Some(k), why } => mismatch(F::Steps, Some(k), why),
            RouteError::InvalidPlan { step: None, why } => mismatch(F::Outputs, None, why),
            other => other,
        })?;
        // gas, value, bound
        let gas = want
            .gas
            .filter(|_| graph.chain_id() != crate::chain::CHAIN_101);
        if self.gas_units != swap_gas_units(&self.steps, graph, gas.as_ref()) {
            return Err(mismatch(
                F::GasUnits,
                None,
                "differs from the gas model's count of the swap steps",
            ));
        }
        if !self.value.is_finite() {
            return Err(mismatch(F::Value, None, "not a finite number"));
        }
        if let [o] = self.outputs.as_slice() {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
            let (expect, tol) = {
                let cost = gas.map_or(0.0, |g| self.gas_units as f64 * g.gas_price);
                let e = crate::math::float::to_f64(o.amount) - cost;
                (e, 1e-9 * e.abs().max(1.0))
            };
            #[allow(clippy::arithmetic_side_effects)] // f64
            if (self.value - expect).abs() > tol {
                return Err(mismatch(
                    F::Value,
                    None,
                    "not the output amount less the gas cost",
                ));
            }
        }
        if let Some(ub) = self.upper_bound {
            if ub.is_nan() || ub < self.value {
                return Err(mismatch(F::UpperBound, None, "below the plan's value"));
            }
        }
        if self.outputs.len() >= 2 && want.zap_fee_bps.is_some() {
            self.check_zap_out_shares(want)?;
        }
        Ok(())
    }

    /// A zap-out with several outputs: each output's value share at the documented prices
    /// ([`PlanRequest::output_prices`]) is within [`ZAP_OUT_SHARE_TOLERANCE`] plus one base
    /// unit of that output of its proportion.
    fn check_zap_out_shares(&self, want: &PlanRequest) -> Result<(), RouteError> {
        use PlanField as F;
        let prices = match &want.output_prices {
            Some(Ok(p)) => p.as_slice(),
            Some(Err(e)) => return Err(e.clone()),
            None => {
                return Err(mismatch(
                    F::Proportions,
                    None,
                    "the request carries no output prices",
                ))
            }
        };
        let values: Vec<f64> = self
            .outputs
            .iter()
            .zip(prices)
            .map(|(o, p)| {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let v = crate::math::float::to_f64(o.amount) * p;
                v
            })
            .collect();
        let total: f64 = values.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(mismatch(F::Proportions, None, "the outputs have no value"));
        }
        for (k, ((v, p), (_, w))) in values.iter().zip(prices).zip(&want.outputs).enumerate() {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
            let (gap, tol) = (
                (v / total - *w.numer() as f64 / *w.denom() as f64).abs(),
                ZAP_OUT_SHARE_TOLERANCE + p / total,
            );
            if gap.is_nan() || gap > tol {
                return Err(mismatch(
                    F::Proportions,
                    Some(k),
                    "value share at the documented prices differs from the proportion by more than 1e-3",
                ));
            }
        }
        Ok(())
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
    /// from [`Plan::to_json`]. `Plan::from_json(&p.to_json(g)?, g) == p`.
    ///
    /// # Errors
    /// Those of [`json::PlanJson::to_plan`].
    #[cfg(feature = "serde")]
    pub fn from_json(json: &json::PlanJson, graph: &PoolGraph) -> Result<Self, RouteError> {
        json.to_plan(graph)
    }
}

/// The serialisable view of a [`Plan`] (see [`Plan::to_json`]).
#[cfg(feature = "serde")]
pub mod json {
    use super::{Excluded, Output, Plan, Step, TokenAmount, ZapFee};
    use crate::error::{MathError, PoolError};
    use crate::error::{PlanField, RouteError};
    use crate::graph::PoolGraph;
    use crate::units::parse_u256_dec;
    use crate::units::{PoolId, TokenId};
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use num_rational::Ratio;
    use primitive_types::U256;

    /// A token and a decimal-string amount.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct AmountJson {
        /// token address
        pub token: String,
        /// base units
        pub amount: String,
    }

    /// An output.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct OutputJson {
        /// token address
        pub token: String,
        /// base units
        pub amount: String,
        /// least amount after slippage
        pub min_amount: String,
    }

    /// A step.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum StepJson {
        /// swap
        Swap {
            /// pool id string
            pool: String,
            /// token sold
            token_in: String,
            /// token bought
            token_out: String,
            /// exact input
            amount_in: String,
            /// exact output
            amount_out: String,
        },
        /// mint
        Mint {
            /// pool id string
            pool: String,
            /// per coin, pool order
            amounts_in: Vec<String>,
            /// LP minted
            lp_out: String,
        },
        /// burn
        Burn {
            /// pool id string
            pool: String,
            /// LP burned
            lp_in: String,
            /// per coin, pool order
            amounts_out: Vec<String>,
        },
        /// one-coin withdrawal
        BurnOne {
            /// pool id string
            pool: String,
            /// LP burned
            lp_in: String,
            /// the coin withdrawn
            token_out: String,
            /// amount returned
            amount_out: String,
        },
    }

    /// The zap fee.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct ZapFeeJson {
        /// basis points
        pub rate_bps: u32,
        /// amounts taken
        pub taken: Vec<AmountJson>,
    }

    /// The plan.
    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct PlanJson {
        /// steps in execution order
        pub steps: Vec<StepJson>,
        /// outputs
        pub outputs: Vec<OutputJson>,
        /// inputs
        pub inputs: Vec<AmountJson>,
        /// surplus returned
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub refunds: Vec<AmountJson>,
        /// zap fee
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub zap_fee: Option<ZapFeeJson>,
        /// objective value (see [`Plan::value`])
        pub value: f64,
        /// upper bound on the objective
        pub upper_bound: Option<f64>,
        /// price impact (fraction)
        pub price_impact: f64,
        /// gas units
        pub gas_units: u64,
        /// the gas price the plan was chosen with (output base units per gas unit)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub gas_price: Option<f64>,
        /// `(upper_bound − value) / upper_bound`
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bound_gap: Option<f64>,
        /// the hop limit the bound is over (absent: every plan)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bound_max_hops: Option<usize>,
        /// the slippage limit the plan was made with (see [`Plan::slippage`]); needed to read
        /// the plan back
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub slippage: Option<FractionJson>,
        /// pools left out because their exact swap reverted (see [`Plan::excluded`])
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub excluded: Vec<ExcludedJson>,
    }

    /// A pool left out of the plan: its id string and why.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct ExcludedJson {
        /// pool id string
        pub pool: String,
        /// the revert, as [`PoolError`]'s text
        pub reason: String,
    }

    /// The pool errors without a text payload, which read back exactly from their text.
    const PLAIN_POOL_ERRORS: [PoolError; 17] = [
        PoolError::Math(MathError::Overflow),
        PoolError::Math(MathError::Underflow),
        PoolError::Math(MathError::DivisionByZero),
        PoolError::SameToken,
        PoolError::InsufficientInputAmount,
        PoolError::InsufficientOutputAmount,
        PoolError::InsufficientLiquidity,
        PoolError::InvariantViolated,
        PoolError::ReserveOverflow,
        PoolError::NoConvergence,
        PoolError::InsufficientLiquidityMinted,
        PoolError::InsufficientLiquidityBurned,
        PoolError::BurnExceedsSupply,
        PoolError::InvalidFirstDeposit,
        PoolError::UnreachableOutput,
        PoolError::OracleRevert,
        PoolError::TickArraySequence,
    ];

    /// A pool error variant that carries a reason text.
    type WithReason = fn(&'static str) -> PoolError;

    /// A [`PoolError`] from its text: exact for the errors without a payload; an error whose
    /// text carries a reason (`invalid pool state: …`, `contract reverts: …`, …) reads back as
    /// its variant with the reason `"(read back)"`, since the text is not kept.
    fn pool_error_of(text: &str) -> Option<PoolError> {
        const LOST: &str = "(read back)";
        let plain = PLAIN_POOL_ERRORS
            .iter()
            .chain(&[PoolError::SqrtPriceOutOfBounds, PoolError::PriceLimit])
            .find(|e| e.to_string() == text)
            .copied();
        plain.or_else(|| {
            if text.starts_with("invalid pool state: ") {
                return Some(PoolError::InvalidState(
                    crate::error::PoolStateProblem::ReadBack,
                ));
            }
            let with: [(&str, WithReason); 3] = [
                ("unsupported operation: ", PoolError::Unsupported),
                ("contract reverts: ", PoolError::Revert),
                ("invalid argument: ", PoolError::InvalidArgument),
            ];
            with.iter()
                .find(|(pre, _)| text.starts_with(pre))
                .map(|(_, mk)| mk(LOST))
                .or_else(|| {
                    text.starts_with("coin index ")
                        .then_some(PoolError::TokenIndex {
                            index: 0,
                            n_coins: 0,
                        })
                })
        })
    }

    /// An exact fraction, numerator and denominator as decimal strings.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct FractionJson {
        /// numerator
        pub num: String,
        /// denominator
        pub den: String,
    }

    impl PlanJson {
        pub(super) fn new(p: &Plan, g: &PoolGraph) -> Result<Self, RouteError> {
            let tok = |t: TokenId| {
                g.token(t)
                    .map(|i| i.address.clone())
                    .ok_or(RouteError::TokenOutOfRange(t))
            };
            let pool = |p: PoolId| {
                g.pool(p)
                    .map(|i| i.id.clone())
                    .ok_or(RouteError::PoolOutOfRange(p))
            };
            let amt = |a: &TokenAmount| -> Result<AmountJson, RouteError> {
                Ok(AmountJson {
                    token: tok(a.token)?,
                    amount: a.amount.to_string(),
                })
            };
            let strs = |v: &[U256]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
            let mut steps = Vec::with_capacity(p.steps.len());
            for s in &p.steps {
                steps.push(match s {
                    Step::Swap {
                        pool: pl,
                        token_in,
                        token_out,
                        amount_in,
                        amount_out,
                    } => StepJson::Swap {
                        pool: pool(*pl)?,
                        token_in: tok(*token_in)?,
                        token_out: tok(*token_out)?,
                        amount_in: amount_in.to_string(),
                        amount_out: amount_out.to_string(),
                    },
                    Step::Mint {
                        pool: pl,
                        amounts_in,
                        lp_out,
                    } => StepJson::Mint {
                        pool: pool(*pl)?,
                        amounts_in: strs(amounts_in),
                        lp_out: lp_out.to_string(),
                    },
                    Step::Burn {
                        pool: pl,
                        lp_in,
                        amounts_out,
                    } => StepJson::Burn {
                        pool: pool(*pl)?,
                        lp_in: lp_in.to_string(),
                        amounts_out: strs(amounts_out),
                    },
                    Step::BurnOne {
                        pool: pl,
                        lp_in,
                        token_out,
                        amount_out,
                    } => StepJson::BurnOne {
                        pool: pool(*pl)?,
                        lp_in: lp_in.to_string(),
                        token_out: tok(*token_out)?,
                        amount_out: amount_out.to_string(),
                    },
                });
            }
            let mut outputs = Vec::new();
            for o in &p.outputs {
                outputs.push(OutputJson {
                    token: tok(o.token)?,
                    amount: o.amount.to_string(),
                    min_amount: o.min_amount.to_string(),
                });
            }
            let zap_fee = match &p.zap_fee {
                Some(f) => Some(ZapFeeJson {
                    rate_bps: f.rate_bps,
                    taken: f.taken.iter().map(amt).collect::<Result<_, _>>()?,
                }),
                None => None,
            };
            Ok(PlanJson {
                steps,
                outputs,
                inputs: p.inputs.iter().map(amt).collect::<Result<_, _>>()?,
                refunds: p.refunds.iter().map(amt).collect::<Result<_, _>>()?,
                zap_fee,
                value: p.value,
                upper_bound: p.upper_bound,
                price_impact: p.price_impact,
                gas_units: p.gas_units,
                gas_price: p.gas_price,
                bound_gap: p.bound_gap(),
                bound_max_hops: p.bound_max_hops,
                slippage: Some(FractionJson {
                    num: p.slippage.numer().to_string(),
                    den: p.slippage.denom().to_string(),
                }),
                excluded: p
                    .excluded
                    .iter()
                    .map(|x| {
                        Ok(ExcludedJson {
                            pool: pool(x.pool)?,
                            reason: x.error.to_string(),
                        })
                    })
                    .collect::<Result<_, RouteError>>()?,
            })
        }

        /// The plan this JSON describes, on `graph` (addresses and pool ids resolved in it,
        /// amounts parsed exactly). Nothing is checked beyond the form: use
        /// [`Plan::verify_request`] to trust it.
        ///
        /// # Errors
        /// [`RouteError::PlanMismatch`] naming the field and element (or step) whose address,
        /// pool id or number cannot be read, or a missing `slippage`.
        pub fn to_plan(&self, g: &PoolGraph) -> Result<Plan, RouteError> {
            use PlanField as F;
            let bad = |field, index, why| RouteError::PlanMismatch { field, index, why };
            let tok = |a: &str, field, k| {
                g.token_id(a)
                    .ok_or_else(|| bad(field, Some(k), "token address not in the snapshot"))
            };
            let num = |x: &str, field, k| {
                parse_u256_dec(x).ok_or_else(|| bad(field, Some(k), "not a decimal amount"))
            };
            let nums = |v: &[String], k| -> Result<Vec<U256>, RouteError> {
                v.iter().map(|x| num(x, F::Steps, k)).collect()
            };
            let amounts = |v: &[AmountJson], field| -> Result<Vec<TokenAmount>, RouteError> {
                v.iter()
                    .enumerate()
                    .map(|(k, a)| {
                        Ok(TokenAmount {
                            token: tok(&a.token, field, k)?,
                            amount: num(&a.amount, field, k)?,
                        })
                    })
                    .collect()
            };
            let mut steps = Vec::with_capacity(self.steps.len());
            for (k, s) in self.steps.iter().enumerate() {
                let pool = |id: &str| {
                    g.pool_id(id)
                        .ok_or_else(|| bad(F::Steps, Some(k), "pool not in the snapshot"))
                };
                steps.push(match s {
                    StepJson::Swap {
                        pool: p,
                        token_in,
                        token_out,
                        amount_in,
                        amount_out,
                    } => Step::Swap {
                        pool: pool(p)?,
                        token_in: tok(token_in, F::Steps, k)?,
                        token_out: tok(token_out, F::Steps, k)?,
                        amount_in: num(amount_in, F::Steps, k)?,
                        amount_out: num(amount_out, F::Steps, k)?,
                    },
                    StepJson::Mint {
                        pool: p,
                        amounts_in,
                        lp_out,
                    } => Step::Mint {
                        pool: pool(p)?,
                        amounts_in: nums(amounts_in, k)?,
                        lp_out: num(lp_out, F::Steps, k)?,
                    },
                    StepJson::Burn {
                        pool: p,
                        lp_in,
                        amounts_out,
                    } => Step::Burn {
                        pool: pool(p)?,
                        lp_in: num(lp_in, F::Steps, k)?,
                        amounts_out: nums(amounts_out, k)?,
                    },
                    StepJson::BurnOne {
                        pool: p,
                        lp_in,
                        token_out,
                        amount_out,
                    } => Step::BurnOne {
                        pool: pool(p)?,
                        lp_in: num(lp_in, F::Steps, k)?,
                        token_out: tok(token_out, F::Steps, k)?,
                        amount_out: num(amount_out, F::Steps, k)?,
                    },
                });
            }
            let mut outputs = Vec::with_capacity(self.outputs.len());
            for (k, o) in self.outputs.iter().enumerate() {
                outputs.push(Output {
                    token: tok(&o.token, F::Outputs, k)?,
                    amount: num(&o.amount, F::Outputs, k)?,
                    min_amount: num(&o.min_amount, F::MinAmount, k)?,
                });
            }
            let zap_fee = match &self.zap_fee {
                Some(f) => Some(ZapFee {
                    rate_bps: f.rate_bps,
                    taken: amounts(&f.taken, F::ZapFee)?,
                }),
                None => None,
            };
            let sl = self
                .slippage
                .as_ref()
                .ok_or_else(|| bad(F::Slippage, None, "missing"))?;
            let part = |x: &str| {
                x.parse::<u64>()
                    .map_err(|_| bad(F::Slippage, None, "not a u64 fraction"))
            };
            let (n, d) = (part(&sl.num)?, part(&sl.den)?);
            if d == 0 || n > d {
                return Err(bad(F::Slippage, None, "not a fraction in [0, 1]"));
            }
            let mut excluded = Vec::with_capacity(self.excluded.len());
            for (k, x) in self.excluded.iter().enumerate() {
                excluded.push(Excluded {
                    pool: g
                        .pool_id(&x.pool)
                        .ok_or_else(|| bad(F::Excluded, Some(k), "pool not in the snapshot"))?,
                    error: pool_error_of(&x.reason)
                        .ok_or_else(|| bad(F::Excluded, Some(k), "not a pool error's text"))?,
                });
            }
            Ok(Plan {
                inputs: amounts(&self.inputs, F::Inputs)?,
                steps,
                outputs,
                refunds: amounts(&self.refunds, F::Refunds)?,
                zap_fee,
                value: self.value,
                upper_bound: self.upper_bound,
                price_impact: self.price_impact,
                gas_units: self.gas_units,
                slippage: Ratio::new(n, d),
                gas_price: self.gas_price,
                bound_max_hops: self.bound_max_hops,
                excluded,
            })
        }
    }
}
