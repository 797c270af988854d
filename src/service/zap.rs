//! A validated spec zap body (`POST /sor/quote/v2/zap`, [`crate::service::request::Request`]) run
//! against a [`PoolGraph`]: which zap it is, and its [`Plan`].

use super::request::Request;
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::plan::Plan;
use crate::route::RouteRequest;
use crate::units::TokenId;
use crate::zap::{zap_in, zap_out, ZapInPlan, ZapOptions};
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// Which zap of the spec (item 4) a body asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZapKind {
    /// Tokens and/or LP tokens into one LP token (`outputTokens` is that LP with proportion
    /// 1); LP-to-LP is this with LP inputs.
    In,
    /// LP tokens (and tokens) into one or more plain tokens by their proportions.
    Out,
}

/// How a body splits into a zap: the graph's ids of its tokens, and the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ZapShape {
    /// the kind
    pub kind: ZapKind,
    /// inputs as graph ids, in the body's order
    pub inputs: Vec<(TokenId, U256)>,
    /// outputs as graph ids with their exact proportions (parts per 10^18)
    pub outputs: Vec<(TokenId, Ratio<u64>)>,
}

/// The plan of a spec zap body: a zap-in's plan with what its mint decided, or a zap-out's
/// plan.
#[derive(Debug, Clone)]
pub enum ZapPlan {
    /// Tokens and/or LP tokens into one LP token ([`ZapKind::In`]): the plan, the target pool,
    /// the LP minted and the rebalance of its final mint.
    In(ZapInPlan),
    /// LP tokens (and tokens) into plain tokens ([`ZapKind::Out`]): the plan.
    Out(Plan),
}

impl ZapPlan {
    /// Which zap.
    #[must_use]
    pub fn kind(&self) -> ZapKind {
        match self {
            Self::In(_) => ZapKind::In,
            Self::Out(_) => ZapKind::Out,
        }
    }

    /// The plan (steps, outputs with `min_amount`, refunds, zap fee).
    #[must_use]
    pub fn plan(&self) -> &Plan {
        match self {
            Self::In(z) => &z.plan,
            Self::Out(p) => p,
        }
    }

    /// The plan, by value.
    #[must_use]
    pub fn into_plan(self) -> Plan {
        match self {
            Self::In(z) => z.plan,
            Self::Out(p) => p,
        }
    }

    /// A zap-in's plan and decisions (`None` for a zap-out).
    #[must_use]
    pub fn zap_in(&self) -> Option<&ZapInPlan> {
        match self {
            Self::In(z) => Some(z),
            Self::Out(_) => None,
        }
    }
}

/// Classify a validated body on `graph` without planning it.
///
/// * one output, an LP token (its proportion is 1 by validation): [`ZapKind::In`], from any
///   mix of tokens and LP tokens;
/// * outputs all plain tokens and at least one LP token among the inputs: [`ZapKind::Out`];
/// * no LP token anywhere: not a zap ([`ZapError::NotAZap`], use the swap quote);
/// * an LP token among several outputs: [`ZapError::Unsupported`] (the spec zaps into one LP).
///
/// # Errors
/// Those above, and [`ZapError::Route`] with [`crate::error::RouteError::UnknownToken`] for an
/// address the graph does not hold.
pub(crate) fn zap_shape(graph: &PoolGraph, req: &Request) -> Result<ZapShape, ZapError> {
    let r = RouteRequest::from_request(req, graph)?;
    let is_lp = |t: &TokenId| graph.pool_of_lp(*t).is_some();
    let lp_outputs = r.outputs.iter().filter(|(t, _)| is_lp(t)).count();
    let kind = if lp_outputs == 1 && r.outputs.len() == 1 {
        ZapKind::In
    } else if lp_outputs > 0 {
        return Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::LpAmongSeveralOutputs,
        ));
    } else if r.inputs.iter().any(|(t, _)| is_lp(t)) {
        ZapKind::Out
    } else {
        return Err(ZapError::NotAZap);
    };
    Ok(ZapShape {
        kind,
        inputs: r.inputs,
        outputs: r.outputs,
    })
}

/// Whether a validated body names an LP token among its inputs or outputs on `graph`: a zap
/// body (for the zap endpoint), not a plain swap. A swap quote given a zap body can say so.
#[must_use]
pub fn is_zap_body(graph: &PoolGraph, req: &Request) -> bool {
    req.inputs
        .iter()
        .map(|i| &i.token)
        .chain(req.outputs.iter().map(|o| &o.token))
        .filter_map(|a| graph.token_id(&alloc::string::ToString::to_string(a)))
        .any(|t| graph.pool_of_lp(t).is_some())
}

/// The options of `req` over `base`: the body's slippage and source filters (the blacklist
/// only where the deployment applies it) replace those of `base`; the optimiser settings, hop
/// bound, fee and gas model stay.
///
/// # Errors
/// [`ZapError::Route`] for a slippage that cannot be represented, or an unknown token.
pub(crate) fn options_for(
    graph: &PoolGraph,
    req: &Request,
    base: &ZapOptions,
) -> Result<ZapOptions, ZapError> {
    let r = RouteRequest::from_request(req, graph)?;
    let mut o = base.clone();
    o.slippage = r.slippage;
    o.source_whitelist = r.source_whitelist;
    o.source_blacklist = r.source_blacklist;
    Ok(o)
}

/// Plan a validated spec zap body on `graph`: zap-in (tokens and LP tokens into one LP,
/// LP-to-LP included) or zap-out (LP tokens and tokens into tokens by proportions), as
/// the body's shape decides:
///
/// * one output, an LP token (its proportion is 1 by validation): [`ZapKind::In`], from any
///   mix of tokens and LP tokens;
/// * outputs all plain tokens and at least one LP token among the inputs: [`ZapKind::Out`];
/// * no LP token anywhere: not a zap ([`ZapError::NotAZap`], use the swap quote);
/// * an LP token among several outputs: [`ZapError::Unsupported`] (the spec zaps into one LP).
///
/// The body's slippage, source whitelist and blacklist (not on chain 101) apply to the swap
/// legs; `base` gives the rest (optimiser, hops, fee, gas).
///
/// # Errors
/// Those above, [`ZapError::Route`] with [`crate::error::RouteError::UnknownToken`] for an
/// address the graph does not hold, and those of [`zap_in`] and [`zap_out`].
///
/// # Example
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use swapzap::service::request::QuoteRequest;
/// use swapzap::service::zap::{zap_request, ZapKind};
/// use swapzap::{graph::PoolGraph, plan::PlanRequest, snapshot::Snapshot, zap::ZapOptions};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
/// let snapshot: Snapshot = serde_json::from_str(&std::fs::read_to_string(format!("{dir}snapshot.json"))?)?;
/// let graph = PoolGraph::from_snapshot(&snapshot)?;
/// // WETH and DAI into the LP token of one pool (the bundled zap body)
/// let body: QuoteRequest = serde_json::from_str(&std::fs::read_to_string(format!("{dir}zap-request.json"))?)?;
/// let req = body.validate(&graph.sources())?;
/// let z = zap_request(&graph, &req, &ZapOptions::default())?;
/// assert_eq!(z.kind(), ZapKind::In);
/// let zin = z.zap_in().ok_or("a zap-in")?;
/// assert_eq!(zin.plan.outputs[0].amount, zin.minted); // the LP the final mint gives
/// // the plan answers its body: inputs, the 1 bps zap fee, slippage minimums, every step
/// z.plan().verify_request(&graph, &PlanRequest::from_request(&req, &graph)?)?;
/// # Ok(())
/// # }
/// ```
pub fn zap_request(
    graph: &PoolGraph,
    req: &Request,
    base: &ZapOptions,
) -> Result<ZapPlan, ZapError> {
    let shape = zap_shape(graph, req)?;
    let opts = options_for(graph, req, base)?;
    match shape.kind {
        ZapKind::In => {
            let lp = shape
                .outputs
                .first()
                .map(|o| o.0)
                .ok_or(ZapError::Proportions)?;
            Ok(ZapPlan::In(zap_in(graph, &shape.inputs, lp, &opts)?))
        }
        ZapKind::Out => Ok(ZapPlan::Out(zap_out(
            graph,
            &shape.inputs,
            &shape.outputs,
            &opts,
        )?)),
    }
}
