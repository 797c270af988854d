//! The pathId-free [`Plan`]: exact integer amounts, steps in execution order.
//!
//! Every amount in a plan comes from integer simulation of the pools as their contracts compute
//! them; floats appear only in informational fields (`price_impact`, `upper_bound`).

use crate::units::{PoolId, TokenId};
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
}
