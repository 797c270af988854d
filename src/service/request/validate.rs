//! Validation of a [`QuoteRequest`] per deployment into a typed [`Request`], as named checks
//! run in body order: inputs, outputs, slippage, user, sources.

use super::{
    Address, Deployment, InputAmount, OutputShare, Proportion, QuoteRequest, Request, Slippage,
    SourceFilter, CHAIN_101, MAX_INPUT_TOKENS, MAX_OUTPUT_TOKENS, ONE_E18,
};
use crate::error::{AmountProblem, Error, Field, RequestError};
use alloc::{borrow::ToOwned, string::String, vec::Vec};
use primitive_types::U256;

impl Deployment {
    /// The deployment serving `chain_id`: [`CHAIN_101`] is [`Deployment::Chain101`], every other
    /// non-zero id is [`Deployment::Evm`].
    ///
    /// # Errors
    /// [`RequestError::UnsupportedChain`] for chain id 0.
    pub fn for_chain(chain_id: u64) -> Result<Self, RequestError> {
        match chain_id {
            0 => Err(RequestError::UnsupportedChain { chain_id }),
            CHAIN_101 => Ok(Self::Chain101),
            _ => Ok(Self::Evm),
        }
    }
}

fn check_sources(
    list: &[String],
    known: &[&str],
    field: fn(usize) -> Field,
) -> Result<(), RequestError> {
    for (i, id) in list.iter().enumerate() {
        if !known.iter().any(|k| k == id) {
            return Err(RequestError::UnknownSource {
                field: field(i),
                id: id.clone(),
                suggestion: crate::chain::near_source(id, known).map(ToOwned::to_owned),
            });
        }
    }
    Ok(())
}

/// A list of `n` entries holds 1 to `max`: `none` when empty, `too_many(n, max)` when longer.
fn check_len(
    n: usize,
    max: usize,
    none: RequestError,
    too_many: impl FnOnce(usize, usize) -> RequestError,
) -> Result<(), RequestError> {
    if n == 0 {
        return Err(none);
    }
    if n > max {
        return Err(too_many(n, max));
    }
    Ok(())
}

fn parse_amount(s: &str) -> Result<U256, AmountProblem> {
    if s.is_empty() {
        return Err(AmountProblem::Empty);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountProblem::NotAnInteger);
    }
    if s.bytes().all(|b| b == b'0') {
        return Err(AmountProblem::Zero);
    }
    if s.starts_with('0') {
        return Err(AmountProblem::LeadingZero);
    }
    crate::units::parse_u256_dec(s).ok_or(AmountProblem::TooLarge)
}

impl QuoteRequest {
    /// Validate into a typed [`Request`] for the deployment that `chainId` names (see
    /// [`Deployment::for_chain`]). `known_sources` are the liquidity source ids of that
    /// deployment (the library keeps no list of its own).
    ///
    /// Checks run in body order (chain, inputs, outputs, slippage, user, sources) and the first
    /// failure is returned.
    ///
    /// # Errors
    /// [`Error::Request`] with the [`RequestError`] naming the field; see the module docs for
    /// every rule.
    pub fn validate(&self, known_sources: &[&str]) -> Result<Request, Error> {
        let deployment = Deployment::for_chain(self.chain_id)?;
        self.validate_inner(deployment, known_sources)
            .map_err(Error::Request)
    }

    /// [`QuoteRequest::validate`] on an endpoint of one deployment: a body whose `chainId`
    /// belongs to the other deployment is refused.
    ///
    /// # Errors
    /// [`RequestError::WrongDeployment`], and those of [`QuoteRequest::validate`].
    pub fn validate_for(
        &self,
        deployment: Deployment,
        known_sources: &[&str],
    ) -> Result<Request, Error> {
        let d = Deployment::for_chain(self.chain_id)?;
        if d != deployment {
            return Err(RequestError::WrongDeployment {
                chain_id: self.chain_id,
                deployment,
            }
            .into());
        }
        self.validate_inner(d, known_sources)
            .map_err(Error::Request)
    }

    fn validate_inner(
        &self,
        deployment: Deployment,
        known_sources: &[&str],
    ) -> Result<Request, RequestError> {
        let inputs = self.check_inputs(deployment)?;
        let outputs = self.check_outputs(deployment, &inputs)?;
        let slippage = self.check_slippage()?;
        let user_addr = self.check_user(deployment)?;
        let sources = self.check_source_filter(deployment, known_sources)?;
        Ok(Request {
            chain_id: self.chain_id,
            deployment,
            inputs,
            outputs,
            slippage,
            user_addr,
            referral_code: self.referral_code,
            compact: self.compact.unwrap_or(false),
            sources,
            disable_rfqs: self.disable_rfqs.unwrap_or(false),
        })
    }

    /// `inputTokens`: 1 to [`MAX_INPUT_TOKENS`] entries, each a token of `deployment`'s format
    /// (no token twice) with a canonical amount.
    fn check_inputs(&self, deployment: Deployment) -> Result<Vec<InputAmount>, RequestError> {
        let n_in = self.input_tokens.len();
        check_len(
            n_in,
            MAX_INPUT_TOKENS,
            RequestError::NoInputTokens,
            |given, max| RequestError::TooManyInputTokens { given, max },
        )?;
        let mut inputs: Vec<InputAmount> = Vec::with_capacity(n_in);
        for (i, e) in self.input_tokens.iter().enumerate() {
            let token = Address::parse(&e.token_address, deployment, false)
                .map_err(|err| err.at(Field::InputTokenAddress(i)))?;
            if let Some(first) = inputs.iter().position(|x| x.token == token) {
                return Err(RequestError::DuplicateInputToken { first, second: i });
            }
            let amount = parse_amount(&e.amount)
                .map_err(|problem| RequestError::InvalidAmount { index: i, problem })?;
            inputs.push(InputAmount { token, amount });
        }
        Ok(inputs)
    }

    /// `outputTokens`: 1 to [`MAX_OUTPUT_TOKENS`] entries, no token twice nor an input, exact
    /// proportions summing to 1.
    fn check_outputs(
        &self,
        deployment: Deployment,
        inputs: &[InputAmount],
    ) -> Result<Vec<OutputShare>, RequestError> {
        let n_out = self.output_tokens.len();
        check_len(
            n_out,
            MAX_OUTPUT_TOKENS,
            RequestError::NoOutputTokens,
            |given, max| RequestError::TooManyOutputTokens { given, max },
        )?;
        let mut outputs: Vec<OutputShare> = Vec::with_capacity(n_out);
        let mut sum: u128 = 0;
        for (i, e) in self.output_tokens.iter().enumerate() {
            let token = Address::parse(&e.token_address, deployment, false)
                .map_err(|err| err.at(Field::OutputTokenAddress(i)))?;
            if let Some(first) = outputs.iter().position(|x| x.token == token) {
                return Err(RequestError::DuplicateOutputToken { first, second: i });
            }
            if let Some(input) = inputs.iter().position(|x| x.token == token) {
                return Err(RequestError::InputIsOutput { input, output: i });
            }
            let proportion = e
                .proportion
                .to_e18()
                .and_then(Proportion::from_e18)
                .map_err(|problem| RequestError::InvalidProportion { index: i, problem })?;
            // Each part <= 10^18 and at most MAX_OUTPUT_TOKENS of them: no overflow; checked
            // all the same.
            sum = sum
                .checked_add(u128::from(proportion.parts()))
                .ok_or(RequestError::ProportionsDoNotSumToOne { sum_e18: u128::MAX })?;
            outputs.push(OutputShare { token, proportion });
        }
        if sum != ONE_E18 {
            return Err(RequestError::ProportionsDoNotSumToOne { sum_e18: sum });
        }
        Ok(outputs)
    }

    /// `slippageLimitPercent`: an exact percent within the bound.
    fn check_slippage(&self) -> Result<Slippage, RequestError> {
        self.slippage_limit_percent
            .to_e18()
            .and_then(Slippage::from_percent_e18)
            .map_err(|problem| RequestError::InvalidSlippage { problem })
    }

    /// `userAddr`, when given: `deployment`'s format, EIP-55 on EVM chains.
    fn check_user(&self, deployment: Deployment) -> Result<Option<Address>, RequestError> {
        self.user_addr
            .as_ref()
            .map(|s| Address::parse(s, deployment, true).map_err(|err| err.at(Field::UserAddr)))
            .transpose()
    }

    /// `sourceWhitelist` (non-empty, every id known) and `sourceBlacklist` into the filter;
    /// refused when it leaves none of `known_sources`.
    fn check_source_filter(
        &self,
        deployment: Deployment,
        known_sources: &[&str],
    ) -> Result<SourceFilter, RequestError> {
        if let Some(w) = &self.source_whitelist {
            if w.is_empty() {
                return Err(RequestError::EmptyWhitelist);
            }
            check_sources(w, known_sources, Field::SourceWhitelist)?;
        }
        let sources = SourceFilter {
            whitelist: self.source_whitelist.clone(),
            blacklist: self.source_blacklist.clone(),
            apply_blacklist: deployment.applies_blacklist(),
        };
        // With a whitelist, `known_sources` is non-empty here (every id was found in it).
        if !known_sources.is_empty() && !known_sources.iter().any(|k| sources.allows(k)) {
            return Err(RequestError::AllSourcesExcluded);
        }
        Ok(sources)
    }
}
