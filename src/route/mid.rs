//! The router's mid prices of a request's outputs ([`output_mid_prices`]), for callers that
//! must value outputs exactly as [`super::quote`] does: the zap-out split and
//! [`crate::plan::Plan::verify_request`]'s proportion check.

use super::{allowed_pools, best_rates, mid_value, RouteRequest, DEFAULT_MAX_HOPS};
use crate::error::RouteError;
use crate::graph::PoolGraph;
use alloc::vec::Vec;

/// The mid price `v_k` of each output of `req` in base units of the first output per base unit
/// of output k (`v_0 = 1`), on `graph`'s pool states under `req`'s source filters and hop limit
/// (default [`DEFAULT_MAX_HOPS`]): the geometric mean of the best zero-size bid (k → first
/// output) and the inverse of the best zero-size ask (first output → k), each the best product
/// of fee-inclusive marginal rates over paths of at most that many hops. These are the prices
/// [`super::quote`] values several outputs at (step 2 of the [module docs](super)); the inputs
/// of `req` play no part.
///
/// # Errors
/// [`RouteError::BadRequest`] without outputs, [`RouteError::TokenOutOfRange`] for a token not
/// in `graph`, [`RouteError::NoRoute`] when an output has no positive price.
pub fn output_mid_prices(graph: &PoolGraph, req: &RouteRequest) -> Result<Vec<f64>, RouteError> {
    let out0 = req
        .outputs
        .first()
        .map(|o| o.0)
        .ok_or(RouteError::BadRequest("no outputs"))?;
    let n = graph.n_tokens();
    for (t, _) in &req.outputs {
        if t.index() >= n {
            return Err(RouteError::TokenOutOfRange(t.0));
        }
    }
    let cache = graph.edge_cache();
    let mask = allowed_pools(graph, req);
    let hops = req.max_hops.unwrap_or(DEFAULT_MAX_HOPS);
    let fwd0 = best_rates(cache, n, mask.as_deref(), out0, hops);
    let mut v = Vec::with_capacity(req.outputs.len());
    for (k, (t, _)) in req.outputs.iter().enumerate() {
        if k == 0 {
            v.push(1.0);
            continue;
        }
        let f = best_rates(cache, n, mask.as_deref(), *t, hops);
        let p = mid_value(&f, &fwd0, *t, out0);
        if !(p > 0.0 && p.is_finite()) {
            return Err(RouteError::NoRoute);
        }
        v.push(p);
    }
    Ok(v)
}

impl crate::plan::PlanRequest {
    /// What a plan of the router for `req` must answer ([`crate::plan::Plan::verify_request`]):
    /// its inputs, outputs, slippage and gas model; no zap fee, and no output prices (a swap
    /// with several outputs is not held to its shares).
    #[must_use]
    pub fn swap(req: &RouteRequest) -> Self {
        Self {
            inputs: req.inputs.clone(),
            outputs: req.outputs.clone(),
            slippage: req.slippage,
            zap_fee_bps: None,
            gas: req.gas,
            output_prices: None,
        }
    }
}
