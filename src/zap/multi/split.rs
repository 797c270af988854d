//! The routed zap-in's split: the output mix of the routed legs that mints the most.
//!
//! A zap-in whose inputs are not the target's coins routes them into the coins at an output
//! mix (the router's proportions); the target's exact single-pool optimum then mints. The mint
//! is a function of the mix, and the value shares of the target (the default) are not where
//! it peaks when the legs differ in depth: a deep leg into one coin and the target's own
//! rebalancing swap can beat a shallow leg into the other. [`Split`] evaluates candidate mixes
//! exactly (a router quote at the mix, its swaps taken on a copy of the plan being built, the
//! final mint by the exact single-pool optimum) and keeps the one that mints the most; floats
//! only choose the next mix to try, every compared mint is an exact plan. The candidates, in
//! order:
//!
//! 1. the value-share split (and, where coins are held, its corrected second quote): the
//!    default, kept unless another mix mints strictly more, so the zap never mints less than
//!    it did with the value-share split alone;
//! 2. every coin alone: all into one coin, the target rebalances;
//! 3. for a two-coin target, a model of the mint against coin 0's share, then quotes at its
//!    peak: what the legs deliver of each coin is interpolated over the quotes made (a
//!    parabola in the coin's own share through the three nearest quotes, plus what that
//!    misses at each quote spread by inverse squared distance, so the model is exact at every
//!    quoted mix), moved onto the best plan's holdings, and the target's mint taken on it
//!    (its exact optimum; for constant-product and solidly targets the plan at the float
//!    optimum's swap, `zap::two::mint_estimate`, far cheaper than the optimiser's plateau
//!    search). The model's peak is quoted while it promises more than
//!    [`MODEL_GAIN_TOLERANCE`] of the best exact mint (where it does not, the mint is flat
//!    and the search stops: on the bench's 2000-pool zap after the two coins alone) and is
//!    a mix not tried; after [`MODEL_MISSES`] quotes in a row that do not gain, the line
//!    search on the exact mints takes what budget is left (a parabola through the best point
//!    and its two neighbours, golden-section steps where the parabola does not help);
//! 4. for three or four coins, a compass search on the simplex (a share moved from one coin
//!    to another, the step halved when no move gains).
//!
//! It stops after [`MAX_SPLIT_QUOTES`] router quotes beyond the default's, when the mixes
//! left to try are closer than [`MIN_SHARE_STEP`], for two coins when the best point's
//! neighbours leave no room for more than [`SPLIT_GAIN_TOLERANCE`] of the mint were the mint
//! concave in the share (the secants' bound), or as soon as the best exact mint is within
//! [`SPLIT_BOUND_TOLERANCE`] of the certified bound computed at the default's tangent point
//! (nothing is left to gain). Under a priced gas model the candidates are compared net of
//! their gas.

use super::ctx::Ctx;
use super::zap_in::FinalMint;
use super::{net_of_gas, proportions, ZapOptions};
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::math::float::{from_f64_floor, to_f64};
use crate::plan::Plan;
use crate::pool::Pool;
use crate::units::{PoolId, TokenId};
use alloc::vec::Vec;
use core::cell::Cell;
use num_rational::Ratio;
use primitive_types::U256;

/// Router quotes a zap-in's split search may make beyond the default split's (one or two):
/// every coin alone, then the model, line or compass search.
pub(super) const MAX_SPLIT_QUOTES: usize = 10;

/// The model search gives way to the exact local search after this many quotes in a row at
/// the model's peak that do not gain.
const MODEL_MISSES: usize = 2;

/// The model search stops when the model's peak promises no more than this fraction of the
/// best exact mint (the mint is flat there).
const MODEL_GAIN_TOLERANCE: f64 = 1e-9;

/// The search stops when the best exact mint is within this fraction of the certified bound
/// (nothing left to gain).
pub(super) const SPLIT_BOUND_TOLERANCE: f64 = 1e-6;

/// The two-coin line search stops when, the mint being concave in the share, no mix between
/// the best point's neighbours can gain more than this fraction of the best mint.
pub(super) const SPLIT_GAIN_TOLERANCE: f64 = 1e-7;

/// The smallest share step the search tries (a share of the routed value, between mixes).
pub(super) const MIN_SHARE_STEP: f64 = 1.0 / 1024.0;

/// A router output mix: proportions summing to 1.
pub(super) type Mix = Vec<(TokenId, Ratio<u64>)>;

/// A plan built through the final mint at one output mix of the routed legs.
pub(super) struct Minted<'g> {
    /// the mix the legs were routed at (empty: nothing was routed)
    pub(super) mix: Mix,
    /// the plan after the routed legs, before the final mint (the bound's tangent point)
    pub(super) routed: Ctx<'g>,
    /// the plan after the final mint
    pub(super) done: Ctx<'g>,
    /// the final mint: LP minted, the rebalance, the optimiser's strategy
    pub(super) mint: FinalMint,
    /// what the legs delivered of each coin (floats, for the model)
    z: Vec<f64>,
}

/// What a candidate is compared by: its exact mint, or under a priced gas model its value net
/// of gas (then a float, as the router's own comparison).
enum Score {
    Exact(U256),
    Net(f64),
}

/// The split search of one zap-in: the plan before the legs, the legs' inputs and the
/// candidates tried so far.
pub(super) struct Split<'a, 'g> {
    /// the plan before the legs (fee taken, LP inputs burned)
    ctx: &'a Ctx<'g>,
    /// the graph the router sees (`None`: the snapshot's)
    g: Option<&'a PoolGraph>,
    target: PoolId,
    lp_out: TokenId,
    coins: &'a [TokenId],
    external: &'a [(TokenId, U256)],
    opts: &'a ZapOptions,
    /// mixes tried and their score as a float (`None`: no plan there)
    tried: Vec<(Mix, Vec<f64>, Option<f64>)>,
    /// the best plan so far
    best: Option<Minted<'g>>,
    /// router quotes made beyond the default's
    quotes: usize,
    /// the best plan's output at which the search stops (the bound less its tolerance)
    enough: Option<f64>,
    /// router quotes made, the default's included
    made: Cell<u32>,
    /// the model's points: each quoted mix's shares and what its legs delivered of each coin
    points: Vec<(Vec<f64>, Vec<f64>)>,
}

impl<'a, 'g> Split<'a, 'g> {
    /// A search over the plan `ctx` (before the legs) with the route graph `g`.
    pub(super) fn new(
        ctx: &'a Ctx<'g>,
        g: Option<&'a PoolGraph>,
        target: PoolId,
        lp_out: TokenId,
        coins: &'a [TokenId],
        external: &'a [(TokenId, U256)],
        opts: &'a ZapOptions,
    ) -> Self {
        Self {
            ctx,
            g,
            target,
            lp_out,
            coins,
            external,
            opts,
            tried: Vec::new(),
            best: None,
            quotes: 0,
            enough: None,
            made: Cell::new(0),
            points: Vec::new(),
        }
    }

    /// Quote the legs at `mix` on the plan's current states (nothing applied).
    pub(super) fn quote(&self, mix: &[(TokenId, Ratio<u64>)]) -> Result<Plan, ZapError> {
        self.made.set(self.made.get().saturating_add(1));
        self.ctx.quote(self.g, self.external, mix, self.opts)
    }

    /// Router quotes made so far, the default's included.
    pub(super) fn quotes_made(&self) -> u32 {
        self.made.get()
    }

    /// Take the router plan `plan` (quoted at `mix`) on a copy of the plan and finish it with
    /// the final mint; the candidate is kept when it beats the best so far.
    ///
    /// # Errors
    /// As the legs' replay and the final mint.
    pub(super) fn offer(&mut self, mix: Mix, plan: &Plan) -> Result<(), ZapError> {
        let shares = self.shares_of(&mix);
        self.points.push((shares.clone(), self.delivered(plan)));
        let m = self.finish(mix.clone(), plan);
        let score = m.as_ref().ok().map(|m| self.float_score(m));
        self.tried.push((mix, shares, score));
        let m = m?;
        let better = match &self.best {
            None => true,
            Some(b) => match (self.score(&m), self.score(b)) {
                (Score::Exact(a), Score::Exact(b)) => a > b,
                (Score::Net(a), Score::Net(b)) => a > b,
                _ => false,
            },
        };
        if better {
            self.best = Some(m);
        }
        Ok(())
    }

    /// What the router plan `plan` delivers of each coin, as floats.
    fn delivered(&self, plan: &Plan) -> Vec<f64> {
        self.coins
            .iter()
            .map(|t| {
                plan.outputs
                    .iter()
                    .filter(|o| o.token == *t)
                    .map(|o| to_f64(o.amount))
                    .sum()
            })
            .collect()
    }

    /// The legs at `mix` taken on a copy of the plan, then the final mint.
    fn finish(&self, mix: Mix, plan: &Plan) -> Result<Minted<'g>, ZapError> {
        let mut routed = self.ctx.clone();
        routed.apply_route(plan, &[self.target])?;
        let mut done = routed.clone();
        let mint = super::zap_in::mint_or_pass(
            &mut done,
            self.target,
            self.lp_out,
            self.coins,
            self.opts,
        )?;
        Ok(Minted {
            mix,
            routed,
            done,
            mint,
            z: self.delivered(plan),
        })
    }

    fn score(&self, m: &Minted<'g>) -> Score {
        if super::gas_price_of(self.ctx.graph, self.opts).is_some() {
            Score::Net(self.float_score(m))
        } else {
            Score::Exact(m.mint.0)
        }
    }

    /// The candidate's minted LP as a float, net of its gas under a priced gas model.
    fn float_score(&self, m: &Minted<'g>) -> f64 {
        let units =
            crate::plan::swap_gas_units(&m.done.steps, self.ctx.graph, self.opts.gas.as_ref());
        net_of_gas(self.ctx.graph, m.mint.0, units, self.opts)
    }

    /// The shares of the coins in `mix` (0 for a coin it leaves out).
    fn shares_of(&self, mix: &[(TokenId, Ratio<u64>)]) -> Vec<f64> {
        self.coins
            .iter()
            .map(|t| {
                mix.iter()
                    .find(|(m, _)| m == t)
                    .map_or(0.0, |(_, r)| ratio_f64(*r))
            })
            .collect()
    }

    /// The search stops once the best plan's output reaches `bound × (1 − tolerance)`.
    pub(super) fn stop_at(&mut self, bound: Option<f64>) {
        #[allow(clippy::arithmetic_side_effects)] // f64
        let e = bound.map(|b| b * (1.0 - SPLIT_BOUND_TOLERANCE));
        self.enough = e;
    }

    /// Whether the best plan is within the tolerance of the bound.
    fn close_enough(&self) -> bool {
        match (&self.best, self.enough) {
            (Some(b), Some(e)) => to_f64(b.done.held(self.lp_out)) >= e,
            _ => false,
        }
    }

    /// The best plan so far.
    pub(super) fn best(&self) -> Option<&Minted<'g>> {
        self.best.as_ref()
    }

    /// The best plan, consumed.
    pub(super) fn into_best(self) -> Option<Minted<'g>> {
        self.best
    }

    /// Evaluate the mix of float shares `shares` (any scale; one per coin): the mix's score,
    /// `None` when it has no plan, the budget is spent or the search may stop.
    fn try_shares(&mut self, shares: &[f64]) -> Option<f64> {
        let pairs: Vec<(TokenId, f64)> = self
            .coins
            .iter()
            .copied()
            .zip(shares.iter().copied())
            .collect();
        let mix = proportions(&pairs);
        if mix.is_empty() {
            return None;
        }
        if let Some((_, _, s)) = self.tried.iter().find(|(m, _, _)| *m == mix) {
            return *s;
        }
        if self.quotes >= MAX_SPLIT_QUOTES || self.close_enough() {
            return None;
        }
        self.quotes = self.quotes.saturating_add(1);
        match self.quote(&mix) {
            Ok(plan) => {
                // a candidate whose legs or mint fail is only not kept
                let _ = self.offer(mix.clone(), &plan);
            }
            Err(_) => {
                let shares = self.shares_of(&mix);
                self.tried.push((mix.clone(), shares, None));
            }
        }
        self.tried
            .iter()
            .find(|(m, _, _)| *m == mix)
            .and_then(|(_, _, s)| *s)
    }

    /// Whether the search is over: budget spent or the bound reached.
    fn over(&self) -> bool {
        self.quotes >= MAX_SPLIT_QUOTES || self.close_enough()
    }

    /// The search after the default: every coin alone, then the model search.
    pub(super) fn search(&mut self) {
        let n = self.coins.len();
        for k in 0..n {
            if self.over() {
                return;
            }
            let mut e = alloc::vec![0.0; n];
            if let Some(x) = e.get_mut(k) {
                *x = 1.0;
            }
            self.try_shares(&e);
        }
        if n != 2 {
            // the separable model misleads more than it guides on three or four coins (on the
            // generated 3-coin Curve markets it lost to the compass search at the same budget)
            self.compass_search();
            return;
        }
        if self.model_search() {
            return;
        }
        // the model's peaks did not gain: search the mix itself with what budget is left
        self.line_search();
    }
    /// Two coins: coin 0's share `p` in [0, 1]. Each round takes the best point tried and its
    /// neighbours and tries the vertex of the parabola through them (when it falls inside and
    /// apart from them, and the last parabolic step gained), else the golden-section point of
    /// the wider side.
    fn line_search(&mut self) {
        const GOLDEN: f64 = 0.381_966_011_250_105_1;
        let mut parabola = true;
        while !self.over() {
            let mut pts: Vec<(f64, f64)> = self
                .tried
                .iter()
                .filter_map(|(_, s, v)| Some((*s.first()?, v.unwrap_or(f64::NEG_INFINITY))))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            pts.dedup_by(|a, b| a.0 == b.0);
            let Some(bi) = (0..pts.len()).max_by(|&i, &j| {
                let (a, b) = (
                    pts.get(i).map_or(0.0, |p| p.1),
                    pts.get(j).map_or(0.0, |p| p.1),
                );
                a.total_cmp(&b).then(j.cmp(&i))
            }) else {
                return;
            };
            let Some(&(b, fb)) = pts.get(bi) else { return };
            if !fb.is_finite() {
                return;
            }
            let left = bi.checked_sub(1).and_then(|i| pts.get(i)).copied();
            let right = pts.get(bi.saturating_add(1)).copied();
            let lo = left.map_or(b, |p| p.0);
            let hi = right.map_or(b, |p| p.0);
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (wide_lo, wide_hi) = (b - lo, hi - b);
            if wide_lo.max(wide_hi) < MIN_SHARE_STEP {
                return;
            }
            if let (Some(l), Some(r)) = (left, right) {
                if concave_gain((l.0, l.1), (b, fb), (r.0, r.1)) <= SPLIT_GAIN_TOLERANCE * fb.abs()
                {
                    return;
                }
            }
            let mut u = None;
            if let (true, Some((a, fa)), Some((c, fc))) = (parabola, left, right) {
                u = parabola_vertex((a, fa), (b, fb), (c, fc)).filter(|u| {
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    let apart = (u - a).abs().min((u - b).abs()).min((u - c).abs());
                    *u > a && *u < c && apart >= MIN_SHARE_STEP
                });
            }
            let from_parabola = u.is_some();
            #[allow(clippy::arithmetic_side_effects)] // f64
            let u = u.unwrap_or(if wide_hi >= wide_lo {
                b + GOLDEN * wide_hi
            } else {
                b - GOLDEN * wide_lo
            });
            #[allow(clippy::arithmetic_side_effects)] // f64
            let shares = [u, 1.0 - u];
            let before = self.tried.len();
            let v = self.try_shares(&shares);
            if self.tried.len() == before {
                // the mix rounds to one tried already: nothing new on this side
                return;
            }
            parabola = !from_parabola || v.is_some_and(|v| v > fb);
        }
    }

    /// More coins: from the best mix tried, move a share `h` from one coin to another (every
    /// ordered pair), taking the first move that gains; halve `h` when none does.
    fn compass_search(&mut self) {
        let mut h = 0.25;
        while h >= MIN_SHARE_STEP && !self.over() {
            let Some((center, fc)) = self
                .tried
                .iter()
                .filter_map(|(_, s, v)| v.map(|v| (s.clone(), v)))
                .max_by(|a, b| a.1.total_cmp(&b.1))
            else {
                return;
            };
            let n = center.len();
            let mut gained = false;
            'moves: for i in 0..n {
                for j in 0..n {
                    if i == j || self.over() {
                        continue;
                    }
                    let take = center.get(j).copied().unwrap_or(0.0).min(h);
                    if take <= 0.0 {
                        continue;
                    }
                    let mut s = center.clone();
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    if let Some(x) = s.get_mut(i) {
                        *x += take;
                    }
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    if let Some(y) = s.get_mut(j) {
                        *y -= take;
                    }
                    if self.try_shares(&s).is_some_and(|v| v > fc) {
                        gained = true;
                        break 'moves;
                    }
                }
            }
            if !gained {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let half = h / 2.0;
                h = half;
            }
        }
    }

    /// Quote the mix where the model of the mint ([`Split::model_mint`]) peaks, while it
    /// promises more than [`SPLIT_GAIN_TOLERANCE`] of the best exact mint and the mix is one
    /// not tried (each quote adds a point to the model).
    fn model_search(&mut self) -> bool {
        let mut misses = 0;
        while !self.over() && misses < MODEL_MISSES {
            let Some(fb) = self.best.as_ref().map(|b| to_f64(b.mint.0)) else {
                return true;
            };
            let Some((s, m)) = self.model_argmax() else {
                return true;
            };
            #[allow(clippy::arithmetic_side_effects)] // f64
            let promised = fb * (1.0 + MODEL_GAIN_TOLERANCE);
            if m.is_nan() || m <= promised {
                // flat: the model sees nothing left to gain
                return true;
            }
            let before = self.tried.len();
            let got = self.try_shares(&s);
            if self.tried.len() == before {
                // the model's peak is a mix tried already
                return true;
            }
            if got.is_some_and(|g| g > fb) {
                misses = 0;
            } else {
                misses = misses.saturating_add(1);
            }
        }
        self.over()
    }

    /// Where the model of the mint peaks on a two-coin target and its value there: a grid of
    /// 1/64 on coin 0's share refined by golden section to [`MIN_SHARE_STEP`]. Every point is
    /// a model evaluation, no quote.
    fn model_argmax(&self) -> Option<(Vec<f64>, f64)> {
        let best = self.best.as_ref()?;
        Some(line_max(|x| self.model_mint(best, &[x, one_minus(x)])))
    }

    /// The model of the mint at the float shares `s`: the routed amounts the model predicts
    /// ([`Split::model_amounts`]), moved onto the best plan's holdings after its legs, and
    /// the target's exact single-pool optimum on them (for constant-product and solidly
    /// targets its quick estimate, the plan at the float optimum's swap; 0 where none).
    fn model_mint(&self, best: &Minted<'g>, s: &[f64]) -> f64 {
        let z = self.model_amounts(s);
        let Ok(state) = best.routed.state(self.target) else {
            return 0.0;
        };
        let amounts: Vec<U256> = self
            .coins
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let held = to_f64(best.routed.held(*t));
                let (zk, bk) = (at(&z, k), at(&best.z, k));
                #[allow(clippy::arithmetic_side_effects)] // f64
                let a = held + zk - bk;
                from_f64_floor(a)
            })
            .collect();
        if amounts.iter().all(U256::is_zero) {
            return 0.0;
        }
        if matches!(state, Pool::ConstantProduct(_) | Pool::Solidly(_)) {
            // the full optimiser's plateau search costs far more than the model needs
            return crate::zap::two::mint_estimate(state, &amounts).map_or(0.0, to_f64);
        }
        crate::zap::zap_in_pool(state, &amounts, &self.opts.config)
            .map_or(0.0, |z| to_f64(z.minted))
    }

    /// What the router delivers of each coin at the float shares `s` (summing to 1), from the
    /// quotes made: separable (what coin `k` gets depends on `k`'s share alone,
    /// [`Split::separable_amounts`]), plus what that misses at each quoted mix spread by
    /// inverse squared distance, so that the model is exact at every quoted mix.
    fn model_amounts(&self, s: &[f64]) -> Vec<f64> {
        let mut z = self.separable_amounts(s);
        // what the separable model misses at each quoted mix, spread by inverse squared
        // distance (the model is then exact at every quoted mix)
        let (mut num, mut den) = (alloc::vec![0.0f64; z.len()], 0.0f64);
        for (ps, pz) in &self.points {
            let sep = self.separable_amounts(ps);
            #[allow(clippy::arithmetic_side_effects)] // f64
            let d2: f64 = ps.iter().zip(s).map(|(a, b)| (a - b) * (a - b)).sum();
            #[allow(clippy::arithmetic_side_effects)] // f64
            let w = if d2 < 1e-18 { 1e18 } else { 1.0 / d2 };
            for (k, n) in num.iter_mut().enumerate() {
                #[allow(clippy::arithmetic_side_effects)] // f64
                {
                    *n += w * (at(pz, k) - at(&sep, k));
                }
            }
            #[allow(clippy::arithmetic_side_effects)] // f64
            {
                den += w;
            }
        }
        if den > 0.0 {
            for (zk, n) in z.iter_mut().zip(&num) {
                #[allow(clippy::arithmetic_side_effects)] // f64
                {
                    *zk = (*zk + n / den).max(0.0);
                }
            }
        }
        z
    }

    /// The separable part of [`Split::model_amounts`]: what coin `k` gets, interpolated in
    /// `k`'s own share over the quotes made (a parabola through the three nearest, a line
    /// through two, at least 0).
    fn separable_amounts(&self, s: &[f64]) -> Vec<f64> {
        (0..self.coins.len())
            .map(|k| {
                let pts: Vec<(f64, f64)> = self
                    .points
                    .iter()
                    .map(|(ps, z)| (at(ps, k), at(z, k)))
                    .collect();
                quadratic_at(pts, at(s, k)).max(0.0)
            })
            .collect()
    }
}

/// The points `(x, z)` interpolated at `x`: sorted and deduplicated by `x`, the parabola
/// through the three points nearest `x` (a line through two, the value of one).
fn quadratic_at(mut pts: Vec<(f64, f64)>, x: f64) -> f64 {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts.dedup_by(|a, b| a.0 == b.0);
    let len = pts.len();
    if len < 3 {
        let (Some(&(x0, z0)), Some(&(x1, z1))) = (pts.first(), pts.last()) else {
            return 0.0;
        };
        if len < 2 {
            return z0;
        }
        #[allow(clippy::arithmetic_side_effects)] // f64, x1 > x0 after dedup
        let z = z0 + (z1 - z0) * (x - x0) / (x1 - x0);
        return z;
    }
    // the window of three whose middle is nearest x
    let mid = (1..len.saturating_sub(1))
        .min_by(|&i, &j| {
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (di, dj) = (
                (pts.get(i).map_or(0.0, |p| p.0) - x).abs(),
                (pts.get(j).map_or(0.0, |p| p.0) - x).abs(),
            );
            di.total_cmp(&dj)
        })
        .unwrap_or(1);
    let (Some(&(a, fa)), Some(&(b, fb)), Some(&(c, fc))) = (
        pts.get(mid.saturating_sub(1)),
        pts.get(mid),
        pts.get(mid.saturating_add(1)),
    ) else {
        return 0.0;
    };
    #[allow(clippy::arithmetic_side_effects)] // f64, a < b < c after dedup
    let z = fa * (x - b) * (x - c) / ((a - b) * (a - c))
        + fb * (x - a) * (x - c) / ((b - a) * (b - c))
        + fc * (x - a) * (x - b) / ((c - a) * (c - b));
    z
}

/// The most the best of three points `a < b < c` (`b` the best) can be beaten inside
/// `[a, c]` if the mint is concave in the share there: the left secant's slope carried to `c`,
/// the right secant's to `a` (a concave function lies below its secants' extensions).
/// Infinite when a neighbour has no plan.
fn concave_gain(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    #[allow(clippy::arithmetic_side_effects)] // f64
    {
        if !(a.1.is_finite() && c.1.is_finite()) || b.0 <= a.0 || c.0 <= b.0 {
            return f64::INFINITY;
        }
        let left = (b.1 - a.1) / (b.0 - a.0) * (c.0 - b.0);
        let right = (b.1 - c.1) / (c.0 - b.0) * (b.0 - a.0);
        left.max(right).max(0.0)
    }
}

/// The abscissa of the vertex of the parabola through three points (`None` when they are
/// collinear or the parabola opens upwards).
fn parabola_vertex(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> Option<f64> {
    #[allow(clippy::arithmetic_side_effects)] // f64
    {
        let p = (b.0 - a.0) * (b.1 - c.1);
        let q = (b.0 - c.0) * (b.1 - a.1);
        let den = p - q;
        let num = (b.0 - a.0) * p - (b.0 - c.0) * q;
        // concave: the middle point is above the chord
        let chord = a.1 + (c.1 - a.1) * (b.0 - a.0) / (c.0 - a.0);
        if den == 0.0 || !den.is_finite() || b.1 <= chord {
            return None;
        }
        let u = b.0 - 0.5 * num / den;
        u.is_finite().then_some(u)
    }
}

/// `1 − x`.
fn one_minus(x: f64) -> f64 {
    #[allow(clippy::arithmetic_side_effects)] // f64
    let y = 1.0 - x;
    y
}

/// `v[k]`, 0 beyond its end.
fn at(v: &[f64], k: usize) -> f64 {
    v.get(k).copied().unwrap_or(0.0)
}

/// The maximum of `f` on [0, 1]: a grid of 1/64, then golden section on the best point's two
/// cells down to [`MIN_SHARE_STEP`]. The point as shares `[x, 1 − x]` and the value.
fn line_max(f: impl Fn(f64) -> f64) -> (Vec<f64>, f64) {
    const GRID: u32 = 64;
    const GOLDEN: f64 = 0.618_033_988_749_894_9;
    let mut best = (0.0, f(0.0));
    for i in 1..=GRID {
        let x = f64::from(i) / f64::from(GRID);
        let v = f(x);
        if v > best.1 {
            best = (x, v);
        }
    }
    let cell = 1.0 / f64::from(GRID);
    #[allow(clippy::arithmetic_side_effects)] // f64
    let (mut lo, mut hi) = ((best.0 - cell).max(0.0), (best.0 + cell).min(1.0));
    #[allow(clippy::arithmetic_side_effects)] // f64
    while hi - lo > MIN_SHARE_STEP {
        let (a, b) = (hi - GOLDEN * (hi - lo), lo + GOLDEN * (hi - lo));
        let (fa, fb) = (f(a), f(b));
        for (x, v) in [(a, fa), (b, fb)] {
            if v > best.1 {
                best = (x, v);
            }
        }
        if fa >= fb {
            hi = b;
        } else {
            lo = a;
        }
    }
    (alloc::vec![best.0, one_minus(best.0)], best.1)
}

/// A ratio as a float.
fn ratio_f64(r: Ratio<u64>) -> f64 {
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let x = *r.numer() as f64 / *r.denom() as f64;
    x
}
