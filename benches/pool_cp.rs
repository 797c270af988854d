//! Criterion benches for the constant-product and solidly pools (ids `area/op/param`,
//! deterministic inputs: fixed pool states, inputs from a fixed xorshift sequence).
//!
//! Each `*_ref` id in a group is a straightforward primitive-types-operator version of the same
//! formula, so the speed-up of the library's fast paths is measured in the same run.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use swapzap::pool::{ConstantProduct, Solidly};
use swapzap::U256;

const N: usize = 64;

/// A fixed xorshift sequence of input amounts around `scale` (from scale/1000 to scale).
fn inputs(scale: U256, seed: u64) -> Vec<U256> {
    let mut s = seed;
    (0..N)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            scale / U256::from(1000) * U256::from(1 + s % 1000)
        })
        .collect()
}

/// The bench `op/name` of the group: `f` on every input, each answer kept from the optimiser.
fn each<T, R>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    op: &str,
    name: &str,
    inputs: &[T],
    f: impl Fn(&T) -> R,
) {
    g.bench_with_input(BenchmarkId::new(op, name), inputs, |b, xs| {
        b.iter(|| {
            for x in xs {
                black_box(f(x));
            }
        });
    });
}

fn e(dec: u32) -> U256 {
    U256::from(10).pow(U256::from(dec))
}

/// Uniswap V2 getAmountOut with primitive-types operators (the reference).
fn cp_ref_amount_out(a: U256, r_in: U256, r_out: U256) -> U256 {
    let a_fee = a * U256::from(997);
    a_fee * r_out / (r_in * U256::from(1000) + a_fee)
}

fn cp_pools() -> Vec<(&'static str, ConstantProduct, U256)> {
    // 18 decimals both sides (~5M and ~2.5M tokens) and 6 decimals both sides (~5M/~4.9M).
    let p18 = ConstantProduct::new(
        [
            e(18) * U256::from(5_123_456u64),
            e(18) * U256::from(2_498_765u64),
        ],
        3,
        1000,
        e(18) * U256::from(3_000_000u64),
    )
    .unwrap();
    let p6 = ConstantProduct::new(
        [
            e(6) * U256::from(5_123_456u64),
            e(6) * U256::from(4_898_765u64),
        ],
        3,
        1000,
        e(6) * U256::from(5_000_000u64),
    )
    .unwrap();
    vec![
        ("18dec", p18, e(18) * U256::from(10_000u64)),
        ("6dec", p6, e(6) * U256::from(10_000u64)),
    ]
}

fn bench_cp(c: &mut Criterion) {
    let mut g = c.benchmark_group("cp");
    g.throughput(Throughput::Elements(N as u64));
    for (name, pool, scale) in cp_pools() {
        let xs = inputs(scale, 0x9e37_79b9_7f4a_7c15);
        let [r0, r1] = pool.reserves();
        each(&mut g, "amount_out", name, &xs, |&x| {
            black_box(&pool).amount_out(0, 1, x).unwrap()
        });
        each(&mut g, "amount_out_ref", name, &xs, |&x| {
            cp_ref_amount_out(x, black_box(r0), black_box(r1))
        });
        each(&mut g, "amount_in", name, &xs, |&x| {
            black_box(&pool).amount_in(0, 1, x).unwrap()
        });
        each(&mut g, "quote", name, &xs, |&x| {
            black_box(&pool).quote(0, 1, x).unwrap()
        });
        each(&mut g, "swap", name, &xs, |&x| {
            black_box(&pool).swap(0, 1, x).unwrap()
        });
        let deposits: Vec<[U256; 2]> = xs.iter().map(|&x| [x, x * r1 / r0]).collect();
        each(&mut g, "mint", name, &deposits, |d| {
            black_box(&pool).mint_detailed(*d).unwrap()
        });
        each(&mut g, "burn", name, &xs, |&x| {
            black_box(&pool).burn_detailed(x).unwrap()
        });
        g.bench_function(BenchmarkId::new("marginal_rate", name), |b| {
            b.iter(|| black_box(black_box(&pool).marginal_rate(0, 1)));
        });
    }
    g.finish();
}

/// The stable Aerodrome getAmountOut with primitive-types operators, written plainly (the
/// reference): same formula, same loop, no fast paths and no caching of k.
fn solidly_ref_stable_out(
    a: U256,
    r_in: U256,
    r_out: U256,
    s_in: U256,
    s_out: U256,
    fee: U256,
) -> U256 {
    let one = U256::exp10(18);
    let f = |x0: U256, y: U256| -> U256 {
        let a = x0 * y / one;
        let b = x0 * x0 / one + y * y / one;
        a * b / one
    };
    let d = |x0: U256, y: U256| -> U256 {
        U256::from(3) * x0 * (y * y / one) / one + x0 * x0 / one * x0 / one
    };
    let a = a - a * fee / U256::from(10_000);
    let x = r_in * one / s_in;
    let y0 = r_out * one / s_out;
    let xy = f(x, y0);
    let x0 = a * one / s_in + x;
    let mut y = y0;
    for _ in 0..255 {
        let k = f(x0, y);
        if k < xy {
            let mut dy = (xy - k) * one / d(x0, y);
            if dy.is_zero() {
                if f(x0, y + 1) > xy {
                    y += U256::one();
                    break;
                }
                dy = U256::one();
            }
            y += dy;
        } else {
            let mut dy = (k - xy) * one / d(x0, y);
            if dy.is_zero() {
                if k == xy || f(x0, y - 1) < xy {
                    break;
                }
                dy = U256::one();
            }
            y -= dy;
        }
    }
    (y0 - y) * s_out / one
}

fn solidly_pools() -> Vec<(&'static str, Solidly, U256)> {
    let st18 = Solidly::new(
        [
            e(18) * U256::from(5_123_456u64),
            e(18) * U256::from(4_898_765u64),
        ],
        [18, 18],
        true,
        5,
        e(18) * U256::from(5_000_000u64),
    )
    .unwrap();
    let st6 = Solidly::new(
        [
            e(6) * U256::from(5_123_456u64),
            e(6) * U256::from(4_898_765u64),
        ],
        [6, 6],
        true,
        5,
        e(6) * U256::from(5_000_000u64),
    )
    .unwrap();
    let vol18 = Solidly::new(
        [
            e(18) * U256::from(5_123_456u64),
            e(18) * U256::from(2_498_765u64),
        ],
        [18, 18],
        false,
        30,
        e(18) * U256::from(3_000_000u64),
    )
    .unwrap();
    let vol6 = Solidly::new(
        [
            e(6) * U256::from(5_123_456u64),
            e(6) * U256::from(2_498_765u64),
        ],
        [6, 6],
        false,
        30,
        e(6) * U256::from(3_000_000u64),
    )
    .unwrap();
    vec![
        ("stable_18dec", st18, e(18) * U256::from(10_000u64)),
        ("stable_6dec", st6, e(6) * U256::from(10_000u64)),
        ("volatile_18dec", vol18, e(18) * U256::from(10_000u64)),
        ("volatile_6dec", vol6, e(6) * U256::from(10_000u64)),
    ]
}

fn bench_solidly(c: &mut Criterion) {
    let mut g = c.benchmark_group("solidly");
    g.throughput(Throughput::Elements(N as u64));
    for (name, pool, scale) in solidly_pools() {
        let xs = inputs(scale, 0x2545_f491_4f6c_dd1d);
        let [r0, r1] = pool.reserves();
        each(&mut g, "amount_out", name, &xs, |&x| {
            black_box(&pool).amount_out(0, 1, x).unwrap()
        });
        if pool.stable() {
            let d = pool.decimals();
            let (s0, s1) = (e(u32::from(d[0])), e(u32::from(d[1])));
            for &x in &xs {
                assert_eq!(
                    solidly_ref_stable_out(x, r0, r1, s0, s1, U256::from(pool.fee_bps())),
                    pool.amount_out(0, 1, x).unwrap()
                );
            }
            each(&mut g, "amount_out_ref", name, &xs, |&x| {
                solidly_ref_stable_out(x, black_box(r0), black_box(r1), s0, s1, U256::from(5))
            });
        }
        let outs: Vec<U256> = xs
            .iter()
            .map(|&x| pool.amount_out(0, 1, x).unwrap())
            .collect();
        each(&mut g, "amount_in", name, &outs, |&y| {
            black_box(&pool).amount_in(0, 1, y).unwrap()
        });
        each(&mut g, "swap", name, &xs, |&x| {
            black_box(&pool).swap(0, 1, x).unwrap()
        });
        let deposits: Vec<[U256; 2]> = xs.iter().map(|&x| [x, x * r1 / r0]).collect();
        each(&mut g, "mint", name, &deposits, |d| {
            black_box(&pool).mint_detailed(*d).unwrap()
        });
        each(&mut g, "burn", name, &xs, |&x| {
            black_box(&pool).burn_detailed(x).unwrap()
        });
        g.bench_function(BenchmarkId::new("marginal_rate", name), |b| {
            b.iter(|| black_box(black_box(&pool).marginal_rate(0, 1)));
        });
    }
    g.finish();
}

criterion_group!(group, bench_cp, bench_solidly);
criterion_main!(group);
