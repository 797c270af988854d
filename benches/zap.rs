//! Criterion benches for `zap` (ids `area/op/param`, deterministic inputs).
//!
//! Targets: V2 zap-in ≤ 2 µs, solidly stable zap-in ≤ 30 µs, Curve 3-coin zap-in ≤ 50 µs.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout
)]
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
use swapzap::pool::{ConstantProduct, Pool, Solidly};
use swapzap::zap::{zap_in_pool, ZapConfig};
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

criterion_group!(group, benches);
criterion_main!(group);
