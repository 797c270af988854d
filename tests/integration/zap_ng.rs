//! Curve NG zap-in against a brute-force exact best on generated states like the held-back
//! ones of ../shared/zap (extreme imbalance, high and low A, fees, off-peg multipliers, 6- and
//! 18-decimal rates, 2 to 4 coins): the zap search must mint at least the best a fine scan of
//! swap amounts finds with the exact math, less 1e-6 (the README's Curve tolerance).

use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
use swapzap::pool::Pool;
use swapzap::zap::{zap_in_pool, ZapConfig};
use swapzap::U256;

/// xorshift64*: a deterministic generator (no clock, no global state).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    /// 10^(lo..hi) with a random mantissa, as a float.
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = self.next() as f64 / u64::MAX as f64;
        10f64.powf(lo + (hi - lo) * u)
    }
}

fn u(x: f64) -> U256 {
    U256::from_dec_str(&format!("{:.0}", x.max(0.0))).unwrap()
}

/// A generated NG state and zap amounts.
fn state(rng: &mut Rng) -> Option<(Pool, Vec<U256>)> {
    let n = rng.pick(&[2usize, 2, 2, 3, 4]);
    let dec: Vec<u32> = (0..n).map(|_| rng.pick(&[18u32, 18, 6, 8])).collect();
    let a = rng.pick(&[
        1u64, 2, 5, 10, 50, 100, 200, 1000, 2000, 5000, 10_000, 100_000,
    ]);
    let fee = rng.pick(&[1_000_000u64, 4_000_000, 10_000_000, 30_000_000, 40_000_000]);
    let offpeg = rng.pick(&[0u64, 20_000_000_000, 50_000_000_000, 100_000_000_000]);
    // whole-token balances: a deep coin and others drained by up to 10^4
    let deep = rng.log_uniform(0.0, 9.0);
    let mut balances = Vec::new();
    let mut rates = Vec::new();
    for (k, d) in dec.iter().enumerate() {
        let tilt = if k == 0 {
            1.0
        } else {
            rng.log_uniform(-6.0, 1.0)
        };
        balances.push(u(deep * tilt * 10f64.powi(*d as i32)));
        rates.push(U256::exp10(36 - *d as usize));
    }
    let supply = u(deep * n as f64 * 1e18 * rng.log_uniform(-0.3, 0.3));
    let pool = StableSwap::new(StableSwapParams {
        variant: Variant::Ng,
        balances: balances.iter().copied().collect(),
        rates: rates.into_iter().collect(),
        a: U256::from(a),
        fee: U256::from(fee),
        admin_fee: U256::from(5_000_000_000u64),
        total_supply: supply,
        admin_balances: Default::default(),
        offpeg_fee_multiplier: U256::from(offpeg),
    })
    .ok()?;
    pool.d().ok()?;
    // amounts: one-sided, two-sided or lopsided, up to a large share of the pool
    let kind = rng.below(3);
    let amounts: Vec<U256> = (0..n)
        .map(|k| {
            let use_it = match kind {
                0 => k == (rng.below(n as u64) as usize),
                1 => true,
                _ => k != 0,
            };
            if !use_it {
                return U256::zero();
            }
            let share = rng.log_uniform(-7.0, 1.0);
            u(deep * share * 10f64.powi(dec[k] as i32))
        })
        .collect();
    if amounts.iter().all(U256::is_zero) {
        return None;
    }
    Some((Pool::StableSwap(pool), amounts))
}

/// exchange(i, j, s) then add everything held; 0 when a step reverts.
fn minted(pool: &Pool, a: &[U256], i: usize, j: usize, s: U256) -> U256 {
    let Ok((out, p)) = pool.swap(i, j, s) else {
        return U256::zero();
    };
    let mut h = a.to_vec();
    h[i] -= s;
    h[j] += out;
    p.mint(&h).map_or(U256::zero(), |m| m.0)
}

/// The best mint a fine scan finds: the direct add, and per ordered pair a 1024-point grid
/// (uniform and geometric), then nested 64-point grids around the best point down to unit
/// steps, then every unit in ±128 of it.
fn brute_best(pool: &Pool, a: &[U256]) -> (U256, Option<(usize, usize, U256)>) {
    let mut best = pool.mint(a).map_or(U256::zero(), |m| m.0);
    let mut arg = None;
    let n = a.len();
    for i in 0..n {
        for j in 0..n {
            if i == j || a[i].is_zero() {
                continue;
            }
            let ai = a[i];
            let mut pts: Vec<U256> = (1..=768u32).map(|k| ai * U256::from(k) / 768u32).collect();
            let mut g = ai;
            for _ in 0..256 {
                g = g * 15u8 / 16u8;
                if g.is_zero() {
                    break;
                }
                pts.push(g);
            }
            pts.retain(|s| !s.is_zero());
            pts.sort();
            pts.dedup();
            let mut at = U256::zero();
            let mut top = U256::zero();
            for s in &pts {
                let m = minted(pool, a, i, j, *s);
                if m > top {
                    top = m;
                    at = *s;
                }
            }
            if top.is_zero() {
                continue;
            }
            // nested refinement
            let mut step = (ai / 768u32).max(U256::one());
            while step > U256::one() {
                let lo = at.saturating_sub(step);
                let hi = (at + step).min(ai);
                let sub = ((hi - lo) / 64u8).max(U256::one());
                let mut s = lo.max(U256::one());
                while s <= hi {
                    let m = minted(pool, a, i, j, s);
                    if m > top {
                        top = m;
                        at = s;
                    }
                    s += sub;
                }
                step = sub;
            }
            let mut s = at.saturating_sub(U256::from(128u8)).max(U256::one());
            let end = (at + U256::from(128u8)).min(ai);
            while s <= end {
                let m = minted(pool, a, i, j, s);
                if m > top {
                    top = m;
                    at = s;
                }
                s += U256::one();
            }
            if top > best {
                best = top;
                arg = Some((i, j, at));
            }
        }
    }
    (best, arg)
}

/// The states of one seed that the zap misses: `count` generated NG states with a positive
/// brute-force best, each a line naming the generator's state before it (`rng`, to rebuild
/// that one state with `SWAPZAP_NG_RNG`), the state, both plans and the shortfall; each miss is
/// also printed when found (runs take minutes).
#[allow(clippy::print_stderr)]
fn misses(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut checked = 0;
    let mut misses = Vec::new();
    while checked < count {
        let tag = rng.0;
        let Some((pool, a)) = state(&mut rng) else {
            continue;
        };
        let (brute, arg) = brute_best(&pool, &a);
        if brute.is_zero() {
            continue;
        }
        checked += 1;
        let z = zap_in_pool(&pool, &a, &ZapConfig::exact()).ok();
        let got = z.as_ref().map_or(U256::zero(), |z| z.minted);
        // got ≥ brute·(1 − 1e-6)
        if got * U256::from(1_000_000u32) < brute * U256::from(999_999u32) {
            let bps = (brute - got).to_string().parse::<f64>().unwrap()
                / brute.to_string().parse::<f64>().unwrap()
                * 1e4;
            let line = format!(
                "rng {tag:#x}: {pool:?} {a:?}: got {got} by {:?}, brute {brute} by {arg:?} ({bps:.4} bps)",
                z.map(|z| z.swap)
            );
            eprintln!("miss (seed {seed:#x}, state {checked}): {line}");
            misses.push(line);
        }
    }
    misses
}

/// 400 generated NG states: the zap search mints at least the brute-force best less 1e-6 on
/// every one (it missed 20 while it trusted the float model on drained states, then 2 where
/// `get_D` fails to converge at most swap amounts near the optimum: see the README).
#[test]
fn ng_zap_in_reaches_the_brute_force_best_on_generated_states() {
    let m = misses(0x5eed_0014_0005_c0de, 400);
    assert!(m.is_empty(), "{} misses:\n{}", m.len(), m.join("\n"));
}

/// The seeds of the long test: 1 to 5, or those listed in `SWAPZAP_NG_SEEDS` (`"1,3"`), read
/// by this test only, to run one seed at a time.
fn long_seeds() -> Vec<u64> {
    std::env::var("SWAPZAP_NG_SEEDS").map_or_else(
        |_| (1..=5).collect(),
        |v| v.split(',').map(|x| x.trim().parse().unwrap()).collect(),
    )
}

/// The seven states of the long test below that the zap missed (generator states before them,
/// as its miss lines name them): six dust deposits of 6- and 8-decimal coins where the mint's
/// roundings make a wide flat optimum a saw-tooth (0.011 to 0.25 bps), and a drained pool where
/// the mint first falls and then rises above the direct add between two grid points (1.8 bps).
#[test]
fn ng_zap_in_reaches_the_brute_force_best_on_the_long_tests_misses() {
    let tags: [u64; 7] = [
        0xb1e6_a100_460e_05fd,
        0xbb4c_a604_dc7c_d5c7,
        0x17f6_1fbc_354a_c8b4,
        0x3ffb_da40_48fd_11b9,
        0x3d82_7435_f7ef_7acc,
        0x4504_f0ff_e231_c4dc,
        0xedf6_19ce_3112_636d,
    ];
    for tag in tags {
        let (pool, a) = state(&mut Rng(tag)).unwrap();
        let (brute, _) = brute_best(&pool, &a);
        assert!(!brute.is_zero(), "{tag:#x}");
        let got = zap_in_pool(&pool, &a, &ZapConfig::exact()).unwrap().minted;
        assert!(
            got * U256::from(1_000_000u32) >= brute * U256::from(999_999u32),
            "{tag:#x}: got {got}, brute {brute}"
        );
    }
}

/// The same on 2000 more states from five other seeds (minutes: run it with `--ignored`).
#[test]
#[ignore]
#[allow(clippy::print_stderr)] // progress of a run of minutes, one line per seed
fn ng_zap_in_reaches_the_brute_force_best_on_more_seeds() {
    let mut all = Vec::new();
    for seed in long_seeds() {
        let m = misses(0x5eed_0014_0005_c0de ^ (seed << 40), 400);
        eprintln!("seed {seed}: 400 states, {} missed", m.len());
        all.extend(m);
    }
    assert!(all.is_empty(), "{} misses:\n{}", all.len(), all.join("\n"));
}

/// One generated state, rebuilt from the generator state a miss line names (`SWAPZAP_NG_RNG`,
/// hex): the zap against the brute force, printed (a debugging aid: `--ignored --nocapture`).
#[test]
#[ignore]
#[allow(clippy::print_stderr)]
fn ng_zap_in_one_state() {
    let Ok(v) = std::env::var("SWAPZAP_NG_RNG") else {
        return;
    };
    let tag = u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap();
    let mut rng = Rng(tag);
    let (pool, a) = state(&mut rng).unwrap();
    let (brute, arg) = brute_best(&pool, &a);
    let z = zap_in_pool(&pool, &a, &ZapConfig::exact());
    eprintln!("{pool:?}\n{a:?}\nbrute {brute} by {arg:?}\nzap {z:?}");
}
