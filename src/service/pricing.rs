//! Prices over a [`PoolGraph`]: token prices in a chosen numeraire, LP token prices, and the
//! routable test behind `GET /pricing/token/{chain_id}/{addr}`.
//!
//! Prices are **floats for display and screening**, never amounts: they come from the pools'
//! marginal rates ([`crate::pool::Pool::marginal_rate`], fee included) along the deepest route.
//!
//! # Deepest route
//!
//! The numeraire has price 1. A token is priced through the chain of pools whose *bottleneck
//! depth* is largest, where the depth of a pool leg is the numeraire value of the reserve of
//! the already-priced coin (`reserve × price`): a widest path of at most `max_hops` legs (see
//! [`price_table`]). One shallow pool cannot set the price of a token that also trades in deep
//! pools.
//!
//! # Units
//!
//! [`TokenPrice::raw`] is numeraire base units per token base unit; [`TokenPrice::per_token`]
//! is numeraire whole tokens per whole token (`raw · 10^(dec_token − dec_numeraire)`).
//!
//! # Complexity
//! One search prices every token: O(H · Σ n²) for a hop bound H and pools of n coins.

use crate::error::{Error, RouteError};
use crate::graph::{PoolGraph, PoolInfo};
use crate::math::float::{pow10, to_f64};
use crate::units::{PoolId, TokenId};
use alloc::vec::Vec;
use primitive_types::U256;

/// Default bound on route length for prices.
pub const DEFAULT_MAX_HOPS: usize = 4;

/// The price of one token.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct TokenPrice {
    /// Numeraire base units per base unit of the token.
    pub raw: f64,
    /// Numeraire whole tokens per whole token (decimals applied).
    pub per_token: f64,
    /// Bottleneck depth of the route used, in numeraire base units (infinite for the
    /// numeraire itself).
    pub depth: f64,
    /// Pool legs between the token and the numeraire.
    pub hops: usize,
}

/// Prices of every token of a graph in one numeraire (`None`: not reachable within the hop
/// bound through pools with liquidity).
#[derive(Debug, Clone, PartialEq)]
pub struct PriceTable {
    numeraire: TokenId,
    prices: Vec<Option<TokenPrice>>,
}

impl PriceTable {
    /// The numeraire.
    #[must_use]
    pub fn numeraire(&self) -> TokenId {
        self.numeraire
    }

    /// The price of `t`, when reachable.
    #[must_use]
    pub fn get(&self, t: TokenId) -> Option<TokenPrice> {
        self.prices.get(t.index()).copied().flatten()
    }
}

fn decimals_factor(graph: &PoolGraph, t: TokenId, numeraire: TokenId) -> f64 {
    let d = |x: TokenId| graph.token(x).map_or(0, |i| i32::from(i.decimals));
    let e = d(t).saturating_sub(d(numeraire));
    pow10(e)
}

/// Price every token of `graph` in `numeraire` through the deepest routes of at most
/// `max_hops` pool legs.
///
/// Exact widest path under the hop bound: round `h` extends every route of at most `h − 1`
/// legs by one pool leg, keeping per token the route whose bottleneck depth is largest (on a
/// tie, the one found in the earlier round, i.e. with fewer legs; then the lower pool id and
/// coin index, so the result is deterministic).
///
/// # Errors
/// [`RouteError::TokenOutOfRange`] when `numeraire` is not a token of the graph,
/// [`RouteError::BadRequest`] when `max_hops` is above [`crate::route::MAX_HOPS_LIMIT`].
///
/// # Complexity
/// O(H · Σ n²) for H = `max_hops` (at most [`crate::route::MAX_HOPS_LIMIT`]; the rounds stop
/// early once one changes nothing) and pools of n coins.
pub fn price_table(
    graph: &PoolGraph,
    numeraire: TokenId,
    max_hops: usize,
) -> Result<PriceTable, Error> {
    graph
        .token(numeraire)
        .ok_or(RouteError::TokenOutOfRange(numeraire))?;
    if max_hops > crate::route::MAX_HOPS_LIMIT {
        return Err(
            RouteError::BadRequest(crate::error::BadRouteRequest::MaxHops {
                given: max_hops,
                max: crate::route::MAX_HOPS_LIMIT,
            })
            .into(),
        );
    }
    let mut best: Vec<Widest> = alloc::vec![None; graph.n_tokens()];
    if let Some(slot) = best.get_mut(numeraire.index()) {
        *slot = Some((1.0, f64::INFINITY, 0));
    }
    for h in 1..=max_hops {
        let prev = best.clone();
        for info in graph.pools() {
            extend_through(info, &prev, &mut best, h);
        }
        // a round that extended nothing leaves the next round the same input
        if best
            .iter()
            .zip(&prev)
            .all(|(a, b)| a.map(|x| x.2) == b.map(|x| x.2))
        {
            break;
        }
    }
    let prices = best
        .iter()
        .enumerate()
        .map(|(k, r)| {
            r.map(|(p, depth, hops)| {
                let t = TokenId(u32::try_from(k).unwrap_or(u32::MAX));
                TokenPrice {
                    raw: p,
                    per_token: p * decimals_factor(graph, t, numeraire),
                    depth,
                    hops,
                }
            })
        })
        .collect();
    Ok(PriceTable { numeraire, prices })
}

/// Per token, `(raw price, bottleneck depth, legs)` of the widest route found so far.
type Widest = Option<(f64, f64, usize)>;

/// Round `h` of [`price_table`] through one pool: every coin priced by a route of at most
/// `h − 1` legs (in `prev`) prices the pool's other coins in `best` when the route through
/// this pool is strictly wider than the one `best` holds.
fn extend_through(info: &PoolInfo, prev: &[Widest], best: &mut [Widest], h: usize) {
    let balances = info.pool.balances();
    for (j, &known) in info.tokens.iter().enumerate() {
        // Only routes of at most h - 1 legs are extended in round h.
        let Some(&Some((p_known, w_known, _))) = prev.get(known.index()) else {
            continue;
        };
        let reserve = balances.get(j).copied().unwrap_or_default();
        if reserve.is_zero() {
            continue;
        }
        let width = w_known.min(to_f64(reserve) * p_known);
        if width.is_nan() || width <= 0.0 {
            continue;
        }
        for (i, &other) in info.tokens.iter().enumerate() {
            if i == j {
                continue;
            }
            // Selling one unit of `other` gives `rate` units of `known`.
            let rate = info.pool.marginal_rate(i, j);
            if !(rate.is_finite() && rate > 0.0) {
                continue;
            }
            if let Some(slot) = best.get_mut(other.index()) {
                if slot.map_or(true, |(_, w, _)| width > w) {
                    *slot = Some((rate * p_known, width, h));
                }
            }
        }
    }
}

/// The price of `token` in `numeraire` through the deepest route (see the module docs).
///
/// # Errors
/// [`RouteError::TokenOutOfRange`] for an id outside the graph; [`RouteError::NoRoute`] when
/// no route of at most `max_hops` legs with liquidity joins the two.
pub fn token_price(
    graph: &PoolGraph,
    token: TokenId,
    numeraire: TokenId,
    max_hops: usize,
) -> Result<TokenPrice, Error> {
    graph
        .token(token)
        .ok_or(RouteError::TokenOutOfRange(token))?;
    price_table(graph, numeraire, max_hops)?
        .get(token)
        .ok_or_else(|| RouteError::NoRoute.into())
}

/// The price of the LP token of `pool`: the numeraire value of its balances over its total
/// supply, `Σ balance_k · price_k / total_supply` (numeraire base units per LP base unit;
/// `per_token` applies the decimals of the LP token as the graph lists them).
///
/// # Errors
/// [`RouteError::PoolOutOfRange`]; [`RouteError::NoRoute`] when a coin has no price, or the
/// supply is zero.
pub fn lp_price(graph: &PoolGraph, pool: PoolId, table: &PriceTable) -> Result<TokenPrice, Error> {
    let info = graph.pool(pool).ok_or(RouteError::PoolOutOfRange(pool))?;
    let supply = info.pool.total_supply();
    if supply.is_zero() {
        return Err(RouteError::NoRoute.into());
    }
    let mut value = 0.0f64;
    let mut depth = f64::INFINITY;
    let mut hops = 0usize;
    for (k, &t) in info.tokens.iter().enumerate() {
        let p = table.get(t).ok_or(RouteError::NoRoute)?;
        let b = to_f64(info.pool.balances().get(k).copied().unwrap_or_default());
        value += b * p.raw;
        depth = depth.min(p.depth);
        hops = hops.max(p.hops);
    }
    let raw = value / to_f64(supply);
    Ok(TokenPrice {
        raw,
        per_token: raw * decimals_factor(graph, info.lp_token, table.numeraire()),
        depth,
        hops,
    })
}

/// Why an address cannot be used in zap quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NotRoutable {
    /// Not a token of the graph.
    UnknownToken,
    /// A token in no pool with liquidity.
    NoLiquidity,
    /// A pool's LP token whose pool is empty (zero supply or a zero balance) or whose supply
    /// the snapshot does not give.
    EmptyPool,
    /// No route of at most the hop bound to the numeraire.
    NoRouteToNumeraire,
}

impl core::fmt::Display for NotRoutable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::UnknownToken => "not a supported token or pool",
            Self::NoLiquidity => "the token is in no pool with liquidity",
            Self::EmptyPool => {
                "the pool is empty (zero supply or a zero balance) or its supply is not known"
            }
            Self::NoRouteToNumeraire => "no route to the pricing token within the hop bound",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NotRoutable {}

/// The routable test behind `GET /pricing/token/{chain_id}/{addr}`: `Ok(price)` (status 200
/// with a `price` field) when `address` can be used in zap quotes.
///
/// A plain token must be in the graph, in at least one pool with a non-zero balance of it, and
/// priced through a route to `numeraire`. An LP token must belong to a pool with non-zero
/// supply and balances whose every coin is priced; its price is [`lp_price`]. A `max_hops`
/// above [`crate::route::MAX_HOPS_LIMIT`] is taken as that limit.
///
/// # Errors
/// The [`NotRoutable`] reason.
pub fn routable_price(
    graph: &PoolGraph,
    address: &str,
    numeraire: TokenId,
    max_hops: usize,
) -> Result<TokenPrice, NotRoutable> {
    let t = graph.token_id(address).ok_or(NotRoutable::UnknownToken)?;
    // (hops beyond the limit price nothing more: capped, as this test has no error for them)
    let hops = max_hops.min(crate::route::MAX_HOPS_LIMIT);
    let table = price_table(graph, numeraire, hops).map_err(|_| NotRoutable::UnknownToken)?;
    if let Some(p) = graph.pool_of_lp(t) {
        let info = graph.pool(p).ok_or(NotRoutable::UnknownToken)?;
        if !info.supply_known
            || info.pool.total_supply().is_zero()
            || info.pool.balances().iter().any(U256::is_zero)
        {
            return Err(NotRoutable::EmptyPool);
        }
        return lp_price(graph, p, &table).map_err(|_| NotRoutable::NoRouteToNumeraire);
    }
    let liquid = graph
        .pools_of(t)
        .iter()
        .any(|&p| balance_in(graph, p, t).is_some_and(|b| !b.is_zero()));
    if !liquid && t != numeraire {
        return Err(NotRoutable::NoLiquidity);
    }
    table.get(t).ok_or(NotRoutable::NoRouteToNumeraire)
}

/// The balance of token `t` in pool `p` (`None` when `t` is not a coin of `p`).
pub(crate) fn balance_in(graph: &PoolGraph, p: PoolId, t: TokenId) -> Option<U256> {
    let i = graph.coin_index(p, t)?;
    graph
        .pool(p)
        .and_then(|info| info.pool.balances().get(i).copied())
}
