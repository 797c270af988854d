//! Exact forward propagation of a set of flows: the swaps simulated with the exact integer
//! pools in topological order on the evolving pool states.

use super::recover::{DropEdge, Flow, Settled};
use super::working_set::Ctx;
use crate::graph::PoolGraph;
use crate::math;
use crate::plan::Step;
use crate::pool::{Pool, PoolFamily};
use crate::units::{PoolId, TokenId};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// The evolving pool states of one simulation: only the pools swapped so far are stored
/// (a slot per pool of the graph, and the states), so a simulation on a large graph does not
/// allocate and clear a pool-sized state for every pool.
pub(super) struct PoolStates {
    pub(super) slot: Vec<usize>,
    pub(super) pools: Vec<Pool>,
}

impl PoolStates {
    pub(super) fn new(n_pools: usize) -> Self {
        PoolStates {
            slot: vec![usize::MAX; n_pools],
            pools: Vec::new(),
        }
    }

    /// The current state of `p` when it was swapped in this simulation.
    pub(super) fn get(&self, p: PoolId) -> Option<&Pool> {
        self.slot.get(p.index()).and_then(|k| self.pools.get(*k))
    }

    /// The state of `p` in this simulation: as last swapped, else as in `graph`.
    pub(super) fn current<'a>(&'a self, graph: &'a PoolGraph, p: PoolId) -> Option<&'a Pool> {
        match self.get(p) {
            Some(x) => Some(x),
            None => graph.pool(p).map(|x| &x.pool),
        }
    }

    /// Record the state of `p` after a swap.
    pub(super) fn set(&mut self, p: PoolId, pool: Pool) {
        let Some(k) = self.slot.get_mut(p.index()) else {
            return;
        };
        match self.pools.get_mut(*k) {
            Some(x) => *x = pool,
            None => {
                *k = self.pools.len();
                self.pools.push(pool);
            }
        }
    }
}

/// One simulation in progress: what every token holds, the pool states it moved, the steps.
struct Sim {
    hold: Vec<U256>,
    states: PoolStates,
    steps: Vec<Step>,
}

/// How a token's holding is offered to its legs ([`Ctx::split`]): a share per split leg (the
/// floor of its flow fraction of the holding), in the order they are swapped, what the shares
/// offer in all, and for a token that is not an output the remainder leg, which runs last
/// and spends what the shares leave (an output keeps it: its holding is its output).
struct Split {
    shares: Vec<(usize, U256)>,
    offered: U256,
    remainder: Option<usize>,
}

/// The flow graph: the flows leaving each token, and the tokens in topological order.
struct FlowGraph {
    outs: Vec<Vec<usize>>,
    topo: Vec<usize>,
}

/// Fractions of a holding are taken in units of 2^-52.
const ONE: u64 = 1 << 52;

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// Propagate: every token in topological order spends what it holds along its flows
    /// ([`Ctx::spend`]), then nothing may be stranded. On failure returns the edge to drop
    /// (and the revert, when a swap reverted).
    pub(super) fn propagate(
        &self,
        flows: &[Flow],
        keep: &[(TokenId, f64)],
    ) -> Result<Settled, DropEdge> {
        let fg = self.flow_graph(flows)?;
        let mut hold = vec![U256::zero(); self.graph.n_tokens()];
        for (t, a) in &self.prep.inputs {
            hold[t.index()] = *a;
        }
        let mut sim = Sim {
            hold,
            states: PoolStates::new(self.graph.n_pools()),
            steps: Vec::new(),
        };
        for &t in &fg.topo {
            let kept = keep.iter().find(|(x, _)| x.index() == t).map(|k| k.1);
            self.spend(&mut sim, flows, &fg.outs[t], kept)?;
        }
        self.check_stranded(flows, &sim.hold)?;
        Ok(self.settle(sim.steps, &sim.hold))
    }

    /// The flows out of every token and the tokens (those the flows touch, and the inputs) in
    /// topological order (Kahn, smallest id first among the ready ones); when the flows close
    /// a cycle, the edge to drop: the cycle's smallest-value flow.
    fn flow_graph(&self, flows: &[Flow]) -> Result<FlowGraph, DropEdge> {
        let n = self.graph.n_tokens();
        let mut indeg = vec![0usize; n];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, f) in flows.iter().enumerate() {
            let e = &self.edges[f.e];
            indeg[e.to.index()] += 1;
            outs[e.ti.index()].push(k);
        }
        let mut nodes: Vec<usize> = Vec::new();
        let mut seen = vec![false; n];
        let touched = flows.iter().flat_map(|f| {
            let e = &self.edges[f.e];
            [e.ti.index(), e.to.index()]
        });
        for t in touched.chain(self.prep.inputs.iter().map(|(t, _)| t.index())) {
            if !seen[t] {
                seen[t] = true;
                nodes.push(t);
            }
        }
        nodes.sort_unstable();
        let mut ready: alloc::collections::BTreeSet<usize> =
            nodes.iter().copied().filter(|t| indeg[*t] == 0).collect();
        let mut topo = Vec::with_capacity(nodes.len());
        while let Some(t) = ready.pop_first() {
            topo.push(t);
            for &k in &outs[t] {
                let to = self.edges[flows[k].e].to.index();
                indeg[to] -= 1;
                if indeg[to] == 0 {
                    ready.insert(to);
                }
            }
        }
        if topo.len() < nodes.len() {
            return Err(self.cycle_edge(flows, &indeg));
        }
        Ok(FlowGraph { outs, topo })
    }

    /// The flow to drop from a cycle: the least valuable flow of a cycle the flows close
    /// ([`Ctx::least_on_cycle`]); when none is found (Kahn's order stopped all the same), the smallest
    /// flow touching a token that Kahn's order left with inflows (`indeg`, what is left of the
    /// in-degrees).
    fn cycle_edge(&self, flows: &[Flow], indeg: &[usize]) -> DropEdge {
        let on_cycle = self.least_on_cycle(flows);
        if let Some(e) = on_cycle {
            return e.into();
        }
        let mut worst: Option<(f64, usize)> = None;
        for f in flows {
            let e = &self.edges[f.e];
            if indeg[e.ti.index()] > 0 || indeg[e.to.index()] > 0 {
                let v = f.x;
                if worst.map_or(true, |(w, _)| v < w) {
                    worst = Some((v, f.e));
                }
            }
        }
        worst.map_or(flows[0].e, |w| w.1).into()
    }

    /// Token `t` (the input token of the flows `outs`) spends all it holds: an input or an
    /// intermediate all of it, an output (`kept`: its share of the dual's balance) what its
    /// shares offer. The split legs swap their shares first; a share the pool does not take
    /// (in part, or a revert, typically a sliver of a low-value token that rounds to no
    /// output) stays with the remainder leg, which swaps last, or on the output token itself.
    fn spend(
        &self,
        sim: &mut Sim,
        flows: &[Flow],
        outs: &[usize],
        kept: Option<f64>,
    ) -> Result<(), DropEdge> {
        let Some(t) = outs.first().map(|k| self.edges[flows[*k].e].ti.index()) else {
            return Ok(());
        };
        let held = sim.hold[t];
        if held.is_zero() {
            return Ok(());
        }
        let legs = self.leg_order(flows, outs);
        let split = Self::split(flows, &legs, held, kept)?;
        let mut used = split.offered;
        for &(k, a) in &split.shares {
            if a.is_zero() {
                continue;
            }
            let declined = match self.swap(sim, flows[k].e, a)? {
                Ok(taken) => a.saturating_sub(taken),
                Err(_) => a,
            };
            used = used.saturating_sub(declined);
        }
        match split.remainder {
            Some(k) => self.spend_remainder(sim, flows[k].e, t, held, used),
            None if used > held => Err(flows[legs[0]].e.into()),
            None => Ok(()),
        }
    }

    /// The remainder leg (working-set edge `e` out of token `t`) swaps what the shares left of
    /// the holding `held` (`used`: what they took); what its pool does not take is refunded
    /// ([`Ctx::finish`] lists it from the steps), so it leaves the token's holding.
    fn spend_remainder(
        &self,
        sim: &mut Sim,
        e: usize,
        t: usize,
        held: U256,
        used: U256,
    ) -> Result<(), DropEdge> {
        let a = held.checked_sub(used).ok_or(e)?;
        if a.is_zero() {
            return Ok(());
        }
        match self.swap(sim, e, a)? {
            Ok(taken) => {
                let left = a.saturating_sub(taken);
                sim.hold[t] = sim.hold[t].checked_sub(left).ok_or(e)?;
                Ok(())
            }
            Err(error) => Err(DropEdge {
                e,
                revert: Some(error),
            }),
        }
    }

    /// The flows `outs` of one token in the order its holding is split: largest flow first
    /// (ties by index). An SPL Token Swap leg may take less than it is offered, and so may a
    /// concentrated-liquidity leg whose known ticks run out ([`PoolFamily::may_take_less`]): the first
    /// leg, which becomes the remainder leg and takes what the others leave, is the largest
    /// whose pool takes its whole offer, where there is one.
    fn leg_order(&self, flows: &[Flow], outs: &[usize]) -> Vec<usize> {
        let mut ks = outs.to_vec();
        ks.sort_by(|a, b| {
            flows[*b]
                .x
                .partial_cmp(&flows[*a].x)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.cmp(b))
        });
        let takes_all = |k: &usize| {
            self.graph
                .pool(self.edges[flows[*k].e].pool)
                .map_or(true, |p| !p.pool.may_take_less())
        };
        if let Some(p) = ks.iter().position(takes_all).filter(|p| *p > 0) {
            ks[..=p].rotate_right(1);
        }
        ks
    }

    /// The shares of `held` for the legs `legs` (in [`Ctx::leg_order`]): every leg gets the
    /// floor of its fraction of the holding (of the legs' flows plus `kept`, an output's own
    /// share); a token that is not an output (`kept` is `None`) spends the rest on its first
    /// leg, the remainder leg.
    fn split(
        flows: &[Flow],
        legs: &[usize],
        held: U256,
        kept: Option<f64>,
    ) -> Result<Split, DropEdge> {
        let tot: f64 = legs.iter().map(|k| flows[*k].x).sum::<f64>() + kept.unwrap_or(0.0);
        let remainder = kept.is_none().then(|| legs[0]);
        let share_legs = if kept.is_none() { &legs[1..] } else { legs };
        let mut shares = Vec::with_capacity(share_legs.len());
        let mut offered = U256::zero();
        for &k in share_legs {
            let fr = (flows[k].x / tot).clamp(0.0, 1.0);
            let q = (fr * ONE as f64) as u64;
            let a = math::mul_div(held, U256::from(q), U256::from(ONE))
                .map_err(|_| DropEdge::from(flows[k].e))?;
            offered = offered.saturating_add(a);
            shares.push((k, a));
        }
        Ok(Split {
            shares,
            offered,
            remainder,
        })
    }

    /// Swap `a` along working-set edge `e` on the simulation's pool states: `Ok(taken)` (the
    /// part of `a` the pool took; the step recorded, the holdings moved) or the revert (nothing
    /// changed).
    fn swap(
        &self,
        sim: &mut Sim,
        e: usize,
        a: U256,
    ) -> Result<Result<U256, crate::error::PoolError>, DropEdge> {
        let edge = &self.edges[e];
        let cur = sim.states.current(self.graph, edge.pool).ok_or(e)?;
        let (taken, o, next) = match cur.swap_taken(edge.i(), edge.j(), a) {
            Ok(x) => x,
            Err(error) => return Ok(Err(error)),
        };
        sim.states.set(edge.pool, next);
        let (ti, to) = (edge.ti.index(), edge.to.index());
        sim.hold[ti] = sim.hold[ti].checked_sub(taken).ok_or(e)?;
        sim.hold[to] = sim.hold[to].checked_add(o).ok_or(e)?;
        sim.steps.push(Step::Swap {
            pool: edge.pool,
            token_in: edge.ti,
            token_out: edge.to,
            amount_in: taken,
            amount_out: o,
        });
        Ok(Ok(taken))
    }

    /// Every input is spent exactly and nothing is stranded on an intermediate token (a token
    /// reached by flows whose own flows were dropped): else the edge to drop, one into such a
    /// token (or out of it), and try again.
    fn check_stranded(&self, flows: &[Flow], hold: &[U256]) -> Result<(), DropEdge> {
        for (t, h) in hold.iter().enumerate() {
            if h.is_zero() || self.out_toks.iter().any(|x| x.index() == t) {
                continue;
            }
            let into = flows.iter().find(|f| self.edges[f.e].to.index() == t);
            let out_of = flows.iter().find(|f| self.edges[f.e].ti.index() == t);
            let f = into.or(out_of).map_or(flows[0].e, |f| f.e);
            return Err(f.into());
        }
        Ok(())
    }

    /// The outputs of a simulation that spent everything else.
    pub(super) fn settle(&self, steps: Vec<Step>, hold: &[U256]) -> Settled {
        let outs = self
            .out_toks
            .iter()
            .map(|t| hold.get(t.index()).copied().unwrap_or_default())
            .collect();
        (steps, outs)
    }
}
