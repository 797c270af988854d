//! Criterion benches for the Curve stable-swap pools (ids `curve/<op>/<impl>/<pool>`,
//! deterministic inputs, 18- and 6-decimal pools). The `reference` entries of
//! `curve/get_dy` are a straightforward primitive-types-operator `get_D` + `get_y` (the
//! classic template's formulas), measured in the same group so the ratio comes from one run.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
use swapzap::U256;

fn e(dec: u32) -> U256 {
    U256::exp10(dec as usize)
}

fn rate(dec: u32) -> U256 {
    e(36 - dec)
}

/// A pool with `tokens[k]` whole tokens of `decs[k]` decimals each (deterministic).
fn pool(variant: Variant, tokens: &[u64], decs: &[u32], a: u64, offpeg: u64) -> StableSwap {
    let balances = tokens
        .iter()
        .zip(decs)
        .map(|(&t, &d)| U256::from(t) * e(d) + U256::from(123_456_789u64))
        .collect();
    let total: u64 = tokens.iter().sum();
    StableSwap::new(StableSwapParams {
        variant,
        balances,
        rates: decs.iter().map(|&d| rate(d)).collect(),
        a: U256::from(a),
        fee: U256::from(4_000_000u64),
        admin_fee: U256::from(5_000_000_000u64),
        total_supply: U256::from(total) * e(18),
        admin_balances: Default::default(),
        offpeg_fee_multiplier: U256::from(offpeg),
    })
    .unwrap()
}

struct Case {
    name: &'static str,
    pool: StableSwap,
    decs: Vec<u32>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "2coins-18-18",
            pool: pool(Variant::Classic, &[1_200_000, 950_000], &[18, 18], 200, 0),
            decs: vec![18, 18],
        },
        Case {
            name: "2coins-18-6",
            pool: pool(Variant::Classic, &[1_200_000, 950_000], &[18, 6], 200, 0),
            decs: vec![18, 6],
        },
        Case {
            name: "3coins-18-6-6",
            pool: pool(
                Variant::Classic,
                &[160_000_000, 170_000_000, 90_000_000],
                &[18, 6, 6],
                2000,
                0,
            ),
            decs: vec![18, 6, 6],
        },
        Case {
            name: "3coins-18-18-18",
            pool: pool(
                Variant::Classic,
                &[5_000_000, 4_000_000, 6_000_000],
                &[18, 18, 18],
                100,
                0,
            ),
            decs: vec![18, 18, 18],
        },
        Case {
            name: "3pool-18-6-6",
            pool: pool(
                Variant::ThreePool,
                &[160_000_000, 170_000_000, 90_000_000],
                &[18, 6, 6],
                2000,
                0,
            ),
            decs: vec![18, 6, 6],
        },
        Case {
            name: "ng2-18-6",
            pool: pool(
                Variant::Ng,
                &[1_200_000, 950_000],
                &[18, 6],
                200,
                20_000_000_000,
            ),
            decs: vec![18, 6],
        },
        Case {
            name: "ng4-18-18-18-6",
            pool: pool(
                Variant::Ng,
                &[1_000_000, 1_100_000, 900_000, 1_050_000],
                &[18, 18, 18, 6],
                500,
                20_000_000_000,
            ),
            decs: vec![18, 18, 18, 6],
        },
    ]
}

/// The straightforward version: classic template `get_D` + `get_y` + fee with
/// primitive-types operators (they panic on overflow), recomputing D on every call.
mod reference {
    use swapzap::U256;

    fn get_d(xp: &[U256], amp: U256) -> U256 {
        let n = U256::from(xp.len());
        let ap = U256::from(100u8);
        let s = xp.iter().fold(U256::zero(), |a, &b| a + b);
        if s.is_zero() {
            return s;
        }
        let mut d = s;
        let ann = amp * n;
        for _ in 0..255 {
            let mut dp = d;
            for &x in xp {
                dp = dp * d / (x * n);
            }
            let prev = d;
            d = (ann * s / ap + dp * n) * d / ((ann - ap) * d / ap + (n + 1) * dp);
            if (d > prev && d - prev <= U256::one()) || (d <= prev && prev - d <= U256::one()) {
                return d;
            }
        }
        panic!("no convergence")
    }

    fn get_y(i: usize, j: usize, x: U256, xp: &[U256], amp: U256) -> U256 {
        let n = U256::from(xp.len());
        let ap = U256::from(100u8);
        let d = get_d(xp, amp);
        let ann = amp * n;
        let mut c = d;
        let mut s = U256::zero();
        for (k, &xk) in xp.iter().enumerate() {
            let v = if k == i {
                x
            } else if k != j {
                xk
            } else {
                continue;
            };
            s += v;
            c = c * d / (v * n);
        }
        c = c * d * ap / (ann * n);
        let b = s + d * ap / ann;
        let mut y = d;
        for _ in 0..255 {
            let prev = y;
            y = (y * y + c) / (U256::from(2u8) * y + b - d);
            if (y > prev && y - prev <= U256::one()) || (y <= prev && prev - y <= U256::one()) {
                return y;
            }
        }
        panic!("no convergence")
    }

    pub fn get_dy(
        balances: &[U256],
        rates: &[U256],
        amp: U256,
        fee: U256,
        i: usize,
        j: usize,
        dx: U256,
    ) -> U256 {
        let p = U256::exp10(18);
        let xp: Vec<U256> = balances
            .iter()
            .zip(rates)
            .map(|(&b, &r)| b * r / p)
            .collect();
        let x = xp[i] + dx * rates[i] / p;
        let y = get_y(i, j, x, &xp, amp);
        let dy = xp[j] - y - 1;
        let f = fee * dy / U256::exp10(10);
        (dy - f) * p / rates[j]
    }
}

fn bench_swaps(c: &mut Criterion) {
    let cases = cases();
    let mut g = c.benchmark_group("curve/get_dy");
    g.throughput(Throughput::Elements(1));
    for case in &cases {
        let p = &case.pool;
        let dx = U256::from(1_000u64) * e(case.decs[0]);
        g.bench_with_input(BenchmarkId::new("swapzap", case.name), &dx, |b, &dx| {
            b.iter(|| black_box(p).get_dy(0, 1, black_box(dx)).unwrap())
        });
        if p.variant() == Variant::Classic {
            let want = p.get_dy(0, 1, dx).unwrap();
            let got = reference::get_dy(p.balances(), p.rates(), p.a_precise(), p.fee(), 0, 1, dx);
            assert_eq!(want, got, "reference disagrees on {}", case.name);
            g.bench_with_input(BenchmarkId::new("reference", case.name), &dx, |b, &dx| {
                b.iter(|| {
                    reference::get_dy(
                        black_box(p.balances()),
                        p.rates(),
                        p.a_precise(),
                        p.fee(),
                        0,
                        1,
                        black_box(dx),
                    )
                })
            });
        }
    }
    g.finish();

    let mut g = c.benchmark_group("curve/exchange");
    for case in &cases {
        let p = &case.pool;
        let dx = U256::from(1_000u64) * e(case.decs[0]);
        g.bench_with_input(BenchmarkId::new("swapzap", case.name), &dx, |b, &dx| {
            b.iter(|| black_box(p).exchange(0, 1, black_box(dx)).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/amount_in");
    for case in &cases {
        let p = &case.pool;
        let dy = U256::from(1_000u64) * e(case.decs[1]);
        g.bench_with_input(BenchmarkId::new("swapzap", case.name), &dy, |b, &dy| {
            b.iter(|| black_box(p).amount_in(0, 1, black_box(dy)).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/marginal_rate");
    for case in &cases {
        let p = &case.pool;
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| black_box(p).marginal_rate(0, 1))
        });
    }
    g.finish();
}

fn bench_liquidity(c: &mut Criterion) {
    let cases = cases();
    let mut g = c.benchmark_group("curve/new");
    for case in &cases {
        let p = &case.pool;
        let params = StableSwapParams {
            variant: p.variant(),
            balances: p.balances().iter().copied().collect(),
            rates: p.rates().iter().copied().collect(),
            a: p.a(),
            fee: p.fee(),
            admin_fee: p.admin_fee(),
            total_supply: p.total_supply(),
            admin_balances: p.admin_balances().iter().copied().collect(),
            offpeg_fee_multiplier: p.offpeg_fee_multiplier(),
        };
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| StableSwap::new(black_box(params.clone())).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/add_liquidity");
    for case in &cases {
        let p = &case.pool;
        let amounts: Vec<U256> = case
            .decs
            .iter()
            .enumerate()
            .map(|(k, &d)| U256::from(1_000u64 * (k as u64 + 1)) * e(d))
            .collect();
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| black_box(p).add_liquidity(black_box(&amounts)).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/calc_token_amount");
    for case in &cases {
        let p = &case.pool;
        let amounts: Vec<U256> = case
            .decs
            .iter()
            .enumerate()
            .map(|(k, &d)| U256::from(1_000u64 * (k as u64 + 1)) * e(d))
            .collect();
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| {
                black_box(p)
                    .calc_token_amount(black_box(&amounts), true)
                    .unwrap()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/remove_liquidity_one_coin");
    for case in &cases {
        let p = &case.pool;
        let lp = p.total_supply() / 1000;
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| {
                black_box(p)
                    .remove_liquidity_one_coin(black_box(lp), 1)
                    .unwrap()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/calc_withdraw_one_coin");
    for case in &cases {
        let p = &case.pool;
        let lp = p.total_supply() / 1000;
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| {
                black_box(p)
                    .calc_withdraw_one_coin(black_box(lp), 1)
                    .unwrap()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/remove_liquidity_imbalance");
    for case in &cases {
        let p = &case.pool;
        let amounts: Vec<U256> = case
            .decs
            .iter()
            .enumerate()
            .map(|(k, &d)| U256::from(500u64 * (k as u64 + 1)) * e(d))
            .collect();
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| {
                black_box(p)
                    .remove_liquidity_imbalance(black_box(&amounts))
                    .unwrap()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("curve/remove_liquidity");
    for case in &cases {
        let p = &case.pool;
        let lp = p.total_supply() / 1000;
        g.bench_function(BenchmarkId::new("swapzap", case.name), |b| {
            b.iter(|| black_box(p).remove_liquidity(black_box(lp)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(group, bench_swaps, bench_liquidity);
criterion_main!(group);
