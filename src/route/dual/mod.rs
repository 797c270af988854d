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
mod newton;
mod sweep;
mod tree;

use super::edges::LEdge;
use super::model::{Arb, EdgeModel};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, OnceCell};
use linalg::dot;

/// The pruned problem in local indices.
#[derive(Debug)]
pub(crate) struct Dual<'a> {
    pub n: usize,
    pub edges: &'a [LEdge],
    /// `models[k]`: the float model of `edges[k]`
    models: &'a [&'a EdgeModel],
    pub b: &'a [f64],
    pub c: &'a [f64],
    /// edges leaving / entering each token, built by the first sweep that reads them
    adjacency: OnceCell<Adjacency>,
    /// per edge (input token, output token, zero-size rate): the activity test of an
    /// evaluation reads these 16 bytes instead of the whole edge model
    hot: Vec<(u32, u32, f64)>,
    /// last Curve solution per edge (coin units), to warm-start the next one
    warm: Vec<Cell<f64>>,
}

/// The edges leaving and entering each token of a [`Dual`] (CSR: out-edges
/// `adj[out_start[k]..out_start[k + 1]]`, then in-edges after `out_start[n]`).
#[derive(Debug)]
struct Adjacency {
    adj: Vec<u32>,
    out_start: Vec<usize>,
    in_start: Vec<usize>,
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
    /// The problem on `n` local tokens, the working-set edges and their models (same order),
    /// the inputs `b` and the objective weights `c` per token.
    pub fn new(
        n: usize,
        (edges, models): (&'a [LEdge], &'a [&'a EdgeModel]),
        b: &'a [f64],
        c: &'a [f64],
    ) -> Self {
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
            models,
            b,
            c,
            adjacency: OnceCell::new(),
            hot,
            warm,
        }
    }

    /// The edges leaving and entering each token, built on the first call: only the
    /// Gauss–Seidel coordinates read them, and a `Dual` that is only evaluated (plan
    /// recovery's first round) never builds them.
    fn adjacency(&self) -> &Adjacency {
        self.adjacency.get_or_init(|| {
            // CSR by counting sort: out-edges of every token, then in-edges
            let (out_start, out_adj) = csr(self.n, self.edges.iter().map(|e| e.ti));
            let (in_start, in_adj) = csr(self.n, self.edges.iter().map(|e| e.to));
            let mut adj = out_adj;
            adj.extend_from_slice(&in_adj);
            Adjacency {
                adj,
                out_start,
                in_start,
            }
        })
    }

    /// Edges leaving token k.
    fn out_edges(&self, k: usize) -> &[u32] {
        let a = self.adjacency();
        &a.adj[a.out_start[k]..a.out_start[k + 1]]
    }

    /// Edges entering token k.
    fn in_edges(&self, k: usize) -> &[u32] {
        let a = self.adjacency();
        let base = a.out_start[self.n];
        &a.adj[base + a.in_start[k]..base + a.in_start[k + 1]]
    }

    /// The arbitrage of edge `k` at `nu` (none unless its zero-size rate beats the price
    /// ratio).
    #[inline]
    fn arb_of(&self, k: usize, nu: &[f64]) -> Arb {
        let e = &self.edges[k];
        if nu[e.to] * e.rate0 > nu[e.ti] {
            self.arb_model(k, nu[e.ti], nu[e.to])
        } else {
            Arb::default()
        }
    }

    /// The model's arbitrage of edge `k` at input price `vi` and output price `vo`, once the
    /// activity test has passed (a Curve edge starts from its last solution). Kept out of line:
    /// the evaluation loop stays small.
    #[inline(never)]
    fn arb_model(&self, k: usize, vi: f64, vo: f64) -> Arb {
        let m = self.models[k];
        if let EdgeModel::Sw(s) = m {
            let a = m.arb_hint(vi, vo, self.warm[k].get());
            if a.x > 0.0 {
                self.warm[k].set(a.x * s.ci());
            }
            a
        } else {
            m.arb(vi, vo)
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
            let a = self.arb_model(k, nu[ti], nu[to]);
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

    /// Minimise h from `nu` (modified in place, normalised to c·ν = 1). Returns h(ν).
    ///
    /// Phases: one Gauss–Seidel sweep ([`Dual::sweep`]), then Newton iterations, each on the
    /// active set ([`Dual::active_set`]) until a stop rule holds ([`Progress::done`]): the
    /// bordered KKT system ([`Dual::newton_system`]), a step with a line search
    /// ([`Dual::newton_step`]), and a sweep where no step is found. The best point seen is
    /// returned ([`Dual::best_point`]).
    pub fn solve(
        &self,
        nu: &mut Vec<f64>,
        order: &[usize],
        is_out: &[bool],
        max_newton: usize,
    ) -> f64 {
        self.solve_from(nu, (order, is_out), max_newton, true)
    }

    /// [`Dual::solve`], with the first Gauss–Seidel sweep only where `sweep_first` (a start
    /// near the optimum, a caller's warm prices, skips it: the sweep balances each token alone
    /// and moves the start away from the joint balance).
    pub fn solve_from(
        &self,
        nu: &mut Vec<f64>,
        (order, is_out): (&[usize], &[bool]),
        max_newton: usize,
        sweep_first: bool,
    ) -> f64 {
        normalise(nu, self.c);
        if sweep_first {
            self.sweep(nu, order, is_out);
        }
        let mut st = Newton::new(self, nu);
        for _it in 0..max_newton {
            // the step's tokens, in a buffer kept across iterations (handed back below)
            let mut rset = core::mem::take(&mut st.rset);
            self.active_set(nu, is_out, &mut st, &mut rset);
            let err = self.resid(&st.ev, nu, st.t, &rset);
            if st.progress.done(st.t, st.best_h, err) {
                break;
            }
            let kkt = self.newton_system(nu, (&st.ev, st.t), &rset, &mut st.pos);
            let Some(kkt) = kkt else {
                // nothing active: sweep and retry
                self.sweep(nu, order, is_out);
                st.ev = self.eval(nu);
                st.t = self.h(nu, &st.ev);
                st.stall += 1;
                if st.stall > 3 {
                    break;
                }
                st.rset = rset;
                continue;
            };
            let accepted = self.newton_step(nu, &kkt, &rset, err, &mut st);
            st.rset = rset;
            if !accepted && err < 1e-7 {
                // at the float noise floor: nothing left to gain
                break;
            }
            if accepted {
                // keep c·ν = 1 (h and the flows are invariant to the scale)
                // (the flows and the gradient are invariant too; only g scales)
                let s = dot(self.c, nu);
                if s > 0.0 && (s - 1.0).abs() > 1e-12 {
                    for v in nu.iter_mut() {
                        *v /= s;
                    }
                    st.ev.g /= s;
                }
            } else {
                // fall back to one sweep; stop when that does not help either
                self.sweep(nu, order, is_out);
                st.reevaluate(self, nu);
                st.stall += 1;
                if st.stall > 3 {
                    break;
                }
            }
        }
        self.best_point(nu, &st)
    }

    /// The end of [`Dual::solve`]: `nu` or the best point seen, whichever has the lower h
    /// (h is an upper bound at every ν), and its h.
    fn best_point(&self, nu: &mut Vec<f64>, st: &Newton) -> f64 {
        let evc = self.eval(nu);
        let hc = self.h(nu, &evc);
        if st.best_h < hc {
            nu.clone_from(&st.best_nu);
            normalise(nu, self.c);
            return st.best_h;
        }
        hc
    }

    /// The tokens of the Newton step (`rset`, increasing): those an active edge touches, the
    /// inputs and the outputs. A supplied token (b > 0) without an active edge has no
    /// curvature: Newton cannot move its price, and a sweep further down the chain may have
    /// pushed its edges back out of the money, so it is balanced by its own coordinate first
    /// (h only falls). Written into `rset`; `rset` and `st.in_r` are buffers kept across
    /// iterations (no allocation per iteration).
    fn active_set(&self, nu: &mut [f64], is_out: &[bool], st: &mut Newton, rset: &mut Vec<usize>) {
        let n = self.n;
        let mut in_r = core::mem::take(&mut st.in_r);
        in_r.clear();
        in_r.resize(n, false);
        self.mark_active(&st.ev, &mut in_r);
        let mut moved = false;
        for (k, r) in in_r.iter().enumerate() {
            if !*r && self.b[k] > 0.0 && !is_out.get(k).copied().unwrap_or(true) {
                self.coord(k, nu);
                moved = true;
            }
        }
        if moved {
            st.reevaluate(self, nu);
            in_r.iter_mut().for_each(|r| *r = false);
            self.mark_active(&st.ev, &mut in_r);
        }
        for (k, r) in in_r.iter_mut().enumerate() {
            if self.b[k] > 0.0 || self.c[k] > 0.0 {
                *r = true;
            }
        }
        rset.clear();
        rset.extend((0..n).filter(|k| in_r[*k]));
        st.in_r = in_r;
    }

    /// Mark the tokens of the active edges of `ev`.
    fn mark_active(&self, ev: &Eval, in_r: &mut [bool]) {
        for &(k, _) in &ev.act {
            let e = &self.edges[k];
            in_r[e.ti] = true;
            in_r[e.to] = true;
        }
    }

    /// The balance residual on `rset` at `nu` (evaluated into `ev`, h = `t`): the largest
    /// `|(∇g_k − t c_k) ν_k|`, relative to `|t|`.
    fn resid(&self, ev: &Eval, nu: &[f64], t: f64, rset: &[usize]) -> f64 {
        let mut m: f64 = 0.0;
        for &k in rset {
            let r = (ev.grad[k] - t * self.c[k]) * nu[k];
            m = m.max(r.abs());
        }
        m / t.abs().max(1e-300)
    }
}

/// The state of [`Dual::solve`]'s Newton iterations: the evaluation at the current point, the
/// best point seen, the stop rules' counters and the buffers of the line search.
struct Newton {
    /// the evaluation at the current ν, and h there
    ev: Eval,
    t: f64,
    best_nu: Vec<f64>,
    best_h: f64,
    progress: Progress,
    /// sweeps taken where no Newton step was found
    stall: usize,
    /// the edges that can be active somewhere on the current line search's segment
    /// ([`Dual::ray_candidates`])
    cand: Vec<usize>,
    /// per token, the sides of the activity test at both ends of the current step, for
    /// [`Dual::ray_candidates`]
    step: Vec<[f64; 4]>,
    /// per token, its relative move along the current step (0 off the step's tokens), for
    /// [`Dual::past_kink`]
    sv: Vec<f64>,
    /// line-search buffers: an evaluation, the trial point, the secant point
    evn: Eval,
    nn: Vec<f64>,
    nx: Vec<f64>,
    /// buffers of each iteration's active set: the step's tokens, a flag per token, and
    /// each token's position in the step (`usize::MAX` outside, restored after each use)
    rset: Vec<usize>,
    in_r: Vec<bool>,
    pos: Vec<usize>,
}

impl Newton {
    fn new(du: &Dual<'_>, nu: &[f64]) -> Self {
        let ev = du.eval(nu);
        let t = du.h(nu, &ev);
        Newton {
            ev,
            t,
            best_nu: nu.to_vec(),
            best_h: t,
            progress: Progress {
                since_best: 0,
                ref_h: f64::INFINITY,
                best_err: f64::INFINITY,
            },
            stall: 0,
            cand: Vec::new(),
            step: Vec::new(),
            sv: Vec::new(),
            evn: Eval::default(),
            nn: nu.to_vec(),
            nx: nu.to_vec(),
            rset: Vec::new(),
            in_r: Vec::new(),
            pos: vec![usize::MAX; du.n],
        }
    }

    /// Evaluate at `nu` after a move outside the Newton step, keeping the best point.
    fn reevaluate(&mut self, du: &Dual<'_>, nu: &[f64]) {
        self.ev = du.eval(nu);
        self.t = du.h(nu, &self.ev);
        self.keep_best(nu);
    }

    /// Keep `nu` (h = `self.t`) when it is the best point so far.
    fn keep_best(&mut self, nu: &[f64]) {
        if self.t < self.best_h {
            self.best_h = self.t;
            self.best_nu.clear();
            self.best_nu.extend_from_slice(nu);
        }
    }
}

/// The stop rules' memory: Newton iterations since h last fell by more than its float noise
/// (1e-13 relative), the h they measure from, and the residual at the best point so far.
struct Progress {
    since_best: usize,
    ref_h: f64,
    best_err: f64,
}

impl Progress {
    /// Whether the Newton iterations stop at h = `t` (best so far `best_h`) with balance
    /// residual `err`.
    fn done(&mut self, t: f64, best_h: f64, err: f64) -> bool {
        if t <= best_h {
            self.best_err = err;
        }
        if t < self.ref_h * (1.0 - 1e-13) {
            self.ref_h = t;
            self.since_best = 0;
        } else {
            self.since_best += 1;
        }
        // The best point is returned: once it balances to 1e-7 and six more iterations
        // (sweeps and line searches at the float noise floor) did not lower h beyond its
        // noise, stop. They cost hundreds of evaluations without changing the result.
        let settled = self.since_best >= 6 && self.best_err < 1e-7;
        // whatever the residual, twelve iterations without a lower h are a stall (an edge
        // flipping at its activity boundary, or float noise): the best point stands
        let stalled = self.since_best >= 12;
        // 1e-8: the public instances reach the same ratios (to 1e-9) as with 1e-9 and 1e-11;
        // below it the steps fight float noise (2% of the instructions per quote)
        let balanced = err < 1e-8;
        settled || stalled || balanced
    }
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

fn normalise(nu: &mut [f64], c: &[f64]) {
    let s = dot(c, nu);
    if s > 0.0 {
        for v in nu.iter_mut() {
            *v /= s;
        }
    }
}
