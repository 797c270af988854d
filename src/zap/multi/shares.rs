//! The exact correction of a zap-out's shares: after the split's fixed point, the routed plan
//! is replayed on the pools' states and corrected step by step (a sale between outputs,
//! re-sized swaps, one unit of an intermediate, a held-back remainder), each step simulated
//! exactly and kept only when it narrows the largest share gap.

use super::ctx::Ctx;
use super::zap_out::{Split, SPLIT_TARGET};
use super::ZapOptions;
use crate::graph::PoolGraph;
use crate::math::float::{from_f64_clamped, to_f64};
use crate::plan::{Plan, Step};
use crate::units::TokenId;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// Sales of one output into another the share correction may quote, per correction.
const SALE_PROBES: usize = 32;

/// A zap-out's outputs with their proportions and documented prices, read on the holdings of a
/// plan being built: the exact correction of the shares ([`Shares::corrected`]).
pub(super) struct Shares<'a> {
    pub(super) outputs: &'a [(TokenId, Ratio<u64>)],
    pub(super) prices: &'a [f64],
}

impl Shares<'_> {
    /// Each output's value share minus its proportion, with `amounts` of the outputs.
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    fn signed_gaps(&self, amounts: &[U256]) -> Vec<f64> {
        let values: Vec<f64> = amounts
            .iter()
            .zip(self.prices)
            .map(|(a, p)| to_f64(*a) * p)
            .collect();
        let total: f64 = values.iter().sum();
        values
            .iter()
            .zip(self.outputs)
            .map(|(v, (_, w))| {
                if total.is_nan() || total <= 0.0 {
                    f64::INFINITY
                } else {
                    v / total - *w.numer() as f64 / *w.denom() as f64
                }
            })
            .collect()
    }

    fn held(&self, ctx: &Ctx<'_>) -> Vec<U256> {
        self.outputs.iter().map(|(t, _)| ctx.held(*t)).collect()
    }

    /// The largest share gap of the outputs held in `ctx`.
    pub(super) fn gap(&self, ctx: &Ctx<'_>) -> f64 {
        max_abs(&self.signed_gaps(&self.held(ctx)))
    }

    /// The plan `before` its routed legs, with the routed plan `routed` replayed exactly (so
    /// that the pools' states follow it) and then, while the largest share gap exceeds
    /// [`SPLIT_TARGET`], the output furthest above its share sold into the one furthest below
    /// it by an exact-in quote on the states reached, its amount found by a bracketed search on
    /// exactly simulated quotes ([`Shares::sale`]). `None` when that does not narrow the gap
    /// (or a replay differs from the router's simulation): the caller keeps its plan.
    pub(super) fn corrected<'g>(
        &self,
        before: Ctx<'g>,
        routed: Option<&Plan>,
        opts: &ZapOptions,
    ) -> Option<Ctx<'g>> {
        let mut ctx = before.clone();
        if let Some(p) = routed {
            ctx.apply_route(p, &pools_of(p)).ok()?;
        }
        let start = self.gap(&ctx);
        let mut improved = false;
        for _ in 0..self.outputs.len().saturating_mul(3) {
            let held = self.held(&ctx);
            let d = self.signed_gaps(&held);
            if max_abs(&d) <= SPLIT_TARGET {
                break;
            }
            let (Some(a), Some(b)) = (arg_by(&d, |x, y| x > y), arg_by(&d, |x, y| x < y)) else {
                break;
            };
            if a == b {
                break;
            }
            let g = ctx.route_graph().ok()?;
            let Some(q) = self.sale(&ctx, g.as_ref(), (a, b), &held, opts) else {
                break;
            };
            ctx.apply_route(&q, &pools_of(&q)).ok()?;
            improved = true;
        }
        // then the finer corrections, in turn, while the gap is above the target
        for fix in 0..3 {
            if self.gap(&ctx) > SPLIT_TARGET {
                let fixed = match fix {
                    0 => self.trimmed(&before, &ctx),
                    1 => self.stepped(&before, &ctx),
                    _ => self.held_back(&before, &ctx),
                };
                if let Some(fixed) = fixed {
                    ctx = fixed;
                    improved = true;
                }
            }
        }
        (improved && self.gap(&ctx) < start).then_some(ctx)
    }

    /// The very last resort, where every step of a route moves the shares by more than the
    /// tolerance (its routes pass a token whose base unit is worth more): the routed swap that
    /// buys the output furthest above its share from a token that is not an output (and whose
    /// pool and output no later swap touch) is given less of that token, found by bisection on
    /// its exact output; what it is not given stays with the user as a refund, so no value is
    /// lost. `None` when no such step narrows the gap.
    fn held_back<'g>(&self, before: &Ctx<'g>, ctx: &Ctx<'g>) -> Option<Ctx<'g>> {
        let steps: Vec<Step> = ctx.steps.get(before.steps.len()..)?.to_vec();
        let held = self.held(ctx);
        let d = self.signed_gaps(&held);
        let o = arg_by(&d, |x, y| x > y)?;
        let t_o = self.outputs.get(o)?.0;
        let mut best: Option<(f64, Ctx<'g>)> = None;
        for (k, sw) in swaps(&steps) {
            let later = steps.get(k.saturating_add(1)..)?;
            if sw.token_out != t_o
                || self.outputs.iter().any(|(t, _)| *t == sw.token_in)
                || later.iter().any(|t| {
                    matches!(t, Step::Swap { pool: q, token_in: u, .. } if *q == sw.pool || *u == t_o)
                })
            {
                continue;
            }
            let (pre, i, j) = before_swap(before, &steps, k)?;
            let state = pre.state(sw.pool).ok()?;
            // output o's share gap when the step is given dx (none: it reverts)
            let gap_o = |dx: U256| -> Option<f64> {
                let out = if dx.is_zero() {
                    U256::zero()
                } else {
                    state.swap(i, j, dx).ok()?.0
                };
                let mut h = held.clone();
                let ho = h.get_mut(o)?;
                *ho = ho.checked_sub(sw.amount_out)?.checked_add(out)?;
                self.signed_gaps(&h).get(o).copied()
            };
            // the most input at which o is not above its share
            let fits = |dx: U256| gap_o(dx).is_some_and(|g| g <= 0.0);
            if !fits(U256::zero()) {
                continue;
            }
            let dx = last_true(U256::zero(), sw.amount_in, fits);
            let mut cand = steps.clone();
            if dx.is_zero() {
                cand.remove(k);
            } else if let Some(Step::Swap {
                amount_in: a,
                amount_out: b,
                ..
            }) = cand.get_mut(k)
            {
                *a = dx;
                *b = state.swap(i, j, dx).ok()?.0;
            }
            let Some(c) = replay(before, &cand) else {
                continue;
            };
            let gap = self.gap(&c);
            if best.as_ref().map_or(gap < self.gap(ctx), |b| gap < b.0) {
                best = Some((gap, c));
            }
        }
        best.map(|b| b.1)
    }

    /// When re-sizing within the same outputs ([`Shares::trimmed`]) is not enough: a routed swap
    /// that sells an output into a token that is not one moves by one base unit of what it
    /// buys (one less when the output sold is below its share, one more when above), the
    /// swaps after it pass on what they then receive ([`reflow`]), and the result is re-sized
    /// again. `None` when no such step narrows the gap.
    fn stepped<'g>(&self, before: &Ctx<'g>, ctx: &Ctx<'g>) -> Option<Ctx<'g>> {
        let steps: Vec<Step> = ctx.steps.get(before.steps.len()..)?.to_vec();
        let wanted: Vec<TokenId> = self.outputs.iter().map(|o| o.0).collect();
        let mut best: Option<(f64, Ctx<'g>)> = None;
        for (k, sw) in swaps(&steps) {
            let Some(o) = wanted.iter().position(|t| *t == sw.token_in) else {
                continue;
            };
            if wanted.contains(&sw.token_out) {
                continue;
            }
            let (less, _) = self.amount_to_proportion(o, &self.held(ctx))?;
            let (pre, i, j) = before_swap(before, &steps, k)?;
            let state = pre.state(sw.pool).ok()?;
            let gives = |dx: U256, at_least: U256| {
                state.swap(i, j, dx).is_ok_and(|(out, _)| out >= at_least)
            };
            // the least input that gives the swap's output, and the input one unit of output away
            let least = first_true(U256::zero(), sw.amount_in, |dx| gives(dx, sw.amount_out));
            let resized = if less {
                if sw.amount_out <= U256::one() || least.is_zero() {
                    continue;
                }
                least.saturating_sub(U256::one())
            } else {
                let more = sw.amount_out.saturating_add(U256::one());
                let held = pre.held(sw.token_in);
                if !gives(held, more) {
                    continue;
                }
                first_true(sw.amount_in, held, |dx| gives(dx, more))
            };
            let cand = with_amount_in(&steps, k, resized);
            let Some(moved) = reflow(before, &cand, &wanted) else {
                continue;
            };
            let fine = self.trimmed(before, &moved).unwrap_or(moved);
            let gap = self.gap(&fine);
            if best.as_ref().map_or(gap < self.gap(ctx), |b| gap < b.0) {
                best = Some((gap, fine));
            }
        }
        best.map(|b| b.1)
    }

    /// The last resort where a routed output moves in coarse steps (a route through a token
    /// with few decimals, or a sale too small for any route): the routed swaps that sell an
    /// output are re-sized within the inputs that give the very same output (the output below
    /// its share sells less, the one above it more), so nothing downstream changes; each
    /// candidate plan is replayed exactly from `before`. `None` when no step narrows the gap.
    fn trimmed<'g>(&self, before: &Ctx<'g>, ctx: &Ctx<'g>) -> Option<Ctx<'g>> {
        let mut steps: Vec<Step> = ctx.steps.get(before.steps.len()..)?.to_vec();
        let mut best: Option<Ctx<'g>> = None;
        for k in 0..steps.len() {
            let cur = best.as_ref().unwrap_or(ctx);
            let held = self.held(cur);
            let d = self.signed_gaps(&held);
            if max_abs(&d) <= SPLIT_TARGET {
                break;
            }
            let Some(Sw {
                pool,
                token_in,
                token_out: _,
                amount_in,
                amount_out,
            }) = swap_at(&steps, k)
            else {
                continue;
            };
            let Some(o) = self.outputs.iter().position(|(t, _)| *t == token_in) else {
                continue;
            };
            // the amount of `token_in` that brings its share to its proportion
            let need = self.amount_to_proportion(o, &held)?;
            let (less, r) = (need.0, need.1);
            if r.is_zero() {
                continue;
            }
            let (pre, i, j) = before_swap(before, &steps, k)?;
            let state = pre.state(pool).ok()?;
            let same = |dx: U256| state.swap(i, j, dx).is_ok_and(|(out, _)| out == amount_out);
            let resized = if less {
                // the least input at or above amount_in − r that still gives amount_out
                first_true(amount_in.saturating_sub(r), amount_in, same)
            } else {
                // the most input at or below amount_in + r that still gives amount_out
                last_true(amount_in, amount_in.saturating_add(r), same)
            };
            if resized == amount_in {
                continue;
            }
            let cand = with_amount_in(&steps, k, resized);
            if let Some(c) = replay(before, &cand) {
                if self.gap(&c) < self.gap(cur) {
                    steps = cand;
                    best = Some(c);
                }
            }
        }
        best
    }

    /// How much of output `k` to keep more (`true`) or to sell more (`false`) so that its share
    /// of the basket (`held`) is its proportion, in its base units (0 when its price or
    /// proportion leaves nothing to do).
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    fn amount_to_proportion(&self, k: usize, held: &[U256]) -> Option<(bool, U256)> {
        let p = *self.prices.get(k)?;
        let (_, w) = self.outputs.get(k)?;
        let w = *w.numer() as f64 / *w.denom() as f64;
        let total: f64 = held
            .iter()
            .zip(self.prices)
            .map(|(h, q)| to_f64(*h) * q)
            .sum();
        let v = to_f64(*held.get(k)?) * p;
        if !(p > 0.0 && w < 1.0 && total > 0.0) {
            return Some((true, U256::zero()));
        }
        // (v + r·p) / (total + r·p) = w  ⇔  r = (w·total − v) / (p·(1 − w))
        let r = (w * total - v) / (p * (1.0 - w));
        let units = from_f64_clamped(r.abs() + 0.5, U256::MAX);
        Some((r > 0.0, units))
    }

    /// The exact-in quote selling `x` of output `a` into output `b` (on the states of `g`) that
    /// brings `a`'s share closest to its proportion: regula falsi on the integer `x` between
    /// 0 (where `a` is above its share) and the holdings of `a`, each point an exactly simulated
    /// quote, stopping within half of [`SPLIT_TARGET`] or at a bracket one unit wide. `None`
    /// when no quote narrows the largest gap.
    #[allow(clippy::arithmetic_side_effects)] // f64
    fn sale(
        &self,
        ctx: &Ctx<'_>,
        g: Option<&PoolGraph>,
        (a, b): (usize, usize),
        held: &[U256],
        opts: &ZapOptions,
    ) -> Option<Plan> {
        let (ta, tb) = (self.outputs.get(a)?.0, self.outputs.get(b)?.0);
        let (ha, pa) = (*held.get(a)?, *self.prices.get(a)?);
        let d0 = self.signed_gaps(held);
        let (f0, start) = (*d0.get(a)?, max_abs(&d0));
        let total: f64 = held
            .iter()
            .zip(self.prices)
            .map(|(h, p)| to_f64(*h) * p)
            .sum();
        if !(pa > 0.0 && f0 > 0.0 && total > 0.0) || ha.is_zero() {
            return None;
        }
        let mut lo = (U256::zero(), f0);
        let mut hi: Option<(U256, f64)> = None;
        let mut x = from_f64_clamped(f0 * total / pa, ha).max(U256::one());
        let mut best: Option<(f64, Plan)> = None;
        let mut last_side = None;
        for _ in 0..SALE_PROBES {
            let Ok(q) = ctx.quote(g, &[(ta, x)], &[(tb, Ratio::from_integer(1))], opts) else {
                break;
            };
            let mut after = held.to_vec();
            *after.get_mut(a)? = ha.checked_sub(x)?;
            *after.get_mut(b)? = after.get(b)?.checked_add(Split::routed(Some(&q), tb))?;
            let d = self.signed_gaps(&after);
            let (fx, m) = (*d.get(a)?, max_abs(&d));
            if best.as_ref().map_or(m < start, |bst| m < bst.0) {
                best = Some((m, q));
            }
            if fx.abs() <= SPLIT_TARGET / 2.0 {
                break;
            }
            let side = fx > 0.0;
            if side {
                lo = (x, fx);
            } else {
                hi = Some((x, fx));
            }
            // the next point: on the chord between the bracket's ends (halfway when the same
            // end moved twice running, so that a jump of the routed output cannot stall the
            // search at one end), or beyond `lo` on the line through (0, f0) while no point
            // below the share is known
            let bisect = last_side == Some(side);
            last_side = Some(side);
            let next = match hi {
                Some((xh, fh)) => {
                    let width = xh.checked_sub(lo.0)?;
                    if width <= U256::one() {
                        break;
                    }
                    let t = if bisect { 0.5 } else { lo.1 / (lo.1 - fh) };
                    let step =
                        from_f64_clamped(to_f64(width) * t, width.saturating_sub(U256::one()));
                    lo.0.checked_add(step.max(U256::one()))?
                }
                None => {
                    if lo.0 >= ha {
                        break;
                    }
                    let t = f0 / (f0 - fx).max(f64::MIN_POSITIVE);
                    from_f64_clamped(to_f64(lo.0) * t, ha).max(lo.0.checked_add(U256::one())?)
                }
            };
            if next == x {
                break;
            }
            x = next;
        }
        best.map(|bst| bst.1)
    }
}

/// The pools a routed plan swaps through, to replay them exactly.
fn pools_of(p: &Plan) -> Vec<crate::units::PoolId> {
    let mut v: Vec<crate::units::PoolId> = p
        .steps
        .iter()
        .filter_map(|s| match s {
            crate::plan::Step::Swap { pool, .. } => Some(*pool),
            _ => None,
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The largest absolute value (`∞` for a NaN).
fn max_abs(d: &[f64]) -> f64 {
    d.iter().fold(0.0, |m, x| {
        let x = if x.is_nan() { f64::INFINITY } else { x.abs() };
        m.max(x)
    })
}

/// The index of the element that wins `better` against every other (the first on ties).
fn arg_by(d: &[f64], better: impl Fn(f64, f64) -> bool) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (k, x) in d.iter().enumerate() {
        if best.map_or(true, |(_, b)| better(*x, b)) {
            best = Some((k, *x));
        }
    }
    best.map(|b| b.0)
}

/// The plan `before` with the swap `steps` replayed exactly in order; `None` when a swap
/// reverts, the holdings do not cover it, or it gives other than its recorded output.
fn replay<'g>(before: &Ctx<'g>, steps: &[Step]) -> Option<Ctx<'g>> {
    let mut c = before.clone();
    for s in steps {
        let (pool, sold, bought) = s.as_swap()?;
        let out = c.swap(pool, sold.token, bought.token, sold.amount).ok()?;
        let took = c
            .steps
            .last()
            .map(|st| st.as_swap().map_or(U256::zero(), |(_, a, _)| a.amount));
        if out != bought.amount || took != Some(sold.amount) {
            return None;
        }
    }
    Some(c)
}

/// The least `x` in `[lo, hi]` with `ok(x)`, assuming `ok(hi)` and `ok` monotone (false then
/// true) on the range; `hi` when `ok(lo)` fails throughout.
fn first_true(lo: U256, hi: U256, ok: impl Fn(U256) -> bool) -> U256 {
    if ok(lo) {
        return lo;
    }
    bisect(lo, hi, |x| !ok(x)).1
}

/// The greatest `x` in `[lo, hi]` with `ok(x)`, assuming `ok(lo)` and `ok` monotone (true then
/// false) on the range.
fn last_true(lo: U256, hi: U256, ok: impl Fn(U256) -> bool) -> U256 {
    if ok(hi) {
        return hi;
    }
    bisect(lo, hi, ok).0
}

/// Neighbours `(l, l + 1)` (or `(lo, hi)` when they are already) with `left(l)` and not
/// `left(l + 1)`, by bisection from `left(lo)`, not `left(hi)`.
fn bisect(mut lo: U256, mut hi: U256, left: impl Fn(U256) -> bool) -> (U256, U256) {
    while hi.saturating_sub(lo) > U256::one() {
        let mid = lo.saturating_add(half(hi.saturating_sub(lo)));
        if left(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

/// The plan `before` with the swap `steps` re-simulated in order, each swap of a token that is
/// not among `outputs` taking all that is then held of it when no later swap sells it (so that
/// what a re-sized step buys is passed on whole); `None` when a swap reverts or the holdings do
/// not cover it.
fn reflow<'g>(before: &Ctx<'g>, steps: &[Step], outputs: &[TokenId]) -> Option<Ctx<'g>> {
    let mut c = before.clone();
    for (m, s) in steps.iter().enumerate() {
        let (pool, sold, bought) = s.as_swap()?;
        let last = !steps
            .get(m.saturating_add(1)..)?
            .iter()
            .any(|t| matches!(t, Step::Swap { token_in: u, .. } if *u == sold.token));
        let amount = if last && !outputs.contains(&sold.token) {
            c.held(sold.token)
        } else {
            sold.amount
        };
        if amount.is_zero() {
            continue;
        }
        c.swap(pool, sold.token, bought.token, amount).ok()?;
    }
    Some(c)
}

/// The fields of a routed swap.
struct Sw {
    pool: crate::units::PoolId,
    token_in: TokenId,
    token_out: TokenId,
    amount_in: U256,
    amount_out: U256,
}

/// The swaps of `steps`, with their positions.
fn swaps(steps: &[Step]) -> impl Iterator<Item = (usize, Sw)> + '_ {
    (0..steps.len()).filter_map(|k| Some((k, swap_at(steps, k)?)))
}

/// Step `k` of `steps` when it is a swap.
fn swap_at(steps: &[Step], k: usize) -> Option<Sw> {
    let (pool, sold, bought) = steps.get(k)?.as_swap()?;
    Some(Sw {
        pool,
        token_in: sold.token,
        token_out: bought.token,
        amount_in: sold.amount,
        amount_out: bought.amount,
    })
}

/// The plan `before` with the swaps before swap `k` replayed, and swap `k`'s coin indices in
/// its pool.
fn before_swap<'g>(before: &Ctx<'g>, steps: &[Step], k: usize) -> Option<(Ctx<'g>, usize, usize)> {
    let sw = swap_at(steps, k)?;
    let pre = replay(before, steps.get(..k)?)?;
    let i = pre.graph.coin_index(sw.pool, sw.token_in)?;
    let j = pre.graph.coin_index(sw.pool, sw.token_out)?;
    Some((pre, i, j))
}

/// `steps` with swap `k` given `amount_in`.
fn with_amount_in(steps: &[Step], k: usize, amount_in: U256) -> Vec<Step> {
    let mut cand = steps.to_vec();
    if let Some(Step::Swap { amount_in: a, .. }) = cand.get_mut(k) {
        *a = amount_in;
    }
    cand
}

/// `x / 2`, rounded down.
fn half(x: U256) -> U256 {
    x.checked_div(U256::from(2u8)).unwrap_or_default()
}
