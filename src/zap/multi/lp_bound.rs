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
//! The plans covered: burns of the LP tokens held at the start (in any amounts and ways), swaps
//! through any pool the filters allow (each direction of a pool outside the burned pools and the
//! target once; the burned pools and the target any number of times), one mint into the
//! target. No bound (`None`) when an LP token held is itself a coin of some pool (a plan could
//! buy more of it), when a burned pool has an LP token or the target's LP among its coins, or
//! when a family has no invariant here (SPL Token Swap, Saber, concentrated liquidity).

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

/// One burned pool of [`LpBound`]: its invariant, coins, balances and what it keeps.
struct Burned {
    pool: PoolId,
    inv: Invariant,
    coins: Vec<TokenId>,
    balances: Vec<f64>,
    /// a lower bound on `(1 − f)·G(x)`
    kept: f64,
}

/// What the bound of a zap-in with LP inputs of other pools needs from before the steps
/// ([`LpBound::start`]).
pub(super) struct LpBound {
    at: TargetHoldings,
    /// the plain tokens held (neither the target's coins nor LP tokens)
    plain: Vec<(TokenId, U256)>,
    burned: Vec<Burned>,
}

impl LpBound {
    /// `Some` for a zap-in whose holdings after the fee include LP tokens of pools other than
    /// the target, when every such pool can be bounded (module docs); `None` otherwise.
    pub(super) fn start(
        ctx: &Ctx<'_>,
        target: PoolId,
        lp_out: TokenId,
        coins: &[TokenId],
    ) -> Option<Self> {
        let g = ctx.graph;
        let mut plain = Vec::new();
        let mut burned = Vec::new();
        let holdings = ctx.holdings();
        for (t, a) in &holdings {
            if *t == lp_out || coins.contains(t) {
                continue;
            }
            match g.pool_of_lp(*t) {
                Some(p) => burned.push(Self::burned(g, p, *t, *a, lp_out)?),
                None => plain.push((*t, *a)),
            }
        }
        if burned.is_empty() {
            return None;
        }
        Some(Self {
            at: TargetHoldings::of(ctx, target, lp_out, coins),
            plain,
            burned,
        })
    }

    /// The pool `p` of the LP token `lp_token`, of which `held` is held: `f = held/T` rounded
    /// up, `kept = (1 − f)·G(x)` rounded down. `None` where the module docs say.
    #[allow(clippy::arithmetic_side_effects, clippy::neg_cmp_op_on_partial_ord)] // f64, NaN-aware
    fn burned(
        g: &PoolGraph,
        p: PoolId,
        lp_token: TokenId,
        held: U256,
        lp_out: TokenId,
    ) -> Option<Burned> {
        let info = g.pool(p)?;
        if !g.pools_of(lp_token).is_empty()
            || info
                .tokens
                .iter()
                .any(|c| *c == lp_out || g.pool_of_lp(*c).is_some())
        {
            return None;
        }
        let supply = match &info.pool {
            Pool::ConstantProduct(cp) => cp.supply_for_mint().ok()?,
            other => other.total_supply(),
        };
        let (inv, gx) = Invariant::of(&info.pool)?;
        let s = to_f64(supply) * (1.0 - 4.0 * f64::EPSILON);
        if !(s > 0.0) {
            return None;
        }
        let f = (to_f64(held) * (1.0 + 4.0 * f64::EPSILON) / s).min(1.0);
        let kept = (1.0 - f) * gx * (1.0 - 4.0 * f64::EPSILON);
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
        let super::ctx::Tangent { pool, w, weights } = self.at.tangent(graph, z)?;
        let steer = steer_request(&self.at.coins, routed, mix, opts);
        let claimed: Vec<Claimed<'_>> = self
            .burned
            .iter()
            .map(|b| Claimed {
                coins: b.coins.clone(),
                balances: b.balances.clone(),
                kept: b.kept,
                cost: &b.inv,
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
