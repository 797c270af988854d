//! The best single path (one input, one output): a hop-bounded dynamic programme on float
//! amounts, floored to whole base units at every hop, simulated exactly.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::edges::LEdge;
use super::finish::Candidate;
use super::propagate::PoolStates;
use super::working_set::Ctx;
use crate::error::RouteError;
use crate::math::float::{floor, to_f64};
use crate::plan::GasModel;
use crate::plan::{Excluded, Step};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// Best single path (hop-bounded DP on float amounts, [`Ctx::best_path`]), simulated
    /// exactly ([`Ctx::simulate_path`]). `ledges` are the pruned edges in local indices
    /// (`loc`, `nl` tokens).
    pub(super) fn single_path(
        &self,
        gas: Option<GasModel>,
        ledges: &[LEdge],
        loc: &[usize],
        nl: usize,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let (src, amt) = self.prep.inputs[0];
        let dst = self.out_toks[0];
        let ends = (loc[src.index()], loc[dst.index()]);
        // by whole base units; when no path keeps a whole unit to the end, by float amounts
        // (its exact simulation then says whether the amount is dust)
        let Some(path) = self
            .best_path(gas, ledges, ends, nl, (to_f64(amt), true))
            .or_else(|| self.best_path(gas, ledges, ends, nl, (to_f64(amt), false)))
        else {
            return Ok(None);
        };
        Ok(self.simulate_path(&path, amt, gas, reverts))
    }

    /// The working-set edges of the best path of at most [`Ctx::hops`] hops from local token
    /// `ls` to `ld` (`ends`) for `amount` of `ls`, by the float models net of the cheapest
    /// step's gas per hop, each hop's amount floored to whole base units when `whole`; `None`
    /// when no path delivers anything.
    pub(super) fn best_path(
        &self,
        gas: Option<GasModel>,
        ledges: &[LEdge],
        (ls, ld): (usize, usize),
        nl: usize,
        (amount, whole): (f64, bool),
    ) -> Option<Vec<usize>> {
        let gm_price = gas.map_or(0.0, |g| g.gas_price);
        let mut layer = vec![0.0f64; nl];
        layer[ls] = amount;
        let mut next = vec![0.0f64; nl];
        let mut parents: Vec<Vec<usize>> = Vec::with_capacity(self.hops());
        let mut best: Option<(f64, usize)> = None;
        let mut cost_layer = 0.0;
        // Paths stay simple: a token already on the path to `u` (reached in `l` hops) is not
        // entered again. The float models price every edge on the snapshot state, so a cycle
        // through the same pools (1 → 3 → 1 on two stable pools) can look like a gain of float
        // noise while the exact swaps, on the pools' moved states, lose.
        let on_path = |parents: &[Vec<usize>], u: usize, l: usize, target: usize| {
            let (mut t, mut l) = (u, l);
            loop {
                if t == target {
                    return true;
                }
                let Some(k) = l.checked_sub(1).and_then(|p| parents[p].get(t).copied()) else {
                    return false;
                };
                let Some(e) = ledges.get(k) else { return false };
                t = e.ti;
                l -= 1;
            }
        };
        for h in 0..self.hops() {
            next.fill(0.0);
            let mut par = vec![usize::MAX; nl];
            for (k, e) in ledges.iter().enumerate() {
                let a = layer[e.ti];
                // out is concave with slope rate0 at 0, so out(a) ≤ a·rate0 (the margin covers
                // float noise): the model is not read when even that cannot beat the best so
                // far (the test reads the edge, the model is elsewhere: for x·y = k too)
                if a > 0.0 && !(a * e.rate0 * (1.0 + 1e-9) <= next[e.to]) {
                    // whole base units: a swap pays an integer, so a path whose float amount
                    // stays below one unit of a token (a token whose unit is worth much of
                    // the input) delivers nothing exactly, however much the model makes of it
                    let o = self.models[k].out(a);
                    let o = if whole { floor(o) } else { o };
                    if o > next[e.to] && !on_path(&parents, e.ti, h, e.to) {
                        next[e.to] = o;
                        par[e.to] = k;
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
            let k = parents[h][t];
            if k == usize::MAX {
                return None;
            }
            path.push(k);
            t = ledges[k].ti;
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
        let mut states = PoolStates::new(self.graph.n_pools());
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
