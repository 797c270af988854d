//! The spec's request bodies, field for field (serde behind the `serde` feature): they hold
//! what the client sent and check nothing.

use super::JsonDecimal;
use alloc::{string::String, vec::Vec};

/// An element of `inputTokens`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct InputToken {
    /// The token (or LP token) address.
    pub token_address: String,
    /// Amount in base units, as a decimal integer string.
    pub amount: String,
}

/// An element of `outputTokens`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct OutputToken {
    /// The token (or LP token) address.
    pub token_address: String,
    /// Share of the input for this output.
    pub proportion: JsonDecimal,
}

/// The quote request body of `POST /sor/quote/{v2,v3}[/zap]`, field names as the spec.
/// Optional fields are omitted when `None`. Unknown fields are refused (module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct QuoteRequest {
    /// Chain id; `101` for the chain-101 deployment.
    pub chain_id: u64,
    /// Inputs: token and amount.
    pub input_tokens: Vec<InputToken>,
    /// Outputs: token and proportion.
    pub output_tokens: Vec<OutputToken>,
    /// Maximum slippage in percent (0.5 means 0.5 %).
    pub slippage_limit_percent: JsonDecimal,
    /// The wallet; required to assemble the quote later.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub user_addr: Option<String>,
    /// Referral code.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub referral_code: Option<u64>,
    /// Compact response.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub compact: Option<bool>,
    /// Only these liquidity sources.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_whitelist: Option<Vec<String>>,
    /// Not these liquidity sources (not applied on chain 101).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_blacklist: Option<Vec<String>>,
    /// Disable RFQ sources (chain 101: accepted, RFQs are off anyway).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            rename = "disableRFQs",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub disable_rfqs: Option<bool>,
}

/// The body of `POST /sor/assemble`. Unknown fields are refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct AssembleRequest {
    /// The same address used to generate the quote.
    pub user_addr: String,
    /// From the quote response.
    pub path_id: String,
    /// Ask for a simulation object (informational on chain 101).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub simulate: Option<bool>,
}
