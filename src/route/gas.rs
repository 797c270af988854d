//! Net of gas: the best of several exactly simulated candidates.
//!
//! With a gas model every quote already weighs its own plan net of gas: the certified optimum,
//! the same problem re-solved with the active leg that pays least for its step dropped (one leg
//! at a time), and the best single path, each simulated exactly (see [`super::quote`]). Fewer,
//! shorter legs can still net more than any of these on a request where every leg's gas is a
//! large part of its output, so the same request is also quoted under each hop cap from 1 to
//! [`GAS_HOP_CAPS`] (never above the request's own cap), and the plan that nets most wins. A
//! request is therefore never worse off than the same request capped at any of these hop
//! counts. The bound stays the request's own (over gross output, so also over net).

use super::{prepare_ctx, RouteRequest, DEFAULT_MAX_HOPS};
use crate::graph::PoolGraph;
use crate::plan::Plan;

/// The hop caps tried for a request with a gas model: 1 to this many hops.
pub const GAS_HOP_CAPS: usize = DEFAULT_MAX_HOPS;

/// The plan of `req` (already quoted: `base`) or of `req` under a smaller hop cap, whichever
/// nets most; it keeps `base`'s bound.
pub(super) fn best_net(graph: &PoolGraph, req: &RouteRequest, base: Plan) -> Plan {
    let caps = req.max_hops.map_or(GAS_HOP_CAPS, |h| h.min(GAS_HOP_CAPS));
    let mut best = base;
    for h in 1..=caps {
        if req.max_hops == Some(h) {
            continue;
        }
        let mut r = req.clone();
        r.max_hops = Some(h);
        let Ok(plan) = prepare_ctx(graph, &r).and_then(|mut c| c.run(false)) else {
            continue;
        };
        if plan.0.value > best.value {
            best = Plan {
                upper_bound: best.upper_bound,
                bound_max_hops: best.bound_max_hops,
                ..plan.0
            };
        }
    }
    best
}
