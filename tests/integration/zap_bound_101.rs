//! The zap-in bound of Saber and SPL Token Swap targets (`zap::mint_upper_bound`, issue 14
//! item 6): on random states no plan of a brute force mints more (swaps of a grid of sizes in
//! both directions, a swap back, then deposits of every mix of a grid of what is held, single-
//! sided included; for SPL also a run of dust swaps whose owner-fee mints dilute the supply);
//! the bound is the mint up to rounding on balanced deposits; and a plan of dust swaps does beat
//! `T·ΔG/G` of exact arithmetic (why the SPL bound counts swaps). Every plan here is simulated
//! with the pools' own integer math; the bound is compared only with what they mint.

use proptest::prelude::*;
use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::Pool;
use swapzap::zap::{mint_upper_bound, zap_in_pool, ZapConfig, SPL_TARGET_SWAPS};
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

fn saber(x: [u64; 2], supply: u64, amp: u64, trade: u64, admin: u64) -> Pool {
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

fn spl(x: [u128; 2], supply: u128, trade: u64, owner: u64) -> Pool {
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
