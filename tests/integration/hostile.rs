//! Hostile snapshots (issue 13): contradictory or malformed snapshots are refused with a typed
//! error naming the pool, token and field; nothing is silently defaulted or rewritten.

use serde_json::{json, Value};
use swapzap::error::{RouteError, RouteFilter, SnapshotError};
use swapzap::graph::PoolGraph;
use swapzap::snapshot::{strip_bom, Snapshot};

const WETH: &str = "0x00000000000000000000000000000000000000a1";
const USDC: &str = "0x00000000000000000000000000000000000000b2";
const USDT: &str = "0x00000000000000000000000000000000000000c3";
const DAI: &str = "0x00000000000000000000000000000000000000d4";
const PAIR: &str = "0x0000000000000000000000000000000000001001";
const PAIR2: &str = "0x0000000000000000000000000000000000001002";
const CURVE: &str = "0x0000000000000000000000000000000000002001";
const CURVE2: &str = "0x0000000000000000000000000000000000002002";
const CRV_LP: &str = "0x0000000000000000000000000000000000003001";

fn cp(addr: &str, a: &str, b: &str) -> Value {
    json!({
        "id": format!("uniswap-v2:{addr}"), "source": "uniswap-v2", "kind": "constant_product",
        "tokens": [a, b], "reserves": ["1000000000000000000000", "3000000000000"],
        "fee": {"num": "3", "den": "1000"}
    })
}

fn curve(addr: &str, lp: &str) -> Value {
    json!({
        "id": format!("curve:{addr}"), "source": "curve", "kind": "stableswap",
        "tokens": [DAI, USDC, USDT],
        "reserves": ["1000000000000000000000000", "1000000000000", "1000000000000"],
        "fee": "4000000", "a": "200000", "a_precision": "100",
        "rates": ["1000000000000000000", "1000000000000000000000000000000",
                  "1000000000000000000000000000000"],
        "lp_token": lp
    })
}

fn snapshot(pools: Vec<Value>) -> Value {
    json!({
        "chain_id": 1,
        "tokens": [
            {"address": WETH, "symbol": "WETH", "decimals": 18},
            {"address": USDC, "symbol": "USDC", "decimals": 6},
            {"address": USDT, "symbol": "USDT", "decimals": 6},
            {"address": DAI, "symbol": "DAI", "decimals": 18}
        ],
        "pools": pools
    })
}

fn graph(v: Value) -> Result<PoolGraph, SnapshotError> {
    let snap: Snapshot = serde_json::from_value(v).unwrap();
    PoolGraph::from_snapshot(&snap)
}

/// An `Inconsistent` error on pool `pool`, token `token` (case-insensitive), field `field`.
fn expect_inconsistent(r: Result<PoolGraph, SnapshotError>, pool: &str, token: &str, field: &str) {
    match r {
        Err(e @ SnapshotError::Inconsistent { .. }) => {
            let SnapshotError::Inconsistent {
                pool: p,
                token: t,
                field: f,
                ..
            } = &e
            else {
                unreachable!()
            };
            assert!(p.ends_with(pool), "{e}");
            assert!(t.eq_ignore_ascii_case(token), "{e}");
            assert_eq!(*f, field, "{e}");
            assert_eq!(e.code(), 4035);
            // the message names all three
            let msg = e.to_string();
            assert!(msg.contains(pool) && msg.contains(field), "{msg}");
        }
        other => panic!("expected Inconsistent on {pool}/{token}/{field}, got {other:?}"),
    }
}

#[test]
fn well_formed_snapshot_loads() {
    let g = graph(snapshot(vec![
        cp(PAIR, WETH, USDC),
        cp(PAIR2, WETH, USDT),
        curve(CURVE, CRV_LP),
    ]))
    .unwrap();
    assert_eq!(g.n_pools(), 3);
}

#[test]
fn unknown_pool_key_is_refused_not_dropped() {
    let mut p = cp(PAIR, WETH, USDC);
    p["fees_bps"] = json!("30");
    let e = serde_json::from_value::<Snapshot>(snapshot(vec![p])).unwrap_err();
    assert!(e.to_string().contains("unknown field `fees_bps`"), "{e}");
    // misspelt keys on the token table and the top level too
    let mut s = snapshot(vec![cp(PAIR, WETH, USDC)]);
    s["tokens"][0]["decimal"] = json!(18);
    let e = serde_json::from_value::<Snapshot>(s).unwrap_err();
    assert!(e.to_string().contains("unknown field `decimal`"), "{e}");
    let mut s = snapshot(vec![cp(PAIR, WETH, USDC)]);
    s["chainid"] = json!(1);
    assert!(serde_json::from_value::<Snapshot>(s).is_err());
}

#[test]
fn missing_constant_product_fee_is_an_error_not_three_per_mille() {
    let mut p = cp(PAIR, WETH, USDC);
    p.as_object_mut().unwrap().remove("fee");
    match graph(snapshot(vec![p])) {
        Err(SnapshotError::BadPool { pool, why }) => {
            assert_eq!(pool, format!("uniswap-v2:{PAIR}"));
            assert_eq!(why, swapzap::error::BadPoolProblem::CpFeeMissing);
            assert!(why.to_string().contains("fee"), "{why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn utf8_bom_is_tolerated_through_strip_bom() {
    let text = format!("\u{feff}{}", snapshot(vec![cp(PAIR, WETH, USDC)]));
    assert!(serde_json::from_str::<Snapshot>(&text).is_err());
    let snap: Snapshot = serde_json::from_str(strip_bom(&text)).unwrap();
    assert_eq!(PoolGraph::from_snapshot(&snap).unwrap().n_pools(), 1);
    assert_eq!(strip_bom("{}"), "{}");
}

#[test]
fn non_integer_json_number_is_refused_with_its_position() {
    let text = snapshot(vec![cp(PAIR, WETH, USDC)])
        .to_string()
        .replace("\"3000000000000\"", "3000000000000.5");
    let e = serde_json::from_str::<Snapshot>(&text).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("integer"), "{msg}");
    assert!(e.line() >= 1 && e.column() > 0, "{msg}");
    assert!(!msg.contains("untagged"), "{msg}");
}

#[test]
fn solidly_decimals_disagreeing_with_token_table_are_refused() {
    let p = json!({
        "id": format!("aerodrome:{PAIR}"), "source": "aerodrome", "kind": "solidly",
        "tokens": [WETH, USDC], "reserves": ["1000000000000000000000", "3000000000000"],
        "stable": false, "fee_bps": "30", "decimals": [18, 18]
    });
    expect_inconsistent(graph(snapshot(vec![p])), PAIR, USDC, "decimals");
}

#[test]
fn curve_rates_written_for_other_decimals_are_refused() {
    // USDC's rate written as for an 18-decimal coin: 10^12 too small
    let mut p = curve(CURVE, CRV_LP);
    p["rates"][1] = json!("1000000000000000000");
    expect_inconsistent(graph(snapshot(vec![p])), CURVE, USDC, "rates");
    // an oracle rate a little above 10^(36 - d) is fine (stableswap-ng)
    let mut p = curve(CURVE, CRV_LP);
    p["variant"] = json!("ng");
    p["rates"][0] = json!("1100000000000000000");
    if let Err(e) = graph(snapshot(vec![p])) {
        panic!("{e}");
    }
}

#[test]
fn foreign_lp_token_of_a_pair_is_refused() {
    // USDT as the LP token of a WETH/USDC pair
    let mut p = cp(PAIR, WETH, USDC);
    p["lp_token"] = json!(USDT);
    expect_inconsistent(graph(snapshot(vec![p])), PAIR, USDT, "lp_token");
    // the pair's own address is fine (any case)
    let mut p = cp(PAIR, WETH, USDC);
    p["lp_token"] = json!(PAIR.to_uppercase().replace("0X", "0x"));
    assert!(graph(snapshot(vec![p])).is_ok());
}

#[test]
fn curve_lp_token_that_is_its_own_coin_or_another_pools_is_refused() {
    expect_inconsistent(
        graph(snapshot(vec![curve(CURVE, USDT)])),
        CURVE,
        USDT,
        "lp_token",
    );
    expect_inconsistent(
        graph(snapshot(vec![curve(CURVE, CRV_LP), curve(CURVE2, CRV_LP)])),
        CURVE2,
        CRV_LP,
        "lp_token",
    );
}

#[test]
fn evm_address_in_chain_101_snapshot_is_refused() {
    let mut s = snapshot(vec![]);
    s["chain_id"] = json!(101);
    assert!(matches!(graph(s), Err(SnapshotError::BadAddress(a)) if a == WETH));
    // base58 that is not 32 bytes
    let s = json!({"chain_id": 101, "pools": [],
        "tokens": [{"address": "So1111111111111111111111111111111", "decimals": 9}]});
    assert!(matches!(graph(s), Err(SnapshotError::BadAddress(_))));
    let s = json!({"chain_id": 101, "pools": [],
        "tokens": [{"address": "So11111111111111111111111111111111111111112", "decimals": 9}]});
    assert!(graph(s).is_ok());
}

#[test]
fn token_decimals_out_of_range_name_the_token() {
    let mut s = snapshot(vec![]);
    s["tokens"][1]["decimals"] = json!(78);
    match graph(s) {
        Err(e @ SnapshotError::BadToken { .. }) => {
            assert!(e.to_string().contains(USDC), "{e}");
            assert_eq!(e.code(), 4034);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bundled_snapshots_pass_the_consistency_checks() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["data/snapshot.json", "data/snapshot-101.json"] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let snap: Snapshot = serde_json::from_str(strip_bom(&text)).unwrap();
        PoolGraph::from_snapshot(&snap).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

/// A WETH/USDC pair with a reserve above uint112 (the V2 contract cannot hold it) and a
/// Curve pool whose scaled balance overflows 256 bits (no invariant), beside good pools.
fn poisoned() -> Value {
    let mut bad_pair = cp(PAIR2, WETH, USDC);
    bad_pair["reserves"][0] = json!("5192296858534827628530496329220096"); // 2^112
    let mut bad_curve = curve(CURVE2, CRV_LP);
    bad_curve["reserves"][0] = json!(format!("1{}", "0".repeat(60)));
    let mut good_curve = curve(CURVE, "0x0000000000000000000000000000000000003002");
    good_curve["tokens"] = json!([DAI, USDC, USDT]);
    snapshot(vec![
        cp(PAIR, WETH, USDC),
        bad_pair,
        bad_curve,
        good_curve,
        cp("0x0000000000000000000000000000000000001003", WETH, USDT),
    ])
}

#[test]
fn poisoned_pools_are_quarantined_and_the_quote_goes_on() {
    use num_rational::Ratio;
    use swapzap::route::{quote, RouteRequest};
    use swapzap::U256;
    let g = graph(poisoned()).unwrap();
    // the pair whose state cannot be built is left out; the Curve pool whose invariant cannot
    // be computed stays for its LP operations (a withdrawal needs no D), without routing edges
    assert_eq!(g.n_pools(), 4);
    let q = g.quarantined();
    assert_eq!(q.len(), 2);
    assert_eq!(q[0].id, format!("uniswap-v2:{PAIR2}"));
    assert_eq!(q[1].id, format!("curve:{CURVE2}"));
    for x in q {
        match &x.reason {
            SnapshotError::PoolState { pool, .. } => assert_eq!(pool, &x.id),
            other => panic!("{other:?}"),
        }
        assert_eq!(x.reason.code(), 4036);
    }
    assert!(g.pool_id(&q[0].id).is_none());
    let kept = g.pool_id(&q[1].id).unwrap();
    assert!(!g.pool(kept).unwrap().routable);
    assert!(g.token_id(CRV_LP).is_some());
    // WETH -> DAI needs two hops through the good pools
    let weth = g.token_id(WETH).unwrap();
    let dai = g.token_id(DAI).unwrap();
    let req = RouteRequest::new(
        vec![(weth, U256::exp10(18))],
        vec![(dai, Ratio::from_integer(1))],
    );
    let plan = quote(&g, &req).unwrap();
    plan.verify(&g).unwrap();
    assert!(plan.steps.len() >= 2);
}

#[test]
fn strict_loading_refuses_a_poisoned_pool_by_id() {
    match PoolGraph::from_snapshot_strict(&serde_json::from_value(poisoned()).unwrap()) {
        Err(e @ SnapshotError::PoolState { .. }) => {
            assert!(e.to_string().contains(PAIR2), "{e}");
        }
        other => panic!("{other:?}"),
    }
    let good: Snapshot =
        serde_json::from_value(snapshot(vec![cp(PAIR, WETH, USDC), curve(CURVE, CRV_LP)])).unwrap();
    let g = PoolGraph::from_snapshot_strict(&good).unwrap();
    assert!(g.quarantined().is_empty());
}

#[test]
fn quarantined_pool_id_repeated_is_still_a_duplicate() {
    let mut s = poisoned();
    let again = s["pools"][1].clone();
    s["pools"].as_array_mut().unwrap().push(again);
    assert!(matches!(graph(s), Err(SnapshotError::Duplicate(id)) if id.ends_with(PAIR2)));
}

#[test]
fn no_route_only_when_no_path_exists_else_the_typed_reason() {
    use num_rational::Ratio;
    use swapzap::route::{quote, RouteRequest};
    use swapzap::U256;
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC), curve(CURVE, CRV_LP)])).unwrap();
    let (weth, dai) = (g.token_id(WETH).unwrap(), g.token_id(DAI).unwrap());
    let req = || {
        RouteRequest::new(
            vec![(weth, U256::exp10(18))],
            vec![(dai, Ratio::from_integer(1))],
        )
    };
    // WETH -> USDC -> DAI needs 2 hops
    let mut r = req();
    r.max_hops = Some(1);
    assert_eq!(
        quote(&g, &r).unwrap_err(),
        RouteError::TooManyHops { max: 1, needed: 2 }
    );
    r.max_hops = Some(2);
    quote(&g, &r).unwrap().verify(&g).unwrap();
    // a whitelist without curve leaves no path
    let mut r = req();
    r.source_whitelist = Some(vec!["uniswap-v2".into()]);
    assert_eq!(
        quote(&g, &r).unwrap_err(),
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceWhitelist
        }
    );
    let mut r = req();
    r.source_blacklist = vec!["curve".into()];
    assert_eq!(
        quote(&g, &r).unwrap_err(),
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceBlacklist
        }
    );
    // WETH in no pool with DAI's side at all: a true no route
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC), cp(PAIR2, DAI, USDT)])).unwrap();
    let r = RouteRequest::new(
        vec![(g.token_id(WETH).unwrap(), U256::exp10(18))],
        vec![(g.token_id(DAI).unwrap(), Ratio::from_integer(1))],
    );
    assert_eq!(quote(&g, &r).unwrap_err(), RouteError::NoRoute);
}

// ---- routing on hostile snapshots: quarantine during routing, typed errors, options ----

use num_rational::Ratio;
use swapzap::plan::Plan;
use swapzap::route::{quote, RouteRequest};
use swapzap::{PoolError, U256};

/// 2^112 − 1, the largest reserve a Uniswap V2 pair stores.
const UINT112_MAX: &str = "5192296858534827628530496329220095";

/// A one-output request of `amount` base units of `from` for `to`.
fn req(g: &PoolGraph, from: &str, to: &str, amount: U256) -> RouteRequest {
    RouteRequest::new(
        vec![(g.token_id(from).unwrap(), amount)],
        vec![(g.token_id(to).unwrap(), Ratio::from_integer(1))],
    )
}

/// The plan verifies exactly, its bound is at least its value, and it reads back from its
/// JSON unchanged (the excluded pools included).
fn check_plan(g: &PoolGraph, plan: &Plan) {
    plan.verify(g).unwrap();
    let ub = plan.upper_bound.expect("a quote has a bound");
    assert!(plan.value <= ub, "value {} above bound {ub}", plan.value);
    let back = Plan::from_json(&plan.to_json(g).unwrap(), g).unwrap();
    assert_eq!(&back.excluded, &plan.excluded);
}

/// A WETH/USDC pair at the uint112 edge: it loads (its state is valid) and its price matches
/// the other pairs, so the router sends it most of the flow, but any WETH swapped in pushes
/// its reserve past uint112 and the pair's `swap` reverts.
fn edge_pair() -> Value {
    let mut p = cp(PAIR2, WETH, USDC);
    // 3000 USDC (6 decimals) per WETH (18 decimals): r1 = r0 · 3000e6 / 1e18
    let r0 = U256::from_dec_str(UINT112_MAX).unwrap() - U256::from(1000u32);
    let r1 = r0 * U256::from(3_000_000_000u64) / U256::exp10(18);
    p["reserves"] = json!([r0.to_string(), r1.to_string()]);
    p
}

#[test]
fn pool_reverting_in_simulation_is_left_out_listed_and_the_quote_goes_on() {
    let g = graph(snapshot(vec![
        cp(PAIR, WETH, USDC),
        edge_pair(),
        cp("0x0000000000000000000000000000000000001003", WETH, USDT),
        curve(CURVE, CRV_LP),
    ]))
    .unwrap();
    assert!(g.quarantined().is_empty(), "the edge pair's state is valid");
    let bad = g.pool_id(&format!("uniswap-v2:{PAIR2}")).unwrap();
    let plan = quote(&g, &req(&g, WETH, USDC, U256::exp10(18))).unwrap();
    check_plan(&g, &plan);
    assert_eq!(plan.excluded.len(), 1, "{:?}", plan.excluded);
    assert_eq!(plan.excluded[0].pool, bad);
    assert_eq!(plan.excluded[0].error, PoolError::ReserveOverflow);
    assert!(plan.steps.iter().all(|s| !matches!(
        s,
        swapzap::plan::Step::Swap { pool, .. } if *pool == bad
    )));
    // the exact output is the good pair's alone (or through the Curve pool): independently,
    // 1 WETH into the plain pair gives getAmountOut(1e18, 1000e18, 3e12)
    let direct = v2_out(
        U256::exp10(18),
        U256::exp10(21),
        U256::from(3_000_000_000_000u64),
    );
    assert!(plan.outputs[0].amount >= direct);
    // the JSON names the pool and the reason, and reads back
    let j: Value = serde_json::to_value(plan.to_json(&g).unwrap()).unwrap();
    assert_eq!(
        j["excluded"][0]["pool"],
        json!(format!("uniswap-v2:{PAIR2}"))
    );
    assert_eq!(
        j["excluded"][0]["reason"],
        json!(PoolError::ReserveOverflow.to_string())
    );
    // the bound still covers plans through the edge pair (it is not dropped from the dual):
    // with the pair taking the whole trade at its mid price the output would be ≈ 3000 USDC
    assert!(
        plan.upper_bound.unwrap() > 2_990e6,
        "{:?}",
        plan.upper_bound
    );
}

#[test]
fn plan_without_exclusions_writes_no_excluded_key() {
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC)])).unwrap();
    let plan = quote(&g, &req(&g, WETH, USDC, U256::exp10(18))).unwrap();
    assert!(plan.excluded.is_empty());
    let j = serde_json::to_string(&plan.to_json(&g).unwrap()).unwrap();
    assert!(!j.contains("excluded"), "{j}");
}

#[test]
fn simulation_error_names_the_pool() {
    let e = RouteError::Simulation {
        pool: format!("uniswap-v2:{PAIR2}"),
        error: PoolError::ReserveOverflow,
    };
    assert_eq!(e.code(), 4020);
    assert!(e.to_string().contains(PAIR2), "{e}");
}

/// WETH/USDC and USDC/DAI pairs (both with the `cp` reserves 1000e18 / 3e12).
fn weth_usdc_dai() -> PoolGraph {
    graph(snapshot(vec![
        cp(PAIR, WETH, USDC),
        cp("0x0000000000000000000000000000000000001003", USDC, DAI),
    ]))
    .unwrap()
}

/// Uniswap V2 `getAmountOut` with the 0.3 % fee, written out independently of the library.
fn v2_out(a: U256, r_in: U256, r_out: U256) -> U256 {
    a * 997 * r_out / (r_in * 1000 + a * 997)
}

#[test]
fn one_wei_dust_is_amount_too_small_not_no_route() {
    let g = weth_usdc_dai();
    // 1 wei of WETH gives 0 USDC (getAmountOut floors 2.99e-6 to 0), so nothing reaches DAI
    for to in [USDC, DAI] {
        let e = quote(&g, &req(&g, WETH, to, U256::one())).unwrap_err();
        assert_eq!(
            e,
            RouteError::AmountTooSmall {
                from: g.token_id(WETH).unwrap(),
                to: g.token_id(to).unwrap()
            }
        );
        assert_eq!(e.code(), 4007);
        assert!(swapzap::Error::from(e).remedy().is_some());
    }
    // 1e9 wei is not dust: getAmountOut(1e9, 1e21, 3e12) = 2 base units of USDC
    let a = U256::exp10(9);
    let plan = quote(&g, &req(&g, WETH, USDC, a)).unwrap();
    check_plan(&g, &plan);
    let want = v2_out(a, U256::exp10(21), U256::from(3_000_000_000_000u64));
    assert_eq!(want, U256::from(2u8));
    assert_eq!(plan.outputs[0].amount, want);
}

#[test]
fn amount_beyond_every_pool_is_insufficient_liquidity() {
    let g = weth_usdc_dai();
    // 2^120 wei: the pair's WETH reserve would pass uint112, so its swap reverts
    let e = quote(&g, &req(&g, WETH, DAI, U256::one() << 120)).unwrap_err();
    assert_eq!(
        e,
        RouteError::InsufficientLiquidity {
            from: g.token_id(WETH).unwrap(),
            to: g.token_id(DAI).unwrap()
        }
    );
    assert_eq!(e.code(), 4001);
}

#[test]
fn exact_out_beyond_the_reserves_is_insufficient_liquidity() {
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC)])).unwrap();
    let mut r = req(&g, WETH, USDC, U256::exp10(30));
    // the pair holds 3e12 USDC base units: no input buys them all
    r.exact_out = Some(U256::from(3_000_000_000_000u64));
    assert!(matches!(
        quote(&g, &r),
        Err(RouteError::InsufficientLiquidity { .. })
    ));
    // within the reserves but beyond the input cap: the cap is the problem (4006)
    let mut r = req(&g, WETH, USDC, U256::exp10(15));
    r.exact_out = Some(U256::from(1_000_000_000u64));
    assert!(matches!(
        quote(&g, &r),
        Err(RouteError::ExactOutUnreachable { .. })
    ));
}

#[test]
fn too_many_hops_names_the_hops_needed() {
    // WETH -> USDC -> DAI -> USDT, nothing shorter (reserves at 3000 USDC per WETH, 1:1
    // between the dollars)
    let mut usdc_dai = cp(PAIR2, USDC, DAI);
    usdc_dai["reserves"] = json!(["1000000000000", "1000000000000000000000000"]);
    let mut dai_usdt = cp("0x0000000000000000000000000000000000001003", DAI, USDT);
    dai_usdt["reserves"] = json!(["1000000000000000000000000", "1000000000000"]);
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC), usdc_dai, dai_usdt])).unwrap();
    for max in 1..=2 {
        let mut r = req(&g, WETH, USDT, U256::exp10(18));
        r.max_hops = Some(max);
        let e = quote(&g, &r).unwrap_err();
        assert_eq!(e, RouteError::TooManyHops { max, needed: 3 });
        assert!(e.to_string().contains("needs 3"), "{e}");
    }
    let mut r = req(&g, WETH, USDT, U256::exp10(18));
    r.max_hops = Some(3);
    check_plan(&g, &quote(&g, &r).unwrap());
}

#[test]
fn all_routes_filtered_names_the_filter() {
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC), curve(CURVE, CRV_LP)])).unwrap();
    let base = || req(&g, WETH, DAI, U256::exp10(18));
    // the whitelist alone, the blacklist alone, and only the two together
    let mut r = base();
    r.source_whitelist = Some(vec!["uniswap-v2".into()]);
    let e = quote(&g, &r).unwrap_err();
    assert_eq!(
        e,
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceWhitelist
        }
    );
    assert!(e.to_string().contains("sourceWhitelist"), "{e}");
    let mut r = base();
    r.source_blacklist = vec!["curve".into()];
    assert_eq!(
        quote(&g, &r).unwrap_err(),
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceBlacklist
        }
    );
    let mut r = base();
    r.source_whitelist = Some(vec!["curve".into()]);
    r.source_blacklist = vec!["uniswap-v2".into()];
    assert_eq!(
        quote(&g, &r).unwrap_err(),
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceWhitelistAndBlacklist
        }
    );
}

#[test]
fn unknown_whitelisted_source_is_named_with_the_nearest_id() {
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC)])).unwrap();
    let mut r = req(&g, WETH, USDC, U256::exp10(18));
    r.source_whitelist = Some(vec!["Uniswap_V2".into()]);
    let e = quote(&g, &r).unwrap_err();
    assert_eq!(
        e,
        RouteError::UnknownSource {
            id: "Uniswap_V2".into(),
            suggestion: Some("uniswap-v2".into())
        }
    );
    assert_eq!(e.code(), 4008);
    assert!(e.to_string().contains("did you mean \"uniswap-v2\""), "{e}");
    r.source_whitelist = Some(vec!["balancer".into()]);
    assert!(matches!(
        quote(&g, &r),
        Err(RouteError::UnknownSource {
            suggestion: None,
            ..
        })
    ));
}

#[test]
fn caller_sizes_beyond_their_range_are_typed_errors() {
    use swapzap::route::{GasModel, MAX_HOPS_LIMIT};
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC)])).unwrap();
    let base = || req(&g, WETH, USDC, U256::exp10(18));
    for h in [0, MAX_HOPS_LIMIT + 1, 1_000_000_000, usize::MAX] {
        let mut r = base();
        r.max_hops = Some(h);
        assert!(
            matches!(quote(&g, &r), Err(RouteError::BadRequest(_))),
            "{h}"
        );
    }
    for p in [f64::NAN, f64::INFINITY, -1.0] {
        let mut r = base();
        r.gas = Some(GasModel::typical(p));
        assert!(
            matches!(quote(&g, &r), Err(RouteError::BadRequest(_))),
            "{p}"
        );
    }
    // pricing: a hop count beyond the limit is refused
    let weth = g.token_id(WETH).unwrap();
    assert!(swapzap::service::pricing::price_table(&g, weth, usize::MAX).is_err());
    assert!(swapzap::service::pricing::price_table(&g, weth, MAX_HOPS_LIMIT).is_ok());
}

#[test]
fn zap_options_beyond_their_range_are_typed_errors() {
    use swapzap::error::ZapError;
    use swapzap::zap::{zap_in, zap_in_pool, ZapConfig, ZapOptions};
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC)])).unwrap();
    let pair = g.pool_id(&format!("uniswap-v2:{PAIR}")).unwrap();
    let pool = &g.pool(pair).unwrap().pool;
    let amounts = [U256::exp10(18), U256::zero()];
    for (cfg, field) in [
        (
            ZapConfig {
                curve_search_budget: u32::MAX,
                ..ZapConfig::default()
            },
            "curve_search_budget",
        ),
        (
            ZapConfig {
                surplus_threshold_ppm: 1_000_001,
                ..ZapConfig::default()
            },
            "surplus_threshold_ppm",
        ),
    ] {
        match zap_in_pool(pool, &amounts, &cfg) {
            Err(e @ ZapError::BadOption { .. }) => {
                assert!(e.to_string().contains(field), "{e}");
                assert_eq!(e.code(), 5012);
            }
            other => panic!("{other:?}"),
        }
    }
    let weth = g.token_id(WETH).unwrap();
    let lp = g.pool(pair).unwrap().lp_token;
    let opts = ZapOptions {
        fee_bps: 10_001,
        ..ZapOptions::default()
    };
    let r = zap_in(&g, &[(weth, U256::exp10(18))], lp, &opts);
    assert!(
        matches!(
            r,
            Err(ZapError::BadOption {
                field: "fee_bps",
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn arbitrage_cycle_in_the_snapshot_quotes_verifies_and_stays_within_the_bound() {
    // two WETH/USDC pairs 10 % apart (3000 and 3300 USDC per WETH): WETH -> USDC on the
    // cheap pair and back on the dear one is a profitable cycle
    let mut dear = cp(PAIR2, WETH, USDC);
    dear["reserves"] = json!(["1000000000000000000000", "3300000000000"]);
    let g = graph(snapshot(vec![
        cp(PAIR, WETH, USDC),
        dear,
        cp("0x0000000000000000000000000000000000001003", USDC, DAI),
        curve(CURVE, CRV_LP),
    ]))
    .unwrap();
    for (from, to, amount) in [
        (WETH, USDC, U256::exp10(18)),
        (WETH, DAI, U256::exp10(19)),
        (USDC, WETH, U256::from(5_000_000_000u64)),
        (DAI, USDT, U256::exp10(21)),
    ] {
        let plan = quote(&g, &req(&g, from, to, amount)).unwrap();
        check_plan(&g, &plan);
        // under a hop cap the plan takes no cyclic profit: no step's input token is the
        // output token of a later step; without one it may take the cycle (`route`'s
        // Arbitrage paragraph), and then gives at least the capped plan
        let mut capped_req = req(&g, from, to, amount);
        capped_req.max_hops = Some(4);
        let capped = quote(&g, &capped_req).unwrap();
        check_plan(&g, &capped);
        for (k, s) in capped.steps.iter().enumerate() {
            let swapzap::plan::Step::Swap { token_in, .. } = s else {
                unreachable!()
            };
            assert!(capped.steps[k + 1..].iter().all(|t| !matches!(
                t,
                swapzap::plan::Step::Swap { token_out, .. } if token_out == token_in
            )));
        }
        assert!(plan.outputs[0].amount >= capped.outputs[0].amount);
    }
    // WETH -> USDC takes the dear pair (it pays more USDC), at least what it alone gives
    let plan = quote(&g, &req(&g, WETH, USDC, U256::exp10(18))).unwrap();
    let dear_alone = v2_out(
        U256::exp10(18),
        U256::exp10(21),
        U256::from(3_300_000_000_000u64),
    );
    assert!(plan.outputs[0].amount >= dear_alone);
}

/// A path whose middle token is worth so much per base unit that the input buys less than one
/// unit of it: the float model makes more of that path than of the direct pool, but exactly it
/// delivers 0 (the swap floors to nothing). The quote must take the direct pool, not answer
/// "amount too small" (it did: the single-path search chose by float amounts).
#[test]
fn a_path_through_a_coarse_token_does_not_hide_the_direct_pool() {
    let pair = |addr: &str, a: &str, b: &str, r: [&str; 2]| {
        let mut p = cp(addr, a, b);
        p["reserves"] = json!(r);
        p
    };
    // 1 WETH buys 3 base units of USDC, one USDC unit buys 333e18 DAI: through USDC,
    // 1 WETH is worth about 1000e18 DAI; the direct pair pays about 500e18 DAI per WETH
    let g = graph(snapshot(vec![
        pair(PAIR, WETH, USDC, ["1000000000000000000000", "3000"]),
        pair(
            "0x0000000000000000000000000000000000001003",
            USDC,
            DAI,
            ["3000", "1000000000000000000000000"],
        ),
        pair(
            PAIR2,
            WETH,
            DAI,
            ["1000000000000000000000", "500000000000000000000000"],
        ),
    ]))
    .unwrap();
    let wei = U256::from(100_000_000_000_000_000u64); // 0.1 WETH: 0.3 units of USDC
                                                      // the coarse path gives nothing: getAmountOut(0.1e18, 1e21, 3000) = 0
    assert!(v2_out(wei, U256::exp10(21), U256::from(3000u32)).is_zero());
    let plan = quote(&g, &req(&g, WETH, DAI, wei)).unwrap();
    check_plan(&g, &plan);
    let direct = v2_out(wei, U256::exp10(21), U256::from(500u32) * U256::exp10(21));
    assert_eq!(plan.outputs[0].amount, direct);
    assert_eq!(plan.steps.len(), 1);
}
