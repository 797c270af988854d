//! Gauss–Seidel: one token's price solved so that its own balance clears (the other prices
//! fixed), and sweeps of that over the tokens.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
// f64 and indices < n checked by construction
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::Dual;

impl Dual<'_> {
    /// One Gauss–Seidel sweep: every token of `order` that is not an output balanced by its
    /// own price ([`Dual::coord`]).
    pub(super) fn sweep(&self, nu: &mut [f64], order: &[usize], is_out: &[bool]) {
        for &k in order {
            if !is_out[k] {
                self.coord(k, nu);
            }
        }
    }

    /// Balance of token k (its edges out and in: `outs`, `ins`) as a function of its own
    /// price (others fixed): increasing in ν_k.
    fn balance_at(&self, k: usize, (outs, ins): (&[u32], &[u32]), nu: &mut [f64], v: f64) -> f64 {
        let old = nu[k];
        nu[k] = v;
        let mut r = self.b[k];
        // the activity test of `arb_of` first, on the edge's 16 hot bytes: most of a token's
        // edges are inactive, and an inactive one adds 0
        for &e in outs {
            let (_, to, rate0) = self.hot[e as usize];
            if nu[to as usize] * rate0 > v {
                r -= self.arb_of(e as usize, nu).x;
            }
        }
        for &e in ins {
            let (ti, _, rate0) = self.hot[e as usize];
            if v * rate0 > nu[ti as usize] {
                r += self.arb_of(e as usize, nu).o;
            }
        }
        nu[k] = old;
        r
    }

    /// From the price `v0` of token `k` (balance `r0`), scale the price by `factor` while the
    /// balance stays on the side `ahead` says: the last point on that side and the first
    /// beyond it, as (price, balance); `None` after 200 steps.
    #[allow(clippy::type_complexity)]
    fn walk(
        &self,
        k: usize,
        edges: (&[u32], &[u32]),
        nu: &mut [f64],
        (v0, r0): (f64, f64),
        factor: f64,
        ahead: impl Fn(f64) -> bool,
    ) -> Option<((f64, f64), (f64, f64))> {
        let mut last = (v0, r0);
        let mut x = v0 * factor;
        let mut t = 0;
        loop {
            let r = self.balance_at(k, edges, nu, x);
            if !ahead(r) {
                return Some((last, (x, r)));
            }
            last = (x, r);
            x *= factor;
            t += 1;
            if t > 200 {
                return None;
            }
        }
    }

    /// Solve balance_k(ν_k) = 0 by bracketing and geometric bisection.
    pub fn coord(&self, k: usize, nu: &mut [f64]) {
        let v0 = nu[k];
        let edges = (self.out_edges(k), self.in_edges(k));
        let r0 = self.balance_at(k, edges, nu, v0);
        if r0 == 0.0 {
            return;
        }
        // bracket [lo, hi] with balance(lo) ≤ 0 < balance(hi) by halving / doubling
        let bracket = if r0 > 0.0 {
            self.walk(k, edges, nu, (v0, r0), 0.5, |r| r > 0.0)
                .map(|(near, far)| (far, near))
        } else {
            self.walk(k, edges, nu, (v0, r0), 2.0, |r| r < 0.0)
        };
        let Some(((mut lo, mut rlo), (mut hi, mut rhi))) = bracket else {
            return;
        };
        // Illinois (regula falsi that halves the stale end's value): the balance is monotone
        // and piecewise smooth, so a handful of evaluations reach the 4e-5 relative bracket
        // that fourteen bisections would
        let mut side = 0i8;
        for _ in 0..14 {
            if rlo == 0.0 || rhi == 0.0 || hi - lo <= 4e-5 * lo {
                break;
            }
            let mut x = lo + (hi - lo) * (-rlo / (rhi - rlo));
            if !(x > lo && x < hi) {
                x = crate::math::float::sqrt(lo * hi);
            }
            let r = self.balance_at(k, edges, nu, x);
            if r > 0.0 {
                (hi, rhi) = (x, r);
                if side == 1 {
                    rlo *= 0.5;
                }
                side = 1;
            } else {
                (lo, rlo) = (x, r);
                if side == -1 {
                    rhi *= 0.5;
                }
                side = -1;
            }
        }
        let x = if rhi == 0.0 {
            hi
        } else {
            lo + (hi - lo) * (-rlo / (rhi - rlo))
        };
        nu[k] = if x >= lo && x <= hi {
            x
        } else {
            crate::math::float::sqrt(lo * hi)
        };
    }
}
