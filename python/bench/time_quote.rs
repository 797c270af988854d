//! The Rust side of `bench/bench_quote.py`: the same quotes as the Python bindings make, timed
//! the same way (median of repeated runs), so the two can be compared on one machine.
//!
//! ```text
//! cargo run --release --example time_quote -- RUNS INSTANCE.json...
//! ```
//!
//! For each instance file (`snapshot` + `request`) it prints one JSON line: the instance, the
//! median ns of a quote from the body (parse, `RouteRequest::from_body`, `route::quote`: the
//! path `Snapshot.quote` takes) and of `route::quote` alone.
#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs
)]

use std::time::Instant;
use swapzap::graph::PoolGraph;
use swapzap::request::QuoteRequest;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;

fn median(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).expect("RUNS");
    for path in args {
        let inst: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let snap: Snapshot = serde_json::from_value(inst["snapshot"].clone()).unwrap();
        let graph = PoolGraph::from_snapshot(&snap).unwrap();
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
