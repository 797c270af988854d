//! Exact forward propagation of a set of flows: the swaps simulated with the exact integer
//! pools in topological order on the evolving pool states.

use super::recover::{DropEdge, Flow, Settled};
use super::working_set::{Ctx, Local};
use crate::graph::PoolGraph;
use crate::math;
use crate::plan::Step;
use crate::pool::{Pool, PoolFamily};
use crate::units::{PoolId, TokenId};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// `pool`'s exact swap of `a` of coin `i` for coin `j`, where the swap takes all of `a`: the
/// output and the state after; `None` where it reverts or takes less (an SPL Token Swap offer
/// below `a`), so that a replayed or re-sized step never spends other than it says.
pub(super) fn swap_whole(pool: &Pool, i: usize, j: usize, a: U256) -> Option<(U256, Pool)> {
    let (taken, o, next) = pool.swap_taken(i, j, a).ok()?;
    (taken == a).then_some((o, next))
}

/// The evolving pool states of one simulation: only the pools swapped so far are stored, with
/// an index of pool ids sorted (and reserved up front when the pools to swap are known), so a
/// simulation on a large graph neither allocates nor fills anything sized by the graph.
#[derive(Debug, Default)]
pub(super) struct PoolStates {
    /// (pool, its state's index in `pools`, `usize::MAX` while not swapped), by pool id
    slot: Vec<(PoolId, usize)>,
    pools: Vec<Pool>,
}

impl PoolStates {
    /// No pool moved yet.
    pub(super) fn new() -> Self {
        PoolStates::default()
    }

    /// No pool moved yet, with slots for the pools `ps` (any order, repeats allowed): a
    /// simulation that swaps only those never shifts the index.
    pub(super) fn with_pools(mut ps: Vec<PoolId>) -> Self {
        ps.sort_unstable();
        ps.dedup();
        PoolStates {
            pools: Vec::with_capacity(ps.len()),
            slot: ps.into_iter().map(|p| (p, usize::MAX)).collect(),
        }
    }

    /// The current state of `p` when it was swapped in this simulation.
    pub(super) fn get(&self, p: PoolId) -> Option<&Pool> {
        let k = self.slot.binary_search_by_key(&p, |x| x.0).ok()?;
        self.slot.get(k).and_then(|x| self.pools.get(x.1))
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
        let fresh = self.pools.len();
        match self.slot.binary_search_by_key(&p, |x| x.0) {
            Ok(k) => match self.slot.get_mut(k) {
                Some(x) if x.1 == usize::MAX => {
                    x.1 = fresh;
                    self.pools.push(pool);
                }
                Some(x) => {
                    if let Some(state) = self.pools.get_mut(x.1) {
                        *state = pool;
                    }
                }
                None => {}
            },
            Err(k) => {
                self.slot.insert(k, (p, fresh));
                self.pools.push(pool);
            }
        }
    }
}

/// One simulation in progress: what every token of the quote's working set holds (by its
/// local index, `loc`), the pool states it moved, the steps.
struct Sim<'f> {
    loc: &'f [usize],
    hold: Vec<U256>,
    states: PoolStates,
    steps: Vec<Step>,
}

impl Sim<'_> {
    /// The holding of graph token `t` (a token of the working set).
    fn hold_mut(&mut self, t: usize) -> Option<&mut U256> {
        let k = self.loc.get(t).copied()?;
        self.hold.get_mut(k)
    }
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

/// The flow graph on the tokens the flows touch and the inputs (`nodes`, graph ids ascending;
/// a token's index there is its node): the flows leaving each node, and the nodes in
/// topological order. Sized by the flows, not by the graph (whose tokens include every pool's
/// LP token).
struct FlowGraph {
    nodes: Vec<usize>,
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
        lc: &Local,
    ) -> Result<Settled, DropEdge> {
        let fg = self.flow_graph(flows, lc)?;
        let mut sim = Sim {
            loc: &lc.loc,
            hold: vec![U256::zero(); lc.glob.len()],
            states: PoolStates::with_pools(flows.iter().map(|f| self.edges[f.e].pool).collect()),
            steps: Vec::new(),
        };
        for (t, a) in &self.prep.inputs {
            if let Some(h) = sim.hold_mut(t.index()) {
                *h = *a;
            }
        }
        for &v in &fg.topo {
            let t = fg.nodes[v];
            let kept = keep.iter().find(|(x, _)| x.index() == t).map(|k| k.1);
            self.spend(&mut sim, flows, &fg.outs[v], kept)?;
        }
        self.check_stranded(flows, &fg.nodes, &mut sim)?;
        let outs = self
            .out_toks
            .iter()
            .map(|t| sim.hold_mut(t.index()).map_or(U256::zero(), |h| *h))
            .collect();
        Ok((sim.steps, outs))
    }

    /// The flows out of every token and the tokens (those the flows touch, and the inputs) in
    /// topological order (Kahn, smallest id first among the ready ones); when the flows close
    /// a cycle, the edge to drop: the cycle's smallest-value flow.
    fn flow_graph(&self, flows: &[Flow], lc: &Local) -> Result<FlowGraph, DropEdge> {
        let touched = flows.iter().flat_map(|f| {
            let e = &self.edges[f.e];
            [e.ti.index(), e.to.index()]
        });
        let mut nodes: Vec<usize> = touched
            .chain(self.prep.inputs.iter().map(|(t, _)| t.index()))
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        // the node of each working-set token (by its local index)
        let mut node_of = vec![0usize; lc.glob.len()];
        for (v, t) in nodes.iter().enumerate() {
            if let Some(x) = lc.loc.get(*t).and_then(|l| node_of.get_mut(*l)) {
                *x = v;
            }
        }
        let node = |t: usize| {
            lc.loc
                .get(t)
                .and_then(|l| node_of.get(*l))
                .copied()
                .unwrap_or(0)
        };
        // each flow's (input, output) node
        let ends: Vec<(usize, usize)> = flows
            .iter()
            .map(|f| {
                let e = &self.edges[f.e];
                (node(e.ti.index()), node(e.to.index()))
            })
            .collect();
        let mut indeg = vec![0usize; nodes.len()];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (k, &(i, o)) in ends.iter().enumerate() {
            indeg[o] += 1;
            outs[i].push(k);
        }
        // Kahn, smallest node (= smallest token id) first among the ready ones
        let mut ready: alloc::collections::BTreeSet<usize> =
            (0..nodes.len()).filter(|v| indeg[*v] == 0).collect();
        let mut topo = Vec::with_capacity(nodes.len());
        while let Some(v) = ready.pop_first() {
            topo.push(v);
            for &k in &outs[v] {
                let o = ends[k].1;
                indeg[o] -= 1;
                if indeg[o] == 0 {
                    ready.insert(o);
                }
            }
        }
        if topo.len() < nodes.len() {
            return Err(self.cycle_edge(flows, &ends, &indeg));
        }
        Ok(FlowGraph { nodes, outs, topo })
    }

    /// The flow to drop from a cycle: the least valuable flow of a cycle the flows close
    /// ([`Ctx::least_on_cycle`]); when none is found (Kahn's order stopped all the same), the smallest
    /// flow touching a node that Kahn's order left with inflows (`indeg`, what is left of the
    /// in-degrees; `ends`, each flow's input and output node).
    fn cycle_edge(&self, flows: &[Flow], ends: &[(usize, usize)], indeg: &[usize]) -> DropEdge {
        let on_cycle = self.least_on_cycle(flows);
        if let Some(e) = on_cycle {
            return e.into();
        }
        let mut worst: Option<(f64, usize)> = None;
        for (f, &(i, o)) in flows.iter().zip(ends) {
            if indeg[i] > 0 || indeg[o] > 0 {
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
        let held = sim.hold_mut(t).map_or(U256::zero(), |h| *h);
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
                let h = sim.hold_mut(t).ok_or(e)?;
                *h = h.checked_sub(left).ok_or(e)?;
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
    /// concentrated-liquidity or Whirlpool leg whose known ticks run out ([`PoolFamily::may_take_less`]): the first
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
        let h = sim.hold_mut(edge.ti.index()).ok_or(e)?;
        *h = h.checked_sub(taken).ok_or(e)?;
        let h = sim.hold_mut(edge.to.index()).ok_or(e)?;
        *h = h.checked_add(o).ok_or(e)?;
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
    /// token (or out of it), and try again. `hold[v]` is what token `nodes[v]` holds (the
    /// others hold nothing).
    fn check_stranded(
        &self,
        flows: &[Flow],
        nodes: &[usize],
        sim: &mut Sim<'_>,
    ) -> Result<(), DropEdge> {
        for &t in nodes {
            let h = sim.hold_mut(t).map_or(U256::zero(), |h| *h);
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
}
