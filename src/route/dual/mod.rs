//! The dual of the routing problem and its minimisation.
//!
//! Problem (aggregate model): each directed pool edge e = (i → j) carries one input flow
//! `x_e ≥ 0` priced on the snapshot state, `out_e(x_e)`; token balances
//! `b + Σ_in out_e − Σ_out x_e ≥ 0`; objective the basket value `T` with `balance_k ≥ T c_k` at
//! the outputs. For prices ν > 0 (Angeris et al. 2022, Diamandis et al. 2023)
//!
//! ```text
//!   T* ≤ h(ν) = (b·ν + Σ_e arb_e(ν)) / (c·ν),   arb_e(ν) = max_x ν_j out_e(x) − ν_i x.
//! ```
//!
//! `h` is minimised by Gauss–Seidel sweeps (each token price solved so that its own balance
//! clears, which activates the edges) followed by Newton's method on the KKT system
//! `∇g(ν) = T c, c·ν = 1` over the tokens touched by active edges, with the dual Hessian
//! assembled from the per-edge implicit derivatives `dx/dν_i = 1/(ν_j f'')`,
//! `dx/dν_j = −f'/(ν_j f'')`, and a backtracking line search on the balance residual.
//! The linear algebra of the Newton step (dense, sparse direct, conjugate gradients) is in
//! `linalg.rs`.
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64 and indices < n checked by construction

mod linalg;

use super::model::{Arb, EdgeModel};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;
use linalg::{dot, solve_dense, sparse_kkt, Lap};

/// One directed edge of the pruned problem (local token indices).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DEdge {
    pub ti: usize,
    pub to: usize,
    pub m: EdgeModel,
    pub rate0: f64,
}

/// The pruned problem in local indices.
#[derive(Debug)]
pub(crate) struct Dual<'a> {
    pub n: usize,
    pub edges: &'a [DEdge],
    pub b: &'a [f64],
    pub c: &'a [f64],
    /// edges leaving / entering each token (CSR: `adj[start[k]..start[k + 1]]`, out then in)
    adj: Vec<u32>,
    out_start: Vec<usize>,
    in_start: Vec<usize>,
    /// per edge (input token, output token, zero-size rate): the activity test of an
    /// evaluation reads these 16 bytes instead of the whole edge model
    hot: Vec<(u32, u32, f64)>,
    /// last Curve solution per edge (coin units), to warm-start the next one
    warm: Vec<Cell<f64>>,
}

/// The state at one ν.
#[derive(Debug, Clone, Default)]
pub(crate) struct Eval {
    pub g: f64,
    pub grad: Vec<f64>,
    /// the active edges (index, arbitrage solution with x > 0), in edge order
    pub act: Vec<(usize, Arb)>,
}

impl<'a> Dual<'a> {
    pub fn new(n: usize, edges: &'a [DEdge], b: &'a [f64], c: &'a [f64]) -> Self {
        // CSR adjacency by counting sort: out-edges of every token, then in-edges
        let (out_start, out_adj) = csr(n, edges.iter().map(|e| e.ti));
        let (in_start, in_adj) = csr(n, edges.iter().map(|e| e.to));
        let mut adj = out_adj;
        adj.extend_from_slice(&in_adj);
        let warm = (0..edges.len()).map(|_| Cell::new(0.0)).collect();
        // local token indices are < n, which fits u32 for any graph the router builds
        let hot = edges
            .iter()
            .map(|e| {
                (
                    u32::try_from(e.ti).unwrap_or(u32::MAX),
                    u32::try_from(e.to).unwrap_or(u32::MAX),
                    e.rate0,
                )
            })
            .collect();
        Dual {
            n,
            edges,
            b,
            c,
            adj,
            out_start,
            in_start,
            hot,
            warm,
        }
    }

    /// Edges leaving token k.
    fn out_edges(&self, k: usize) -> &[u32] {
        &self.adj[self.out_start[k]..self.out_start[k + 1]]
    }

    /// Edges entering token k.
    fn in_edges(&self, k: usize) -> &[u32] {
        let base = self.out_start[self.n];
        &self.adj[base + self.in_start[k]..base + self.in_start[k + 1]]
    }

    #[inline]
    fn arb_of(&self, k: usize, nu: &[f64]) -> Arb {
        let e = &self.edges[k];
        if nu[e.to] * e.rate0 > nu[e.ti] {
            if let EdgeModel::Sw(s) = &e.m {
                let a = e.m.arb_hint(nu[e.ti], nu[e.to], self.warm[k].get());
                if a.x > 0.0 {
                    self.warm[k].set(a.x * s.ci());
                }
                a
            } else {
                e.m.arb(nu[e.ti], nu[e.to])
            }
        } else {
            Arb::default()
        }
    }

    pub fn eval(&self, nu: &[f64]) -> Eval {
        let mut ev = Eval::default();
        self.eval_into(nu, None, &mut ev);
        ev
    }

    /// Evaluate at `nu` into `ev` (buffers reused), over every edge or only over `cand` (edge
    /// indices in increasing order). Restricting to `cand` gives exactly the full result when
    /// every edge outside it was inactive and kept both its prices: such an edge contributes
    /// nothing to g or the gradient, and the active terms are summed in the same order.
    pub fn eval_into(&self, nu: &[f64], cand: Option<&[usize]>, ev: &mut Eval) {
        ev.grad.clear();
        ev.grad.extend_from_slice(self.b);
        ev.g = self.b.iter().zip(nu).map(|(b, v)| b * v).sum();
        ev.act.clear();
        let mut visit = |k: usize, ti: u32, to: u32, rate0: f64| {
            let (ti, to) = (ti as usize, to as usize);
            // inactive unless its zero-size rate beats the price ratio (as in `arb_of`)
            if !(nu[to] * rate0 > nu[ti]) {
                return;
            }
            let a = self.arb_of(k, nu);
            if a.x > 0.0 {
                ev.g += nu[to] * a.o - nu[ti] * a.x;
                ev.grad[to] += a.o;
                ev.grad[ti] -= a.x;
                ev.act.push((k, a));
            }
        };
        match cand {
            None => {
                for (k, &(ti, to, rate0)) in self.hot.iter().enumerate() {
                    visit(k, ti, to, rate0);
                }
            }
            Some(ks) => {
                for &k in ks {
                    let (ti, to, rate0) = self.hot[k];
                    visit(k, ti, to, rate0);
                }
            }
        }
    }

    pub fn h(&self, nu: &[f64], ev: &Eval) -> f64 {
        ev.g / dot(self.c, nu)
    }

    /// Balance of token k as a function of its own price (others fixed): increasing in ν_k.
    fn balance_at(&self, k: usize, nu: &mut [f64], v: f64) -> f64 {
        let old = nu[k];
        nu[k] = v;
        let mut r = self.b[k];
        for &e in self.out_edges(k) {
            r -= self.arb_of(e as usize, nu).x;
        }
        for &e in self.in_edges(k) {
            r += self.arb_of(e as usize, nu).o;
        }
        nu[k] = old;
        r
    }

    /// Solve balance_k(ν_k) = 0 by bracketing and geometric bisection.
    pub fn coord(&self, k: usize, nu: &mut [f64]) {
        let v0 = nu[k];
        let r0 = self.balance_at(k, nu, v0);
        if r0 == 0.0 {
            return;
        }
        // bracket [lo, hi] with balance(lo) ≤ 0 < balance(hi) by halving / doubling
        let (mut lo, mut hi, mut rlo, mut rhi);
        if r0 > 0.0 {
            (hi, rhi) = (v0, r0);
            lo = v0 * 0.5;
            let mut t = 0;
            loop {
                let r = self.balance_at(k, nu, lo);
                if !(r > 0.0) {
                    rlo = r;
                    break;
                }
                (hi, rhi) = (lo, r);
                lo *= 0.5;
                t += 1;
                if t > 200 {
                    return;
                }
            }
        } else {
            (lo, rlo) = (v0, r0);
            hi = v0 * 2.0;
            let mut t = 0;
            loop {
                let r = self.balance_at(k, nu, hi);
                if !(r < 0.0) {
                    rhi = r;
                    break;
                }
                (lo, rlo) = (hi, r);
                hi *= 2.0;
                t += 1;
                if t > 200 {
                    return;
                }
            }
        }
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
            let r = self.balance_at(k, nu, x);
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

    /// Minimise h from `nu` (modified in place, normalised to c·ν = 1). Returns h(ν).
    pub fn solve(
        &self,
        nu: &mut Vec<f64>,
        order: &[usize],
        is_out: &[bool],
        max_newton: usize,
    ) -> f64 {
        let n = self.n;
        normalise(nu, self.c);
        // Gauss–Seidel sweeps over the non-output tokens
        for _ in 0..1 {
            for &k in order {
                if !is_out[k] {
                    self.coord(k, nu);
                }
            }
        }
        let mut ev = self.eval(nu);
        let mut t = self.h(nu, &ev);
        let mut best_nu = nu.clone();
        let mut best_h = t;
        let resid = |ev: &Eval, nu: &[f64], t: f64, rset: &[usize]| -> f64 {
            let mut m: f64 = 0.0;
            for &k in rset {
                let r = (ev.grad[k] - t * self.c[k]) * nu[k];
                m = m.max(r.abs());
            }
            m / t.abs().max(1e-300)
        };
        let mut stall = 0;
        let mut slow = 0;
        // Newton iterations since h last fell by more than its float noise (1e-13 relative),
        // and the residual at the best point so far
        let mut since_best = 0usize;
        let mut ref_h = f64::INFINITY;
        let mut best_err = f64::INFINITY;
        let mut prev_err = f64::INFINITY;
        let mut cand: Vec<usize> = Vec::new();
        let mut evn = Eval::default();
        let mut nn = nu.clone();
        let mut nx = nu.clone();
        for _it in 0..max_newton {
            // active set
            let mut in_r = vec![false; n];
            for &(k, _) in &ev.act {
                let e = &self.edges[k];
                in_r[e.ti] = true;
                in_r[e.to] = true;
            }
            // A supplied token (b > 0) without an active edge has no curvature: Newton cannot
            // move its price, and a sweep further down the chain may have pushed its edges back
            // out of the money. Balance it by its own coordinate first (h only falls).
            let mut moved = false;
            for (k, r) in in_r.iter().enumerate() {
                if !*r && self.b[k] > 0.0 && !is_out.get(k).copied().unwrap_or(true) {
                    self.coord(k, nu);
                    moved = true;
                }
            }
            if moved {
                ev = self.eval(nu);
                t = self.h(nu, &ev);
                if t < best_h {
                    best_h = t;
                    best_nu.clone_from(nu);
                }
                in_r.iter_mut().for_each(|r| *r = false);
                for &(k, _) in &ev.act {
                    let e = &self.edges[k];
                    in_r[e.ti] = true;
                    in_r[e.to] = true;
                }
            }
            for (k, r) in in_r.iter_mut().enumerate() {
                if self.b[k] > 0.0 || self.c[k] > 0.0 {
                    *r = true;
                }
            }
            let rset: Vec<usize> = (0..n).filter(|k| in_r[*k]).collect();
            // the edges a step on the rset prices can change: those touching an rset token
            // (every other edge is inactive and keeps both its prices)
            // (without branches: the pattern is unpredictable, and each index is written
            // unconditionally and kept by advancing the count)
            cand.clear();
            cand.resize(self.hot.len(), 0);
            let mut nc = 0usize;
            for (e, &(ti, to, _)) in self.hot.iter().enumerate() {
                cand[nc] = e;
                nc += usize::from(in_r[ti as usize] | in_r[to as usize]);
            }
            cand.truncate(nc);
            let err = resid(&ev, nu, t, &rset);
            if t <= best_h {
                best_err = err;
            }
            if t < ref_h * (1.0 - 1e-13) {
                ref_h = t;
                since_best = 0;
            } else {
                since_best += 1;
            }
            // The best point is returned: once it balances to 1e-7 and six more iterations
            // (sweeps and line searches at the float noise floor) did not lower h beyond its
            // noise, stop. They cost hundreds of evaluations without changing the result.
            if since_best >= 6 && best_err < 1e-7 {
                break;
            }
            // whatever the residual, twelve iterations without a lower h are a stall (an edge
            // flipping at its activity boundary, or float noise): the best point stands
            if since_best >= 12 {
                break;
            }
            // 1e-8: the public instances reach the same ratios (to 1e-9) as with 1e-9 and 1e-11;
            // below it the steps fight float noise (2% of the instructions per quote)
            if err < 1e-8 {
                break;
            }
            // float noise floor: stop after three steps that do not halve the residual
            if err > 0.5 * prev_err {
                slow += 1;
                if slow >= 3 && err < 1e-8 {
                    break;
                }
            } else {
                slow = 0;
            }
            prev_err = err;
            let m = rset.len();
            let mut pos = vec![usize::MAX; n];
            for (p, &k) in rset.iter().enumerate() {
                pos[k] = p;
            }
            let dim = m + 1;
            let dense = m <= DENSE_MAX;
            let mut kk = if dense {
                vec![0.0; dim * dim]
            } else {
                Vec::new()
            };
            // the scaled Hessian: 2×2 blocks per active edge (symmetric: h_io = h_oi), dense, or
            // for the sparse path one Laplacian weight w = −h_io per edge (each block is rank one
            // with zero row sums, h_ii = −h_io = h_oo, as arb is homogeneous of degree 1 in its
            // two prices and f' = ν_i/ν_o at its optimum)
            let mut blocks: Vec<Lap> = Vec::new();
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
            let dmax: f64 = diag.iter().copied().fold(0.0, f64::max);
            if !(dmax > 0.0) {
                // nothing active: sweep and retry
                for &k in order {
                    if !is_out[k] {
                        self.coord(k, nu);
                    }
                }
                ev = self.eval(nu);
                t = self.h(nu, &ev);
                stall += 1;
                if stall > 3 {
                    break;
                }
                continue;
            }
            if dense {
                for (p, &k) in rset.iter().enumerate() {
                    let cs = self.c[k] * nu[k];
                    kk[p * dim + m] = -cs;
                    kk[m * dim + p] = cs;
                }
            }
            let cs: Vec<f64> = rset.iter().map(|&k| self.c[k] * nu[k]).collect();
            // the pinned coordinate of the sparse solve: the output with the largest c_k ν_k
            let p0 = (0..m).fold(0, |b, p| if cs[p] > cs[b] { p } else { b });
            let mut rhs = vec![0.0; dim];
            for (p, &k) in rset.iter().enumerate() {
                rhs[p] = -(ev.grad[k] - t * self.c[k]) * nu[k];
            }
            rhs[m] = 1.0 - dot(self.c, nu);
            let h_cur = t;
            let mut accepted = false;
            let lams: &[f64] = if dense {
                &[0.0, 1e-8, 1e-3]
            } else {
                &[1e-12, 1e-6]
            };
            for &lam in lams {
                let sol = if dense {
                    let mut a = kk.clone();
                    if lam > 0.0 {
                        for p in 0..m {
                            a[p * dim + p] += lam * dmax;
                        }
                    }
                    solve_dense(&mut a, rhs.clone(), dim)
                } else {
                    sparse_kkt(&blocks, &diag, &cs, &rhs, p0, lam * dmax, err)
                };
                let Some(sol) = sol else {
                    continue;
                };
                let mut alpha = 1.0;
                // the slope at 0 of h along the step, h(α) with ν_k(1 + α s_k), for the
                // interpolated backtracking below
                let (mut dg, mut dc) = (0.0, 0.0);
                for (p, &k) in rset.iter().enumerate() {
                    dg += ev.grad[k] * nu[k] * sol[p];
                    dc += self.c[k] * nu[k] * sol[p];
                }
                let cn = dot(self.c, nu);
                let d0 = (dg - h_cur * dc) / cn;

                // the slope of h along the step at a point evaluated into `e` (ν(α) in `at`)
                let slope = |e: &Eval, at: &[f64], h_at: f64| -> f64 {
                    let mut d = 0.0;
                    for (p, &k) in rset.iter().enumerate() {
                        d += e.grad[k] * nu[k] * sol[p];
                    }
                    (d - h_at * dc) / dot(self.c, at)
                };
                // the nearest failed trial beyond the accepted one, with its slope (> 0): h is
                // convex along the step, so the minimum lies between
                let mut beyond: Option<(f64, f64)> = None;
                let mut took: Option<(f64, f64)> = None;
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
                    if trial(nu, &rset, &sol, alpha, &mut nn) {
                        self.eval_into(&nn, Some(&cand), &mut evn);
                        let hn = self.h(&nn, &evn);
                        // h is the merit; within its float noise, the balance residual decides
                        let errn = resid(&evn, &nn, hn, &rset);
                        let better = hn < h_cur * (1.0 - 1e-14)
                            || (hn <= h_cur * (1.0 + 1e-14) && errn < err * (1.0 - 1e-4 * alpha));
                        if hn > 0.0 && better {
                            took = Some((alpha, slope(&evn, &nn, hn)));
                            core::mem::swap(&mut ev, &mut evn);
                            t = hn;
                            accepted = true;
                            break;
                        }
                        if hn.is_finite() {
                            let d = slope(&evn, &nn, hn);
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
                // A backtracked step that still descends steeply stops short of a kink (an edge
                // turning on): up to SECANT_STEPS secant steps on the slope between it and the
                // failed trial beyond, each kept when it lowers h further (the line minimum,
                // just past the kink, puts the new edge in the next Newton matrix). This turns
                // a crawl of 10% steps into a few full ones.
                if let (Some(mut lo), Some(mut hi)) = (took, beyond) {
                    for _ in 0..SECANT_STEPS {
                        let ((a0, d_a), (a1, d1)) = (lo, hi);
                        if !(d_a < 0.0) || !(a1 > a0) || !(d1 > d_a) {
                            break;
                        }
                        let w = a1 - a0;
                        let ae = (a0 + w * (-d_a / (d1 - d_a))).clamp(a0 + 0.1 * w, a1 - 0.1 * w);
                        if !trial(nu, &rset, &sol, ae, &mut nx) {
                            break;
                        }
                        self.eval_into(&nx, Some(&cand), &mut evn);
                        let he = self.h(&nx, &evn);
                        if !he.is_finite() {
                            break;
                        }
                        let de = slope(&evn, &nx, he);
                        if he > 0.0 && he < t {
                            core::mem::swap(&mut ev, &mut evn);
                            t = he;
                            nn.copy_from_slice(&nx);
                        }
                        // h is convex along the step: the minimum stays bracketed
                        if de < 0.0 && he <= t {
                            lo = (ae, de);
                        } else {
                            hi = (ae, de);
                        }
                        if de.abs() < 0.1 * d0.abs() {
                            break;
                        }
                    }
                }
                if accepted {
                    nu.copy_from_slice(&nn);
                    if t < best_h {
                        best_h = t;
                        best_nu.clone_from(nu);
                    }
                }
                if accepted || err < 1e-7 {
                    break;
                }
            }
            if !accepted && err < 1e-7 {
                // at the float noise floor: nothing left to gain
                break;
            }
            if !accepted {
                // fall back to one sweep; stop when that does not help either
                for &k in order {
                    if !is_out[k] {
                        self.coord(k, nu);
                    }
                }
                ev = self.eval(nu);
                t = self.h(nu, &ev);
                if t < best_h {
                    best_h = t;
                    best_nu.clone_from(nu);
                }
                stall += 1;
                if stall > 3 {
                    break;
                }
            } else {
                // keep c·ν = 1 (h and the flows are invariant to the scale)
                // (the flows and the gradient are invariant too; only g scales)
                let s = dot(self.c, nu);
                if s > 0.0 && (s - 1.0).abs() > 1e-12 {
                    for v in nu.iter_mut() {
                        *v /= s;
                    }
                    ev.g /= s;
                }
            }
        }
        // return the best point seen (h is an upper bound at every ν)
        let evc = self.eval(nu);
        let hc = self.h(nu, &evc);
        if best_h < hc {
            nu.clone_from(&best_nu);
            normalise(nu, self.c);
            return best_h;
        }
        hc
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

/// Compressed adjacency of `n` tokens from the key token of every edge (edge indices in
/// increasing order per token): the start offsets (n + 1) and the edge list.
fn csr(n: usize, keys: impl Iterator<Item = usize> + Clone) -> (Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; n + 1];
    for t in keys.clone() {
        start[t + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut list = vec![0u32; start[n]];
    for (e, t) in keys.enumerate() {
        // edge indices fit u32 for any graph the router builds
        list[fill[t]] = u32::try_from(e).unwrap_or(u32::MAX);
        fill[t] += 1;
    }
    (start, list)
}

/// Largest active set solved densely; above it the sparse (block-Jacobi CG) path.
const DENSE_MAX: usize = 48;

/// Secant steps on the slope after a backtracked step that still descends (see the line
/// search in [`Dual::solve`]).
const SECANT_STEPS: usize = 2;

fn normalise(nu: &mut [f64], c: &[f64]) {
    let s = dot(c, nu);
    if s > 0.0 {
        for v in nu.iter_mut() {
            *v /= s;
        }
    }
}
