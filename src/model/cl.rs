//! The float search model of a concentrated-liquidity pool direction: constant product between
//! ticks (for the search only, never for an amount in a plan).
//!
//! Along a swap, let `u` be `1/√P` for token0 in (the price falls) or `√P` for token1 in (it
//! rises), `P` the raw token1/token0 price. Between two initialised ticks the liquidity `L` is
//! constant and, with γ = 1 − fee, a gross input `x` moves `u` by `γx / L` and pays
//! `L·(1/u_start − 1/u_end)`; the marginal rate is `γ/u²`. So the arbitrage
//! `max_x ν_out·out(x) − ν_in·x` has a closed form segment by segment: the price stops where
//! `γ/u² = ν_in/ν_out`, i.e. at `u* = √(γ ν_out/ν_in)`, and the input and output are the sums
//! over the segments up to it.
//!
//! The first [`SEGS`] segments are kept exactly; past them the model assumes the largest
//! liquidity of the rest of the known window, over the rest's exact input capacity, so it never
//! gives less than the pool (the exact swap rounds every step in the pool's favour, below the
//! real-valued curve) and never takes more input than the window can: the dual bound stays an
//! upper bound. Past the window's edge the model, like the pool, offers nothing.
#![allow(clippy::arithmetic_side_effects)] // f64 arithmetic only: no overflow traps
#![allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail every check

use super::Arb;
use crate::math;
use crate::math::float::sqrt;
use crate::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
use crate::pool::whirlpool::{tick_index_to_sqrt_price, FEE_RATE_DENOMINATOR};
use crate::pool::{ConcentratedLiquidity, Whirlpool};
use core::iter::once;

/// Segments kept exactly per direction (one more holds the rest of the window).
pub const SEGS: usize = 6;

/// 2^96 as f64.
const Q96: f64 = 79_228_162_514_264_337_593_543_950_336.0;

/// One direction of a concentrated-liquidity pool as a float curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClEdge {
    /// `u` now
    u0: f64,
    /// 1 − fee
    g: f64,
    /// segment ends (increasing `u`) and their liquidities; `n` of them are set
    ends: [f64; SEGS + 1],
    liq: [f64; SEGS + 1],
    n: usize,
}

/// The segments the model walks: (start, end, liquidity).
struct Walk<'a> {
    e: &'a ClEdge,
    k: usize,
    u: f64,
}

impl Iterator for Walk<'_> {
    type Item = (f64, f64, f64);
    fn next(&mut self) -> Option<Self::Item> {
        let e = self.e;
        if self.k >= e.n {
            return None;
        }
        let seg = (self.u, e.ends[self.k], e.liq[self.k]);
        self.k += 1;
        self.u = seg.1;
        Some(seg)
    }
}

impl ClEdge {
    /// The model of `pool` swapping token0 in (`zero_for_one`) or token1 in; `None` when the
    /// known ticks hold nothing that way. The window ends at the last known tick that way
    /// ([`Self::from_ticks`]).
    #[must_use]
    pub fn new(pool: &ConcentratedLiquidity, zero_for_one: bool) -> Option<Self> {
        let s0 = math::float::to_f64(pool.sqrt_price_x96()) / Q96;
        let tick = pool.tick();
        let ticks = pool.ticks();
        let split = ticks.partition_point(|t| t.index <= tick);
        let (below, above) = ticks.split_at(split);
        let at = |t: &crate::pool::concentrated_liquidity::Tick| {
            let s = math::float::to_f64(sqrt_ratio_at_tick(t.index).ok()?.to_u256()) / Q96;
            Some((s, t.liquidity_net))
        };
        let fee = f64::from(pool.fee()) / 1e6;
        let l = pool.liquidity() as f64;
        if zero_for_one {
            Self::from_ticks(s0, l, fee, true, below.iter().rev().map(at))
        } else {
            Self::from_ticks(s0, l, fee, false, above.iter().map(at))
        }
    }

    /// The model of Whirlpool `pool` swapping A in (`a_to_b`, the price falls) or B in; `None`
    /// when its tick arrays hold nothing that way or its swap that way cannot start (the
    /// current tick outside the arrays).
    ///
    /// The window ends where the tick arrays end (the price of their first tick for A in, of
    /// their last for B in), which the swap takes as a step target and cannot pass
    /// ([`crate::error::PoolError::TickArraySequence`]); the liquidity between the last
    /// initialised tick and that end is what the ticks leave. The fee is `fee_rate`
    /// millionths of each step's input as with Uniswap V3: a step that reaches its target
    /// charges `amount_in / (1 − f)` rounded up, so the window's input capacity is the
    /// model's `Σ L·Δu / γ`, a unit or so more per step; an exact-in step that stops inside
    /// its range charges all the rest of the input, at least `f` of it, so its output is at
    /// most the model's for the same input.
    #[must_use]
    pub fn whirlpool(pool: &Whirlpool, a_to_b: bool) -> Option<Self> {
        let st = pool.state();
        let (first, last) = pool.tick_window();
        let spacing = i32::from(st.tick_spacing).max(1);
        let tick = st.tick_current_index;
        // where the swap's first look-up of the next initialised tick fails
        let starts = if a_to_b {
            tick >= first && tick.div_euclid(spacing).saturating_mul(spacing) <= last
        } else {
            tick < last
                && tick
                    .div_euclid(spacing)
                    .saturating_add(1)
                    .saturating_mul(spacing)
                    >= first
        };
        if !starts {
            return None;
        }
        let q64 = 18_446_744_073_709_551_616.0;
        let at = |index: i32, net: i128| {
            let s = tick_index_to_sqrt_price(index).ok()? as f64 / q64;
            Some((s, net))
        };
        let s0 = st.sqrt_price as f64 / q64;
        let ticks = pool.ticks();
        let split = ticks.partition_point(|t| t.index <= tick);
        let (below, above) = ticks.split_at(split);
        let fee = f64::from(st.fee_rate) / f64::from(FEE_RATE_DENOMINATOR);
        let l = st.liquidity as f64;
        if a_to_b {
            let walk = below.iter().rev().map(|t| at(t.index, t.liquidity_net));
            Self::from_ticks(s0, l, fee, true, walk.chain(once(at(first, 0))))
        } else {
            let walk = above.iter().map(|t| at(t.index, t.liquidity_net));
            Self::from_ticks(s0, l, fee, false, walk.chain(once(at(last, 0))))
        }
    }

    /// The model of one direction of a concentrated-liquidity pool at square-root price `s0`
    /// (token1 per token0, as a float), active liquidity `liquidity` and fee fraction `fee`
    /// (taken from the input), swapping token0 in (`zero_for_one`, the price falls) or
    /// token1 in; `ticks` are the initialised ticks the swap would cross, in its order, as
    /// (square-root price, net liquidity added crossing upwards), and the last of them ends
    /// the window (a tick of net 0 where the window ends elsewhere). `None` when the window
    /// holds no liquidity, or a tick's price is missing (`None`) or not finite.
    ///
    /// Past the first [`SEGS`] segments the rest of the window becomes one segment with the
    /// rest's largest liquidity, ending where its net input capacity equals the rest's: the
    /// output is never below the pool's and the capacity is the window's. The last segment is
    /// shortened by 1e-9 of its width, so a float plan that fills the window to the edge does
    /// not ask the exact pool for a unit more than it holds (what that leaves out is far inside
    /// the bound's 1e-7 margin).
    #[must_use]
    pub fn from_ticks(
        s0: f64,
        liquidity: f64,
        fee: f64,
        zero_for_one: bool,
        ticks: impl IntoIterator<Item = Option<(f64, i128)>>,
    ) -> Option<Self> {
        let to_u = |s: f64| if zero_for_one { 1.0 / s } else { s };
        let mut e = ClEdge {
            u0: to_u(s0),
            g: 1.0 - fee,
            ends: [0.0; SEGS + 1],
            liq: [0.0; SEGS + 1],
            n: 0,
        };
        let mut l = liquidity;
        let mut u = e.u0;
        // The rest: its start, net input capacity and largest liquidity.
        let (mut rest_start, mut rest_cap, mut rest_l) = (0.0, 0.0, 0.0f64);
        for t in ticks {
            let (s, net) = t?;
            let end = to_u(s);
            if end > u {
                if e.n < SEGS {
                    e.ends[e.n] = end;
                    e.liq[e.n] = l;
                    e.n += 1;
                } else {
                    if rest_cap == 0.0 && rest_l == 0.0 {
                        rest_start = u;
                    }
                    rest_cap += l * (end - u);
                    rest_l = rest_l.max(l);
                }
                u = end;
            }
            let net = net as f64;
            l = if zero_for_one { l - net } else { l + net }.max(0.0);
        }
        if rest_l > 0.0 && rest_cap > 0.0 {
            e.ends[e.n] = rest_start + rest_cap / rest_l;
            e.liq[e.n] = rest_l;
            e.n += 1;
        }
        // Drop empty segments at the end, then shorten the last one a little.
        while e.n > 0 && !(e.liq[e.n - 1] > 0.0) {
            e.n -= 1;
        }
        if e.n == 0 {
            return None;
        }
        let start = if e.n >= 2 { e.ends[e.n - 2] } else { e.u0 };
        let last = e.ends[e.n - 1];
        e.ends[e.n - 1] = start + (last - start) * (1.0 - 1e-9);
        (e.u0 > 0.0 && e.u0.is_finite() && e.ends[..e.n].iter().all(|x| x.is_finite())).then_some(e)
    }

    fn walk(&self) -> Walk<'_> {
        Walk {
            e: self,
            k: 0,
            u: self.u0,
        }
    }

    /// The liquidity of the first segment that has some.
    fn l_first(&self) -> f64 {
        self.walk().map(|s| s.2).find(|&l| l > 0.0).unwrap_or(0.0)
    }

    /// d(out)/d(in) at zero size, fee included.
    #[must_use]
    pub fn rate0(&self) -> f64 {
        self.g / (self.u0 * self.u0)
    }

    /// The fee fraction taken from the input.
    #[must_use]
    pub fn fee(&self) -> f64 {
        1.0 - self.g
    }

    /// Mid rate at zero size, fee excluded.
    #[must_use]
    pub fn mid0(&self) -> f64 {
        1.0 / (self.u0 * self.u0)
    }

    /// The input-side virtual reserve `L·u` (for scaling only).
    #[must_use]
    pub fn depth_in(&self) -> f64 {
        self.l_first() * self.u0
    }

    /// Output for a gross input `a`.
    #[must_use]
    pub fn out(&self, a: f64) -> f64 {
        if !(a > 0.0) {
            return 0.0;
        }
        let mut net = self.g * a;
        let mut o = 0.0;
        for (ua, ub, l) in self.walk() {
            if l <= 0.0 {
                continue;
            }
            let cap = l * (ub - ua);
            if net <= cap {
                let u = ua + net / l;
                return o + net / (ua * u);
            }
            net -= cap;
            o += cap / (ua * ub);
        }
        o
    }

    /// The arbitrage at prices `nu_in`, `nu_out`, segment by segment.
    #[must_use]
    pub fn arb(&self, nu_in: f64, nu_out: f64) -> Arb {
        if !(nu_in > 0.0) || !(nu_out > 0.0) {
            return Arb::default();
        }
        let target = sqrt(self.g * nu_out / nu_in);
        if !(target > self.u0) {
            return Arb::default();
        }
        let (mut x, mut o) = (0.0, 0.0);
        for (ua, ub, l) in self.walk() {
            if target <= ub {
                if l <= 0.0 {
                    // The price stops in a gap: the input is what reaching the gap took; the
                    // curve has a kink there (a very steep second derivative).
                    return kink(x, o, self.g / (target * target));
                }
                x += l * (target - ua) / self.g;
                o += l * (target - ua) / (ua * target);
                let f1 = self.g / (target * target);
                return Arb {
                    x,
                    o,
                    f1,
                    f2: -2.0 * self.g * self.g / (target * target * target * l),
                };
            }
            x += l * (ub - ua) / self.g;
            o += l * (ub - ua) / (ua * ub);
        }
        // Past the window's edge: everything the window holds.
        let edge = self
            .ends
            .get(self.n.saturating_sub(1))
            .copied()
            .unwrap_or(self.u0);
        kink(x, o, self.g / (edge * edge))
    }
}

/// An optimum at a kink of the curve (a gap or the window's edge).
fn kink(x: f64, o: f64, f1: f64) -> Arb {
    if !(x > 0.0) {
        return Arb::default();
    }
    Arb {
        x,
        o,
        f1,
        // steep but finite, so Newton steps on the dual stay defined
        f2: -1e6 * f1 / x,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use primitive_types::U256;

    /// The most of coin `i` the pool's exact swap takes whole, by bisection.
    fn capacity(w: &Whirlpool, i: usize) -> u64 {
        let (mut lo, mut hi) = (0u64, u64::MAX);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if w.amount_out(i, 1 - i, U256::from(mid)).is_ok() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Liquidity rising away from the price (ten ever deeper bands each way: more segments
    /// than [`SEGS`]) and falling (ten nested ranges), the arrays' end inside and beyond the
    /// last band: in both directions the model's window takes the input the pool's exact swap
    /// takes whole to within 1e-6 and never more, and it pays at least the exact output for
    /// every input up to there (at the window's end, to the 1e-9 the model leaves out).
    #[test]
    fn whirlpool_model_holds_the_arrays_and_pays_at_least_the_pool() {
        let base = -18_976;
        let mut rising = vec![(base - 16, base + 16, 2_000_000_000_000u128)];
        for k in 1..=10 {
            let liq = 3_000_000_000_000u128 * k as u128;
            rising.push((base - 16 - 64 * k, base - 16 - 64 * (k - 1), liq));
            rising.push((base + 16 + 64 * (k - 1), base + 16 + 64 * k, liq));
        }
        let falling: Vec<_> = (1..=10)
            .map(|k| (base - 64 * k, base + 64 * k, 5_000_000_000_000u128))
            .collect();
        // a position across the arrays' ends: liquidity is left where the window ends
        let wide = vec![(-20_000, -17_000, 7_000_000_000_000u128)];
        for pos in [rising, falling, wide] {
            let w = crate::pool::whirlpool::tests::booked(&pos);
            for i in [0usize, 1] {
                let e = ClEdge::whirlpool(&w, i == 0).unwrap();
                let cap = capacity(&w, i);
                let window = e.arb(1e-30, 1.0).x;
                let c = cap as f64;
                assert!(
                    window <= c && window >= c * (1.0 - 1e-6),
                    "{i}: model window {window} vs exact {cap}"
                );
                for k in 1..=1000u64 {
                    let x = cap / 1000 * k;
                    let exact = w.amount_out(i, 1 - i, U256::from(x)).unwrap();
                    let exact = math::float::to_f64(exact);
                    let tol = if k == 1000 { 1e-8 } else { 1e-12 };
                    assert!(
                        e.out(x as f64) >= exact * (1.0 - tol),
                        "{i} {x}: model {} below exact {exact}",
                        e.out(x as f64)
                    );
                }
            }
        }
    }
}
