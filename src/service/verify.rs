//! What a plan must answer for a validated spec body: the [`PlanRequest`] that
//! [`crate::plan::Plan::verify_request`] holds a plan to.

use super::request::Request;
use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::plan::PlanRequest;
use crate::route::{output_mid_prices, RouteRequest};

impl PlanRequest {
    /// A validated spec body on `graph`: a zap (fee [`crate::zap::ZAP_FEE_BPS`]) when an LP
    /// token is among its inputs or outputs, else a swap; no gas model. A zap with several
    /// outputs carries their documented prices under the body's source filters.
    ///
    /// # Errors
    /// Those of [`RouteRequest::from_request`] (an address the graph does not hold).
    pub fn from_request(req: &Request, graph: &PoolGraph) -> Result<Self, RouteError> {
        let r = RouteRequest::from_request(req, graph)?;
        let mut p = Self::swap(&r);
        if crate::zap::is_zap_body(graph, req) {
            p.zap_fee_bps = Some(crate::zap::ZAP_FEE_BPS);
            if r.outputs.len() >= 2 {
                // the inputs of `r` play no part in its mid prices
                p.output_prices = Some(output_mid_prices(graph, &r));
            }
        }
        Ok(p)
    }
}
