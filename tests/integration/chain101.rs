//! Chain-101 pools in snapshots and routes: the bundled `data/snapshot-101.json` quotes and
//! verifies exactly over all three families; malformed pools are typed errors naming the pool.
use serde_json::{json, Value};
use swapzap::error::SnapshotError;
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::pool::Pool;
use swapzap::route;
use swapzap::service::request::QuoteRequest;
use swapzap::snapshot::Snapshot;
use swapzap::U256;

fn data(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

const SOL: &str = "So11111111111111111111111111111111111111112";
const USDT: &str = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";

fn token(graph: &PoolGraph, address: &str) -> swapzap::units::TokenId {
    graph.token_id(address).unwrap()
}

fn graph_of(v: &Value) -> Result<PoolGraph, SnapshotError> {
    let snap: Snapshot = serde_json::from_value(v.clone()).unwrap();
    PoolGraph::from_snapshot(&snap)
}

#[test]
fn bundled_chain101_quote_uses_the_three_families_and_verifies() {
    let graph = graph_of(&data("snapshot-101.json")).unwrap();
    let body: QuoteRequest = serde_json::from_value(data("request-101.json")).unwrap();
    let req = route::RouteRequest::from_body(&body, &graph).unwrap();
    let plan = route::quote(&graph, &req).unwrap();
    plan.verify(&graph).unwrap();

    // Replay every step with the family's own API (not Plan::verify's path), on states that
    // follow the plan, and collect the families used.
    let mut states: Vec<Pool> = graph.pools().iter().map(|p| p.pool.clone()).collect();
    let mut kinds = std::collections::BTreeSet::new();
    for s in &plan.steps {
        let Some((pool, sold, bought)) = s.as_swap() else {
            panic!("a route has swaps only: {s:?}");
        };
        let i = graph.coin_index(pool, sold.token).unwrap();
        let j = graph.coin_index(pool, bought.token).unwrap();
        let st = &mut states[pool.index()];
        let direct = match &*st {
            Pool::SplTokenSwap(p) => {
                kinds.insert("spl");
                U256::from(
                    p.swap_detailed(i, sold.amount.low_u128())
                        .unwrap()
                        .amount_out,
                )
            }
            Pool::Saber(p) => {
                kinds.insert("saber");
                U256::from(
                    p.swap_detailed(i, sold.amount.low_u64())
                        .unwrap()
                        .amount_out,
                )
            }
            Pool::Whirlpool(p) => {
                kinds.insert("orca");
                let q = p.quote_by_input(sold.amount.low_u64(), i == 0, 0).unwrap();
                assert_eq!(U256::from(q.token_in), sold.amount, "whole input used");
                U256::from(q.token_est_out)
            }
            other => panic!("not a chain-101 pool: {other:?}"),
        };
        assert_eq!(direct, bought.amount);
        let (_, next) = st.swap(i, j, sold.amount).unwrap();
        *st = next;
    }
    assert_eq!(kinds.len(), 3, "families used: {kinds:?}");

    // The split beats every single pool direction on its own, and stays under the bound.
    let usdt = token(&graph, USDT);
    let sol = token(&graph, SOL);
    let amount = U256::from(20_000u64) * U256::exp10(9);
    let out = plan.outputs[0].amount;
    assert_eq!(plan.outputs[0].token, usdt);
    for (k, p) in graph.pools().iter().enumerate() {
        let (Some(i), Some(j)) = (
            graph.coin_index(swapzap::units::PoolId(k as u32), sol),
            graph.coin_index(swapzap::units::PoolId(k as u32), usdt),
        ) else {
            continue;
        };
        if let Ok(single) = p.pool.amount_out(i, j, amount) {
            assert!(out > single, "{}: split {out} vs single {single}", p.id);
        }
    }
    let bound = plan.upper_bound.unwrap();
    assert!(swapzap::math::float::to_f64(out) <= bound);
}

fn spl_pool() -> Value {
    json!({
        "id": "spl-token-swap:7VWuxsWz6xbDp5bvBQbvcfvdTHw1n5uBMoL7LvSoHUiP",
        "source": "spl-token-swap", "kind": "spl_token_swap",
        "tokens": ["So11111111111111111111111111111111111111112",
                   "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
        "reserves": ["1000000000000", "150000000000"], "total_supply": "1000000",
        "fees": {"trade_fee_numerator": "25", "trade_fee_denominator": "10000",
                 "owner_trade_fee_numerator": "5", "owner_trade_fee_denominator": "10000",
                 "owner_withdraw_fee_numerator": "0", "owner_withdraw_fee_denominator": "0"}
    })
}

fn snapshot_with(pool: Value) -> Value {
    json!({
        "chain_id": 101,
        "tokens": [
            {"address": "So11111111111111111111111111111111111111112", "decimals": 9},
            {"address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "decimals": 6}
        ],
        "pools": [pool]
    })
}

/// A `BadPool` error for a pool whose id starts with `prefix`, its reason mentioning `why_has`.
fn expect_bad_pool(r: Result<PoolGraph, SnapshotError>, prefix: &str, why_has: &str) {
    match r {
        Err(SnapshotError::BadPool { pool, why }) => {
            assert!(pool.starts_with(prefix), "{pool}");
            assert!(why.to_string().contains(why_has), "{why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn chain101_pool_fields_are_checked_and_errors_name_the_pool() {
    let id = "spl-token-swap:7VWuxsWz6xbDp5bvBQbvcfvdTHw1n5uBMoL7LvSoHUiP";
    assert!(graph_of(&snapshot_with(spl_pool())).is_ok());

    // a missing fee field
    let mut p = spl_pool();
    p["fees"]
        .as_object_mut()
        .unwrap()
        .remove("trade_fee_denominator");
    expect_bad_pool(graph_of(&snapshot_with(p)), id, "trade_fee_denominator");
    // a fee above its denominator
    let mut p = spl_pool();
    p["fees"]["owner_trade_fee_numerator"] = json!("20000");
    match graph_of(&snapshot_with(p)) {
        Err(SnapshotError::BadNumber { pool, field }) => {
            assert_eq!(pool, id);
            assert_eq!(field, "fees.owner_trade_fee_numerator");
        }
        other => panic!("{other:?}"),
    }

    // Saber: a running ramp needs the snapshot's time
    let saber = json!({
        "id": "saber:FcxStPxmy3nJgtLvqAWPYG1ZEVnqeZuWD89Q1owPTFPz",
        "source": "saber", "kind": "saber_stableswap",
        "tokens": ["So11111111111111111111111111111111111111112",
                   "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
        "reserves": ["1000000", "1000000"], "total_supply": "2000000",
        "initial_amp_factor": "100", "target_amp_factor": "200",
        "start_ramp_ts": "1000", "stop_ramp_ts": "90000",
        "fees": {"admin_trade_fee_numerator": "0", "admin_trade_fee_denominator": "1",
                 "admin_withdraw_fee_numerator": "0", "admin_withdraw_fee_denominator": "1",
                 "trade_fee_numerator": "4", "trade_fee_denominator": "10000",
                 "withdraw_fee_numerator": "0", "withdraw_fee_denominator": "1"}
    });
    expect_bad_pool(
        graph_of(&snapshot_with(saber.clone())),
        "saber:",
        "current_ts",
    );
    // with the time, A is read from the ramp at that time: 100 + 100·44500/89000 = 150
    let mut s = saber;
    s["current_ts"] = json!("45500");
    let g = graph_of(&snapshot_with(s)).unwrap();
    let Pool::Saber(p) = &g.pools()[0].pool else {
        panic!()
    };
    assert_eq!(p.amp_factor().unwrap(), 150);

    // Orca: a stored tick far from the price's tick
    let mut w = data("snapshot-101.json")["pools"][0].clone();
    let t: i64 = w["tick_current_index"].as_str().unwrap().parse().unwrap();
    w["tick_current_index"] = json!((t + 5).to_string());
    let mut snap = data("snapshot-101.json");
    snap["pools"] = json!([w]);
    expect_bad_pool(graph_of(&snap), "orca:", "tick_current_index");
    // Orca: tick arrays with a gap
    let mut w = data("snapshot-101.json")["pools"][0].clone();
    w["tick_arrays"].as_array_mut().unwrap().remove(2);
    snap["pools"] = json!([w]);
    expect_bad_pool(graph_of(&snap), "orca:", "contiguous");
}

fn saber_and_spl(graph: &PoolGraph) -> (swapzap::units::PoolId, swapzap::units::PoolId) {
    let find = |pre: &str| {
        let k = graph
            .pools()
            .iter()
            .position(|p| p.id.starts_with(pre))
            .unwrap();
        swapzap::units::PoolId(k as u32)
    };
    (find("saber:"), find("spl-token-swap:"))
}

#[test]
fn saber_zap_in_beats_the_direct_deposit_and_verifies() {
    use swapzap::zap::{zap_in_pool, ZapConfig};
    let graph = graph_of(&data("snapshot-101.json")).unwrap();
    let (saber, _) = saber_and_spl(&graph);
    let pool = &graph.pool(saber).unwrap().pool;
    // lopsided: all USDC (coin 0), then both coins
    for amounts in [
        [U256::from(2_000_000_000_000u64), U256::zero()],
        [U256::from(900_000_000_000u64), U256::from(10_000_000u64)],
    ] {
        let z = zap_in_pool(pool, &amounts, &ZapConfig::default()).unwrap();
        // replay: the swap, then the mint of the deposit, through the pool's own verbs
        let mut p = pool.clone();
        let mut held = amounts;
        if let Some(s) = &z.swap {
            let (out, next) = p.swap(s.from, s.to, s.amount_in).unwrap();
            assert_eq!(out, s.amount_out);
            held[s.from] -= s.amount_in;
            held[s.to] += out;
            p = next;
        }
        let (minted, _) = p.mint(&z.deposit).unwrap();
        assert_eq!(minted, z.minted);
        for (k, h) in held.iter().enumerate() {
            assert_eq!(z.deposit[k] + z.leftover[k], *h);
        }
        // at least the direct deposit (an all-one-coin deposit pays the imbalance fee)
        if let Ok((direct, _)) = pool.mint(&amounts) {
            assert!(z.minted >= direct, "{} < {direct}", z.minted);
        }
    }
}

#[test]
fn zaps_out_of_saber_and_spl_lp_verify() {
    use num_rational::Ratio;
    use swapzap::zap::{zap_out, ZapOptions};
    let graph = graph_of(&data("snapshot-101.json")).unwrap();
    let (saber, spl) = saber_and_spl(&graph);
    let usdt = token(&graph, USDT);
    let sol = token(&graph, SOL);
    for pid in [saber, spl] {
        let info = graph.pool(pid).unwrap();
        let lp = graph.lp_token(pid).unwrap();
        let amount = info.pool.total_supply() / 1000;
        let plan = zap_out(
            &graph,
            &[(lp, amount)],
            &[(usdt, Ratio::new(1, 2)), (sol, Ratio::new(1, 2))],
            &ZapOptions::default(),
        )
        .unwrap();
        plan.verify(&graph).unwrap();
        // Saber: USDT is its one coin among the outputs, and its one-coin withdrawal pays
        // more than the proportional burn with the USDC swapped (`spl_accounting.rs` checks
        // the amounts); SPL has no one-coin withdrawal here
        if pid == saber {
            assert!(
                matches!(plan.steps[0], Step::BurnOne { .. }),
                "{:?}",
                plan.steps[0]
            );
        } else {
            assert!(
                matches!(plan.steps[0], Step::Burn { .. }),
                "{:?}",
                plan.steps[0]
            );
        }
        assert!(plan.outputs.iter().all(|o| !o.amount.is_zero()));
    }
}

#[test]
fn zap_sol_into_the_saber_lp_routes_and_verifies() {
    use swapzap::zap::{zap_in, ZapOptions};
    let graph = graph_of(&data("snapshot-101.json")).unwrap();
    let (saber, _) = saber_and_spl(&graph);
    let sol = token(&graph, SOL);
    let lp = graph.lp_token(saber).unwrap();
    let z = zap_in(
        &graph,
        &[(sol, U256::from(1_000u64) * U256::exp10(9))],
        lp,
        &ZapOptions::default(),
    )
    .unwrap();
    z.plan.verify(&graph).unwrap();
    assert!(!z.minted.is_zero());
    assert!(matches!(z.plan.steps.last(), Some(Step::Mint { .. })));
}

#[test]
fn spl_zap_in_deposits_one_coin_or_both_and_verifies() {
    use swapzap::zap::{zap_in, zap_in_pool, ZapConfig, ZapOptions};
    let graph = graph_of(&data("snapshot-101.json")).unwrap();
    let (_, spl) = saber_and_spl(&graph);
    let Pool::SplTokenSwap(p) = &graph.pool(spl).unwrap().pool else {
        panic!()
    };
    let pool = Pool::SplTokenSwap(p.clone());
    // one coin: the program's single-sided deposit, nothing else
    let x = 50_000_000_000u64; // 50 SOL
    let z = zap_in_pool(&pool, &[U256::from(x), U256::zero()], &ZapConfig::default()).unwrap();
    assert!(z.swap.is_none());
    assert_eq!(
        z.minted,
        U256::from(p.deposit_single_token_type(0, u128::from(x)).unwrap())
    );
    // two coins: at least "swap all of one into the other (what the program takes of it),
    // deposit that", each replayed here through the pool's own verbs (the deposits of both
    // coins are in `spl_accounting.rs`)
    let amounts = [U256::from(x), U256::from(2_000_000_000u64)];
    let z = zap_in_pool(&pool, &amounts, &ZapConfig::default()).unwrap();
    let mut best = U256::zero();
    for (from, to) in [(0usize, 1usize), (1, 0)] {
        let (_, out, after) = pool.swap_taken(from, to, amounts[from]).unwrap();
        let mut dep = [U256::zero(); 2];
        dep[to] = amounts[to] + out;
        best = best.max(after.mint(&dep).unwrap().0);
    }
    assert!(z.minted >= best);
    // from SOL through the router into the SPL LP (SOL/USDC pool)
    let lp = graph.lp_token(spl).unwrap();
    let zp = zap_in(
        &graph,
        &[(token(&graph, SOL), U256::from(x))],
        lp,
        &ZapOptions::default(),
    )
    .unwrap();
    zp.plan.verify(&graph).unwrap();
    assert!(!zp.minted.is_zero());
}
