//! Routing failures (codes 4000-4999): a request, plan or search the router cannot serve.

use super::{ErrorClass, MathError, PoolError};
use crate::units::TokenId;
use alloc::string::String;
use core::fmt;
use primitive_types::U256;

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
    /// An address that is not `0x` + 40 hex digits (EVM chains) or base58 of 32 bytes
    /// (chain 101).
    BadAddress(alloc::string::String),
    /// A pool whose state the exact math refuses (a reserve above the contract's range, a
    /// Curve invariant that does not converge or overflows). [`crate::graph::PoolGraph::from_snapshot`]
    /// quarantines such a pool; the strict loader refuses the snapshot with this error.
    PoolState {
        /// the pool's id string
        pool: alloc::string::String,
        /// what the exact math refused
        error: PoolError,
    },
    /// A token of the snapshot's token table with a field out of range.
    BadToken {
        /// the token's address as given
        token: alloc::string::String,
        /// the field
        field: &'static str,
    },
    /// A snapshot that contradicts itself: a pool's field disagrees with the token table or
    /// with another pool (decimals, rates, LP token).
    Inconsistent {
        /// the pool's id string
        pool: alloc::string::String,
        /// the token concerned, as given
        token: alloc::string::String,
        /// the pool's field
        field: &'static str,
        /// what disagrees
        why: &'static str,
    },
    /// A token id outside the graph.
    TokenOutOfRange(u32),
    /// A pool id outside the graph.
    PoolOutOfRange(u32),
    /// The request itself is malformed: no inputs, no outputs, zero amounts, proportions that
    /// are not positive or do not sum to one, a token both input and output, ...
    BadRequest(&'static str),
    /// No path of at most the allowed number of hops joins an input to an output.
    NoRoute,
    /// The exact simulation of the recovered plan failed in every form tried: the pool whose
    /// swap reverted (the first one left out) and the revert.
    Simulation {
        /// the pool's id string
        pool: alloc::string::String,
        /// what the pool's exact math refused
        error: PoolError,
    },
    /// [`crate::plan::Plan::verify`] found a step or a total that does not hold.
    InvalidPlan {
        /// index of the failing step (`None` for totals)
        step: Option<usize>,
        /// what is wrong
        why: &'static str,
    },
    /// Integer arithmetic failed where amounts are summed.
    Math(MathError),
    /// Paths exist but cannot carry the amount: every path's exact simulation reverts or
    /// overflows on it (an exact-out amount beyond the reserves, an input beyond what the
    /// pools can take).
    InsufficientLiquidity {
        /// token sold
        from: TokenId,
        /// token bought
        to: TokenId,
    },
    /// Every path needs more hops than allowed.
    TooManyHops {
        /// the bound
        max: usize,
        /// the hops the shortest path needs
        needed: usize,
    },
    /// Paths exist, but only through sources the request's filters exclude.
    AllRoutesFiltered {
        /// the filter that removed the paths
        filter: RouteFilter,
    },
    /// The input is too small to yield anything: every path's exact simulation gives 0 of
    /// the output (dust).
    AmountTooSmall {
        /// token sold
        from: TokenId,
        /// token bought
        to: TokenId,
    },
    /// A source id of the request's whitelist that no pool of the snapshot has.
    UnknownSource {
        /// the id given
        id: alloc::string::String,
        /// a known id that differs only in case or `_` for `-`
        suggestion: Option<alloc::string::String>,
    },
    /// The search gave up within its budget; retry.
    SearchBudgetExceeded,
    /// An exact-out request wants more of the output than its whole input amount (the most
    /// the user will spend) delivers.
    ExactOutUnreachable {
        /// the wanted output amount (base units)
        wanted: U256,
        /// what the whole input amount delivers
        best: U256,
    },
    /// An LP operation (mint, burn, zap) on a pool whose snapshot entry gives no
    /// `total_supply` (the pool's id).
    NoSupply(String),
    /// A plan read back (or checked against its request) that does not hold: the field, the
    /// element or step, and what is wrong (see [`crate::plan::Plan::verify_request`]).
    PlanMismatch {
        /// the field of the plan
        field: PlanField,
        /// the index within the field (`steps[k]`, `outputs[k]`, ...), when one element is wrong
        index: Option<usize>,
        /// what is wrong
        why: &'static str,
    },
}

/// The source filter named by [`RouteError::AllRoutesFiltered`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RouteFilter {
    /// `sourceWhitelist` alone removed every path (without it one exists).
    SourceWhitelist,
    /// `sourceBlacklist` alone removed every path (without it one exists).
    SourceBlacklist,
    /// The two together: a path exists without both, but not without either one alone.
    SourceWhitelistAndBlacklist,
}

impl fmt::Display for RouteFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::SourceWhitelist => "sourceWhitelist",
            Self::SourceBlacklist => "sourceBlacklist",
            Self::SourceWhitelistAndBlacklist => "sourceWhitelist and sourceBlacklist together",
        })
    }
}

/// A field of a [`crate::plan::Plan`] (and of its JSON), named by [`RouteError::PlanMismatch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlanField {
    /// `inputs`
    Inputs,
    /// `steps`
    Steps,
    /// `outputs` (token or amount)
    Outputs,
    /// `outputs[k].min_amount`
    MinAmount,
    /// `refunds`
    Refunds,
    /// `zap_fee`
    ZapFee,
    /// `gas_units`
    GasUnits,
    /// `value`
    Value,
    /// `upper_bound`
    UpperBound,
    /// `slippage`
    Slippage,
    /// `excluded`
    Excluded,
    /// the outputs' value shares against the requested proportions
    Proportions,
}

impl fmt::Display for PlanField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Inputs => "inputs",
            Self::Steps => "steps",
            Self::Outputs => "outputs",
            Self::MinAmount => "min_amount",
            Self::Refunds => "refunds",
            Self::ZapFee => "zap_fee",
            Self::GasUnits => "gas_units",
            Self::Value => "value",
            Self::UpperBound => "upper_bound",
            Self::Slippage => "slippage",
            Self::Excluded => "excluded",
            Self::Proportions => "proportions",
        })
    }
}

impl From<MathError> for RouteError {
    fn from(e: MathError) -> Self {
        Self::Math(e)
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
            Self::TokenOutOfRange(t) => write!(f, "token id {t} out of range"),
            Self::PoolOutOfRange(p) => write!(f, "pool id {p} out of range"),
            Self::BadRequest(why) => write!(f, "bad route request: {why}"),
            Self::NoRoute => f.write_str("no route joins the inputs to the outputs"),
            Self::Simulation { pool, error } => {
                write!(f, "exact simulation failed in pool {pool}: {error}")
            }
            Self::InvalidPlan { step: Some(i), why } => {
                write!(f, "invalid plan at step {i}: {why}")
            }
            Self::InvalidPlan { step: None, why } => write!(f, "invalid plan: {why}"),
            Self::InsufficientLiquidity { from, to } => write!(
                f,
                "insufficient liquidity from token #{} to token #{}: every path reverts on the amount",
                from.0, to.0
            ),
            Self::TooManyHops { max, needed } => write!(
                f,
                "no route within {max} hops: the shortest path needs {needed}"
            ),
            Self::AllRoutesFiltered { filter } => write!(
                f,
                "routes exist only through liquidity sources that {filter} excludes"
            ),
            Self::AmountTooSmall { from, to } => write!(
                f,
                "amount too small: every path from token #{} to token #{} gives 0 out",
                from.0, to.0
            ),
            Self::UnknownSource { id, suggestion } => {
                write!(f, "no pool of the snapshot has the source id {id:?} of sourceWhitelist")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean {s:?}?")?;
                }
                Ok(())
            }
            Self::SearchBudgetExceeded => f.write_str("route search ran out of budget; retry"),
            Self::ExactOutUnreachable { wanted, best } => write!(
                f,
                "the input amount delivers at most {best} of the {wanted} wanted: raise the input amount or ask for less"
            ),
            Self::Math(e) => write!(f, "route arithmetic: {e}"),
            Self::NoSupply(pool) => write!(
                f,
                "pool {pool}: the snapshot gives no total_supply, so no LP can be minted or burned"
            ),
            Self::PlanMismatch {
                field,
                index: Some(i),
                why,
            } => {
                let at = if *field == PlanField::Steps {
                    "step "
                } else {
                    ""
                };
                write!(f, "plan {field}[{at}{i}]: {why}")
            }
            Self::PlanMismatch {
                field,
                index: None,
                why,
            } => write!(f, "plan {field}: {why}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RouteError {}

impl RouteError {
    /// The stable code (4000-4999; table in `docs/error-codes.md`).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::NoRoute => 4000,
            Self::InsufficientLiquidity { .. } => 4001,
            Self::UnknownToken { .. } => 4002,
            Self::TooManyHops { .. } => 4003,
            Self::AllRoutesFiltered { .. } => 4004,
            Self::AmountTooSmall { .. } => 4007,
            Self::UnknownSource { .. } => 4008,
            Self::SearchBudgetExceeded => 4005,
            Self::ExactOutUnreachable { .. } => 4006,
            Self::BadRequest(_) => 4010,
            Self::TokenOutOfRange(_) => 4011,
            Self::PoolOutOfRange(_) => 4012,
            Self::InvalidPlan { .. } => 4013,
            Self::PlanMismatch { .. } => 4014,
            Self::NoSupply(_) => 4022,
            Self::Simulation { .. } => 4020,
            Self::Math(_) => 4021,
            Self::Duplicate(_) => 4030,
            Self::BadNumber { .. } => 4031,
            Self::BadPool { .. } => 4032,
            Self::BadAddress(_) => 4033,
            Self::BadToken { .. } => 4034,
            Self::Inconsistent { .. } => 4035,
            Self::PoolState { .. } => 4036,
        }
    }

    /// What the caller can change for the routing errors that have one precise remedy.
    #[must_use]
    pub fn remedy(&self) -> Option<&'static str> {
        Some(match self {
            Self::TooManyHops { .. } => "raise max_hops to the hops needed, or leave it unset",
            Self::AllRoutesFiltered { .. } => "loosen the named source filter",
            Self::AmountTooSmall { .. } => "raise the amount: this one rounds to nothing",
            Self::InsufficientLiquidity { .. } => "lower the amount or split the trade",
            Self::UnknownSource { .. } => "use a source id of the snapshot (see the suggestion)",
            Self::ExactOutUnreachable { .. } => "raise the input amount or ask for less output",
            Self::Simulation { .. } => {
                "refresh the snapshot: the named pool reverts on its own state"
            }
            _ => return None,
        })
    }

    /// The class (see [`ErrorClass`]). Snapshot defects (4030-4039) are the server's, so
    /// they are retryable once its data is refreshed; a failed exact simulation or an overflow
    /// means the amount cannot be carried (no route / insufficient liquidity).
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::UnknownToken { .. }
            | Self::BadRequest(_)
            | Self::TokenOutOfRange(_)
            | Self::PoolOutOfRange(_)
            | Self::InvalidPlan { .. }
            | Self::PlanMismatch { .. } => ErrorClass::Validation,
            Self::SearchBudgetExceeded
            | Self::Duplicate(_)
            | Self::BadNumber { .. }
            | Self::BadPool { .. }
            | Self::BadAddress(_)
            | Self::BadToken { .. }
            | Self::Inconsistent { .. }
            | Self::PoolState { .. } => ErrorClass::Retryable,
            Self::UnknownSource { .. } => ErrorClass::Validation,
            Self::NoRoute
            | Self::InsufficientLiquidity { .. }
            | Self::AmountTooSmall { .. }
            | Self::ExactOutUnreachable { .. }
            | Self::TooManyHops { .. }
            | Self::AllRoutesFiltered { .. }
            | Self::Simulation { .. }
            | Self::Math(_)
            | Self::NoSupply(_) => ErrorClass::NoRoute,
        }
    }
}
