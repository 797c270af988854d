//! The quote response body, as a serializable value, and a route graph for display.
//!
//! The spec shows only `pathId` of the quote response; the rest is ours:
//!
//! ```json
//! {
//!   "chainId": 1,
//!   "inputTokens":  [{"tokenAddress": "0x…", "amount": "1000000"}],
//!   "outputTokens": [{"tokenAddress": "0x…", "amount": "998000", "minAmount": "993010"}],
//!   "refunds": [],
//!   "priceImpact": 0.0012,
//!   "value": 998000.0, "upperBound": 998100.0, "optimalityGap": 0.0001,
//!   "gasEstimate": 241000,
//!   "zapFee": {"percent": "0.01", "amounts": [{"tokenAddress": "0x…", "amount": "100"}]},
//!   "route": {"nodes": [...], "links": [...]}
//! }
//! ```
//!
//! The transport adds `pathId` (and whatever else it owns, such as a trace id). Amounts are
//! decimal strings of base units; `priceImpact`, `value`, `upperBound`, `optimalityGap` and the
//! link `share`s are floats for display only, never amounts.
//!
//! [`RouteGraph`] is nodes (tokens) and links (pool legs with amounts and shares): the shape
//! that d3's force and sankey layouts, networkx (`node_link_graph`) and similar tools draw.

use crate::chain::CHAIN_101;
use crate::error::{Error, RouteError};
use crate::graph::{PoolGraph, PoolInfo};
use crate::math::float::to_f64;
pub use crate::plan::GasTable;
use crate::plan::{Plan, Step, TokenAmount};
use crate::service::request::{format_e18, Address};
use crate::units::TokenId;
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use primitive_types::U256;

/// A token and an amount, as in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct TokenAmountBody {
    /// The token address (canonical form).
    pub token_address: String,
    /// Base units.
    #[cfg_attr(feature = "serde", serde(with = "crate::units::dec"))]
    pub amount: U256,
}

/// An output of the quote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct OutputBody {
    /// The token address (canonical form).
    pub token_address: String,
    /// The exact amount the plan delivers, base units.
    #[cfg_attr(feature = "serde", serde(with = "crate::units::dec"))]
    pub amount: U256,
    /// The least amount accepted after slippage (`floor(amount * (1 - slippage))`).
    #[cfg_attr(feature = "serde", serde(with = "crate::units::dec"))]
    pub min_amount: U256,
}

/// The zap fee of a quote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct ZapFeeBody {
    /// The rate in percent, as exact decimal text (`"0.01"`).
    pub percent: String,
    /// The amounts taken, per input token.
    pub amounts: Vec<TokenAmountBody>,
}

impl ZapFeeBody {
    /// The rate given in basis points (1 bp = 0.01 %), with its amounts.
    #[must_use]
    pub fn from_bps(rate_bps: u32, amounts: Vec<TokenAmountBody>) -> Self {
        // bps / 100 as exact decimal text: 1 -> "0.01", 30 -> "0.3", 100 -> "1". One basis
        // point is 10^16 in the 10^-18 units of `format_e18`; u32 · 10^16 fits u128.
        let percent = format_e18(u128::from(rate_bps).saturating_mul(10_000_000_000_000_000));
        Self { percent, amounts }
    }
}

/// What a link of the route graph does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub enum LegKind {
    /// A swap through a pool.
    Swap,
    /// A deposit of one coin into a pool, minting its LP token.
    Mint,
    /// A burn of LP, returning one coin.
    Burn,
}

/// A token of the route graph.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct RouteNode {
    /// Index of the node in `nodes` (what links refer to).
    pub id: usize,
    /// The token address.
    pub token_address: String,
    /// The token's symbol, when known.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub symbol: Option<String>,
    /// Whether the token is an input of the quote.
    pub is_input: bool,
    /// Whether the token is an output of the quote.
    pub is_output: bool,
}

/// A pool leg of the route graph: one swap, or one coin of a mint or burn.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct RouteLink {
    /// Node index of the token going in.
    pub source: usize,
    /// Node index of the token coming out.
    pub target: usize,
    /// The pool's id (its address).
    pub pool: String,
    /// The liquidity source id of the pool (`uniswap-v2`, `curve`, ...).
    pub liquidity_source: String,
    /// Swap, mint or burn.
    pub kind: LegKind,
    /// Amount of `source` going in, base units.
    #[cfg_attr(feature = "serde", serde(with = "crate::units::dec"))]
    pub amount_in: U256,
    /// Amount of `target` coming out, base units. For a mint leg, the LP minted by the whole
    /// deposit (the same on each of its legs); for a burn leg, this coin's amount.
    #[cfg_attr(feature = "serde", serde(with = "crate::units::dec"))]
    pub amount_out: U256,
    /// Share of all of `source` spent by the plan's steps that this link's step spends, in
    /// `[0, 1]` (float, display only). The burn legs of one step share its LP amount and
    /// therefore its share.
    pub share: f64,
    /// Index of the plan step this leg belongs to (execution order).
    pub step: usize,
}

/// A leg as plain values, for [`RouteGraph::from_legs`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// Address of the token in.
    pub token_in: String,
    /// Address of the token out.
    pub token_out: String,
    /// Pool id.
    pub pool: String,
    /// Liquidity source id.
    pub liquidity_source: String,
    /// Swap, mint or burn.
    pub kind: LegKind,
    /// Amount in.
    pub amount_in: U256,
    /// Amount out.
    pub amount_out: U256,
    /// Index of the step in execution order (legs of one mint or burn share it).
    pub step: usize,
}

/// The route as a graph for display: nodes are tokens, links are pool legs.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct RouteGraph {
    /// Tokens, inputs first, then in order of first appearance.
    pub nodes: Vec<RouteNode>,
    /// Legs, in execution order.
    pub links: Vec<RouteLink>,
}

impl RouteGraph {
    /// Build the graph from legs in execution order. `inputs` and `outputs` are the quote's
    /// token addresses (they become nodes even without a leg, and are flagged); `symbol` names
    /// a token when it can.
    ///
    /// Each link's `share` is its `amount_in` over the sum of `amount_in` of the steps leaving
    /// the same token, each step counted once (0 when that sum is 0).
    ///
    /// # Complexity
    /// O(L·(N + L)) for L legs and N nodes: route graphs are small.
    #[must_use]
    pub fn from_legs(
        inputs: &[String],
        outputs: &[String],
        legs: &[Leg],
        symbol: impl Fn(&str) -> Option<String>,
    ) -> Self {
        let mut nodes: Vec<RouteNode> = Vec::new();
        let node_of = |addr: &str, nodes: &mut Vec<RouteNode>| -> usize {
            if let Some(i) = nodes.iter().position(|n| n.token_address == addr) {
                return i;
            }
            let id = nodes.len();
            nodes.push(RouteNode {
                id,
                token_address: String::from(addr),
                symbol: symbol(addr),
                is_input: inputs.iter().any(|a| a == addr),
                is_output: outputs.iter().any(|a| a == addr),
            });
            id
        };
        for a in inputs.iter().chain(outputs) {
            node_of(a, &mut nodes);
        }
        let mut links: Vec<RouteLink> = legs
            .iter()
            .map(|l| RouteLink {
                source: node_of(&l.token_in, &mut nodes),
                target: node_of(&l.token_out, &mut nodes),
                pool: l.pool.clone(),
                liquidity_source: l.liquidity_source.clone(),
                kind: l.kind,
                amount_in: l.amount_in,
                amount_out: l.amount_out,
                share: 0.0,
                step: l.step,
            })
            .collect();
        // Per source node: total spent, as f64 (display only), each (source, step) once.
        let mut totals = alloc::vec![0.0f64; nodes.len()];
        for (k, l) in links.iter().enumerate() {
            let counted = links
                .iter()
                .take(k)
                .any(|m| m.source == l.source && m.step == l.step);
            if counted {
                continue;
            }
            if let Some(t) = totals.get_mut(l.source) {
                *t += to_f64(l.amount_in);
            }
        }
        for l in &mut links {
            let total = totals.get(l.source).copied().unwrap_or(0.0);
            l.share = if total > 0.0 {
                (to_f64(l.amount_in) / total).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
        Self { nodes, links }
    }
}

/// `base + sum(step_units)`, saturating at `u64::MAX` (an estimate never wraps).
#[must_use]
pub(crate) fn estimate_gas(base: u64, step_units: impl IntoIterator<Item = u64>) -> u64 {
    step_units
        .into_iter()
        .fold(base, |acc, u| acc.saturating_add(u))
}

/// The quote response body, less the transport's `pathId`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct QuoteResponse {
    /// The chain id of the request.
    pub chain_id: u64,
    /// What the plan spends, per input token.
    pub input_tokens: Vec<TokenAmountBody>,
    /// What it delivers, per output token, with the minimum after slippage.
    pub output_tokens: Vec<OutputBody>,
    /// Surplus returned to the wallet (zaps).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub refunds: Vec<TokenAmountBody>,
    /// 1 − value received / value of the inputs at mid prices (fraction: 0.001 is 0.1 %).
    pub price_impact: f64,
    /// The plan's objective value (see the router's `Plan::value`).
    pub value: f64,
    /// An upper bound on the value of any plan for this request, when computed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub upper_bound: Option<f64>,
    /// `(upper_bound − value) / upper_bound`, clamped to `[0, 1]`: at most this fraction of
    /// value could be gained by any other plan.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub optimality_gap: Option<f64>,
    /// The part of `upper_bound` that is integer rounding a plan can win against the pools'
    /// float curves (the router's `Plan::rounding_slack`), when split out.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub rounding_slack: Option<f64>,
    /// Estimated gas units (`None` on chain 101, where the network fee is built in).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub gas_estimate: Option<u64>,
    /// The zap fee, for zaps (`swapMulti`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub zap_fee: Option<ZapFeeBody>,
    /// The route, for display.
    pub route: RouteGraph,
}

/// `(upper − value) / upper`, clamped to `[0, 1]`; `None` without a usable bound.
#[must_use]
pub fn optimality_gap(value: f64, upper_bound: Option<f64>) -> Option<f64> {
    let ub = upper_bound?;
    if !ub.is_finite() || !value.is_finite() || ub <= 0.0 {
        return None;
    }
    Some(((ub - value) / ub).clamp(0.0, 1.0))
}

/// The canonical text of a graph token's address: EIP-55 on EVM chains (the graph stores hex in
/// lower case), base58 as stored on chain 101; the stored text when it does not parse.
fn display_address(graph: &PoolGraph, t: TokenId) -> Result<String, Error> {
    let info = graph.token(t).ok_or(RouteError::TokenOutOfRange(t))?;
    Ok(info
        .address
        .parse::<Address>()
        .map_or_else(|_| info.address.clone(), |a| a.to_string()))
}

impl QuoteResponse {
    /// The response body for `plan` computed on `graph`: addresses in canonical form (EIP-55
    /// on EVM chains), amounts and minimums from the plan, its price impact, value and upper
    /// bound, the zap fee, a gas estimate from `gas` per step (`None` on chain 101, where the
    /// network fee is built in), and the route graph (token symbols from the graph).
    ///
    /// # Errors
    /// [`RouteError::TokenOutOfRange`] / [`RouteError::PoolOutOfRange`] for a plan that names
    /// ids outside `graph` (a plan of another graph).
    pub fn from_plan(plan: &Plan, graph: &PoolGraph, gas: &GasTable) -> Result<Self, Error> {
        let input_tokens = token_amounts(graph, &plan.inputs)?;
        let output_tokens = plan
            .outputs
            .iter()
            .map(|o| {
                Ok(OutputBody {
                    token_address: display_address(graph, o.token)?,
                    amount: o.amount,
                    min_amount: o.min_amount,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let mut legs = Vec::new();
        let mut units = Vec::with_capacity(plan.steps.len());
        for (k, step) in plan.steps.iter().enumerate() {
            units.push(step_legs(graph, gas, k, step, &mut legs)?);
        }
        let route = route_graph(graph, &input_tokens, &output_tokens, &legs);
        let zap_fee = match &plan.zap_fee {
            Some(f) => Some(ZapFeeBody::from_bps(
                f.rate_bps,
                token_amounts(graph, &f.taken)?,
            )),
            None => None,
        };
        let gas_estimate = (graph.chain_id() != CHAIN_101).then(|| estimate_gas(gas.base, units));
        Ok(Self {
            chain_id: graph.chain_id(),
            input_tokens,
            output_tokens,
            refunds: token_amounts(graph, &plan.refunds)?,
            price_impact: plan.price_impact,
            value: plan.value,
            upper_bound: plan.upper_bound,
            optimality_gap: optimality_gap(plan.value, plan.upper_bound),
            rounding_slack: plan.rounding_slack,
            gas_estimate,
            zap_fee,
            route,
        })
    }
}

/// Token amounts of a plan as body entries, addresses in canonical form.
fn token_amounts(graph: &PoolGraph, v: &[TokenAmount]) -> Result<Vec<TokenAmountBody>, Error> {
    v.iter()
        .map(|x| {
            Ok(TokenAmountBody {
                token_address: display_address(graph, x.token)?,
                amount: x.amount,
            })
        })
        .collect()
}

/// The legs of one plan step through one pool, as the route graph draws them.
struct StepLegs<'a> {
    graph: &'a PoolGraph,
    info: &'a PoolInfo,
    step: usize,
}

impl StepLegs<'_> {
    fn leg(
        &self,
        (token_in, token_out): (TokenId, TokenId),
        kind: LegKind,
        amount_in: U256,
        amount_out: U256,
    ) -> Result<Leg, Error> {
        Ok(Leg {
            token_in: display_address(self.graph, token_in)?,
            token_out: display_address(self.graph, token_out)?,
            pool: self.info.id.clone(),
            liquidity_source: self.info.source.clone(),
            kind,
            amount_in,
            amount_out,
            step: self.step,
        })
    }
}

/// Push the legs of step `k` onto `legs` (a swap: one; a mint: one per coin deposited; a burn:
/// one per coin; a one-coin burn: one) and return its gas units from `gas`.
fn step_legs(
    graph: &PoolGraph,
    gas: &GasTable,
    k: usize,
    step: &Step,
    legs: &mut Vec<Leg>,
) -> Result<u64, Error> {
    let (Step::Swap { pool, .. }
    | Step::Mint { pool, .. }
    | Step::Burn { pool, .. }
    | Step::BurnOne { pool, .. }) = step;
    let info = graph.pool(*pool).ok_or(RouteError::PoolOutOfRange(*pool))?;
    let at = StepLegs {
        graph,
        info,
        step: k,
    };
    match step {
        Step::Swap {
            token_in,
            token_out,
            amount_in,
            amount_out,
            ..
        } => {
            legs.push(at.leg(
                (*token_in, *token_out),
                LegKind::Swap,
                *amount_in,
                *amount_out,
            )?);
            Ok(gas.swap(info.kind))
        }
        Step::Mint {
            amounts_in, lp_out, ..
        } => {
            for (coin, a) in info.tokens.iter().zip(amounts_in) {
                if !a.is_zero() {
                    legs.push(at.leg((*coin, info.lp_token), LegKind::Mint, *a, *lp_out)?);
                }
            }
            Ok(gas.mint)
        }
        Step::Burn {
            lp_in, amounts_out, ..
        } => {
            for (coin, a) in info.tokens.iter().zip(amounts_out) {
                legs.push(at.leg((info.lp_token, *coin), LegKind::Burn, *lp_in, *a)?);
            }
            Ok(gas.burn)
        }
        // A one-coin withdrawal (zaps): one burn leg into that coin.
        Step::BurnOne {
            lp_in,
            token_out,
            amount_out,
            ..
        } => {
            legs.push(at.leg(
                (info.lp_token, *token_out),
                LegKind::Burn,
                *lp_in,
                *amount_out,
            )?);
            Ok(gas.burn)
        }
    }
}

/// The route graph of `legs` between the quote's inputs and outputs, symbols from `graph`.
fn route_graph(
    graph: &PoolGraph,
    inputs: &[TokenAmountBody],
    outputs: &[OutputBody],
    legs: &[Leg],
) -> RouteGraph {
    let ins: Vec<String> = inputs.iter().map(|t| t.token_address.clone()).collect();
    let outs: Vec<String> = outputs.iter().map(|t| t.token_address.clone()).collect();
    RouteGraph::from_legs(&ins, &outs, legs, |a| {
        graph
            .token_id(a)
            .and_then(|t| graph.token(t))
            .map(|i| i.symbol.clone())
            .filter(|s| !s.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::estimate_gas;
    use crate::plan::GasTable;

    #[test]
    fn gas_estimate_adds_step_units_and_saturates() {
        let t = GasTable::default();
        assert_eq!(
            estimate_gas(t.base, [t.constant_product, t.stableswap]),
            50_000 + 60_000 + 110_000
        );
        assert_eq!(t.swap(crate::snapshot::PoolKind::Solidly), 80_000);
        assert_eq!(estimate_gas(u64::MAX - 1, [5, 5]), u64::MAX);
        assert_eq!(estimate_gas(7, []), 7);
    }
}
