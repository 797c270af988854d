//! Plan-level zaps over a [`PoolGraph`]; documented in the [`zap`](super) module.

use super::{zap_in_pool, Rebalance, ZapConfig};
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::math::float::{from_f64_clamped, sqrt_or_zero, to_f64};
use crate::plan::{Output, Plan, Step, TokenAmount, ZapFee};
use crate::pool::Pool;
use crate::route::{quote, GasModel, RouteRequest};
use crate::units::{PoolId, TokenId};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// The zap fee in basis points: 0.01 % (spec item 8, `swapMulti`).
pub const ZAP_FEE_BPS: u32 = 1;

/// The largest [`ZapOptions::fee_bps`] accepted: 10,000 basis points, the whole input.
pub const MAX_ZAP_FEE_BPS: u32 = 10_000;

/// The zap fee of `fee_bps` basis points on `amount`: `floor(amount · fee_bps / 10_000)` (the
/// user keeps the remainder).
///
/// # Errors
/// None in practice (a full-width `mul_div` by a non-zero constant); typed all the same.
pub fn zap_fee(amount: U256, fee_bps: u32) -> Result<U256, crate::error::MathError> {
    crate::math::mul_div(amount, U256::from(fee_bps), U256::from(MAX_ZAP_FEE_BPS))
}

/// Options of a plan-level zap. Every size has a range and a typed error beyond it:
/// `fee_bps` ([`MAX_ZAP_FEE_BPS`]) and `config` ([`ZapConfig::check`]) as
/// [`ZapError::BadOption`], `max_hops` (1 to [`crate::route::MAX_HOPS_LIMIT`]) and `slippage`
/// ([0, 1]) as the router's [`crate::error::RouteError::BadRequest`] inside
/// [`ZapError::Route`].
#[derive(Debug, Clone, PartialEq)]
pub struct ZapOptions {
    /// The single-pool optimiser's settings (surplus threshold).
    pub config: ZapConfig,
    /// Slippage limit as a fraction: `min_amount = floor(amount × (1 − slippage))`.
    pub slippage: Ratio<u64>,
    /// Hop limit of the swap legs (`None`: none, as [`crate::route::RouteRequest::max_hops`]).
    pub max_hops: Option<usize>,
    /// The zap fee in basis points of each input (default [`ZAP_FEE_BPS`]; at most
    /// [`MAX_ZAP_FEE_BPS`], the whole input).
    pub fee_bps: u32,
    /// Only pools of these sources for the swap legs (when given). Burns of the LP inputs and
    /// the target pool's own rebalancing swap and mint are named by the request and always
    /// allowed.
    pub source_whitelist: Option<Vec<String>>,
    /// Never pools of these sources for the swap legs.
    pub source_blacklist: Vec<String>,
    /// Optional gas pricing of the swap legs (see [`RouteRequest::gas`]); the plan's
    /// `gas_units` count every swap step under it.
    pub gas: Option<GasModel>,
}

impl ZapOptions {
    /// Check every option against its documented range (the router checks `max_hops` and
    /// `slippage` when a swap leg is quoted).
    ///
    /// # Errors
    /// [`ZapError::BadOption`] naming the first option beyond its range.
    pub fn check(&self) -> Result<(), ZapError> {
        super::at_most("fee_bps", self.fee_bps, MAX_ZAP_FEE_BPS)?;
        self.config.check()
    }
}

impl Default for ZapOptions {
    fn default() -> Self {
        Self {
            config: ZapConfig::default(),
            slippage: Ratio::new_raw(5, 1000),
            max_hops: None,
            fee_bps: ZAP_FEE_BPS,
            source_whitelist: None,
            source_blacklist: Vec::new(),
            gas: None,
        }
    }
}

/// A zap-in plan and what its final mint decided.
#[derive(Debug, Clone)]
pub struct ZapInPlan {
    /// the plan
    pub plan: Plan,
    /// the target pool
    pub pool: PoolId,
    /// LP minted by the final mint (the output may also hold target LP passed through)
    pub minted: U256,
    /// whether the target pool's rebalancing swap was made, and why
    pub rebalance: Rebalance,
}

/// The state of a plan being built: pool states after the steps so far, holdings, steps.
struct Ctx<'g> {
    graph: &'g PoolGraph,
    states: BTreeMap<PoolId, Pool>,
    hold: BTreeMap<TokenId, U256>,
    steps: Vec<Step>,
}

impl<'g> Ctx<'g> {
    fn new(graph: &'g PoolGraph) -> Self {
        Self {
            graph,
            states: BTreeMap::new(),
            hold: BTreeMap::new(),
            steps: Vec::new(),
        }
    }

    fn state(&self, p: PoolId) -> Result<&Pool, ZapError> {
        match self.states.get(&p) {
            Some(s) => Ok(s),
            None => self
                .graph
                .pool(p)
                .map(|i| &i.pool)
                .ok_or(ZapError::Unsupported("pool id out of range")),
        }
    }

    fn coins(&self, p: PoolId) -> Result<Vec<TokenId>, ZapError> {
        self.graph
            .pool(p)
            .map(|i| i.tokens.clone())
            .ok_or(ZapError::Unsupported("pool id out of range"))
    }

    fn held(&self, t: TokenId) -> U256 {
        self.hold.get(&t).copied().unwrap_or_default()
    }

    fn credit(&mut self, t: TokenId, a: U256) -> Result<(), ZapError> {
        let h = self.hold.entry(t).or_insert_with(U256::zero);
        *h = crate::math::add(*h, a)?;
        Ok(())
    }

    fn debit(&mut self, t: TokenId, a: U256) -> Result<(), ZapError> {
        let h = self.hold.entry(t).or_insert_with(U256::zero);
        *h = crate::math::sub(*h, a)?;
        Ok(())
    }

    /// Burn `lp` of pool `p` proportionally.
    fn burn(&mut self, p: PoolId, lp: U256) -> Result<(), ZapError> {
        self.graph.lp_pool(p)?;
        let (amounts, after) = self.state(p)?.burn(lp)?;
        let lp_token = self.graph.lp_token(p)?;
        self.debit(lp_token, lp)?;
        for (t, a) in self.coins(p)?.into_iter().zip(amounts.iter()) {
            self.credit(t, *a)?;
        }
        self.steps.push(Step::Burn {
            pool: p,
            lp_in: lp,
            amounts_out: amounts.to_vec(),
        });
        self.states.insert(p, after);
        Ok(())
    }

    /// Burn `lp` of pool `p`: proportionally, or for a Curve or Saber pool by a one-coin
    /// withdrawal when that returns more. When exactly one coin `w` of the pool is among `wanted` (the target
    /// coins of a zap-in, the outputs of a zap-out), the two are compared exactly: the one-coin
    /// withdrawal of `w` against the proportional burn followed by swapping the other coins into
    /// `w` through the same pool (which is what the zap would otherwise have to do at best).
    fn burn_best(&mut self, p: PoolId, lp: U256, wanted: &[TokenId]) -> Result<(), ZapError> {
        self.graph.lp_pool(p)?;
        let state = self.state(p)?;
        if !matches!(state, Pool::StableSwap(_) | Pool::Saber(_)) {
            return self.burn(p, lp);
        }
        let coins = self.coins(p)?;
        let mut hits = coins.iter().enumerate().filter(|(_, t)| wanted.contains(t));
        let (Some((w, coin)), None) = (hits.next(), hits.next()) else {
            return self.burn(p, lp);
        };
        let coin = *coin;
        let Ok((one, after_one)) = state.burn_one(lp, w) else {
            return self.burn(p, lp);
        };
        // Proportional, then every other coin into w through the same pool.
        let (prop, mut st) = state.burn(lp)?;
        let mut total = prop.get(w).copied().unwrap_or_default();
        for (k, a) in prop.iter().enumerate() {
            if k == w || a.is_zero() {
                continue;
            }
            match st.swap(k, w, *a) {
                Ok((out, next)) => {
                    total = crate::math::add(total, out)?;
                    st = next;
                }
                Err(_) => return self.burn(p, lp),
            }
        }
        if one <= total {
            return self.burn(p, lp);
        }
        let lp_token = self.graph.lp_token(p)?;
        self.debit(lp_token, lp)?;
        self.credit(coin, one)?;
        self.steps.push(Step::BurnOne {
            pool: p,
            lp_in: lp,
            token_out: coin,
            amount_out: one,
        });
        self.states.insert(p, after_one);
        Ok(())
    }

    /// Swap up to `amount_in` of `t_in` for `t_out` through pool `p` (all of it, except what
    /// an SPL Token Swap pool would not take: [`Pool::exact_offer`]); the output.
    fn swap(
        &mut self,
        p: PoolId,
        t_in: TokenId,
        t_out: TokenId,
        amount_in: U256,
    ) -> Result<U256, ZapError> {
        let i = self
            .graph
            .coin_index(p, t_in)
            .ok_or(ZapError::UnknownToken(t_in.0))?;
        let j = self
            .graph
            .coin_index(p, t_out)
            .ok_or(ZapError::UnknownToken(t_out.0))?;
        // the pool takes `amount_in` whole except SPL Token Swap, offered what it takes; the
        // rest stays held (a refund unless a later step uses it)
        let (amount_in, out, after) = self.state(p)?.swap_taken(i, j, amount_in)?;
        self.debit(t_in, amount_in)?;
        self.credit(t_out, out)?;
        self.steps.push(Step::Swap {
            pool: p,
            token_in: t_in,
            token_out: t_out,
            amount_in,
            amount_out: out,
        });
        self.states.insert(p, after);
        Ok(out)
    }

    /// The graph the router sees: the original one, or a copy with the states left by the
    /// steps so far.
    fn route_graph(&self) -> Result<Option<PoolGraph>, ZapError> {
        if self.states.is_empty() {
            return Ok(None);
        }
        let mut g = self.graph.clone();
        for (p, s) in &self.states {
            g.set_pool_state(*p, s.clone())?;
        }
        Ok(Some(g))
    }

    /// Quote a swap leg on the current states (nothing applied).
    fn quote(
        &self,
        g: Option<&PoolGraph>,
        inputs: &[(TokenId, U256)],
        outputs: &[(TokenId, Ratio<u64>)],
        opts: &ZapOptions,
    ) -> Result<Plan, ZapError> {
        let mut req = RouteRequest::new(inputs.to_vec(), outputs.to_vec());
        req.max_hops = opts.max_hops;
        req.slippage = opts.slippage;
        req.source_whitelist.clone_from(&opts.source_whitelist);
        req.source_blacklist.clone_from(&opts.source_blacklist);
        req.gas = opts.gas;
        Ok(quote(g.unwrap_or(self.graph), &req)?)
    }

    /// Take a router plan's swaps (quoted exactly on the current states). Steps through a pool
    /// in `replay` are re-simulated to follow its state (the target pool of a zap-in, whose
    /// state the final mint needs); the others are taken as the router simulated them, and
    /// [`Plan::verify`] re-runs everything.
    fn apply_route(&mut self, plan: &Plan, replay: &[PoolId]) -> Result<(), ZapError> {
        for s in &plan.steps {
            match s {
                Step::Swap {
                    pool,
                    token_in,
                    token_out,
                    amount_in,
                    amount_out,
                } => {
                    if replay.contains(pool) {
                        let out = self.swap(*pool, *token_in, *token_out, *amount_in)?;
                        if out != *amount_out {
                            return Err(ZapError::Unsupported("route leg does not replay exactly"));
                        }
                    } else {
                        self.debit(*token_in, *amount_in)?;
                        self.credit(*token_out, *amount_out)?;
                        self.steps.push(s.clone());
                    }
                }
                _ => return Err(ZapError::Unsupported("route leg with a non-swap step")),
            }
        }
        Ok(())
    }

    /// Take the fee from each input and credit the rest. Returns the fee record.
    fn take_inputs(
        &mut self,
        inputs: &[(TokenId, U256)],
        fee_bps: u32,
    ) -> Result<(Vec<TokenAmount>, Option<ZapFee>), ZapError> {
        let mut merged: BTreeMap<TokenId, U256> = BTreeMap::new();
        for (t, a) in inputs {
            self.graph.token(*t).ok_or(ZapError::UnknownToken(t.0))?;
            let m = merged.entry(*t).or_insert_with(U256::zero);
            *m = crate::math::add(*m, *a)?;
        }
        merged.retain(|_, a| !a.is_zero());
        if merged.is_empty() {
            return Err(ZapError::EmptyInput);
        }
        let mut list = Vec::new();
        let mut taken = Vec::new();
        for (t, a) in &merged {
            let fee = zap_fee(*a, fee_bps)?;
            list.push(TokenAmount {
                token: *t,
                amount: *a,
            });
            if !fee.is_zero() {
                taken.push(TokenAmount {
                    token: *t,
                    amount: fee,
                });
            }
            self.credit(*t, crate::math::sub(*a, fee)?)?;
        }
        let fee = (fee_bps > 0).then_some(ZapFee {
            rate_bps: fee_bps,
            taken,
        });
        Ok((list, fee))
    }

    /// Non-zero holdings, in token order.
    fn holdings(&self) -> Vec<(TokenId, U256)> {
        self.hold
            .iter()
            .filter(|(_, a)| !a.is_zero())
            .map(|(t, a)| (*t, *a))
            .collect()
    }
}

/// The gas price of the options' gas model, where gas is priced (not on chain 101).
fn gas_price_of(graph: &PoolGraph, opts: &ZapOptions) -> Option<f64> {
    opts.gas
        .filter(|_| graph.chain_id() != crate::chain::CHAIN_101)
        .map(|g| g.gas_price)
}

/// `amount` less the gas cost of `units` under the options' gas model (none on chain 101), as a
/// float: the value of a one-output plan.
fn net_of_gas(graph: &PoolGraph, amount: U256, units: u64, opts: &ZapOptions) -> f64 {
    let price = gas_price_of(graph, opts).unwrap_or(0.0);
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let v = to_f64(amount) - units as f64 * price;
    v
}

/// Float shares (positive, any scale) as proportions summing to exactly 1 (parts per 10^9);
/// zero shares are dropped.
fn proportions(shares: &[(TokenId, f64)]) -> Vec<(TokenId, Ratio<u64>)> {
    const DEN: u64 = 1_000_000_000;
    let total: f64 = shares.iter().map(|s| s.1.max(0.0)).sum();
    if total <= 0.0 || total.is_nan() {
        return Vec::new();
    }
    let mut parts: Vec<(TokenId, u64)> = shares
        .iter()
        .filter_map(|(t, w)| {
            #[allow(
                clippy::arithmetic_side_effects,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            // f64 in [0, 1e9]
            let p = (w.max(0.0) / total * DEN as f64 + 0.5) as u64;
            (p > 0).then_some((*t, p))
        })
        .collect();
    let sum: u64 = parts.iter().map(|p| p.1).fold(0u64, u64::saturating_add);
    // Put the rounding difference on the largest part.
    if let Some(big) = parts.iter_mut().max_by_key(|p| p.1) {
        if sum > DEN {
            big.1 = big.1.saturating_sub(sum.saturating_sub(DEN));
        } else {
            big.1 = big.1.saturating_add(DEN.saturating_sub(sum));
        }
    }
    parts.retain(|p| p.1 > 0);
    parts
        .into_iter()
        .map(|(t, p)| (t, Ratio::new(p, DEN)))
        .collect()
}

/// Value of one raw unit of each coin of `pool` in raw units of coin 0, from the pool's own
/// marginal rates (fee-free mid: `√(rate(k→0) / rate(0→k))`). A guide for the split only.
fn coin_prices(pool: &Pool) -> Vec<f64> {
    (0..pool.n_coins())
        .map(|k| {
            if k == 0 {
                return 1.0;
            }
            let fwd = pool.marginal_rate(k, 0);
            let back = pool.marginal_rate(0, k);
            #[allow(clippy::arithmetic_side_effects)] // f64
            if fwd > 0.0 && back > 0.0 {
                sqrt_or_zero(fwd / back)
            } else if fwd > 0.0 {
                fwd
            } else {
                0.0
            }
        })
        .collect()
}

/// Plan a zap into the LP token `lp_out` from any tokens and LP tokens at any ratio.
///
/// See the [`zap` module docs](super) for the steps (fee, burns, routing, mint). LP-to-LP is
/// this with LP inputs.
///
/// # Errors
/// [`ZapError::BadOption`] for an option beyond its range ([`ZapOptions::check`]);
/// [`ZapError::NotAnLp`] when `lp_out` is not an LP token of the graph;
/// [`ZapError::UnknownToken`] / [`ZapError::EmptyInput`] for bad inputs;
/// [`ZapError::Route`] when a swap leg cannot be routed; [`ZapError::NothingToMint`] when the
/// final mint mints nothing; [`ZapError::Pool`] when a burn or swap reverts.
pub fn zap_in(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    lp_out: TokenId,
    opts: &ZapOptions,
) -> Result<ZapInPlan, ZapError> {
    opts.check()?;
    let target = graph
        .pool_of_lp(lp_out)
        .ok_or(ZapError::NotAnLp(lp_out.0))?;
    graph.lp_pool(target)?;
    let mut ctx = Ctx::new(graph);
    let (inputs_list, zap_fee) = ctx.take_inputs(inputs, opts.fee_bps)?;
    let coins = ctx.coins(target)?;
    let bound = zap_in_bound(&ctx, target, lp_out, &coins)?;
    // Burn every LP input but the target's own.
    for (t, a) in ctx.holdings() {
        if t == lp_out {
            continue;
        }
        if let Some(p) = graph.pool_of_lp(t) {
            ctx.burn_best(p, a, &coins)?;
        }
    }
    // Route what is not a target coin into the target coins.
    let external: Vec<(TokenId, U256)> = ctx
        .holdings()
        .into_iter()
        .filter(|(t, _)| *t != lp_out && !coins.contains(t))
        .collect();
    if !external.is_empty() {
        route_into_coins(&mut ctx, target, &coins, &external, opts)?;
    }
    // The final single-pool zap on the target's state after the routing.
    let amounts: Vec<U256> = coins.iter().map(|t| ctx.held(*t)).collect();
    // Only the target's own LP was given: it passes through, nothing to mint.
    let (minted, rebalance) = if amounts.iter().all(U256::is_zero) && !ctx.held(lp_out).is_zero() {
        (U256::zero(), Rebalance::NotNeeded)
    } else {
        final_mint(&mut ctx, target, lp_out, &coins, &amounts, opts)?
    };
    let out_amount = ctx.held(lp_out);
    let outputs = alloc::vec![Output {
        token: lp_out,
        amount: out_amount,
        min_amount: crate::plan::min_after_slippage(out_amount, opts.slippage)?,
    }];
    let refunds: Vec<TokenAmount> = ctx
        .holdings()
        .into_iter()
        .filter(|(t, _)| *t != lp_out)
        .map(|(token, amount)| TokenAmount { token, amount })
        .collect();
    let gas_units = crate::plan::swap_gas_units(&ctx.steps, graph, opts.gas.as_ref());
    let plan = Plan {
        inputs: inputs_list,
        steps: ctx.steps,
        outputs,
        refunds,
        zap_fee,
        value: net_of_gas(graph, out_amount, gas_units, opts),
        upper_bound: bound,
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
    })
}

/// The plan-level bound of a zap-in whose holdings (after the fee) are only coins of the
/// target pool and its own LP: the LP held plus [`super::mint_upper_bound`] of the coins on the
/// target's snapshot state (every plan of such a request is an optional swap through the target
/// and one mint, see [`super::bound`]). `None` when other tokens or LP tokens are held (their
/// value in the target's coins would need a bound on the routes) or the pool has no bound.
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
    {
        return Ok(None);
    }
    let amounts: Vec<U256> = coins.iter().map(|t| ctx.held(*t)).collect();
    let lp = to_f64(ctx.held(lp_out));
    if amounts.iter().all(U256::is_zero) {
        return Ok(Some(lp));
    }
    #[allow(clippy::arithmetic_side_effects)] // f64
    Ok(super::mint_upper_bound(ctx.state(target)?, &amounts).map(|b| b + lp))
}

/// The target pool's optimal swap and mint on the holdings `amounts` of its coins.
fn final_mint(
    ctx: &mut Ctx<'_>,
    target: PoolId,
    lp_out: TokenId,
    coins: &[TokenId],
    amounts: &[U256],
    opts: &ZapOptions,
) -> Result<(U256, Rebalance), ZapError> {
    let state = ctx.state(target)?.clone();
    let z = without_swap_if_gas_exceeds_gain(
        ctx.graph,
        target,
        &state,
        amounts,
        opts,
        zap_in_pool(&state, amounts, &opts.config)?,
    );
    if let Some(sw) = z.swap {
        let (ti, to) = (
            *coins
                .get(sw.from)
                .ok_or(ZapError::Unsupported("coin index"))?,
            *coins
                .get(sw.to)
                .ok_or(ZapError::Unsupported("coin index"))?,
        );
        let out = ctx.swap(target, ti, to, sw.amount_in)?;
        if out != sw.amount_out {
            return Err(ZapError::Unsupported(
                "rebalancing swap does not replay exactly",
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
    Ok((minted, z.rebalance))
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
    z: super::ZapIn,
) -> super::ZapIn {
    let (Some(price), Some(gm), Some(_)) = (gas_price_of(graph, opts), opts.gas, z.swap) else {
        return z;
    };
    let Some(kind) = graph.pool(target).map(|p| p.kind) else {
        return z;
    };
    let no_swap = ZapConfig {
        surplus_threshold_ppm: super::MAX_SURPLUS_THRESHOLD_PPM,
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

/// Route `external` holdings into the target's coins: split by the value shares of the pool's
/// balances, less what the user already holds of each coin (a second quote corrects the split
/// when the held coins are far from their share).
fn route_into_coins(
    ctx: &mut Ctx<'_>,
    target: PoolId,
    coins: &[TokenId],
    external: &[(TokenId, U256)],
    opts: &ZapOptions,
) -> Result<(), ZapError> {
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
    let g = ctx.route_graph()?;
    let shares: Vec<(TokenId, f64)> = coins
        .iter()
        .copied()
        .zip(pool_value.iter().copied())
        .collect();
    let first = proportions(&shares);
    if first.is_empty() || total_pool <= 0.0 {
        return Err(ZapError::Unsupported("target pool has no value"));
    }
    let mut plan = ctx.quote(g.as_ref(), external, &first, opts)?;
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
            if let Ok(p2) = ctx.quote(g.as_ref(), external, &second, opts) {
                plan = p2;
            }
        }
    }
    ctx.apply_route(&plan, &[target])
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

/// Plan a zap out of LP tokens (and tokens) into `outputs` by value proportions.
///
/// Each LP input is burned (proportionally, or in one coin where that gives more); every
/// holding that is not an output token is then routed into the outputs with the given
/// proportions. With several outputs the split is then solved (see `solve_split`) so that the
/// outputs' value shares at [`zap_out_prices`] (the router's mid prices on the snapshot's
/// states, before any step) are the proportions to within 1e-6 where integer amounts allow:
/// held outputs above their share are sold into the outputs below it.
///
/// # Errors
/// [`ZapError::BadOption`] for an option beyond its range ([`ZapOptions::check`]);
/// [`ZapError::Proportions`] when the proportions are empty, zero, repeated or do not sum to 1;
/// [`ZapError::Unsupported`] for an LP token among the outputs (use [`zap_in`]);
/// [`ZapError::UnknownToken`] / [`ZapError::EmptyInput`] for bad inputs; [`ZapError::Route`]
/// when the routing fails or several outputs have no mid prices; [`ZapError::Pool`] when a
/// burn reverts.
pub fn zap_out(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    outputs: &[(TokenId, Ratio<u64>)],
    opts: &ZapOptions,
) -> Result<Plan, ZapError> {
    opts.check()?;
    if outputs.is_empty() {
        return Err(ZapError::Proportions);
    }
    let mut sum = Ratio::new(0u128, 1u128);
    for (k, (t, w)) in outputs.iter().enumerate() {
        graph.token(*t).ok_or(ZapError::UnknownToken(t.0))?;
        if graph.pool_of_lp(*t).is_some() {
            return Err(ZapError::Unsupported(
                "an LP token as a zap-out output (use zap_in)",
            ));
        }
        if *w.numer() == 0 || *w.denom() == 0 || outputs.iter().take(k).any(|(u, _)| u == t) {
            return Err(ZapError::Proportions);
        }
        // a/b + c/d = (ad + cb)/bd, each factor < 2^64 so the u128 products cannot overflow
        // until the running denominator grows; checked.
        let (a, b) = (*sum.numer(), *sum.denom());
        let (c, d) = (u128::from(*w.numer()), u128::from(*w.denom()));
        let num = a
            .checked_mul(d)
            .zip(c.checked_mul(b))
            .and_then(|(x, y)| x.checked_add(y))
            .ok_or(ZapError::Proportions)?;
        let den = b.checked_mul(d).ok_or(ZapError::Proportions)?;
        sum = Ratio::new(num, den);
    }
    if sum != Ratio::new(1u128, 1u128) {
        return Err(ZapError::Proportions);
    }
    let mut ctx = Ctx::new(graph);
    let (inputs_list, zap_fee) = ctx.take_inputs(inputs, opts.fee_bps)?;
    let wanted: Vec<TokenId> = outputs.iter().map(|o| o.0).collect();
    for (t, a) in ctx.holdings() {
        if let Some(p) = graph.pool_of_lp(t) {
            ctx.burn_best(p, a, &wanted)?;
        }
    }
    let to_route: Vec<(TokenId, U256)> = ctx
        .holdings()
        .into_iter()
        .filter(|(t, _)| !outputs.iter().any(|(o, _)| o == t))
        .collect();
    let mut upper = None;
    let mut impact = 0.0;
    let g = ctx.route_graph()?;
    let held: Vec<U256> = outputs.iter().map(|(t, _)| ctx.held(*t)).collect();
    let mut plan = None;
    if !to_route.is_empty() {
        let p = ctx.quote(g.as_ref(), &to_route, outputs, opts)?;
        // held output tokens pass through: they add to the bound of a single output
        #[allow(clippy::arithmetic_side_effects)] // f64
        {
            upper = p
                .upper_bound
                .map(|u| u + held.first().map_or(0.0, |h| to_f64(*h)));
        }
        impact = p.price_impact;
        plan = Some(p);
    }
    if outputs.len() >= 2 {
        // the documented prices: the router's mid prices on the snapshot's states
        let prices = zap_out_prices(graph, outputs, opts)?;
        if let Some(p2) = solve_split(
            &ctx,
            g.as_ref(),
            &to_route,
            outputs,
            &held,
            &prices,
            plan.as_ref(),
            opts,
        ) {
            impact = p2.price_impact;
            plan = Some(p2);
        }
    }
    if let Some(p) = &plan {
        ctx.apply_route(p, &[])?;
    }
    let mut outs = Vec::with_capacity(outputs.len());
    for (t, _) in outputs {
        let amount = ctx.held(*t);
        outs.push(Output {
            token: *t,
            amount,
            min_amount: crate::plan::min_after_slippage(amount, opts.slippage)?,
        });
    }
    let refunds: Vec<TokenAmount> = ctx
        .holdings()
        .into_iter()
        .filter(|(t, _)| !outputs.iter().any(|(o, _)| o == t))
        .map(|(token, amount)| TokenAmount { token, amount })
        .collect();
    let gas_units = crate::plan::swap_gas_units(&ctx.steps, graph, opts.gas.as_ref());
    let value = outs
        .first()
        .map_or(0.0, |o| net_of_gas(graph, o.amount, gas_units, opts));
    Ok(Plan {
        inputs: inputs_list,
        steps: ctx.steps,
        outputs: outs,
        refunds,
        zap_fee,
        value,
        upper_bound: if outputs.len() == 1 { upper } else { None },
        price_impact: impact,
        gas_units,
        slippage: opts.slippage,
        gas_price: gas_price_of(graph, opts),
        bound_max_hops: None,
        excluded: Vec::new(),
    })
}

/// The prices a zap-out's proportions are met at: [`crate::route::output_mid_prices`] of the
/// outputs on `graph` (the snapshot's states, before any step) under the zap's source filters
/// and hop limit, in base units of the first output per base unit of each.
///
/// # Errors
/// Those of [`crate::route::output_mid_prices`] (no positive price for an output).
pub fn zap_out_prices(
    graph: &PoolGraph,
    outputs: &[(TokenId, Ratio<u64>)],
    opts: &ZapOptions,
) -> Result<Vec<f64>, ZapError> {
    let mut req = RouteRequest::new(Vec::new(), outputs.to_vec());
    req.max_hops = opts.max_hops;
    req.source_whitelist.clone_from(&opts.source_whitelist);
    req.source_blacklist.clone_from(&opts.source_blacklist);
    Ok(crate::route::output_mid_prices(graph, &req)?)
}

/// The largest gap between an output's share of the basket value and its proportion.
#[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
fn share_gap(values: &[f64], outputs: &[(TokenId, Ratio<u64>)]) -> f64 {
    let total: f64 = values.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return f64::INFINITY;
    }
    values
        .iter()
        .zip(outputs)
        .map(|(v, (_, w))| {
            let d = v / total - *w.numer() as f64 / *w.denom() as f64;
            if d < 0.0 {
                -d
            } else {
                d
            }
        })
        .fold(0.0, f64::max)
}

/// Share gap the split search stops at (a tenth of the documented 1e-6).
const SPLIT_TARGET: f64 = 1e-7;
/// Quotes the split search may spend.
const SPLIT_ROUNDS: usize = 24;

/// Solve the split of a zap-out so that the outputs' values at `prices` follow the proportions.
///
/// Output k should end with value `w_k·T` (`T` the basket's total value). Held outputs above
/// that are sold (as extra inputs of the routing), the others receive the routed value. The
/// router is asked for proportions `q_k ∝ c_k·lack_k`; after each exactly simulated quote the
/// total `T` is re-measured (routing loses fees) and each correction factor `c_k` is multiplied
/// by (value output k should have received) / (value it received): a fixed-point iteration on
/// exact re-simulations that stops when every share is within [`SPLIT_TARGET`] of its
/// proportion, or after [`SPLIT_ROUNDS`] quotes. The plan whose largest share gap is smallest
/// is kept (`None`: `first` is at least as close).
#[allow(clippy::too_many_arguments)]
fn solve_split(
    ctx: &Ctx<'_>,
    g: Option<&PoolGraph>,
    to_route: &[(TokenId, U256)],
    outputs: &[(TokenId, Ratio<u64>)],
    held: &[U256],
    prices: &[f64],
    first: Option<&Plan>,
    opts: &ZapOptions,
) -> Option<Plan> {
    let routed = |p: Option<&Plan>, t: TokenId| {
        p.and_then(|p| p.outputs.iter().find(|o| o.token == t))
            .map_or(U256::zero(), |o| o.amount)
    };
    let price = |k: usize| prices.get(k).copied().unwrap_or(0.0);
    #[allow(clippy::arithmetic_side_effects)] // f64
    let values = |p: Option<&Plan>, sold: &[U256]| -> Vec<f64> {
        outputs
            .iter()
            .enumerate()
            .map(|(k, (t, _))| {
                let h = held.get(k).copied().unwrap_or_default();
                let keep = h.saturating_sub(sold.get(k).copied().unwrap_or_default());
                (to_f64(keep) + to_f64(routed(p, *t))) * price(k)
            })
            .collect()
    };
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    let weight = |k: usize| {
        outputs
            .get(k)
            .map_or(0.0, |(_, w)| *w.numer() as f64 / *w.denom() as f64)
    };
    let none_sold = alloc::vec![U256::zero(); outputs.len()];
    let first_values = values(first, &none_sold);
    let first_gap = share_gap(&first_values, outputs);
    if first_gap <= SPLIT_TARGET {
        return None;
    }
    let mut total: f64 = first_values.iter().sum();
    let mut corr = alloc::vec![1.0f64; outputs.len()];
    let mut best: Option<(f64, Plan)> = None;
    for _ in 0..SPLIT_ROUNDS {
        let mut inputs: Vec<(TokenId, U256)> = to_route.to_vec();
        let mut lack: Vec<(TokenId, f64)> = Vec::new();
        let mut sold = none_sold.clone();
        for (k, (t, _)) in outputs.iter().enumerate() {
            let h = held.get(k).copied().unwrap_or_default();
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (target, have) = (weight(k) * total, to_f64(h) * price(k));
            if have > target {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let excess = from_f64_clamped((have - target) / price(k), h);
                if !excess.is_zero() {
                    inputs.push((*t, excess));
                    if let Some(s) = sold.get_mut(k) {
                        *s = excess;
                    }
                }
            } else {
                #[allow(clippy::arithmetic_side_effects)] // f64
                lack.push((*t, (target - have) * corr.get(k).copied().unwrap_or(1.0)));
            }
        }
        let outs = proportions(&lack);
        if outs.is_empty() || inputs.is_empty() {
            break;
        }
        let Ok(q) = ctx.quote(g, &inputs, &outs, opts) else {
            break;
        };
        let v = values(Some(&q), &sold);
        let gap = share_gap(&v, outputs);
        total = v.iter().sum();
        // what each routed output should have received at the new total, against what it got
        for (k, (t, _)) in outputs.iter().enumerate() {
            let got = to_f64(routed(Some(&q), *t));
            let kept = to_f64(
                held.get(k)
                    .copied()
                    .unwrap_or_default()
                    .saturating_sub(sold.get(k).copied().unwrap_or_default()),
            );
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (want, have) = (weight(k) * total - kept * price(k), got * price(k));
            if want > 0.0 && have > 0.0 {
                if let Some(c) = corr.get_mut(k) {
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    {
                        *c *= want / have;
                    }
                }
            }
        }
        if best.as_ref().map_or(true, |b| gap < b.0) {
            best = Some((gap, q));
        }
        if gap <= SPLIT_TARGET {
            break;
        }
    }
    best.filter(|b| b.0 < first_gap).map(|b| b.1)
}

/// LP-to-LP: burn the source LP(s) (and take any tokens), zap into `lp_out`, in one plan. The
/// same as [`zap_in`] with LP inputs.
///
/// # Errors
/// As [`zap_in`].
pub fn lp_to_lp(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    lp_out: TokenId,
    opts: &ZapOptions,
) -> Result<ZapInPlan, ZapError> {
    zap_in(graph, inputs, lp_out, opts)
}
