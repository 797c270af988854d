//! The bound of zap-ins whose inputs include LP tokens of other pools ([`LpBound`]).
//!
//! Such a plan burns those LP tokens first (proportionally, or one coin where that beats
//! burn-and-swap), and its routed legs may then trade with the burned pools on their new
//! states. The bound treats each burned pool `P` as a whole, as the routed bound treats the
//! target: `P` leaves the routed graph, and what the user can take from it in any mix of burns
//! and swaps is bounded through its invariant. With `f` the user's share of `P`'s supply
//! (V2 with the protocol fee on: of the supply a mint or burn uses, which only makes `f`
//! smaller), `G(x)/T` (invariant per LP unit) never falls: swaps do not lower `G`
//! (and, fee on, the supply a burn uses grows more slowly than `G`); a proportional burn of
//! `β` units takes at most `β/T` of every balance (floored), so `G` falls by at most `β/T`; a
//! Curve one-coin withdrawal lowers `D` by exactly the burned share before its fee, and the
//! fee (less any admin part, which the user does not get either) stays in the pool. So `P`
//! ends with balances `x'` where `G(x') ≥ (1 − f)·G(x)`, and what the user took, `x − x'`, is
//! worth at prices `ν` at most `ν·x − (1 − f)·G(x)·c(ν)`, `c(ν) = min{ν·y : G(y) ≥ 1}`
//! ([`crate::zap::bound::Invariant`] gives a lower bound on `c`). That term joins the weak
//! duality of [`crate::route::weighted_output_bound`] in place of `P`'s edges
//! (`route::claimed_output_bound`), and the target's tangent does the rest
//! ([`crate::zap::bound::routed_mint_upper_bound`]).
//!
//! **LP tokens that trade** (a metapool's base LP; the LP tokens a burned pool holds as coins).
//! When an LP token held is some pool's coin, a plan may sell it, or buy more and burn it, so
//! the user's share is not fixed: the pool is claimed with its LP token *priced* in the duality
//! at `c(ν)·G(x)/T` (from below) and the LP held joins the budget at that price (the proof is at
//! `route::weighted`'s `Claimed`: `G/T` never falls, so what a plan takes from the pool, coins
//! out less LP in, is worth at most `ν·x − c(ν)·G(x)`). A burned pool whose coins include LP
//! tokens of other pools (a metapool's LP held) claims those base pools too, transitively
//! (their LP priced the same way, the base pools before the pools that hold their LP), since a
//! burn delivers the base LP and a plan may burn it in turn. When some pool holds the
//! target's own LP, that LP is weighted at `G(x)/T` of the target from above
//! ([`crate::zap::bound::lp_weight`]): whatever target LP a plan obtains counts at least one
//! unit in the mint bound, and the target LP held is in the budget instead of added after.
//!
//! The plans covered: burns of the LP tokens held at the start and of those the burns deliver
//! (in any amounts and ways), swaps through any pool the filters allow (each direction of a
//! pool outside the claimed pools and the target once; the claimed pools and the target any
//! number of times), one mint into the target. Families: constant product (V2, fee on or off),
//! solidly, Curve, Saber (its `D`) and SPL Token Swap (`√xy`; its swaps' owner-fee mints are
//! not the user's supply and only help: `route::weighted`'s `Claimed`), as burned pools and as
//! targets (`zap::bound`'s docs). No bound (`None`) for more than sixteen claimed pools, a family
//! without an invariant here (concentrated liquidity and Whirlpool have no LP token), or an
//! empty pool.

use super::ctx::{Ctx, TargetHoldings};
use super::{proportions, ZapOptions};
use crate::graph::PoolGraph;
use crate::math::float::to_f64;
use crate::pool::Pool;
use crate::route::{Claimed, RouteRequest};
use crate::units::{PoolId, TokenId};
use crate::zap::bound::Invariant;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// One claimed pool of [`LpBound`]: its invariant, coins, balances, what it keeps and, when
/// its LP token can be bought or sold, that token priced ([`Claimed`]'s `lp`).
struct Burned {
    pool: PoolId,
    inv: Invariant,
    coins: Vec<TokenId>,
    balances: Vec<f64>,
    /// a lower bound on `(1 − f)·G(x)` (a priced LP: on `G(x)·T_low/T_up`)
    kept: f64,
    /// the LP token and a lower bound on `G(x)/T`, when it is priced
    lp: Option<(TokenId, f64)>,
    /// the LP token is a coin of the target, weighted by the target's tangent: a lower bound
    /// on the supply ([`Claimed`]'s `pinned`)
    pinned: Option<f64>,
}

/// The most pools a zap-in's bound claims (the LP inputs' pools and the pools whose LP tokens
/// they hold, transitively): a cost cap, not a validity limit. Every evaluation of the price
/// search visits every claimed pool (the LP prices up to `k` times), so it grows with `k`;
/// measured (callgrind, `zap_claimed`'s probe, markets of about 25 pools) the bound's solves
/// take 5.3 M instructions with 16 LP inputs and 16.4 M with a chain of 16 nested pools, 37 %
/// and 18 % of the whole zap-in (1.8 M and 2.8 M with 4).
const MAX_CLAIMED: usize = 16;

/// What the bound of a zap-in with LP inputs of other pools needs from before the steps
/// ([`LpBound::start`]).
pub(super) struct LpBound {
    at: TargetHoldings,
    /// the budget: the plain tokens held (neither the target's coins nor LP tokens) and the
    /// LP tokens held whose price is derived from their pool's (module docs)
    plain: Vec<(TokenId, U256)>,
    burned: Vec<Burned>,
    /// the weight of the target's own LP token when some pool trades it (a lower bound on the
    /// target's `G(x)/T` from above: [`crate::zap::bound::lp_weight`]); the LP held is then
    /// in the budget, not added after
    lp_weight: Option<f64>,
}

impl LpBound {
    /// `Some` for a zap-in whose holdings after the fee include LP tokens of pools other than
    /// the target, when every pool it claims can be bounded (module docs); `None` otherwise.
    pub(super) fn start(
        ctx: &Ctx<'_>,
        target: PoolId,
        lp_out: TokenId,
        coins: &[TokenId],
    ) -> Option<Self> {
        let g = ctx.graph;
        let mut plain = Vec::new();
        let mut pools: Vec<(PoolId, U256)> = Vec::new();
        for (t, a) in &ctx.holdings() {
            if *t == lp_out {
                continue;
            }
            match g.pool_of_lp(*t) {
                // an LP token that is a coin of the target too (a metapool target's base LP):
                // its pool is claimed, the LP weighted by the target's tangent
                Some(p) if p != target => pools.push((p, *a)),
                _ if coins.contains(t) => {}
                Some(_) => {}
                None => plain.push((*t, *a)),
            }
        }
        if pools.is_empty() {
            return None;
        }
        // the pools whose LP token a claimed pool holds as a coin: a burn delivers it and a
        // plan may burn it in turn (a metapool's base pool), so they are claimed too
        let mut k = 0;
        while let Some((p, _)) = pools.get(k).copied() {
            k = k.saturating_add(1);
            for c in &g.pool(p)?.tokens {
                // (the target's own LP is weighted instead)
                match g.pool_of_lp(*c) {
                    Some(q) if q != target && !pools.iter().any(|(x, _)| *x == q) => {
                        pools.push((q, U256::zero()));
                    }
                    _ => {}
                }
            }
            if pools.len() > MAX_CLAIMED {
                return None;
            }
        }
        let mut burned = Vec::new();
        for (p, held) in &pools {
            let pinned = g.lp_token(*p).is_ok_and(|l| coins.contains(&l));
            let b = Self::burned(g, *p, *held, pinned)?;
            if let (Some((lp, _)), false) = (b.lp, pinned) {
                if !held.is_zero() {
                    plain.push((lp, *held));
                }
            }
            burned.push(b);
        }
        let at = TargetHoldings::of(ctx, target, lp_out, coins);
        let lp_weight = if g.pools_of(lp_out).is_empty() {
            None
        } else {
            let w = crate::zap::bound::lp_weight(&g.pool(target)?.pool)?;
            if !at.lp.is_zero() {
                plain.push((lp_out, at.lp));
            }
            Some(w)
        };
        Some(Self {
            at,
            plain,
            burned,
            lp_weight,
        })
    }

    /// The pool `p`, of whose LP token `held` is held: its invariant and, when its LP token is
    /// no pool's coin, `f = held/T` rounded up and `kept = (1 − f)·G(x)` rounded down; when it
    /// is some pool's coin (it can be bought, sold or received from a burn), the LP priced at
    /// `c(ν)·G(x)/T` and `kept = G(x)·T_low/T_up` ([`Claimed`]'s docs); when it is a coin of
    /// the target (`pinned`), priced by the target's weight instead, with `T_low`. `None` for a
    /// family without an invariant here or an empty pool.
    #[allow(clippy::arithmetic_side_effects, clippy::neg_cmp_op_on_partial_ord)] // f64, NaN-aware
    fn burned(g: &PoolGraph, p: PoolId, held: U256, pinned: bool) -> Option<Burned> {
        let info = g.pool(p)?;
        let supply = match &info.pool {
            Pool::ConstantProduct(cp) => cp.supply_for_mint().ok()?,
            other => other.total_supply(),
        };
        let (inv, gx) = Invariant::of(&info.pool)?;
        let s = to_f64(supply) * (1.0 - 4.0 * f64::EPSILON);
        if !(s > 0.0) {
            return None;
        }
        // (an SPL Token Swap pool's owner-fee mints are not the user's supply: `Claimed`'s docs)
        let priced = !g.pools_of(info.lp_token).is_empty();
        let (kept, lp) = if priced {
            let s_up = to_f64(supply) * (1.0 + 4.0 * f64::EPSILON);
            let kept = gx * (s / s_up) * (1.0 - 4.0 * f64::EPSILON);
            let per_lp = gx / s_up * (1.0 - 4.0 * f64::EPSILON);
            (kept, Some((info.lp_token, per_lp)))
        } else {
            let f = (to_f64(held) * (1.0 + 4.0 * f64::EPSILON) / s).min(1.0);
            ((1.0 - f) * gx * (1.0 - 4.0 * f64::EPSILON), None)
        };
        let up = 1.0 + 4.0 * f64::EPSILON;
        Some(Burned {
            pool: p,
            inv,
            coins: info.tokens.clone(),
            balances: info
                .pool
                .balances()
                .iter()
                .map(|b| to_f64(*b) * up)
                .collect(),
            kept: kept.max(0.0),
            lp,
            pinned: (pinned && lp.is_some()).then_some(s),
        })
    }

    /// The bound on the plan `plan` (the zap after its routed legs, before the final mint): the
    /// tangent of the target's invariant at its balances there plus the coins held, the
    /// certified value at those weights of what the plain tokens and the burned pools can
    /// deliver on the graph without the target and the burned pools
    /// (`route::claimed_output_bound`, its prices steered by the legs the zap routed, `routed`
    /// at the output mix `mix`, under the options' source filters), and the target's own swaps
    /// and mint; plus the target LP held. `None` where a part has none.
    pub(super) fn bound(
        &self,
        plan: &Ctx<'_>,
        routed: &[(TokenId, U256)],
        mix: &[(TokenId, Ratio<u64>)],
        opts: &ZapOptions,
    ) -> Option<f64> {
        let graph = plan.graph;
        let z = tangent_point(plan, self.at.target, &self.at.coins)?;
        let z = z.as_slice();
        let super::ctx::Tangent {
            pool,
            w,
            mut weights,
        } = self.at.tangent(graph, z)?;
        if let Some(wl) = self.lp_weight {
            weights.push((self.at.lp_token, wl));
        }
        let steer = steer_request(&self.at.coins, routed, mix, opts);
        let claimed: Vec<Claimed<'_>> = self
            .burned
            .iter()
            .map(|b| Claimed {
                coins: b.coins.clone(),
                balances: b.balances.clone(),
                kept: b.kept,
                cost: &b.inv,
                lp: b.lp,
                pinned: b.pinned,
            })
            .collect();
        let mut exclude: Vec<PoolId> = self.burned.iter().map(|b| b.pool).collect();
        exclude.push(self.at.target);
        let value = crate::route::claimed_output_bound(
            graph,
            &steer,
            &self.plain,
            &weights,
            &exclude,
            &claimed,
        )
        .ok()?;
        if self.lp_weight.is_some() {
            // the LP held is in the budget
            return crate::zap::bound::routed_mint_upper_bound(pool, &self.at.held, &w, value);
        }
        self.at.mint_bound(pool, &w, value)
    }
}

/// The point where a zap-in's bound takes the target's tangent: the target's balances on the
/// plan `at` (after the routed legs) plus the coins held there, which the mint is about to
/// deposit. `None` on an overflow or an unknown pool.
pub(super) fn tangent_point(at: &Ctx<'_>, target: PoolId, coins: &[TokenId]) -> Option<Vec<U256>> {
    at.state(target)
        .ok()?
        .balances()
        .iter()
        .zip(coins)
        .map(|(b, t)| b.checked_add(at.held(*t)))
        .collect()
}

/// The request that steers a routed bound's prices: `inputs` into the target's `coins` at the
/// output mix `mix` (evenly when it is empty), under the options' source filters.
pub(super) fn steer_request(
    coins: &[TokenId],
    inputs: &[(TokenId, U256)],
    mix: &[(TokenId, Ratio<u64>)],
    opts: &ZapOptions,
) -> RouteRequest {
    let outputs = if mix.is_empty() {
        let even: Vec<(TokenId, f64)> = coins.iter().map(|t| (*t, 1.0)).collect();
        proportions(&even)
    } else {
        mix.to_vec()
    };
    let mut req = RouteRequest::new(inputs.to_vec(), outputs);
    req.source_whitelist.clone_from(&opts.source_whitelist);
    req.source_blacklist.clone_from(&opts.source_blacklist);
    req
}
