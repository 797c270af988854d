//! Criterion benches for concentrated-liquidity swaps (ids `cl/swap/<case>`, token0 in, and
//! `cl/swap_1in/<case>`, token1 in): an exact-input swap that stays within one tick, and swaps
//! that cross 1 and 10 initialised ticks, each over a fixed set of 64 inputs. The pool lies in one bitmap word, so the contract's loop takes one
//! step within a tick and one more per crossing (asserted for every input before timing). `cl/swap_ref/<case>` (`cl/swap_1in_ref/<case>`) is a plain
//! primitive-types version of the same loop (U256/U512 operators, `>> 128` products, the same float-guided tick search), checked
//! equal to the library on every input before timing.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
// `std::hint::black_box` is an optimisation barrier only; criterion 0.5's `black_box` copies its
// argument through a volatile read, byte by byte for the ~270-byte pool state a swap returns
// (about 550 instructions a swap, timed with it), against 32 bytes for the reference's output.
use std::hint::black_box;
use swapzap::pool::concentrated_liquidity::ConcentratedLiquidity;
use swapzap::{U256, U512};

#[path = "../tests/integration/cl_plain.rs"]
mod cl_plain;
#[path = "common/cl_pool.rs"]
mod cl_pool;
use cl_pool::{boundary, inputs_dir, pool, CENTER, N, SPACING};

// ---- the plain primitive-types reference -------------------------------------------------

struct Ref {
    price: U256,
    tick: i32,
    liquidity: U256,
    ticks: Vec<(i32, i128)>,
    fee: U256,
}

fn md(a: U256, b: U256, d: U256) -> U256 {
    U256::try_from(a.full_mul(b) / U512::from(d)).unwrap()
}

fn md_up(a: U256, b: U256, d: U256) -> U256 {
    let p = a.full_mul(b);
    let d = U512::from(d);
    let q = p / d;
    U256::try_from(if p % d == U512::zero() { q } else { q + 1 }).unwrap()
}

fn up(a: U256, d: U256) -> U256 {
    let q = a / d;
    if a % d == U256::zero() {
        q
    } else {
        q + 1
    }
}

impl Ref {
    fn new(p: &ConcentratedLiquidity) -> Self {
        Ref {
            price: p.sqrt_price_x96(),
            tick: p.tick(),
            liquidity: U256::from(p.liquidity()),
            ticks: p
                .ticks()
                .iter()
                .map(|t| (t.index, t.liquidity_net))
                .collect(),
            fee: U256::from(p.fee()),
        }
    }

    fn ratio(&self, t: i32) -> U256 {
        cl_plain::ratio(t)
    }

    fn tick_at(&self, p: U256) -> i32 {
        let x = p.low_u128() as f64 + (p >> 128).low_u128() as f64 * 3.402_823_669_209_385e38;
        let mut t = ((x / 79_228_162_514_264_337_593_543_950_336.0).ln() * 2.0 / 1.0001f64.ln())
            .floor() as i32;
        while self.ratio(t) > p {
            t -= 1;
        }
        while self.ratio(t + 1) <= p {
            t += 1;
        }
        t
    }

    /// Exact-input zero-for-one swap, no limit, ticks all inside one word: the output.
    fn swap_0_for_1(&self, dx: U256) -> U256 {
        let q96 = U256::one() << 96;
        let million = U256::from(1_000_000u32);
        let (mut p, mut tick, mut l) = (self.price, self.tick, self.liquidity);
        let (mut rem, mut out) = (dx, U256::zero());
        while !rem.is_zero() {
            let k = self.ticks.partition_point(|t| t.0 <= tick);
            let (next, net) = self.ticks[k - 1];
            let target = self.ratio(next);
            let n1 = l << 96;
            let less_fee = md(rem, million - self.fee, million);
            let need = up(md_up(n1, p - target, p), target);
            let (np, a_in) = if less_fee >= need {
                (target, need)
            } else {
                let np = md_up(n1, p, n1 + less_fee * p);
                (np, up(md_up(n1, p - np, p), np))
            };
            let o = md(l, p - np, q96);
            let fee = if np != target {
                rem - a_in
            } else {
                md_up(a_in, self.fee, million - self.fee)
            };
            rem -= a_in + fee;
            out += o;
            if np == target {
                l = if net > 0 {
                    l - U256::from(net as u128)
                } else {
                    l + U256::from(net.unsigned_abs())
                };
                tick = next - 1;
            } else {
                tick = self.tick_at(np);
            }
            p = np;
        }
        out
    }

    /// Exact-input one-for-zero swap, no limit, ticks all inside one word: the output.
    fn swap_1_for_0(&self, dy: U256) -> U256 {
        let q96 = U256::one() << 96;
        let million = U256::from(1_000_000u32);
        let (mut p, mut tick, mut l) = (self.price, self.tick, self.liquidity);
        let (mut rem, mut out) = (dy, U256::zero());
        while !rem.is_zero() {
            let k = self.ticks.partition_point(|t| t.0 <= tick);
            let (next, net) = self.ticks[k];
            let target = self.ratio(next);
            let n1 = l << 96;
            let less_fee = md(rem, million - self.fee, million);
            let need = md_up(l, target - p, q96);
            let (np, a_in) = if less_fee >= need {
                (target, need)
            } else {
                let np = p + md(less_fee, q96, l);
                (np, md_up(l, np - p, q96))
            };
            let o = md(n1, np - p, np) / p;
            let fee = if np != target {
                rem - a_in
            } else {
                md_up(a_in, self.fee, million - self.fee)
            };
            rem -= a_in + fee;
            out += o;
            if np == target {
                l = if net > 0 {
                    l + U256::from(net as u128)
                } else {
                    l - U256::from(net.unsigned_abs())
                };
                tick = next;
            } else {
                tick = self.tick_at(np);
            }
            p = np;
        }
        out
    }
}

fn bench_cl(c: &mut Criterion) {
    let pool = pool();
    let r = Ref::new(&pool);
    let mut g = c.benchmark_group("cl");
    g.throughput(Throughput::Elements(N as u64));
    let cases = [("within_tick", 0), ("cross_1", 1), ("cross_10", 10)];
    for (zero_for_one, (name, crossed)) in [true, false]
        .into_iter()
        .flat_map(|z| cases.map(|c| (z, c)))
    {
        let (i, j) = if zero_for_one { (0, 1) } else { (1, 0) };
        let xs = inputs_dir(&pool, crossed, zero_for_one);
        let reference = |r: &Ref, x: U256| {
            if zero_for_one {
                r.swap_0_for_1(x)
            } else {
                r.swap_1_for_0(x)
            }
        };
        for &x in &xs {
            let (o, after) = pool.swap(i, j, x).unwrap();
            assert_eq!(o, reference(&r, x), "{name}: the reference differs");
            // After `crossed` crossings the tick lies between the last tick crossed (or the
            // price) and the next.
            let (lo, hi) = match (zero_for_one, crossed) {
                (true, 0) => (boundary(0, true), CENTER + 30),
                (true, c) => (boundary(c, true), boundary(c - 1, true) - 1),
                (false, 0) => (CENTER + 30, boundary(0, false) - 1),
                (false, c) => (boundary(c - 1, false), boundary(c, false) - 1),
            };
            assert!(
                (lo..=hi).contains(&after.tick()),
                "{name}: wrong number of crossings"
            );
            // The contract's loop also ends a step at each edge of a 256-spacing bitmap word:
            // the swap stays in the current word, so it takes `crossed + 1` steps (one, within
            // a tick) and each stops at an initialised tick or at the swap's end.
            let word = |t: i32| t.div_euclid(SPACING) >> 8;
            assert_eq!(
                word(after.tick()),
                word(pool.tick()),
                "{name}: left the word"
            );
            let (a, b) = if zero_for_one {
                (after.tick(), pool.tick())
            } else {
                (pool.tick(), after.tick())
            };
            let passed = pool
                .ticks()
                .iter()
                .filter(|t| t.index > a && t.index <= b)
                .count();
            assert_eq!(
                passed, crossed as usize,
                "{name}: initialised ticks crossed"
            );
        }
        let (id, id_ref) = if zero_for_one {
            ("swap", "swap_ref")
        } else {
            ("swap_1in", "swap_1in_ref")
        };
        g.bench_with_input(BenchmarkId::new(id, name), &xs, |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(black_box(&pool).swap(i, j, x).unwrap());
                }
            });
        });
        g.bench_with_input(BenchmarkId::new(id_ref, name), &xs, |b, xs| {
            b.iter(|| {
                for &x in xs {
                    black_box(reference(black_box(&r), x));
                }
            });
        });
    }
    g.finish();
}

criterion_group!(group, bench_cl);
criterion_main!(group);
