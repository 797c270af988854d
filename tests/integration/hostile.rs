//! Hostile snapshots (issue 13): contradictory or malformed snapshots are refused with a typed
//! error naming the pool, token and field; nothing is silently defaulted or rewritten.

use serde_json::{json, Value};
use swapzap::error::RouteError;
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

fn graph(v: Value) -> Result<PoolGraph, RouteError> {
    let snap: Snapshot = serde_json::from_value(v).unwrap();
    PoolGraph::from_snapshot(&snap)
}

/// An `Inconsistent` error on pool `pool`, token `token` (case-insensitive), field `field`.
fn expect_inconsistent(r: Result<PoolGraph, RouteError>, pool: &str, token: &str, field: &str) {
    match r {
        Err(e @ RouteError::Inconsistent { .. }) => {
            let RouteError::Inconsistent {
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
        Err(RouteError::BadPool { pool, why }) => {
            assert_eq!(pool, format!("uniswap-v2:{PAIR}"));
            assert!(why.contains("fee"), "{why}");
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
    assert!(matches!(graph(s), Err(RouteError::BadAddress(a)) if a == WETH));
    // base58 that is not 32 bytes
    let s = json!({"chain_id": 101, "pools": [],
        "tokens": [{"address": "So1111111111111111111111111111111", "decimals": 9}]});
    assert!(matches!(graph(s), Err(RouteError::BadAddress(_))));
    let s = json!({"chain_id": 101, "pools": [],
        "tokens": [{"address": "So11111111111111111111111111111111111111112", "decimals": 9}]});
    assert!(graph(s).is_ok());
}

#[test]
fn token_decimals_out_of_range_name_the_token() {
    let mut s = snapshot(vec![]);
    s["tokens"][1]["decimals"] = json!(78);
    match graph(s) {
        Err(e @ RouteError::BadToken { .. }) => {
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
            RouteError::PoolState { pool, .. } => assert_eq!(pool, &x.id),
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
        Err(e @ RouteError::PoolState { .. }) => {
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
    assert!(matches!(graph(s), Err(RouteError::Duplicate(id)) if id.ends_with(PAIR2)));
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
        RouteError::TooManyHops { max: 1 }
    );
    r.max_hops = Some(2);
    quote(&g, &r).unwrap().verify(&g).unwrap();
    // a whitelist without curve leaves no path
    let mut r = req();
    r.source_whitelist = Some(vec!["uniswap-v2".into()]);
    assert_eq!(quote(&g, &r).unwrap_err(), RouteError::AllRoutesFiltered);
    let mut r = req();
    r.source_blacklist = vec!["curve".into()];
    assert_eq!(quote(&g, &r).unwrap_err(), RouteError::AllRoutesFiltered);
    // WETH in no pool with DAI's side at all: a true no route
    let g = graph(snapshot(vec![cp(PAIR, WETH, USDC), cp(PAIR2, DAI, USDT)])).unwrap();
    let r = RouteRequest::new(
        vec![(g.token_id(WETH).unwrap(), U256::exp10(18))],
        vec![(g.token_id(DAI).unwrap(), Ratio::from_integer(1))],
    );
    assert_eq!(quote(&g, &r).unwrap_err(), RouteError::NoRoute);
}
