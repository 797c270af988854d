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
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64 and indices < n checked by construction

use super::model::{Arb, EdgeModel};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;

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

/// One edge of the sparse Newton matrix: local token indices and the Laplacian weight.
type Lap = (u32, u32, f64);

/// y ← A v for the Laplacian edges plus the diagonal `reg`, with coordinate `p0` pinned to 0
/// (row and column). The CG vectors are 0 at `p0`, so only the output row needs clearing.
fn matvec(blocks: &[Lap], v: &[f64], out: &mut [f64], p0: usize, reg: &[f64]) {
    for (o, (x, r)) in out.iter_mut().zip(v.iter().zip(reg)) {
        *o = r * x;
    }
    for &(i, o, w) in blocks {
        let (i, o) = (i as usize, o as usize);
        let d = w * (v[i] - v[o]);
        out[i] += d;
        out[o] -= d;
    }
    out[p0] = 0.0;
}

/// y ← A v for two vectors at once (one pass over the edges), as [`matvec`].
fn matvec2(blocks: &[Lap], v: [&[f64]; 2], out: [&mut [f64]; 2], p0: usize, reg: &[f64]) {
    let [v0, v1] = v;
    let [o0, o1] = out;
    for k in 0..reg.len() {
        o0[k] = reg[k] * v0[k];
        o1[k] = reg[k] * v1[k];
    }
    for &(i, o, w) in blocks {
        let (i, o) = (i as usize, o as usize);
        let d0 = w * (v0[i] - v0[o]);
        let d1 = w * (v1[i] - v1[o]);
        o0[i] += d0;
        o0[o] -= d0;
        o1[i] += d1;
        o1[o] -= d1;
    }
    o0[p0] = 0.0;
    o1[p0] = 0.0;
}

/// One conjugate-gradient recurrence (Jacobi-preconditioned, pinned at `p0`).
struct Cg {
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    ap: Vec<f64>,
    rr: f64,
    bn: f64,
    rz: f64,
}

impl Cg {
    fn new(b: &[f64], inv: &[f64], p0: usize) -> Self {
        let m = b.len();
        let mut r = b.to_vec();
        r[p0] = 0.0;
        let rr = dot(&r, &r);
        let z: Vec<f64> = r.iter().zip(inv).map(|(a, d)| a * d).collect();
        let rz = dot(&r, &z);
        Cg {
            x: vec![0.0; m],
            p: z.clone(),
            z,
            r,
            ap: vec![0.0; m],
            rr,
            bn: rr.max(1e-300),
            rz,
        }
    }

    fn converged(&self, tol2: f64) -> bool {
        self.rr <= tol2 * self.bn
    }

    /// The step after `ap = A p`; `Err(done)` on breakdown, where `done` says whether the
    /// iterate is already good enough to return.
    fn step(&mut self, inv: &[f64]) -> Result<(), bool> {
        let pap = dot(&self.p, &self.ap);
        if !(pap > 0.0) || !pap.is_finite() {
            return Err(self.rr < 1e-8 * self.bn);
        }
        let alpha = self.rz / pap;
        // one pass: x, r, z and the two dot products
        let (mut rr2, mut rz2) = (0.0, 0.0);
        let vecs = self
            .x
            .iter_mut()
            .zip(self.r.iter_mut())
            .zip(self.z.iter_mut())
            .zip(self.p.iter().zip(self.ap.iter().zip(inv)));
        for (((x, r), z), (p, (ap, iv))) in vecs {
            *x += alpha * p;
            let rk = *r - alpha * ap;
            *r = rk;
            let zk = rk * iv;
            *z = zk;
            rr2 += rk * rk;
            rz2 += rk * zk;
        }
        let beta = rz2 / self.rz;
        self.rz = rz2;
        self.rr = rr2;
        for (p, z) in self.p.iter_mut().zip(&self.z) {
            *p = z + beta * *p;
        }
        Ok(())
    }
}

/// Preconditioned conjugate gradients on the pinned system for one or two right-hand sides,
/// run in lockstep so that two systems share each pass over the edges; `None` on breakdown.
fn pcg(
    blocks: &[Lap],
    pre: &[f64],
    reg: &[f64],
    bs: &[&[f64]],
    p0: usize,
    tol2: f64,
) -> Option<Vec<Vec<f64>>> {
    let m = pre.len();
    let inv: Vec<f64> = pre.iter().map(|d| 1.0 / d).collect();
    let mut cg: Vec<Cg> = bs.iter().map(|b| Cg::new(b, &inv, p0)).collect();
    let mut done = vec![false; cg.len()];
    for _ in 0..(4 * m + 50) {
        for (c, d) in cg.iter().zip(done.iter_mut()) {
            *d = *d || c.converged(tol2);
        }
        match (cg.as_mut_slice(), done.as_slice()) {
            ([a, b], [false, false]) => {
                matvec2(blocks, [&a.p, &b.p], [&mut a.ap, &mut b.ap], p0, reg);
            }
            _ => {
                let mut any = false;
                for (c, d) in cg.iter_mut().zip(&done) {
                    if !*d {
                        matvec(blocks, &c.p, &mut c.ap, p0, reg);
                        any = true;
                    }
                }
                if !any {
                    break;
                }
            }
        }
        for (c, d) in cg.iter_mut().zip(done.iter_mut()) {
            if !*d {
                match c.step(&inv) {
                    Ok(()) => {}
                    Err(true) => *d = true,
                    Err(false) => return None,
                }
            }
        }
    }
    Some(
        cg.into_iter()
            .map(|mut c| {
                c.x[p0] = 0.0;
                c.x
            })
            .collect(),
    )
}

/// The bordered Newton system `[H −c; ·] [y; dT] = [rhs]` solved with the coordinate `p0`
/// pinned (the scale of ν is free: h is homogeneous of degree 0) by two CG solves and the
/// `p0` row for dT. Returns `[y (m entries), dT]`.
fn sparse_kkt(
    blocks: &[Lap],
    diag: &[f64],
    cs: &[f64],
    rhs: &[f64],
    p0: usize,
    lam: f64,
    err: f64,
) -> Option<Vec<f64>> {
    let m = diag.len();
    // inexact Newton: CG to a relative residual of err (at most 1e-3, at least 1e-12), which
    // keeps the superlinear convergence near the optimum; below DIRECT_BELOW the exact sparse
    // factorisation
    let tol = err.clamp(1e-12, 1e-3);
    let tol2 = tol * tol;
    let direct = err < DIRECT_BELOW;
    let reg: Vec<f64> = diag
        .iter()
        .map(|d| if *d > 0.0 { lam } else { 1.0 })
        .collect();
    let pre: Vec<f64> = diag.iter().zip(&reg).map(|(d, r)| d + r).collect();
    let mut cz = cs.to_vec();
    cz[p0] = 0.0;
    let two = cz.iter().any(|v| *v != 0.0);
    let f = if direct {
        Elim::factor(blocks, diag, &reg, p0)
    } else {
        None
    };
    let (x, z) = match f {
        Some(f) => {
            let x = f.solve(&rhs[..m])?;
            let z = if two { f.solve(&cz)? } else { vec![0.0; m] };
            (x, z)
        }
        None if two => {
            let mut v = pcg(blocks, &pre, &reg, &[&rhs[..m], &cz], p0, tol2)?;
            let z = v.pop()?;
            let x = v.pop()?;
            (x, z)
        }
        None => {
            let x = pcg(blocks, &pre, &reg, &[&rhs[..m]], p0, tol2)?.pop()?;
            (x, vec![0.0; m])
        }
    };
    // row p0 of H times a vector
    let row = |v: &[f64]| -> f64 {
        let mut s = 0.0;
        for &(i, o, w) in blocks {
            let (i, o) = (i as usize, o as usize);
            if i == p0 {
                s += w * (v[i] - v[o]);
            }
            if o == p0 {
                s += w * (v[o] - v[i]);
            }
        }
        s
    };
    let den = row(&z) - cs[p0];
    if !(den.abs() > 0.0) {
        return None;
    }
    let dt = (rhs[p0] - row(&x)) / den;
    let mut sol: Vec<f64> = x.iter().zip(&z).map(|(a, b)| a + b * dt).collect();
    sol[p0] = 0.0;
    sol.push(dt);
    sol.iter().all(|v| v.is_finite()).then_some(sol)
}

/// Secant steps on the slope after a backtracked step that still descends (see the line
/// search in [`Dual::solve`]).
const SECANT_STEPS: usize = 2;

/// Residual below which the sparse Newton system is solved directly ([`Elim`]); above it the
/// truncated CG (tolerance = the residual) takes shorter steps, which crosses the changes of
/// the active set in fewer line-search evaluations than the exact Newton step.
const DIRECT_BELOW: f64 = 1e-6;

/// Largest core (what is left after leaf and series elimination) factored densely; above it
/// the CG path.
const CORE_MAX: usize = 160;

/// One eliminated token: its index, pivot, and its (at most two) neighbours with couplings.
#[derive(Debug, Clone, Copy)]
struct ElimStep {
    v: usize,
    piv: f64,
    nb: [(usize, f64); 2],
    n: usize,
}

/// A direct factorisation of the pinned, regularised Newton matrix.
///
/// The scaled dual Hessian of one edge is rank one with zero row sums (arb is homogeneous of
/// degree 1 in its two prices), so the matrix is a weighted graph Laplacian on the active
/// tokens. Tokens with at most two neighbours are eliminated exactly (a leaf folds into its
/// neighbour, a series token becomes one edge between its two neighbours: no fill), which on
/// market graphs leaves a core of a few dozen hubs, factored by dense Cholesky. Exact, unlike
/// CG, whose iteration count grows with the spread of pool depths.
struct Elim {
    m: usize,
    p0: usize,
    /// eliminated tokens in order: (token, pivot, up to two (neighbour, coupling))
    steps: Vec<ElimStep>,
    /// core tokens and the dense Cholesky factor (row-major lower triangle)
    core: Vec<usize>,
    chol: Vec<f64>,
}

impl Elim {
    fn factor(blocks: &[Lap], diag: &[f64], reg: &[f64], p0: usize) -> Option<Elim> {
        let m = diag.len();
        // merged adjacency without p0 (pinned to 0): neighbour lists and the diagonal
        let mut d: Vec<f64> = diag.iter().zip(reg).map(|(a, r)| a + r).collect();
        let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); m];
        for &(i, o, w) in blocks {
            let (i, o) = (i as usize, o as usize);
            if i == o || i == p0 || o == p0 {
                continue;
            }
            add_entry(&mut adj[i], o, -w);
            add_entry(&mut adj[o], i, -w);
        }
        let mut gone = vec![false; m];
        gone[p0] = true;
        let mut steps = Vec::new();
        let mut queue: Vec<usize> = (0..m).filter(|v| *v != p0 && adj[*v].len() <= 2).collect();
        while let Some(v) = queue.pop() {
            if gone[v] || adj[v].len() > 2 {
                continue;
            }
            let piv = d[v];
            if !(piv > 0.0) || !piv.is_finite() {
                return None;
            }
            let nb = core::mem::take(&mut adj[v]);
            let mut rec = [(usize::MAX, 0.0); 2];
            for (s, &(a, w)) in nb.iter().enumerate() {
                rec[s] = (a, w);
                d[a] -= w * w / piv;
                adj[a].retain(|e| e.0 != v);
            }
            if let [(a, wa), (b, wb)] = nb[..] {
                let f = -wa * wb / piv;
                add_entry(&mut adj[a], b, f);
                add_entry(&mut adj[b], a, f);
            }
            for &(a, _) in &nb {
                if adj[a].len() <= 2 {
                    queue.push(a);
                }
            }
            gone[v] = true;
            steps.push(ElimStep {
                v,
                piv,
                nb: rec,
                n: nb.len(),
            });
        }
        let core: Vec<usize> = (0..m).filter(|v| !gone[*v]).collect();
        let c = core.len();
        if c > CORE_MAX {
            return None;
        }
        let mut pos = vec![usize::MAX; m];
        for (p, &v) in core.iter().enumerate() {
            pos[v] = p;
        }
        let mut a = vec![0.0; c * c];
        for (p, &v) in core.iter().enumerate() {
            a[p * c + p] = d[v];
            for &(u, w) in &adj[v] {
                let q = pos[u];
                if q != usize::MAX {
                    a[p * c + q] += w;
                }
            }
        }
        // Cholesky, lower triangle in place (row j of L is final before rows below read it)
        for j in 0..c {
            let (done, rest) = a.split_at_mut((j + 1) * c);
            let rj = &mut done[j * c..(j + 1) * c];
            let s = rj[j] - dot(&rj[..j], &rj[..j]);
            if !(s > 0.0) || !s.is_finite() {
                return None;
            }
            let l = crate::math::float::sqrt(s);
            rj[j] = l;
            let lj = &rj[..j];
            for ri in rest.chunks_exact_mut(c) {
                ri[j] = (ri[j] - dot(&ri[..j], lj)) / l;
            }
        }
        Some(Elim {
            m,
            p0,
            steps,
            core,
            chol: a,
        })
    }

    /// Solve for one right-hand side (entry `p0` ignored; the answer has 0 there).
    fn solve(&self, rhs: &[f64]) -> Option<Vec<f64>> {
        let mut r = rhs.to_vec();
        r[self.p0] = 0.0;
        for st in &self.steps {
            for &(a, w) in &st.nb[..st.n] {
                r[a] -= w / st.piv * r[st.v];
            }
        }
        let c = self.core.len();
        let l = &self.chol;
        let mut y: Vec<f64> = self.core.iter().map(|v| r[*v]).collect();
        for i in 0..c {
            let mut t = y[i];
            for k in 0..i {
                t -= l[i * c + k] * y[k];
            }
            y[i] = t / l[i * c + i];
        }
        for i in (0..c).rev() {
            let mut t = y[i];
            for k in i + 1..c {
                t -= l[k * c + i] * y[k];
            }
            y[i] = t / l[i * c + i];
        }
        let mut x = vec![0.0; self.m];
        for (p, &v) in self.core.iter().enumerate() {
            x[v] = y[p];
        }
        for st in self.steps.iter().rev() {
            let mut t = r[st.v];
            for &(a, w) in &st.nb[..st.n] {
                t -= w * x[a];
            }
            x[st.v] = t / st.piv;
        }
        x.iter().all(|v| v.is_finite()).then_some(x)
    }
}

/// Add `w` to the entry for neighbour `u` (a new entry when absent).
fn add_entry(list: &mut Vec<(usize, f64)>, u: usize, w: f64) {
    match list.iter_mut().find(|e| e.0 == u) {
        Some(e) => e.1 += w,
        None => list.push((u, w)),
    }
}

/// Σ a_k b_k over the common length, in four interleaved partial sums (independent add
/// chains: the vectorisable form of the reduction).
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut s = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            s[k] += x[k] * y[k];
        }
    }
    (s[0] + s[1]) + (s[2] + s[3]) + tail
}

fn normalise(nu: &mut [f64], c: &[f64]) {
    let s = dot(c, nu);
    if s > 0.0 {
        for v in nu.iter_mut() {
            *v /= s;
        }
    }
}

/// Gaussian elimination with partial pivoting; `None` when singular.
fn solve_dense(a: &mut [f64], mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let mut piv = col;
        let mut best = a[col * n + col].abs();
        for r in col + 1..n {
            let v = a[r * n + col].abs();
            if v > best {
                best = v;
                piv = r;
            }
        }
        if !(best > 0.0) || !best.is_finite() {
            return None;
        }
        if piv != col {
            for k in 0..n {
                a.swap(col * n + k, piv * n + k);
            }
            b.swap(col, piv);
        }
        let d = a[col * n + col];
        for r in col + 1..n {
            let f = a[r * n + col] / d;
            if f != 0.0 {
                for k in col..n {
                    a[r * n + k] -= f * a[col * n + k];
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let mut s = b[r];
        for k in r + 1..n {
            s -= a[r * n + k] * x[k];
        }
        x[r] = s / a[r * n + r];
        if !x[r].is_finite() {
            return None;
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random numbers in [0, 1).
    struct Lcg(u64);
    impl Lcg {
        fn f(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Laplacian edges of a random graph: a chain through all nodes (leaves and
    /// series tokens) plus `extra` random edges among the first `hub` nodes (the core), weights
    /// spread over twelve orders of magnitude like pool depths.
    fn laplacian(m: usize, hub: usize, extra: usize, seed: u64) -> (Vec<Lap>, Vec<f64>) {
        let mut r = Lcg(seed);
        let mut blocks = Vec::new();
        let mut diag = vec![0.0; m];
        let mut add = |i: usize, o: usize, w: f64, blocks: &mut Vec<_>| {
            blocks.push((i as u32, o as u32, w));
            diag[i] += w;
            diag[o] += w;
        };
        for k in 1..m {
            let w = 10f64.powf(12.0 * r.f());
            add(k - 1, k, w, &mut blocks);
        }
        for _ in 0..extra {
            let i = (r.f() * hub as f64) as usize;
            let o = (r.f() * hub as f64) as usize;
            if i != o {
                let w = 10f64.powf(12.0 * r.f());
                add(i, o, w, &mut blocks);
            }
        }
        (blocks, diag)
    }

    #[test]
    fn elimination_solves_the_pinned_system() {
        for (m, hub, extra, p0) in [(2, 2, 0, 0), (40, 10, 30, 3), (300, 60, 400, 7)] {
            let (blocks, diag) = laplacian(m, hub, extra, m as u64);
            let dmax = diag.iter().copied().fold(0.0, f64::max);
            let reg = vec![1e-12 * dmax; m];
            let f = Elim::factor(&blocks, &diag, &reg, p0).expect("factor");
            assert!(f.core.len() <= hub, "core {} of {m}", f.core.len());
            let mut r = Lcg(99);
            let rhs: Vec<f64> = (0..m).map(|_| r.f() - 0.5).collect();
            let x = f.solve(&rhs).expect("solve");
            assert_eq!(x[p0], 0.0);
            let mut ax = vec![0.0; m];
            matvec(&blocks, &x, &mut ax, p0, &reg);
            // backward error: the residual against |A|·|x| (weights span 1e12, so the
            // system is far from well conditioned)
            let xmax = x.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            let scale = 4.0 * dmax * xmax;
            for k in (0..m).filter(|k| *k != p0) {
                assert!(
                    (ax[k] - rhs[k]).abs() <= 1e-12 * scale,
                    "m {m} row {k}: {} vs {}",
                    ax[k],
                    rhs[k]
                );
            }
        }
    }

    #[test]
    fn elimination_declines_a_large_core() {
        // every token with at least three neighbours: nothing to eliminate, core too big for
        // the dense factor, the caller falls back to CG
        let m = CORE_MAX + 20;
        let mut blocks = Vec::new();
        let mut diag = vec![0.0; m];
        for i in 0..m {
            for d in 1..=2 {
                let o = (i + d) % m;
                blocks.push((i as u32, o as u32, 1.0));
                diag[i] += 1.0;
                diag[o] += 1.0;
            }
        }
        let reg = vec![1e-9; m];
        assert!(Elim::factor(&blocks, &diag, &reg, 0).is_none());
    }
}
