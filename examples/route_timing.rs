//! Route timing harness: the route bench's 24 requests (and its heavy trades) on one generated
//! market, best of N runs per request, the median over the requests, and a fingerprint of the
//! plans (to check that a change keeps them). Also a loop for `perf record`.
//!
//! ```text
//! cargo run --release --example route_timing -- 2000 15          # pools, runs per request
//! cargo run --release --example route_timing -- 20000 3 heavy    # the heavy trades
//! cargo run --release --example route_timing -- 20000 3 plans    # print each plan's outputs and bound
//! cargo run --release --example route_timing -- 2000 5 warm       # route::quote_cached after 0.9x
//! cargo run --release --example route_timing -- 2000 3 exact-out  # 90 % of each plan's output, exact-out
//! ```
//!
//! `warm`: each request is quoted by `route::quote_cached` from a cache that last quoted the
//! same request at 0.9 times its amount (primed once per request, cloned for every run);
//! `warm-same`: from a cache that last quoted the request itself. `exact-out`: each request
//! asks for 90 % of what its exact-in plan delivers (`RouteRequest::exact_out`, the input
//! amount as the cap).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout,
    clippy::print_stderr
)]

#[path = "../tests/integration/route_gen.rs"]
mod route_gen;

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};
use swapzap::graph::PoolGraph;
use swapzap::route;

const USAGE: &str = "usage: route_timing [POOLS [RUNS [heavy|plans]]]
  POOLS: one of 40 100 400 800 1200 1600 2000 5000 10000 20000 (default 2000)
  RUNS:  runs over the bench's 24 requests, best of them reported (default 5)
  heavy: the heavy trades instead of the bench requests; plans: print each plan's outputs and bound;
  warm: route::quote_cached from a cache primed at 0.9x the amount (warm-same: at the amount);
  exact-out: each request asks for 90 % of its exact-in plan's output";

/// A usage error: the message and usage on stderr, exit code 1.
fn usage_error(msg: &str) -> ! {
    eprintln!("error: {msg}\n{USAGE}");
    std::process::exit(1)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().skip(1).any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let number = |k: usize, default: usize, name: &str| -> usize {
        args.get(k).map_or(default, |s| {
            s.parse()
                .unwrap_or_else(|_| usage_error(&format!("{name} is not a number: {s}")))
        })
    };
    let pools = number(1, 2000, "POOLS");
    let runs = number(2, 5, "RUNS");
    let mode = args.get(3).map_or("", String::as_str);
    let tokens = match pools {
        40 => 10,
        100 => 25,
        400 => 60,
        800 => 120,
        1200 => 180,
        1600 => 250,
        2000 => 300,
        5000 => 600,
        10000 => 1000,
        20000 => 1500,
        _ => usage_error(&format!("no market of {pools} pools")),
    };
    let m = route_gen::market(1000 + pools as u64, tokens, pools);
    let t0 = Instant::now();
    let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    let build = t0.elapsed();
    let mut reqs = if mode.contains("heavy") {
        route_gen::heavy_requests(&m, tokens, pools as u64)
    } else {
        route_gen::bench_requests(&m, tokens, pools as u64)
    };
    if mode.contains("exact-out") {
        for r in &mut reqs {
            if let Ok(p) = route::quote(&g, r) {
                let got = p.outputs[0].amount;
                r.exact_out = Some(got - got / 10);
            }
        }
    }
    // the edge index is built on the first quote
    let _ = route::quote(&g, &reqs[0]);
    let cpu0 = cpu_ns();
    let mut times = Vec::new();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for (k, r) in reqs.iter().enumerate() {
        let mut best = Duration::MAX;
        let mut res = None;
        let mut primed = route::RouteCache::new();
        if mode.contains("warm") {
            let mut r2 = r.clone();
            if !mode.contains("same") {
                r2.inputs[0].1 = r2.inputs[0].1 / 10 * 9;
            }
            let _ = route::quote_cached(&g, &r2, &mut primed);
        }
        for _ in 0..runs {
            let mut cache = primed.clone();
            let t0 = Instant::now();
            let p = std::hint::black_box(if mode.contains("warm") {
                route::quote_cached(&g, r, &mut cache)
            } else {
                route::quote(&g, r)
            });
            best = best.min(t0.elapsed());
            res = Some(p);
        }
        let res = res.unwrap();
        match &res {
            Ok(p) => {
                format!("{:?}", p.steps).hash(&mut h);
                format!("{:?}", p.outputs).hash(&mut h);
                if mode.contains("plans") {
                    println!(
                        "{k:2} out {} bound {:.9e} gap {:.3e} steps {} {:.3?}",
                        p.outputs[0].amount,
                        p.upper_bound.unwrap_or(f64::NAN),
                        p.bound_gap().unwrap_or(f64::NAN),
                        p.steps.len(),
                        best
                    );
                }
            }
            Err(e) => {
                format!("{e:?}").hash(&mut h);
                if mode.contains("plans") {
                    println!("{k:2} error {e:?}");
                }
            }
        }
        times.push(best);
    }
    let cpu = cpu_ns().saturating_sub(cpu0) as f64 / 1e6 / (runs * reqs.len()) as f64;
    let mut s = times.clone();
    s.sort();
    println!(
        "{pools} pools ({tokens} tokens){}{}{}: median {:.3?}, max {:.3?}, sum {:.3?}, mean CPU {cpu:.3} ms, graph {:.3?}, plans {:016x}",
        if mode.contains("heavy") { " heavy" } else { "" },
        if mode.contains("warm") { " warm" } else { "" },
        if mode.contains("exact-out") {
            " exact-out"
        } else {
            ""
        },
        s[s.len() / 2],
        s[s.len() - 1],
        times.iter().sum::<Duration>(),
        build,
        h.finish()
    );
}

/// CPU time of this thread so far (ns; 0 where `/proc` has no schedstat).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0)
}
