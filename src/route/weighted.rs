//! A certified bound on a *weighted sum* of what a plan delivers: [`weighted_output_bound`].
//!
//! The swap certificate (`certify.rs`) bounds the router's own objective. A zap-in through
//! routed legs needs another one: the value, at fixed weights `w_k ≥ 0`, of the amounts of
//! several tokens that any routing delivers (the weights are the tangent of the target pool's
//! invariant, see `zap::bound`). The same weak duality gives it.
//!
//! # The bound
//!
//! A plan swaps each allowed pool direction `e` at most once, an aggregate input `x_e ≥ 0` for
//! an output `o_e ≤ out_e(x_e)`; `N_t` is the net change of token `t` over the plan, and the
//! user starts with `b`. For **any** prices `ν ≥ 0`,
//! `Σ_t ν_t N_t = Σ_e (ν_out(e) o_e − ν_in(e) x_e) ≤ Σ_e arb_e(ν)` with
//! `arb_e(ν) = max_{x ≥ 0} ν_out out_e(x) − ν_in x` (each term is at most its maximum; nothing
//! about feasibility is used). Pin the weighted tokens at `ν_k = w_k`. Every other token ends
//! with a non-negative holding, `N_t ≥ −b_t`, so `−ν_t N_t ≤ ν_t b_t` and
//!
//! `Σ_k w_k (b_k + N_k) ≤ Σ_t ν_t b_t + Σ_e arb_e(ν)`
//!
//! over every allowed pool direction of the whole graph (any path length, cycles, CL pools),
//! whatever the weighted tokens' final holdings (they may even end negative: tokens taken from
//! a pool outside the graph, as a zap's target pool, are counted by the caller). As in the swap
//! certificate, the float models' `out_e` are raised by the relative margin `BOUND_MARGIN` and
//! by the integer rounding a swap can win per pool direction (`certify::rounding_slack`).
//!
//! # The prices
//!
//! Validity holds at any prices; tightness needs good ones. The request (inputs, the weighted
//! tokens as outputs, the filters) is solved by the router's own dual and certificate (the
//! pools of `exclude` taken out), which prices the outputs in proportion to their marginal
//! cost. The weighted tokens are then pinned at `w`, the other prices scaled by the factor
//! that minimises the bound (golden section on its logarithm; the bound is convex in the
//! prices), and each token the solve priced is moved, one at a time (two Gauss–Seidel passes),
//! to where its own part of the bound is least: a token's part is convex in its price, its
//! slope `b_t + inflow − outflow` at the edges' arbitrage, found by bisection.

//!
//! # Claimed pools
//!
//! A zap-in with LP tokens of other pools burns them; the plan may then trade with those pools
//! on their new states. [`claimed_output_bound`] takes each such pool `P` out of the graph and
//! adds, in place of its edges' arbitrage, a bound on the value at `ν` of all a plan takes from
//! it: `P` keeps an invariant of at least `(1 − f)·G(x)` (`f` the user's share of its supply),
//! so what leaves it is worth at most `ν·x − (1 − f)·G(x)·c(ν)`, `c(ν) = min{ν·y : G(y) ≥ 1}`
//! ([`Claimed`]; the zap layer gives the lower bound on `c` and the proof per family). The
//! other terms and the choice of prices are as above; the Gauss–Seidel step counts the claimed
//! pools' terms of the token it moves.

// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::certify::rounding_slack;
use super::edges::EdgeCache;
use super::working_set::{allowed, allowed_pools, prepare_ctx, Ctx};
use super::{RouteRequest, BOUND_MARGIN};
use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::math::float::{sqrt_or_zero, to_f64};
use crate::units::{PoolId, TokenId};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// Gauss–Seidel passes over the solved tokens' prices.
const GS_PASSES: usize = 1;
/// Bisection steps per token and pass (on the logarithm of the price).
const GS_STEPS: usize = 16;
/// Golden-section steps for the common scale of the unpinned prices.
const SCALE_STEPS: usize = 24;
/// Passes of the bid extension that prices tokens the solve left without a price.
const BID_PASSES: usize = 64;
/// With claimed pools: (scale steps, Gauss–Seidel passes, bisection steps). A claimed pool's
/// term grows fast with the gap between the prices and the pool's own (a flat Curve pool
/// offers a large arbitrage for a small gap), so the prices are searched finer.
const CLAIMED_STEPS: (usize, usize, usize) = (64, 2, 48);

/// A certified upper bound on `Σ_k w_k · (what the plan ends with of token k)` over every plan
/// of `req`'s inputs on the graph its source filters allow, without the pools of `exclude`:
/// every set of swaps that uses each pool direction at most once, along paths of any length
/// (cycles and concentrated-liquidity pools included; `req.max_hops` is ignored, so the bound
/// also covers the hop-limited plans), ending with no debt in any unweighted token. A weighted
/// token's final holding may be of any sign (the caller accounts for where a deficit comes
/// from). The proof is in the docs of `src/route/weighted.rs`.
///
/// `req.outputs` should be the weighted tokens, their proportions roughly the mix a good plan
/// delivers: they only steer the dual solve that picks the prices. The bound is valid at any
/// prices; the solve only makes it tight. `weights` are per base unit (non-negative and
/// finite; a token listed twice adds up); tokens not weighted count 0.
///
/// Returns `+∞` when no finite bound was found at the prices tried (a token without a price
/// facing a priced one).
///
/// # Errors
/// As [`super::dual_bound`] for `req`, and [`RouteError::BadRequest`] when a weight is negative
/// or not finite, or names a token outside the graph.
///
/// # Complexity
/// One certified dual solve of `req`, then `O(E)` arbitrage evaluations per price tried
/// (about 40 for the scale, and per Gauss–Seidel step the edges of one token).
pub fn weighted_output_bound(
    graph: &PoolGraph,
    req: &RouteRequest,
    weights: &[(TokenId, f64)],
    exclude: &[PoolId],
) -> Result<f64, RouteError> {
    let (w, pinned) = weight_vector(graph, weights)?;
    let mut ctx = prepare_ctx(graph, req)?;
    leave_out(&mut ctx, graph, exclude);
    let b = input_vector(graph.n_tokens(), &ctx.prep.inputs);
    let (nu0, solved_tok) = solved_prices(&mut ctx, graph.n_tokens());
    let pr = Pricer {
        cache: ctx.cache,
        mask: ctx.mask.as_deref(),
        b: &b,
        pinned: &pinned,
        claimed: &[],
    };
    Ok(pr.minimise(&w, nu0, &solved_tok))
}

/// Step 1: the weights per token (a token listed twice adds up) and which tokens they pin.
fn weight_vector(
    graph: &PoolGraph,
    weights: &[(TokenId, f64)],
) -> Result<(Vec<f64>, Vec<bool>), RouteError> {
    let n = graph.n_tokens();
    let mut w = vec![0.0f64; n];
    let mut pinned = vec![false; n];
    for (t, x) in weights {
        let bad = || RouteError::BadRequest(crate::error::BadRouteRequest::Weight { token: *t });
        if !(x.is_finite() && *x >= 0.0) {
            return Err(bad());
        }
        let slot = w.get_mut(t.index()).ok_or_else(bad)?;
        #[allow(clippy::arithmetic_side_effects)] // f64
        {
            *slot += *x;
        }
        if let Some(p) = pinned.get_mut(t.index()) {
            *p = true;
        }
    }
    Ok((w, pinned))
}

/// The source filters' mask with the pools of `exclude` taken out (`None`: no filter and
/// nothing excluded).
fn mask_without(
    mask: Option<Vec<bool>>,
    graph: &PoolGraph,
    exclude: &[PoolId],
) -> Option<Vec<bool>> {
    if exclude.is_empty() {
        return mask;
    }
    let mut mask = mask.unwrap_or_else(|| vec![true; graph.pools().len()]);
    for p in exclude {
        if let Some(m) = mask.get_mut(p.index()) {
            *m = false;
        }
    }
    Some(mask)
}

/// Step 2: the pools of `exclude` leave the mask, the working set and the certificate.
fn leave_out(ctx: &mut Ctx<'_>, graph: &PoolGraph, exclude: &[PoolId]) {
    let mask = ctx
        .mask
        .take()
        .unwrap_or_else(|| vec![true; graph.pools().len()]);
    let mask = mask_without(Some(mask), graph, exclude);
    let cache = ctx.cache;
    let keep: Vec<bool> = ctx
        .sel
        .iter()
        .map(|k| {
            cache
                .edges()
                .get(*k)
                .is_some_and(|e| allowed(mask.as_deref(), e.pool))
        })
        .collect();
    let mut it = keep.iter();
    ctx.sel.retain(|_| it.next().copied().unwrap_or(false));
    let mut it = keep.iter();
    ctx.edges.retain(|_| it.next().copied().unwrap_or(false));
    let mut it = keep.iter();
    ctx.models.retain(|_| it.next().copied().unwrap_or(false));
    for (k, e) in cache.edges().iter().enumerate() {
        if !allowed(mask.as_deref(), e.pool) {
            if let Some(f) = ctx.in_ws.get_mut(k) {
                *f = false;
            }
        }
    }
    ctx.mask = mask;
}

/// Step 3: the user's amounts per token, as floats.
fn input_vector(n: usize, inputs: &[(TokenId, U256)]) -> Vec<f64> {
    let mut b = vec![0.0f64; n];
    for (t, a) in inputs {
        if let Some(x) = b.get_mut(t.index()) {
            #[allow(clippy::arithmetic_side_effects)] // f64
            {
                *x += to_f64(*a);
            }
        }
    }
    b
}

/// Step 4: the router's certified solve of the request; its prices per token (0 where it
/// gave none) and which tokens it priced.
fn solved_prices(ctx: &mut Ctx<'_>, n: usize) -> (Vec<f64>, Vec<bool>) {
    let solved = ctx.solve_certified();
    let mut nu0 = vec![0.0f64; n];
    let mut solved_tok = vec![false; n];
    for (l, t) in solved.lc.glob.iter().enumerate() {
        if let (Some(slot), Some(v)) = (nu0.get_mut(t.index()), solved.nu.get(l)) {
            if v.is_finite() && *v > 0.0 {
                *slot = *v;
            }
        }
        if let Some(s) = solved_tok.get_mut(t.index()) {
            *s = true;
        }
    }
    (nu0, solved_tok)
}

/// A lower bound on the cost of one unit of a pool's invariant at given coin prices:
/// `c(ν) = min{ν·y : G(y) ≥ 1, y ≥ 0}` (the invariant `G` concave, non-decreasing and
/// homogeneous of degree 1; the prices one per coin, per base unit). Implemented by the zap
/// layer, which knows the families' invariants.
pub(crate) trait UnitCost {
    /// A value at most `c(ν)` (0 when some price is 0; the caller treats a NaN as 0).
    fn unit_cost_low(&self, prices: &[f64]) -> f64;
}

/// A pool whose share a plan may claim, taken out of the graph and bounded jointly: the user
/// holds a fraction `f` of its LP supply and may redeem it in any way (proportionally, in one
/// coin, in parts between swaps through the pool), and trade with the pool in any order. The
/// pool's invariant then ends at least `(1 − f)·G(x)` (burns lower it by at most the burned
/// share, swaps never lower it), so what the user takes from it, `x − x'`, is worth at prices
/// `ν` at most `ν·x − (1 − f)·G(x)·c(ν)` ([`Claimed::take`]). That holds when the LP token
/// cannot be bought (it is no pool's coin), so that `f` is fixed by the user's holding.
///
/// **A priced LP token** ([`Claimed::lp`]): when the LP token can be bought or sold (it is
/// some pool's coin: a metapool's base LP, or a coin of another claimed pool), it is a token
/// of the duality like any other, priced at `ν_L = c(ν)·G(x)/T` (`T` the supply burns use),
/// and the user's LP is part of the budget at that price. The term is then
/// `ν·x − ν_L·T = ν·x − G(x)·c(ν)` (`kept = G(x)`, `f = 0`). Why: `G/T` never falls (swaps
/// raise `G` at a fixed supply, a burn of `β` takes at most `β/T` of every balance, a mint adds
/// at most `T·ΔG/G`), so a plan that ends with the pool at `(x', T')` has
/// `G(x') ≥ G(x)·T'/T`, and what it took, `ν·(x − x') + ν_L·(T' − T)` (coins out, LP in), is at
/// most `ν·x − c(ν)·G(x') + ν_L·T' − ν_L·T ≤ ν·x − ν_L·T` for every `ν_L ≤ c(ν)·G(x)/T`. The
/// price is a lower estimate of that cap (`c` and `G` from below, `T` from above), so the
/// inequality holds; the caller gives `kept ≤ G(x)·T_low/T_up`.
///
/// **Supply the user does not own.** An SPL Token Swap pool mints pool tokens for its owner in
/// every swap (the owner fee, through spl-math's rounded square roots), so its supply also
/// grows without a user's mint, and such a mint may lower `G/T` by its rounding. The argument
/// needs only the supply the user accounts for: with `M` the owner's mints and
/// `T'' = T' − M`, the LP the user put in is `T − T''` (burns by the user, each burning at least
/// what it pays for), and `G(x')/T'' ≥ G(x)/T` when the user never mints into the pool (a zap
/// mints only into its target): swaps raise `G` and leave `T''`, and a burn of `β` at the
/// current supply `T' ≥ T''` takes at most `β/T'' ` of every balance. So the owner's mints only
/// help both terms above (read `T''` for `T'`).
///
/// **A weighted LP token** ([`Claimed::pinned`]): when the LP token is itself weighted (a
/// coin of a zap's target: a metapool target and its base LP), its price is its weight, not
/// derived. Plans that never mint into the pool (`T' ≤ T`; a zap mints only into its target)
/// still satisfy `ν·(x − x') + ν_L·(T' − T) ≤ ν·x − p·T' − ν_L·(T − T')` with
/// `p = c(ν)·G(x)/T`, that is `ν·x − ν_L·T + (ν_L − p)·T'`, at most `ν·x − min(ν_L, p)·T`
/// (`T'` between 0 and `T`). The term is then `ν·x − min(ν_L·T_low, c(ν)·kept)`.
pub(crate) struct Claimed<'a> {
    /// the pool's coins
    pub(crate) coins: Vec<TokenId>,
    /// the pool's balances per coin (raw units)
    pub(crate) balances: Vec<f64>,
    /// a lower bound on `(1 − f)·G(x)`: the invariant the pool keeps after any plan
    pub(crate) kept: f64,
    /// the invariant's unit cost
    pub(crate) cost: &'a dyn UnitCost,
    /// a priced LP token: the token and a lower bound on `G(x)/T` (its price is
    /// `c(ν)` times that); `None` when the LP token cannot be bought
    pub(crate) lp: Option<(TokenId, f64)>,
    /// the LP token is weighted (its price is its weight, not derived): a lower bound on the
    /// supply `T`; `None` otherwise
    pub(crate) pinned: Option<f64>,
}

#[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64; n ≤ 8
impl Claimed<'_> {
    /// The price of the LP token ([`Claimed::lp`]) at prices `nu`: `c(ν)·G(x)/T` from below
    /// (0 when a coin has no price).
    fn lp_price(&self, nu: &[f64]) -> Option<(usize, f64)> {
        if self.pinned.is_some() {
            return None;
        }
        let (t, per_lp) = self.lp?;
        let prices: Vec<f64> = self
            .coins
            .iter()
            .map(|c| nu.get(c.index()).copied().unwrap_or(0.0))
            .collect();
        let c = self.cost.unit_cost_low(&prices);
        let n = prices.len() as f64;
        let v = c * per_lp * (1.0 - 4.0 * (n + 2.0) * f64::EPSILON);
        Some((t.index(), if v.is_finite() && v > 0.0 { v } else { 0.0 }))
    }

    /// An upper bound on the value at prices `nu` (all tokens) of what a plan takes from the
    /// pool: `ν·x − kept·c(ν)`, the first term rounded up and the second down; `+∞` when a
    /// price is not finite.
    fn take(&self, nu: &[f64]) -> f64 {
        self.take_at(nu, (usize::MAX, 0.0)).map_or(0.0, |t| t.0)
    }

    /// [`Claimed::take`] with token `over.0`'s price replaced by `over.1`, and its slope in
    /// that price (`x_t − kept·∂c/∂ν_t`, the latter by a small difference); `None` when the
    /// token is not one of the pool's coins (and `over.0` is not `usize::MAX`).
    fn take_at(&self, nu: &[f64], over: (usize, f64)) -> Option<(f64, f64)> {
        let price = |t: &TokenId| {
            if t.index() == over.0 {
                over.1
            } else {
                nu.get(t.index()).copied().unwrap_or(0.0)
            }
        };
        let k = self.coins.iter().position(|t| t.index() == over.0);
        if k.is_none() && over.0 != usize::MAX {
            return None;
        }
        let prices: Vec<f64> = self.coins.iter().map(price).collect();
        let value = |prices: &[f64]| -> f64 {
            let held: f64 = prices.iter().zip(&self.balances).map(|(v, x)| v * x).sum();
            if !held.is_finite() {
                return f64::INFINITY;
            }
            let n = prices.len() as f64;
            let c = self.cost.unit_cost_low(prices);
            let c = if c.is_finite() && c > 0.0 { c } else { 0.0 };
            let up = 1.0 + 4.0 * (n + 1.0) * f64::EPSILON;
            let down = 1.0 - 4.0 * (n + 1.0) * f64::EPSILON;
            let mut kept = self.kept * c;
            if let (Some(t_low), Some((l, _))) = (self.pinned, self.lp) {
                // a weighted LP token: `min(ν_L·T_low, c·kept)` (a NaN price counts 0)
                let v = nu.get(l.index()).copied().unwrap_or(0.0) * t_low;
                kept = if v >= 0.0 { kept.min(v) } else { 0.0 };
            }
            (held * up - kept * down).max(0.0)
        };
        let v = value(&prices);
        let slope = match k {
            Some(k) => {
                let p = prices.get(k).copied().unwrap_or(0.0);
                let h = p * 1e-7;
                let mut hi = prices.clone();
                if let Some(x) = hi.get_mut(k) {
                    *x = p + h;
                }
                if h > 0.0 {
                    (value(&hi) - v) / h
                } else {
                    self.balances.get(k).copied().unwrap_or(0.0)
                }
            }
            None => 0.0,
        };
        Some((v, slope))
    }
}

/// [`weighted_output_bound`] with pools whose share the plans may claim: a certified upper
/// bound on `Σ_k w_k · (what the plan ends with of token k)` over every plan that starts with
/// `budget` (the plain tokens held), claims a share of each pool of `claimed` (redeeming the
/// user's LP tokens of it in any way, trading with it in any order), and swaps each allowed
/// pool direction of the rest of the graph at most once, ending with no debt in any unweighted
/// token. The pools of `claimed` must be among `exclude`. The proof is the module docs' with
/// each claimed pool's term [`Claimed::take`] in place of its edges' arbitrage.
///
/// `steer` carries the source filters and, when it has inputs and outputs, the request whose
/// certified solve picks the prices (as in [`weighted_output_bound`]); without inputs, or when
/// that solve fails, the prices are the weights and the bids into them.
///
/// # Errors
/// [`RouteError::BadRequest`] when a weight is negative or not finite, or names a token
/// outside the graph.
pub(crate) fn claimed_output_bound(
    graph: &PoolGraph,
    steer: &RouteRequest,
    budget: &[(TokenId, U256)],
    weights: &[(TokenId, f64)],
    exclude: &[PoolId],
    claimed: &[Claimed<'_>],
) -> Result<f64, RouteError> {
    let n = graph.n_tokens();
    let (w, pinned) = weight_vector(graph, weights)?;
    let b = input_vector(n, budget);
    let solved = if steer.inputs.is_empty() || steer.outputs.is_empty() {
        None
    } else {
        prepare_ctx(graph, steer).ok().map(|mut ctx| {
            leave_out(&mut ctx, graph, exclude);
            let (nu0, tok) = solved_prices(&mut ctx, n);
            (ctx.mask, nu0, tok)
        })
    };
    let (mask, nu0, solved_tok) = solved.unwrap_or_else(|| {
        let mask = mask_without(allowed_pools(graph, steer), graph, exclude);
        (mask, vec![0.0; n], vec![false; n])
    });
    let pr = Pricer {
        cache: graph.edge_cache(),
        mask: mask.as_deref(),
        b: &b,
        pinned: &pinned,
        claimed,
    };
    Ok(pr.minimise(&w, nu0, &solved_tok))
}

/// The graph's edges as the weighted bound prices them.
struct Pricer<'a> {
    cache: &'a EdgeCache,
    mask: Option<&'a [bool]>,
    /// the inputs per token
    b: &'a [f64],
    /// the weighted tokens (their prices are the weights)
    pinned: &'a [bool],
    /// the pools whose share the plans may claim ([`Claimed`]), out of the mask
    claimed: &'a [Claimed<'a>],
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64; token ids < n by construction
impl Pricer<'_> {
    /// (scale steps, Gauss–Seidel passes, bisection steps): [`CLAIMED_STEPS`] with claimed
    /// pools, else [`SCALE_STEPS`], [`GS_PASSES`], [`GS_STEPS`].
    fn steps(&self) -> (usize, usize, usize) {
        if self.claimed.is_empty() {
            (SCALE_STEPS, GS_PASSES, GS_STEPS)
        } else {
            CLAIMED_STEPS
        }
    }

    /// Whether edge `k` is priced (its pool allowed and not excluded).
    fn on(&self, k: usize) -> bool {
        self.cache
            .edges()
            .get(k)
            .is_some_and(|e| allowed(self.mask, e.pool))
    }

    /// The arbitrage of edge `k` at prices `(vi, vo)` and its flows `(x, o)`.
    fn arb(&self, k: usize, vi: f64, vo: f64) -> (f64, f64, f64) {
        let Some(e) = self.cache.edges().get(k) else {
            return (0.0, 0.0, 0.0);
        };
        if !(vo > 0.0) || !(e.rate0 * vo > vi) {
            return (0.0, 0.0, 0.0);
        }
        if !(vi > 0.0) {
            return (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        }
        // (where the model's solve fails, the bound of `EdgeModel::arb_bound`, as the
        // certificate counts it)
        self.cache
            .model(k)
            .map_or((0.0, 0.0, 0.0), |m| m.arb_bound(vi, vo, e.rate0))
    }

    /// The bound at prices `nu`: `(Σ ν b + Σ arb)(1 + margin) + Σ rounding slack`; `+∞` when a
    /// free token faces a priced one.
    fn value(&self, nu: &[f64]) -> f64 {
        if self.claimed.iter().any(|c| c.lp.is_some()) {
            let mut nu = nu.to_vec();
            self.derive(&mut nu);
            return self.value_at(&nu);
        }
        self.value_at(nu)
    }

    /// The priced LP tokens of the claimed pools at their prices ([`Claimed::lp_price`]),
    /// base pools before the pools that hold their LP (as many passes as there are claimed
    /// pools).
    fn derive(&self, nu: &mut [f64]) {
        if self.claimed.iter().all(|c| c.lp.is_none()) {
            return;
        }
        for _ in 0..self.claimed.len() {
            let mut changed = false;
            for c in self.claimed {
                if let Some((t, v)) = c.lp_price(nu) {
                    if let Some(slot) = nu.get_mut(t) {
                        if slot.to_bits() != v.to_bits() {
                            *slot = v;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// [`Pricer::value`] at prices whose LP tokens are already derived.
    fn value_at(&self, nu: &[f64]) -> f64 {
        let mut g: f64 = nu.iter().zip(self.b).map(|(v, b)| v * b).sum();
        let mut slack = 0.0;
        for (k, e) in self.cache.edges().iter().enumerate() {
            if !self.on(k) {
                continue;
            }
            let (vi, vo) = (nu[e.ti.index()], nu[e.to.index()]);
            if !(vo > 0.0) {
                continue;
            }
            if !(vi > 0.0) {
                return f64::INFINITY;
            }
            g += self.arb(k, vi, vo).0;
            slack += rounding_slack(e, self.cache.mid_fee(k), vi, vo);
        }
        for c in self.claimed {
            g += c.take(nu);
        }
        let v = g * (1.0 + BOUND_MARGIN) + slack;
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    }

    /// Prices for every token: the pinned ones at `w`, the others at `s·base`.
    fn at_scale(&self, w: &[f64], base: &[f64], s: f64) -> Vec<f64> {
        base.iter()
            .zip(w)
            .zip(self.pinned)
            .map(|((b, w), p)| if *p { *w } else { s * b })
            .collect()
    }

    /// Every unpinned token without a price (or with one a million times below its bid) takes
    /// its best bid into priced tokens (the best zero-size rate times the output's price),
    /// repeated along chains.
    fn extend_bids(&self, nu: &mut [f64]) {
        let mut fixed: Vec<bool> = nu
            .iter()
            .zip(self.pinned)
            .map(|(v, p)| *p || *v > 0.0)
            .collect();
        for _ in 0..BID_PASSES {
            let mut changed = false;
            for (k, e) in self.cache.edges().iter().enumerate() {
                let (i, o) = (e.ti.index(), e.to.index());
                if self.pinned[i] || !self.on(k) || !(nu[o] > 0.0) {
                    continue;
                }
                let cand = nu[o] * e.rate0;
                // a price a million times below its bid is the solve's placeholder for a
                // token that holds nothing: it takes the bid too
                let raise = if fixed[i] {
                    cand * 1e-6 > nu[i]
                } else {
                    cand > nu[i]
                };
                if raise && cand.is_finite() {
                    nu[i] = cand;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            for (f, v) in fixed.iter_mut().zip(nu.iter()) {
                // a token priced in this pass keeps that price from the next on
                *f = *f || *v > 0.0;
            }
        }
    }

    /// The least bound found: the common scale of the unpinned prices by golden section, then
    /// Gauss–Seidel passes over the tokens the solve priced (`solved`) and the claimed pools'
    /// coins. Tokens the solve left
    /// without a price take their bids once, at the scale where the solve's prices of the
    /// weighted tokens match the weights on average, and scale with the others.
    fn minimise(&self, w: &[f64], mut nu0: Vec<f64>, solved: &[bool]) -> f64 {
        let (mut sw, mut sn) = (0.0, 0.0);
        for ((wk, v), p) in w.iter().zip(&nu0).zip(self.pinned) {
            if *p && *v > 0.0 {
                sw += wk;
                sn += v;
            }
        }
        let s0 = if sw > 0.0 && sn > 0.0 { sw / sn } else { 1.0 };
        let before = self.at_scale(w, &nu0, s0);
        let mut at_s0 = before.clone();
        self.extend_bids(&mut at_s0);
        for (((b, x), y), p) in nu0.iter_mut().zip(&at_s0).zip(&before).zip(self.pinned) {
            if !*p && *x > 0.0 && x.to_bits() != y.to_bits() {
                *b = x / s0;
            }
        }
        let f = |ls: f64| self.value(&self.at_scale(w, &nu0, s0 * libm_exp(ls)));
        // golden section on ln s over [−ln 64, ln 64]
        let (scale_steps, passes, _) = self.steps();
        let (ls, _) = crate::math::float::golden_min(-4.2, 4.2, scale_steps, f);
        let mut nu = self.at_scale(w, &nu0, s0 * libm_exp(ls));
        self.derive(&mut nu);
        let mut best = self.value(&nu);
        for _ in 0..passes {
            for t in 0..nu.len() {
                let claimed = self
                    .claimed
                    .iter()
                    .any(|c| c.coins.iter().any(|x| x.index() == t));
                let derived = self
                    .claimed
                    .iter()
                    .any(|c| c.lp.is_some_and(|(l, _)| l.index() == t));
                if self.pinned[t] || derived || !(solved[t] || claimed) || !(nu[t] > 0.0) {
                    continue;
                }
                self.relax(t, &mut nu);
                self.derive(&mut nu);
            }
            best = best.min(self.value(&nu));
        }
        best
    }

    /// Move token `t`'s price to where its part of the bound (`ν_t b_t` plus the arbitrage of
    /// its edges) is least: bisection on the slope `b_t − outflow + inflow`, which grows with
    /// the price, within a factor 16 either way. Kept only when that part does not grow; a
    /// token without input and without an edge in arbitrage is left where it is.
    fn relax(&self, t: usize, nu: &mut [f64]) {
        let v0 = nu[t];
        let part = |v: f64, nu: &[f64]| -> (f64, f64) {
            let mut val = v * self.b[t];
            let mut slope = self.b[t];
            for a in self.cache.out_of(t) {
                let k = a.edge as usize;
                if !self.on(k) {
                    continue;
                }
                let (g, x, _) = self.arb(k, v, nu[a.tok as usize]);
                val += g;
                slope -= x;
            }
            for a in self.cache.in_of(t) {
                let k = a.edge as usize;
                if !self.on(k) {
                    continue;
                }
                let (g, _, o) = self.arb(k, nu[a.tok as usize], v);
                val += g;
                slope += o;
            }
            for c in self.claimed {
                if let Some((g, s)) = c.take_at(nu, (t, v)) {
                    val += g;
                    slope += s;
                }
            }
            (val, slope)
        };
        let (base, slope0) = part(v0, nu);
        if base == 0.0 && slope0 == 0.0 {
            // no input and no edge with arbitrage: any price inside the range is as good
            return;
        }
        let (mut lo, mut hi) = (v0 / 16.0, v0 * 16.0);
        for _ in 0..self.steps().2 {
            let mid = sqrt_or_zero(lo * hi);
            let (_, s) = part(mid, nu);
            if s.is_nan() {
                return;
            }
            if s > 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let cand = sqrt_or_zero(lo * hi);
        let (val, _) = part(cand, nu);
        if val <= base && cand.is_finite() && cand > 0.0 {
            nu[t] = cand;
        }
    }
}

/// `e^x` for the scale search (|x| ≤ 5), from `math::float` helpers only.
#[allow(clippy::arithmetic_side_effects)] // f64
fn libm_exp(x: f64) -> f64 {
    // e^x = (e^(x/64))^64; the series of e^(x/64) to the 12th term is exact to f64 here
    let y = x / 64.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..=12 {
        term *= y / f64::from(k);
        sum += term;
    }
    let mut r = sum;
    for _ in 0..6 {
        r *= r;
    }
    r
}
