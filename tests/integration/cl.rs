//! Concentrated-liquidity pools as pools of a snapshot: the family verbs agree with the
//! contract's own records, snapshots build into the graph, and bad tick lists are typed errors
//! naming the pool.
use crate::vectors;
use swapzap::graph::PoolGraph;
use swapzap::pool::Pool;
use swapzap::snapshot::Snapshot;
use swapzap::{PoolError, SnapshotError, U256};

fn records() -> Vec<serde_json::Value> {
    crate::read_jsonl("vectors-cl/uniswap_v3.jsonl")
}

fn dec(v: &serde_json::Value) -> U256 {
    U256::from_dec_str(v.as_str().unwrap().trim_start_matches('-')).unwrap()
}

/// Every fully filled swap record, asked through the family verbs (`amount_out`, `swap`,
/// `amount_in_exact_out`), gives the amounts the contract returned.
#[test]
fn family_verbs_agree_with_the_contract_records() {
    let mut checked = 0;
    for v in records() {
        let op = &v["op"];
        if op["name"] != "swap" || v["expect"]["revert"].as_bool() == Some(true) {
            continue;
        }
        let pool = vectors::cl::pool_of(&v["pool"]).unwrap();
        let z = op["zero_for_one"].as_bool().unwrap();
        let (i, j) = if z { (0, 1) } else { (1, 0) };
        let e = &v["expect"];
        let (paid, got) = if z {
            (dec(&e["amount0"]), dec(&e["amount1"]))
        } else {
            (dec(&e["amount1"]), dec(&e["amount0"]))
        };
        let spec = op["amount_specified"].as_str().unwrap();
        let exact_in = !spec.starts_with('-');
        let specified = dec(&op["amount_specified"]);
        // Fully filled only (a partial fill is an error through the verbs, by design).
        if (exact_in && paid != specified) || (!exact_in && got != specified) {
            continue;
        }
        let p = Pool::ConcentratedLiquidity(pool.clone());
        if exact_in {
            assert_eq!(p.amount_out(i, j, specified).unwrap(), got, "{}", v["id"]);
            let (o, after) = p.swap(i, j, specified).unwrap();
            assert_eq!(o, got);
            let Pool::ConcentratedLiquidity(after) = after else {
                panic!("family changed")
            };
            assert_eq!(
                after.sqrt_price_x96(),
                dec(&e["sqrt_price_x96_after"]),
                "{}",
                v["id"]
            );
        } else {
            assert_eq!(
                pool.amount_in_exact_out(i, j, specified).unwrap(),
                paid,
                "{}",
                v["id"]
            );
            // The least input is at most the contract's exact-output charge and reaches it.
            let least = p.amount_in(i, j, specified).unwrap();
            assert!(least <= paid);
            assert!(p.amount_out(i, j, least).unwrap() >= specified);
        }
        checked += 1;
    }
    assert!(checked > 300, "only {checked} fully filled swaps");
}

fn snapshot(ticks: &str, tick: &str, liquidity: &str) -> String {
    format!(
        r#"{{"chain_id": 1,
        "tokens": [{{"address": "0x{a}", "decimals": 18}}, {{"address": "0x{b}", "decimals": 6}}],
        "pools": [{{"id": "uniswap-v3:0x{c}", "source": "uniswap-v3", "kind": "concentrated_liquidity",
            "tokens": ["0x{a}", "0x{b}"],
            "sqrt_price_x96": "79228162514264337593543950336", "tick": "{tick}", "liquidity": "{liquidity}",
            "fee": "3000", "tick_spacing": "60", "ticks": {ticks}}}]}}"#,
        a = "1".repeat(40),
        b = "2".repeat(40),
        c = "3".repeat(40),
    )
}

fn graph(json: &str) -> Result<PoolGraph, SnapshotError> {
    let s: Snapshot = serde_json::from_str(json).unwrap();
    PoolGraph::from_snapshot(&s)
}

const GOOD: &str = r#"[{"index": "-600", "liquidity_net": "1000000000000000000"},
                       {"index": 600, "liquidity_net": "-1000000000000000000"}]"#;

#[test]
fn a_snapshot_pool_builds_and_swaps_within_its_window() {
    let g = graph(&snapshot(GOOD, "0", "1000000000000000000")).unwrap();
    let pid = g
        .pool_id("uniswap-v3:0x3333333333333333333333333333333333333333")
        .unwrap();
    let p = &g.pool(pid).unwrap().pool;
    // At price 1 with L = 1e18 the range [-600, 600] holds L·(1 − 1/√1.0001^600) of each
    // token, about 2.95e16: the balances say so.
    let b = p.balances();
    assert!(b[0] > U256::exp10(16) * 29 / 10 && b[0] < U256::exp10(16) * 3);
    let out = p.amount_out(0, 1, U256::exp10(15)).unwrap();
    // 1e15 in at price 1, fee 0.3 %, a little price impact: just under 0.997e15.
    assert!(out < U256::from(997_000_000_000_000u64) && out > U256::from(990_000_000_000_000u64));
    // More than the window holds cannot be filled: no liquidity is promised past its edge.
    assert_eq!(
        p.amount_out(0, 1, U256::exp10(17)),
        Err(PoolError::InsufficientLiquidity)
    );
    assert_eq!(
        p.amount_in(0, 1, U256::exp10(17)),
        Err(PoolError::UnreachableOutput)
    );
    assert!(p.marginal_rate(0, 1) > 0.99 && p.marginal_rate(0, 1) < 0.998);
}

/// What a router offers a pool whose window it would overrun: the contract's partial fill up to
/// the window's edge, which an exact-in swap then takes whole. From price 1 down to tick −600
/// with L = 1e18 the pool absorbs L·(1.0001^300 − 1) net of the 0.3 % fee, about 3.01e16 gross,
/// and pays out L·(1 − 1.0001^−300) of token1; after it, not one more unit fits.
#[test]
fn an_offer_past_the_window_is_cut_to_what_the_window_absorbs() {
    let g = graph(&snapshot(GOOD, "0", "1000000000000000000")).unwrap();
    let pid = g
        .pool_id("uniswap-v3:0x3333333333333333333333333333333333333333")
        .unwrap();
    let p = &g.pool(pid).unwrap().pool;
    let small = U256::exp10(15);
    assert_eq!(p.exact_offer(0, 1, small), Ok(small));
    let x = p.exact_offer(0, 1, U256::exp10(17)).unwrap();
    let l = 1e18f64;
    let net_in = l * (1.0001f64.powi(300) - 1.0);
    let gross = net_in / 0.997;
    let xf = x.as_u128() as f64;
    assert!((xf / gross - 1.0).abs() < 1e-6, "{xf} vs {gross}");
    let (out, after) = p.swap(0, 1, x).unwrap();
    let want_out = l * (1.0 - 1.0001f64.powi(-300));
    assert!((out.as_u128() as f64 / want_out - 1.0).abs() < 1e-6);
    assert_eq!(
        after.swap(0, 1, U256::one()).map(|(o, _)| o),
        Err(PoolError::InsufficientLiquidity)
    );
    // offering it again changes nothing
    assert_eq!(p.exact_offer(0, 1, x), Ok(x));
}

#[test]
fn bad_tick_lists_are_errors_naming_the_pool() {
    let cases = [
        (
            r#"[{"index": "600", "liquidity_net": "-1"}, {"index": "-600", "liquidity_net": "1"}]"#,
            "0",
            "ascending",
        ),
        (
            r#"[{"index": "-599", "liquidity_net": "1"}, {"index": "600", "liquidity_net": "-1"}]"#,
            "0",
            "multiple of tick_spacing",
        ),
        (
            r#"[{"index": "-600", "liquidity_net": "5"}, {"index": "600", "liquidity_net": "-5"}]"#,
            "0",
            "below zero",
        ),
        (GOOD, "60", "not at tick"),
    ];
    for (ticks, tick, why_part) in cases {
        match graph(&snapshot(ticks, tick, "1")) {
            Err(SnapshotError::BadPool { pool, why }) => {
                assert_eq!(
                    pool,
                    "uniswap-v3:0x3333333333333333333333333333333333333333"
                );
                assert!(why.to_string().contains(why_part), "{why}");
            }
            other => panic!("{why_part}: {other:?}"),
        }
    }
    // A missing field is a typed error naming the pool and the field.
    let no_spacing = snapshot(GOOD, "0", "1").replace(r#""tick_spacing": "60","#, "");
    assert!(matches!(
        graph(&no_spacing),
        Err(SnapshotError::BadNumber {
            field: "tick_spacing",
            ..
        })
    ));
}

/// A WETH/USDC-like market: a deep CL pool (fee 0.05 %, ten 60-tick bands of liquidity either
/// side of the price), a thinner CL pool (0.3 %), a V2 pair, and a USDC/DAI V2 pair.
fn market() -> PoolGraph {
    use swapzap::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
    let (weth, usdc, dai) = ("1".repeat(40), "2".repeat(40), "4".repeat(40));
    // 2000 USDC (6 decimals) per WETH (18): raw price 2e-9, tick ≈ −200311.
    let tick = -200_311;
    let price = sqrt_ratio_at_tick(tick).unwrap().to_u256() + U256::from(1_000_000u64);
    let cl = |id: &str, fee: &str, spacing: i32, l: u128| {
        let base = tick.div_euclid(spacing) * spacing;
        let mut ticks = Vec::new();
        for k in (1..=10).rev() {
            ticks.push(serde_json::json!({"index": base - k * 6 * spacing, "liquidity_net": l.to_string()}));
        }
        for k in 1..=10 {
            ticks.push(serde_json::json!({"index": base + k * 6 * spacing, "liquidity_net": format!("-{l}")}));
        }
        serde_json::json!({
            "id": format!("uniswap-v3:0x{}", id.repeat(40)), "source": "uniswap-v3",
            "kind": "concentrated_liquidity", "tokens": [format!("0x{weth}"), format!("0x{usdc}")],
            "sqrt_price_x96": price.to_string(), "tick": tick.to_string(),
            "liquidity": (l * 10).to_string(), "fee": fee, "tick_spacing": spacing.to_string(),
            "ticks": ticks,
        })
    };
    let v2 = |id: &str, a: &str, b: &str, ra: &str, rb: &str| {
        serde_json::json!({
            "id": format!("uniswap-v2:0x{}", id.repeat(40)), "source": "uniswap-v2",
            "kind": "constant_product", "tokens": [format!("0x{a}"), format!("0x{b}")],
            "reserves": [ra, rb], "fee": {"num": "3", "den": "1000"},
        })
    };
    let snap = serde_json::json!({
        "chain_id": 1,
        "tokens": [
            {"address": format!("0x{weth}"), "decimals": 18},
            {"address": format!("0x{usdc}"), "decimals": 6},
            {"address": format!("0x{dai}"), "decimals": 18},
        ],
        "pools": [
            cl("a", "500", 10, 2_000_000_000_000_000_000),
            cl("b", "3000", 60, 300_000_000_000_000_000),
            v2("c", &weth, &usdc, "2000000000000000000000", "4000000000000"),
            v2("d", &usdc, &dai, "10000000000000", "10000000000000000000000000"),
        ],
    });
    let s: Snapshot = serde_json::from_value(snap).unwrap();
    PoolGraph::from_snapshot(&s).unwrap()
}

/// Routing over CL pools: plans verify exactly, the deep CL pool carries flow, the bound holds,
/// and a split beats every single pool.
#[test]
fn routing_through_cl_pools_verifies_with_a_valid_bound() {
    use num_rational::Ratio;
    use swapzap::plan::Step;
    use swapzap::route::{quote, RouteRequest};
    let g = market();
    let weth = g.token_id(&format!("0x{}", "1".repeat(40))).unwrap();
    let usdc = g.token_id(&format!("0x{}", "2".repeat(40))).unwrap();
    let dai = g.token_id(&format!("0x{}", "4".repeat(40))).unwrap();
    // (output, WETH in, how close to the bound): 20,000 WETH runs past the deep pool's six
    // exactly modelled tick segments into its lumped rest (largest liquidity over the rest's
    // capacity), where the model over-estimates and the bound is looser.
    for (out, amount, tol) in [
        (usdc, 10u64, 1e-6),
        (usdc, 100, 1e-6),
        (usdc, 400, 1e-6),
        (usdc, 20_000, 1e-3),
        (dai, 50, 1e-6),
    ] {
        let req = RouteRequest::new(
            vec![(weth, U256::exp10(18) * U256::from(amount))],
            vec![(out, Ratio::from_integer(1))],
        );
        let plan = quote(&g, &req).unwrap();
        plan.verify(&g).unwrap();
        let got = plan.outputs[0].amount;
        let bound = plan.upper_bound.unwrap();
        assert!(
            swapzap::math::float::to_f64(got) <= bound,
            "{amount}: {got} above the bound {bound}"
        );
        assert!(
            swapzap::math::float::to_f64(got) >= bound * (1.0 - tol),
            "{amount}: {got} far below {bound}"
        );
        let cl_used = plan.steps.iter().any(|s| {
            matches!(s, Step::Swap { pool, .. }
                if matches!(g.pool(*pool).unwrap().pool, Pool::ConcentratedLiquidity(_)))
        });
        assert!(cl_used, "{amount}: no CL pool in the plan");
        if out == usdc {
            // No single WETH/USDC pool gives as much.
            for p in g.pools_of(weth) {
                let info = g.pool(*p).unwrap();
                if info.tokens.contains(&usdc) {
                    let i = g.coin_index(*p, weth).unwrap();
                    if let Ok(single) =
                        info.pool
                            .amount_out(i, 1 - i, U256::exp10(18) * U256::from(amount))
                    {
                        assert!(got >= single, "{amount}: {got} < single pool {single}");
                    }
                }
            }
        }
    }
}

/// Generated markets (`route_gen`) with a CL pool on WETH/USDC and others between hubs and
/// random tokens: the bench's request mix gives plans that verify exactly, within their bound.
#[test]
fn generated_markets_with_cl_pools_reach_their_bound() {
    use crate::routing::route_gen;
    use swapzap::route;
    let mut used = 0;
    for (t, p, n_cl) in [(25usize, 100usize, 10usize), (60, 400, 40)] {
        let mut m = route_gen::market(77 + p as u64, t, p);
        route_gen::add_cl_pools(&mut m, p as u64, n_cl);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        for (k, req) in route_gen::bench_requests(&m, t, p as u64)
            .iter()
            .enumerate()
        {
            let plan = route::quote(&g, req).unwrap();
            plan.verify(&g).unwrap();
            let b = plan.upper_bound.unwrap();
            assert!(
                plan.value >= (1.0 - 1e-5) * b && plan.value <= b,
                "{p} pools, request {k}: value {} bound {b} ratio {}",
                plan.value,
                plan.value / b
            );
            used += usize::from(plan.steps.iter().any(|s| {
                matches!(s, swapzap::plan::Step::Swap { pool, .. }
                    if matches!(g.pool(*pool).unwrap().pool, Pool::ConcentratedLiquidity(_)))
            }));
        }
    }
    assert!(used >= 5, "only {used} plans use a CL pool");
}

/// Zaps keep working with a CL pool as a swap leg: on the bundled snapshot (a Uniswap V3
/// WETH/USDC pool beside the V2 ones), a zap-in of WETH into the V2 USDC/USDT pair and a zap-out
/// of that LP into WETH route part of their swaps through the CL pool, across its ticks, and
/// replay exactly.
#[test]
fn zaps_route_their_swap_legs_through_a_cl_pool() {
    use num_rational::Ratio;
    use swapzap::plan::Step;
    use swapzap::zap::{zap_in, zap_out, ZapOptions};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/snapshot.json");
    let snap: Snapshot = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let g = PoolGraph::from_snapshot(&snap).unwrap();
    let tok = |sym: &str| {
        let a = &snap
            .tokens
            .iter()
            .find(|t| t.symbol == sym)
            .unwrap()
            .address;
        g.token_id(a).unwrap()
    };
    let (weth, usdc, usdt) = (tok("WETH"), tok("USDC"), tok("USDT"));
    let cl = (0..g.pools().len())
        .map(|k| swapzap::units::PoolId(k as u32))
        .find(|p| matches!(g.pool(*p).unwrap().pool, Pool::ConcentratedLiquidity(_)))
        .unwrap();
    let Pool::ConcentratedLiquidity(cl_pool) = &g.pool(cl).unwrap().pool else {
        unreachable!()
    };
    let pair = (0..g.pools().len())
        .map(|k| swapzap::units::PoolId(k as u32))
        .find(|p| {
            let info = g.pool(*p).unwrap();
            matches!(info.pool, Pool::ConstantProduct(_))
                && info.tokens.contains(&usdc)
                && info.tokens.contains(&usdt)
        })
        .unwrap();
    let lp = g.lp_token(pair).unwrap();
    // The CL legs of a plan: (amount in, amount out, token in) of each swap through the pool.
    let cl_legs = |plan: &swapzap::plan::Plan| -> Vec<(U256, U256, bool)> {
        plan.steps
            .iter()
            .filter_map(|s| match s {
                Step::Swap {
                    pool,
                    token_in,
                    amount_in,
                    amount_out,
                    ..
                } if *pool == cl => Some((*amount_in, *amount_out, *token_in == weth)),
                _ => None,
            })
            .collect()
    };
    let weth_in = U256::exp10(18) * U256::from(300u32);
    let z = zap_in(&g, &[(weth, weth_in)], lp, &ZapOptions::default()).unwrap();
    z.plan.verify(&g).unwrap();
    assert!(z.minted > U256::zero());
    let legs = cl_legs(&z.plan);
    assert_eq!(legs.len(), 1, "{:#?}", z.plan.steps);
    let (a_in, a_out, from_weth) = legs[0];
    assert!(from_weth);
    // The leg's amounts are the pool's own exact swap, and the leg crosses ticks.
    let i = g.coin_index(cl, weth).unwrap();
    let j = 1 - i;
    let (out, after) = cl_pool.swap(i, j, a_in).unwrap();
    assert_eq!(out, a_out);
    assert_ne!(after.tick(), cl_pool.tick());
    assert_ne!(
        after.liquidity(),
        cl_pool.liquidity(),
        "the leg stayed within one range of liquidity"
    );

    // Zap-out: the minted LP back into WETH; the USDC side goes through the CL pool.
    let plan = zap_out(
        &g,
        &[(lp, z.minted)],
        &[(weth, Ratio::new(1, 1))],
        &ZapOptions::default(),
    )
    .unwrap();
    plan.verify(&g).unwrap();
    assert!(plan.outputs[0].amount > U256::zero());
    let legs = cl_legs(&plan);
    assert!(!legs.is_empty(), "{:#?}", plan.steps);
    assert!(legs.iter().all(|l| !l.2));
}

/// A tick whose net liquidity is `i128::MIN` (−2^127) is walked exactly when the constructor
/// checks the ticks below the price (its negation does not fit an `i128`; a saturating one was
/// off by one and rejected this valid state, found by `props_cl_ref`).
#[test]
fn a_net_liquidity_of_minus_2_pow_127_is_walked_exactly() {
    use swapzap::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
    use swapzap::pool::concentrated_liquidity::{ConcentratedLiquidity, Tick};
    let tick = |index: i32, net: i128| Tick {
        index,
        liquidity_net: net,
        liquidity_gross: net.unsigned_abs(),
    };
    let ticks = vec![
        tick(-884_275, i128::MAX),
        tick(-884_274, 1),
        tick(-884_246, i128::MIN),
    ];
    let p = sqrt_ratio_at_tick(-884_246).unwrap().to_u256();
    let pool = ConcentratedLiquidity::new(p, -884_246, 0, 100, 1, ticks.clone()).unwrap();
    assert_eq!(pool.liquidity(), 0);
    // One more unit of liquidity below than the ticks give back is still rejected.
    let mut bad = ticks;
    bad[0].liquidity_net = i128::MAX - 1;
    bad[1].liquidity_net = 3;
    assert!(ConcentratedLiquidity::new(p, -884_246, 0, 100, 1, bad).is_err());
}
