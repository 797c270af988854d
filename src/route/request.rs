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
    /// Hop limit of a path: `None` (the default) for none, `Some(h)` for plans whose every
    /// path has at most `h` hops (1 to [`MAX_HOPS_LIMIT`](super::MAX_HOPS_LIMIT)); the plan's bound is then over those
    /// plans only ([`Plan::bound_max_hops`](crate::plan::Plan::bound_max_hops)).
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
