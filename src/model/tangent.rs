//! Tangents of Curve's invariant `D` (the float model's, in coin units), shared by the zap
//! bounds (`zap::bound`) and the certificate's joint model of a many-coin pool (`joint.rs`).
//!
//! `D` is positively homogeneous of degree 1, non-decreasing in every balance and concave, so
//! for any point `z > 0` its gradient is a tangent above it everywhere: `D(y) ≤ ∇D(z)·y` for
//! every `y ≥ 0` (Euler's `D(z) = ∇D(z)·z`). Two uses follow:
//!
//! * [`grad_d`]: the gradient at a point, raised by [`TANGENT_SLACK`] and checked by Euler's
//!   identity, so the tangent inequality holds for the computed weights too;
//! * [`unit_cost_low`]: a lower bound on the cost of one unit of `D` at coin prices `ν`,
//!   `c(ν) = min{ν·y : D(y) ≥ 1}`: `D(y) ≥ 1` forces `ν·y ≥ min_k(ν_k/∂_kD(z))` for any `z`,
//!   and the bound is exact where `∇D(z) ∥ ν` ([`unit_point`] solves for that point).
//!
//! Hence `ν·y ≥ c(ν)·D(y)` for every `y ≥ 0`, whatever the accuracy of the point solve.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)] // n ≤ 8; the root's exponent fits

use super::stable_d;
use crate::math::float::sqrt_or_zero;
use alloc::vec::Vec;

/// Relative raise of a Curve tangent: `D` is checked to [`EULER_TOL`] by Euler's identity, and
/// the gradient moves at most `(n + 1)` times as much as `D`.
pub(crate) const TANGENT_SLACK: f64 = 1e-11;

/// How close `Σ w_i x_i` must come to `D` at the tangent point (Euler's identity for a
/// homogeneous `D`), else the tangent is refused.
const EULER_TOL: f64 = 1e-13;

/// Bisection steps of the tangent-point solve.
const POINT_STEPS: usize = 80;

/// The raised gradient of the model's `D` at the coin balances `xp` (`A·n` = `ann`):
/// `∂D/∂x_i = (A·n + D_P/x_i) / (A·n − 1 + (n+1)·D_P/D)` with `D_P = D^(n+1)/(n^n Π x)`,
/// every term positive, per coin unit, raised by [`TANGENT_SLACK`]. `None` unless Euler's
/// identity `Σ x_i ∂D/∂x_i = D` holds to [`EULER_TOL`] (it fails by the invariant's residual,
/// so this checks the float `D`), or for an empty coin or `A·n ≤ 1`.
#[must_use]
pub(crate) fn grad_d(xp: &[f64], ann: f64) -> Option<Vec<f64>> {
    let n = xp.len() as f64;
    if ann.is_nan() || ann <= 1.0 || xp.iter().any(|x| !x.is_finite() || *x <= 0.0) {
        return None;
    }
    let d = stable_d(xp, ann);
    // D_P/D = Π (D / (n x_i)), built factor by factor
    let mut dp_d = 1.0;
    for x in xp {
        dp_d *= d / (n * x);
    }
    let den = ann - 1.0 + (n + 1.0) * dp_d;
    let grad: Vec<f64> = xp.iter().map(|x| (ann + dp_d * d / x) / den).collect();
    let euler: f64 = grad.iter().zip(xp).map(|(g, x)| g * x).sum();
    let off = (euler / d - 1.0).abs();
    if d.is_nan() || d <= 0.0 || off.is_nan() || off > EULER_TOL {
        return None;
    }
    let up = 1.0 + TANGENT_SLACK;
    Some(grad.iter().map(|g| up * g).collect())
}

/// `min_k ν_k / g_k`, 0 unless every term is positive and finite: with `g` a raised tangent of
/// a homogeneous concave invariant, a lower bound on the cost of one unit of it at prices `ν`.
#[must_use]
pub(crate) fn least_ratio(nu: &[f64], g: &[f64]) -> f64 {
    let mut m = f64::INFINITY;
    for (v, gk) in nu.iter().zip(g) {
        let r = v / gk;
        if !(r.is_finite() && r > 0.0) {
            return 0.0;
        }
        m = m.min(r);
    }
    if m.is_finite() {
        m
    } else {
        0.0
    }
}

/// The coin balances at `D = 1` where `∇D ∥ ν` (`ν` the prices per coin unit):
/// `x_i = P/(μν_i − A·n)` with `P^(n+1) = Π(μν_i − A·n)/n^n`, `μ` by bisection on
/// `A·n·Σx − (A·n − 1 + P)` (positive near `μ = A·n/min ν`, negative for large `μ`).
#[must_use]
pub(crate) fn unit_point(nu: &[f64], ann: f64) -> Option<Vec<f64>> {
    let n = nu.len() as f64;
    let vmin = nu.iter().copied().fold(f64::INFINITY, f64::min);
    if !(vmin > 0.0 && vmin.is_finite()) {
        return None;
    }
    let mu0 = ann / vmin;
    let at = |mu: f64| -> Option<(Vec<f64>, f64)> {
        // P = (Π(μν − A·n) / n^n)^(1/(n+1)), the product built factor by factor
        let mut prod = 1.0;
        for v in nu {
            let q = mu * v - ann;
            if !(q > 0.0) {
                return None;
            }
            prod *= q / n;
        }
        let p = root(prod, nu.len().saturating_add(1))?;
        let x: Vec<f64> = nu.iter().map(|v| p / (mu * v - ann)).collect();
        let f = ann * x.iter().sum::<f64>() - (ann - 1.0 + p);
        Some((x, f))
    };
    // μ = μ0·(1 + s), s by bisection on its logarithm
    let (mut lo, mut hi) = (1e-15f64, 1e15f64);
    for _ in 0..POINT_STEPS {
        let mid = sqrt_or_zero(lo * hi);
        match at(mu0 * (1.0 + mid)) {
            Some((_, f)) if f > 0.0 => lo = mid,
            Some(_) => hi = mid,
            None => lo = mid,
        }
    }
    at(mu0 * (1.0 + sqrt_or_zero(lo * hi))).map(|r| r.0)
}

/// A lower bound on `c(ν) = min{ν·y : D(y) ≥ 1}` (`ν` per coin unit, `A·n` = `ann`): the
/// least ratio of `ν` to the raised gradient at [`unit_point`] (0 where that fails). With it,
/// `ν·y ≥ unit_cost_low(ν)·D(y)` for every `y ≥ 0`.
#[must_use]
pub(crate) fn unit_cost_low(nu: &[f64], ann: f64) -> f64 {
    if nu.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
        return 0.0;
    }
    let Some(z) = unit_point(nu, ann) else {
        return 0.0;
    };
    grad_d(&z, ann).map_or(0.0, |g| least_ratio(nu, &g))
}

/// `a^(1/m)` for `a > 0` finite, `1 ≤ m ≤ 16`: Newton's iteration from a power of two above
/// the root (it decreases to the root monotonically); `None` otherwise.
fn root(a: f64, m: usize) -> Option<f64> {
    if !(a.is_finite() && a > 0.0) || m == 0 || m > 16 {
        return None;
    }
    if m == 1 {
        return Some(a);
    }
    let mf = m as f64;
    // the binary exponent of a (subnormals count as the least)
    let e = ((a.to_bits() >> 52) & 0x7ff) as i64 - 1023;
    let e0 = e.div_euclid(m as i64) + 2;
    let mut y = f64::from_bits(((e0 + 1023).clamp(1, 2046) as u64) << 52);
    for _ in 0..64 {
        let mut p = 1.0;
        for _ in 1..m {
            p *= y;
        }
        let next = ((mf - 1.0) * y + a / p) / mf;
        if !(next < y) {
            break;
        }
        y = next;
    }
    y.is_finite().then_some(y)
}
