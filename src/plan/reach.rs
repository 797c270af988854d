//! What pools a request lets a plan swap through ([`Plan::verify_request`](super::Plan::verify_request)):
//! its source filters and, under a hop limit, the pool directions on some path of at most that
//! many hops from an input to an output.
//!
//! The hop distances are breadth-first over the graph's pools (every ordered pair of a pool's
//! coins is a direction). The router counts hops over the directions its edge index holds,
//! which leaves out dead ones (a pool with nothing to give in a direction), so its distances
//! are never shorter than these: every direction its plans use is within the limit here too.

use crate::error::PlanProblem;
use crate::graph::PoolGraph;
use crate::units::{PoolId, TokenId};
use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A token no path reaches.
const UNREACHED: usize = usize::MAX;

/// The pools and pool directions a request allows.
pub(super) struct Reach {
    /// per pool, whether the source filters allow it
    allowed: Vec<bool>,
    /// the hop limit, and the hop distances from the inputs and to the outputs
    hops: Option<(usize, Vec<usize>, Vec<usize>)>,
}

impl Reach {
    /// The pools `graph` has under the filters, and with `max_hops` the hop distances from
    /// `inputs` and to `outputs` through them.
    pub(super) fn new(
        graph: &PoolGraph,
        (whitelist, blacklist): (Option<&[String]>, &[String]),
        max_hops: Option<usize>,
        (inputs, outputs): (&[TokenId], &[TokenId]),
    ) -> Self {
        let allowed: Vec<bool> = graph
            .pools()
            .iter()
            .map(|p| graph.source_allowed(&p.source, whitelist, blacklist))
            .collect();
        let hops = max_hops.map(|h| {
            let d_in = distances(graph, &allowed, inputs);
            let d_out = distances(graph, &allowed, outputs);
            (h, d_in, d_out)
        });
        Self { allowed, hops }
    }

    /// Why a swap through `pool` from `ti` to `to` is outside, if it is.
    pub(super) fn check(&self, pool: PoolId, ti: TokenId, to: TokenId) -> Result<(), PlanProblem> {
        if !self.allowed.get(pool.index()).copied().unwrap_or(false) {
            return Err(PlanProblem::SourceFiltered);
        }
        if let Some((h, d_in, d_out)) = &self.hops {
            let a = d_in.get(ti.index()).copied().unwrap_or(UNREACHED);
            let b = d_out.get(to.index()).copied().unwrap_or(UNREACHED);
            if a == UNREACHED || b == UNREACHED || a.saturating_add(b).saturating_add(1) > *h {
                return Err(PlanProblem::BeyondHopLimit);
            }
        }
        Ok(())
    }
}

/// Hop distances from `starts` through the `allowed` pools (a pool joins any two of its coins
/// both ways, so one search serves the distances from the inputs and to the outputs).
fn distances(graph: &PoolGraph, allowed: &[bool], starts: &[TokenId]) -> Vec<usize> {
    let mut d = vec![UNREACHED; graph.n_tokens()];
    let mut q = VecDeque::new();
    for s in starts {
        if let Some(x) = d.get_mut(s.index()) {
            *x = 0;
            q.push_back(*s);
        }
    }
    while let Some(u) = q.pop_front() {
        let next = d
            .get(u.index())
            .copied()
            .unwrap_or(UNREACHED)
            .saturating_add(1);
        for p in graph.pools_of(u) {
            if !allowed.get(p.index()).copied().unwrap_or(false) {
                continue;
            }
            for v in graph.pool(*p).map_or(&[][..], |i| i.tokens.as_slice()) {
                if let Some(dv) = d.get_mut(v.index()) {
                    if *dv == UNREACHED {
                        *dv = next;
                        q.push_back(*v);
                    }
                }
            }
        }
    }
    d
}
