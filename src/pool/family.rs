//! The pool-family traits: the verbs the families share, for code that reads a pool without
//! naming its family.
//!
//! - [`PoolFamily`]: the swap verbs every family has (all seven: [`ConstantProduct`],
//!   [`Solidly`], [`StableSwap`], [`SaberStableSwap`], [`SplTokenSwap`], [`Whirlpool`],
//!   [`ConcentratedLiquidity`]) and [`Pool`], whose impl is one `match` per verb.
//! - [`LpFamily`]: the verbs of a pool whose liquidity is a fungible LP token (mint, burn,
//!   one-coin burn), for the five families with LP shares and [`Pool`] (which answers
//!   [`PoolError::Unsupported`] for the other two, as their own types do).
//!
//! The router, the zaps and pricing read pools through these verbs: the exact side of a quote
//! swaps with [`PoolFamily::swap_taken`] and orders its legs by [`PoolFamily::may_take_less`];
//! the zap optimiser re-runs its plans generically over [`LpFamily`] on the family types
//! (monomorphised, much smaller than a [`Pool`]); pricing reads [`PoolFamily::marginal_rate`].
//! Every method is the family's own (or the `Pool` dispatch to it), so every amount is the
//! contract's bit for bit; nothing here allocates or uses `dyn`.
//!
//! A family type's inherent methods keep the contract's names and meanings; where one differs
//! from the trait's verb, the trait says so: [`ConstantProduct::amount_in`] is the router's
//! `getAmountIn` (always one above an exact division), while its [`PoolFamily::amount_in`] is
//! the least input ([`ConstantProduct::min_amount_in`]), as for every other family.

use super::{
    Amounts, ConcentratedLiquidity, ConstantProduct, Pool, SaberStableSwap, Solidly, SplTokenSwap,
    StableSwap, Whirlpool, OVERFLOW,
};
use crate::error::{PoolError, PoolUnsupported};
use primitive_types::U256;

/// The swap verbs of a pool family, each returning the new state instead of mutating.
pub trait PoolFamily: Sized {
    /// Number of coins.
    fn n_coins(&self) -> usize;

    /// The balances (reserves) the pool's math uses, by coin index (a Whirlpool's are virtual
    /// reserves, see [`Whirlpool::balances`]).
    fn balances(&self) -> &[U256];

    /// The contract's quote for an exact input `dx` of coin `i` into coin `j`.
    ///
    /// # Errors
    /// The family's [`PoolError`] (bad index, empty pool, overflow, a revert).
    fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError>;

    /// The least input of coin `i` whose exact output of coin `j` is at least `dy`.
    ///
    /// # Errors
    /// [`PoolError::UnreachableOutput`] when no input reaches `dy`; others as the contract.
    fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError>;

    /// The exact-in swap as the contract executes it: the output and the state after.
    ///
    /// # Errors
    /// The family's [`PoolError`], as for [`PoolFamily::amount_out`].
    fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError>;

    /// The input to offer for an exact-in swap of up to `dx` so that the pool takes all of
    /// it: `dx` itself unless [`PoolFamily::may_take_less`] (see [`Pool::exact_offer`]).
    ///
    /// # Errors
    /// The family's [`PoolError`] where it searches the offer; never for the others.
    fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        let _ = (i, j);
        Ok(dx)
    }

    /// Whether an exact-in swap may take less than it is offered ([`PoolFamily::exact_offer`]
    /// below `dx`): an SPL Token Swap pool (its program transfers only what its curve used),
    /// and a concentrated-liquidity pool or Whirlpool whose known ticks run out.
    fn may_take_less(&self) -> bool {
        false
    }

    /// [`PoolFamily::exact_offer`] then [`PoolFamily::swap`] of that offer: `(amount taken,
    /// output, state after)`, with the amount taken at most `dx`.
    ///
    /// # Errors
    /// As [`PoolFamily::exact_offer`] and [`PoolFamily::swap`].
    #[inline]
    fn swap_taken(&self, i: usize, j: usize, dx: U256) -> Result<(U256, U256, Self), PoolError> {
        let x = self.exact_offer(i, j, dx)?;
        let (out, next) = self.swap(i, j, x)?;
        Ok((x, out, next))
    }

    /// Marginal exchange rate d(out)/d(in) of `i` into `j` at zero size, fee included, in raw
    /// units. For search and pricing only: never produces an amount.
    fn marginal_rate(&self, i: usize, j: usize) -> f64;
}

/// A pool family whose liquidity is a fungible LP token: mints and burns, each returning the
/// new state instead of mutating.
pub trait LpFamily: PoolFamily {
    /// LP supply.
    fn total_supply(&self) -> U256;

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

    /// Coins of `i` returned for burning `lp` into that one coin (Curve
    /// `remove_liquidity_one_coin`, Saber `WithdrawOne`), and the state after.
    ///
    /// # Errors
    /// [`PoolError::Unsupported`] for families without one-coin withdrawal; otherwise what the
    /// contract reverts on.
    fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        let _ = (lp, i);
        Err(PoolError::Unsupported(PoolUnsupported::OneCoinWithdrawal))
    }
}

/// [`PoolFamily`] for a family type whose inherent verbs have the trait's signatures; the
/// least input is its inherent method `$least`; further items (overrides) follow.
macro_rules! pool_family {
    ($t:ty, least_input: $least:ident $(, $($extra:tt)+)?) => {
        impl PoolFamily for $t {
            #[inline]
            fn n_coins(&self) -> usize {
                <$t>::n_coins(self)
            }
            #[inline]
            fn balances(&self) -> &[U256] {
                <$t>::balances(self)
            }
            #[inline]
            fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
                <$t>::amount_out(self, i, j, dx)
            }
            #[inline]
            fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
                <$t>::$least(self, i, j, dy)
            }
            #[inline]
            fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
                <$t>::swap(self, i, j, dx)
            }
            #[inline]
            fn marginal_rate(&self, i: usize, j: usize) -> f64 {
                <$t>::marginal_rate(self, i, j)
            }
            $($($extra)+)?
        }
    };
}

pool_family!(ConstantProduct, least_input: min_amount_in);
pool_family!(Solidly, least_input: amount_in);
pool_family!(StableSwap, least_input: amount_in);
pool_family!(SaberStableSwap, least_input: amount_in);
pool_family!(Whirlpool, least_input: amount_in,
    /// [`Whirlpool::exact_offer`]: the input the tick arrays absorb whole.
    fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        Whirlpool::exact_offer(self, i, j, dx)
    }
    fn may_take_less(&self) -> bool {
        true
    }
);
pool_family!(SplTokenSwap, least_input: amount_in,
    /// [`SplTokenSwap::exact_offer`] on valid indices and an offer that fits `u128`.
    fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        super::pair(i, j)?;
        let x = crate::math::wide::to_u128(&dx).ok_or(OVERFLOW)?;
        SplTokenSwap::exact_offer(self, i, x).map(U256::from)
    }
    fn may_take_less(&self) -> bool {
        true
    }
);
pool_family!(ConcentratedLiquidity, least_input: amount_in,
    /// [`ConcentratedLiquidity::exact_offer`]: the input the known window absorbs whole.
    fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        ConcentratedLiquidity::exact_offer(self, i, j, dx)
    }
    fn may_take_less(&self) -> bool {
        true
    }
);

/// [`LpFamily`] for a family type whose inherent verbs have the trait's signatures; further
/// items (overrides) follow.
macro_rules! lp_family {
    ($t:ty $(, $($extra:tt)+)?) => {
        impl LpFamily for $t {
            #[inline]
            fn total_supply(&self) -> U256 {
                <$t>::total_supply(self)
            }
            #[inline]
            fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
                <$t>::mint(self, amounts)
            }
            #[inline]
            fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
                <$t>::burn(self, lp)
            }
            $($($extra)+)?
        }
    };
}

lp_family!(ConstantProduct);
lp_family!(Solidly);
lp_family!(SplTokenSwap);
lp_family!(
    StableSwap,
    fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        StableSwap::burn_one(self, lp, i)
    }
);
lp_family!(
    SaberStableSwap,
    fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        SaberStableSwap::burn_one(self, lp, i)
    }
);

/// `$e` (a verb of the family value `$p`) on whichever family `$self` holds.
macro_rules! dispatch {
    ($self:ident, $p:ident => $e:expr) => {
        match $self {
            Pool::ConstantProduct($p) => $e,
            Pool::Solidly($p) => $e,
            Pool::StableSwap($p) => $e,
            Pool::SplTokenSwap($p) => $e,
            Pool::Saber($p) => $e,
            Pool::Whirlpool($p) => $e,
            Pool::ConcentratedLiquidity($p) => $e,
        }
    };
}

/// `$e` on the family value, its `(value, state)` answer with the state wrapped back in
/// [`Pool`]; with a last `pattern => expression`, that arm for the concentrated-liquidity
/// pool instead (for verbs it does not have).
macro_rules! dispatch_state {
    ($self:ident, $p:ident => $e:expr) => {
        dispatch_state!($self, $p => $e,
            Pool::ConcentratedLiquidity($p) => $e.map(|(v, s)| (v, Pool::ConcentratedLiquidity(s))))
    };
    ($self:ident, $p:ident => $e:expr, $cl:pat => $cl_e:expr) => {
        match $self {
            Pool::ConstantProduct($p) => $e.map(|(v, s)| (v, Pool::ConstantProduct(s))),
            Pool::Solidly($p) => $e.map(|(v, s)| (v, Pool::Solidly(s))),
            Pool::StableSwap($p) => $e.map(|(v, s)| (v, Pool::StableSwap(s))),
            Pool::SplTokenSwap($p) => $e.map(|(v, s)| (v, Pool::SplTokenSwap(s))),
            Pool::Saber($p) => $e.map(|(v, s)| (v, Pool::Saber(s))),
            Pool::Whirlpool($p) => $e.map(|(v, s)| (v, Pool::Whirlpool(s))),
            $cl => $cl_e,
        }
    };
}

/// One `match` per verb, to the family's [`PoolFamily`] verb.
impl PoolFamily for Pool {
    #[inline]
    fn n_coins(&self) -> usize {
        dispatch!(self, p => PoolFamily::n_coins(p))
    }

    #[inline]
    fn balances(&self) -> &[U256] {
        dispatch!(self, p => PoolFamily::balances(p))
    }

    fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        dispatch!(self, p => PoolFamily::amount_out(p, i, j, dx))
    }

    fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        dispatch!(self, p => PoolFamily::amount_in(p, i, j, dy))
    }

    fn swap(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        dispatch_state!(self, p => PoolFamily::swap(p, i, j, dx))
    }

    fn exact_offer(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        dispatch!(self, p => PoolFamily::exact_offer(p, i, j, dx))
    }

    #[inline]
    fn may_take_less(&self) -> bool {
        dispatch!(self, p => PoolFamily::may_take_less(p))
    }

    fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        dispatch!(self, p => PoolFamily::marginal_rate(p, i, j))
    }
}

/// The LP verbs of the five families with LP shares; a Whirlpool or concentrated-liquidity
/// pool answers [`PoolError::Unsupported`] (its positions are not LP tokens) and a supply of 0.
impl LpFamily for Pool {
    #[inline]
    fn total_supply(&self) -> U256 {
        dispatch!(self, p => p.total_supply())
    }

    fn mint(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        dispatch_state!(self, p => p.mint(amounts),
            Pool::ConcentratedLiquidity(_) => Err(PoolError::Unsupported(PoolUnsupported::ConcentratedLiquidityLp)))
    }

    fn burn(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        dispatch_state!(self, p => p.burn(lp),
            Pool::ConcentratedLiquidity(_) => Err(PoolError::Unsupported(PoolUnsupported::ConcentratedLiquidityLp)))
    }

    fn burn_one(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        match self {
            Pool::StableSwap(p) => {
                LpFamily::burn_one(p, lp, i).map(|(v, s)| (v, Pool::StableSwap(s)))
            }
            Pool::Saber(p) => LpFamily::burn_one(p, lp, i).map(|(v, s)| (v, Pool::Saber(s))),
            _ => Err(PoolError::Unsupported(PoolUnsupported::OneCoinWithdrawal)),
        }
    }
}
