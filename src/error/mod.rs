//! Errors: one enum per domain, with data, and the top [`Error`] with a stable numeric code.
//!
//! Domain enums are `#[non_exhaustive]`: new failure modes may be added without a breaking change.
//! One file per domain: [`MathError`] (defined in `crate::math`, re-exported here), [`PoolError`] (`pool`), [`RequestError`]
//! (`request`), [`SnapshotError`] (`snapshot`), [`RouteError`] (`route`), [`ZapError`] (`zap`);
//! this file holds the top
//! [`Error`], its [`ErrorClass`] and the spec's [`ErrorBody`]. Nothing here imports a module
//! above the units layer (`crate::units`, `crate::chain`) but `crate::math`.
//!
//! Reasons are typed, never free text: a variant that says why carries an enum naming the
//! check, with the values that help (the tick, the bounds, the value given). A pool's revert
//! is a [`PoolRevert`] (with the contract's own code, such as Uniswap V3's `SPL`, in
//! [`PoolRevert::contract_code`]), an unsupported operation a [`PoolUnsupported`], an argument
//! out of range a [`PoolArgument`], a refused pool state a [`PoolStateProblem`] (`revert`,
//! `pool`); a plan check a [`PlanProblem`] (`plan`); a snapshot pool's shape a
//! [`BadPoolProblem`] and a contradiction a [`Disagreement`] (`snapshot`); a listing query a
//! [`QueryProblem`] (`request`). Names of JSON or snapshot fields stay the wire's strings.
//!
#![doc = include_str!("../../docs/error-codes.md")]

mod plan;
mod pool;
mod request;
mod revert;
mod route;
mod snapshot;
#[cfg(test)]
mod tests;
mod zap;

pub use crate::math::MathError;
pub use plan::{PlanProblem, StepOp};
pub use pool::{PoolError, PoolStateProblem};
pub use request::{
    AddressProblem, AmountProblem, DecimalProblem, Field, QueryProblem, RequestError,
};
pub use revert::{PoolArgument, PoolRevert, PoolUnsupported};
pub use route::{BadRouteRequest, PlanField, RouteError, RouteFilter};
pub use snapshot::{BadPoolProblem, Disagreement, SnapshotError};
pub use zap::{ZapError, ZapUnsupported};

use alloc::string::String;
use core::fmt;

// ---------------------------------------------------------------------------------------------
// The top error
// ---------------------------------------------------------------------------------------------

/// How a transport treats an error: what the client should do, and the HTTP status to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub enum ErrorClass {
    /// The request must change; retrying it unchanged fails the same way. HTTP 400.
    Validation,
    /// The request is valid but no route serves it (no route, insufficient liquidity). The
    /// client should change it: see [`ErrorClass::suggestions`]. HTTP 422.
    NoRoute,
    /// A server-side failure; the same request can be retried with exponential backoff and
    /// jitter. HTTP 503.
    Retryable,
}

impl MathError {
    /// The stable code: 1000 overflow, 1001 underflow, 1002 division by zero.
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::Overflow => 1000,
            Self::Underflow => 1001,
            Self::DivisionByZero => 1002,
        }
    }

    /// Always [`ErrorClass::Retryable`] (the rule at [`Error::is_retryable`]).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        ErrorClass::Retryable
    }
}

impl PoolError {
    /// The stable code: 2001 for a want of liquidity (or an unreachable exact-out), 2002 for
    /// a dust amount, 2000 for every other pool failure.
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::InsufficientLiquidity | Self::UnreachableOutput => 2001,
            Self::InsufficientInputAmount | Self::InsufficientOutputAmount => 2002,
            _ => 2000,
        }
    }

    /// [`ErrorClass::NoRoute`] for codes 2001 and 2002 (the amount is the cause),
    /// [`ErrorClass::Retryable`] for the others (the rule at [`Error::is_retryable`]).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self.code() {
            2001 | 2002 => ErrorClass::NoRoute,
            _ => ErrorClass::Retryable,
        }
    }
}

impl ErrorClass {
    /// The suggested HTTP status: 400, 422 or 503.
    #[must_use]
    pub fn http_status(self) -> u16 {
        match self {
            Self::Validation => 400,
            Self::NoRoute => 422,
            Self::Retryable => 503,
        }
    }

    /// What the client can try (the spec's remedies for "no route"); empty for the others.
    #[must_use]
    pub fn suggestions(self) -> &'static [&'static str] {
        match self {
            Self::NoRoute => &[
                "try a smaller amount",
                "try another pair",
                "use supported tokens only",
                "loosen the source filters (sourceWhitelist / sourceBlacklist)",
            ],
            Self::Validation | Self::Retryable => &[],
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Validation => "validation",
            Self::NoRoute => "no-route",
            Self::Retryable => "retryable",
        })
    }
}

/// The top error of the crate: every domain error, with a stable numeric [`Error::code`], an
/// [`ErrorClass`] and a human detail message (`Display`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Integer arithmetic.
    Math(MathError),
    /// A pool operation.
    Pool(PoolError),
    /// A request body that must change.
    Request(RequestError),
    /// Loading a snapshot into a pool graph.
    Snapshot(SnapshotError),
    /// Routing.
    Route(RouteError),
    /// Zaps.
    Zap(ZapError),
}

impl Error {
    /// The stable numeric code of this error (the `errorCode` of the error body). Codes never
    /// change meaning; new ones are added in their domain's range.
    ///
    /// The table of every code, its class and status is `docs/error-codes.md`, shown in the
    /// [module documentation](crate::error) (it is written once; a test checks it against every
    /// variant). Ranges: 1000-1999 math, 2000-2999 pools, 3000-3999 requests, 4000-4029
    /// routing, 4030-4039 snapshot loading, 5000-5999 zaps.
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::Math(e) => e.code(),
            Self::Pool(e) => e.code(),
            Self::Request(e) => e.code(),
            Self::Snapshot(e) => e.code(),
            Self::Route(e) => e.code(),
            Self::Zap(e) => e.code(),
        }
    }

    /// The class: what the client should do and which HTTP status to send.
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::Math(e) => e.class(),
            Self::Pool(e) => e.class(),
            Self::Request(_) => ErrorClass::Validation,
            Self::Snapshot(e) => e.class(),
            Self::Route(e) => e.class(),
            Self::Zap(e) => e.class(),
        }
    }

    /// Whether the same request may succeed when retried (class [`ErrorClass::Retryable`]).
    ///
    /// The one rule, applied by every `class` of the crate:
    /// - **Validation** when the request itself must change (a malformed body, an unknown
    ///   token, a bad option, a plan that does not answer its request).
    /// - **No route** when the request is valid but the pools cannot carry it (no path, too
    ///   little liquidity, dust, a filter or hop bound that removes every path).
    /// - **Retryable** when the server's side is at fault, so the same request may succeed
    ///   later: a snapshot defect (every [`SnapshotError`] but `UnknownToken`, which kept
    ///   code 4002 and its class), the search
    ///   budget, checked arithmetic that failed ([`MathError`]: validated amounts fit, so the
    ///   pool state is the cause), and a pool error other than a want of liquidity or a dust
    ///   amount (the pool's state is refused or reverts on its own).
    /// - **A wrapped error keeps the class of its cause**: a [`MathError`] or [`PoolError`]
    ///   inside [`RouteError::Math`], [`RouteError::Simulation`], [`ZapError::Math`],
    ///   [`ZapError::Pool`], and a [`RouteError`] inside [`ZapError::Route`], has the class
    ///   it has alone.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        self.class() == ErrorClass::Retryable
    }

    /// The suggested HTTP status (of the class).
    #[must_use]
    pub fn http_status(&self) -> u16 {
        self.class().http_status()
    }

    /// The remedy specific to this error, when it has one (printed before the class's
    /// general remedies): see [`RouteError::remedy`].
    #[must_use]
    pub fn remedy(&self) -> Option<&'static str> {
        match self {
            Self::Route(e) => e.remedy(),
            Self::Zap(ZapError::InsufficientLiquidity { .. }) => {
                Some("lower the amount or split the trade")
            }
            _ => None,
        }
    }

    /// The human-readable message for the error body's `detail` (the `Display` text).
    #[must_use]
    pub fn detail(&self) -> String {
        alloc::string::ToString::to_string(self)
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

impl From<RequestError> for Error {
    fn from(e: RequestError) -> Self {
        Self::Request(e)
    }
}

impl From<SnapshotError> for Error {
    fn from(e: SnapshotError) -> Self {
        Self::Snapshot(e)
    }
}

impl From<RouteError> for Error {
    fn from(e: RouteError) -> Self {
        Self::Route(e)
    }
}

impl From<ZapError> for Error {
    fn from(e: ZapError) -> Self {
        Self::Zap(e)
    }
}

/// `; did you mean "…"?` after an unknown source id, when a known id is close.
fn did_you_mean(f: &mut fmt::Formatter<'_>, suggestion: Option<&str>) -> fmt::Result {
    match suggestion {
        Some(s) => write!(f, "; did you mean {s:?}?"),
        None => Ok(()),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => e.fmt(f),
            Self::Pool(e) => e.fmt(f),
            Self::Request(e) => e.fmt(f),
            Self::Snapshot(e) => e.fmt(f),
            Self::Route(e) => e.fmt(f),
            Self::Zap(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// The spec's error body: `{"detail": ..., "errorCode": ..., "traceId": ...}`. The trace id is
/// the transport's; the rest comes from the [`Error`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct ErrorBody {
    /// Human-readable message.
    pub detail: String,
    /// [`Error::code`].
    pub error_code: u32,
    /// The transport's trace id.
    pub trace_id: String,
}

impl ErrorBody {
    /// The body for `error`, with the transport's `trace_id`.
    #[must_use]
    pub fn new(error: &Error, trace_id: impl Into<String>) -> Self {
        Self {
            detail: error.detail(),
            error_code: error.code(),
            trace_id: trace_id.into(),
        }
    }
}
