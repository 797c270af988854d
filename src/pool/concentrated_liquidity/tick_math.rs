//! `TickMath`: tick ↔ √price (Q64.96), bit for bit.
//!
//! √ratio(t) multiplies, for each set bit `i` of |t|, a Q128 factor round(2^128 / √1.0001^(2^i))
//! into a Q128 accumulator (each product floored `>> 128`), inverts it as `(2^256 − 1) / ratio`
//! for t > 0, and converts Q128 → Q96 rounding up. The inverse, [`tick_at_sqrt_ratio`], is by
//! definition the greatest t with √ratio(t) ≤ p: a float logarithm guesses it and exact
//! evaluations of [`sqrt_ratio_at_tick`] settle it, so the float never decides the answer.
#![allow(clippy::arithmetic_side_effects)] // every op below is guarded; see the comment at each.

use crate::error::{PoolError, PoolRevert};
use crate::math::wide::mul_128;
use crate::math::W;

/// The lowest tick a price can reach (`TickMath.MIN_TICK`).
pub const MIN_TICK: i32 = -887_272;
/// The highest tick (`TickMath.MAX_TICK`).
pub const MAX_TICK: i32 = 887_272;
/// √ratio(MIN_TICK) (`TickMath.MIN_SQRT_RATIO`).
pub const MIN_SQRT_RATIO: W = W::small(4_295_128_739);
/// √ratio(MAX_TICK) (`TickMath.MAX_SQRT_RATIO`), 1461446703485210103287273052203988822378723970342.
pub const MAX_SQRT_RATIO: W = W {
    hi: 0xfffd8963,
    lo: 0xefd1fc6a506488495d951d5263988d26,
};

/// round(2^128 / √1.0001^(2^i)) for i = 0..20 (recomputed from the definition with 120-digit
/// decimals; they equal the contract's constants).
const FACTORS: [u128; 20] = [
    0xfffcb933bd6fad37aa2d162d1a594001,
    0xfff97272373d413259a46990580e213a,
    0xfff2e50f5f656932ef12357cf3c7fdcc,
    0xffe5caca7e10e4e61c3624eaa0941cd0,
    0xffcb9843d60f6159c9db58835c926644,
    0xff973b41fa98c081472e6896dfb254c0,
    0xff2ea16466c96a3843ec78b326b52861,
    0xfe5dee046a99a2a811c461f1969c3053,
    0xfcbe86c7900a88aedcffc83b479aa3a4,
    0xf987a7253ac413176f2b074cf7815e54,
    0xf3392b0822b70005940c7a398e4b70f3,
    0xe7159475a2c29b7443b29c7fa6e889d9,
    0xd097f3bdfd2022b8845ad8f792aa5825,
    0xa9f746462d870fdf8a65dc1f90e061e5,
    0x70d869a156d2a1b890bb3df62baf32f7,
    0x31be135f97d08fd981231505542fcfa6,
    0x09aa508b5b7a84e1c677de54f3e99bc9,
    0x005d6af8dedb81196699c329225ee604,
    0x00002216e584f5fa1ea926041bedfe98,
    0x0000000048a170391f7dc42444e8fa2,
];

/// The contract's accumulator after the factors of the low 8 bits of |tick| (index: those
/// bits; 0 stands for the start value 2^128, which no product reaches). The contract multiplies
/// the factors from bit 0 upwards, flooring each product, so its accumulator after bit 7
/// depends on the low 8 bits alone: the table holds exactly those values, computed at compile
/// time by the same products.
const LOW8: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut k = 1;
    while k < 256 {
        let mut r = 0u128;
        let mut i = 0;
        while i < 8 {
            if k & (1 << i) != 0 {
                r = if r == 0 {
                    FACTORS[i]
                } else {
                    mul_128(r, FACTORS[i]).0
                };
            }
            i += 1;
        }
        table[k] = r;
        k += 1;
    }
    table
};

/// The contract's Q128 accumulator for |tick| = `abs` before the inversion of positive ticks
/// (`None` for the starting value 2^128, at tick 0, which does not fit a u128): the low 8
/// bits from [`LOW8`], then one product per set bit above them, in the contract's order.
#[inline]
fn q128_product(abs: u32) -> Option<u128> {
    // The product of a factor c with the start 2^128, shifted right by 128, is c itself.
    let mut ratio = LOW8.get((abs & 0xff) as usize).copied().filter(|&r| r != 0);
    let mut bits = abs >> 8;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let Some(&c) = FACTORS.get(i + 8) else {
            // |tick| < 2^20: no bit above 19 is set.
            break;
        };
        ratio = Some(match ratio {
            None => c,
            // Both < 2^128: the high half of the product is the contract's `>> 128`.
            Some(r) => mul_128(r, c).0,
        });
    }
    ratio
}

/// [`q128_product`] the contract's way, one bit at a time (the reference of the table).
#[cfg(test)]
fn q128_product_plain(abs: u32) -> Option<u128> {
    let mut ratio: Option<u128> = None;
    for (i, &c) in FACTORS.iter().enumerate() {
        if abs & (1u32 << i) != 0 {
            ratio = Some(match ratio {
                None => c,
                Some(r) => mul_128(r, c).0,
            });
        }
    }
    ratio
}

/// Whether `sqrt_ratio_at_tick(tick) <= p`, exactly, with multiplications only (no division
/// for positive ticks).
///
/// For a positive tick the contract's value is `ceil(q / 2^32)` with `q = floor((2^256 − 1) /
/// r)`; `ceil(q / 2^32) <= p` ⟺ `q <= p·2^32` ⟺ `2^256 − 1 < (p·2^32 + 1)·r` ⟺ that product
/// reaches 2^256. Otherwise it is `ceil(r / 2^32) <= p` ⟺ `r <= p·2^32`.
///
/// # Errors
/// [`PoolError::Revert`] `T` ([`PoolRevert::TickOutOfRange`]) when |tick| > 887272.
#[inline]
pub(crate) fn sqrt_ratio_at_tick_le(tick: i32, p: W) -> Result<bool, PoolError> {
    let abs = tick.unsigned_abs();
    if abs > MAX_TICK.unsigned_abs() {
        return Err(PoolError::Revert(PoolRevert::TickOutOfRange { tick }));
    }
    if p.hi >> 96 != 0 {
        // p >= 2^224, above every √ratio (all below 2^161).
        return Ok(true);
    }
    // p·2^32 < 2^256: exact.
    let x = W {
        hi: (p.hi << 32) | (p.lo >> 96),
        lo: p.lo << 32,
    };
    Ok(match q128_product(abs) {
        None => W::small(1 << 96) <= p,
        Some(r) if tick > 0 => match x.checked_add(W::ONE) {
            Some(x1) => x1.checked_mul(W::small(r)).is_none(),
            None => true,
        },
        Some(r) => W::small(r) <= x,
    })
}

/// `TickMath.getSqrtRatioAtTick`: √(1.0001^tick) · 2^96, as the contract rounds it.
///
/// # Errors
/// [`PoolError::Revert`] `T` ([`PoolRevert::TickOutOfRange`]) when |tick| > 887272.
#[inline]
pub fn sqrt_ratio_at_tick(tick: i32) -> Result<W, PoolError> {
    let abs = tick.unsigned_abs();
    if abs > MAX_TICK.unsigned_abs() {
        return Err(PoolError::Revert(PoolRevert::TickOutOfRange { tick }));
    }
    let q128 = match q128_product(abs) {
        // tick == 0: ratio is exactly 2^128.
        None => W { hi: 1, lo: 0 },
        Some(r) if tick > 0 => {
            // (2^256 − 1) / r; r > 0 because every factor product above stays ≥ 2^32.
            W {
                hi: u128::MAX,
                lo: u128::MAX,
            }
            .checked_div_rem(W::small(r))
            .map_or(W::ZERO, |(q, _)| q)
        }
        Some(r) => W::small(r),
    };
    // Q128 → Q96, rounding up. The result is < 2^160 (q128 < 2^192 at the largest tick), so
    // adding 1 cannot overflow.
    let shifted = W {
        hi: q128.hi >> 32,
        lo: (q128.lo >> 32) | (q128.hi << 96),
    };
    let up = u128::from(q128.lo & 0xffff_ffff != 0);
    Ok(shifted.checked_add(W::small(up)).unwrap_or(shifted))
}

/// `TickMath.getTickAtSqrtRatio`: the greatest tick `t` with `sqrt_ratio_at_tick(t) <= p`.
///
/// # Errors
/// [`PoolError::Revert`] `R` ([`PoolRevert::SqrtRatioOutOfRange`]) unless `MIN_SQRT_RATIO <= p < MAX_SQRT_RATIO`.
#[inline]
pub fn tick_at_sqrt_ratio(p: W) -> Result<i32, PoolError> {
    if p < MIN_SQRT_RATIO || p >= MAX_SQRT_RATIO {
        return Err(PoolError::Revert(PoolRevert::SqrtRatioOutOfRange));
    }
    tick_at_sqrt_ratio_between(p, MIN_TICK, MAX_TICK - 1)
}

/// `2 / log2(1.0001)`: ticks per unit of `log2(√price)` (40 digits: 13863.63674682759071039…).
const TICKS_PER_LOG2: f64 = 13_863.636_746_827_59;

/// How far (in ticks) the float tick estimate of [`tick_at_sqrt_ratio_between`] must lie from
/// an integer for its floor to be certain: 2^-10, about a hundred times the error it covers.
const TICK_MARGIN: f64 = 1.0 / 1024.0;

/// The greatest tick `t` in `lo..=hi` with `sqrt_ratio_at_tick(t) <= p`, for bounds the caller
/// knows, `sqrt_ratio_at_tick(lo) <= p < sqrt_ratio_at_tick(hi + 1)` (then it is
/// [`tick_at_sqrt_ratio`]`(p)`; with bounds that do not hold, the nearest bound). A float logarithm
/// estimates the tick; when the estimate lies at least [`TICK_MARGIN`] from an integer its floor
/// is the answer (see below), else exact comparisons settle it: two of them when the guess is
/// right and strictly inside the bounds, one at a bound.
///
/// Why a floor clear of the margin is exact: let `τ = 2·log_1.0001(p / 2^96)`. `TickMath`'s
/// value is `√1.0001^t · 2^96 · (1 + e)` with `|e| < 2^-31`: its constants and its floored
/// Q128 products are within 2^-58 relative (every accumulator stays above 2^64), and the
/// final Q128 → Q96 rounding up adds less than one unit to a value of at least
/// `MIN_SQRT_RATIO` > 2^32. A relative `e` moves the tick a value stands for by
/// `2·ln(1 + e) / ln(1.0001)` < 1e-5 ticks, so `t + 1e-5 <= τ` gives
/// `sqrt_ratio_at_tick(t) <= p` and `τ <= t + 1 − 1e-5` gives `p < sqrt_ratio_at_tick(t + 1)`.
/// The estimate is within 1e-8 ticks of `τ` (the logarithm's series stops below 1e-16 in
/// log2, its roundings are near 2^-44 of values below 256, times [`TICKS_PER_LOG2`]; measured
/// against 40-digit logarithms on random prices over the range: at most 4e-10): a fraction
/// in `[2^-10, 1 − 2^-10]` puts `τ` more than 9e-4 from both integers. The float decides
/// nothing the exact comparisons would not; the unit test
/// `tick_by_the_margin_equals_the_exact_search` checks it at, next to and between sampled
/// ticks' √ratios over the whole range, and `props_cl_fast` against a plain bisection.
///
/// # Errors
/// [`PoolError::Revert`]`("T")` for a bound beyond ±887272.
#[inline]
pub(crate) fn tick_at_sqrt_ratio_between(p: W, lo: i32, hi: i32) -> Result<i32, PoolError> {
    // Estimate: tick ≈ 2·log(p / 2^96) / log(1.0001), floored.
    let est = (log2_w(p) - 96.0) * TICKS_PER_LOG2;
    // `as` truncates toward zero and saturates (no `floor` without std): step down once for
    // a negative fraction. |est| < 2^21, so `t as f64` and `est − t` are exact.
    let t = est as i64;
    let t = if (t as f64) > est { t - 1 } else { t };
    let frac = est - t as f64;
    if (TICK_MARGIN..=1.0 - TICK_MARGIN).contains(&frac)
        && (i64::from(lo)..=i64::from(hi)).contains(&t)
        && (i64::from(MIN_TICK)..i64::from(MAX_TICK)).contains(&t)
    {
        // Certain (see above), and within the bounds and the range (no `T` to report).
        return Ok(t as i32);
    }
    let mut t = t.clamp(i64::from(lo), i64::from(hi.max(lo))) as i32;
    // √ratio is strictly increasing, so the loops end on the greatest tick of the bounds at
    // or below p; a wrong guess only costs more comparisons.
    while t > lo && !sqrt_ratio_at_tick_le(t, p)? {
        t -= 1;
    }
    while t < hi && sqrt_ratio_at_tick_le(t + 1, p)? {
        t += 1;
    }
    Ok(t)
}

/// log2 of a positive 256-bit value as a float (the tick estimate; its error is bounded in
/// [`tick_at_sqrt_ratio_between`]'s docs).
fn log2_w(x: W) -> f64 {
    let bits = if x.hi != 0 {
        256 - x.hi.leading_zeros()
    } else {
        128 - x.lo.leading_zeros()
    };
    // The top 64 bits as a mantissa m in [2^63, 2^64): x ≈ m · 2^(bits − 64).
    let top = if bits > 64 {
        let s = bits - 64;
        if s >= 128 {
            (x.hi >> (s - 128)) as u64
        } else if s == 0 {
            x.lo as u64
        } else {
            ((x.lo >> s) | (x.hi << (128 - s))) as u64
        }
    } else {
        (x.lo << (64 - bits)) as u64
    };
    // m / 2^63 in [1, 2), divided by the nearest 2^(j/4) (j = 0..=4, the split points at
    // 2^((2j − 1)/8)) into [2^-1/8, 2^1/8); log2 of that by ln(m) = 2·atanh((m − 1)/(m + 1)).
    let m = top as f64 / 9_223_372_036_854_775_808.0;
    // 2^((2j + 1)/8) for j = 0..4.
    const SPLIT: [f64; 4] = [
        1.090_507_732_665_257_7,
        1.296_839_554_651_009_6,
        1.542_210_825_407_940_7,
        1.834_008_086_409_342_4,
    ];
    // 2^(-j/4) for j = 0..=4.
    const INV_ROOT: [f64; 5] = [
        1.0,
        0.840_896_415_253_714_5,
        core::f64::consts::FRAC_1_SQRT_2,
        0.594_603_557_501_360_5,
        0.5,
    ];
    let j = SPLIT.iter().filter(|&&x| m >= x).count();
    let m = m * INV_ROOT.get(j).copied().unwrap_or(1.0);
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    // |z| <= (2^(1/8) − 1)/(2^(1/8) + 1) < 0.0433: after five odd terms the rest is below
    // 1e-16 (and the reduction's rounding below 2e-16) in log2.
    // 1 / (2k + 1): multiplications instead of float divisions.
    const INV_ODD: [f64; 5] = [1.0, 1.0 / 3.0, 1.0 / 5.0, 1.0 / 7.0, 1.0 / 9.0];
    let mut term = z;
    let mut sum = 0.0;
    for inv in INV_ODD {
        sum += term * inv;
        term *= z2;
    }
    // j <= 4: exact.
    f64::from(bits) - 1.0 + j as f64 * 0.25 + 2.0 * sum * core::f64::consts::LOG2_E
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn ends_and_zero() {
        assert_eq!(sqrt_ratio_at_tick(MIN_TICK).unwrap(), MIN_SQRT_RATIO);
        assert_eq!(sqrt_ratio_at_tick(MAX_TICK).unwrap(), MAX_SQRT_RATIO);
        assert_eq!(sqrt_ratio_at_tick(0).unwrap(), W { hi: 0, lo: 1 << 96 });
        assert!(sqrt_ratio_at_tick(MAX_TICK + 1).is_err());
        assert!(sqrt_ratio_at_tick(MIN_TICK - 1).is_err());
        assert_eq!(tick_at_sqrt_ratio(MIN_SQRT_RATIO).unwrap(), MIN_TICK);
        assert!(tick_at_sqrt_ratio(MAX_SQRT_RATIO).is_err());
    }

    /// The multiplication-only comparison equals comparing with the evaluated √ratio, at,
    /// just below and just above each sampled tick's value.
    #[test]
    fn sqrt_ratio_le_matches_the_value() {
        let mut t = MIN_TICK;
        while t <= MAX_TICK {
            let r = sqrt_ratio_at_tick(t).unwrap();
            for p in [
                r.checked_sub(W::ONE).unwrap(),
                r,
                r.checked_add(W::ONE).unwrap(),
            ] {
                assert_eq!(sqrt_ratio_at_tick_le(t, p).unwrap(), r <= p, "tick {t}");
            }
            t += if t.abs() < 3000 { 1 } else { 331 };
        }
        assert!(sqrt_ratio_at_tick_le(MAX_TICK + 1, W::ONE).is_err());
    }

    /// The table of the low 8 bits gives the contract's accumulator for every tick.
    #[test]
    fn q128_product_table_matches_the_contracts_order_for_every_tick() {
        for abs in 0..=MAX_TICK.unsigned_abs() {
            assert_eq!(q128_product(abs), q128_product_plain(abs), "|tick| {abs}");
        }
    }

    /// The bounded search equals the unbounded one whenever its bounds hold, including bounds
    /// that exclude the float guess and a bound on the answer itself.
    #[test]
    fn bounded_search_matches_the_full_search() {
        let mut t = MIN_TICK + 2;
        while t < MAX_TICK - 2 {
            let r = sqrt_ratio_at_tick(t).unwrap();
            let next = sqrt_ratio_at_tick(t + 1).unwrap();
            for p in [
                r,
                r.checked_add(W::ONE).unwrap(),
                next.checked_sub(W::ONE).unwrap(),
            ] {
                let want = tick_at_sqrt_ratio(p).unwrap();
                assert_eq!(want, t);
                for (lo, hi) in [
                    (t, t),
                    (t - 2, t),
                    (t, t + 2),
                    (t - 2, t + 2),
                    (MIN_TICK, t),
                ] {
                    assert_eq!(
                        tick_at_sqrt_ratio_between(p, lo, hi).unwrap(),
                        want,
                        "{t} {lo} {hi}"
                    );
                }
            }
            t += if t.abs() < 2000 { 1 } else { 877 };
        }
    }

    /// The greatest tick at or below `p` by bisection on the exact values (no float).
    fn tick_by_bisection(p: W) -> i32 {
        let (mut lo, mut hi) = (MIN_TICK, MAX_TICK);
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if sqrt_ratio_at_tick(mid).unwrap() <= p {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// The estimate taken whole when it lies [`TICK_MARGIN`] clear of an integer equals the
    /// exact bisection: at each sampled tick's √ratio, one unit either side, the midpoint to
    /// the next tick and points a small fraction of a tick inside either end (where the
    /// margin hands over to the exact comparisons), over the whole range.
    #[test]
    fn tick_by_the_margin_equals_the_exact_search() {
        let mut t = MIN_TICK;
        let mut certain = 0u32;
        while t < MAX_TICK {
            let r = sqrt_ratio_at_tick(t).unwrap();
            let next = sqrt_ratio_at_tick(t + 1).unwrap();
            let w = next.checked_sub(r).unwrap();
            let part = |n: u128, d: u128| {
                r.checked_add(
                    crate::math::wide::div_w_by_128(crate::math::wide::mul_w_128(w, n).unwrap(), d)
                        .0,
                )
                .unwrap()
            };
            let mut ps = vec![
                r,
                r.checked_add(W::ONE).unwrap(),
                next.checked_sub(W::ONE).unwrap(),
            ];
            if t > MIN_TICK {
                ps.push(r.checked_sub(W::ONE).unwrap());
            }
            for (n, d) in [
                (1, 2),
                (1, 1000),
                (1, 1100),
                (1, 900),
                (999, 1000),
                (1023, 1024),
                (3, 7),
            ] {
                ps.push(part(n, d));
            }
            for p in ps {
                let want = tick_by_bisection(p);
                let got = tick_at_sqrt_ratio(p).unwrap();
                assert_eq!(got, want, "tick {t} p {p:?}");
                let est = (log2_w(p) - 96.0) * TICKS_PER_LOG2;
                let frac = est - libm_floor(est);
                certain += u32::from((TICK_MARGIN..=1.0 - TICK_MARGIN).contains(&frac));
                // Bounds around the answer, as the swap loop gives them.
                for (lo, hi) in [(want - 3, want), (want, want + 5), (want, want)] {
                    if lo >= MIN_TICK && hi < MAX_TICK {
                        assert_eq!(tick_at_sqrt_ratio_between(p, lo, hi).unwrap(), want);
                    }
                }
            }
            t += if t.abs() < 3000 { 1 } else { 97 };
        }
        // Most points away from the ends were taken by the margin.
        assert!(certain > 20_000, "{certain}");
    }

    /// `floor` without std (|x| < 2^52).
    fn libm_floor(x: f64) -> f64 {
        let t = x as i64 as f64;
        if t > x {
            t - 1.0
        } else {
            t
        }
    }

    #[test]
    fn round_trip_every_thousandth_tick() {
        let mut t = MIN_TICK + 1;
        while t < MAX_TICK {
            let p = sqrt_ratio_at_tick(t).unwrap();
            assert_eq!(tick_at_sqrt_ratio(p).unwrap(), t);
            assert_eq!(
                tick_at_sqrt_ratio(p.checked_sub(W::ONE).unwrap()).unwrap(),
                t - 1
            );
            t += 997;
        }
    }
}
