//! The router's mid prices of a request's outputs ([`output_mid_prices`]), for callers that
//! must value outputs exactly as [`super::quote`] does: the zap-out split and
//! [`crate::plan::Plan::verify_request`]'s proportion check.

use super::edges::EdgeCache;
use super::working_set::{adj_allowed, allowed_pools};
use super::{RouteRequest, DEFAULT_MAX_HOPS};
use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::units::TokenId;
use alloc::vec;
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
        .ok_or(RouteError::BadRequest(
            crate::error::BadRouteRequest::NoOutputs,
        ))?;
    let n = graph.n_tokens();
    for (t, _) in &req.outputs {
        if t.index() >= n {
            return Err(RouteError::TokenOutOfRange(*t));
        }
    }
    let mask = allowed_pools(graph, req);
    let hops = req.max_hops.unwrap_or(DEFAULT_MAX_HOPS);
    let mids = Mids::new(graph.edge_cache(), n, mask.as_deref(), hops, out0);
    let mut v = Vec::with_capacity(req.outputs.len());
    for (k, (t, _)) in req.outputs.iter().enumerate() {
        if k == 0 {
            v.push(1.0);
            continue;
        }
        let p = mids.of(*t);
        if !(p > 0.0 && p.is_finite()) {
            return Err(RouteError::NoRoute);
        }
        v.push(p);
    }
    Ok(v)
}

/// Mid values in base units of one token (`out0`, the first output), on the filtered graph
/// over paths of at most `hops` hops.
pub(super) struct Mids<'c> {
    cache: &'c EdgeCache,
    n: usize,
    mask: Option<&'c [bool]>,
    hops: usize,
    out0: TokenId,
    /// the best rates from `out0` to every token
    fwd0: Vec<f64>,
}

impl<'c> Mids<'c> {
    pub(super) fn new(
        cache: &'c EdgeCache,
        n: usize,
        mask: Option<&'c [bool]>,
        hops: usize,
        out0: TokenId,
    ) -> Self {
        let fwd0 = best_rates(cache, n, mask, out0, hops);
        Mids {
            cache,
            n,
            mask,
            hops,
            out0,
            fwd0,
        }
    }

    /// The mid value of one base unit of `t` ([`mid_value`]).
    pub(super) fn of(&self, t: TokenId) -> f64 {
        let f = best_rates(self.cache, self.n, self.mask, t, self.hops);
        mid_value(&f, &self.fwd0, t, self.out0)
    }
}

/// Best product of zero-size rates from `src` to every token over at most `hops` allowed edges.
///
/// Bellman–Ford passes, each relaxing every edge from the values after the previous pass. An
/// edge out of a token whose value the previous pass did not change cannot improve anything
/// (that pass relaxed it from the same value), so each pass relaxes only the edges out of the
/// tokens the previous pass changed: the same values as relaxing every edge.
pub(super) fn best_rates(
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
pub(super) fn mid_value(fwd_from: &[f64], fwd_to: &[f64], from: TokenId, to: TokenId) -> f64 {
    let bid = fwd_from.get(to.index()).copied().unwrap_or(0.0);
    let ask = fwd_to.get(from.index()).copied().unwrap_or(0.0);
    if bid > 0.0 && ask > 0.0 {
        crate::math::float::sqrt(bid / ask)
    } else if bid > 0.0 {
        bid
    } else if ask > 0.0 {
        1.0 / ask
    } else {
        0.0
    }
}

impl crate::plan::PlanRequest {
    /// What a plan of the router for `req` must answer ([`crate::plan::Plan::verify_request`]):
    /// its inputs, outputs, slippage, gas model, exact-out amount, hop limit and source
    /// filters; no zap fee, and no output prices (a swap with several outputs is not held to
    /// its shares).
    #[must_use]
    pub fn swap(req: &RouteRequest) -> Self {
        Self {
            inputs: req.inputs.clone(),
            outputs: req.outputs.clone(),
            slippage: req.slippage,
            zap_fee_bps: None,
            gas: req.gas,
            output_prices: None,
            exact_out: req.exact_out,
            max_hops: req.max_hops,
            source_whitelist: req.source_whitelist.clone(),
            source_blacklist: req.source_blacklist.clone(),
        }
    }
}
