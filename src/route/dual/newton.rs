//! The Newton step of [`Dual::solve`]: the bordered KKT system on the scaled dual Hessian of
//! the active set ([`Dual::newton_system`]), solved with increasing regularisation, and a line
//! search along the step (backtracking with quadratic interpolation, then secant steps past a
//! kink, then a point just past the first kink) ([`Dual::newton_step`]).
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
// f64 and indices < n checked by construction
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::linalg::{dot, solve_dense, sparse_kkt, Lap};
use super::{Dual, Eval, Newton};
use alloc::vec;
use alloc::vec::Vec;

/// Largest active set solved densely; above it the sparse path (direct elimination, or CG
/// preconditioned by the spanning forest of the active edges).
const DENSE_MAX: usize = 48;

/// Secant steps on the slope after a backtracked step that still descends (see the line
/// search in [`Dual::solve`]).
const SECANT_STEPS: usize = 2;

/// The Newton system at one point: `[H −c; c·] [s; dT] = rhs` on the active set's tokens
/// (`m` of them), dense (`kk`, `(m + 1)²` row-major) or as the sparse Laplacian (`blocks`).
pub(super) struct Kkt {
    m: usize,
    dense: bool,
    kk: Vec<f64>,
    blocks: Vec<Lap>,
    diag: Vec<f64>,
    /// the largest diagonal entry (the scale of the regularisation)
    dmax: f64,
    /// `c_k ν_k` per token of the set
    cs: Vec<f64>,
    /// the pinned coordinate of the sparse solve: the output with the largest `c_k ν_k`
    p0: usize,
    rhs: Vec<f64>,
}

impl Kkt {
    /// The step for regularisation `lam` (relative to `dmax`); `None` when singular.
    fn solve(&self, lam: f64, err: f64) -> Option<Vec<f64>> {
        let (m, dim) = (self.m, self.m + 1);
        if self.dense {
            let mut a = self.kk.clone();
            if lam > 0.0 {
                for p in 0..m {
                    a[p * dim + p] += lam * self.dmax;
                }
            }
            solve_dense(&mut a, self.rhs.clone(), dim)
        } else {
            sparse_kkt(
                &self.blocks,
                &self.diag,
                &self.cs,
                &self.rhs,
                self.p0,
                lam * self.dmax,
                err,
            )
        }
    }
}

/// A step direction from a point: `ν_k (1 + α s_k)` on the tokens of `rset` (`s` = `sol` in
/// rset order), with the pieces of h's slope along it.
struct Ray<'r> {
    nu: &'r [f64],
    rset: &'r [usize],
    sol: &'r [f64],
    /// `Σ c_k ν_k s_k`
    dc: f64,
}

impl Ray<'_> {
    /// The slope of h along the step at a point evaluated into `e` (ν(α) in `at`, h = `h_at`).
    fn slope(&self, c: &[f64], e: &Eval, at: &[f64], h_at: f64) -> f64 {
        let mut d = 0.0;
        for (p, &k) in self.rset.iter().enumerate() {
            d += e.grad[k] * self.nu[k] * self.sol[p];
        }
        (d - h_at * self.dc) / dot(c, at)
    }
}

impl Dual<'_> {
    /// The Newton system at `nu` (evaluated into `ev`, h = `t`) on the tokens `rset`; `None`
    /// when no active edge has curvature. `pos`: a buffer of one entry per token, all
    /// `usize::MAX`, and so again on return.
    pub(super) fn newton_system(
        &self,
        nu: &[f64],
        (ev, t): (&Eval, f64),
        rset: &[usize],
        pos: &mut [usize],
    ) -> Option<Kkt> {
        let m = rset.len();
        for (p, &k) in rset.iter().enumerate() {
            pos[k] = p;
        }
        let dim = m + 1;
        let dense = m <= DENSE_MAX;
        let (mut kk, blocks, diag) = self.hessian(nu, ev, pos, m, dense);
        for &k in rset {
            pos[k] = usize::MAX;
        }
        let dmax: f64 = diag.iter().copied().fold(0.0, f64::max);
        if !(dmax > 0.0) {
            return None;
        }
        if dense {
            for (p, &k) in rset.iter().enumerate() {
                let cs = self.c[k] * nu[k];
                kk[p * dim + m] = -cs;
                kk[m * dim + p] = cs;
            }
        }
        let cs: Vec<f64> = rset.iter().map(|&k| self.c[k] * nu[k]).collect();
        let p0 = (0..m).fold(0, |b, p| if cs[p] > cs[b] { p } else { b });
        let mut rhs = vec![0.0; dim];
        for (p, &k) in rset.iter().enumerate() {
            rhs[p] = -(ev.grad[k] - t * self.c[k]) * nu[k];
        }
        rhs[m] = 1.0 - dot(self.c, nu);
        Some(Kkt {
            m,
            dense,
            kk,
            blocks,
            diag,
            dmax,
            cs,
            p0,
            rhs,
        })
    }

    /// The scaled dual Hessian of the active edges of `ev` at `nu` on the `m` tokens of the
    /// Newton step (`pos`: each token's position, `usize::MAX` outside): the dense bordered
    /// matrix (`dense`, border left 0), or the sparse Laplacian edges, and the diagonal.
    fn hessian(
        &self,
        nu: &[f64],
        ev: &Eval,
        pos: &[usize],
        m: usize,
        dense: bool,
    ) -> (Vec<f64>, Vec<Lap>, Vec<f64>) {
        let dim = m + 1;
        let mut kk = if dense {
            vec![0.0; dim * dim]
        } else {
            Vec::new()
        };
        // the scaled Hessian: 2×2 blocks per active edge (symmetric: h_io = h_oi), dense, or
        // for the sparse path one Laplacian weight w = −h_io per edge (each block is rank one
        // with zero row sums, h_ii = −h_io = h_oo, as arb is homogeneous of degree 1 in its
        // two prices and f' = ν_i/ν_o at its optimum)
        let mut blocks: Vec<Lap> = if dense {
            Vec::new()
        } else {
            Vec::with_capacity(ev.act.len())
        };
        let mut diag = vec![0.0; m];
        for (k, a) in &ev.act {
            let e = &self.edges[*k];
            if !(a.f2 < 0.0) {
                continue;
            }
            let (i, o) = (pos[e.ti], pos[e.to]);
            let no = nu[e.to];
            let si = nu[e.ti];
            let so = nu[e.to];
            let dxi = 1.0 / (no * a.f2);
            let dxo = -a.f1 / (no * a.f2);
            let (hii, hio, hoo) = (-dxi * si * si, -dxo * si * so, a.f1 * dxo * so * so);
            if dense {
                diag[i] += hii;
                diag[o] += hoo;
                kk[i * dim + i] += hii;
                kk[i * dim + o] += hio;
                kk[o * dim + i] += hio;
                kk[o * dim + o] += hoo;
            } else if -hio > 0.0 && i != o {
                diag[i] -= hio;
                diag[o] -= hio;
                // local indices < m fit u32 (m ≤ the number of tokens)
                let (a, b) = (
                    u32::try_from(i).unwrap_or(u32::MAX),
                    u32::try_from(o).unwrap_or(u32::MAX),
                );
                blocks.push((a, b, -hio));
            }
        }
        (kk, blocks, diag)
    }

    /// One Newton step from `nu` (the state `st` evaluated there, residual `err`): the system
    /// solved with increasing regularisation until the line search accepts a point along the
    /// step, which `nu` moves to. Whether a step was accepted.
    pub(super) fn newton_step(
        &self,
        nu: &mut [f64],
        kkt: &Kkt,
        rset: &[usize],
        err: f64,
        st: &mut Newton,
    ) -> bool {
        let h_cur = st.t;
        let mut accepted = false;
        let lams: &[f64] = if kkt.dense {
            &[0.0, 1e-8, 1e-3]
        } else {
            &[1e-12, 1e-6]
        };
        for &lam in lams {
            let Some(sol) = kkt.solve(lam, err) else {
                continue;
            };
            accepted = self.line_search(nu, rset, &sol, h_cur, err, st);
            if accepted {
                nu.copy_from_slice(&st.nn);
                st.keep_best(nu);
            }
            if accepted || err < 1e-7 {
                break;
            }
        }
        accepted
    }

    /// The line search along the step `sol` from `nu` (h = `h_cur`): backtracking
    /// ([`Dual::backtrack`]), then secant steps past a kink ([`Dual::secant`]). On acceptance
    /// the point is in `st.nn` and `st` is evaluated there.
    fn line_search(
        &self,
        nu: &[f64],
        rset: &[usize],
        sol: &[f64],
        h_cur: f64,
        err: f64,
        st: &mut Newton,
    ) -> bool {
        // the slope at 0 of h along the step, h(α) with ν_k(1 + α s_k), for the
        // interpolated backtracking
        let (mut dg, mut dc) = (0.0, 0.0);
        for (p, &k) in rset.iter().enumerate() {
            dg += st.ev.grad[k] * nu[k] * sol[p];
            dc += self.c[k] * nu[k] * sol[p];
        }
        let cn = dot(self.c, nu);
        let d0 = (dg - h_cur * dc) / cn;
        let ray = Ray { nu, rset, sol, dc };
        self.ray_candidates(&ray, st);
        let Some((took, beyond)) = self.backtrack(&ray, h_cur, d0, err, st) else {
            return false;
        };
        if let Some(beyond) = beyond {
            let (acc, hi) = self.secant(&ray, took, beyond, d0, st);
            self.past_kink(&ray, acc, hi, st);
        }
        true
    }

    /// One step past the first kink. The line search stopped at `acc`, below `hi` where the
    /// slope is positive; when an edge turns on between them, the minimum along the step is
    /// often at its kink (h rises steeply past it: a deep pool). Stopping short of it, the
    /// next Newton matrix lacks that edge's curvature and the next step stops short of the
    /// same kink again (steps of 1e-5 to 1e-3 in a row). So the point just past the first
    /// kink in `(acc, hi)` is tried (the activity boundary along the step is linear in α), and
    /// kept when h is lower there: the edge is then active, with a small flow, and its
    /// curvature is in the next Newton matrix.
    fn past_kink(&self, ray: &Ray<'_>, acc: f64, hi: f64, st: &mut Newton) {
        // each token's relative move along the step (0 off the step's tokens)
        let sv = &mut st.sv;
        sv.clear();
        sv.resize(self.n, 0.0);
        for (p, &k) in ray.rset.iter().enumerate() {
            sv[k] = ray.sol[p];
        }
        // the first edge of the segment's candidates that turns on in (acc, hi): where
        // `ν_o rate0 (1 + α s_o) = ν_i (1 + α s_i)`, and the log rate at which its price
        // ratio crosses there
        let (mut first, mut rate) = (hi, 0.0);
        for &e in &st.cand {
            let (ti, to, rate0) = self.hot[e];
            let (ti, to) = (ti as usize, to as usize);
            let (vi, vo) = (ray.nu[ti], ray.nu[to] * rate0);
            let (si, so) = (sv[ti], sv[to]);
            let gap = |a: f64| vo * (1.0 + a * so) - vi * (1.0 + a * si);
            if gap(acc) <= 0.0 && gap(hi) > 0.0 {
                let a = (vi - vo) / (vo * so - vi * si);
                if a > acc && a < first {
                    first = a;
                    rate = so / (1.0 + a * so) - si / (1.0 + a * si);
                }
            }
        }
        if !(first < hi) || !(rate > 0.0) {
            return;
        }
        // past the kink by a price ratio of 1e-9: the edge's flow is positive there
        let at = first + 1e-9 / rate;
        if !(at < hi) || !trial(ray.nu, ray.rset, ray.sol, at, &mut st.nx) {
            return;
        }
        self.eval_into(&st.nx, Some(&st.cand), &mut st.evn);
        let he = self.h(&st.nx, &st.evn);
        if he > 0.0 && he < st.t {
            core::mem::swap(&mut st.ev, &mut st.evn);
            st.t = he;
            st.nn.copy_from_slice(&st.nx);
        }
    }

    /// Backtracking from α = 1: a trial is accepted when h falls (or, within its float
    /// noise, the balance residual does); else α moves to the minimum of the quadratic
    /// through h(0), h'(0), h(α), kept within [α/10, α/2]. The accepted (α, slope there) and
    /// the nearest failed trial beyond it with a positive slope (h is convex along the step,
    /// so the minimum lies between); `None` when no trial is accepted.
    #[allow(clippy::type_complexity)]
    fn backtrack(
        &self,
        ray: &Ray<'_>,
        h_cur: f64,
        d0: f64,
        err: f64,
        st: &mut Newton,
    ) -> Option<((f64, f64), Option<(f64, f64)>)> {
        let mut alpha = 1.0;
        let mut beyond: Option<(f64, f64)> = None;
        // near the optimum a failing full step is float noise, not a bad direction
        // (below 1e-8 a few halvings settle it: the stop is at 1e-9)
        let halvings = if err < 1e-8 {
            4
        } else if err < 1e-6 {
            12
        } else {
            30
        };
        for _ in 0..halvings {
            if trial(ray.nu, ray.rset, ray.sol, alpha, &mut st.nn) {
                self.eval_into(&st.nn, Some(&st.cand), &mut st.evn);
                let hn = self.h(&st.nn, &st.evn);
                // h is the merit; within its float noise, the balance residual decides
                let errn = self.resid(&st.evn, &st.nn, hn, ray.rset);
                let better = hn < h_cur * (1.0 - 1e-14)
                    || (hn <= h_cur * (1.0 + 1e-14) && errn < err * (1.0 - 1e-4 * alpha));
                if hn > 0.0 && better {
                    let took = (alpha, ray.slope(self.c, &st.evn, &st.nn, hn));
                    core::mem::swap(&mut st.ev, &mut st.evn);
                    st.t = hn;
                    return Some((took, beyond));
                }
                if hn.is_finite() {
                    let d = ray.slope(self.c, &st.evn, &st.nn, hn);
                    if d > 0.0 {
                        beyond = Some((alpha, d));
                    }
                }
                // backtrack to the minimum of the quadratic through h(0), h'(0), h(α),
                // kept within [α/10, α/2]
                let curv = hn - h_cur - d0 * alpha;
                if d0 < 0.0 && curv > 0.0 && hn.is_finite() {
                    let aq = -d0 * alpha * alpha / (2.0 * curv);
                    alpha = aq.clamp(0.1 * alpha, 0.5 * alpha);
                    continue;
                }
            }
            alpha *= 0.5;
        }
        None
    }

    /// A backtracked step that still descends steeply stops short of a kink (an edge turning
    /// on): up to [`SECANT_STEPS`] secant steps on the slope between it (`lo`) and the failed
    /// trial beyond (`hi`), each kept when it lowers h further (the line minimum, just past
    /// the kink, puts the new edge in the next Newton matrix). This turns a crawl of 10%
    /// steps into a few full ones. Returns the α of the point kept (in `st.nn`) and the end
    /// of the bracket beyond it.
    fn secant(
        &self,
        ray: &Ray<'_>,
        mut lo: (f64, f64),
        mut hi: (f64, f64),
        d0: f64,
        st: &mut Newton,
    ) -> (f64, f64) {
        let mut acc = lo.0;
        for _ in 0..SECANT_STEPS {
            let ((a0, d_a), (a1, d1)) = (lo, hi);
            if !(d_a < 0.0) || !(a1 > a0) || !(d1 > d_a) {
                break;
            }
            let w = a1 - a0;
            let ae = (a0 + w * (-d_a / (d1 - d_a))).clamp(a0 + 0.1 * w, a1 - 0.1 * w);
            if !trial(ray.nu, ray.rset, ray.sol, ae, &mut st.nx) {
                break;
            }
            self.eval_into(&st.nx, Some(&st.cand), &mut st.evn);
            let he = self.h(&st.nx, &st.evn);
            if !he.is_finite() {
                break;
            }
            let de = ray.slope(self.c, &st.evn, &st.nx, he);
            if he > 0.0 && he < st.t {
                core::mem::swap(&mut st.ev, &mut st.evn);
                st.t = he;
                st.nn.copy_from_slice(&st.nx);
                acc = ae;
            }
            // h is convex along the step: the minimum stays bracketed
            if de < 0.0 && he <= st.t {
                lo = (ae, de);
            } else {
                hi = (ae, de);
            }
            if de.abs() < 0.1 * d0.abs() {
                break;
            }
        }
        (acc, hi.0)
    }
}

impl Dual<'_> {
    /// The edges that can be active at some point `ν_k (1 + α s_k)`, α in (0, 1], of the
    /// step `ray`, in increasing order, into `st.cand`: the line search evaluates only these.
    ///
    /// Exact, not a heuristic. An edge i → o is active only where `ν_o rate0 > ν_i`. Along
    /// the step that ratio is `ν_o rate0 / ν_i · r(α)` with `r(α) = (1 + α s_o) / (1 + α s_i)`,
    /// monotone in α while `1 + α s_i > 0` (its derivative has the sign of `s_o − s_i`), so
    /// on (0, 1] it stays below `max(r(0), r(1)) = max(1, r(1))`. An edge whose test fails at
    /// both ends (with a relative margin of 1e-9, far above the rounding of the trial
    /// points) fails it at every trial, contributes nothing to h or its gradient, and leaving
    /// it out changes no sum (the others are visited in the same order). An edge whose input
    /// price can reach 0 on the segment (`1 + s_i ≤ 1e-6`) is always kept.
    fn ray_candidates(&self, ray: &Ray<'_>, st: &mut Newton) {
        const KEEP: f64 = 1.0 - 1e-9;
        // per token, the two ends' sides of the test: as an input `ν KEEP` and
        // `ν KEEP (1 + s)` (−∞ for both where `1 + s ≤ 1e-6`: every edge out is kept), as an
        // output `ν` and `ν (1 + s)`; an edge then reads 32 bytes per end and multiplies by
        // its rate (the products round differently from `(ν_o rate0)(1 + s_o)` by an ulp,
        // far inside the 1e-9 margin: the same edges can be active on the segment)
        let ends = &mut st.step;
        ends.clear();
        ends.extend(ray.nu.iter().map(|v| [v * KEEP, v * KEEP, *v, *v]));
        for (p, &k) in ray.rset.iter().enumerate() {
            let g = 1.0 + ray.sol[p];
            let v = ray.nu[k];
            ends[k] = if g > 1e-6 {
                [v * KEEP, v * KEEP * g, v, v * g]
            } else {
                [f64::NEG_INFINITY, f64::NEG_INFINITY, v, v * g]
            };
        }
        // (a branch: a few percent of the edges are kept, written only then)
        let cand = &mut st.cand;
        cand.clear();
        for (e, &(ti, to, rate0)) in self.hot.iter().enumerate() {
            let [vi, vi1, _, _] = ends[ti as usize];
            let [_, _, vo, vo1] = ends[to as usize];
            if (rate0 * vo > vi) | (rate0 * vo1 > vi1) {
                cand.push(e);
            }
        }
    }
}

/// The point `ν_k (1 + α s_k)` on the tokens of `rset` (`s` in rset order), `ν` elsewhere, into
/// `out`; false when a price there is not positive and finite.
fn trial(nu: &[f64], rset: &[usize], s: &[f64], alpha: f64, out: &mut [f64]) -> bool {
    out.copy_from_slice(nu);
    for (p, &k) in rset.iter().enumerate() {
        let v = nu[k] * (1.0 + alpha * s[p]);
        if !(v > 0.0) || !v.is_finite() {
            return false;
        }
        out[k] = v;
    }
    true
}
