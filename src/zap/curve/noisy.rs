//! The rounding-noise pass of the Curve zap-in ([`polish`]).
//!
//! When the deposit is worth only some thousands to millions of raw units of a coin (dust in a
//! 6- or 8-decimal coin), `minted(s)` is a smooth curve plus the integer roundings of the plan,
//! each worth up to one raw unit of a coin: the swap's output (floored), and in NG's
//! `add_liquidity` each coin's imbalance fee (floored in raw units). Each is a slow saw-tooth
//! in `s`, so over a wide flat optimum the mint moves up and down by a few raw units' worth,
//! which can be well above the 1e-6 target (3e-5 of the mint for a deposit of 48,190 raw
//! units). The best plan is where the roundings all fall the user's way, anywhere on the
//! flat top: the golden section and the local scans land on one tooth of it, by chance (six
//! generated NG states of `zap_ng`'s long test missed the brute-force best so, by 0.011 to 0.25
//! bps).
//!
//! So where the roundings ([`noise`]) are worth more than [`NOISE_FLOOR`] of the mint, each
//! ordered pair whose searched best is within 1.5 noise widths of the best plan is sampled on
//! [`SAMPLES`] evenly spaced points, over the swap's output where the output coin is the
//! coarser (each output bought with the least input for it: the rest of a tooth only gives
//! input away) and over its input otherwise; every interval between samples that could hold a
//! better plan (an end within 1.5 noise widths of the best, or the pair's searched best inside)
//! is scanned unit by unit, the intervals whose surrounding samples are highest first, up to
//! [`BUDGET`] exact evaluations for the zap. Every value is an exact simulation; the float
//! model only sizes the noise.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{Best, Found, EXHAUSTIVE};
use crate::math::float::to_f64;
use crate::model::curve::Curve;
use crate::pool::Pool;
use primitive_types::U256;

/// Below this relative worth of the plan's roundings ([`noise`], against the mint), the
/// searches' answer stands: what the roundings can move the mint is well inside the 1e-6
/// target. For a 2-coin pool of 6-decimal coins that is a deposit above about 10 million raw
/// units (10 coins).
const NOISE_FLOOR: f64 = 3e-7;

/// Evenly spaced samples per ordered pair.
const SAMPLES: u32 = 128;

/// Exact evaluations the unit-by-unit scans may spend per zap, the samples not counted. On the
/// seven missed states, where the flat top spans up to 30,000 units, the plans found are within
/// 6.5e-7 of an exhaustive scan's best; the pass costs up to a few tens of milliseconds.
const BUDGET: u32 = 1 << 12;

/// One ordered pair as the searches left it: `(i, j, s, out, minted)` of its best plan.
pub(super) type PairBest = (usize, usize, U256, U256, U256);

/// How many LP units the plan's roundings can be worth, from the float model: one raw unit of
/// each coin (its imbalance fee) and one more of the coin whose raw unit mints the most (the
/// swap's output), each worth the model's marginal mint of a small addition of that coin.
#[allow(clippy::arithmetic_side_effects)] // f64
fn noise(md: &Curve, af: &[f64]) -> f64 {
    let f0 = md.minted(af, 0, 0, 0.0);
    let value: f64 = af.iter().enumerate().map(|(k, v)| v * md.unit(k)).sum();
    let (mut worst, mut sum) = (0.0f64, 0.0f64);
    for k in 0..af.len() {
        let unit = md.unit(k);
        if !(unit > 0.0) {
            continue;
        }
        // about 1e-4 of the deposit's value, in raw units of coin k (at least one)
        let h = (value * 1e-4 / unit).max(1.0);
        let mut b: alloc::vec::Vec<f64> = af.to_vec();
        if let Some(x) = b.get_mut(k) {
            *x += h;
        }
        let per_unit = (md.minted(&b, 0, 0, 0.0) - f0) / h;
        if per_unit.is_finite() && per_unit > 0.0 {
            worst = worst.max(per_unit);
            sum += per_unit;
        }
    }
    sum + worst
}

/// One interval `[lo, hi]` of pair `(i, j)` to scan, over the swap's input or (`by_out`) its
/// output, with its ranking score.
struct Span {
    score: f64,
    i: usize,
    j: usize,
    by_out: bool,
    lo: U256,
    hi: U256,
}

/// The mint at point `x` of pair `(i, j)`: the plan swapping `x`, or (`by_out`) the least input
/// that buys `x` ([`Pool::amount_in`]; 0 when there is none up to `ai`). Kept in `b`.
fn value(
    pool: &Pool,
    a: &[U256],
    (i, j, by_out): (usize, usize, bool),
    x: U256,
    ai: U256,
    b: &mut Best,
) -> U256 {
    let s = if by_out {
        match pool.amount_in(i, j, x) {
            Ok(s) if !s.is_zero() && s <= ai => s,
            _ => return U256::zero(),
        }
    } else {
        x
    };
    b.minted_at(pool, a, i, j, s)
}

/// Scans where rounding noise can hide a better plan (see the module docs), taking into `best`
/// any plan that mints more. `pairs` are the searched pairs' best plans; `direct` the direct
/// add's mint (the value at `s = 0`). Nothing to do where the noise is far below the best
/// mint; else the spans worth scanning ([`spans`]), scanned best score first ([`scan`]).
#[allow(clippy::arithmetic_side_effects)] // f64 only
pub(super) fn polish(
    pool: &Pool,
    a: &[U256],
    md: &Curve,
    pairs: &[PairBest],
    direct: U256,
    best: &mut Found,
) {
    let Some(top) = best.as_ref().map(|(_, e)| to_f64(e.minted)) else {
        return;
    };
    let af: alloc::vec::Vec<f64> = a.iter().map(|x| to_f64(*x)).collect();
    let nu = noise(md, &af);
    let (quiet, floor) = (!(nu > NOISE_FLOOR * top), top - 1.5 * nu);
    if quiet {
        return;
    }
    let mut spans = spans(pool, a, pairs, direct, floor);
    spans.sort_by(|x, y| y.score.total_cmp(&x.score));
    scan(pool, a, &spans, best);
}

/// The spans of the pairs whose best plan mints at least `floor`, sampled by [`sample_pair`].
#[allow(clippy::arithmetic_side_effects)] // f64 only
fn spans(
    pool: &Pool,
    a: &[U256],
    pairs: &[PairBest],
    direct: U256,
    floor: f64,
) -> alloc::vec::Vec<Span> {
    let mut spans: alloc::vec::Vec<Span> = alloc::vec::Vec::new();
    let small = U256::from(EXHAUSTIVE);
    for &(i, j, s_best, o_best, m_best) in pairs {
        let Some(&ai) = a.get(i) else { continue };
        if to_f64(m_best) < floor {
            continue;
        }
        // Where the output coin is the coarser (as in `search_pair_by_output`), over the
        // output: a plan buying `o` with more than the least input for it only gives input
        // away, so the best plans are among those least inputs (a drained 8-decimal coin
        // bought with 12.5 coins: a tooth every 37,805 units of input, and the imbalance fee's
        // floor in that coin a tooth every ~85 units of output; a generated state missed 0.04
        // bps so). Else over the input; pairs of at most EXHAUSTIVE units were searched unit by
        // unit already.
        // (Both start from the direct add: no swap, no output.)
        let o_max = pool.amount_out(i, j, ai).unwrap_or_default();
        let d = to_f64(direct);
        if o_max > small && o_max < ai {
            sample_pair(
                pool,
                a,
                (i, j, true),
                (o_max, ai),
                (o_best, d),
                floor,
                &mut spans,
            );
        } else if ai > small {
            sample_pair(
                pool,
                a,
                (i, j, false),
                (ai, ai),
                (s_best, d),
                floor,
                &mut spans,
            );
        }
    }
    spans
}

/// Every point of `spans`, in order, until [`BUDGET`] evaluations are spent; each span's best
/// plan taken into `best` when it mints more.
fn scan(pool: &Pool, a: &[U256], spans: &[Span], best: &mut Found) {
    let mut left = BUDGET;
    for sp in spans {
        let mut b = Best {
            best: None,
            evals: 0,
        };
        let ai = a.get(sp.i).copied().unwrap_or_default();
        let mut x = sp.lo;
        while x <= sp.hi && left > 0 {
            let _ = value(pool, a, (sp.i, sp.j, sp.by_out), x, ai, &mut b);
            left = left.saturating_sub(1);
            x = x.saturating_add(U256::one());
        }
        if let Some(e) = b.best {
            super::keep_better(best, Some((sp.i, sp.j)), e);
        }
        if left == 0 {
            break;
        }
    }
}

/// Samples pair `(i, j)` over its input or (`by_out`) its output on [`SAMPLES`] evenly spaced
/// points of `(0, end]` (`at0` the value at 0; `ai` the input held) and adds to `spans` each
/// interval with an end at or above `floor`, or holding the pair's searched best `x_best`,
/// scored by the mean of the four samples around it.
#[allow(clippy::arithmetic_side_effects)] // f64 only (U256 through saturating ops)
fn sample_pair(
    pool: &Pool,
    a: &[U256],
    (i, j, by_out): (usize, usize, bool),
    (end, ai): (U256, U256),
    (x_best, at0): (U256, f64),
    floor: f64,
    spans: &mut alloc::vec::Vec<Span>,
) {
    let mut b = Best {
        best: None,
        evals: 0,
    };
    let mut pts: alloc::vec::Vec<(U256, f64)> = alloc::vec::Vec::new();
    pts.push((U256::zero(), at0));
    for k in 1..=SAMPLES {
        let Ok(x) = crate::math::mul_div(end, U256::from(k), U256::from(SAMPLES)) else {
            continue;
        };
        if x.is_zero() || pts.last().is_some_and(|p| p.0 == x) {
            continue;
        }
        let m = value(pool, a, (i, j, by_out), x, ai, &mut b);
        pts.push((x, to_f64(m)));
    }
    let val = |k: usize| pts.get(k).map(|p| p.1);
    for k in 1..pts.len() {
        let (Some(&(lo, vl)), Some(&(hi, vh))) = (pts.get(k.saturating_sub(1)), pts.get(k)) else {
            continue;
        };
        let holds_best = x_best > lo && x_best <= hi;
        if !(vl >= floor || vh >= floor || holds_best) {
            continue;
        }
        let around = [
            k.checked_sub(2),
            k.checked_sub(1),
            Some(k),
            k.checked_add(1),
        ];
        let (sum, cnt) = around
            .iter()
            .filter_map(|x| x.and_then(val))
            .fold((0.0f64, 0.0f64), |(s, c), v| (s + v, c + 1.0));
        let score = sum / cnt;
        spans.push(Span {
            score,
            i,
            j,
            by_out,
            lo: lo.saturating_add(U256::one()),
            hi,
        });
    }
}
