//! The validated request: typed inputs, outputs, slippage and source filter.

use super::{
    Address, Deployment, InputToken, JsonDecimal, OutputToken, Proportion, QuoteRequest, Slippage,
};
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use primitive_types::U256;

/// A validated input: token and exact amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputAmount {
    /// The token (or LP token).
    pub token: Address,
    /// Base units, `0 < amount < 2^256`.
    pub amount: U256,
}

/// A validated output: token and exact proportion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutputShare {
    /// The token (or LP token).
    pub token: Address,
    /// Its share; the shares of a request sum exactly to 1.
    pub proportion: Proportion,
}

/// The liquidity sources a request may route through.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SourceFilter {
    /// `Some(ids)`: only these sources (every id known, the list non-empty). `None`: all.
    pub whitelist: Option<Vec<String>>,
    /// The blacklist as given (kept so the body can be written back).
    pub blacklist: Option<Vec<String>>,
    /// Whether [`SourceFilter::blacklist`] is applied (`false` on chain 101).
    pub apply_blacklist: bool,
}

impl SourceFilter {
    /// Whether source `id` may be used (case-sensitive).
    #[must_use]
    pub fn allows(&self, id: &str) -> bool {
        let white = self
            .whitelist
            .as_ref()
            .map_or(true, |w| w.iter().any(|x| x == id));
        let black = self.apply_blacklist
            && self
                .blacklist
                .as_ref()
                .is_some_and(|b| b.iter().any(|x| x == id));
        white && !black
    }
}

/// A validated quote request: everything the router needs, typed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Request {
    /// The chain id as given.
    pub chain_id: u64,
    /// The deployment it follows from.
    pub deployment: Deployment,
    /// Inputs, in the body's order; no token twice.
    pub inputs: Vec<InputAmount>,
    /// Outputs, in the body's order; no token twice, none an input; proportions sum to 1.
    pub outputs: Vec<OutputShare>,
    /// Slippage limit.
    pub slippage: Slippage,
    /// The wallet, when given (needed to assemble).
    pub user_addr: Option<Address>,
    /// Referral code, passed through.
    pub referral_code: Option<u64>,
    /// `compact` (default false).
    pub compact: bool,
    /// The sources to route through.
    pub sources: SourceFilter,
    /// `disableRFQs` as given (default false). See [`Request::rfqs_enabled`].
    pub disable_rfqs: bool,
}

impl Request {
    /// `floor(amount * (1 - slippage))`: the minimum output for a quoted `amount`, rounded
    /// down (see [`Slippage::min_amount_out`]). The plan's `min_amount` comes from here.
    #[must_use]
    pub fn min_amount_out(&self, amount: U256) -> U256 {
        self.slippage.min_amount_out(amount)
    }

    /// Whether RFQ sources may be used: never on chain 101 (off by default there), otherwise
    /// unless `disableRFQs`.
    #[must_use]
    pub fn rfqs_enabled(&self) -> bool {
        self.deployment == Deployment::Evm && !self.disable_rfqs
    }

    /// The body this request reads back from: addresses in canonical form (EIP-55 / base58),
    /// numbers as JSON numbers when exact through `f64`, else strings; defaults omitted.
    /// `validate(to_body(r)) == r` for every valid `r`.
    #[must_use]
    pub fn to_body(&self) -> QuoteRequest {
        QuoteRequest {
            chain_id: self.chain_id,
            input_tokens: self
                .inputs
                .iter()
                .map(|i| InputToken {
                    token_address: i.token.to_string(),
                    amount: i.amount.to_string(),
                })
                .collect(),
            output_tokens: self
                .outputs
                .iter()
                .map(|o| OutputToken {
                    token_address: o.token.to_string(),
                    proportion: JsonDecimal::from_e18(u128::from(o.proportion.parts())),
                })
                .collect(),
            slippage_limit_percent: JsonDecimal::from_e18(self.slippage.percent_e18()),
            user_addr: self.user_addr.map(|a| a.to_string()),
            referral_code: self.referral_code,
            compact: self.compact.then_some(true),
            source_whitelist: self.sources.whitelist.clone(),
            source_blacklist: self.sources.blacklist.clone(),
            disable_rfqs: self.disable_rfqs.then_some(true),
        }
    }
}
