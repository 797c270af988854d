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
//!    (hop-bounded dynamic programme) is simulated too and the better plan is returned. Where
//!    the flows chain through a many-coin Curve pool (a coin one of its directions takes and
//!    another sells: depth the dual sees on the snapshot state that the pool swapped in
//!    sequence lacks), the dual solved without that chain gives a plan that competes too.
//!    Where the flows swap such a pool in two or more directions and the snapshot's models
//!    overrate them by 1e-5 of the inputs or more, the dual solved with each direction priced
//!    on the pool's state moved by the others' flows (rounds until the plans settle) gives
//!    another.
//! 5. **Gas** (optional, EVM chains): each step costs `gas units × gas price` in units of the
//!    (first) output; the active edge whose arbitrage profit at the optimal prices falls
//!    shortest of its step's gas is dropped and the problem re-solved, one edge at a time; the
//!    same request is also quoted under every hop cap from 1 to its saturation radius (the
//!    hops past which a cap no longer narrows the working set; at least 6, `GAS_HOP_CAPS`),
//!    and the exactly simulated plan (or single path) with the best output net of gas is
//!    returned, so it never nets less than the request capped at any of those hop counts.
//!    Chain 101 has no gas pricing.
//! 6. **Exact-out** ([`RouteRequest::exact_out`]): the least input whose exact plan delivers the
//!    wanted amount, by exact-in quotes narrowing a bracket to 1e-7 (`exact_out.rs`).
//!
//! **The certificate** (`certify.rs`): the dual is solved on a working set (the edges on paths
//! of at most [`DEFAULT_MAX_HOPS`] hops, or the request's hop limit), then every pool direction
//! of the whole graph that the source filters allow is priced at the solution, tokens outside
//! the working set at their best bid chains. Edges still profitable there are added (column
//! generation) and the dual solved again, until none is. The bound is the dual value over the
//! whole graph, so it holds for plans along paths of any length; with a hop limit it is over
//! the plans within it ([`Plan::bound_max_hops`]). The working set leaves out the edges out of
//! a sole output and into a sole input; where they hold arbitrage at the final prices, the
//! dual is solved once more with them for the bound alone (`Ctx::bound_with_cycles`).
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
//!
//! # Where each step lives
//!
//! One file per step, in the order a quote runs them ([`quote`] and [`dual_bound`] below are
//! the entry points; [`dual_bound`] stops after the certificate; [`weighted_output_bound`] solves it for a weighted sum of outputs):
//!
//! | step | file | what it holds |
//! |---|---|---|
//! | request | `request.rs` | [`RouteRequest`], and its conversion from a validated spec body |
//! | prepare | `prepare.rs` | the request checked and normalised (inputs summed, proportions exact) |
//! | 1. prune, working set | `working_set.rs` | source filters, hop distances, the first working set, why there is no route, the column-generation loop (`solve_certified`) |
//! | 2. values | `mid.rs` | best zero-size rates and mid prices ([`output_mid_prices`]) |
//! | 3. dual | `dual/mod.rs` | `h(ν)` and its minimisation `Dual::solve` as phases: `dual/sweep.rs` (Gauss–Seidel), `dual/newton.rs` (KKT system, line search), `dual/linalg.rs` (dense, sparse direct, conjugate gradients), `dual/tree.rs` (their spanning-forest preconditioner) |
//! | 3. certificate | `certify.rs` | the bound over the whole graph, the columns to add, the rounding slack |
//! | 4. cycles | `cycles.rs` | a cycle of the recovered flows (arbitrage), cut out of the problem before the dual is solved again |
//! | 4. recover | `recover.rs` | the flows of the dual solution, the recovery rounds, dropping failed flows |
//! | 4. propagate | `propagate.rs` | the exact simulation of a set of flows in topological order |
//! | 4. sequenced | `sequenced.rs` | a many-coin Curve pool swapped in several directions: each direction priced on the state the others leave, the dual solved again |
//! | 4. per pair | `pairs.rs` | several inputs or outputs: each input split over the outputs it reaches by their proportions, each share along its best single path |
//! | 4. single path | `single_path.rs` | the best single path (one input, one output), simulated exactly |
//! | 5. cyclic profit | `arbitrage.rs` | the loops cut out of the problem, taken by the chosen plan where they pay |
//! | 5. gas | `gas.rs` | [`GasModel`], the leg that pays least, the best plan net of gas over hop caps |
//! | finish | `finish.rs` | candidates, the [`Plan`] with minimums, refunds and price impact, or why none survived |
//! | warm start | `cache.rs` | [`RouteCache`] and [`quote_cached`]: the last quote's dual prices, kept by the caller, start the next solve of the same pair |
//! | 6. exact-out | `exact_out.rs` | the least input for a wanted output, by exact-in quotes |
//! | weighted bound | `weighted.rs` | [`weighted_output_bound`]: the certificate for a weighted sum of outputs (zap-ins through routed legs) |
//!
//! The float models the dual prices edges with live in the `model` layer (shared with the
//! zaps), the router's directed edges and their index in `edges.rs`, the f64 helpers in
//! `math::float`.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod arbitrage;
mod cache;
mod certify;
mod cycles;
pub(crate) mod dual;
pub(crate) mod edges;
mod exact_out;
mod finish;
mod gas;
mod mid;
mod pairs;
mod prepare;
mod propagate;
mod recover;
mod request;
mod sequenced;
mod single_path;
mod trim;
mod weighted;
mod working_set;
pub use crate::plan::GasModel;
pub use cache::{quote_cached, RouteCache};
pub use mid::output_mid_prices;
pub use request::RouteRequest;
pub use weighted::weighted_output_bound;
pub(crate) use weighted::{claimed_output_bound, Claimed, UnitCost};
// the float models live in the `model` layer; `super::model` names them for the route files
use crate::model;

use crate::error::{PlanField, PlanProblem, RouteError};
use crate::graph::PoolGraph;
use crate::plan::{mismatch, Plan};
use alloc::vec::Vec;
use working_set::{prepare_ctx, Solved};

/// Hop radius of the first working set when the request sets no hop limit: the edges on some
/// path of at most this many hops from an input to an output. Column generation then adds
/// whatever else the optimal prices find profitable, at any distance. 6 rather than 4: on the
/// benchmark's graphs the optimum uses 5- and 6-hop flows, and the extra radius costs little
/// once pruned.
pub const DEFAULT_MAX_HOPS: usize = 6;

/// The largest hop limit a request may set.
pub const MAX_HOPS_LIMIT: usize = 32;

/// Relative margin added to the dual bound (float error and Curve sequential execution).
pub(crate) const BOUND_MARGIN: f64 = 1e-7;

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
/// real snapshot between two blocks does); the router quotes on it as on any other. The
/// recovered flows form a DAG (while the dual's flows close a cycle, a flow of it is cut out
/// of the problem and the dual solved again; the problem on the edges forward in a fixed
/// order competes; for several inputs or outputs so does a per-pair plan of single paths).
/// Plans then **take the cyclic profit of the loops cut**: each loop is entered at a token
/// the chosen plan holds (an input, an intermediate token before its first outflow, an
/// output after the last step), its amount found by a search on the exact loop, its return
/// merged into that token's holding and the rest of the plan simulated again exactly; a loop
/// pool direction the plan already swaps enlarges that step instead of swapping twice (each
/// pool direction at most once per plan), and the result is kept only where its objective
/// net of gas is higher (`arbitrage.rs`). Two-hop loops through a token the plan holds are
/// offered too, found on the whole graph (the working set leaves out the edges out of a sole
/// output and into a sole input, so its flows never run those); longer loops the dual's
/// flows do not run are not taken, and under a hop cap none is. An
/// output the plan would give nothing of is [`RouteError::AmountTooSmall`], never a silent
/// zero; a plan may still buy through the cheap pool of a mispriced pair. The certificate
/// holds on such snapshots: the dual bound covers every plan that swaps each pool direction
/// once, cyclic ones included, so the bound is at least the plan's value; where a loop is
/// left untaken the gap can exceed the usual 1e-6.
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
///
/// # Example
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use num_rational::Ratio;
/// use swapzap::{graph::PoolGraph, route, snapshot::Snapshot, U256};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
/// let snapshot: Snapshot = serde_json::from_str(&std::fs::read_to_string(path)?)?;
/// let graph = PoolGraph::from_snapshot(&snapshot)?;
/// let weth = graph.token_id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a").ok_or("no WETH")?;
/// let usdt = graph.token_id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b").ok_or("no USDT")?;
/// // 10 WETH to USDT with a 1 % slippage limit
/// let mut req = route::RouteRequest::new(vec![(weth, U256::exp10(19))], vec![(usdt, Ratio::from_integer(1))]);
/// req.slippage = Ratio::new(1, 100);
/// let plan = route::quote(&graph, &req)?;
/// let out = plan.outputs[0];
/// assert!(out.token == usdt && out.amount > U256::zero());
/// assert_eq!(out.min_amount, out.amount * 99 / 100); // floor(amount × (1 − 0.01))
/// assert_eq!(plan.inputs[0].amount, U256::exp10(19));
/// # Ok(())
/// # }
/// ```
pub fn quote(graph: &PoolGraph, req: &RouteRequest) -> Result<Plan, RouteError> {
    if let Some(wanted) = req.exact_out {
        return exact_out::quote_exact_out(graph, req, wanted);
    }
    let plan = quote_exact_in(graph, req)?;
    Ok(if gas::priced(graph, req).is_some() {
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
    Ok(prepare_ctx(graph, req)?.solve_certified().bound)
}

/// How far below the router's own bound [`verify_quote`] lets a plan's `upper_bound` be, as a
/// fraction of it: the bound's float margin (`BOUND_MARGIN`), which also covers the last
/// digits in which solves from other starting prices ([`quote_cached`]) end.
pub const VERIFY_BOUND_TOLERANCE: f64 = BOUND_MARGIN;

/// [`Plan::verify_request`] of a router plan against the request it answers
/// ([`crate::plan::PlanRequest::swap`]), and its bound re-derived: the plan's `upper_bound`, when
/// it has one, is not below [`dual_bound`] of the request by more than
/// [`VERIFY_BOUND_TOLERANCE`] of it (for exact-out, the bound of the exact-in request of what
/// the plan spends); where the plan gives its `rounding_slack`, its float bound
/// (`upper_bound − rounding_slack`) is held so to the certificate's instead. A warm solve
/// ([`quote_cached`]) splits the same bound into another slack (8e-7 of it apart on the route
/// bench's market) and its bound can be a few 1e-8 below the certificate's, while the float
/// bounds agree to about 1e-12; so a bound lowered by less than its slack is refused only
/// where it lowers the float bound too. `verify_request` alone holds the bound only to the
/// plan's value; this also refuses a bound lowered toward the value (a gap claimed smaller
/// than the router proves) and a slack raised toward the gap (a plan claimed closer to the
/// float optimum than proven). The plan's `price_impact` must be the
/// one its outputs give at the request's mid prices, to [`VERIFY_IMPACT_TOLERANCE`]. A
/// [`quote`] plan's bound, slack and price impact are the certificate's bit for bit.
///
/// # Errors
/// Those of [`Plan::verify_request`]; [`RouteError::PlanMismatch`] on [`PlanField::UpperBound`]
/// for a bound below the certificate (below its float bound where the plan gives a slack), on
/// [`PlanField::RoundingSlack`] for a float bound below the certificate's, on
/// [`PlanField::PriceImpact`] for another price impact; those of [`dual_bound`] where the
/// request has none.
///
/// # Complexity
/// As [`dual_bound`] (a dual solve and its certificate) plus the exact replay.
pub fn verify_quote(graph: &PoolGraph, req: &RouteRequest, plan: &Plan) -> Result<(), RouteError> {
    plan.verify_request(graph, &crate::plan::PlanRequest::swap(req))?;
    let mut certified = req.clone();
    if certified.exact_out.take().is_some() {
        for (t, a) in &mut certified.inputs {
            *a = plan
                .inputs
                .iter()
                .find(|i| i.token == *t)
                .map_or(primitive_types::U256::zero(), |i| i.amount);
        }
    }
    let mut ctx = prepare_ctx(graph, &certified)?;
    let outs: Vec<primitive_types::U256> = plan.outputs.iter().map(|o| o.amount).collect();
    let impact = ctx.price_impact(ctx.objective(&outs));
    crate::plan::same_price_impact(plan.price_impact, impact, VERIFY_IMPACT_TOLERANCE)?;
    let Some(ub) = plan.upper_bound else {
        return Ok(());
    };
    let Solved { bound, slack, .. } = ctx.solve_certified();
    #[allow(clippy::arithmetic_side_effects)] // f64
    let (tol, float_bound) = (bound.abs() * VERIFY_BOUND_TOLERANCE, bound - slack);
    // A plan with a slack is held to the float bound (`upper_bound − rounding_slack`): the
    // split of a bound into float bound and slack moves with the prices of tokens the plan
    // does not hold, which a warm solve (`quote_cached`) ends at elsewhere (its bound can be
    // below the certificate's by a few 1e-8 of it, its slack above it by 8e-7 on the route
    // bench's market), while the float bound is the same to about 1e-12. A plan without one
    // is held to the whole bound. A bound below even the float bound is the bound's fault.
    #[allow(clippy::arithmetic_side_effects)] // f64
    let (least, certified, field, why) = match plan.rounding_slack {
        Some(s) => (
            ub - s,
            float_bound,
            PlanField::RoundingSlack,
            PlanProblem::FloatBoundBelowCertificate,
        ),
        None => (
            ub,
            bound,
            PlanField::UpperBound,
            PlanProblem::BoundBelowCertificate,
        ),
    };
    #[allow(clippy::arithmetic_side_effects)] // f64
    if ub < float_bound - tol {
        return Err(mismatch(
            PlanField::UpperBound,
            None,
            PlanProblem::BoundBelowCertificate,
        ));
    }
    #[allow(clippy::arithmetic_side_effects)] // f64
    if !(least >= certified - tol) {
        return Err(mismatch(field, None, why));
    }
    Ok(())
}

/// How far [`verify_quote`] lets a plan's `price_impact` be from the one its outputs give at
/// the request's mid prices (a fraction: a quote's is the same bit for bit; the margin is for
/// plans of other builds, whose float sums may end in other last digits).
pub const VERIFY_IMPACT_TOLERANCE: f64 = 1e-9;

/// The exact-in plan of `req` (gas weighed inside, without the hop-cap comparison of
/// [`gas::best_net`]): steps 1 to 4 and 6 of the module docs.
fn quote_exact_in(graph: &PoolGraph, req: &RouteRequest) -> Result<Plan, RouteError> {
    quote_exact_in_trimmed(graph, req, true)
}

/// [`quote_exact_in`] with the trim on or off (`trim`).
fn quote_exact_in_trimmed(
    graph: &PoolGraph,
    req: &RouteRequest,
    trim: bool,
) -> Result<Plan, RouteError> {
    let mut ctx = prepare_ctx(graph, req)?;
    ctx.trim = trim;
    let solved = ctx.solve_certified();
    ctx.plan(solved)
}

/// The exact-in plan of `req` as [`quote`] finds it before the trim (`trim.rs`: the chosen
/// plan's swaps at the least inputs that give the same outputs), gas weighed inside without
/// the hop-cap comparison. For tests that the trim never makes a plan worse; not part of the
/// supported API.
///
/// # Errors
/// As [`quote`].
#[doc(hidden)]
pub fn quote_untrimmed(graph: &PoolGraph, req: &RouteRequest) -> Result<Plan, RouteError> {
    quote_exact_in_trimmed(graph, req, false)
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
