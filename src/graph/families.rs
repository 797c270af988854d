//! The exact pool of each snapshot family: one builder per family (shape and fields already
//! checked by [`super::build`]), with the fixed parameters of its float model.

use super::build::{bad_number, bad_pool, num, refused, small};
use crate::error::BadPoolProblem;
use crate::error::PoolError;
use crate::error::SnapshotError;
use crate::model::FamilyParams;
use crate::pool::concentrated_liquidity::Tick;
use crate::pool::saber::{SaberAmp, SaberFees};
use crate::pool::spl_token_swap::SplFees;
use crate::pool::stableswap::{StableSwapParams, Variant};
use crate::pool::whirlpool::{OrcaTick, OrcaTickArray, WhirlpoolState};
use crate::pool::{
    ConcentratedLiquidity, ConstantProduct, Pool, SaberStableSwap, Solidly, SplTokenSwap,
    StableSwap, Whirlpool,
};
use crate::snapshot::{FeeField, PoolKind, SnapshotPool};
use crate::units::parse_u256_dec;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use primitive_types::U256;

/// The first two reserves (zero for a missing one; the caller checked the length).
pub(super) fn first_two(reserves: &[U256]) -> [U256; 2] {
    [
        reserves.first().copied().unwrap_or_default(),
        reserves.get(1).copied().unwrap_or_default(),
    ]
}

/// What a family builder gives: the exact pool and the float search parameters, or why the
/// snapshot pool is refused.
type Built = Result<(Pool, FamilyParams), SnapshotError>;

/// Build the exact pool and the float search parameters of one snapshot pool.
pub(super) fn build_exact(
    p: &SnapshotPool,
    reserves: &[U256],
    decs: &[u8],
    total_supply: U256,
) -> Built {
    match p.kind {
        PoolKind::ConstantProduct => build_cp(p, reserves, total_supply),
        PoolKind::Solidly => build_solidly(p, reserves, decs, total_supply),
        PoolKind::Stableswap => build_stableswap(p, reserves, decs, total_supply),
        PoolKind::SplTokenSwap => build_spl(p, reserves, total_supply),
        PoolKind::SaberStableswap => build_saber(p, reserves, total_supply),
        PoolKind::OrcaWhirlpool => build_whirlpool(p),
        PoolKind::ConcentratedLiquidity => build_cl(p),
    }
}

/// A constant-product (Uniswap V2) pair: `fee` as `{num, den}`, optional `k_last`/`fee_on`.
fn build_cp(p: &SnapshotPool, reserves: &[U256], total_supply: U256) -> Built {
    let id = &p.id;
    let (fnum, fden) = match &p.fee {
        Some(FeeField::Fraction(f)) => (
            small(id, "fee.num", Some(&f.num))?,
            small(id, "fee.den", Some(&f.den))?,
        ),
        None => return Err(bad_pool(id, BadPoolProblem::CpFeeMissing)),
        Some(FeeField::Units(_)) => return Err(bad_pool(id, BadPoolProblem::CpFeeNotFraction)),
    };
    if fden == 0 || fnum >= fden {
        return Err(bad_number(id, "fee"));
    }
    let r = first_two(reserves);
    let k_last = match &p.k_last {
        Some(k) => parse_u256_dec(k).ok_or_else(|| bad_number(id, "k_last"))?,
        None => U256::zero(),
    };
    let pool = Pool::ConstantProduct(
        ConstantProduct::new(r, fnum, fden, total_supply)
            .map_err(|e| refused(id, e))?
            .with_protocol_fee(k_last, p.fee_on.unwrap_or(false)),
    );
    #[allow(clippy::arithmetic_side_effects)] // f64, fnum < fden
    let gamma = 1.0 - fnum as f64 / fden as f64;
    Ok((pool, FamilyParams::Cp { gamma }))
}

/// A solidly pair: `stable`, `fee_bps`, decimals given (2 entries) or the coins' own.
fn build_solidly(p: &SnapshotPool, reserves: &[U256], decs: &[u8], total_supply: U256) -> Built {
    let id = &p.id;
    let stable = p
        .stable
        .ok_or_else(|| bad_pool(id, BadPoolProblem::SolidlyStableMissing))?;
    let bps = small(id, "fee_bps", p.fee_bps.as_ref())?;
    if bps >= 10_000 {
        return Err(bad_number(id, "fee_bps"));
    }
    let d = match &p.decimals {
        Some(d) if d.len() == 2 => [
            d.first().copied().unwrap_or(18),
            d.get(1).copied().unwrap_or(18),
        ],
        Some(_) => return Err(bad_pool(id, BadPoolProblem::SolidlyDecimalsCount)),
        None => [
            decs.first().copied().unwrap_or(18),
            decs.get(1).copied().unwrap_or(18),
        ],
    };
    if d.iter().any(|x| *x > 18) {
        return Err(bad_number(id, "decimals"));
    }
    let r = first_two(reserves);
    let bps32 = u32::try_from(bps).map_err(|_| bad_number(id, "fee_bps"))?;
    let pool =
        Pool::Solidly(Solidly::new(r, d, stable, bps32, total_supply).map_err(|e| refused(id, e))?);
    #[allow(clippy::arithmetic_side_effects)] // f64, bps < 10000
    let gamma = 1.0 - bps as f64 / 10_000.0;
    let params = if stable {
        FamilyParams::SolidlyStable { gamma, decimals: d }
    } else {
        FamilyParams::SolidlyVolatile { gamma }
    };
    Ok((pool, params))
}

/// A Curve stable-swap pool: `a`, `a_precision` (default 100), `fee` (1e10 units), `rates`
/// (default from the coins' decimals), `admin_fee`, `variant` (classic or ng).
fn build_stableswap(p: &SnapshotPool, reserves: &[U256], decs: &[u8], total_supply: U256) -> Built {
    let id = &p.id;
    let a = num(id, "a", p.a.as_ref())?;
    let a_prec = match &p.a_precision {
        Some(s) => num(id, "a_precision", Some(s))?,
        None => U256::from(100u8),
    };
    let fee = match &p.fee {
        Some(FeeField::Units(s)) => num(id, "fee", Some(s))?,
        _ => return Err(bad_pool(id, BadPoolProblem::StableswapFeeUnits)),
    };
    let rates = stable_rates(p, reserves.len(), decs)?;
    if a.is_zero() || a_prec.is_zero() || fee >= U256::exp10(10) || rates.iter().any(U256::is_zero)
    {
        return Err(bad_number(id, "a/fee/rates"));
    }
    let admin_fee = match &p.admin_fee {
        Some(s) => Some(num(id, "admin_fee", Some(s))?),
        None => None,
    };
    let ss = match p.variant.as_deref() {
        None | Some("classic" | "3pool" | "three_pool") => {
            StableSwap::from_snapshot(reserves, &rates, a, a_prec, fee, admin_fee, total_supply)
                .map_err(|e| refused(id, e))?
        }
        Some("ng") => {
            let offpeg = match &p.offpeg_fee_multiplier {
                Some(s) => num(id, "offpeg_fee_multiplier", Some(s))?,
                None => U256::zero(),
            };
            let a_whole =
                crate::math::div(a, a_prec).map_err(|e| refused(id, PoolError::Math(e)))?;
            StableSwap::new(StableSwapParams {
                variant: Variant::Ng,
                balances: reserves.iter().copied().collect(),
                rates: rates.iter().copied().collect(),
                a: a_whole,
                fee,
                admin_fee: admin_fee.unwrap_or_default(),
                total_supply,
                admin_balances: crate::pool::Amounts::new(),
                offpeg_fee_multiplier: offpeg,
            })
            .map_err(|e| refused(id, e))?
        }
        Some(_) => return Err(bad_pool(id, BadPoolProblem::UnknownCurveVariant)),
    };
    let params = FamilyParams::stable(a, a_prec, fee, &rates);
    Ok((Pool::StableSwap(ss), params))
}

/// A stable-swap pool's rates: given (one per coin), else `10^(36 - decimals)` per coin.
fn stable_rates(p: &SnapshotPool, n: usize, decs: &[u8]) -> Result<Vec<U256>, SnapshotError> {
    let id = &p.id;
    let mut v = Vec::with_capacity(n);
    match &p.rates {
        Some(r) if r.len() == n => {
            for s in r {
                v.push(num(id, "rates", Some(s))?);
            }
        }
        Some(_) => return Err(bad_pool(id, BadPoolProblem::RatesLength)),
        None => {
            for d in decs {
                let e = 36u8
                    .checked_sub(*d)
                    .ok_or_else(|| bad_number(id, "decimals"))?;
                v.push(U256::exp10(usize::from(e)));
            }
        }
    }
    Ok(v)
}

/// Whether `s` is a plain decimal integer: an optional `-`, then digits only (no `+`, no
/// spaces, which Rust's integer parser would let through).
fn plain_int(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A signed decimal field (a tick index or a net liquidity) as `T`.
fn signed<T: core::str::FromStr>(
    pool: &str,
    field: &'static str,
    s: Option<&String>,
) -> Result<T, SnapshotError> {
    s.filter(|s| plain_int(s))
        .and_then(|s| s.parse().ok())
        .ok_or(SnapshotError::BadNumber {
            pool: pool.to_string(),
            field,
        })
}

/// A concentrated-liquidity pool of the snapshot: `sqrt_price_x96`, `tick`, `liquidity`,
/// `fee` (pips), `tick_spacing`, `ticks`. Inconsistent ticks (unsorted, off the spacing, net
/// liquidity going negative) are [`SnapshotError::BadPool`] naming the pool and the problem.
fn build_cl(p: &SnapshotPool) -> Built {
    let id = &p.id;
    let bad_num = |field| SnapshotError::BadNumber {
        pool: id.clone(),
        field,
    };
    let price = num(id, "sqrt_price_x96", p.sqrt_price_x96.as_ref())?;
    let tick: i32 = signed(id, "tick", p.tick.as_ref())?;
    let liquidity: u128 = signed(id, "liquidity", p.liquidity.as_ref())?;
    let fee = match &p.fee {
        Some(FeeField::Units(s)) => {
            u32::try_from(small(id, "fee", Some(s))?).map_err(|_| bad_num("fee"))?
        }
        _ => return Err(bad_num("fee")),
    };
    let spacing: i32 = signed(id, "tick_spacing", p.tick_spacing.as_ref())?;
    let ticks = p
        .ticks
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|t| {
            let net: i128 = signed(id, "ticks.liquidity_net", Some(&t.liquidity_net))?;
            Ok(Tick {
                index: signed(id, "ticks.index", Some(&t.index))?,
                liquidity_net: net,
                liquidity_gross: net.unsigned_abs(),
            })
        })
        .collect::<Result<Vec<_>, SnapshotError>>()?;
    let pool = ConcentratedLiquidity::new(price, tick, liquidity, fee, spacing, ticks).map_err(
        |e| match e {
            PoolError::InvalidState(why) => SnapshotError::BadPool {
                pool: id.clone(),
                why: BadPoolProblem::State(why),
            },
            other => SnapshotError::BadPool {
                pool: id.clone(),
                why: BadPoolProblem::ClStateRejected(other),
            },
        },
    )?;
    Ok((
        Pool::ConcentratedLiquidity(pool),
        FamilyParams::ConcentratedLiquidity,
    ))
}

/// A signed or unsigned decimal field of at most `T`'s range, required.
fn field<T: core::str::FromStr>(
    pool: &str,
    name: &'static str,
    s: Option<&String>,
) -> Result<T, SnapshotError> {
    let bad = || SnapshotError::BadNumber {
        pool: pool.to_string(),
        field: name,
    };
    match s {
        Some(v) if plain_int(v) => v.parse::<T>().map_err(|_| bad()),
        Some(_) => Err(bad()),
        None => Err(SnapshotError::BadPool {
            pool: pool.to_string(),
            why: BadPoolProblem::MissingField(name),
        }),
    }
}

/// A fee fraction from a chain-101 `fees` object: both fields required, the numerator at
/// most the denominator, and a zero denominator only with a zero numerator.
fn fee_pair(
    p: &SnapshotPool,
    num: &'static str,
    den: &'static str,
) -> Result<(u64, u64), SnapshotError> {
    let fees = p.fees.as_ref().ok_or(SnapshotError::BadPool {
        pool: p.id.clone(),
        why: BadPoolProblem::FeesMissing,
    })?;
    let n: u64 = field(&p.id, num, fees.get(num.trim_start_matches("fees.")))?;
    let d: u64 = field(&p.id, den, fees.get(den.trim_start_matches("fees.")))?;
    if n > d || (d == 0 && n != 0) {
        return Err(SnapshotError::BadNumber {
            pool: p.id.clone(),
            field: num,
        });
    }
    Ok((n, d))
}

/// Every key of pool `p`'s `fees` is one its family reads (`known`): a misspelt key is
/// refused, never dropped.
fn check_fee_keys(p: &SnapshotPool, known: &[&str]) -> Result<(), SnapshotError> {
    match p
        .fees
        .iter()
        .flat_map(|f| f.keys())
        .find(|k| !known.contains(&k.as_str()))
    {
        Some(k) => Err(SnapshotError::UnknownField {
            pool: p.id.clone(),
            field: alloc::format!("fees.{k}"),
        }),
        None => Ok(()),
    }
}

/// Reads numerator / denominator pairs of a chain-101 fee struct `$fees` from the snapshot's
/// `fees` object with [`fee_pair`], in the order given: each key is named as its field
/// (`fees.trade_fee_numerator` for `trade_fee_numerator`).
macro_rules! read_fee_pairs {
    ($p:expr, $fees:ident: $($num:ident / $den:ident),+ $(,)?) => {
        $(
            ($fees.$num, $fees.$den) = fee_pair(
                $p,
                concat!("fees.", stringify!($num)),
                concat!("fees.", stringify!($den)),
            )?;
        )+
    };
}

/// `1 − num/den` (1 for a zero denominator), for the search models.
#[allow(clippy::arithmetic_side_effects)] // f64
fn keep(f: (u64, u64)) -> f64 {
    if f.1 == 0 {
        1.0
    } else {
        1.0 - f.0 as f64 / f.1 as f64
    }
}

/// The first `N` values, each converted to `T` (a `BadNumber` naming the field when one is
/// missing or too large).
fn fits<T: TryFrom<U256>, const N: usize>(
    pool: &str,
    name: &'static str,
    values: &[U256],
) -> Result<[T; N], SnapshotError> {
    let bad = || SnapshotError::BadNumber {
        pool: pool.to_string(),
        field: name,
    };
    let v: Vec<T> = values
        .iter()
        .take(N)
        .map(|v| T::try_from(*v).map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    v.try_into().map_err(|_| bad())
}

fn build_spl(p: &SnapshotPool, reserves: &[U256], total_supply: U256) -> Built {
    let id = &p.id;
    if p.curve_type
        .as_deref()
        .is_some_and(|c| c != "constant_product")
    {
        return Err(SnapshotError::BadPool {
            pool: id.clone(),
            why: BadPoolProblem::SplCurve,
        });
    }
    check_fee_keys(
        p,
        &[
            "trade_fee_numerator",
            "trade_fee_denominator",
            "owner_trade_fee_numerator",
            "owner_trade_fee_denominator",
            "owner_withdraw_fee_numerator",
            "owner_withdraw_fee_denominator",
            "host_fee_numerator",
            "host_fee_denominator",
        ],
    )?;
    let mut fees = SplFees::default();
    read_fee_pairs!(p, fees:
        trade_fee_numerator / trade_fee_denominator,
        owner_trade_fee_numerator / owner_trade_fee_denominator,
        owner_withdraw_fee_numerator / owner_withdraw_fee_denominator,
    );
    if p.fees
        .as_ref()
        .is_some_and(|f| f.contains_key("host_fee_numerator"))
    {
        read_fee_pairs!(p, fees: host_fee_numerator / host_fee_denominator);
    }
    let trade = (fees.trade_fee_numerator, fees.trade_fee_denominator);
    let owner = (
        fees.owner_trade_fee_numerator,
        fees.owner_trade_fee_denominator,
    );
    let r: [u128; 2] = fits(id, "reserves", reserves)?;
    let [supply]: [u128; 1] = fits(id, "total_supply", &[total_supply])?;
    let gamma = (keep(trade) + keep(owner) - 1.0).max(0.0);
    Ok((
        Pool::SplTokenSwap(SplTokenSwap::new(r, supply, fees)),
        FamilyParams::Cp { gamma },
    ))
}

fn build_saber(p: &SnapshotPool, reserves: &[U256], total_supply: U256) -> Built {
    let id = &p.id;
    let bad = |why| SnapshotError::BadPool {
        pool: id.clone(),
        why,
    };
    check_fee_keys(
        p,
        &[
            "trade_fee_numerator",
            "trade_fee_denominator",
            "admin_trade_fee_numerator",
            "admin_trade_fee_denominator",
            "withdraw_fee_numerator",
            "withdraw_fee_denominator",
            "admin_withdraw_fee_numerator",
            "admin_withdraw_fee_denominator",
        ],
    )?;
    let mut fees = SaberFees::default();
    read_fee_pairs!(p, fees:
        trade_fee_numerator / trade_fee_denominator,
        admin_trade_fee_numerator / admin_trade_fee_denominator,
        withdraw_fee_numerator / withdraw_fee_denominator,
        admin_withdraw_fee_numerator / admin_withdraw_fee_denominator,
    );
    let trade = (fees.trade_fee_numerator, fees.trade_fee_denominator);
    let opt_ts = |name: &'static str, s: Option<&String>| -> Result<i64, SnapshotError> {
        s.map_or(Ok(0), |v| field(id, name, Some(v)))
    };
    let stop: i64 = opt_ts("stop_ramp_ts", p.stop_ramp_ts.as_ref())?;
    let amp = SaberAmp {
        initial_amp_factor: field(id, "initial_amp_factor", p.initial_amp_factor.as_ref())?,
        target_amp_factor: field(id, "target_amp_factor", p.target_amp_factor.as_ref())?,
        start_ramp_ts: opt_ts("start_ramp_ts", p.start_ramp_ts.as_ref())?,
        stop_ramp_ts: stop,
        current_ts: match (&p.current_ts, stop) {
            (Some(v), _) => field(id, "current_ts", Some(v))?,
            (None, 0) => 0,
            (None, _) => return Err(bad(BadPoolProblem::SaberRampWithoutTs)),
        },
    };
    let a = match amp.amp_factor() {
        Ok(a) if (1..=1_000_000).contains(&a) => a,
        _ => {
            return Err(SnapshotError::BadNumber {
                pool: id.clone(),
                field: "initial_amp_factor/target_amp_factor/ramp",
            })
        }
    };
    if let Some(d) = &p.decimals {
        if d.len() != 2 || d.first() != d.get(1) {
            return Err(bad(BadPoolProblem::SaberDecimals));
        }
    }
    let r: [u64; 2] = fits(id, "reserves", reserves)?;
    let [supply]: [u64; 1] = fits(id, "total_supply", &[total_supply])?;
    #[allow(clippy::cast_precision_loss)] // a float guide
    let params = FamilyParams::Stable {
        amp: a as f64,
        fee: 1.0 - keep(trade),
        conv: smallvec::smallvec![1.0, 1.0],
    };
    Ok((
        Pool::Saber(SaberStableSwap::new(r, supply, amp, fees)),
        params,
    ))
}

fn build_whirlpool(p: &SnapshotPool) -> Built {
    let id = &p.id;
    let state = WhirlpoolState {
        sqrt_price: field(id, "sqrt_price", p.sqrt_price.as_ref())?,
        tick_current_index: field(id, "tick_current_index", p.tick_current_index.as_ref())?,
        liquidity: field(id, "liquidity", p.liquidity.as_ref())?,
        fee_rate: field(id, "fee_rate", p.fee_rate.as_ref())?,
        protocol_fee_rate: match &p.protocol_fee_rate {
            Some(v) => field(id, "protocol_fee_rate", Some(v))?,
            None => 0,
        },
        tick_spacing: field(id, "tick_spacing", p.tick_spacing.as_ref())?,
    };
    let bad = |why| SnapshotError::BadPool {
        pool: id.clone(),
        why,
    };
    if u32::from(state.fee_rate) >= crate::pool::whirlpool::FEE_RATE_DENOMINATOR {
        return Err(SnapshotError::BadNumber {
            pool: id.clone(),
            field: "fee_rate",
        });
    }
    let tick =
        crate::pool::whirlpool::sqrt_price_to_tick_index(state.sqrt_price).map_err(|_| {
            SnapshotError::BadNumber {
                pool: id.clone(),
                field: "sqrt_price",
            }
        })?;
    // The stored tick is the price's tick, or one below when the price sits on a tick.
    if state.tick_current_index != tick && state.tick_current_index != tick.saturating_sub(1) {
        return Err(bad(BadPoolProblem::TickNotAtPrice));
    }
    let raw = p
        .tick_arrays
        .as_ref()
        .filter(|a| !a.is_empty())
        .ok_or(bad(BadPoolProblem::TickArraysMissing))?;
    let mut arrays = Vec::with_capacity(raw.len());
    for a in raw {
        let mut ticks = Vec::with_capacity(a.ticks.len());
        for t in &a.ticks {
            ticks.push(OrcaTick {
                index: field(id, "tick_arrays.ticks.index", Some(&t.index))?,
                liquidity_net: field(
                    id,
                    "tick_arrays.ticks.liquidity_net",
                    Some(&t.liquidity_net),
                )?,
                liquidity_gross: field(
                    id,
                    "tick_arrays.ticks.liquidity_gross",
                    Some(&t.liquidity_gross),
                )?,
            });
        }
        arrays.push(OrcaTickArray {
            start_tick_index: field(
                id,
                "tick_arrays.start_tick_index",
                Some(&a.start_tick_index),
            )?,
            ticks,
        });
    }
    let w = Whirlpool::new(state, &arrays).map_err(|e| match e {
        crate::error::PoolError::InvalidState(why) => bad(BadPoolProblem::State(why)),
        _ => bad(BadPoolProblem::TickArraysNotContiguous),
    })?;
    // the float model comes from the tick arrays, as a concentrated-liquidity pool's
    Ok((Pool::Whirlpool(w), FamilyParams::ConcentratedLiquidity))
}
