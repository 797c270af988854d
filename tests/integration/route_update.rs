//! Re-quoting after a few pools change (`PoolGraph::set_pool_state`, issue 11 item 5): the
//! router's index is patched for the moved pools only, and the quotes are the ones a graph
//! built on the new states gives.

use crate::routing::route_gen;
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::route;
use swapzap::units::PoolId;

/// Five pools that the first plans swap through move (a swap on each, one of them a third of
/// its reserve, as between two blocks) after the graph has quoted (its index built): every
/// request then quotes exactly as on a graph that was given those states before its first
/// quote (its index built on them), and the moves change some plans.
#[test]
fn quotes_after_set_pool_state_equal_quotes_on_a_fresh_graph() {
    let (t, p) = (60, 400);
    let m = route_gen::market(1000 + p as u64, t, p);
    let reqs = route_gen::bench_requests(&m, t, p as u64);
    let mut patched = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    let before: Vec<_> = reqs.iter().map(|r| route::quote(&patched, r)).collect();
    // the first pool of each plan, five distinct ones
    let mut pools: Vec<PoolId> = Vec::new();
    for plan in before.iter().flatten() {
        if let Some(Step::Swap { pool, .. }) = plan.steps.first() {
            if !pools.contains(pool) && pools.len() < 5 {
                pools.push(*pool);
            }
        }
    }
    assert_eq!(pools.len(), 5, "{pools:?}");
    let moved: Vec<_> = pools
        .iter()
        .enumerate()
        .map(|(k, pid)| {
            let pool = &patched.pool(*pid).unwrap().pool;
            let a = pool.balances()[0] / if k == 2 { 3u32 } else { 1000 };
            (*pid, pool.swap(0, 1, a).unwrap().1)
        })
        .collect();
    for (pid, s) in &moved {
        patched.set_pool_state(*pid, s.clone()).unwrap();
    }
    let mut fresh = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    for (pid, s) in &moved {
        fresh.set_pool_state(*pid, s.clone()).unwrap();
    }
    let mut changed = 0;
    for (k, r) in reqs.iter().enumerate() {
        let a = route::quote(&patched, r);
        assert_eq!(a, route::quote(&fresh, r), "request {k}");
        changed += usize::from(a != before[k]);
    }
    assert!(changed >= 5, "only {changed} plans moved");
}
