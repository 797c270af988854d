//! Building a [`PoolGraph`] from a [`Snapshot`]: addresses checked, pools validated into their
//! exact states (one builder per family), LP tokens resolved, quarantine decided.

use super::families::build_exact;
use super::{normalise, DerivedSlot, PoolGraph, PoolInfo, Quarantined, TokenInfo};
use crate::error::PoolError;
use crate::error::SnapshotError;
use crate::error::{BadPoolProblem, Disagreement};
use crate::pool::Pool;
use crate::snapshot::{PoolKind, Snapshot, SnapshotPool};
use crate::units::{parse_u256_dec, PoolId, TokenId};
use alloc::collections::btree_map::Entry;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use primitive_types::U256;

pub(super) fn num(
    pool: &str,
    field: &'static str,
    s: Option<&String>,
) -> Result<U256, SnapshotError> {
    s.and_then(|s| parse_u256_dec(s))
        .ok_or_else(|| bad_number(pool, field))
}

pub(super) fn small(
    pool: &str,
    field: &'static str,
    s: Option<&String>,
) -> Result<u64, SnapshotError> {
    let v = num(pool, field, s)?;
    if v > U256::from(u64::MAX) {
        return Err(bad_number(pool, field));
    }
    Ok(v.low_u64())
}

impl PoolGraph {
    pub(super) fn build(snap: &Snapshot, strict: bool) -> Result<Self, SnapshotError> {
        let chain_id = snap.chain_id;
        let mut g = PoolGraph {
            chain_id,
            tokens: Vec::with_capacity(snap.tokens.len()),
            pools: Vec::with_capacity(snap.pools.len()),
            token_index: BTreeMap::new(),
            pool_index: BTreeMap::new(),
            lp_index: BTreeMap::new(),
            adjacency: Vec::new(),
            params: Vec::with_capacity(snap.pools.len()),
            derived: DerivedSlot::default(),
            quarantined: Vec::new(),
        };
        for t in &snap.tokens {
            let a = normalise(chain_id, &t.address)?;
            if t.decimals > 77 {
                return Err(SnapshotError::BadToken {
                    token: t.address.clone(),
                    field: "decimals",
                });
            }
            g.push_token(a, t.symbol.clone(), t.decimals)?;
        }
        let mut left_out = alloc::collections::BTreeSet::new();
        for p in &snap.pools {
            if left_out.contains(&p.id) {
                return Err(SnapshotError::Duplicate(p.id.clone()));
            }
            let pushed = g.pools.len();
            match g.push_pool(p) {
                Err(reason @ SnapshotError::PoolState { .. }) if !strict => {
                    // kept (without routing edges) when the state was built, else left out
                    if g.pools.len() == pushed {
                        left_out.insert(p.id.clone());
                    }
                    g.quarantined.push(Quarantined {
                        id: p.id.clone(),
                        reason,
                    });
                }
                r => r?,
            }
        }
        g.adjacency = alloc::vec![Vec::new(); g.tokens.len()];
        for (k, p) in g.pools.iter().enumerate() {
            let pid =
                PoolId(u32::try_from(k).map_err(|_| SnapshotError::TooManyEntries { count: k })?);
            for t in &p.tokens {
                if let Some(v) = g.adjacency.get_mut(t.index()) {
                    v.push(pid);
                }
            }
        }
        Ok(g)
    }

    fn push_token(
        &mut self,
        address: String,
        symbol: String,
        decimals: u8,
    ) -> Result<TokenId, SnapshotError> {
        // one search of the index: the slot found vacant is the one filled
        let slot = match self.token_index.entry(address) {
            Entry::Occupied(o) => return Err(SnapshotError::Duplicate(o.key().clone())),
            Entry::Vacant(v) => v,
        };
        let id = TokenId(u32::try_from(self.tokens.len()).map_err(|_| {
            SnapshotError::TooManyEntries {
                count: self.tokens.len(),
            }
        })?);
        let address = slot.key().clone();
        slot.insert(id);
        self.tokens.push(TokenInfo {
            address,
            symbol,
            decimals,
        });
        Ok(id)
    }

    fn push_pool(&mut self, p: &SnapshotPool) -> Result<(), SnapshotError> {
        let pid_str = &p.id;
        if self.pool_index.contains_key(pid_str) {
            return Err(SnapshotError::Duplicate(pid_str.clone()));
        }
        check_shape(p)?;
        check_fields(p)?;
        let own = check_id(self.chain_id, p)?;
        let toks = self.resolve_coins(p)?;
        let reserves = parse_reserves(p)?;
        // LP total supply. When missing, a V2-style √(r0·r1) (stable-swap: Σ xp) stands in so
        // the pool's state is defined for swaps; LP operations check `supply_known`.
        let total_supply = match &p.total_supply {
            Some(s) => num(pid_str, "total_supply", Some(s))?,
            None => default_supply(p, &reserves),
        };
        let decs: Vec<u8> = toks
            .iter()
            .map(|t| self.tokens.get(t.index()).map_or(18, |i| i.decimals))
            .collect();
        check_decimals(p, &decs)?;
        let (pool, params) = build_exact(p, &reserves, &decs, total_supply)?;
        // A Curve state whose invariant cannot be computed can still be withdrawn from (the
        // contract's remove_liquidity needs no D), so the pool stays in the graph for its LP
        // operations, without routing edges; the caller quarantines it or, strict, refuses it.
        let routable = match &pool {
            Pool::StableSwap(ss) => ss.d().is_ok(),
            _ => true,
        };
        let (lp, id) = self.resolve_lp(p, &toks, own)?;
        self.pool_index.insert(pid_str.clone(), id);
        self.params.push(params);
        self.pools.push(PoolInfo {
            id: pid_str.clone(),
            source: p.source.clone(),
            kind: p.kind,
            stable: p.stable.unwrap_or(false),
            tokens: toks,
            lp_token: lp,
            pool,
            supply_known: p.total_supply.is_some(),
            routable,
        });
        match &pool_state_refusal(self.pools.last()) {
            Some(e) => Err(SnapshotError::PoolState {
                pool: pid_str.clone(),
                error: *e,
            }),
            None => Ok(()),
        }
    }

    /// The ids of pool `p`'s coins, each a known token and none twice.
    fn resolve_coins(&self, p: &SnapshotPool) -> Result<Vec<TokenId>, SnapshotError> {
        let mut toks = Vec::with_capacity(p.tokens.len());
        for a in &p.tokens {
            let a = normalise(self.chain_id, a)
                .map_err(|_| bad_pool(&p.id, BadPoolProblem::NotAnAddress("tokens")))?;
            let t = *self
                .token_index
                .get(&a)
                .ok_or_else(|| SnapshotError::UnknownToken {
                    pool: p.id.clone(),
                    address: a.clone(),
                })?;
            if toks.contains(&t) {
                return Err(bad_pool(&p.id, BadPoolProblem::CoinTwice));
            }
            toks.push(t);
        }
        Ok(toks)
    }

    /// Pool `p`'s LP token (given, else `own`, the pool's own address from its id; added as a token
    /// when new) and the id the pool will get, registered in the LP index. A constant-product
    /// or solidly pair is its own LP token, so a given one must be that address.
    fn resolve_lp(
        &mut self,
        p: &SnapshotPool,
        toks: &[TokenId],
        own: String,
    ) -> Result<(TokenId, PoolId), SnapshotError> {
        let pid_str = &p.id;
        let lp_addr = match &p.lp_token {
            Some(a) => {
                let a = normalise(self.chain_id, a)
                    .map_err(|_| bad_pool(pid_str, BadPoolProblem::NotAnAddress("lp_token")))?;
                if matches!(p.kind, PoolKind::ConstantProduct | PoolKind::Solidly) && own != a {
                    return Err(inconsistent(
                        p,
                        a,
                        "lp_token",
                        Disagreement::PairNotItsOwnLp,
                    ));
                }
                a
            }
            None => own,
        };
        let lp = match self.token_index.get(&lp_addr) {
            Some(t) => *t,
            None => self.push_token(lp_addr.clone(), String::from("LP"), 18)?,
        };
        if toks.contains(&lp) {
            return Err(inconsistent(
                p,
                lp_addr,
                "lp_token",
                Disagreement::LpIsACoin,
            ));
        }
        let id =
            PoolId(
                u32::try_from(self.pools.len()).map_err(|_| SnapshotError::TooManyEntries {
                    count: self.pools.len(),
                })?,
            );
        if self.lp_index.insert(lp, id).is_some() {
            return Err(inconsistent(
                p,
                lp_addr,
                "lp_token",
                Disagreement::LpOfEarlierPool,
            ));
        }
        Ok((lp, id))
    }
}

/// A [`SnapshotError::BadPool`] for pool `pool`.
pub(super) fn bad_pool(pool: &str, why: BadPoolProblem) -> SnapshotError {
    SnapshotError::BadPool {
        pool: pool.to_string(),
        why,
    }
}

/// A [`SnapshotError::BadNumber`] for field `field` of pool `pool`.
pub(super) fn bad_number(pool: &str, field: &'static str) -> SnapshotError {
    SnapshotError::BadNumber {
        pool: pool.to_string(),
        field,
    }
}

/// A [`SnapshotError::PoolState`]: pool `pool`'s state is one the exact math refuses (the
/// caller quarantines the pool or, strict, refuses it).
pub(super) fn refused(pool: &str, error: PoolError) -> SnapshotError {
    SnapshotError::PoolState {
        pool: pool.to_string(),
        error,
    }
}

/// The coin and reserve counts of pool `p` fit its family.
fn check_shape(p: &SnapshotPool) -> Result<(), SnapshotError> {
    let n = p.tokens.len();
    if !(2..=8).contains(&n) {
        return Err(bad_pool(&p.id, BadPoolProblem::CoinCount));
    }
    let cl = p.kind == PoolKind::ConcentratedLiquidity;
    if p.reserves.len() != n && !(cl && p.reserves.is_empty()) {
        return Err(bad_pool(&p.id, BadPoolProblem::ReservesLength));
    }
    if p.kind != PoolKind::Stableswap && n != 2 {
        return Err(bad_pool(&p.id, BadPoolProblem::NotTwoCoins));
    }
    Ok(())
}

/// The optional fields a pool of `kind` reads, beyond those of every pool (`id`, `source`,
/// `kind`, `tokens`, `reserves`, `lp_token`, `total_supply`).
fn kind_fields(kind: PoolKind) -> &'static [&'static str] {
    match kind {
        PoolKind::ConstantProduct => &["fee", "k_last", "fee_on"],
        PoolKind::Solidly => &["stable", "fee_bps", "decimals"],
        PoolKind::Stableswap => &[
            "fee",
            "a",
            "a_precision",
            "rates",
            "admin_fee",
            "variant",
            "offpeg_fee_multiplier",
        ],
        PoolKind::SplTokenSwap => &["fees", "curve_type"],
        PoolKind::SaberStableswap => &[
            "fees",
            "initial_amp_factor",
            "target_amp_factor",
            "start_ramp_ts",
            "stop_ramp_ts",
            "current_ts",
            "decimals",
        ],
        PoolKind::OrcaWhirlpool => &[
            "sqrt_price",
            "tick_current_index",
            "liquidity",
            "fee_rate",
            "protocol_fee_rate",
            "tick_spacing",
            "tick_arrays",
        ],
        PoolKind::ConcentratedLiquidity => &[
            "sqrt_price_x96",
            "tick",
            "liquidity",
            "fee",
            "tick_spacing",
            "ticks",
        ],
    }
}

/// The kind-specific fields pool `p` gives, by their snapshot names.
fn given_fields(p: &SnapshotPool) -> [(&'static str, bool); 29] {
    [
        ("k_last", p.k_last.is_some()),
        ("fee_on", p.fee_on.is_some()),
        ("fee", p.fee.is_some()),
        ("stable", p.stable.is_some()),
        ("fee_bps", p.fee_bps.is_some()),
        ("decimals", p.decimals.is_some()),
        ("a", p.a.is_some()),
        ("a_precision", p.a_precision.is_some()),
        ("rates", p.rates.is_some()),
        ("admin_fee", p.admin_fee.is_some()),
        ("variant", p.variant.is_some()),
        ("offpeg_fee_multiplier", p.offpeg_fee_multiplier.is_some()),
        ("fees", p.fees.is_some()),
        ("curve_type", p.curve_type.is_some()),
        ("initial_amp_factor", p.initial_amp_factor.is_some()),
        ("target_amp_factor", p.target_amp_factor.is_some()),
        ("start_ramp_ts", p.start_ramp_ts.is_some()),
        ("stop_ramp_ts", p.stop_ramp_ts.is_some()),
        ("current_ts", p.current_ts.is_some()),
        ("sqrt_price", p.sqrt_price.is_some()),
        ("tick_current_index", p.tick_current_index.is_some()),
        ("liquidity", p.liquidity.is_some()),
        ("fee_rate", p.fee_rate.is_some()),
        ("protocol_fee_rate", p.protocol_fee_rate.is_some()),
        ("tick_spacing", p.tick_spacing.is_some()),
        ("tick_arrays", p.tick_arrays.is_some()),
        ("sqrt_price_x96", p.sqrt_price_x96.is_some()),
        ("tick", p.tick.is_some()),
        ("ticks", p.ticks.is_some()),
    ]
}

/// Pool `p` gives only fields its kind reads: a field of another kind is a misspelling or a
/// pool of another kind, and dropping it would quote a pool the snapshot did not describe.
/// An off-peg fee multiplier is read by stableswap-ng pools only.
fn check_fields(p: &SnapshotPool) -> Result<(), SnapshotError> {
    let allowed = kind_fields(p.kind);
    let foreign = given_fields(p)
        .into_iter()
        .find(|(name, given)| *given && !allowed.contains(name))
        .map(|(name, _)| name);
    let offpeg_off_ng = p.kind == PoolKind::Stableswap
        && p.offpeg_fee_multiplier.is_some()
        && p.variant.as_deref() != Some("ng");
    match foreign.or(offpeg_off_ng.then_some("offpeg_fee_multiplier")) {
        Some(field) => Err(SnapshotError::UnknownField {
            pool: p.id.clone(),
            field: field.to_string(),
        }),
        None => Ok(()),
    }
}

/// Pool `p`'s id is `"<source>:<address>"`: its own `source` (a liquidity source id by the
/// spec's rule) and an address of the chain, the pool's own (its LP token when none is
/// given). Returns that address, normalised.
fn check_id(chain_id: u64, p: &SnapshotPool) -> Result<String, SnapshotError> {
    if !crate::chain::is_source_id(&p.source) {
        return Err(bad_pool(&p.id, BadPoolProblem::SourceId));
    }
    p.id.split_once(':')
        .filter(|(src, _)| *src == p.source)
        .and_then(|(_, addr)| normalise(chain_id, addr).ok())
        .ok_or_else(|| bad_pool(&p.id, BadPoolProblem::IdShape))
}

/// Pool `p`'s reserves as integers.
fn parse_reserves(p: &SnapshotPool) -> Result<Vec<U256>, SnapshotError> {
    let mut reserves = Vec::with_capacity(p.reserves.len());
    for r in &p.reserves {
        reserves.push(parse_u256_dec(r).ok_or_else(|| bad_number(&p.id, "reserves"))?);
    }
    Ok(reserves)
}

/// A [`SnapshotError::Inconsistent`] for pool `p` and token `token`.
fn inconsistent(
    p: &SnapshotPool,
    token: String,
    field: &'static str,
    why: Disagreement,
) -> SnapshotError {
    SnapshotError::Inconsistent {
        pool: p.id.clone(),
        token,
        field,
        why,
    }
}

/// The pool's own view of its coins' decimals agrees with the token table (`decs`, in coin
/// order): a pool's `decimals` equal the table's, and a Curve rate lies within a factor 10 of
/// `10^(36 − decimals)` (an oracle or rebasing rate moves it a little; a rate written for
/// other decimals is off by a power of ten of at least 10).
fn check_decimals(p: &SnapshotPool, decs: &[u8]) -> Result<(), SnapshotError> {
    let coin = |k: usize| p.tokens.get(k).cloned().unwrap_or_default();
    if let Some(d) = &p.decimals {
        for (k, (given, table)) in d.iter().zip(decs).enumerate() {
            if given != table {
                return Err(inconsistent(
                    p,
                    coin(k),
                    "decimals",
                    Disagreement::DecimalsDiffer,
                ));
            }
        }
    }
    if p.kind == PoolKind::Stableswap {
        if let Some(rates) = &p.rates {
            for (k, (r, d)) in rates.iter().zip(decs).enumerate() {
                let Some(rate) = parse_u256_dec(r) else {
                    continue; // malformed: refused by build_exact, naming the field
                };
                let plain = match 36u8.checked_sub(*d) {
                    Some(e) => U256::exp10(usize::from(e)),
                    None => {
                        return Err(inconsistent(
                            p,
                            coin(k),
                            "decimals",
                            Disagreement::CurveDecimalsAbove36,
                        ))
                    }
                };
                let ten = U256::from(10u8);
                let low = plain.checked_div(ten).unwrap_or_default();
                let high = plain.saturating_mul(ten);
                if rate < low || rate > high {
                    return Err(inconsistent(
                        p,
                        coin(k),
                        "rates",
                        Disagreement::RateOffDecimals,
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Why a built pool is not routable: its Curve invariant cannot be computed.
fn pool_state_refusal(info: Option<&PoolInfo>) -> Option<PoolError> {
    match info {
        Some(PoolInfo {
            pool: Pool::StableSwap(ss),
            routable: false,
            ..
        }) => ss.d().err(),
        _ => None,
    }
}

/// The assumed LP supply of a pool whose snapshot gives none.
fn default_supply(p: &SnapshotPool, reserves: &[U256]) -> U256 {
    match p.kind {
        PoolKind::OrcaWhirlpool | PoolKind::ConcentratedLiquidity => U256::zero(),
        PoolKind::ConstantProduct
        | PoolKind::Solidly
        | PoolKind::SplTokenSwap
        | PoolKind::SaberStableswap => {
            let a = reserves.first().copied().unwrap_or_default();
            let b = reserves.get(1).copied().unwrap_or_default();
            let r = match crate::math::mul(a, b) {
                Ok(prod) => crate::math::sqrt(prod),
                Err(_) => a.max(b),
            };
            r.max(U256::one())
        }
        PoolKind::Stableswap => {
            let mut s = U256::zero();
            let rates = p.rates.as_ref();
            for (k, r) in reserves.iter().enumerate() {
                let rate = rates
                    .and_then(|v| v.get(k))
                    .and_then(|x| parse_u256_dec(x))
                    .unwrap_or(U256::exp10(18));
                let xp = crate::math::mul_div(*r, rate, U256::exp10(18)).unwrap_or(U256::MAX);
                s = s.saturating_add(xp);
            }
            s.max(U256::one())
        }
    }
}
