//! Zap-in (and LP-to-LP): the fee, the burns, the legs routed into the target's coins, then
//! the optimal single-pool mint.

use super::ctx::{Ctx, TargetHoldings};
use super::split::{Minted, Mix, Split};
use super::{coin_prices, gas_price_of, net_of_gas, proportions, ZapCost, ZapInPlan, ZapOptions};
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::math::float::to_f64;
use crate::plan::{Output, Plan, Step, TokenAmount};
use crate::pool::Pool;
use crate::units::{PoolId, TokenId};
use crate::zap::{zap_in_pool, Rebalance, Strategy, ZapConfig};
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;
/// Plan a zap into the LP token `lp_out` from any tokens and LP tokens at any ratio.
///
/// See the [`zap` module docs](crate::zap) for the steps (fee, burns, routing, mint). LP-to-LP is
/// this with LP inputs.
///
/// # Errors
/// [`ZapError::BadOption`] for an option beyond its range ([`ZapOptions::check`]);
/// [`ZapError::NotAnLp`] when `lp_out` is not an LP token of the graph;
/// [`ZapError::UnknownToken`] / [`ZapError::EmptyInput`] for bad inputs;
/// [`ZapError::Route`] when a swap leg cannot be routed; [`ZapError::NothingToMint`] when the
/// final mint mints nothing; [`ZapError::Pool`] when a burn or swap reverts.
///
/// # Example
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use num_rational::Ratio;
/// use swapzap::{graph::PoolGraph, snapshot::Snapshot, zap, U256};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
/// let graph = PoolGraph::from_snapshot(&serde_json::from_str::<Snapshot>(&std::fs::read_to_string(path)?)?)?;
/// let id = |a: &str| graph.token_id(a).ok_or("not in the snapshot");
/// // the LP token of the bundled Curve pool, and two of its coins
/// let lp = id("0x2ad68bcb3a06d8665e9810fafc192d37ad8f3696")?;
/// let (coin, usdt) = (id("0xc47d6d7e3926096c3d20cfc9aa8eeb5c566f0cf9")?, id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b")?);
/// // WETH and USDT into that LP
/// let weth = id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a")?;
/// let inputs = [(weth, U256::exp10(18)), (usdt, U256::exp10(9))];
/// let z = zap::zap_in(&graph, &inputs, lp, &zap::ZapOptions::default())?;
/// assert_eq!(z.plan.outputs[0].token, lp);
/// assert_eq!(z.plan.outputs[0].amount, z.minted);
/// // the 1 bps zap fee, floor(amount / 10^4), from each input before any step
/// let fee = z.plan.zap_fee.as_ref().ok_or("no zap fee")?;
/// assert!(fee.taken.iter().any(|t| t.token == weth && t.amount == U256::exp10(14)));
/// z.plan.verify(&graph)?;
/// # let _ = (coin, Ratio::<u64>::from_integer(1));
/// # Ok(())
/// # }
/// ```
pub fn zap_in(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    lp_out: TokenId,
    opts: &ZapOptions,
) -> Result<ZapInPlan, ZapError> {
    opts.check()?;
    let target = graph.pool_of_lp(lp_out).ok_or(ZapError::NotAnLp(lp_out))?;
    super::ctx::lp_pool(graph, target)?;
    let mut ctx = Ctx::new(graph);
    let (inputs_list, zap_fee) = ctx.take_inputs(inputs, opts.fee_bps)?;
    let coins = ctx.coins(target)?;
    let held_bound = zap_in_bound(&ctx, target, lp_out, &coins)?;
    let routed = RoutedBound::start(&ctx, target, lp_out, &coins);
    let with_lp = super::lp_bound::LpBound::start(&ctx, target, lp_out, &coins);
    let start = super::treat::holds_other_lp(&ctx, target, lp_out).then(|| ctx.clone());
    let mut cost = ZapCost::default();
    let default = ctx.burn_lp_holdings(Some(lp_out), &coins).and_then(|()| {
        let bounds = Bounds {
            held: held_bound,
            routed: routed.as_ref(),
            with_lp: with_lp.as_ref(),
            stop: None,
        };
        mint_from(
            ctx.clone(),
            target,
            lp_out,
            &coins,
            &bounds,
            opts,
            &mut cost,
        )
    });
    let (done, mint, bound) = match start {
        // LP tokens held: the other ways to treat them, kept where they mint more
        Some(start) => super::treat::best_treatment(
            &start,
            &ctx.steps,
            default,
            &super::treat::Target {
                pool: target,
                lp: lp_out,
                coins: &coins,
            },
            opts,
            &mut cost,
        )?,
        None => default?,
    };
    let mut z = assemble(
        graph,
        target,
        lp_out,
        inputs_list,
        zap_fee,
        done,
        mint,
        bound,
        opts,
    )?;
    z.cost = cost;
    Ok(z)
}

/// The holdings that are neither the target's coins nor its LP: the routed legs' inputs.
fn external_holdings(ctx: &Ctx<'_>, lp_out: TokenId, coins: &[TokenId]) -> Vec<(TokenId, U256)> {
    ctx.holdings()
        .into_iter()
        .filter(|(t, _)| *t != lp_out && !coins.contains(t))
        .collect()
}

/// The bounds a zap-in's plan may carry, and where its split search may stop.
pub(super) struct Bounds<'a> {
    /// the bound of holdings that are only the target's coins and LP ([`zap_in_bound`])
    pub(super) held: Option<f64>,
    /// the bound through routed legs
    pub(super) routed: Option<&'a RoutedBound>,
    /// the bound with LP inputs of other pools
    pub(super) with_lp: Option<&'a super::lp_bound::LpBound>,
    /// a bound known already (on every plan of the zap): the split search stops within its
    /// tolerance of it when none of the above is taken
    pub(super) stop: Option<f64>,
}

/// A plan after its burns, `ctx`, finished: the legs routed into the target's coins at the
/// mix that mints the most ([`route_and_mint`]) when other tokens are held, then the final
/// mint; the plan done, the mint and the plan's bound (from `bounds`).
pub(super) fn mint_from<'g>(
    mut ctx: Ctx<'g>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
    bounds: &Bounds<'_>,
    opts: &ZapOptions,
    cost: &mut ZapCost,
) -> Result<(Ctx<'g>, FinalMint, Option<f64>), ZapError> {
    let external = external_holdings(&ctx, lp_out, coins);
    if external.is_empty() {
        let lp_bound = bounds.with_lp.and_then(|l| {
            cost.bound_solves = cost.bound_solves.saturating_add(1);
            l.bound(&ctx, &[], &[], opts)
        });
        let mint = mint_or_pass(&mut ctx, target, lp_out, coins, opts)?;
        return Ok((ctx, mint, bounds.held.or(lp_bound)));
    }
    let bounder = match (bounds.routed, bounds.with_lp) {
        (Some(r), _) => Some(Bounder::Routed(r)),
        (None, Some(l)) => Some(Bounder::Lp(l, &external)),
        (None, None) => None,
    };
    let (m, bound) = route_and_mint(
        &ctx,
        target,
        lp_out,
        coins,
        &external,
        bounder.as_ref(),
        bounds.stop,
        opts,
        cost,
    )?;
    Ok((m.done, m.mint, bound))
}

/// The final mint's outcome: LP minted, the rebalance decision, the optimiser's strategy
/// (`None`: nothing minted, only the target's own LP was given).
pub(super) type FinalMint = (U256, Rebalance, Option<Strategy>);

/// The final mint on the coins held, or nothing when only the target's own LP is held (it
/// passes through).
pub(super) fn mint_or_pass(
    ctx: &mut Ctx<'_>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
    opts: &ZapOptions,
) -> Result<FinalMint, ZapError> {
    let amounts: Vec<U256> = coins.iter().map(|t| ctx.held(*t)).collect();
    if amounts.iter().all(U256::is_zero) && !ctx.held(lp_out).is_zero() {
        return Ok((U256::zero(), Rebalance::NotNeeded, None));
    }
    final_mint(ctx, target, lp_out, coins, &amounts, opts)
}

/// The plan and the result from the finished plan `done`: the LP output (with its slippage
/// minimum), the refunds (everything else held), gas and value.
#[allow(clippy::too_many_arguments)] // the pieces of the result, each named
fn assemble(
    graph: &PoolGraph,
    target: PoolId,
    lp_out: TokenId,
    inputs: Vec<TokenAmount>,
    zap_fee: Option<crate::plan::ZapFee>,
    done: Ctx<'_>,
    (minted, rebalance, strategy): FinalMint,
    bound: Option<f64>,
    opts: &ZapOptions,
) -> Result<ZapInPlan, ZapError> {
    let out_amount = done.held(lp_out);
    let outputs = alloc::vec![Output {
        token: lp_out,
        amount: out_amount,
        min_amount: crate::plan::min_after_slippage(out_amount, opts.slippage)?,
    }];
    let refunds: Vec<TokenAmount> = done
        .holdings()
        .into_iter()
        .filter(|(t, _)| *t != lp_out)
        .map(|(token, amount)| TokenAmount { token, amount })
        .collect();
    let gas_units = crate::plan::swap_gas_units(&done.steps, graph, opts.gas.as_ref());
    let plan = Plan {
        inputs,
        steps: done.steps,
        outputs,
        refunds,
        zap_fee,
        value: net_of_gas(graph, out_amount, gas_units, opts),
        upper_bound: bound,
        rounding_slack: None,
        price_impact: 0.0,
        gas_units,
        slippage: opts.slippage,
        gas_price: gas_price_of(graph, opts),
        bound_max_hops: None,
        excluded: Vec::new(),
    };
    Ok(ZapInPlan {
        plan,
        pool: target,
        minted,
        rebalance,
        strategy,
        cost: ZapCost::default(),
    })
}

/// The plan-level bound of a zap-in whose holdings (after the fee) are only coins of the
/// target pool and its own LP: the LP held plus [`crate::zap::mint_upper_bound`] of the coins on the
/// target's snapshot state (every plan of such a request is an optional swap through the target
/// and one mint, see [`crate::zap::bound`]). `None` when other tokens or LP tokens are held (their
/// value in the target's coins would need a bound on the routes), when a coin held is an LP
/// token of another pool (a plan may burn it: [`super::lp_bound::LpBound`] bounds that), or
/// the pool has no bound.
fn zap_in_bound(
    ctx: &Ctx<'_>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
) -> Result<Option<f64>, ZapError> {
    if ctx
        .holdings()
        .iter()
        .any(|(t, _)| *t != lp_out && !coins.contains(t))
        || super::treat::holds_other_lp(ctx, target, lp_out)
    {
        // (an LP token of another pool that is a coin of the target may be burned: the
        // bound with LP inputs covers that)
        return Ok(None);
    }
    let amounts: Vec<U256> = coins.iter().map(|t| ctx.held(*t)).collect();
    let lp = to_f64(ctx.held(lp_out));
    if amounts.iter().all(U256::is_zero) {
        return Ok(Some(lp));
    }
    #[allow(clippy::arithmetic_side_effects)] // f64
    Ok(crate::zap::mint_upper_bound(ctx.state(target)?, &amounts).map(|b| b + lp))
}

/// What the bound of a zap-in through routed legs needs from before the steps
/// ([`RoutedBound::start`]): the target, its coins and the holdings after the fee.
pub(super) struct RoutedBound {
    at: TargetHoldings,
    /// the other tokens held: the routed legs' inputs
    external: Vec<(TokenId, U256)>,
}

impl RoutedBound {
    /// `Some` for a zap-in whose holdings after the fee include tokens other than the target's
    /// coins and LP, none of them an LP token of a pool, nor any coin held (with LP inputs the
    /// burned pools are bounded as a whole: [`super::lp_bound::LpBound`]).
    fn start(ctx: &Ctx<'_>, target: PoolId, lp_out: TokenId, coins: &[TokenId]) -> Option<Self> {
        let external: Vec<(TokenId, U256)> = ctx
            .holdings()
            .into_iter()
            .filter(|(t, _)| *t != lp_out && !coins.contains(t))
            .collect();
        if external.is_empty()
            || external
                .iter()
                .any(|(t, _)| ctx.graph.pool_of_lp(*t).is_some())
            || super::treat::holds_other_lp(ctx, target, lp_out)
        {
            return None;
        }
        Some(Self {
            at: TargetHoldings::of(ctx, target, lp_out, coins),
            external,
        })
    }

    /// The bound (module docs of `zap::bound`, [`crate::zap::bound::routed_mint_upper_bound`]):
    /// the tangent of the target's invariant at `z`, the routes' certified value at those
    /// weights on the graph without the target ([`crate::route::weighted_output_bound`],
    /// steered by the routed legs' output mix `mix`, under the options' source filters, any
    /// number of hops), and the target's own swaps and mint; plus the target LP held. `None`
    /// where a part has none.
    fn bound(
        &self,
        graph: &PoolGraph,
        z: &[U256],
        mix: &[(TokenId, Ratio<u64>)],
        opts: &ZapOptions,
    ) -> Option<f64> {
        let super::ctx::Tangent { pool, w, weights } = self.at.tangent(graph, z)?;
        let req = super::lp_bound::steer_request(&self.at.coins, &self.external, mix, opts);
        let routed =
            crate::route::weighted_output_bound(graph, &req, &weights, &[self.at.target]).ok()?;
        self.at.mint_bound(pool, &w, routed)
    }
}

/// The bound of a zap-in that routes, taken at a candidate plan's tangent point: through
/// routed legs only ([`RoutedBound`]), or with LP inputs of other pools
/// ([`super::lp_bound::LpBound`], with the holdings the legs route). Either is a bound on every
/// plan of the zap at any tangent point, so the split search may stop on it and the plan keeps
/// the least of those taken.
enum Bounder<'a> {
    Routed(&'a RoutedBound),
    Lp(&'a super::lp_bound::LpBound, &'a [(TokenId, U256)]),
}

impl Bounder<'_> {
    /// The bound at the tangent point of the candidate `m`.
    fn at(
        &self,
        graph: &PoolGraph,
        target: PoolId,
        coins: &[TokenId],
        m: &Minted<'_>,
        opts: &ZapOptions,
    ) -> Option<f64> {
        match self {
            Bounder::Routed(r) => {
                let z = super::lp_bound::tangent_point(&m.routed, target, coins)?;
                r.bound(graph, &z, &m.mix, opts)
            }
            Bounder::Lp(l, external) => l.bound(&m.routed, external, &m.mix, opts),
        }
    }
}

/// The target pool's optimal swap and mint on the holdings `amounts` of its coins.
fn final_mint(
    ctx: &mut Ctx<'_>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
    amounts: &[U256],
    opts: &ZapOptions,
) -> Result<(U256, Rebalance, Option<Strategy>), ZapError> {
    let state = ctx.state(target)?.clone();
    let best = zap_in_pool(&state, amounts, &opts.config)
        .map_err(|e| too_large(ctx.graph, target, &state, amounts, e))?;
    let z = without_swap_if_gas_exceeds_gain(ctx.graph, target, &state, amounts, opts, best);
    if let Some(sw) = z.swap {
        let (ti, to) = (
            *coins.get(sw.from).ok_or(ZapError::Unsupported(
                crate::error::ZapUnsupported::CoinIndex {
                    pool: target,
                    index: sw.from,
                },
            ))?,
            *coins.get(sw.to).ok_or(ZapError::Unsupported(
                crate::error::ZapUnsupported::CoinIndex {
                    pool: target,
                    index: sw.to,
                },
            ))?,
        );
        let out = ctx.swap(target, ti, to, sw.amount_in)?;
        if out != sw.amount_out {
            return Err(ZapError::Unsupported(
                crate::error::ZapUnsupported::RebalanceNotExact {
                    pool: target,
                    expected: sw.amount_out,
                    got: out,
                },
            ));
        }
    }
    let before = ctx.state(target)?.clone();
    let (minted, after) = before.mint(&z.deposit)?;
    if minted != z.minted || minted.is_zero() {
        return Err(ZapError::NothingToMint);
    }
    for (t, d) in coins.iter().zip(z.deposit.iter()) {
        ctx.debit(*t, *d)?;
    }
    ctx.credit(lp_out, minted)?;
    ctx.steps.push(Step::Mint {
        pool: target,
        amounts_in: z.deposit.to_vec(),
        lp_out: minted,
    });
    ctx.states.insert(target, after);
    Ok((minted, z.rebalance, Some(z.strategy)))
}

/// The single-pool optimiser's error `e` on `amounts`, as the swap would name it: an overflow
/// (the amounts do not fit the pool's balances or its arithmetic) is
/// [`ZapError::InsufficientLiquidity`], as is "nothing to mint" when the direct deposit of
/// `amounts` itself overflows (a swap of such an amount is the router's
/// `InsufficientLiquidity`, no-route class, not a retryable arithmetic failure); any other error
/// is kept.
fn too_large(
    graph: &PoolGraph,
    target: PoolId,
    state: &Pool,
    amounts: &[U256],
    e: ZapError,
) -> ZapError {
    use crate::error::{MathError, PoolError};
    let overflow = |e: &ZapError| {
        matches!(
            e,
            ZapError::Math(MathError::Overflow)
                | ZapError::Pool(
                    PoolError::ReserveOverflow
                        | PoolError::InsufficientLiquidity
                        | PoolError::Math(MathError::Overflow)
                )
        )
    };
    let deposit_overflows = || match state.mint(amounts) {
        Err(pe) => overflow(&ZapError::Pool(pe)),
        Ok(_) => false,
    };
    if overflow(&e) || (e == ZapError::NothingToMint && deposit_overflows()) {
        ZapError::InsufficientLiquidity {
            pool: graph
                .pool(target)
                .map_or_else(alloc::string::String::new, |p| p.id.clone()),
        }
    } else {
        e
    }
}

/// Under a priced gas model, the optimum's rebalancing swap is kept only when the LP it adds
/// is worth more than its gas (`units(target kind) × gas price`, the price being in base units
/// of the output, here the LP): otherwise the plan without the swap (the direct deposit, the
/// surplus refunded) nets more.
fn without_swap_if_gas_exceeds_gain(
    graph: &PoolGraph,
    target: PoolId,
    state: &Pool,
    amounts: &[U256],
    opts: &ZapOptions,
    z: crate::zap::ZapIn,
) -> crate::zap::ZapIn {
    let (Some(price), Some(gm), Some(_)) = (gas_price_of(graph, opts), opts.gas, z.swap) else {
        return z;
    };
    let Some(kind) = graph.pool(target).map(|p| p.kind) else {
        return z;
    };
    let no_swap = ZapConfig {
        surplus_threshold_ppm: crate::zap::MAX_SURPLUS_THRESHOLD_PPM,
        ..opts.config
    };
    let Ok(mut direct) = zap_in_pool(state, amounts, &no_swap) else {
        return z;
    };
    if direct.swap.is_some() || direct.minted.is_zero() {
        return z;
    }
    let gain = z.minted.saturating_sub(direct.minted);
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let cost = gm.units(kind) as f64 * price;
    if to_f64(gain) < cost {
        direct.rebalance = Rebalance::NotWorthGas { gain };
        direct
    } else {
        z
    }
}

/// Route `external` holdings into the target's coins at the mix that mints the most
/// ([`Split`]): the value-share split first (the default, kept unless another mix mints
/// strictly more), the certified bound at its tangent point ([`Bounder`]: through routed legs,
/// or with LP inputs of other pools), then the search, which stops early once the best exact mint is
/// within its tolerance of that bound. The best plan, and the bound: the lesser of the
/// default's and, when another mix won, the one at the winner's tangent (both are bounds on
/// every plan).
#[allow(clippy::too_many_arguments)] // the zap's pieces, each named
fn route_and_mint<'g>(
    ctx: &Ctx<'g>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
    external: &[(TokenId, U256)],
    routed: Option<&Bounder<'_>>,
    stop: Option<f64>,
    opts: &ZapOptions,
    cost: &mut ZapCost,
) -> Result<(Minted<'g>, Option<f64>), ZapError> {
    let g = ctx.route_graph()?;
    let mut split = Split::new(ctx, g.as_ref(), target, lp_out, coins, external, opts);
    let mut first_err = None;
    for (mix, plan) in default_split(&split, ctx, target, coins)? {
        if let Err(e) = split.offer(mix, &plan) {
            first_err.get_or_insert(e);
        }
    }
    let mut solves = 0u32;
    let mut bound_at = |m: &Minted<'_>| {
        let r = routed?;
        solves = solves.saturating_add(1);
        r.at(ctx.graph, target, coins, m, opts)
    };
    let default_bound = split.best().and_then(&mut bound_at);
    let default_mix = split.best().map(|m| m.mix.clone());
    split.stop_at(default_bound.or(stop));
    split.search();
    cost.router_quotes = cost.router_quotes.saturating_add(split.quotes_made());
    let best = match split.into_best() {
        Some(b) => b,
        None => return Err(first_err.unwrap_or(ZapError::NothingToMint)),
    };
    let mut bound = default_bound;
    // (with LP inputs the winner's bound is always taken, as before the early stop: so the
    // plan's bound is never looser than it was)
    let lp_inputs = matches!(routed, Some(Bounder::Lp(..)));
    if default_mix.as_ref() != Some(&best.mix)
        && (lp_inputs || !close_to(default_bound, &best, lp_out))
    {
        if let Some(b) = bound_at(&best) {
            bound = Some(bound.map_or(b, |d| d.min(b)));
        }
    }
    cost.bound_solves = cost.bound_solves.saturating_add(solves);
    Ok((best, bound))
}

/// When the default's bound is within this fraction of the best plan's mint, the winner's
/// tangent is not tried (it could tighten the bound by no more than that).
const BOUND_CLOSE: f64 = 2e-3;

/// Whether the bound `bound` is within [`BOUND_CLOSE`] of the plan `best`'s output of `lp_out`.
fn close_to(bound: Option<f64>, best: &Minted<'_>, lp_out: TokenId) -> bool {
    let Some(b) = bound else { return false };
    let out = to_f64(best.done.held(lp_out));
    #[allow(clippy::arithmetic_side_effects)] // f64
    let close = b <= out * (1.0 + BOUND_CLOSE);
    close
}

/// The default split: by the value shares of the pool's balances, less what the user already
/// holds of each coin (a second quote corrects the split when the held coins are far from
/// their share). The candidates in order: the mix the value-share split takes, then the first
/// quote's when the second was taken (a free candidate).
fn default_split(
    split: &Split<'_, '_>,
    ctx: &Ctx<'_>,
    target: PoolId,
    coins: &[TokenId],
) -> Result<Vec<(Mix, Plan)>, ZapError> {
    let state = ctx.state(target)?.clone();
    let prices = coin_prices(&state);
    let value_of = |k: usize, a: U256| -> f64 {
        #[allow(clippy::arithmetic_side_effects)] // f64
        let v = to_f64(a) * prices.get(k).copied().unwrap_or(0.0);
        v
    };
    let pool_value: Vec<f64> = state
        .balances()
        .iter()
        .enumerate()
        .map(|(k, b)| value_of(k, *b))
        .collect();
    let total_pool: f64 = pool_value.iter().sum();
    let held: Vec<f64> = coins
        .iter()
        .enumerate()
        .map(|(k, t)| value_of(k, ctx.held(*t)))
        .collect();
    let held_total: f64 = held.iter().sum();
    let shares: Vec<(TokenId, f64)> = coins
        .iter()
        .copied()
        .zip(pool_value.iter().copied())
        .collect();
    let first = proportions(&shares);
    if first.is_empty() || total_pool <= 0.0 {
        return Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::TargetWithoutValue { pool: target },
        ));
    }
    let plan = split.quote(&first)?;
    if held_total > 0.0 {
        // Value routed in, at the target's prices; then the split that brings every coin to
        // its share of the total.
        let routed: f64 = plan
            .outputs
            .iter()
            .filter_map(|o| {
                coins
                    .iter()
                    .position(|t| *t == o.token)
                    .map(|k| value_of(k, o.amount))
            })
            .sum();
        #[allow(clippy::arithmetic_side_effects)] // f64
        let want: Vec<(TokenId, f64)> = coins
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let share = pool_value.get(k).copied().unwrap_or(0.0) / total_pool;
                let need = share * (routed + held_total) - held.get(k).copied().unwrap_or(0.0);
                (*t, need.max(0.0))
            })
            .collect();
        let second = proportions(&want);
        let differs = second.len() != first.len()
            || second
                .iter()
                .zip(&first)
                .any(|(a, b)| a.0 != b.0 || ratio_gap(a.1, b.1) > 0.01);
        if !second.is_empty() && differs {
            if let Ok(p2) = split.quote(&second) {
                return Ok(alloc::vec![(second, p2), (first, plan)]);
            }
        }
    }
    Ok(alloc::vec![(first, plan)])
}

fn ratio_gap(a: Ratio<u64>, b: Ratio<u64>) -> f64 {
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let d = *a.numer() as f64 / *a.denom() as f64 - *b.numer() as f64 / *b.denom() as f64;
    if d < 0.0 {
        -d
    } else {
        d
    }
}
