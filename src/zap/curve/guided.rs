//! The fast path of the Curve zap-in: the float model ([`Curve::minted`]) finds the best pair
//! and swap, a handful of exact evaluations confirm it ([`best`]).
//!
//! Per ordered pair `(i, j)` with `a_i > 0` the model is read on a grid of swap amounts
//! (geometric for small swaps, where a drained coin's optimum sits, then uniform). Along a pair
//! the model's mint is concave where it is smooth (the imbalance fee's kinks are concave too), so
//! each grid interval's maximum is at most where the secants of the two neighbouring intervals
//! meet: a pair whose every interval is below the best exact mint found (raised by the
//! tolerances below) is not refined. Otherwise the best grid point's bracket is refined by
//! golden section and that swap is evaluated exactly. Every amount comes from the exact
//! simulation; the model only chooses where to evaluate.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{Best, Eval, Found};
use crate::math::float::{from_f64_clamped, to_f64};
use crate::model::curve::{self as curve_f64, Curve};
use crate::pool::Pool;
use primitive_types::U256;

/// Above this relative size of one raw unit of a coin (against the deposit's value) or of one
/// LP unit (against the mint), the exact mint's rounding is not negligible against the 1e-6
/// target and [`best`] leaves the pool to the exact searches.
const QUIET: f64 = 1e-9;

/// How closely the float model must reproduce the exact mint at every point [`best`]
/// evaluates exactly (relative), for its optimum to be taken.
const AGREE: f64 = 1e-8;

/// What a pair's model optimum (or an interval's bound) must beat the best exact mint by
/// (relative, beyond [`AGREE`]) to be searched: half the 1e-6 optimality target.
const MARGIN: f64 = 5e-7;

/// Points of the model's grid along a pair.
const GRID: usize = 9;

/// The model's grid on `(0, ai]`, ascending: `ai·2^-k` for `k = 12, 9, 6, 3`, then `ai·k/8`
/// for `k = 2, 3, 4, 6, 8`.
#[allow(clippy::arithmetic_side_effects)] // f64
fn grid(ai: f64) -> [f64; GRID] {
    [
        ai / 4096.0,
        ai / 512.0,
        ai / 64.0,
        ai / 8.0,
        ai * 0.25,
        ai * 0.375,
        ai * 0.5,
        ai * 0.75,
        ai,
    ]
}

/// One pair read on the grid: the points `(s, minted)` with `s = 0` (the direct add) first.
struct Scan {
    i: usize,
    j: usize,
    s: [f64; GRID + 1],
    v: [f64; GRID + 1],
}

impl Scan {
    fn new(md: &Curve, af: &[f64], (i, j): (usize, usize), f0: f64) -> Option<Self> {
        let ai = af.get(i).copied().filter(|x| *x > 0.0)?;
        let mut s = [0.0f64; GRID + 1];
        let mut v = [f0; GRID + 1];
        for (k, x) in grid(ai).into_iter().enumerate() {
            let k = k.saturating_add(1);
            *s.get_mut(k)? = x;
            *v.get_mut(k)? = md.minted(af, i, j, x);
        }
        Some(Scan { i, j, s, v })
    }

    /// Index of the best grid point (`s > 0`).
    fn k_best(&self) -> usize {
        (1..=GRID)
            .max_by(|&x, &y| self.val(x).total_cmp(&self.val(y)))
            .unwrap_or(1)
    }

    fn val(&self, k: usize) -> f64 {
        self.v.get(k).copied().unwrap_or(f64::NAN)
    }

    fn at(&self, k: usize) -> f64 {
        self.s.get(k).copied().unwrap_or(f64::NAN)
    }

    /// The secant through points `k` and `k + 1`, as `(s_k, v_k, slope)`.
    #[allow(clippy::arithmetic_side_effects)] // f64
    fn secant(&self, k: usize) -> Option<(f64, f64, f64)> {
        let (s0, s1) = (self.at(k), self.at(k.checked_add(1)?));
        let (v0, v1) = (self.val(k), self.val(k.checked_add(1)?));
        let m = (v1 - v0) / (s1 - s0);
        (m.is_finite() && v0.is_finite()).then_some((s0, v0, m))
    }

    /// An upper bound on the model's mint over `[s_k, s_{k+1}]` if it is concave there and
    /// around: the least of the neighbouring secants, at its highest point in the interval;
    /// infinite without a neighbouring secant (or on a non-finite value).
    #[allow(clippy::arithmetic_side_effects)] // f64
    fn interval_bound(&self, k: usize) -> f64 {
        let (a, b) = (self.at(k), self.at(k.saturating_add(1)));
        let (va, vb) = (self.val(k), self.val(k.saturating_add(1)));
        if !(va.is_finite() && vb.is_finite()) {
            return f64::INFINITY;
        }
        let left = k.checked_sub(1).and_then(|l| self.secant(l));
        let right = self.secant(k.saturating_add(1));
        let line = |(s0, v0, m): (f64, f64, f64), x: f64| v0 + m * (x - s0);
        let cap = |x: f64| match (left, right) {
            (Some(l), Some(r)) => line(l, x).min(line(r, x)),
            (Some(l), None) => line(l, x),
            (None, Some(r)) => line(r, x),
            (None, None) => f64::INFINITY,
        };
        let mut bound = cap(a).max(cap(b));
        if let (Some(l), Some(r)) = (left, right) {
            // where the two secants cross, if inside the interval
            if l.2 != r.2 {
                let x = (r.1 - l.1 + l.2 * l.0 - r.2 * r.0) / (l.2 - r.2);
                if x > a && x < b {
                    bound = bound.max(cap(x));
                }
            }
        }
        bound.max(va).max(vb)
    }
}

/// Whether the pool's coins hold within [`SPREAD`] of each other (in coin units) and the
/// deposit is at most the pool's value: the states where the model's mint is smooth and concave
/// along a pair. Drained coins (and deposits that dwarf the pool) make it neither, and leave
/// its optimum to the exact searches: on such generated NG states the model's optimum, checked
/// exactly, still missed the brute-force best by up to 45 bps.
#[allow(clippy::arithmetic_side_effects)] // f64
fn moderate(md: &Curve, af: &[f64]) -> bool {
    let (mut lo, mut hi, mut sum) = (f64::INFINITY, 0.0f64, 0.0f64);
    for x in &md.xp {
        lo = lo.min(*x);
        hi = hi.max(*x);
        sum += x;
    }
    let value: f64 = af.iter().enumerate().map(|(k, v)| v * md.unit(k)).sum();
    lo > 0.0 && hi <= SPREAD * lo && value <= sum
}

/// The largest ratio between two coins' balances (coin units) [`best`] takes.
const SPREAD: f64 = 10.0;

/// `|exact − model| ≤ AGREE·exact`.
#[allow(clippy::arithmetic_side_effects)] // f64
fn agrees(exact: U256, model: f64) -> bool {
    let e = to_f64(exact);
    let d = e - model;
    e > 0.0 && d <= AGREE * e && -d <= AGREE * e
}

/// Whether a model value `f` can beat the exact incumbent by more than [`MARGIN`] (always, with
/// no incumbent).
#[allow(clippy::arithmetic_side_effects)] // f64
fn can_beat(f: f64, best: Option<&Eval>) -> bool {
    best.map_or(true, |b| {
        f * (1.0 + AGREE) > to_f64(b.minted) * (1.0 + MARGIN)
    })
}

/// The exact plan at the model's swap `s` for `(i, j)`, or at the nearest amount that does
/// not revert ([`Best::near`]).
fn exact_near(pool: &Pool, a: &[U256], (i, j): (usize, usize), s: f64) -> Option<Eval> {
    let ai = *a.get(i)?;
    let s = from_f64_clamped(s, ai).max(U256::one());
    let mut b = Best {
        best: None,
        evals: 0,
    };
    let _ = b.near(pool, a, (i, j), s, ai);
    b.best
}

/// The best plan from the float model, where the model can be trusted; `None` sends the pool to
/// the exact searches.
///
/// Trusted when one raw unit of every coin and one LP unit are below [`QUIET`] of the deposit
/// and the mint (so the exact mint is the model's up to rounding far below the 1e-6 target), and
/// the model reproduces the exact mint to [`AGREE`] at every point evaluated exactly: the direct
/// add (`direct`) and each swap evaluated. Pairs are taken by their best grid value; a pair is
/// refined and evaluated only when one of its intervals can beat the best exact mint found by
/// more than [`MARGIN`] (after [`AGREE`]), and then only around its best grid point: an
/// interval elsewhere that still could sends the pool to the exact searches. The swap taken is
/// within `2·AGREE` of its pair's model optimum.
pub(super) fn best(pool: &Pool, amounts: &[U256], md: &Curve, direct: Option<&Eval>) -> Found {
    let af: alloc::vec::Vec<f64> = amounts.iter().map(|x| to_f64(*x)).collect();
    let f0 = md.minted(&af, 0, 0, 0.0);
    #[allow(clippy::arithmetic_side_effects)] // f64
    let quiet = {
        let value: f64 = af.iter().enumerate().map(|(k, v)| v * md.unit(k)).sum();
        let units: f64 = (0..af.len()).map(|k| md.unit(k)).sum();
        f0 > 0.0 && value > 0.0 && 4.0 * units / value + 4.0 / f0 <= QUIET
    };
    if !quiet || !moderate(md, &af) {
        return None;
    }
    let mut best: Found = None;
    if let Some(d) = direct {
        if !agrees(d.minted, f0) {
            return None;
        }
        best = Some((None, d.clone()));
    }
    let n = af.len();
    let mut scans: alloc::vec::Vec<Scan> = (0..n)
        .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
        .filter_map(|p| Scan::new(md, &af, p, f0))
        .collect();
    scans.sort_by(|x, y| y.val(y.k_best()).total_cmp(&x.val(x.k_best())));
    for sc in &scans {
        let incumbent = best.as_ref().map(|(_, e)| e);
        let open: alloc::vec::Vec<usize> = (0..GRID)
            .filter(|&k| can_beat(sc.interval_bound(k), incumbent))
            .collect();
        if open.is_empty() {
            continue;
        }
        let k = sc.k_best();
        let (lo, hi) = (k.saturating_sub(1), k.saturating_add(1).min(GRID));
        let (s, f) = curve_f64::refine(md, &af, sc.i, sc.j, sc.at(lo), sc.at(hi));
        let (s, f) = if f >= sc.val(k) {
            (s, f)
        } else {
            (sc.at(k), sc.val(k))
        };
        if can_beat(f, incumbent) {
            let e = exact_near(pool, amounts, (sc.i, sc.j), s)?;
            if !agrees(e.minted, md.minted(&af, sc.i, sc.j, to_f64(e.s))) {
                return None;
            }
            if incumbent.map_or(true, |b| e.minted > b.minted) {
                best = Some((Some((sc.i, sc.j)), e));
            }
        }
        // an interval away from the refined bracket that could still beat the best
        let incumbent = best.as_ref().map(|(_, e)| e);
        if open
            .iter()
            .any(|&m| (m < lo || m >= hi) && can_beat(sc.interval_bound(m), incumbent))
        {
            return None;
        }
    }
    best
}
