//! The best single path (one input, one output): a hop-bounded dynamic programme on float
//! amounts, floored to whole base units at every hop, simulated exactly.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::edges::LEdge;
use super::finish::Candidate;
use super::propagate::PoolStates;
use super::working_set::{Ctx, Local};
use crate::error::RouteError;
use crate::math::float::{floor, to_f64};
use crate::plan::GasModel;
use crate::plan::{Excluded, Step};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// A working-set edge as the single-path programme reads it: its local tokens, its
/// zero-size rate and its index in the working set (16 + 8 bytes, streamed per layer).
#[derive(Debug, Clone, Copy)]
struct PathEdge {
    ti: u32,
    to: u32,
    rate0: f64,
    k: u32,
}

/// The working set as the single-path programme reads it ([`Ctx::path_edges`], built once per
/// quote): the local token indices, and the edges whose output token lies within
/// `hops − 1` hops of an output ordered by that distance (stably, so the edges into one token
/// keep their order), so that each layer of the programme reads a prefix: a layer that has
/// `r` hops left after it only needs the edges into tokens at most `r` hops from an output.
#[derive(Debug)]
pub(super) struct PathEdges<'l> {
    /// local index of each graph token
    pub(super) loc: &'l [usize],
    /// the number of local tokens
    pub(super) nl: usize,
    order: Vec<PathEdge>,
    /// `ends[d]`: how many edges of `order` end at most `d` hops from an output
    ends: Vec<usize>,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The working set of `lc` ordered for the single-path programme ([`PathEdges`]) by the
    /// hop distances of the edges' output tokens to the outputs (`d_out`, over every allowed
    /// edge, so never more than the distance over the working set): a counting sort, stable.
    pub(super) fn path_edges<'l>(&self, lc: &'l Local) -> PathEdges<'l> {
        let (ledges, hops) = (lc.ledges.as_slice(), self.hops());
        // per local token, its distance to the outputs (`hops` and above: none that counts)
        let to_out: Vec<usize> = lc
            .glob
            .iter()
            .map(|t| self.d_out.get(t.index()).copied().unwrap_or(usize::MAX))
            .collect();
        let dist = |e: &LEdge| to_out.get(e.to).copied().filter(|d| *d < hops);
        let mut ends = vec![0usize; hops];
        for e in ledges {
            if let Some(d) = dist(e) {
                ends[d] += 1;
            }
        }
        for d in 1..hops {
            ends[d] += ends[d - 1];
        }
        // the first slot of each distance, filled in edge order
        let mut fill: Vec<usize> = (0..hops)
            .map(|d| if d == 0 { 0 } else { ends[d - 1] })
            .collect();
        let blank = PathEdge {
            ti: 0,
            to: 0,
            rate0: 0.0,
            k: u32::MAX,
        };
        let mut order = vec![blank; ends.last().copied().unwrap_or(0)];
        for (k, e) in ledges.iter().enumerate() {
            let Some(d) = dist(e) else { continue };
            let (Ok(ti), Ok(to), Ok(k32)) =
                (u32::try_from(e.ti), u32::try_from(e.to), u32::try_from(k))
            else {
                continue;
            };
            order[fill[d]] = PathEdge {
                ti,
                to,
                rate0: e.rate0,
                k: k32,
            };
            fill[d] += 1;
        }
        PathEdges {
            loc: &lc.loc,
            nl: lc.glob.len(),
            order,
            ends,
        }
    }

    /// Best single path (hop-bounded DP on float amounts, [`Ctx::best_path`]), simulated
    /// exactly ([`Ctx::simulate_path`]) on the working set `pe`.
    pub(super) fn single_path(
        &self,
        gas: Option<GasModel>,
        pe: &PathEdges<'_>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let (src, amt) = self.prep.inputs[0];
        let dst = self.out_toks[0];
        let ends = (pe.loc[src.index()], pe.loc[dst.index()]);
        // by whole base units; when no path keeps a whole unit to the end, by float amounts
        // (its exact simulation then says whether the amount is dust)
        let Some(path) = self
            .best_path(gas, pe, ends, (to_f64(amt), true))
            .or_else(|| self.best_path(gas, pe, ends, (to_f64(amt), false)))
        else {
            return Ok(None);
        };
        Ok(self.simulate_path(&path, amt, gas, reverts))
    }

    /// The working-set edges of the best path of at most [`Ctx::hops`] hops from local token
    /// `ls` to the output `ld` (`ends`) for `amount` of `ls`, by the float models net of the
    /// cheapest step's gas per hop, each hop's amount floored to whole base units when
    /// `whole`; `None` when no path delivers anything.
    ///
    /// Layer `h` (paths of `h + 1` hops) reads only the edges into tokens at most
    /// `hops − 1 − h` hops from an output (a prefix of [`PathEdges`]' order): any other
    /// token's amount there cannot reach `ld` within the hops left, and the edges into one
    /// token are read in the working set's order, so every amount that can reach `ld`, every
    /// choice of edge and the path are the ones a pass over every edge finds.
    pub(super) fn best_path(
        &self,
        gas: Option<GasModel>,
        pe: &PathEdges<'_>,
        (ls, ld): (usize, usize),
        (amount, whole): (f64, bool),
    ) -> Option<Vec<usize>> {
        let (nl, hops) = (pe.nl, self.hops());
        let gm_price = gas.map_or(0.0, |g| g.gas_price);
        let mut layer = vec![0.0f64; nl];
        layer[ls] = amount;
        let mut next = vec![0.0f64; nl];
        // per layer and token: the edge that reached it and that edge's input token
        let mut parents: Vec<Vec<(usize, usize)>> = Vec::with_capacity(hops);
        let mut best: Option<(f64, usize)> = None;
        let mut cost_layer = 0.0;
        // Paths stay simple: a token already on the path to `u` (reached in `l` hops) is not
        // entered again. The float models price every edge on the snapshot state, so a cycle
        // through the same pools (1 → 3 → 1 on two stable pools) can look like a gain of float
        // noise while the exact swaps, on the pools' moved states, lose.
        let on_path = |parents: &[Vec<(usize, usize)>], u: usize, l: usize, target: usize| {
            let (mut t, mut l) = (u, l);
            loop {
                if t == target {
                    return true;
                }
                let Some((k, ti)) = l.checked_sub(1).and_then(|p| parents[p].get(t).copied())
                else {
                    return false;
                };
                if k == usize::MAX {
                    return false;
                }
                t = ti;
                l -= 1;
            }
        };
        for h in 0..hops {
            next.fill(0.0);
            let mut par = vec![(usize::MAX, usize::MAX); nl];
            let reach = pe.ends.get(hops - 1 - h).copied().unwrap_or(0);
            for e in &pe.order[..reach] {
                let (ti, to, k) = (e.ti as usize, e.to as usize, e.k as usize);
                let a = layer[ti];
                // out is concave with slope rate0 at 0, so out(a) ≤ a·rate0 (the margin covers
                // float noise): the model is not read when even that cannot beat the best so
                // far (the test reads the edge, the model is elsewhere: for x·y = k too)
                if a > 0.0 && !(a * e.rate0 * (1.0 + 1e-9) <= next[to]) {
                    // whole base units: a swap pays an integer, so a path whose float amount
                    // stays below one unit of a token (a token whose unit is worth much of
                    // the input) delivers nothing exactly, however much the model makes of it
                    let o = self.models[k].out(a);
                    let o = if whole { floor(o) } else { o };
                    if o > next[to] && !on_path(&parents, ti, h, to) {
                        next[to] = o;
                        par[to] = (k, ti);
                    }
                }
            }
            cost_layer += gas.map_or(0.0, |g| g.table.cheapest_swap() as f64) * gm_price;
            let v = next[ld] - cost_layer;
            parents.push(par);
            if next[ld] > 0.0 && best.map_or(true, |(b, _)| v > b) {
                best = Some((v, h));
            }
            core::mem::swap(&mut layer, &mut next);
        }
        let (_, hbest) = best?;
        let mut path = Vec::new();
        let mut t = ld;
        for h in (0..=hbest).rev() {
            let (k, ti) = parents[h][t];
            if k == usize::MAX {
                return None;
            }
            path.push(k);
            t = ti;
        }
        path.reverse();
        Some(path)
    }

    /// The exact simulation of `amount` along the working-set edges `path`, as a candidate;
    /// `None` when a swap reverts (the pool pushed on `reverts`) or the amount runs out.
    fn simulate_path(
        &self,
        path: &[usize],
        amount: U256,
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Option<Candidate> {
        let mut states = PoolStates::new();
        let mut steps = Vec::new();
        let a = self.walk_path(&mut states, path, amount, &mut steps, reverts)?;
        Some(self.candidate((steps, vec![a]), gas))
    }

    /// Swap `amount` along the working-set edges `path` on the pool states `states`, each
    /// swap appended to `steps`: what the last hop delivers; `None` when a swap reverts (the
    /// pool pushed on `reverts`) or the amount runs out.
    pub(super) fn walk_path(
        &self,
        states: &mut PoolStates,
        path: &[usize],
        amount: U256,
        steps: &mut Vec<Step>,
        reverts: &mut Vec<Excluded>,
    ) -> Option<U256> {
        let mut a = amount;
        for &k in path {
            let e = &self.edges[k];
            let cur = states.current(self.graph, e.pool)?;
            // an SPL Token Swap hop may take less than it is offered: the rest of the token is
            // refunded ([`Ctx::finish`] lists it from the steps)
            let (taken, o, next) = match cur.swap_taken(e.i(), e.j(), a) {
                Ok(x) => x,
                Err(error) => {
                    reverts.push(Excluded {
                        pool: e.pool,
                        error,
                    });
                    return None;
                }
            };
            states.set(e.pool, next);
            steps.push(Step::Swap {
                pool: e.pool,
                token_in: e.ti,
                token_out: e.to,
                amount_in: taken,
                amount_out: o,
            });
            a = o;
            if a.is_zero() {
                return None;
            }
        }
        Some(a)
    }
}
