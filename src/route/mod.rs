//! Split-route search over a [`PoolGraph`]: exact-in quotes with an optimality bound.
//!
//! # Model and algorithm
//!
//! A route is a flow: every directed pool edge (pool, coin i → coin j) carries one aggregate
//! input, token balances never go negative, every input is spent exactly and the outputs are
//! what is left at the end. [`quote`]:
//!
//! 1. **Prunes** the graph to the edges on some path of at most `max_hops` hops from an input to
//!    an output (breadth-first distances from the inputs and to the outputs).
//! 2. **Values** the outputs: output k's mid price `v_k` in units of the first output is the
//!    geometric mean of the best zero-size bid (k → first output) and the inverse of the best
//!    zero-size ask (first output → k), each the best product of fee-inclusive marginal rates
//!    over paths of at most `max_hops` hops. With several outputs the plan maximises the basket
//!    value `T = min_k v_k z_k / w_k` (`z_k` amounts, `w_k` proportions), so the outputs' values
//!    at these mid prices follow the proportions; surplus of one output above its share stays in
//!    the plan.
//! 3. **Solves the dual** (Angeris et al. 2022, Diamandis et al. 2023, see `dual.rs`): for token
//!    prices ν every edge solves its own arbitrage on float models of the pools (closed forms for
//!    x·y = k and the solidly curves, Newton for Curve), and
//!    `h(ν) = (Σ ν_i b_i + Σ_e arb_e(ν)) / Σ_k ν_k w_k / v_k` bounds every plan's `T` from above.
//!    `h` is minimised by Gauss–Seidel sweeps and Newton's method on the KKT system.
//! 4. **Recovers an exact plan**: the active edges form a DAG; each token's holding is split over
//!    its outgoing active edges by the optimal flow fractions (floors, the remainder on the
//!    largest edge so every holding is spent exactly), and the swaps are simulated with the exact
//!    integer pools in topological order on the evolving pool states (each pool direction is
//!    swapped once, on its aggregate flow). For one input and one output the best single path
//!    (hop-bounded dynamic programme) is simulated too and the better plan is returned.
//! 5. **Gas** (optional, EVM chains): each step costs `gas units × gas price` in units of the
//!    (first) output; the active edge whose arbitrage profit at the optimal prices falls
//!    shortest of its step's gas is dropped and the problem re-solved, one edge at a time; the
//!    same request is also quoted under every hop cap from 1 to [`GAS_HOP_CAPS`], and the
//!    exactly simulated plan (or single path) with the best output net of gas is returned, so
//!    it never nets less than the request capped at any of those hop counts. Chain 101 has no
//!    gas pricing.
//! 6. **Exact-out** ([`RouteRequest::exact_out`]): the least input whose exact plan delivers the
//!    wanted amount, by exact-in quotes narrowing a bracket to 1e-7 (`exact_out.rs`).
//!
//! **The certificate** (`certify.rs`): the dual is solved on a working set (the edges on paths
//! of at most [`DEFAULT_MAX_HOPS`] hops, or the request's hop limit), then every pool direction
//! of the whole graph that the source filters allow is priced at the solution, tokens outside
//! the working set at their best bid chains. Edges still profitable there are added (column
//! generation) and the dual solved again, until none is. The bound is the dual value over the
//! whole graph, so it holds for plans along paths of any length; with a hop limit it is over
//! the plans within it ([`Plan::bound_max_hops`]).
//!
//! The reported [`Plan::upper_bound`] is `h(ν) · (1 + 1e-7) + s`: the relative margin covers
//! float error of the models (≈1e-12) and the sequential-execution gain of Curve pools (fee on
//! the output) that the aggregate model does not see (≤ 1e-7 relative, see
//! `../shared/routing/README.md`); `s` covers integer rounding in the user's favour, per pool
//! direction of the graph swapped once: a solidly fee rounded down (less than one unit
//! of the input token), a solidly-stable or Curve output up to two units above the float curve,
//! each valued at the optimal prices ν. It bounds plans that swap each pool direction once (as
//! the router's do); splitting one direction into many tiny swaps can dodge rounded-down fees
//! without limit, which no float model bounds.
//!
//! Deterministic: no hashing, no clocks, no thread-dependent order; [`quote_batch`] with the
//! `parallel` feature maps requests to plans independently and keeps their order.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod certify;
pub mod cl_model;
pub(crate) mod dual;
pub(crate) mod edges;
mod exact_out;
mod mid;
pub use mid::output_mid_prices;
mod gas;
pub use exact_out::EXACT_OUT_PRECISION;
pub use gas::GAS_HOP_CAPS;
pub mod fmath;
pub mod model;

use crate::error::{RouteError, RouteFilter};
use crate::graph::{PoolGraph, CHAIN_101};
use crate::math;
use crate::plan::{Excluded, Output, Plan, Step, TokenAmount};
use crate::pool::Pool;
use crate::snapshot::PoolKind;
use crate::units::{PoolId, TokenId};
use alloc::collections::VecDeque;

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use certify::COLGEN_ROUNDS;
use dual::{DEdge, Dual};
use edges::{Adj, EdgeCache, GEdge};
use model::u256_to_f64;
use num_rational::Ratio;
use primitive_types::U256;

/// Hop radius of the first working set when the request sets no hop limit: the edges on some
/// path of at most this many hops from an input to an output. Column generation then adds
/// whatever else the optimal prices find profitable, at any distance. 6 rather than 4: on the
/// benchmark's graphs the optimum uses 5- and 6-hop flows, and the extra radius costs little
/// once pruned.
pub const DEFAULT_MAX_HOPS: usize = 6;

/// The largest hop limit a request may set.
pub const MAX_HOPS_LIMIT: usize = 32;

/// Relative margin added to the dual bound (float error and Curve sequential execution).
pub const BOUND_MARGIN: f64 = 1e-7;

/// Gas pricing for EVM chains: gas units per swap step by pool family, and the price of one gas
/// unit in base units of the (first) output token.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GasModel {
    /// gas units of a constant-product swap step
    pub constant_product: u64,
    /// gas units of a solidly swap step
    pub solidly: u64,
    /// gas units of a Curve swap step
    pub stableswap: u64,
    /// gas units of a concentrated-liquidity swap step (without tick crossings)
    pub concentrated_liquidity: u64,
    /// output base units per gas unit (≥ 0)
    pub gas_price: f64,
}

impl GasModel {
    /// Typical per-step costs (Uniswap V2 60k, solidly 80k, Curve 110k, Uniswap V3 130k gas) at
    /// `gas_price` output base units per gas unit.
    #[must_use]
    pub fn typical(gas_price: f64) -> Self {
        GasModel {
            constant_product: 60_000,
            solidly: 80_000,
            stableswap: 110_000,
            concentrated_liquidity: 130_000,
            gas_price,
        }
    }

    /// Gas units of one step through a pool of this kind.
    #[must_use]
    pub fn units(&self, kind: PoolKind) -> u64 {
        match kind {
            PoolKind::ConstantProduct | PoolKind::SplTokenSwap => self.constant_product,
            PoolKind::Solidly | PoolKind::OrcaWhirlpool => self.solidly,
            PoolKind::Stableswap | PoolKind::SaberStableswap => self.stableswap,
            PoolKind::ConcentratedLiquidity => self.concentrated_liquidity,
        }
    }
}

/// The router's input: exact-in amounts to exact proportions of outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRequest {
    /// Input tokens and the exact amounts to spend (repeated tokens are summed).
    pub inputs: Vec<(TokenId, U256)>,
    /// Output tokens and their value proportions (positive, summing to exactly 1).
    pub outputs: Vec<(TokenId, Ratio<u64>)>,
    /// Hop limit of a path: `None` (the default) for none, `Some(h)` for plans whose every
    /// path has at most `h` hops (1 to [`MAX_HOPS_LIMIT`]); the plan's bound is then over those
    /// plans only ([`Plan::bound_max_hops`]).
    pub max_hops: Option<usize>,
    /// Optional gas pricing (ignored on chain 101).
    pub gas: Option<GasModel>,
    /// Slippage limit as a fraction (0.005 = 0.5 %): `min_amount = floor(amount × (1 − s))`.
    pub slippage: Ratio<u64>,
    /// Only pools of these sources (when given).
    pub source_whitelist: Option<Vec<String>>,
    /// Never pools of these sources (not applied on chain 101).
    pub source_blacklist: Vec<String>,
    /// Exact-out: deliver at least this amount (base units) of the only output, spending as
    /// little of the only input as possible; the input amount is then the most the user will
    /// spend. The plan's `inputs` say what it spends: the least amount, to within
    /// 1 / [`EXACT_OUT_PRECISION`] of itself, whose exact simulation delivers the wanted
    /// amount (found by exact-in quotes; see `route/exact_out.rs`). `None`: exact-in.
    pub exact_out: Option<U256>,
}

impl RouteRequest {
    /// The router's request for a validated quote request ([`crate::service::request::Request`]) on
    /// `graph`: addresses become token ids (0x hex case-insensitively), proportions stay exact
    /// (parts per 10^18), the slippage fraction is kept exactly when it fits `u64` terms and
    /// otherwise rounded down at 10^-18 (a minimum never below the exact one's floor by more
    /// than 1e-18 of the amount), the source whitelist applies, the blacklist only where the
    /// request says so (not on chain 101). Default hops, no gas model.
    ///
    /// # Errors
    /// [`RouteError::UnknownToken`] for an address the graph does not hold,
    /// [`RouteError::BadRequest`] for a proportion or slippage that cannot be represented.
    pub fn from_request(
        req: &crate::service::request::Request,
        graph: &PoolGraph,
    ) -> Result<Self, RouteError> {
        use alloc::string::ToString;
        let tok = |a: &crate::service::request::Address| {
            let s = a.to_string();
            graph.token_id(&s).ok_or(RouteError::UnknownToken {
                pool: String::new(),
                address: s,
            })
        };
        let mut inputs = Vec::with_capacity(req.inputs.len());
        for i in &req.inputs {
            inputs.push((tok(&i.token)?, i.amount));
        }
        let mut outputs = Vec::with_capacity(req.outputs.len());
        for o in &req.outputs {
            outputs.push((
                tok(&o.token)?,
                Ratio::new(o.proportion.parts(), 1_000_000_000_000_000_000u64),
            ));
        }
        let f = req.slippage.as_fraction();
        let (p, q) = (*f.numer(), *f.denom());
        let slippage = match (u64::try_from(p), u64::try_from(q)) {
            (Ok(p), Ok(q)) if q != 0 => Ratio::new(p, q),
            _ => {
                const E18: u128 = 1_000_000_000_000_000_000;
                let num = p
                    .checked_mul(E18)
                    .and_then(|x| x.checked_div(q))
                    .and_then(|x| u64::try_from(x).ok())
                    .ok_or(RouteError::BadRequest("slippage out of range"))?;
                Ratio::new(num, 1_000_000_000_000_000_000u64)
            }
        };
        let mut r = RouteRequest::new(inputs, outputs);
        r.slippage = slippage;
        r.source_whitelist = req.sources.whitelist.clone();
        r.source_blacklist = if req.sources.apply_blacklist {
            req.sources.blacklist.clone().unwrap_or_default()
        } else {
            Vec::new()
        };
        Ok(r)
    }

    /// The router's request for a spec quote body on `graph`: the one way from a body to a
    /// route. The body is validated by the spec's rules for its `chainId`
    /// ([`crate::service::request::QuoteRequest::validate`], with the snapshot's sources as the known
    /// liquidity sources), its `chainId` must be the snapshot's, and the typed request becomes
    /// a [`RouteRequest`] by [`RouteRequest::from_request`].
    ///
    /// # Errors
    /// Every validation error of the body ([`crate::Error::Request`]), among them
    /// [`crate::RequestError::ChainMismatch`]; [`RouteError::UnknownToken`] for a token the
    /// snapshot does not hold.
    pub fn from_body(
        body: &crate::service::request::QuoteRequest,
        graph: &PoolGraph,
    ) -> Result<Self, crate::Error> {
        let req = body.validate(&graph.sources())?;
        if req.chain_id != graph.chain_id() {
            return Err(crate::RequestError::ChainMismatch {
                request: req.chain_id,
                snapshot: graph.chain_id(),
            }
            .into());
        }
        Ok(Self::from_request(&req, graph)?)
    }

    /// A request with default hops, no gas, no source filter and 0.5 % slippage.
    #[must_use]
    pub fn new(inputs: Vec<(TokenId, U256)>, outputs: Vec<(TokenId, Ratio<u64>)>) -> Self {
        RouteRequest {
            inputs,
            outputs,
            max_hops: None,
            gas: None,
            slippage: Ratio::new_raw(5, 1000),
            source_whitelist: None,
            source_blacklist: Vec::new(),
            exact_out: None,
        }
    }
}

/// One flow of a recovered solution.
#[derive(Debug, Clone, Copy)]
struct Flow {
    e: usize,
    x: f64,
}

/// The validated request in graph terms.
#[derive(Debug)]
struct Prepared {
    inputs: Vec<(TokenId, U256)>,
    outputs: Vec<(TokenId, f64)>,
}

fn prepare(graph: &PoolGraph, req: &RouteRequest) -> Result<Prepared, RouteError> {
    if req.inputs.is_empty() {
        return Err(RouteError::BadRequest("no inputs"));
    }
    if req.outputs.is_empty() {
        return Err(RouteError::BadRequest("no outputs"));
    }
    if req.max_hops.is_some_and(|h| h == 0 || h > MAX_HOPS_LIMIT) {
        return Err(RouteError::BadRequest("max_hops must be in 1..=32"));
    }
    if req
        .gas
        .is_some_and(|g| !(g.gas_price.is_finite() && g.gas_price >= 0.0))
    {
        return Err(RouteError::BadRequest("gas_price must be finite and >= 0"));
    }
    if *req.slippage.denom() == 0 || req.slippage.numer() > req.slippage.denom() {
        return Err(RouteError::BadRequest(
            "slippage must be a fraction in [0, 1]",
        ));
    }
    let mut inputs: Vec<(TokenId, U256)> = Vec::new();
    for (t, a) in &req.inputs {
        graph.token(*t).ok_or(RouteError::TokenOutOfRange(t.0))?;
        if a.is_zero() {
            return Err(RouteError::BadRequest("zero input amount"));
        }
        match inputs.iter_mut().find(|(x, _)| x == t) {
            Some((_, v)) => *v = math::add(*v, *a)?,
            None => inputs.push((*t, *a)),
        }
    }
    let mut sum = Ratio::<u128>::new_raw(0, 1);
    let mut outputs = Vec::new();
    for (t, w) in &req.outputs {
        graph.token(*t).ok_or(RouteError::TokenOutOfRange(t.0))?;
        if *w.denom() == 0 || *w.numer() == 0 {
            return Err(RouteError::BadRequest(
                "output proportions must be positive",
            ));
        }
        if outputs.iter().any(|(x, _)| x == t) {
            return Err(RouteError::BadRequest("repeated output token"));
        }
        if inputs.iter().any(|(x, _)| x == t) {
            return Err(RouteError::BadRequest("a token is both input and output"));
        }
        let r = Ratio::new(u128::from(*w.numer()), u128::from(*w.denom()));
        let (a, b2, c2, d) = (*sum.numer(), *sum.denom(), *r.numer(), *r.denom());
        let num = a
            .checked_mul(d)
            .zip(c2.checked_mul(b2))
            .and_then(|(x, y)| x.checked_add(y));
        let den = b2.checked_mul(d);
        sum = match (num, den) {
            (Some(x), Some(y)) if y != 0 => Ratio::new(x, y),
            _ => return Err(RouteError::BadRequest("proportions overflow")),
        };
        #[allow(clippy::arithmetic_side_effects)] // f64
        let wf = *w.numer() as f64 / *w.denom() as f64;
        outputs.push((*t, wf));
    }
    if sum != Ratio::new_raw(1, 1) {
        return Err(RouteError::BadRequest(
            "output proportions must sum to exactly 1",
        ));
    }
    // a whitelisted id no pool has: named, with the near miss (the body validation's check)
    if let Some(w) = &req.source_whitelist {
        let known = graph.sources();
        crate::service::request::check_sources(w, &known, crate::error::Field::SourceWhitelist)
            .map_err(|e| match e {
                crate::RequestError::UnknownSource { id, suggestion, .. } => {
                    RouteError::UnknownSource { id, suggestion }
                }
                _ => RouteError::BadRequest("sourceWhitelist"),
            })?;
    }
    Ok(Prepared { inputs, outputs })
}

/// Whether a pool may be used under the request's source filters.
fn pool_allowed(graph: &PoolGraph, req: &RouteRequest, source: &str) -> bool {
    if let Some(w) = &req.source_whitelist {
        if !w.iter().any(|s| s == source) {
            return false;
        }
    }
    if graph.chain_id() != CHAIN_101 && req.source_blacklist.iter().any(|s| s == source) {
        return false;
    }
    true
}

/// The pools the request's source filters allow, one flag per pool; `None` when no filter
/// applies (every pool allowed).
fn allowed_pools(graph: &PoolGraph, req: &RouteRequest) -> Option<Vec<bool>> {
    let filtered = req.source_whitelist.is_some()
        || (graph.chain_id() != CHAIN_101 && !req.source_blacklist.is_empty());
    filtered.then(|| {
        graph
            .pools()
            .iter()
            .map(|p| pool_allowed(graph, req, &p.source))
            .collect()
    })
}

/// Whether pool `p` passes the filter mask (no mask: every pool).
fn allowed(mask: Option<&[bool]>, p: PoolId) -> bool {
    mask.map_or(true, |m| m.get(p.index()).copied().unwrap_or(false))
}

/// Whether the edge of an adjacency entry passes the filter mask.
fn adj_allowed(cache: &EdgeCache, mask: Option<&[bool]>, a: &Adj) -> bool {
    mask.is_none()
        || cache
            .hot()
            .get(a.edge as usize)
            .is_some_and(|h| allowed(mask, h.pool))
}

const UNREACHED: usize = usize::MAX;

/// Hop distances from a set of tokens, forward (`forward`) or backward along the allowed edges.
fn bfs(
    cache: &EdgeCache,
    n: usize,
    mask: Option<&[bool]>,
    starts: &[TokenId],
    forward: bool,
) -> Vec<usize> {
    let mut d = vec![UNREACHED; n];
    let mut q = VecDeque::new();
    for s in starts {
        if let Some(x) = d.get_mut(s.index()) {
            *x = 0;
            q.push_back(s.index());
        }
    }
    while let Some(u) = q.pop_front() {
        let du = d.get(u).copied().unwrap_or(UNREACHED);
        let adj = if forward {
            cache.out_of(u)
        } else {
            cache.in_of(u)
        };
        for a in adj {
            if !adj_allowed(cache, mask, a) {
                continue;
            }
            if let Some(dv) = d.get_mut(a.tok as usize) {
                if *dv == UNREACHED {
                    *dv = du.saturating_add(1);
                    q.push_back(a.tok as usize);
                }
            }
        }
    }
    d
}

/// Best product of zero-size rates from `src` to every token over at most `hops` allowed edges.
///
/// Bellman–Ford passes, each relaxing every edge from the values after the previous pass. An
/// edge out of a token whose value the previous pass did not change cannot improve anything
/// (that pass relaxed it from the same value), so each pass relaxes only the edges out of the
/// tokens the previous pass changed: the same values as relaxing every edge.
fn best_rates(
    cache: &EdgeCache,
    n: usize,
    mask: Option<&[bool]>,
    src: TokenId,
    hops: usize,
) -> Vec<f64> {
    let mut r = vec![0.0f64; n];
    let Some(x) = r.get_mut(src.index()) else {
        return r;
    };
    *x = 1.0;
    // the tokens changed by the previous pass, with their values after it
    let mut front: Vec<(usize, f64)> = vec![(src.index(), 1.0)];
    let mut changed: Vec<usize> = Vec::new();
    let mut is_changed = vec![false; n];
    for _ in 0..hops {
        for &(t, a) in &front {
            if !(a > 0.0) {
                continue;
            }
            for e in cache.out_of(t) {
                if !adj_allowed(cache, mask, e) {
                    continue;
                }
                #[allow(clippy::arithmetic_side_effects)] // f64
                let c = a * e.rate0;
                let to = e.tok as usize;
                if let Some(b) = r.get_mut(to) {
                    if c > *b {
                        *b = c;
                        if let Some(f) = is_changed.get_mut(to) {
                            if !*f {
                                *f = true;
                                changed.push(to);
                            }
                        }
                    }
                }
            }
        }
        if changed.is_empty() {
            break;
        }
        front.clear();
        for t in changed.drain(..) {
            if let Some(f) = is_changed.get_mut(t) {
                *f = false;
            }
            front.push((t, r.get(t).copied().unwrap_or(0.0)));
        }
    }
    r
}

/// Mid value of one base unit of `from` in base units of `to`: √(bid / ask).
#[allow(clippy::arithmetic_side_effects)] // f64
fn mid_value(fwd_from: &[f64], fwd_to: &[f64], from: TokenId, to: TokenId) -> f64 {
    let bid = fwd_from.get(to.index()).copied().unwrap_or(0.0);
    let ask = fwd_to.get(from.index()).copied().unwrap_or(0.0);
    if bid > 0.0 && ask > 0.0 {
        fmath::sqrt(bid / ask)
    } else if bid > 0.0 {
        bid
    } else if ask > 0.0 {
        1.0 / ask
    } else {
        0.0
    }
}

/// Quote one request: the best exact plan found and its optimality bound.
///
/// **Hostile pools.** A pool whose exact swap reverts on the amount the recovered plan sends
/// it (a reserve pushed past its storage, an overflow, a Newton loop that does not converge)
/// is left out of that plan: its flow is dropped, the other flows propagated again, and the
/// pool listed on [`Plan::excluded`] with the revert. It stays in the dual, so
/// [`Plan::upper_bound`] still bounds every plan, those through it included (a reverting swap
/// pays nothing, so the float model over-estimates it, which keeps the bound valid; the gap
/// then shows what the pool seemed to offer).
///
/// **Arbitrage.** A snapshot may hold profitable cycles (pools at different prices, as every
/// real snapshot between two blocks does); the router quotes on it as on any other. Plans do
/// **not** take cyclic profit: the recovered flows form a DAG (a flow closing a cycle is
/// dropped) and the single paths are simple, so no plan swaps a token back into one it spent;
/// a plan may still buy through the cheap pool of a mispriced pair. The certificate holds on
/// such snapshots: the dual bound covers every plan that swaps each pool direction once,
/// cyclic ones included, so the bound is at least the plan's value, and it also counts the
/// cyclic profit a plan could add (the gap can then exceed the usual 1e-6).
///
/// # Errors
/// [`RouteError::BadRequest`] for a malformed request or an option beyond its range
/// (`max_hops` outside 1 to [`MAX_HOPS_LIMIT`], a gas price not finite or below 0, a slippage
/// outside [0, 1]), [`RouteError::TokenOutOfRange`], [`RouteError::UnknownSource`] for a
/// whitelisted source id no pool has (with the near miss),
/// [`RouteError::NoRoute`] when no path joins an input to an output,
/// [`RouteError::TooManyHops`] when paths exist only with more hops than `max_hops` (naming
/// the hops needed), [`RouteError::AllRoutesFiltered`] when paths exist only through pools the
/// source filters exclude (naming the filter), and, paths existing:
/// [`RouteError::AmountTooSmall`] when every plan gives 0 of the output (dust),
/// [`RouteError::InsufficientLiquidity`] when every plan reverts for want of liquidity or by
/// overflow (an amount beyond what the pools can take; for exact-out, an amount at or above
/// what the pools holding the output hold), [`RouteError::Simulation`] naming the first pool
/// that reverted otherwise.
///
/// # Memory
/// Linear in the snapshot whatever the options: vectors per token, per edge of the working
/// set and per flow, and `max_hops` (at most [`MAX_HOPS_LIMIT`]) rows per token for the
/// single-path programme.
///
/// # Complexity
/// O(H·E) for pruning and valuation (E directed edges, H hops), then O(E) per dual evaluation
/// (tens of evaluations) and per Newton step, over the A tokens touched by active edges, O(A³)
/// up to 48 tokens, above that truncated CG (O(active edges) per iteration) or, near the
/// optimum, a sparse elimination with a dense core of at most 160 tokens.
pub fn quote(graph: &PoolGraph, req: &RouteRequest) -> Result<Plan, RouteError> {
    if let Some(wanted) = req.exact_out {
        return exact_out::quote_exact_out(graph, req, wanted);
    }
    let mut ctx = prepare_ctx(graph, req)?;
    let gas = ctx.gas().is_some();
    let plan = ctx.run(false)?.0;
    Ok(if gas {
        gas::best_net(graph, req, plan)
    } else {
        plan
    })
}

/// The dual bound alone: an upper bound on the objective of any plan for this request (the
/// same number as [`Plan::upper_bound`], without recovering a plan).
///
/// # Errors
/// As [`quote`], except [`RouteError::Simulation`].
///
/// # Complexity
/// As [`quote`] without the exact simulation.
pub fn dual_bound(graph: &PoolGraph, req: &RouteRequest) -> Result<f64, RouteError> {
    Ok(prepare_ctx(graph, req)?.run(true)?.1)
}

/// Why token `t` has no usable edge (`d_other`: the filtered distances from `t`'s side to the
/// other side's tokens `others`, `forward` for an input): a path exists only with more hops
/// than allowed ([`RouteError::TooManyHops`]), only through pools the source filters exclude
/// ([`RouteError::AllRoutesFiltered`]), or not at all ([`RouteError::NoRoute`]).
fn why_no_route(
    cache: &EdgeCache,
    n: usize,
    filters: Option<(&PoolGraph, &RouteRequest)>,
    d_other: &[usize],
    (t, others, forward): (TokenId, &[TokenId], bool),
    hops: usize,
) -> RouteError {
    if let Some(d) = d_other.get(t.index()).filter(|d| **d != UNREACHED) {
        return RouteError::TooManyHops {
            max: hops,
            needed: *d,
        };
    }
    let Some((graph, req)) = filters else {
        return RouteError::NoRoute;
    };
    // the same search without a filter: one BFS from `t` per filter left out
    let reaches = |mask: Option<&[bool]>| {
        let free = bfs(cache, n, mask, &[t], forward);
        others
            .iter()
            .any(|o| free.get(o.index()).is_some_and(|d| *d != UNREACHED))
    };
    if !reaches(None) {
        return RouteError::NoRoute;
    }
    let without = |white: bool| {
        let mut r = req.clone();
        if white {
            r.source_whitelist = None;
        } else {
            r.source_blacklist = Vec::new();
        }
        allowed_pools(graph, &r)
    };
    let filter = if reaches(without(true).as_deref()) {
        RouteFilter::SourceWhitelist
    } else if reaches(without(false).as_deref()) {
        RouteFilter::SourceBlacklist
    } else {
        RouteFilter::SourceWhitelistAndBlacklist
    };
    RouteError::AllRoutesFiltered { filter }
}

fn prepare_ctx<'a>(graph: &'a PoolGraph, req: &'a RouteRequest) -> Result<Ctx<'a>, RouteError> {
    let prep = prepare(graph, req)?;
    let n = graph.n_tokens();
    let cache = graph.edge_cache();
    let mask_owned = allowed_pools(graph, req);
    let mask = mask_owned.as_deref();
    let in_toks: Vec<TokenId> = prep.inputs.iter().map(|x| x.0).collect();
    let out_toks: Vec<TokenId> = prep.outputs.iter().map(|x| x.0).collect();
    let single_out = out_toks.len() == 1;
    let single_in = in_toks.len() == 1;
    let is_in = |t: TokenId| in_toks.contains(&t);
    let is_out = |t: TokenId| out_toks.contains(&t);
    // 1. prune
    let d_in = bfs(cache, n, mask, &in_toks, true);
    let d_out = bfs(cache, n, mask, &out_toks, false);
    let hops = req.max_hops.unwrap_or(DEFAULT_MAX_HOPS);
    let sel: Vec<usize> = cache
        .hot()
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            if !allowed(mask, e.pool) {
                return false;
            }
            let a = d_in.get(e.ti.index()).copied().unwrap_or(UNREACHED);
            let b = d_out.get(e.to.index()).copied().unwrap_or(UNREACHED);
            a != UNREACHED
                && b != UNREACHED
                && a.saturating_add(b).saturating_add(1) <= hops
                && !(single_out && is_out(e.ti))
                && !(single_in && is_in(e.to))
        })
        .map(|(k, _)| k)
        .collect();
    let hot = cache.hot();
    let edges: Vec<&GEdge> = sel.iter().filter_map(|k| cache.edges().get(*k)).collect();
    for t in in_toks.iter().chain(&out_toks) {
        let ok = sel
            .iter()
            .filter_map(|k| hot.get(*k))
            .any(|e| e.ti == *t || e.to == *t);
        if !ok {
            let side = if is_in(*t) {
                (&d_out, (*t, out_toks.as_slice(), true))
            } else {
                (&d_in, (*t, in_toks.as_slice(), false))
            };
            let filters = mask.is_some().then_some((graph, req));
            return Err(why_no_route(cache, n, filters, side.0, side.1, hops));
        }
    }
    // 2. valuation (mid prices in units of the first output)
    let out0 = *out_toks
        .first()
        .ok_or(RouteError::BadRequest("no outputs"))?;
    let fwd0 = best_rates(cache, n, mask, out0, hops);
    let mut vout = Vec::with_capacity(out_toks.len());
    for (k, t) in out_toks.iter().enumerate() {
        if k == 0 {
            vout.push(1.0);
        } else {
            let f = best_rates(cache, n, mask, *t, hops);
            let v = mid_value(&f, &fwd0, *t, out0);
            if !(v > 0.0) {
                return Err(RouteError::NoRoute);
            }
            vout.push(v);
        }
    }
    let mut vin = Vec::with_capacity(in_toks.len());
    for t in &in_toks {
        let f = best_rates(cache, n, mask, *t, hops);
        vin.push(mid_value(&f, &fwd0, *t, out0));
    }
    Ok(Ctx {
        graph,
        req,
        prep,
        edges,
        vout,
        vin,
        out_toks,
        in_toks,
        d_in,
        d_out,
        in_ws: {
            let mut w = vec![false; cache.hot().len()];
            for k in &sel {
                w[*k] = true;
            }
            w
        },
        sel,
        mask: mask_owned,
    })
}

/// Everything one quote needs after pruning.
struct Ctx<'a> {
    graph: &'a PoolGraph,
    req: &'a RouteRequest,
    prep: Prepared,
    /// the pruned edges (the graph's, in its order)
    edges: Vec<&'a GEdge>,
    vout: Vec<f64>,
    vin: Vec<f64>,
    out_toks: Vec<TokenId>,
    in_toks: Vec<TokenId>,
    d_in: Vec<usize>,
    d_out: Vec<usize>,
    /// the graph's edge ids of `edges`: the working set
    sel: Vec<usize>,
    /// per graph edge, whether it is in the working set
    in_ws: Vec<bool>,
    /// the source filters' pool mask (`None`: every pool allowed)
    mask: Option<Vec<bool>>,
}

/// The working set in local token indices ([`Ctx::localize`]).
struct Local {
    /// local index of each graph token (`usize::MAX`: outside)
    loc: Vec<usize>,
    /// graph token of each local index
    glob: Vec<TokenId>,
    ledges: Vec<LEdge>,
    dedges: Vec<DEdge>,
    /// inputs per local token
    b: Vec<f64>,
    /// objective weights per local token (outputs)
    c: Vec<f64>,
    is_out: Vec<bool>,
    /// the Gauss–Seidel order (by hop distance from the inputs)
    order: Vec<usize>,
}

/// A pruned edge in local token indices with the fields the passes over all edges read, a
/// quarter of the whole edge.
#[derive(Debug, Clone, Copy)]
struct LEdge {
    ti: usize,
    to: usize,
    rate0: f64,
    kind: PoolKind,
    cheap_out: bool,
}

/// Steps and the amounts of the outputs.
type Settled = (Vec<Step>, Vec<U256>);

/// Flow-drop attempts of one recovery (each drops at least one flow).
const RECOVER_ATTEMPTS: usize = 32;

/// A failed propagation: the working-set edge whose flow to drop, and the revert when the
/// edge's exact swap reverted (`None`: a cycle, a stranded amount, an overflow of the split).
struct DropEdge {
    e: usize,
    revert: Option<crate::error::PoolError>,
}

impl From<usize> for DropEdge {
    fn from(e: usize) -> Self {
        DropEdge { e, revert: None }
    }
}

/// The evolving pool states of one simulation: only the pools swapped so far are stored
/// (a slot per pool of the graph, and the states), so a simulation on a large graph does not
/// allocate and clear a pool-sized state for every pool.
struct PoolStates {
    slot: Vec<usize>,
    pools: Vec<Pool>,
}

impl PoolStates {
    fn new(n_pools: usize) -> Self {
        PoolStates {
            slot: vec![usize::MAX; n_pools],
            pools: Vec::new(),
        }
    }

    /// The current state of `p` when it was swapped in this simulation.
    fn get(&self, p: PoolId) -> Option<&Pool> {
        self.slot.get(p.index()).and_then(|k| self.pools.get(*k))
    }

    /// Record the state of `p` after a swap.
    fn set(&mut self, p: PoolId, pool: Pool) {
        let Some(k) = self.slot.get_mut(p.index()) else {
            return;
        };
        match self.pools.get_mut(*k) {
            Some(x) => *x = pool,
            None => {
                *k = self.pools.len();
                self.pools.push(pool);
            }
        }
    }
}

/// A candidate plan before it becomes a [`Plan`].
#[derive(Debug, Clone)]
struct Candidate {
    /// pools whose swap reverted while this candidate was recovered, left out of it
    excluded: Vec<Excluded>,
    steps: Vec<Step>,
    outs: Vec<U256>,
    value: f64,
    gas: u64,
    net: f64,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The working set in local token indices: inputs and outputs first, then every token an
    /// edge of the working set touches.
    fn localize(&self) -> Local {
        let n = self.graph.n_tokens();
        let mut loc = vec![usize::MAX; n];
        let mut glob: Vec<TokenId> = Vec::new();
        let touch = |t: TokenId, loc: &mut Vec<usize>, glob: &mut Vec<TokenId>| {
            if loc[t.index()] == usize::MAX {
                loc[t.index()] = glob.len();
                glob.push(t);
            }
        };
        for t in self.in_toks.iter().chain(&self.out_toks) {
            touch(*t, &mut loc, &mut glob);
        }
        let mut ledges = Vec::with_capacity(self.sel.len());
        for e in self.sel.iter().map(|k| &self.graph.edge_cache().hot()[*k]) {
            touch(e.ti, &mut loc, &mut glob);
            touch(e.to, &mut loc, &mut glob);
            ledges.push(LEdge {
                ti: loc[e.ti.index()],
                to: loc[e.to.index()],
                rate0: e.rate0,
                kind: e.kind,
                cheap_out: e.cheap_out,
            });
        }
        let nl = glob.len();
        let mut b = vec![0.0; nl];
        for (t, a) in &self.prep.inputs {
            b[loc[t.index()]] += u256_to_f64(*a);
        }
        let mut c = vec![0.0; nl];
        let mut is_out = vec![false; nl];
        for ((t, w), v) in self.prep.outputs.iter().zip(&self.vout) {
            c[loc[t.index()]] = w / v;
            is_out[loc[t.index()]] = true;
        }
        let mut order: Vec<usize> = (0..nl).collect();
        order.sort_by_key(|k| {
            (
                self.d_in
                    .get(glob[*k].index())
                    .copied()
                    .unwrap_or(UNREACHED),
                *k,
            )
        });
        let dedges: Vec<DEdge> = self
            .edges
            .iter()
            .zip(&ledges)
            .map(|(e, l)| DEdge {
                ti: l.ti,
                to: l.to,
                m: e.m,
                rate0: e.rate0,
            })
            .collect();
        Local {
            loc,
            glob,
            ledges,
            dedges,
            b,
            c,
            is_out,
            order,
        }
    }

    /// Starting prices: the outputs at their values, every other token at its best bid chain
    /// into them (tokens with none at a millionth of the least price).
    fn bid_prices(&self, lc: &Local) -> Vec<f64> {
        let nl = lc.glob.len();
        let mut nu0 = vec![0.0f64; nl];
        for ((t, _), v) in self.prep.outputs.iter().zip(&self.vout) {
            nu0[lc.loc[t.index()]] = *v;
        }
        // (a pass that changes nothing leaves the same input to the next: stop there)
        for _ in 0..=self.hops().saturating_mul(2) {
            let mut changed = false;
            for e in &lc.ledges {
                let (i, o) = (e.ti, e.to);
                let cand = nu0[o] * e.rate0;
                if cand > nu0[i] && !lc.is_out[i] {
                    nu0[i] = cand;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        nu0
    }

    /// The hop radius of the first working set (the request's limit, or [`DEFAULT_MAX_HOPS`]).
    fn hops(&self) -> usize {
        self.req.max_hops.unwrap_or(DEFAULT_MAX_HOPS)
    }

    /// Solve the dual on the working set and certify it on the whole graph; while edges
    /// outside the working set are profitable at the optimal prices, add them (with the bid
    /// chains that price their output token) and solve again. Returns the final working set
    /// in local indices, its prices and the bound.
    fn solve_certified(&mut self) -> (Local, Vec<f64>, f64) {
        let mut prev: Option<Vec<f64>> = None;
        let mut round = 0;
        loop {
            let lc = self.localize();
            let mut nu = match &prev {
                None => self.bid_prices(&lc),
                Some(g) => lc.glob.iter().map(|t| g[t.index()]).collect(),
            };
            let tiny = nu
                .iter()
                .copied()
                .filter(|v| *v > 0.0)
                .fold(f64::INFINITY, f64::min);
            for v in &mut nu {
                if !(*v > 0.0) {
                    *v = if tiny.is_finite() { tiny * 1e-6 } else { 1.0 };
                }
            }
            let du = Dual::new(lc.glob.len(), &lc.dedges, &lc.b, &lc.c);
            du.solve(&mut nu, &lc.order, &lc.is_out, 80);
            round += 1;
            let cert = self.certify(&lc, &nu, &du.eval(&nu).act, round >= COLGEN_ROUNDS);
            if cert.add.is_empty() || round >= COLGEN_ROUNDS {
                return (lc, nu, cert.bound);
            }
            for k in cert.add {
                if let Some(e) = self.graph.edge_cache().edges().get(k) {
                    if !self.in_ws[k] {
                        self.in_ws[k] = true;
                        self.sel.push(k);
                        self.edges.push(e);
                    }
                }
            }
            prev = Some(cert.nu);
        }
    }

    /// The request's gas model where the chain prices gas (not chain 101).
    fn gas(&self) -> Option<GasModel> {
        if self.graph.chain_id() == CHAIN_101 {
            None
        } else {
            self.req.gas
        }
    }

    fn run(&mut self, bound_only: bool) -> Result<(Plan, f64), RouteError> {
        let gas = self.gas();
        let (lc, nu, bound) = self.solve_certified();
        if bound_only {
            return Ok((Plan::default(), bound));
        }
        let Local {
            loc,
            glob,
            ledges,
            mut dedges,
            b,
            c,
            is_out,
            order,
        } = lc;
        let nl = glob.len();
        // `idx[k]` is the working-set edge of `dedges[k]`; a gas round removes its dropped edge
        // from both
        let mut idx: Vec<usize> = (0..self.edges.len()).collect();
        // every exact swap that reverted in a recovery, to say why when no plan survives
        let mut reverts: Vec<Excluded> = Vec::new();
        // the best single path, for one input and one output: it does not depend on the dual,
        // and runs while the edges it reads are in cache from the passes above
        let single = if !bound_only && self.in_toks.len() == 1 && self.out_toks.len() == 1 {
            self.single_path(gas, &ledges, &loc, nl, &mut reverts)?
        } else {
            None
        };
        let mut best: Option<Candidate> = None;
        let mut nu = nu;
        let mut no_gain = 0;
        for round in 0..24 {
            let du = Dual::new(nl, &dedges, &b, &c);
            // round 0 reuses the certified solution; a gas round re-solves without its edge
            if round > 0 {
                du.solve(&mut nu, &order, &is_out, 80);
            }
            let ev = du.eval(&nu);
            let h = du.h(&nu, &ev);
            // flows, keep amounts at the outputs
            let thr = 1e-13 * h.abs();
            let mut flows: Vec<Flow> = Vec::new();
            for &(k, a) in &ev.act {
                if a.x * nu[dedges[k].ti] > thr {
                    flows.push(Flow { e: idx[k], x: a.x });
                }
            }
            // an input too small for the flow threshold still has to be spent: it leaves
            // through its best edge into an output or a token the flows leave
            for (t, _) in &self.prep.inputs {
                let lt = loc[t.index()];
                if flows.iter().any(|f| self.edges[f.e].ti == *t) {
                    continue;
                }
                let onward = |to: usize| {
                    is_out[to] || flows.iter().any(|f| loc[self.edges[f.e].ti.index()] == to)
                };
                let best_edge = dedges
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.ti == lt && onward(e.to))
                    .map(|(k, e)| (k, e.rate0 * nu[e.to]))
                    .max_by(|x, y| x.1.total_cmp(&y.1));
                if let Some((k, _)) = best_edge {
                    flows.push(Flow { e: idx[k], x: 0.0 });
                }
            }
            let keep: Vec<(TokenId, f64)> = self
                .out_toks
                .iter()
                .map(|t| (*t, ev.grad[loc[t.index()]].max(0.0)))
                .collect();
            let cand = self.recover(&flows, &keep, gas, &mut reverts)?;
            if let Some(cand) = cand {
                if best.as_ref().map_or(true, |b| cand.net > b.net) {
                    best = Some(cand);
                    no_gain = 0;
                }
            }
            // gas: drop the active edge whose arbitrage profit (its surplus at the optimal
            // prices, what removing it costs to first order) falls shortest of its step's gas,
            // re-solve, keep the best plan net of gas; stop when every edge pays or five
            // drops in a row did not improve the net output
            let Some(gm) = gas else { break };
            let mut worst: Option<(f64, usize)> = None;
            for &(k, a) in &ev.act {
                let profit = nu[dedges[k].to] * a.o - nu[dedges[k].ti] * a.x;
                let kind = ledges[idx[k]].kind;
                let cost = gm.units(kind) as f64 * gm.gas_price * self.cost_scale(&nu, &loc);
                let short = profit - cost;
                if short < 0.0 && worst.map_or(true, |(w, _)| short < w) {
                    worst = Some((short, k));
                }
            }
            let Some((_, drop)) = worst else { break };
            idx.remove(drop);
            dedges.remove(drop);
            if round > 0 {
                no_gain += 1;
            }
            if no_gain > 4 {
                break;
            }
        }
        if let Some(sp) = single {
            if best.as_ref().map_or(true, |b| sp.net > b.net) {
                best = Some(sp);
            }
        }
        let best = match best {
            Some(b) if b.outs.iter().any(|o| !o.is_zero()) => b,
            Some(_) => return Err(self.no_plan(&reverts, true)),
            None => return Err(self.no_plan(&reverts, false)),
        };
        Ok((self.finish(best, bound)?, bound))
    }

    /// Why no plan survived the exact simulation, paths existing: every plan found gave 0 out
    /// (`zero`) or every revert was a dust revert ([`RouteError::AmountTooSmall`]); a revert
    /// for want of liquidity or by overflow ([`RouteError::InsufficientLiquidity`]); else the
    /// first pool that reverted ([`RouteError::Simulation`]), or [`RouteError::NoRoute`] when
    /// nothing reverted (every candidate closed a cycle or stranded an amount).
    fn no_plan(&self, reverts: &[Excluded], zero: bool) -> RouteError {
        use crate::error::{MathError, PoolError as E};
        let from = self.in_toks.first().copied().unwrap_or(TokenId(0));
        let to = self.out_toks.first().copied().unwrap_or(TokenId(0));
        let dust = |e: &E| matches!(e, E::InsufficientOutputAmount | E::InsufficientInputAmount);
        let deep = |e: &E| {
            matches!(
                e,
                E::InsufficientLiquidity
                    | E::UnreachableOutput
                    | E::ReserveOverflow
                    | E::Math(MathError::Overflow)
            )
        };
        if zero || (!reverts.is_empty() && reverts.iter().all(|x| dust(&x.error))) {
            return RouteError::AmountTooSmall { from, to };
        }
        if reverts.iter().any(|x| deep(&x.error)) {
            return RouteError::InsufficientLiquidity { from, to };
        }
        match reverts.first() {
            Some(x) => RouteError::Simulation {
                pool: self
                    .graph
                    .pool(x.pool)
                    .map_or_else(String::new, |p| p.id.clone()),
                error: x.error,
            },
            None => RouteError::NoRoute,
        }
    }

    /// Output units per unit of dual value (ν of the first output, c·ν = 1).
    fn cost_scale(&self, nu: &[f64], loc: &[usize]) -> f64 {
        self.out_toks.first().map_or(1.0, |t| nu[loc[t.index()]])
    }

    fn objective(&self, outs: &[U256]) -> f64 {
        let mut t = f64::INFINITY;
        for ((o, (_, w)), v) in outs.iter().zip(&self.prep.outputs).zip(&self.vout) {
            t = t.min(u256_to_f64(*o) * v / w);
        }
        t
    }

    /// A settled simulation as a candidate: its objective, gas units and value net of gas.
    fn candidate(&self, (steps, outs): Settled, gas: Option<GasModel>) -> Candidate {
        let value = self.objective(&outs);
        let (units, cost) = self.gas_of(&steps, gas);
        Candidate {
            excluded: Vec::new(),
            steps,
            outs,
            value,
            gas: units,
            net: value - cost,
        }
    }

    fn gas_of(&self, steps: &[Step], gas: Option<GasModel>) -> (u64, f64) {
        let Some(gm) = gas else { return (0, 0.0) };
        let mut units = 0u64;
        for s in steps {
            if let Step::Swap { pool, .. } = s {
                let kind = self
                    .graph
                    .pool(*pool)
                    .map_or(PoolKind::ConstantProduct, |p| p.kind);
                units = units.saturating_add(gm.units(kind));
            }
        }
        (units, units as f64 * gm.gas_price)
    }

    /// Exact forward propagation of flows; drops edges that fail to simulate or close a cycle.
    ///
    /// A pool whose swap reverts is quarantined for this candidate: its flow is dropped, the
    /// rest propagated again, and the pool listed on the candidate's `excluded` (and pushed
    /// on `reverts`). The dual bound keeps the pool (it bounds plans that could use it).
    fn recover(
        &self,
        flows: &[Flow],
        keep: &[(TokenId, f64)],
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let mut flows: Vec<Flow> = flows.to_vec();
        self.prune_dead_ends(&mut flows);
        let mut excluded: Vec<Excluded> = Vec::new();
        // each attempt drops at least one flow; a bound on the work all the same
        for _attempt in 0..RECOVER_ATTEMPTS {
            if flows.is_empty() {
                return Ok(None);
            }
            match self.propagate(&flows, keep) {
                Ok(settled) => {
                    let mut c = self.candidate(settled, gas);
                    excluded.retain(|x| {
                        !c.steps
                            .iter()
                            .any(|s| matches!(s, Step::Swap { pool, .. } if *pool == x.pool))
                    });
                    c.excluded = excluded;
                    return Ok(Some(c));
                }
                Err(drop) => {
                    if let Some(error) = drop.revert {
                        if let Some(f) = flows.iter().find(|f| f.e == drop.e) {
                            let x = Excluded {
                                pool: self.edges[f.e].pool,
                                error,
                            };
                            if !excluded.iter().any(|y| y.pool == x.pool) {
                                excluded.push(x);
                            }
                            reverts.push(x);
                        }
                    }
                    flows.retain(|f| f.e != drop.e);
                    self.prune_dead_ends(&mut flows);
                }
            }
        }
        Ok(None)
    }

    /// Drop flows into a token (not an output) that no kept flow leaves: at a dual point a
    /// token whose outflows fell below the flow threshold may still show inflows (its balance
    /// is off by the float residual), and propagating them would strand the amount there.
    /// Repeated until every kept flow ends at an output or continues.
    fn prune_dead_ends(&self, flows: &mut Vec<Flow>) {
        let n = self.graph.n_tokens();
        let mut leaving = vec![0usize; n];
        for f in flows.iter() {
            if let Some(c) = leaving.get_mut(self.edges[f.e].ti.index()) {
                *c += 1;
            }
        }
        let mut kept = vec![true; flows.len()];
        loop {
            let mut changed = false;
            for (f, k) in flows.iter().zip(kept.iter_mut()) {
                let e = &self.edges[f.e];
                if *k
                    && !self.out_toks.contains(&e.to)
                    && leaving.get(e.to.index()).copied().unwrap_or(0) == 0
                {
                    *k = false;
                    if let Some(c) = leaving.get_mut(e.ti.index()) {
                        *c = c.saturating_sub(1);
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut k = kept.iter();
        flows.retain(|_| k.next().copied().unwrap_or(true));
    }

    /// Propagate; on failure returns the edge to drop (and the revert, when a swap reverted).
    fn propagate(&self, flows: &[Flow], keep: &[(TokenId, f64)]) -> Result<Settled, DropEdge> {
        let n = self.graph.n_tokens();
        let mut indeg = vec![0usize; n];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, f) in flows.iter().enumerate() {
            let e = &self.edges[f.e];
            indeg[e.to.index()] += 1;
            outs[e.ti.index()].push(k);
        }
        let mut nodes: Vec<usize> = Vec::new();
        let mut seen = vec![false; n];
        for f in flows {
            let e = &self.edges[f.e];
            for t in [e.ti.index(), e.to.index()] {
                if !seen[t] {
                    seen[t] = true;
                    nodes.push(t);
                }
            }
        }
        for (t, _) in &self.prep.inputs {
            if !seen[t.index()] {
                seen[t.index()] = true;
                nodes.push(t.index());
            }
        }
        nodes.sort_unstable();
        // topological order (Kahn, smallest id first among the ready ones)
        let mut ready: alloc::collections::BTreeSet<usize> =
            nodes.iter().copied().filter(|t| indeg[*t] == 0).collect();
        let mut topo = Vec::with_capacity(nodes.len());
        let mut indeg2 = indeg.clone();
        while let Some(t) = ready.pop_first() {
            topo.push(t);
            for &k in &outs[t] {
                let to = self.edges[flows[k].e].to.index();
                indeg2[to] -= 1;
                if indeg2[to] == 0 {
                    ready.insert(to);
                }
            }
        }
        if topo.len() < nodes.len() {
            // a cycle: drop its smallest-value edge
            let mut worst: Option<(f64, usize)> = None;
            for f in flows {
                let e = &self.edges[f.e];
                if indeg2[e.ti.index()] > 0 || indeg2[e.to.index()] > 0 {
                    let v = f.x;
                    if worst.map_or(true, |(w, _)| v < w) {
                        worst = Some((v, f.e));
                    }
                }
            }
            return Err(worst.map_or(flows[0].e, |w| w.1).into());
        }
        let mut hold = vec![U256::zero(); n];
        for (t, a) in &self.prep.inputs {
            hold[t.index()] = *a;
        }
        let mut states = PoolStates::new(self.graph.n_pools());
        let mut steps = Vec::new();
        const ONE: u64 = 1 << 52;
        for t in topo {
            // a token spends all it holds (inputs and intermediates; an output keeps its share)
            let s = hold[t];
            let mut ks = outs[t].clone();
            if ks.is_empty() || s.is_zero() {
                continue;
            }
            ks.sort_by(|a, b| {
                flows[*b]
                    .x
                    .partial_cmp(&flows[*a].x)
                    .unwrap_or(core::cmp::Ordering::Equal)
                    .then(a.cmp(b))
            });
            // An SPL Token Swap leg may take less than it is offered, and so may a
            // concentrated-liquidity leg whose known ticks run out (`Pool::exact_offer`): the
            // remainder edge, which runs last and takes what the others leave, is the largest
            // edge whose pool takes its whole offer, where there is one.
            let takes_all = |k: &usize| {
                self.graph
                    .pool(self.edges[flows[*k].e].pool)
                    .map_or(true, |p| {
                        !matches!(
                            p.pool,
                            Pool::SplTokenSwap(_) | Pool::ConcentratedLiquidity(_)
                        )
                    })
            };
            if let Some(p) = ks.iter().position(takes_all).filter(|p| *p > 0) {
                ks[..=p].rotate_right(1);
            }
            let kp = keep
                .iter()
                .find(|(x, _)| x.index() == t)
                .map_or(0.0, |k| k.1);
            let is_output = keep.iter().any(|(x, _)| x.index() == t);
            let tot: f64 = ks.iter().map(|k| flows[*k].x).sum::<f64>() + kp;
            // every edge gets the floor of its fraction of the holding; a token that is not an
            // output spends the rest on its largest edge (`ks[0]`), which runs last
            let mut amts = vec![U256::zero(); ks.len()];
            let mut used = U256::zero();
            for (p, k) in ks.iter().enumerate() {
                if p == 0 && !is_output {
                    continue;
                }
                let fr = (flows[*k].x / tot).clamp(0.0, 1.0);
                let q = (fr * ONE as f64) as u64;
                amts[p] = math::mul_div(s, U256::from(q), U256::from(ONE))
                    .map_err(|_| DropEdge::from(flows[*k].e))?;
                used = used.saturating_add(amts[p]);
            }
            let rem = (!is_output).then_some(0);
            let order = (0..ks.len()).filter(|p| Some(*p) != rem).chain(rem);
            for p in order {
                let k = ks[p];
                let e = &self.edges[flows[k].e];
                let is_rem = Some(p) == rem;
                let a = if is_rem {
                    s.checked_sub(used).ok_or(flows[ks[0]].e)?
                } else {
                    amts[p]
                };
                if a.is_zero() {
                    continue;
                }
                let cur = match states.get(e.pool) {
                    Some(p) => p,
                    None => &self.graph.pool(e.pool).ok_or(flows[k].e)?.pool,
                };
                let (taken, o, next) = match cur.swap_taken(e.i, e.j, a) {
                    Ok(x) => x,
                    // A split edge whose swap reverts (typically a sliver of a low-value token
                    // that rounds to no output) leaves its amount to the remainder edge, which
                    // runs last, or on the output token itself.
                    Err(_) if !is_rem => {
                        used = used.saturating_sub(a);
                        continue;
                    }
                    Err(error) => {
                        return Err(DropEdge {
                            e: flows[k].e,
                            revert: Some(error),
                        })
                    }
                };
                // What the pool does not take stays held: a split edge leaves it to the
                // remainder edge; the remainder edge's is refunded (unless the token is an
                // output, whose holding is its output).
                let left = a.saturating_sub(taken);
                let a = taken;
                if is_rem && !is_output {
                    // [`Ctx::finish`] lists it in the refunds from the steps
                    hold[t] = hold[t].checked_sub(left).ok_or(flows[k].e)?;
                } else {
                    used = used.saturating_sub(left);
                }
                states.set(e.pool, next);
                hold[t] = hold[t].checked_sub(a).ok_or(flows[k].e)?;
                hold[e.to.index()] = hold[e.to.index()].checked_add(o).ok_or(flows[k].e)?;
                steps.push(Step::Swap {
                    pool: e.pool,
                    token_in: e.ti,
                    token_out: e.to,
                    amount_in: a,
                    amount_out: o,
                });
            }
            if is_output && used > s {
                return Err(flows[ks[0]].e.into());
            }
        }
        // every input is spent exactly and nothing is stranded on an intermediate token (a token
        // reached by flows whose own flows were dropped): drop an edge into it and try again
        for (t, h) in hold.iter().enumerate() {
            if h.is_zero() || self.out_toks.iter().any(|x| x.index() == t) {
                continue;
            }
            let into = flows.iter().find(|f| self.edges[f.e].to.index() == t);
            let out_of = flows.iter().find(|f| self.edges[f.e].ti.index() == t);
            let f = into.or(out_of).map_or(flows[0].e, |f| f.e);
            return Err(f.into());
        }
        Ok(self.settle(steps, &hold))
    }

    /// The outputs of a simulation that spent everything else.
    fn settle(&self, steps: Vec<Step>, hold: &[U256]) -> Settled {
        let outs = self
            .out_toks
            .iter()
            .map(|t| hold.get(t.index()).copied().unwrap_or_default())
            .collect();
        (steps, outs)
    }

    /// Best single path (hop-bounded DP on float amounts), simulated exactly. `ledges` are the
    /// pruned edges in local indices (`loc`, `nl` tokens).
    fn single_path(
        &self,
        gas: Option<GasModel>,
        ledges: &[LEdge],
        loc: &[usize],
        nl: usize,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let (src, amt) = self.prep.inputs[0];
        let dst = self.out_toks[0];
        let (ls, ld) = (loc[src.index()], loc[dst.index()]);
        let gm_price = gas.map_or(0.0, |g| g.gas_price);
        let mut layer = vec![0.0f64; nl];
        layer[ls] = u256_to_f64(amt);
        let mut next = vec![0.0f64; nl];
        let mut parents: Vec<Vec<usize>> = Vec::with_capacity(self.hops());
        let mut best: Option<(f64, usize)> = None;
        let mut cost_layer = 0.0;
        // Paths stay simple: a token already on the path to `u` (reached in `l` hops) is not
        // entered again. The float models price every edge on the snapshot state, so a cycle
        // through the same pools (1 → 3 → 1 on two stable pools) can look like a gain of float
        // noise while the exact swaps, on the pools' moved states, lose.
        let on_path = |parents: &[Vec<usize>], u: usize, l: usize, target: usize| {
            let (mut t, mut l) = (u, l);
            loop {
                if t == target {
                    return true;
                }
                let Some(k) = l.checked_sub(1).and_then(|p| parents[p].get(t).copied()) else {
                    return false;
                };
                let Some(e) = ledges.get(k) else { return false };
                t = e.ti;
                l -= 1;
            }
        };
        for h in 0..self.hops() {
            next.fill(0.0);
            let mut par = vec![usize::MAX; nl];
            for (k, e) in ledges.iter().enumerate() {
                let a = layer[e.ti];
                // out is concave with slope rate0 at 0, so out(a) ≤ a·rate0 (the margin covers
                // float noise): an iterative model is not solved when even that cannot beat the
                // best so far (for x·y = k the test costs more than the closed form)
                if a > 0.0 && (e.cheap_out || !(a * e.rate0 * (1.0 + 1e-9) <= next[e.to])) {
                    let o = self.edges[k].m.out(a);
                    if o > next[e.to] && !on_path(&parents, e.ti, h, e.to) {
                        next[e.to] = o;
                        par[e.to] = k;
                    }
                }
            }
            cost_layer += gas.map_or(0.0, |g| {
                g.stableswap.min(g.solidly).min(g.constant_product) as f64
            }) * gm_price;
            let v = next[ld] - cost_layer;
            parents.push(par);
            if next[ld] > 0.0 && best.map_or(true, |(b, _)| v > b) {
                best = Some((v, h));
            }
            core::mem::swap(&mut layer, &mut next);
        }
        let Some((_, hbest)) = best else {
            return Ok(None);
        };
        let mut path = Vec::new();
        let mut t = ld;
        for h in (0..=hbest).rev() {
            let k = parents[h][t];
            if k == usize::MAX {
                return Ok(None);
            }
            path.push(k);
            t = ledges[k].ti;
        }
        path.reverse();
        let mut states = PoolStates::new(self.graph.n_pools());
        let mut a = amt;
        let mut steps = Vec::new();
        for k in path {
            let e = &self.edges[k];
            let cur = match states.get(e.pool) {
                Some(p) => p,
                None => match self.graph.pool(e.pool) {
                    Some(p) => &p.pool,
                    None => return Ok(None),
                },
            };
            // an SPL Token Swap hop may take less than it is offered: the rest of the token is
            // refunded ([`Ctx::finish`] lists it from the steps)
            let (taken, o, next) = match cur.swap_taken(e.i, e.j, a) {
                Ok(x) => x,
                Err(error) => {
                    reverts.push(Excluded {
                        pool: e.pool,
                        error,
                    });
                    return Ok(None);
                }
            };
            states.set(e.pool, next);
            steps.push(Step::Swap {
                pool: e.pool,
                token_in: e.ti,
                token_out: e.to,
                amount_in: taken,
                amount_out: o,
            });
            a = o;
            if a.is_zero() {
                return Ok(None);
            }
        }
        Ok(Some(self.candidate((steps, vec![a]), gas)))
    }

    fn finish(&self, c: Candidate, bound: f64) -> Result<Plan, RouteError> {
        let s = self.req.slippage;
        let keep_num = U256::from(s.denom().saturating_sub(*s.numer()));
        let den = U256::from(*s.denom());
        let mut outputs = Vec::with_capacity(c.outs.len());
        for (t, a) in self.out_toks.iter().zip(&c.outs) {
            outputs.push(Output {
                token: *t,
                amount: *a,
                min_amount: math::mul_div(*a, keep_num, den)?,
            });
        }
        let inputs: Vec<TokenAmount> = self
            .prep
            .inputs
            .iter()
            .map(|(t, a)| TokenAmount {
                token: *t,
                amount: *a,
            })
            .collect();
        // what SPL Token Swap steps did not take of what they were offered
        let refunds = crate::plan::unspent(self.graph, &inputs, &c.steps, &outputs)?;
        let in_value: f64 = self
            .prep
            .inputs
            .iter()
            .zip(&self.vin)
            .map(|((_, a), v)| u256_to_f64(*a) * v)
            .sum();
        let price_impact = if in_value > 0.0 {
            1.0 - c.value / in_value
        } else {
            0.0
        };
        let ub = bound;
        Ok(Plan {
            inputs,
            steps: c.steps,
            outputs,
            refunds,
            zap_fee: None,
            value: c.net,
            upper_bound: if ub.is_finite() { Some(ub) } else { None },
            price_impact,
            gas_units: c.gas,
            gas_price: self.gas().map(|g| g.gas_price),
            bound_max_hops: self.req.max_hops,
            slippage: self.req.slippage,
            excluded: c.excluded,
        })
    }
}

/// Quote many requests against one graph. With the `parallel` feature the requests are spread
/// over rayon's threads; the result order (and every plan) is the same as sequentially.
///
/// # Complexity
/// The sum of the single quotes, divided over the threads.
#[must_use]
pub fn quote_batch(graph: &PoolGraph, reqs: &[RouteRequest]) -> Vec<Result<Plan, RouteError>> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        reqs.par_iter().map(|r| quote(graph, r)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        reqs.iter().map(|r| quote(graph, r)).collect()
    }
}
