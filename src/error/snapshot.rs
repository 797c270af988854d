//! Snapshot loading failures (codes 4030-4039, and 4002 kept from routing): everything
//! `PoolGraph::from_snapshot` refuses. They are the server's data, so they are retryable once
//! the snapshot is refreshed (4002 keeps the class its code always had).

use super::{ErrorClass, PoolError};
use alloc::string::String;
use core::fmt;

/// A snapshot that cannot be loaded into a pool graph. Each variant keeps the code it had
/// when it was a routing error.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A pool names a token that is not in the snapshot's token list.
    UnknownToken {
        /// the pool's id string
        pool: String,
        /// the address as given
        address: String,
    },
    /// Two tokens (or two pools) share an address (or id).
    Duplicate(String),
    /// A numeric field is missing, malformed or out of range.
    BadNumber {
        /// the pool's id string
        pool: String,
        /// the field
        field: &'static str,
    },
    /// A pool whose shape is wrong (token count, lists of different lengths, missing fields).
    BadPool {
        /// the pool's id string
        pool: String,
        /// what is wrong
        why: &'static str,
    },
    /// An address that is not `0x` + 40 hex digits (EVM chains) or base58 of 32 bytes
    /// (chain 101).
    BadAddress(String),
    /// A pool whose state the exact math refuses (a reserve above the contract's range, a
    /// Curve invariant that does not converge or overflows). `PoolGraph::from_snapshot`
    /// quarantines such a pool; the strict loader refuses the snapshot with this error.
    PoolState {
        /// the pool's id string
        pool: String,
        /// what the exact math refused
        error: PoolError,
    },
    /// A token of the snapshot's token table with a field out of range.
    BadToken {
        /// the token's address as given
        token: String,
        /// the field
        field: &'static str,
    },
    /// A snapshot that contradicts itself: a pool's field disagrees with the token table or
    /// with another pool (decimals, rates, LP token).
    Inconsistent {
        /// the pool's id string
        pool: String,
        /// the token concerned, as given
        token: String,
        /// the pool's field
        field: &'static str,
        /// what disagrees
        why: &'static str,
    },
    /// More tokens or pools than dense 32-bit ids can number.
    TooManyEntries {
        /// the number of tokens or pools reached
        count: usize,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownToken { pool, address } => {
                write!(f, "unknown token {address} (pool {pool:?})")
            }
            Self::Duplicate(what) => write!(f, "duplicate {what}"),
            Self::BadNumber { pool, field } => write!(f, "pool {pool}: bad number in {field}"),
            Self::BadPool { pool, why } => write!(f, "pool {pool}: {why}"),
            Self::BadAddress(a) => write!(f, "bad address {a:?}"),
            Self::BadToken { token, field } => write!(f, "token {token}: bad {field}"),
            Self::PoolState { pool, error } => {
                write!(f, "pool {pool}: state refused by the exact math: {error}")
            }
            Self::Inconsistent {
                pool,
                token,
                field,
                why,
            } => write!(f, "pool {pool}, token {token}, field {field}: {why}"),
            Self::TooManyEntries { count } => write!(
                f,
                "snapshot too large: {count} tokens or pools, more than 32-bit ids can number"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SnapshotError {}

impl SnapshotError {
    /// The stable code (4030-4039; table in `docs/error-codes.md`).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::UnknownToken { .. } => 4002,
            Self::Duplicate(_) => 4030,
            Self::BadNumber { .. } => 4031,
            Self::BadPool { .. } => 4032,
            Self::BadAddress(_) => 4033,
            Self::BadToken { .. } => 4034,
            Self::Inconsistent { .. } => 4035,
            Self::PoolState { .. } => 4036,
            Self::TooManyEntries { .. } => 4038,
        }
    }

    /// [`ErrorClass::Retryable`]: the server's data is at fault (the rule at
    /// [`super::Error::is_retryable`]); except [`SnapshotError::UnknownToken`], which kept
    /// the code 4002 it had as a routing error and so the class of that code (validation).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::UnknownToken { .. } => ErrorClass::Validation,
            _ => ErrorClass::Retryable,
        }
    }

    /// The snapshot's id string of the pool at fault, when one is.
    #[must_use]
    pub fn pool(&self) -> Option<&str> {
        match self {
            Self::UnknownToken { pool, .. }
            | Self::BadNumber { pool, .. }
            | Self::BadPool { pool, .. }
            | Self::PoolState { pool, .. }
            | Self::Inconsistent { pool, .. } => Some(pool),
            Self::Duplicate(_)
            | Self::BadAddress(_)
            | Self::BadToken { .. }
            | Self::TooManyEntries { .. } => None,
        }
    }
}
