#![allow(clippy::unwrap_used)]
use super::*;

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
