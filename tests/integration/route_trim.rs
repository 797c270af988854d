//! The trim (`src/route/trim.rs`): a recovered plan's swaps at the least inputs that give the
//! same outputs. A tiny leg through a coarse-unit token against the brute-force optimum, and
//! no plan worse than the untrimmed one on the public instances and the bench markets.
#![allow(clippy::print_stderr)]

use num_rational::Ratio;
use swapzap::graph::PoolGraph;
use swapzap::plan::{Plan, Step};
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::TokenId;
use swapzap::U256;

/// Uniswap V2's output at a 0.3 % fee, written out here (not the crate's pool code).
fn cp_out(a: U256, r_in: U256, r_out: U256) -> U256 {
    let af = a * 997;
    af * r_out / (r_in * 1000 + af)
}

/// The least input whose [`cp_out`] is at least `w`: `ceil(r_in·w·1000 / ((r_out − w)·997))`
/// (`out(a) >= w` ⇔ `a·997·(r_out − w) >= w·r_in·1000`).
fn cp_least_in(w: U256, r_in: U256, r_out: U256) -> U256 {
    let num = r_in * w * 1000;
    let den = (r_out - w) * 997;
    (num + den - 1) / den
}

fn e18(x: u64) -> U256 {
    U256::from(x) * U256::exp10(18)
}

/// 1000 DAI (18 decimals) to X (18 decimals): a deep direct pool (1e6 / 1e6), and a path
/// through 8-decimal WBTC (one unit about 6e-4 USD) over two 20,000-USD pools whose zero-size
/// rate beats the direct pool's marginal rate after the trade by 1e-5, so the optimum sends it
/// about 0.05 DAI, 82.6 WBTC units. Propagated with floors, that leg gives away 0.6 of a WBTC
/// unit, more than it gains: the recovered plan is worse than the direct pool alone, and
/// without the trim the quote is the direct pool. Every plan on these pools is a split of the
/// 1000 DAI between the two paths; for each whole WBTC amount `w` the best such plan spends the
/// least DAI that buys `w` and the rest on the direct pool, so the optimum over all plans is
/// a maximum over `w`, computed here with the formulas written out. The trimmed plan spends
/// exactly that least DAI on its WBTC leg, so its output is that maximum's value at its own
/// `w`, within 1e-10 of the optimum (the float optimum puts `w` within a unit of the best).
#[test]
fn a_tiny_leg_through_wbtc_is_trimmed_to_the_brute_force_optimum() {
    let addr = |k: usize| format!("0x{k:040x}");
    let tokens = [("DAI", 18), ("WBTC", 8), ("X", 18)]
        .iter()
        .enumerate()
        .map(|(k, (s, d))| {
            format!(
                r#"{{ "address": "{}", "symbol": "{s}", "decimals": {d} }}"#,
                addr(k + 1)
            )
        })
        .collect::<Vec<_>>();
    let (r1, rd2, rw2, rw3) = (
        e18(1_000_000),
        e18(20_000),
        U256::from(33_333_333u64),
        33_333_333u64,
    );
    let rx3 = U256::from_dec_str("20020440484605962747904").unwrap();
    let pool = |id: usize, a: usize, b: usize, ra: U256, rb: U256| {
        format!(
            r#"{{ "id": "uniswap-v2:{}", "source": "uniswap-v2", "kind": "constant_product",
              "fee": {{ "num": "3", "den": "1000" }}, "tokens": ["{}", "{}"],
              "reserves": ["{ra}", "{rb}"] }}"#,
            addr(100 + id),
            addr(a + 1),
            addr(b + 1)
        )
    };
    let pools = [
        pool(1, 0, 2, r1, r1),
        pool(2, 0, 1, rd2, rw2),
        pool(3, 1, 2, U256::from(rw3), rx3),
    ];
    let snap: Snapshot = serde_json::from_str(&format!(
        r#"{{ "chain_id": 1, "tokens": [{}], "pools": [{}] }}"#,
        tokens.join(","),
        pools.join(",")
    ))
    .unwrap();
    let g = PoolGraph::from_snapshot(&snap).unwrap();
    let d = e18(1000);
    let req = RouteRequest::new(
        vec![(TokenId(0), d)],
        vec![(TokenId(2), Ratio::from_integer(1))],
    );
    // brute force over the WBTC amount
    let value = |w: u64| {
        if w == 0 {
            return cp_out(d, r1, r1);
        }
        let w = U256::from(w);
        let a = cp_least_in(w, rd2, rw2);
        cp_out(w, U256::from(rw3), rx3) + cp_out(d - a, r1, r1)
    };
    let direct = value(0);
    let (best_w, best) = (0..400u64)
        .map(|w| (w, value(w)))
        .max_by_key(|x| x.1)
        .unwrap();
    assert!(
        (60..110).contains(&best_w) && best > direct,
        "{best_w} {best}"
    );

    let untrimmed = route::quote_untrimmed(&g, &req).unwrap();
    untrimmed.verify(&g).unwrap();
    let plan = route::quote(&g, &req).unwrap();
    plan.verify(&g).unwrap();
    let out = |p: &Plan| p.outputs[0].amount;
    eprintln!(
        "direct {direct}, untrimmed {}, trimmed {}, brute force {best} at w = {best_w}",
        out(&untrimmed),
        out(&plan)
    );
    // the recovered plan lost to the direct pool alone, which the untrimmed quote returns
    assert_eq!(out(&untrimmed), direct);
    assert_eq!(untrimmed.steps.len(), 1);
    // the trimmed plan keeps the WBTC leg at the least DAI that buys its WBTC
    assert_eq!(plan.steps.len(), 3, "{:?}", plan.steps);
    let wbtc = plan
        .steps
        .iter()
        .find_map(|s| match s {
            Step::Swap {
                token_out: TokenId(1),
                amount_in,
                amount_out,
                ..
            } => Some((*amount_in, *amount_out)),
            _ => None,
        })
        .unwrap();
    assert_eq!(wbtc.0, cp_least_in(wbtc.1, rd2, rw2));
    assert_eq!(out(&plan), value(wbtc.1.as_u64()));
    assert!(out(&plan) > direct);
    let short = (best - out(&plan)).as_u128() as f64 / best.as_u128() as f64;
    assert!(short <= 1e-10, "{short:e} below the optimum");
}

/// The trim keeps a plan only where it nets more, so no quote is worse than the untrimmed
/// one: every public instance (and pub-00..09 capped at 2 hops) and the bench's normal and
/// heavy requests on the 400- and 2000-pool markets, each plan verified.
#[test]
fn trimmed_plans_are_never_worse_than_untrimmed() {
    let mut cases: Vec<(String, PoolGraph, Vec<RouteRequest>)> = Vec::new();
    for inst in crate::routing::instances() {
        let mut reqs = vec![inst.req.clone()];
        if inst.name.as_str() < "pub-10" {
            let mut r = inst.req.clone();
            r.max_hops = Some(2);
            reqs.push(r);
        }
        cases.push((inst.name, inst.graph, reqs));
    }
    for (pools, tokens) in [(400usize, 60usize), (2000, 300)] {
        use crate::routing::route_gen;
        let m = route_gen::market(1000 + pools as u64, tokens, pools);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let mut reqs = route_gen::bench_requests(&m, tokens, pools as u64);
        reqs.extend(route_gen::heavy_requests(&m, tokens, pools as u64));
        cases.push((format!("bench {pools} pools"), g, reqs));
    }
    let (mut better, mut same, mut n) = (0, 0, 0);
    for (name, g, reqs) in &cases {
        for (k, req) in reqs.iter().enumerate() {
            let (Ok(plan), Ok(before)) = (route::quote(g, req), route::quote_untrimmed(g, req))
            else {
                panic!("{name} request {k}: a quote failed");
            };
            plan.verify(g).unwrap();
            n += 1;
            assert!(
                plan.value >= before.value,
                "{name} request {k}: {} < {}",
                plan.value,
                before.value
            );
            if let ([a], [b]) = (&plan.outputs[..], &before.outputs[..]) {
                assert!(a.amount >= b.amount, "{name} request {k}");
            }
            if plan.value > before.value {
                better += 1;
            } else {
                same += 1;
            }
        }
    }
    eprintln!("{n} quotes: {better} better after the trim, {same} the same");
    assert_eq!(better + same, n);
    assert!(better > n / 4, "{better} of {n}");
}

/// A leg that spends its token's whole holding carries its siblings' savings onward, so the
/// trim may send more through a pool than the recovered plan did. Found by the `plan` fuzz
/// target: 1.04e34 units of the bundled snapshot's first token into its second within 7 hops;
/// the trim added 2.6e32 to the last leg into a V2 pair whose balance then passed `uint112`,
/// and took the pair's quote (which does not check that) for the swap (which reverts). Every
/// plan quoted here, from 2^100 units to past the limit, for every pair of the first four
/// tokens, must re-simulate exactly.
#[test]
fn trimmed_legs_near_the_v2_balance_limit_still_verify() {
    let snap: Snapshot =
        serde_json::from_str(include_str!("../../data/snapshot.json")).expect("bundled snapshot");
    let g = PoolGraph::from_snapshot(&snap).unwrap();
    let fuzz = (U256::from(562_949_955_518_502u64) << 64) | U256::from(256u64);
    let mut amounts = vec![fuzz];
    for e in 100..=113u32 {
        amounts.push(U256::one() << e);
        amounts.push((U256::one() << e) * 3 / 2);
    }
    let mut quoted = 0;
    for from in 0..4u32 {
        for to in 0..4u32 {
            if from == to {
                continue;
            }
            for a in &amounts {
                for hops in [None, Some(2), Some(7)] {
                    let mut req = RouteRequest::new(
                        vec![(TokenId(from), *a)],
                        vec![(TokenId(to), Ratio::new(1, 1))],
                    );
                    req.max_hops = hops;
                    if let Ok(plan) = route::quote(&g, &req) {
                        if let Err(e) = plan.verify(&g) {
                            panic!("{from}->{to} {a} hops {hops:?}: {e:?}");
                        }
                        quoted += 1;
                    }
                }
            }
        }
    }
    eprintln!("{quoted} plans verified");
    assert!(quoted > 100, "{quoted}");
}
