//! Routing failures (codes 4000-4999): a request, plan or search the router cannot serve.

use super::{ErrorClass, MathError, PlanProblem, PoolError};
use crate::units::{PoolId, TokenId};
use alloc::string::String;
use core::fmt;
use primitive_types::U256;

/// A snapshot, request or plan the router cannot work with, or a search that found nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteError {
    /// A request names a token that is not in the snapshot's token list, or not a coin of
    /// the pool it is asked of (a snapshot pool naming one is
    /// [`super::SnapshotError::UnknownToken`]).
    UnknownToken {
        /// the pool's id string (empty when the token comes from a request)
        pool: alloc::string::String,
        /// the address as given
        address: alloc::string::String,
    },
    /// A token id outside the graph.
    TokenOutOfRange(TokenId),
    /// A pool id outside the graph.
    PoolOutOfRange(PoolId),
    /// A new pool state of another family or coin count than the pool it replaces
    /// (`PoolGraph::set_pool_state`).
    PoolFamilyMismatch {
        /// the pool
        pool: PoolId,
    },
    /// The request itself is malformed: no inputs, no outputs, zero amounts, proportions that
    /// are not positive or do not sum to one, a token both input and output, ... (what is
    /// wrong, with the values, in [`BadRouteRequest`]).
    BadRequest(BadRouteRequest),
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
        /// the check that fails
        why: PlanProblem,
    },
    /// Integer arithmetic failed where amounts are summed.
    Math(MathError),
    /// Paths exist but cannot carry the amount: every path's exact simulation reverts or
    /// overflows on it (an exact-out amount beyond the reserves, an input beyond what the
    /// pools can take, also where a concentrated-liquidity pool's known ticks end inside the
    /// trade and the plan would hand back more than a thousandth of the token: a quote is not
    /// a partial fill).
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
        /// the check that fails
        why: PlanProblem,
    },
}

/// What is wrong with a router request ([`RouteError::BadRequest`]), with the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BadRouteRequest {
    /// No input token.
    NoInputs,
    /// No output token.
    NoOutputs,
    /// A hop bound outside `1..=max`.
    MaxHops {
        /// the bound given
        given: usize,
        /// the largest accepted
        max: usize,
    },
    /// A gas price that is not a finite number `>= 0` (its `f64` bits, so the error stays `Eq`).
    GasPrice {
        /// `f64::to_bits` of the price given
        bits: u64,
    },
    /// A slippage fraction outside `[0, 1]` (or with a zero denominator).
    Slippage {
        /// numerator given
        numer: u64,
        /// denominator given
        denom: u64,
    },
    /// A slippage percent that no `u64` fraction with denominator `10^18` holds.
    SlippageUnrepresentable,
    /// An input amount of zero.
    ZeroInput {
        /// the input token
        token: TokenId,
    },
    /// An output proportion that is zero (or has a zero denominator).
    OutputProportion {
        /// the output token
        token: TokenId,
        /// numerator given
        numer: u64,
        /// denominator given
        denom: u64,
    },
    /// The same output token twice.
    RepeatedOutput {
        /// the token
        token: TokenId,
    },
    /// A token both input and output.
    InputIsOutput {
        /// the token
        token: TokenId,
    },
    /// Output proportions whose exact sum overflows 128-bit fractions.
    ProportionsOverflow,
    /// Output proportions that do not sum to exactly 1.
    ProportionsSum {
        /// numerator of the sum
        numer: u128,
        /// denominator of the sum
        denom: u128,
    },
    /// A `sourceWhitelist` the body validation refuses otherwise than by an unknown id.
    SourceWhitelist,
    /// An exact-out request without exactly one input and one output token.
    ExactOutShape {
        /// input tokens given
        inputs: usize,
        /// output tokens given
        outputs: usize,
    },
    /// An exact-out request for 0 of the output.
    ExactOutZero,
    /// A weight of [`crate::route::weighted_output_bound`] that is negative or not finite, or
    /// on a token outside the graph.
    Weight {
        /// the weighted token
        token: TokenId,
    },
    /// An argument of a host-language binding (the Python module) of the wrong type or range;
    /// the binding names the argument and what it takes.
    Argument {
        /// the argument and what it takes
        what: &'static str,
    },
}

impl fmt::Display for BadRouteRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoInputs => f.write_str("no inputs"),
            Self::NoOutputs => f.write_str("no outputs"),
            Self::MaxHops { given, max } => write!(f, "max_hops {given} must be in 1..={max}"),
            Self::GasPrice { bits } => write!(
                f,
                "gas_price {} must be finite and >= 0",
                f64::from_bits(*bits)
            ),
            Self::Slippage { numer, denom } => {
                write!(f, "slippage {numer}/{denom} must be a fraction in [0, 1]")
            }
            Self::SlippageUnrepresentable => {
                f.write_str("slippage out of range (not a u64 fraction of 10^18)")
            }
            Self::ZeroInput { token } => write!(f, "zero input amount of token #{}", token.0),
            Self::OutputProportion {
                token,
                numer,
                denom,
            } => write!(
                f,
                "output proportions must be positive: token #{} has {numer}/{denom}",
                token.0
            ),
            Self::RepeatedOutput { token } => write!(f, "repeated output token #{}", token.0),
            Self::InputIsOutput { token } => {
                write!(f, "token #{} is both input and output", token.0)
            }
            Self::ProportionsOverflow => {
                f.write_str("proportions overflow (their exact sum does not fit 128 bits)")
            }
            Self::ProportionsSum { numer, denom } => write!(
                f,
                "output proportions must sum to exactly 1; they sum to {numer}/{denom}"
            ),
            Self::SourceWhitelist => f.write_str("sourceWhitelist refused"),
            Self::ExactOutShape { inputs, outputs } => write!(
                f,
                "exact-out takes one input token and one output token, not {inputs} and {outputs}"
            ),
            Self::ExactOutZero => f.write_str("exact-out amount must be positive"),
            Self::Weight { token } => write!(
                f,
                "weight of token #{} is negative, not finite or not a token of the graph",
                token.0
            ),
            Self::Argument { what } => write!(f, "argument {what}"),
        }
    }
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
    /// `rounding_slack` (the bound's integer rounding part)
    RoundingSlack,
    /// `bound_gap` (written beside the bound)
    BoundGap,
    /// `bound_max_hops` (the hop limit the bound is over)
    BoundMaxHops,
    /// `gas_price` (the price the plan was chosen with)
    GasPrice,
    /// `slippage`
    Slippage,
    /// `excluded`
    Excluded,
    /// the outputs' value shares against the requested proportions
    Proportions,
    /// `price_impact`
    PriceImpact,
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
            Self::RoundingSlack => "rounding_slack",
            Self::BoundGap => "bound_gap",
            Self::BoundMaxHops => "bound_max_hops",
            Self::GasPrice => "gas_price",
            Self::Slippage => "slippage",
            Self::Excluded => "excluded",
            Self::Proportions => "proportions",
            Self::PriceImpact => "price_impact",
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
            // no pool: a request's token the snapshot does not hold
            Self::UnknownToken { pool, address } if pool.is_empty() => write!(
                f,
                "unknown token {address}: the snapshot's token list has no such token"
            ),
            Self::UnknownToken { pool, address } => {
                write!(f, "unknown token {address} (pool {pool:?})")
            }
            Self::TokenOutOfRange(t) => write!(f, "token id {} out of range", t.0),
            Self::PoolOutOfRange(p) => write!(f, "pool id {} out of range", p.0),
            Self::PoolFamilyMismatch { pool } => write!(
                f,
                "pool id {}: the new state is of another family or coin count",
                pool.0
            ),
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
                super::did_you_mean(f, suggestion.as_deref())
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
            Self::PoolFamilyMismatch { .. } => 4015,
            Self::InvalidPlan { .. } => 4013,
            Self::PlanMismatch { .. } => 4014,
            Self::NoSupply(_) => 4022,
            Self::Simulation { .. } => 4020,
            Self::Math(_) => 4021,
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

    /// The class (see [`ErrorClass`] and the rule at [`super::Error::is_retryable`]). Snapshot
    /// defects (4030-4039) are the server's, so they are retryable once its data is refreshed;
    /// a failed exact simulation and route arithmetic have the class of their cause.
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            Self::UnknownToken { .. }
            | Self::BadRequest(_)
            | Self::TokenOutOfRange(_)
            | Self::PoolOutOfRange(_)
            | Self::PoolFamilyMismatch { .. }
            | Self::InvalidPlan { .. }
            | Self::PlanMismatch { .. } => ErrorClass::Validation,
            Self::SearchBudgetExceeded => ErrorClass::Retryable,
            Self::UnknownSource { .. } => ErrorClass::Validation,
            Self::NoRoute
            | Self::InsufficientLiquidity { .. }
            | Self::AmountTooSmall { .. }
            | Self::ExactOutUnreachable { .. }
            | Self::TooManyHops { .. }
            | Self::AllRoutesFiltered { .. }
            | Self::NoSupply(_) => ErrorClass::NoRoute,
            Self::Simulation { error, .. } => error.class(),
            Self::Math(e) => e.class(),
        }
    }
}
