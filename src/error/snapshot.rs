//! Snapshot loading failures (codes 4030-4039, and 4002 kept from routing): everything
//! `PoolGraph::from_snapshot` refuses. They are the server's data, so they are retryable once
//! the snapshot is refreshed (4002 keeps the class its code always had).

use super::{ErrorClass, PoolError, PoolStateProblem};
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
        why: BadPoolProblem,
    },
    /// A token-table address that is not `0x` + 40 hex digits (EVM chains) or base58 of 32
    /// bytes (chain 101). (A pool's coin, LP token or id of another shape is a
    /// [`SnapshotError::BadPool`] naming the pool and the field.)
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
        why: Disagreement,
    },
    /// A pool field its kind does not read (a solidly `fee`, a constant-product `stable`, an
    /// off-peg multiplier on a classic Curve pool), or a key of `fees` no family reads (a
    /// misspelt fee field): refused, never dropped.
    UnknownField {
        /// the pool's id string
        pool: String,
        /// the field as the snapshot names it (`fees.<key>` inside `fees`)
        field: String,
    },
    /// More tokens or pools than dense 32-bit ids can number.
    TooManyEntries {
        /// the number of tokens or pools reached
        count: usize,
    },
}

/// What is wrong with a snapshot pool's shape or fields ([`SnapshotError::BadPool`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BadPoolProblem {
    /// A coin listed twice.
    CoinTwice,
    /// Fewer than 2 or more than 8 coins.
    CoinCount,
    /// `reserves` and `tokens` of different lengths.
    ReservesLength,
    /// A constant-product, solidly or concentrated-liquidity pool without exactly 2 coins.
    NotTwoCoins,
    /// A constant-product pool without `fee`.
    CpFeeMissing,
    /// A constant-product `fee` that is not `{num, den}`.
    CpFeeNotFraction,
    /// A solidly pool without `stable`.
    SolidlyStableMissing,
    /// Solidly `decimals` without 2 entries.
    SolidlyDecimalsCount,
    /// A stable-swap `fee` that is not an integer in 1e10 units.
    StableswapFeeUnits,
    /// A Curve `variant` other than classic, 3pool or ng.
    UnknownCurveVariant,
    /// `rates` and `tokens` of different lengths.
    RatesLength,
    /// A required field missing (the field, as the snapshot names it).
    MissingField(&'static str),
    /// A chain-101 pool without `fees`.
    FeesMissing,
    /// An SPL Token Swap curve other than `constant_product`.
    SplCurve,
    /// A Saber amplification ramp without `current_ts`.
    SaberRampWithoutTs,
    /// A Saber pair of coins of different decimals.
    SaberDecimals,
    /// A Whirlpool `tick_current_index` that is not the tick of `sqrt_price`.
    TickNotAtPrice,
    /// A Whirlpool without `tick_arrays`.
    TickArraysMissing,
    /// Whirlpool `tick_arrays` that are not contiguous.
    TickArraysNotContiguous,
    /// A concentrated-liquidity state its constructor refuses otherwise than by a state check
    /// (a tick whose price the contract's `TickMath` refuses, ...): the pool's error.
    ClStateRejected(PoolError),
    /// A state check of the family's constructor (the field and its bound).
    State(PoolStateProblem),
    /// A liquidity source id that is empty or not hyphenated.
    SourceId,
    /// An id other than `"<source>:<address>"` with the pool's own `source` and an address
    /// of the snapshot's chain.
    IdShape,
    /// A coin or the `lp_token` that is not an address of the snapshot's chain (the field).
    NotAnAddress(&'static str),
}

impl fmt::Display for BadPoolProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingField(name) => return write!(f, "{name} missing"),
            Self::NotAnAddress(field) => {
                return write!(f, "{field}: not an address of the snapshot's chain")
            }
            Self::ClStateRejected(e) => {
                return write!(f, "concentrated-liquidity state rejected ({e})")
            }
            _ => {}
        }
        f.write_str(match self {
            Self::CoinTwice => "a coin appears twice",
            Self::CoinCount => "a pool needs 2 to 8 coins",
            Self::ReservesLength => "reserves and tokens differ in length",
            Self::NotTwoCoins => {
                "constant-product, solidly and concentrated-liquidity pools have 2 coins"
            }
            Self::CpFeeMissing => "constant-product pool without `fee` ({num, den})",
            Self::CpFeeNotFraction => "constant-product fee must be {num, den}",
            Self::SolidlyStableMissing => "solidly pool without `stable`",
            Self::SolidlyDecimalsCount => "solidly decimals need 2 entries",
            Self::StableswapFeeUnits => "stableswap fee must be an integer in 1e10 units",
            Self::UnknownCurveVariant => "unknown Curve variant",
            Self::RatesLength => "rates and tokens differ in length",
            Self::FeesMissing => "fees missing",
            Self::SplCurve => "SPL Token Swap: only the constant_product curve",
            Self::SaberRampWithoutTs => "Saber ramp without current_ts",
            Self::SaberDecimals => "Saber pairs coins of the same decimals",
            Self::TickNotAtPrice => "tick_current_index does not match sqrt_price",
            Self::TickArraysMissing => "tick_arrays missing",
            Self::TickArraysNotContiguous => "tick_arrays not contiguous",
            Self::MissingField(_) | Self::ClStateRejected(_) | Self::NotAnAddress(_) => "", // written above
            Self::State(problem) => problem.reason(),
            Self::SourceId => {
                "liquidity source id must be non-empty and hyphenated (no underscore, no space)"
            }
            Self::IdShape => {
                "id must be \"<source>:<address>\" with the pool's source and an address of the chain"
            }
        })
    }
}

/// How a snapshot pool contradicts the token table or another pool
/// ([`SnapshotError::Inconsistent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Disagreement {
    /// A constant-product or solidly pair whose `lp_token` is not its own address.
    PairNotItsOwnLp,
    /// An LP token that is one of the pool's coins.
    LpIsACoin,
    /// The LP token of an earlier pool.
    LpOfEarlierPool,
    /// The pool's decimals differ from the token table's.
    DecimalsDiffer,
    /// A Curve coin with more than 36 decimals.
    CurveDecimalsAbove36,
    /// A Curve rate not within a factor 10 of `10^(36 − decimals)`.
    RateOffDecimals,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::PairNotItsOwnLp => "a constant-product or solidly pair is its own LP token",
            Self::LpIsACoin => "the LP token is one of the pool's coins",
            Self::LpOfEarlierPool => "the LP token of an earlier pool",
            Self::DecimalsDiffer => "the pool's decimals differ from the token table's",
            Self::CurveDecimalsAbove36 => "a Curve coin has at most 36 decimals",
            Self::RateOffDecimals => {
                "the rate is not within a factor 10 of 10^(36 - the token's decimals)"
            }
        })
    }
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
            Self::BadAddress(a) => write!(
                f,
                "token table: bad address {a:?} (not an address of the snapshot's chain)"
            ),
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
            Self::UnknownField { pool, field } => write!(
                f,
                "pool {pool}: field {field} is not one its kind reads (misspelt, or of another kind)"
            ),
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
            Self::UnknownField { .. } => 4037,
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
            | Self::Inconsistent { pool, .. }
            | Self::UnknownField { pool, .. } => Some(pool),
            Self::Duplicate(_)
            | Self::BadAddress(_)
            | Self::BadToken { .. }
            | Self::TooManyEntries { .. } => None,
        }
    }
}
