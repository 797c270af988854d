//! Errors: one enum per domain, with data, and the top [`Error`] with a stable numeric code.
//!
//! Domain enums are `#[non_exhaustive]`: new failure modes may be added without a breaking change.
//! One file per domain: [`MathError`] (defined in `crate::math`, re-exported here), [`PoolError`] (`pool`), [`RequestError`]
//! (`request`), [`RouteError`] (`route`), [`ZapError`] (`zap`); this file holds the top
//! [`Error`], its [`ErrorClass`] and the spec's [`ErrorBody`]. Nothing here imports a module
//! above the units layer (`crate::units`, `crate::chain`) but `crate::math`.

mod pool;
mod request;
mod route;
mod zap;

pub use crate::math::MathError;
pub use pool::PoolError;
pub use request::{AddressProblem, AmountProblem, DecimalProblem, Field, RequestError};
pub use route::{PlanField, RouteError, RouteFilter};
pub use zap::ZapError;

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
    /// Routing.
    Route(RouteError),
    /// Zaps.
    Zap(ZapError),
}

impl Error {
    /// The stable numeric code of this error (the `errorCode` of the error body). Codes never
    /// change meaning; new ones are added in their domain's range.
    ///
    /// | code | class | HTTP | meaning |
    /// |---|---|---|---|
    /// | 1000 | retryable | 503 | arithmetic overflow |
    /// | 1001 | retryable | 503 | arithmetic underflow |
    /// | 1002 | retryable | 503 | division by zero |
    /// | 2000 | retryable | 503 | pool math failed (other pool errors) |
    /// | 2001 | no-route | 422 | pool: insufficient liquidity, or the wanted output cannot be reached |
    /// | 2002 | no-route | 422 | pool: input or output amount too small |
    /// | 3000 | validation | 400 | malformed body (JSON syntax, missing, unknown or mistyped field) |
    /// | 3001 | validation | 400 | unsupported `chainId` |
    /// | 3002 | validation | 400 | `chainId` of the other deployment |
    /// | 3003 | validation | 400 | `chainId` other than the snapshot's chain |
    /// | 3010 | validation | 400 | invalid address format (token address or `userAddr`) |
    /// | 3011 | validation | 400 | mixed-case EVM address with a wrong EIP-55 checksum |
    /// | 3012 | validation | 400 | `userAddr` not in EIP-55 checksum form |
    /// | 3013 | validation | 400 | EVM 0x address on chain 101 |
    /// | 3020 | validation | 400 | invalid `amount` (empty, not an integer, leading zero, 0, ≥ 2^256) |
    /// | 3030 | validation | 400 | invalid `proportion` (not an exact decimal in (0, 1]) |
    /// | 3031 | validation | 400 | proportions do not sum exactly to 1 |
    /// | 3040 | validation | 400 | invalid `slippageLimitPercent` (not an exact decimal in [0, 50]) |
    /// | 3050 | validation | 400 | `inputTokens` empty |
    /// | 3051 | validation | 400 | `outputTokens` empty |
    /// | 3052 | validation | 400 | too many input tokens (more than 16) |
    /// | 3053 | validation | 400 | too many output tokens (more than 16) |
    /// | 3054 | validation | 400 | the same input token twice |
    /// | 3055 | validation | 400 | the same output token twice |
    /// | 3056 | validation | 400 | a token both input and output |
    /// | 3060 | validation | 400 | unknown liquidity source id in `sourceWhitelist` |
    /// | 3061 | validation | 400 | empty `sourceWhitelist` |
    /// | 3062 | validation | 400 | the source filters exclude every source |
    /// | 3070 | validation | 400 | invalid `pathId` |
    /// | 3071 | validation | 400 | stale quote (60 s or older): quote again |
    /// | 3072 | validation | 400 | assemble `userAddr` differs from the quote's |
    /// | 3073 | validation | 400 | quote made without `userAddr` cannot be assembled |
    /// | 3080 | validation | 400 | token-list query parameter (`order_by`, `order_dir`, `limit`, `offset`) out of its values |
    /// | 4000 | no-route | 422 | no route joins the inputs to the outputs |
    /// | 4001 | no-route | 422 | insufficient liquidity for the amount |
    /// | 4002 | validation | 400 | unknown token (check the token list) |
    /// | 4003 | no-route | 422 | no route within the hop bound (the hops the shortest path needs named) |
    /// | 4004 | no-route | 422 | routes only through filtered-out sources (the filter named) |
    /// | 4005 | retryable | 503 | route search budget exceeded |
    /// | 4006 | no-route | 422 | exact-out: the input amount cannot deliver the wanted output |
    /// | 4007 | no-route | 422 | amount too small: every path gives 0 of the output |
    /// | 4008 | validation | 400 | a whitelisted source id no pool of the snapshot has (the nearest known id suggested) |
    /// | 4010 | validation | 400 | route request malformed |
    /// | 4011 | validation | 400 | token id outside the graph |
    /// | 4012 | validation | 400 | pool id outside the graph |
    /// | 4013 | validation | 400 | plan verification failed |
    /// | 4014 | validation | 400 | plan does not answer its request, or cannot be read back (field and step named) |
    /// | 4020 | no-route | 422 | exact simulation of the route failed (the pool named) |
    /// | 4021 | no-route | 422 | route arithmetic overflow (amount too large to carry) |
    /// | 4022 | no-route | 422 | LP operation on a pool whose snapshot gives no `total_supply` |
    /// | 4030 | retryable | 503 | snapshot: duplicate token or pool |
    /// | 4031 | retryable | 503 | snapshot: bad number |
    /// | 4032 | retryable | 503 | snapshot: bad pool |
    /// | 4033 | retryable | 503 | snapshot: bad address |
    /// | 4034 | retryable | 503 | snapshot: bad token (token table field out of range) |
    /// | 4035 | retryable | 503 | snapshot: inconsistent (a pool disagrees with the token table or another pool) |
    /// | 4036 | retryable | 503 | snapshot: a pool state the exact math refuses (strict loading) |
    /// | 5000 | no-route | 422 | zap: nothing to mint |
    /// | 5001 | validation | 400 | zap: unsupported pool or operation |
    /// | 5002 | validation | 400 | zap: not an LP token |
    /// | 5003 | validation | 400 | zap: amounts do not match the pool coins |
    /// | 5004 | validation | 400 | zap: empty input |
    /// | 5005 | validation | 400 | zap: unknown token |
    /// | 5006 | validation | 400 | zap: proportions |
    /// | 5007 | no-route | 422 | zap: no route between two tokens the zap connects |
    /// | 5008 | no-route | 422 | zap: a pool step reverts |
    /// | 5009 | no-route | 422 | zap: arithmetic overflow (amount too large) |
    /// | 5010 | (the route error's class) | (as the route error) | zap: the router failed on a swap leg |
    /// | 5011 | validation | 400 | zap: no LP token in the body (a plain swap: use the swap quote) |
    /// | 5012 | validation | 400 | zap: an option beyond its documented range (option and largest value named) |
    ///
    /// Ranges: 1000-1999 math, 2000-2999 pools, 3000-3999 requests, 4000-4999 routing,
    /// 5000-5999 zaps. The same table is in `docs/error-codes.md`.
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::Math(MathError::Underflow) => 1001,
            Self::Math(MathError::DivisionByZero) => 1002,
            Self::Math(_) => 1000,
            Self::Pool(e) => match e {
                PoolError::InsufficientLiquidity | PoolError::UnreachableOutput => 2001,
                PoolError::InsufficientInputAmount | PoolError::InsufficientOutputAmount => 2002,
                _ => 2000,
            },
            Self::Request(e) => e.code(),
            Self::Route(e) => e.code(),
            Self::Zap(e) => e.code(),
        }
    }

    /// The class: what the client should do and which HTTP status to send.
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::Math(_) => ErrorClass::Retryable,
            Self::Pool(e) => match e {
                PoolError::InsufficientLiquidity
                | PoolError::UnreachableOutput
                | PoolError::InsufficientInputAmount
                | PoolError::InsufficientOutputAmount => ErrorClass::NoRoute,
                _ => ErrorClass::Retryable,
            },
            Self::Request(_) => ErrorClass::Validation,
            Self::Route(e) => e.class(),
            Self::Zap(e) => e.class(),
        }
    }

    /// Whether the same request may succeed when retried (class [`ErrorClass::Retryable`]).
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => e.fmt(f),
            Self::Pool(e) => e.fmt(f),
            Self::Request(e) => e.fmt(f),
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
