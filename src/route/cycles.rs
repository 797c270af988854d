//! Step 4, cycles: the recovered flows must form a DAG. With arbitrage in the snapshot (pools
//! of one pair at different prices, as in every snapshot read between two blocks) the dual's
//! optimal flow takes profit around loops, and an output may then be fed by that profit alone
//! (on a market with a mispriced C1/C2 pair, "X → C1 and C2, half each" was C1 ← C2 ← C1
//! around the two pairs and X → C2: with the loop cut, C1 got nothing). [`find_cycle`] finds a
//! directed cycle of a set of arcs; the recovery cuts one flow of the cycle out of the
//! problem ([`Ctx::cheapest_cut`]: the one whose loss leaves the optimum highest) and solves
//! the dual again, until the optimal flow is acyclic, so that what reaches each output comes
//! from the inputs (`recover.rs`).

use super::dual::Dual;
use super::edges::LEdge;
use super::finish::Candidate;
use super::model::EdgeModel;
use super::recover::Flow;
use super::working_set::{Ctx, Local, UNREACHED};
use crate::error::RouteError;
use crate::plan::{Excluded, GasModel};
use crate::units::TokenId;
use alloc::vec;
use alloc::vec::Vec;

/// Most cycles the recovery cuts out of one request's problem (each cut is a dual re-solve).
pub(super) const CYCLE_CUTS: usize = 16;

/// A directed cycle of the arcs `arcs` (tail, head) on the nodes `0..n`: the indices into
/// `arcs` of its arcs, in order around the cycle; `None` when the arcs form a DAG (arcs with a
/// node outside `0..n` are ignored).
///
/// The search runs on the nodes the arcs touch, renumbered by rank ([`cycle_on_ranks`]): the
/// ranks keep the ids' order, so it visits them as it would the ids and finds the same cycle,
/// in arrays sized by the arcs instead of by `n` (the router's flows touch a few hundred of
/// a graph's tokens).
///
/// # Complexity
/// O(arcs · log arcs): the touched nodes sorted, then one depth-first search (iterative, no
/// recursion).
#[must_use]
pub(super) fn find_cycle(arcs: &[(usize, usize)], n: usize) -> Option<Vec<usize>> {
    let inside = |&(a, b): &(usize, usize)| a < n && b < n;
    let mut nodes: Vec<usize> = Vec::with_capacity(arcs.len().saturating_mul(2));
    nodes.extend(arcs.iter().filter(|x| inside(x)).flat_map(|&(a, b)| [a, b]));
    nodes.sort_unstable();
    nodes.dedup();
    let rank = |v: usize| nodes.binary_search(&v).unwrap_or(usize::MAX);
    // an arc left out keeps its index, with nodes outside the ranks
    let ranked: Vec<(usize, usize)> = arcs
        .iter()
        .map(|x| {
            if inside(x) {
                (rank(x.0), rank(x.1))
            } else {
                (usize::MAX, usize::MAX)
            }
        })
        .collect();
    cycle_on_ranks(&ranked, nodes.len())
}

/// [`find_cycle`] on nodes `0..n` that the arcs touch (ranks): roots in increasing order, each
/// node's arcs in their order.
#[allow(clippy::indexing_slicing)] // node ids < n checked on entry, arc ids < arcs.len() by construction
fn cycle_on_ranks(arcs: &[(usize, usize)], n: usize) -> Option<Vec<usize>> {
    // adjacency as CSR: the arcs leaving each node
    let mut start = vec![0usize; n.saturating_add(1)];
    for &(a, b) in arcs {
        if a < n && b < n {
            start[a.saturating_add(1)] = start[a.saturating_add(1)].saturating_add(1);
        }
    }
    for k in 0..n {
        start[k.saturating_add(1)] = start[k.saturating_add(1)].saturating_add(start[k]);
    }
    let mut fill = start.clone();
    let mut adj = vec![0usize; start[n]];
    for (k, &(a, b)) in arcs.iter().enumerate() {
        if a < n && b < n {
            adj[fill[a]] = k;
            fill[a] = fill[a].saturating_add(1);
        }
    }
    // 0: not seen, 1: on the search path, 2: done
    let mut state = vec![0u8; n];
    // the arc by which each node on the path was entered
    let mut via = vec![usize::MAX; n];
    let mut next = start.clone();
    let mut path = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        path.clear();
        path.push(root);
        state[root] = 1;
        while let Some(&u) = path.last() {
            if next[u] == start[u.saturating_add(1)] {
                state[u] = 2;
                path.pop();
                continue;
            }
            let k = adj[next[u]];
            next[u] = next[u].saturating_add(1);
            let v = arcs[k].1;
            match state[v] {
                0 => {
                    state[v] = 1;
                    via[v] = k;
                    path.push(v);
                }
                1 => {
                    // back arc u → v: the cycle is v → … → u → v along the path
                    let mut cycle = vec![k];
                    let mut t = u;
                    while t != v {
                        let a = via[t];
                        cycle.push(a);
                        t = arcs[a].0;
                    }
                    cycle.reverse();
                    return Some(cycle);
                }
                _ => {}
            }
        }
    }
    None
}

impl Ctx<'_> {
    /// The flows (indices into `flows`) of a cycle that `flows` close; `None` when they form
    /// a DAG.
    fn cycle_of(&self, flows: &[Flow]) -> Option<Vec<usize>> {
        let arcs: Vec<(usize, usize)> = flows
            .iter()
            .filter_map(|f| self.edges.get(f.e))
            .map(|e| (e.ti.index(), e.to.index()))
            .collect();
        find_cycle(&arcs, self.graph.n_tokens())
    }

    /// The working-set edges of a cycle that `flows` close, in order around it; `None` when
    /// they form a DAG.
    pub(super) fn loop_of(&self, flows: &[Flow]) -> Option<Vec<usize>> {
        self.cycle_of(flows)?
            .iter()
            .map(|k| flows.get(*k).map(|f| f.e))
            .collect()
    }

    /// The working-set edge of the least valuable flow (at the dual prices) of a cycle that
    /// `flows` close; `None` when they form a DAG.
    pub(super) fn least_on_cycle(&self, flows: &[Flow]) -> Option<usize> {
        self.cycle_of(flows)?
            .iter()
            .filter_map(|k| flows.get(*k))
            .min_by(|a, b| a.v.total_cmp(&b.v))
            .map(|f| f.e)
    }

    /// The flow of the cycle `cycle` ([`Ctx::loop_of`]: working-set edges) to cut out of the
    /// round's problem (`ledges` and `models`, working-set edges `idx`, on `lc`'s tokens), as
    /// its index there. Each flow of the cycle is cut in turn and the dual solved again from
    /// `nu`; the cut after which the optimum stays highest wins (cutting the pool direction a
    /// trade needs costs the trade, cutting the loop's other edges only the loop's profit).
    /// `None` when no edge of the cycle is in `idx`.
    pub(super) fn cheapest_cut(
        &self,
        cycle: &[usize],
        (ledges, models, idx): (&[LEdge], &[&EdgeModel], &[usize]),
        lc: &Local,
        nu: &[f64],
    ) -> Option<usize> {
        let ks: Vec<usize> = cycle
            .iter()
            .filter_map(|e| idx.iter().position(|w| w == e))
            .collect();
        if ks.len() < 2 {
            return ks.first().copied();
        }
        let mut best: Option<(f64, usize)> = None;
        for &k in &ks {
            let mut l2 = ledges.to_vec();
            let mut m2 = models.to_vec();
            if k < l2.len() && k < m2.len() {
                l2.remove(k);
                m2.remove(k);
            }
            let du = Dual::new(lc.glob.len(), (&l2, &m2), &lc.b, &lc.c);
            let mut nu2 = nu.to_vec();
            let h = du.solve(&mut nu2, &lc.order, &lc.is_out, 80);
            if best.map_or(true, |(b, _)| h > b) {
                best = Some((h, k));
            }
        }
        best.map(|b| b.1)
    }

    /// The plan of the problem restricted to the working-set edges that go forward in the
    /// order of (hops from the inputs − hops to the outputs, token id): no cycle is left, so
    /// no profit around one, and the dual (solved from `nu` on `lc`'s tokens) routes the
    /// inputs alone. One solve, a candidate beside the cuts' (the order may leave out an edge
    /// a trade would use). `None` when no flow survives.
    ///
    /// # Errors
    /// As [`Ctx::recover`].
    pub(super) fn forward_only(
        &self,
        (ledges, models, idx): (&[LEdge], &[&EdgeModel], &[usize]),
        (lc, nu): (&Local, &[f64]),
        gas: Option<GasModel>,
        reverts: &mut Vec<Excluded>,
    ) -> Result<Option<Candidate>, RouteError> {
        let key = |t: TokenId| {
            let a = self.d_in.get(t.index()).copied().unwrap_or(UNREACHED);
            let b = self.d_out.get(t.index()).copied().unwrap_or(UNREACHED);
            (a != UNREACHED && b != UNREACHED).then(|| {
                let a = i64::try_from(a).unwrap_or(i64::MAX);
                let b = i64::try_from(b).unwrap_or(i64::MAX);
                (a.saturating_sub(b), t.0)
            })
        };
        let forward = |w: usize| {
            self.edges
                .get(w)
                .is_some_and(|e| matches!((key(e.ti), key(e.to)), (Some(i), Some(o)) if i < o))
        };
        // the round's edges (`idx[k]` the working-set edge of `ledges[k]`) that go forward
        let keep: Vec<usize> = (0..idx.len()).filter(|k| forward(idx[*k])).collect();
        let ledges: Vec<LEdge> = keep
            .iter()
            .filter_map(|k| ledges.get(*k).copied())
            .collect();
        let models: Vec<&EdgeModel> = keep
            .iter()
            .filter_map(|k| models.get(*k).copied())
            .collect();
        let idx: Vec<usize> = keep.iter().map(|k| idx[*k]).collect();
        self.solve_and_recover(lc, (&ledges, &models, &idx), nu, gas, reverts)
    }
}

#[cfg(test)]
mod tests {
    use super::{cycle_on_ranks, find_cycle};

    #[test]
    fn a_dag_has_no_cycle_and_a_loop_is_found_in_order() {
        // 0 → 1 → 2, 0 → 2, 3 → 0: a DAG
        assert_eq!(find_cycle(&[(0, 1), (1, 2), (0, 2), (3, 0)], 4), None);
        // 0 → 1 → 2 → 3 → 1 and 0 → 3: the cycle 1 → 2 → 3 → 1 (arcs 1, 2, 3)
        let arcs = [(0, 1), (1, 2), (2, 3), (3, 1), (0, 3)];
        let c = find_cycle(&arcs, 4).unwrap_or_default();
        assert_eq!(c.len(), 3);
        for w in 0..c.len() {
            // each arc's head is the next arc's tail
            assert_eq!(arcs[c[w]].1, arcs[c[(w + 1) % c.len()]].0);
        }
        let mut sorted = c.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![1, 2, 3]);
        // two arcs between the same nodes in opposite directions, and a self-loop
        assert_eq!(find_cycle(&[(0, 1), (1, 0)], 2).map(|c| c.len()), Some(2));
        assert_eq!(find_cycle(&[(1, 1)], 2), Some(vec![0]));
        // arcs outside the node range are ignored
        assert_eq!(find_cycle(&[(0, 5), (5, 0)], 2), None);
    }

    /// The search on the touched nodes' ranks finds the cycle the search over every node id
    /// finds (`cycle_on_ranks` on the ids is that search), on random sparse arc sets with
    /// several cycles, ids spread over a large range and arcs out of range.
    #[test]
    fn ranks_find_the_cycle_the_ids_find() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % m).unwrap_or(0)
        };
        let mut found = 0;
        for _ in 0..400 {
            let n = 3000;
            let ids: Vec<usize> = (0..12).map(|_| next(3000)).collect();
            let arcs: Vec<(usize, usize)> = (0..next(20) + 1)
                .map(|_| {
                    let (a, b) = (ids[next(12)], ids[next(12)]);
                    if next(15) == 0 {
                        (a, n + b)
                    } else {
                        (a, b)
                    }
                })
                .collect();
            let c = find_cycle(&arcs, n);
            assert_eq!(c, cycle_on_ranks(&arcs, n), "{arcs:?}");
            found += usize::from(c.is_some());
        }
        // both kinds of answer occur
        assert!(found > 50 && found < 350, "{found}");
    }
}
