//! The pool-family trait: the verbs every family with fungible LP shares has, for code that is
//! generic over the family (the zap optimiser re-runs its plans on the family types, which are
//! much smaller than a [`super::Pool`]).
//!
//! Implemented by [`ConstantProduct`], [`Solidly`], [`StableSwap`], [`SaberStableSwap`] and
//! [`SplTokenSwap`]: each runs the contract's (or program's) own math and returns the state
//! after. Concentrated-liquidity and Whirlpool pools are left out: their positions are not LP
//! tokens, so they have no `mint` or `burn` of shares.

use super::{Amounts, ConstantProduct, SaberStableSwap, Solidly, SplTokenSwap, StableSwap};
use crate::error::PoolError;
use primitive_types::U256;

/// A pool family whose liquidity is a fungible LP token: quotes, swaps, mints and burns, each
/// returning the new state instead of mutating. The methods are the families' own
/// (`ConstantProduct::swap`, ...), so every amount is theirs bit for bit.
pub trait PoolFamily: Sized {
    /// Number of coins.
    fn n_coins(&self) -> usize;
    /// The balances (reserves) the pool's math uses, by coin index.
    fn balances(&self) -> &[U256];
    /// LP supply.
    fn total_supply(&self) -> U256;
    /// The contract's quote for an exact input `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// The family's [`PoolError`] (bad index, empty pool, overflow, a revert).
    fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError>;
    /// The exact-in swap as the contract executes it: the output and the state after.
    ///
    /// # Errors
    /// The family's [`PoolError`], as for [`PoolFamily::amount_out`].
    fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError>;
    /// LP minted for a deposit of `amounts` (one per coin), and the state after.
    ///
    /// # Errors
    /// The family's [`PoolError`] (amount count, nothing minted, overflow).
    fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError>;
    /// The proportional withdrawal of `lp`, and the state after.
    ///
    /// # Errors
    /// The family's [`PoolError`] (more than the supply, nothing withdrawn, overflow).
    fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError>;
}

/// `PoolFamily` for family types whose inherent methods have the trait's signatures.
macro_rules! pool_family {
    ($($t:ty),+) => {$(
        impl PoolFamily for $t {
            fn n_coins(&self) -> usize {
                <$t>::n_coins(self)
            }
            fn balances(&self) -> &[U256] {
                <$t>::balances(self)
            }
            fn total_supply(&self) -> U256 {
                <$t>::total_supply(self)
            }
            fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
                <$t>::amount_out(self, i, j, dx)
            }
            fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
                <$t>::swap(self, i, j, dx)
            }
            fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
                <$t>::mint(self, amounts)
            }
            fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
                <$t>::burn(self, lp)
            }
        }
    )+};
}

pool_family!(
    ConstantProduct,
    Solidly,
    StableSwap,
    SaberStableSwap,
    SplTokenSwap
);
