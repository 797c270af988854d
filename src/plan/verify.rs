//! [`Plan::verify`]: the steps replayed exactly on the graph's pool states, and conservation.
//!
//! Each step goes through the same four phases, in this order (the order decides which error
//! a plan broken in several ways reports): its own checks against the pool ([`coins`]), what it
//! spends ([`Holdings::spend`]), the exact simulation compared with its stated amounts
//! ([`simulate`]), what it receives ([`Holdings::receive`]).

use super::ledger::Holdings;
use super::{Plan, Step};
use crate::error::{PlanProblem, RouteError, StepOp};
use crate::graph::{PoolGraph, PoolInfo};
use crate::pool::Pool;
use crate::units::{PoolId, TokenId};
use alloc::collections::BTreeMap;

impl Plan {
    /// Re-simulate every step exactly on `graph`'s pool states and check conservation.
    ///
    /// Starting from the inputs (less the zap fee), each step must: name a pool of the graph and
    /// coins of that pool; spend no more than is held; reproduce its `amount_out` / `lp_out` /
    /// `amounts_out` exactly on the pool state left by the earlier steps, and a swap's
    /// `amount_in` must be all the pool takes from it (an SPL Token Swap step that claims an
    /// input its program would only partly transfer is refused). At the end every
    /// token's holding must equal its `outputs` amount plus its `refunds` amount (so inputs are
    /// spent exactly and nothing is created or lost), and each `min_amount` must not exceed its
    /// amount.
    ///
    /// # Errors
    /// [`RouteError::InvalidPlan`] naming the first failing step (or `None` for totals);
    /// [`RouteError::PoolOutOfRange`] / [`RouteError::TokenOutOfRange`] for unknown ids.
    ///
    /// # Complexity
    /// One exact pool operation per step, O(S log S) bookkeeping.
    ///
    /// # Example
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use num_rational::Ratio;
    /// use swapzap::{graph::PoolGraph, plan::Step, route, snapshot::Snapshot, U256};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
    /// let snapshot: Snapshot = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    /// let graph = PoolGraph::from_snapshot(&snapshot)?;
    /// let weth = graph.token_id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a").ok_or("no WETH")?;
    /// let usdt = graph.token_id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b").ok_or("no USDT")?;
    /// let req = route::RouteRequest::new(vec![(weth, U256::exp10(19))], vec![(usdt, Ratio::from_integer(1))]);
    /// let plan = route::quote(&graph, &req)?;
    /// plan.verify(&graph)?; // every step re-simulated exactly, holdings conserved
    ///
    /// // One base unit more out of the first swap than the pool pays: refused at that step.
    /// let mut forged = plan.clone();
    /// if let Some(Step::Swap { amount_out, .. }) = forged.steps.first_mut() {
    ///     *amount_out += U256::one();
    /// }
    /// assert!(matches!(
    ///     forged.verify(&graph),
    ///     Err(swapzap::RouteError::InvalidPlan { step: Some(0), .. })
    /// ));
    /// # Ok(())
    /// # }
    /// ```
    pub fn verify(&self, graph: &PoolGraph) -> Result<(), RouteError> {
        let mut hold = self.held_after_fee(graph)?;
        let mut states: BTreeMap<PoolId, Pool> = BTreeMap::new();
        for (k, step) in self.steps.iter().enumerate() {
            replay(graph, &mut states, &mut hold, step, k)?;
        }
        self.check_totals(&hold)
    }

    /// The inputs (each a token of `graph`) less the zap fee taken.
    fn held_after_fee(&self, graph: &PoolGraph) -> Result<Holdings, RouteError> {
        let mut hold = Holdings::default();
        for i in &self.inputs {
            graph
                .token(i.token)
                .ok_or(RouteError::TokenOutOfRange(i.token))?;
            hold.credit(i.token, i.amount, None)?;
        }
        if let Some(f) = &self.zap_fee {
            for t in &f.taken {
                hold.debit(t.token, t.amount, None)?;
            }
        }
        Ok(hold)
    }

    /// What the steps left (`hold`) is exactly the outputs plus the refunds, and no
    /// `min_amount` is above its amount.
    fn check_totals(&self, hold: &Holdings) -> Result<(), RouteError> {
        let bad = |why| RouteError::InvalidPlan { step: None, why };
        let mut expect = Holdings::default();
        for o in &self.outputs {
            if o.min_amount > o.amount {
                return Err(bad(PlanProblem::MinAmountAboveAmount));
            }
            expect.credit(o.token, o.amount, None)?;
        }
        for r in &self.refunds {
            expect.credit(r.token, r.amount, None)?;
        }
        if hold.iter().any(|(t, h)| h != expect.get(t)) {
            return Err(bad(PlanProblem::HoldingsDiffer));
        }
        if expect.iter().any(|(t, e)| !e.is_zero() && hold.get(t) != e) {
            return Err(bad(PlanProblem::OutputNotDelivered));
        }
        Ok(())
    }
}

/// Step `k` replayed on the pool state the earlier steps left (`states`, else the graph's),
/// moving its amounts in `hold`.
fn replay(
    graph: &PoolGraph,
    states: &mut BTreeMap<PoolId, Pool>,
    hold: &mut Holdings,
    step: &Step,
    k: usize,
) -> Result<(), RouteError> {
    let bad = |why| RouteError::InvalidPlan { step: Some(k), why };
    let pool_id = step.pool_id();
    let info = graph
        .pool(pool_id)
        .ok_or(RouteError::PoolOutOfRange(pool_id))?;
    if !matches!(step, Step::Swap { .. }) && !info.supply_known {
        return Err(bad(PlanProblem::NoTotalSupply));
    }
    let coins = coins(graph, info, step).map_err(bad)?;
    hold.spend(graph, step, k)?;
    let state = states.get(&pool_id).unwrap_or(&info.pool);
    let next = simulate(state, step, coins).map_err(bad)?;
    hold.receive(graph, step, k)?;
    states.insert(pool_id, next);
    Ok(())
}

/// A step's checks against its pool before it spends anything, and the coin indices it
/// names: a swap's `(in, out)`, a one-coin burn's `(out, out)`, `(0, 0)` for a mint or burn.
fn coins(graph: &PoolGraph, info: &PoolInfo, step: &Step) -> Result<(usize, usize), PlanProblem> {
    let index = |t: TokenId, why| graph.coin_index(step.pool_id(), t).ok_or(why);
    match step {
        Step::Swap {
            token_in,
            token_out,
            amount_in,
            ..
        } => {
            let i = index(*token_in, PlanProblem::TokenInNotACoin)?;
            let j = index(*token_out, PlanProblem::TokenOutNotACoin)?;
            if amount_in.is_zero() {
                return Err(PlanProblem::ZeroAmountIn);
            }
            Ok((i, j))
        }
        Step::Mint { amounts_in, .. } if amounts_in.len() != info.tokens.len() => {
            Err(PlanProblem::AmountsInCount)
        }
        Step::Mint { .. } | Step::Burn { .. } => Ok((0, 0)),
        Step::BurnOne { token_out, .. } => {
            let i = index(*token_out, PlanProblem::TokenOutNotACoin)?;
            Ok((i, i))
        }
    }
}

/// The exact pool operation of a step on `state`, its result compared with the step's stated
/// amounts; the pool state after it.
fn simulate(state: &Pool, step: &Step, (i, j): (usize, usize)) -> Result<Pool, PlanProblem> {
    let same = |ok: bool, why| if ok { Ok(()) } else { Err(why) };
    match step {
        Step::Swap {
            amount_in,
            amount_out,
            ..
        } => {
            let taken = state
                .exact_offer(i, j, *amount_in)
                .map_err(|error| reverts(StepOp::Swap, error))?;
            same(taken == *amount_in, PlanProblem::TakesLessThanAmountIn)?;
            let (o, next) = state
                .swap(i, j, *amount_in)
                .map_err(|error| reverts(StepOp::Swap, error))?;
            same(o == *amount_out, PlanProblem::AmountOutDiffers)?;
            Ok(next)
        }
        Step::Mint {
            amounts_in, lp_out, ..
        } => {
            let (lp, next) = state
                .mint(amounts_in)
                .map_err(|error| reverts(StepOp::Mint, error))?;
            same(lp == *lp_out, PlanProblem::LpOutDiffers)?;
            Ok(next)
        }
        Step::Burn {
            lp_in, amounts_out, ..
        } => {
            let (amts, next) = state
                .burn(*lp_in)
                .map_err(|error| reverts(StepOp::Burn, error))?;
            same(
                amts.as_slice() == amounts_out.as_slice(),
                PlanProblem::AmountsOutDiffer,
            )?;
            Ok(next)
        }
        Step::BurnOne {
            lp_in, amount_out, ..
        } => {
            let (o, next) = state
                .burn_one(*lp_in, i)
                .map_err(|error| reverts(StepOp::Burn, error))?;
            same(o == *amount_out, PlanProblem::AmountOutDiffers)?;
            Ok(next)
        }
    }
}

/// The [`PlanProblem::Reverts`] of a step's operation `op`.
fn reverts(op: StepOp, error: crate::error::PoolError) -> PlanProblem {
    PlanProblem::Reverts { op, error }
}
