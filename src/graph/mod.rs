//! [`PoolGraph`]: a validated [`Snapshot`] with dense token and pool ids, exact pools and
//! adjacency lists.
//!
//! Addresses exist only here and at the other edges (requests, serialised plans): inside the
//! engine tokens are [`TokenId`]s and pools are [`PoolId`]s, both indices into the graph's tables
//! in snapshot order. EVM addresses (`0x` + 40 hex digits) are stored lower-case and looked up
//! case-insensitively; on chain 101 addresses are base58 and compared as given.
//!
//! Every pool has an LP token: the snapshot's `lp_token` if given, else the pool's own address
//! taken from its id `"<source>:0x<40 hex>"` (as for V2 pairs, where the pair is the LP token).
//! LP tokens are tokens of the graph like any other (decimals 18 unless the token table lists
//! them), so zaps can move them through `Mint` / `Burn` steps.

mod build;
mod families;
#[cfg(all(test, feature = "serde", feature = "std"))]
mod tests;

use crate::error::{RouteError, SnapshotError};
use crate::model::{FamilyParams, FloatPool};
use crate::pool::Pool;
use crate::snapshot::{PoolKind, Snapshot};
use crate::units::{PoolId, TokenId};
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The chain id of the non-EVM deployment (base58 addresses, no gas pricing, no blacklist).
pub(crate) use crate::chain::CHAIN_101;

/// A token of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// Address: lower-case `0x` hex on EVM chains, base58 as given on chain 101.
    pub address: String,
    /// Display symbol (may be empty).
    pub symbol: String,
    /// Decimals of the base unit.
    pub decimals: u8,
}

/// A pool of the graph: its identity, coins, LP token and exact state.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolInfo {
    /// The snapshot's id string, `"<source>:0x<40 hex>"`.
    pub id: String,
    /// Liquidity source id.
    pub source: String,
    /// Family.
    pub kind: PoolKind,
    /// Solidly only: stable curve.
    pub stable: bool,
    /// Coins in the pool's own order.
    pub tokens: Vec<TokenId>,
    /// The LP token.
    pub lp_token: TokenId,
    /// The exact state.
    pub pool: Pool,
    /// Whether the snapshot gives the LP `total_supply`. Without it the state carries a
    /// stand-in (√(r0·r1), or Σ xp for Curve) so that the pool's swaps are defined, and LP
    /// operations on it (mint, burn, zaps) are refused with a typed error.
    pub supply_known: bool,
    /// Whether the router may swap through it: false for a pool quarantined because its
    /// invariant cannot be computed (it stays for LP operations and listings, and is named in
    /// [`PoolGraph::quarantined`]).
    pub routable: bool,
}

/// A snapshot pool left out of the graph because the exact math refuses its state; the rest
/// of the snapshot routes without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quarantined {
    /// The snapshot's id string of the pool.
    pub id: String,
    /// Why: a [`SnapshotError::PoolState`] naming the pool and the refusal.
    pub reason: SnapshotError,
}

/// A validated snapshot, as plain data: dense ids, token and pool tables with the exact pool
/// states, per-token adjacency, the fixed parameters of each pool's float model, quarantine.
///
/// A search keeps what it derives from the graph (the router's directed edges and float models,
/// `route::edges`) in an opaque slot of the graph: built on the first quote, patched for one
/// pool by [`PoolGraph::set_pool_state`], copied with the graph, so repeated quotes and
/// a batch of quotes share it. The graph never looks inside it.
///
/// # Invariants
/// Every pool's coins are distinct tokens of the graph; `pool.n_coins() == tokens.len()`;
/// token addresses and pool ids are unique.
#[derive(Debug, Clone)]
pub struct PoolGraph {
    chain_id: u64,
    tokens: Vec<TokenInfo>,
    pools: Vec<PoolInfo>,
    token_index: BTreeMap<String, TokenId>,
    pool_index: BTreeMap<String, PoolId>,
    lp_index: BTreeMap<TokenId, PoolId>,
    adjacency: Vec<Vec<PoolId>>,
    /// the fixed (state-independent) parameters of each pool's float model
    params: Vec<FamilyParams>,
    /// what a search derived from the graph (the router's edge index), built on first use
    derived: DerivedSlot,
    /// pools left out: their state is one the exact math refuses
    quarantined: Vec<Quarantined>,
}

/// Normalise an address for lookup: EVM hex lower-cased, base58 kept.
fn normalise(chain_id: u64, a: &str) -> Result<String, SnapshotError> {
    if chain_id == CHAIN_101 {
        // base58 of exactly 32 bytes (a public key); `onto` refuses a longer decoding
        let mut bytes = [0u8; 32];
        return match bs58::decode(a).onto(&mut bytes) {
            Ok(32) => Ok(a.to_string()),
            _ => Err(SnapshotError::BadAddress(a.to_string())),
        };
    }
    let b = a.as_bytes();
    let ok = b.len() == 42
        && b.first() == Some(&b'0')
        && matches!(b.get(1), Some(b'x' | b'X'))
        && b.iter().skip(2).all(u8::is_ascii_hexdigit);
    if !ok {
        return Err(SnapshotError::BadAddress(a.to_string()));
    }
    // "0x" or "0X" and 40 hex digits: in lower case, the prefix is "0x"
    Ok(a.to_ascii_lowercase())
}

impl PoolGraph {
    /// Validate a snapshot into a graph, quarantining pools whose state the exact math refuses.
    ///
    /// A pool that is well formed and consistent with the snapshot but whose state the exact
    /// pool refuses (a constant-product reserve above uint112, a Curve invariant that
    /// overflows or does not converge, ...) is left out of the graph and listed by
    /// [`PoolGraph::quarantined`] with a [`SnapshotError::PoolState`]; its coins stay tokens of the
    /// graph, its LP token is not added. [`PoolGraph::from_snapshot_strict`] refuses such a
    /// snapshot instead. Malformed or contradictory snapshots are refused either way.
    ///
    /// # Errors
    /// As [`PoolGraph::from_snapshot_strict`], except [`SnapshotError::PoolState`].
    pub fn from_snapshot(snap: &Snapshot) -> Result<Self, SnapshotError> {
        Self::build(snap, false)
    }

    /// Validate a snapshot into a graph, refusing it when any pool's state is one the exact
    /// math refuses.
    ///
    /// # Errors
    /// [`SnapshotError::BadAddress`] for a malformed token-table address,
    /// [`SnapshotError::Duplicate`] for a repeated token address or pool id,
    /// [`SnapshotError::UnknownToken`] for a pool coin missing from the token table,
    /// [`SnapshotError::BadToken`] for a token-table field out of range,
    /// [`SnapshotError::BadNumber`] / [`SnapshotError::BadPool`] for malformed or missing pool
    /// fields (an id other than `"<source>:<address>"`, a coin or LP token of another chain's
    /// shape, a source id against the spec's rule), [`SnapshotError::UnknownField`] for a
    /// field the pool's kind does not read or an unknown `fees` key,
    /// [`SnapshotError::Inconsistent`] for a pool that contradicts the token table or
    /// another pool (decimals, rates, LP token), [`SnapshotError::PoolState`] naming the first
    /// pool whose state the exact math refuses.
    ///
    /// # Complexity
    /// O((T + P) log(T + P)) for T tokens and P pools.
    pub fn from_snapshot_strict(snap: &Snapshot) -> Result<Self, SnapshotError> {
        Self::build(snap, true)
    }

    /// The pools [`PoolGraph::from_snapshot`] left out, in snapshot order (empty for a strict
    /// graph).
    #[must_use]
    pub fn quarantined(&self) -> &[Quarantined] {
        &self.quarantined
    }

    /// Chain id of the snapshot.
    #[must_use]
    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    /// Number of tokens (LP tokens included).
    #[must_use]
    pub fn n_tokens(&self) -> usize {
        self.tokens.len()
    }

    /// The pool `p` when its LP supply is known (LP operations are defined on it).
    ///
    /// # Errors
    /// [`RouteError::PoolOutOfRange`] for an unknown id; [`RouteError::NoSupply`] when the
    /// snapshot gives no `total_supply` for the pool.
    pub fn lp_pool(&self, p: PoolId) -> Result<&PoolInfo, RouteError> {
        let info = self.pool(p).ok_or(RouteError::PoolOutOfRange(p))?;
        if info.supply_known {
            Ok(info)
        } else {
            Err(RouteError::NoSupply(info.id.clone()))
        }
    }

    /// Number of pools.
    #[must_use]
    pub fn n_pools(&self) -> usize {
        self.pools.len()
    }

    /// The token table.
    #[must_use]
    pub fn tokens(&self) -> &[TokenInfo] {
        &self.tokens
    }

    /// The pool table.
    #[must_use]
    pub fn pools(&self) -> &[PoolInfo] {
        &self.pools
    }

    /// One token.
    #[must_use]
    pub fn token(&self, t: TokenId) -> Option<&TokenInfo> {
        self.tokens.get(t.index())
    }

    /// One pool.
    #[must_use]
    pub fn pool(&self, p: PoolId) -> Option<&PoolInfo> {
        self.pools.get(p.index())
    }

    /// Look a token up by address (0x hex case-insensitively).
    #[must_use]
    pub fn token_id(&self, address: &str) -> Option<TokenId> {
        let a = normalise(self.chain_id, address).ok()?;
        self.token_index.get(&a).copied()
    }

    /// Look a pool up by its id string.
    #[must_use]
    pub fn pool_id(&self, id: &str) -> Option<PoolId> {
        self.pool_index.get(id).copied()
    }

    /// The pools holding token `t` (empty for an unknown id).
    #[must_use]
    pub fn pools_of(&self, t: TokenId) -> &[PoolId] {
        self.adjacency.get(t.index()).map_or(&[], Vec::as_slice)
    }

    /// The LP token of a pool.
    ///
    /// # Errors
    /// [`RouteError::PoolOutOfRange`] for an unknown pool.
    pub fn lp_token(&self, p: PoolId) -> Result<TokenId, RouteError> {
        self.pools
            .get(p.index())
            .map(|i| i.lp_token)
            .ok_or(RouteError::PoolOutOfRange(p))
    }

    /// The pool whose LP token is `t`, if any.
    #[must_use]
    pub fn pool_of_lp(&self, t: TokenId) -> Option<PoolId> {
        self.lp_index.get(&t).copied()
    }

    /// Whether a pool of `source` passes a request's source filters: on `whitelist` when one
    /// is given, and not on `blacklist` (which chain 101 does not apply).
    #[must_use]
    pub fn source_allowed(
        &self,
        source: &str,
        whitelist: Option<&[String]>,
        blacklist: &[String],
    ) -> bool {
        whitelist.map_or(true, |w| w.iter().any(|s| s == source))
            && (self.chain_id == CHAIN_101 || !blacklist.iter().any(|s| s == source))
    }

    /// The distinct liquidity source ids of the pools, sorted (the `known_sources` of
    /// [`crate::service::request::QuoteRequest::validate`]).
    #[must_use]
    pub fn sources(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.pools.iter().map(|p| p.source.as_str()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The float search model of a pool on its current state (never used for amounts).
    #[must_use]
    pub(crate) fn float_model(&self, p: PoolId) -> Option<FloatPool> {
        Some(FloatPool::for_pool(
            self.family_params(p)?,
            &self.pools.get(p.index())?.pool,
        ))
    }

    /// The fixed parameters of pool `p`'s float model (fees and amplification as floats).
    #[must_use]
    pub(crate) fn family_params(&self, p: PoolId) -> Option<&FamilyParams> {
        self.params.get(p.index())
    }

    /// The value of type `T` a search derives from the graph, built by `build` on first use
    /// and kept (`None` only if the slot holds a value of another type, which no search does).
    pub(crate) fn derived<T: Derived>(&self, build: impl FnOnce(&Self) -> T) -> Option<&T> {
        self.derived
            .0
            .get_or_init(|| Box::new(build(self)))
            .as_any()
            .downcast_ref()
    }

    /// Coin index of token `t` in pool `p`.
    #[must_use]
    pub fn coin_index(&self, p: PoolId, t: TokenId) -> Option<usize> {
        self.pools
            .get(p.index())?
            .tokens
            .iter()
            .position(|x| *x == t)
    }

    /// Replace one pool's exact state (e.g. after a simulated swap). A derived search index
    /// follows for this pool only.
    ///
    /// # Errors
    /// [`RouteError::PoolOutOfRange`] for an unknown pool; [`RouteError::PoolFamilyMismatch`]
    /// when the new state is of another family or coin count.
    pub fn set_pool_state(&mut self, p: PoolId, state: Pool) -> Result<(), RouteError> {
        let info = self
            .pools
            .get_mut(p.index())
            .ok_or(RouteError::PoolOutOfRange(p))?;
        if core::mem::discriminant(&info.pool) != core::mem::discriminant(&state)
            || info.pool.n_coins() != state.n_coins()
        {
            return Err(RouteError::PoolFamilyMismatch { pool: p });
        }
        info.pool = state;
        if let Some(mut d) = self.derived.0.take() {
            d.pool_changed(self, p);
            // the slot was just emptied, so this sets it
            let _ = self.derived.0.set(d);
        }
        Ok(())
    }
}

/// A value a search derives from a [`PoolGraph`] and keeps with it (the router's edge index):
/// the graph builds it on first use through [`PoolGraph::derived`], tells it of every pool
/// state change and copies it with itself, without knowing what it is.
pub(crate) trait Derived: core::any::Any + Send + Sync + core::fmt::Debug {
    /// Follow the new state of pool `p`, which `graph` already holds.
    fn pool_changed(&mut self, graph: &PoolGraph, p: PoolId);
    /// A boxed copy (for [`Clone`] of the graph).
    fn clone_box(&self) -> Box<dyn Derived>;
    /// The value itself, for its owner to downcast.
    fn as_any(&self) -> &dyn core::any::Any;
}

/// Set at most once, shared by the threads of a batch.
#[cfg(feature = "std")]
type Once<T> = std::sync::OnceLock<T>;
/// Set at most once (single-threaded without `std`).
#[cfg(not(feature = "std"))]
type Once<T> = core::cell::OnceCell<T>;

/// The graph's slot for a derived value: empty until a search first needs it.
#[derive(Default)]
struct DerivedSlot(Once<Box<dyn Derived>>);

impl Clone for DerivedSlot {
    fn clone(&self) -> Self {
        let slot = Once::new();
        if let Some(d) = self.0.get() {
            let _ = slot.set(d.clone_box());
        }
        DerivedSlot(slot)
    }
}

impl core::fmt::Debug for DerivedSlot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "DerivedSlot(built)"
        } else {
            "DerivedSlot(empty)"
        })
    }
}
