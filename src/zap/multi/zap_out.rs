//! Zap-out: the fee, the burns, then the legs routed into the outputs by the proportions,
//! the split solved on exact re-simulations.

use super::ctx::Ctx;
use super::shares::Shares;
use super::{gas_price_of, net_of_gas, proportions, ZapOptions};
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::math::float::{from_f64_clamped, to_f64};
use crate::plan::{Output, Plan, TokenAmount, ZapFee};
use crate::route::RouteRequest;
use crate::units::TokenId;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;
/// Plan a zap out of LP tokens (and tokens) into `outputs` by value proportions.
///
/// Each LP input is burned (proportionally, or in one coin where that gives more); every
/// holding that is not an output token is then routed into the outputs with the given
/// proportions. With several outputs the split is then solved (see `solve_split`) so that the
/// outputs' value shares at [`zap_out_prices`] (the router's mid prices on the snapshot's
/// states, before any step) are the proportions to within 1e-6 where integer amounts allow:
/// held outputs above their share are sold into the outputs below it. Where that fixed point
/// stalls (above 1e-7), exact corrections follow (see `Shares::corrected`): a sale of the
/// output above its share into the one below, routed swaps re-sized within the same output or
/// by one unit of a coarse intermediate, and last a held-back intermediate (refunded).
/// Whatever remains is at most one base unit of the dearest output beside 1e-6
/// ([`crate::plan::ZAP_OUT_SHARE_TOLERANCE`]) on every zap-out of the tests.
///
/// # Errors
/// [`ZapError::BadOption`] for an option beyond its range ([`ZapOptions::check`]);
/// [`ZapError::Proportions`] when the proportions are empty, zero, repeated or do not sum to 1;
/// [`ZapError::Unsupported`] for an LP token among the outputs (use [`zap_in`](crate::zap::zap_in));
/// [`ZapError::UnknownToken`] / [`ZapError::EmptyInput`] for bad inputs; [`ZapError::Route`]
/// when the routing fails or several outputs have no mid prices; [`ZapError::Pool`] when a
/// burn reverts.
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
/// // 1000 LP out into two of its coins, half the value each
/// let outputs = [(coin, Ratio::new(1, 2)), (usdt, Ratio::new(1, 2))];
/// let plan = zap::zap_out(&graph, &[(lp, U256::exp10(21))], &outputs, &zap::ZapOptions::default())?;
/// assert_eq!(plan.outputs.iter().map(|o| o.token).collect::<Vec<_>>(), [coin, usdt]);
/// assert!(plan.outputs.iter().all(|o| o.amount > U256::zero() && o.min_amount <= o.amount));
/// plan.verify(&graph)?;
/// # Ok(())
/// # }
/// ```
pub fn zap_out(
    graph: &PoolGraph,
    inputs: &[(TokenId, U256)],
    outputs: &[(TokenId, Ratio<u64>)],
    opts: &ZapOptions,
) -> Result<Plan, ZapError> {
    opts.check()?;
    check_outputs(graph, outputs)?;
    let mut ctx = Ctx::new(graph);
    let (inputs_list, zap_fee) = ctx.take_inputs(inputs, opts.fee_bps)?;
    let wanted: Vec<TokenId> = outputs.iter().map(|o| o.0).collect();
    ctx.burn_lp_holdings(None, &wanted)?;
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
    let mut prices = Vec::new();
    if outputs.len() >= 2 {
        // the documented prices: the router's mid prices on the snapshot's states
        prices = zap_out_prices(graph, outputs, opts)?;
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
    let ctx = apply_and_correct(ctx, plan.as_ref(), outputs, &prices, opts)?;
    finish(
        ctx,
        graph,
        outputs,
        (inputs_list, zap_fee),
        (upper, impact),
        opts,
    )
}

/// `ctx` after the routed `plan`; with several outputs whose value shares at `prices` miss
/// the proportions by more than [`SPLIT_TARGET`], the exact corrections of the plan before its
/// routed legs ([`Shares::corrected`]) where they find one.
fn apply_and_correct<'g>(
    mut ctx: Ctx<'g>,
    plan: Option<&Plan>,
    outputs: &[(TokenId, Ratio<u64>)],
    prices: &[f64],
    opts: &ZapOptions,
) -> Result<Ctx<'g>, ZapError> {
    // the plan before its routed legs, for the exact correction of the shares
    let before = (outputs.len() >= 2).then(|| ctx.clone());
    if let Some(p) = plan {
        ctx.apply_route(p, &[])?;
    }
    if let Some(before) = before {
        let sh = Shares { outputs, prices };
        if sh.gap(&ctx) > SPLIT_TARGET {
            if let Some(corrected) = sh.corrected(before, plan, opts) {
                ctx = corrected;
            }
        }
    }
    Ok(ctx)
}

/// The outputs of a zap-out: known tokens, none an LP token, none twice, proportions above 0
/// that sum to exactly 1.
fn check_outputs(graph: &PoolGraph, outputs: &[(TokenId, Ratio<u64>)]) -> Result<(), ZapError> {
    if outputs.is_empty() {
        return Err(ZapError::Proportions);
    }
    let mut sum = Ratio::new(0u128, 1u128);
    for (k, (t, w)) in outputs.iter().enumerate() {
        graph.token(*t).ok_or(ZapError::UnknownToken(*t))?;
        if graph.pool_of_lp(*t).is_some() {
            return Err(ZapError::Unsupported(
                crate::error::ZapUnsupported::LpAsZapOutOutput { token: *t },
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
    Ok(())
}

/// The zap-out plan from the built steps: the outputs held, the rest refunded, gas and value.
/// `taken` is the inputs and fee of [`Ctx::take_inputs`], `bound` the routed plan's upper bound
/// and price impact.
fn finish(
    ctx: Ctx<'_>,
    graph: &PoolGraph,
    outputs: &[(TokenId, Ratio<u64>)],
    (inputs_list, zap_fee): (Vec<TokenAmount>, Option<ZapFee>),
    (upper, impact): (Option<f64>, f64),
    opts: &ZapOptions,
) -> Result<Plan, ZapError> {
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
        rounding_slack: None,
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
    Ok(crate::route::output_mid_prices(
        graph,
        &price_request(outputs, opts),
    )?)
}

/// The router's request for the prices of `outputs` under `opts`' source filters and hop
/// limit (no inputs: mid prices do not depend on them).
fn price_request(outputs: &[(TokenId, Ratio<u64>)], opts: &ZapOptions) -> RouteRequest {
    let mut req = RouteRequest::new(Vec::new(), outputs.to_vec());
    req.max_hops = opts.max_hops;
    req.source_whitelist.clone_from(&opts.source_whitelist);
    req.source_blacklist.clone_from(&opts.source_blacklist);
    req
}

impl crate::plan::PlanRequest {
    /// What a zap plan with these inputs and outputs under `opts` must answer
    /// ([`crate::plan::Plan::verify_request`]): the fee rate, slippage, gas model, hop limit and
    /// source filters of `opts` and, for several outputs, their documented prices
    /// ([`zap_out_prices`]) on `graph`.
    #[must_use]
    pub fn zap(
        graph: &PoolGraph,
        inputs: &[(TokenId, U256)],
        outputs: &[(TokenId, Ratio<u64>)],
        opts: &ZapOptions,
    ) -> Self {
        Self {
            inputs: inputs.to_vec(),
            outputs: outputs.to_vec(),
            slippage: opts.slippage,
            zap_fee_bps: Some(opts.fee_bps),
            gas: opts.gas,
            output_prices: (outputs.len() >= 2)
                .then(|| crate::route::output_mid_prices(graph, &price_request(outputs, opts))),
            exact_out: None,
            max_hops: opts.max_hops,
            source_whitelist: opts.source_whitelist.clone(),
            source_blacklist: opts.source_blacklist.clone(),
        }
    }
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
pub(super) const SPLIT_TARGET: f64 = 1e-7;
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
    let sp = Split {
        outputs,
        held,
        prices,
    };
    let none_sold = alloc::vec![U256::zero(); outputs.len()];
    let first_values = sp.values(first, &none_sold);
    let first_gap = share_gap(&first_values, outputs);
    if first_gap <= SPLIT_TARGET {
        return None;
    }
    let mut total: f64 = first_values.iter().sum();
    let mut corr = alloc::vec![1.0f64; outputs.len()];
    let mut best: Option<(f64, Plan)> = None;
    for _ in 0..SPLIT_ROUNDS {
        let (inputs, lack, sold) = sp.ask(to_route, total, &corr);
        let outs = proportions(&lack);
        if outs.is_empty() || inputs.is_empty() {
            break;
        }
        let Ok(q) = ctx.quote(g, &inputs, &outs, opts) else {
            break;
        };
        let v = sp.values(Some(&q), &sold);
        let gap = share_gap(&v, outputs);
        total = v.iter().sum();
        sp.correct(&mut corr, &q, &sold, total);
        if best.as_ref().map_or(true, |b| gap < b.0) {
            best = Some((gap, q));
        }
        if gap <= SPLIT_TARGET {
            break;
        }
    }
    best.filter(|b| b.0 < first_gap).map(|b| b.1)
}

/// The zap-out split problem of [`solve_split`]: the outputs with their proportions, what is
/// held of each before the routing, and their documented prices.
pub(super) struct Split<'a> {
    outputs: &'a [(TokenId, Ratio<u64>)],
    held: &'a [U256],
    prices: &'a [f64],
}

impl Split<'_> {
    /// What the routed plan `p` delivers of `t`.
    pub(super) fn routed(p: Option<&Plan>, t: TokenId) -> U256 {
        p.and_then(|p| p.outputs.iter().find(|o| o.token == t))
            .map_or(U256::zero(), |o| o.amount)
    }

    fn price(&self, k: usize) -> f64 {
        self.prices.get(k).copied().unwrap_or(0.0)
    }

    /// Output `k`'s proportion as a float.
    #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
    fn weight(&self, k: usize) -> f64 {
        self.outputs
            .get(k)
            .map_or(0.0, |(_, w)| *w.numer() as f64 / *w.denom() as f64)
    }

    /// What is kept of output `k`'s holdings after selling `sold[k]` of it.
    fn kept(&self, k: usize, sold: &[U256]) -> U256 {
        let h = self.held.get(k).copied().unwrap_or_default();
        h.saturating_sub(sold.get(k).copied().unwrap_or_default())
    }

    /// Each output's value with the routed plan `p`, having sold `sold` of the held outputs.
    #[allow(clippy::arithmetic_side_effects)] // f64
    fn values(&self, p: Option<&Plan>, sold: &[U256]) -> Vec<f64> {
        self.outputs
            .iter()
            .enumerate()
            .map(|(k, (t, _))| {
                (to_f64(self.kept(k, sold)) + to_f64(Self::routed(p, *t))) * self.price(k)
            })
            .collect()
    }

    /// The next quote's question at basket value `total`: the inputs (`to_route` and the
    /// excess of held outputs above their value `w_k·total`), the value each other output
    /// lacks times its correction, and what is sold of each held output.
    #[allow(clippy::type_complexity)]
    fn ask(
        &self,
        to_route: &[(TokenId, U256)],
        total: f64,
        corr: &[f64],
    ) -> (Vec<(TokenId, U256)>, Vec<(TokenId, f64)>, Vec<U256>) {
        let mut inputs: Vec<(TokenId, U256)> = to_route.to_vec();
        let mut lack: Vec<(TokenId, f64)> = Vec::new();
        let mut sold = alloc::vec![U256::zero(); self.outputs.len()];
        for (k, (t, _)) in self.outputs.iter().enumerate() {
            let h = self.held.get(k).copied().unwrap_or_default();
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (target, have) = (self.weight(k) * total, to_f64(h) * self.price(k));
            if have > target {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let excess = from_f64_clamped((have - target) / self.price(k), h);
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
        (inputs, lack, sold)
    }

    /// Multiplies each correction by what its output should have received at the new `total`
    /// over what it received from the quote `q`.
    fn correct(&self, corr: &mut [f64], q: &Plan, sold: &[U256], total: f64) {
        for (k, (t, _)) in self.outputs.iter().enumerate() {
            let got = to_f64(Self::routed(Some(q), *t));
            let kept = to_f64(self.kept(k, sold));
            #[allow(clippy::arithmetic_side_effects)] // f64
            let (want, have) = (
                self.weight(k) * total - kept * self.price(k),
                got * self.price(k),
            );
            if want > 0.0 && have > 0.0 {
                if let Some(c) = corr.get_mut(k) {
                    #[allow(clippy::arithmetic_side_effects)] // f64
                    {
                        *c *= want / have;
                    }
                }
            }
        }
    }
}
