//! The two-coin optimiser: constant-product (Uniswap V2) and solidly (volatile and stable).
//!
//! Notation: the user sells `s` of coin `i` for coin `j`; `h` are the holdings after the swap,
//! `r` the post-swap reserves, `T` the supply the mint uses. The mint is
//! `L(s) = min(A(s), B(s))` with `A(s) = floor(h_i·T/r_i)` (does not increase with `s`) and
//! `B(s) = floor(h_j·T/r_j)` (does not decrease). See the module docs of [`super`].
//!
//! One room per strategy; [`search`] tries them in turn and the first that answers wins (the
//! result's [`Strategy`] names it):
//!
//! | file | strategy |
//! |---|---|
//! | `closed_form.rs` | [`Strategy::ClosedForm`]: Uniswap V2 with a constant mint supply, solved over the mint |
//! | `native.rs` | [`Strategy::Native`]: x·y pools, the general search's answer in `u128` arithmetic |
//! | `bracket.rs` | [`Strategy::Bracket`] / [`Strategy::FirstTrue`]: the general search's crossing, galloping from the float guess or over the whole range |
//! | `first_true.rs` | the integer binary search both general strategies end with |
//! | `plateau.rs` | after the crossing: the plateau of the best mint, its left end, the plan keeping the most |
//! | `guess.rs` | the float guesses every strategy starts from |
//! | `strict.rs` | the exact re-run of a plan on the family types, and the result |

mod bracket;
mod closed_form;
mod first_true;
mod guess;
mod native;
mod plateau;
mod strict;

use super::{ppm, Rebalance, Strategy, ZapConfig, ZapIn};
use crate::error::ZapError;
use crate::math::{add, mul, mul_div, sqrt, sub};
use crate::pool::Pool;
use guess::guess_of;
use plateau::leftover_value;
use primitive_types::U256;
use strict::{direct_only, materialize, strict};

/// How far the searches probe for a non-reverting neighbour of a point that reverts.
const PROBE: u32 = 24;

/// The family facts the optimiser needs beyond the [`Pool`] verbs.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Uniswap V2: the fee stays in the pool; `_mintFee` before the mint.
    V2 {
        k_last: U256,
        fee_on: bool,
        /// swap fee (numerator, denominator)
        fee: (u64, u64),
    },
    /// Solidly: `fee_bps`/10000 of the input leaves the pool.
    Solidly {
        fee_bps: U256,
        stable: bool,
        dec: [u32; 2],
    },
}

/// One evaluated plan: sell `s` of coin `i`.
#[derive(Debug, Clone, Copy)]
struct Pt {
    s: U256,
    out: U256,
    /// post-swap reserves, by coin index
    r: [U256; 2],
    /// supply the mint uses
    t: U256,
    /// holdings after the swap, by coin index
    h: [U256; 2],
    /// `floor(h_k·T/r_k)`, by coin index
    term: [U256; 2],
}

impl Pt {
    fn l(&self) -> U256 {
        self.term[0].min(self.term[1])
    }
}

struct Two<'a> {
    pool: &'a Pool,
    /// points that reverted so far (holes): when non-zero, the stable windows are scanned
    holes: core::cell::Cell<u32>,
    r: [U256; 2],
    ts: U256,
    kind: Kind,
    a: [U256; 2],
    /// [`v2_root_k_last`] of `kind`
    root_k_last: Option<U256>,
}

/// The family facts of a two-coin pool.
fn kind_of(pool: &Pool) -> Result<Kind, ZapError> {
    match pool {
        Pool::ConstantProduct(p) => {
            let (num, den) = p.fee();
            Ok(Kind::V2 {
                k_last: p.k_last(),
                fee_on: p.fee_on(),
                fee: (num, den),
            })
        }
        Pool::Solidly(p) => {
            let [d0, d1] = p.decimals();
            Ok(Kind::Solidly {
                fee_bps: U256::from(p.fee_bps()),
                stable: p.stable(),
                dec: [u32::from(d0), u32::from(d1)],
            })
        }
        Pool::StableSwap(_)
        | Pool::SplTokenSwap(_)
        | Pool::Saber(_)
        | Pool::Whirlpool(_)
        | Pool::ConcentratedLiquidity(_) => Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::NotTwoCoinXy,
        )),
    }
}

/// `√kLast` when Uniswap V2's `_mintFee` mints (fee on and `kLast` non-zero), else `None`.
/// Computed once per zap: every evaluated plan's mint supply needs it.
fn v2_root_k_last(kind: Kind) -> Option<U256> {
    match kind {
        Kind::V2 {
            k_last,
            fee_on: true,
            ..
        } if !k_last.is_zero() => Some(sqrt(k_last)),
        _ => None,
    }
}

/// Uniswap V2 `_mintFee`: the supply after the protocol-fee mint on reserves `r`, with
/// `root_k_last` from [`v2_root_k_last`] (`None`: no protocol fee, the supply is `ts`).
fn v2_mint_supply(ts: U256, root_k_last: Option<U256>, r: [U256; 2]) -> Result<U256, ZapError> {
    let Some(root_k_last) = root_k_last else {
        return Ok(ts);
    };
    let root_k = sqrt(mul(r[0], r[1])?);
    if root_k <= root_k_last {
        return Ok(ts);
    }
    let num = mul(ts, sub(root_k, root_k_last)?)?;
    let den = add(mul(root_k, U256::from(5u8))?, root_k_last)?;
    let liq = crate::math::div(num, den)?;
    Ok(add(ts, liq)?)
}

impl Two<'_> {
    /// The plan selling `s` of coin `i`, evaluated with the contracts' formulas; `None` when
    /// the quote reverts or the output is not below the reserve. An output of 0 for `s > 0`
    /// is kept (it mints no more than `s = 0`; the final plan is checked strictly).
    fn eval(&self, i: usize, s: U256) -> Option<Pt> {
        let j = other(i);
        let (ri, rj) = (*self.r.get(i)?, *self.r.get(j)?);
        let (ai, aj) = (*self.a.get(i)?, *self.a.get(j)?);
        let stable = matches!(self.kind, Kind::Solidly { stable: true, .. });
        let out = if s.is_zero() {
            U256::zero()
        } else if stable {
            // The stable K check can fail even for the pool's own quote: run the swap op. A
            // quote of 0 is kept as a virtual point (it mints no more than s = 0) so that the
            // searches can cross long runs of zero output.
            match self.pool.swap(i, j, s) {
                Ok((out, _)) => out,
                Err(_) => {
                    let q = self.pool.amount_out(i, j, s).ok()?;
                    if q.is_zero() {
                        q
                    } else {
                        return None;
                    }
                }
            }
        } else {
            self.pool.amount_out(i, j, s).ok()?
        };
        if out >= rj || s > ai {
            return None;
        }
        let hi = ai.checked_sub(s)?;
        let hj = aj.checked_add(out)?;
        let ri2 = match self.kind {
            Kind::V2 { .. } => ri.checked_add(s)?,
            Kind::Solidly { fee_bps, .. } => {
                let fee = mul_div(s, fee_bps, U256::from(10_000u32)).ok()?;
                ri.checked_add(s.checked_sub(fee)?)?
            }
        };
        let rj2 = rj.checked_sub(out)?;
        let mut r = [U256::zero(); 2];
        let mut h = [U256::zero(); 2];
        *r.get_mut(i)? = ri2;
        *r.get_mut(j)? = rj2;
        *h.get_mut(i)? = hi;
        *h.get_mut(j)? = hj;
        let t = match self.kind {
            Kind::V2 { .. } => v2_mint_supply(self.ts, self.root_k_last, r).ok()?,
            Kind::Solidly { .. } => self.ts,
        };
        let term = [mul_div(h[0], t, r[0]).ok()?, mul_div(h[1], t, r[1]).ok()?];
        Some(Pt {
            s,
            out,
            r,
            t,
            h,
            term,
        })
    }

    /// `eval` at `s`, or at the nearest non-reverting point strictly inside `(lo, hi)`.
    fn eval_near(&self, i: usize, s: U256, lo: U256, hi: U256) -> Option<Pt> {
        if let Some(p) = self.eval(i, s) {
            return Some(p);
        }
        self.holes.set(self.holes.get().saturating_add(1));
        for d in 1..=PROBE {
            let d = U256::from(d);
            if let Some(up) = s.checked_add(d) {
                if up < hi {
                    if let Some(p) = self.eval(i, up) {
                        return Some(p);
                    }
                }
            }
            if let Some(down) = s.checked_sub(d) {
                if down > lo {
                    if let Some(p) = self.eval(i, down) {
                        return Some(p);
                    }
                }
            }
        }
        None
    }
}

const fn other(i: usize) -> usize {
    if i == 0 {
        1
    } else {
        0
    }
}

/// One search of direction `i` (the coin in excess at `s = 0`): the plan and the strategy that
/// found it. `careful`: every intermediate candidate is re-run strictly.
type Search = fn(&Two<'_>, usize, &Pt, bool) -> Option<(Pt, Strategy)>;

/// The optimal single-pool zap for a constant-product or solidly pool.
pub(super) fn zap_in(pool: &Pool, amounts: &[U256], cfg: &ZapConfig) -> Result<ZapIn, ZapError> {
    zap_in_by(pool, amounts, cfg, search)
}

/// [`zap_in`] with the search `by` ([`search`]; the tests pass one strategy alone).
fn zap_in_by(
    pool: &Pool,
    amounts: &[U256],
    cfg: &ZapConfig,
    by: Search,
) -> Result<ZapIn, ZapError> {
    let two = setup(pool, amounts)?;
    if two.ts.is_zero() || two.r.iter().any(U256::is_zero) {
        return direct_only(pool, two.a);
    }
    let p0 = two
        .eval(0, U256::zero())
        .ok_or(ZapError::Math(crate::error::MathError::Overflow))?;
    let i = if p0.term[0] > p0.term[1] {
        0
    } else if p0.term[1] > p0.term[0] {
        1
    } else {
        return strict(&two, 0, &p0)
            .and_then(|p| materialize(&two, 0, &p, Strategy::Direct))
            .ok_or(ZapError::NothingToMint);
    };
    // First without the strict re-run of intermediate candidates (the result is re-run once
    // when it is built); if that re-run fails, again with every candidate checked.
    let run =
        |careful: bool| by(&two, i, &p0, careful).and_then(|(p, s)| materialize(&two, i, &p, s));
    let best_plan = run(false).or_else(|| run(true));
    // The direct deposit is re-run only when it is needed: for the threshold, or when the
    // search found nothing at least as good.
    let need_direct = !p0.l().is_zero()
        && (cfg.surplus_threshold_ppm > 0
            || best_plan.as_ref().map_or(true, |b| b.minted < p0.l()));
    let direct = if need_direct {
        strict(&two, i, &p0).and_then(|p| materialize(&two, i, &p, Strategy::Direct))
    } else {
        None
    };
    choose(&two, cfg, best_plan, direct)
}

/// The two-coin zap's setting: the pool's kind, reserves, supply and the amounts held.
fn setup<'a>(pool: &'a Pool, amounts: &[U256]) -> Result<Two<'a>, ZapError> {
    let kind = kind_of(pool)?;
    let (Some(&r0), Some(&r1)) = (pool.balances().first(), pool.balances().get(1)) else {
        return Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::NotTwoCoins {
                given: pool.balances().len(),
            },
        ));
    };
    let (Some(&a0), Some(&a1)) = (amounts.first(), amounts.get(1)) else {
        return Err(ZapError::AmountCount {
            expected: 2,
            got: amounts.len(),
        });
    };
    Ok(Two {
        pool,
        holes: core::cell::Cell::new(0),
        r: [r0, r1],
        ts: pool.total_supply(),
        kind,
        a: [a0, a1],
        root_k_last: v2_root_k_last(kind),
    })
}

/// A quick estimate of the best mint of a constant-product or solidly zap: the plan at the
/// float guess of the crossing, one swap and one mint simulated exactly (no search, no
/// plateau, no strict re-run), or the direct deposit where it mints more. For guiding
/// searches only (it is the mint of a real plan, so never above the optimum). `None` where
/// the pool is empty or the plan reverts.
pub(crate) fn mint_estimate(pool: &Pool, amounts: &[U256]) -> Option<U256> {
    let two = setup(pool, amounts).ok()?;
    if two.ts.is_zero() || two.r.iter().any(U256::is_zero) {
        return None;
    }
    let p0 = two.eval(0, U256::zero())?;
    let i = match p0.term[0].cmp(&p0.term[1]) {
        core::cmp::Ordering::Greater => 0,
        core::cmp::Ordering::Less => 1,
        core::cmp::Ordering::Equal => return Some(p0.l()),
    };
    let at_guess = guess_of(&two, i)
        .and_then(|g| two.eval(i, g))
        .map_or(U256::zero(), |p| p.l());
    Some(at_guess.max(p0.l()))
}

/// The better of the searched plan and the direct deposit (the searched one on a tie), or the
/// direct deposit when what it leaves unminted is within the surplus threshold.
fn choose(
    two: &Two<'_>,
    cfg: &ZapConfig,
    best_plan: Option<ZapIn>,
    direct: Option<ZapIn>,
) -> Result<ZapIn, ZapError> {
    let best = match (best_plan, direct) {
        (Some(b), Some(d)) => {
            if b.minted > d.minted && cfg.surplus_threshold_ppm > 0 {
                // Value the direct deposit leaves unminted, relative to the input value.
                let left = [
                    d.leftover.first().copied().unwrap_or_default(),
                    d.leftover.get(1).copied().unwrap_or_default(),
                ];
                let wasted = leftover_value(two.kind, two.r, left);
                let input = leftover_value(two.kind, two.r, two.a);
                let w = ppm(wasted, input);
                if w <= cfg.surplus_threshold_ppm {
                    let mut d = d;
                    d.rebalance = Rebalance::BelowThreshold { wasted_ppm: w };
                    return Ok(d);
                }
            }
            if b.minted >= d.minted {
                b
            } else {
                d
            }
        }
        (Some(b), None) => b,
        (None, Some(d)) => d,
        (None, None) => return Err(ZapError::NothingToMint),
    };
    Ok(best)
}

/// Search direction `i` (the coin in excess at `s = 0`): the maximum mint and the smallest
/// swap reaching it. The strategies in turn, the first that answers wins: the closed form
/// ([`closed_form::search`]: Uniswap V2 with a constant mint supply and reserves far above it),
/// the native search ([`native::search`]: x·y pools with every value below 2^128; not when
/// `careful`), then the general search ([`general`]), which always answers when any plan mints.
fn search(two: &Two<'_>, i: usize, p0: &Pt, careful: bool) -> Option<(Pt, Strategy)> {
    let guess = guess_of(two, i);
    if let Some(z) = guess.and_then(|g| closed_form::search(two, i, p0, g, careful)) {
        return Some((z, Strategy::ClosedForm));
    }
    if !careful && !two.stable() {
        if let Some(z) = guess.and_then(|g| native::search(two, i, p0, g)) {
            return Some((z, Strategy::Native));
        }
    }
    general(two, i, p0, guess, careful)
}

/// The general search, on every two-coin family in 256-bit arithmetic: the crossing of the two
/// terms ([`Two::crossing`]: galloping from the float `guess`, [`Strategy::Bracket`], or over
/// the whole range when the guess is of no use, [`Strategy::FirstTrue`]), then the left end
/// of the best mint's plateau ([`plateau::optimum`]).
fn general(
    two: &Two<'_>,
    i: usize,
    p0: &Pt,
    guess: Option<U256>,
    careful: bool,
) -> Option<(Pt, Strategy)> {
    let (lo, hi, strategy) = two.crossing(i, p0, guess)?;
    plateau::optimum(two, i, p0, (lo, hi), careful).map(|p| (p, strategy))
}

impl Two<'_> {
    /// Whether the pool is solidly stable (no native search; windows around holes).
    fn stable(&self) -> bool {
        matches!(self.kind, Kind::Solidly { stable: true, .. })
    }
}

#[cfg(test)]
mod tests;
