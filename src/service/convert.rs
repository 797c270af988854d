//! From validated spec bodies to the engine's requests: [`RouteRequest::from_request`],
//! [`RouteRequest::from_body`] and [`PlanRequest::from_request`] (what a plan must answer for a
//! body, see [`crate::plan::Plan::verify_request`]). The types live in the engine's layers; the
//! conversions live here, above them, so that no engine layer imports the service.

use super::request::{Address, QuoteRequest, Request};
use crate::error::{Error, RequestError, RouteError};
use crate::graph::PoolGraph;
use crate::plan::PlanRequest;
use crate::route::{output_mid_prices, RouteRequest};
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

impl RouteRequest {
    /// The router's request for a validated quote request ([`Request`]) on
    /// `graph`: addresses become token ids (0x hex case-insensitively), proportions stay exact
    /// (parts per 10^18), the slippage fraction is kept exactly when it fits `u64` terms and
    /// otherwise rounded down at 10^-18 (a minimum never below the exact one's floor by more
    /// than 1e-18 of the amount), the source whitelist applies, the blacklist only where the
    /// request says so (not on chain 101). Default hops, no gas model.
    ///
    /// # Errors
    /// [`RouteError::UnknownToken`] for an address the graph does not hold,
    /// [`RouteError::BadRequest`] for a proportion or slippage that cannot be represented.
    pub fn from_request(req: &Request, graph: &PoolGraph) -> Result<Self, RouteError> {
        use alloc::string::ToString;
        let tok = |a: &Address| {
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
                    .ok_or(RouteError::BadRequest(
                        crate::error::BadRouteRequest::SlippageUnrepresentable,
                    ))?;
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
    /// ([`QuoteRequest::validate`], with the snapshot's sources as the known
    /// liquidity sources), its `chainId` must be the snapshot's, and the typed request becomes
    /// a [`RouteRequest`] by [`RouteRequest::from_request`].
    ///
    /// # Errors
    /// Every validation error of the body ([`Error::Request`]), among them
    /// [`RequestError::ChainMismatch`]; [`RouteError::UnknownToken`] for a token the
    /// snapshot does not hold.
    pub fn from_body(body: &QuoteRequest, graph: &PoolGraph) -> Result<Self, Error> {
        Ok(Self::from_request(&body.validate_on(graph)?, graph)?)
    }
}

impl QuoteRequest {
    /// The body validated for its `chainId` ([`QuoteRequest::validate`], with `graph`'s
    /// sources as the known liquidity sources), on a snapshot of that chain.
    ///
    /// # Errors
    /// Every validation error of the body ([`Error::Request`]), and
    /// [`RequestError::ChainMismatch`] when the snapshot is of another chain.
    pub fn validate_on(&self, graph: &PoolGraph) -> Result<Request, Error> {
        let req = self.validate(&graph.sources())?;
        if req.chain_id != graph.chain_id() {
            return Err(RequestError::ChainMismatch {
                request: req.chain_id,
                snapshot: graph.chain_id(),
            }
            .into());
        }
        Ok(req)
    }
}

impl PlanRequest {
    /// A validated spec body on `graph`: a zap (fee [`crate::zap::ZAP_FEE_BPS`]) when an LP
    /// token is among its inputs or outputs, else a swap; no gas model. A zap with several
    /// outputs carries their documented prices under the body's source filters.
    ///
    /// # Errors
    /// Those of [`RouteRequest::from_request`] (an address the graph does not hold).
    pub fn from_request(req: &Request, graph: &PoolGraph) -> Result<Self, RouteError> {
        let r = RouteRequest::from_request(req, graph)?;
        Ok(Self::of_body(req, graph, &r))
    }

    /// [`Self::from_request`] given the body's router request `r` (with its options).
    fn of_body(req: &Request, graph: &PoolGraph, r: &RouteRequest) -> Self {
        let mut p = Self::swap(r);
        if super::zap::is_zap_body(graph, req) {
            p.zap_fee_bps = Some(crate::zap::ZAP_FEE_BPS);
            if r.outputs.len() >= 2 {
                // the inputs of `r` play no part in its mid prices
                p.output_prices = Some(output_mid_prices(graph, r));
            }
        }
        p
    }
}

/// Checks a stored plan against the validated body it answers on `graph`, with the options it
/// was made with (`gas`, `exact_out`, `max_hops`, as on [`RouteRequest`]): a zap body by
/// [`crate::plan::Plan::verify_request`] against [`PlanRequest::from_request`] with those
/// options, its bound re-derived by the engine's own zap of the body; a swap by
/// [`crate::route::verify_quote`], its bound re-derived too. The `verify`
/// example and the Python `Plan.verify` call this.
///
/// # Errors
/// Those of [`RouteRequest::from_request`] and of the check.
pub fn verify_plan(
    graph: &PoolGraph,
    req: &Request,
    plan: &crate::plan::Plan,
    (gas, exact_out, max_hops): (Option<crate::plan::GasModel>, Option<U256>, Option<usize>),
) -> Result<(), RouteError> {
    let mut r = RouteRequest::from_request(req, graph)?;
    r.gas = gas;
    r.exact_out = exact_out;
    r.max_hops = max_hops;
    if super::zap::is_zap_body(graph, req) {
        plan.verify_request(graph, &PlanRequest::of_body(req, graph, &r))?;
        zap_certified(graph, req, plan, (gas, max_hops))
    } else {
        crate::route::verify_quote(graph, &r, plan)
    }
}

/// A zap plan's `upper_bound` and `price_impact` held to the engine's own zap of the body (with
/// the default zap options, `gas` and `max_hops`: the options the `zap` example and the Python
/// binding plan with): the bound, when the plan has one, not below that zap's by more than
/// [`crate::route::VERIFY_BOUND_TOLERANCE`] of it, and none claimed where that zap has none;
/// the price impact that zap's, to [`crate::route::VERIFY_IMPACT_TOLERANCE`]. A zap is
/// deterministic, so a plan it made passes bit for bit; a bound lowered toward the value is
/// refused, as [`crate::route::verify_quote`] refuses it on a swap.
fn zap_certified(
    graph: &PoolGraph,
    req: &Request,
    plan: &crate::plan::Plan,
    (gas, max_hops): (Option<crate::plan::GasModel>, Option<usize>),
) -> Result<(), RouteError> {
    use crate::error::{PlanField, PlanProblem};
    use crate::plan::mismatch;
    let opts = crate::zap::ZapOptions {
        gas,
        max_hops,
        ..crate::zap::ZapOptions::default()
    };
    let own = super::zap::zap_request(graph, req, &opts).ok();
    let own = own.as_ref().map(super::zap::ZapPlan::plan);
    if let Some(p) = own {
        crate::plan::same_price_impact(
            plan.price_impact,
            p.price_impact,
            crate::route::VERIFY_IMPACT_TOLERANCE,
        )?;
    }
    let Some(ub) = plan.upper_bound else {
        return Ok(());
    };
    let certified = own.and_then(|p| p.upper_bound);
    #[allow(clippy::arithmetic_side_effects)] // f64
    let why = match certified {
        None => PlanProblem::BoundNotCertified,
        Some(b) if ub < b - b.abs() * crate::route::VERIFY_BOUND_TOLERANCE => {
            PlanProblem::BoundBelowCertificate
        }
        Some(_) => return Ok(()),
    };
    Err(mismatch(PlanField::UpperBound, None, why))
}
