//! Criterion benches for `route` (ids `route/quote/<tokens>t-<pools>p`, deterministic inputs).
//!
//! Generated markets (`tests/integration/route_gen.rs`) from 10 to 2000 pools, several requests
//! each (hub → long tail, long tail → hub, hub → hub, 1e3..3e6 USD), single thread. Before the
//! criterion groups a table of median / max quote time per size over all requests is printed
//! (`cargo bench --bench route`), so the README shows how cost grows with the graph; the public
//! instances of `../shared/routing` are timed too when that folder is present.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout
)]

#[path = "../tests/integration/route_gen.rs"]
mod route_gen;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};
use swapzap::graph::PoolGraph;
use swapzap::route::{self, RouteRequest};

const SIZES: [(usize, usize); 10] = [
    (10, 40),
    (25, 100),
    (60, 400),
    (120, 800),
    (180, 1200),
    (250, 1600),
    (300, 2000),
    (600, 5000),
    (1000, 10000),
    (1500, 20000),
];

/// Sizes of the markets that also get CL pools (a tenth of their pool count).
const CL_SIZES: [(usize, usize); 2] = [(60, 400), (300, 2000)];

/// The market of size (`t`, `p`) of the other rows plus `p / 10` CL pools, and its graph.
fn cl_market(t: usize, p: usize) -> (route_gen::Market, PoolGraph) {
    let mut m = route_gen::market(1000 + p as u64, t, p);
    route_gen::add_cl_pools(&mut m, p as u64, p / 10);
    let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    (m, g)
}

/// Whether a plan swaps through a CL pool.
fn uses_cl(g: &PoolGraph, plan: &swapzap::plan::Plan) -> bool {
    plan.steps.iter().any(|s| {
        matches!(s, swapzap::plan::Step::Swap { pool, .. }
            if matches!(g.pool(*pool).unwrap().pool, swapzap::pool::Pool::ConcentratedLiquidity(_)))
    })
}

/// The sizes of the criterion groups (the table covers all of `SIZES`).
const CRITERION_SIZES: [(usize, usize); 4] = [(60, 400), (300, 2000), (600, 5000), (1500, 20000)];

fn requests(m: &route_gen::Market, n_tokens: usize, seed: u64) -> Vec<RouteRequest> {
    route_gen::bench_requests(m, n_tokens, seed)
}

/// Runs per request in the tables: each request's time is the median of its runs (a single
/// run of a sub-millisecond quote on a shared 2-core machine is mostly scheduling noise).
const RUNS: usize = 5;

/// The median wall time of `RUNS` quotes of `r`.
fn time_of(g: &PoolGraph, r: &RouteRequest) -> (Duration, bool) {
    let mut ts = [Duration::ZERO; RUNS];
    let mut ok = false;
    for t in &mut ts {
        let t0 = Instant::now();
        let res = black_box(route::quote(g, r));
        *t = t0.elapsed();
        ok = res.is_ok();
    }
    ts.sort();
    (ts[RUNS / 2], ok)
}

/// Median and max of a list of times (sorted in place).
fn median_max(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn table() {
    println!(
        "route/quote scaling (single thread, 24 requests per size, median of {RUNS} runs each):"
    );
    println!(
        "{:>7} {:>6} {:>10} {:>10} {:>10} {:>8} {:>10} {:>12}",
        "tokens", "pools", "median", "max", "mean", "ok", "graph", "5 updates"
    );
    let mut all = Vec::new();
    for (t, p) in SIZES {
        let m = route_gen::market(1000 + p as u64, t, p);
        let t0 = Instant::now();
        let mut g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let build = t0.elapsed();
        // five pools move (a swap on each), as between two blocks: no rebuild
        let t0 = Instant::now();
        for k in 0..5 {
            let pid = swapzap::units::PoolId((k * p / 5) as u32);
            let pool = &g.pool(pid).unwrap().pool;
            let a = pool.balances()[0] / 1000;
            if let Ok((_, next)) = pool.swap(0, 1, a) {
                g.set_pool_state(pid, next).unwrap();
            }
        }
        let update = t0.elapsed();
        let reqs = requests(&m, t, p as u64);
        let mut times = Vec::new();
        let mut ok = 0;
        for r in &reqs {
            let (dt, good) = time_of(&g, r);
            times.push(dt);
            ok += usize::from(good);
        }
        all.extend_from_slice(&times);
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        let (med, max) = median_max(&mut times);
        println!(
            "{:>7} {:>6} {:>10.3?} {:>10.3?} {:>10.3?} {:>5}/{} {:>10.3?} {:>12.3?}",
            t,
            p,
            med,
            max,
            mean,
            ok,
            reqs.len(),
            build,
            update
        );
    }
    let (med, max) = median_max(&mut all);
    println!("  all sizes: median {med:.3?}, max {max:.3?}");
    // The same generated markets plus 10 % concentrated-liquidity pools (`add_cl_pools`: V3 fee
    // tiers, eight bands of ticks around the price): the rows above stay as they were.
    println!("with CL pools (a tenth of the pools added as Uniswap V3 pools), same requests:");
    for (t, p) in CL_SIZES {
        let (m, g) = cl_market(t, p);
        let reqs = requests(&m, t, p as u64);
        let mut times = Vec::new();
        let mut ok = 0;
        let mut through_cl = 0;
        for r in &reqs {
            let (dt, good) = time_of(&g, r);
            times.push(dt);
            ok += usize::from(good);
            through_cl += usize::from(route::quote(&g, r).is_ok_and(|plan| uses_cl(&g, &plan)));
        }
        let (med, max) = median_max(&mut times);
        println!(
            "{:>7} {:>6} {:>10.3?} {:>10.3?} {:>5}/{} ok, {} through a CL pool",
            t,
            p + p / 10,
            med,
            max,
            ok,
            reqs.len(),
            through_cl
        );
    }
    println!("heavy trades (1e-4..0.3 of the input's deepest reserve), same pairs:");
    let mut all = Vec::new();
    for (t, p) in SIZES.into_iter().filter(|(_, p)| *p >= 400) {
        let m = route_gen::market(1000 + p as u64, t, p);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let mut times: Vec<Duration> = route_gen::heavy_requests(&m, t, p as u64)
            .iter()
            .map(|r| time_of(&g, r).0)
            .collect();
        all.extend_from_slice(&times);
        let (med, max) = median_max(&mut times);
        println!("{:>7} {:>6} {:>10.3?} {:>10.3?}", t, p, med, max);
    }
    let (med, max) = median_max(&mut all);
    println!("  400-20000 pools: median {med:.3?}, max {max:.3?}");
    // batch: the same requests one by one and through quote_batch (rayon with `parallel`)
    let (t, p) = (60, 400);
    let m = route_gen::market(1000 + p as u64, t, p);
    let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    let reqs: Vec<RouteRequest> = (0..8).flat_map(|k| requests(&m, t, k)).collect();
    let t0 = Instant::now();
    let seq: Vec<_> = reqs.iter().map(|r| route::quote(&g, r)).collect();
    let t_seq = t0.elapsed();
    let t0 = Instant::now();
    let par = route::quote_batch(&g, &reqs);
    let t_par = t0.elapsed();
    assert_eq!(seq, par);
    println!(
        "batch of {} on {t}t-{p}p: sequential {:?}, quote_batch {:?} (parallel feature: {})",
        reqs.len(),
        t_seq,
        t_par,
        cfg!(feature = "parallel")
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/routing/instances");
    if let Ok(rd) = std::fs::read_dir(&dir) {
        let mut files: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        files.sort();
        let mut times = Vec::new();
        for f in files {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let snap: swapzap::snapshot::Snapshot =
                serde_json::from_value(v["snapshot"].clone()).unwrap();
            let g = PoolGraph::from_snapshot(&snap).unwrap();
            let body: swapzap::service::request::QuoteRequest =
                serde_json::from_value(v["request"].clone()).unwrap();
            let req = swapzap::route::RouteRequest::from_body(&body, &g).unwrap();
            times.push((
                time_of(&g, &req).0,
                f.file_stem().unwrap().to_string_lossy().to_string(),
            ));
        }
        times.sort();
        if !times.is_empty() {
            println!(
                "public instances (median of {RUNS} runs each): median {:?}, max {:?} ({})",
                times[times.len() / 2].0,
                times[times.len() - 1].0,
                times[times.len() - 1].1
            );
        }
    }
}

/// A criterion row `name`: the first six of `reqs` quoted on `g`.
fn bench_quotes(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    g: &PoolGraph,
    reqs: &[RouteRequest],
) {
    group.bench_with_input(BenchmarkId::from_parameter(name), reqs, |b, reqs| {
        b.iter(|| {
            for r in reqs.iter().take(6) {
                let _ = black_box(route::quote(g, r));
            }
        });
    });
}

fn benches(c: &mut Criterion) {
    table();
    let mut group = c.benchmark_group("route/quote");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    for (t, p) in CRITERION_SIZES {
        let m = route_gen::market(1000 + p as u64, t, p);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let reqs = requests(&m, t, p as u64);
        bench_quotes(&mut group, &format!("{t}t-{p}p"), &g, &reqs);
    }
    // The 2000-pool market with 200 CL pools added (`route/quote/300t-2000p-cl`).
    let (t, p) = (300, 2000);
    let (m, g) = cl_market(t, p);
    let reqs = requests(&m, t, p as u64);
    bench_quotes(&mut group, &format!("{t}t-{p}p-cl"), &g, &reqs);
    group.finish();
    let mut group = c.benchmark_group("route/graph");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(200));
    for (t, p) in [(60, 400), (300, 2000), (1500, 20000)] {
        let m = route_gen::market(1000 + p as u64, t, p);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{t}t-{p}p")),
            &m.snapshot,
            |b, s| {
                b.iter(|| black_box(PoolGraph::from_snapshot(s).unwrap()));
            },
        );
    }
    group.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
