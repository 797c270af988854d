//! The zap-in bound of Saber and SPL Token Swap targets (`zap::mint_upper_bound`, issue 14
//! item 6): on random states no plan of a brute force mints more (swaps of a grid of sizes in
//! both directions, a swap back, then deposits of every mix of a grid of what is held, single-
//! sided included; for SPL also a run of dust swaps whose owner-fee mints dilute the supply);
//! the bound is the mint up to rounding on balanced deposits; and a plan of dust swaps does beat
//! `T·ΔG/G` of exact arithmetic (why the SPL bound counts swaps). Every plan here is simulated
//! with the pools' own integer math; the bound is compared only with what they mint.

use crate::zap_lp_bound::{pool_json, Fam};
use crate::zap_lp_meta::{market, plain_pools, pool_101, Case, Checked};
use crate::zap_routed::{addr, int, quantiles, Rng};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::Pool;
use swapzap::zap::{self, mint_upper_bound, zap_in_pool, ZapConfig, ZapOptions, SPL_TARGET_SWAPS};
use swapzap::U256;

fn f(x: U256) -> f64 {
    x.to_string().parse().unwrap()
}

/// What a deposit of `d` (two amounts) mints on `pool`: Saber deposits any two amounts, SPL one
/// coin single-sided or both through `DepositAllTokenTypes` (what it takes of them); 0 where it
/// fails.
fn deposit(pool: &Pool, d: [U256; 2]) -> U256 {
    let d = match pool {
        Pool::SplTokenSwap(p) if !d[0].is_zero() && !d[1].is_zero() => {
            match p.deposit_all_token_types([d[0].low_u128(), d[1].low_u128()]) {
                Ok((_, t)) => [U256::from(t[0]), U256::from(t[1])],
                Err(_) => return U256::zero(),
            }
        }
        _ => d,
    };
    pool.mint(&d).map_or(U256::zero(), |m| m.0)
}

/// The most a deposit of a mix on a grid of `h` mints: `(h₀·u/8, h₁·v/8)` for every `u, v`.
fn best_deposit(pool: &Pool, h: [U256; 2]) -> U256 {
    let mut best = U256::zero();
    for u in 0..=8u32 {
        for v in 0..=8u32 {
            let d = [
                h[0] * U256::from(u) / U256::from(8u32),
                h[1] * U256::from(v) / U256::from(8u32),
            ];
            if d[0].is_zero() && d[1].is_zero() {
                continue;
            }
            best = best.max(deposit(pool, d));
        }
    }
    best
}

/// Swap `s` of coin `i` out of the holdings `h` on `pool`: the pool after and the holdings.
fn swap(pool: &Pool, h: [U256; 2], i: usize, s: U256) -> Option<(Pool, [U256; 2])> {
    let (out, p) = pool.swap(i, 1 - i, s).ok()?;
    let mut h = h;
    h[i] -= s;
    h[1 - i] += out;
    Some((p, h))
}

/// The brute force: a swap of `a_i·k/16` of either coin (none for `k = 0`), then optionally a
/// swap back of a quarter, half or all of its output, then the best deposit of a grid mix.
fn brute(pool: &Pool, a: [U256; 2]) -> U256 {
    let mut best = best_deposit(pool, a);
    for i in 0..2 {
        for k in 1..=16u32 {
            let s = a[i] * U256::from(k) / U256::from(16u32);
            if s.is_zero() {
                continue;
            }
            let Some((p, h)) = swap(pool, a, i, s) else {
                continue;
            };
            best = best.max(best_deposit(&p, h));
            if k % 4 != 0 {
                continue;
            }
            let got = h[1 - i] - a[1 - i];
            for back in [1u32, 2, 4] {
                let t = got * U256::from(back) / U256::from(4u32);
                if let Some((p2, h2)) = (!t.is_zero()).then(|| swap(&p, h, 1 - i, t)).flatten() {
                    best = best.max(best_deposit(&p2, h2));
                }
            }
        }
    }
    best
}

/// Checks the bound on `pool` and `a` against the zap's own plan and the brute force; with
/// `dust`, also against runs of up to [`SPL_TARGET_SWAPS`] small swaps (each paying an owner
/// fee of at least 4 units, so each mints pool tokens), alternating direction, then the best
/// deposit.
fn check(pool: &Pool, a: [U256; 2], dust: Option<U256>) -> Result<(), TestCaseError> {
    let Some(b) = mint_upper_bound(pool, &a) else {
        return Err(TestCaseError::fail("no bound"));
    };
    if let Ok(z) = zap_in_pool(pool, &a, &ZapConfig::exact()) {
        prop_assert!(b >= f(z.minted), "bound {} < zap {}", b, z.minted);
    }
    let m = brute(pool, a);
    prop_assert!(b >= f(m), "bound {} < brute force {}", b, m);
    if let Some(s) = dust {
        let (mut p, mut h) = (pool.clone(), a);
        for k in 0..SPL_TARGET_SWAPS as usize {
            let i = k % 2;
            if h[i] < s {
                continue;
            }
            let Some((p2, h2)) = swap(&p, h, i, s) else {
                continue;
            };
            (p, h) = (p2, h2);
            let m = best_deposit(&p, h);
            prop_assert!(b >= f(m), "bound {} < {} dust swaps then {}", b, k + 1, m);
        }
    }
    Ok(())
}

/// A Saber pool of constant `A`, trade fee in ten-thousandths and admin share `admin`/2 of it (no
/// withdraw fee).
pub fn saber(x: [u64; 2], supply: u64, amp: u64, trade: u64, admin: u64) -> Pool {
    let fees = SaberFees {
        admin_trade_fee_numerator: admin,
        admin_trade_fee_denominator: 2,
        admin_withdraw_fee_numerator: 0,
        admin_withdraw_fee_denominator: 1,
        trade_fee_numerator: trade,
        trade_fee_denominator: 10_000,
        withdraw_fee_numerator: 0,
        withdraw_fee_denominator: 10_000,
    };
    Pool::Saber(SaberStableSwap::new(
        x,
        supply,
        SaberAmp::constant(amp),
        fees,
    ))
}

/// An SPL Token Swap pool with trade and owner fees in ten-thousandths (no withdraw or host fee).
pub fn spl(x: [u128; 2], supply: u128, trade: u64, owner: u64) -> Pool {
    let fees = SplFees {
        trade_fee_numerator: trade,
        trade_fee_denominator: 10_000,
        owner_trade_fee_numerator: owner,
        owner_trade_fee_denominator: 10_000,
        owner_withdraw_fee_numerator: 0,
        owner_withdraw_fee_denominator: 10_000,
        host_fee_numerator: 0,
        host_fee_denominator: 10_000,
    };
    Pool::SplTokenSwap(SplTokenSwap::new(x, supply, fees))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Saber: balances up to 1e15 raw, A 1-5000, trade fee 0-1 %, admin share 0 or 1/2, supply
    /// 0.01-100× D; deposits up to 3× the balances.
    #[test]
    fn saber_bound_holds_against_brute_force(
        x0 in 1_000u64..1_000_000_000_000_000, x1 in 1_000u64..1_000_000_000_000_000,
        amp in 1u64..5000, trade in 0u64..100, admin in 0u64..=1, share in -2.0f64..2.0,
        a0 in 0u64..u64::MAX, a1 in 0u64..u64::MAX, one_sided in 0u8..3,
    ) {
        let p0 = saber([x0, x1], 1, amp, trade, admin);
        let Pool::Saber(s) = &p0 else { unreachable!() };
        let Ok(d) = s.compute_d(x0, x1) else { return Ok(()) };
        let supply = (f(d.to_u256()) * 10f64.powf(share)).max(1.0) as u64;
        let pool = saber([x0, x1], supply, amp, trade, admin);
        let mut a = [U256::from(a0 % (x0 * 3 + 1)), U256::from(a1 % (x1 * 3 + 1))];
        if one_sided < 2 { a[usize::from(one_sided)] = U256::zero(); }
        if a[0].is_zero() && a[1].is_zero() { return Ok(()); }
        check(&pool, a, None)?;
    }

    /// SPL Token Swap: balances up to 1e15 raw, supply 1e-3 to 1e3 × √(xy) (below 2^64), trade
    /// fee 0-1 %, owner fee 0-0.3 % (0 one case in four); deposits up to 3× the balances; dust
    /// runs where the owner fee is charged.
    #[test]
    fn spl_bound_holds_against_brute_force(
        x0 in 1_000u128..1_000_000_000_000_000, x1 in 1_000u128..1_000_000_000_000_000,
        share in -3.0f64..3.0, trade in 0u64..100, owner in 0u64..30, no_owner in 0u8..4,
        a0 in 0u128..u128::MAX, a1 in 0u128..u128::MAX, one_sided in 0u8..3,
    ) {
        let owner = if no_owner == 0 { 0 } else { owner };
        let supply = ((x0 as f64 * x1 as f64).sqrt() * 10f64.powf(share)).clamp(1.0, 1.8e19) as u128;
        let pool = spl([x0, x1], supply, trade, owner);
        let mut a = [U256::from(a0 % (x0 * 3 + 1)), U256::from(a1 % (x1 * 3 + 1))];
        if one_sided < 2 { a[usize::from(one_sided)] = U256::zero(); }
        if a[0].is_zero() && a[1].is_zero() { return Ok(()); }
        // an input whose owner fee is at least 4 units
        let dust = (owner > 0).then(|| U256::from(4 * 10_000 / owner + 1));
        check(&pool, a, dust)?;
    }
}

/// On a deposit in the pool's ratio the bound is the mint up to rounding (and, for SPL, the
/// slack of about 9 pool tokens it keeps for [`SPL_TARGET_SWAPS`] owner-fee mints).
#[test]
fn saber_and_spl_bounds_are_tight_on_balanced_deposits() {
    let cases = [
        (
            saber(
                [4_000_000_000_000, 4_000_000_000_000],
                8_000_000_000_000,
                100,
                4,
                1,
            ),
            [U256::from(4_000_000_000u64), U256::from(4_000_000_000u64)],
            1e-8,
        ),
        (
            spl(
                [3_000_000_000_000, 12_000_000_000_000],
                6_000_000_000,
                25,
                5,
            ),
            // a tenth of the pool: 6e8 pool tokens, the slack's ~9 units 1.5e-8 of them
            [
                U256::from(300_000_000_000u64),
                U256::from(1_200_000_000_000u64),
            ],
            3e-8,
        ),
    ];
    for (pool, a, tol) in cases {
        let z = zap_in_pool(&pool, &a, &ZapConfig::exact()).unwrap();
        let b = mint_upper_bound(&pool, &a).unwrap();
        let gap = (b - f(z.minted)) / b;
        assert!(
            b >= f(z.minted) && gap < tol,
            "bound {b} mint {} gap {gap:e}",
            z.minted
        );
    }
}

/// A plan of dust swaps through an SPL pool with an owner fee, then a deposit that doubles
/// the pool, mints more than `T·(G(x + a) − G(x))/G(x)` (exact arithmetic's bound, here
/// `T` exactly, plus one unit): each swap's owner-fee mint is rounded up to a whole pool token
/// worth a million raw units of each coin for a fee of 4. The bound (which counts
/// [`SPL_TARGET_SWAPS`] such mints) still holds.
#[test]
fn spl_dust_swaps_beat_exact_arithmetics_bound_but_not_the_bound() {
    let t = 1_000_000u128;
    let pool = spl([1_000_000_000_000, 1_000_000_000_000], t, 25, 5);
    let a = [U256::exp10(12), U256::exp10(12)];
    let b = mint_upper_bound(&pool, &a).unwrap();
    let direct = deposit(&pool, a);
    assert!(f(direct) <= t as f64 + 1.0, "direct deposit {direct}");
    let (mut p, mut h) = (pool.clone(), a);
    for k in 0..SPL_TARGET_SWAPS as usize {
        let before = p.total_supply();
        (p, h) = swap(&p, h, k % 2, U256::from(8_001u32)).unwrap();
        assert!(p.total_supply() > before, "swap {k} minted no owner fee");
    }
    let m = deposit(&p, h);
    assert!(
        f(m) > t as f64 + 1.0,
        "the dust plan mints {m}, not above T + 1 = {}",
        t + 1
    );
    assert!(b >= f(m), "bound {b} below the dust plan's {m}");
}

/// What a graph zap-in into a Saber or SPL target holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Held101 {
    /// a share of the target's coin 1 (the held-coins bound)
    Coin1,
    /// shares of both target coins
    Coins,
    /// token A, routed into the coins
    A,
    /// the LP of a uniswap-v2 pool on (coin 2, U), burned
    CpLp,
    /// the LP of a Saber pool on (U, V), burned
    SaberLp,
    /// the LP of an SPL Token Swap pool on (U, V), which a uniswap-v2 pool trades against coin
    /// 1 (issue 14 item 6: an SPL LP that some pool trades)
    SplLpTraded,
}

/// The target of a graph case: Saber, SPL Token Swap, or an EVM family.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tgt {
    Saber,
    Spl,
    Evm(Fam),
}

/// A Saber (`saber`) or SPL Token Swap pool entry numbered `k` on tokens `toks` with raw
/// reserves `res` (value `depth` in coin-1 units, 6-decimal coins), drawing its parameters
/// from `r`.
fn json_101(saber: bool, k: u32, toks: &[u32], res: &[f64], depth: f64, r: &mut Rng) -> Value {
    let stoks: Vec<String> = toks.iter().map(|t| addr(*t)).collect();
    let sres: Vec<String> = res.iter().map(|x| int(*x)).collect();
    let base = if saber {
        depth * 1e6
    } else {
        (res[0] * res[1]).sqrt()
    };
    pool_101(saber, k, stoks, sres, base, r)
}

/// Tokens: 0 A (18 decimals, worth 2000), 1 and 2 the target's coins (6 decimals; coin 2
/// pegged to coin 1 beside a Saber or Curve target, else worth 0.05-20), 6 U and 7 V (6
/// decimals, worth about coin 2). Pools: the target (100); pool 200 per `held` (uniswap-v2 on
/// coin 2 and U, Saber or SPL on U and V); for [`Held101::SplLpTraded`] pool 300, uniswap-v2 on
/// coin 1 and pool 200's LP; uniswap-v2 pools A/coin_k, U/coin_k, V/coin 1, A/U. One market
/// in three with prices off by more than the fees.
fn case_target_101(seed: u64, t: Tgt, held: Held101) -> Case {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1017 | 1);
    for _ in 0..4 {
        r.next();
    }
    let dec = |k: u32| if k == 0 || k >= 200 { 18u32 } else { 6 };
    let unit = |k: u32| 10f64.powi(dec(k) as i32);
    let spread = if seed % 3 == 0 { 1.0 } else { 0.1 };
    let pegged = matches!(t, Tgt::Saber | Tgt::Evm(Fam::Curve2 | Fam::Stable));
    let mut price: BTreeMap<u32, f64> = BTreeMap::new();
    price.insert(0, 2000.0);
    price.insert(1, 1.0);
    price.insert(
        2,
        if pegged {
            1.0 + 0.004 * (r.unit() - 0.5)
        } else {
            r.log(0.05, 20.0)
        },
    );
    price.insert(6, price[&2] * (1.0 + 0.004 * (r.unit() - 0.5)));
    price.insert(7, price[&2] * (1.0 + 0.004 * (r.unit() - 0.5)));
    let noise = |r: &mut Rng| 1.0 + spread * 0.03 * (r.unit() - 0.5);
    let mut tokens = vec![json!({"address": addr(0), "symbol": "A", "decimals": 18})];
    for (k, s) in [(1, "C1"), (2, "C2"), (6, "U"), (7, "V")] {
        tokens.push(json!({"address": addr(k), "symbol": s, "decimals": 6}));
    }
    let depth = r.log(1e5, 1e8);
    let tres: Vec<f64> = [1u32, 2]
        .iter()
        .map(|k| depth / 2.0 / price[k] * unit(*k) * noise(&mut r))
        .collect();
    let mut pools = vec![match t {
        Tgt::Saber => json_101(true, 100, &[1, 2], &tres, depth, &mut r),
        Tgt::Spl => json_101(false, 100, &[1, 2], &tres, depth, &mut r),
        Tgt::Evm(fam) => pool_json(fam, 100, &[(1, 6), (2, 6)], &tres, &mut r),
    }];
    let sdepth = r.log(1e5, 1e8);
    let pair = |a: u32, b: u32, r: &mut Rng| -> Vec<f64> {
        [a, b]
            .iter()
            .map(|k| sdepth / 2.0 / price[k] * unit(*k) * noise(r))
            .collect()
    };
    match held {
        Held101::CpLp => {
            let res = pair(2, 6, &mut r);
            pools.push(pool_json(Fam::Cp, 200, &[(2, 6), (6, 6)], &res, &mut r));
        }
        Held101::SaberLp | Held101::SplLpTraded => {
            let res = pair(6, 7, &mut r);
            let saber = held == Held101::SaberLp;
            let j = json_101(saber, 200, &[6, 7], &res, sdepth, &mut r);
            let supply: f64 = j["total_supply"].as_str().unwrap().parse().unwrap();
            pools.push(j);
            if !saber {
                // the LP priced at its pool's value per raw unit, traded against coin 1
                tokens.push(json!({"address": addr(200), "symbol": "LPS", "decimals": 18}));
                let lp_price = sdepth / supply;
                let mdepth = r.log(1e5, 3e7);
                let mres = vec![
                    mdepth / 2.0 / price[&1] * unit(1),
                    mdepth / 2.0 / lp_price * noise(&mut r),
                ];
                pools.push(pool_json(Fam::Cp, 300, &[(1, 6), (200, 18)], &mres, &mut r));
            }
        }
        _ => {}
    }
    let pairs = [(0, 1), (0, 2), (6, 1), (6, 2), (7, 1), (0, 6)];
    plain_pools(&mut pools, &pairs, &price, &dec, spread, &mut r);
    let src = if matches!(
        held,
        Held101::CpLp | Held101::SaberLp | Held101::SplLpTraded
    ) {
        200
    } else {
        101
    };
    let mut c = market(tokens, pools, 2, src, seed, &mut r);
    let bal = |k: usize| f(c.g.pool(c.target).unwrap().pool.balances()[k]);
    let share = |r: &mut Rng, x: f64| U256::from_dec_str(&int(x * r.log(1e-4, 0.3))).unwrap();
    match held {
        Held101::Coin1 => c.inputs = vec![(c.coins[0], share(&mut r, bal(0)))],
        Held101::Coins => {
            c.inputs = vec![
                (c.coins[0], share(&mut r, bal(0))),
                (c.coins[1], share(&mut r, bal(1))),
            ];
        }
        Held101::A => {
            let a = c.g.token_id(&addr(0)).unwrap();
            let p101 =
                c.g.pools()
                    .iter()
                    .position(|p| p.id.ends_with(&addr(101)))
                    .unwrap();
            let ra = f(c.g.pools()[p101].pool.balances()[0]);
            c.inputs = vec![(a, share(&mut r, ra))];
        }
        _ => {}
    }
    c
}

/// Graph zap-ins into Saber and SPL Token Swap targets (held coins, a routed token, burned
/// uniswap-v2, Saber and SPL LP tokens, an SPL LP that a pool trades), and the traded SPL LP
/// into uniswap-v2 and Curve targets: every zap-in verifies and has a bound, and no plan of
/// the brute force (`zap_lp_meta::brute`: every treatment of the LP tokens held, the router's
/// plans at a quarter grid of mixes with the target's swaps replayed, the exact single-pool
/// optimum) mints more.
#[test]
#[allow(clippy::print_stderr)] // the tightness table
fn bound_of_saber_and_spl_targets_and_traded_spl_lp_is_above_every_plan_found_otherwise() {
    let mut checked = Checked::default();
    let mut table = String::new();
    let held_all = [
        Held101::Coin1,
        Held101::Coins,
        Held101::A,
        Held101::CpLp,
        Held101::SaberLp,
        Held101::SplLpTraded,
    ];
    let mut runs: Vec<(Tgt, Held101)> = Vec::new();
    for t in [Tgt::Saber, Tgt::Spl] {
        runs.extend(held_all.iter().map(|h| (t, *h)));
    }
    for fam in [Fam::Cp, Fam::Curve2] {
        runs.push((Tgt::Evm(fam), Held101::SplLpTraded));
    }
    let mut most_target_swaps = 0;
    for (t, held) in runs {
        let mut ratio = Vec::new();
        for seed in 0..3 {
            let c = case_target_101(seed + 1, t, held);
            let name = format!("{held:?} into {t:?} seed {seed}");
            let Some((b, minted, _)) = checked.against_brute(&c, &name) else {
                continue;
            };
            if !minted.is_zero() {
                ratio.push(b / f(minted));
            }
            // the SPL bound's claim covers plans of at most SPL_TARGET_SWAPS swaps through the
            // target: the zap's own plan is one of them
            let z = zap::zap_in(&c.g, &c.inputs, c.lp, &ZapOptions::default()).unwrap();
            let through = z
                .plan
                .steps
                .iter()
                .filter(|s| s.as_swap().is_some_and(|(p, _, _)| p == c.target))
                .count();
            most_target_swaps = most_target_swaps.max(through);
        }
        if ratio.is_empty() {
            continue;
        }
        let (med, max) = quantiles(&mut ratio);
        table.push_str(&format!(
            "{held:?} into {t:?}: {} cases, bound/mint median {med:.6} max {max:.6}\n",
            ratio.len()
        ));
    }
    eprintln!("{table}most swaps through the target in a zap's plan: {most_target_swaps}");
    checked.assert_sound(0);
    assert!(most_target_swaps <= SPL_TARGET_SWAPS as usize);
}
