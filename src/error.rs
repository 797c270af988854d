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

/// A snapshot, request or plan the router cannot work with, or a search that found nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteError {
    /// A pool names a token that is not in the snapshot's token list.
    UnknownToken {
        /// the pool's id string (empty when the token comes from a request)
        pool: alloc::string::String,
        /// the address as given
        address: alloc::string::String,
    },
    /// Two tokens (or two pools) share an address (or id).
    Duplicate(alloc::string::String),
    /// A numeric field is missing, malformed or out of range.
    BadNumber {
        /// the pool's id string
        pool: alloc::string::String,
        /// the field
        field: &'static str,
    },
    /// A pool whose shape is wrong (token count, lists of different lengths, missing fields).
    BadPool {
        /// the pool's id string
        pool: alloc::string::String,
        /// what is wrong
        why: &'static str,
    },
    /// An address that is not `0x` + 40 hex digits (EVM chains) or is empty.
    BadAddress(alloc::string::String),
    /// A token id outside the graph.
    TokenOutOfRange(u32),
    /// A pool id outside the graph.
    PoolOutOfRange(u32),
    /// The request itself is malformed: no inputs, no outputs, zero amounts, proportions that
    /// are not positive or do not sum to one, a token both input and output, ...
    BadRequest(&'static str),
    /// No path of at most the allowed number of hops joins an input to an output.
    NoRoute,
    /// The exact simulation of the recovered plan failed in every form tried.
    Simulation(PoolError),
    /// [`crate::plan::Plan::verify`] found a step or a total that does not hold.
    InvalidPlan {
        /// index of the failing step (`None` for totals)
        step: Option<usize>,
        /// what is wrong
        why: &'static str,
    },
    /// Integer arithmetic failed where amounts are summed.
    Math(MathError),
}

impl From<MathError> for RouteError {
    fn from(e: MathError) -> Self {
        Self::Math(e)
    }
}

impl From<PoolError> for RouteError {
    fn from(e: PoolError) -> Self {
        Self::Simulation(e)
    }
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownToken { pool, address } => {
                write!(f, "unknown token {address} (pool {pool:?})")
            }
            Self::Duplicate(what) => write!(f, "duplicate {what}"),
            Self::BadNumber { pool, field } => write!(f, "pool {pool}: bad number in {field}"),
            Self::BadPool { pool, why } => write!(f, "pool {pool}: {why}"),
            Self::BadAddress(a) => write!(f, "bad address {a:?}"),
            Self::TokenOutOfRange(t) => write!(f, "token id {t} out of range"),
            Self::PoolOutOfRange(p) => write!(f, "pool id {p} out of range"),
            Self::BadRequest(why) => write!(f, "bad route request: {why}"),
            Self::NoRoute => f.write_str("no route joins the inputs to the outputs"),
            Self::Simulation(e) => write!(f, "exact simulation failed: {e}"),
            Self::InvalidPlan { step: Some(i), why } => write!(f, "invalid plan at step {i}: {why}"),
            Self::InvalidPlan { step: None, why } => write!(f, "invalid plan: {why}"),
            Self::Math(e) => write!(f, "route arithmetic: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RouteError {}

/// The top error of the crate: every domain error, with a stable numeric [`Error::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Integer arithmetic.
    Math(MathError),
    /// A pool operation.
    Pool(PoolError),
    /// Snapshot, graph, routing or plan verification.
    Route(RouteError),
}

impl Error {
    /// The stable numeric code of this error (documented in the README).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::Math(_) => 1000,
            Self::Pool(_) => 2000,
            Self::Route(_) => 3000,
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

impl From<RouteError> for Error {
    fn from(e: RouteError) -> Self {
        Self::Route(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => e.fmt(f),
            Self::Pool(e) => e.fmt(f),
            Self::Route(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
