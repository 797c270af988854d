//! Spec zap bodies (`POST /sor/quote/v2/zap`) run through `zap::zap_request` on the bundled
//! snapshot: which zap a body is, the plan it gives, and the body's slippage and filters.

use swapzap::graph::PoolGraph;
use swapzap::service::request::{QuoteRequest, Request};
use swapzap::service::zap::{zap_request, ZapKind};
use swapzap::snapshot::Snapshot;
use swapzap::units::TokenId;
use swapzap::zap::ZapOptions;
use swapzap::{RouteError, ZapError, U256};

pub fn bundled() -> PoolGraph {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/snapshot.json");
    let snap: Snapshot = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

pub fn sym(g: &PoolGraph, s: &str) -> TokenId {
    TokenId(
        g.tokens()
            .iter()
            .position(|t| t.symbol == s)
            .unwrap_or_else(|| panic!("no {s}")) as u32,
    )
}

pub fn addr(g: &PoolGraph, t: TokenId) -> String {
    g.token(t).unwrap().address.clone()
}

/// The LP token of the pool with this id.
pub fn lp_of(g: &PoolGraph, pool_id: &str) -> TokenId {
    g.lp_token(g.pool_id(pool_id).unwrap()).unwrap()
}

pub const WETH_USDC_V2: &str = "uniswap-v2:0x1e48158bcf643bec030d22e9a6477d2670a148ff";
pub const CURVE_3POOL: &str = "curve:0x46e04c9ee9867b1ea49e053f393af589dbb6b8a8";
pub const CURVE_2POOL: &str = "curve:0x2650a9bc8e6c693590cd4c165eed32a0a3582dea";

/// A body (JSON text) from (address, amount) inputs and (address, proportion) outputs.
pub fn body(inputs: &[(String, String)], outputs: &[(String, &str)], extra: &str) -> String {
    let ins: Vec<String> = inputs
        .iter()
        .map(|(a, n)| format!(r#"{{"tokenAddress":"{a}","amount":"{n}"}}"#))
        .collect();
    let outs: Vec<String> = outputs
        .iter()
        .map(|(a, p)| format!(r#"{{"tokenAddress":"{a}","proportion":{p}}}"#))
        .collect();
    format!(
        r#"{{"chainId":8453,"inputTokens":[{}],"outputTokens":[{}],"slippageLimitPercent":0.5{extra}}}"#,
        ins.join(","),
        outs.join(",")
    )
}

pub fn validated(g: &PoolGraph, text: &str) -> Request {
    let q: QuoteRequest = serde_json::from_str(text).unwrap();
    q.validate(&g.sources()).unwrap()
}

/// The zap of a body (JSON text), checked against the body with `verify_request`.
pub fn checked_zap(g: &PoolGraph, text: &str) -> swapzap::service::zap::ZapPlan {
    let r = validated(g, text);
    let z = zap_request(g, &r, &ZapOptions::default()).unwrap();
    let want = swapzap::plan::PlanRequest::from_request(&r, g).unwrap();
    z.plan().verify_request(g, &want).unwrap();
    z
}

/// `floor(amount × 995 / 1000)`, the 0.5 % minimum, computed apart from the library.
fn min_05(a: U256) -> U256 {
    a * U256::from(995u32) / U256::from(1000u32)
}

#[test]
fn a_zap_in_body_mints_the_lp_and_verifies() {
    let g = bundled();
    let (wbtc, dai) = (sym(&g, "WBTC"), sym(&g, "DAI"));
    let lp = lp_of(&g, WETH_USDC_V2);
    let text = body(
        &[
            (addr(&g, wbtc), "50000000".into()),
            (addr(&g, dai), "7000000000000000000000".into()),
        ],
        &[(addr(&g, lp), "1")],
        "",
    );
    let z = zap_request(&g, &validated(&g, &text), &ZapOptions::default()).unwrap();
    assert_eq!(z.kind(), ZapKind::In);
    assert_eq!(z.zap_in().map(|i| i.pool), g.pool_id(WETH_USDC_V2));
    z.plan().verify(&g).unwrap();
    let out = z.plan().outputs[0];
    assert_eq!(out.token, lp);
    let minted = z.zap_in().unwrap().minted;
    assert!(!minted.is_zero() && out.amount == minted);
    assert_eq!(out.min_amount, min_05(out.amount));
    // 1 bps of each input as given
    let fee = z.plan().zap_fee.as_ref().unwrap();
    assert_eq!(fee.rate_bps, 1);
    let taken: Vec<_> = fee.taken.iter().map(|t| (t.token, t.amount)).collect();
    assert!(taken.contains(&(wbtc, U256::from(5_000u32))));
    assert!(taken.contains(&(dai, U256::from(700_000_000_000_000_000u64))));
}

#[test]
fn zap_out_and_lp_to_lp_bodies_verify() {
    let g = bundled();
    let (weth, dai, usdt) = (sym(&g, "WETH"), sym(&g, "DAI"), sym(&g, "USDT"));
    // the bundled V2 pools carry no LP supply: the Curve pools' LPs are burned
    let lp = lp_of(&g, CURVE_2POOL);
    let curve_lp = lp_of(&g, CURVE_3POOL);
    let some = U256::exp10(21);
    let out = body(
        &[(addr(&g, lp), some.to_string())],
        &[(addr(&g, weth), "0.3"), (addr(&g, dai), "0.7")],
        "",
    );
    let z = zap_request(&g, &validated(&g, &out), &ZapOptions::default()).unwrap();
    assert_eq!(z.kind(), ZapKind::Out);
    z.plan().verify(&g).unwrap();
    assert_eq!(z.plan().outputs.len(), 2);
    assert_eq!(
        (z.plan().outputs[0].token, z.plan().outputs[1].token),
        (weth, dai)
    );
    for o in &z.plan().outputs {
        assert!(!o.amount.is_zero());
        assert_eq!(o.min_amount, min_05(o.amount));
    }
    let to_lp = body(
        &[(addr(&g, lp), some.to_string())],
        &[(addr(&g, curve_lp), "1")],
        "",
    );
    let z = zap_request(&g, &validated(&g, &to_lp), &ZapOptions::default()).unwrap();
    assert_eq!(z.kind(), ZapKind::In);
    z.plan().verify(&g).unwrap();
    assert_eq!(z.plan().outputs[0].token, curve_lp);
    assert!(z.plan().steps.iter().any(|s| matches!(
        s,
        swapzap::plan::Step::Burn { .. } | swapzap::plan::Step::BurnOne { .. }
    )));
    // tokens and an LP into one LP
    let mixed = body(
        &[
            (addr(&g, lp), some.to_string()),
            (addr(&g, usdt), "5000000000".into()),
        ],
        &[(addr(&g, curve_lp), "1")],
        "",
    );
    let z = zap_request(&g, &validated(&g, &mixed), &ZapOptions::default()).unwrap();
    z.plan().verify(&g).unwrap();
}

#[test]
fn bodies_that_are_not_zaps_are_typed_errors() {
    let g = bundled();
    let (weth, usdt) = (sym(&g, "WETH"), sym(&g, "USDT"));
    let lp = lp_of(&g, WETH_USDC_V2);
    let swap = body(
        &[(addr(&g, weth), "1000000000000000000".into())],
        &[(addr(&g, usdt), "1")],
        "",
    );
    let e = zap_request(&g, &validated(&g, &swap), &ZapOptions::default()).unwrap_err();
    assert_eq!(e, ZapError::NotAZap);
    assert_eq!(e.code(), 5011);
    let two = body(
        &[(addr(&g, weth), "1000000000000000000".into())],
        &[(addr(&g, lp), "0.5"), (addr(&g, usdt), "0.5")],
        "",
    );
    let e = zap_request(&g, &validated(&g, &two), &ZapOptions::default()).unwrap_err();
    assert!(matches!(e, ZapError::Unsupported(_)), "{e}");
    let unknown = body(
        &[(
            "0x1111111111111111111111111111111111111111".into(),
            "1000".into(),
        )],
        &[(addr(&g, lp), "1")],
        "",
    );
    let e = zap_request(&g, &validated(&g, &unknown), &ZapOptions::default()).unwrap_err();
    assert!(
        matches!(e, ZapError::Route(RouteError::UnknownToken { .. })),
        "{e}"
    );
}

#[test]
fn a_zap_body_keeps_its_source_filters_and_slippage() {
    let g = bundled();
    let wbtc = sym(&g, "WBTC");
    let lp = lp_of(&g, WETH_USDC_V2);
    let inputs = [(addr(&g, wbtc), "50000000".to_string())];
    let outputs = [(addr(&g, lp), "1")];
    // WBTC trades only on uniswap-v2 and sushiswap: curve alone cannot carry it
    let only_curve = body(&inputs, &outputs, r#","sourceWhitelist":["curve"]"#);
    let e = zap_request(&g, &validated(&g, &only_curve), &ZapOptions::default()).unwrap_err();
    assert!(matches!(e, ZapError::Route(_)), "{e}");
    // sushiswap only: every swap leg is a sushiswap pool (the target's own steps are named)
    let sushi = body(&inputs, &outputs, r#","sourceWhitelist":["sushiswap"]"#);
    let z = zap_request(&g, &validated(&g, &sushi), &ZapOptions::default()).unwrap();
    z.plan().verify(&g).unwrap();
    let target = g.pool_id(WETH_USDC_V2).unwrap();
    for s in &z.plan().steps {
        if let swapzap::plan::Step::Swap { pool, .. } = s {
            assert!(
                *pool == target || g.pool(*pool).unwrap().source == "sushiswap",
                "{}",
                g.pool(*pool).unwrap().id
            );
        }
    }
    // 3 % slippage
    let loose = body(&inputs, &outputs, "").replace("0.5", "3");
    let z = zap_request(&g, &validated(&g, &loose), &ZapOptions::default()).unwrap();
    let o = z.plan().outputs[0];
    assert_eq!(
        o.min_amount,
        o.amount * U256::from(97u32) / U256::from(100u32)
    );
}

/// A zap-out whose burn already delivers one output (the 3pool withdrawn in DAI) still gives
/// every output its share: WETH 0.3 / DAI 0.7 of the value, at the pricing table's prices
/// (fee-inclusive marginal rates, so within a few fees of the router's mid prices).
#[test]
fn zap_out_follows_its_proportions_when_the_burn_delivers_an_output() {
    let g = bundled();
    let (weth, dai) = (sym(&g, "WETH"), sym(&g, "DAI"));
    let lp = lp_of(&g, CURVE_3POOL);
    let text = body(
        &[(addr(&g, lp), "1000000000000000000000".into())],
        &[(addr(&g, weth), "0.3"), (addr(&g, dai), "0.7")],
        "",
    );
    let z = checked_zap(&g, &text);
    let table = swapzap::service::pricing::price_table(&g, dai, 4).unwrap();
    let value = |k: usize| {
        let o = z.plan().outputs[k];
        o.amount.to_string().parse::<f64>().unwrap() * table.get(o.token).unwrap().raw
    };
    let (v0, v1) = (value(0), value(1));
    assert!(v0 > 0.0 && v1 > 0.0, "{v0} {v1}");
    let share = v0 / (v0 + v1);
    assert!((share - 0.3).abs() < 5e-3, "WETH share {share}");
}

/// A one-output zap-out whose burn delivers some of the output directly: the bound covers the
/// passed-through part too (it was below the value), so the plan answers its request.
#[test]
fn zap_out_bound_counts_the_output_the_burn_delivers() {
    let g = bundled();
    let dai = sym(&g, "DAI");
    let lp = lp_of(&g, CURVE_2POOL);
    let text = body(
        &[(addr(&g, lp), "1000000000000000000000".into())],
        &[(addr(&g, dai), "1")],
        "",
    );
    let z = checked_zap(&g, &text);
    // everything is routed here: the router's bound stands, not below the value
    assert!(z.plan().upper_bound.unwrap() >= z.plan().value);
    let lp3 = lp_of(&g, CURVE_3POOL);
    let usdc = sym(&g, "USDC");
    let text = body(
        &[(addr(&g, lp3), "1000000000000000000000".into())],
        &[(addr(&g, usdc), "1")],
        "",
    );
    checked_zap(&g, &text);
}

/// A two-pool snapshot: A/B with the given supply fields, and B/C with a supply.
fn supply_graph(extra: serde_json::Value) -> PoolGraph {
    let (a, b, c) = (
        "0x00000000000000000000000000000000000000aa",
        "0x00000000000000000000000000000000000000bb",
        "0x00000000000000000000000000000000000000cc",
    );
    let mut ab = serde_json::json!({
        "id": "uniswap-v2:0x000000000000000000000000000000000000a0b0", "source": "uniswap-v2",
        "kind": "constant_product", "tokens": [a, b],
        "reserves": ["1000000000000000000000", "4000000000000000000000"],
        "fee": {"num": "3", "den": "1000"},
    });
    for (k, v) in extra.as_object().unwrap() {
        ab[k] = v.clone();
    }
    let snap: Snapshot = serde_json::from_value(serde_json::json!({
        "chain_id": 1,
        "tokens": [
            {"address": a, "symbol": "A", "decimals": 18},
            {"address": b, "symbol": "B", "decimals": 18},
            {"address": c, "symbol": "C", "decimals": 18},
        ],
        "pools": [ab, {
            "id": "uniswap-v2:0x000000000000000000000000000000000000b0c0", "source": "uniswap-v2",
            "kind": "constant_product", "tokens": [b, c],
            "reserves": ["1000000000000000000000", "1000000000000000000000"],
            "fee": {"num": "3", "den": "1000"}, "total_supply": "1000000000000000000000",
        }],
    }))
    .unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// Without `total_supply` a pool still swaps, but every LP operation on it is a typed error:
/// zap in, zap out, a plan's mint step, the routable-price test.
#[test]
fn lp_operations_need_the_snapshots_total_supply() {
    let g = supply_graph(serde_json::json!({}));
    let p = swapzap::units::PoolId(0);
    let (ta, tc) = (TokenId(0), TokenId(2));
    let lp = g.lp_token(p).unwrap();
    let opts = ZapOptions::default();
    let e = swapzap::zap::zap_in(&g, &[(tc, U256::exp10(18))], lp, &opts).unwrap_err();
    assert!(
        matches!(&e, ZapError::Route(RouteError::NoSupply(id)) if id.ends_with("a0b0")),
        "{e}"
    );
    assert_eq!(swapzap::Error::from(e).code(), 5010);
    let e = swapzap::zap::zap_out(
        &g,
        &[(lp, U256::exp10(18))],
        &[(tc, num_rational::Ratio::new(1, 1))],
        &opts,
    )
    .unwrap_err();
    assert!(matches!(e, ZapError::Route(RouteError::NoSupply(_))), "{e}");
    assert_eq!(
        swapzap::Error::Route(RouteError::NoSupply("x".into())).code(),
        4022
    );
    // a mint step that would hold with a supply does not verify without one
    let with = supply_graph(serde_json::json!({"total_supply": "2000000000000000000000"}));
    let z = swapzap::zap::zap_in(&with, &[(ta, U256::exp10(18))], lp, &opts).unwrap();
    z.plan.verify(&with).unwrap();
    assert!(matches!(
        z.plan.verify(&g),
        Err(RouteError::InvalidPlan { step: Some(_), .. })
    ));
    assert_eq!(
        swapzap::service::pricing::routable_price(&g, &g.token(lp).unwrap().address, ta, 4),
        Err(swapzap::service::pricing::NotRoutable::EmptyPool)
    );
    // swaps are unaffected
    let q = swapzap::route::quote(
        &g,
        &swapzap::route::RouteRequest::new(
            vec![(ta, U256::exp10(18))],
            vec![(tc, num_rational::Ratio::new(1, 1))],
        ),
    )
    .unwrap();
    q.verify(&g).unwrap();
}

/// `k_last` / `fee_on` of a V2 pair reach the pool math: the protocol fee is minted before a
/// mint, by Uniswap V2's `_mintFee` (computed here by hand).
#[test]
fn k_last_and_fee_on_are_used_by_the_mint() {
    let ts = U256::from(2_000_000_000_000_000_000_000u128);
    let k_last = U256::from(3_900_000u64) * U256::exp10(36);
    let on = supply_graph(serde_json::json!({
        "total_supply": ts.to_string(), "k_last": k_last.to_string(), "fee_on": true,
    }));
    let off = supply_graph(serde_json::json!({"total_supply": ts.to_string()}));
    let amounts = [U256::exp10(18), U256::exp10(18) * 4u8];
    let mint = |g: &PoolGraph| {
        g.pool(swapzap::units::PoolId(0))
            .unwrap()
            .pool
            .mint(&amounts)
            .unwrap()
            .0
    };
    let (r0, r1) = (U256::exp10(21), U256::exp10(21) * 4u8);
    let (root_k, root_k_last) = ((r0 * r1).integer_sqrt(), k_last.integer_sqrt());
    let fee = ts * (root_k - root_k_last) / (root_k * 5u8 + root_k_last);
    let t2 = ts + fee;
    let want_on = (amounts[0] * t2 / r0).min(amounts[1] * t2 / r1);
    let want_off = (amounts[0] * ts / r0).min(amounts[1] * ts / r1);
    assert!(!fee.is_zero());
    assert_eq!(mint(&on), want_on);
    assert_eq!(mint(&off), want_off);
    assert!(want_on > want_off);
}

/// `is_zap_body` tells a zap body from a swap body (what a swap quote says to a zap body).
#[test]
fn zap_bodies_are_told_from_swap_bodies() {
    let g = bundled();
    let (weth, usdt) = (sym(&g, "WETH"), sym(&g, "USDT"));
    let swap = body(
        &[(addr(&g, weth), "1000".into())],
        &[(addr(&g, usdt), "1")],
        "",
    );
    assert!(!swapzap::service::zap::is_zap_body(
        &g,
        &validated(&g, &swap)
    ));
    let zap = body(
        &[(addr(&g, weth), "1000".into())],
        &[(addr(&g, lp_of(&g, WETH_USDC_V2)), "1")],
        "",
    );
    assert!(swapzap::service::zap::is_zap_body(&g, &validated(&g, &zap)));
}

/// Many zap bodies over the bundled snapshot (deterministic pseudo-random mixes of tokens and
/// LP tokens, amounts from dust to pool-sized, one LP out or one to three tokens out): no
/// panic, and every plan that comes back answers its body under `verify_request` (137 of 156
/// valid bodies plan; the others are plain swaps or find no route for a swap leg).
#[test]
fn random_zap_bodies_never_panic_and_their_plans_verify() {
    let g = bundled();
    let mut seed: u64 = 0x5eed_1234_abcd_0001;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let n = g.n_tokens() as u64;
    let lps: Vec<TokenId> = (0..g.n_pools())
        .map(|p| g.lp_token(swapzap::units::PoolId(p as u32)).unwrap())
        .collect();
    let (mut ok, mut refused) = (0, 0);
    let mut codes: Vec<String> = Vec::new();
    for _ in 0..160 {
        let n_in = 1 + next() % 3;
        let mut ins: Vec<(String, String)> = Vec::new();
        let mut used = Vec::new();
        for _ in 0..n_in {
            let t = TokenId((next() % n) as u32);
            if used.contains(&t) {
                continue;
            }
            used.push(t);
            let d = g.token(t).unwrap().decimals as u32;
            let whole = 10u128.pow((next() % 6) as u32) * (1 + next() as u128 % 9);
            let amt = (U256::from(whole) * U256::exp10(d as usize)) / U256::from(1000u32);
            // an LP amount: 0.01 % to 5 % of the pool's supply
            let amt = match g.pool_of_lp(t) {
                Some(p) => {
                    g.pool(p).unwrap().pool.total_supply() * U256::from(1 + next() % 500)
                        / U256::from(10_000u32)
                }
                None => amt,
            };
            let amt = amt.max(U256::one());
            ins.push((addr(&g, t), amt.to_string()));
        }
        let outs: Vec<(String, &str)> = if next() % 2 == 0 {
            let lp = lps[(next() % lps.len() as u64) as usize];
            if used.contains(&lp) {
                continue;
            }
            vec![(addr(&g, lp), "1")]
        } else {
            let k = 1 + next() % 2;
            let mut o = Vec::new();
            for p in [["1", ""], ["0.5", "0.5"]][(k - 1) as usize] {
                if p.is_empty() {
                    break;
                }
                let t = loop {
                    let t = TokenId((next() % n) as u32);
                    if !used.contains(&t)
                        && g.pool_of_lp(t).is_none()
                        && !o.iter().any(|x: &(String, &str)| x.0 == addr(&g, t))
                    {
                        break t;
                    }
                };
                o.push((addr(&g, t), p));
            }
            o
        };
        let text = body(&ins, &outs, "");
        let q: swapzap::service::request::QuoteRequest = serde_json::from_str(&text).unwrap();
        let Ok(r) = q.validate(&g.sources()) else {
            refused += 1;
            continue;
        };
        match zap_request(&g, &r, &ZapOptions::default()) {
            Ok(z) => {
                let want = swapzap::plan::PlanRequest::from_request(&r, &g).unwrap();
                z.plan()
                    .verify_request(&g, &want)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                ok += 1;
            }
            Err(e) => {
                let _ = (e.code(), e.class(), e.to_string());
                codes.push(format!("{e} <- {text}"));
                refused += 1;
            }
        }
    }
    assert!(ok >= 100, "{ok} planned, {refused} refused {codes:#?}");
}

/// 2^256 − 1 of a coin zapped into a pool: the answer is the swap's (no-route class, the
/// pool cannot take the amount), never a retryable arithmetic failure, and names the pool.
/// The same amount swapped is the router's `InsufficientLiquidity` (4001), same class.
#[test]
fn a_zap_of_the_largest_amount_is_insufficient_liquidity_like_the_swap() {
    let g = bundled();
    let (weth, dai) = (sym(&g, "WETH"), sym(&g, "DAI"));
    let pair = "uniswap-v2:0xee6dc81a469c4f38645f65e6ffa202e1f7f1b93b";
    let lp = lp_of(&g, pair);
    let e = swapzap::zap::zap_in(&g, &[(weth, U256::MAX)], lp, &ZapOptions::default()).unwrap_err();
    assert_eq!(
        e,
        ZapError::InsufficientLiquidity {
            pool: pair.to_string()
        }
    );
    let e = swapzap::Error::from(e);
    assert_eq!(e.code(), 5013);
    assert!(!e.is_retryable());
    assert!(e.detail().contains(pair), "{}", e.detail());
    let swap = swapzap::route::quote(
        &g,
        &swapzap::route::RouteRequest::new(
            vec![(weth, U256::MAX)],
            vec![(dai, num_rational::Ratio::new(1, 1))],
        ),
    )
    .unwrap_err();
    assert!(
        matches!(swap, RouteError::InsufficientLiquidity { .. }),
        "{swap}"
    );
    assert_eq!(swapzap::Error::from(swap).class(), e.class());
    // every LP pool of the bundled snapshot, every coin, and WETH routed: never retryable
    for (i, info) in g.pools().iter().enumerate() {
        let Ok(lp) = g.lp_token(swapzap::units::PoolId(i as u32)) else {
            continue;
        };
        for t in info.tokens.iter().copied().chain([weth]) {
            if let Err(e) = swapzap::zap::zap_in(&g, &[(t, U256::MAX)], lp, &ZapOptions::default())
            {
                let e = swapzap::Error::from(e);
                assert!(!e.is_retryable(), "{}: {} {e}", info.id, e.code());
            }
        }
    }
}

/// A pool whose `total_supply` is 0 beside reserves: zap in and out are refused with
/// `ZeroSupply` naming the pool (it used to be "no zap plan mints any LP"); a missing supply
/// names the pool without calling it a route leg; a concentrated-liquidity pool says its
/// positions are not LP tokens.
#[test]
fn zaps_into_a_zero_supply_or_cl_pool_say_why() {
    let g = supply_graph(serde_json::json!({"total_supply": "0"}));
    let p = swapzap::units::PoolId(0);
    let lp = g.lp_token(p).unwrap();
    let opts = ZapOptions::default();
    let zero = ZapError::ZeroSupply {
        pool: "uniswap-v2:0x000000000000000000000000000000000000a0b0".into(),
    };
    let e = swapzap::zap::zap_in(&g, &[(TokenId(2), U256::exp10(18))], lp, &opts).unwrap_err();
    assert_eq!(e, zero);
    let e = swapzap::Error::from(e);
    assert_eq!((e.code(), e.is_retryable()), (5014, false));
    assert!(e.detail().contains("a0b0") && e.detail().contains("total_supply is 0"));
    let e = swapzap::zap::zap_out(
        &g,
        &[(lp, U256::exp10(18))],
        &[(TokenId(2), num_rational::Ratio::new(1, 1))],
        &opts,
    )
    .unwrap_err();
    assert_eq!(e, zero);
    let missing = supply_graph(serde_json::json!({}));
    let e = swapzap::zap::zap_in(&missing, &[(TokenId(2), U256::exp10(18))], lp, &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a0b0") && e.contains("no total_supply") && !e.contains("route leg"),
        "{e}"
    );
    let b = bundled();
    let cl = lp_of(&b, "uniswap-v3:0x6480bbde777062fc0bedc98220db864c8ba19017");
    let e = swapzap::zap::zap_in(&b, &[(sym(&b, "WETH"), U256::exp10(18))], cl, &opts).unwrap_err();
    assert_eq!(
        e,
        ZapError::Unsupported(swapzap::error::ZapUnsupported::ConcentratedLiquidity)
    );
}
