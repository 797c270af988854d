//! The LP-input zap-in bound (`zap::zap_in`'s `upper_bound`, the burned pools claimed as a
//! whole) where a claimed stable-swap pool's integer loops lose its exact `D`: a very
//! imbalanced Saber pool whose `compute_y` undershoots when the small coin is bought, so a round
//! trip through it returns more than it took. Every plan is run through the pools' own swap
//! and mint.

use crate::zap_routed::{addr, market_graph, pool_at};
use serde_json::json;
use swapzap::graph::PoolGraph;
use swapzap::pool::Pool;
use swapzap::units::PoolId;
use swapzap::zap::{self, ZapOptions};
use swapzap::U256;

fn f(x: U256) -> f64 {
    x.to_string().parse().unwrap()
}

/// Tokens 1 (coin 0) and 2 (coin 1); the Saber pool 200 of raw balances `x` (`A` = 1, no fee,
/// supply `t_p`) and the target 100, a fee-free uniswap-v2 pool of reserves `q` and supply
/// `t_q`.
fn market(x: [u64; 2], t_p: u64, q: [u128; 2], t_q: u128) -> (PoolGraph, PoolId, PoolId) {
    let tokens = vec![
        json!({"address": addr(1), "symbol": "C0", "decimals": 6}),
        json!({"address": addr(2), "symbol": "C1", "decimals": 6}),
    ];
    let pools = vec![
        json!({"id": format!("uniswap-v2:{}", addr(100)), "source": "uniswap-v2",
            "kind": "constant_product", "tokens": [addr(1), addr(2)],
            "reserves": [q[0].to_string(), q[1].to_string()],
            "fee": {"num": "0", "den": "1000"}, "total_supply": t_q.to_string()}),
        json!({"id": format!("saber:{}", addr(200)), "source": "saber",
            "kind": "saber_stableswap", "tokens": [addr(1), addr(2)],
            "reserves": [x[0].to_string(), x[1].to_string()],
            "total_supply": t_p.to_string(),
            "initial_amp_factor": "1", "target_amp_factor": "1",
            "start_ramp_ts": "0", "stop_ramp_ts": "0",
            "fees": {"admin_trade_fee_numerator": "0", "admin_trade_fee_denominator": "1",
                "admin_withdraw_fee_numerator": "0", "admin_withdraw_fee_denominator": "1",
                "trade_fee_numerator": "0", "trade_fee_denominator": "10000",
                "withdraw_fee_numerator": "0", "withdraw_fee_denominator": "10000"}}),
    ];
    let g = market_graph(json!(tokens), json!(pools));
    let pid = |k: u32| pool_at(&g, k);
    let (q, p) = (pid(100), pid(200));
    (g, q, p)
}

/// The least sale of coin 1 that buys one unit of coin 0 in `pool` (the pool's own swap).
fn least_for_one(pool: &Pool) -> U256 {
    let (mut lo, mut hi) = (1u64, 1u64 << 40);
    while lo < hi {
        let m = lo + (hi - lo) / 2;
        match pool.swap(1, 0, U256::from(m)) {
            Ok((out, _)) if !out.is_zero() => hi = m,
            _ => lo = m + 1,
        }
    }
    U256::from(lo)
}

/// The least sale of coin 1 that buys `k` units of coin 0 in `q` (the pool's own swap).
fn sale_for(q: &Pool, k: U256) -> U256 {
    let (mut lo, mut hi) = (U256::one(), U256::from(u64::MAX));
    while lo < hi {
        let m = lo + (hi - lo) / 2u8;
        match q.swap(1, 0, m) {
            Ok((out, _)) if out >= k => hi = m,
            _ => lo = m + 1u8,
        }
    }
    lo
}

/// Saber of raw balances 3 007 and 4 868 084 717 (`A` = 1, no fee): buying one unit of coin 0
/// for the least sale of coin 1 and selling it back returns more coin 1 than it took (2 404 on
/// the first round trip: `compute_y` leaves the small coin at 3 006 where the exact balance at
/// the old `D` is 3 006.0029, so the exact `D` falls 27 units, about 88 units of coin 1 each);
/// twenty round trips return 6 021 and lower the exact `D` by 68 units. The pool is claimed (one
/// unit of its LP held, never burned); the target, a fee-free constant-product pool on the same
/// coins at the Saber pool's marginal price (about 1 000 LP per unit of coin 1), mints 1 612 015
/// 499 for the round trips' coin 1 and a budget of 1 605 995. The bound the zap reported with
/// the claimed pool's `D` less 16 units was 1 607 432 562.7 (0.28 % below); with the allowance
/// of `get_D`'s overshoot at the pool's balances (187 units of `D` here) it is 1 622 493 970.
/// That allowance is proven for the overshoot, not for the loss of swaps through the claimed
/// pool (`zap::bound`'s `Invariant::of`, "Not proven"): this test pins the example, it does not
/// prove the gap closed.
#[test]
fn claimed_saber_round_trips_stay_within_the_bound() {
    let x = [3_007u64, 4_868_084_717];
    // the target at the Saber pool's marginal price (∂D/∂x₀ : ∂D/∂x₁ = 806 007.74), about
    // 1 000 LP per unit of coin 1
    let q = [100_000_000u128, 80_600_774_183_016];
    let (g, tq, tp) = market(x, 1_000_000_000_000, q, 2 * q[1] * 1_000);
    let saber = g.pool(tp).unwrap().pool.clone();
    let target = g.pool(tq).unwrap().pool.clone();
    let c1 = g.token_id(&addr(2)).unwrap();
    // twenty round trips through the Saber pool (the pool's own swaps): what they return
    let (mut pool, mut gain) = (saber, 0i128);
    for _ in 0..20 {
        let s = least_for_one(&pool);
        let (one, after) = pool.swap(1, 0, s).unwrap();
        let (back, after) = after.swap(0, 1, one).unwrap();
        gain += i128::from(back.as_u64()) - i128::from(s.as_u64());
        pool = after;
    }
    assert_eq!(gain, 6_021);
    // then buy one unit of coin 0 from the target at the least sale, and mint it with exactly
    // the coin 1 that matches it (the pool's own swap and mint); the budget of coin 1 is what
    // this plan spends less the round trips' gain
    let k = U256::one();
    let s = sale_for(&target, k);
    let (out, after) = target.swap(1, 0, s).unwrap();
    assert_eq!(out, k);
    let [a0, a1] = [after.balances()[0], after.balances()[1]];
    let d1 = (k * a1 + a0 - 1u8) / a0;
    let minted = after.mint(&[k, d1]).unwrap().0;
    assert_eq!(minted, U256::from(1_612_015_499u64));
    let budget = s + d1 - U256::from(gain as u64);
    let inputs = vec![(g.lp_token(tp).unwrap(), U256::one()), (c1, budget)];
    let z = zap::zap_in(&g, &inputs, g.lp_token(tq).unwrap(), &ZapOptions::default()).unwrap();
    let bound = z.plan.upper_bound.unwrap();
    assert!(
        bound >= f(minted),
        "bound {bound} below the plan's {minted} (budget {budget}, zap {})",
        z.minted
    );
}
