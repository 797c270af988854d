//! Step 4, sequenced: a plan for flows that swap a many-coin Curve pool in two or more
//! directions, with each direction priced where the pool will be when it swaps.
//!
//! The dual prices every pool direction on the snapshot state. A plan that sends two inputs
//! into one coin of a 3-coin pool (USDT → USDC and DAI → USDC), or takes one coin out for two
//! others, executes those swaps one after the other, and each leaves the pool poorer in what
//! the next one wants: the flows overrate the pool and keep flow off its competitors. Without
//! fees a Curve pool's final state depends only on the balances added and taken (the invariant
//! `D` is kept), so a direction's marginal rate at the plan's end is its rate on the snapshot
//! state moved by the pool's *other* directions' flows. Each direction of such a pool is
//! therefore modelled on that state, the dual solved again from the optimal prices and its
//! flows recovered exactly; at the solution every direction's marginal rate is the pool's at
//! the end state, which is what the optimum of the sequence needs (fees and the order of the
//! swaps move it a little; the candidate is simulated exactly and kept only where it is
//! better). The states move with the flows: each round's states are moved by flows half way
//! between the last round's states' and its solution's (so that flows that swing between two
//! splits settle), until a round gains less than 1e-9 or after six rounds.
//!
//! On a generated 400-pool market (6.47 M of one stablecoin and 0.57 M of another into the
//! third, both through one 3-coin pool), the flows sent 29.9 k of the second stablecoin
//! through a solidly pool beside the Curve pool; priced so, 110.7 k go there and the plan
//! gains 4.9 units of the output in 7.04 M (6.9e-7 of it).

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::certify::many_coin_curve;
use super::finish::Candidate;
use super::model::{EdgeModel, FloatPool};
use super::propagate::swap_whole;
use super::recover::Flow;
use super::working_set::{Ctx, Local};
use crate::error::RouteError;
use crate::math::float::from_f64_floor;
use crate::plan::{Excluded, GasModel};
use crate::units::PoolId;
use alloc::vec::Vec;

/// Rounds of [`Ctx::sequenced`] at most: each prices the pool's directions on states moved
/// half way from the last states toward the last round's flows ([`damped`]).
const SEQUENCE_ROUNDS: usize = 6;

/// [`Ctx::sequenced`] stops after a round whose plan gains less than this share of the best
/// plan's objective over the best plan before it (or none).
const SEQUENCE_MIN_GAIN: f64 = 1e-9;

/// [`Ctx::sequenced`] solves only where the snapshot's models overrate the flows through the
/// pools by at least this share of the inputs' value (what the other directions' flows take
/// off each one's output): the plan's gain from the new solve shrinks about as its square.
/// On the module docs' market it is 3.4e-5 and the plan gains 6.9e-7 of its output; on the
/// route bench's requests it is at most 3.3e-6 at 2000 pools (4.9e-6 for the heavy trades),
/// where the plans the solve finds gain at most 1e-9, and 6.1e-6 at 20000, where one plan
/// gained 8.6e-9 for 51 ms more (44 → 95 ms).
const SEQUENCE_MIN_OVERRATE: f64 = 1e-5;

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The plan of the dual solved again with each direction of a many-coin Curve pool that
    /// the flows `first` (of the optimal prices `nu`) swap in two or more directions priced on
    /// the pool's state moved by its other directions' flows (module docs); the better of
    /// [`SEQUENCE_ROUNDS`] rounds. `None` where no such pool carries two flows, where the
    /// snapshot's models overrate them by less than [`SEQUENCE_MIN_OVERRATE`] (no extra
    /// solve in either case), or where nothing is recovered.
    pub(super) fn sequenced(
        &self,
        lc: &Local,
        nu: &[f64],
        first: &[Flow],
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let mut flows: Vec<Flow> = self.shared_pool_flows(first);
        let mut moved = self.moved_models(&flows);
        if moved.is_empty() || !self.overrated(lc, nu, &flows, &moved) {
            return Ok(None);
        }
        let mut nu = nu.to_vec();
        let mut best: Option<Candidate> = None;
        let idx: Vec<usize> = (0..lc.ledges.len()).collect();
        for round in 0..SEQUENCE_ROUNDS {
            if round > 0 {
                moved = self.moved_models(&flows);
                if moved.is_empty() {
                    break;
                }
            }
            let models: Vec<&EdgeModel> = (0..lc.ledges.len())
                .map(|k| {
                    moved
                        .iter()
                        .find(|(m, _)| *m == k)
                        .map_or(self.models[k], |(_, m)| m)
                })
                .collect();
            let (c, all) =
                self.solve_recover_flows(lc, (&lc.ledges, &models, &idx), &mut nu, gas, reverts)?;
            let Some(c) = c else {
                break;
            };
            let gain = best.as_ref().map_or(f64::INFINITY, |b| c.net - b.net);
            if best.as_ref().map_or(true, |b| c.beats(b)) {
                best = Some(c);
            }
            if !(gain > SEQUENCE_MIN_GAIN * best.as_ref().map_or(0.0, |b| b.net.abs())) {
                break;
            }
            flows = damped(&flows, &self.shared_pool_flows(&all));
        }
        Ok(best)
    }

    /// Whether the snapshot's models overrate the flows `flows` by at least
    /// [`SEQUENCE_MIN_OVERRATE`] of the inputs' value at the prices `nu`: their outputs there
    /// less their outputs on the `moved` models, at the output tokens' prices.
    fn overrated(
        &self,
        lc: &Local,
        nu: &[f64],
        flows: &[Flow],
        moved: &[(usize, EdgeModel)],
    ) -> bool {
        let inputs: f64 = lc.b.iter().zip(nu).map(|(b, v)| b * v).sum();
        let over: f64 = moved
            .iter()
            .filter_map(|(k, m)| {
                let f = flows.iter().find(|f| f.e == *k)?;
                let lost = self.models[*k].out(f.x) - m.out(f.x);
                Some(lost * nu[lc.ledges[*k].to])
            })
            .sum();
        over >= SEQUENCE_MIN_OVERRATE * inputs
    }

    /// The flows of `flows` through many-coin Curve pools that carry two or more of them.
    fn shared_pool_flows(&self, flows: &[Flow]) -> Vec<Flow> {
        let pool_of = |f: &Flow| self.edges[f.e].pool;
        let on_curve: Vec<Flow> = flows
            .iter()
            .filter(|f| f.x > 0.0)
            .filter(|f| self.graph.pool(pool_of(f)).is_some_and(many_coin_curve))
            .copied()
            .collect();
        on_curve
            .iter()
            .filter(|f| on_curve.iter().filter(|g| pool_of(g) == pool_of(f)).count() >= 2)
            .copied()
            .collect()
    }

    /// For each flow of `flows` (all through pools that carry two or more of them), its edge's
    /// model on the pool's snapshot state after the pool's other flows, swapped exactly in
    /// their order here at their floored amounts (a swap that reverts is left out).
    fn moved_models(&self, flows: &[Flow]) -> Vec<(usize, EdgeModel)> {
        let mut out = Vec::with_capacity(flows.len());
        for f in flows {
            let e = self.edges[f.e];
            let pool: PoolId = e.pool;
            let (Some(info), Some(params)) =
                (self.graph.pool(pool), self.graph.family_params(pool))
            else {
                continue;
            };
            let mut state = info.pool.clone();
            for g in flows.iter().filter(|g| g.e != f.e) {
                let o = self.edges[g.e];
                if o.pool != pool {
                    continue;
                }
                if let Some((_, next)) = swap_whole(&state, o.i(), o.j(), from_f64_floor(g.x)) {
                    state = next;
                }
            }
            if let Some(m) = FloatPool::for_pool(params, &state).edge(e.i(), e.j()) {
                out.push((f.e, m));
            }
        }
        out
    }
}

/// The flows half way between `old` and `new`, edge by edge (an edge missing from one has
/// no flow there): the next round's states move by these, so that rounds whose flows swing
/// between two splits settle between them.
#[allow(clippy::arithmetic_side_effects)] // f64
fn damped(old: &[Flow], new: &[Flow]) -> Vec<Flow> {
    let mut out: Vec<Flow> = Vec::with_capacity(old.len() + new.len());
    for f in old.iter().chain(new) {
        if out.iter().any(|g| g.e == f.e) {
            continue;
        }
        let x = |fs: &[Flow]| fs.iter().find(|g| g.e == f.e).map_or(0.0, |g| g.x);
        let v = |fs: &[Flow]| fs.iter().find(|g| g.e == f.e).map_or(0.0, |g| g.v);
        out.push(Flow {
            e: f.e,
            x: 0.5 * (x(old) + x(new)),
            v: 0.5 * (v(old) + v(new)),
        });
    }
    out
}
