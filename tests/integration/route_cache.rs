//! `route::quote_cached`: a caller-owned warm start between quotes of one graph. A cold cache
//! gives `route::quote`'s plan exactly; warm quotes (the same request again, another amount,
//! another pair in between) verify exactly, keep a valid bound and reach the cold plan's
//! value less 1e-7 of it (read from `../shared/routing` and generated markets at test time).
#![allow(clippy::print_stderr)]

use crate::routing::instances;
use crate::routing::route_gen;
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::route::{self, RouteCache, RouteRequest};

/// A warm plan against the cold plan of the same request: verified exactly, value under its
/// bound and at least the cold plan's value less `tol` of it (1e-7 for one output; 1e-5 for
/// several, whose plans sit 1e-5 to 1e-4 below the optimum and move more), and (one output) a gap within
/// `rise` of the cold plan's (the solve stops at a balance residual of 1e-8 from either start,
/// so the final prices and the bound differ in their last digits: 2e-7; where the rounding
/// slack's free prices end elsewhere, more). Returns the gap's change.
fn check_warm(
    g: &PoolGraph,
    req: &RouteRequest,
    warm: &Plan,
    name: &str,
    (tol, rise): (f64, f64),
) -> f64 {
    let cold = route::quote(g, req).unwrap();
    warm.verify(g).unwrap();
    // its bound holds against the cold solve's certificate too (within its float margin)
    route::verify_quote(g, req, warm).unwrap_or_else(|e| panic!("{name}: {e}"));
    let b = warm.upper_bound.unwrap();
    assert!(
        warm.value <= b,
        "{name}: value {} above bound {b}",
        warm.value
    );
    let (w, c) = (warm.value, cold.value);
    let tol = if req.outputs.len() > 1 { 1e-5 } else { tol };
    assert!(w >= c - tol * c, "{name}: warm value {w} against cold {c}");
    if req.outputs.len() > 1 {
        return 0.0;
    }
    let (gw, gc) = (warm.bound_gap().unwrap(), cold.bound_gap().unwrap());
    assert!(gw <= gc + rise, "{name}: warm gap {gw:e}, cold {gc:e}");
    gw - gc
}

#[test]
fn a_cold_cache_gives_quotes_plan_and_warm_quotes_match_it() {
    let mut worst: f64 = 0.0;
    for inst in instances() {
        let (g, req) = (&inst.graph, &inst.req);
        let mut cache = RouteCache::new();
        let cold = route::quote(g, req).unwrap();
        let first = route::quote_cached(g, req, &mut cache).unwrap();
        assert_eq!(
            format!("{first:?}"),
            format!("{cold:?}"),
            "{}: a cold cache changed the plan",
            inst.name
        );
        // the same request again, from its own prices
        let again = route::quote_cached(g, req, &mut cache).unwrap();
        worst = worst.max(check_warm(g, req, &again, &inst.name, (1e-7, 2e-7)));
        // the first input at 0.9 and 1.1 times its amount, each from the last quote's prices
        for (num, den) in [(9u64, 10u64), (11, 10)] {
            let mut r = req.clone();
            r.inputs[0].1 = r.inputs[0].1 / den * num;
            let warm = route::quote_cached(g, &r, &mut cache).unwrap();
            let name = format!("{} x{num}/{den}", inst.name);
            worst = worst.max(check_warm(g, &r, &warm, &name, (1e-7, 2e-7)));
        }
        // clearing the cache gives the cold plan again
        cache.clear();
        let cleared = route::quote_cached(g, req, &mut cache).unwrap();
        assert_eq!(format!("{cleared:?}"), format!("{cold:?}"), "{}", inst.name);
    }
    eprintln!("public instances: largest rise of a warm gap over the cold one {worst:e}");
}

/// Two 2000-pool markets (the route bench's, seed 900 + pools, and seed 1000 + pools): each
/// request warm after another pair (the cache does not fit: cold, the same plan) and after a
/// quote of itself at 0.9 times the amount. On the bench's market the warm solves' rounding
/// slack (its free tokens' prices, minimised by two Gauss–Seidel passes from where the solve
/// starts) ends elsewhere than the cold ones': request 12's bound is split into a slack 8.4e-7
/// of it above the cold one's (the float bounds agree to 4e-12), so its gap rises by as much,
/// and `verify_quote` holds the float bound, not the slack, to the certificate.
#[test]
fn warm_quotes_on_a_generated_market_are_valid() {
    for (seed, rise) in [(900u64, 1e-6), (1000, 2e-7)] {
        warm_quotes_on_market(seed, rise);
    }
}

fn warm_quotes_on_market(seed: u64, rise: f64) {
    let (t, p) = (300usize, 2000usize);
    let m = route_gen::market(seed + p as u64, t, p);
    let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    let reqs = route_gen::bench_requests(&m, t, if seed == 900 { 7 } else { p as u64 });
    let mut cache = RouteCache::new();
    let mut worst: f64 = 0.0;
    for (k, req) in reqs.iter().enumerate() {
        let switched = route::quote_cached(&g, req, &mut cache).unwrap();
        let tokens = |r: &RouteRequest| {
            let ins: Vec<_> = r.inputs.iter().map(|x| x.0).collect();
            let outs: Vec<_> = r.outputs.iter().map(|x| x.0).collect();
            (ins, outs)
        };
        if k > 0 && tokens(&reqs[k - 1]) != tokens(req) {
            let cold = route::quote(&g, req).unwrap();
            assert_eq!(format!("{switched:?}"), format!("{cold:?}"), "request {k}");
        }
        let mut r = req.clone();
        r.inputs[0].1 = r.inputs[0].1 / 10 * 9;
        let _ = route::quote_cached(&g, &r, &mut cache).unwrap();
        let warm = route::quote_cached(&g, req, &mut cache).unwrap();
        worst = worst.max(check_warm(
            &g,
            req,
            &warm,
            &format!("request {k}"),
            (1e-7, rise),
        ));
    }
    eprintln!("2000 pools, seed {seed}: largest rise of a warm gap over the cold one {worst:e}");
}
