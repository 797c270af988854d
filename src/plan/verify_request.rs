//! [`Plan::verify_request`]: a plan checked against the request it answers, field by field.
//!
//! One named check per field, run in the order the docs of [`Plan::verify_request`] list
//! them (the order decides which error a plan wrong in several fields reports); each returns
//! the [`RouteError::PlanMismatch`] naming its field and element.

use super::ledger::amount_map;
use super::{
    check_fraction, min_after_slippage, mismatch, swap_gas_units, GasModel, Plan, PlanRequest,
    Step, TokenAmount, ZAP_OUT_SHARE_TOLERANCE,
};
use crate::error::{BadRouteRequest, PlanField as F, PlanProblem, RouteError};
use crate::graph::PoolGraph;
use crate::units::{PoolId, TokenId};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

impl Plan {
    /// [`Plan::verify`], and that the plan answers `want`, field by field:
    ///
    /// * `inputs`: exactly the request's tokens and amounts (repeats summed), each once; for
    ///   exact-out ([`PlanRequest::exact_out`]) the amounts at most the request's;
    /// * `zap_fee`: none for a swap; for a zap the documented rate, and exactly
    ///   `floor(amount × rate / 10000)` of each input (zero fees omitted), nothing else;
    /// * `slippage`: the request's; `outputs`: one per requested token, in the request's order;
    ///   each `min_amount` exactly `floor(amount × (1 − slippage))`; for exact-out, the amount
    ///   at least the wanted one;
    /// * `steps`: every step re-simulated exactly, in order, on the states the earlier steps
    ///   leave, spending only what is held ([`Plan::verify`]); the inputs less the fee are spent
    ///   exactly: what the steps leave is the outputs plus the refunds;
    /// * `refunds`: only what is left, each token once, never an output token, never zero;
    ///   for a swap, only what an SPL Token Swap step or (within a thousandth of what reached
    ///   the token) a concentrated-liquidity or Whirlpool step did not take, never a partial
    ///   fill;
    /// * `steps` again: every swap through a pool the source filters allow
    ///   ([`PlanRequest::source_whitelist`], [`PlanRequest::source_blacklist`]; a zap's own
    ///   pools, of the LP tokens among the request's tokens, whatever their source); for a swap
    ///   plan with a hop limit ([`PlanRequest::max_hops`]), through a pool direction on some
    ///   path of at most that many hops from an input to an output; and for a swap plan with a
    ///   bound, `bound_max_hops` the request's limit (the bound is over the plans asked for);
    /// * `gas_units`: the gas model's units ([`GasModel::units`]) summed over the swap steps by
    ///   their pools' families (0 without a model and on chain 101);
    /// * `value`: finite; for one output its amount less the gas cost (to 1e-9 relative, the
    ///   float's own rounding); `upper_bound`, when given, not below `value`.
    ///
    /// * `proportions` (a zap with several outputs): each output's value share at the
    ///   documented prices ([`PlanRequest::output_prices`]), is its proportion to within
    ///   [`ZAP_OUT_SHARE_TOLERANCE`] plus the value of one base unit of the dearest output.
    ///
    /// A swap with several outputs is not held to its shares here: the router maximises the
    /// basket value `min_k v_k z_k / w_k` and keeps any surplus of one output above its share
    /// (see [`crate::route`]), so its shares may exceed the proportions.
    ///
    /// # Errors
    /// [`RouteError::PlanMismatch`] naming the field and the element or step; the errors of
    /// [`Plan::verify`] for a step are reported as [`crate::error::PlanField::Steps`] at that step.
    /// A slippage that is no fraction in [0, 1] (a zero denominator included, which
    /// `Ratio::new_raw` can build) is the `slippage` mismatch in the plan and
    /// [`RouteError::BadRequest`] in `want`, never a panic.
    ///
    /// # Example
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use num_rational::Ratio;
    /// use swapzap::error::{PlanField, RouteError};
    /// use swapzap::{graph::PoolGraph, plan::PlanRequest, route, snapshot::Snapshot, U256};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
    /// let graph = PoolGraph::from_snapshot(&serde_json::from_str::<Snapshot>(&std::fs::read_to_string(path)?)?)?;
    /// let weth = graph.token_id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a").ok_or("no WETH")?;
    /// let usdt = graph.token_id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b").ok_or("no USDT")?;
    /// let req = route::RouteRequest::new(vec![(weth, U256::exp10(19))], vec![(usdt, Ratio::from_integer(1))]);
    /// let plan = route::quote(&graph, &req)?;
    /// plan.verify_request(&graph, &PlanRequest::swap(&req))?;
    ///
    /// // a plan whose minimum ignores the slippage is refused on that field
    /// let mut loose = plan.clone();
    /// loose.outputs[0].min_amount = U256::zero();
    /// let err = loose.verify_request(&graph, &PlanRequest::swap(&req)).err().ok_or("accepted")?;
    /// assert!(matches!(err, RouteError::PlanMismatch { field: PlanField::MinAmount, index: Some(0), .. }));
    /// # Ok(())
    /// # }
    /// ```
    pub fn verify_request(&self, graph: &PoolGraph, want: &PlanRequest) -> Result<(), RouteError> {
        let got_in = self.check_inputs(want)?;
        self.check_zap_fee(want, &got_in)?;
        self.check_outputs(want)?;
        self.check_refunds()?;
        self.verify(graph).map_err(|e| match e {
            RouteError::InvalidPlan { step: Some(k), why } => mismatch(F::Steps, Some(k), why),
            RouteError::InvalidPlan { step: None, why } => mismatch(F::Outputs, None, why),
            other => other,
        })?;
        // a swap hands back only what a pool that takes less than offered left, within the
        // router's rule (a partial fill is `InsufficientLiquidity`, not a plan)
        if want.zap_fee_bps.is_none() {
            for (k, r) in self.refunds.iter().enumerate() {
                if super::partial_fill(graph, &self.inputs, &self.steps, r) {
                    return Err(mismatch(F::Refunds, Some(k), PlanProblem::PartialFill));
                }
            }
        }
        self.check_sources_and_hops(graph, want)?;
        let gas = want
            .gas
            .filter(|_| graph.chain_id() != crate::chain::CHAIN_101);
        self.check_gas_and_value(graph, gas.as_ref(), want.zap_fee_bps.is_some())?;
        if self.outputs.len() >= 2 && want.zap_fee_bps.is_some() {
            self.check_zap_out_shares(want)?;
        }
        Ok(())
    }

    /// `inputs`: exactly the request's tokens and amounts (repeats summed; for exact-out at
    /// most those amounts), each once; the plan's inputs as a map.
    fn check_inputs(&self, want: &PlanRequest) -> Result<BTreeMap<TokenId, U256>, RouteError> {
        let want_in = amount_map(want.inputs.iter().copied(), false)
            .map_err(|_| mismatch(F::Inputs, None, PlanProblem::RequestAmountsOverflow))?;
        let got_in = amount_map(self.inputs.iter().map(|i| (i.token, i.amount)), true)
            .map_err(|k| mismatch(F::Inputs, k, PlanProblem::TokenListedTwice))?;
        for (k, i) in self.inputs.iter().enumerate() {
            match want_in.get(&i.token) {
                None => return Err(mismatch(F::Inputs, Some(k), PlanProblem::NotARequestInput)),
                // exact-out: at most the request's amount, the most to spend
                Some(a) if want.exact_out.is_some() && i.amount > *a => {
                    let why = PlanProblem::ExactOutOverspends;
                    return Err(mismatch(F::Inputs, Some(k), why));
                }
                Some(a) if want.exact_out.is_none() && *a != i.amount => {
                    let why = PlanProblem::InputAmountDiffers;
                    return Err(mismatch(F::Inputs, Some(k), why));
                }
                Some(_) => {}
            }
        }
        if got_in.len() != want_in.len() {
            return Err(mismatch(
                F::Inputs,
                None,
                PlanProblem::RequestedInputMissing,
            ));
        }
        Ok(got_in)
    }

    /// `steps`: every swap through a pool the source filters allow (a zap's own pools, of the
    /// LP tokens among the request's tokens, whatever their source); for a swap plan, through
    /// a pool direction within the hop limit, and `bound_max_hops` (beside a bound) the
    /// request's limit. (A zap's routes run to and from its pool's coins, not between the
    /// request's tokens, so its hop limit is not a radius around those.)
    fn check_sources_and_hops(
        &self,
        graph: &PoolGraph,
        want: &PlanRequest,
    ) -> Result<(), RouteError> {
        let swap = want.zap_fee_bps.is_none();
        let filtered = want.source_whitelist.is_some() || !want.source_blacklist.is_empty();
        if filtered || (swap && want.max_hops.is_some()) {
            let ins: Vec<TokenId> = want.inputs.iter().map(|x| x.0).collect();
            let outs: Vec<TokenId> = want.outputs.iter().map(|x| x.0).collect();
            let filters = (
                want.source_whitelist.as_deref(),
                want.source_blacklist.as_slice(),
            );
            let hops = want.max_hops.filter(|_| swap);
            let usable = super::reach::Reach::new(graph, filters, hops, (&ins, &outs));
            // a zap's own pools (of the LP tokens it mints or burns) are the caller's choice,
            // swapped through whatever their source
            let own: Vec<PoolId> = if swap {
                Vec::new()
            } else {
                let tokens = want.inputs.iter().map(|x| x.0);
                let lps = tokens.chain(want.outputs.iter().map(|x| x.0));
                lps.filter_map(|t| graph.pool_of_lp(t)).collect()
            };
            for (k, s) in self.steps.iter().enumerate() {
                if let Step::Swap {
                    pool,
                    token_in,
                    token_out,
                    ..
                } = s
                {
                    if own.contains(pool) {
                        continue;
                    }
                    usable
                        .check(*pool, *token_in, *token_out)
                        .map_err(|why| mismatch(F::Steps, Some(k), why))?;
                }
            }
        }
        if swap && self.upper_bound.is_some() && self.bound_max_hops != want.max_hops {
            return Err(mismatch(
                F::BoundMaxHops,
                None,
                PlanProblem::BoundHopsDiffer,
            ));
        }
        Ok(())
    }

    /// `zap_fee`: none for a swap; for a zap the documented rate and the fees of `got_in`.
    fn check_zap_fee(
        &self,
        want: &PlanRequest,
        got_in: &BTreeMap<TokenId, U256>,
    ) -> Result<(), RouteError> {
        match (want.zap_fee_bps, &self.zap_fee) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(mismatch(F::ZapFee, None, PlanProblem::SwapTakesNoZapFee)),
            (Some(_), None) => Err(mismatch(F::ZapFee, None, PlanProblem::ZapFeeMissing)),
            (Some(bps), Some(f)) if f.rate_bps != bps => {
                let why = PlanProblem::ZapFeeRate {
                    given: f.rate_bps,
                    documented: bps,
                };
                Err(mismatch(F::ZapFee, None, why))
            }
            (Some(bps), Some(f)) => check_fees_taken(bps, got_in, &f.taken),
        }
    }

    /// `slippage` the request's; `outputs` one per requested token in the request's order,
    /// each `min_amount` exactly `floor(amount × (1 − slippage))`.
    fn check_outputs(&self, want: &PlanRequest) -> Result<(), RouteError> {
        if !same_slippage(self.slippage, want.slippage)? {
            return Err(mismatch(F::Slippage, None, PlanProblem::SlippageDiffers));
        }
        if self.outputs.len() != want.outputs.len() {
            let why = PlanProblem::OutputCount;
            return Err(mismatch(F::Outputs, None, why));
        }
        for (k, (o, w)) in self.outputs.iter().zip(&want.outputs).enumerate() {
            if o.token != w.0 {
                let why = PlanProblem::OutputOutOfPlace;
                return Err(mismatch(F::Outputs, Some(k), why));
            }
            if o.min_amount != min_after_slippage(o.amount, self.slippage)? {
                let why = PlanProblem::MinAmountNotFloor;
                return Err(mismatch(F::MinAmount, Some(k), why));
            }
            if want.exact_out.is_some_and(|w| o.amount < w) {
                let why = PlanProblem::ExactOutBelowWanted;
                return Err(mismatch(F::Outputs, Some(k), why));
            }
        }
        Ok(())
    }

    /// `refunds`: each token once, never zero, never an output token.
    fn check_refunds(&self) -> Result<(), RouteError> {
        let mut seen = BTreeSet::new();
        for (k, r) in self.refunds.iter().enumerate() {
            if r.amount.is_zero() {
                return Err(mismatch(F::Refunds, Some(k), PlanProblem::ZeroRefund));
            }
            if self.outputs.iter().any(|o| o.token == r.token) {
                let why = PlanProblem::OutputRefunded;
                return Err(mismatch(F::Refunds, Some(k), why));
            }
            if !seen.insert(r.token) {
                return Err(mismatch(
                    F::Refunds,
                    Some(k),
                    PlanProblem::TokenRefundedTwice,
                ));
            }
        }
        Ok(())
    }

    /// `gas_units` the model's count of the swap steps (`gas` is `None` on chain 101), and
    /// `gas_price` the model's; `value` finite and, for one output or a zap (whose value is
    /// its first output's), that output's amount less the gas cost; `upper_bound` not below
    /// `value`, and `rounding_slack` (where given) in `[0, upper_bound]`.
    fn check_gas_and_value(
        &self,
        graph: &PoolGraph,
        gas: Option<&GasModel>,
        zap: bool,
    ) -> Result<(), RouteError> {
        if self.gas_units != swap_gas_units(&self.steps, graph, gas) {
            let why = PlanProblem::GasUnitsDiffer;
            return Err(mismatch(F::GasUnits, None, why));
        }
        // the price the plan says it was chosen with is the request's, bit for bit
        if self.gas_price.map(f64::to_bits) != gas.map(|g| g.gas_price.to_bits()) {
            let why = PlanProblem::GasPriceDiffers;
            return Err(mismatch(F::GasPrice, None, why));
        }
        if !self.value.is_finite() {
            return Err(mismatch(F::Value, None, PlanProblem::ValueNotFinite));
        }
        let valued = match self.outputs.as_slice() {
            [o] => Some(o),
            [o, ..] if zap => Some(o),
            _ => None,
        };
        if let Some(o) = valued {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
            let (expect, tol) = {
                let cost = gas.map_or(0.0, |g| self.gas_units as f64 * g.gas_price);
                let e = crate::math::float::to_f64(o.amount) - cost;
                (e, 1e-9 * e.abs().max(1.0))
            };
            #[allow(clippy::arithmetic_side_effects)] // f64
            if (self.value - expect).abs() > tol {
                let why = PlanProblem::ValueNotOutputLessGas;
                return Err(mismatch(F::Value, None, why));
            }
        }
        if let Some(ub) = self.upper_bound {
            if ub.is_nan() || ub < self.value {
                return Err(mismatch(F::UpperBound, None, PlanProblem::BoundBelowValue));
            }
        }
        if let Some(s) = self.rounding_slack {
            if !self.upper_bound.is_some_and(|ub| s >= 0.0 && s <= ub) {
                let why = PlanProblem::SlackNotOfBound;
                return Err(mismatch(F::RoundingSlack, None, why));
            }
        }
        Ok(())
    }

    /// A zap-out with several outputs: each output's value share at the documented prices
    /// ([`PlanRequest::output_prices`]) is within [`ZAP_OUT_SHARE_TOLERANCE`] plus the value of
    /// one base unit of the dearest output (both over the basket value) of its proportion.
    fn check_zap_out_shares(&self, want: &PlanRequest) -> Result<(), RouteError> {
        let prices = match &want.output_prices {
            Some(Ok(p)) => p.as_slice(),
            Some(Err(e)) => return Err(e.clone()),
            None => return Err(mismatch(F::Proportions, None, PlanProblem::NoOutputPrices)),
        };
        let values: Vec<f64> = self
            .outputs
            .iter()
            .zip(prices)
            .map(|(o, p)| {
                #[allow(clippy::arithmetic_side_effects)] // f64
                let v = crate::math::float::to_f64(o.amount) * p;
                v
            })
            .collect();
        let total: f64 = values.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(mismatch(
                F::Proportions,
                None,
                PlanProblem::OutputsWithoutValue,
            ));
        }
        // one base unit of the dearest output
        let unit = prices
            .iter()
            .take(values.len())
            .fold(0.0, |m: f64, p| m.max(*p));
        for (k, (v, (_, w))) in values.iter().zip(&want.outputs).enumerate() {
            #[allow(clippy::arithmetic_side_effects, clippy::cast_precision_loss)] // f64
            let (gap, tol) = (
                (v / total - *w.numer() as f64 / *w.denom() as f64).abs(),
                ZAP_OUT_SHARE_TOLERANCE + unit / total,
            );
            if gap.is_nan() || gap > tol {
                return Err(mismatch(
                    F::Proportions,
                    Some(k),
                    PlanProblem::ShareOffProportion,
                ));
            }
        }
        Ok(())
    }
}

/// Whether the plan's slippage `got` is the request's `want` as a fraction (5/1000 is 1/200).
/// Both are checked to be fractions in [0, 1] first: `Ratio`'s own comparison divides by the
/// denominators, and the Rust API lets a caller build one of 0 (`Ratio::new_raw`).
///
/// # Errors
/// [`RouteError::BadRequest`] for a request's slippage outside [0, 1] or with a zero
/// denominator (as the router refuses it); the [`F::Slippage`] mismatch for the plan's.
fn same_slippage(got: Ratio<u64>, want: Ratio<u64>) -> Result<bool, RouteError> {
    let (wn, wd) = (*want.numer(), *want.denom());
    if wd == 0 || wn > wd {
        return Err(RouteError::BadRequest(BadRouteRequest::Slippage {
            numer: wn,
            denom: wd,
        }));
    }
    let (n, d) = (*got.numer(), *got.denom());
    check_fraction(n, d)?;
    // u64 × u64 fits in u128: the cross products compare the fractions exactly
    let cross = |a: u64, b: u64| u128::from(a).checked_mul(u128::from(b));
    Ok(cross(n, wd) == cross(wn, d))
}

/// The zap fee's `taken`: exactly `floor(amount × bps / 10000)` of each input of
/// `got_in`, zero fees omitted, each token once, nothing else.
fn check_fees_taken(
    bps: u32,
    got_in: &BTreeMap<TokenId, U256>,
    taken_list: &[TokenAmount],
) -> Result<(), RouteError> {
    let mut fees = BTreeMap::new();
    for (t, a) in got_in {
        let fee = crate::math::mul_div(*a, U256::from(bps), U256::from(10_000u32))?;
        if !fee.is_zero() {
            fees.insert(*t, fee);
        }
    }
    let taken = amount_map(taken_list.iter().map(|t| (t.token, t.amount)), true)
        .map_err(|k| mismatch(F::ZapFee, k, PlanProblem::TokenChargedTwice))?;
    for (k, t) in taken_list.iter().enumerate() {
        if fees.get(&t.token) != Some(&t.amount) {
            let why = PlanProblem::ZapFeeNotFloor;
            return Err(mismatch(F::ZapFee, Some(k), why));
        }
    }
    if taken.len() != fees.len() {
        return Err(mismatch(F::ZapFee, None, PlanProblem::InputFeeMissing));
    }
    Ok(())
}
