//! The float guesses of the crossing that the strategies start from (never an amount).

use super::{other, Kind, Two};
use crate::math::float::{from_f64_clamped, pow10, sqrt_or_zero, to_f64};
use primitive_types::U256;

/// The float guess of the crossing for constant-product and volatile pools: the root of the
/// continuous balance equation `(a_i − s)/r_i(s) = (a_j + out(s))/(r_j − out(s))` with the pool's
/// own fee. A search start only.
fn closed_form_guess(t: &Two<'_>, i: usize, fee_in_pool: Option<f64>, fee_out: f64) -> Option<f64> {
    let j = other(i);
    let ri = to_f64(*t.r.get(i)?);
    let rj = to_f64(*t.r.get(j)?);
    let ai = to_f64(*t.a.get(i)?);
    let aj = to_f64(*t.a.get(j)?);
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: a search guess, no traps
    let x = match fee_in_pool {
        // Uniswap: out = γx·r_j/(r_i + γx), r_i' = r_i + x.
        // γ(a_j+r_j)/r_i·x² + (1+γ)(a_j+r_j)·x + (a_j·r_i − a_i·r_j) = 0.
        Some(gamma) => {
            let alpha = gamma * (aj + rj) / ri;
            let beta = (1.0 + gamma) * (aj + rj);
            let c = aj * ri - ai * rj;
            -2.0 * c / (beta + sqrt_or_zero(beta * beta - 4.0 * alpha * c))
        }
        // Solidly volatile, in y = (1−φ)x: out = y·r_j/(r_i + y), r_i' = r_i + y, h_i = a_i − y/(1−φ).
        // (a_j+r_j)/r_i·y² + (2a_j + r_j + r_j/(1−φ))·y + (a_j·r_i − a_i·r_j) = 0.
        None => {
            let k = 1.0 / (1.0 - fee_out);
            let alpha = (aj + rj) / ri;
            let beta = 2.0 * aj + rj + k * rj;
            let c = aj * ri - ai * rj;
            let y = -2.0 * c / (beta + sqrt_or_zero(beta * beta - 4.0 * alpha * c));
            y * k
        }
    };
    x.is_finite().then_some(x)
}

/// The float guess of the crossing for solidly stable pools: bisection on the continuous
/// balance equation with a float model of `x³y + xy³` (normalised reserves).
fn stable_guess(t: &Two<'_>, i: usize, fee_out: f64, dec: [u32; 2]) -> Option<f64> {
    let j = other(i);
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    // f64 arithmetic: a search guess, no traps; decimals ≤ 77 fit i32
    let guess = {
        let sc = |k: usize| pow10(18 - *dec.get(k).unwrap_or(&18) as i32);
        let (si, sj) = (sc(i), sc(j));
        let xi = to_f64(*t.r.get(i)?) * si;
        let yj = to_f64(*t.r.get(j)?) * sj;
        let ai = to_f64(*t.a.get(i)?) * si;
        let aj = to_f64(*t.a.get(j)?) * sj;
        let kf = |x: f64, y: f64| x * y * (x * x + y * y);
        let k0 = kf(xi, yj);
        // y such that kf(x, y) = k0, by Newton from yj.
        let solve_y = |x: f64| {
            let mut y = yj;
            for _ in 0..64 {
                let f = kf(x, y) - k0;
                let d = x * x * x + 3.0 * x * y * y;
                let step = f / d;
                y -= step;
                if step.abs() <= y.abs() * 1e-15 {
                    break;
                }
            }
            y
        };
        // g(s) > 0 while coin i is still in excess.
        let g = |s: f64| {
            let sin = s * (1.0 - fee_out);
            let x2 = xi + sin;
            let y2 = solve_y(x2);
            let out = yj - y2;
            (ai - s) / x2 - (aj + out) / y2
        };
        let (mut lo, mut hi) = (0.0f64, ai);
        if g(lo) <= 0.0 {
            return Some(0.0);
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if g(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= hi * 1e-15 {
                break;
            }
        }
        0.5 * (lo + hi) / si
    };
    guess.is_finite().then_some(guess)
}

/// The float guess of the crossing for direction `i`, as an integer in `[0, a_i]`: the closed
/// form for x·y pools, bisection on the float curve for stable ones. A search start only.
pub(super) fn guess_of(two: &Two<'_>, i: usize) -> Option<U256> {
    let ai = *two.a.get(i)?;
    match two.kind {
        Kind::V2 {
            fee: (num, den), ..
        } => {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)]
            // f64 guide; num < den
            let gamma = 1.0 - num as f64 / den as f64;
            closed_form_guess(two, i, Some(gamma), 0.0)
        }
        Kind::Solidly {
            fee_bps,
            stable: false,
            ..
        } => closed_form_guess(two, i, None, to_f64(fee_bps) / 10_000.0),
        Kind::Solidly {
            fee_bps,
            stable: true,
            dec,
        } => stable_guess(two, i, to_f64(fee_bps) / 10_000.0, dec),
    }
    .map(|g| from_f64_clamped(g, ai))
}
