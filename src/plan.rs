//! The pathId-free [`Plan`]: exact integer amounts, steps in execution order.
//!
//! Every amount in a plan comes from integer simulation of the pools as their contracts compute
//! them; floats appear only in informational fields (`price_impact`, `upper_bound`).

use crate::error::RouteError;
use crate::graph::PoolGraph;
use crate::pool::Pool;
use crate::units::{PoolId, TokenId};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use primitive_types::U256;

/// One step of a plan, executed in order on the evolving pool states.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// An exact-in swap through one pool.
    Swap {
        /// the pool
        pool: PoolId,
        /// token sold
        token_in: TokenId,
        /// token bought
        token_out: TokenId,
        /// exact input
        amount_in: U256,
        /// exact output, as the contract computes it on the pool state at this point
        amount_out: U256,
    },
    /// A deposit into a pool that mints LP.
    Mint {
        /// the pool
        pool: PoolId,
        /// amounts deposited, one per pool coin, in the pool's coin order
        amounts_in: Vec<U256>,
        /// LP minted
        lp_out: U256,
    },
    /// A proportional burn of LP.
    Burn {
        /// the pool
        pool: PoolId,
        /// LP burned
        lp_in: U256,
        /// amounts returned, one per pool coin, in the pool's coin order
        amounts_out: Vec<U256>,
    },
    /// A one-coin withdrawal of LP (Curve `remove_liquidity_one_coin`), used by zaps where it
    /// gives more than the proportional burn.
    BurnOne {
        /// the pool
        pool: PoolId,
        /// LP burned
        lp_in: U256,
        /// the coin withdrawn
        token_out: TokenId,
        /// amount returned, as the pool computes it at this point
        amount_out: U256,
    },
}

/// A token and an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenAmount {
    /// the token
    pub token: TokenId,
    /// the amount, in base units
    pub amount: U256,
}

/// One output of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    /// the token
    pub token: TokenId,
    /// the exact amount the steps deliver
    pub amount: U256,
    /// the least amount accepted after slippage
    pub min_amount: U256,
}

/// A zap fee: the rate and the amounts taken from the inputs before any step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZapFee {
    /// fee rate in basis points of each input
    pub rate_bps: u32,
    /// amounts taken, per input token
    pub taken: Vec<TokenAmount>,
}

/// An executable plan: inputs, steps in execution order, outputs with slippage minimums.
///
/// Every amount is exact (integer simulation of the pools in step order). `value`,
/// `upper_bound` and `price_impact` are floats for information.
///
/// # Invariants (checked by [`Plan::verify`])
/// Replaying the steps from the inputs (less the zap fee) on the graph's pool states gives
/// every step's `amount_out` / `lp_out` / `amounts_out` exactly; no step spends more of a token
/// than is held at that point; at the end the holdings are exactly `outputs` plus `refunds`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// Amounts spent, per input token.
    pub inputs: Vec<TokenAmount>,
    /// Steps, in execution order.
    pub steps: Vec<Step>,
    /// Outputs, in the request's order.
    pub outputs: Vec<Output>,
    /// Surplus returned to the user (zaps), beside the outputs.
    pub refunds: Vec<TokenAmount>,
    /// Zap fee, if any.
    pub zap_fee: Option<ZapFee>,
    /// The plan's objective: for one output its amount (base units, net of gas when a gas model
    /// is given); for several, the basket value `min_k v_k z_k / w_k` in base units of the first
    /// output (`v_k` the mid price of output k, see [`crate::route`]).
    pub value: f64,
    /// An upper bound on `value` for any plan of this request on this snapshot (the dual bound,
    /// see [`crate::route`]); `None` when not computed (e.g. zap plans).
    pub upper_bound: Option<f64>,
    /// 1 − value received / value of the inputs at mid prices (fees and curvature included).
    pub price_impact: f64,
    /// Gas units of the steps under the request's gas model (0 without one).
    pub gas_units: u64,
    /// The gas price the plan was chosen with (output base units per gas unit; `None`: no gas
    /// model, `value` is the gross output).
    pub gas_price: Option<f64>,
    /// The hop limit `upper_bound` is over: `None` when it bounds every plan on the snapshot
    /// graph (any path length, all pools the source filters allow), `Some(h)` when the request
    /// set a hop limit and it bounds the plans whose paths have at most `h` hops.
    pub bound_max_hops: Option<usize>,
}

fn credit(
    hold: &mut BTreeMap<TokenId, U256>,
    t: TokenId,
    a: U256,
    step: Option<usize>,
) -> Result<(), RouteError> {
    let h = hold.entry(t).or_insert_with(U256::zero);
    *h = h.checked_add(a).ok_or(RouteError::InvalidPlan {
        step,
        why: "holding overflows",
    })?;
    Ok(())
}

fn debit(
    hold: &mut BTreeMap<TokenId, U256>,
    t: TokenId,
    a: U256,
    step: Option<usize>,
) -> Result<(), RouteError> {
    let h = hold.entry(t).or_insert_with(U256::zero);
    *h = h.checked_sub(a).ok_or(RouteError::InvalidPlan {
        step,
        why: "spends more than is held at this point",
    })?;
    Ok(())
}

impl Plan {
    /// Re-simulate every step exactly on `graph`'s pool states and check conservation.
    ///
    /// Starting from the inputs (less the zap fee), each step must: name a pool of the graph and
    /// coins of that pool; spend no more than is held; reproduce its `amount_out` / `lp_out` /
    /// `amounts_out` exactly on the pool state left by the earlier steps. At the end every
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
    pub fn verify(&self, graph: &PoolGraph) -> Result<(), RouteError> {
        let mut hold: BTreeMap<TokenId, U256> = BTreeMap::new();
        for i in &self.inputs {
            graph
                .token(i.token)
                .ok_or(RouteError::TokenOutOfRange(i.token.0))?;
            credit(&mut hold, i.token, i.amount, None)?;
        }
        if let Some(f) = &self.zap_fee {
            for t in &f.taken {
                debit(&mut hold, t.token, t.amount, None)?;
            }
        }
        let mut states: BTreeMap<PoolId, Pool> = BTreeMap::new();
        for (k, step) in self.steps.iter().enumerate() {
            let at = Some(k);
            let bad = |why| RouteError::InvalidPlan { step: at, why };
            let pool_id = match step {
                Step::Swap { pool, .. }
                | Step::Mint { pool, .. }
                | Step::Burn { pool, .. }
                | Step::BurnOne { pool, .. } => *pool,
            };
            let info = graph
                .pool(pool_id)
                .ok_or(RouteError::PoolOutOfRange(pool_id.0))?;
            let state = states.get(&pool_id).unwrap_or(&info.pool);
            let next = match step {
                Step::Swap {
                    token_in,
                    token_out,
                    amount_in,
                    amount_out,
                    ..
                } => {
                    let i = graph
                        .coin_index(pool_id, *token_in)
                        .ok_or(bad("token_in is not a coin of the pool"))?;
                    let j = graph
                        .coin_index(pool_id, *token_out)
                        .ok_or(bad("token_out is not a coin of the pool"))?;
                    if amount_in.is_zero() {
                        return Err(bad("zero amount_in"));
                    }
                    debit(&mut hold, *token_in, *amount_in, at)?;
                    let (o, next) = state
                        .swap(i, j, *amount_in)
                        .map_err(|_| bad("the swap reverts"))?;
                    if o != *amount_out {
                        return Err(bad("amount_out differs from the exact simulation"));
                    }
                    credit(&mut hold, *token_out, o, at)?;
                    next
                }
                Step::Mint {
                    amounts_in, lp_out, ..
                } => {
                    if amounts_in.len() != info.tokens.len() {
                        return Err(bad("amounts_in needs one amount per coin"));
                    }
                    for (t, a) in info.tokens.iter().zip(amounts_in) {
                        debit(&mut hold, *t, *a, at)?;
                    }
                    let (lp, next) = state
                        .mint(amounts_in)
                        .map_err(|_| bad("the mint reverts"))?;
                    if lp != *lp_out {
                        return Err(bad("lp_out differs from the exact simulation"));
                    }
                    credit(&mut hold, info.lp_token, lp, at)?;
                    next
                }
                Step::Burn {
                    lp_in, amounts_out, ..
                } => {
                    debit(&mut hold, info.lp_token, *lp_in, at)?;
                    let (amts, next) = state.burn(*lp_in).map_err(|_| bad("the burn reverts"))?;
                    if amts.as_slice() != amounts_out.as_slice() {
                        return Err(bad("amounts_out differ from the exact simulation"));
                    }
                    for (t, a) in info.tokens.iter().zip(amts.iter()) {
                        credit(&mut hold, *t, *a, at)?;
                    }
                    next
                }
                Step::BurnOne {
                    lp_in,
                    token_out,
                    amount_out,
                    ..
                } => {
                    let i = graph
                        .coin_index(pool_id, *token_out)
                        .ok_or(bad("token_out is not a coin of the pool"))?;
                    debit(&mut hold, info.lp_token, *lp_in, at)?;
                    let (o, next) = state
                        .burn_one(*lp_in, i)
                        .map_err(|_| bad("the burn reverts"))?;
                    if o != *amount_out {
                        return Err(bad("amount_out differs from the exact simulation"));
                    }
                    credit(&mut hold, *token_out, o, at)?;
                    next
                }
            };
            states.insert(pool_id, next);
        }
        let mut expect: BTreeMap<TokenId, U256> = BTreeMap::new();
        for o in &self.outputs {
            if o.min_amount > o.amount {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "min_amount above amount",
                });
            }
            credit(&mut expect, o.token, o.amount, None)?;
        }
        for r in &self.refunds {
            credit(&mut expect, r.token, r.amount, None)?;
        }
        for (t, h) in &hold {
            let e = expect.get(t).copied().unwrap_or_default();
            if *h != e {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "final holdings differ from outputs plus refunds",
                });
            }
        }
        for (t, e) in &expect {
            if !e.is_zero() && hold.get(t).copied().unwrap_or_default() != *e {
                return Err(RouteError::InvalidPlan {
                    step: None,
                    why: "an output is not delivered",
                });
            }
        }
        Ok(())
    }

    /// How far the plan may be from the best: `(upper_bound − value) / upper_bound`, the
    /// certificate's relative gap (`None` without a bound).
    #[must_use]
    #[allow(clippy::arithmetic_side_effects)] // f64
    pub fn bound_gap(&self) -> Option<f64> {
        self.upper_bound
            .filter(|b| *b > 0.0 && b.is_finite())
            .map(|b| (b - self.value) / b)
    }

    /// The JSON view of the plan (ids and addresses from `graph`, amounts as decimal strings):
    /// `steps` with `pool`, `token_in`, `token_out`, `amount_in`, `amount_out` (the format of
    /// `../shared/routing/README.md` §7) and `outputs` with `token`, `amount`, `min_amount`,
    /// plus the other fields of the plan.
    ///
    /// # Errors
    /// [`RouteError::PoolOutOfRange`] / [`RouteError::TokenOutOfRange`] for ids not in `graph`.
    #[cfg(feature = "serde")]
    pub fn to_json(&self, graph: &PoolGraph) -> Result<json::PlanJson, RouteError> {
        json::PlanJson::new(self, graph)
    }
}

/// The serialisable view of a [`Plan`] (see [`Plan::to_json`]).
#[cfg(feature = "serde")]
pub mod json {
    use super::{Plan, Step, TokenAmount};
    use crate::error::RouteError;
    use crate::graph::PoolGraph;
    use crate::units::{PoolId, TokenId};
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use primitive_types::U256;

    /// A token and a decimal-string amount.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct AmountJson {
        /// token address
        pub token: String,
        /// base units
        pub amount: String,
    }

    /// An output.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct OutputJson {
        /// token address
        pub token: String,
        /// base units
        pub amount: String,
        /// least amount after slippage
        pub min_amount: String,
    }

    /// A step.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum StepJson {
        /// swap
        Swap {
            /// pool id string
            pool: String,
            /// token sold
            token_in: String,
            /// token bought
            token_out: String,
            /// exact input
            amount_in: String,
            /// exact output
            amount_out: String,
        },
        /// mint
        Mint {
            /// pool id string
            pool: String,
            /// per coin, pool order
            amounts_in: Vec<String>,
            /// LP minted
            lp_out: String,
        },
        /// burn
        Burn {
            /// pool id string
            pool: String,
            /// LP burned
            lp_in: String,
            /// per coin, pool order
            amounts_out: Vec<String>,
        },
        /// one-coin withdrawal
        BurnOne {
            /// pool id string
            pool: String,
            /// LP burned
            lp_in: String,
            /// the coin withdrawn
            token_out: String,
            /// amount returned
            amount_out: String,
        },
    }

    /// The zap fee.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct ZapFeeJson {
        /// basis points
        pub rate_bps: u32,
        /// amounts taken
        pub taken: Vec<AmountJson>,
    }

    /// The plan.
    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct PlanJson {
        /// steps in execution order
        pub steps: Vec<StepJson>,
        /// outputs
        pub outputs: Vec<OutputJson>,
        /// inputs
        pub inputs: Vec<AmountJson>,
        /// surplus returned
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub refunds: Vec<AmountJson>,
        /// zap fee
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub zap_fee: Option<ZapFeeJson>,
        /// objective value (see [`Plan::value`])
        pub value: f64,
        /// upper bound on the objective
        pub upper_bound: Option<f64>,
        /// price impact (fraction)
        pub price_impact: f64,
        /// gas units
        pub gas_units: u64,
        /// the gas price the plan was chosen with (output base units per gas unit)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub gas_price: Option<f64>,
        /// `(upper_bound − value) / upper_bound`
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bound_gap: Option<f64>,
        /// the hop limit the bound is over (absent: every plan)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bound_max_hops: Option<usize>,
    }

    impl PlanJson {
        pub(super) fn new(p: &Plan, g: &PoolGraph) -> Result<Self, RouteError> {
            let tok = |t: TokenId| {
                g.token(t)
                    .map(|i| i.address.clone())
                    .ok_or(RouteError::TokenOutOfRange(t.0))
            };
            let pool = |p: PoolId| {
                g.pool(p)
                    .map(|i| i.id.clone())
                    .ok_or(RouteError::PoolOutOfRange(p.0))
            };
            let amt = |a: &TokenAmount| -> Result<AmountJson, RouteError> {
                Ok(AmountJson {
                    token: tok(a.token)?,
                    amount: a.amount.to_string(),
                })
            };
            let strs = |v: &[U256]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
            let mut steps = Vec::with_capacity(p.steps.len());
            for s in &p.steps {
                steps.push(match s {
                    Step::Swap {
                        pool: pl,
                        token_in,
                        token_out,
                        amount_in,
                        amount_out,
                    } => StepJson::Swap {
                        pool: pool(*pl)?,
                        token_in: tok(*token_in)?,
                        token_out: tok(*token_out)?,
                        amount_in: amount_in.to_string(),
                        amount_out: amount_out.to_string(),
                    },
                    Step::Mint {
                        pool: pl,
                        amounts_in,
                        lp_out,
                    } => StepJson::Mint {
                        pool: pool(*pl)?,
                        amounts_in: strs(amounts_in),
                        lp_out: lp_out.to_string(),
                    },
                    Step::Burn {
                        pool: pl,
                        lp_in,
                        amounts_out,
                    } => StepJson::Burn {
                        pool: pool(*pl)?,
                        lp_in: lp_in.to_string(),
                        amounts_out: strs(amounts_out),
                    },
                    Step::BurnOne {
                        pool: pl,
                        lp_in,
                        token_out,
                        amount_out,
                    } => StepJson::BurnOne {
                        pool: pool(*pl)?,
                        lp_in: lp_in.to_string(),
                        token_out: tok(*token_out)?,
                        amount_out: amount_out.to_string(),
                    },
                });
            }
            let mut outputs = Vec::new();
            for o in &p.outputs {
                outputs.push(OutputJson {
                    token: tok(o.token)?,
                    amount: o.amount.to_string(),
                    min_amount: o.min_amount.to_string(),
                });
            }
            let zap_fee = match &p.zap_fee {
                Some(f) => Some(ZapFeeJson {
                    rate_bps: f.rate_bps,
                    taken: f.taken.iter().map(amt).collect::<Result<_, _>>()?,
                }),
                None => None,
            };
            Ok(PlanJson {
                steps,
                outputs,
                inputs: p.inputs.iter().map(amt).collect::<Result<_, _>>()?,
                refunds: p.refunds.iter().map(amt).collect::<Result<_, _>>()?,
                zap_fee,
                value: p.value,
                upper_bound: p.upper_bound,
                price_impact: p.price_impact,
                gas_units: p.gas_units,
                gas_price: p.gas_price,
                bound_gap: p.bound_gap(),
                bound_max_hops: p.bound_max_hops,
            })
        }
    }
}
