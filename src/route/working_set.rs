//! Step 1, prune, and the column-generation driver: the source filters, the working set
//! (the edges on short paths from the inputs to the outputs), why a request has no route, and
//! the loop that solves the dual on the working set and certifies it on the whole graph.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::certify::{COLGEN_ROUNDS, CYCLE_BOUND_ROUNDS};
use super::dual::Dual;
use super::edges::{Adj, Edge, EdgeCache, LEdge};
use super::mid::Mids;
use super::model::EdgeModel;
use super::prepare::{prepare, Prepared};
use super::{RouteRequest, DEFAULT_MAX_HOPS};
use crate::error::{RouteError, RouteFilter};
use crate::graph::{PoolGraph, CHAIN_101};
use crate::math::float::to_f64;
use crate::units::{PoolId, TokenId};
use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

/// Whether a pool may be used under the request's source filters.
pub(super) fn pool_allowed(graph: &PoolGraph, req: &RouteRequest, source: &str) -> bool {
    let white = req.source_whitelist.as_deref();
    graph.source_allowed(source, white, &req.source_blacklist)
}

/// The pools the request's source filters allow, one flag per pool; `None` when no filter
/// applies (every pool allowed).
pub(super) fn allowed_pools(graph: &PoolGraph, req: &RouteRequest) -> Option<Vec<bool>> {
    let filtered = req.source_whitelist.is_some()
        || (graph.chain_id() != CHAIN_101 && !req.source_blacklist.is_empty());
    filtered.then(|| {
        graph
            .pools()
            .iter()
            .map(|p| pool_allowed(graph, req, &p.source))
            .collect()
    })
}

/// Whether pool `p` passes the filter mask (no mask: every pool).
pub(super) fn allowed(mask: Option<&[bool]>, p: PoolId) -> bool {
    mask.map_or(true, |m| m.get(p.index()).copied().unwrap_or(false))
}

/// Whether the edge of an adjacency entry passes the filter mask.
pub(super) fn adj_allowed(cache: &EdgeCache, mask: Option<&[bool]>, a: &Adj) -> bool {
    mask.is_none()
        || cache
            .edges()
            .get(a.edge as usize)
            .is_some_and(|h| allowed(mask, h.pool))
}

pub(super) const UNREACHED: usize = usize::MAX;

/// Hop distances from a set of tokens, forward (`forward`) or backward along the allowed edges.
pub(super) fn bfs(
    cache: &EdgeCache,
    n: usize,
    mask: Option<&[bool]>,
    starts: &[TokenId],
    forward: bool,
) -> Vec<usize> {
    let mut d = vec![UNREACHED; n];
    let mut q = VecDeque::new();
    for s in starts {
        if let Some(x) = d.get_mut(s.index()) {
            *x = 0;
            q.push_back(s.index());
        }
    }
    while let Some(u) = q.pop_front() {
        let du = d.get(u).copied().unwrap_or(UNREACHED);
        let adj = if forward {
            cache.out_of(u)
        } else {
            cache.in_of(u)
        };
        for a in adj {
            if !adj_allowed(cache, mask, a) {
                continue;
            }
            if let Some(dv) = d.get_mut(a.tok as usize) {
                if *dv == UNREACHED {
                    *dv = du.saturating_add(1);
                    q.push_back(a.tok as usize);
                }
            }
        }
    }
    d
}

/// Why token `t` has no usable edge (`d_other`: the filtered distances from `t`'s side to the
/// other side's tokens `others`, `forward` for an input): a path exists only with more hops
/// than allowed ([`RouteError::TooManyHops`]), only through pools the source filters exclude
/// ([`RouteError::AllRoutesFiltered`]), or not at all ([`RouteError::NoRoute`]).
pub(super) fn why_no_route(
    cache: &EdgeCache,
    n: usize,
    filters: Option<(&PoolGraph, &RouteRequest)>,
    d_other: &[usize],
    (t, others, forward): (TokenId, &[TokenId], bool),
    hops: usize,
) -> RouteError {
    if let Some(d) = d_other.get(t.index()).filter(|d| **d != UNREACHED) {
        return RouteError::TooManyHops {
            max: hops,
            needed: *d,
        };
    }
    let Some((graph, req)) = filters else {
        return RouteError::NoRoute;
    };
    // the same search without a filter: one BFS from `t` per filter left out
    let reaches = |mask: Option<&[bool]>| {
        let free = bfs(cache, n, mask, &[t], forward);
        others
            .iter()
            .any(|o| free.get(o.index()).is_some_and(|d| *d != UNREACHED))
    };
    if !reaches(None) {
        return RouteError::NoRoute;
    }
    let without = |white: bool| {
        let mut r = req.clone();
        if white {
            r.source_whitelist = None;
        } else {
            r.source_blacklist = Vec::new();
        }
        allowed_pools(graph, &r)
    };
    let filter = if reaches(without(true).as_deref()) {
        RouteFilter::SourceWhitelist
    } else if reaches(without(false).as_deref()) {
        RouteFilter::SourceBlacklist
    } else {
        RouteFilter::SourceWhitelistAndBlacklist
    };
    RouteError::AllRoutesFiltered { filter }
}

/// Steps 1 and 2 of the module docs: the request prepared ([`prepare`]), the graph pruned to
/// the working set ([`working_set`]; every input and output must keep an edge, else
/// [`why_no_route`]), and the outputs and inputs valued at mid prices ([`Mids`]).
pub(super) fn prepare_ctx<'a>(
    graph: &'a PoolGraph,
    req: &'a RouteRequest,
) -> Result<Ctx<'a>, RouteError> {
    let prep = prepare(graph, req)?;
    let n = graph.n_tokens();
    let cache = graph.edge_cache();
    let mask_owned = allowed_pools(graph, req);
    let mask = mask_owned.as_deref();
    let in_toks: Vec<TokenId> = prep.inputs.iter().map(|x| x.0).collect();
    let out_toks: Vec<TokenId> = prep.outputs.iter().map(|x| x.0).collect();
    // 1. prune
    let d_in = bfs(cache, n, mask, &in_toks, true);
    let d_out = bfs(cache, n, mask, &out_toks, false);
    let hops = req.max_hops.unwrap_or(DEFAULT_MAX_HOPS);
    let ends = (in_toks.as_slice(), out_toks.as_slice());
    let sel = working_set(cache, mask, (&d_in, &d_out), ends, hops);
    let hot = cache.edges();
    // (reserved: collected from a filter, they grew by doubling, copying every element again)
    let mut edges: Vec<&Edge> = Vec::with_capacity(sel.len());
    let mut models: Vec<&EdgeModel> = Vec::with_capacity(sel.len());
    for k in &sel {
        edges.extend(hot.get(*k));
        models.extend(cache.model(*k));
    }
    for t in in_toks.iter().chain(&out_toks) {
        let ok = sel
            .iter()
            .filter_map(|k| hot.get(*k))
            .any(|e| e.ti == *t || e.to == *t);
        if !ok {
            let side = if in_toks.contains(t) {
                (&d_out, (*t, out_toks.as_slice(), true))
            } else {
                (&d_in, (*t, in_toks.as_slice(), false))
            };
            let filters = mask.is_some().then_some((graph, req));
            return Err(why_no_route(cache, n, filters, side.0, side.1, hops));
        }
    }
    // 2. valuation (mid prices in units of the first output)
    let out0 = *out_toks.first().ok_or(RouteError::BadRequest(
        crate::error::BadRouteRequest::NoOutputs,
    ))?;
    let mids = Mids::new(cache, n, mask, hops, out0);
    let mut vout = Vec::with_capacity(out_toks.len());
    for (k, t) in out_toks.iter().enumerate() {
        if k == 0 {
            vout.push(1.0);
        } else {
            let v = mids.of(*t);
            if !(v > 0.0) {
                return Err(RouteError::NoRoute);
            }
            vout.push(v);
        }
    }
    let vin = in_toks.iter().map(|t| mids.of(*t)).collect();
    let mut in_ws = vec![false; cache.edges().len()];
    for k in &sel {
        in_ws[*k] = true;
    }
    Ok(Ctx {
        graph,
        cache,
        req,
        prep,
        edges,
        models,
        vout,
        vin,
        out_toks,
        in_toks,
        d_in,
        d_out,
        in_ws,
        sel,
        mask: mask_owned,
        warm: None,
        warm_sweep: true,
        cycles: false,
        trim: true,
    })
}

/// The first working set: the graph's edges (ids, in its order) that the filter `mask`
/// allows on some path of at most `hops` hops from an input to an output (`d`: the hop
/// distances from the inputs and to the outputs), except edges out of a sole output or into
/// a sole input (`ends`: the inputs and the outputs).
fn working_set(
    cache: &EdgeCache,
    mask: Option<&[bool]>,
    d: (&[usize], &[usize]),
    ends: (&[TokenId], &[TokenId]),
    hops: usize,
) -> Vec<usize> {
    let mut sel = Vec::with_capacity(cache.edges().len());
    for_each_radius(cache, mask, d, ends, |k, r| {
        if r <= hops {
            sel.push(k);
        }
    });
    sel
}

/// The hop radius past which the working set of `req` stops growing: the most hops of the
/// shortest input-to-output path through any edge it may hold (0 when none joins an input to
/// an output). Every hop cap from it up gives the same working set: every edge a plan can use.
pub(super) fn saturation_radius(graph: &PoolGraph, req: &RouteRequest) -> usize {
    let cache = graph.edge_cache();
    let n = graph.n_tokens();
    let mask_owned = allowed_pools(graph, req);
    let mask = mask_owned.as_deref();
    let in_toks: Vec<TokenId> = req.inputs.iter().map(|x| x.0).collect();
    let out_toks: Vec<TokenId> = req.outputs.iter().map(|x| x.0).collect();
    let d_in = bfs(cache, n, mask, &in_toks, true);
    let d_out = bfs(cache, n, mask, &out_toks, false);
    let mut most = 0;
    for_each_radius(
        cache,
        mask,
        (&d_in, &d_out),
        (&in_toks, &out_toks),
        |_, r| {
            most = most.max(r);
        },
    );
    most
}

/// Calls `f(k, r)` for each graph edge `k` (in its order) that the filter `mask` allows, that
/// lies on some path from an input to an output, and that leaves no sole output and enters no
/// sole input, with `r` the hops of the shortest such path through it (`d_in + 1 + d_out`).
fn for_each_radius(
    cache: &EdgeCache,
    mask: Option<&[bool]>,
    (d_in, d_out): (&[usize], &[usize]),
    (in_toks, out_toks): (&[TokenId], &[TokenId]),
    mut f: impl FnMut(usize, usize),
) {
    // (the sole output and input, if any: a plain loop with one comparison each, instead of
    // an iterator chain)
    let sole_out = if out_toks.len() == 1 {
        out_toks.first()
    } else {
        None
    };
    let sole_in = if in_toks.len() == 1 {
        in_toks.first()
    } else {
        None
    };
    for (k, e) in cache.edges().iter().enumerate() {
        if mask.is_some() && !allowed(mask, e.pool) {
            continue;
        }
        let a = d_in.get(e.ti.index()).copied().unwrap_or(UNREACHED);
        let b = d_out.get(e.to.index()).copied().unwrap_or(UNREACHED);
        if a != UNREACHED && b != UNREACHED && sole_out != Some(&e.ti) && sole_in != Some(&e.to) {
            f(k, a.saturating_add(b).saturating_add(1));
        }
    }
}

/// Everything one quote needs after pruning.
pub(super) struct Ctx<'a> {
    pub(super) graph: &'a PoolGraph,
    /// the graph's edge index, looked up once per quote (not in the hot loops)
    pub(super) cache: &'a EdgeCache,
    pub(super) req: &'a RouteRequest,
    pub(super) prep: Prepared,
    /// the pruned edges (the graph's, in its order)
    pub(super) edges: Vec<&'a Edge>,
    /// `models[k]`: the float model of `edges[k]`
    pub(super) models: Vec<&'a EdgeModel>,
    pub(super) vout: Vec<f64>,
    pub(super) vin: Vec<f64>,
    pub(super) out_toks: Vec<TokenId>,
    pub(super) in_toks: Vec<TokenId>,
    pub(super) d_in: Vec<usize>,
    pub(super) d_out: Vec<usize>,
    /// the graph's edge ids of `edges`: the working set
    pub(super) sel: Vec<usize>,
    /// per graph edge, whether it is in the working set
    pub(super) in_ws: Vec<bool>,
    /// the source filters' pool mask (`None`: every pool allowed)
    pub(super) mask: Option<Vec<bool>>,
    /// starting prices per graph token (a [`super::RouteCache`]'s), instead of the bids
    pub(super) warm: Option<Vec<f64>>,
    /// whether a solve from `warm` starts with a Gauss–Seidel sweep, as a cold one does
    /// ([`super::quote_cached`] skips it)
    pub(super) warm_sweep: bool,
    /// whether column generation may add edges out of a sole output or into a sole input
    /// (the bound's re-solve, [`Ctx::bound_with_cycles`]; never the plan's working set)
    pub(super) cycles: bool,
    /// whether the chosen plan is trimmed (`trim.rs`; off only for [`super::quote_untrimmed`])
    pub(super) trim: bool,
}

/// The dual solved on the final working set and certified on the whole graph.
pub(super) struct Solved {
    /// the final working set in local indices
    pub(super) lc: Local,
    /// its optimal prices
    pub(super) nu: Vec<f64>,
    /// the certified bound ([`super::Plan::upper_bound`])
    pub(super) bound: f64,
    /// its integer rounding slack ([`super::Plan::rounding_slack`])
    pub(super) slack: f64,
}

/// The working set in local token indices ([`Ctx::localize`]).
pub(super) struct Local {
    /// local index of each graph token (`usize::MAX`: outside)
    pub(super) loc: Vec<usize>,
    /// graph token of each local index
    pub(super) glob: Vec<TokenId>,
    /// the working set's edges (`Ctx::edges` in local indices; models: `Ctx::models`)
    pub(super) ledges: Vec<LEdge>,
    /// inputs per local token
    pub(super) b: Vec<f64>,
    /// objective weights per local token (outputs)
    pub(super) c: Vec<f64>,
    pub(super) is_out: Vec<bool>,
    /// the Gauss–Seidel order (by hop distance from the inputs)
    pub(super) order: Vec<usize>,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The working set in local token indices: inputs and outputs first, then every token an
    /// edge of the working set touches.
    pub(super) fn localize(&self) -> Local {
        let n = self.graph.n_tokens();
        let mut loc = vec![usize::MAX; n];
        let mut glob: Vec<TokenId> = Vec::new();
        let touch = |t: TokenId, loc: &mut Vec<usize>, glob: &mut Vec<TokenId>| {
            if loc[t.index()] == usize::MAX {
                loc[t.index()] = glob.len();
                glob.push(t);
            }
        };
        for t in self.in_toks.iter().chain(&self.out_toks) {
            touch(*t, &mut loc, &mut glob);
        }
        let mut ledges = Vec::with_capacity(self.sel.len());
        for e in self.sel.iter().map(|k| &self.cache.edges()[*k]) {
            touch(e.ti, &mut loc, &mut glob);
            touch(e.to, &mut loc, &mut glob);
            ledges.push(LEdge {
                ti: loc[e.ti.index()],
                to: loc[e.to.index()],
                rate0: e.rate0,
                kind: e.kind,
            });
        }
        let nl = glob.len();
        let mut b = vec![0.0; nl];
        for (t, a) in &self.prep.inputs {
            b[loc[t.index()]] += to_f64(*a);
        }
        let mut c = vec![0.0; nl];
        let mut is_out = vec![false; nl];
        for ((t, w), v) in self.prep.outputs.iter().zip(&self.vout) {
            c[loc[t.index()]] = w / v;
            is_out[loc[t.index()]] = true;
        }
        let mut order: Vec<usize> = (0..nl).collect();
        order.sort_by_key(|k| {
            (
                self.d_in
                    .get(glob[*k].index())
                    .copied()
                    .unwrap_or(UNREACHED),
                *k,
            )
        });
        Local {
            loc,
            glob,
            ledges,
            b,
            c,
            is_out,
            order,
        }
    }

    /// Starting prices: the outputs at their values, every other token at its best bid chain
    /// into them (tokens with none at a millionth of the least price).
    pub(super) fn bid_prices(&self, lc: &Local) -> Vec<f64> {
        let nl = lc.glob.len();
        let mut nu0 = vec![0.0f64; nl];
        for ((t, _), v) in self.prep.outputs.iter().zip(&self.vout) {
            nu0[lc.loc[t.index()]] = *v;
        }
        // (a pass that changes nothing leaves the same input to the next: stop there)
        for _ in 0..=self.hops().saturating_mul(2) {
            let mut changed = false;
            for e in &lc.ledges {
                let (i, o) = (e.ti, e.to);
                let cand = nu0[o] * e.rate0;
                if cand > nu0[i] && !lc.is_out[i] {
                    nu0[i] = cand;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        nu0
    }

    /// The hop radius of the first working set (the request's limit, or [`DEFAULT_MAX_HOPS`]).
    pub(super) fn hops(&self) -> usize {
        self.req.max_hops.unwrap_or(DEFAULT_MAX_HOPS)
    }

    /// Solve the dual on the working set and certify it on the whole graph; while edges
    /// outside the working set are profitable at the optimal prices, add them (with the bid
    /// chains that price their output token) and solve again. Returns the final working set
    /// in local indices, its prices and the bound.
    pub(super) fn solve_certified(&mut self) -> Solved {
        // a cache's prices (per graph token) start the first round where given
        let mut prev: Option<Vec<f64>> = self.warm.take();
        // `quote_cached`'s warm prices (the last optimum of the same pair) start the first
        // round without the Gauss–Seidel sweep, which balances each token alone at the
        // others' prices and moves such a start away from the joint balance; the rounds of
        // column generation (from the certificate's prices) keep it: without it they took
        // more iterations (README, the third pass)
        let skip_sweep = prev.is_some() && !self.warm_sweep;
        let mut round = 0;
        loop {
            let lc = self.localize();
            let mut nu = self.start_prices(&lc, prev.as_deref());
            let du = Dual::new(lc.glob.len(), (&lc.ledges, &self.models), &lc.b, &lc.c);
            let sweep = !(skip_sweep && round == 0);
            du.solve_from(&mut nu, (&lc.order, &lc.is_out), 80, sweep);
            round += 1;
            let act = du.eval(&nu).act;
            drop(du);
            let cert = self.certify(&lc, &nu, &act, round >= COLGEN_ROUNDS);
            if cert.add.is_empty() || round >= COLGEN_ROUNDS {
                let (bound, slack) = if cert.cyclic.is_empty() {
                    (cert.bound, cert.slack)
                } else {
                    self.bound_with_cycles(cert.cyclic, cert.nu, (cert.bound, cert.slack))
                };
                return Solved {
                    lc,
                    nu,
                    bound,
                    slack,
                };
            }
            self.add_columns(&cert.add);
            prev = Some(cert.nu);
        }
    }

    /// The starting prices of a solve on `lc`: `prev` (per graph token) where given, else the
    /// bids ([`Ctx::bid_prices`]); a price not positive starts at a millionth of the least
    /// positive one.
    fn start_prices(&self, lc: &Local, prev: Option<&[f64]>) -> Vec<f64> {
        let mut nu = match prev {
            None => self.bid_prices(lc),
            Some(g) => lc.glob.iter().map(|t| g[t.index()]).collect(),
        };
        let tiny = nu
            .iter()
            .copied()
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        for v in &mut nu {
            if !(*v > 0.0) {
                *v = if tiny.is_finite() { tiny * 1e-6 } else { 1.0 };
            }
        }
        nu
    }

    /// Add graph edges `add` to the working set (those not in it yet).
    fn add_columns(&mut self, add: &[usize]) {
        let cache = self.cache;
        for &k in add {
            if let (Some(e), Some(m)) = (cache.edges().get(k), cache.model(k)) {
                if !self.in_ws[k] {
                    self.in_ws[k] = true;
                    self.sel.push(k);
                    self.edges.push(e);
                    self.models.push(m);
                }
            }
        }
    }

    /// A tighter bound where the certificate found arbitrage on edges the working set leaves
    /// out by design: out of a sole output or into a sole input (a plan never sells its output
    /// or buys back its input, so the dual is solved without them). The bound must count them
    /// (a cyclic plan could use them), and counting them at prices solved without them can
    /// cost far more than they are worth at the whole graph's optimum (6.3e-4 of the output on
    /// a generated 20,000-pool request: the 3pool's DAI → USDC edge, out of the output DAI,
    /// at a USDC price the solve had pushed up). So the dual is solved again with those edges
    /// (`cyclic`, with the chains that price them) and further columns, at most
    /// [`CYCLE_BOUND_ROUNDS`] rounds from the certificate's prices `nu`, and the least bound
    /// is kept (every one is valid), with its rounding slack. The working set is then
    /// restored: the plan is recovered from the first solve, so plans do not change.
    fn bound_with_cycles(
        &mut self,
        cyclic: Vec<usize>,
        nu: Vec<f64>,
        bound: (f64, f64),
    ) -> (f64, f64) {
        let keep = self.sel.len();
        self.cycles = true;
        let (mut add, mut prev, mut best) = (cyclic, nu, bound);
        for round in 1..=CYCLE_BOUND_ROUNDS {
            self.add_columns(&add);
            let lc = self.localize();
            let mut nu = self.start_prices(&lc, Some(&prev));
            let du = Dual::new(lc.glob.len(), (&lc.ledges, &self.models), &lc.b, &lc.c);
            du.solve(&mut nu, &lc.order, &lc.is_out, 80);
            let act = du.eval(&nu).act;
            drop(du);
            let cert = self.certify(&lc, &nu, &act, round == CYCLE_BOUND_ROUNDS);
            if cert.bound < best.0 {
                best = (cert.bound, cert.slack);
            }
            if cert.add.is_empty() {
                break;
            }
            (add, prev) = (cert.add, cert.nu);
        }
        for k in self.sel.drain(keep..) {
            if let Some(w) = self.in_ws.get_mut(k) {
                *w = false;
            }
        }
        self.edges.truncate(keep);
        self.models.truncate(keep);
        self.cycles = false;
        best
    }
}
