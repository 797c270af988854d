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

/// Evaluations of the tangent-point solve at most (a safeguarded Newton iteration: 6 on
/// average and 20 at most on the prices of the tests; the bisection before took 81).
const POINT_STEPS: usize = 80;

/// The tangent-point solve stops when `s` moves by less than this times `1 + s` (the
/// resolution of `s` in `μ0·(1 + s)`).
const POINT_TOL: f64 = 4.0 * f64::EPSILON;

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
/// `x_i = P/(μν_i − A·n)` with `P^(n+1) = Π(μν_i − A·n)/n^n`, `μ = μ0·(1 + s)` (`μ0 = A·n/min ν`)
/// the root of `F = A·n·Σx − (A·n − 1 + P)` (positive near `μ0`, negative for large `μ`).
///
/// The root is found by Newton's iteration on `F` in `ln s` (a step `d` of `ln s` taken as
/// `s(1 + d)` up, `s/(1 − d)` down: positive, and Newton's to second order) inside a bracket
/// of `s` that every evaluation narrows, starting at the balanced pool's `s = n/(A·n)`; a step
/// that leaves the bracket is replaced by a factor of 8 towards the open end while one end is
/// still the initial `1e-15` or `1e15`, else by the bracket's geometric midpoint. It stops where
/// `F` is 0, or `s` moves or the bracket is less than `s`'s resolution in `μ0(1 + s)`. The
/// tangent on the point bounds `D` wherever the point is ([`grad_d`]): the accuracy of this
/// solve only affects how tight the bounds built on it are.
#[must_use]
pub(crate) fn unit_point(nu: &[f64], ann: f64) -> Option<Vec<f64>> {
    unit_point_steps(nu, ann).map(|r| r.0)
}

/// `P` at `μ` for prices `nu` and `A·n` = `ann`: the `(n + 1)`-th root of `Π (μν_i − A·n)/n`,
/// or `None` where some `μν_i − A·n` is not positive (`μ` too small).
#[allow(clippy::arithmetic_side_effects)] // f64
fn p_at(nu: &[f64], ann: f64, mu: f64) -> Option<f64> {
    let n = nu.len() as f64;
    let mut prod = 1.0;
    for v in nu {
        let q = mu * v - ann;
        if !(q > 0.0) {
            return None;
        }
        prod *= q / n;
    }
    root(prod, nu.len().saturating_add(1))
}

/// [`unit_point`] and the number of evaluations of `F` its solve took.
fn unit_point_steps(nu: &[f64], ann: f64) -> Option<(Vec<f64>, usize)> {
    let n = nu.len() as f64;
    let vmin = nu.iter().copied().fold(f64::INFINITY, f64::min);
    if !(vmin > 0.0 && vmin.is_finite()) {
        return None;
    }
    let mu0 = ann / vmin;
    let p_at = |mu: f64| p_at(nu, ann, mu);
    // F at μ0(1 + s) and its derivative in ln s
    let at = |s: f64| -> Option<(f64, f64)> {
        let mu = mu0 * (1.0 + s);
        let p = p_at(mu)?;
        // d ln P/dμ = Σ ν/q / (n + 1); dx_i/dμ = x_i (d ln P/dμ − ν_i/q_i)
        let dlp = nu.iter().map(|v| v / (mu * v - ann)).sum::<f64>() / (n + 1.0);
        let (mut sx, mut dsx) = (0.0, 0.0);
        for v in nu {
            let q = mu * v - ann;
            let x = p / q;
            sx += x;
            dsx += x * (dlp - v / q);
        }
        let f = ann * sx - (ann - 1.0 + p);
        Some((f, mu0 * s * (ann * dsx - p * dlp)))
    };
    let (s_min, s_max) = (1e-15f64, 1e15f64);
    let (mut lo, mut hi) = (s_min, s_max);
    let mut s = (n / ann).clamp(lo, hi);
    let mut steps = 0;
    while steps < POINT_STEPS {
        steps += 1;
        let newton = match at(s) {
            Some((0.0, _)) => break,
            Some((f, df)) => {
                // (a NaN counts as past the root, as a bisection would)
                if f > 0.0 {
                    lo = s;
                } else {
                    hi = s;
                }
                let d = -f / df;
                if d >= 0.0 {
                    Some(s * (1.0 + d))
                } else {
                    Some(s / (1.0 - d))
                }
            }
            None => {
                lo = s;
                None
            }
        };
        let next = match newton {
            Some(t) if t > lo && t < hi => t,
            _ if hi >= s_max && lo >= s => (8.0 * s).min(hi),
            _ if lo <= s_min && hi <= s => (s / 8.0).max(lo),
            _ => sqrt_or_zero(lo * hi),
        };
        let done = (next - s).abs() <= POINT_TOL * (1.0 + s) || hi - lo <= POINT_TOL * (1.0 + lo);
        s = next;
        if done {
            break;
        }
    }
    let mu = mu0 * (1.0 + s);
    let p = p_at(mu)?;
    Some((nu.iter().map(|v| p / (mu * v - ann)).collect(), steps))
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

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The tangent point as the solve before the Newton iteration found it: 80 steps of a
    /// geometric bisection of `s` over `[1e-15, 1e15]` on the sign of `F`.
    fn bisected_point(nu: &[f64], ann: f64) -> Option<Vec<f64>> {
        let vmin = nu.iter().copied().fold(f64::INFINITY, f64::min);
        let mu0 = ann / vmin;
        let at = |mu: f64| -> Option<(Vec<f64>, f64)> {
            let p = p_at(nu, ann, mu)?;
            let x: Vec<f64> = nu.iter().map(|v| p / (mu * v - ann)).collect();
            let f = ann * x.iter().sum::<f64>() - (ann - 1.0 + p);
            Some((x, f))
        };
        let (mut lo, mut hi) = (1e-15f64, 1e15f64);
        for _ in 0..80 {
            let mid = sqrt_or_zero(lo * hi);
            match at(mu0 * (1.0 + mid)) {
                Some((_, f)) if f > 0.0 => lo = mid,
                Some(_) => hi = mid,
                None => lo = mid,
            }
        }
        at(mu0 * (1.0 + sqrt_or_zero(lo * hi))).map(|r| r.0)
    }

    /// Price vectors of `n` coins: equal, one coin cheaper or dearer by 1e-9 to 50 %, and
    /// spreads drawn from a fixed generator.
    fn prices(n: usize) -> Vec<Vec<f64>> {
        let mut out = vec![vec![1.0; n]];
        for d in [1e-9, 1e-6, 1e-4, 1e-3, 1e-2, 0.1, 0.5] {
            for k in [0, n - 1] {
                let mut up = vec![1.0; n];
                up[k] = 1.0 + d;
                out.push(up);
                let mut down = vec![1.0; n];
                down[k] = 1.0 - d;
                out.push(down);
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for spread in [1e-4, 1e-2, 0.3] {
            for _ in 0..6 {
                out.push(
                    (0..n)
                        .map(|_| {
                            seed = seed
                                .wrapping_mul(6_364_136_223_846_793_005)
                                .wrapping_add(1_442_695_040_888_963_407);
                            let u = (seed >> 11) as f64 / (1u64 << 53) as f64;
                            1.0 + spread * (2.0 * u - 1.0)
                        })
                        .collect(),
                );
            }
        }
        out
    }

    /// The Newton solve finds the bisection's point (to 1e-9 of each balance where the
    /// bisection's own answer is well defined), satisfies `D = 1` and `∇D ∥ ν` there, and takes
    /// far fewer steps: on 2 to 8 coins, `A·n` from 2 to 8e6, prices equal to 50 % apart.
    #[test]
    fn newton_point_is_the_bisection_point() {
        let (mut cases, mut most, mut total) = (0usize, 0usize, 0usize);
        let mut worst = alloc::string::String::new();
        let mut hist = [0usize; 17];
        for n in [2usize, 3, 4, 5, 8] {
            for a in [1.0f64, 10.0, 100.0, 2000.0, 1e6] {
                let ann = a * n as f64 + if a == 1.0 { 1.0 } else { 0.0 };
                for nu in prices(n) {
                    let (x, steps) = unit_point_steps(&nu, ann).unwrap();
                    let want = bisected_point(&nu, ann).unwrap();
                    for (got, w) in x.iter().zip(&want) {
                        assert!(
                            (got / w - 1.0).abs() <= 1e-9,
                            "n {n} A·n {ann} prices {nu:?}: {x:?} vs {want:?}"
                        );
                    }
                    // D(x) = 1 and the gradient parallel to the prices (to the cancellation of
                    // μν − A·n, relative eps/s: 2e-10 at A·n = 2e6 with equal prices)
                    let d = stable_d(&x, ann);
                    assert!(
                        (d - 1.0).abs() <= 1e-8,
                        "D {d} at {x:?}, n {n} A·n {ann} prices {nu:?}"
                    );
                    let g = grad_d(&x, ann).unwrap();
                    let r: Vec<f64> = nu.iter().zip(&g).map(|(v, g)| v / g).collect();
                    let (rmin, rmax) = r
                        .iter()
                        .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
                    assert!(rmax / rmin - 1.0 <= 1e-8, "ratios {r:?}");
                    if steps > most {
                        worst = alloc::format!("n {n} A·n {ann} prices {nu:?}");
                    }
                    most = most.max(steps);
                    hist[steps.min(80) / 5] += 1;
                    total += steps;
                    cases += 1;
                }
            }
        }
        assert!(cases > 5 * 5 * 40, "{cases}");
        assert!(most <= 24, "{most} steps at most ({worst}), {hist:?}");
        assert!(
            total <= 8 * cases,
            "{total} steps over {cases} solves ({hist:?})"
        );
    }

    /// `unit_cost_low` is a lower bound on `ν·y/D(y)` for points `y` around and far from the
    /// tangent point, and within 1e-9 of it at the point itself.
    #[test]
    fn unit_cost_low_bounds_the_cost_of_d() {
        for n in [2usize, 3, 5] {
            for a in [2.0f64, 100.0, 1e5] {
                let ann = a * n as f64;
                for nu in prices(n) {
                    let c = unit_cost_low(&nu, ann);
                    assert!(c > 0.0);
                    let z = unit_point(&nu, ann).unwrap();
                    let at_z: f64 =
                        nu.iter().zip(&z).map(|(v, x)| v * x).sum::<f64>() / stable_d(&z, ann);
                    assert!(c <= at_z && at_z / c - 1.0 <= 1e-9, "{c} vs {at_z}");
                    for k in 0..n {
                        for scale in [1e-3, 0.5, 2.0, 1e3] {
                            let mut y = z.clone();
                            y[k] *= scale;
                            let cost: f64 = nu.iter().zip(&y).map(|(v, x)| v * x).sum::<f64>()
                                / stable_d(&y, ann);
                            assert!(c <= cost * (1.0 + 1e-14), "{c} > {cost} at {y:?}");
                        }
                    }
                }
            }
        }
    }
}
