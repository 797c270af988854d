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
/// (an upper bound itself): within 1e-6 below, and not above by more than the margin.
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
