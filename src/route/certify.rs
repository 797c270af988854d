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
//! With a hop limit the bound is over the plans within it (those that swap only through edges
//! on some path of at most that many hops): only those edges are priced.

use super::edges::Edge;
use super::model::Arb;
use super::working_set::{allowed, Ctx, Local, UNREACHED};
use super::BOUND_MARGIN;
use crate::math::float::{golden_min, to_f64};
use crate::model::joint::{JointCurve, Side};
use crate::model::FamilyParams;
use crate::pool::Pool;
use crate::snapshot::PoolKind;
use crate::units::PoolId;
use alloc::vec;
use alloc::vec::Vec;

/// At most this many rounds of column generation (each solves the dual once more).
pub(super) const COLGEN_ROUNDS: usize = 8;

/// At most this many rounds of the bound's re-solve with the edges out of a sole output or
/// into a sole input ([`Ctx::bound_with_cycles`]).
pub(super) const CYCLE_BOUND_ROUNDS: usize = 3;

/// The bound is solved again with the edges out of a sole output or into a sole input when
/// their arbitrage at the certificate's prices exceeds this fraction of the dual value (less
/// is within the bound's own margin, [`BOUND_MARGIN`]).
const CYCLIC_TOL: f64 = BOUND_MARGIN;

/// At most this many columns added in one round (the most profitable first).
const COLS_PER_ROUND: usize = 256;

/// Passes of the bid extension (each relaxes the edges into the tokens the previous one
/// changed); more are needed only on paths longer than this or around arbitrage cycles, and
/// then the prices are simply less tight (the bound stays valid for any prices).
const EXTENSION_PASSES: usize = 64;

/// Gauss-Seidel passes of the rounding-slack easing. On the 2000-pool bench requests one pass
/// leaves 14 of 24 gaps within 1e-6, two 17, three 17 (and cost 0.35 ms a quote there, two
/// 0.17 ms).
const EASE_PASSES: usize = 2;

/// Rounds of the group moves of the rounding-slack easing ([`Ctx::ease_rounding`]).
const COMPONENT_ROUNDS: usize = 2;

/// An edge between two free tokens is tight (ties them into one group of the easing) when its
/// zero-size rate times the output price is within this fraction of the input price.
const TIGHT: f64 = 1e-9;

/// Passes at most of the joint polish over the jointly modelled pools' coins; it stops after
/// a pass that gains less than [`POLISH_STOP`]. On gen-400p-heavy-2 (seed 7000, a 3pool
/// taking two coins in) a single pass left a gap of 1.02e-6, these passes 4.3e-7.
const POLISH_PASSES: usize = 6;

/// The joint polish stops after a pass that lowers the dual value by less than this part of
/// it.
const POLISH_STOP: f64 = 1e-8;

/// Golden-section steps of the joint polish per coin.
const POLISH_STEPS: usize = 12;

/// A column is worth adding when its arbitrage exceeds this fraction of the dual value.
const COLUMN_TOL: f64 = 1e-10;

/// The whole-graph certificate at one set of working-set prices.
pub(super) struct Certificate {
    /// the bound on the request's objective (`+∞` when some price is not usable, or on a round
    /// that adds columns)
    pub bound: f64,
    /// the part of `bound` that is integer rounding slack ([`rounding_slack`] over every
    /// priced edge; 0 where `bound` is infinite)
    pub slack: f64,
    /// the prices of every token of the graph (0 for tokens with no bid into the outputs)
    pub nu: Vec<f64>,
    /// graph edges to add to the working set
    pub add: Vec<usize>,
    /// on the final round: edges out of a sole output or into a sole input whose arbitrage
    /// at these prices exceeds [`CYCLIC_TOL`] of the dual value, with their bid chains (the
    /// working set leaves them out; [`Ctx::bound_with_cycles`] solves the bound with them)
    pub cyclic: Vec<usize>,
}

/// The whole graph's edges priced at one set of prices ([`Ctx::price_edges`]).
struct PricedEdges {
    /// the dual value: the inputs at their prices plus every edge's arbitrage
    g: f64,
    /// edges the working set may add, with their arbitrage
    cols: Vec<(f64, usize)>,
    /// edges it would add but that leave a sole output or enter a sole input
    cyclic: Vec<(f64, usize)>,
    /// false when a free input faces a priced output (no finite bound at these prices)
    valid: bool,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64; token and edge ids < len by construction
impl Ctx<'_> {
    /// Whether graph edge `k` may carry flow in the request's plans (source filters, hop limit).
    pub(super) fn priced(&self, k: usize) -> bool {
        if self.mask.is_none() && self.req.max_hops.is_none() {
            // no source filter and no hop limit: every edge of the graph (without reading it)
            return k < self.cache.edges().len();
        }
        let Some(e) = self.cache.edges().get(k) else {
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

    /// Move the prices of the tokens that neither hold nor sell in the plan (not an input, an
    /// output or a token the working set's flow passes through) inside the range where none of
    /// their edges has arbitrage, to where the rounding slack is less. Any prices give a valid
    /// bound; inside that range the arbitrage terms stay zero, so only the slack changes.
    ///
    /// First [`EASE_PASSES`] Gauss-Seidel passes over the tokens one at a time (the slack of
    /// one token's edges is convex and piecewise linear in its price: a sweep over the kinks
    /// finds the least, [`Ctx::least_slack_price`]). A token one edge of which is tight (its
    /// price exactly at the edge's no-arbitrage limit against another free token) cannot move
    /// that way alone: the passes stall where the least joint slack needs both to move. So then
    /// [`COMPONENT_ROUNDS`] rounds move each group of free tokens joined by tight edges as one:
    /// all their prices scaled by one factor, which keeps every edge inside the group as it is
    /// (no-arbitrage and slack are homogeneous of degree one in the two prices), with a sweep
    /// over the kinks of the group's edges to the tokens outside ([`Ctx::least_slack_scale`]);
    /// the second round, on the groups the first one's moves tied, tries only those next to a
    /// group that moved. (A pass over the tokens alone after each round was tried: on the
    /// generated 5,000-20,000-pool instances it left the slack within 4 % of this, up or
    /// down, for a quarter more of the certificate's instructions.)
    fn ease_rounding(&self, nu: &mut [f64], fixed: &[bool]) {
        let mut kinks: Vec<(f64, f64)> = Vec::new();
        let free: Vec<bool> = (0..nu.len())
            .map(|t| !fixed[t] && nu[t] > 0.0 && !self.in_toks.iter().any(|x| x.index() == t))
            .collect();
        // A token's least price depends only on its own price and its neighbours': a token
        // whose last evaluation left its price as it was, with no neighbour moved since, would
        // give the same again, so a pass evaluates only the tokens `stale` (all on the first)
        let mut stale = vec![true; nu.len()];
        for _ in 0..EASE_PASSES {
            for t in 0..nu.len() {
                if !free[t] || !stale[t] {
                    continue;
                }
                stale[t] = false;
                if let Some(x) = self.least_slack_price(t, nu[t], nu, &mut kinks) {
                    // (both positive and finite: equal values are the same bits)
                    if x != nu[t] {
                        nu[t] = x;
                        stale[t] = true;
                        for a in self.cache.out_of(t).iter().chain(self.cache.in_of(t)) {
                            stale[a.tok as usize] = true;
                        }
                    }
                }
            }
        }
        // the groups' rounds look again only where something moved: a group is tried when one
        // of its tokens is `dirty` (the first round: all; then those next to a group that moved)
        let n = nu.len();
        let mut dirty = vec![true; n];
        let mut next = vec![false; n];
        let mark = |t: usize, next: &mut [bool]| {
            next[t] = true;
            for a in self.cache.out_of(t).iter().chain(self.cache.in_of(t)) {
                next[a.tok as usize] = true;
            }
        };
        let mut groups = TightGroups::default();
        for _ in 0..COMPONENT_ROUNDS {
            self.tight_groups(nu, &free, &mut groups);
            for (g, members) in groups.iter() {
                if members.len() < 2 || !members.iter().any(|t| dirty[*t as usize]) {
                    continue;
                }
                let Some(l) = self.least_slack_scale(members, g, &groups.of, nu, &mut kinks) else {
                    continue;
                };
                if l != 1.0 {
                    for &t in members {
                        nu[t as usize] *= l;
                        mark(t as usize, &mut next);
                    }
                }
            }
            core::mem::swap(&mut dirty, &mut next);
            next.iter_mut().for_each(|x| *x = false);
        }
    }

    /// The groups of free tokens (`free`) joined by tight edges: an edge between two free
    /// tokens whose zero-size rate is within [`TIGHT`] of their price ratio.
    fn tight_groups(&self, nu: &[f64], free: &[bool], out: &mut TightGroups) {
        let n = nu.len();
        let mut up: Vec<u32> = (0..n).map(|t| t as u32).collect();
        fn root(up: &mut [u32], mut a: usize) -> usize {
            while up[a] as usize != a {
                let p = up[a] as usize;
                up[a] = up[p];
                a = p;
            }
            a
        }
        for (k, e) in self.cache.edges().iter().enumerate() {
            let (a, b) = (e.ti.index(), e.to.index());
            if free[a] && free[b] && e.rate0 * nu[b] >= nu[a] * (1.0 - TIGHT) && self.priced(k) {
                let (ra, rb) = (root(&mut up, a), root(&mut up, b));
                if ra != rb {
                    up[ra] = rb as u32;
                }
            }
        }
        // members grouped by root (a counting sort), each group numbered
        out.of.clear();
        out.of.resize(n, u32::MAX);
        out.start.clear();
        out.members.clear();
        let mut count = vec![0u32; n];
        for t in 0..n {
            if free[t] {
                let r = root(&mut up, t);
                up[t] = r as u32;
                count[r] += 1;
            }
        }
        let mut gid = vec![u32::MAX; n];
        let mut next = 0u32;
        for r in 0..n {
            if count[r] > 0 {
                gid[r] = out.start.len() as u32;
                out.start.push(next);
                next += count[r];
            }
        }
        out.start.push(next);
        out.members.resize(next as usize, 0);
        let mut fill = out.start.clone();
        for t in 0..n {
            if free[t] {
                // (`up[t]` is `t`'s root since the count)
                let g = gid[up[t] as usize];
                out.members[fill[g as usize] as usize] = t as u32;
                fill[g as usize] += 1;
                out.of[t] = g;
            }
        }
    }

    /// The factor λ by which to scale the prices of the group `members` (number `g`; `of`:
    /// each token's group) for the least rounding slack on their edges, within the range where
    /// none of them has arbitrage; `None` to keep them (an edge already has arbitrage, or an
    /// edge into the group comes from a token without a price). The edges inside the group
    /// scale with λ (slack λ·s, no-arbitrage unchanged); an edge to or from a token outside is
    /// [`slack_shape`] of the group token's price `λ·ν`.
    fn least_slack_scale(
        &self,
        members: &[u32],
        g: u32,
        of: &[u32],
        nu: &[f64],
        kinks: &mut Vec<(f64, f64)>,
    ) -> Option<f64> {
        let cache = self.cache;
        let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
        let mut slope = 0.0;
        kinks.clear();
        for &t in members {
            let t = t as usize;
            let vt = nu[t];
            for a in cache.out_of(t) {
                let k = a.edge as usize;
                let o = a.tok as usize;
                let vo = nu[o];
                if !(vo > 0.0) || !self.priced(k) {
                    continue;
                }
                let e = cache.edges().get(k)?;
                if of[o] == g {
                    if a.rate0 * vo > vt {
                        return None;
                    }
                    if has_slack(e) {
                        slope += rounding_slack(e, cache.mid_fee(k), vt, vo);
                    }
                    continue;
                }
                lo = lo.max(a.rate0 * vo / vt);
                if lo > 1.0 {
                    return None;
                }
                if !has_slack(e) {
                    continue;
                }
                let sh = slack_shape(e, || cache.mid_fee(k), vo, true);
                slope += sh.slope * vt;
                kinks.extend(sh.kink.map(|(at, change)| (at / vt, change * vt)));
            }
            for a in cache.in_of(t) {
                let k = a.edge as usize;
                let j = a.tok as usize;
                if !self.priced(k) {
                    continue;
                }
                let vj = nu[j];
                if !(vj > 0.0) {
                    return None;
                }
                if of[j] == g {
                    // (counted as an edge out of `j`)
                    continue;
                }
                hi = hi.min(vj / (a.rate0 * vt));
                if hi < 1.0 {
                    return None;
                }
                let e = cache.edges().get(k)?;
                if !has_slack(e) {
                    continue;
                }
                let sh = slack_shape(e, || cache.mid_fee(k), vj, false);
                slope += sh.slope * vt;
                kinks.extend(sh.kink.map(|(at, change)| (at / vt, change * vt)));
            }
        }
        if !slope.is_finite() {
            return None;
        }
        least_on_kinks(1.0, lo, hi, slope, kinks)
    }

    /// The price of token `t` (now `v`) with the least rounding slack on its edges, within the
    /// range where none of them has arbitrage; `None` to keep `v` (some edge already has
    /// arbitrage, or an edge into `t` comes from a token without a price).
    fn least_slack_price(
        &self,
        t: usize,
        v: f64,
        nu: &[f64],
        kinks: &mut Vec<(f64, f64)>,
    ) -> Option<f64> {
        let cache = self.cache;
        // (a solidly edge's kink reads its mid rate and fee)
        let model = |k: usize| cache.mid_fee(k);
        let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
        let mut slope = 0.0;
        kinks.clear();
        for a in cache.out_of(t) {
            let k = a.edge as usize;
            let vo = nu[a.tok as usize];
            if !(vo > 0.0) || !self.priced(k) {
                continue;
            }
            lo = lo.max(a.rate0 * vo);
            if lo > v {
                return None;
            }
            let e = cache.edges().get(k)?;
            if !has_slack(e) {
                continue;
            }
            let sh = slack_shape(e, || model(k), vo, true);
            slope += sh.slope;
            kinks.extend(sh.kink);
        }
        for a in cache.in_of(t) {
            let k = a.edge as usize;
            if !self.priced(k) {
                continue;
            }
            let vj = nu[a.tok as usize];
            if !(vj > 0.0) {
                return None;
            }
            hi = hi.min(vj / a.rate0);
            if hi < v {
                return None;
            }
            let e = cache.edges().get(k)?;
            if !has_slack(e) {
                continue;
            }
            let sh = slack_shape(e, || model(k), vj, false);
            slope += sh.slope;
            kinks.extend(sh.kink);
        }
        least_on_kinks(v, lo, hi, slope, kinks)
    }

    /// The certificate at the working-set prices `nu_loc` (normalised or not). The bound is
    /// computed where no column is left to add or on the `last` round, else it is `+∞`.
    ///
    /// Steps: the whole graph's prices from the working set's ([`Ctx::graph_prices`]),
    /// extended by bid chains ([`Ctx::extend_bids`]); every edge priced
    /// ([`Ctx::price_edges`]); the columns to add with their chains ([`Ctx::columns`]); the
    /// bound with the rounding slack ([`Ctx::bound_at`]).
    pub(super) fn certify(
        &self,
        lc: &Local,
        nu_loc: &[f64],
        act: &[(usize, Arb)],
        last: bool,
    ) -> Certificate {
        let (mut nu, in_ws, fixed) = self.graph_prices(lc, nu_loc, act);
        let parent = self.extend_bids(lc, &mut nu, &fixed);
        let cnu: f64 = lc.c.iter().zip(nu_loc).map(|(c, v)| c * v).sum();
        let priced = self.price_edges(&nu, &in_ws, &fixed);
        let valid = priced.valid && cnu > 0.0 && cnu.is_finite();
        let add = self.columns(priced.cols, priced.g, &parent, &fixed);
        let final_round = add.is_empty() || last;
        let cyclic_arb: f64 = priced.cyclic.iter().map(|c| c.0).sum();
        let cyclic = if valid && final_round && cyclic_arb > CYCLIC_TOL * priced.g.abs() {
            self.columns(priced.cyclic, priced.g, &parent, &fixed)
        } else {
            Vec::new()
        };
        let (bound, slack) = if !valid || !final_round {
            (f64::INFINITY, 0.0)
        } else {
            self.bound_at(&mut nu, &fixed, cnu)
        };
        Certificate {
            bound,
            slack,
            nu,
            add,
            cyclic,
        }
    }

    /// The working-set prices `nu_loc` on the whole graph (0 elsewhere), which tokens are in
    /// the working set, and which prices stay fixed. The dual prices of the outputs and of the
    /// tokens that hold something and sell it along an active edge (`act`) of the working set
    /// stay. A token of the working set that holds nothing there (no input, no active inflow:
    /// a dead end of the restricted problem, or a token reached only from outside it) has no
    /// price of its own, and takes its best bid like the tokens outside.
    fn graph_prices(
        &self,
        lc: &Local,
        nu_loc: &[f64],
        act: &[(usize, Arb)],
    ) -> (Vec<f64>, Vec<bool>, Vec<bool>) {
        let n = self.graph.n_tokens();
        let mut nu = vec![0.0f64; n];
        let mut in_ws = vec![false; n];
        for (l, t) in lc.glob.iter().enumerate() {
            nu[t.index()] = nu_loc[l];
            in_ws[t.index()] = true;
        }
        let nl = lc.glob.len();
        let mut holds = lc.b.iter().map(|b| *b > 0.0).collect::<Vec<_>>();
        let mut sells = vec![false; nl];
        for (k, a) in act {
            if let Some(e) = lc.ledges.get(*k) {
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
        (nu, in_ws, fixed)
    }

    /// The bid extension, from the working set outwards along the edges into priced tokens:
    /// every token not `fixed` takes its best bid (the best product of zero-size rates into a
    /// priced token) where that is above its price. Returns each token's bid edge
    /// (`u32::MAX`: none).
    fn extend_bids(&self, lc: &Local, nu: &mut [f64], fixed: &[bool]) -> Vec<u32> {
        let cache = self.cache;
        let n = self.graph.n_tokens();
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
        parent
    }

    /// The inputs' amounts valued at `nu`: the dual value's first term.
    fn inputs_value(&self, nu: &[f64]) -> f64 {
        self.prep
            .inputs
            .iter()
            .map(|(t, a)| nu[t.index()] * to_f64(*a))
            .sum()
    }

    /// Every edge priced at `nu`: arbitrage where the zero-size rate beats the price ratio.
    fn price_edges(&self, nu: &[f64], in_ws: &[bool], fixed: &[bool]) -> PricedEdges {
        let cache = self.cache;
        let mut g = self.inputs_value(nu);
        let mut cols: Vec<(f64, usize)> = Vec::new();
        let mut cyclic: Vec<(f64, usize)> = Vec::new();
        let mut valid = true;
        let single_in = self.in_toks.len() == 1;
        let single_out = self.out_toks.len() == 1;
        for (k, e) in cache.edges().iter().enumerate() {
            let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
            if !(vo > 0.0) || !self.priced(k) {
                continue;
            }
            if !(vi > 0.0) {
                // a free input against a priced output: no finite bound at these prices
                valid = false;
                break;
            }
            let v = self.edge_arb(k, e, vi, vo);
            if !(v > 0.0) {
                continue;
            }
            g += v;
            // a column: an edge outside the working set, or one inside whose output token is
            // priced by a bid chain outside it (the chain is then the column)
            let new_column = !self.in_ws[k] || !fixed[e.to.index()];
            // (edges out of a sole output or into a sole input only in the bound's re-solve)
            let from_output = single_out && self.out_toks.contains(&e.ti);
            let into_input = single_in && self.in_toks.contains(&e.to);
            let candidate = new_column && in_ws[e.ti.index()];
            if candidate && (self.cycles || !(from_output || into_input)) {
                cols.push((v, k));
            } else if candidate {
                cyclic.push((v, k));
            }
        }
        PricedEdges {
            g,
            cols,
            cyclic,
            valid,
        }
    }

    /// The most profitable columns `cols` (above [`COLUMN_TOL`] of the dual value `g`, at most
    /// [`COLS_PER_ROUND`]), each with the bid chain (`parent`) of its output token.
    fn columns(
        &self,
        mut cols: Vec<(f64, usize)>,
        g: f64,
        parent: &[u32],
        fixed: &[bool],
    ) -> Vec<usize> {
        let cache = self.cache;
        let tol = COLUMN_TOL * g.abs();
        cols.retain(|(v, _)| *v > tol);
        cols.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        cols.truncate(COLS_PER_ROUND);
        let mut add = Vec::new();
        let mut taken = vec![false; self.graph.n_tokens()];
        for (_, k) in cols {
            if !self.in_ws[k] {
                add.push(k);
            }
            let mut t = cache.edges()[k].to.index();
            let mut steps = 0;
            while !fixed[t] && !taken[t] && steps < EXTENSION_PASSES {
                taken[t] = true;
                let p = parent[t];
                let Some(pe) = cache.edges().get(p as usize) else {
                    break;
                };
                add.push(p as usize);
                t = pe.to.index();
                steps += 1;
            }
        }
        add
    }

    /// The bound on the last round: the dual value at the eased prices `nu`, plus the integer
    /// rounding a swap can win against the float curve wherever a dust swap can pay
    /// (`cnu` = c·ν); and that rounding's part of it.
    fn bound_at(&self, nu: &mut [f64], fixed: &[bool], cnu: f64) -> (f64, f64) {
        self.ease_rounding(nu, fixed);
        // the easing keeps every arbitrage term as it was; recomputed, so that the bound is the
        // dual value at the prices it ends with whatever the easing did
        let (g, slack) = self.joint_bound(nu, self.value_and_slack(nu));
        ((g * (1.0 + BOUND_MARGIN) + slack) / cnu, slack / cnu)
    }

    /// Graph edge `k`'s ([`Ctx::value_and_slack`]'s) term at `nu`: its [`rounding_slack`]
    /// where it is priced and both its prices are positive, else 0.
    fn edge_slack(&self, k: usize, nu: &[f64]) -> f64 {
        let Some(e) = self.cache.edges().get(k) else {
            return 0.0;
        };
        let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
        if vo > 0.0 && vi > 0.0 && self.priced(k) {
            rounding_slack(e, self.cache.mid_fee(k), vi, vo)
        } else {
            0.0
        }
    }

    /// [`Ctx::value_and_slack`]'s terms of the edges at the tokens `toks` (each edge once).
    fn slack_near(&self, toks: &[usize], nu: &[f64]) -> f64 {
        let mut slack = 0.0;
        for &t in toks {
            for a in self.cache.out_of(t) {
                slack += self.edge_slack(a.edge as usize, nu);
            }
            // (an edge from another of `toks` is counted as one out of it)
            for a in self.cache.in_of(t) {
                if !toks.contains(&(a.tok as usize)) {
                    slack += self.edge_slack(a.edge as usize, nu);
                }
            }
        }
        slack
    }

    /// The dual value at `nu` ([`Ctx::dual_value`]) and the integer rounding slack there
    /// ([`rounding_slack`] over every priced edge), in one pass over the graph's edges: each
    /// sum adds the same terms in the same order as its own pass would (an edge without slack
    /// added nothing there either), so the results are the same to the bit.
    fn value_and_slack(&self, nu: &[f64]) -> (f64, f64) {
        let cache = self.cache;
        let mut g = self.inputs_value(nu);
        // (from +0.0, as a plain loop would: `Sum` starts at −0.0)
        let mut slack = 0.0;
        for (k, e) in cache.edges().iter().enumerate() {
            let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
            if vo > 0.0 && vi > 0.0 && self.priced(k) {
                if e.rate0 * vo > vi {
                    g += self.edge_arb(k, e, vi, vo);
                }
                slack += rounding_slack(e, cache.mid_fee(k), vi, vo);
            }
        }
        (g, slack)
    }
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64; token ids < len
impl Ctx<'_> {
    /// What the joint model of the many-coin Curve pools takes off the dual value `Σ arb` at
    /// `nu` (≤ 0), and the pools it lowers: for each Curve pool of three or more coins with
    /// arbitrage in two or more directions, `min(joint bound, Σ of those directions'
    /// arbitrage) − Σ` ([`crate::model::joint`]: any sequence of the pool's swaps, executed one
    /// after the other, priced as one convex problem instead of each direction on the snapshot
    /// state). Both are bounds on what the pool's swaps are worth at `nu`, so the least of
    /// them is one.
    fn joint_correction(&self, nu: &[f64]) -> (f64, Vec<PoolId>) {
        let mut corr = 0.0;
        let mut pools = Vec::new();
        for &p in self.cache.many_coin_curves() {
            if let Some(gain) = self.joint_gain(p, nu) {
                corr += gain;
                pools.push(p);
            }
        }
        (corr, pools)
    }

    /// The dual value `g` at `nu` with the joint terms ([`Ctx::joint_correction`]) and the
    /// rounding slack there (both from [`Ctx::value_and_slack`] at `nu`), after moving the
    /// prices of the jointly modelled pools' coins to where the value is less
    /// ([`Ctx::joint_polish`]; kept only when the bound they make, recomputed, is less).
    ///
    /// The polish runs wherever a pool is modelled jointly, also when the joint bound does not
    /// lower the value at the dual's own prices: the dual priced the pool's directions one by
    /// one, and its prices favour that model. On gen-1200p-heavy-1 (seed 7000: the 3pool
    /// takes two coins in for the third) the joint bound was 2.43e7 against 2.01e7 for the
    /// two directions at the dual's prices, and after the polish 2.03e7 against 2.55e7; the
    /// plan's gap went from 1.19e-6 to 3.9e-7 (the bound is then below `opt.py`'s `T`,
    /// which prices both directions on the snapshot state).
    fn joint_bound(&self, nu: &mut [f64], (g, slack): (f64, f64)) -> (f64, f64) {
        let (corr, pools) = self.joint_correction(nu);
        let before = (g + corr, slack);
        if pools.is_empty() {
            return before;
        }
        let kept = nu.to_vec();
        self.joint_polish(nu, &pools, before.0);
        // the slack changes only on the edges at the tokens the polish moved
        let moved: Vec<usize> = (0..nu.len()).filter(|t| nu[*t] != kept[*t]).collect();
        // (the dual value reads an edge only where both its prices are positive: a price the
        // polish left at 0 or below would drop its edges from the bound, so such a polish is
        // not kept; its bracket stays positive, this is the guard)
        if moved.iter().any(|t| !(nu[*t] > 0.0 && nu[*t].is_finite())) {
            nu.copy_from_slice(&kept);
            return before;
        }
        let after = (
            self.dual_value(nu) + self.joint_correction(nu).0,
            before.1 - self.slack_near(&moved, &kept) + self.slack_near(&moved, nu),
        );
        // (the polish moves prices the rounding easing had set: the slack decides too)
        let bound = |(g, slack): (f64, f64)| g * (1.0 + BOUND_MARGIN) + slack;
        if bound(after) < bound(before) {
            after
        } else {
            nu.copy_from_slice(&kept);
            before
        }
    }

    /// The arbitrage of graph edge `k` (`e`) at input and output prices `vi`, `vo` (0 where
    /// none), as [`crate::model::EdgeModel::arb_bound`] bounds it: where the model's solve
    /// finds none although the zero-size rate beats the price ratio,
    /// `out_cap·(ν_out − ν_in/rate0)`.
    /// Without that stand-in such an edge counted nothing, and a plan through it beat the bound
    /// (the bundled snapshot, 3.07e14 USDC to DAI: an Aerodrome stable pool drained of its DAI
    /// at a USDC price 1e-16 of its rate, the closed form's `1 − cbrt(q)` rounded to 0).
    fn edge_arb(&self, k: usize, e: &Edge, vi: f64, vo: f64) -> f64 {
        if !(vi > 0.0 && vo > 0.0 && e.rate0 * vo > vi) {
            return 0.0;
        }
        self.cache
            .model(k)
            .map_or(0.0, |m| m.arb_bound(vi, vo, e.rate0).0)
    }

    /// The dual value at `nu` over the whole graph (the inputs at their prices plus every
    /// priced edge's arbitrage), as [`Ctx::price_edges`] sums it.
    fn dual_value(&self, nu: &[f64]) -> f64 {
        let cache = self.cache;
        let mut g = self.inputs_value(nu);
        for (k, e) in cache.edges().iter().enumerate() {
            let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
            if vo > 0.0 && vi > 0.0 && e.rate0 * vo > vi && self.priced(k) {
                g += self.edge_arb(k, e, vi, vo);
            }
        }
        g
    }

    /// Move the prices of the jointly modelled pools' coins (outputs excepted) to lower the
    /// dual value with the joint terms: the dual was solved with each direction priced
    /// alone, so its prices are not the least of the joint bound. Any positive prices give a
    /// valid bound; this is a local search: passes (at most [`POLISH_PASSES`], until one gains
    /// less than [`POLISH_STOP`] of `value`, the dual value) of a golden-section search per
    /// coin over a bracket of three of the pool's fees either way (down by half at most: a
    /// fuzzed Curve pool with a 43 % fee had its bracket reach below 0, and the input's price
    /// there dropped the plan's own edge from a bound 51 times below the plan).
    fn joint_polish(&self, nu: &mut [f64], pools: &[PoolId], value: f64) {
        let mut toks: Vec<(usize, f64)> = Vec::new();
        for p in pools {
            let Some(info) = self.graph.pool(*p) else {
                continue;
            };
            let Pool::StableSwap(ss) = &info.pool else {
                continue;
            };
            let fee = to_f64(ss.fee()) / 1e10;
            for t in &info.tokens {
                if !self.out_toks.contains(t) && !toks.iter().any(|x| x.0 == t.index()) {
                    toks.push((t.index(), fee));
                }
            }
        }
        for _ in 0..POLISH_PASSES {
            let mut gained = 0.0;
            for &(t, fee) in &toks {
                let v0 = nu[t];
                if !(v0 > 0.0) {
                    continue;
                }
                let w = 3.0 * fee + 1e-9;
                // (at most halved: weak duality needs every price positive, and three fees of
                // a pool whose fee is above a sixth would take the bracket to 0 or below)
                let (lo, hi) = (v0 * (1.0 - w.min(0.5)), v0 * (1.0 + w));
                let edges = self.polish_edges(t, nu, lo, hi);
                let at = |v: f64, nu: &mut [f64]| {
                    nu[t] = v;
                    self.local_value(t, nu, &edges, pools)
                };
                let f0 = at(v0, nu);
                let (x, fx) = golden_min(lo, hi, POLISH_STEPS, |v| at(v, nu));
                if fx < f0 {
                    nu[t] = x;
                    gained += f0 - fx;
                } else {
                    nu[t] = v0;
                }
            }
            if !(gained > POLISH_STOP * value.abs()) {
                break;
            }
        }
    }

    /// The edges at token `t` that can have arbitrage while its price stays in `[lo, hi]`.
    fn polish_edges(&self, t: usize, nu: &[f64], lo: f64, hi: f64) -> Vec<usize> {
        let cache = self.cache;
        let mut out = Vec::new();
        for a in cache.out_of(t) {
            let vo = nu[a.tok as usize];
            if vo > 0.0 && a.rate0 * vo > lo && self.priced(a.edge as usize) {
                out.push(a.edge as usize);
            }
        }
        for a in cache.in_of(t) {
            let vi = nu[a.tok as usize];
            if vi > 0.0 && a.rate0 * hi > vi && self.priced(a.edge as usize) {
                out.push(a.edge as usize);
            }
        }
        out
    }

    /// The part of the dual value that token `t`'s price moves: its input amount, the
    /// arbitrage of `edges` (those at `t` that can have any) and the joint terms of `pools`
    /// holding `t`.
    fn local_value(&self, t: usize, nu: &[f64], edges: &[usize], pools: &[PoolId]) -> f64 {
        let cache = self.cache;
        let mut g: f64 = self
            .prep
            .inputs
            .iter()
            .filter(|(x, _)| x.index() == t)
            .map(|(_, a)| nu[t] * to_f64(*a))
            .sum();
        for &k in edges {
            if let Some(e) = cache.edges().get(k) {
                g += self.edge_arb(k, e, nu[e.ti.index()], nu[e.to.index()]);
            }
        }
        for p in pools {
            if self
                .graph
                .pool(*p)
                .is_some_and(|i| i.tokens.iter().any(|x| x.index() == t))
            {
                g += self.joint_gain(*p, nu).unwrap_or(0.0);
            }
        }
        g
    }

    /// The directions of pool `p` with arbitrage at `nu` (coin in, coin out, value).
    fn pool_arbs(&self, p: PoolId, nu: &[f64]) -> Vec<(usize, usize, f64)> {
        let cache = self.cache;
        let mut dirs = Vec::new();
        for k in cache.pool_edges(p) {
            let Some(e) = cache.edges().get(k) else {
                break;
            };
            if !self.priced(k) {
                continue;
            }
            let v = self.edge_arb(k, e, nu[e.ti.index()], nu[e.to.index()]);
            if v > 0.0 {
                dirs.push((e.i(), e.j(), v));
            }
        }
        dirs
    }

    /// [`Ctx::joint_correction`] of one pool: `None` where the pool is not modelled jointly
    /// (not a Curve pool of three or more coins, fewer than two directions with arbitrage, a
    /// dynamic fee), else the correction (≤ 0).
    fn joint_gain(&self, p: PoolId, nu: &[f64]) -> Option<f64> {
        let dirs = self.pool_arbs(p, nu);
        let dirs = &dirs[..];
        if dirs.len() < 2 {
            return None;
        }
        let info = self.graph.pool(p)?;
        let Pool::StableSwap(ss) = &info.pool else {
            return None;
        };
        let n = info.tokens.len();
        if n < 3 {
            return None;
        }
        let jc = JointCurve::of(ss)?;
        let (_, _, conv) = FamilyParams::curve_parts(ss);
        // prices per coin unit, and each coin's side from the directions with arbitrage
        let price: Vec<f64> = info
            .tokens
            .iter()
            .zip(&conv)
            .map(|(t, c)| nu.get(t.index()).copied().unwrap_or(0.0) / c)
            .collect();
        let side: Vec<Side> = (0..n)
            .map(|k| {
                let sold = dirs.iter().any(|d| d.0 == k);
                let taken = dirs.iter().any(|d| d.1 == k);
                match (sold, taken) {
                    (true, false) => Side::Sold,
                    (false, true) => Side::Taken,
                    _ => Side::Either,
                }
            })
            .collect();
        let sum: f64 = dirs.iter().map(|d| d.2).sum();
        Some(match jc.arb_bound(&price, &side) {
            Some(b) if b < sum => b - sum,
            _ => 0.0,
        })
    }
}

/// Whether pool `info` is a Curve pool of three or more coins: the pools the certificate models
/// jointly ([`Ctx::joint_correction`]) and whose chains the plan recovery solves without
/// (`Ctx::unchained`).
pub(super) fn many_coin_curve(info: &crate::graph::PoolInfo) -> bool {
    info.kind == PoolKind::Stableswap && info.tokens.len() >= 3
}

/// Integer rounding a swap on edge `e` (its model's fee-free mid rate and fee: `mid_fee`) can
/// win against its float curve, in value at input price `vi` and output price `vo`.
///
/// A solidly fee rounded down: an input x is charged floor(f·x), so the output is at most the
/// fee-free mid rate m times min(x, (1 − f)·x + 1); at the prices that is worth at most
/// M = ν_out·m on an edge with arbitrage, and (M − ν_in)/f on one without (the best x is 1/f),
/// nothing where M ≤ ν_in. A solidly stable or Curve output a unit or two above the float curve.
/// x·y = k outputs are floors: nothing. Chain 101: SPL's two fees floored (each < 1 input
/// unit); Orca's step rounding (the fee and the price a unit either way).
#[allow(clippy::arithmetic_side_effects)] // f64
pub(super) fn rounding_slack(e: &Edge, mid_fee: Option<(f64, f64)>, vi: f64, vo: f64) -> f64 {
    let fee_floor = || {
        mid_fee.map_or(f64::INFINITY, |(mid, f)| {
            let big_m = mid * vo;
            if e.rate0 * vo > vi || !(f > 0.0) {
                big_m
            } else if big_m > vi {
                ((big_m - vi) / f).min(big_m)
            } else {
                0.0
            }
        })
    };
    match (e.kind, e.stable) {
        (PoolKind::Solidly, false) => fee_floor(),
        (PoolKind::Solidly, true) => fee_floor() + 2.0 * vo,
        (PoolKind::Stableswap | PoolKind::SaberStableswap, _) => 2.0 * vo,
        (PoolKind::SplTokenSwap, _) => 2.0 * vi,
        (PoolKind::OrcaWhirlpool, _) => vi + 2.0 * vo,
        _ => 0.0,
    }
}

/// Whether edge `e` has a rounding slack at all ([`rounding_slack`] and [`slack_shape`]: none
/// for x·y = k and concentrated liquidity, whose outputs are floors). Skipping the others adds
/// nothing to a slope that is a sum of nonzero terms, so the result is the same.
fn has_slack(e: &Edge) -> bool {
    matches!(
        e.kind,
        PoolKind::Solidly
            | PoolKind::Stableswap
            | PoolKind::SaberStableswap
            | PoolKind::SplTokenSwap
            | PoolKind::OrcaWhirlpool
    )
}

/// The least of a convex piecewise-linear function of one variable `x` in `[lo, hi]` (`v`
/// the current point, inside): `slope` its slope at `x → 0`, `kinks` where the slope grows
/// and by how much (`change ≥ 0`). The ends are moved inside by 1e-12 (relative), so that no
/// edge at its no-arbitrage limit turns profitable by a rounding of the test; `None` where the
/// point is not positive and finite.
///
/// The slope only grows, so where it is not negative just right of `lo` the least is `lo`,
/// and where it is still negative after every kink inside the range it is `hi`: only
/// otherwise are the kinks inside sorted (most tokens of a large graph end at one of the two,
/// and a hub's hundreds of kinks cost a sort each time).
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64; inner <= len
fn least_on_kinks(
    v: f64,
    lo: f64,
    hi: f64,
    mut slope: f64,
    kinks: &mut [(f64, f64)],
) -> Option<f64> {
    if lo > v || hi < v {
        return None;
    }
    let lo = v.min(lo * (1.0 + 1e-12));
    let hi = v.max(hi * (1.0 - 1e-12));
    // the slope just right of lo; the kinks inside the range moved to the front
    let mut inner = 0;
    for k in 0..kinks.len() {
        let at = kinks[k].0;
        if at <= lo {
            slope += kinks[k].1;
        } else if !(at >= hi) {
            kinks.swap(inner, k);
            inner += 1;
        }
    }
    let at_end = |x: f64| (x.is_finite() && x > 0.0).then_some(x);
    if slope >= 0.0 {
        return at_end(lo);
    }
    let kinks = &mut kinks[..inner];
    if !(kinks.iter().fold(slope, |s, k| s + k.1) >= 0.0) {
        return at_end(hi);
    }
    kinks.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    let mut x = hi;
    for &(at, change) in kinks.iter() {
        x = at;
        slope += change;
        if slope >= 0.0 {
            break;
        }
    }
    at_end(x)
}

/// The groups of [`Ctx::tight_groups`]: group `g` is `members[start[g]..start[g + 1]]`, `of[t]`
/// the group of token `t` (`u32::MAX`: none).
#[derive(Default)]
struct TightGroups {
    members: Vec<u32>,
    start: Vec<u32>,
    of: Vec<u32>,
}

impl TightGroups {
    /// Each group's number and members.
    fn iter(&self) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        self.start.windows(2).enumerate().filter_map(|(g, w)| {
            let m = self.members.get(w[0] as usize..w[1] as usize)?;
            Some((u32::try_from(g).ok()?, m))
        })
    }
}

/// How [`rounding_slack`] of an edge changes with the price of one of its tokens, inside the
/// range where the edge has no arbitrage: `slope` per unit of the price, and for a solidly
/// fee floor the kink `(at, change)` where the fee term starts (in-edge) or ends (out-edge).
struct SlackShape {
    slope: f64,
    kink: Option<(f64, f64)>,
}

/// The shape of edge `e`'s slack as a function of its input price (`out_edge`, the output price
/// `other` fixed) or of its output price (the input price `other` fixed); `model` gives the
/// edge's fee-free mid rate and fee, read only for a solidly edge.
#[allow(clippy::arithmetic_side_effects)] // f64
fn slack_shape(
    e: &Edge,
    model: impl FnOnce() -> Option<(f64, f64)>,
    other: f64,
    out_edge: bool,
) -> SlackShape {
    let stable_out = if out_edge { 0.0 } else { 2.0 };
    let fee_floor = |slope: f64| {
        // no model: no kink, and no slope of its own (the bound then prices the edge at +∞
        // anyway)
        let Some((mid, f)) = model() else {
            return SlackShape { slope, kink: None };
        };
        if !(f > 0.0) {
            // M = mid·ν_out, all of it
            SlackShape {
                slope: if out_edge { slope } else { slope + mid },
                kink: None,
            }
        } else if out_edge {
            // (M − ν_in)/f while ν_in < M: slope −1/f, ending at M
            SlackShape {
                slope: slope - 1.0 / f,
                kink: Some((mid * other, 1.0 / f)),
            }
        } else {
            // (mid·ν_out − ν_in)/f once ν_out > ν_in/mid
            SlackShape {
                slope,
                kink: (mid > 0.0).then(|| (other / mid, mid / f)),
            }
        }
    };
    match (e.kind, e.stable) {
        (PoolKind::Solidly, false) => fee_floor(0.0),
        (PoolKind::Solidly, true) => fee_floor(stable_out),
        (PoolKind::Stableswap | PoolKind::SaberStableswap, _) => SlackShape {
            slope: stable_out,
            kink: None,
        },
        (PoolKind::SplTokenSwap, _) => SlackShape {
            slope: if out_edge { 2.0 } else { 0.0 },
            kink: None,
        },
        (PoolKind::OrcaWhirlpool, _) => SlackShape {
            slope: if out_edge { 1.0 } else { 2.0 },
            kink: None,
        },
        _ => SlackShape {
            slope: 0.0,
            kink: None,
        },
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::model::EdgeModel;
    use crate::units::{PoolId, TokenId};

    /// The slack as a function of one price, its shape, and the prices to check it at.
    type Side<'a> = (&'a dyn Fn(f64) -> f64, SlackShape, [f64; 3]);

    fn hot(kind: PoolKind, stable: bool, rate0: f64) -> Edge {
        Edge::new(
            (PoolId(0), kind, stable),
            (0, TokenId(0)),
            (1, TokenId(1)),
            rate0,
        )
        .unwrap()
    }

    /// The sweep finds the least of a convex piecewise-linear function: on 500 random ones
    /// (slope −20 to 0 at 0, 1 to 6 kinks raising it by 0 to 8 each, a range around 1), its
    /// point is never above the least of the function on a grid of 20,001 points of the range
    /// (the function evaluated from its pieces, a second method), and never more than the
    /// grid's step away from the grid's best when the function's least is unique (no flat piece
    /// at the bottom).
    #[test]
    fn least_on_kinks_is_the_least_of_a_grid() {
        let mut state = 7u64;
        let mut unit = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..500 {
            let slope0 = -20.0 * unit();
            let mut kinks: Vec<(f64, f64)> = (0..1 + (unit() * 6.0) as usize)
                .map(|_| (0.5 + 1.5 * unit(), 8.0 * unit()))
                .collect();
            let (lo, hi) = (0.4 + 0.5 * unit(), 1.1 + unit());
            let f = |x: f64| {
                slope0 * x
                    + kinks
                        .iter()
                        .map(|(at, ch)| ch * (x - at).max(0.0))
                        .sum::<f64>()
            };
            let lo_in = lo * (1.0 + 1e-12);
            let hi_in = hi * (1.0 - 1e-12);
            let n = 20_000;
            let step = (hi_in - lo_in) / n as f64;
            let (gx, gf) = (0..=n)
                .map(|i| lo_in + step * i as f64)
                .map(|x| (x, f(x)))
                .fold((0.0, f64::INFINITY), |b, p| if p.1 < b.1 { p } else { b });
            let mut ks = kinks.clone();
            let x = least_on_kinks(1.0, lo, hi, slope0, &mut ks).unwrap();
            assert!(
                (lo..=hi).contains(&x),
                "case {case}: {x} outside [{lo}, {hi}]"
            );
            assert!(
                f(x) <= gf + 1e-9 * (1.0 + gf.abs()),
                "case {case}: f({x}) = {} > grid {gf} at {gx}",
                f(x)
            );
            // the slope just right of the least is positive where it is unique
            kinks.sort_by(|a, b| a.0.total_cmp(&b.0));
            let right = slope0 + kinks.iter().filter(|k| k.0 <= x).map(|k| k.1).sum::<f64>();
            if right > 1e-9 && x > lo_in && x < hi_in {
                assert!(
                    (x - gx).abs() <= 2.0 * step,
                    "case {case}: {x} vs grid {gx}"
                );
            }
        }
    }

    /// The slope and kink the easing sweeps over are those of the slack the bound adds: central
    /// differences of [`rounding_slack`] at points of the no-arbitrage range, on both sides of
    /// the kink, for every family and both ends of an edge.
    #[test]
    fn slack_shape_is_the_slope_of_the_slack() {
        let kinds = [
            (PoolKind::Solidly, false),
            (PoolKind::Solidly, true),
            (PoolKind::Stableswap, false),
            (PoolKind::SplTokenSwap, false),
            (PoolKind::OrcaWhirlpool, false),
            (PoolKind::ConstantProduct, false),
        ];
        let pools = [
            (1e12, 2e12, 0.997),
            (5e20, 1e9, 0.9999),
            (1e6, 1e18, 0.9995),
        ];
        let mut checked = 0;
        for (kind, stable) in kinds {
            for (ri, ro, g) in pools {
                let m = EdgeModel::Cp { ri, ro, g };
                let e = hot(kind, stable, m.rate0());
                let (mid, f) = (m.mid0(), m.fee());
                // the slack as a function of one price, the other held, its shape, the points
                let (vo, vi) = (3.0, 2.0);
                let sides: [Side<'_>; 2] = [
                    // out-edge: the input price varies over [rate0·ν_out, ∞)
                    (
                        &|x| rounding_slack(&e, Some((m.mid0(), m.fee())), x, vo),
                        slack_shape(&e, || Some((m.mid0(), m.fee())), vo, true),
                        [1.0 - 0.75 * f, 1.0 - 0.25 * f, 1.5].map(|r| r * mid * vo),
                    ),
                    // in-edge: the output price varies over (0, ν_in/rate0]
                    (
                        &|x| rounding_slack(&e, Some((m.mid0(), m.fee())), vi, x),
                        slack_shape(&e, || Some((m.mid0(), m.fee())), vi, false),
                        [0.5, 1.0 + 0.25 * f, 1.0 + 0.75 * f].map(|r| r * vi / mid),
                    ),
                ];
                for (slack, sh, points) in sides {
                    for x in points {
                        let h = x * f * 0.2;
                        let (a, b) = (slack(x + h), slack(x - h));
                        let num = (a - b) / (2.0 * h);
                        let want = sh.slope + sh.kink.filter(|k| x > k.0).map_or(0.0, |k| k.1);
                        // the pieces are linear: only float rounding of the two values differs
                        let noise = 8.0 * f64::EPSILON * a.abs().max(b.abs()) / h;
                        assert!(
                            (num - want).abs() <= 1e-9 * (1.0 + want.abs()) + noise,
                            "{kind:?} at {x}: {num} vs {want} (f {f})"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 3 * 6);
    }
}
