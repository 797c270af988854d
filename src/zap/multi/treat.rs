//! Zap-in with LP tokens of other pools held: the ways to treat each of them, chosen by exact
//! mint.
//!
//! The default plan ([`super::ctx::Ctx::burn_lp_holdings`]) burns every LP token held at the
//! start, proportionally or in the one coin that beats burn-and-swap through the same pool,
//! and leaves to the router what those burns deliver (a metapool's burn delivers its base
//! pool's LP). Other plans can mint more, measured on generated metapool markets (the
//! integration test `zap_lp_meta`): burning the base LP a metapool burn delivers instead of
//! selling it into the metapool; a proportional burn whose other coin the router takes
//! elsewhere, where the one-coin burn looked better through the burned pool alone; a one-coin
//! withdrawal into a coin the router cannot take back cheaply (the target's own LP held by a
//! pool); keeping an LP token that is a coin of the target for the deposit instead of
//! burning it.
//!
//! So a zap-in holding LP tokens of other pools also tries every combination of ways
//! ([`Way`]) for each LP token held or delivered by the burns (but the target's own, which
//! passes through): kept (deposited when it is a coin of the target, else left to the router,
//! which may sell it; only where some pool trades it or the target takes it), burned whole
//! proportionally, burned whole into each coin of a Curve or Saber pool, and for an LP token
//! that is a coin of the target a quarter, a half or three quarters of it burned (the rest
//! deposited; the burn's coins routed into the target's other coins). Each combination
//! is finished as the default is (routed legs at the mix that mints the most, then the target's
//! exact optimum) and the one whose final LP (net of gas under a priced gas model) is
//! strictly greater than the default's replaces it. At most [`MAX_TREATMENTS`] combinations;
//! none when the default is already within the split's tolerance of its bound. Where the best
//! combination keeps or burns (a grid point of quarters) an LP token that is a coin of the
//! target, the amount burned is then searched between the neighbouring grid points
//! ([`refine_fraction`]: golden-section steps on the integer amount, each plan finished
//! exactly, at most [`MAX_FRACTION_EVALS`]), kept only where it ends with strictly more. The plan's
//! bound is the default's: the bound of zap-ins with LP inputs covers burns of the LP tokens
//! held and of those the burns deliver, in any amounts and ways (`lp_bound.rs`).

use super::ctx::Ctx;
use super::split::SPLIT_BOUND_TOLERANCE;
use super::zap_in::{mint_from, Bounds, FinalMint};
use super::{net_of_gas, ZapCost, ZapOptions};
use crate::error::ZapError;
use crate::math::float::to_f64;
use crate::plan::Step;
use crate::pool::Pool;
use crate::units::{PoolId, TokenId};
use alloc::vec::Vec;
use primitive_types::U256;

/// The most combinations of ways a zap-in tries beside its default plan.
pub(super) const MAX_TREATMENTS: usize = 16;

/// The most plans the search of the burned amount of an LP token that is a coin of the target
/// finishes beyond the quarter grid ([`refine_fraction`]).
pub(super) const MAX_FRACTION_EVALS: usize = 12;

/// The ways a combination treats the LP tokens, in the order decided.
type How = Vec<(TokenId, Way)>;

/// How one LP token held is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// kept: deposited as a coin of the target, or left to the router
    Keep,
    /// burned whole, proportionally
    Burn,
    /// burned whole into the pool's coin of this index (Curve, Saber)
    One(usize),
    /// this many quarters of it burned proportionally, the rest kept (an LP token that is a
    /// coin of the target: the burn's coins are routed into the target's other coins)
    Quarters(u8),
}

/// The target of a zap-in: its pool, LP token and coins.
pub(super) struct Target<'a> {
    pub(super) pool: PoolId,
    pub(super) lp: TokenId,
    pub(super) coins: &'a [TokenId],
}

/// A finished plan: the plan done, its final mint and its bound.
type Finished<'g> = (Ctx<'g>, FinalMint, Option<f64>);

/// Whether `ctx` holds an LP token of a pool other than the target (LP token `lp_out`).
pub(super) fn holds_other_lp(ctx: &Ctx<'_>, target: PoolId, lp_out: TokenId) -> bool {
    ctx.holdings()
        .iter()
        .any(|(t, _)| *t != lp_out && ctx.graph.pool_of_lp(*t).is_some_and(|p| p != target))
}

/// The best plan of a zap-in holding LP tokens of other pools: the default `default` (its
/// burns made the steps `default_steps` from `start`, the holdings after the fee), replaced by
/// the first other treatment of the LP tokens that ends with strictly more (module docs).
///
/// # Errors
/// The default's error when no treatment gives a plan.
pub(super) fn best_treatment<'g>(
    start: &Ctx<'g>,
    default_steps: &[Step],
    default: Result<Finished<'g>, ZapError>,
    t: &Target<'_>,
    opts: &ZapOptions,
    cost: &mut ZapCost,
) -> Result<Finished<'g>, ZapError> {
    let bound = default.as_ref().ok().and_then(|d| d.2);
    if default.as_ref().is_ok_and(|d| near_bound(d, t.lp)) {
        return default;
    }
    let mut leaves = Vec::new();
    walk(start, t, &mut Vec::new(), &mut leaves);
    let mut best = default;
    // the ways of the best plan (`None` while it is the default and no leaf has its steps)
    let mut best_how: Option<How> = None;
    for (leaf, how) in leaves {
        if leaf.steps == default_steps {
            if best_how.is_none() {
                best_how = Some(how);
            }
            continue;
        }
        let bounds = Bounds {
            held: None,
            routed: None,
            with_lp: None,
            stop: bound,
        };
        let Ok(cand) = mint_from(leaf, t.pool, t.lp, t.coins, &bounds, opts, cost) else {
            continue;
        };
        let better = match &best {
            Ok(b) => beats(&cand.0, &b.0, t.lp, opts),
            Err(_) => true,
        };
        if better {
            best = Ok((cand.0, cand.1, bound));
            best_how = Some(how);
        }
    }
    match (best, best_how) {
        (Ok(b), Some(how)) => Ok(refine_fraction(start, &how, b, t, opts, cost)),
        (best, _) => best,
    }
}

/// Whether the finished plan `f` already ends with `lp` within the split's tolerance of its
/// bound (no other treatment can gain more than that); `false` without a bound.
fn near_bound(f: &Finished<'_>, lp: TokenId) -> bool {
    #[allow(clippy::arithmetic_side_effects)] // f64
    f.2.is_some_and(|b| to_f64(f.0.held(lp)) >= b * (1.0 - SPLIT_BOUND_TOLERANCE))
}

/// Whether the plan `a` ends with strictly more of `lp` than `b` (net of gas under a priced
/// gas model).
fn beats(a: &Ctx<'_>, b: &Ctx<'_>, lp: TokenId, opts: &ZapOptions) -> bool {
    if super::gas_price_of(a.graph, opts).is_none() {
        return a.held(lp) > b.held(lp);
    }
    let net = |c: &Ctx<'_>| {
        let units = crate::plan::swap_gas_units(&c.steps, c.graph, opts.gas.as_ref());
        net_of_gas(c.graph, c.held(lp), units, opts)
    };
    net(a) > net(b)
}

/// Every combination of ways for the LP tokens held in `ctx` (but the target's and those
/// decided in `how`), depth first, into `out` with the ways taken (at most [`MAX_TREATMENTS`]).
fn walk<'g>(ctx: &Ctx<'g>, t: &Target<'_>, how: &mut How, out: &mut Vec<(Ctx<'g>, How)>) {
    if out.len() >= MAX_TREATMENTS {
        return;
    }
    let next = ctx.holdings().into_iter().find_map(|(tok, a)| {
        if tok == t.lp || how.iter().any(|(d, _)| *d == tok) {
            return None;
        }
        let p = ctx.graph.pool_of_lp(tok)?;
        (p != t.pool).then_some((tok, a, p))
    });
    let Some((tok, a, p)) = next else {
        out.push((ctx.clone(), how.clone()));
        return;
    };
    for way in ways(ctx, tok, p, t.coins) {
        let mut c = ctx.clone();
        if apply(&mut c, way, p, a).is_ok() {
            how.push((tok, way));
            walk(&c, t, how, out);
            how.pop();
        }
    }
}

/// Treats `a` of the LP token of pool `p` held in `c` the way `way` says.
fn apply(c: &mut Ctx<'_>, way: Way, p: PoolId, a: U256) -> Result<(), ZapError> {
    match way {
        Way::Keep => Ok(()),
        Way::Burn => c.burn(p, a),
        Way::One(i) => c.burn_one(p, a, i),
        Way::Quarters(q) => crate::math::mul_div(a, U256::from(q), U256::from(4u8))
            .map_err(ZapError::from)
            .and_then(|part| c.burn(p, part)),
    }
}

/// `ctx` with the LP tokens of `how` treated, in order, as it says (each on what is held of
/// it then; a token no longer held is skipped).
fn replay<'g>(mut ctx: Ctx<'g>, how: &[(TokenId, Way)]) -> Result<Ctx<'g>, ZapError> {
    for (tok, way) in how {
        let a = ctx.held(*tok);
        if a.is_zero() {
            continue;
        }
        let p = ctx.graph.pool_of_lp(*tok).ok_or(ZapError::NotAnLp(*tok))?;
        apply(&mut ctx, *way, p, a)?;
    }
    Ok(ctx)
}

/// The grid point of a way of an LP token that is a coin of the target, in quarters of it
/// burned (kept 0, burned whole 4).
fn quarters_of(way: Way) -> Option<u8> {
    match way {
        Way::Keep => Some(0),
        Way::Quarters(q) => Some(q),
        Way::Burn => Some(4),
        Way::One(_) => None,
    }
}

/// The best plan `best` (treated as `how`) with the amount burned of its first LP token that
/// is a coin of the target (kept, burned in quarters or whole: a grid point `q` quarters)
/// searched between the grid's neighbours `q - 1` and `q + 1` quarters: golden-section steps
/// on the integer amount burned, each plan finished as the grid's are (the rest deposited,
/// the other ways of `how` replayed, the routed legs and the exact final mint), at most
/// [`MAX_FRACTION_EVALS`] of them; a plan replaces the best only where it ends with strictly
/// more LP (net of gas under a priced gas model). The bound stays the default's (it covers
/// burns in any amounts). Nothing is searched where no such LP token is decided, or where the
/// best is within the split's tolerance of its bound.
fn refine_fraction<'g>(
    start: &Ctx<'g>,
    how: &[(TokenId, Way)],
    best: Finished<'g>,
    t: &Target<'_>,
    opts: &ZapOptions,
    cost: &mut ZapCost,
) -> Finished<'g> {
    let found = how.iter().enumerate().find_map(|(k, (tok, way))| {
        let q = quarters_of(*way).filter(|_| t.coins.contains(tok))?;
        Some((k, *tok, q))
    });
    let Some((k, tok, q)) = found else {
        return best;
    };
    if near_bound(&best, t.lp) {
        return best;
    }
    let (Some(before), Some(after)) = (how.get(..k), how.get(k.saturating_add(1)..)) else {
        return best;
    };
    let Ok(prefix) = replay(start.clone(), before) else {
        return best;
    };
    let Some(p) = prefix.graph.pool_of_lp(tok) else {
        return best;
    };
    let held = prefix.held(tok);
    let at = |n: u8| crate::math::mul_div(held, U256::from(n.min(4)), U256::from(4u8)).ok();
    let (Some(mut lo), Some(mut mid), Some(mut hi)) =
        (at(q.saturating_sub(1)), at(q), at(q.saturating_add(1)))
    else {
        return best;
    };
    let bounds = Bounds {
        held: None,
        routed: None,
        with_lp: None,
        stop: best.2,
    };
    let mut best = best;
    for _ in 0..MAX_FRACTION_EVALS {
        // the golden section of the larger side, from the best point
        let (left, right) = (mid.saturating_sub(lo), hi.saturating_sub(mid));
        let to_right = right >= left;
        let side = if to_right { right } else { left };
        let Ok(step) = crate::math::mul_div(side, U256::from(382u32), U256::from(1000u32)) else {
            break;
        };
        if step.is_zero() {
            break;
        }
        let x = if to_right {
            mid.saturating_add(step)
        } else {
            mid.saturating_sub(step)
        };
        let mut c = prefix.clone();
        let cand = (if x.is_zero() { Ok(()) } else { c.burn(p, x) })
            .and_then(|()| replay(c, after))
            .and_then(|c| mint_from(c, t.pool, t.lp, t.coins, &bounds, opts, cost));
        match cand {
            Ok(cand) if beats(&cand.0, &best.0, t.lp, opts) => {
                if to_right {
                    lo = mid;
                } else {
                    hi = mid;
                }
                mid = x;
                best = (cand.0, cand.1, best.2);
            }
            _ => {
                if to_right {
                    hi = x;
                } else {
                    lo = x;
                }
            }
        }
    }
    best
}

/// The ways to treat the LP token `tok` of pool `p`: kept where the target takes it or some
/// pool trades it, burned, and for Curve and Saber pools burned into each coin.
fn ways(ctx: &Ctx<'_>, tok: TokenId, p: PoolId, coins: &[TokenId]) -> Vec<Way> {
    let mut w = Vec::new();
    if coins.contains(&tok) || !ctx.graph.pools_of(tok).is_empty() {
        w.push(Way::Keep);
    }
    if coins.contains(&tok) {
        w.extend([1, 2, 3].map(Way::Quarters));
    }
    w.push(Way::Burn);
    if let Ok(state @ (Pool::StableSwap(_) | Pool::Saber(_))) = ctx.state(p) {
        w.extend((0..state.n_coins()).map(Way::One));
    }
    w
}
