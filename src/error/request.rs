//! Request body failures (codes 3000-3999) and the fields, addresses, amounts and decimals
//! they name.

use crate::chain::{Deployment, MAX_SLIPPAGE_PERCENT};
use alloc::string::String;
use core::fmt;

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

/// A request body that must change: each variant has its own code (see [`super::Error::code`]).
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
        why: QueryProblem,
    },
}

/// What is wrong with a listing query parameter ([`RequestError::InvalidQueryParam`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum QueryProblem {
    /// Not a non-negative decimal integer.
    NotACount,
    /// A count too large for the machine's `usize`.
    TooLarge,
    /// An `order_by` other than `tvl` or `symbol`.
    OrderBy,
    /// An `order_dir` other than `asc` or `desc`.
    OrderDir,
    /// A `limit` outside `1 ..= max`.
    LimitRange {
        /// the largest limit accepted
        max: usize,
    },
}

impl fmt::Display for QueryProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotACount => f.write_str("not a non-negative decimal integer"),
            Self::TooLarge => f.write_str("too large"),
            Self::OrderBy => f.write_str("expected tvl or symbol"),
            Self::OrderDir => f.write_str("expected asc or desc"),
            Self::LimitRange { max } => write!(f, "outside 1 ..= {max}"),
        }
    }
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

    /// The stable code (the table at [`super::Error::code`]).
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
            Self::InvalidAddress { field, problem } => invalid_address(f, *field, *problem),
            Self::BadChecksum { field } => write!(
                f,
                "Invalid {} at {field}: mixed-case address with a wrong EIP-55 checksum (check for a typo)",
                address_kind(*field)
            ),
            Self::NotChecksummed { field } => write!(
                f,
                "Invalid {}: {field} must be an EIP-55 checksummed address",
                address_kind(*field)
            ),
            Self::EvmAddressOnChain101 { field } => evm_address_on_chain_101(f, *field),
            Self::InvalidAmount { index, problem } => {
                write!(f, "Invalid amount at inputTokens[{index}].amount: {problem}")
            }
            Self::InvalidProportion { index, problem } => invalid_proportion(f, *index, *problem),
            Self::ProportionsDoNotSumToOne { sum_e18 } => {
                f.write_str("outputTokens proportions must sum to exactly 1; they sum to ")?;
                fmt_e18(f, *sum_e18)
            }
            Self::InvalidSlippage { problem } => invalid_slippage(f, *problem),
            Self::TooManyInputTokens { given, max } => too_many(f, "inputTokens", *given, *max),
            Self::TooManyOutputTokens { given, max } => too_many(f, "outputTokens", *given, *max),
            Self::DuplicateInputToken { first, second } => {
                duplicate(f, "inputTokens", *first, *second, "amounts")
            }
            Self::DuplicateOutputToken { first, second } => {
                duplicate(f, "outputTokens", *first, *second, "proportions")
            }
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
                super::did_you_mean(f, suggestion.as_deref())
            }
            Self::StaleQuote { age_ms } => write!(
                f,
                "Stale quote: received {age_ms} ms ago, quotes are valid for 60 seconds; request a new quote and assemble its pathId"
            ),
            Self::InvalidQueryParam { name, value, why } => {
                write!(f, "query parameter {name}={value:?}: {why}")
            }
            Self::NoInputTokens
            | Self::NoOutputTokens
            | Self::EmptyWhitelist
            | Self::AllSourcesExcluded
            | Self::InvalidPathId
            | Self::UserAddrMismatch
            | Self::QuoteWithoutUserAddr => f.write_str(self.fixed_text()),
        }
    }
}

impl RequestError {
    /// The message of a variant without data (empty for the others).
    fn fixed_text(&self) -> &'static str {
        match self {
            Self::NoInputTokens => "inputTokens must not be empty",
            Self::NoOutputTokens => "outputTokens must not be empty",
            Self::EmptyWhitelist => "sourceWhitelist is empty; omit it to allow every source",
            Self::AllSourcesExcluded => {
                "sourceWhitelist and sourceBlacklist together exclude every liquidity source"
            }
            Self::InvalidPathId => "Invalid pathId",
            Self::UserAddrMismatch => "userAddr differs from the userAddr the quote was made for",
            Self::QuoteWithoutUserAddr => {
                "the quote was made without userAddr and cannot be assembled; quote again with userAddr"
            }
            _ => "",
        }
    }
}

/// What an address field holds, for messages: `userAddr` or a token address.
fn address_kind(field: Field) -> &'static str {
    if field == Field::UserAddr {
        "userAddr"
    } else {
        "token address"
    }
}

/// [`RequestError::InvalidAddress`].
fn invalid_address(
    f: &mut fmt::Formatter<'_>,
    field: Field,
    problem: AddressProblem,
) -> fmt::Result {
    if field == Field::UserAddr {
        write!(f, "Invalid userAddr: {problem}")
    } else {
        write!(f, "Invalid token address at {field}: {problem}")
    }
}

/// [`RequestError::EvmAddressOnChain101`].
fn evm_address_on_chain_101(f: &mut fmt::Formatter<'_>, field: Field) -> fmt::Result {
    if field == Field::UserAddr {
        f.write_str("Invalid userAddr: an EVM 0x address was given; chain 101 needs a base58 wallet address")
    } else {
        write!(f, "Invalid token address at {field}: an EVM 0x address was given; chain 101 needs a base58 mint address (check /info/tokens/101)")
    }
}

/// [`RequestError::InvalidProportion`], with the bound when the proportion is too large.
fn invalid_proportion(
    f: &mut fmt::Formatter<'_>,
    index: usize,
    problem: DecimalProblem,
) -> fmt::Result {
    write!(
        f,
        "Invalid proportion at outputTokens[{index}].proportion: {problem}"
    )?;
    if problem == DecimalProblem::TooLarge {
        f.write_str(" (at most 1)")?;
    }
    Ok(())
}

/// [`RequestError::InvalidSlippage`], with the bound when the slippage is too large.
fn invalid_slippage(f: &mut fmt::Formatter<'_>, problem: DecimalProblem) -> fmt::Result {
    write!(f, "Invalid slippageLimitPercent: {problem}")?;
    if problem == DecimalProblem::TooLarge {
        write!(f, " (at most {} percent)", MAX_SLIPPAGE_PERCENT)?;
    }
    Ok(())
}

/// [`RequestError::TooManyInputTokens`] / [`RequestError::TooManyOutputTokens`].
fn too_many(f: &mut fmt::Formatter<'_>, list: &str, given: usize, max: usize) -> fmt::Result {
    write!(f, "{list} has {given} entries, at most {max} are accepted")
}

/// [`RequestError::DuplicateInputToken`] / [`RequestError::DuplicateOutputToken`]: the
/// list, the two places, and what to merge.
fn duplicate(
    f: &mut fmt::Formatter<'_>,
    list: &str,
    first: usize,
    second: usize,
    merge: &str,
) -> fmt::Result {
    write!(
        f,
        "{list}[{second}] repeats the token of {list}[{first}]; merge the {merge}"
    )
}

#[cfg(feature = "std")]
impl std::error::Error for RequestError {}
