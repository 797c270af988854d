//! Routing: every instance of `../shared/routing/instances` is routed and checked against
//! `../shared/routing/results.json` (read at test time), plus property tests.

use serde_json::Value;
use std::path::PathBuf;
use swapzap::graph::PoolGraph;
use swapzap::route::body::QuoteBody;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;

pub struct Instance {
    pub name: String,
    pub graph: PoolGraph,
    pub req: RouteRequest,
    pub kind: String,
    pub raw: Value,
}

pub fn instances() -> Vec<Instance> {
    let dir = crate::shared().join("routing/instances");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let raw: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let snap: Snapshot = serde_json::from_value(raw["snapshot"].clone()).unwrap();
            let graph = PoolGraph::from_snapshot(&snap).unwrap();
            let body: QuoteBody = serde_json::from_value(raw["request"].clone()).unwrap();
            let req = body.to_route_request(&graph).unwrap();
            Instance {
                name: raw["name"].as_str().unwrap().to_string(),
                kind: raw["meta"]["kind"].as_str().unwrap().to_string(),
                graph,
                req,
                raw,
            }
        })
        .collect()
}

pub fn results() -> Value {
    serde_json::from_str(&std::fs::read_to_string(crate::shared().join("routing/results.json")).unwrap()).unwrap()
}

/// Single-output and multi-input: the dual bound must sit on the reference optimum T
/// (an upper bound itself): within 1e-9 below, and not above by more than 1e-6.
#[test]
fn dual_bound_matches_reference_optimum() {
    let res = results();
    let mut bad = Vec::new();
    for inst in instances() {
        let t0 = std::time::Instant::now();
        let b = route::dual_bound(&inst.graph, &inst.req).unwrap();
        let dt = t0.elapsed();
        let t = res["instances"][&inst.name]["optimum"]["T"].as_f64().unwrap();
        let r = b / t;
        eprintln!("{:32} bound/T = {:.12} ({:?})", inst.name, r, dt);
        if inst.kind != "multi_output" && !(r > 1.0 - 1e-9 && r < 1.0 + 1e-6) {
            bad.push((inst.name.clone(), r));
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}


/// The instance's score of a plan: the output amount, or for several outputs the basket's USD
/// value `min_k p_k z_k / w_k` at `meta.reference_prices_usd` (as score.py computes it).
pub fn score(inst: &Instance, plan: &swapzap::plan::Plan) -> f64 {
    if plan.outputs.len() == 1 {
        return plan.outputs[0].amount.to_string().parse::<f64>().unwrap();
    }
    let meta = &inst.raw["meta"]["reference_prices_usd"];
    let mut t = f64::INFINITY;
    for (o, (_, w)) in plan.outputs.iter().zip(&inst.req.outputs) {
        let tok = inst.graph.token(o.token).unwrap();
        let p = meta[&tok.address].as_f64().unwrap() / 10f64.powi(tok.decimals as i32);
        let w = *w.numer() as f64 / *w.denom() as f64;
        t = t.min(p * o.amount.to_string().parse::<f64>().unwrap() / w);
    }
    t
}

/// Every instance: exact plan, verified; single/multi-input ≥ 1 − 1e-6 of optimum.T,
/// multi-output ≥ 0.999; never below the best single route (less the 1e-9 per hop refund margin);
/// bound ≥ the plan's own value.
#[test]
fn instances_reach_reference_optimum() {
    let res = results();
    let mut bad = Vec::new();
    for inst in instances() {
        let t0 = std::time::Instant::now();
        let plan = match route::quote(&inst.graph, &inst.req) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: quote error {e}", inst.name);
                bad.push((inst.name.clone(), 0.0));
                continue;
            }
        };
        let dt = t0.elapsed();
        if let Err(e) = plan.verify(&inst.graph) {
            eprintln!("{}: verify error {e}", inst.name);
            bad.push((inst.name.clone(), -1.0));
            continue;
        }
        let r = &res["instances"][&inst.name];
        let t = r["optimum"]["T"].as_f64().unwrap();
        let single = r["best_single_route"]["T"].as_f64().unwrap();
        let sc = score(&inst, &plan);
        let ratio = sc / t;
        let ub = plan.upper_bound.unwrap();
        eprintln!(
            "{:32} ratio {:.9} vs single {:.6} steps {:2} bound/value {:.3e} ({:?})",
            inst.name, ratio, sc / single, plan.steps.len(), ub / plan.value - 1.0, dt
        );
        let need = if inst.kind == "multi_output" { 0.999 } else { 1.0 - 1e-6 };
        // the plan keeps a 1e-9 refund margin per hop (route::REFUND_MARGIN_DIVISOR)
        if !(ratio >= need) || sc < single * (1.0 - 1e-8) || ub < plan.value {
            bad.push((inst.name.clone(), ratio));
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}
