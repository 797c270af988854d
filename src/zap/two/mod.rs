//! The two-coin optimiser: constant-product (Uniswap V2) and solidly (volatile and stable).
//!
//! Notation: the user sells `s` of coin `i` for coin `j`; `h` are the holdings after the swap,
//! `r` the post-swap reserves, `T` the supply the mint uses. The mint is
//! `L(s) = min(A(s), B(s))` with `A(s) = floor(h_i·T/r_i)` (does not increase with `s`) and
//! `B(s) = floor(h_j·T/r_j)` (does not decrease). See the module docs of [`super`].

use super::{ppm, Rebalance, ZapConfig, ZapIn, ZapSwap};
use crate::error::{PoolError, ZapError};
use crate::math::float::{from_f64_clamped, pow10, sqrt_or_zero, to_f64};
use crate::math::wide::{mul_div_128, to_u128};
use crate::math::{add, mul, mul_div, mul_div_up, sqrt, sub};
use crate::pool::{Amounts, Pool};
use primitive_types::{U256, U512};

/// How far the searches probe for a non-reverting neighbour of a point that reverts.
const PROBE: u32 = 24;
/// Half-width of the window scanned around the crossing for stable pools.
const STABLE_WINDOW: u32 = 64;

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
    /// whether [`native_search`] may answer before the general search (off only in the tests
    /// that compare the two)
    native: bool,
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
        | Pool::ConcentratedLiquidity(_) => Err(ZapError::Unsupported("not a two-coin x·y pool")),
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

    /// Integer binary search for the first point in `(lo, hi]` where `pred` holds, given that
    /// it fails at `lo` and holds at `hi` (both evaluated). Galloping from `guess` first.
    /// Returns the last failing and the first holding point.
    fn first_true(
        &self,
        i: usize,
        mut lo: Pt,
        mut hi: Pt,
        guess: Option<U256>,
        pred: &dyn Fn(&Pt) -> bool,
    ) -> (Pt, Pt) {
        if let Some(g) = guess {
            if g > lo.s && g < hi.s {
                if let Some(p) = self.eval_near(i, g, lo.s, hi.s) {
                    let holds = pred(&p);
                    if holds {
                        hi = p;
                    } else {
                        lo = p;
                    }
                    // Gallop away from the guess toward the other side.
                    let mut step = U256::one();
                    loop {
                        let x = if holds {
                            hi.s.checked_sub(step).filter(|x| *x > lo.s)
                        } else {
                            lo.s.checked_add(step).filter(|x| *x < hi.s)
                        };
                        let Some(x) = x else { break };
                        let Some(q) = self.eval_near(i, x, lo.s, hi.s) else {
                            break;
                        };
                        if pred(&q) {
                            hi = q;
                            if !holds {
                                break;
                            }
                        } else {
                            lo = q;
                            if holds {
                                break;
                            }
                        }
                        step = step.saturating_add(step);
                    }
                }
            }
        }
        while let Some(gap) = hi.s.checked_sub(lo.s) {
            if gap <= U256::one() {
                break;
            }
            #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
            let mid = lo.s.saturating_add(gap >> 1);
            match self.eval_near(i, mid, lo.s, hi.s) {
                Some(p) => {
                    if pred(&p) {
                        hi = p;
                    } else {
                        lo = p;
                    }
                }
                None => {
                    // A long run of reverts around `mid`: scan it from `lo` upward.
                    match self.scan_first_feasible(i, lo.s, hi.s) {
                        Some(p) => {
                            if pred(&p) {
                                hi = p;
                            } else {
                                lo = p;
                            }
                        }
                        None => break,
                    }
                }
            }
        }
        (lo, hi)
    }

    /// A bracket `(lo, hi)` of the first point where `pred` holds, galloping from `guess`:
    /// `pred` fails at `lo` (or `lo` is `p0`) and holds at `hi`. `None` when no point up to
    /// `end` holds.
    fn bracket(
        &self,
        i: usize,
        p0: Pt,
        end: U256,
        guess: Option<U256>,
        pred: &dyn Fn(&Pt) -> bool,
    ) -> Option<(Pt, Pt)> {
        let far = |lo: U256| {
            self.eval(i, end)
                .or_else(|| self.eval_near(i, end.saturating_sub(U256::one()), lo, end))
                .or_else(|| self.scan_first_feasible(i, lo, end))
        };
        let Some(g) = guess.filter(|g| *g > p0.s && *g < end) else {
            let hi = far(p0.s)?;
            return pred(&hi).then_some((p0, hi));
        };
        let Some(p) = self.eval_near(i, g, p0.s, end) else {
            let hi = far(p0.s)?;
            return pred(&hi).then_some((p0, hi));
        };
        let mut step = U256::one();
        if pred(&p) {
            let mut hi = p;
            loop {
                let Some(x) = hi.s.checked_sub(step).filter(|x| *x > p0.s) else {
                    return Some((p0, hi));
                };
                match self.eval_near(i, x, p0.s, hi.s) {
                    Some(q) if pred(&q) => hi = q,
                    Some(q) => return Some((q, hi)),
                    None => return Some((p0, hi)),
                }
                step = step.saturating_add(step);
            }
        } else {
            let mut lo = p;
            loop {
                let Some(x) = lo.s.checked_add(step).filter(|x| *x < end) else {
                    let hi = far(lo.s)?;
                    return pred(&hi).then_some((lo, hi));
                };
                match self.eval_near(i, x, lo.s, end) {
                    Some(q) if pred(&q) => return Some((lo, q)),
                    Some(q) => lo = q,
                    None => {
                        let hi = far(lo.s)?;
                        return pred(&hi).then_some((lo, hi));
                    }
                }
                step = step.saturating_add(step);
            }
        }
    }

    /// The first point strictly inside `(lo, hi)` that does not revert, scanning at most a
    /// bounded number of points from each end.
    fn scan_first_feasible(&self, i: usize, lo: U256, hi: U256) -> Option<Pt> {
        let mut s = lo.checked_add(U256::one())?;
        let mut n = 0u32;
        while s < hi && n < 4096 {
            if let Some(p) = self.eval(i, s) {
                return Some(p);
            }
            s = s.checked_add(U256::one())?;
            n = n.saturating_add(1);
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

/// The float guess of the crossing for constant-product and volatile pools: the root of the
/// continuous balance equation `(a_i − s)/r_i(s) = (a_j + out(s))/(r_j − out(s))` with the pool's
/// own fee. A search start only.
fn closed_form_guess(t: &Two<'_>, i: usize, fee_in_pool: Option<f64>, fee_out: f64) -> Option<f64> {
    let j = other(i);
    let ri = to_f64(*t.r.get(i)?);
    let rj = to_f64(*t.r.get(j)?);
    let ai = to_f64(*t.a.get(i)?);
    let aj = to_f64(*t.a.get(j)?);
    #[allow(clippy::arithmetic_side_effects)] // f64 arithmetic: a search guess, no traps
    let x = match fee_in_pool {
        // Uniswap: out = γx·r_j/(r_i + γx), r_i' = r_i + x.
        // γ(a_j+r_j)/r_i·x² + (1+γ)(a_j+r_j)·x + (a_j·r_i − a_i·r_j) = 0.
        Some(gamma) => {
            let alpha = gamma * (aj + rj) / ri;
            let beta = (1.0 + gamma) * (aj + rj);
            let c = aj * ri - ai * rj;
            -2.0 * c / (beta + sqrt_or_zero(beta * beta - 4.0 * alpha * c))
        }
        // Solidly volatile, in y = (1−φ)x: out = y·r_j/(r_i + y), r_i' = r_i + y, h_i = a_i − y/(1−φ).
        // (a_j+r_j)/r_i·y² + (2a_j + r_j + r_j/(1−φ))·y + (a_j·r_i − a_i·r_j) = 0.
        None => {
            let k = 1.0 / (1.0 - fee_out);
            let alpha = (aj + rj) / ri;
            let beta = 2.0 * aj + rj + k * rj;
            let c = aj * ri - ai * rj;
            let y = -2.0 * c / (beta + sqrt_or_zero(beta * beta - 4.0 * alpha * c));
            y * k
        }
    };
    x.is_finite().then_some(x)
}

/// The float guess of the crossing for solidly stable pools: bisection on the continuous
/// balance equation with a float model of `x³y + xy³` (normalised reserves).
fn stable_guess(t: &Two<'_>, i: usize, fee_out: f64, dec: [u32; 2]) -> Option<f64> {
    let j = other(i);
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    // f64 arithmetic: a search guess, no traps; decimals ≤ 77 fit i32
    let guess = {
        let sc = |k: usize| pow10(18 - *dec.get(k).unwrap_or(&18) as i32);
        let (si, sj) = (sc(i), sc(j));
        let xi = to_f64(*t.r.get(i)?) * si;
        let yj = to_f64(*t.r.get(j)?) * sj;
        let ai = to_f64(*t.a.get(i)?) * si;
        let aj = to_f64(*t.a.get(j)?) * sj;
        let kf = |x: f64, y: f64| x * y * (x * x + y * y);
        let k0 = kf(xi, yj);
        // y such that kf(x, y) = k0, by Newton from yj.
        let solve_y = |x: f64| {
            let mut y = yj;
            for _ in 0..64 {
                let f = kf(x, y) - k0;
                let d = x * x * x + 3.0 * x * y * y;
                let step = f / d;
                y -= step;
                if step.abs() <= y.abs() * 1e-15 {
                    break;
                }
            }
            y
        };
        // g(s) > 0 while coin i is still in excess.
        let g = |s: f64| {
            let sin = s * (1.0 - fee_out);
            let x2 = xi + sin;
            let y2 = solve_y(x2);
            let out = yj - y2;
            (ai - s) / x2 - (aj + out) / y2
        };
        let (mut lo, mut hi) = (0.0f64, ai);
        if g(lo) <= 0.0 {
            return Some(0.0);
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if g(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= hi * 1e-15 {
                break;
            }
        }
        0.5 * (lo + hi) / si
    };
    guess.is_finite().then_some(guess)
}

/// Value of `leftover` in raw coin-0 units at the spot price of post-swap reserves `r`
/// (`r0/r1` for x·y; the stable curve's marginal price on normalised reserves). Ranking only.
fn leftover_value(kind: Kind, r: [U256; 2], left: [U256; 2]) -> f64 {
    let (r0, r1) = (to_f64(r[0]), to_f64(r[1]));
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    // f64 arithmetic: ranking only; decimals ≤ 77 fit i32
    let p = match kind {
        Kind::Solidly {
            stable: true, dec, ..
        } => {
            let s0 = pow10(18 - dec[0] as i32);
            let s1 = pow10(18 - dec[1] as i32);
            let (x, y) = (r0 * s0, r1 * s1);
            (s1 / s0) * (x * x * x + 3.0 * x * y * y) / (3.0 * x * x * y + y * y * y)
        }
        _ => r0 / r1,
    };
    #[allow(clippy::arithmetic_side_effects)] // f64
    let v = to_f64(left[0]) + to_f64(left[1]) * p;
    v
}

/// The least deposit that still mints `l`: `ceil(l·r_k/T)`, and what the user keeps.
fn deposit_of(p: &Pt, l: U256) -> Result<([U256; 2], [U256; 2]), ZapError> {
    let d0 = mul_div_up(l, p.r[0], p.t)?;
    let d1 = mul_div_up(l, p.r[1], p.t)?;
    let k0 = sub(p.h[0], d0)?;
    let k1 = sub(p.h[1], d1)?;
    Ok(([d0, d1], [k0, k1]))
}

/// Re-run the plan through the pool types: the swap (if any) and the mint of the least
/// deposit. Returns the result only when it mints exactly `p.l()`.
/// [`strict`] when `careful`, else the point as it is (the caller re-runs the final plan).
fn checked(two: &Two<'_>, i: usize, p: &Pt, careful: bool) -> Option<Pt> {
    if careful {
        strict(two, i, p)
    } else {
        (!p.l().is_zero()).then_some(*p)
    }
}

fn strict(two: &Two<'_>, i: usize, p: &Pt) -> Option<Pt> {
    strict_deposit(two, i, p).map(|_| *p)
}

/// [`strict`], returning the plan's deposit and leftover ([`deposit_of`]) instead of the point.
fn strict_deposit(two: &Two<'_>, i: usize, p: &Pt) -> Option<([U256; 2], [U256; 2])> {
    match two.pool {
        Pool::ConstantProduct(c) => strict_in(c, i, p),
        Pool::Solidly(c) => strict_in(c, i, p),
        _ => None,
    }
}

/// The family verbs the strict re-run needs, on the family types themselves (a [`Pool`] is
/// large; the search re-runs plans many times and builds the result once).
trait Fam: Sized {
    fn swap_(&self, i: usize, j: usize, s: U256) -> Result<(U256, Self), PoolError>;
    fn mint_(&self, a: &[U256]) -> Result<(U256, Self), PoolError>;
    fn balances_(&self) -> &[U256];
}

impl Fam for crate::pool::ConstantProduct {
    fn swap_(&self, i: usize, j: usize, s: U256) -> Result<(U256, Self), PoolError> {
        self.swap(i, j, s)
    }
    fn mint_(&self, a: &[U256]) -> Result<(U256, Self), PoolError> {
        self.mint(a)
    }
    fn balances_(&self) -> &[U256] {
        self.balances()
    }
}

impl Fam for crate::pool::Solidly {
    fn swap_(&self, i: usize, j: usize, s: U256) -> Result<(U256, Self), PoolError> {
        self.swap(i, j, s)
    }
    fn mint_(&self, a: &[U256]) -> Result<(U256, Self), PoolError> {
        self.mint(a)
    }
    fn balances_(&self) -> &[U256] {
        self.balances()
    }
}

fn strict_in<F: Fam>(pool: &F, i: usize, p: &Pt) -> Option<([U256; 2], [U256; 2])> {
    let l = p.l();
    if l.is_zero() {
        return None;
    }
    let (dep, left) = deposit_of(p, l).ok()?;
    let minted = if p.s.is_zero() {
        if pool.balances_() != p.r.as_slice() {
            return None;
        }
        pool.mint_(&dep).ok()?.0
    } else {
        let (out, after) = pool.swap_(i, other(i), p.s).ok()?;
        if out != p.out || out.is_zero() || after.balances_() != p.r.as_slice() {
            return None;
        }
        after.mint_(&dep).ok()?.0
    };
    (minted == l).then_some((dep, left))
}

/// The result for a plan: re-run once more on the family types ([`strict`]), then described.
fn materialize(two: &Two<'_>, i: usize, p: &Pt) -> Option<ZapIn> {
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
    })
}

/// A pool that cannot take a proportional deposit (empty): the direct mint, as the contract
/// takes it (first deposit).
fn direct_only(pool: &Pool, a: [U256; 2]) -> Result<ZapIn, ZapError> {
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
    })
}

/// The optimal single-pool zap for a constant-product or solidly pool.
pub(super) fn zap_in(pool: &Pool, amounts: &[U256], cfg: &ZapConfig) -> Result<ZapIn, ZapError> {
    zap_in_with(pool, amounts, cfg, true)
}

/// [`zap_in`], with or without the [`native_search`] shortcut (the result is the same).
fn zap_in_with(
    pool: &Pool,
    amounts: &[U256],
    cfg: &ZapConfig,
    native: bool,
) -> Result<ZapIn, ZapError> {
    let kind = kind_of(pool)?;
    let (Some(&r0), Some(&r1)) = (pool.balances().first(), pool.balances().get(1)) else {
        return Err(ZapError::Unsupported("pool without two coins"));
    };
    let (Some(&a0), Some(&a1)) = (amounts.first(), amounts.get(1)) else {
        return Err(ZapError::AmountCount {
            expected: 2,
            got: amounts.len(),
        });
    };
    let ts = pool.total_supply();
    if ts.is_zero() || r0.is_zero() || r1.is_zero() {
        return direct_only(pool, [a0, a1]);
    }
    let two = Two {
        pool,
        holes: core::cell::Cell::new(0),
        r: [r0, r1],
        ts,
        kind,
        a: [a0, a1],
        root_k_last: v2_root_k_last(kind),
        native,
    };
    let p0 = two
        .eval(0, U256::zero())
        .ok_or(ZapError::Math(crate::error::MathError::Overflow))?;
    let i = if p0.term[0] > p0.term[1] {
        0
    } else if p0.term[1] > p0.term[0] {
        1
    } else {
        return strict(&two, 0, &p0)
            .and_then(|p| materialize(&two, 0, &p))
            .ok_or(ZapError::NothingToMint);
    };
    let j = other(i);
    // First without the strict re-run of intermediate candidates (the result is re-run once
    // when it is built); if that re-run fails, again with every candidate checked.
    let best_plan = search(&two, i, j, &p0, false)
        .and_then(|p| materialize(&two, i, &p))
        .or_else(|| search(&two, i, j, &p0, true).and_then(|p| materialize(&two, i, &p)));
    // The direct deposit is re-run only when it is needed: for the threshold, or when the
    // search found nothing at least as good.
    let need_direct = !p0.l().is_zero()
        && (cfg.surplus_threshold_ppm > 0
            || best_plan.as_ref().map_or(true, |b| b.minted < p0.l()));
    let direct = if need_direct {
        strict(&two, i, &p0).and_then(|p| materialize(&two, i, &p))
    } else {
        None
    };
    let best = match (best_plan, direct) {
        (Some(b), Some(d)) => {
            if b.minted > d.minted && cfg.surplus_threshold_ppm > 0 {
                // Value the direct deposit leaves unminted, relative to the input value.
                let left = [
                    d.leftover.first().copied().unwrap_or_default(),
                    d.leftover.get(1).copied().unwrap_or_default(),
                ];
                let wasted = leftover_value(kind, [r0, r1], left);
                let input = leftover_value(kind, [r0, r1], [a0, a1]);
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

/// The float guess of the crossing for direction `i`, as an integer in `[0, a_i]`: the closed
/// form for x·y pools, bisection on the float curve for stable ones. A search start only.
fn guess_of(two: &Two<'_>, i: usize) -> Option<U256> {
    let ai = *two.a.get(i)?;
    match two.kind {
        Kind::V2 {
            fee: (num, den), ..
        } => {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)]
            // f64 guide; num < den
            let gamma = 1.0 - num as f64 / den as f64;
            closed_form_guess(two, i, Some(gamma), 0.0)
        }
        Kind::Solidly {
            fee_bps,
            stable: false,
            ..
        } => closed_form_guess(two, i, None, to_f64(fee_bps) / 10_000.0),
        Kind::Solidly {
            fee_bps,
            stable: true,
            dec,
        } => stable_guess(two, i, to_f64(fee_bps) / 10_000.0, dec),
    }
    .map(|g| from_f64_clamped(g, ai))
}

/// Search direction `i` (the coin in excess at `s = 0`): the maximum mint and the smallest
/// swap reaching it, checked strictly.
fn search(two: &Two<'_>, i: usize, j: usize, p0: &Pt, careful: bool) -> Option<Pt> {
    let ai = *two.a.get(i)?;
    let stable = matches!(two.kind, Kind::Solidly { stable: true, .. });
    let cross = |p: &Pt| p.term[i] <= p.term[j];
    let guess = guess_of(two, i);
    if let Some(z) = guess.and_then(|g| v2_closed_form(two, i, j, p0, g, careful)) {
        return Some(z);
    }
    if two.native && !careful && !stable {
        if let Some(z) = guess.and_then(|g| native_search(two, i, p0, g)) {
            return Some(z);
        }
    }
    // Bracket the crossing from the guess (the far end, everything sold, has a coin-i term of
    // 0, so the predicate holds there), then bisect.
    let (lo, hi) = match two.bracket(i, *p0, ai, guess, &cross) {
        Some((lo, hi)) => two.first_true(i, lo, hi, None, &cross),
        None => {
            let hi = two
                .eval(i, ai)
                .or_else(|| two.scan_first_feasible(i, U256::zero(), ai))?;
            (*p0, hi)
        }
    };
    // The maximum is at the crossing: B(lo) or A(hi). `top` is the smallest evaluated point
    // reaching the best mint so far.
    let mut top = lo;
    let mut take = |p: &Pt| {
        let (l, b) = (p.l(), top.l());
        if l > b || (l == b && p.s < top.s) {
            top = *p;
        }
    };
    take(&hi);
    // Holes seen, or the two terms out of order across the crossing (the non-monotone quirk of
    // stable `get_y` with non-18-decimal coins): scan windows around the crossing.
    let disorder = lo.term[i] < hi.term[i] || lo.term[j] > hi.term[j];
    let irregular = stable && (two.holes.get() > 0 || disorder);
    if irregular {
        // Holes and the non-monotone quirk: scan a window around the crossing.
        let w = U256::from(STABLE_WINDOW);
        let mut s = hi.s.saturating_sub(w);
        let end = hi.s.saturating_add(w).min(ai);
        while s <= end {
            if let Some(p) = two.eval(i, s) {
                take(&p);
            }
            s = s.saturating_add(U256::one());
            if s.is_zero() {
                break;
            }
        }
    }
    let best = top.l();
    if best.is_zero() {
        return None;
    }
    if p0.l() >= best {
        return checked(two, i, p0, careful);
    }
    // Left end of the plateau: the first s with B(s) ≥ best (B does not decrease).
    let reach = |p: &Pt| p.term[j] >= best;
    // When the crossing's last failing point is right before `top` and does not reach `best`,
    // `top` is the left end already (B does not decrease); otherwise search for it.
    let mut left = if lo.s.checked_add(U256::one()) == Some(top.s) && !reach(&lo) {
        top
    } else {
        two.first_true(i, *p0, top, top.s.checked_sub(U256::one()), &reach)
            .1
    };
    if irregular {
        // Non-monotone quirk: an earlier s may still reach `best`.
        let w = U256::from(STABLE_WINDOW);
        let mut s = left.s.saturating_sub(w);
        while s < left.s {
            if let Some(p) = two.eval(i, s) {
                if p.l() >= best {
                    left = p;
                    break;
                }
            }
            s = s.saturating_add(U256::one());
        }
    }
    // Walk right to the first point that mints `best` and survives the strict re-run.
    let mut p = left;
    let mut n = 0u32;
    let first = loop {
        if p.l() >= best {
            if let Some(z) = checked(two, i, &p, careful) {
                break (p, z);
            }
        }
        n = n.saturating_add(1);
        if n > 4096 || p.s >= top.s {
            return checked(two, i, &top, careful);
        }
        let mut s = p.s.saturating_add(U256::one());
        p = loop {
            if let Some(q) = two.eval(i, s) {
                break q;
            }
            s = s.saturating_add(U256::one());
            if s > top.s {
                return checked(two, i, &top, careful);
            }
        };
    };
    Some(keep_most(two, i, best, first, irregular, careful))
}

/// How many points right of the plateau's left end are compared by leftover value.
/// x·y pools stop at the plateau's end, so this only costs on wide plateaus, where the ceil
/// roundings can put the best value a few hundred units in (the donation per unit of swap is
/// about the fee, the rounding up to a unit of each coin). Stable pools scan less: their
/// evaluations cost more and holes are skipped rather than ending the scan.
const KEEP_SCAN: u32 = 2048;
/// The same for solidly stable pools.
const KEEP_SCAN_STABLE: u32 = 256;

/// Rank of a plan's leftover value: the floor of the value in raw coin-0 units, then the
/// fraction. Exact for x·y (`l0 + l1·r0/r1`); the stable curve's price is a float.
fn value_key(kind: Kind, p: &Pt) -> Option<(U256, f64)> {
    let (_, left) = deposit_of(p, p.l()).ok()?;
    let [l0, l1] = left;
    match kind {
        Kind::Solidly { stable: true, .. } => {
            let v = leftover_value(kind, p.r, left);
            let fl = from_f64_clamped(v, U256::MAX);
            #[allow(clippy::arithmetic_side_effects)] // f64
            let frac = v - to_f64(fl);
            Some((fl, frac))
        }
        _ => {
            let num = l1.full_mul(p.r[0]);
            let (q, rem) = num.div_mod(primitive_types::U512::from(p.r[1]));
            let q = U256::try_from(q).ok()?;
            let rem = U256::try_from(rem).ok()?;
            #[allow(clippy::arithmetic_side_effects)] // f64
            let frac = to_f64(rem) / to_f64(p.r[1]);
            Some((l0.checked_add(q)?, frac))
        }
    }
}

/// Among the plans of the optimal plateau just right of its left end, the one that keeps the
/// most leftover value. Swapping further inside the plateau donates input to the pool, so
/// the value trends down, but the ceil roundings of the deposit move it by up to a unit of each
/// coin: nearby points can keep more.
fn keep_most(
    two: &Two<'_>,
    i: usize,
    best: U256,
    first: (Pt, Pt),
    irregular: bool,
    careful: bool,
) -> Pt {
    let (p, mut chosen) = first;
    // The key of the best plan so far; `p`'s is computed when a second plateau point needs it
    // (on a plateau of one point nothing is compared). No key for `p`: `p` is kept.
    let mut key: Option<(U256, f64)> = None;
    let ai = two.a.get(i).copied().unwrap_or_default();
    let n = if matches!(two.kind, Kind::Solidly { stable: true, .. }) {
        KEEP_SCAN_STABLE
    } else {
        KEEP_SCAN
    };
    // Compares `q` with the best so far; false when `p` has no key (stop, keep `p`).
    let consider = |q: &Pt, chosen: &mut Pt, key: &mut Option<(U256, f64)>| -> bool {
        if q.l() < best {
            return true;
        }
        let cur = match *key {
            Some(c) => c,
            None => match value_key(two.kind, &p) {
                Some(c) => {
                    *key = Some(c);
                    c
                }
                None => return false,
            },
        };
        let Some(k) = value_key(two.kind, q) else {
            return true;
        };
        if k.0 > cur.0 || (k.0 == cur.0 && k.1 > cur.1) {
            if let Some(z) = checked(two, i, q, careful) {
                *chosen = z;
                *key = Some(k);
            }
        }
        true
    };
    // Window right of the left end.
    let mut s = p.s;
    let mut last_on = p;
    let mut ended = false;
    for _ in 0..n {
        s = s.saturating_add(U256::one());
        if s > ai {
            ended = true;
            break;
        }
        let Some(q) = two.eval(i, s) else { continue };
        if q.l() < best {
            if irregular {
                continue;
            }
            // A(s) only falls from here on: the plateau has ended.
            ended = true;
            break;
        }
        last_on = q;
        if !consider(&q, &mut chosen, &mut key) {
            return chosen;
        }
    }
    if ended {
        return chosen;
    }
    // A wide plateau: the leftover value is about linear in s along it (the donation pulls it
    // down, the moving post-swap price can push it up), so the other end's window counts too.
    // Its right end is the last s with A(s) ≥ best (A does not increase).
    let off = |q: &Pt| q.term[i] < best;
    let Some(far) = two
        .eval(i, ai)
        .or_else(|| two.eval_near(i, ai.saturating_sub(U256::one()), last_on.s, ai))
    else {
        return chosen;
    };
    let right = if off(&far) {
        two.first_true(i, last_on, far, None, &off).0
    } else {
        far
    };
    let mut s = right.s;
    let stop = s.saturating_sub(U256::from(n)).max(last_on.s);
    while s > stop {
        if let Some(q) = two.eval(i, s) {
            if !consider(&q, &mut chosen, &mut key) {
                return chosen;
            }
        }
        s = s.saturating_sub(U256::one());
    }
    chosen
}

/// `ceil(a / b)` on 512-bit values; `None` for `b == 0`.
fn div_up512(a: U512, b: U512) -> Option<U512> {
    if b.is_zero() {
        return None;
    }
    let (q, r) = a.div_mod(b);
    if r.is_zero() {
        Some(q)
    } else {
        q.checked_add(U512::one())
    }
}

/// Uniswap V2 with a constant mint supply (protocol fee off, or `kLast` 0): the optimum in
/// closed form over the mint `L` instead of the swap `s`.
///
/// With `T` constant, `A(s) ≥ L ⟺ s ≤ s_max(L) = floor((a_i·T − L·r_i)/(T + L))` and
/// `B(s) ≥ L ⟺ out(s) ≥ need(L) = ceil((L·r_j − a_j·T)/(T + L))`, and the least input whose
/// output reaches `need` is `ceil(den·r_i·need / (γ·(r_j − need)))` (γ = den − fee). `L` is
/// reachable iff `s_min(L) ≤ s_max(L)`; both sides are monotone in `L`, so the best `L` is found
/// by bisection between the two terms at the float guess, and `s_min(best)` is the plateau's
/// left end. Both are then checked by exact evaluation; `None` sends the caller to the general
/// search.
fn v2_closed_form(
    two: &Two<'_>,
    i: usize,
    j: usize,
    p0: &Pt,
    guess: U256,
    careful: bool,
) -> Option<Pt> {
    let Kind::V2 {
        k_last,
        fee_on,
        fee: (num, den),
    } = two.kind
    else {
        return None;
    };
    if fee_on && !k_last.is_zero() {
        return None;
    }
    let t = two.ts;
    let (ri, rj) = (*two.r.get(i)?, *two.r.get(j)?);
    // Worth it only when a unit of L spans many units of s (r_i ≫ T): otherwise the integer
    // search in s from the guess is shorter.
    if ri < t.saturating_mul(U256::from(16u8)) {
        return None;
    }
    let (ai, aj) = (*two.a.get(i)?, *two.a.get(j)?);
    let den512 = U512::from(den);
    let gamma = U512::from(den.checked_sub(num)?);
    let ri512 = U512::from(ri);
    let rj512 = U512::from(rj);
    let ai512 = U512::from(ai);
    let at = ai.full_mul(t);
    let ajt = aj.full_mul(t);
    let s_min = |l: U256| -> Option<U512> {
        let tl = U512::from(t).checked_add(U512::from(l))?;
        let u = l.full_mul(rj);
        if u <= ajt {
            return Some(U512::zero());
        }
        let need = div_up512(u.checked_sub(ajt)?, tl)?;
        if need >= rj512 {
            return None;
        }
        let n = den512.checked_mul(ri512)?.checked_mul(need)?;
        let d = gamma.checked_mul(rj512.checked_sub(need)?)?;
        div_up512(n, d)
    };
    let feasible = |l: U256| -> Option<bool> {
        let tl = U512::from(t).checked_add(U512::from(l))?;
        let y = l.full_mul(ri);
        if at < y {
            return Some(false);
        }
        let s_max = at.checked_sub(y)?.checked_div(tl)?;
        Some(match s_min(l) {
            Some(m) => m <= s_max && m <= ai512,
            None => false,
        })
    };
    let g = two.eval(i, guess)?;
    let mut lo = g.l().max(p0.l());
    let mut hi = g.term[i].max(g.term[j]).checked_add(U256::one())?;
    if lo >= hi || !feasible(lo)? {
        return None;
    }
    while hi.checked_sub(lo)? > U256::one() {
        #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
        let mid = lo.checked_add(hi.checked_sub(lo)? >> 1)?;
        if feasible(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let best = lo;
    if best.is_zero() {
        return None;
    }
    let sl = U256::try_from(s_min(best)?).ok()?;
    let p = if sl.is_zero() { *p0 } else { two.eval(i, sl)? };
    if p.l() != best {
        return None;
    }
    if !sl.is_zero() && two.eval(i, sl.checked_sub(U256::one())?)?.l() >= best {
        return None;
    }
    let z = checked(two, i, &p, careful)?;
    Some(keep_most(two, i, best, (p, z), false, careful))
}

/// A plan of [`native_search`]: sell `s` of coin `i` (every quantity below 2^128).
#[derive(Debug, Clone, Copy)]
struct Np {
    s: u128,
    out: u128,
    /// post-swap reserve of coin `i` (coin `j`'s is `r_j − out`)
    ri: u128,
    /// supply the mint uses
    t: u128,
    /// the coin-`i` term `A(s) = floor(h_i·T/r_i)`
    a: u128,
    /// the coin-`j` term `B(s) = floor(h_j·T/r_j)`
    b: u128,
}

impl Np {
    fn l(&self) -> u128 {
        self.a.min(self.b)
    }
}

/// [`Two::eval`] for x·y pools (constant-product and solidly volatile) in native `u128`
/// arithmetic, for one direction `i`. A `Pt` is nine `U256`s and each evaluation of the
/// general search moves several of them; here a plan is six `u128`s.
struct Native<'a, 'b> {
    two: &'a Two<'b>,
    i: usize,
    j: usize,
    ri: u128,
    rj: u128,
    ai: u128,
    aj: u128,
    ts: u128,
    /// solidly: the fee in bps, which leaves the pool; constant product: `None`
    fee_bps: Option<u128>,
}

/// `[v_i, v_j]` in coin order.
fn by_coin(i: usize, vi: U256, vj: U256) -> [U256; 2] {
    if i == 0 {
        [vi, vj]
    } else {
        [vj, vi]
    }
}

impl<'a, 'b> Native<'a, 'b> {
    /// `None` for stable pools or when a reserve, an amount or the supply is not below 2^128.
    fn new(two: &'a Two<'b>, i: usize) -> Option<Self> {
        let j = other(i);
        let n = |x: Option<&U256>| x.and_then(to_u128);
        let fee_bps = match two.kind {
            Kind::V2 { .. } => None,
            Kind::Solidly {
                fee_bps,
                stable: false,
                ..
            } => Some(to_u128(&fee_bps)?),
            Kind::Solidly { stable: true, .. } => return None,
        };
        Some(Self {
            two,
            i,
            j,
            ri: n(two.r.get(i))?,
            rj: n(two.r.get(j))?,
            ai: n(two.a.get(i))?,
            aj: n(two.a.get(j))?,
            ts: to_u128(&two.ts)?,
            fee_bps,
        })
    }

    /// The plan selling `s`: the same values as [`Two::eval`] (the pool's own quote, the same
    /// floors), or `None` where `eval` returns `None` or a value does not fit 128 bits.
    fn eval(&self, s: u128) -> Option<Np> {
        let out = if s == 0 {
            0
        } else {
            let out = self
                .two
                .pool
                .amount_out(self.i, self.j, U256::from(s))
                .ok()?;
            to_u128(&out)?
        };
        if out >= self.rj || s > self.ai {
            return None;
        }
        let hi = self.ai.checked_sub(s)?;
        let hj = self.aj.checked_add(out)?;
        let ri = match self.fee_bps {
            None => self.ri.checked_add(s)?,
            Some(f) => self
                .ri
                .checked_add(s.checked_sub(mul_div_128(s, f, 10_000)?)?)?,
        };
        let rj = self.rj.checked_sub(out)?;
        let t = match self.two.root_k_last {
            None => self.ts,
            Some(_) => {
                let r = by_coin(self.i, U256::from(ri), U256::from(rj));
                to_u128(&v2_mint_supply(self.two.ts, self.two.root_k_last, r).ok()?)?
            }
        };
        Some(Np {
            s,
            out,
            ri,
            t,
            a: mul_div_128(hi, t, ri)?,
            b: mul_div_128(hj, t, rj)?,
        })
    }

    /// The last point where `pred` fails and the first where it holds, by bisection between
    /// `lo` (fails) and `hi` (holds); `pred` fails then holds along `s`.
    fn bisect(&self, mut lo: Np, mut hi: Np, pred: impl Fn(&Np) -> bool) -> Option<(Np, Np)> {
        while let Some(gap) = hi.s.checked_sub(lo.s).filter(|g| *g > 1) {
            // lo.s + gap/2 < hi.s
            let p = self.eval(lo.s.saturating_add(gap.checked_shr(1)?))?;
            if pred(&p) {
                hi = p;
            } else {
                lo = p;
            }
        }
        Some((lo, hi))
    }

    /// [`Self::bisect`] from a point `hi` where `pred` holds, galloping down (steps 1, 2, 4…)
    /// to a point where it fails; `None` when it holds down to `s = 0`.
    fn down(&self, mut hi: Np, pred: impl Fn(&Np) -> bool) -> Option<(Np, Np)> {
        let mut step = 1u128;
        loop {
            let x = hi.s.saturating_sub(step);
            let q = self.eval(x)?;
            if !pred(&q) {
                return self.bisect(q, hi, pred);
            }
            if x == 0 {
                return None;
            }
            hi = q;
            step = step.saturating_mul(2);
        }
    }

    /// [`Self::bisect`] from a point `lo` where `pred` fails, galloping up to a point where it
    /// holds, at most `a_i`; `None` when it fails up to `a_i`.
    fn up(&self, mut lo: Np, pred: impl Fn(&Np) -> bool) -> Option<(Np, Np)> {
        let mut step = 1u128;
        loop {
            let x = lo.s.saturating_add(step).min(self.ai);
            let q = self.eval(x)?;
            if pred(&q) {
                return self.bisect(lo, q, pred);
            }
            if x == self.ai {
                return None;
            }
            lo = q;
            step = step.saturating_mul(2);
        }
    }

    /// The plan as the general search's point.
    fn pt(&self, p: &Np) -> Pt {
        let u = U256::from;
        Pt {
            s: u(p.s),
            out: u(p.out),
            // eval checked: out < r_j, s ≤ a_i, a_j + out fits
            r: by_coin(self.i, u(p.ri), u(self.rj.saturating_sub(p.out))),
            t: u(p.t),
            h: by_coin(
                self.i,
                u(self.ai.saturating_sub(p.s)),
                u(self.aj.saturating_add(p.out)),
            ),
            term: by_coin(self.i, u(p.a), u(p.b)),
        }
    }
}

/// The general search's answer for x·y pools (constant-product and solidly volatile), reached
/// in native arithmetic with a handful of evaluations, or `None` to leave it to the general
/// search.
///
/// `cross(s)` (`A(s) ≤ B(s)`) fails below the crossing and holds from it on (`A` does not
/// increase, `B` does not decrease), so the adjacent pair `lo = hi − 1` with `cross(lo)` false
/// and `cross(hi)` true is unique: it is found by galloping from the float guess, which
/// usually lands within a unit of it (two evaluations), then bisecting. The maximum mint is
/// `max(B(lo), A(hi))`, at `lo` on a tie as the general search takes it. The plateau's left
/// end is the first `s` with `B(s) ≥ best`: `hi` when the best is `A(hi)` (`B(lo)` is below
/// it), else found the same way down from `lo` (`B(0) < best`). When the next point right of
/// that end mints less, the plateau is one point and [`keep_most`] would keep its first point:
/// that is the answer. A wider plateau is handed to [`keep_most`] itself. A value that does
/// not fit 128 bits or an evaluation that fails returns `None`.
fn native_search(two: &Two<'_>, i: usize, p0: &Pt, guess: U256) -> Option<Pt> {
    let nat = Native::new(two, i)?;
    let g = to_u128(&guess)?;
    // As the general bracket: a guess strictly inside (0, a_i).
    if g == 0 || g >= nat.ai {
        return None;
    }
    let cross = |p: &Np| p.a <= p.b;
    let start = nat.eval(g)?;
    let (lo, hi) = if cross(&start) {
        nat.down(start, cross)?
    } else {
        nat.up(start, cross)?
    };
    // L(lo) = B(lo) < A(lo) and L(hi) = A(hi) ≤ B(hi).
    let top_is_lo = lo.b >= hi.a;
    let best = if top_is_lo { lo.b } else { hi.a };
    if best == 0 {
        return None;
    }
    let best_u = U256::from(best);
    if p0.l() >= best_u {
        return checked(two, i, p0, false);
    }
    // The plateau's left end: the first s with B(s) ≥ best. At s = 0, L = B(0) = p0.l() < best.
    let left = if top_is_lo {
        nat.down(lo, |p: &Np| p.b >= best)?.1
    } else {
        hi
    };
    if left.l() < best {
        return None;
    }
    let pt = nat.pt(&left);
    // keep_most: the plan right of the left end (within a_i: left < hi ≤ a_i − 1 or left = hi).
    let next = if left.s == lo.s {
        Some(hi)
    } else {
        left.s.checked_add(1).and_then(|s| nat.eval(s))
    };
    match next {
        Some(q) if q.l() < best => Some(pt),
        _ => Some(keep_most(two, i, best_u, (pt, pt), false, false)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
    use super::*;
    use crate::pool::{ConstantProduct, Solidly};
    use proptest::prelude::*;

    /// An x·y pool: 0 constant product, 1 constant product with the protocol fee on, 2 solidly
    /// volatile. `fee` picks the fee.
    fn xy_pool(kind: u8, r: [U256; 2], ts: U256, fee: usize, k_div: u8) -> Pool {
        let (num, den) = [(3, 1000), (25, 10_000), (0, 1000), (1, 100)][fee % 4];
        match kind {
            0 => Pool::ConstantProduct(ConstantProduct::new(r, num, den, ts).unwrap()),
            1 => Pool::ConstantProduct(
                ConstantProduct::new(r, num, den, ts)
                    .unwrap()
                    .with_protocol_fee(r[0] * r[1] / U256::from(k_div.max(1)), true),
            ),
            _ => Pool::Solidly(
                Solidly::new(r, [18, 18], false, [1u32, 5, 30, 100][fee % 4], ts).unwrap(),
            ),
        }
    }

    /// Whether [`native_search`] answers for this zap (it may leave it to the general search).
    fn native_answers(pool: &Pool, a: [U256; 2]) -> bool {
        let kind = kind_of(pool).unwrap();
        let b = pool.balances();
        let two = Two {
            pool,
            holes: core::cell::Cell::new(0),
            r: [b[0], b[1]],
            ts: pool.total_supply(),
            kind,
            a,
            root_k_last: v2_root_k_last(kind),
            native: true,
        };
        let Some(p0) = two.eval(0, U256::zero()) else {
            return false;
        };
        let i = usize::from(p0.term[1] > p0.term[0]);
        guess_of(&two, i).is_some_and(|g| native_search(&two, i, &p0, g).is_some())
    }

    /// A value of up to `bits` bits, its bit length spread out.
    fn spread(bits: u32) -> impl Strategy<Value = U256> {
        (1u64.., 0..=bits.saturating_sub(64)).prop_map(|(m, s)| U256::from(m) << s)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        /// The native search is a shortcut, never another answer: on constant-product (protocol
        /// fee off and on) and solidly volatile pools of every size, with inputs from dust to
        /// several times the reserves, in either or both coins, the zap with it equals the
        /// general search's zap in every field (swap, minted, deposit, leftover, rebalance) and
        /// error.
        #[test]
        fn native_search_matches_general_search(
            kind in 0u8..3,
            r0 in spread(112),
            r1 in spread(112),
            ts in spread(128),
            fee in 0usize..4,
            k_div in 1u8..8,
            // amounts relative to the reserves (the range where the native search answers)
            // or absolute
            rel in any::<bool>(),
            x0 in 0u64..=u64::MAX,
            x1 in 0u64..=u64::MAX,
            zero in 0u8..3,
        ) {
            let pool = xy_pool(kind, [r0, r1], ts, fee, k_div);
            let amt = |r: U256, x: u64| {
                if rel {
                    // up to 4× the reserve, from about 2^-64 of it
                    r * U256::from(x) / (U256::from(u64::MAX) / U256::from(4u8))
                } else {
                    U256::from(x >> (x % 64))
                }
            };
            let mut a = [amt(r0, x0), amt(r1, x1)];
            if zero < 2 {
                a[usize::from(zero)] = U256::zero();
            }
            let cfg = ZapConfig::exact();
            let fast = zap_in_with(&pool, &a, &cfg, true);
            let general = zap_in_with(&pool, &a, &cfg, false);
            prop_assert_eq!(fast, general, "{:?} {:?}", pool, a);
        }
    }

    /// The native search answers the usual zaps itself (else the comparison above would test
    /// little): one-sided and two-sided inputs of 0.001 % to 10 % of a pool whose reserves are
    /// within 100× of each other and of the supply (`√(r0·r1)`, as a first mint sets it), on
    /// every x·y kind. Reserves far above the supply make wide plateaus, which are left to the
    /// general search (and to [`v2_closed_form`]).
    #[test]
    fn native_search_answers_usual_zaps() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut asked, mut answered) = (0u32, 0u32);
        for case in 0..600u32 {
            let r0 = U256::from(next() >> 8) * U256::exp10((next() % 8) as usize);
            let r1 = r0 * U256::from(next() % 10_000 + 1) / U256::from(100u8);
            let ts = sqrt(r0 * r1);
            let pool = xy_pool((case % 3) as u8, [r0, r1], ts, case as usize / 3, 2);
            let frac = |r: U256, n: u64| r * U256::from(n % 100_000 + 1) / U256::from(1_000_000);
            let a = [frac(r0, next()), frac(r1, next()) * U256::from(case % 2)];
            asked += 1;
            answered += u32::from(native_answers(&pool, a));
            let cfg = ZapConfig::exact();
            assert_eq!(
                zap_in_with(&pool, &a, &cfg, true),
                zap_in_with(&pool, &a, &cfg, false),
                "case {case}"
            );
        }
        assert!(answered * 10 >= asked * 9, "{answered} of {asked}");
    }
}
