//! `Snapshot.zap`: a zap body (the spec's quote body where tokens may be LP tokens) into an
//! exact plan, on the library's `zap::{zap_in, zap_out, lp_to_lp}`.
//!
//! The body is validated and read like a quote body, by `RouteRequest::from_body` (token ids,
//! exact proportions, slippage). Its shape picks the operation, as the spec's zap endpoint
//! describes it: one output that is an LP token with proportion 1 is a zap-in (LP-to-LP when
//! the inputs are LP tokens); inputs that are all LP tokens with non-LP outputs are a zap-out.

use swapzap::error::{Error, ZapError};
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::route::RouteRequest;
use swapzap::zap::{lp_to_lp, zap_in, zap_out, ZapOptions};

/// Run a zap body, read by `RouteRequest::from_body`, on `graph`.
pub(crate) fn run(graph: &PoolGraph, r: &RouteRequest) -> Result<Plan, Error> {
    let opts = ZapOptions {
        slippage: r.slippage,
        ..ZapOptions::default()
    };
    let is_lp = |t| graph.pool_of_lp(t).is_some();
    let all_lp_in = r.inputs.iter().all(|(t, _)| is_lp(*t));
    match r.outputs.as_slice() {
        [(lp, _)] if is_lp(*lp) => {
            let z = if all_lp_in {
                lp_to_lp(graph, &r.inputs, *lp, &opts)
            } else {
                zap_in(graph, &r.inputs, *lp, &opts)
            };
            Ok(z?.plan)
        }
        outs if all_lp_in && !outs.iter().any(|(t, _)| is_lp(*t)) => {
            Ok(zap_out(graph, &r.inputs, outs, &opts)?)
        }
        _ => Err(Error::Zap(ZapError::Unsupported(
            "a zap body zaps into one LP token (proportion 1) or out of LP tokens only",
        ))),
    }
}
