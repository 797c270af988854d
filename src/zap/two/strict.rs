//! The exact re-run of a plan on the pool family's own types ([`LpFamily`]): the swap, then
//! the mint of the least deposit; and the zap result built from a plan that survives it.

use super::{other, Pt, Two};
use crate::error::{PoolError, ZapError};
use crate::math::{mul_div_up, sub};
use crate::pool::{Amounts, LpFamily, Pool};
use crate::zap::{Rebalance, Strategy, ZapIn, ZapSwap};
use primitive_types::U256;

/// The least deposit that still mints `l`: `ceil(l·r_k/T)`, and what the user keeps.
pub(super) fn deposit_of(p: &Pt, l: U256) -> Result<([U256; 2], [U256; 2]), ZapError> {
    let d0 = mul_div_up(l, p.r[0], p.t)?;
    let d1 = mul_div_up(l, p.r[1], p.t)?;
    let k0 = sub(p.h[0], d0)?;
    let k1 = sub(p.h[1], d1)?;
    Ok(([d0, d1], [k0, k1]))
}

/// Re-run the plan through the pool types: the swap (if any) and the mint of the least
/// deposit. Returns the result only when it mints exactly `p.l()`.
/// [`strict`] when `careful`, else the point as it is (the caller re-runs the final plan).
pub(super) fn checked(two: &Two<'_>, i: usize, p: &Pt, careful: bool) -> Option<Pt> {
    if careful {
        strict(two, i, p)
    } else {
        (!p.l().is_zero()).then_some(*p)
    }
}

/// The plan `p` when it survives the exact re-run ([`strict_deposit`]).
pub(super) fn strict(two: &Two<'_>, i: usize, p: &Pt) -> Option<Pt> {
    strict_deposit(two, i, p).map(|_| *p)
}

/// [`strict`], returning the plan's deposit and leftover ([`deposit_of`]) instead of the point.
/// Run on the family types themselves ([`LpFamily`]): a [`Pool`] is large, and the search
/// re-runs plans many times and builds the result once.
fn strict_deposit(two: &Two<'_>, i: usize, p: &Pt) -> Option<([U256; 2], [U256; 2])> {
    match two.pool {
        Pool::ConstantProduct(c) => strict_in(c, i, p),
        Pool::Solidly(c) => strict_in(c, i, p),
        _ => None,
    }
}

/// [`strict_deposit`] on one family type.
fn strict_in<F: LpFamily>(pool: &F, i: usize, p: &Pt) -> Option<([U256; 2], [U256; 2])> {
    let l = p.l();
    if l.is_zero() {
        return None;
    }
    let (dep, left) = deposit_of(p, l).ok()?;
    let minted = if p.s.is_zero() {
        if pool.balances() != p.r.as_slice() {
            return None;
        }
        pool.mint(&dep).ok()?.0
    } else {
        let (out, after) = pool.swap(i, other(i), p.s).ok()?;
        if out != p.out || out.is_zero() || after.balances() != p.r.as_slice() {
            return None;
        }
        after.mint(&dep).ok()?.0
    };
    (minted == l).then_some((dep, left))
}

/// The result for a plan found by `strategy`: re-run once more on the family types
/// ([`strict`]), then described.
pub(super) fn materialize(two: &Two<'_>, i: usize, p: &Pt, strategy: Strategy) -> Option<ZapIn> {
    let (dep, left) = strict_deposit(two, i, p)?;
    let l = p.l();
    let j = other(i);
    let swap = (!p.s.is_zero()).then_some(ZapSwap {
        from: i,
        to: j,
        amount_in: p.s,
        amount_out: p.out,
    });
    Some(ZapIn {
        swap,
        minted: l,
        deposit: Amounts::from_slice(&dep),
        leftover: Amounts::from_slice(&left),
        rebalance: if p.s.is_zero() {
            Rebalance::NotNeeded
        } else {
            Rebalance::Swapped
        },
        strategy,
    })
}

/// A pool that cannot take a proportional deposit (empty): the direct mint, as the contract
/// takes it (first deposit).
pub(super) fn direct_only(pool: &Pool, a: [U256; 2]) -> Result<ZapIn, ZapError> {
    let (minted, _) = pool.mint(&a).map_err(|e| match e {
        PoolError::InsufficientLiquidityMinted | PoolError::InvalidFirstDeposit => {
            ZapError::NothingToMint
        }
        e => ZapError::Pool(e),
    })?;
    Ok(ZapIn {
        swap: None,
        minted,
        deposit: Amounts::from_slice(&a),
        leftover: Amounts::from_slice(&[U256::zero(), U256::zero()]),
        rebalance: Rebalance::NotNeeded,
        strategy: Strategy::Direct,
    })
}
