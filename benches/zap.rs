//! Criterion benches for `zap` (ids `area/op/param`, deterministic inputs).
//!
//! Targets: V2 zap-in ≤ 2 µs, solidly stable zap-in ≤ 30 µs, Curve 3-coin zap-in ≤ 50 µs,
//! multi-token zap-in on a 2000-pool snapshot within the routing targets.
//!
//! Recorded (2026-11-21 20:13 UTC, shared 2-core machine, load average 2.4; medians of 2 s
//! measurements):
//!
//! | id | median |
//! |---|---|
//! | `zap/in_pool/v2/one_sided` | 2.2 – 2.4 µs |
//! | `zap/in_pool/v2/two_sided` | 1.8 – 2.3 µs |
//! | `zap/in_pool/v2_fee_on/one_sided` | 2.6 – 2.7 µs |
//! | `zap/in_pool/solidly_volatile/one_sided` | 2.3 µs |
//! | `zap/in_pool/solidly_stable/one_sided` | 8.4 µs |
//! | `zap/in_pool/solidly_stable/two_sided` | 7.1 µs |
//! | `zap/in_pool/curve3_classic/one_sided` | 6.8 µs (13.7-18.3 ms on 2026-11-25 with the exhaustive pair search; 21.7-22.0 µs with the float-guided path, load 11) |
//! | `zap/in_pool/curve3_ng/two_sided` | 10.8 µs (33.0-41.2 ms on 2026-11-25 with the exhaustive pair search; 43.5-55.5 µs with the float-guided path, load 11) |
//! | `zap/graph/zap_in/multi_token_p2000` | 11.1 ms (4.1 – 4.8 ms with the router of 19:58 UTC; the router is ≈ 95 % of the profile); 347-381 ms on 2026-11-26 at load 9-12 with the routed split's search (up to 12 router quotes and two routed bounds), `route_reference` 17.5-19.5 ms in the same runs; 33.9 ms at 04:17 UTC, load 9, with the model-guided search (3 router quotes, 1 bound solve), `route_reference` 11.3 ms in the same run |
//! | `zap/graph/route_reference/multi_token_p2000` | 17.8 ms (the router alone on the same legs at exactly 50/50) |
//!
//! Under load average 6 the same benches ran 2–3× slower (V2 3.7–4.3 µs); at load 3 the V2
//! one-sided zap-in measured 1.90 µs.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout
)]
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use swapzap::graph::PoolGraph;
use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
use swapzap::pool::{ConstantProduct, Pool, Solidly};
use swapzap::snapshot::{FeeField, FeeFraction, PoolKind, Snapshot, SnapshotPool, SnapshotToken};
use swapzap::units::TokenId;
use swapzap::zap::{zap_in, zap_in_pool, ZapConfig, ZapOptions};
use swapzap::U256;

fn e(x: u64, dec: u32) -> U256 {
    U256::from(x) * U256::exp10(dec as usize)
}

fn v2() -> Pool {
    // ~2M USDC / 1000 WETH-like pair, protocol fee off and on.
    Pool::ConstantProduct(
        ConstantProduct::new([e(2_000_000, 6), e(1000, 18)], 3, 1000, e(44_000, 12)).unwrap(),
    )
}

fn v2_fee_on() -> Pool {
    let r = [e(2_000_000, 6), e(1000, 18)];
    let k_last = r[0] * r[1] / U256::from(2u8);
    Pool::ConstantProduct(
        ConstantProduct::new(r, 3, 1000, e(44_000, 12))
            .unwrap()
            .with_protocol_fee(k_last, true),
    )
}

fn solidly(stable: bool) -> Pool {
    if stable {
        Pool::Solidly(
            Solidly::new(
                [e(5_300_000, 6), e(4_900_000, 18)],
                [6, 18],
                true,
                5,
                e(5_000_000, 12),
            )
            .unwrap(),
        )
    } else {
        Pool::Solidly(
            Solidly::new(
                [e(2_000_000, 6), e(1000, 18)],
                [6, 18],
                false,
                30,
                e(44_000, 12),
            )
            .unwrap(),
        )
    }
}

fn curve3(variant: Variant) -> Pool {
    let params = StableSwapParams {
        variant,
        balances: [e(40_000_000, 18), e(38_000_000, 6), e(45_000_000, 6)]
            .into_iter()
            .collect(),
        rates: [e(1, 18), e(1, 30), e(1, 30)].into_iter().collect(),
        a: U256::from(2000u32),
        fee: U256::from(1_000_000u32),
        admin_fee: U256::from(5_000_000_000u64),
        total_supply: e(120_000_000, 18),
        admin_balances: [U256::zero(); 3].into_iter().collect(),
        offpeg_fee_multiplier: U256::from(20_000_000_000u64),
    };
    Pool::StableSwap(StableSwap::new(params).unwrap())
}

fn benches(c: &mut Criterion) {
    let cfg = ZapConfig::exact();
    let mut g = c.benchmark_group("zap");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(30);
    let cases: Vec<(&str, Pool, Vec<U256>)> = vec![
        (
            "in_pool/v2/one_sided",
            v2(),
            vec![e(10_000, 6), U256::zero()],
        ),
        ("in_pool/v2/two_sided", v2(), vec![e(10_000, 6), e(1, 18)]),
        (
            "in_pool/v2_fee_on/one_sided",
            v2_fee_on(),
            vec![e(10_000, 6), U256::zero()],
        ),
        (
            "in_pool/solidly_volatile/one_sided",
            solidly(false),
            vec![e(10_000, 6), U256::zero()],
        ),
        (
            "in_pool/solidly_stable/one_sided",
            solidly(true),
            vec![e(10_000, 6), U256::zero()],
        ),
        (
            "in_pool/solidly_stable/two_sided",
            solidly(true),
            vec![e(10_000, 6), e(3_000, 18)],
        ),
        (
            "in_pool/curve3_classic/one_sided",
            curve3(Variant::Classic),
            vec![e(100_000, 18), U256::zero(), U256::zero()],
        ),
        (
            "in_pool/curve3_ng/two_sided",
            curve3(Variant::Ng),
            vec![e(100_000, 18), e(5_000, 6), U256::zero()],
        ),
    ];
    for (name, pool, amounts) in &cases {
        let z = zap_in_pool(pool, amounts, &cfg).unwrap();
        println!(
            "{name}: minted {} swap {:?}",
            z.minted,
            z.swap.map(|s| (s.from, s.amount_in))
        );
        g.bench_function(*name, |b| {
            b.iter(|| zap_in_pool(black_box(pool), black_box(amounts), &cfg).unwrap())
        });
    }
    g.finish();
}

/// xorshift, for a deterministic synthetic market.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn hex_addr(n: u64) -> String {
    format!("0x{:040x}", n.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xabcd)
}

fn raw(usd: f64, price: f64, dec: u8) -> String {
    let tokens = usd / price;
    format!("{:.0}", tokens * 10f64.powi(dec as i32))
}

/// A market of `n_pools` pools over `n_tokens` tokens: 5 hubs (WETH, USDC, USDT, DAI, WBTC),
/// every other token paired with hubs and with random tokens; constant-product (uniswap-v2 and
/// sushiswap), solidly volatile, solidly stable and Curve pools for the stable hubs. Pool prices
/// follow each token's reference price; liquidity is log-uniform from $20k to $20M.
fn market(n_tokens: usize, n_pools: usize) -> Snapshot {
    let mut rng = Rng(0x5eed_2026_1121);
    let hubs: [(&str, u8, f64); 5] = [
        ("WETH", 18, 3150.0),
        ("USDC", 6, 1.0),
        ("USDT", 6, 1.0),
        ("DAI", 18, 1.0),
        ("WBTC", 8, 64000.0),
    ];
    let mut tokens: Vec<(String, String, u8, f64)> = hubs
        .iter()
        .enumerate()
        .map(|(k, (s, d, p))| (hex_addr(k as u64 + 1), s.to_string(), *d, *p))
        .collect();
    for k in hubs.len()..n_tokens {
        let price = 10f64.powf(-4.0 + 6.0 * rng.unit());
        let dec = if rng.unit() < 0.8 { 18 } else { 6 };
        tokens.push((hex_addr(k as u64 + 1), format!("T{k}"), dec, price));
    }
    let mut pools = Vec::new();
    let add = |pools: &mut Vec<SnapshotPool>, a: usize, b: usize, kind: u8, rng: &mut Rng| {
        let (ta, tb) = (&tokens[a], &tokens[b]);
        let usd = 10f64.powf(4.3 + 3.0 * rng.unit());
        let id = pools.len() as u64 + 10_000;
        let mut p = SnapshotPool {
            id: String::new(),
            source: String::new(),
            kind: PoolKind::ConstantProduct,
            tokens: vec![ta.0.clone(), tb.0.clone()],
            reserves: vec![raw(usd / 2.0, ta.3, ta.2), raw(usd / 2.0, tb.3, tb.2)],
            ..Default::default()
        };
        // a supply consistent with the reserves (LP operations need one): isqrt(r0 r1)
        let r: Vec<U256> = p.reserves.iter().map(|x| x.parse().unwrap()).collect();
        p.total_supply = Some((r[0] * r[1]).integer_sqrt().to_string());
        match kind {
            0 | 1 => {
                p.source = if kind == 0 { "uniswap-v2" } else { "sushiswap" }.into();
                p.fee = Some(FeeField::Fraction(FeeFraction {
                    num: "3".into(),
                    den: "1000".into(),
                }));
            }
            2 | 3 => {
                p.source = "aerodrome".into();
                p.kind = PoolKind::Solidly;
                p.stable = Some(kind == 3);
                p.fee_bps = Some(if kind == 3 { "5" } else { "30" }.into());
                p.decimals = Some(vec![ta.2, tb.2]);
            }
            _ => {
                p.source = "curve".into();
                p.kind = PoolKind::Stableswap;
                p.a = Some("20000".into());
                p.a_precision = Some("100".into());
                p.fee = Some(FeeField::Units("4000000".into()));
                p.rates = Some(vec![
                    format!("1{}", "0".repeat(36 - ta.2 as usize)),
                    format!("1{}", "0".repeat(36 - tb.2 as usize)),
                ]);
            }
        }
        p.id = format!("{}:{}", p.source, hex_addr(id));
        pools.push(p);
    };
    // stable hubs: solidly stable and Curve pools
    for (a, b) in [(1, 2), (1, 3), (2, 3)] {
        add(&mut pools, a, b, 3, &mut rng);
        add(&mut pools, a, b, 4, &mut rng);
    }
    // hub pairs
    for a in 0..5 {
        for b in (a + 1)..5 {
            add(&mut pools, a, b, 0, &mut rng);
            add(&mut pools, a, b, 2, &mut rng);
        }
    }
    while pools.len() < n_pools {
        let a = 5 + (rng.next() as usize) % (n_tokens - 5);
        let b = if rng.unit() < 0.6 {
            (rng.next() as usize) % 5
        } else {
            5 + (rng.next() as usize) % (n_tokens - 5)
        };
        if a == b {
            continue;
        }
        let kind = [0u8, 0, 1, 2][(rng.next() % 4) as usize];
        add(&mut pools, a, b, kind, &mut rng);
    }
    Snapshot {
        chain_id: 8453,
        tokens: tokens
            .into_iter()
            .map(|(address, symbol, decimals, _)| SnapshotToken {
                address,
                symbol,
                decimals,
            })
            .collect(),
        pools,
    }
}

fn graph_benches(c: &mut Criterion) {
    let snap = market(400, 2000);
    let g = PoolGraph::from_snapshot(&snap).unwrap();
    let tok = |s: &str| TokenId(g.tokens().iter().position(|t| t.symbol == s).unwrap() as u32);
    let (weth, usdc, dai, wbtc) = (tok("WETH"), tok("USDC"), tok("DAI"), tok("WBTC"));
    let target = g
        .pools()
        .iter()
        .position(|p| p.kind == PoolKind::ConstantProduct && p.tokens == vec![weth, usdc])
        .unwrap();
    let lp = g.lp_token(swapzap::units::PoolId(target as u32)).unwrap();
    let t7 = tok("T7");
    let inputs = vec![
        (dai, U256::from(5_000u32) * U256::exp10(18)),
        (wbtc, U256::from(10_000_000u32)),
        (t7, U256::exp10(20)),
    ];
    let opts = ZapOptions::default();
    let z = zap_in(&g, &inputs, lp, &opts).unwrap();
    z.plan.verify(&g).unwrap();
    println!(
        "graph/zap_in/multi_token_p2000: {} pools, minted {}, {} steps, {} router quotes, {} bound solves",
        g.n_pools(),
        z.minted,
        z.plan.steps.len(),
        z.cost.router_quotes,
        z.cost.bound_solves
    );
    let mut grp = c.benchmark_group("zap");
    grp.measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(20);
    grp.bench_function("graph/zap_in/multi_token_p2000", |b| {
        b.iter(|| zap_in(black_box(&g), black_box(&inputs), lp, &opts).unwrap())
    });
    // The router alone on the same legs (inputs into WETH and USDC at 50/50), for reference.
    let req = swapzap::route::RouteRequest::new(
        inputs.clone(),
        vec![
            (weth, num_rational::Ratio::new(1, 2)),
            (usdc, num_rational::Ratio::new(1, 2)),
        ],
    );
    grp.bench_function("graph/route_reference/multi_token_p2000", |b| {
        b.iter(|| swapzap::route::quote(black_box(&g), black_box(&req)).unwrap())
    });
    // The routed bound's part of the zap: the routes' certified value at weights on the two
    // coins (the pair's tangent at its balances), without the target pair.
    let pair = &g.pool(swapzap::units::PoolId(target as u32)).unwrap().pool;
    let bal = pair.balances();
    let (x, y) = (
        bal[0].to_string().parse::<f64>().unwrap(),
        bal[1].to_string().parse::<f64>().unwrap(),
    );
    let weights = [(weth, 0.5 * (y / x).sqrt()), (usdc, 0.5 * (x / y).sqrt())];
    let excl = [swapzap::units::PoolId(target as u32)];
    grp.bench_function("graph/weighted_bound/multi_token_p2000", |b| {
        b.iter(|| {
            swapzap::route::weighted_output_bound(black_box(&g), black_box(&req), &weights, &excl)
                .unwrap()
        })
    });
    grp.finish();
}

criterion_group!(group, benches, graph_benches);
criterion_main!(group);
