//! The router's index of a [`PoolGraph`]: the directed pool edges with their float models on the
//! pools' current states, derived from the graph (which keeps it opaquely, see
//! [`PoolGraph::derived`]) so a quote does not rebuild them.
//!
//! Every usable direction (pool, coin i → coin j) of every pool, in the order pool, then i, then
//! j: an [`Edge`] (the few fields the router's passes over all edges read, 24 bytes, as a quote
//! starts with these tables out of cache) and beside it, at the same index, its float model on
//! the pool's current state; and compressed out- and in-adjacency per token ([`Adj`], edge
//! indices ascending) for the router's searches. Built on the
//! graph's first quote ([`PoolGraph::edge_cache`]) and refreshed for one pool by
//! [`PoolGraph::set_pool_state`].

use super::certify::many_coin_curve;
use super::model::{EdgeModel, FloatPool};
use crate::graph::{Derived, PoolGraph, PoolInfo};
use crate::snapshot::PoolKind;
use crate::units::{PoolId, TokenId};
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// A directed pool edge (pool, coin i → coin j) of the router's index, in 24 bytes: what the
/// passes over all edges read (its tokens, its pool and the pool's family and (solidly) stable
/// flag, so the router need not look the pool up; whether its model is a closed form; its
/// zero-size rate) and its coin indices. Its float model is [`EdgeCache::model`] of the same
/// index (a quote starts with these tables out of cache, and a model is 32 bytes, with the
/// data of the boxed families behind it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub ti: TokenId,
    pub to: TokenId,
    pub pool: PoolId,
    /// the coin indices of `ti` and `to` in the pool, `i | j << 4` (pools have at most 8
    /// coins): one byte, so the edge stays at 24
    coins: u8,
    pub kind: PoolKind,
    pub stable: bool,
    /// zero-size rate (fee included), positive and finite
    pub rate0: f64,
}

// the passes over all edges read these: keep them at 24 bytes
const _: () = assert!(core::mem::size_of::<Edge>() == 24);

impl Edge {
    /// An edge of `pool` from its coin `i` (token `ti`) to its coin `j` (token `to`); `None`
    /// for a coin index above 15.
    pub(crate) fn new(
        (pool, kind, stable): (PoolId, PoolKind, bool),
        (i, ti): (usize, TokenId),
        (j, to): (usize, TokenId),
        rate0: f64,
    ) -> Option<Self> {
        let (i, j) = (u8::try_from(i).ok()?, u8::try_from(j).ok()?);
        (i < 16 && j < 16).then_some(Edge {
            ti,
            to,
            pool,
            coins: i | j << 4,
            kind,
            stable,
            rate0,
        })
    }

    /// Coin index of the input token in the pool.
    pub(crate) fn i(&self) -> usize {
        usize::from(self.coins & 15)
    }

    /// Coin index of the output token in the pool.
    pub(crate) fn j(&self) -> usize {
        usize::from(self.coins >> 4)
    }
}

/// An edge of the working set in local token indices (the route's one edge type there, read
/// by the dual, the bid prices, the single path and the gas rounds): the fields the passes over
/// all its edges read. Its float model is at the same index of the quote's models
/// (`Ctx::models`), which the dual borrows beside it instead of copying (a model is 32
/// bytes, and all but x·y = k box their data).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LEdge {
    pub ti: usize,
    pub to: usize,
    pub rate0: f64,
    pub kind: PoolKind,
}

/// One entry of an adjacency list: the edge, the token at its other end and the edge's
/// zero-size rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Adj {
    pub edge: u32,
    pub tok: u32,
    pub rate0: f64,
}

/// The directed edges of a graph with their float models and their per-token adjacency
/// (compressed rows).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct EdgeCache {
    edges: Vec<Edge>,
    /// `models[k]`: the float model of `edges[k]`
    models: Vec<EdgeModel>,
    /// `mid_fee[k]`: the fee-free zero-size rate and the fee of `models[k]`, which the
    /// certificate's rounding slack reads per edge (16 bytes, without reading a model and what
    /// it boxes)
    mid_fee: Vec<(f64, f64)>,
    /// edges of pool p: `pool_start[p]..pool_start[p + 1]`
    pool_start: Vec<u32>,
    /// out-edges of token t: `out_adj[out_start[t]..out_start[t + 1]]`, `tok` the output
    out_start: Vec<u32>,
    out_adj: Vec<Adj>,
    /// in-edges of token t: `in_adj[in_start[t]..in_start[t + 1]]`, `tok` the input
    in_start: Vec<u32>,
    in_adj: Vec<Adj>,
    /// the Curve pools of three or more coins, which the certificate models jointly (a pass
    /// over the graph's pools per certificate read each pool's record for this: 20,000 of
    /// them at the largest bench size)
    many_coin: Vec<PoolId>,
}

/// Push the usable directed edges of one pool (order i, then j) and their models: those whose
/// float model exists and whose zero-size rate is positive and finite.
fn push_pool_edges(
    pid: PoolId,
    p: &PoolInfo,
    fm: &FloatPool,
    edges: &mut Vec<Edge>,
    (models, mid_fee): (&mut Vec<EdgeModel>, &mut Vec<(f64, f64)>),
) {
    if !p.routable {
        return;
    }
    for (i, ti) in p.tokens.iter().enumerate() {
        for (j, to) in p.tokens.iter().enumerate() {
            if i == j {
                continue;
            }
            let Some(m) = fm.edge(i, j) else {
                continue;
            };
            let rate0 = m.rate0();
            if rate0 <= 0.0 || !rate0.is_finite() {
                continue;
            }
            let at = (pid, p.kind, p.stable);
            if let Some(e) = Edge::new(at, (i, *ti), (j, *to), rate0) {
                edges.push(e);
                mid_fee.push((m.mid0(), m.fee()));
                models.push(m);
            }
        }
    }
}

/// `u32` of an index the graph keeps below `u32::MAX` (tokens, pools and edges are counted in
/// `u32` ids).
fn idx32(k: usize) -> u32 {
    u32::try_from(k).unwrap_or(u32::MAX)
}

/// Compressed rows of `edges` keyed by `key` (input or output token), edge indices ascending.
fn rows(
    n: usize,
    edges: &[Edge],
    key: impl Fn(&Edge) -> TokenId,
    other: impl Fn(&Edge) -> TokenId,
) -> (Vec<u32>, Vec<Adj>) {
    let mut start = vec![0u32; n.saturating_add(1)];
    for e in edges {
        if let Some(c) = start.get_mut(key(e).index().saturating_add(1)) {
            *c = c.saturating_add(1);
        }
    }
    for k in 1..start.len() {
        let prev = start.get(k.saturating_sub(1)).copied().unwrap_or(0);
        if let Some(c) = start.get_mut(k) {
            *c = c.saturating_add(prev);
        }
    }
    let mut fill: Vec<u32> = start.clone();
    let blank = Adj {
        edge: 0,
        tok: 0,
        rate0: 0.0,
    };
    let mut adj = vec![blank; edges.len()];
    for (k, e) in edges.iter().enumerate() {
        let Some(f) = fill.get_mut(key(e).index()) else {
            continue;
        };
        if let Some(a) = adj.get_mut(*f as usize) {
            *a = Adj {
                edge: idx32(k),
                tok: other(e).0,
                rate0: e.rate0,
            };
        }
        *f = f.saturating_add(1);
    }
    (start, adj)
}

/// The slice `v[start[t]..start[t + 1]]` (empty for an unknown token).
fn row<'a>(start: &[u32], v: &'a [Adj], t: usize) -> &'a [Adj] {
    let (Some(a), Some(b)) = (start.get(t), start.get(t.saturating_add(1))) else {
        return &[];
    };
    v.get(*a as usize..*b as usize).unwrap_or(&[])
}

/// The empty index: what [`PoolGraph::edge_cache`] answers if the graph's slot held a value of
/// another type, which never happens (only the router derives a value from the graph).
static NO_EDGES: EdgeCache = EdgeCache {
    edges: Vec::new(),
    models: Vec::new(),
    mid_fee: Vec::new(),
    pool_start: Vec::new(),
    out_start: Vec::new(),
    out_adj: Vec::new(),
    in_start: Vec::new(),
    in_adj: Vec::new(),
    many_coin: Vec::new(),
};

impl PoolGraph {
    /// The router's index of this graph: built on first use, then kept with the graph and
    /// patched by [`PoolGraph::set_pool_state`].
    pub(crate) fn edge_cache(&self) -> &EdgeCache {
        self.derived(EdgeCache::build).unwrap_or(&NO_EDGES)
    }
}

impl Derived for EdgeCache {
    fn pool_changed(&mut self, graph: &PoolGraph, p: PoolId) {
        self.refresh_pool(graph, p);
    }

    fn clone_box(&self) -> Box<dyn Derived> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
}

impl EdgeCache {
    /// The edges of `graph` on its pools' float models ([`PoolGraph::float_model`]).
    pub fn build(graph: &PoolGraph) -> Self {
        let pools = graph.pools();
        let n_tokens = graph.n_tokens();
        // two directions per pool, six for a 3-coin pool
        let mut edges = Vec::with_capacity(pools.len().saturating_mul(2));
        let mut models = Vec::with_capacity(pools.len().saturating_mul(2));
        let mut mid_fee = Vec::with_capacity(pools.len().saturating_mul(2));
        let mut pool_start = Vec::with_capacity(pools.len().saturating_add(1));
        for (k, p) in pools.iter().enumerate() {
            pool_start.push(idx32(edges.len()));
            let pid = PoolId(idx32(k));
            if let Some(fm) = graph.float_model(pid) {
                push_pool_edges(pid, p, &fm, &mut edges, (&mut models, &mut mid_fee));
            }
        }
        pool_start.push(idx32(edges.len()));
        let (out_start, out_adj) = rows(n_tokens, &edges, |e| e.ti, |e| e.to);
        let (in_start, in_adj) = rows(n_tokens, &edges, |e| e.to, |e| e.ti);
        let many_coin = (0..pools.len())
            .filter(|k| pools.get(*k).is_some_and(many_coin_curve))
            .map(|k| PoolId(idx32(k)))
            .collect();
        EdgeCache {
            edges,
            models,
            mid_fee,
            pool_start,
            out_start,
            out_adj,
            in_start,
            in_adj,
            many_coin,
        }
    }

    /// Follow a new state of pool `p` in `graph`: its edges are rebuilt in place on its new
    /// float model, or the whole index when the set of usable directions changed.
    pub fn refresh_pool(&mut self, graph: &PoolGraph, p: PoolId) {
        let (Some(info), Some(fm)) = (graph.pool(p), graph.float_model(p)) else {
            return;
        };
        let (mut fresh, mut fresh_models, mut fresh_mf) = (Vec::new(), Vec::new(), Vec::new());
        push_pool_edges(p, info, &fm, &mut fresh, (&mut fresh_models, &mut fresh_mf));
        let a = self.pool_start.get(p.index()).map_or(0, |x| *x as usize);
        let b = self
            .pool_start
            .get(p.index().saturating_add(1))
            .map_or(0, |x| *x as usize);
        let same = self.edges.get(a..b).is_some_and(|old| {
            old.len() == fresh.len() && old.iter().zip(&fresh).all(|(x, y)| x.coins == y.coins)
        });
        if !same {
            *self = EdgeCache::build(graph);
            return;
        }
        for (((k, e), m), mf) in (a..b).zip(fresh).zip(fresh_models).zip(fresh_mf) {
            let k32 = idx32(k);
            for (start, adj, t) in [
                (&self.out_start, &mut self.out_adj, e.ti),
                (&self.in_start, &mut self.in_adj, e.to),
            ] {
                let (Some(lo), Some(hi)) =
                    (start.get(t.index()), start.get(t.index().saturating_add(1)))
                else {
                    continue;
                };
                if let Some(r) = adj.get_mut(*lo as usize..*hi as usize) {
                    for x in r.iter_mut().filter(|x| x.edge == k32) {
                        x.rate0 = e.rate0;
                    }
                }
            }
            if let Some(slot) = self.models.get_mut(k) {
                *slot = m;
            }
            if let Some(slot) = self.mid_fee.get_mut(k) {
                *slot = mf;
            }
            if let Some(slot) = self.edges.get_mut(k) {
                *slot = e;
            }
        }
    }

    /// The Curve pools of three or more coins (increasing ids), which the certificate models
    /// jointly. A pool's family and coins never change with its state, so
    /// [`Self::refresh_pool`] keeps this list.
    pub fn many_coin_curves(&self) -> &[PoolId] {
        &self.many_coin
    }

    /// All directed edges (order: pool, then i, then j).
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The float model of edge `k` (of [`Self::edges`]).
    pub fn model(&self, k: usize) -> Option<&EdgeModel> {
        self.models.get(k)
    }

    /// The fee-free zero-size rate ([`EdgeModel::mid0`]) and the fee ([`EdgeModel::fee`]) of
    /// edge `k`'s model.
    pub fn mid_fee(&self, k: usize) -> Option<(f64, f64)> {
        self.mid_fee.get(k).copied()
    }

    /// Edges leaving token `t` (`tok` their output token).
    pub fn out_of(&self, t: usize) -> &[Adj] {
        row(&self.out_start, &self.out_adj, t)
    }

    /// The indices of pool `p`'s edges (empty for an unknown pool).
    pub fn pool_edges(&self, p: PoolId) -> core::ops::Range<usize> {
        let at = |i: usize| self.pool_start.get(i).map_or(0, |x| *x as usize);
        let a = at(p.index());
        a..at(p.index().saturating_add(1)).max(a)
    }

    /// Edges entering token `t` (`tok` their input token).
    pub fn in_of(&self, t: usize) -> &[Adj] {
        row(&self.in_start, &self.in_adj, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::PoolGraph;
    use crate::pool::{ConstantProduct, Pool};
    use crate::snapshot::{FeeField, FeeFraction, Snapshot, SnapshotPool, SnapshotToken};
    use alloc::format;
    use alloc::string::String;
    use primitive_types::U256;

    fn addr(k: u32) -> String {
        format!("0x{k:040x}")
    }

    fn cp(k: u32, a: u32, b: u32) -> SnapshotPool {
        SnapshotPool {
            id: format!("uniswap-v2:{}", addr(k.saturating_add(100))),
            source: String::from("uniswap-v2"),
            kind: PoolKind::ConstantProduct,
            tokens: vec![addr(a), addr(b)],
            reserves: vec![String::from("1000000000"), String::from("2000000000")],
            fee: Some(FeeField::Fraction(FeeFraction {
                num: String::from("3"),
                den: String::from("1000"),
            })),
            ..Default::default()
        }
    }

    fn graph() -> PoolGraph {
        let tokens = (1..=3)
            .map(|k| SnapshotToken {
                address: addr(k),
                symbol: String::new(),
                decimals: 18,
            })
            .collect();
        let snap = Snapshot {
            chain_id: 1,
            tokens,
            pools: vec![cp(0, 1, 2), cp(1, 2, 3), cp(2, 1, 3)],
        };
        PoolGraph::from_snapshot(&snap).unwrap()
    }

    fn fresh(g: &PoolGraph) -> EdgeCache {
        EdgeCache::build(g)
    }

    fn state(r0: u64, r1: u64) -> Pool {
        let r = [U256::from(r0), U256::from(r1)];
        Pool::ConstantProduct(ConstantProduct::new(r, 3, 1000, U256::from(1000u32)).unwrap())
    }

    /// `set_pool_state` leaves the edge cache as a fresh build on the new models, whether the
    /// pool keeps its directions (updated in place) or loses or regains them (rebuilt).
    #[test]
    fn refreshed_cache_equals_a_fresh_build() {
        let mut g = graph();
        assert_eq!(g.edge_cache().edges().len(), 6);
        let p = PoolId(1);
        g.set_pool_state(p, state(5_000_000, 7_000_000)).unwrap();
        assert_eq!(*g.edge_cache(), fresh(&g));
        // an empty reserve: the pool has no usable direction
        g.set_pool_state(p, state(0, 7_000_000)).unwrap();
        assert_eq!(g.edge_cache().edges().len(), 4);
        assert_eq!(*g.edge_cache(), fresh(&g));
        g.set_pool_state(p, state(9_000_000, 7_000_000)).unwrap();
        assert_eq!(g.edge_cache().edges().len(), 6);
        assert_eq!(*g.edge_cache(), fresh(&g));
        let t = g.pool(p).unwrap().tokens[0].index();
        let cache = g.edge_cache();
        assert!(cache
            .out_of(t)
            .iter()
            .any(|a| cache.edges()[a.edge as usize].pool == p));
    }
}
