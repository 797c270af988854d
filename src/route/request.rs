//! The router's request ([`RouteRequest`]); its conversions from a validated spec body live in
//! the service layer (`RouteRequest::from_request`, `RouteRequest::from_body`).

use crate::plan::GasModel;
use crate::units::TokenId;
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// The router's input: exact-in amounts to exact proportions of outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRequest {
    /// Input tokens and the exact amounts to spend (repeated tokens are summed).
    pub inputs: Vec<(TokenId, U256)>,
    /// Output tokens and their value proportions (positive, summing to exactly 1).
    pub outputs: Vec<(TokenId, Ratio<u64>)>,
    /// Hop limit: `None` (the default) for none; `Some(h)` (1 to
    /// [`MAX_HOPS_LIMIT`](super::MAX_HOPS_LIMIT)) for plans that swap only through pool
    /// directions on some path of at most `h` hops from an input to an output (a radius
    /// around the request: `h = 1` keeps the direct pools, `h = 2` those and the two-hop
    /// routes). The plan's bound is then over those plans only
    /// ([`Plan::bound_max_hops`](crate::plan::Plan::bound_max_hops)). It limits the pools, not
    /// the length of each path: a plan may chain such directions into a longer path (with
    /// `h = 3` the public instances' plans have paths of up to 7 hops; several inputs or
    /// outputs give longer ones at `h = 2`, through a second input or output). A limit on every
    /// path's length needs the flow on hop-layered copies of the graph, which the router does
    /// not build.
    pub max_hops: Option<usize>,
    /// Optional gas pricing (ignored on chain 101).
    pub gas: Option<GasModel>,
    /// Slippage limit as a fraction (0.005 = 0.5 %): `min_amount = floor(amount × (1 − s))`.
    pub slippage: Ratio<u64>,
    /// Only pools of these sources (when given).
    pub source_whitelist: Option<Vec<String>>,
    /// Never pools of these sources (not applied on chain 101).
    pub source_blacklist: Vec<String>,
    /// Exact-out: deliver at least this amount (base units) of the only output, spending as
    /// little of the only input as possible; the input amount is then the most the user will
    /// spend. The plan's `inputs` say what it spends: the least amount, to within
    /// 1 / 10^7 (`EXACT_OUT_PRECISION`) of itself, whose exact simulation delivers the wanted
    /// amount (found by exact-in quotes; see `route/exact_out.rs`). With a gas model the
    /// search runs on the plans net of gas; where those deliver less than wanted even at the
    /// input amount, on the plans without gas (more steps, more output), priced with the
    /// model: error 4006 only where no plan delivers it. `None`: exact-in.
    pub exact_out: Option<U256>,
}

impl RouteRequest {
    /// A request with default hops, no gas, no source filter and 0.5 % slippage.
    #[must_use]
    pub fn new(inputs: Vec<(TokenId, U256)>, outputs: Vec<(TokenId, Ratio<u64>)>) -> Self {
        RouteRequest {
            inputs,
            outputs,
            max_hops: None,
            gas: None,
            slippage: Ratio::new_raw(5, 1000),
            source_whitelist: None,
            source_blacklist: Vec::new(),
            exact_out: None,
        }
    }
}
