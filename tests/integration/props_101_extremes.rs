//! Chain-101 extremes (issue 17, the held-back kinds of state): extreme balances, the
//! amplification at and past its bounds and mid-ramp, zero and degenerate fee fractions, many
//! tick crossings. Each family is compared with a slow reference written here where one is cheap
//! (Saber's D, y and swap in 512-bit arithmetic, the ramp; SPL's swap in `u128`), and nothing
//! may panic. The Whirlpool's float model must stay an upper bound: the route certificate is
//! checked on generated pools, and plans crossing several tick arrays re-simulate exactly.
use super::props_101::frac;
use super::spl_accounting::reference_swap;
use num_rational::Ratio;
use primitive_types::U512;
use proptest::prelude::*;
use serde_json::json;
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::pool::saber::{self, SaberAmp, SaberFees, SaberStableSwap};
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::whirlpool::{OrcaTick, OrcaTickArray, Whirlpool, WhirlpoolState};
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::U256;

/// Balances as the held-back generator draws them: 0, 1, tiny, huge, u64::MAX.
fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(2),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        Just(1u64 << 63),
        (1u64..1000),
        (1u64.., 0u32..64).prop_map(|(m, s)| m >> s)
    ]
}

/// A at its bounds and past them (the math does not check them).
fn amp() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(1_000_000),
        Just(1_000_001),
        1u64..=1_000_001
    ]
}

// ---- Saber: a slow reference in 512-bit arithmetic ------------------------------------------

fn u(x: u64) -> U512 {
    U512::from(x)
}

/// `compute_d` by the crate's Newton iteration, in U512 (no overflow for u64 balances and
/// A ≤ 2^32): the library must agree wherever its 192-bit arithmetic succeeds.
fn ref_d(amp: u64, a: u64, b: u64) -> Option<U512> {
    let sum = u(a) + u(b);
    if sum.is_zero() {
        return Some(U512::zero());
    }
    let ann: U512 = u(amp) * 2;
    if ann.is_zero() || a == 0 || b == 0 {
        return None;
    }
    let mut d = sum;
    for _ in 0..256 {
        let dp = d * d / (u(a) * 2) * d / (u(b) * 2);
        let prev = d;
        d = d * (dp * 2 + sum * ann) / (d * (ann - 1) + dp * 3);
        let diff = if d > prev { d - prev } else { prev - d };
        if diff <= U512::one() {
            break;
        }
    }
    Some(d)
}

/// `compute_y_raw` by the crate's iteration, in U512.
fn ref_y(amp: u64, x: u64, d: U512) -> Option<U512> {
    let ann: U512 = u(amp) * 2;
    if ann.is_zero() || x == 0 {
        return None;
    }
    let c = d * d / (u(x) * 2) * d / (ann * 2);
    let b = d / ann + u(x);
    let mut y = d;
    for _ in 0..256 {
        let prev = y;
        let den: U512 = (y * U512::from(2u8) + b).checked_sub(d)?;
        if den.is_zero() {
            return None;
        }
        y = (y * y + c) / den;
        let diff = if y > prev { y - prev } else { prev - y };
        if diff <= U512::one() {
            break;
        }
    }
    Some(y)
}

/// `compute_amp_factor`, written from its definition: linear from the initial to the target A
/// over [start, stop], floored towards the initial value.
fn ref_amp(a: &SaberAmp) -> Option<u64> {
    if a.current_ts >= a.stop_ramp_ts {
        return Some(a.target_amp_factor);
    }
    let range = i128::from(a.stop_ramp_ts) - i128::from(a.start_ramp_ts);
    let delta = i128::from(a.current_ts) - i128::from(a.start_ramp_ts);
    if range < 0 || delta < 0 || range == 0 {
        return None;
    }
    let (i, t) = (
        i128::from(a.initial_amp_factor),
        i128::from(a.target_amp_factor),
    );
    let step = (t - i).abs() * delta / range;
    u64::try_from(if t >= i { i + step } else { i - step }).ok()
}

fn saber_ref_swap(p: &SaberStableSwap, amp: u64, i: usize, x: u64) -> Option<(u64, u64)> {
    let b = [p.balances()[0].low_u64(), p.balances()[1].low_u64()];
    let (src, dst) = (b[i], b[1 - i]);
    let d = ref_d(amp, src, dst)?;
    let new_src = src.checked_add(x)?;
    let y = ref_y(amp, new_src, d)?;
    let dy = U512::from(dst).checked_sub(y)?.checked_sub(U512::one())?;
    let dy = u64::try_from(dy).ok()?;
    let f = p.fees();
    let fee = (u128::from(dy) * u128::from(f.trade_fee_numerator))
        .checked_div(u128::from(f.trade_fee_denominator))?;
    let fee = u64::try_from(fee).ok()?;
    Some((dy.checked_sub(fee)?, fee))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn saber_d_y_and_swap_match_a_512_bit_reference_at_the_extremes(
        a in edge64(), b in edge64(), s in edge64(), amp0 in amp(), amp1 in amp(),
        (start, len, now) in (-5i64..5, prop_oneof![Just(0i64), Just(1), 1i64..100_000], -10i64..200_000),
        t in frac(), x in edge64(), i in 0usize..2,
    ) {
        let ramp = SaberAmp {
            initial_amp_factor: amp0,
            target_amp_factor: amp1,
            start_ramp_ts: start,
            stop_ramp_ts: start.saturating_add(len),
            current_ts: now,
        };
        // the ramp at, before, inside and after its span
        match (ramp.amp_factor(), ref_amp(&ramp)) {
            (Ok(v), r) => prop_assert_eq!(Some(v), r),
            (Err(_), r) => prop_assert!(r.is_none(), "library refuses, reference gives {:?}", r),
        }
        let Ok(a_now) = ramp.amp_factor() else { return Ok(()) };
        if let Ok(d) = saber::compute_d(a_now, a, b) {
            let r = ref_d(a_now, a, b);
            prop_assert_eq!(Some(d.to_u256()), r.and_then(|r| U256::try_from(r).ok()));
            if let Ok(y) = saber::compute_y(a_now, x, d) {
                let ry = ref_y(a_now, x, U512::from(d.to_u256()));
                prop_assert_eq!(Some(y.to_u256()), ry.and_then(|r| U256::try_from(r).ok()));
            }
        }
        let fees = SaberFees {
            admin_trade_fee_numerator: 1,
            admin_trade_fee_denominator: 2,
            admin_withdraw_fee_numerator: 1,
            admin_withdraw_fee_denominator: 2,
            trade_fee_numerator: t.0,
            trade_fee_denominator: t.1,
            withdraw_fee_numerator: t.0,
            withdraw_fee_denominator: t.1,
        };
        let p = SaberStableSwap::new([a, b], s, ramp, fees);
        if let Ok(sw) = p.swap_detailed(i, x) {
            prop_assert_eq!(saber_ref_swap(&p, a_now, i, x), Some((sw.amount_out, sw.fee)));
        }
        // nothing panics, and the one-coin withdrawal as a plan step pays at most dy
        if let Ok((paid, after)) = p.burn_one(U256::from(x), i) {
            let (dy, _) = p.withdraw_one(x, i).unwrap();
            prop_assert!(paid.low_u64() <= dy);
            prop_assert!(after.balances()[i] <= p.balances()[i]);
            prop_assert_eq!(after.total_supply(), U256::from(s - x));
        }
        let _ = p.deposit([x, a]);
        let _ = p.withdraw(x);
    }

    #[test]
    fn spl_swap_matches_the_reference_and_the_offer_is_taken_whole_at_the_extremes(
        a in edge64(), b in edge64(), s in edge64(), t in frac(), o in frac(),
        x in edge64(), i in 0usize..2,
    ) {
        let fees = SplFees {
            trade_fee_numerator: t.0,
            trade_fee_denominator: t.1,
            owner_trade_fee_numerator: o.0,
            owner_trade_fee_denominator: o.1,
            ..SplFees::default()
        };
        let p = SplTokenSwap::new([a.into(), b.into()], s.into(), fees);
        let bal = [u128::from(a), u128::from(b)];
        let lib = p.swap_detailed(i, x.into()).ok().map(|s| (s.amount_out, s.source_amount_swapped));
        prop_assert_eq!(lib, reference_swap(bal[i], bal[1 - i], &fees, x.into()));
        if let (Some((out, _)), Ok(y)) = (lib, p.exact_offer(i, x.into())) {
            let s = p.swap_detailed(i, y).unwrap();
            prop_assert!(y <= u128::from(x));
            prop_assert_eq!(s.source_amount_swapped, y);
            prop_assert!(s.amount_out >= out);
        }
        let _ = p.mint(&[U256::from(x), U256::from(a)]);
        let _ = p.deposit_all_token_types([x.into(), b.into()]);
    }
}

// ---- Whirlpool: the certificate on generated pools, and many crossings ----------------------

/// A Whirlpool on tick spacing `sp` around tick `t` with the given positions (ticks below and
/// above the current one, liquidity), over `n_arrays` arrays centred on the current one.
pub fn build_whirlpool(
    t: i32,
    sp: u16,
    pos: &[(u32, u32, u128)],
    fee: u16,
    n_arrays: i32,
) -> Option<(Whirlpool, Vec<OrcaTickArray>, WhirlpoolState)> {
    let span = 88 * i32::from(sp);
    let s0 = t.div_euclid(span) * span;
    let half = n_arrays / 2;
    let starts: Vec<i32> = (-half..=half).map(|k| s0 + k * span).collect();
    let (lo, hi) = (
        starts[0].max(-443_636),
        (starts[starts.len() - 1] + span - 1).min(443_636),
    );
    let spi = i32::from(sp);
    let mut ticks = std::collections::BTreeMap::<i32, i128>::new();
    let mut l = 0u128;
    for &(dl, du, liq) in pos {
        let tl = (t.div_euclid(spi) - dl as i32) * spi;
        let tu = (t.div_euclid(spi) + du as i32) * spi;
        if tl < lo || tu > hi {
            continue;
        }
        *ticks.entry(tl).or_default() += liq as i128;
        *ticks.entry(tu).or_default() -= liq as i128;
        l += liq;
    }
    let sqrt = swapzap::pool::whirlpool::tick_index_to_sqrt_price(t).ok()? + 1;
    let arrays: Vec<OrcaTickArray> = starts
        .iter()
        .map(|&s| OrcaTickArray {
            start_tick_index: s,
            ticks: ticks
                .range(s..s + span)
                .filter(|(_, n)| **n != 0)
                .map(|(&index, &n)| OrcaTick {
                    index,
                    liquidity_net: n,
                    liquidity_gross: n.unsigned_abs(),
                })
                .collect(),
        })
        .collect();
    let state = WhirlpoolState {
        sqrt_price: sqrt,
        tick_current_index: t,
        liquidity: l,
        fee_rate: fee,
        protocol_fee_rate: 0,
        tick_spacing: sp,
    };
    let w = Whirlpool::new(state, &arrays).ok()?;
    Some((w, arrays, state))
}

const SOL: &str = "So11111111111111111111111111111111111111112";
const USDC: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

/// A one-pool chain-101 graph holding the Whirlpool, through the snapshot loader.
fn graph_of(arrays: &[OrcaTickArray], st: &WhirlpoolState) -> Option<PoolGraph> {
    let arrays: Vec<_> = arrays
        .iter()
        .map(|a| {
            json!({
                "start_tick_index": a.start_tick_index.to_string(),
                "ticks": a.ticks.iter().map(|t| json!({
                    "index": t.index.to_string(),
                    "liquidity_net": t.liquidity_net.to_string(),
                    "liquidity_gross": t.liquidity_gross.to_string(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let snap = json!({
        "chain_id": 101,
        "tokens": [{"address": SOL, "decimals": 9}, {"address": USDC, "decimals": 6}],
        "pools": [{
            "id": "orca:7iG2z5vrYwenvNvUDW8cpim7GKE8aJ5h7v6rph3ThgM5",
            "source": "orca", "kind": "orca_whirlpool",
            "tokens": [SOL, USDC], "reserves": ["0", "0"],
            "sqrt_price": st.sqrt_price.to_string(),
            "tick_current_index": st.tick_current_index.to_string(),
            "liquidity": st.liquidity.to_string(),
            "fee_rate": st.fee_rate.to_string(),
            "protocol_fee_rate": st.protocol_fee_rate.to_string(),
            "tick_spacing": st.tick_spacing.to_string(),
            "tick_arrays": arrays,
        }]
    });
    let snap: Snapshot = serde_json::from_value(snap).ok()?;
    PoolGraph::from_snapshot(&snap).ok()
}

fn positions(max: usize) -> impl Strategy<Value = Vec<(u32, u32, u128)>> {
    prop::collection::vec(
        (
            1u32..300,
            1u32..300,
            prop_oneof![
                Just(1u128),
                (1u128..1u128 << 40),
                (1u128 << 40..1u128 << 64)
            ],
        ),
        1..max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The bound (the float model's dual) is at least the exact output the pool pays, and the
    /// quoted plan re-simulates exactly, however many ticks and arrays the swap crosses.
    #[test]
    fn whirlpool_bound_stays_above_the_exact_output(
        t in -300_000i32..300_000,
        sp in prop_oneof![Just(1u16), Just(8), Just(64), Just(128)],
        pos in positions(12),
        fee in prop_oneof![Just(0u16), Just(100), Just(3000), Just(10_000)],
        x in prop_oneof![1u64..1_000, 1_000u64..1u64 << 40, (1u64 << 40)..u64::MAX],
        a_to_b in any::<bool>(),
    ) {
        let Some((w, arrays, st)) = build_whirlpool(t, sp, &pos, fee, 5) else { return Ok(()) };
        let Some(g) = graph_of(&arrays, &st) else { return Ok(()) };
        let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
        let (from, to) = if a_to_b { (sol, usdc) } else { (usdc, sol) };
        let req = RouteRequest::new(vec![(from, U256::from(x))], vec![(to, Ratio::new(1, 1))]);
        let i = usize::from(!a_to_b);
        let exact = w.amount_out(i, 1 - i, U256::from(x));
        if let Ok(bound) = route::dual_bound(&g, &req) {
            if let Ok(out) = exact {
                prop_assert!(swapzap::math::float::to_f64(out) <= bound * (1.0 + 1e-12) + 1.0,
                    "bound {} below the exact output {}", bound, out);
            }
        }
        if let Ok(plan) = route::quote(&g, &req) {
            plan.verify(&g).unwrap();
            if let Some(ub) = plan.upper_bound {
                prop_assert!(plan.value <= ub, "value {} above the bound {}", plan.value, ub);
            }
            // step by step with the pool's own quote loop (not the Pool verb)
            let mut cur = w.clone();
            for s in &plan.steps {
                let Step::Swap { amount_in, amount_out, .. } = s else { panic!("{s:?}") };
                let q = cur.quote_by_input(amount_in.low_u64(), a_to_b, 0).unwrap();
                prop_assert_eq!(U256::from(q.token_est_out), *amount_out);
                prop_assert_eq!(U256::from(q.token_in), *amount_in);
                cur = cur.swap(i, 1 - i, *amount_in).unwrap().1;
            }
        }
    }

    /// Many positions and large swaps: many tick crossings, across arrays; nothing panics, the
    /// price moves the right way, and exact-in and exact-out agree (the least input for the
    /// output of `x` is at most `x`).
    #[test]
    fn whirlpool_many_crossings_are_consistent(
        t in -400_000i32..400_000,
        sp in prop_oneof![Just(1u16), Just(2), Just(16), Just(256)],
        pos in positions(40),
        fee in prop_oneof![Just(0u16), Just(3000), Just(65_535)],
        x in prop_oneof![Just(u64::MAX), (1u64 << 30)..u64::MAX],
        a_to_b in any::<bool>(),
        n_arrays in 1i32..=6,
    ) {
        let Some((w, _, st)) = build_whirlpool(t, sp, &pos, fee, n_arrays) else { return Ok(()) };
        let i = usize::from(!a_to_b);
        match w.swap(i, 1 - i, U256::from(x)) {
            Ok((out, after)) => {
                let s2 = after.state();
                if a_to_b {
                    prop_assert!(s2.sqrt_price <= st.sqrt_price);
                } else {
                    prop_assert!(s2.sqrt_price >= st.sqrt_price);
                }
                if !out.is_zero() {
                    if let Ok(least) = w.amount_in(i, 1 - i, out) {
                        prop_assert!(least <= U256::from(x));
                    }
                }
            }
            Err(_) => {
                let _ = w.quote_by_input(x, a_to_b, 0);
            }
        }
        let _ = w.quote_by_output(x, a_to_b, 10_000);
        let _ = w.compute_swap(x, 0, a_to_b, false);
    }
}

/// The generator above is not vacuous: pools it builds load as snapshots and route, and large
/// swaps cross ticks and arrays.
#[test]
fn generated_whirlpools_load_route_and_cross_arrays() {
    let (mut routed, mut crossed_arrays) = (0, 0);
    for k in 0..40i32 {
        let sp = [1u16, 8, 64][(k % 3) as usize];
        let t = -200_000 + k * 9_973;
        let pos: Vec<(u32, u32, u128)> = (0..8u32)
            .map(|p| (1 + p * 37 % 250, 1 + p * 53 % 250, 1u128 << (30 + p)))
            .collect();
        let (w, arrays, st) = build_whirlpool(t, sp, &pos, 3000, 5).unwrap();
        let g = graph_of(&arrays, &st).expect("the snapshot loads");
        let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
        for x in [1_000u64, 1 << 30, 1 << 40, 1 << 50] {
            let req = RouteRequest::new(vec![(sol, U256::from(x))], vec![(usdc, Ratio::new(1, 1))]);
            let Ok(plan) = route::quote(&g, &req) else {
                continue;
            };
            plan.verify(&g).unwrap();
            assert!(plan.value <= plan.upper_bound.unwrap());
            routed += 1;
            let (_, after) = w.swap(0, 1, U256::from(x)).unwrap();
            let span = 88 * i32::from(sp);
            if after.state().tick_current_index.div_euclid(span) != t.div_euclid(span) {
                crossed_arrays += 1;
            }
        }
    }
    assert!(
        routed > 60 && crossed_arrays > 5,
        "routed {routed}, crossed arrays {crossed_arrays}"
    );
}
