//! Exact-out: the least input whose exact plan delivers a wanted amount of the output.
//!
//! The plan's output as a function of the input amount, `f(a)`, comes from exact-in quotes
//! ([`super::quote`] with the input set to `a`); it is increasing and, for the aggregate model,
//! concave with `f(0) = 0`. The search keeps a bracket `lo < hi` with `f(lo) < wanted ≤
//! f(hi)`, starting from `(0, cap)` (`cap` the request's input amount, the most the user will
//! spend), and narrows it by Newton steps (below) or, where a step does not fit, the Illinois
//! variant of regula falsi (floats only pick the next trial amount; every amount tried is
//! quoted exactly) until `hi − lo ≤ hi / 10^7`. Where two trials in a row have each taken
//! less than a quarter off the bracket, the next one bisects it (by the geometric mean while
//! `hi` is more than 16 times `lo`): `f` is a step function of whole output units where they
//! are few (one unit wanted, or a unit of the output worth many of the input), and regula
//! falsi, whose every trial is then a thousandth of the width from the end it leans to,
//! closed a bracket from the cap by a few percent in its 64 trials. The answer is the plan at
//! `hi`: its exact simulation delivers at least the wanted amount, and any input smaller by
//! more than 1e-7 delivers less.
//!
//! Without a gas model, each trial's dual solve starts from the prices of the trial before it
//! (a [`RouteCache`] kept for the search, as [`super::quote_cached`] does): the trials quote
//! one pair at nearby amounts, so each starts near its optimum. A warm trial's plan may differ
//! from a cold quote of its amount in its last digits (the float path differs), so the answer
//! is re-quoted cold at the amount found: the plan returned is [`quote`]'s plan of the input
//! it spends (a keeper quoting that input exact-in gets the same plan). Where that cold plan
//! delivers less than wanted (the warm one found a few units more), the search runs again
//! with cold trials only.
//! Each trial is then a Newton step on the last trial's marginal rate (the ratio of its
//! plan's dual prices, `f'(a)`), moved a third of the closing width toward the side the last
//! trial was not on: `f` is concave, so the tangent lies above it and its root is at or just
//! below the answer; once the steps are accurate the bracket closes in two trials. A step that
//! leaves the bracket falls back to regula falsi.
//!
//! Where the cap is more than the pools take (its exact-in quote is
//! [`RouteError::InsufficientLiquidity`]: a concentrated-liquidity window ends inside it),
//! the bracket's top is found by bisection between amounts that quote and amounts that do not.
//!
//! With a gas model the trials are the plans net of gas (cold: [`quote`] compares each with
//! its hop caps). Where even the cap's such plan delivers less than wanted, a plan of more
//! steps may still deliver it, paying more gas: the search then runs on the plans without
//! gas, and the one found is priced with the request's model (its gas units, price and net
//! value); [`RouteError::ExactOutUnreachable`] only where no plan delivers the amount.

use super::cache::quote_warm;
use super::{gas, quote, RouteCache, RouteRequest};
use crate::error::{BadRouteRequest, RouteError};
use crate::graph::PoolGraph;
use crate::math::float::{from_f64_floor, to_f64};
use crate::plan::{swap_gas_units, GasModel, Plan};
use crate::units::TokenId;
use primitive_types::U256;

/// The bracket is closed when `hi − lo ≤ hi / EXACT_OUT_PRECISION`.
pub const EXACT_OUT_PRECISION: u64 = 10_000_000;

/// The width at which a bracket topped by `hi` is closed: `hi / EXACT_OUT_PRECISION`, at
/// least one unit.
fn tolerance(hi: U256) -> U256 {
    hi.checked_div(U256::from(EXACT_OUT_PRECISION))
        .unwrap_or_default()
        .max(U256::one())
}

/// At most this many exact-in quotes after the first (bisection alone closes a bracket from a
/// cap of 2^256 down to an answer of one unit in about 40, geometric then arithmetic; a
/// crawling search bisects at least every third trial).
const MAX_TRIALS: usize = 128;

/// The plan of the least input (to 1e-7 of it) that delivers `wanted` of the request's only
/// output, spending at most the request's input amount.
pub(super) fn quote_exact_out(
    graph: &PoolGraph,
    req: &RouteRequest,
    wanted: U256,
) -> Result<Plan, RouteError> {
    let (&[(token, cap)], &[_]) = (req.inputs.as_slice(), req.outputs.as_slice()) else {
        return Err(RouteError::BadRequest(BadRouteRequest::ExactOutShape {
            inputs: req.inputs.len(),
            outputs: req.outputs.len(),
        }));
    };
    if wanted.is_zero() {
        return Err(RouteError::BadRequest(BadRouteRequest::ExactOutZero));
    }
    // every unit delivered leaves some pool holding the output: wanting at least all they
    // hold is beyond any input, not a matter of the cap
    if let Some(to) = req.outputs.first().map(|o| o.0) {
        if wanted >= held(graph, to) {
            return Err(RouteError::InsufficientLiquidity { from: token, to });
        }
    }
    // the trials' warm start (a gas model's hop caps are compared with cold quotes: those
    // trials stay cold)
    if let Some(gm) = gas::priced(graph, req) {
        return match search(graph, req, (token, cap), wanted, Start::Cold) {
            // the plans net of gas at the cap deliver less than wanted, but a plan of more
            // steps may deliver it (it pays more gas): the least input of the plans without
            // gas, priced with the request's gas model; the error only where none delivers
            Err(RouteError::ExactOutUnreachable { .. }) => {
                let mut free = req.clone();
                free.gas = None;
                let p = quote_exact_out(graph, &free, wanted)?;
                Ok(with_gas(graph, p, gm))
            }
            found => found,
        };
    }
    let warm = search(graph, req, (token, cap), wanted, Start::Warm)?;
    // the plan is the cold quote of what it spends (a keeper re-quoting that input exact-in
    // gets this plan): where that delivers less than wanted (a warm trial's float path found a
    // few units more), the search is run again with cold trials only
    let spent = warm.inputs.first().map_or(cap, |i| i.amount);
    if let Ok(cold) = quote_at(graph, req, (token, spent), None) {
        if out(&cold) >= wanted {
            return Ok(cold);
        }
    }
    search(graph, req, (token, cap), wanted, Start::ColdRates)
}

/// `p`, a plan quoted without gas, priced under the gas model `gm`: its swap steps' gas units,
/// the model's price and its value net of that gas (its one output's amount less the cost).
fn with_gas(graph: &PoolGraph, p: Plan, gm: GasModel) -> Plan {
    let units = swap_gas_units(&p.steps, graph, Some(&gm));
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let value = to_f64(out(&p)) - units as f64 * gm.gas_price;
    Plan {
        gas_units: units,
        gas_price: Some(gm.gas_price),
        value,
        ..p
    }
}

/// How the search's trials start their dual solves.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// From the previous trial's prices.
    Warm,
    /// From the bids ([`quote`]'s plans), reading each trial's marginal rate.
    ColdRates,
    /// [`quote`] itself (a gas model: no marginal rates).
    Cold,
}

/// The exact-in plan of the request with its input set to `(token, a)`: warm from `cache`'s
/// prices where given (it then keeps this quote's), else [`quote`]'s plan.
fn quote_at(
    graph: &PoolGraph,
    req: &RouteRequest,
    (token, a): (TokenId, U256),
    cache: Option<&mut RouteCache>,
) -> Result<Plan, RouteError> {
    let mut r = req.clone();
    r.inputs = alloc::vec![(token, a)];
    r.exact_out = None;
    match cache {
        Some(cache) => quote_warm(graph, &r, cache),
        None => quote(graph, &r),
    }
}

/// The bracket search of [`quote_exact_out`] with trials started as `start` says.
fn search(
    graph: &PoolGraph,
    req: &RouteRequest,
    (token, cap): (TokenId, U256),
    wanted: U256,
    start: Start,
) -> Result<Plan, RouteError> {
    let mut cache = RouteCache::new();
    let out_token = req.outputs.first().map(|o| o.0);
    // each trial's plan with its marginal rate (the cache holds its prices; it stays empty
    // when the trial is `quote`'s)
    let mut at = move |a: U256| -> (Result<Plan, RouteError>, Option<f64>) {
        let p = match start {
            Start::Cold => quote_at(graph, req, (token, a), None),
            Start::Warm => quote_at(graph, req, (token, a), Some(&mut cache)),
            Start::ColdRates => {
                // an empty cache: the bids' start, so [`quote`]'s plan exactly
                cache = RouteCache::new();
                quote_at(graph, req, (token, a), Some(&mut cache))
            }
        };
        let d = p
            .as_ref()
            .ok()
            .and(out_token.and_then(|o| cache.rate(token, o)));
        (p, d)
    };
    let (full, slope) = at(cap);
    let full = match full {
        Ok(p) => p,
        // the pools cannot take the whole cap (their known liquidity ends inside it): the
        // largest amount they take, if it delivers the wanted amount, tops the bracket instead
        Err(e @ RouteError::InsufficientLiquidity { .. }) => {
            return below_capacity(at, (cap, e), wanted)
        }
        Err(e) => return Err(e),
    };
    if out(&full) < wanted {
        return Err(RouteError::ExactOutUnreachable {
            wanted,
            best: out(&full),
        });
    }
    Ok(narrow(at, (cap, slope), full, wanted))
}

/// [`search`] where the cap itself is more than the pools take ([`RouteError::
/// InsufficientLiquidity`]): bisection ([`bisect`]) between the amounts that quote and those
/// that do not, until an amount's plan delivers `wanted` (the bracket is then narrowed below
/// it) or the two meet within `hi / EXACT_OUT_PRECISION` ([`RouteError::ExactOutUnreachable`]
/// with the most a plan there delivers; the cap's error `err` where no amount quotes at all).
fn below_capacity(
    mut at: impl FnMut(U256) -> (Result<Plan, RouteError>, Option<f64>),
    (cap, err): (U256, RouteError),
    wanted: U256,
) -> Result<Plan, RouteError> {
    let (mut lo, mut hi) = (U256::zero(), cap);
    let mut best: Option<U256> = None;
    for _ in 0..MAX_TRIALS {
        let tol = tolerance(hi);
        let width = hi.saturating_sub(lo);
        if width <= tol {
            break;
        }
        let mid = bisect(lo, hi);
        match at(mid) {
            (Ok(p), d) if out(&p) >= wanted => return Ok(narrow(at, (mid, d), p, wanted)),
            (Ok(p), _) => {
                lo = mid;
                best = Some(out(&p));
            }
            (Err(RouteError::InsufficientLiquidity { .. }), _) => hi = mid,
            // too small to route: more input
            (Err(RouteError::AmountTooSmall { .. }), _) => lo = mid,
            (Err(e), _) => return Err(e),
        }
    }
    Err(best.map_or(err, |best| RouteError::ExactOutUnreachable { wanted, best }))
}

/// The first output amount of a plan (0 without one).
fn out(p: &Plan) -> U256 {
    p.outputs.first().map_or(U256::zero(), |o| o.amount)
}

/// What the routable pools holding `to` hold of it.
fn held(graph: &PoolGraph, to: TokenId) -> U256 {
    graph
        .pools()
        .iter()
        .filter(|p| p.routable)
        .filter_map(|p| {
            let k = p.tokens.iter().position(|t| *t == to)?;
            p.pool.balances().get(k).copied()
        })
        .fold(U256::zero(), U256::saturating_add)
}

/// The bracket `(0, cap)` narrowed on `F(a) = f(a) − wanted` by Illinois regula falsi
/// (`at`: the exact-in plan of input `a`; `full`: the plan at `cap`, which delivers at
/// least `wanted`) until `hi − lo ≤ hi / EXACT_OUT_PRECISION`: the plan at `hi`. With
/// `slope` (`f'(cap)`, output per input unit; `at` also gives each trial's), each trial is a
/// Newton step from the last one, a third of the closing width toward the side it was not on.
fn narrow(
    mut at: impl FnMut(U256) -> (Result<Plan, RouteError>, Option<f64>),
    (cap, slope): (U256, Option<f64>),
    full: Plan,
    wanted: U256,
) -> Plan {
    let w = to_f64(wanted);
    // F(a) = f(a) − wanted at the bracket's ends, Illinois-scaled at the end kept twice
    let (mut lo, mut f_lo) = (U256::zero(), -w);
    let (mut hi, mut f_hi, mut best) = (cap, to_f64(out(&full)) - w, full);
    let mut last_side = 0i8;
    // the last trial's amount, F there and f' there
    let mut newton = slope.map(|d| (cap, f_hi, d));
    // the bracket's width before the last trial and before the one before it
    let mut widths = [U256::MAX, U256::MAX];
    for _ in 0..MAX_TRIALS {
        let width = hi.saturating_sub(lo);
        let tol = tolerance(hi);
        if width <= tol {
            break;
        }
        // two trials in a row that each took less than a quarter off the bracket: regula
        // falsi is crawling along a step of `f` (see the module docs); bisect
        let most = |x: U256| x.saturating_sub(x.checked_div(U256::from(4u8)).unwrap_or_default());
        let crawling =
            widths[1] != U256::MAX && width > most(widths[0]) && widths[0] > most(widths[1]);
        widths = [width, widths[0]];
        let a = if crawling {
            bisect(lo, hi)
        } else {
            #[allow(clippy::arithmetic_side_effects)] // f64
            let t = {
                let d = f_hi - f_lo;
                let frac = if d > 0.0 { -f_lo / d } else { 0.5 };
                // keep trials off the ends so the bracket always shrinks
                frac.clamp(1e-3, 1.0 - 1e-3)
            };
            #[allow(clippy::arithmetic_side_effects)] // f64
            let step = from_f64_floor(to_f64(width) * t);
            let mut a = lo.saturating_add(step);
            // where the tangent at the last trial meets `wanted`, a third of the width `tol`
            // toward the side the last trial was not on
            if let Some((p, fp, d)) = newton.take() {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let target = {
                    let third = to_f64(tol) / 3.0;
                    to_f64(p) - fp / d + if fp >= 0.0 { -third } else { third }
                };
                if target.is_finite() && target > 0.0 {
                    let t = from_f64_floor(target);
                    if t > lo && t < hi {
                        a = t;
                    }
                }
            }
            if a <= lo || a >= hi {
                a = lo.saturating_add(width.checked_div(U256::from(2u8)).unwrap_or_default());
            }
            if a <= lo || a >= hi {
                break;
            }
            a
        };
        // an amount too small to route delivers nothing
        let (trial, d) = at(a);
        let trial = trial.ok();
        let got = trial.as_ref().map_or(U256::zero(), out);
        #[allow(clippy::arithmetic_side_effects)] // f64
        let f = to_f64(got) - w;
        newton = d.map(|d| (a, f, d));
        match trial {
            Some(p) if got >= wanted => {
                hi = a;
                f_hi = f.max(0.0);
                best = p;
                // (Illinois: the end kept twice in a row by regula falsi counts half)
                if last_side == 1 && !crawling {
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    {
                        f_lo *= 0.5;
                    }
                }
                last_side = 1;
            }
            _ => {
                lo = a;
                f_lo = f.min(0.0);
                if last_side == -1 && !crawling {
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    {
                        f_hi *= 0.5;
                    }
                }
                last_side = -1;
            }
        }
    }
    best
}

/// The bisection of the bracket `(lo, hi)` (`lo + 1 < hi`): its geometric mean while `hi` is
/// more than 16 times `lo` (`lo` = 0 taken as 1), so a bracket from a large cap down to a
/// small answer closes in about the logarithm of the logarithm of their ratio, else its
/// midpoint; strictly inside the bracket.
fn bisect(lo: U256, hi: U256) -> U256 {
    let floor = lo.max(U256::one());
    let a = if hi.checked_div(floor).unwrap_or_default() > U256::from(16u8) {
        // ⌊√floor⌋ · ⌊√hi⌋: at most the geometric mean, above `lo` but for rounding (clamped)
        crate::math::sqrt(floor).saturating_mul(crate::math::sqrt(hi))
    } else {
        lo.saturating_add(
            hi.saturating_sub(lo)
                .checked_div(U256::from(2u8))
                .unwrap_or_default(),
        )
    };
    a.max(lo.saturating_add(U256::one()))
        .min(hi.saturating_sub(U256::one()))
}
