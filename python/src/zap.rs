//! `Snapshot.zap`: a spec zap body (the quote body where tokens may be LP tokens) planned by
//! the library's `zap::zap_request` (zap-in, LP-to-LP or zap-out as the body's shape says, with
//! its slippage and source filters), as the `zap` example plans it.

use swapzap::error::Error;
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::route::GasModel;
use swapzap::service::request::Request;
use swapzap::service::zap::zap_request;
use swapzap::zap::ZapOptions;

/// Plan a validated zap body on `graph`, the swap legs priced at `gas_price` when given.
pub(crate) fn run(graph: &PoolGraph, req: &Request, gas_price: Option<f64>) -> Result<Plan, Error> {
    let opts = ZapOptions {
        gas: gas_price.map(GasModel::typical),
        ..ZapOptions::default()
    };
    Ok(zap_request(graph, req, &opts)?.into_plan())
}
