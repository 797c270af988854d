//! [`Strategy::Native`](crate::zap::Strategy::Native): the general search's answer for x·y
//! pools (constant-product and solidly volatile) in native `u128` arithmetic, when every value
//! fits.
//!
//! The same best mint always; the same plan too, except on one tie: with Uniswap V2's protocol
//! fee on, the mint supply moves a unit up and down along the best mint's plateau (the floor of
//! `√k`), the plateau has holes, and which of its equal-mint plans is kept depends on where the
//! galloping lands (a few units of leftover apart).

use super::plateau::keep_most;
use super::strict::checked;
use super::{other, v2_mint_supply, Kind, Pt, Two};
use crate::math::wide::{mul_div_128, to_u128};
use primitive_types::U256;

/// A plan of [`search`]: sell `s` of coin `i` (every quantity below 2^128).
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
pub(super) fn search(two: &Two<'_>, i: usize, p0: &Pt, guess: U256) -> Option<Pt> {
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
