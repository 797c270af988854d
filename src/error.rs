//! Errors: one enum per domain, with data, and the top [`Error`] with a stable numeric code.
//!
//! Domain enums are `#[non_exhaustive]`: new failure modes may be added without a breaking change.

use core::fmt;

/// A failure of checked integer arithmetic, exactly where the EVM would revert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MathError {
    /// A result at or above 2^256 (Solidity 0.8 `Panic(0x11)`, Vyper overflow check).
    Overflow,
    /// A result below zero.
    Underflow,
    /// A division (or modulo) by zero (`Panic(0x12)`).
    DivisionByZero,
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Overflow => "arithmetic overflow",
            Self::Underflow => "arithmetic underflow",
            Self::DivisionByZero => "division by zero",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MathError {}

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
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PoolError {}

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
    /// The pool family or variant has no zap support for this operation.
    Unsupported(&'static str),
    /// A token that is not in the graph, or not a coin of the pool where one is needed.
    UnknownToken(u32),
    /// A token given as an LP input that is not the LP token of any pool.
    NotAnLp(u32),
    /// Output proportions that are empty, zero or do not sum to one.
    Proportions,
    /// A pool operation reverted where the plan needs it.
    Pool(PoolError),
    /// Integer arithmetic overflowed.
    Math(MathError),
    /// No route exists between two tokens the zap must connect.
    NoRoute {
        /// token sold
        from: u32,
        /// token wanted
        to: u32,
    },
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
                write!(f, "zap needs {expected} amounts, one per pool coin, got {got}")
            }
            Self::EmptyInput => f.write_str("zap input is empty (all amounts zero)"),
            Self::NothingToMint => f.write_str("no zap plan mints any LP for this input"),
            Self::Unsupported(what) => write!(f, "zap not supported: {what}"),
            Self::UnknownToken(t) => write!(f, "unknown token id {t}"),
            Self::NotAnLp(t) => write!(f, "token id {t} is not an LP token"),
            Self::Proportions => f.write_str("output proportions must be positive and sum to 1"),
            Self::Pool(e) => write!(f, "zap pool step: {e}"),
            Self::Math(e) => write!(f, "zap math: {e}"),
            Self::NoRoute { from, to } => write!(f, "no route from token {from} to token {to}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ZapError {}

/// The top error of the crate: every domain error, with a stable numeric [`Error::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Integer arithmetic.
    Math(MathError),
    /// A pool operation.
    Pool(PoolError),
    /// A zap.
    Zap(ZapError),
}

impl Error {
    /// The stable numeric code of this error (documented in the README).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::Math(_) => 1000,
            Self::Pool(_) => 2000,
            Self::Zap(_) => 4000,
        }
    }
}

impl From<MathError> for Error {
    fn from(e: MathError) -> Self {
        Self::Math(e)
    }
}

impl From<PoolError> for Error {
    fn from(e: PoolError) -> Self {
        Self::Pool(e)
    }
}

impl From<ZapError> for Error {
    fn from(e: ZapError) -> Self {
        Self::Zap(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => e.fmt(f),
            Self::Pool(e) => e.fmt(f),
            Self::Zap(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
