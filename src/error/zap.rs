//! Zap failures (codes 5000-5999).

use super::{ErrorClass, MathError, PoolError, RouteError};
use core::fmt;

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
            Self::UnknownToken(t) => write!(f, "unknown token id {t}"),
            Self::NotAnLp(t) => write!(f, "token id {t} is not an LP token"),
            Self::Proportions => f.write_str("output proportions must be positive and sum to 1"),
            Self::Pool(e) => write!(f, "zap pool step: {e}"),
            Self::Math(e) => write!(f, "zap math: {e}"),
            Self::NoRoute { from, to } => write!(f, "no route from token {from} to token {to}"),
            Self::Route(e) => write!(f, "zap route leg: {e}"),
            Self::NotAZap => f.write_str(
                "no LP token among the inputs or outputs: a plain swap, quote it as a swap",
            ),
            Self::BadOption { field, max } => {
                write!(f, "zap option {field} is above its largest value {max}")
            }
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
        }
    }

    /// The class (see [`ErrorClass`]).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::NothingToMint | Self::NoRoute { .. } | Self::Pool(_) | Self::Math(_) => {
                ErrorClass::NoRoute
            }
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
