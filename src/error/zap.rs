//! Zap failures (codes 5000-5999).

use super::{ErrorClass, MathError, PoolError, RouteError};
use crate::units::{PoolId, TokenId};
use core::fmt;
use primitive_types::U256;

/// A zap that cannot be planned: bad input, nothing to mint, or a pool or route failure.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ZapError {
    /// The amounts do not have one entry per pool coin.
    AmountCount {
        /// coins in the pool
        expected: usize,
        /// amounts given
        got: usize,
    },
    /// Every input amount is zero.
    EmptyInput,
    /// No plan mints any LP (the input is dust for this pool, or every plan reverts).
    NothingToMint,
    /// The pool family or variant has no zap support for this operation, or a step of the
    /// plan cannot be replayed exactly (what, with the values, in [`ZapUnsupported`]).
    Unsupported(ZapUnsupported),
    /// A token that is not in the graph, or not a coin of the pool where one is needed.
    UnknownToken(TokenId),
    /// A token given as an LP input that is not the LP token of any pool.
    NotAnLp(TokenId),
    /// Output proportions that are empty, zero or do not sum to one.
    Proportions,
    /// A pool operation reverted where the plan needs it.
    Pool(PoolError),
    /// Integer arithmetic overflowed.
    Math(MathError),
    /// No route exists between two tokens the zap must connect.
    NoRoute {
        /// token sold
        from: TokenId,
        /// token wanted
        to: TokenId,
    },
    /// The router failed on a swap leg of the zap.
    Route(RouteError),
    /// The body names no LP token: a plain swap, for the swap quote, not a zap.
    NotAZap,
    /// A zap option beyond its documented range (see [`crate::zap::ZapConfig`] and
    /// [`crate::zap::ZapOptions`]).
    BadOption {
        /// the option
        field: &'static str,
        /// the largest value accepted
        max: u64,
    },
    /// The pool cannot take amounts this large: its balances, or the zap's arithmetic on
    /// them, overflow (for a swap the router answers `InsufficientLiquidity`, 4001, the same
    /// class). The pool's id.
    InsufficientLiquidity {
        /// the pool's id (as in the snapshot)
        pool: alloc::string::String,
    },
    /// An LP operation on a pool whose `total_supply` is 0 while it holds reserves: its LP
    /// has no price, so nothing can be minted into it or burned (a missing `total_supply` is
    /// [`RouteError::NoSupply`]). The pool's id.
    ZeroSupply {
        /// the pool's id (as in the snapshot)
        pool: alloc::string::String,
    },
}

/// What a zap does not support ([`ZapError::Unsupported`]), with the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ZapUnsupported {
    /// The single-pool optimiser needs a two-coin x·y pool (constant-product or solidly).
    NotTwoCoinXy,
    /// A two-coin operation given another number of coins or amounts.
    NotTwoCoins {
        /// how many were given
        given: usize,
    },
    /// The operation needs a Curve stable-swap pool.
    NotStableSwap,
    /// Whirlpool positions are not fungible LP tokens.
    WhirlpoolPosition,
    /// Concentrated-liquidity positions are not fungible LP tokens.
    ConcentratedLiquidity,
    /// A pool id the plan names that is outside the graph.
    PoolOutOfRange {
        /// the pool
        pool: PoolId,
    },
    /// A coin index of the pool's optimiser outside the pool's coins.
    CoinIndex {
        /// the pool
        pool: PoolId,
        /// the index
        index: usize,
    },
    /// A route leg's swap gives another amount when replayed on the zap's pool states.
    LegNotExact {
        /// the pool of the swap
        pool: PoolId,
        /// the leg's amount out
        expected: U256,
        /// the replayed amount out
        got: U256,
    },
    /// A route leg with a step other than a swap.
    LegNonSwapStep,
    /// The rebalancing swap gives another amount when replayed.
    RebalanceNotExact {
        /// the target pool
        pool: PoolId,
        /// the optimiser's amount out
        expected: U256,
        /// the replayed amount out
        got: U256,
    },
    /// The target pool's coins have no value in the plan's prices.
    TargetWithoutValue {
        /// the target pool
        pool: PoolId,
    },
    /// An LP token as a zap-out output (zap into it instead).
    LpAsZapOutOutput {
        /// the LP token
        token: TokenId,
    },
    /// An LP token among several outputs (a zap-in has one output, the LP, proportion 1).
    LpAmongSeveralOutputs,
}

impl fmt::Display for ZapUnsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotTwoCoinXy => f.write_str("not a two-coin x·y pool"),
            Self::NotTwoCoins { given } => write!(f, "two coins needed, {given} given"),
            Self::NotStableSwap => f.write_str("not a stable-swap pool"),
            Self::WhirlpoolPosition => f.write_str("Whirlpool positions are not fungible LP"),
            Self::ConcentratedLiquidity => {
                f.write_str("zaps into concentrated-liquidity positions (they are not fungible LP tokens)")
            }
            Self::PoolOutOfRange { pool } => write!(f, "pool id {} out of range", pool.0),
            Self::CoinIndex { pool, index } => {
                write!(f, "coin index {index} out of range for pool id {}", pool.0)
            }
            Self::LegNotExact {
                pool,
                expected,
                got,
            } => write!(
                f,
                "route leg does not replay exactly: pool id {} gives {got}, the leg {expected}",
                pool.0
            ),
            Self::LegNonSwapStep => f.write_str("route leg with a non-swap step"),
            Self::RebalanceNotExact {
                pool,
                expected,
                got,
            } => write!(
                f,
                "rebalancing swap does not replay exactly: pool id {} gives {got}, the optimiser {expected}",
                pool.0
            ),
            Self::TargetWithoutValue { pool } => {
                write!(f, "target pool id {} has no value", pool.0)
            }
            Self::LpAsZapOutOutput { token } => write!(
                f,
                "an LP token (token id {}) as a zap-out output (use zap_in)",
                token.0
            ),
            Self::LpAmongSeveralOutputs => f.write_str(
                "an LP token among several outputs (a zap-in has one output, the LP, proportion 1)",
            ),
        }
    }
}

impl From<RouteError> for ZapError {
    fn from(e: RouteError) -> Self {
        Self::Route(e)
    }
}

impl From<PoolError> for ZapError {
    fn from(e: PoolError) -> Self {
        Self::Pool(e)
    }
}

impl From<MathError> for ZapError {
    fn from(e: MathError) -> Self {
        Self::Math(e)
    }
}

impl fmt::Display for ZapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AmountCount { expected, got } => {
                write!(
                    f,
                    "zap needs {expected} amounts, one per pool coin, got {got}"
                )
            }
            Self::EmptyInput => f.write_str("zap input is empty (all amounts zero)"),
            Self::NothingToMint => f.write_str("no zap plan mints any LP for this input"),
            Self::Unsupported(what) => write!(f, "zap not supported: {what}"),
            Self::UnknownToken(t) => write!(f, "unknown token id {}", t.0),
            Self::NotAnLp(t) => write!(f, "token id {} is not an LP token", t.0),
            Self::Proportions => f.write_str("output proportions must be positive and sum to 1"),
            Self::Pool(e) => write!(f, "zap pool step: {e}"),
            Self::Math(e) => write!(f, "zap math: {e}"),
            Self::NoRoute { from, to } => {
                write!(f, "no route from token {} to token {}", from.0, to.0)
            }
            // a pool without a supply is the zap's own target or LP input, not a route leg
            Self::Route(e @ RouteError::NoSupply(_)) => write!(f, "zap: {e}"),
            Self::Route(e) => write!(f, "zap route leg: {e}"),
            Self::NotAZap => f.write_str(
                "no LP token among the inputs or outputs: a plain swap, quote it as a swap",
            ),
            Self::BadOption { field, max } => {
                write!(f, "zap option {field} is above its largest value {max}")
            }
            Self::InsufficientLiquidity { pool } => write!(
                f,
                "insufficient liquidity: pool {pool} cannot take this amount (its balances overflow on it)"
            ),
            Self::ZeroSupply { pool } => write!(
                f,
                "pool {pool}: the snapshot's total_supply is 0 beside non-zero reserves, so its LP has no price and no LP can be minted or burned"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ZapError {}

impl ZapError {
    /// The stable code (5000-5999; table in `docs/error-codes.md`).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::NothingToMint => 5000,
            Self::Unsupported(_) => 5001,
            Self::NotAnLp(_) => 5002,
            Self::AmountCount { .. } => 5003,
            Self::EmptyInput => 5004,
            Self::UnknownToken(_) => 5005,
            Self::Proportions => 5006,
            Self::NoRoute { .. } => 5007,
            Self::Pool(_) => 5008,
            Self::Math(_) => 5009,
            Self::Route(_) => 5010,
            Self::NotAZap => 5011,
            Self::BadOption { .. } => 5012,
            Self::InsufficientLiquidity { .. } => 5013,
            Self::ZeroSupply { .. } => 5014,
        }
    }

    /// The class (see [`ErrorClass`]); a wrapped pool, math or route error keeps the class of
    /// its cause (the rule at [`super::Error::is_retryable`]).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::NothingToMint
            | Self::NoRoute { .. }
            | Self::InsufficientLiquidity { .. }
            | Self::ZeroSupply { .. } => ErrorClass::NoRoute,
            Self::Pool(e) => e.class(),
            Self::Math(e) => e.class(),
            Self::Route(e) => e.class(),
            Self::Unsupported(_)
            | Self::NotAnLp(_)
            | Self::AmountCount { .. }
            | Self::EmptyInput
            | Self::UnknownToken(_)
            | Self::Proportions
            | Self::NotAZap
            | Self::BadOption { .. } => ErrorClass::Validation,
        }
    }
}
