//! Float models of the pool families, for the search only (never for an amount in a plan).
//!
//! Each directed pool edge (pool, coin i → coin j) becomes an [`EdgeModel`] on the pool's
//! current state with four questions: the rate at zero size, the output for an input, and the
//! *arbitrage* `max_x ν_j·out(x) − ν_i·x` for token prices ν (its optimal input, output and the
//! first two derivatives of `out` there, for the dual Hessian).
//!
//! * x·y = k (constant product, solidly volatile): closed form `R_in + γx = √(γ R_in R_out ν_j/ν_i)`.
//! * solidly stable (x³y + xy³ = k): the marginal price is `p(r) = (3r + r³)/(1 + 3r²)` at
//!   `r = y/x`; `p(r) = P` has the closed form `r = (1 − c)/(1 + c)`, `c = ∛((1 − P)/(1 + P))`,
//!   and the point on the curve is `x = (k / (r(1 + r²)))^¼`.
//! * Curve stable-swap: the other balance `y(u)` from the invariant's quadratic, the marginal
//!   `m(u) = (Ann + K/u)/(Ann + K/y)` with `K = D^(n+1)/(n^n u y Π_others)`, and a safeguarded
//!   Newton solve of `m(u) = P`.
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![allow(clippy::arithmetic_side_effects)] // f64 arithmetic only: no overflow traps

pub mod cl;
pub mod curve;
pub(crate) mod joint;
pub(crate) mod tangent;

use crate::math::float::{cbrt, pow10, sqrt, to_f64};
use crate::pool::Pool;
use alloc::boxed::Box;
pub use cl::ClEdge;
pub use curve::Curve;
use primitive_types::U256;
use smallvec::SmallVec;

/// The fixed (state-independent) parameters of a pool's float model.
#[derive(Debug, Clone, PartialEq)]
pub enum FamilyParams {
    /// Uniswap V2 style, fee kept in the pool.
    Cp {
        /// 1 − fee
        gamma: f64,
    },
    /// Solidly volatile: x·y = k on the post-fee input; the fee leaves the pool.
    SolidlyVolatile {
        /// 1 − fee
        gamma: f64,
    },
    /// Solidly stable.
    SolidlyStable {
        /// 1 − fee
        gamma: f64,
        /// decimals of both coins
        decimals: [u8; 2],
    },
    /// Curve stable-swap.
    Stable {
        /// A (= a / a_precision)
        amp: f64,
        /// fee as a fraction
        fee: f64,
        /// base unit → coin unit (rate / 1e36) per coin
        conv: SmallVec<[f64; 4]>,
    },
    /// Concentrated liquidity (Uniswap V3 and Orca Whirlpool): the model is built from the
    /// pool state itself, its ticks ([`FloatPool::for_pool`]).
    ConcentratedLiquidity,
}

impl FamilyParams {
    /// Stable-swap parameters from the snapshot's integers.
    #[must_use]
    pub fn stable(a: U256, a_precision: U256, fee: U256, rates: &[U256]) -> Self {
        let (amp, fee, conv) = stable_parts(a, a_precision, fee, rates);
        FamilyParams::Stable { amp, fee, conv }
    }

    /// The stable-swap parameters of an exact Curve pool: `(A, fee fraction, base unit →
    /// coin unit per coin)`, as [`FamilyParams::stable`] makes them from its integers.
    #[must_use]
    pub fn curve_parts(p: &crate::pool::StableSwap) -> (f64, f64, SmallVec<[f64; 4]>) {
        stable_parts(p.a_precise(), p.variant().a_precision(), p.fee(), p.rates())
    }
}

/// `A`, the fee as a fraction and the per-coin conversions from a stable-swap pool's integers.
fn stable_parts(
    a: U256,
    a_precision: U256,
    fee: U256,
    rates: &[U256],
) -> (f64, f64, SmallVec<[f64; 4]>) {
    (
        to_f64(a) / to_f64(a_precision),
        to_f64(fee) / 1e10,
        rates.iter().map(|r| to_f64(*r) / 1e36).collect(),
    )
}

/// A pool's float model on one state.
#[derive(Debug, Clone, PartialEq)]
pub enum FloatPool {
    /// x·y = k (constant product or solidly volatile).
    Cp {
        /// reserves
        r: [f64; 2],
        /// 1 − fee
        gamma: f64,
        /// whether the fee stays in the pool
        fee_kept: bool,
    },
    /// Solidly stable, reserves in whole-token units.
    SolStable {
        /// reserves / 10^decimals
        x: [f64; 2],
        /// 10^decimals
        scale: [f64; 2],
        /// 1 − fee
        gamma: f64,
    },
    /// Curve stable-swap (and Saber).
    Stable(Curve),
    /// Concentrated liquidity (and Whirlpool): each direction's curve, constant product
    /// between ticks.
    Cl([Option<ClEdge>; 2]),
}

/// Curve invariant D for normalised balances (Newton as in the contracts, in floats).
#[must_use]
pub fn stable_d(xp: &[f64], ann: f64) -> f64 {
    let n = xp.len() as f64;
    let s: f64 = xp.iter().sum();
    if s <= 0.0 {
        return 0.0;
    }
    let mut d = s;
    for _ in 0..255 {
        let mut dp = d;
        for x in xp {
            dp = dp * d / (x * n);
        }
        let prev = d;
        d = (ann * s + dp * n) * d / ((ann - 1.0) * d + (n + 1.0) * dp);
        if (d - prev).abs() <= 1e-15 * d {
            break;
        }
    }
    d
}

impl FloatPool {
    /// The model of a pool with the given parameters and balances.
    #[must_use]
    pub fn new(params: &FamilyParams, balances: &[U256]) -> Self {
        let b = |k: usize| balances.get(k).map_or(0.0, |v| to_f64(*v));
        match params {
            FamilyParams::Cp { gamma } => FloatPool::Cp {
                r: [b(0), b(1)],
                gamma: *gamma,
                fee_kept: true,
            },
            FamilyParams::SolidlyVolatile { gamma } => FloatPool::Cp {
                r: [b(0), b(1)],
                gamma: *gamma,
                fee_kept: false,
            },
            FamilyParams::SolidlyStable { gamma, decimals } => {
                let scale = [pow10(i32::from(decimals[0])), pow10(i32::from(decimals[1]))];
                FloatPool::SolStable {
                    x: [b(0) / scale[0], b(1) / scale[1]],
                    scale,
                    gamma: *gamma,
                }
            }
            FamilyParams::Stable { amp, fee, conv } => {
                FloatPool::Stable(Curve::new(*amp, *fee, conv, balances))
            }
            // Balances do not describe a CL pool: `for_pool` builds its model.
            FamilyParams::ConcentratedLiquidity => FloatPool::Cl([None, None]),
        }
    }

    /// The model of an exact pool state: concentrated-liquidity pools and Whirlpools from
    /// their ticks ([`ClEdge::new`], [`ClEdge::whirlpool`]), the others from their balances
    /// ([`Self::new`]).
    #[must_use]
    pub fn for_pool(params: &FamilyParams, pool: &Pool) -> Self {
        match pool {
            Pool::ConcentratedLiquidity(c) => {
                FloatPool::Cl([ClEdge::new(c, true), ClEdge::new(c, false)])
            }
            Pool::Whirlpool(w) => {
                FloatPool::Cl([ClEdge::whirlpool(w, true), ClEdge::whirlpool(w, false)])
            }
            _ => Self::new(params, pool.balances()),
        }
    }

    /// The directed edge model i → j (`None` for bad indices or a dead pool).
    #[must_use]
    pub fn edge(&self, i: usize, j: usize) -> Option<EdgeModel> {
        if i == j {
            return None;
        }
        let e = match self {
            FloatPool::Cp { r, gamma, .. } => EdgeModel::Cp {
                ri: *r.get(i)?,
                ro: *r.get(j)?,
                g: *gamma,
            },
            FloatPool::SolStable { x, scale, gamma } => {
                let (x0, y0) = (*x.get(i)?, *x.get(j)?);
                EdgeModel::Ss(Box::new(SsEdge {
                    x0,
                    y0,
                    si: *scale.get(i)?,
                    so: *scale.get(j)?,
                    g: *gamma,
                    k: x0 * y0 * (x0 * x0 + y0 * y0),
                }))
            }
            FloatPool::Stable(Curve {
                xp,
                conv,
                ann,
                fee,
                d,
                ..
            }) => {
                let n = xp.len();
                let nf = n as f64;
                let (mut s_o, mut p_o) = (0.0, 1.0);
                for (k, v) in xp.iter().enumerate() {
                    if k != i && k != j {
                        s_o += v;
                        p_o *= v;
                    }
                }
                let mut nn = 1.0;
                let mut dn1 = *d;
                for _ in 0..n {
                    nn *= nf;
                    dn1 *= d;
                }
                let mut sw = SwEdge {
                    xi: *xp.get(i)?,
                    y0: 0.0,
                    s_o,
                    p_o,
                    d: *d,
                    dn1: dn1 / nn,
                    ann: *ann,
                    fee: *fee,
                    ci: *conv.get(i)?,
                    cj: *conv.get(j)?,
                };
                sw.y0 = sw.y(sw.xi);
                EdgeModel::Sw(Box::new(sw))
            }
            FloatPool::Cl(dirs) => {
                if j > 1 {
                    return None;
                }
                EdgeModel::Cl(Box::new((*dirs.get(i)?)?))
            }
        };
        let ok = match &e {
            EdgeModel::Cp { ri, ro, .. } => *ri > 0.0 && *ro > 0.0,
            EdgeModel::Ss(s) => s.x0 > 0.0 && s.y0 > 0.0,
            EdgeModel::Sw(s) => s.xi > 0.0 && s.y0 > 0.0 && s.d > 0.0 && s.y0.is_finite(),
            EdgeModel::Cl(c) => c.depth_in() > 0.0,
        };
        ok.then_some(e)
    }
}

/// A Curve edge's precomputed constants (coin units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwEdge {
    xi: f64,
    y0: f64,
    s_o: f64,
    p_o: f64,
    d: f64,
    dn1: f64,
    ann: f64,
    fee: f64,
    ci: f64,
    cj: f64,
}

impl SwEdge {
    /// Base units → coin units of the input coin.
    #[must_use]
    pub fn ci(&self) -> f64 {
        self.ci
    }

    /// Output coin balance for input coin balance `u`.
    fn y(&self, u: f64) -> f64 {
        let c = self.dn1 / (u * self.p_o * self.ann);
        let b = u + self.s_o + self.d / self.ann - self.d;
        let sq = sqrt(b * b + 4.0 * c);
        if b >= 0.0 {
            2.0 * c / (b + sq)
        } else {
            0.5 * (sq - b)
        }
    }

    /// `y(xi) − y(xi + δ)` without cancellation: subtracting the invariant's quadratic at the
    /// two points gives `Δy = δ (y1 + K'/(u0 u1)) / (y1 + c0/y0)` with `K' = D^(n+1)/(n^n Π Ann)`,
    /// `c0 = K'/u0`, every term positive.
    fn dy(&self, delta: f64) -> f64 {
        if !(delta > 0.0) {
            return 0.0;
        }
        let u0 = self.xi;
        let u1 = u0 + delta;
        let y1 = self.y(u1);
        let kp = self.dn1 / (self.p_o * self.ann);
        let num = y1 + kp / (u0 * u1);
        let den = y1 + kp / u0 / self.y0;
        (delta * num / den).max(0.0)
    }

    /// (y, m, dm/du) at u.
    fn m(&self, u: f64) -> (f64, f64, f64) {
        let y = self.y(u);
        let k = self.dn1 / (u * self.p_o * y);
        let a = self.ann + k / u;
        let b = self.ann + k / y;
        let m = a / b;
        let dk = k * (-1.0 / u + m / y);
        let da = dk / u - k / (u * u);
        let db = dk / y + k * m / (y * y);
        (y, m, (da * b - a * db) / (b * b))
    }
}

/// A solidly stable edge's float model, in whole-token units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SsEdge {
    /// input reserve
    pub x0: f64,
    /// output reserve
    pub y0: f64,
    /// input scale 10^dec
    pub si: f64,
    /// output scale
    pub so: f64,
    /// 1 − fee
    pub g: f64,
    /// invariant
    pub k: f64,
}

/// One directed pool edge's float model.
///
/// Every model but x·y = k is boxed: the dual reads a model for every edge in the money at
/// every evaluation, scattered over the router's index, and most edges are x·y = k (three
/// floats). Inline, the largest variant (a concentrated-liquidity edge's segments, 136 bytes)
/// set every model's size, and at 20,000 pools the index's models (5.8 MB) were far larger
/// than a core's L2 cache; boxed, a model is 32 bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum EdgeModel {
    /// x·y = k
    Cp {
        /// input reserve
        ri: f64,
        /// output reserve
        ro: f64,
        /// 1 − fee
        g: f64,
    },
    /// solidly stable, whole-token units
    Ss(Box<SsEdge>),
    /// Curve
    Sw(Box<SwEdge>),
    /// concentrated liquidity: constant product between ticks
    Cl(Box<ClEdge>),
}

// the dual reads a model per edge in the money at every evaluation: keep them at 32 bytes
const _: () = assert!(core::mem::size_of::<EdgeModel>() <= 32);

/// The solution of one edge's arbitrage problem.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Arb {
    /// optimal input (base units); 0 when inactive
    pub x: f64,
    /// output for it
    pub o: f64,
    /// out'(x)
    pub f1: f64,
    /// out''(x) (negative)
    pub f2: f64,
}

fn stable_p(r: f64) -> f64 {
    (3.0 * r + r * r * r) / (1.0 + 3.0 * r * r)
}

/// Solidly stable output (whole-token units) for net input `a`, Newton on the expanded
/// invariant so that no large terms cancel.
fn ss_out_norm(x0: f64, y0: f64, a: f64) -> f64 {
    if a <= 0.0 {
        return 0.0;
    }
    let x1 = x0 + a;
    let c0 = (3.0 * x0 * x0 * a + 3.0 * x0 * a * a + a * a * a) * y0;
    let mut d: f64 = 0.0;
    for _ in 0..100 {
        let yd = y0 - d;
        let f = c0 - x1 * x1 * x1 * d
            + x0 * (-3.0 * y0 * y0 * d + 3.0 * y0 * d * d - d * d * d)
            + a * yd * yd * yd;
        let fp = -(x1 * x1 * x1) - 3.0 * x1 * yd * yd;
        let mut dn = d - f / fp;
        if dn >= y0 {
            dn = 0.5 * (d + y0);
        }
        if (dn - d).abs() <= 1e-16 * dn.abs() {
            return dn;
        }
        d = dn;
    }
    d
}

impl EdgeModel {
    /// d(out)/d(in) at zero size, fee included (base units).
    #[must_use]
    pub fn rate0(&self) -> f64 {
        match self {
            EdgeModel::Cp { ri, ro, g } => g * ro / ri,
            EdgeModel::Ss(s) => s.g * stable_p(s.y0 / s.x0) * s.so / s.si,
            EdgeModel::Sw(s) => (1.0 - s.fee) * s.m(s.xi).1 * s.ci / s.cj,
            EdgeModel::Cl(c) => c.rate0(),
        }
    }

    /// The fee fraction taken from the input (Curve: from the output), in [0, 1).
    #[must_use]
    pub fn fee(&self) -> f64 {
        match self {
            EdgeModel::Cp { g, .. } => 1.0 - g,
            EdgeModel::Ss(s) => 1.0 - s.g,
            EdgeModel::Sw(s) => s.fee,
            EdgeModel::Cl(c) => c.fee(),
        }
    }

    /// Mid rate (fee excluded) at zero size, base units.
    #[must_use]
    pub fn mid0(&self) -> f64 {
        match self {
            EdgeModel::Cp { ri, ro, .. } => ro / ri,
            EdgeModel::Ss(s) => stable_p(s.y0 / s.x0) * s.so / s.si,
            EdgeModel::Sw(s) => s.m(s.xi).1 * s.ci / s.cj,
            EdgeModel::Cl(c) => c.mid0(),
        }
    }

    /// Liquidity depth of the input side, in input base units (for scaling only; the graph's
    /// model tests use it).
    #[cfg(test)]
    #[must_use]
    pub fn depth_in(&self) -> f64 {
        match self {
            EdgeModel::Cp { ri, .. } => *ri,
            EdgeModel::Ss(s) => s.x0 * s.si,
            EdgeModel::Sw(s) => s.xi / s.ci,
            EdgeModel::Cl(c) => c.depth_in(),
        }
    }

    /// The most this direction can give on the model's state, whatever the input (base units):
    /// the output coin's balance (fee not taken off), for concentrated liquidity all of the
    /// modelled segments'. With [`Self::rate0`] it bounds every output:
    /// `out(a) ≤ min(rate0·a, out_cap)` (the output is concave, with slope `rate0` at 0).
    #[must_use]
    pub fn out_cap(&self) -> f64 {
        match self {
            EdgeModel::Cp { ro, .. } => *ro,
            EdgeModel::Ss(s) => s.y0 * s.so,
            EdgeModel::Sw(s) => s.y0 / s.cj,
            EdgeModel::Cl(c) => c.out(f64::INFINITY),
        }
    }

    /// The arbitrage for a bound at prices `nu_in`, `nu_out`, with the edge's zero-size rate
    /// `rate0`: its value `ν_out·o − ν_in·x` and its point `(x, o)`. The model's solve where
    /// it finds a positive, finite value; where it does not although `rate0·ν_out > ν_in` (a
    /// closed form or a Newton loop failing at an extreme price ratio), the largest value of
    /// `ν_out·min(rate0·x, out_cap) − ν_in·x`, which no output exceeds: `out_cap·(ν_out −
    /// ν_in/rate0)` at `x = out_cap/rate0`. Zeros where `rate0·ν_out ≤ ν_in` or a price is not
    /// positive.
    #[must_use]
    pub fn arb_bound(&self, nu_in: f64, nu_out: f64, rate0: f64) -> (f64, f64, f64) {
        if !(nu_in > 0.0 && nu_out > 0.0 && rate0 * nu_out > nu_in) {
            return (0.0, 0.0, 0.0);
        }
        let a = self.arb(nu_in, nu_out);
        let v = nu_out * a.o - nu_in * a.x;
        if v > 0.0 && v.is_finite() {
            return (v, a.x, a.o);
        }
        let cap = self.out_cap();
        let v = cap * (nu_out - nu_in / rate0);
        if v > 0.0 {
            (v, cap / rate0, cap)
        } else {
            (0.0, 0.0, 0.0)
        }
    }

    /// Output for input `a` (base units), on the model's state.
    #[must_use]
    pub fn out(&self, a: f64) -> f64 {
        if !(a > 0.0) {
            return 0.0;
        }
        match self {
            EdgeModel::Cp { ri, ro, g } => g * a * ro / (ri + g * a),
            EdgeModel::Ss(s) => ss_out_norm(s.x0, s.y0, s.g * a / s.si) * s.so,
            EdgeModel::Sw(s) => s.dy(a * s.ci) * (1.0 - s.fee) / s.cj,
            EdgeModel::Cl(c) => c.out(a),
        }
    }

    /// The arbitrage `max_x ν_out·out(x) − ν_in·x` (x = 0 when not profitable).
    #[must_use]
    pub fn arb(&self, nu_in: f64, nu_out: f64) -> Arb {
        self.arb_hint(nu_in, nu_out, 0.0)
    }

    /// [`Self::arb`] with a starting point for the iterative (Curve) solve: the coin-unit input
    /// of a nearby solution (0 for none). The answer does not depend on the hint beyond float
    /// noise.
    #[must_use]
    pub fn arb_hint(&self, nu_in: f64, nu_out: f64, hint: f64) -> Arb {
        if !(nu_in > 0.0) || !(nu_out > 0.0) {
            return Arb::default();
        }
        match self {
            EdgeModel::Cl(c) => c.arb(nu_in, nu_out),
            EdgeModel::Cp { ri, ro, g } => arb_cp(*ri, *ro, *g, nu_in, nu_out),
            EdgeModel::Ss(s) => arb_ss([s.x0, s.y0], [s.si, s.so], s.g, s.k, nu_in, nu_out),
            EdgeModel::Sw(s) => arb_sw(s, nu_in, nu_out, hint),
        }
    }
}

/// [`EdgeModel::arb_hint`] on a constant-product edge: the post-fee input reserve `s` where
/// the marginal rate `g·ri·ro/s²` meets `ν_in/ν_out`.
fn arb_cp(ri: f64, ro: f64, g: f64, nu_in: f64, nu_out: f64) -> Arb {
    let k = g * ri * ro;
    let s = sqrt(k * nu_out / nu_in);
    if !(s > ri) {
        return Arb::default();
    }
    let inv = 1.0 / s;
    let f1 = k * inv * inv;
    Arb {
        x: (s - ri) / g,
        o: ro * (s - ri) * inv,
        f1,
        f2: -2.0 * g * f1 * inv,
    }
}

/// [`EdgeModel::arb_hint`] on a 2-coin stable-swap edge in normalised units (`[x0, y0]` the
/// balances, `[si, so]` the scales): the closed-form point where the curve's slope meets the
/// price ratio.
fn arb_ss([x0, y0]: [f64; 2], [si, so]: [f64; 2], g: f64, k: f64, nu_in: f64, nu_out: f64) -> Arb {
    let none = Arb::default();
    let ni = nu_in * si;
    let no = nu_out * so;
    let q = (g * no - ni) / (g * no + ni);
    let c = cbrt(q);
    // r = (1 − c)/(1 + c). Where the input is nearly free against the output, q is within
    // 1e-4 of 1 and `1 − c` cancels (to 0 below 1e-16: the arbitrage, nearly the whole output
    // reserve, read as none); there 1 − c = (1 − q)/(1 + c + c²) with 1 − q = 2ν_in/(g·ν_out
    // + ν_in), free of cancellation (elsewhere the first form, as the dual has always used)
    let one_minus_q = 2.0 * ni / (g * no + ni);
    let r = if one_minus_q < 1e-4 {
        one_minus_q / ((1.0 + c + c * c) * (1.0 + c))
    } else {
        (1.0 - c) / (1.0 + c)
    };
    if !(r > 0.0) || !r.is_finite() || !(r < y0 / x0) {
        return none;
    }
    let x1 = sqrt(sqrt(k / (r * (1.0 + r * r))));
    let y1 = r * x1;
    if !(x1 > x0) || !(y1 < y0) || !x1.is_finite() {
        return none;
    }
    let p = stable_p(r);
    let sc = so / si;
    let dp = 3.0 * (1.0 - r * r) * (1.0 - r * r) / ((1.0 + 3.0 * r * r) * (1.0 + 3.0 * r * r));
    // the input from the closed form; the output from the cancellation-free curve
    // (so the point is on the curve even for inputs tiny against the reserves)
    let xin = (x1 - x0) / g * si;
    Arb {
        x: xin,
        o: ss_out_norm(x0, y0, g * xin / si) * so,
        f1: g * p * sc,
        f2: g * sc * dp * (-(g / si) * (p + r) / x1),
    }
}

/// [`EdgeModel::arb_hint`] on a Curve (n-coin) edge: `m(u) = P` in coin units, `m` decreasing
/// in `u`, solved by [`sw_newton`] from the hint; the point and its derivatives there.
fn arb_sw(s: &SwEdge, nu_in: f64, nu_out: f64, hint: f64) -> Arb {
    let target = nu_in * s.cj / ((1.0 - s.fee) * nu_out * s.ci);
    let (_, m0, dm0) = s.m(s.xi);
    if !(m0 > target) {
        return Arb::default();
    }
    let dl = sw_newton(s, target, m0, dm0, hint);
    if !dl.is_finite() {
        return Arb::default();
    }
    let u = s.xi + dl;
    let (_, m, dm) = s.m(u);
    let conv = (1.0 - s.fee) * s.ci / s.cj;
    Arb {
        x: dl / s.ci,
        o: s.dy(dl) * (1.0 - s.fee) / s.cj,
        f1: conv * m,
        f2: conv * dm * s.ci,
    }
}

/// The `δ = u − xi` where `m(xi + δ) = target`: safeguarded Newton from the hint (or the
/// linearisation at `δ = 0`, where `m = m0`, `m' = dm0`), bracket `[lo, hi]`, at most 200 steps.
fn sw_newton(s: &SwEdge, target: f64, m0: f64, dm0: f64, hint: f64) -> f64 {
    let mut lo = 0.0;
    let mut hi = f64::INFINITY;
    let lin = if dm0 < 0.0 {
        (target - m0) / dm0
    } else {
        s.xi * 1e-3
    };
    let mut dl = if hint > 0.0 { hint } else { lin };
    if !(dl > 0.0) || !dl.is_finite() {
        dl = s.xi * 1e-3;
    }
    for _ in 0..200 {
        let (_, m, dm) = s.m(s.xi + dl);
        if !m.is_finite() {
            hi = dl;
            dl = 0.5 * (lo + hi);
            continue;
        }
        if m > target {
            lo = dl;
        } else {
            hi = dl;
        }
        let mut nd = dl - (m - target) / dm;
        if !(nd > lo && nd < hi && nd.is_finite()) {
            nd = if hi.is_finite() {
                0.5 * (lo + hi)
            } else {
                4.0 * dl
            };
        }
        let done = (nd - dl).abs() <= 1e-14 * nd || (hi.is_finite() && hi - lo <= 1e-15 * hi);
        dl = nd;
        if done {
            break;
        }
    }
    dl
}

#[cfg(test)]
mod tests {
    use super::*;

    impl EdgeModel {
        /// out'(x) by a central difference of out (test helper)
        fn arb_f1_at(&self, x: f64) -> f64 {
            let h = x * 1e-7;
            (self.out(x + h) - self.out(x - h)) / (2.0 * h)
        }
    }

    fn check_arb(e: &EdgeModel, nu_in: f64, nu_out: f64) {
        let a = e.arb(nu_in, nu_out);
        assert!(
            a.x > 0.0,
            "inactive: rate0 {} vs {}",
            e.rate0(),
            nu_in / nu_out
        );
        // output consistent with out(), marginal matches price ratio
        assert!(
            (e.out(a.x) / a.o - 1.0).abs() < 1e-9,
            "{} {}",
            e.out(a.x),
            a.o
        );
        let h = a.x * 1e-6;
        let fd = (e.out(a.x + h) - e.out(a.x - h)) / (2.0 * h);
        assert!((fd / a.f1 - 1.0).abs() < 1e-5, "{fd} {}", a.f1);
        assert!((a.f1 * nu_out / nu_in - 1.0).abs() < 1e-9);
        // second differences need a wider step (cancellation): f' at ±1e-3·x
        let h2 = a.x * 1e-3;
        let fd2 = (e.arb_f1_at(a.x + h2) - e.arb_f1_at(a.x - h2)) / (2.0 * h2);
        assert!((fd2 / a.f2 - 1.0).abs() < 1e-2, "{fd2} {}", a.f2);
    }

    #[test]
    fn arb_models() {
        let cp = FloatPool::Cp {
            r: [1e21, 3e9],
            gamma: 0.997,
            fee_kept: true,
        };
        let e = cp.edge(0, 1).unwrap();
        check_arb(&e, 2.9e-12 * 0.9, 1.0);
        let ss = FloatPool::new(
            &FamilyParams::SolidlyStable {
                gamma: 0.9995,
                decimals: [6, 18],
            },
            &[U256::from(1_000_000_000_000u64), U256::exp10(24)],
        );
        let e = ss.edge(0, 1).unwrap();
        check_arb(&e, 1e12 * 0.99, 1.0);
        let sw = FloatPool::new(
            &FamilyParams::stable(
                U256::from(100_000u64),
                U256::from(100u64),
                U256::from(4_000_000u64),
                &[U256::exp10(30), U256::exp10(30), U256::exp10(18)],
            ),
            &[
                U256::from(2_000_000_000_000u64),
                U256::from(3_000_000_000_000u64),
                U256::exp10(24) * 25,
            ],
        );
        let e = sw.edge(0, 2).unwrap();
        check_arb(&e, 1e12 * 0.995, 1.0);
        let e = sw.edge(2, 1).unwrap();
        check_arb(&e, 1e-12 * 0.97, 1.0);
    }

    /// A solidly stable edge whose input is nearly free against its output (the price ratio
    /// 1e-18 to 1e-30 of the zero-size rate; 1 − q below the f64 epsilon there): the
    /// arbitrage drains nearly all of the output reserve (`out_cap`), where the closed form
    /// read `1 − cbrt(q)` as 0 and found none; its output stays within `out_cap`, and no input
    /// a quarter to four times as large is worth more at these prices.
    #[test]
    fn solidly_stable_arbitrage_at_a_nearly_free_input_drains_the_output() {
        let ss = FloatPool::new(
            &FamilyParams::SolidlyStable {
                gamma: 0.9995,
                decimals: [6, 18],
            },
            &[U256::from(2_579_797_007_146u64), U256::exp10(24) * 2],
        );
        let e = ss.edge(0, 1).unwrap();
        let cap = e.out_cap();
        assert!((cap / 2e24 - 1.0).abs() < 1e-12, "{cap}");
        for rel in [1e-18, 1e-22, 1e-30] {
            let nu_in = e.rate0() * rel;
            let a = e.arb(nu_in, 1.0);
            assert!(a.x > 0.0 && a.o > 0.0, "{rel}: no arbitrage found: {a:?}");
            assert!(
                a.o <= cap && a.o > cap * (1.0 - 1e-3),
                "{rel}: {} of {cap}",
                a.o
            );
            // no other input worth more at these prices (the curve is flat there: values, not
            // a difference quotient)
            let value = |x: f64| e.out(x) - nu_in * x;
            for t in [0.25, 0.5, 2.0, 4.0] {
                assert!(
                    value(a.x) >= value(a.x * t) * (1.0 - 1e-12),
                    "{rel}: {} at x, {} at {t}x",
                    value(a.x),
                    value(a.x * t)
                );
            }
        }
    }
}
