//! The spec's request bodies as types, and their validation into typed values.
//!
//! Two layers:
//!
//! 1. **Bodies** ([`QuoteRequest`], [`AssembleRequest`]): the JSON of
//!    `POST /sor/quote/...` and `POST /sor/assemble`, field for field, with serde behind the
//!    `serde` feature. They hold strings and numbers as the client sent them and check nothing.
//! 2. **Typed values** ([`Request`]): what [`QuoteRequest::validate`] makes of a body, per
//!    deployment: parsed [`Address`]es, amounts as `U256`, exact [`Proportion`]s and
//!    [`Slippage`], the [`SourceFilter`] to apply and the flags. Every failure is a typed
//!    [`RequestError`] naming the field (as a JSON path such as `inputTokens[1].amount`).
//!
//! The deployment follows `chainId`: `101` is the chain-101 deployment (base58 addresses),
//! every other non-zero chain id is an EVM-style chain (0x hex addresses).
//!
//! # Files
//!
//! | file | what it holds |
//! |---|---|
//! | `body.rs` | the bodies ([`QuoteRequest`], [`AssembleRequest`] and their elements) with serde |
//! | `address.rs` | [`Address`]: EVM hex with the EIP-55 checksum, chain-101 base58 |
//! | `decimal.rs` | [`JsonDecimal`] read exactly into [`Proportion`] and [`Slippage`] |
//! | `validate.rs` | [`QuoteRequest::validate`] as named checks (inputs, outputs, slippage, user, sources) |
//! | `typed.rs` | the validated [`Request`] and its parts, and its way back to a body |
//! | `assemble.rs` | the quote's lifetime ([`is_stale`]) and [`check_assemble`] |
//!
//! # Unknown fields
//!
//! A body with a field the spec does not name is **rejected** (serde `deny_unknown_fields`): a
//! misspelt optional field (`sourceWhiteList`, `slippageLimitPercentage`) would otherwise be
//! dropped silently and the quote would route with looser filters or a default the client did
//! not choose. The transport turns the serde error into [`RequestError::MalformedBody`].
//!
//! # Rules and bounds (the spec leaves them open; these are ours)
//!
//! | rule | value |
//! |---|---|
//! | `inputTokens` | 1 to [`MAX_INPUT_TOKENS`] entries, no token twice |
//! | `outputTokens` | 1 to [`MAX_OUTPUT_TOKENS`] entries, no token twice, none also an input |
//! | `amount` | canonical base-unit integer string: digits only, no leading zero, `> 0`, `< 2^256` |
//! | `proportion` | exact decimal, `> 0`, at most 18 decimals; they sum exactly to 1 |
//! | `slippageLimitPercent` | exact decimal percent, `0 <= s <=` [`MAX_SLIPPAGE_PERCENT`], at most 18 decimals |
//! | `userAddr` | optional at quote time; EVM: exact EIP-55 checksum form; chain 101: base58, 32 bytes |
//! | token addresses | EVM: 0x + 40 hex, all-lower, all-upper or a valid EIP-55 mixed case; chain 101: base58, 32 bytes |
//! | `sourceWhitelist` | non-empty; every id a known source id (case-sensitive, hyphenated) |
//! | `sourceBlacklist` | any ids (an unknown id excludes nothing); applied on EVM chains, accepted and not applied on chain 101 |
//! | `disableRFQs` | accepted everywhere; on chain 101 RFQs are off anyway |
//!
//! # Numbers
//!
//! A JSON number reaches serde as an `f64`. Its shortest round-trip decimal text (Rust's `{}`)
//! is the literal the client typed whenever that literal has at most 15 significant digits,
//! and that text is parsed **exactly** (`0.8` is 4/5, never the double nearest to it). Longer
//! literals are read as the shortest decimal of their double (and a JSON reader that is not
//! correctly rounded, such as serde_json without `float_roundtrip`, may be one ulp off there);
//! clients who need more digits send the number as a JSON string
//! (`"0.333333333333333333"`), which is parsed exactly too.
//!
//! # Example
//!
//! ```
//! use swapzap::service::request::{InputToken, JsonDecimal, OutputToken, QuoteRequest};
//!
//! let body = QuoteRequest {
//!     chain_id: 1,
//!     input_tokens: vec![InputToken {
//!         token_address: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2".into(),
//!         amount: "1000000000000000000".into(),
//!     }],
//!     output_tokens: vec![OutputToken {
//!         token_address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48".into(),
//!         proportion: JsonDecimal::Number(1.0),
//!     }],
//!     slippage_limit_percent: JsonDecimal::Number(0.5),
//!     user_addr: None,
//!     referral_code: None,
//!     compact: None,
//!     source_whitelist: None,
//!     source_blacklist: None,
//!     disable_rfqs: None,
//! };
//! let req = body.validate(&["uniswap-v2", "curve"]).unwrap();
//! // 0.5 % slippage: the minimum of 1000 is 995.
//! assert_eq!(req.min_amount_out(1000u32.into()), 995u32.into());
//! ```
//!
//! [`RequestError`]: crate::error::RequestError
//! [`RequestError::MalformedBody`]: crate::error::RequestError::MalformedBody

mod address;
mod assemble;
mod body;
mod decimal;
mod typed;
mod validate;

pub use address::{Address, AddressError};
pub use assemble::{check_assemble, is_stale, Assemble, MAX_PATH_ID_LEN};
pub use body::{AssembleRequest, InputToken, OutputToken, QuoteRequest};
pub(crate) use decimal::format_e18;
pub use decimal::{JsonDecimal, Proportion, Slippage};
pub use typed::{InputAmount, OutputShare, Request, SourceFilter};

pub use crate::chain::Deployment;
pub(crate) use crate::chain::{CHAIN_101, MAX_SLIPPAGE_PERCENT};

/// Most entries in `inputTokens`.
pub const MAX_INPUT_TOKENS: usize = 16;

/// Most entries in `outputTokens`.
pub const MAX_OUTPUT_TOKENS: usize = 16;

/// Most decimal places read in a proportion or a slippage percent (trailing zeros beyond it
/// are fine). Both are held exactly in units of `10^-18`.
pub(crate) const DECIMAL_PLACES: u32 = 18;

/// `10^18`: one whole in the fixed-point units of [`Proportion`] and [`Slippage`].
pub(crate) const ONE_E18: u128 = 1_000_000_000_000_000_000;

/// How long a quote can be assembled, in milliseconds (spec: 60 seconds from when the quote is
/// received).
pub const QUOTE_TTL_MS: u64 = 60_000;
