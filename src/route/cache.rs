//! A warm start kept by the caller between quotes of one graph: the dual prices of the last
//! quote of the same input and output tokens start the next one's solve ([`quote_cached`]).

use super::working_set::prepare_ctx;
use super::{gas, quote, RouteRequest};
use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::plan::Plan;
use crate::units::TokenId;
use alloc::vec;
use alloc::vec::Vec;

/// Dual prices kept between quotes of one graph, owned by the caller (the library keeps no
/// state). [`quote_cached`] starts its dual solve from the prices of the cache's last quote
/// when that quote had the same input and output tokens, instead of from the bid prices: a
/// re-quote of a pair at another amount, or after [`PoolGraph::set_pool_state`], starts near
/// its optimum.
///
/// One cache per graph and per stream of requests; a cache used with another graph or
/// another pair only starts a solve from prices that do not fit it, which the solve corrects
/// (any prices give a valid bound).
#[derive(Debug, Clone, Default)]
pub struct RouteCache {
    /// the graph's token count and the input and output tokens of the quote the prices are of
    key: Option<(usize, Vec<TokenId>, Vec<TokenId>)>,
    /// the dual prices per graph token (0 outside the last working set)
    prices: Vec<f64>,
}

impl RouteCache {
    /// An empty cache (the first quote starts from the bid prices).
    #[must_use]
    pub fn new() -> Self {
        RouteCache::default()
    }

    /// Forget the kept prices.
    pub fn clear(&mut self) {
        self.key = None;
        self.prices.clear();
    }

    /// The marginal rate of the last quote's plan, `ν_from / ν_to` at its dual prices: about
    /// how many base units of `to` one more base unit of `from` would give (`None` where a
    /// price is not positive and finite).
    pub(super) fn rate(&self, from: TokenId, to: TokenId) -> Option<f64> {
        let (a, b) = (
            *self.prices.get(from.index())?,
            *self.prices.get(to.index())?,
        );
        #[allow(clippy::arithmetic_side_effects)] // f64
        let r = a / b;
        (a > 0.0 && b > 0.0 && r.is_finite() && r > 0.0).then_some(r)
    }

    /// Whether the cache holds prices for a quote of `inputs` to `outputs` on a graph of
    /// `n` tokens.
    fn fits(&self, n: usize, inputs: &[TokenId], outputs: &[TokenId]) -> bool {
        self.prices.len() == n
            && self
                .key
                .as_ref()
                .is_some_and(|(m, i, o)| *m == n && i == inputs && o == outputs)
    }
}

/// [`quote`] with a warm start: the dual solve starts from the prices `cache` kept from its
/// last quote when that quote had the same input and output tokens (else from the bid prices,
/// as [`quote`] does), and the cache then keeps this quote's prices.
///
/// The plan is exact and verified like any other, and its bound is the dual value over the
/// whole graph at the final prices, so it holds whatever the start; the float path differs
/// from a cold start, so a plan may differ from [`quote`]'s in its last digits. With an empty
/// or non-fitting cache the plan is [`quote`]'s exactly. Requests with exact-out or a gas
/// price are quoted by [`quote`] and leave the cache as it is.
///
/// # Errors
/// As [`quote`].
///
/// # Complexity
/// As [`quote`]; a warm start saves Newton iterations, and its solve starts without the
/// Gauss–Seidel sweep of a cold start (on the route bench's 2000-pool market, about 37 % of a
/// cold quote's instructions after a quote of the same request, about 59 % after a quote at
/// 0.9 times the amount).
pub fn quote_cached(
    graph: &PoolGraph,
    req: &RouteRequest,
    cache: &mut RouteCache,
) -> Result<Plan, RouteError> {
    if req.exact_out.is_some() || gas::priced(graph, req).is_some() {
        return quote(graph, req);
    }
    quote_warm_from(graph, req, cache, false)
}

/// The exact-in plan of `req` (no exact-out, no gas model) from `cache`'s prices where they
/// fit (else from the bids: then [`quote`]'s plan exactly); the cache keeps this quote's
/// prices. [`quote_cached`], and each trial of exact-out's bracket after the first.
pub(super) fn quote_warm(
    graph: &PoolGraph,
    req: &RouteRequest,
    cache: &mut RouteCache,
) -> Result<Plan, RouteError> {
    quote_warm_from(graph, req, cache, true)
}

/// [`quote_warm`], its solve from the cache's prices starting with a Gauss–Seidel sweep or
/// not (`sweep`): [`quote_cached`] skips it (a start at the last optimum of the pair, which the
/// sweep moves away from the joint balance: 24 % fewer instructions for a re-quote of the same
/// request at 2000 pools), exact-out's trials keep it (each starts from a trial at another
/// amount; without the sweep they took 3 % more instructions).
fn quote_warm_from(
    graph: &PoolGraph,
    req: &RouteRequest,
    cache: &mut RouteCache,
    sweep: bool,
) -> Result<Plan, RouteError> {
    let mut ctx = prepare_ctx(graph, req)?;
    ctx.warm_sweep = sweep;
    let n = graph.n_tokens();
    if cache.fits(n, &ctx.in_toks, &ctx.out_toks) {
        // prices that are not finite and positive start at the bids' floor (the solve's rule)
        ctx.warm = Some(
            cache
                .prices
                .iter()
                .map(|v| if v.is_finite() { *v } else { 0.0 })
                .collect(),
        );
    }
    let solved = ctx.solve_certified();
    let mut prices = vec![0.0; n];
    for (t, v) in solved.lc.glob.iter().zip(&solved.nu) {
        if let Some(p) = prices.get_mut(t.index()) {
            *p = *v;
        }
    }
    cache.key = Some((n, ctx.in_toks.clone(), ctx.out_toks.clone()));
    cache.prices = prices;
    ctx.plan(solved)
}
