//! Step 0, prepare: the request checked and normalised into the graph's terms ([`Prepared`]).

use super::{RouteRequest, MAX_HOPS_LIMIT};
use crate::error::{BadRouteRequest as Bad, RouteError};
use crate::graph::PoolGraph;
use crate::math;
use crate::units::TokenId;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// The validated request in graph terms.
#[derive(Debug)]
pub(super) struct Prepared {
    pub(super) inputs: Vec<(TokenId, U256)>,
    pub(super) outputs: Vec<(TokenId, f64)>,
}

pub(super) fn prepare(graph: &PoolGraph, req: &RouteRequest) -> Result<Prepared, RouteError> {
    check_options(req)?;
    let inputs = merged_inputs(graph, req)?;
    let outputs = output_weights(graph, req, &inputs)?;
    check_whitelist(graph, req)?;
    Ok(Prepared { inputs, outputs })
}

/// The request's shape and options: inputs and outputs given, the hop limit, the gas price
/// and the slippage fraction in range.
fn check_options(req: &RouteRequest) -> Result<(), RouteError> {
    if req.inputs.is_empty() {
        return Err(RouteError::BadRequest(Bad::NoInputs));
    }
    if req.outputs.is_empty() {
        return Err(RouteError::BadRequest(Bad::NoOutputs));
    }
    if let Some(h) = req.max_hops.filter(|&h| h == 0 || h > MAX_HOPS_LIMIT) {
        return Err(RouteError::BadRequest(Bad::MaxHops {
            given: h,
            max: MAX_HOPS_LIMIT,
        }));
    }
    if let Some(g) = req
        .gas
        .filter(|g| !(g.gas_price.is_finite() && g.gas_price >= 0.0))
    {
        return Err(RouteError::BadRequest(Bad::GasPrice {
            bits: g.gas_price.to_bits(),
        }));
    }
    if *req.slippage.denom() == 0 || req.slippage.numer() > req.slippage.denom() {
        return Err(RouteError::BadRequest(Bad::Slippage {
            numer: *req.slippage.numer(),
            denom: *req.slippage.denom(),
        }));
    }
    Ok(())
}

/// The inputs on the graph, non-zero, a repeated token's amounts summed.
fn merged_inputs(
    graph: &PoolGraph,
    req: &RouteRequest,
) -> Result<Vec<(TokenId, U256)>, RouteError> {
    let mut inputs: Vec<(TokenId, U256)> = Vec::new();
    for (t, a) in &req.inputs {
        graph.token(*t).ok_or(RouteError::TokenOutOfRange(*t))?;
        if a.is_zero() {
            return Err(RouteError::BadRequest(Bad::ZeroInput { token: *t }));
        }
        match inputs.iter_mut().find(|(x, _)| x == t) {
            Some((_, v)) => *v = math::add(*v, *a)?,
            None => inputs.push((*t, *a)),
        }
    }
    Ok(inputs)
}

/// The outputs' proportions as floats, after checking each is positive, on the graph, not
/// repeated and not an input, and that they sum to exactly 1.
fn output_weights(
    graph: &PoolGraph,
    req: &RouteRequest,
    inputs: &[(TokenId, U256)],
) -> Result<Vec<(TokenId, f64)>, RouteError> {
    let mut sum = Ratio::<u128>::new_raw(0, 1);
    let mut outputs = Vec::new();
    for (t, w) in &req.outputs {
        graph.token(*t).ok_or(RouteError::TokenOutOfRange(*t))?;
        if *w.denom() == 0 || *w.numer() == 0 {
            return Err(RouteError::BadRequest(Bad::OutputProportion {
                token: *t,
                numer: *w.numer(),
                denom: *w.denom(),
            }));
        }
        if outputs.iter().any(|(x, _)| x == t) {
            return Err(RouteError::BadRequest(Bad::RepeatedOutput { token: *t }));
        }
        if inputs.iter().any(|(x, _)| x == t) {
            return Err(RouteError::BadRequest(Bad::InputIsOutput { token: *t }));
        }
        sum = add_proportion(
            sum,
            Ratio::new(u128::from(*w.numer()), u128::from(*w.denom())),
        )?;
        #[allow(clippy::arithmetic_side_effects)] // f64
        let wf = *w.numer() as f64 / *w.denom() as f64;
        outputs.push((*t, wf));
    }
    if sum != Ratio::new_raw(1, 1) {
        return Err(RouteError::BadRequest(Bad::ProportionsSum {
            numer: *sum.numer(),
            denom: *sum.denom(),
        }));
    }
    Ok(outputs)
}

/// `sum + r` exactly, or [`Bad::ProportionsOverflow`] when a term leaves `u128`.
fn add_proportion(sum: Ratio<u128>, r: Ratio<u128>) -> Result<Ratio<u128>, RouteError> {
    let (a, b2, c2, d) = (*sum.numer(), *sum.denom(), *r.numer(), *r.denom());
    let num = a
        .checked_mul(d)
        .zip(c2.checked_mul(b2))
        .and_then(|(x, y)| x.checked_add(y));
    let den = b2.checked_mul(d);
    match (num, den) {
        (Some(x), Some(y)) if y != 0 => Ok(Ratio::new(x, y)),
        _ => Err(RouteError::BadRequest(Bad::ProportionsOverflow)),
    }
}

/// A whitelisted id no pool has: named, with the near miss (the body validation's check).
fn check_whitelist(graph: &PoolGraph, req: &RouteRequest) -> Result<(), RouteError> {
    if let Some(w) = &req.source_whitelist {
        let known = graph.sources();
        if let Some(id) = w.iter().find(|id| !known.iter().any(|k| k == id)) {
            return Err(RouteError::UnknownSource {
                id: id.clone(),
                suggestion: crate::chain::near_source(id, &known)
                    .map(alloc::borrow::ToOwned::to_owned),
            });
        }
    }
    Ok(())
}
