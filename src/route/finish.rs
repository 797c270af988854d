//! Step 6, finish: candidates compared by their objective net of gas, the best one becomes a
//! [`Plan`] (minimum amounts, refunds, price impact), or the reason none survived.

use super::recover::Settled;
use super::working_set::Ctx;
use crate::error::RouteError;
use crate::math;
use crate::math::float::to_f64;
use crate::plan::GasModel;
use crate::plan::{Excluded, Output, Plan, Step, TokenAmount};
use crate::units::TokenId;
use alloc::string::String;
use alloc::vec::Vec;
use primitive_types::U256;

/// A candidate plan before it becomes a [`Plan`].
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    /// pools whose swap reverted while this candidate was recovered, left out of it
    pub(super) excluded: Vec<Excluded>,
    pub(super) steps: Vec<Step>,
    pub(super) outs: Vec<U256>,
    pub(super) value: f64,
    pub(super) gas: u64,
    pub(super) net: f64,
}

impl Candidate {
    /// Whether this candidate is better than `other`: one that gives something of every
    /// output beats one that does not; else the higher objective net of gas wins (a tie
    /// keeps `other`).
    pub(super) fn beats(&self, other: &Candidate) -> bool {
        let full = |c: &Candidate| c.outs.iter().all(|o| !o.is_zero());
        match (full(self), full(other)) {
            (true, false) => true,
            (false, true) => false,
            _ => self.net > other.net,
        }
    }
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The error of a plan that gives nothing of an output (`outs`, one per output) while it
    /// gives something of another: [`RouteError::AmountTooSmall`] from the first input to the
    /// first such output.
    pub(super) fn zero_output(&self, outs: &[U256]) -> RouteError {
        let from = self.in_toks.first().copied().unwrap_or(TokenId(0));
        let to = self
            .out_toks
            .iter()
            .zip(outs)
            .find(|(_, o)| o.is_zero())
            .map_or(TokenId(0), |(t, _)| *t);
        RouteError::AmountTooSmall { from, to }
    }

    /// Why no plan survived the exact simulation, paths existing: every plan found gave 0 out
    /// (`zero`) or every revert was a dust revert ([`RouteError::AmountTooSmall`]); a revert
    /// for want of liquidity or by overflow ([`RouteError::InsufficientLiquidity`]); else the
    /// first pool that reverted ([`RouteError::Simulation`]), or [`RouteError::NoRoute`] when
    /// nothing reverted (every candidate closed a cycle or stranded an amount).
    pub(super) fn no_plan(&self, reverts: &[Excluded], zero: bool) -> RouteError {
        use crate::error::{MathError, PoolError as E};
        let from = self.in_toks.first().copied().unwrap_or(TokenId(0));
        let to = self.out_toks.first().copied().unwrap_or(TokenId(0));
        let dust = |e: &E| matches!(e, E::InsufficientOutputAmount | E::InsufficientInputAmount);
        let deep = |e: &E| {
            matches!(
                e,
                E::InsufficientLiquidity
                    | E::UnreachableOutput
                    | E::ReserveOverflow
                    | E::Math(MathError::Overflow)
            )
        };
        if zero || (!reverts.is_empty() && reverts.iter().all(|x| dust(&x.error))) {
            return RouteError::AmountTooSmall { from, to };
        }
        if reverts.iter().any(|x| deep(&x.error)) {
            return RouteError::InsufficientLiquidity { from, to };
        }
        match reverts.first() {
            Some(x) => RouteError::Simulation {
                pool: self
                    .graph
                    .pool(x.pool)
                    .map_or_else(String::new, |p| p.id.clone()),
                error: x.error,
            },
            None => RouteError::NoRoute,
        }
    }

    /// `1 − objective / value of the inputs` at the request's mid prices (0 where the inputs
    /// have no value there): [`Plan::price_impact`] of a plan whose outputs' objective (gross
    /// of gas, [`Ctx::objective`]) is `objective`.
    pub(super) fn price_impact(&self, objective: f64) -> f64 {
        let in_value: f64 = self
            .prep
            .inputs
            .iter()
            .zip(&self.vin)
            .map(|((_, a), v)| to_f64(*a) * v)
            .sum();
        if in_value > 0.0 {
            1.0 - objective / in_value
        } else {
            0.0
        }
    }

    pub(super) fn objective(&self, outs: &[U256]) -> f64 {
        let mut t = f64::INFINITY;
        for ((o, (_, w)), v) in outs.iter().zip(&self.prep.outputs).zip(&self.vout) {
            t = t.min(to_f64(*o) * v / w);
        }
        t
    }

    /// A settled simulation as a candidate: its objective, gas units and value net of gas.
    pub(super) fn candidate(&self, (steps, outs): Settled, gas: Option<GasModel>) -> Candidate {
        let value = self.objective(&outs);
        let (units, cost) = self.gas_of(&steps, gas);
        Candidate {
            excluded: Vec::new(),
            steps,
            outs,
            value,
            gas: units,
            net: value - cost,
        }
    }

    /// The plan of candidate `c`, with the certificate's bound and its rounding slack
    /// (`bound`).
    pub(super) fn finish(
        &self,
        c: Candidate,
        (bound, slack): (f64, f64),
    ) -> Result<Plan, RouteError> {
        let s = self.req.slippage;
        let keep_num = U256::from(s.denom().saturating_sub(*s.numer()));
        let den = U256::from(*s.denom());
        let mut outputs = Vec::with_capacity(c.outs.len());
        for (t, a) in self.out_toks.iter().zip(&c.outs) {
            outputs.push(Output {
                token: *t,
                amount: *a,
                min_amount: math::mul_div(*a, keep_num, den)?,
            });
        }
        let inputs: Vec<TokenAmount> = self
            .prep
            .inputs
            .iter()
            .map(|(t, a)| TokenAmount {
                token: *t,
                amount: *a,
            })
            .collect();
        // what SPL Token Swap steps did not take of what they were offered, and what a
        // concentrated-liquidity (or Whirlpool) leg whose known ticks end inside it did not take
        let refunds = crate::plan::unspent(self.graph, &inputs, &c.steps, &outputs)?;
        if refunds
            .iter()
            .any(|r| crate::plan::partial_fill(self.graph, &inputs, &c.steps, r))
        {
            return Err(RouteError::InsufficientLiquidity {
                from: self.in_toks.first().copied().unwrap_or(TokenId(0)),
                to: self.out_toks.first().copied().unwrap_or(TokenId(0)),
            });
        }
        let price_impact = self.price_impact(c.value);
        let ub = bound.is_finite().then_some(bound);
        Ok(Plan {
            inputs,
            steps: c.steps,
            outputs,
            refunds,
            zap_fee: None,
            value: c.net,
            upper_bound: ub,
            rounding_slack: ub.map(|_| slack),
            price_impact,
            gas_units: c.gas,
            gas_price: self.gas().map(|g| g.gas_price),
            bound_max_hops: self.req.max_hops,
            slippage: self.req.slippage,
            excluded: c.excluded,
        })
    }
}
