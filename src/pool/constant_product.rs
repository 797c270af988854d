//! Stub: to be replaced by the family implementation.
#![allow(missing_docs, clippy::missing_errors_doc, clippy::unused_self)]

use super::Amounts;
use crate::error::PoolError;
use primitive_types::U256;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantProduct {
    balances: [U256; 2],
    total_supply: U256,
}

impl ConstantProduct {
    /// TEMP stub constructor (replaced at merge).
    pub fn from_balances_stub(balances: [U256; 2], total_supply: U256) -> Self {
        Self { balances, total_supply }
    }
    #[must_use]
    pub fn n_coins(&self) -> usize {
        2
    }
    #[must_use]
    pub fn balances(&self) -> &[U256] {
        &self.balances
    }
    #[must_use]
    pub fn total_supply(&self) -> U256 {
        self.total_supply
    }
    pub fn amount_out(&self, _i: usize, _j: usize, _dx: U256) -> Result<U256, PoolError> {
        Err(PoolError::Unsupported("stub"))
    }
    pub fn amount_in(&self, _i: usize, _j: usize, _dy: U256) -> Result<U256, PoolError> {
        Err(PoolError::Unsupported("stub"))
    }
    pub fn swap(&self, _i: usize, _j: usize, _dx: U256) -> Result<(U256, Self), PoolError> {
        Err(PoolError::Unsupported("stub"))
    }
    pub fn mint(&self, _amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        Err(PoolError::Unsupported("stub"))
    }
    pub fn burn(&self, _lp: U256) -> Result<(Amounts, Self), PoolError> {
        Err(PoolError::Unsupported("stub"))
    }
    #[must_use]
    pub fn marginal_rate(&self, _i: usize, _j: usize) -> f64 {
        0.0
    }
}
