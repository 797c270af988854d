//! The pool and inputs of the CL swap bench (`benches/pool_cl.rs`), shared with the
//! instruction-count driver (`examples/cl_swap_count.rs`) so both time the same swaps.
#![allow(dead_code, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use swapzap::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
use swapzap::pool::concentrated_liquidity::{ConcentratedLiquidity, SwapAmount, Tick};
use swapzap::U256;

/// Swaps per bench iteration.
pub const N: usize = 64;
/// The tick spacing.
pub const SPACING: i32 = 60;
/// The current tick: inside one bitmap word (ticks 0..15360 at spacing 60), so the only
/// steps are at initialised ticks.
pub const CENTER: i32 = 7_680;

/// A WETH/USDC-sized pool: 21 nested positions of 2e18 liquidity each, position k from tick
/// `CENTER − 60k` to `CENTER + 60(k + 1)`; the price sits inside all of them.
pub fn pool() -> ConcentratedLiquidity {
    let l: i128 = 2_000_000_000_000_000_000;
    let mut ticks: Vec<Tick> = (0..=20)
        .map(|k| Tick {
            index: CENTER - k * SPACING,
            liquidity_net: l,
            liquidity_gross: l as u128,
        })
        .chain((0..=20).map(|k| Tick {
            index: CENTER + (k + 1) * SPACING,
            liquidity_net: -l,
            liquidity_gross: l as u128,
        }))
        .collect();
    ticks.sort_by_key(|t| t.index);
    let tick = CENTER + 30;
    let p = sqrt_ratio_at_tick(tick).unwrap().to_u256() + U256::from(12_345u32);
    ConcentratedLiquidity::new(p, tick, 21 * l as u128, 3000, SPACING, ticks).unwrap()
}

/// Exact inputs (token0 in) that cross `crossed` initialised ticks and stop between that tick
/// and the next: 64 points spread over the middle of the segment.
pub fn inputs(pool: &ConcentratedLiquidity, crossed: i32) -> Vec<U256> {
    inputs_dir(pool, crossed, true)
}

/// The initialised tick a swap in direction `zero_for_one` from the bench pool's price meets
/// `k`-th (k = 0, 1, ...): below the price going down, above it going up.
pub fn boundary(k: i32, zero_for_one: bool) -> i32 {
    if zero_for_one {
        CENTER - k * SPACING
    } else {
        CENTER + (k + 1) * SPACING
    }
}

/// Exact inputs (token0 in when `zero_for_one`, else token1 in) that cross `crossed`
/// initialised ticks and stop between that tick and the next: 64 points spread over the
/// middle of the segment.
pub fn inputs_dir(pool: &ConcentratedLiquidity, crossed: i32, zero_for_one: bool) -> Vec<U256> {
    let reach = |t: i32| -> U256 {
        let limit = sqrt_ratio_at_tick(t).unwrap().to_u256();
        pool.execute_swap(zero_for_one, SwapAmount::ExactIn(U256::one() << 200), limit)
            .unwrap()
            .amount_in
    };
    // The segment after the last tick crossed (or from the price) to the next tick.
    let lo = if crossed == 0 {
        U256::zero()
    } else {
        reach(boundary(crossed - 1, zero_for_one))
    };
    let hi = reach(boundary(crossed, zero_for_one));
    let w = hi - lo;
    (0..N)
        .map(|k| lo + w / 4 + w / 2 * U256::from(k) / U256::from(N))
        .collect()
}
