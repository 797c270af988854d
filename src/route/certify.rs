//! The certificate: the dual bound over the whole graph, and the columns it finds missing.
//!
//! Weak duality holds for **any** prices ν ≥ 0 (see `dual.rs`): every plan's objective is at
//! most `(Σ_inputs ν_i b_i + Σ_e arb_e(ν)) / (c·ν)`, the sum over every pool direction the
//! source filters allow (any path length, cycles included), not only the working set the dual
//! was solved on. So the router prices the whole graph at its solution: tokens of the working
//! set at their dual prices, every other token at its best bid (the best product of zero-size
//! rates into a priced token; an edge out of such a token then has no arbitrage). Edges outside
//! the working set that are still profitable at these prices are the columns column generation
//! adds, with the bid chains that price their output tokens.
//!
//! With a hop limit the bound is over the plans within it: only the edges on some path of at
//! most that many hops are priced.

use super::model::Arb;
use super::{allowed, Ctx, Local, BOUND_MARGIN, UNREACHED};
use crate::snapshot::PoolKind;
use alloc::vec;
use alloc::vec::Vec;

/// At most this many rounds of column generation (each solves the dual once more).
pub(super) const COLGEN_ROUNDS: usize = 8;

/// At most this many columns added in one round (the most profitable first).
const COLS_PER_ROUND: usize = 256;

/// Passes of the bid extension (each relaxes the edges into the tokens the previous one
/// changed); more are needed only on paths longer than this or around arbitrage cycles, and
/// then the prices are simply less tight (the bound stays valid for any prices).
const EXTENSION_PASSES: usize = 64;

/// A column is worth adding when its arbitrage exceeds this fraction of the dual value.
const COLUMN_TOL: f64 = 1e-10;

/// The whole-graph certificate at one set of working-set prices.
pub(super) struct Certificate {
    /// the bound on the request's objective (`+∞` when some price is not usable)
    pub bound: f64,
    /// the prices of every token of the graph (0 for tokens with no bid into the outputs)
    pub nu: Vec<f64>,
    /// graph edges to add to the working set
    pub add: Vec<usize>,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64; token and edge ids < len by construction
impl Ctx<'_> {
    /// Whether graph edge `k` may carry flow in the request's plans (source filters, hop limit).
    fn priced(&self, k: usize) -> bool {
        let Some(e) = self.graph.edge_cache().hot().get(k) else {
            return false;
        };
        if !allowed(self.mask.as_deref(), e.pool) {
            return false;
        }
        match self.req.max_hops {
            None => true,
            Some(h) => {
                let a = self.d_in.get(e.ti.index()).copied().unwrap_or(UNREACHED);
                let b = self.d_out.get(e.to.index()).copied().unwrap_or(UNREACHED);
                a != UNREACHED && b != UNREACHED && a.saturating_add(b).saturating_add(1) <= h
            }
        }
    }

    /// The certificate at the working-set prices `nu_loc` (normalised or not).
    pub(super) fn certify(&self, lc: &Local, nu_loc: &[f64], act: &[(usize, Arb)]) -> Certificate {
        let cache = self.graph.edge_cache();
        let n = self.graph.n_tokens();
        let mut nu = vec![0.0f64; n];
        let mut in_ws = vec![false; n];
        for (l, t) in lc.glob.iter().enumerate() {
            nu[t.index()] = nu_loc[l];
            in_ws[t.index()] = true;
        }
        // The dual prices of the outputs and of the tokens that hold something and sell it
        // along an active edge of the working set stay. A token of the working set that holds
        // nothing there (no input, no active inflow: a dead end of the restricted problem, or a
        // token reached only from outside it) has no price of its own, and takes its best bid
        // like the tokens outside.
        let nl = lc.glob.len();
        let mut holds = lc.b.iter().map(|b| *b > 0.0).collect::<Vec<_>>();
        let mut sells = vec![false; nl];
        for (k, a) in act {
            if let Some(e) = lc.dedges.get(*k) {
                if a.o > 0.0 {
                    holds[e.to] = true;
                }
                if a.x > 0.0 {
                    sells[e.ti] = true;
                }
            }
        }
        let mut fixed = vec![false; n];
        for t in &self.out_toks {
            fixed[t.index()] = true;
        }
        for (l, t) in lc.glob.iter().enumerate() {
            if holds[l] && sells[l] {
                fixed[t.index()] = true;
            }
        }
        // the bid extension, from the working set outwards along the edges into priced tokens
        let mut parent = vec![u32::MAX; n];
        let mut front: Vec<usize> = lc.glob.iter().map(|t| t.index()).collect();
        let mut next: Vec<usize> = Vec::new();
        let mut queued = vec![false; n];
        for _ in 0..EXTENSION_PASSES {
            for &o in &front {
                let vo = nu[o];
                if !(vo > 0.0) {
                    continue;
                }
                for a in cache.in_of(o) {
                    let i = a.tok as usize;
                    if fixed[i] || !self.priced(a.edge as usize) {
                        continue;
                    }
                    let cand = vo * a.rate0;
                    if cand > nu[i] {
                        nu[i] = cand;
                        parent[i] = a.edge;
                        if !queued[i] {
                            queued[i] = true;
                            next.push(i);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            for &t in &next {
                queued[t] = false;
            }
            core::mem::swap(&mut front, &mut next);
            next.clear();
        }
        // price every edge: arbitrage where the zero-size rate beats the price ratio, and the
        // integer rounding a swap can win against the float curve where a dust swap can pay
        let cnu: f64 = lc.c.iter().zip(nu_loc).map(|(c, v)| c * v).sum();
        let mut g: f64 = self
            .prep
            .inputs
            .iter()
            .map(|(t, a)| nu[t.index()] * super::u256_to_f64(*a))
            .sum();
        let mut slack = 0.0;
        let mut cols: Vec<(f64, usize)> = Vec::new();
        let mut valid = cnu > 0.0 && cnu.is_finite();
        let single_in = self.in_toks.len() == 1;
        let single_out = self.out_toks.len() == 1;
        for (k, e) in cache.hot().iter().enumerate() {
            let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
            if !(vo > 0.0) || !self.priced(k) {
                continue;
            }
            if !(vi > 0.0) {
                // a free input against a priced output: no finite bound at these prices
                valid = false;
                break;
            }
            // integer rounding a swap can win against the float curve. A solidly fee rounded
            // down: an input x is charged floor(f·x), so the output is at most the fee-free mid
            // rate m times min(x, (1 − f)·x + 1); at the prices that is worth at most
            // M = ν_out·m on an edge with arbitrage, and (M − ν_in)/f on one without (the
            // best x is 1/f), nothing where M ≤ ν_in. A solidly stable or Curve output a unit
            // or two above the float curve. x·y = k outputs are floors: nothing.
            let fee_floor = || {
                cache.edges().get(k).map_or(f64::INFINITY, |ge| {
                    let big_m = ge.m.mid0() * vo;
                    let f = ge.m.fee();
                    if e.rate0 * vo > vi || !(f > 0.0) {
                        big_m
                    } else if big_m > vi {
                        ((big_m - vi) / f).min(big_m)
                    } else {
                        0.0
                    }
                })
            };
            slack += match (e.kind, e.stable) {
                (PoolKind::Solidly, false) => fee_floor(),
                (PoolKind::Solidly, true) => fee_floor() + 2.0 * vo,
                (PoolKind::Stableswap | PoolKind::SaberStableswap, _) => 2.0 * vo,
                // chain 101: SPL's two fees floored (each < 1 input unit); Orca's step
                // rounding (the fee and the price a unit either way)
                (PoolKind::SplTokenSwap, _) => 2.0 * vi,
                (PoolKind::OrcaWhirlpool, _) => vi + 2.0 * vo,
                _ => 0.0,
            };
            if !(e.rate0 * vo > vi) {
                continue;
            }
            let Some(ge) = cache.edges().get(k) else {
                continue;
            };
            let a = ge.m.arb(vi, vo);
            let v = vo * a.o - vi * a.x;
            if !(v > 0.0) {
                continue;
            }
            g += v;
            // a column: an edge outside the working set, or one inside whose output token is
            // priced by a bid chain outside it (the chain is then the column)
            let new_column = !self.in_ws[k] || !fixed[e.to.index()];
            let from_output = single_out && self.out_toks.contains(&e.ti);
            let into_input = single_in && self.in_toks.contains(&e.to);
            let addable = new_column && in_ws[e.ti.index()] && !from_output && !into_input;
            if addable {
                cols.push((v, k));
            }
        }
        let bound = if valid {
            (g * (1.0 + BOUND_MARGIN) + slack) / cnu
        } else {
            f64::INFINITY
        };
        // the most profitable columns, each with the bid chain of its output token
        let tol = COLUMN_TOL * g.abs();
        cols.retain(|(v, _)| *v > tol);
        cols.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        cols.truncate(COLS_PER_ROUND);
        let mut add = Vec::new();
        let mut taken = vec![false; n];
        for (_, k) in cols {
            if !self.in_ws[k] {
                add.push(k);
            }
            let mut t = cache.hot()[k].to.index();
            let mut steps = 0;
            while !fixed[t] && !taken[t] && steps < EXTENSION_PASSES {
                taken[t] = true;
                let p = parent[t];
                let Some(pe) = cache.hot().get(p as usize) else {
                    break;
                };
                add.push(p as usize);
                t = pe.to.index();
                steps += 1;
            }
        }
        Certificate { bound, nu, add }
    }
}
