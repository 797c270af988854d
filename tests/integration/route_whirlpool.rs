//! Orca Whirlpools in routes: a Whirlpool takes at most what its tick arrays allow (its swap
//! fails past their end, it is not a partial fill), so the router uses each up to there instead
//! of leaving it out, its bound stays above every feasible plan whether the liquidity rises or
//! falls away from the price, and a trade beyond every pool is `InsufficientLiquidity`.
//!
//! Expected values come from the pools' own exact verbs (`amount_out`, which fails past the
//! arrays), capacities by bisection on them, and from the pools' balances; never from the
//! router.

use num_rational::Ratio;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use swapzap::graph::PoolGraph;
use swapzap::math::float::to_f64;
use swapzap::plan::{Plan, PlanRequest, Step};
use swapzap::pool::whirlpool::tick_index_to_sqrt_price;
use swapzap::route::{quote, RouteRequest};
use swapzap::service::request::QuoteRequest;
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::{RouteError, U256};

const SOL: &str = "So11111111111111111111111111111111111111112";
const USDC: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const USDT: &str = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";
/// The two big Whirlpools of the bundled snapshot (SOL/USDT and SOL/USDC).
const ORCA_USDT: &str = "orca:ACymaK5C1Pita6KKwqbfL4V6QwXFXxfvjqPD2LHE4yJT";
const ORCA_USDC: &str = "orca:7iG2z5vrYwenvNvUDW8cpim7GKE8aJ5h7v6rph3ThgM5";

fn data(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn graph_of(v: Value) -> PoolGraph {
    let s: Snapshot = serde_json::from_value(v).unwrap();
    PoolGraph::from_snapshot(&s).unwrap()
}

fn pool_by_id(g: &PoolGraph, id: &str) -> PoolId {
    g.pool_id(id).unwrap()
}

/// The amount of `token` the plan's swap steps put into pool `p`.
fn into_pool(plan: &Plan, p: PoolId) -> U256 {
    plan.steps.iter().fold(U256::zero(), |s, st| match st {
        Step::Swap {
            pool, amount_in, ..
        } if *pool == p => s + *amount_in,
        _ => s,
    })
}

/// The bundled SOL -> USDT request at `m` times its amount.
fn bundled_at(g: &PoolGraph, m: u64) -> RouteRequest {
    let mut body = data("request-101.json");
    let a: u128 = body["inputTokens"][0]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    body["inputTokens"][0]["amount"] = json!((a * u128::from(m)).to_string());
    let body: QuoteRequest = serde_json::from_value(body).unwrap();
    RouteRequest::from_body(&body, g).unwrap()
}

/// At 10x and 30x the bundled request, both big Whirlpools are in the plan (each up to its tick
/// arrays), the plan verifies exactly and against the request, and it pays more than any plan
/// without the two can: every USDT such a plan gets comes from the SPL SOL/USDT pool (at most
/// its USDT balance) or from Saber, for USDC that only the SPL SOL/USDC and mSOL/USDC pools
/// hold (at most Saber's exact output for all of their USDC). Before, both Whirlpools' exact
/// swaps reverted past their arrays and the quote left them out: 3.95 M USDT at 10x, 3.93 M
/// at 30x, under that limit (5.49 M), with bounds of 25.9 M and 48.3 M.
#[test]
fn bundled_request_at_10x_and_30x_fills_both_big_whirlpools_and_beats_any_plan_without_them() {
    let g = graph_of(data("snapshot-101.json"));
    let (usdt, usdc) = (g.token_id(USDT).unwrap(), g.token_id(USDC).unwrap());
    // the most USDT a plan without the two Whirlpools can get, from the pools' own state
    let mut spl_usdt = U256::zero();
    let mut other_usdc = U256::zero();
    let mut saber = None;
    for (k, p) in g.pools().iter().enumerate() {
        if p.id == ORCA_USDT || p.id == ORCA_USDC {
            continue;
        }
        let holds = |t: TokenId| {
            let i = p.tokens.iter().position(|x| *x == t)?;
            Some(p.pool.balances()[i])
        };
        match (holds(usdt), holds(usdc)) {
            (Some(_), Some(_)) => saber = Some(PoolId(k as u32)),
            (Some(b), None) => spl_usdt += b,
            (None, Some(b)) => other_usdc += b,
            (None, None) => {}
        }
    }
    let saber = saber.unwrap();
    let sp = &g.pool(saber).unwrap().pool;
    let (ci, co) = (
        g.coin_index(saber, usdc).unwrap(),
        g.coin_index(saber, usdt).unwrap(),
    );
    let without = spl_usdt + sp.amount_out(ci, co, other_usdc).unwrap();
    assert!(
        without < U256::from(5_500_000u64) * U256::exp10(6),
        "{without}"
    );
    for m in [10u64, 30] {
        let req = bundled_at(&g, m);
        let plan = quote(&g, &req).unwrap();
        plan.verify(&g).unwrap();
        plan.verify_request(&g, &PlanRequest::swap(&req)).unwrap();
        for id in [ORCA_USDT, ORCA_USDC] {
            let p = pool_by_id(&g, id);
            let x = into_pool(&plan, p);
            assert!(!x.is_zero(), "{m}x: {id} left out");
            // within the arrays: the pool's own swap takes the leg whole
            assert!(g.pool(p).unwrap().pool.amount_out(0, 1, x).is_ok());
        }
        let out = plan.outputs[0].amount;
        assert!(out > without * 2, "{m}x: {out} vs {without} without them");
        let bound = plan.upper_bound.unwrap();
        assert!(to_f64(out) <= bound && bound <= to_f64(out) * (1.0 + 1e-6));
    }
}

/// A Whirlpool's snapshot pool: SOL/USDC at `tick` (the price just above the tick's), spacing
/// 8, three tick arrays around the tick, liquidity from `positions` (lower tick, upper tick,
/// liquidity) as the program books them.
fn whirlpool(id: &str, tick: i32, fee: u16, positions: &[(i32, i32, u128)]) -> Value {
    let spacing = 8;
    let span = 88 * spacing;
    let s0 = tick.div_euclid(span) * span;
    let mut net = BTreeMap::<i32, i128>::new();
    let mut l = 0u128;
    for &(lo, hi, liq) in positions {
        *net.entry(lo).or_default() += liq as i128;
        *net.entry(hi).or_default() -= liq as i128;
        if lo <= tick && tick < hi {
            l += liq;
        }
    }
    let arrays: Vec<Value> = [s0 - span, s0, s0 + span]
        .iter()
        .map(|&s| {
            let ticks: Vec<Value> = net
                .range(s..s + span)
                .filter(|(_, n)| **n != 0)
                .map(|(i, n)| {
                    json!({"index": i.to_string(), "liquidity_net": n.to_string(),
                        "liquidity_gross": n.unsigned_abs().to_string()})
                })
                .collect();
            json!({"start_tick_index": s.to_string(), "ticks": ticks})
        })
        .collect();
    json!({"id": format!("orca:{id}"), "source": "orca", "kind": "orca_whirlpool",
        "tokens": [SOL, USDC], "reserves": ["0", "0"],
        "sqrt_price": (tick_index_to_sqrt_price(tick).unwrap() + 1).to_string(),
        "tick_current_index": tick.to_string(), "liquidity": l.to_string(),
        "fee_rate": fee.to_string(), "protocol_fee_rate": "1300", "tick_spacing": spacing.to_string(),
        "tick_arrays": arrays})
}

/// The tick of about 150 USDC per SOL (raw 0.15), on the spacing's grid minus 5.
const TICK: i32 = -18_973;
/// The grid tick at or below [`TICK`].
const BASE: i32 = -18_976;

/// Liquidity rising away from the price both ways: a thin position around it, then ten bands
/// each side, each farther band deeper (more than the model keeps segment by segment).
fn rising(id: &str) -> Value {
    let mut pos = vec![(BASE - 16, BASE + 16, 2_000_000_000_000u128)];
    for k in 1..=10 {
        let liq = 3_000_000_000_000u128 * k as u128;
        pos.push((BASE - 16 - 64 * k, BASE - 16 - 64 * (k - 1), liq));
        pos.push((BASE + 16 + 64 * (k - 1), BASE + 16 + 64 * k, liq));
    }
    whirlpool(id, TICK, 3000, &pos)
}

/// Liquidity falling away from the price: ten nested ranges around it.
fn falling(id: &str) -> Value {
    let pos: Vec<_> = (1..=10)
        .map(|k| (BASE - 64 * k, BASE + 64 * k, 5_000_000_000_000u128))
        .collect();
    whirlpool(id, TICK, 500, &pos)
}

fn spl(id: &str) -> Value {
    json!({"id": format!("spl-token-swap:{id}"), "source": "spl-token-swap",
        "kind": "spl_token_swap", "curve_type": "constant_product", "tokens": [SOL, USDC],
        "reserves": ["2000000000000", "300000000000"], "total_supply": "774596669241",
        "fees": {"trade_fee_numerator": "25", "trade_fee_denominator": "10000",
            "owner_trade_fee_numerator": "5", "owner_trade_fee_denominator": "10000",
            "owner_withdraw_fee_numerator": "0", "owner_withdraw_fee_denominator": "0"}})
}

fn market(pools: Vec<Value>) -> PoolGraph {
    graph_of(json!({"chain_id": 101,
        "tokens": [{"address": SOL, "decimals": 9}, {"address": USDC, "decimals": 6}],
        "pools": pools}))
}

const UP: &str = "orca:Up11111111111111111111111111111111111111111";
const DOWN: &str = "orca:Dn11111111111111111111111111111111111111111";
const SPL: &str = "spl-token-swap:Sp11111111111111111111111111111111111111111";

/// `x` of token `from` sold for `to` in one request.
fn sell(g: &PoolGraph, from: &str, to: &str, x: U256) -> Result<Plan, RouteError> {
    let (a, b) = (g.token_id(from).unwrap(), g.token_id(to).unwrap());
    quote(
        g,
        &RouteRequest::new(vec![(a, x)], vec![(b, Ratio::from_integer(1))]),
    )
}

/// The most of coin `i` pool `p` takes whole (its exact `amount_out` succeeds), by bisection.
fn capacity(g: &PoolGraph, p: PoolId, i: usize) -> U256 {
    let pool = &g.pool(p).unwrap().pool;
    let (mut lo, mut hi) = (U256::zero(), U256::from(u64::MAX));
    while hi - lo > U256::one() {
        let mid = (lo + hi) / 2;
        if pool.amount_out(i, 1 - i, mid).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The exact output of `x` of coin `i` through pool `p` taking it whole (`None`: it cannot).
fn exact(g: &PoolGraph, p: PoolId, i: usize, x: U256) -> Option<U256> {
    if x.is_zero() {
        return Some(U256::zero());
    }
    g.pool(p).unwrap().pool.amount_out(i, 1 - i, x).ok()
}

/// On a market of a rising and a falling Whirlpool and an SPL pool, for both directions and
/// trades from small to past a Whirlpool's arrays, the quote's bound is at least the output of
/// every feasible plan found by enumeration: the input split over the three pools in
/// sixteenths, and each Whirlpool filled to its arrays' end with the rest split over the
/// others, each leg the pool's own exact swap of its whole share (a share a pool cannot take
/// whole is not a plan). The quote itself is within 1e-6 of the best of them.
#[test]
fn the_bound_is_above_every_enumerated_plan_whether_liquidity_rises_or_falls() {
    let g = market(vec![rising(&UP[5..]), falling(&DOWN[5..]), spl(&SPL[15..])]);
    let whirls = [pool_by_id(&g, UP), pool_by_id(&g, DOWN)];
    let pools = [whirls[0], whirls[1], pool_by_id(&g, SPL)];
    for (from, to, i, amounts) in [
        (
            SOL,
            USDC,
            0usize,
            [10u64, 300, 1500, 6000].map(|s| U256::from(s) * U256::exp10(9)),
        ),
        (
            USDC,
            SOL,
            1,
            [1_000u64, 50_000, 250_000, 900_000].map(|u| U256::from(u) * U256::exp10(6)),
        ),
    ] {
        let ci = |p: PoolId| g.coin_index(p, g.token_id(from).unwrap()).unwrap();
        assert!(pools.iter().all(|p| ci(*p) == i));
        let caps = whirls.map(|w| capacity(&g, w, i));
        for x in amounts {
            let plan = sell(&g, from, to, x).unwrap();
            plan.verify(&g).unwrap();
            let bound = plan.upper_bound.unwrap();
            let mut best = U256::zero();
            let mut tried = 0;
            let mut consider = |parts: [U256; 3]| {
                let mut out = U256::zero();
                for (p, a) in pools.iter().zip(parts) {
                    match exact(&g, *p, i, a) {
                        Some(o) => out += o,
                        None => return,
                    }
                }
                tried += 1;
                assert!(
                    to_f64(out) <= bound,
                    "{from}->{x}: split {parts:?} gives {out} above the bound {bound}"
                );
                best = best.max(out);
            };
            for a in 0..=16u64 {
                for b in 0..=16 - a {
                    let c = 16 - a - b;
                    consider([a, b, c].map(|k| x * k / 16));
                }
            }
            for (w, cap) in caps.iter().enumerate() {
                if *cap >= x {
                    continue;
                }
                let rest = x - *cap;
                for k in 0..=8u64 {
                    let mut parts = [U256::zero(); 3];
                    parts[w] = *cap;
                    parts[1 - w] = rest * k / 8;
                    parts[2] = rest - rest * k / 8;
                    consider(parts);
                }
            }
            assert!(tried > 10, "{from} {x}: {tried} plans");
            let got = plan.outputs[0].amount;
            assert!(
                got * 1_000_000u64 >= best * 999_999u64,
                "{from} {x}: quote {got} below an enumerated plan {best}"
            );
        }
    }
}

/// Only Whirlpools: a trade within one's arrays is its own exact swap of the whole input; a
/// trade that neither takes alone is shared; one beyond both is `InsufficientLiquidity`
/// (4001), never a plan that hands most of the input back. Before, the float model (x·y = k)
/// knew no end of the arrays: a trade beyond them was a `Simulation` error (the pool's
/// `TickArraySequence`), not 4001, and a trade the two share was split 2.7e-4 below the split
/// that fills the larger one (SOL in; 2.2e-4 USDC in).
#[test]
fn whirlpools_take_what_their_arrays_allow_and_a_trade_beyond_them_is_insufficient_liquidity() {
    let g = market(vec![rising(&UP[5..]), falling(&DOWN[5..])]);
    let (up, down) = (pool_by_id(&g, UP), pool_by_id(&g, DOWN));
    let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
    for i in [0usize, 1] {
        let (from, to) = if i == 0 { (SOL, USDC) } else { (USDC, SOL) };
        let (c1, c2) = (capacity(&g, up, i), capacity(&g, down, i));
        assert!(!c1.is_zero() && !c2.is_zero());
        let x = (c1 + c2) * 9 / 10;
        assert!(x > c1.max(c2), "{c1} {c2}");
        let plan = sell(&g, from, to, x).unwrap();
        plan.verify(&g).unwrap();
        let req = RouteRequest::new(
            vec![(if i == 0 { sol } else { usdc }, x)],
            vec![(if i == 0 { usdc } else { sol }, Ratio::from_integer(1))],
        );
        plan.verify_request(&g, &PlanRequest::swap(&req)).unwrap();
        // a feasible split for comparison: the larger window filled, the rest to the other
        let (big, small, cb) = if c1 > c2 {
            (up, down, c1)
        } else {
            (down, up, c2)
        };
        let split = exact(&g, big, i, cb).unwrap() + exact(&g, small, i, x - cb).unwrap();
        let got = plan.outputs[0].amount;
        assert!(got * 1_000_000u64 >= split * 999_999u64, "{got} < {split}");
        for y in [(c1 + c2) * 3 / 2, (c1 + c2) + (c1 + c2) / 100] {
            let e = sell(&g, from, to, y).unwrap_err();
            assert!(
                matches!(e, RouteError::InsufficientLiquidity { .. }),
                "{y}: {e:?}"
            );
            assert_eq!(e.code(), 4001);
        }
    }
    // one Whirlpool alone: within its arrays the pool's own swap of the whole input, beyond
    // them 4001
    let g1 = market(vec![falling(&DOWN[5..])]);
    let p = pool_by_id(&g1, DOWN);
    let cap = capacity(&g1, p, 0);
    for x in [cap / 2, cap - cap / 100] {
        let plan = sell(&g1, SOL, USDC, x).unwrap();
        plan.verify(&g1).unwrap();
        assert!(plan.refunds.is_empty(), "{:?}", plan.refunds);
        assert_eq!(plan.outputs[0].amount, exact(&g1, p, 0, x).unwrap());
    }
    for x in [cap * 2, cap + cap / 100] {
        let e = sell(&g1, SOL, USDC, x).unwrap_err();
        assert!(
            matches!(e, RouteError::InsufficientLiquidity { .. }),
            "{x}: {e:?}"
        );
    }
}
