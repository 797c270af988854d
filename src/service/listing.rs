//! The service's listing helpers, pure functions over a [`PoolGraph`]: the token list of
//! `GET /info/tokens/101` (`order_by`, `order_dir`, `limit`, `offset`), the liquidity-source
//! list of `GET /info/liquidity-sources/101`, and the `{price}` body of
//! `GET /pricing/token/{chain_id}/{addr}`.
//!
//! # Token list defaults
//!
//! The spec names the parameters but not their defaults or bounds; these are this library's:
//!
//! | parameter | values | default |
//! |---|---|---|
//! | `order_by` | `tvl`, `symbol` (case-sensitive) | `tvl` |
//! | `order_dir` | `asc`, `desc` | `desc` for `tvl`, `asc` for `symbol` |
//! | `limit` | decimal integer 1 ..= [`MAX_LIMIT`] | [`DEFAULT_LIMIT`] |
//! | `offset` | decimal integer ≥ 0 | 0 |
//!
//! A token's TVL is the value of its balances in every pool that holds it, at the snapshot's
//! prices ([`crate::service::pricing::price_table`], fee-inclusive marginal rates along the deepest
//! route), in whole tokens of the numeraire. Unpriced tokens have TVL 0. Ties (same TVL, same
//! symbol) are broken by address, so a page is deterministic. LP tokens are listed, marked.

use crate::error::{BadPoolProblem, QueryProblem, RequestError, RouteError, SnapshotError};
use crate::graph::PoolGraph;
use crate::math::float::{pow10, to_f64};
use crate::service::pricing::{balance_in, price_table, TokenPrice, DEFAULT_MAX_HOPS};
use crate::units::TokenId;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Default page size of the token list.
pub const DEFAULT_LIMIT: usize = 100;

/// Largest page size of the token list.
pub const MAX_LIMIT: usize = 1000;

/// Sort field of the token list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderBy {
    /// total value locked, at the snapshot's prices
    Tvl,
    /// symbol (byte order, then address)
    Symbol,
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderDir {
    /// ascending
    Asc,
    /// descending
    Desc,
}

/// A validated token-list query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenQuery {
    /// sort field
    pub order_by: OrderBy,
    /// sort direction
    pub order_dir: OrderDir,
    /// page size, 1 ..= [`MAX_LIMIT`]
    pub limit: usize,
    /// tokens skipped before the page
    pub offset: usize,
}

impl Default for TokenQuery {
    fn default() -> Self {
        Self {
            order_by: OrderBy::Tvl,
            order_dir: OrderDir::Desc,
            limit: DEFAULT_LIMIT,
            offset: 0,
        }
    }
}

fn bad(name: &'static str, value: &str, why: QueryProblem) -> RequestError {
    RequestError::InvalidQueryParam {
        name,
        value: value.to_string(),
        why,
    }
}

fn parse_count(name: &'static str, s: &str) -> Result<usize, RequestError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(name, s, QueryProblem::NotACount));
    }
    s.parse::<usize>()
        .map_err(|_| bad(name, s, QueryProblem::TooLarge))
}

impl TokenQuery {
    /// The query of the raw query-string values (`None`: not given), with the defaults of the
    /// [module docs](self).
    ///
    /// # Errors
    /// [`RequestError::InvalidQueryParam`] naming the parameter: an unknown `order_by` or
    /// `order_dir`, a `limit` outside 1 ..= [`MAX_LIMIT`], an `offset` that is not a
    /// non-negative integer.
    pub fn parse(
        order_by: Option<&str>,
        order_dir: Option<&str>,
        limit: Option<&str>,
        offset: Option<&str>,
    ) -> Result<Self, RequestError> {
        let order_by = match order_by {
            None | Some("tvl") => OrderBy::Tvl,
            Some("symbol") => OrderBy::Symbol,
            Some(s) => return Err(bad("order_by", s, QueryProblem::OrderBy)),
        };
        let order_dir = match order_dir {
            None if order_by == OrderBy::Tvl => OrderDir::Desc,
            None => OrderDir::Asc,
            Some("asc") => OrderDir::Asc,
            Some("desc") => OrderDir::Desc,
            Some(s) => return Err(bad("order_dir", s, QueryProblem::OrderDir)),
        };
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(s) => {
                let n = parse_count("limit", s)?;
                if n == 0 || n > MAX_LIMIT {
                    return Err(bad("limit", s, QueryProblem::LimitRange { max: MAX_LIMIT }));
                }
                n
            }
        };
        let offset = match offset {
            None => 0,
            Some(s) => parse_count("offset", s)?,
        };
        Ok(Self {
            order_by,
            order_dir,
            limit,
            offset,
        })
    }
}

/// One entry of the token list.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct TokenEntry {
    /// address as the snapshot gives it
    pub address: String,
    /// symbol
    pub symbol: String,
    /// decimals
    pub decimals: u8,
    /// total value locked in whole numeraire tokens (0 when unpriced)
    pub tvl: f64,
    /// whether this is a pool's LP token
    pub is_lp: bool,
}

/// The TVL of `t` in whole numeraire tokens: its balances in every pool that holds it, valued
/// at `price` (0 without one).
fn tvl(graph: &PoolGraph, t: TokenId, price: Option<TokenPrice>, num_dec: u8) -> f64 {
    let Some(p) = price else { return 0.0 };
    let held: f64 = graph
        .pools_of(t)
        .iter()
        .filter_map(|&pid| balance_in(graph, pid, t))
        .map(to_f64)
        .sum();
    #[allow(clippy::arithmetic_side_effects)] // f64
    let v = held * p.raw / pow10(i32::from(num_dec));
    v
}

/// A page of the token list of `graph`, sorted and cut as `query` says, TVL in whole tokens
/// of `numeraire`.
///
/// # Errors
/// [`RouteError::TokenOutOfRange`] when `numeraire` is not a token of the graph.
///
/// # Complexity
/// One price table (see [`price_table`]) and O(T log T) for T tokens.
pub fn token_list(
    graph: &PoolGraph,
    numeraire: TokenId,
    query: &TokenQuery,
) -> Result<Vec<TokenEntry>, RouteError> {
    let table = price_table(graph, numeraire, DEFAULT_MAX_HOPS)
        .map_err(|_| RouteError::TokenOutOfRange(numeraire))?;
    let num_dec = graph.token(numeraire).map_or(0, |i| i.decimals);
    let mut entries: Vec<TokenEntry> = graph
        .tokens()
        .iter()
        .enumerate()
        .filter_map(|(k, info)| {
            let t = TokenId(u32::try_from(k).ok()?);
            Some(TokenEntry {
                address: info.address.clone(),
                symbol: info.symbol.clone(),
                decimals: info.decimals,
                tvl: tvl(graph, t, table.get(t), num_dec),
                is_lp: graph.pool_of_lp(t).is_some(),
            })
        })
        .collect();
    entries.sort_by(|a, b| {
        let key = match query.order_by {
            OrderBy::Tvl => a.tvl.partial_cmp(&b.tvl).unwrap_or(Ordering::Equal),
            OrderBy::Symbol => a.symbol.cmp(&b.symbol),
        };
        let key = match query.order_dir {
            OrderDir::Asc => key,
            OrderDir::Desc => key.reverse(),
        };
        key.then_with(|| a.address.cmp(&b.address))
    });
    Ok(entries
        .into_iter()
        .skip(query.offset)
        .take(query.limit)
        .collect())
}

/// One liquidity source.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct SourceEntry {
    /// the id, as passed in `sourceWhitelist` (case-sensitive, hyphenated)
    pub id: String,
    /// pools of the snapshot from this source
    pub pools: usize,
}

/// Whether `id` follows the spec's rules for a liquidity source id: non-empty, hyphenated
/// (no underscore), no whitespace.
#[must_use]
pub fn is_valid_source_id(id: &str) -> bool {
    crate::chain::is_source_id(id)
}

/// The liquidity sources of `graph`, sorted by id, with their pool counts.
///
/// # Errors
/// [`SnapshotError::BadPool`] naming a pool whose source id breaks the rules of
/// [`is_valid_source_id`] (a snapshot problem).
pub fn liquidity_sources(graph: &PoolGraph) -> Result<Vec<SourceEntry>, SnapshotError> {
    let mut out: Vec<SourceEntry> = Vec::new();
    for p in graph.pools() {
        if !is_valid_source_id(&p.source) {
            return Err(SnapshotError::BadPool {
                pool: p.id.clone(),
                why: BadPoolProblem::SourceId,
            });
        }
        match out.binary_search_by(|e| e.id.as_str().cmp(&p.source)) {
            Ok(k) => {
                if let Some(e) = out.get_mut(k) {
                    e.pools = e.pools.saturating_add(1);
                }
            }
            Err(k) => out.insert(
                k,
                SourceEntry {
                    id: p.source.clone(),
                    pools: 1,
                },
            ),
        }
    }
    Ok(out)
}

/// The body of `GET /pricing/token/{chain_id}/{addr}` for a routable address: `{"price": …}`,
/// the price in whole numeraire tokens per whole token.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PriceBody {
    /// whole numeraire tokens per whole token (or LP token)
    pub price: f64,
}

/// The price body of `address`, or why it is not routable ([`crate::service::pricing::routable_price`]
/// in `numeraire` within the default hop bound).
///
/// # Errors
/// The [`crate::service::pricing::NotRoutable`] reason.
pub fn price_body(
    graph: &PoolGraph,
    address: &str,
    numeraire: TokenId,
) -> Result<PriceBody, crate::service::pricing::NotRoutable> {
    crate::service::pricing::routable_price(graph, address, numeraire, DEFAULT_MAX_HOPS)
        .map(|p| PriceBody { price: p.per_token })
}
