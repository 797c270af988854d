//! Exact forward propagation of a set of flows: the swaps simulated with the exact integer
//! pools in topological order on the evolving pool states.

use super::recover::{DropEdge, Flow, Settled};
use super::working_set::Ctx;
use crate::math;
use crate::plan::Step;
use crate::pool::Pool;
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

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// Propagate; on failure returns the edge to drop (and the revert, when a swap reverted).
    pub(super) fn propagate(
        &self,
        flows: &[Flow],
        keep: &[(TokenId, f64)],
    ) -> Result<Settled, DropEdge> {
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
        for f in flows {
            let e = &self.edges[f.e];
            for t in [e.ti.index(), e.to.index()] {
                if !seen[t] {
                    seen[t] = true;
                    nodes.push(t);
                }
            }
        }
        for (t, _) in &self.prep.inputs {
            if !seen[t.index()] {
                seen[t.index()] = true;
                nodes.push(t.index());
            }
        }
        nodes.sort_unstable();
        // topological order (Kahn, smallest id first among the ready ones)
        let mut ready: alloc::collections::BTreeSet<usize> =
            nodes.iter().copied().filter(|t| indeg[*t] == 0).collect();
        let mut topo = Vec::with_capacity(nodes.len());
        let mut indeg2 = indeg.clone();
        while let Some(t) = ready.pop_first() {
            topo.push(t);
            for &k in &outs[t] {
                let to = self.edges[flows[k].e].to.index();
                indeg2[to] -= 1;
                if indeg2[to] == 0 {
                    ready.insert(to);
                }
            }
        }
        if topo.len() < nodes.len() {
            // a cycle: drop its smallest-value edge
            let mut worst: Option<(f64, usize)> = None;
            for f in flows {
                let e = &self.edges[f.e];
                if indeg2[e.ti.index()] > 0 || indeg2[e.to.index()] > 0 {
                    let v = f.x;
                    if worst.map_or(true, |(w, _)| v < w) {
                        worst = Some((v, f.e));
                    }
                }
            }
            return Err(worst.map_or(flows[0].e, |w| w.1).into());
        }
        let mut hold = vec![U256::zero(); n];
        for (t, a) in &self.prep.inputs {
            hold[t.index()] = *a;
        }
        let mut states = PoolStates::new(self.graph.n_pools());
        let mut steps = Vec::new();
        const ONE: u64 = 1 << 52;
        for t in topo {
            // a token spends all it holds (inputs and intermediates; an output keeps its share)
            let s = hold[t];
            let mut ks = outs[t].clone();
            if ks.is_empty() || s.is_zero() {
                continue;
            }
            ks.sort_by(|a, b| {
                flows[*b]
                    .x
                    .partial_cmp(&flows[*a].x)
                    .unwrap_or(core::cmp::Ordering::Equal)
                    .then(a.cmp(b))
            });
            // An SPL Token Swap leg may take less than it is offered, and so may a
            // concentrated-liquidity leg whose known ticks run out (`Pool::exact_offer`): the
            // remainder edge, which runs last and takes what the others leave, is the largest
            // edge whose pool takes its whole offer, where there is one.
            let takes_all = |k: &usize| {
                self.graph
                    .pool(self.edges[flows[*k].e].pool)
                    .map_or(true, |p| {
                        !matches!(
                            p.pool,
                            Pool::SplTokenSwap(_) | Pool::ConcentratedLiquidity(_)
                        )
                    })
            };
            if let Some(p) = ks.iter().position(takes_all).filter(|p| *p > 0) {
                ks[..=p].rotate_right(1);
            }
            let kp = keep
                .iter()
                .find(|(x, _)| x.index() == t)
                .map_or(0.0, |k| k.1);
            let is_output = keep.iter().any(|(x, _)| x.index() == t);
            let tot: f64 = ks.iter().map(|k| flows[*k].x).sum::<f64>() + kp;
            // every edge gets the floor of its fraction of the holding; a token that is not an
            // output spends the rest on its largest edge (`ks[0]`), which runs last
            let mut amts = vec![U256::zero(); ks.len()];
            let mut used = U256::zero();
            for (p, k) in ks.iter().enumerate() {
                if p == 0 && !is_output {
                    continue;
                }
                let fr = (flows[*k].x / tot).clamp(0.0, 1.0);
                let q = (fr * ONE as f64) as u64;
                amts[p] = math::mul_div(s, U256::from(q), U256::from(ONE))
                    .map_err(|_| DropEdge::from(flows[*k].e))?;
                used = used.saturating_add(amts[p]);
            }
            let rem = (!is_output).then_some(0);
            let order = (0..ks.len()).filter(|p| Some(*p) != rem).chain(rem);
            for p in order {
                let k = ks[p];
                let e = &self.edges[flows[k].e];
                let is_rem = Some(p) == rem;
                let a = if is_rem {
                    s.checked_sub(used).ok_or(flows[ks[0]].e)?
                } else {
                    amts[p]
                };
                if a.is_zero() {
                    continue;
                }
                let cur = match states.get(e.pool) {
                    Some(p) => p,
                    None => &self.graph.pool(e.pool).ok_or(flows[k].e)?.pool,
                };
                let (taken, o, next) = match cur.swap_taken(e.i, e.j, a) {
                    Ok(x) => x,
                    // A split edge whose swap reverts (typically a sliver of a low-value token
                    // that rounds to no output) leaves its amount to the remainder edge, which
                    // runs last, or on the output token itself.
                    Err(_) if !is_rem => {
                        used = used.saturating_sub(a);
                        continue;
                    }
                    Err(error) => {
                        return Err(DropEdge {
                            e: flows[k].e,
                            revert: Some(error),
                        })
                    }
                };
                // What the pool does not take stays held: a split edge leaves it to the
                // remainder edge; the remainder edge's is refunded (unless the token is an
                // output, whose holding is its output).
                let left = a.saturating_sub(taken);
                let a = taken;
                if is_rem && !is_output {
                    // [`Ctx::finish`] lists it in the refunds from the steps
                    hold[t] = hold[t].checked_sub(left).ok_or(flows[k].e)?;
                } else {
                    used = used.saturating_sub(left);
                }
                states.set(e.pool, next);
                hold[t] = hold[t].checked_sub(a).ok_or(flows[k].e)?;
                hold[e.to.index()] = hold[e.to.index()].checked_add(o).ok_or(flows[k].e)?;
                steps.push(Step::Swap {
                    pool: e.pool,
                    token_in: e.ti,
                    token_out: e.to,
                    amount_in: a,
                    amount_out: o,
                });
            }
            if is_output && used > s {
                return Err(flows[ks[0]].e.into());
            }
        }
        // every input is spent exactly and nothing is stranded on an intermediate token (a token
        // reached by flows whose own flows were dropped): drop an edge into it and try again
        for (t, h) in hold.iter().enumerate() {
            if h.is_zero() || self.out_toks.iter().any(|x| x.index() == t) {
                continue;
            }
            let into = flows.iter().find(|f| self.edges[f.e].to.index() == t);
            let out_of = flows.iter().find(|f| self.edges[f.e].ti.index() == t);
            let f = into.or(out_of).map_or(flows[0].e, |f| f.e);
            return Err(f.into());
        }
        Ok(self.settle(steps, &hold))
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
