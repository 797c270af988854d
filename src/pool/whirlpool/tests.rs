#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
use super::*;
use primitive_types::U256;

#[test]
fn tick_bounds_map_to_price_bounds() {
    assert_eq!(
        tick_index_to_sqrt_price(MIN_TICK_INDEX).unwrap(),
        MIN_SQRT_PRICE
    );
    assert_eq!(
        tick_index_to_sqrt_price(MAX_TICK_INDEX).unwrap(),
        MAX_SQRT_PRICE
    );
    assert_eq!(tick_index_to_sqrt_price(0).unwrap(), Q64);
    assert_eq!(
        sqrt_price_to_tick_index(MIN_SQRT_PRICE).unwrap(),
        MIN_TICK_INDEX
    );
    assert_eq!(
        sqrt_price_to_tick_index(MAX_SQRT_PRICE).unwrap(),
        MAX_TICK_INDEX
    );
    assert_eq!(sqrt_price_to_tick_index(Q64).unwrap(), 0);
    assert_eq!(sqrt_price_to_tick_index(Q64 - 1).unwrap(), -1);
}

#[test]
fn a_current_tick_outside_the_arrays_is_an_error_both_ways() {
    let arrays = [OrcaTickArray {
        start_tick_index: 0,
        ticks: alloc::vec![OrcaTick {
            index: 40,
            liquidity_net: 1_000_000,
            liquidity_gross: 1_000_000,
        }],
    }];
    for t in [-50, 200] {
        let state = WhirlpoolState {
            sqrt_price: tick_index_to_sqrt_price(t).unwrap() + 1,
            tick_current_index: t,
            liquidity: 1_000_000_000,
            fee_rate: 3000,
            protocol_fee_rate: 0,
            tick_spacing: 1,
        };
        let w = Whirlpool::new(state, &arrays).unwrap();
        for a_to_b in [true, false] {
            assert_eq!(
                w.compute_swap(1000, 0, a_to_b, true),
                Err(PoolError::TickArraySequence),
                "tick {t}, a_to_b {a_to_b}"
            );
        }
    }
}

#[test]
fn price_to_tick_is_the_greatest_tick_at_or_below() {
    for t in [-443_000, -70_001, -1, 1, 2, 887, 30_723, 443_635] {
        let p = tick_index_to_sqrt_price(t).unwrap();
        assert_eq!(sqrt_price_to_tick_index(p).unwrap(), t);
        assert_eq!(sqrt_price_to_tick_index(p - 1).unwrap(), t - 1);
    }
}

/// A Whirlpool at tick -18 973 (spacing 8, three arrays from -19 712, 0.3 % fee) with
/// `positions` (lower, upper, liquidity) booked as the program books them; shared with the
/// float model's tests (`model::cl`).
pub(crate) fn booked(positions: &[(i32, i32, u128)]) -> Whirlpool {
    let (tick, spacing) = (-18_973i32, 8u16);
    let span = 88 * i32::from(spacing);
    let s0 = tick.div_euclid(span) * span;
    let mut net = alloc::collections::BTreeMap::<i32, i128>::new();
    let mut l = 0u128;
    for &(lo, hi, liq) in positions {
        let n = i128::try_from(liq).unwrap();
        *net.entry(lo).or_default() += n;
        *net.entry(hi).or_default() -= n;
        if lo <= tick && tick < hi {
            l += liq;
        }
    }
    let arrays: alloc::vec::Vec<OrcaTickArray> = [s0 - span, s0, s0 + span]
        .iter()
        .map(|&s| OrcaTickArray {
            start_tick_index: s,
            ticks: net
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
        sqrt_price: tick_index_to_sqrt_price(tick).unwrap() + 1,
        tick_current_index: tick,
        liquidity: l,
        fee_rate: 3000,
        protocol_fee_rate: 0,
        tick_spacing: spacing,
    };
    Whirlpool::new(state, &arrays).unwrap()
}

/// A pool over three arrays with one position inside them and one across their ends.
fn three_arrays() -> Whirlpool {
    booked(&[
        (-19_200, -18_800, 4_000_000_000_000),
        (-20_000, -17_000, 1_000_000_000_000),
    ])
}

/// `exact_offer` of more than the arrays hold is the most input the exact swap takes whole:
/// one unit more fails past the arrays (`TickArraySequence`), and the swap of the offer ends
/// on the arrays' end; an offer they hold is itself; at the end, nothing is absorbed.
#[test]
fn exact_offer_is_the_most_input_the_arrays_take_whole() {
    let w = three_arrays();
    let (first, last) = w.tick_window();
    assert_eq!((first, last), (-19_712, -17_601));
    for (i, end) in [(0usize, first), (1, last)] {
        let big = U256::from(u64::MAX / 4);
        let x = w.exact_offer(i, 1 - i, big).unwrap();
        assert!(x < big && !x.is_zero());
        let (_, after) = w.swap(i, 1 - i, x).unwrap();
        assert_eq!(
            after.state().sqrt_price,
            tick_index_to_sqrt_price(end).unwrap()
        );
        assert_eq!(
            w.amount_out(i, 1 - i, x + 1),
            Err(PoolError::TickArraySequence)
        );
        let half = x / 2;
        assert_eq!(w.exact_offer(i, 1 - i, half).unwrap(), half);
        assert_eq!(
            after.exact_offer(i, 1 - i, U256::from(1000u64)),
            Err(PoolError::InsufficientLiquidity)
        );
    }
}
