//! Criterion benches for the chain-101 families (ids `area/op/param`, deterministic inputs: the
//! pools of `data/snapshot-101.json`'s kind built in code, inputs from a fixed xorshift
//! sequence; per-element throughput is one swap).
//!
//! Each `*_ref` id is a plain primitive-types version of the same formula (no native fast
//! paths), measured in the same group.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::whirlpool::{OrcaTick, OrcaTickArray, Whirlpool, WhirlpoolState};
use swapzap::U256;

const N: usize = 64;

/// A fixed xorshift sequence of amounts from scale/1000 to scale.
fn inputs(scale: u64, seed: u64) -> Vec<u64> {
    let mut s = seed;
    (0..N)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            scale / 1000 * (1 + s % 1000)
        })
        .collect()
}

fn spl_pool() -> SplTokenSwap {
    let fees = SplFees {
        trade_fee_numerator: 25,
        trade_fee_denominator: 10_000,
        owner_trade_fee_numerator: 5,
        owner_trade_fee_denominator: 10_000,
        ..SplFees::default()
    };
    // ~20k SOL (9 decimals) against ~3M USDC (6 decimals)
    SplTokenSwap::new(
        [20_000_000_000_000, 3_000_000_000_000],
        7_745_966_692_414,
        fees,
    )
}

/// SPL's swap in plain U256: fees (minimum 1), ceil division, recomputed source.
fn spl_ref(x: U256, src: U256, dst: U256) -> U256 {
    let fee = |n: u64, d: u64| {
        let f = x * U256::from(n) / U256::from(d);
        if f.is_zero() {
            U256::one()
        } else {
            f
        }
    };
    let less = x - fee(25, 10_000) - fee(5, 10_000);
    let inv = src * dst;
    let ns = src + less;
    let mut q = inv / ns;
    if !(inv % ns).is_zero() {
        q += U256::one();
    }
    dst - q
}

fn saber_pool() -> SaberStableSwap {
    let fees = SaberFees {
        admin_trade_fee_numerator: 50,
        admin_trade_fee_denominator: 100,
        admin_withdraw_fee_numerator: 50,
        admin_withdraw_fee_denominator: 100,
        trade_fee_numerator: 4,
        trade_fee_denominator: 10_000,
        withdraw_fee_numerator: 0,
        withdraw_fee_denominator: 10_000,
    };
    // ~15.6M USDC / ~14.4M USDT (6 decimals), A = 100
    SaberStableSwap::new(
        [15_600_000_000_000, 14_400_000_000_000],
        30_000_000_000_000,
        SaberAmp::constant(100),
        fees,
    )
}

/// Saber's swap_to in plain U256: Newton D and y as the crate writes them, dy − 1, fee.
fn saber_ref(x: U256, src: U256, dst: U256, amp: u64) -> U256 {
    let ann = U256::from(amp * 2);
    let s = src + dst;
    let mut d = s;
    for _ in 0..256 {
        let mut dp = d * d / (src * 2);
        dp = dp * d / (dst * 2);
        let prev = d;
        d = d * (dp * 2 + s * ann) / (d * (ann - 1) + dp * 3);
        if (d > prev && d - prev <= U256::one()) || (d <= prev && prev - d <= U256::one()) {
            break;
        }
    }
    let nx = src + x;
    let c = d * d / (nx * 2) * d / (ann * 2);
    let b = d / ann + nx;
    let mut y = d;
    for _ in 0..256 {
        let prev = y;
        y = (y * y + c) / (y * 2 + b - d);
        if (y > prev && y - prev <= U256::one()) || (y <= prev && prev - y <= U256::one()) {
            break;
        }
    }
    let dy = dst - y - 1;
    dy - dy * 4 / 10_000
}

/// A SOL/USDC-like whirlpool: spacing 64, a wide and a narrow position around the price.
fn whirlpool() -> Whirlpool {
    let t = -18_972;
    let sqrt_price = swapzap::pool::whirlpool::tick_index_to_sqrt_price(t).unwrap() + 1000;
    let (l_wide, l_narrow) = (2_000_000_000_000u128, 6_000_000_000_000u128);
    let span = 88 * 64;
    let starts: Vec<i32> = (-2..=2).map(|k| (t.div_euclid(span) + k) * span).collect();
    let ticks = [
        (-23_040, l_wide as i128),
        (-19_520, l_narrow as i128),
        (-18_432, -(l_narrow as i128)),
        (-14_912, -(l_wide as i128)),
    ];
    let arrays: Vec<OrcaTickArray> = starts
        .iter()
        .map(|&s| OrcaTickArray {
            start_tick_index: s,
            ticks: ticks
                .iter()
                .filter(|(i, _)| *i >= s && *i < s + span)
                .map(|&(index, net)| OrcaTick {
                    index,
                    liquidity_net: net,
                    liquidity_gross: net.unsigned_abs(),
                })
                .collect(),
        })
        .collect();
    let state = WhirlpoolState {
        sqrt_price,
        tick_current_index: t,
        liquidity: l_wide + l_narrow,
        fee_rate: 3000,
        protocol_fee_rate: 1300,
        tick_spacing: 64,
    };
    Whirlpool::new(state, &arrays).unwrap()
}

/// One in-range exact-in step a→b in plain U256: fee off the input, next price from A
/// (rounded up), output of B rounded down.
fn orca_ref(x: U256, p: U256, l: U256) -> U256 {
    let amt = x * U256::from(997_000u64) / U256::from(1_000_000u64);
    let num = (l * p) << 64;
    let den = (l << 64) + p * amt;
    let mut np = num / den;
    if !(num % den).is_zero() {
        np += U256::one();
    }
    (l * (p - np)) >> 64
}

/// The references compute what the library computes (else the comparison means nothing).
fn check_references() {
    let (spl, saber, w) = (spl_pool(), saber_pool(), whirlpool());
    let st = w.state();
    for x in [1_000_000u64, 123_456_789, 99_999_999_999] {
        let s = spl.swap_detailed(0, u128::from(x)).unwrap().amount_out;
        let r = spl_ref(U256::from(x), spl.balances()[0], spl.balances()[1]);
        assert_eq!(U256::from(s), r);
        let s = saber.swap_detailed(0, x).unwrap().amount_out;
        let r = saber_ref(U256::from(x), saber.balances()[0], saber.balances()[1], 100);
        assert_eq!(U256::from(s), r);
        let s = w.compute_swap(x / 100, 0, true, true).unwrap().token_b;
        let r = orca_ref(
            U256::from(x / 100),
            U256::from(st.sqrt_price),
            U256::from(st.liquidity),
        );
        assert_eq!(U256::from(s), r);
    }
}

fn bench_101(c: &mut Criterion) {
    check_references();
    let mut g = c.benchmark_group("c101");
    g.throughput(Throughput::Elements(N as u64));

    let spl = spl_pool();
    let xs = inputs(100_000_000_000, 0x9e37_79b9_7f4a_7c15); // up to 100 SOL
    let (s0, s1) = (
        U256::from(20_000_000_000_000u64),
        U256::from(3_000_000_000_000u64),
    );
    g.bench_with_input(BenchmarkId::new("spl/swap", "sol_usdc"), &xs, |b, xs| {
        b.iter(|| {
            for &x in xs {
                black_box(black_box(&spl).swap_detailed(0, u128::from(x)).unwrap());
            }
        });
    });
    // the swap as a state transition: the curve, then the owner-fee pool tokens the program
    // mints (a PreciseNumber square root) for the new supply
    g.bench_with_input(
        BenchmarkId::new("spl/swap_state", "sol_usdc"),
        &xs,
        |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(black_box(&spl).swap(0, 1, U256::from(x)).unwrap());
                }
            });
        },
    );
    // what the router and zaps pay per SPL leg: the offer the program takes whole
    // (`exact_offer`, usually two swaps), then the swap of it
    g.bench_with_input(
        BenchmarkId::new("spl/offer_and_swap", "sol_usdc"),
        &xs,
        |b, xs| {
            b.iter(|| {
                for &x in xs {
                    let p = black_box(&spl);
                    let y = p.exact_offer(0, u128::from(x)).unwrap();
                    black_box(p.swap_detailed(0, y).unwrap());
                }
            });
        },
    );
    g.bench_with_input(
        BenchmarkId::new("spl/swap_ref", "sol_usdc"),
        &xs,
        |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(spl_ref(U256::from(x), black_box(s0), black_box(s1)));
                }
            });
        },
    );

    let saber = saber_pool();
    let xs = inputs(100_000_000_000, 0x2545_f491_4f6c_dd1d); // up to 100k USDC
    let (b0, b1) = (
        U256::from(15_600_000_000_000u64),
        U256::from(14_400_000_000_000u64),
    );
    g.bench_with_input(BenchmarkId::new("saber/swap", "usdc_usdt"), &xs, |b, xs| {
        b.iter(|| {
            for &x in xs {
                black_box(black_box(&saber).swap_detailed(0, x).unwrap());
            }
        });
    });
    g.bench_with_input(
        BenchmarkId::new("saber/swap_ref", "usdc_usdt"),
        &xs,
        |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(saber_ref(U256::from(x), black_box(b0), black_box(b1), 100));
                }
            });
        },
    );

    let w = whirlpool();
    let st = w.state();
    let xs = inputs(10_000_000_000, 0x1234_5678_9abc_def1); // up to 10 SOL: within the range
    g.bench_with_input(BenchmarkId::new("orca/swap", "in_range"), &xs, |b, xs| {
        b.iter(|| {
            for &x in xs {
                black_box(black_box(&w).compute_swap(x, 0, true, true).unwrap());
            }
        });
    });
    let (p, l) = (U256::from(st.sqrt_price), U256::from(st.liquidity));
    g.bench_with_input(
        BenchmarkId::new("orca/swap_ref", "in_range"),
        &xs,
        |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(orca_ref(U256::from(x), black_box(p), black_box(l)));
                }
            });
        },
    );
    let xs = inputs(1_000_000_000_000, 0x0bad_cafe_dead_beef); // up to 1000 SOL: crosses ticks
    g.bench_with_input(BenchmarkId::new("orca/swap", "crossing"), &xs, |b, xs| {
        b.iter(|| {
            for &x in xs {
                black_box(black_box(&w).compute_swap(x, 0, true, true).unwrap());
            }
        });
    });
    g.finish();
}

criterion_group!(benches, bench_101);
criterion_main!(benches);
