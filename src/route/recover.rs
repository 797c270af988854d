//! Step 4, recover: exact plans from the dual solution. The flows of the active edges are
//! propagated exactly ([`super::propagate`]); a flow that fails is dropped and the rest tried
//! again. With gas the recovery runs in rounds, each dropping the leg that pays least.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::arbitrage::MAX_LOOPS;
use super::certify::many_coin_curve;
use super::cycles::CYCLE_CUTS;
use super::dual::{Dual, Eval};
use super::edges::LEdge;
use super::finish::Candidate;
use super::model::EdgeModel;
use super::working_set::{Ctx, Local, Solved};
use crate::error::RouteError;
use crate::plan::GasModel;
use crate::plan::{Excluded, Plan, Step};
use crate::units::TokenId;
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// One flow of a recovered solution.
#[derive(Debug, Clone, Copy)]
pub(super) struct Flow {
    pub(super) e: usize,
    pub(super) x: f64,
    /// the flow's value at the dual prices (`x · ν` of its input token)
    pub(super) v: f64,
}

/// Steps and the amounts of the outputs.
pub(super) type Settled = (Vec<Step>, Vec<U256>);

/// At most this many recovery rounds (one without gas; with gas each drops one edge).
const RECOVER_ROUNDS: usize = 24;

/// Flow-drop attempts of one recovery (each drops at least one flow).
pub(super) const RECOVER_ATTEMPTS: usize = 32;

/// A failed propagation: the working-set edge whose flow to drop, and the revert when the
/// edge's exact swap reverted (`None`: a cycle, a stranded amount, an overflow of the split).
pub(super) struct DropEdge {
    pub(super) e: usize,
    pub(super) revert: Option<crate::error::PoolError>,
}

impl From<usize> for DropEdge {
    fn from(e: usize) -> Self {
        DropEdge { e, revert: None }
    }
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The best exact plan for the certified solution `solved`: the flows of the dual optimum
    /// recovered exactly ([`Ctx::recover_rounds`], with gas in rounds that drop the leg that
    /// pays least), or for one input and one output the best single path when it nets more,
    /// for several inputs or outputs the per-pair plan when it is better
    /// ([`Candidate::beats`]), and where the flows chain through a many-coin Curve pool the plan
    /// solved without that chain ([`Ctx::unchained`]), finished into a [`Plan`] with the
    /// certified bound. Every output must get something: an output the best plan gives nothing
    /// of is [`RouteError::AmountTooSmall`] naming it.
    pub(super) fn plan(&self, solved: Solved) -> Result<Plan, RouteError> {
        let Solved {
            lc,
            nu,
            bound,
            slack,
        } = solved;
        let gas = self.gas();
        // every exact swap that reverted in a recovery, to say why when no plan survives
        let mut reverts: Vec<Excluded> = Vec::new();
        // the best single path, for one input and one output: it does not depend on the dual,
        // and runs while the edges it reads are in cache from the passes above
        let one_to_one = self.in_toks.len() == 1 && self.out_toks.len() == 1;
        let pe = self.path_edges(&lc);
        let single = if one_to_one {
            self.single_path(gas, &pe, &mut reverts)?
        } else {
            None
        };
        // several inputs or outputs: the per-pair plan competes (`pairs.rs`)
        let pairs = if one_to_one {
            None
        } else {
            self.per_pair(gas, &pe, &mut reverts)
        };
        drop(pe);
        // the loops of the dual's flows that the recovery cut out (`arbitrage.rs` takes them)
        let mut loops: Vec<Vec<usize>> = Vec::new();
        let mut first: Vec<Flow> = Vec::new();
        let recovered =
            self.recover_rounds(&lc, nu.clone(), gas, &mut reverts, (&mut loops, &mut first))?;
        // a many-coin Curve pool the first flows run through in a chain: the plan without it
        let unchained = self.unchained(&lc, &nu, &first, gas, &mut reverts)?;
        // a many-coin Curve pool the first flows swap in two or more directions: each priced
        // where the pool will be when it swaps (`sequenced.rs`)
        let sequenced = self.sequenced(&lc, &nu, &first, gas, &mut reverts)?;
        // the recovered and per-pair plans with their swaps at the least inputs that give the
        // same outputs (`trim.rs`; a single path has no sibling legs to take a saving)
        let price = |t: TokenId| lc.loc.get(t.index()).and_then(|l| nu.get(*l)).copied();
        let trim = |c: Candidate| match self.trim.then(|| self.trimmed(&c, gas, &price)) {
            Some(Some(t)) if t.beats(&c) => t,
            _ => c,
        };
        let mut best = recovered.map(trim);
        for c in [
            single,
            pairs.map(trim),
            unchained.map(trim),
            sequenced.map(trim),
        ]
        .into_iter()
        .flatten()
        {
            if best.as_ref().map_or(true, |b| c.beats(b)) {
                best = Some(c);
            }
        }
        // the chosen plan with a profitable loop taken (the dual's flows', or a two-hop loop
        // through a token it holds), where that is better
        if let Some(b) = best.as_ref() {
            if let Some(t) = self.with_loops(b, &loops) {
                best = Some(t);
            }
        }
        let best = match best {
            Some(b) if b.outs.iter().all(|o| !o.is_zero()) => b,
            // an output asked for that none of the plans gives anything of
            Some(b) if b.outs.iter().any(|o| !o.is_zero()) => {
                return Err(self.zero_output(&b.outs));
            }
            Some(_) => return Err(self.no_plan(&reverts, true)),
            None => return Err(self.no_plan(&reverts, false)),
        };
        self.finish(best, (bound, slack))
    }

    /// The best candidate recovered from the dual solution `nu` on the working set `lc`.
    /// While the flows close a cycle (arbitrage in the snapshot), a flow of the cycle is cut
    /// out of the problem ([`Ctx::cheapest_cut`]) and the dual solved again (at most
    /// [`CYCLE_CUTS`] times), each round's plan a candidate. Then, without gas, no more rounds. With gas, each round drops the active edge whose arbitrage
    /// profit (its surplus at the optimal prices, what removing it costs to first order) falls
    /// shortest of its step's gas and re-solves ([`Ctx::least_paying`]), keeping the best plan
    /// net of gas; the rounds stop when every edge pays or five drops in a row did not improve
    /// the net output.
    fn recover_rounds(
        &self,
        lc: &Local,
        mut nu: Vec<f64>,
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
        (loops, first): (&mut Vec<Vec<usize>>, &mut Vec<Flow>),
    ) -> Result<Option<Candidate>, RouteError> {
        let nl = lc.glob.len();
        let mut ledges = lc.ledges.clone();
        // the gas rounds' copy of the models (filled on the first drop; before it the quote's)
        let mut models: Vec<&EdgeModel> = Vec::new();
        // `idx[k]` is the working-set edge of `ledges[k]`; a gas round removes its dropped edge
        // from all three
        let mut idx: Vec<usize> = (0..self.edges.len()).collect();
        let mut best: Option<Candidate> = None;
        let mut no_gain = 0;
        let mut cuts = 0;
        for round in 0..RECOVER_ROUNDS {
            let ms = if models.is_empty() {
                &self.models
            } else {
                &models
            };
            let du = Dual::new(nl, (&ledges, ms), &lc.b, &lc.c);
            // round 0 reuses the certified solution; a gas round re-solves without its edge
            if round > 0 {
                du.solve(&mut nu, &lc.order, &lc.is_out, 80);
            }
            let ev = du.eval(&nu);
            let flows = self.flows_at(&du, &ev, &nu, &idx, lc);
            if round == 0 {
                first.clone_from(&flows);
            }
            // flows, keep amounts at the outputs
            let keep = self.kept(&ev, lc);
            if let Some(cand) = self.recover(&flows, (&keep, lc), gas, reverts)? {
                if best.as_ref().map_or(true, |b| cand.net > b.net) {
                    best = Some(cand);
                    no_gain = 0;
                }
            }
            // arbitrage: flows around a cycle are cut out of the problem first (`cycles.rs`)
            let cycle = (cuts < CYCLE_CUTS).then(|| self.loop_of(&flows)).flatten();
            let cut = cycle
                .as_deref()
                .and_then(|l| self.cheapest_cut(l, (&ledges, ms, &idx), lc, &nu));
            let drop = if let (Some(k), Some(l)) = (cut, cycle) {
                if loops.len() < MAX_LOOPS && !loops.contains(&l) {
                    loops.push(l);
                }
                if cuts == 0 {
                    // and once, the problem on the edges that go forward in a fixed order
                    let fo = self.forward_only((&ledges, ms, &idx), (lc, &nu), gas, reverts)?;
                    if let Some(c) = fo {
                        if best.as_ref().map_or(true, |b| c.net > b.net) {
                            best = Some(c);
                        }
                    }
                }
                cuts += 1;
                k
            } else {
                let Some(gm) = gas else { break };
                let Some(drop) = self.least_paying(gm, &ev, &nu, &ledges, &lc.loc) else {
                    break;
                };
                if round > 0 {
                    no_gain += 1;
                }
                drop
            };
            if models.is_empty() {
                models.clone_from(&self.models);
            }
            idx.remove(drop);
            ledges.remove(drop);
            models.remove(drop);
            if no_gain > 4 {
                break;
            }
        }
        Ok(best)
    }

    /// The plan of the dual solved again without the chains through a many-coin Curve pool,
    /// where the flows `first` (of the dual solution `nu`) have one: a coin of the pool that
    /// one of its directions takes and another sells. The dual prices each direction on the
    /// snapshot state, so a chain (USDT → DAI → USDC through the 3pool beside USDT → USDC)
    /// looks like extra depth that the pool, swapped in sequence, does not have; its prices
    /// then keep flow off other pools. The directions of the pool into such a coin are left
    /// out, the dual solved again from `nu` and its flows recovered; `None` where no pool has a
    /// chain (no extra solve) or nothing is recovered. On a generated 400-pool market (USDT to
    /// USDC, 6.9 M) the flows took all of it through the 3pool, partly by way of DAI; solved
    /// again, 113.5 k goes through a solidly pool instead, and the exact plan gains 16.9 USDC
    /// (2.4e-6 of it).
    fn unchained(
        &self,
        lc: &Local,
        nu: &[f64],
        first: &[Flow],
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let many_coin_curve = |p| self.graph.pool(p).is_some_and(many_coin_curve);
        // the flows through such pools (few), then the (pool, coin) pairs a chain runs through
        let act: Vec<usize> = first
            .iter()
            .filter(|f| f.x > 0.0 && many_coin_curve(self.edges[f.e].pool))
            .map(|f| f.e)
            .collect();
        let mut chained: Vec<(crate::units::PoolId, TokenId)> = Vec::new();
        for &k in &act {
            let e = self.edges[k];
            let sold_on = act
                .iter()
                .any(|&o| self.edges[o].pool == e.pool && self.edges[o].ti == e.to);
            if sold_on && !chained.contains(&(e.pool, e.to)) {
                chained.push((e.pool, e.to));
            }
        }
        if chained.is_empty() {
            return Ok(None);
        }
        let idx: Vec<usize> = (0..lc.ledges.len())
            .filter(|&k| !chained.contains(&(self.edges[k].pool, self.edges[k].to)))
            .collect();
        let ledges: Vec<_> = idx.iter().map(|&k| lc.ledges[k]).collect();
        let models: Vec<&EdgeModel> = idx.iter().map(|&k| self.models[k]).collect();
        self.solve_and_recover(lc, (&ledges, &models, &idx), nu, gas, reverts)
    }

    /// The dual on some of the working set's edges (`ledges` with their `models`, `idx[k]` the
    /// working-set edge of `ledges[k]`) solved from `nu`, and its flows recovered exactly.
    pub(super) fn solve_and_recover(
        &self,
        lc: &Local,
        (ledges, models, idx): (&[LEdge], &[&EdgeModel], &[usize]),
        nu: &[f64],
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let mut nu = nu.to_vec();
        let (c, _) = self.solve_recover_flows(lc, (ledges, models, idx), &mut nu, gas, reverts)?;
        Ok(c)
    }

    /// [`Ctx::solve_and_recover`] from `nu`, which is left at the solution, with the flows
    /// recovered.
    pub(super) fn solve_recover_flows(
        &self,
        lc: &Local,
        (ledges, models, idx): (&[LEdge], &[&EdgeModel], &[usize]),
        nu: &mut Vec<f64>,
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<(Option<Candidate>, Vec<Flow>), RouteError> {
        let du = Dual::new(lc.glob.len(), (ledges, models), &lc.b, &lc.c);
        du.solve(nu, &lc.order, &lc.is_out, 80);
        let ev = du.eval(nu);
        let flows = self.flows_at(&du, &ev, nu, idx, lc);
        let keep = self.kept(&ev, lc);
        let c = self.recover(&flows, (&keep, lc), gas, reverts)?;
        Ok((c, flows))
    }

    /// The amounts the dual evaluation `ev` keeps at the outputs (their balances, at least 0).
    pub(super) fn kept(&self, ev: &Eval, lc: &Local) -> Vec<(TokenId, f64)> {
        self.out_toks
            .iter()
            .map(|t| (*t, ev.grad[lc.loc[t.index()]].max(0.0)))
            .collect()
    }

    /// The flows of the dual point `nu` (evaluated into `ev` on `du`, whose edge `k` is
    /// working-set edge `idx[k]`): the active edges that carry more than a 1e-13 share of the
    /// dual value, and for an input none of them leaves (too small for that threshold, it
    /// still has to be spent) its best edge into an output or a token the flows leave.
    pub(super) fn flows_at(
        &self,
        du: &Dual<'_>,
        ev: &Eval,
        nu: &[f64],
        idx: &[usize],
        lc: &Local,
    ) -> Vec<Flow> {
        let h = du.h(nu, ev);
        let (loc, is_out) = (&lc.loc, &lc.is_out);
        let thr = 1e-13 * h.abs();
        let mut flows: Vec<Flow> = Vec::new();
        for &(k, a) in &ev.act {
            if a.x * nu[du.edges[k].ti] > thr {
                flows.push(Flow {
                    e: idx[k],
                    x: a.x,
                    v: a.x * nu[du.edges[k].ti],
                });
            }
        }
        for (t, _) in &self.prep.inputs {
            let lt = loc[t.index()];
            if flows.iter().any(|f| self.edges[f.e].ti == *t) {
                continue;
            }
            let onward = |to: usize| {
                is_out[to] || flows.iter().any(|f| loc[self.edges[f.e].ti.index()] == to)
            };
            let best_edge = du
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.ti == lt && onward(e.to))
                .map(|(k, e)| (k, e.rate0 * nu[e.to]))
                .max_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((k, _)) = best_edge {
                flows.push(Flow {
                    e: idx[k],
                    x: 0.0,
                    v: 0.0,
                });
            }
        }
        flows
    }

    /// Exact forward propagation of flows; drops edges that fail to simulate or close a cycle.
    ///
    /// A pool whose swap reverts is quarantined for this candidate: its flow is dropped, the
    /// rest propagated again, and the pool listed on the candidate's `excluded` (and pushed
    /// on `reverts`). The dual bound keeps the pool (it bounds plans that could use it).
    pub(super) fn recover(
        &self,
        flows: &[Flow],
        (keep, lc): (&[(TokenId, f64)], &Local),
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let mut flows: Vec<Flow> = flows.to_vec();
        self.prune_dead_ends(&mut flows, lc);
        let mut excluded: Vec<Excluded> = Vec::new();
        // each attempt drops at least one flow; a bound on the work all the same
        for _attempt in 0..RECOVER_ATTEMPTS {
            if flows.is_empty() {
                return Ok(None);
            }
            match self.propagate(&flows, keep, lc) {
                Ok(settled) => {
                    let mut c = self.candidate(settled, gas);
                    excluded.retain(|x| {
                        !c.steps
                            .iter()
                            .any(|s| matches!(s, Step::Swap { pool, .. } if *pool == x.pool))
                    });
                    c.excluded = excluded;
                    return Ok(Some(c));
                }
                Err(drop) => {
                    if let Some(error) = drop.revert {
                        if let Some(f) = flows.iter().find(|f| f.e == drop.e) {
                            let x = Excluded {
                                pool: self.edges[f.e].pool,
                                error,
                            };
                            if !excluded.iter().any(|y| y.pool == x.pool) {
                                excluded.push(x);
                            }
                            reverts.push(x);
                        }
                    }
                    flows.retain(|f| f.e != drop.e);
                    self.prune_dead_ends(&mut flows, lc);
                }
            }
        }
        Ok(None)
    }

    /// Drop flows into a token (not an output) that no kept flow leaves: at a dual point a
    /// token whose outflows fell below the flow threshold may still show inflows (its balance
    /// is off by the float residual), and propagating them would strand the amount there.
    /// Repeated until every kept flow ends at an output or continues.
    pub(super) fn prune_dead_ends(&self, flows: &mut Vec<Flow>, lc: &Local) {
        // how many kept flows leave each working-set token (by local index)
        let at = |t: TokenId| lc.loc.get(t.index()).copied().unwrap_or(usize::MAX);
        let mut leaving = vec![0usize; lc.glob.len()];
        for f in flows.iter() {
            if let Some(c) = leaving.get_mut(at(self.edges[f.e].ti)) {
                *c += 1;
            }
        }
        let mut kept = vec![true; flows.len()];
        loop {
            let mut changed = false;
            for (f, k) in flows.iter().zip(kept.iter_mut()) {
                let e = &self.edges[f.e];
                if *k
                    && !self.out_toks.contains(&e.to)
                    && leaving.get(at(e.to)).copied().unwrap_or(0) == 0
                {
                    *k = false;
                    if let Some(c) = leaving.get_mut(at(e.ti)) {
                        *c = c.saturating_sub(1);
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut k = kept.iter();
        flows.retain(|_| k.next().copied().unwrap_or(true));
    }
}
