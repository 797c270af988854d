//! The Rust side of `bench/bench_quote.py`: the same quotes as the Python bindings make, timed
//! the same way (median of repeated runs), so the two can be compared on one machine.
//!
//! ```text
//! cargo run --release --example time_quote -- RUNS INSTANCE.json...
//! cargo run --release --example time_quote -- batch N INSTANCE.json
//! ```
//!
//! For each instance file (`snapshot` + `request`) it prints one JSON line: the instance, the
//! median ns of a quote from the body (parse, `RouteRequest::from_body`, `route::quote`: the
//! path `Snapshot.quote` takes) and of `route::quote` alone. With `batch N` it times N requests
//! of swept sizes (input amount × (k + 1) / 64 + 1, as `bench_quote.py` builds them) one by one
//! and through `route::quote_batch` (median of 5 each), to compare with `Snapshot.quote_batch`.
#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::arithmetic_side_effects, // a bench: amounts far below 2^256, indices into non-empty Vecs
    missing_docs
)]

use std::time::Instant;
use swapzap::graph::PoolGraph;
use swapzap::route::{self, RouteRequest};
use swapzap::service::request::QuoteRequest;
use swapzap::snapshot::Snapshot;

fn median(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn load(path: &str) -> (serde_json::Value, PoolGraph) {
    let inst: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let snap: Snapshot = serde_json::from_value(inst["snapshot"].clone()).unwrap();
    let graph = PoolGraph::from_snapshot(&snap).unwrap();
    (inst, graph)
}

fn batch(n: usize, path: &str) {
    let (inst, graph) = load(path);
    let q: QuoteRequest = serde_json::from_value(inst["request"].clone()).unwrap();
    let base = RouteRequest::from_body(&q, &graph).unwrap();
    let amount = base.inputs[0].1;
    let reqs: Vec<RouteRequest> = (0..n)
        .map(|k| {
            let mut r = base.clone();
            r.inputs[0].1 = amount * swapzap::U256::from(k + 1) / swapzap::U256::from(64u8)
                + swapzap::U256::one();
            r
        })
        .collect();
    let (mut seq, mut par) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        let one: Vec<_> = reqs.iter().map(|r| route::quote(&graph, r)).collect();
        seq.push(t.elapsed().as_nanos());
        let t = Instant::now();
        let many = route::quote_batch(&graph, &reqs);
        par.push(t.elapsed().as_nanos());
        assert_eq!(one, many);
    }
    println!(
        "{}",
        serde_json::json!({"instance": path, "n": n, "sequential_ns": median(seq) as u64, "batch_ns": median(par) as u64})
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let first = args.next().expect("RUNS or batch");
    if first == "batch" {
        let n = args.next().and_then(|s| s.parse().ok()).expect("N");
        batch(n, &args.next().expect("INSTANCE"));
        return;
    }
    let runs: usize = first.parse().expect("RUNS");
    for path in args {
        let (inst, graph) = load(&path);
        let body = serde_json::to_string(&inst["request"]).unwrap();
        let from_body = || {
            let q: QuoteRequest = serde_json::from_str(&body).unwrap();
            let r = RouteRequest::from_body(&q, &graph).unwrap();
            (r.clone(), route::quote(&graph, &r).unwrap())
        };
        let (r, _) = from_body();
        let mut full = Vec::with_capacity(runs);
        let mut core = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(from_body());
            full.push(t.elapsed().as_nanos());
            let t = Instant::now();
            std::hint::black_box(route::quote(&graph, &r).unwrap());
            core.push(t.elapsed().as_nanos());
        }
        println!(
            "{}",
            serde_json::json!({"instance": path, "body_ns": median(full) as u64, "route_ns": median(core) as u64})
        );
    }
}
