//! Net of gas: the best of several exactly simulated candidates.
//!
//! With a gas model every quote already weighs its own plan net of gas: the certified optimum,
//! the same problem re-solved with the active leg that pays least for its step dropped (one leg
//! at a time), and the best single path, each simulated exactly (see [`super::quote`]). Fewer,
//! shorter legs can still net more than any of these on a request where every leg's gas is a
//! large part of its output, so the same request is also quoted under each hop cap from 1 to
//! the request's saturation radius (the hops past which a cap no longer narrows its working
//! set: every edge any plan can use is then in it), at least [`GAS_HOP_CAPS`], at most
//! [`MAX_HOPS_LIMIT`], never above the request's own cap; the plan that nets most wins. A
//! request is therefore never worse off than the same request capped at any of these hop
//! counts. Past the radius a cap changes only how far the first working set's valuation and
//! the single path look; the property test `gas_plans_never_net_less_than_any_hop_cap`
//! compares with every cap up to 24 on markets of long chains. The bound stays the request's
//! own (over gross output, so also over net).

use super::dual::Eval;
use super::edges::LEdge;
use super::quote_exact_in;
use super::working_set::{prepare_ctx, saturation_radius, Ctx};
use super::{RouteRequest, DEFAULT_MAX_HOPS, MAX_HOPS_LIMIT};
use crate::graph::{PoolGraph, CHAIN_101};
use crate::plan::{GasModel, Plan, Step};
use alloc::vec::Vec;
use primitive_types::U256;

/// The hop caps tried for a request with a gas model: 1 to this many hops at least, more where
/// the request's working set reaches further ([`best_net`]).
pub const GAS_HOP_CAPS: usize = DEFAULT_MAX_HOPS;

/// The gas model of `req` where the chain prices gas (not chain 101).
pub(super) fn priced(graph: &PoolGraph, req: &RouteRequest) -> Option<GasModel> {
    if graph.chain_id() == CHAIN_101 {
        None
    } else {
        req.gas
    }
}

/// The plan of `req` (already quoted: `base`) or of `req` under a smaller hop cap, whichever
/// nets most; it keeps `base`'s bound. The caps run from 1 to the request's saturation radius
/// (at least [`GAS_HOP_CAPS`], at most [`MAX_HOPS_LIMIT`] and the request's own cap): on a
/// market whose only routes are chains of 7 to 9 hops, the caps to 6 alone missed a 7-hop
/// plan that netted 1.3 % more than the request's own (`route_gas.rs`).
pub(super) fn best_net(graph: &PoolGraph, req: &RouteRequest, base: Plan) -> Plan {
    let reach = saturation_radius(graph, req).clamp(GAS_HOP_CAPS, MAX_HOPS_LIMIT);
    let caps = req.max_hops.map_or(reach, |h| h.min(reach));
    // several outputs are valued at mid prices found within the request's hop cap, so a
    // capped quote values its basket at other prices: each is compared (and kept) at the
    // request's own, under which its bound holds (before, a two-output plan kept from a
    // 1-hop cap was worth 9877372 at that cap's prices against the bound 9877358.9)
    let multi = req.outputs.len() > 1;
    // the request's own context, prepared once where first needed
    let own = core::cell::OnceCell::new();
    let own = || own.get_or_init(|| prepare_ctx(graph, req).ok()).as_ref();
    let mut best = base;
    for h in 1..=caps {
        if req.max_hops == Some(h) {
            continue;
        }
        let mut r = req.clone();
        r.max_hops = Some(h);
        let Ok(mut plan) = quote_exact_in(graph, &r) else {
            continue;
        };
        let outs: Vec<U256> = plan.outputs.iter().map(|o| o.amount).collect();
        if let Some(ctx) = multi.then(own).flatten() {
            let (_, cost) = ctx.gas_of(&plan.steps, ctx.gas());
            #[allow(clippy::arithmetic_side_effects)] // f64
            {
                plan.value = ctx.objective(&outs) - cost;
            }
        }
        if plan.value > best.value {
            // its price impact at the request's own mid prices too, not the cap's (found
            // within the cap's hops: a 1-hop cap's mid price of the input can be another)
            if let Some(ctx) = own() {
                plan.price_impact = ctx.price_impact(ctx.objective(&outs));
            }
            best = Plan {
                upper_bound: best.upper_bound,
                rounding_slack: best.rounding_slack,
                bound_max_hops: best.bound_max_hops,
                ..plan
            };
        }
    }
    best
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The request's gas model where the chain prices gas (not chain 101).
    pub(super) fn gas(&self) -> Option<GasModel> {
        priced(self.graph, self.req)
    }

    /// Output units per unit of dual value (ν of the first output, c·ν = 1).
    pub(super) fn cost_scale(&self, nu: &[f64], loc: &[usize]) -> f64 {
        self.out_toks.first().map_or(1.0, |t| nu[loc[t.index()]])
    }

    pub(super) fn gas_of(&self, steps: &[Step], gas: Option<GasModel>) -> (u64, f64) {
        let Some(gm) = gas else { return (0, 0.0) };
        let units = crate::plan::swap_gas_units(steps, self.graph, Some(&gm));
        (units, units as f64 * gm.gas_price)
    }
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The active edge of `ev` (an index into `ledges`, the working set of the round, `loc`
    /// the local index of each graph token) whose arbitrage profit at the prices `nu` falls
    /// shortest of its step's gas; `None` when every active edge pays for its step.
    pub(super) fn least_paying(
        &self,
        gm: GasModel,
        ev: &Eval,
        nu: &[f64],
        ledges: &[LEdge],
        loc: &[usize],
    ) -> Option<usize> {
        let mut worst: Option<(f64, usize)> = None;
        for &(k, a) in &ev.act {
            let e = &ledges[k];
            let profit = nu[e.to] * a.o - nu[e.ti] * a.x;
            let cost = gm.units(e.kind) as f64 * gm.gas_price * self.cost_scale(nu, loc);
            let short = profit - cost;
            if short < 0.0 && worst.map_or(true, |(w, _)| short < w) {
                worst = Some((short, k));
            }
        }
        worst.map(|w| w.1)
    }
}
