//! A float model of Curve's `exchange` and `add_liquidity` (classic, 3pool and NG fees), in
//! xp units. It only guides the search: which ordered pair to swap and roughly how much. Every
//! amount of a plan comes from the exact pool types.
#![allow(clippy::arithmetic_side_effects)] // f64 arithmetic throughout: no traps, a guide only

use crate::math::float::to_f64;
use crate::pool::stableswap::{StableSwap, Variant};
use smallvec::SmallVec;

type Xs = SmallVec<[f64; 4]>;

fn fabs(x: f64) -> f64 {
    if x < 0.0 {
        -x
    } else {
        x
    }
}

/// The float pool: xp balances and the fee parameters.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    n: usize,
    xp: Xs,
    /// xp of one raw unit per coin (`rate/1e18`)
    unit: Xs,
    /// `A` (`amp / A_PRECISION`) times n
    ann: f64,
    fee: f64,
    admin: f64,
    /// NG off-peg multiplier over 1e10; 0 when the dynamic fee is off
    m: f64,
    ts: f64,
    d0: f64,
}

impl Model {
    pub(crate) fn new(p: &StableSwap) -> Option<Self> {
        let n = p.n_coins();
        let unit: Xs = p.rates().iter().map(|r| to_f64(*r) / 1e18).collect();
        let xp: Xs = p
            .balances()
            .iter()
            .zip(&unit)
            .map(|(b, u)| to_f64(*b) * u)
            .collect();
        let a = to_f64(p.a_precise()) / to_f64(p.variant().a_precision());
        #[allow(clippy::cast_precision_loss)] // n ≤ 8
        let nf = n as f64;
        let off = to_f64(p.offpeg_fee_multiplier()) / 1e10;
        let m = if p.variant() == Variant::Ng && off > 1.0 {
            off
        } else {
            0.0
        };
        let mut me = Self {
            n,
            xp,
            unit,
            ann: a * nf,
            fee: to_f64(p.fee()) / 1e10,
            admin: to_f64(p.admin_fee()) / 1e10,
            m,
            ts: to_f64(p.total_supply()),
            d0: 0.0,
        };
        if me.xp.iter().any(|x| *x <= 0.0) || me.ts <= 0.0 {
            return None;
        }
        let xp = me.xp.clone();
        me.d0 = me.d(&xp);
        me.d0.is_finite().then_some(me)
    }

    /// xp of one raw unit of coin `k`.
    pub(crate) fn unit(&self, k: usize) -> f64 {
        self.unit.get(k).copied().unwrap_or(1.0)
    }

    #[allow(clippy::cast_precision_loss)] // n ≤ 8
    fn nf(&self) -> f64 {
        self.n as f64
    }

    fn d(&self, x: &[f64]) -> f64 {
        self.d_from(x, 0.0)
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
            for _ in 0..self.n {
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
        if self.m <= 0.0 {
            return f;
        }
        let s = xi + xj;
        self.m * f / ((self.m - 1.0) * 4.0 * xi * xj / (s * s) + 1.0)
    }

    /// Minted LP (float) for exchanging `s` raw units of `i` into `j` first (none when `s` is
    /// 0), then adding `a` (raw units) as held.
    pub(crate) fn minted(&self, a: &[f64], i: usize, j: usize, s: f64) -> f64 {
        let mut xp = self.xp.clone();
        let mut h: Xs = a.iter().zip(&self.unit).map(|(v, u)| v * u).collect();
        let mut d0 = self.d0;
        if s > 0.0 && i != j && i < self.n && j < self.n {
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
        self.ts * (d2 - d0) / d0
    }
}

/// A coarse float scan of the ordered pair `(i, j)`: the best grid point `(s, minted)` and its
/// bracket `(lo, hi)`. The model is not concave along a pair (low `A`, drained coins), so a
/// grid comes before any local search.
pub(crate) fn scan_pair(md: &Model, a: &[f64], i: usize, j: usize) -> Option<(f64, f64, f64, f64)> {
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
pub(crate) fn refine(md: &Model, a: &[f64], i: usize, j: usize, lo: f64, hi: f64) -> (f64, f64) {
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
