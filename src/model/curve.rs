//! The float model of a Curve stable-swap pool, one for the router and the zaps: balances in
//! coin units (`xp`, base units × rate / 1e36), `A·n`, the fee and the invariant `D`, plus the
//! LP side a zap needs (admin fee, NG off-peg multiplier, LP supply). The router reads directed
//! edges off it ([`super::FloatPool::edge`]); a zap asks what `exchange` then `add_liquidity`
//! would mint (`Curve::minted`, classic, 3pool and NG fees). It only guides searches: which
//! ordered pair to swap and roughly how much. Every amount of a plan comes from the exact pool
//! types.
#![allow(clippy::arithmetic_side_effects)] // f64 arithmetic throughout: no traps, a guide only

use super::{stable_d, FamilyParams};
use crate::math::float::to_f64;
use crate::pool::stableswap::{StableSwap, Variant};
use primitive_types::U256;
use smallvec::SmallVec;

type Xs = SmallVec<[f64; 4]>;

fn fabs(x: f64) -> f64 {
    if x < 0.0 {
        -x
    } else {
        x
    }
}

/// A Curve pool as floats, on one state.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// normalised balances (coin units)
    pub(crate) xp: Xs,
    /// coin units per base unit of each coin (rate / 1e36)
    pub(crate) conv: Xs,
    /// `A·n`
    pub(crate) ann: f64,
    /// fee fraction
    pub(crate) fee: f64,
    /// invariant
    pub(crate) d: f64,
    /// admin fee fraction (0 when unknown)
    admin: f64,
    /// NG off-peg multiplier over 1e10; 0 when the dynamic fee is off
    offpeg: f64,
    /// LP supply (0 when unknown)
    supply: f64,
}

impl Curve {
    /// The model of a pool of amplification `amp` (`A`), fee fraction `fee` and rates `conv`
    /// (rate / 1e36 per coin) on `balances` (base units), without the LP side.
    #[must_use]
    pub fn new(amp: f64, fee: f64, conv: &[f64], balances: &[U256]) -> Self {
        let b = |k: usize| balances.get(k).map_or(0.0, |v| to_f64(*v));
        let xp: Xs = conv.iter().enumerate().map(|(k, c)| b(k) * c).collect();
        let ann = amp * xp.len() as f64;
        let d = stable_d(&xp, ann);
        Curve {
            xp,
            conv: conv.iter().copied().collect(),
            ann,
            fee,
            d,
            admin: 0.0,
            offpeg: 0.0,
            supply: 0.0,
        }
    }

    /// The model of an exact Curve pool with its LP side (`None` for an empty coin, no LP
    /// supply or an invariant that is not finite): for zaps.
    #[must_use]
    pub fn of_pool(p: &StableSwap) -> Option<Self> {
        let (amp, fee, conv) = FamilyParams::curve_parts(p);
        let off = to_f64(p.offpeg_fee_multiplier()) / 1e10;
        let me = Curve {
            admin: to_f64(p.admin_fee()) / 1e10,
            offpeg: if p.variant() == Variant::Ng && off > 1.0 {
                off
            } else {
                0.0
            },
            supply: to_f64(p.total_supply()),
            ..Curve::new(amp, fee, &conv, p.balances())
        };
        let ok = me.xp.iter().all(|x| *x > 0.0) && me.supply > 0.0 && me.d.is_finite();
        ok.then_some(me)
    }

    /// Coin units of one base unit of coin `k`.
    pub(crate) fn unit(&self, k: usize) -> f64 {
        self.conv.get(k).copied().unwrap_or(1.0)
    }

    #[allow(clippy::cast_precision_loss)] // n ≤ 8
    fn nf(&self) -> f64 {
        self.xp.len() as f64
    }

    /// `D` by Newton from `start` (a nearby `D`, scaled by the balance sums), or from the sum.
    fn d_from(&self, x: &[f64], start: f64) -> f64 {
        let nf = self.nf();
        let s: f64 = x.iter().sum();
        if s <= 0.0 {
            return 0.0;
        }
        let mut d = if start > 0.0 && start.is_finite() {
            start
        } else {
            s
        };
        let mut prod = 1.0;
        for xk in x {
            prod *= xk * nf;
        }
        for _ in 0..64 {
            // D_P = D^(n+1) / (n^n Π x), in one product (fine in f64 for n ≤ 8 and sane sizes).
            let mut dp = d;
            for _ in 0..self.xp.len() {
                dp *= d;
            }
            dp /= prod;
            if !dp.is_finite() {
                // fall back to the contract's incremental form
                dp = d;
                for xk in x {
                    dp = dp * d / (xk * nf);
                }
            }
            let prev = d;
            d = (self.ann * s + dp * nf) * d / ((self.ann - 1.0) * d + (nf + 1.0) * dp);
            if fabs(d - prev) <= d * 1e-14 {
                break;
            }
        }
        d
    }

    /// `get_y`: the balance of `j` that keeps `d` with coin `i` at `x` (others as in `xp`).
    fn y(&self, i: usize, j: usize, x: f64, xp: &[f64], d: f64) -> f64 {
        let nf = self.nf();
        let mut c = d;
        let mut s = 0.0;
        for (k, xk) in xp.iter().enumerate() {
            if k == j {
                continue;
            }
            let v = if k == i { x } else { *xk };
            s += v;
            c = c * d / (v * nf);
        }
        c = c * d / (self.ann * nf);
        let b = s + d / self.ann;
        let mut y = d;
        for _ in 0..64 {
            let prev = y;
            y = (y * y + c) / (2.0 * y + b - d);
            if fabs(y - prev) <= y * 1e-15 {
                break;
            }
        }
        y
    }

    fn dyn_fee(&self, xi: f64, xj: f64, f: f64) -> f64 {
        if self.offpeg <= 0.0 {
            return f;
        }
        let s = xi + xj;
        self.offpeg * f / ((self.offpeg - 1.0) * 4.0 * xi * xj / (s * s) + 1.0)
    }

    /// Minted LP (float) for exchanging `s` raw units of `i` into `j` first (none when `s` is
    /// 0), then adding `a` (raw units) as held.
    pub(crate) fn minted(&self, a: &[f64], i: usize, j: usize, s: f64) -> f64 {
        let mut xp = self.xp.clone();
        let mut h: Xs = a.iter().zip(&self.conv).map(|(v, u)| v * u).collect();
        let mut d0 = self.d;
        let n = self.xp.len();
        if s > 0.0 && i != j && i < n && j < n {
            let dx = s * self.unit(i);
            let x = xp[i] + dx;
            let y = self.y(i, j, x, &xp, d0);
            let dy = xp[j] - y;
            let f = self.dyn_fee((xp[i] + x) / 2.0, (xp[j] + y) / 2.0, self.fee);
            let fee = dy * f;
            let out = dy - fee;
            xp[j] -= out + fee * self.admin;
            xp[i] = x;
            h[i] -= dx;
            h[j] += out;
            d0 = self.d_from(&xp, d0);
        }
        let new: Xs = xp.iter().zip(&h).map(|(x, v)| x + v).collect();
        let s_old: f64 = xp.iter().sum();
        let s_new: f64 = new.iter().sum();
        let d1 = self.d_from(&new, d0 * s_new / s_old);
        let nf = self.nf();
        let base = self.fee * nf / (4.0 * (nf - 1.0));
        let ys = (d0 + d1) / nf;
        let after: Xs = xp
            .iter()
            .zip(&new)
            .map(|(old, nw)| {
                let ideal = d1 * old / d0;
                let f = self.dyn_fee(old + nw, ys, base);
                nw - f * fabs(ideal - nw)
            })
            .collect();
        let d2 = self.d_from(&after, d1);
        self.supply * (d2 - d0) / d0
    }
}

/// A coarse float scan of the ordered pair `(i, j)`: the best grid point `(s, minted)` and its
/// bracket `(lo, hi)`. The model is not concave along a pair (low `A`, drained coins), so a
/// grid comes before any local search.
pub(crate) fn scan_pair(md: &Curve, a: &[f64], i: usize, j: usize) -> Option<(f64, f64, f64, f64)> {
    let ai = *a.get(i)?;
    if ai <= 0.0 {
        return None;
    }
    // Only a coin the deposit holds relatively more of than the pool can gain by being sold
    // into one it holds relatively less of.
    let share = |k: usize| {
        a.get(k).copied().unwrap_or(0.0) * md.unit(k) / md.xp.get(k).copied().unwrap_or(1.0)
    };
    if share(i) <= share(j) {
        return None;
    }
    let mut pts: SmallVec<[f64; 16]> = SmallVec::new();
    for k in 1..=6u8 {
        pts.push(ai * f64::from(k) / 6.0);
    }
    for k in [1e-3, 1e-2, 0.05] {
        pts.push(ai * k);
    }
    pts.sort_by(f64::total_cmp);
    let mut best = (0usize, f64::NEG_INFINITY);
    for (k, s) in pts.iter().enumerate() {
        let f = md.minted(a, i, j, *s);
        if f > best.1 {
            best = (k, f);
        }
    }
    let s = *pts.get(best.0)?;
    let lo = best
        .0
        .checked_sub(1)
        .and_then(|k| pts.get(k))
        .copied()
        .unwrap_or(0.0);
    let hi = pts.get(best.0 + 1).copied().unwrap_or(ai);
    Some((s, best.1, lo, hi))
}

/// Golden-section refinement of a pair's float optimum inside `[lo, hi]`: `(s, minted)`.
pub(crate) fn refine(md: &Curve, a: &[f64], i: usize, j: usize, lo: f64, hi: f64) -> (f64, f64) {
    let g = 0.618_033_988_749_894_9;
    let (mut lo, mut hi) = (lo, hi);
    let width = hi - lo;
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let mut f1 = md.minted(a, i, j, x1);
    let mut f2 = md.minted(a, i, j, x2);
    for _ in 0..32 {
        if hi - lo <= width * 1e-5 {
            break;
        }
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = md.minted(a, i, j, x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = md.minted(a, i, j, x1);
        }
    }
    if f1 >= f2 {
        (x1, f1)
    } else {
        (x2, f2)
    }
}
