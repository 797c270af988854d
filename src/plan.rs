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
