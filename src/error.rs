//! Errors: one enum per domain, with data, and the top [`Error`] with a stable numeric code.
//!
//! Domain enums are `#[non_exhaustive]`: new failure modes may be added without a breaking change.

use crate::units::Deployment;
use crate::units::TokenId;
use alloc::string::String;
use core::fmt;
use primitive_types::U256;

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

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/// A field of a request body, displayed as its JSON path (`inputTokens[1].amount`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The body as a whole.
    Body,
    /// `chainId`.
    ChainId,
    /// `inputTokens`.
    InputTokens,
    /// `inputTokens[i].tokenAddress`.
    InputTokenAddress(usize),
    /// `inputTokens[i].amount`.
    InputAmount(usize),
    /// `outputTokens`.
    OutputTokens,
    /// `outputTokens[i].tokenAddress`.
    OutputTokenAddress(usize),
    /// `outputTokens[i].proportion`.
    OutputProportion(usize),
    /// `slippageLimitPercent`.
    SlippageLimitPercent,
    /// `userAddr`.
    UserAddr,
    /// `sourceWhitelist[i]`.
    SourceWhitelist(usize),
    /// `sourceBlacklist[i]`.
    SourceBlacklist(usize),
    /// `pathId` (assemble).
    PathId,
}

impl Field {
    /// Whether the field holds a token address (the spec's "Invalid token address").
    #[must_use]
    pub fn is_token_address(self) -> bool {
        matches!(
            self,
            Self::InputTokenAddress(_) | Self::OutputTokenAddress(_)
        )
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Body => f.write_str("body"),
            Self::ChainId => f.write_str("chainId"),
            Self::InputTokens => f.write_str("inputTokens"),
            Self::InputTokenAddress(i) => write!(f, "inputTokens[{i}].tokenAddress"),
            Self::InputAmount(i) => write!(f, "inputTokens[{i}].amount"),
            Self::OutputTokens => f.write_str("outputTokens"),
            Self::OutputTokenAddress(i) => write!(f, "outputTokens[{i}].tokenAddress"),
            Self::OutputProportion(i) => write!(f, "outputTokens[{i}].proportion"),
            Self::SlippageLimitPercent => f.write_str("slippageLimitPercent"),
            Self::UserAddr => f.write_str("userAddr"),
            Self::SourceWhitelist(i) => write!(f, "sourceWhitelist[{i}]"),
            Self::SourceBlacklist(i) => write!(f, "sourceBlacklist[{i}]"),
            Self::PathId => f.write_str("pathId"),
        }
    }
}

/// What is wrong with the format of an address string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressProblem {
    /// The empty string.
    Empty,
    /// An EVM address not starting with `0x`.
    MissingPrefix,
    /// Wrong number of characters: hex digits after `0x` (EVM, 40 wanted), or a base58 string
    /// longer than a 32-byte address can be.
    WrongLength {
        /// the number found
        len: usize,
    },
    /// A character that is not a hex digit after `0x`.
    NotHex,
    /// A character outside the base58 alphabet (`0`, `O`, `I`, `l` and non-alphanumerics).
    NotBase58,
    /// Base58 that does not decode to exactly 32 bytes.
    WrongByteLength {
        /// the number of bytes decoded (33 stands for "more than 32")
        len: usize,
    },
}

impl fmt::Display for AddressProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty"),
            Self::MissingPrefix => f.write_str("an EVM address starts with 0x"),
            Self::WrongLength { len } => {
                write!(f, "wrong length ({len} characters; 0x + 40 hex digits on EVM chains, at most 44 base58 characters on chain 101)")
            }
            Self::NotHex => f.write_str("not hexadecimal"),
            Self::NotBase58 => f.write_str(
                "not base58 (characters 0, O, I, l and symbols are not in the alphabet)",
            ),
            Self::WrongByteLength { len } => {
                write!(f, "decodes to {len} bytes, a chain-101 address has 32")
            }
        }
    }
}

/// What is wrong with an `amount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AmountProblem {
    /// The empty string.
    Empty,
    /// Anything but ASCII digits: a sign, a decimal point, an exponent, whitespace, ...
    NotAnInteger,
    /// A leading zero (`"007"`): amounts are canonical decimal integers.
    LeadingZero,
    /// Zero.
    Zero,
    /// At or above 2^256.
    TooLarge,
}

impl fmt::Display for AmountProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "empty",
            Self::NotAnInteger => {
                "not a base-unit integer (digits only: no sign, decimal point, exponent or whitespace)"
            }
            Self::LeadingZero => "has a leading zero",
            Self::Zero => "must be greater than 0",
            Self::TooLarge => "must be below 2^256",
        })
    }
}

/// What is wrong with a decimal number (`proportion`, `slippageLimitPercent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecimalProblem {
    /// The empty string.
    Empty,
    /// Not `digits[.digits]`: a `+`, an exponent in a string, whitespace, a leading zero, ...
    NotADecimal,
    /// NaN or an infinity.
    NotFinite,
    /// Below zero (or a negative zero).
    Negative,
    /// Zero where more is needed.
    Zero,
    /// Above the bound of the field (1 for a proportion, the slippage maximum).
    TooLarge,
    /// More significant decimal places than are read.
    TooManyDecimals {
        /// the most accepted
        max: u32,
    },
}

impl fmt::Display for DecimalProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty"),
            Self::NotADecimal => f.write_str("not a plain decimal number such as 0.5"),
            Self::NotFinite => f.write_str("not a finite number"),
            Self::Negative => f.write_str("must not be negative"),
            Self::Zero => f.write_str("must be greater than 0"),
            Self::TooLarge => f.write_str("too large"),
            Self::TooManyDecimals { max } => write!(f, "more than {max} decimal places"),
        }
    }
}

/// A request body that must change: each variant has its own code (see [`Error::code`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RequestError {
    /// The body is not JSON of the spec's shape (syntax, a missing or unknown field, a wrong
    /// type). `reason` is the parser's message.
    MalformedBody {
        /// what the parser said
        reason: String,
    },
    /// A chain id no deployment serves (0).
    UnsupportedChain {
        /// the id given
        chain_id: u64,
    },
    /// A chain id of the other deployment (a chain-101 body on an EVM endpoint or back).
    WrongDeployment {
        /// the id given
        chain_id: u64,
        /// the deployment of the endpoint
        deployment: Deployment,
    },
    /// A chain id other than the snapshot's: the request would be routed on another chain's
    /// pools.
    ChainMismatch {
        /// the request's `chainId`
        request: u64,
        /// the snapshot's chain id
        snapshot: u64,
    },
    /// An address of the wrong format.
    InvalidAddress {
        /// where
        field: Field,
        /// what
        problem: AddressProblem,
    },
    /// A mixed-case EVM address whose case is not its EIP-55 checksum (a typo, most likely).
    BadChecksum {
        /// where
        field: Field,
    },
    /// An EVM address that must be EIP-55 checksummed (`userAddr`) but is all lower or all
    /// upper case.
    NotChecksummed {
        /// where
        field: Field,
    },
    /// A 0x EVM address in a chain-101 request, where addresses are base58.
    EvmAddressOnChain101 {
        /// where
        field: Field,
    },
    /// An `amount` that is not a base-unit integer in `(0, 2^256)`.
    InvalidAmount {
        /// index in `inputTokens`
        index: usize,
        /// what
        problem: AmountProblem,
    },
    /// A `proportion` that is not an exact decimal in `(0, 1]`.
    InvalidProportion {
        /// index in `outputTokens`
        index: usize,
        /// what
        problem: DecimalProblem,
    },
    /// Proportions that do not sum exactly to 1.
    ProportionsDoNotSumToOne {
        /// the sum, in units of `10^-18`
        sum_e18: u128,
    },
    /// A `slippageLimitPercent` out of bounds or not an exact decimal.
    InvalidSlippage {
        /// what
        problem: DecimalProblem,
    },
    /// `inputTokens` is empty.
    NoInputTokens,
    /// `outputTokens` is empty.
    NoOutputTokens,
    /// More inputs than accepted.
    TooManyInputTokens {
        /// how many
        given: usize,
        /// the bound
        max: usize,
    },
    /// More outputs than accepted.
    TooManyOutputTokens {
        /// how many
        given: usize,
        /// the bound
        max: usize,
    },
    /// The same token twice in `inputTokens`.
    DuplicateInputToken {
        /// its first index
        first: usize,
        /// its second index
        second: usize,
    },
    /// The same token twice in `outputTokens`.
    DuplicateOutputToken {
        /// its first index
        first: usize,
        /// its second index
        second: usize,
    },
    /// A token both in `inputTokens` and `outputTokens`.
    InputIsOutput {
        /// index in `inputTokens`
        input: usize,
        /// index in `outputTokens`
        output: usize,
    },
    /// A whitelisted source id that the deployment does not know.
    UnknownSource {
        /// where
        field: Field,
        /// the id given
        id: String,
        /// a known id that differs only in case or `_` for `-`
        suggestion: Option<String>,
    },
    /// `sourceWhitelist: []`, which would allow nothing.
    EmptyWhitelist,
    /// The whitelist and blacklist together leave no known source.
    AllSourcesExcluded,
    /// A `pathId` that is empty, too long or not printable ASCII.
    InvalidPathId,
    /// Assembly of a quote 60 seconds or more after it was received.
    StaleQuote {
        /// the age of the quote, in milliseconds
        age_ms: u64,
    },
    /// Assembly with a `userAddr` other than the quote's.
    UserAddrMismatch,
    /// Assembly of a quote made without `userAddr`.
    QuoteWithoutUserAddr,
    /// A query parameter of a listing endpoint (`order_by`, `order_dir`, `limit`, `offset`) with
    /// a value it does not take (see [`crate::service::listing`]).
    InvalidQueryParam {
        /// the parameter
        name: &'static str,
        /// the value given
        value: String,
        /// what is wrong
        why: &'static str,
    },
}

impl RequestError {
    /// The field at fault, when one is.
    #[must_use]
    pub fn field(&self) -> Option<Field> {
        Some(match self {
            Self::MalformedBody { .. } => Field::Body,
            Self::UnsupportedChain { .. }
            | Self::WrongDeployment { .. }
            | Self::ChainMismatch { .. } => Field::ChainId,
            Self::InvalidAddress { field, .. }
            | Self::BadChecksum { field }
            | Self::NotChecksummed { field }
            | Self::EvmAddressOnChain101 { field }
            | Self::UnknownSource { field, .. } => *field,
            Self::InvalidAmount { index, .. } => Field::InputAmount(*index),
            Self::InvalidProportion { index, .. } => Field::OutputProportion(*index),
            Self::ProportionsDoNotSumToOne { .. } => Field::OutputTokens,
            Self::InvalidSlippage { .. } => Field::SlippageLimitPercent,
            Self::NoInputTokens | Self::TooManyInputTokens { .. } => Field::InputTokens,
            Self::DuplicateInputToken { second, .. } => Field::InputTokenAddress(*second),
            Self::NoOutputTokens | Self::TooManyOutputTokens { .. } => Field::OutputTokens,
            Self::DuplicateOutputToken { second, .. } => Field::OutputTokenAddress(*second),
            Self::InputIsOutput { output, .. } => Field::OutputTokenAddress(*output),
            Self::InvalidPathId | Self::StaleQuote { .. } => Field::PathId,
            Self::UserAddrMismatch | Self::QuoteWithoutUserAddr => Field::UserAddr,
            Self::EmptyWhitelist | Self::AllSourcesExcluded | Self::InvalidQueryParam { .. } => {
                return None
            }
        })
    }

    /// The stable code (the table at [`Error::code`]).
    #[must_use]
    pub fn code(&self) -> u32 {
        match self {
            Self::MalformedBody { .. } => 3000,
            Self::UnsupportedChain { .. } => 3001,
            Self::WrongDeployment { .. } => 3002,
            Self::ChainMismatch { .. } => 3003,
            Self::InvalidAddress { .. } => 3010,
            Self::BadChecksum { .. } => 3011,
            Self::NotChecksummed { .. } => 3012,
            Self::EvmAddressOnChain101 { .. } => 3013,
            Self::InvalidAmount { .. } => 3020,
            Self::InvalidProportion { .. } => 3030,
            Self::ProportionsDoNotSumToOne { .. } => 3031,
            Self::InvalidSlippage { .. } => 3040,
            Self::NoInputTokens => 3050,
            Self::NoOutputTokens => 3051,
            Self::TooManyInputTokens { .. } => 3052,
            Self::TooManyOutputTokens { .. } => 3053,
            Self::DuplicateInputToken { .. } => 3054,
            Self::DuplicateOutputToken { .. } => 3055,
            Self::InputIsOutput { .. } => 3056,
            Self::UnknownSource { .. } => 3060,
            Self::EmptyWhitelist => 3061,
            Self::AllSourcesExcluded => 3062,
            Self::InvalidPathId => 3070,
            Self::StaleQuote { .. } => 3071,
            Self::UserAddrMismatch => 3072,
            Self::QuoteWithoutUserAddr => 3073,
            Self::InvalidQueryParam { .. } => 3080,
        }
    }
}

/// `n / 10^18` as exact decimal text, for messages.
fn fmt_e18(f: &mut fmt::Formatter<'_>, n: u128) -> fmt::Result {
    let one: u128 = 1_000_000_000_000_000_000;
    // one != 0.
    #[allow(clippy::arithmetic_side_effects)]
    let (int, frac) = (n / one, n % one);
    if frac == 0 {
        return write!(f, "{int}");
    }
    let digits = alloc::format!("{frac:018}");
    write!(f, "{int}.{}", digits.trim_end_matches('0'))
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MalformedBody { reason } => write!(f, "Malformed request body: {reason}"),
            Self::UnsupportedChain { chain_id } => write!(f, "Unsupported chainId {chain_id}"),
            Self::WrongDeployment {
                chain_id,
                deployment,
            } => write!(
                f,
                "chainId {chain_id} is not served by the {deployment} deployment"
            ),
            Self::ChainMismatch { request, snapshot } => write!(
                f,
                "chainId {request} does not match the snapshot's chain {snapshot}"
            ),
            Self::InvalidAddress { field, problem } => {
                if *field == Field::UserAddr {
                    write!(f, "Invalid userAddr: {problem}")
                } else {
                    write!(f, "Invalid token address at {field}: {problem}")
                }
            }
            Self::BadChecksum { field } => write!(
                f,
                "Invalid {} at {field}: mixed-case address with a wrong EIP-55 checksum (check for a typo)",
                if *field == Field::UserAddr { "userAddr" } else { "token address" }
            ),
            Self::NotChecksummed { field } => write!(
                f,
                "Invalid {}: {field} must be an EIP-55 checksummed address",
                if *field == Field::UserAddr { "userAddr" } else { "token address" }
            ),
            Self::EvmAddressOnChain101 { field } => {
                if *field == Field::UserAddr {
                    f.write_str("Invalid userAddr: an EVM 0x address was given; chain 101 needs a base58 wallet address")
                } else {
                    write!(f, "Invalid token address at {field}: an EVM 0x address was given; chain 101 needs a base58 mint address (check /info/tokens/101)")
                }
            }
            Self::InvalidAmount { index, problem } => {
                write!(f, "Invalid amount at inputTokens[{index}].amount: {problem}")
            }
            Self::InvalidProportion { index, problem } => {
                write!(f, "Invalid proportion at outputTokens[{index}].proportion: {problem}")?;
                if *problem == DecimalProblem::TooLarge {
                    f.write_str(" (at most 1)")?;
                }
                Ok(())
            }
            Self::ProportionsDoNotSumToOne { sum_e18 } => {
                f.write_str("outputTokens proportions must sum to exactly 1; they sum to ")?;
                fmt_e18(f, *sum_e18)
            }
            Self::InvalidSlippage { problem } => {
                write!(f, "Invalid slippageLimitPercent: {problem}")?;
                if *problem == DecimalProblem::TooLarge {
                    write!(f, " (at most {} percent)", crate::service::request::MAX_SLIPPAGE_PERCENT)?;
                }
                Ok(())
            }
            Self::NoInputTokens => f.write_str("inputTokens must not be empty"),
            Self::NoOutputTokens => f.write_str("outputTokens must not be empty"),
            Self::TooManyInputTokens { given, max } => {
                write!(f, "inputTokens has {given} entries, at most {max} are accepted")
            }
            Self::TooManyOutputTokens { given, max } => {
                write!(f, "outputTokens has {given} entries, at most {max} are accepted")
            }
            Self::DuplicateInputToken { first, second } => write!(
                f,
                "inputTokens[{second}] repeats the token of inputTokens[{first}]; merge the amounts"
            ),
            Self::DuplicateOutputToken { first, second } => write!(
                f,
                "outputTokens[{second}] repeats the token of outputTokens[{first}]; merge the proportions"
            ),
            Self::InputIsOutput { input, output } => write!(
                f,
                "outputTokens[{output}] is also inputTokens[{input}]; a token cannot be both sold and bought"
            ),
            Self::UnknownSource {
                field,
                id,
                suggestion,
            } => {
                write!(f, "Unknown liquidity source id {id:?} at {field} (ids are case-sensitive and hyphenated)")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean {s:?}?")?;
                }
                Ok(())
            }
            Self::EmptyWhitelist => {
                f.write_str("sourceWhitelist is empty; omit it to allow every source")
            }
            Self::AllSourcesExcluded => {
                f.write_str("sourceWhitelist and sourceBlacklist together exclude every liquidity source")
            }
            Self::InvalidPathId => f.write_str("Invalid pathId"),
            Self::StaleQuote { age_ms } => write!(
                f,
                "Stale quote: received {age_ms} ms ago, quotes are valid for 60 seconds; request a new quote and assemble its pathId"
            ),
            Self::UserAddrMismatch => {
                f.write_str("userAddr differs from the userAddr the quote was made for")
            }
            Self::QuoteWithoutUserAddr => f.write_str(
                "the quote was made without userAddr and cannot be assembled; quote again with userAddr",
            ),
            Self::InvalidQueryParam { name, value, why } => {
                write!(f, "query parameter {name}={value:?}: {why}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RequestError {}

// ---------------------------------------------------------------------------------------------
// Routing and zaps (codes 4000-4999 and 5000-5999 are theirs)
// ---------------------------------------------------------------------------------------------

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
