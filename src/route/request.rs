//! The router's request ([`RouteRequest`]) and its conversion from a validated spec body.

use super::gas::GasModel;
use crate::error::RouteError;
use crate::graph::PoolGraph;
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
    /// plans only ([`Plan::bound_max_hops`]).
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
    /// 1 / [`EXACT_OUT_PRECISION`](super::EXACT_OUT_PRECISION) of itself, whose exact simulation delivers the wanted
    /// amount (found by exact-in quotes; see `route/exact_out.rs`). `None`: exact-in.
    pub exact_out: Option<U256>,
}

impl RouteRequest {
    /// The router's request for a validated quote request ([`crate::service::request::Request`]) on
    /// `graph`: addresses become token ids (0x hex case-insensitively), proportions stay exact
    /// (parts per 10^18), the slippage fraction is kept exactly when it fits `u64` terms and
    /// otherwise rounded down at 10^-18 (a minimum never below the exact one's floor by more
    /// than 1e-18 of the amount), the source whitelist applies, the blacklist only where the
    /// request says so (not on chain 101). Default hops, no gas model.
    ///
    /// # Errors
    /// [`RouteError::UnknownToken`] for an address the graph does not hold,
    /// [`RouteError::BadRequest`] for a proportion or slippage that cannot be represented.
    pub fn from_request(
        req: &crate::service::request::Request,
        graph: &PoolGraph,
    ) -> Result<Self, RouteError> {
        use alloc::string::ToString;
        let tok = |a: &crate::service::request::Address| {
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
    /// ([`crate::service::request::QuoteRequest::validate`], with the snapshot's sources as the known
    /// liquidity sources), its `chainId` must be the snapshot's, and the typed request becomes
    /// a [`RouteRequest`] by [`RouteRequest::from_request`].
    ///
    /// # Errors
    /// Every validation error of the body ([`crate::Error::Request`]), among them
    /// [`crate::RequestError::ChainMismatch`]; [`RouteError::UnknownToken`] for a token the
    /// snapshot does not hold.
    pub fn from_body(
        body: &crate::service::request::QuoteRequest,
        graph: &PoolGraph,
    ) -> Result<Self, crate::Error> {
        let req = body.validate(&graph.sources())?;
        if req.chain_id != graph.chain_id() {
            return Err(crate::RequestError::ChainMismatch {
                request: req.chain_id,
                snapshot: graph.chain_id(),
            }
            .into());
        }
        Ok(Self::from_request(&req, graph)?)
    }

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
