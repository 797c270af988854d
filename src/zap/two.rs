//! The two-coin optimiser: constant-product (Uniswap V2) and solidly (volatile and stable).
//!
//! Notation: the user sells `s` of coin `i` for coin `j`; `h` are the holdings after the swap,
//! `r` the post-swap reserves, `T` the supply the mint uses. The mint is
//! `L(s) = min(A(s), B(s))` with `A(s) = floor(h_i·T/r_i)` (does not increase with `s`) and
//! `B(s) = floor(h_j·T/r_j)` (does not decrease). See the module docs of [`super`].

use super::{ppm, to_f64, Rebalance, ZapConfig, ZapIn, ZapSwap};
use crate::error::{PoolError, ZapError};
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
        Pool::StableSwap(_) => Err(ZapError::Unsupported("not a two-coin x·y pool")),
    }
}

/// Uniswap V2 `_mintFee`: the supply after the protocol-fee mint on reserves `r`.
fn v2_mint_supply(ts: U256, k_last: U256, fee_on: bool, r: [U256; 2]) -> Result<U256, ZapError> {
    if !fee_on || k_last.is_zero() {
        return Ok(ts);
    }
    let root_k = sqrt(mul(r[0], r[1])?);
    let root_k_last = sqrt(k_last);
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
            Kind::V2 { k_last, fee_on, .. } => v2_mint_supply(self.ts, k_last, fee_on, r).ok()?,
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
            -2.0 * c / (beta + super::fsqrt(beta * beta - 4.0 * alpha * c))
        }
        // Solidly volatile, in y = (1−φ)x: out = y·r_j/(r_i + y), r_i' = r_i + y, h_i = a_i − y/(1−φ).
        // (a_j+r_j)/r_i·y² + (2a_j + r_j + r_j/(1−φ))·y + (a_j·r_i − a_i·r_j) = 0.
        None => {
            let k = 1.0 / (1.0 - fee_out);
            let alpha = (aj + rj) / ri;
            let beta = 2.0 * aj + rj + k * rj;
            let c = aj * ri - ai * rj;
            let y = -2.0 * c / (beta + super::fsqrt(beta * beta - 4.0 * alpha * c));
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
        let sc = |k: usize| super::pow10(18 - *dec.get(k).unwrap_or(&18) as i32);
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
            let s0 = super::pow10(18 - dec[0] as i32);
            let s1 = super::pow10(18 - dec[1] as i32);
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
    let ok = match two.pool {
        Pool::ConstantProduct(c) => strict_in(c, i, p),
        Pool::Solidly(c) => strict_in(c, i, p),
        Pool::StableSwap(_) => None,
    };
    ok.map(|()| *p)
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

fn strict_in<F: Fam>(pool: &F, i: usize, p: &Pt) -> Option<()> {
    let l = p.l();
    if l.is_zero() {
        return None;
    }
    let (dep, _) = deposit_of(p, l).ok()?;
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
    (minted == l).then_some(())
}

/// The result for a plan: re-run once more on the family types ([`strict`]), then described.
fn materialize(two: &Two<'_>, i: usize, p: &Pt) -> Option<ZapIn> {
    let p = strict(two, i, p)?;
    let l = p.l();
    let j = other(i);
    let swap = (!p.s.is_zero()).then_some(ZapSwap {
        from: i,
        to: j,
        amount_in: p.s,
        amount_out: p.out,
    });
    let (dep, left) = deposit_of(&p, l).ok()?;
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

/// Search direction `i` (the coin in excess at `s = 0`): the maximum mint and the smallest
/// swap reaching it, checked strictly.
fn search(two: &Two<'_>, i: usize, j: usize, p0: &Pt, careful: bool) -> Option<Pt> {
    let ai = *two.a.get(i)?;
    let stable = matches!(two.kind, Kind::Solidly { stable: true, .. });
    let cross = |p: &Pt| p.term[i] <= p.term[j];
    let guess = match two.kind {
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
    .map(|g| super::from_f64_clamped(g, ai));
    if let Some(z) = guess.and_then(|g| v2_closed_form(two, i, j, p0, g, careful)) {
        return Some(z);
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
    // The maximum is at the crossing: B(lo) or A(hi).
    let mut cands: alloc::vec::Vec<Pt> = alloc::vec![lo, hi];
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
                cands.push(p);
            }
            s = s.saturating_add(U256::one());
            if s.is_zero() {
                break;
            }
        }
    }
    let best = cands.iter().map(Pt::l).max()?;
    if best.is_zero() {
        return None;
    }
    // The smallest evaluated point reaching `best`.
    let top = cands
        .iter()
        .filter(|p| p.l() == best)
        .min_by_key(|p| p.s)
        .copied()?;
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
            let fl = super::from_f64_clamped(v, U256::MAX);
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
    let Some(mut key) = value_key(two.kind, &p) else {
        return chosen;
    };
    let ai = two.a.get(i).copied().unwrap_or_default();
    let n = if matches!(two.kind, Kind::Solidly { stable: true, .. }) {
        KEEP_SCAN_STABLE
    } else {
        KEEP_SCAN
    };
    let consider = |q: &Pt, chosen: &mut Pt, key: &mut (U256, f64)| {
        if q.l() < best {
            return;
        }
        let Some(k) = value_key(two.kind, q) else {
            return;
        };
        if k.0 > key.0 || (k.0 == key.0 && k.1 > key.1) {
            if let Some(z) = checked(two, i, q, careful) {
                *chosen = z;
                *key = k;
            }
        }
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
        consider(&q, &mut chosen, &mut key);
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
            consider(&q, &mut chosen, &mut key);
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
