//! Property tests for the chain-101 families, named after the invariant they protect: no input
//! panics (arbitrary states and amounts, including zero fee denominators and u64/u128 edges),
//! exact-out is the least input, a swap never pays more than the destination holds, and the
//! Whirlpool's price moves the right way and stays inside the arrays it was given.
use proptest::prelude::*;
use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::whirlpool::Whirlpool;
use swapzap::U256;

fn amount64() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        (1u64.., 0u32..64).prop_map(|(m, s)| m >> s)
    ]
}

/// Fee fractions: zero, zero denominators, whole, typical, arbitrary.
pub fn frac() -> impl Strategy<Value = (u64, u64)> {
    prop_oneof![
        Just((0u64, 0u64)),
        Just((1, 0)),
        Just((30, 10_000)),
        Just((1, 1)),
        (0u64..1000, 1u64..1_000_000),
        (any::<u64>(), any::<u64>())
    ]
}

fn spl_pool() -> impl Strategy<Value = SplTokenSwap> {
    (amount64(), amount64(), amount64(), frac(), frac(), frac()).prop_map(|(a, b, s, t, o, w)| {
        SplTokenSwap::new(
            [u128::from(a), u128::from(b)],
            u128::from(s),
            SplFees {
                trade_fee_numerator: t.0,
                trade_fee_denominator: t.1,
                owner_trade_fee_numerator: o.0,
                owner_trade_fee_denominator: o.1,
                owner_withdraw_fee_numerator: w.0,
                owner_withdraw_fee_denominator: w.1,
                ..SplFees::default()
            },
        )
    })
}

fn saber_pool() -> impl Strategy<Value = SaberStableSwap> {
    (
        amount64(),
        amount64(),
        amount64(),
        prop_oneof![Just(0u64), Just(1), 1u64..=1_000_001],
        prop_oneof![Just(0u64), Just(1), 1u64..=1_000_001],
        (-100i64..100, -100i64..100, -100i64..100),
        frac(),
        frac(),
    )
        .prop_map(|(a, b, s, a0, a1, (st, sp, now), t, w)| {
            SaberStableSwap::new(
                [a, b],
                s,
                SaberAmp {
                    initial_amp_factor: a0,
                    target_amp_factor: a1,
                    start_ramp_ts: st,
                    stop_ramp_ts: sp,
                    current_ts: now,
                },
                SaberFees {
                    admin_trade_fee_numerator: 1,
                    admin_trade_fee_denominator: 2,
                    admin_withdraw_fee_numerator: 1,
                    admin_withdraw_fee_denominator: 2,
                    trade_fee_numerator: t.0,
                    trade_fee_denominator: t.1,
                    withdraw_fee_numerator: w.0,
                    withdraw_fee_denominator: w.1,
                },
            )
        })
}

/// A whirlpool with `k` positions around a random tick, 5 arrays
/// ([`super::props_101_extremes::build_whirlpool`]).
fn whirlpool() -> impl Strategy<Value = Whirlpool> {
    (
        -400_000i32..400_000,
        prop_oneof![Just(1u16), Just(8), Just(64), Just(256)],
        prop::collection::vec((1u32..200, 1u32..200, 1u64.., 0u32..60), 1..4),
        prop_oneof![Just(0u16), Just(500), Just(3000), Just(65_535)],
    )
        .prop_filter_map("in range", |(t, sp, pos, fee)| {
            let pos: Vec<(u32, u32, u128)> = pos
                .into_iter()
                .map(|(dl, du, m, sh)| (dl, du, u128::from(m >> sh).max(1)))
                .collect();
            super::props_101_extremes::build_whirlpool(t, sp, &pos, fee, 5).map(|(w, _, _)| w)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn spl_never_panics_and_pays_less_than_the_balance(p in spl_pool(), x in amount64(), i in 0usize..2) {
        if let Ok(s) = p.swap_detailed(i, u128::from(x)) {
            prop_assert!(s.amount_out > 0);
            prop_assert!(U256::from(s.amount_out) < p.balances()[1 - i]);
            prop_assert!(s.source_amount_swapped <= u128::from(x));
        }
        let _ = p.deposit_single_token_type(i, u128::from(x));
        let _ = p.withdraw_single_token_type_exact_out(i, u128::from(x));
        let _ = p.pool_tokens_to_trading_tokens(u128::from(x), i == 0);
        let _ = p.burn(U256::from(x));
        let _ = p.mint(&[U256::from(x), U256::from(x / 3)]);
        let _ = p.mint(&[U256::zero(), U256::from(x)]);
        let _ = p.marginal_rate(i, 1 - i);
    }

    #[test]
    fn saber_never_panics_and_pays_less_than_the_balance(p in saber_pool(), x in amount64(), i in 0usize..2) {
        if let Ok(s) = p.swap_detailed(i, x) {
            prop_assert!(s.amount_out < p.balances()[1 - i].low_u64());
        }
        let _ = p.deposit([x, x / 3]);
        let _ = p.withdraw_one(x, i);
        let _ = p.withdraw(x);
        let _ = p.mint(&[U256::from(x), U256::from(x / 7)]);
        let _ = p.burn(U256::from(x));
        let _ = p.marginal_rate(i, 1 - i);
    }

    #[test]
    fn exact_out_is_the_least_input(p in spl_pool(), q in saber_pool(), dy in 1u64..1_000_000_000, i in 0usize..2) {
        let pools = [swapzap::pool::Pool::SplTokenSwap(p), swapzap::pool::Pool::Saber(q)];
        for pool in &pools {
            if let Ok(x) = pool.amount_in(i, 1 - i, U256::from(dy)) {
                prop_assert!(pool.amount_out(i, 1 - i, x).unwrap() >= U256::from(dy));
                if x > U256::one() {
                    let less = pool.amount_out(i, 1 - i, x - 1).unwrap_or_default();
                    prop_assert!(less < U256::from(dy));
                }
            }
        }
    }

    #[test]
    fn whirlpool_moves_the_price_the_right_way(w in whirlpool(), x in amount64(), a_to_b in any::<bool>(), exact_in in any::<bool>()) {
        let st = w.state();
        if let Ok(r) = w.compute_swap(x, 0, a_to_b, exact_in) {
            if a_to_b {
                prop_assert!(r.sqrt_price <= st.sqrt_price);
            } else {
                prop_assert!(r.sqrt_price >= st.sqrt_price);
            }
            let specified = if a_to_b == exact_in { r.token_a } else { r.token_b };
            prop_assert!(specified <= x);
            // the new tick is the price's tick (or one below on a tick after a→b)
            let t = swapzap::pool::whirlpool::sqrt_price_to_tick_index(r.sqrt_price).unwrap();
            prop_assert!(r.tick_current_index == t || r.tick_current_index == t - 1);
        }
        let i = usize::from(!a_to_b);
        let _ = w.amount_in(i, 1 - i, U256::from(x));
        let _ = w.quote_by_output(x, a_to_b, 50);
    }
}
