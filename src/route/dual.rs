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
    pub out_e: Vec<Vec<usize>>,
    pub in_e: Vec<Vec<usize>>,
    /// per edge (input token, output token, zero-size rate): the activity test of an
    /// evaluation reads these 16 bytes instead of the whole edge model
    hot: Vec<(u32, u32, f64)>,
    /// last Curve solution per edge (coin units), to warm-start the next one
    warm: Vec<Cell<f64>>,
}

/// The state at one ν.
#[derive(Debug, Clone)]
pub(crate) struct Eval {
    pub g: f64,
    pub grad: Vec<f64>,
    pub arb: Vec<Arb>,
}

impl<'a> Dual<'a> {
    pub fn new(n: usize, edges: &'a [DEdge], b: &'a [f64], c: &'a [f64]) -> Self {
        let mut out_e = vec![Vec::new(); n];
        let mut in_e = vec![Vec::new(); n];
        for (k, e) in edges.iter().enumerate() {
            out_e[e.ti].push(k);
            in_e[e.to].push(k);
        }
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
            out_e,
            in_e,
            hot,
            warm,
        }
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
        let mut grad = self.b.to_vec();
        let mut g: f64 = self.b.iter().zip(nu).map(|(b, v)| b * v).sum();
        let mut arb = Vec::with_capacity(self.edges.len());
        for (k, &(ti, to, rate0)) in self.hot.iter().enumerate() {
            let (ti, to) = (ti as usize, to as usize);
            // inactive unless its zero-size rate beats the price ratio (as in `arb_of`)
            if !(nu[to] * rate0 > nu[ti]) {
                arb.push(Arb::default());
                continue;
            }
            let a = self.arb_of(k, nu);
            if a.x > 0.0 {
                g += nu[to] * a.o - nu[ti] * a.x;
                grad[to] += a.o;
                grad[ti] -= a.x;
            }
            arb.push(a);
        }
        Eval { g, grad, arb }
    }

    pub fn h(&self, nu: &[f64], ev: &Eval) -> f64 {
        ev.g / dot(self.c, nu)
    }

    /// Balance of token k as a function of its own price (others fixed): increasing in ν_k.
    fn balance_at(&self, k: usize, nu: &mut [f64], v: f64) -> f64 {
        let old = nu[k];
        nu[k] = v;
        let mut r = self.b[k];
        for &e in &self.out_e[k] {
            r -= self.arb_of(e, nu).x;
        }
        for &e in &self.in_e[k] {
            r += self.arb_of(e, nu).o;
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
        let (mut lo, mut hi);
        if r0 > 0.0 {
            hi = v0;
            lo = v0 * 0.5;
            let mut t = 0;
            while self.balance_at(k, nu, lo) > 0.0 {
                hi = lo;
                lo *= 0.5;
                t += 1;
                if t > 200 {
                    return;
                }
            }
        } else {
            lo = v0;
            hi = v0 * 2.0;
            let mut t = 0;
            while self.balance_at(k, nu, hi) < 0.0 {
                lo = hi;
                hi *= 2.0;
                t += 1;
                if t > 200 {
                    return;
                }
            }
        }
        for _ in 0..14 {
            let mid = super::fmath::sqrt(lo * hi);
            if self.balance_at(k, nu, mid) > 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        nu[k] = super::fmath::sqrt(lo * hi);
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
        for _it in 0..max_newton {
            // active set
            let mut in_r = vec![false; n];
            for (e, a) in self.edges.iter().zip(&ev.arb) {
                if a.x > 0.0 {
                    in_r[e.ti] = true;
                    in_r[e.to] = true;
                }
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
                for (e, a) in self.edges.iter().zip(&ev.arb) {
                    if a.x > 0.0 {
                        in_r[e.ti] = true;
                        in_r[e.to] = true;
                    }
                }
            }
            for (k, r) in in_r.iter_mut().enumerate() {
                if self.b[k] > 0.0 || self.c[k] > 0.0 {
                    *r = true;
                }
            }
            let rset: Vec<usize> = (0..n).filter(|k| in_r[*k]).collect();
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
            // 1e-11: the recovered plan is then within ~1e-10 of the bound
            if err < 1e-11 {
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
            // the scaled Hessian as 2×2 blocks per active edge (symmetric: h_io = h_oi)
            let mut blocks: Vec<(usize, usize, f64, f64, f64)> = Vec::new();
            let mut diag = vec![0.0; m];
            for (e, a) in self.edges.iter().zip(&ev.arb) {
                if !(a.x > 0.0) || !(a.f2 < 0.0) {
                    continue;
                }
                let (i, o) = (pos[e.ti], pos[e.to]);
                let no = nu[e.to];
                let si = nu[e.ti];
                let so = nu[e.to];
                let dxi = 1.0 / (no * a.f2);
                let dxo = -a.f1 / (no * a.f2);
                let (hii, hio, hoo) = (-dxi * si * si, -dxo * si * so, a.f1 * dxo * so * so);
                diag[i] += hii;
                diag[o] += hoo;
                if dense {
                    kk[i * dim + i] += hii;
                    kk[i * dim + o] += hio;
                    kk[o * dim + i] += hio;
                    kk[o * dim + o] += hoo;
                } else {
                    blocks.push((i, o, hii, hio, hoo));
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
                    // inexact Newton: CG to a relative residual of err/100 (at most 1e-4,
                    // at least 1e-13), which keeps the quadratic convergence near the optimum
                    let tol = (err * 1e-2).clamp(1e-13, 1e-4);
                    sparse_kkt(&blocks, &diag, &cs, &rhs, p0, lam * dmax, tol * tol)
                };
                let Some(sol) = sol else {
                    continue;
                };
                let mut alpha = 1.0;
                for _ in 0..30 {
                    let mut nn = nu.clone();
                    let mut ok = true;
                    for (p, &k) in rset.iter().enumerate() {
                        let v = nu[k] * (1.0 + alpha * sol[p]);
                        if !(v > 0.0) || !v.is_finite() {
                            ok = false;
                            break;
                        }
                        nn[k] = v;
                    }
                    if ok {
                        let evn = self.eval(&nn);
                        let hn = self.h(&nn, &evn);
                        // h is the merit; within its float noise, the balance residual decides
                        let errn = resid(&evn, &nn, hn, &rset);
                        let better = hn < h_cur * (1.0 - 1e-14)
                            || (hn <= h_cur * (1.0 + 1e-14) && errn < err * (1.0 - 1e-4 * alpha));
                        if hn > 0.0 && better {
                            *nu = nn;
                            ev = evn;
                            t = hn;
                            accepted = true;
                            if hn < best_h {
                                best_h = hn;
                                best_nu.clone_from(nu);
                            }
                            break;
                        }
                    }
                    alpha *= 0.5;
                }
                if accepted {
                    break;
                }
            }
            if !accepted && err < 1e-9 {
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

/// Largest active set solved densely; above it the sparse (block-Jacobi CG) path.
const DENSE_MAX: usize = 48;

/// y ← A v for the scaled Hessian blocks, with coordinate `p0` pinned to 0 (row and column).
fn matvec(
    blocks: &[(usize, usize, f64, f64, f64)],
    v: &[f64],
    out: &mut [f64],
    p0: usize,
    reg: &[f64],
) {
    for (o, (x, r)) in out.iter_mut().zip(v.iter().zip(reg)) {
        *o = r * x;
    }
    for &(i, o, hii, hio, hoo) in blocks {
        let (vi, vo) = (
            if i == p0 { 0.0 } else { v[i] },
            if o == p0 { 0.0 } else { v[o] },
        );
        out[i] += hii * vi + hio * vo;
        out[o] += hio * vi + hoo * vo;
    }
    out[p0] = 0.0;
}

/// Preconditioned conjugate gradients on the pinned system; `None` on breakdown.
fn pcg(
    blocks: &[(usize, usize, f64, f64, f64)],
    pre: &[f64],
    reg: &[f64],
    b: &[f64],
    p0: usize,
    tol2: f64,
) -> Option<Vec<f64>> {
    let m = b.len();
    let mut x = vec![0.0; m];
    let mut r = b.to_vec();
    r[p0] = 0.0;
    let bn = dot(&r, &r).max(1e-300);
    let mut z: Vec<f64> = r.iter().zip(pre).map(|(a, d)| a / d).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let mut ap = vec![0.0; m];
    for _ in 0..(4 * m + 50) {
        if dot(&r, &r) <= tol2 * bn {
            break;
        }
        matvec(blocks, &p, &mut ap, p0, reg);
        let pap = dot(&p, &ap);
        if !(pap > 0.0) || !pap.is_finite() {
            return if dot(&r, &r) < 1e-8 * bn {
                Some(x)
            } else {
                None
            };
        }
        let alpha = rz / pap;
        for k in 0..m {
            x[k] += alpha * p[k];
            r[k] -= alpha * ap[k];
        }
        r[p0] = 0.0;
        for k in 0..m {
            z[k] = r[k] / pre[k];
        }
        let rz2 = dot(&r, &z);
        let beta = rz2 / rz;
        rz = rz2;
        for k in 0..m {
            p[k] = z[k] + beta * p[k];
        }
    }
    x[p0] = 0.0;
    Some(x)
}

/// The bordered Newton system `[H −c; ·] [y; dT] = [rhs]` solved with the coordinate `p0`
/// pinned (the scale of ν is free: h is homogeneous of degree 0) by two CG solves and the
/// `p0` row for dT. Returns `[y (m entries), dT]`.
fn sparse_kkt(
    blocks: &[(usize, usize, f64, f64, f64)],
    diag: &[f64],
    cs: &[f64],
    rhs: &[f64],
    p0: usize,
    lam: f64,
    tol2: f64,
) -> Option<Vec<f64>> {
    let m = diag.len();
    let reg: Vec<f64> = diag
        .iter()
        .map(|d| if *d > 0.0 { lam } else { 1.0 })
        .collect();
    let pre: Vec<f64> = diag.iter().zip(&reg).map(|(d, r)| d + r).collect();
    let x = pcg(blocks, &pre, &reg, &rhs[..m], p0, tol2)?;
    let mut cz = cs.to_vec();
    cz[p0] = 0.0;
    let z = if cz.iter().any(|v| *v != 0.0) {
        pcg(blocks, &pre, &reg, &cz, p0, tol2)?
    } else {
        vec![0.0; m]
    };
    // row p0 of H times a vector
    let row = |v: &[f64]| -> f64 {
        let mut s = 0.0;
        for &(i, o, hii, hio, hoo) in blocks {
            if i == p0 {
                s += hii * v[i] + hio * v[o];
            }
            if o == p0 {
                s += hio * v[i] + hoo * v[o];
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

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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
