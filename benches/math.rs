//! Criterion benches for `math` (ids `area/op/param`, deterministic inputs from a fixed
//! xorshift sequence). Each `*_ref` id is the plain primitive-types operator version of the same
//! operation, in the same group, so the ratio is measured in one run.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swapzap::math::{self, W};
use swapzap::{U256, U512};

const N: usize = 64;

/// `N` values of exactly `bits` significant bits (fixed xorshift sequence).
fn values(bits: usize, seed: u64) -> Vec<U256> {
    let mut s = seed;
    (0..N)
        .map(|_| {
            let mut limbs = [0u64; 4];
            for l in &mut limbs {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *l = s;
            }
            let v = U256(limbs);
            let v = if bits >= 256 {
                v
            } else {
                v & ((U256::one() << bits) - 1)
            };
            v | (U256::one() << (bits - 1))
        })
        .collect()
}

fn bench_mul_div(c: &mut Criterion) {
    let mut g = c.benchmark_group("math");
    g.throughput(Throughput::Elements(N as u64));
    // (a bits, b bits, d bits): CP-like, 1e18 fixed point, wide.
    for (ab, bb, db) in [
        (80, 80, 90),
        (100, 100, 60),
        (128, 128, 128),
        (200, 50, 180),
    ] {
        let a = values(ab, 1);
        let b = values(bb, 2);
        let d = values(db, 3);
        let id = format!("{ab}x{bb}/{db}");
        g.bench_function(BenchmarkId::new("mul_div", &id), |bench| {
            bench.iter(|| {
                for k in 0..N {
                    black_box(math::mul_div(black_box(a[k]), b[k], d[k]).unwrap());
                }
            });
        });
        g.bench_function(BenchmarkId::new("mul_div_ref", &id), |bench| {
            bench.iter(|| {
                for k in 0..N {
                    let q = black_box(a[k]).full_mul(b[k]) / U512::from(d[k]);
                    black_box(U256::try_from(q).unwrap());
                }
            });
        });
        g.bench_function(BenchmarkId::new("mul_div_up", &id), |bench| {
            bench.iter(|| {
                for k in 0..N {
                    black_box(math::mul_div_up(black_box(a[k]), b[k], d[k]).unwrap());
                }
            });
        });
    }
    for (nb, db) in [(160, 90), (256, 128), (256, 200), (190, 60)] {
        let n = values(nb, 4);
        let d = values(db, 5);
        let id = format!("{nb}/{db}");
        g.bench_function(BenchmarkId::new("div", &id), |bench| {
            bench.iter(|| {
                for k in 0..N {
                    black_box(math::div(black_box(n[k]), d[k]).unwrap());
                }
            });
        });
        g.bench_function(BenchmarkId::new("div_ref", &id), |bench| {
            bench.iter(|| {
                for k in 0..N {
                    black_box(black_box(n[k]) / d[k]);
                }
            });
        });
    }
    let x = values(120, 6);
    let y = values(120, 7);
    g.bench_function(BenchmarkId::new("mul_div_e18", "120x120"), |bench| {
        let (xw, yw): (Vec<W>, Vec<W>) = x
            .iter()
            .zip(&y)
            .map(|(a, b)| (W::from_u256(*a), W::from_u256(*b)))
            .unzip();
        bench.iter(|| {
            for k in 0..N {
                black_box(math::w_mul_div_e18(black_box(xw[k]), yw[k]).unwrap());
            }
        });
    });
    g.bench_function(BenchmarkId::new("mul_div_e18_ref", "120x120"), |bench| {
        let e18 = U256::exp10(18);
        bench.iter(|| {
            for k in 0..N {
                black_box(black_box(x[k]) * y[k] / e18);
            }
        });
    });
    for bits in [100, 200, 256] {
        let v = values(bits, 8);
        g.bench_function(BenchmarkId::new("sqrt", bits), |bench| {
            bench.iter(|| {
                for &s in &v {
                    black_box(math::sqrt(black_box(s)));
                }
            });
        });
        g.bench_function(BenchmarkId::new("sqrt_ref", bits), |bench| {
            bench.iter(|| {
                for &s in &v {
                    black_box(black_box(s).integer_sqrt());
                }
            });
        });
    }
    g.finish();
}

criterion_group!(group, bench_mul_div);
criterion_main!(group);
