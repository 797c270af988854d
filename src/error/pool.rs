//! Pool operation failures (codes 2000-2999).

use super::MathError;
use core::fmt;

/// A pool operation that the contract would revert, or that cannot be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolError {
    /// Checked arithmetic failed (the contract reverts the same way).
    Math(MathError),
    /// A coin index out of range for the pool.
    TokenIndex {
        /// the index given
        index: usize,
        /// how many coins the pool has
        n_coins: usize,
    },
    /// `token_in == token_out`.
    SameToken,
    /// The pool state cannot exist (wrong number of coins, fee at or above its denominator,
    /// decimals above 18, ...). The reason names the field.
    InvalidState(&'static str),
    /// An input amount of zero where the contract requires more.
    InsufficientInputAmount,
    /// An output of zero where the contract requires more (also: exact-out wanted 0).
    InsufficientOutputAmount,
    /// Empty reserves, or an output at or above the reserve.
    InsufficientLiquidity,
    /// The invariant check after a swap failed (Uniswap `K`, Solidly `K()`).
    InvariantViolated,
    /// A reserve would not fit the contract's storage (Uniswap V2 `uint112`).
    ReserveOverflow,
    /// A Newton loop did not converge within its round limit (Solidly `!y`, Curve D / y).
    NoConvergence,
    /// A mint that would create zero LP (or underflow the minimum liquidity).
    InsufficientLiquidityMinted,
    /// A burn that would return zero of some coin.
    InsufficientLiquidityBurned,
    /// Burning more LP than the total supply.
    BurnExceedsSupply,
    /// A first deposit that the contract refuses (a coin missing, or a stable pool's ratio or
    /// k minimum not met).
    InvalidFirstDeposit,
    /// The wanted output of an exact-out query cannot be reached (at or above what the pool
    /// can pay).
    UnreachableOutput,
    /// A Curve NG operation whose price-oracle refresh reverts (a coin drained to zero, or D
    /// at or above 2^128).
    OracleRevert,
    /// The operation is not defined for this pool family or variant.
    Unsupported(&'static str),
    /// A contract `require` failed; the text is the contract's own message (Uniswap V3 `SPL`,
    /// `AS`, `LS`, `TLU`, ...) or names the check when the contract gives none.
    Revert(&'static str),
    /// A concentrated-liquidity swap needs ticks beyond the tick arrays it was given, the
    /// current tick lies outside them, or the arrays are missing or not contiguous (Orca
    /// "Invalid tick array sequence", "Tick index out of bounds").
    TickArraySequence,
    /// A square-root price outside the pool family's bounds.
    SqrtPriceOutOfBounds,
    /// A price limit out of bounds or on the wrong side of the current price.
    PriceLimit,
    /// An argument out of its range (the reason names it).
    InvalidArgument(&'static str),
}

impl From<MathError> for PoolError {
    fn from(e: MathError) -> Self {
        Self::Math(e)
    }
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => write!(f, "pool math: {e}"),
            Self::TokenIndex { index, n_coins } => {
                write!(
                    f,
                    "coin index {index} out of range for a {n_coins}-coin pool"
                )
            }
            Self::SameToken => f.write_str("input and output coin are the same"),
            Self::InvalidState(why) => write!(f, "invalid pool state: {why}"),
            Self::InsufficientInputAmount => f.write_str("insufficient input amount"),
            Self::InsufficientOutputAmount => f.write_str("insufficient output amount"),
            Self::InsufficientLiquidity => f.write_str("insufficient liquidity"),
            Self::InvariantViolated => f.write_str("invariant check failed (K)"),
            Self::ReserveOverflow => f.write_str("reserve overflows the pool's storage"),
            Self::NoConvergence => f.write_str("Newton iteration did not converge"),
            Self::InsufficientLiquidityMinted => f.write_str("insufficient liquidity minted"),
            Self::InsufficientLiquidityBurned => f.write_str("insufficient liquidity burned"),
            Self::BurnExceedsSupply => f.write_str("burn exceeds total supply"),
            Self::InvalidFirstDeposit => f.write_str("first deposit refused by the pool"),
            Self::UnreachableOutput => f.write_str("wanted output cannot be reached"),
            Self::OracleRevert => f.write_str("price oracle update reverts"),
            Self::Unsupported(what) => write!(f, "unsupported operation: {what}"),
            Self::Revert(why) => write!(f, "contract reverts: {why}"),
            Self::TickArraySequence => {
                f.write_str("the swap needs ticks beyond the tick arrays given")
            }
            Self::SqrtPriceOutOfBounds => f.write_str("square-root price out of bounds"),
            Self::PriceLimit => f.write_str("price limit out of bounds or on the wrong side"),
            Self::InvalidArgument(what) => write!(f, "invalid argument: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PoolError {}
