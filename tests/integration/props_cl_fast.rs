//! The fast paths of the concentrated-liquidity math against the general ones and against
//! plain `U512` formulas, on random operands weighted toward the edges where a fast path must
//! hand over (products at 2^256, prices at 2^128 and at the ends of the range, liquidity at
//! 2^128 − 1): `getAmount0Delta` by one division, the next price after token0 comes in by
//! `p − floor(amount·p² / den)`, and the family verbs that run the loop without fee growth.
use proptest::prelude::*;
use swapzap::math::wide::div_rem_by_wide;
use swapzap::math::W;
use swapzap::pool::concentrated_liquidity::sqrt_price_math::{
    amount0_delta, amount0_delta_plain, amount0_delta_up_near,
    next_sqrt_price_from_amount0_in_plain, next_sqrt_price_from_amount1_in_prepared,
    next_sqrt_price_from_input,
};
use swapzap::pool::concentrated_liquidity::tick_math::{
    sqrt_ratio_at_tick, tick_at_sqrt_ratio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK,
};
use swapzap::pool::concentrated_liquidity::ConcentratedLiquidity;
use swapzap::{U256, U512};

/// A value of a random bit length in `lo_bits..=hi_bits` (uniform bits below the top one).
fn sized(lo_bits: usize, hi_bits: usize) -> impl Strategy<Value = U256> {
    (lo_bits..=hi_bits, any::<[u64; 4]>()).prop_map(|(bits, limbs)| {
        if bits == 0 {
            return U256::zero();
        }
        let x = U256(limbs) >> (256 - bits);
        x | (U256::one() << (bits - 1))
    })
}

/// A √price: random sizes over the whole range, or one of the edges (the range's ends, 2^96,
/// around 2^128 where `a·b` and `amount·p²` cross 2^256).
fn price() -> impl Strategy<Value = U256> {
    let min = MIN_SQRT_RATIO.to_u256();
    let max = MAX_SQRT_RATIO.to_u256();
    let two128 = U256::one() << 128;
    prop_oneof![
        3 => sized(33, 160).prop_map(move |p| p.clamp(min, max - 1)),
        1 => prop::sample::select(vec![
            min,
            min + 1,
            max - 1,
            U256::one() << 96,
            two128 - 1,
            two128,
            two128 + 1,
        ]),
        1 => (0u64..1 << 20, any::<bool>()).prop_map(move |(d, up)| {
            if up { two128 + d } else { two128 - d }
        }),
    ]
}

/// Liquidity: random sizes, or the largest values.
fn liquidity() -> impl Strategy<Value = u128> {
    prop_oneof![
        4 => sized(1, 128).prop_map(|l| l.low_u128()),
        1 => prop::sample::select(vec![1u128, u128::MAX, u128::MAX - 1, 1 << 127, 1 << 96]),
    ]
}

fn w(x: U256) -> W {
    W::from_u256(x)
}

fn md(a: U256, b: U256, d: U256) -> Option<U256> {
    U256::try_from(a.full_mul(b) / U512::from(d)).ok()
}

fn md_up(a: U256, b: U256, d: U256) -> Option<U256> {
    let p = a.full_mul(b);
    let d = U512::from(d);
    let q = p / d + U512::from(u8::from(!(p % d).is_zero()));
    U256::try_from(q).ok()
}

/// `getAmount0Delta` on plain `U512`: `mulDiv(L << 96, b − a, b)` then `/ a`, each rounded.
fn amount0_u512(a: U256, b: U256, l: u128, up: bool) -> Option<U256> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    let n1 = U256::from(l) << 96;
    if up {
        let x = md_up(n1, b - a, b)?;
        Some(x / a + U256::from(u8::from(!(x % a).is_zero())))
    } else {
        Some(md(n1, b - a, b)? / a)
    }
}

/// `getNextSqrtPriceFromAmount0RoundingUp(p, L, amount, true)` on plain `U512`.
fn next0_u512(p: U256, l: u128, amount: U256) -> Option<U256> {
    if amount.is_zero() {
        return Some(p);
    }
    let n1 = U256::from(l) << 96;
    if let Some(den) = amount.checked_mul(p).and_then(|x| n1.checked_add(x)) {
        return md_up(n1, p, den);
    }
    let s = (n1 / p).checked_add(amount)?;
    Some(n1 / s + U256::from(u8::from(!(n1 % s).is_zero())))
}

/// An amount of token0 in: random sizes, or just around where `amount·p` and `amount·p²`
/// reach 2^256 (the two hand-overs of the next-price computation).
fn amount_for(p: U256) -> impl Strategy<Value = U256> {
    let at_p = U256::MAX / p;
    let at_p2 = U256::try_from(U512::from(U256::MAX) / p.full_mul(p)).unwrap_or(U256::MAX);
    prop_oneof![
        2 => sized(0, 255),
        1 => (0u64..64, any::<bool>()).prop_map(move |(d, up)| {
            if up { at_p2.saturating_add(U256::from(d)) } else { at_p2.saturating_sub(U256::from(d)) }
        }),
        1 => (0u64..64, any::<bool>()).prop_map(move |(d, up)| {
            if up { at_p.saturating_add(U256::from(d)) } else { at_p.saturating_sub(U256::from(d)) }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// One division by `a·b` (when both products fit) equals the contract's two divisions,
    /// both roundings, and both equal the `U512` formula; errors where the formula overflows.
    #[test]
    fn amount0_delta_by_one_division_equals_the_contracts_two(
        a in price(), b in price(), l in liquidity(), up in any::<bool>()
    ) {
        let fast = amount0_delta(w(a), w(b), l, up).ok().map(W::to_u256);
        let plain = amount0_delta_plain(w(a), w(b), l, up).ok().map(W::to_u256);
        prop_assert_eq!(fast, plain);
        prop_assert_eq!(fast, amount0_u512(a, b, l, up));
    }

    /// Neighbouring prices (a step of a few wei or a few ticks): the products are far from
    /// 2^256 and the one-division path is the one taken.
    #[test]
    fn amount0_delta_between_close_prices(
        a in price(), d in 0u64..1 << 40, l in liquidity(), up in any::<bool>()
    ) {
        let b = (a + U256::from(d)).min(MAX_SQRT_RATIO.to_u256());
        let fast = amount0_delta(w(a), w(b), l, up).ok().map(W::to_u256);
        prop_assert_eq!(fast, amount0_delta_plain(w(a), w(b), l, up).ok().map(W::to_u256));
        prop_assert_eq!(fast, amount0_u512(a, b, l, up));
    }

    /// The rounded-up delta from a hint (checked by a multiplication, stepped down by
    /// subtractions) equals the division for hints at the answer, up to eight above or below
    /// it (the hand-overs at four steps and below the answer) and anywhere, and for the input
    /// less the fee that reaches the lower price (the swap step's hint).
    #[test]
    fn amount0_delta_from_a_hint_equals_the_division(
        a in price(), b in price(), l in liquidity(), d in -8i64..9, far in sized(0, 256),
        kind in 0u8..3,
    ) {
        let want = amount0_delta(w(a), w(b), l, true).ok().map(W::to_u256);
        let hint = match (kind, want) {
            (0, Some(x)) => if d < 0 { x.saturating_sub(U256::from(d.unsigned_abs())) } else { x.saturating_add(U256::from(d as u64)) },
            (1, _) => far,
            _ => {
                // The swap step's case: the input less the fee that moves the price down from
                // the higher price reaches the lower one or a price just above it.
                let (lo, hi) = if a > b { (b, a) } else { (a, b) };
                let amount = amount0_u512(lo, hi, l, true).unwrap_or(far);
                match next_sqrt_price_from_input(w(hi), l, w(amount), true) {
                    Ok(next) if next.to_u256() < hi && l > 0 => {
                        let got = amount0_delta_up_near(next, w(hi), l, w(amount)).ok().map(W::to_u256);
                        prop_assert_eq!(got, amount0_delta(next, w(hi), l, true).ok().map(W::to_u256));
                    }
                    _ => {}
                }
                far
            }
        };
        let got = amount0_delta_up_near(w(a), w(b), l, w(hint)).ok().map(W::to_u256);
        prop_assert_eq!(got, want);
    }

    /// The price after token1 comes in, `p + floor(amount·2^96 / L)` by the liquidity
    /// prepared for division (any size, below and above 2^64), equals `FullMath` and the
    /// `U512` formula, on both sides of the hand-overs (amounts at 2^160, quotients at 2^128).
    #[test]
    fn next_price_after_token1_in_by_the_prepared_liquidity(
        p in price(), l in liquidity(), amount in prop_oneof![
            3 => sized(0, 255),
            1 => (0u64..64, any::<bool>()).prop_map(|(d, up)| {
                let x = U256::one() << 160;
                if up { x + d } else { x - d - 1 }
            }),
        ],
    ) {
        let fast = next_sqrt_price_from_amount1_in_prepared(w(p), l, w(amount)).ok().map(W::to_u256);
        let plain = next_sqrt_price_from_input(w(p), l, w(amount), false).ok().map(W::to_u256);
        prop_assert_eq!(fast, plain);
        let q = md(amount, U256::one() << 96, U256::from(l));
        let want = q.and_then(|q| p.checked_add(q)).filter(|r| *r < U256::one() << 160);
        prop_assert_eq!(fast, want);
    }

    /// `p − floor(amount·p² / den)` equals the contract's `mulDivRoundingUp(L·2^96, p, den)`
    /// on both sides of every hand-over.
    #[test]
    fn next_price_after_token0_in_equals_the_512_bit_mul_div(
        (p, amount) in price().prop_flat_map(|p| (Just(p), amount_for(p))),
        l in liquidity(),
    ) {
        let fast = next_sqrt_price_from_input(w(p), l, w(amount), true).ok().map(W::to_u256);
        let plain = next_sqrt_price_from_amount0_in_plain(w(p), l, w(amount)).ok().map(W::to_u256);
        prop_assert_eq!(fast, plain);
        prop_assert_eq!(fast, next0_u512(p, l, amount));
    }
}

/// A divisor for the division by a wide divisor: random sizes at or above 2^128 (its domain), the
/// hand-over just below it, and the largest values.
fn wide_divisor() -> impl Strategy<Value = U256> {
    let two128 = U256::one() << 128;
    prop_oneof![
        4 => sized(129, 256),
        1 => (0u64..64).prop_map(move |d| two128 + d),
        1 => (1u64..64).prop_map(move |d| two128 - d),
        1 => (0u64..64).prop_map(|d| U256::MAX - d),
    ]
}

/// A dividend for `d`: anything, or `q·d + r` with quotients up to 2^128 − 1 (at the top of
/// the domain) and remainders at 0, 1, `d − 1` (where an estimate off by one shows).
fn wide_dividend(d: U256) -> impl Strategy<Value = U256> {
    let edge = (sized(0, 128), 0u8..4, sized(0, 256)).prop_map(move |(q, k, any)| {
        let q = if k == 3 { U256::from(u128::MAX) } else { q };
        let r = match k {
            0 => U256::zero(),
            1 => U256::one(),
            _ => d - 1,
        };
        q.checked_mul(d)
            .and_then(|x| x.checked_add(r))
            .unwrap_or(any)
    });
    prop_oneof![2 => sized(0, 256), 2 => edge]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// The division by a wide divisor (an estimate from the divisor's top 128 bits, stepped
    /// down until `q·d <= n`) equals the plain `U512` quotient and remainder on its domain, divisors of 2^128 and more, and hands
    /// over (`None`) below it; the CL math then divides the plain way.
    #[test]
    fn division_by_a_wide_divisor_equals_u512(
        (d, n) in wide_divisor().prop_flat_map(|d| (Just(d), wide_dividend(d))),
    ) {
        let got = div_rem_by_wide(w(n), w(d)).map(|(q, r)| (U256::from(q), r.to_u256()));
        if d < U256::one() << 128 {
            prop_assert_eq!(got, None);
        } else {
            let (q, r) = (U512::from(n) / U512::from(d), U512::from(n) % U512::from(d));
            let want = (U256::try_from(q).unwrap(), U256::try_from(r).unwrap());
            prop_assert_eq!(got, Some(want));
        }
    }
}

/// `getTickAtSqrtRatio` by bisection on the plain primitive-types `TickMath` (no float).
fn tick_plain(p: U256) -> i32 {
    let (mut lo, mut hi) = (-887_272i32, 887_271i32);
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if crate::cl_plain::ratio(mid) <= p {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// A √price for the tick search: anywhere in the range, or within a few units or a small
/// fraction of a tick of a tick's √ratio (where the float estimate is too close to an integer
/// and the exact comparisons must decide).
fn tick_price() -> impl Strategy<Value = U256> {
    let min = MIN_SQRT_RATIO.to_u256();
    let max = MAX_SQRT_RATIO.to_u256();
    prop_oneof![
        2 => sized(33, 160).prop_map(move |p| p.clamp(min, max - 1)),
        1 => (-887_272i32..887_272, -8i64..8).prop_map(move |(t, d)| {
            let r = crate::cl_plain::ratio(t);
            let p = if d < 0 { r - U256::from(d.unsigned_abs()) } else { r + U256::from(d as u64) };
            p.clamp(min, max - 1)
        }),
        1 => (-887_272i32..887_271, 0u64..4096, any::<bool>()).prop_map(move |(t, k, up)| {
            // k / 2^20 of the tick's width from its lower or upper end.
            let (r, n) = (crate::cl_plain::ratio(t), crate::cl_plain::ratio(t + 1));
            let off = ((n - r) * U256::from(k)) >> 20;
            if up { n - 1 - off } else { r + off }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// The tick search, which takes the float estimate's floor when it lies 2^-10 clear of an
    /// integer, equals a plain bisection on the exact values everywhere, most of all next to
    /// the ticks' √ratios.
    #[test]
    fn tick_search_equals_a_plain_bisection(p in tick_price()) {
        prop_assert_eq!(tick_at_sqrt_ratio(W::from_u256(p)).ok(), Some(tick_plain(p)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// `amount_out`, `amount_in_exact_out` and `exact_offer` run the loop without fee growth:
    /// their answers and errors equal those of the full loop, and the state after a swap has
    /// the contract's tick (`getTickAtSqrtRatio` of its price, or the tick below a crossed one).
    #[test]
    fn the_verbs_without_fee_growth_equal_the_full_loop(
        pool in crate::props_cl::cl_pool(),
        dx in (1u64.., 0usize..100).prop_map(|(m, s)| U256::from(m) << s),
        z in any::<bool>(),
    ) {
        let (i, j) = if z { (0, 1) } else { (1, 0) };
        let full = pool.swap(i, j, dx);
        prop_assert_eq!(pool.amount_out(i, j, dx), full.as_ref().map(|(o, _)| *o).map_err(Clone::clone));
        let limit = if z { MIN_SQRT_RATIO.to_u256() + 1 } else { MAX_SQRT_RATIO.to_u256() - 1 };
        let unbounded = pool.execute_swap(z, swapzap::pool::concentrated_liquidity::SwapAmount::ExactIn(dx), limit);
        if let Ok((out, after)) = full {
            let p = after.sqrt_price_x96();
            let t = after.tick();
            let on_crossed = sqrt_ratio_at_tick(t + 1).unwrap().to_u256() == p;
            prop_assert!(on_crossed || tick_at_sqrt_ratio(W::from_u256(p)).unwrap() == t);
            // Within the window the contract's own loop agrees.
            let u = unbounded.unwrap();
            prop_assert_eq!(u.amount_out, out);
            prop_assert_eq!(u.pool, after);
            let back = pool.amount_in_exact_out(i, j, out);
            let back_full = pool.execute_swap(z, swapzap::pool::concentrated_liquidity::SwapAmount::ExactOut(out), limit);
            if let (Ok(b), Ok(f)) = (&back, &back_full) {
                prop_assert_eq!(*b, f.amount_in);
            }
        } else {
            prop_assert!(pool.exact_offer(i, j, dx).map_or(true, |x| x < dx));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// Steps across whole segments taken from the tick table equal `computeSwapStep` run for
    /// every step: either direction, exact input or output, amounts that cross many segments
    /// or stop inside one, on random positions and on the extremes (ticks at the range's ends,
    /// liquidity near 2^128); with price limits at, next to and short of the first step's
    /// target (the step the table keeps for the pool's own state); also from a state resting
    /// on a known tick (a swap that ended on it), where the first step is already a whole
    /// segment; with and without a protocol fee. Amounts, price, tick, liquidity,
    /// fee growth and balances are equal, and so are the errors.
    #[test]
    fn whole_segment_steps_from_the_table_equal_the_computed_steps(
        pool in prop_oneof![crate::props_cl::cl_pool(), crate::props_cl_ref::extreme_pool()],
        amount in (1u64.., 0usize..200).prop_map(|(m, s)| U256::from(m) << s),
        z in any::<bool>(), exact_in in any::<bool>(), k in any::<prop::sample::Index>(),
        proto in prop_oneof![Just(0u8), Just(0x40u8), Just(0x04u8), Just(0xa6u8)],
    ) {
        use swapzap::pool::concentrated_liquidity::SwapAmount;
        // Fee growth near its wrap-around, and a protocol share (the table's fee growth of a
        // known step holds only without one).
        let pool = pool.with_fees(proto, [U256::MAX - 5, U256::from(7u8)], [u128::MAX - 3, 0]).unwrap();
        let amount = amount.min((U256::one() << 255) - 1);
        let end = if z { MIN_SQRT_RATIO.to_u256() + 1 } else { MAX_SQRT_RATIO.to_u256() - 1 };
        let a = if exact_in { SwapAmount::ExactIn(amount) } else { SwapAmount::ExactOut(amount) };
        let from_table = pool.execute_swap(z, a, end);
        let computed = pool.execute_swap_stepwise(z, a, end);
        prop_assert_eq!(&from_table, &computed);
        let p = pool.sqrt_price_x96();
        let on: Vec<U256> = pool.ticks().iter()
            .map(|t| sqrt_ratio_at_tick(t.index).unwrap().to_u256())
            .filter(|r| if z { *r < p && *r > end } else { *r > p && *r < end })
            .collect();
        // The first step from the pool's own state (kept by the table): price limits at the
        // nearest known tick that way (its target when that tick is in the word), one unit
        // either side of it, and halfway to it.
        let nearest = if z { on.last() } else { on.first() };
        if let Some(&t) = nearest {
            for lim in [t, t - 1, t + 1, (t + p) / 2] {
                let ok = if z { lim < p && lim > end } else { lim > p && lim < end };
                if ok {
                    prop_assert_eq!(pool.execute_swap(z, a, lim), pool.execute_swap_stepwise(z, a, lim));
                }
            }
        }
        // A state on a known tick that way: swap to its √ratio first, then on from there.
        if !on.is_empty() {
            let stop = on[k.index(on.len())];
            let big = SwapAmount::ExactIn((U256::one() << 254) - 1);
            if let Ok(first) = pool.execute_swap(z, big, stop) {
                prop_assert_eq!(first.pool.sqrt_price_x96(), stop);
                let next = &first.pool;
                prop_assert_eq!(next.execute_swap(z, a, end), next.execute_swap_stepwise(z, a, end));
            }
        }
    }
}

/// The states a one-step swap may start from: the pool as built, after a swap either way that
/// stops between ticks (its tick left as bounds), or resting on a known tick's √ratio (a swap
/// that ended on it, the `k`-th of the known ticks).
fn start_state(
    pool: &ConcentratedLiquidity,
    pre: u8,
    amount: U256,
    k: prop::sample::Index,
) -> ConcentratedLiquidity {
    use swapzap::pool::concentrated_liquidity::SwapAmount;
    let moved = match pre {
        1 => pool.swap(0, 1, amount).ok().map(|r| r.1),
        2 => pool.swap(1, 0, amount).ok().map(|r| r.1),
        3 => {
            let p = pool.sqrt_price_x96();
            let on: Vec<U256> = pool
                .ticks()
                .iter()
                .map(|t| sqrt_ratio_at_tick(t.index).unwrap().to_u256())
                .filter(|r| {
                    *r != p && *r > MIN_SQRT_RATIO.to_u256() && *r < MAX_SQRT_RATIO.to_u256()
                })
                .collect();
            (!on.is_empty())
                .then(|| on[k.index(on.len())])
                .and_then(|stop| {
                    let big = SwapAmount::ExactIn((U256::one() << 254) - 1);
                    pool.execute_swap(stop < p, big, stop).ok().map(|s| s.pool)
                })
        }
        _ => None,
    };
    moved.unwrap_or_else(|| pool.clone())
}

/// The inputs that just reach the first step's possible targets from `state` going `z`: the
/// nearest known tick that way and the edge of the bitmap word, each with the amounts one and
/// two units either side, a thousandth short of it, and a half, 1/64 and 1/4096 of it.
fn first_target_amounts(state: &ConcentratedLiquidity, z: bool) -> Vec<U256> {
    use swapzap::pool::concentrated_liquidity::SwapAmount;
    let (t, s) = (state.tick(), state.tick_spacing());
    let c = t.div_euclid(s);
    let edge = if z {
        ((c >> 8) << 8) * s
    } else {
        ((((c + 1) >> 8) << 8) + 255) * s
    };
    let known = if z {
        state
            .ticks()
            .iter()
            .rev()
            .find(|x| x.index <= t)
            .map(|x| x.index)
    } else {
        state.ticks().iter().find(|x| x.index > t).map(|x| x.index)
    };
    let mut out = Vec::new();
    for target in [Some(edge), known].into_iter().flatten() {
        let target = target.clamp(MIN_TICK, MAX_TICK);
        let limit = sqrt_ratio_at_tick(target).unwrap().to_u256();
        let big = SwapAmount::ExactIn((U256::one() << 254) - 1);
        if let Ok(r) = state.execute_swap(z, big, limit) {
            let x = r.amount_in;
            out.extend([x / 4096, x / 64, x / 2, x - x / 1000, x + 2]);
            out.extend((1..=2u8).filter_map(|d| x.checked_sub(U256::from(d))));
            out.extend([x, x + 1]);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// `swap` and `amount_out` take a swap that ends inside the current segment in one step,
    /// without the loop (`swap_in_segment`): they equal the loop (`swap_by_loop`,
    /// `amount_out_by_loop`), answers and errors, both directions, on random pools and the
    /// extremes (ticks at the range's ends, liquidity near 2^128), from the pool as built,
    /// from a state a swap left between ticks (its tick not settled) and from one resting on
    /// a known tick, with amounts that just reach, just miss or halve the first step's targets
    /// (the next known tick, the word's edge), with and without a protocol fee, fee growth
    /// near its wrap-around. The state after a one-step swap has the loop's tick and the next
    /// swap from it, either way, equals the loop's.
    #[test]
    fn one_step_swaps_equal_the_loop(
        pool in prop_oneof![crate::props_cl::cl_pool(), crate::props_cl_ref::extreme_pool()],
        pre in 0u8..4,
        pre_amount in (1u64.., 0usize..150).prop_map(|(m, s)| U256::from(m) << s),
        amount in (1u64.., 0usize..200).prop_map(|(m, s)| U256::from(m) << s),
        z in any::<bool>(), k in any::<prop::sample::Index>(),
        proto in prop_oneof![Just(0u8), Just(0x44u8), Just(0xa6u8)],
    ) {
        let pool = pool.with_fees(proto, [U256::MAX - 5, U256::from(7u8)], [u128::MAX - 3, 0]).unwrap();
        let state = start_state(&pool, pre, pre_amount, k);
        let (i, j) = if z { (0, 1) } else { (1, 0) };
        let mut amounts = first_target_amounts(&state, z);
        amounts.push(amount.min((U256::one() << 255) - 1));
        for dx in amounts.into_iter().filter(|x| !x.is_zero()) {
            let by_loop = state.swap_by_loop(i, j, dx);
            prop_assert_eq!(&state.swap(i, j, dx), &by_loop);
            prop_assert_eq!(state.amount_out(i, j, dx), state.amount_out_by_loop(i, j, dx));
            if let Some(fast) = state.swap_in_segment(i, j, dx) {
                let (o, b) = by_loop.clone().unwrap();
                prop_assert_eq!(fast.0, o);
                prop_assert_eq!(&fast.1, &b);
                prop_assert_eq!(fast.1.tick(), b.tick());
                for (ii, jj) in [(0, 1), (1, 0)] {
                    prop_assert_eq!(fast.1.swap(ii, jj, amount), b.swap_by_loop(ii, jj, amount));
                }
            }
        }
    }
}

/// On the bench's pool (21 nested positions, spacing 60) the one-step path takes every
/// within-a-tick swap of either direction, from the pool as built, from a state a swap left
/// between ticks and from one resting on a tick it crossed going down (except upward from
/// there: the loop's first step is then an empty one that crosses that tick back), and hands
/// every swap that crosses a tick to the loop; both agree with the loop.
#[test]
fn one_step_swaps_take_the_swaps_within_a_tick() {
    use swapzap::pool::concentrated_liquidity::{SwapAmount, Tick};
    let l: i128 = 2_000_000_000_000_000_000;
    let center = 7_680;
    let mut ticks: Vec<Tick> = (0..=20)
        .map(|k| Tick {
            index: center - k * 60,
            liquidity_net: l,
            liquidity_gross: l as u128,
        })
        .chain((0..=20).map(|k| Tick {
            index: center + (k + 1) * 60,
            liquidity_net: -l,
            liquidity_gross: l as u128,
        }))
        .collect();
    ticks.sort_by_key(|t| t.index);
    let p = sqrt_ratio_at_tick(center + 30).unwrap().to_u256() + U256::from(12_345u32);
    let pool = ConcentratedLiquidity::new(p, center + 30, 21 * l as u128, 3000, 60, ticks).unwrap();
    let moved = pool.swap(1, 0, U256::from(1_000_000u32)).unwrap().1;
    let big = SwapAmount::ExactIn((U256::one() << 254) - 1);
    let on_tick = pool
        .execute_swap(true, big, sqrt_ratio_at_tick(center).unwrap().to_u256())
        .unwrap()
        .pool;
    let mut taken = 0;
    for (n, state) in [&pool, &moved, &on_tick].into_iter().enumerate() {
        for z in [true, false] {
            let one_step = n < 2 || z;
            let (i, j) = if z { (0, 1) } else { (1, 0) };
            let next = if z {
                state.ticks().iter().rev().find(|t| {
                    t.index <= state.tick()
                        && sqrt_ratio_at_tick(t.index).unwrap().to_u256() < state.sqrt_price_x96()
                })
            } else {
                state.ticks().iter().find(|t| {
                    sqrt_ratio_at_tick(t.index).unwrap().to_u256() > state.sqrt_price_x96()
                })
            }
            .unwrap();
            let limit = sqrt_ratio_at_tick(next.index).unwrap().to_u256();
            let reach = state.execute_swap(z, big, limit).unwrap().amount_in;
            for k in 1..=64u32 {
                let dx = reach * U256::from(k) / U256::from(64u32);
                let by_loop = state.swap_by_loop(i, j, dx).unwrap();
                let fast = state.swap_in_segment(i, j, dx);
                if k < 64 && one_step {
                    assert_eq!(fast.as_ref(), Some(&by_loop), "{k} {z}");
                    taken += 1;
                } else if k < 64 {
                    assert!(fast.is_none());
                } else {
                    assert!(fast.is_none(), "{z}: reaches the tick");
                }
                let cross = reach + dx;
                assert!(state.swap_in_segment(i, j, cross).is_none());
                assert_eq!(state.swap(i, j, cross), state.swap_by_loop(i, j, cross));
            }
        }
    }
    assert_eq!(taken, 5 * 63);
}
