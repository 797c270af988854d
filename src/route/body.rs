//! The spec's quote request body (`POST /sor/quote`), as far as the router needs it, and its
//! conversion into a [`RouteRequest`]. Used by the examples and tests; the full request API with
//! validation lives in [`crate::request`].
#![allow(clippy::arithmetic_side_effects)] // f64 and u64 arithmetic on bounded values, see comments

use super::{RouteRequest, DEFAULT_MAX_HOPS};
use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::units::parse_u256_dec;
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;

/// One input of the body.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BodyInput {
    /// token address
    pub token_address: String,
    /// base units, decimal string
    pub amount: String,
}

/// One output of the body.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BodyOutput {
    /// token address
    pub token_address: String,
    /// proportion in (0, 1]
    pub proportion: f64,
}

/// The quote body: `chainId`, `inputTokens`, `outputTokens`, `slippageLimitPercent`, source
/// filters; other fields are ignored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteBody {
    /// chain id
    pub chain_id: u64,
    /// inputs
    pub input_tokens: Vec<BodyInput>,
    /// outputs
    pub output_tokens: Vec<BodyOutput>,
    /// slippage limit in percent (0.5 = 0.5 %)
    #[serde(default)]
    pub slippage_limit_percent: f64,
    /// only these sources
    #[serde(default)]
    pub source_whitelist: Option<Vec<String>>,
    /// never these sources
    #[serde(default)]
    pub source_blacklist: Option<Vec<String>>,
}

const PROP_DEN: u64 = 1_000_000_000;

impl QuoteBody {
    /// The router request for this body on `graph`. Proportions are rounded to 1e-9 (the last
    /// output takes the rounding so they sum to exactly 1); slippage to 1e-8; the plan is
    /// float-safe ([`RouteRequest::float_safe`]).
    ///
    /// # Errors
    /// [`RouteError::UnknownToken`] for an address not in the graph, [`RouteError::BadRequest`]
    /// for amounts, proportions or slippage out of range.
    pub fn to_route_request(&self, graph: &PoolGraph) -> Result<RouteRequest, RouteError> {
        let tok = |a: &String| {
            graph.token_id(a).ok_or_else(|| RouteError::UnknownToken {
                pool: String::new(),
                address: a.clone(),
            })
        };
        let mut inputs = Vec::new();
        for i in &self.input_tokens {
            let a = parse_u256_dec(&i.amount).ok_or(RouteError::BadRequest("input amount"))?;
            inputs.push((tok(&i.token_address)?, a));
        }
        let mut outputs = Vec::new();
        let mut used: u64 = 0;
        let k = self.output_tokens.len();
        for (n, o) in self.output_tokens.iter().enumerate() {
            if !(o.proportion > 0.0 && o.proportion <= 1.0) {
                return Err(RouteError::BadRequest("proportion out of (0, 1]"));
            }
            // ≤ 1e9 by the check above; +0.5 then truncation rounds to nearest (core has no `round`)
            let num = if n + 1 == k {
                PROP_DEN
                    .checked_sub(used)
                    .ok_or(RouteError::BadRequest("proportions sum above 1"))?
            } else {
                (o.proportion * PROP_DEN as f64 + 0.5) as u64
            };
            used = used.saturating_add(num);
            if num == 0 {
                return Err(RouteError::BadRequest("proportion rounds to zero"));
            }
            outputs.push((tok(&o.token_address)?, Ratio::new(num, PROP_DEN)));
        }
        let sl = self.slippage_limit_percent;
        if !(0.0..=100.0).contains(&sl) {
            return Err(RouteError::BadRequest("slippage out of [0, 100] percent"));
        }
        let mut r = RouteRequest::new(inputs, outputs);
        r.max_hops = DEFAULT_MAX_HOPS;
        r.slippage = Ratio::new((sl * 1e6 + 0.5) as u64, 100_000_000);
        r.source_whitelist = self.source_whitelist.clone();
        r.source_blacklist = self.source_blacklist.clone().unwrap_or_default();
        // plans of this body are re-simulated with float models by the benchmark scorer
        r.float_safe = true;
        Ok(r)
    }
}
