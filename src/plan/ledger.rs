//! Token holdings while a plan's steps run: what each step spends and receives, by its stated
//! amounts, and what is left at the end ([`unspent`]).

use super::{Flow, Output, Step, TokenAmount};
use crate::error::{PlanProblem, RouteError};
use crate::graph::PoolGraph;
use crate::units::TokenId;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use primitive_types::U256;

/// Token amounts held at a point of a plan, per token.
#[derive(Debug, Default)]
pub(super) struct Holdings(BTreeMap<TokenId, U256>);

impl Holdings {
    /// Change the holding of `t` by `f` (a checked add or sub), or the
    /// [`RouteError::InvalidPlan`] at `step` saying `why` when it fails.
    fn adjust(
        &mut self,
        t: TokenId,
        step: Option<usize>,
        why: PlanProblem,
        f: impl FnOnce(U256) -> Option<U256>,
    ) -> Result<(), RouteError> {
        let h = self.0.entry(t).or_insert_with(U256::zero);
        *h = f(*h).ok_or(RouteError::InvalidPlan { step, why })?;
        Ok(())
    }

    /// Receive `a` of `t` (at `step`, or `None` for the plan's totals).
    pub(super) fn credit(
        &mut self,
        t: TokenId,
        a: U256,
        step: Option<usize>,
    ) -> Result<(), RouteError> {
        self.adjust(t, step, PlanProblem::HoldingOverflows, |h| h.checked_add(a))
    }

    /// Spend `a` of `t`: refused when more than is held.
    pub(super) fn debit(
        &mut self,
        t: TokenId,
        a: U256,
        step: Option<usize>,
    ) -> Result<(), RouteError> {
        let why = PlanProblem::Overspends;
        self.adjust(t, step, why, |h| h.checked_sub(a))
    }

    /// The holding of `t` (zero when never touched).
    #[must_use]
    pub(super) fn get(&self, t: TokenId) -> U256 {
        self.0.get(&t).copied().unwrap_or_default()
    }

    /// Every token touched, in token order, with its holding.
    pub(super) fn iter(&self) -> impl Iterator<Item = (TokenId, U256)> + '_ {
        self.0.iter().map(|(t, a)| (*t, *a))
    }

    /// What step `k` spends, by its stated amounts: a swap's input, a mint's coins (in the
    /// pool's coin order), a burn's LP.
    ///
    /// # Errors
    /// [`RouteError::InvalidPlan`] at `k` when more than is held;
    /// [`RouteError::PoolOutOfRange`] for an LP step on an unknown pool.
    pub(super) fn spend(
        &mut self,
        graph: &PoolGraph,
        step: &Step,
        k: usize,
    ) -> Result<(), RouteError> {
        self.apply(graph, step, step.spent(), Some(k), Self::debit)
    }

    /// What step `k` receives, by its stated amounts: a swap's or one-coin burn's output, a
    /// mint's LP, a burn's coins (in the pool's coin order).
    ///
    /// # Errors
    /// [`RouteError::InvalidPlan`] at `k` when a holding overflows;
    /// [`RouteError::PoolOutOfRange`] for a mint or burn on an unknown pool.
    pub(super) fn receive(
        &mut self,
        graph: &PoolGraph,
        step: &Step,
        k: usize,
    ) -> Result<(), RouteError> {
        self.apply(graph, step, step.received(), Some(k), Self::credit)
    }

    /// `change` ([`Self::debit`] or [`Self::credit`]) of every token of `flow`, a side of
    /// `step`: the LP token and the coins are the step's pool's.
    fn apply(
        &mut self,
        graph: &PoolGraph,
        step: &Step,
        flow: Flow<'_>,
        at: Option<usize>,
        change: impl Fn(&mut Self, TokenId, U256, Option<usize>) -> Result<(), RouteError>,
    ) -> Result<(), RouteError> {
        let pool = step.pool_id();
        let info = || graph.pool(pool).ok_or(RouteError::PoolOutOfRange(pool));
        match flow {
            Flow::Token(t, a) => change(self, t, a, at),
            Flow::Lp(a) => change(self, info()?.lp_token, a, at),
            Flow::Coins(amounts) => {
                for (t, a) in info()?.tokens.iter().zip(amounts) {
                    change(self, *t, *a, at)?;
                }
                Ok(())
            }
        }
    }
}

/// Token amounts as a map, summing repeats; `Err(k)` at the first index whose token repeats
/// when `distinct`, `Err(None)` when a sum overflows.
pub(super) fn amount_map(
    items: impl Iterator<Item = (TokenId, U256)>,
    distinct: bool,
) -> Result<BTreeMap<TokenId, U256>, Option<usize>> {
    let mut m: BTreeMap<TokenId, U256> = BTreeMap::new();
    for (k, (t, a)) in items.enumerate() {
        match m.get_mut(&t) {
            Some(_) if distinct => return Err(Some(k)),
            Some(v) => *v = v.checked_add(a).ok_or(None)?,
            None => {
                m.insert(t, a);
            }
        }
    }
    Ok(m)
}

/// What is left of `inputs` after `steps` (their stated amounts, no pool math) and `outputs`,
/// per token in token order, zero amounts left out: the refunds of a plan that spends its
/// inputs through these steps (for a router plan, what SPL Token Swap steps did not take).
///
/// # Errors
/// [`RouteError::InvalidPlan`] when a step or output spends more than is held;
/// [`RouteError::PoolOutOfRange`] for an LP step on an unknown pool.
pub(crate) fn unspent(
    graph: &PoolGraph,
    inputs: &[TokenAmount],
    steps: &[Step],
    outputs: &[Output],
) -> Result<Vec<TokenAmount>, RouteError> {
    let mut hold = Holdings::default();
    for i in inputs {
        hold.credit(i.token, i.amount, None)?;
    }
    for (k, step) in steps.iter().enumerate() {
        hold.spend(graph, step, k)?;
        hold.receive(graph, step, k)?;
    }
    for o in outputs {
        hold.debit(o.token, o.amount, None)?;
    }
    Ok(hold
        .iter()
        .filter(|(_, a)| !a.is_zero())
        .map(|(token, amount)| TokenAmount { token, amount })
        .collect())
}

/// A refund of more than `1 / PARTIAL_FILL` of what reached its token, from a
/// concentrated-liquidity or Whirlpool leg, makes a swap plan a partial fill ([`partial_fill`]).
pub(crate) const PARTIAL_FILL: u64 = 1000;

/// Whether the refund `r` of a swap plan (its `inputs` and `steps`) makes it a partial fill.
/// A pool takes less than it is offered only where an SPL Token Swap program rounds (a unit
/// or so; such a refund is never a partial fill) or a concentrated-liquidity pool's known
/// ticks (a Whirlpool's tick arrays) end inside the trade: then more than `1 / PARTIAL_FILL` of what reached the token
/// coming back means the pools cannot take the trade. Within the thousandth it is the float
/// flows' drift from the exact amounts at a full window's edge (a leftover of 1.4e-6 of the
/// token's flow on a generated market). A refund of a token no such pool takes is always one.
pub(crate) fn partial_fill(
    graph: &PoolGraph,
    inputs: &[TokenAmount],
    steps: &[Step],
    r: &TokenAmount,
) -> bool {
    use crate::pool::Pool;
    let family_takes = |spl: bool| {
        steps.iter().any(|s| {
            matches!(s, Step::Swap { pool, token_in, .. } if *token_in == r.token
            && graph.pool(*pool).is_some_and(|p| if spl {
                matches!(p.pool, Pool::SplTokenSwap(_))
            } else {
                matches!(p.pool, Pool::ConcentratedLiquidity(_) | Pool::Whirlpool(_))
            }))
        })
    };
    if family_takes(true) {
        return false;
    }
    if !family_takes(false) {
        return true;
    }
    let received = steps.iter().fold(U256::zero(), |a, s| match s {
        Step::Swap {
            token_out,
            amount_out,
            ..
        } if *token_out == r.token => a.saturating_add(*amount_out),
        _ => a,
    });
    let reached = inputs
        .iter()
        .filter(|i| i.token == r.token)
        .fold(received, |a, i| a.saturating_add(i.amount));
    r.amount
        > reached
            .checked_div(U256::from(PARTIAL_FILL))
            .unwrap_or_default()
}
