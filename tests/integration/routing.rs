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

#[test]
fn debug_hops() {
    let res = results();
    for mut inst in instances() {
        for h in [5, 6] {
            inst.req.max_hops = h;
            let t0 = std::time::Instant::now();
            let Ok(b) = route::dual_bound(&inst.graph, &inst.req) else { continue };
            eprintln!("{:?}", t0.elapsed());
            let t = res["instances"][&inst.name]["optimum"]["T"].as_f64().unwrap();
            eprintln!("{} hops {h}: {:.12}", inst.name, b / t);
        }
    }
}

#[test]
fn debug_arb() {
    use swapzap::units::PoolId;
    for inst in instances() {
        if !inst.name.starts_with("pub-24") && !inst.name.starts_with("pub-21") { continue; }
        for (k, p) in inst.graph.pools().iter().enumerate() {
            let fm = inst.graph.float_model(PoolId(k as u32)).unwrap();
            for i in 0..p.tokens.len() { for j in 0..p.tokens.len() { if i == j { continue; }
                let Some(e) = fm.edge(i, j) else { eprintln!("{} {} {i}->{j} NO EDGE {:?}", inst.name, p.id, fm); continue; };
                let r0 = e.rate0();
                for f in [0.999, 0.99, 0.9, 0.5] {
                    let (ni, nj) = (r0 * f, 1.0);
                    let a = e.arb(ni, nj);
                    let prof = nj * a.o - ni * a.x;
                    // brute force on a log grid
                    let mut best = 0.0f64; let mut bx = 0.0;
                    let d = e.depth_in();
                    for s in 0..4000 { let x = d * 10f64.powf(-8.0 + s as f64 * 12.0 / 4000.0); let v = nj * e.out(x) - ni * x; if v > best { best = v; bx = x; } }
                    if best > prof * (1.0 + 1e-6) + 1e-300 { eprintln!("{} {} {i}->{j} f={f}: arb {prof:e} x {:e} brute {best:e} x {bx:e}", inst.name, p.id, a.x); }
                }
            }}
        }
    }
}
