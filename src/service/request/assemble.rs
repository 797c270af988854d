//! The quote's lifetime and the assemble body's checks.

use super::{Address, AssembleRequest, Deployment, QUOTE_TTL_MS};
use crate::error::{Error, Field, RequestError};
use alloc::string::String;

/// Whether a quote received at `quoted_at_ms` is stale at `now_ms` (both milliseconds on the
/// transport's clock; the library has none). Stale once [`QUOTE_TTL_MS`] or more have passed:
/// a quote is valid for ages `0 ..= 59_999` ms. A `now_ms` before `quoted_at_ms` (clock skew
/// between instances) counts as age 0, fresh. Overflow-safe for every input.
#[must_use]
pub fn is_stale(quoted_at_ms: u64, now_ms: u64) -> bool {
    now_ms.saturating_sub(quoted_at_ms) >= QUOTE_TTL_MS
}

/// The age of a quote in milliseconds (0 when `now_ms` is before `quoted_at_ms`).
#[must_use]
pub fn quote_age_ms(quoted_at_ms: u64, now_ms: u64) -> u64 {
    now_ms.saturating_sub(quoted_at_ms)
}

/// Longest accepted `pathId`, in bytes. The transport makes path ids; this only bounds what a
/// client can send back.
pub const MAX_PATH_ID_LEN: usize = 256;

/// An assemble body that passed [`check_assemble`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assemble {
    /// The wallet, the quote's own.
    pub user_addr: Address,
    /// The path id as sent.
    pub path_id: String,
    /// Whether a simulation was asked for.
    pub simulate: bool,
}

/// Check an assemble body against the quote its `pathId` found: `pathId` well-formed, the quote
/// not stale at `now_ms` (see [`is_stale`]), `userAddr` valid for `deployment` (EIP-55 on EVM
/// chains) and the same address the quote was made for.
///
/// Check order: `pathId`, staleness, `userAddr` format, quote had a user, same user.
///
/// # Errors
/// [`RequestError::InvalidPathId`], [`RequestError::StaleQuote`], an address error at
/// `userAddr`, [`RequestError::QuoteWithoutUserAddr`], [`RequestError::UserAddrMismatch`].
pub fn check_assemble(
    req: &AssembleRequest,
    deployment: Deployment,
    quote_user_addr: Option<&Address>,
    quoted_at_ms: u64,
    now_ms: u64,
) -> Result<Assemble, Error> {
    let p = &req.path_id;
    if p.is_empty() || p.len() > MAX_PATH_ID_LEN || !p.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(RequestError::InvalidPathId.into());
    }
    if is_stale(quoted_at_ms, now_ms) {
        return Err(RequestError::StaleQuote {
            age_ms: quote_age_ms(quoted_at_ms, now_ms),
        }
        .into());
    }
    let user = Address::parse(&req.user_addr, deployment, true)
        .map_err(|e| Error::Request(e.at(Field::UserAddr)))?;
    let Some(quoted) = quote_user_addr else {
        return Err(RequestError::QuoteWithoutUserAddr.into());
    };
    if *quoted != user {
        return Err(RequestError::UserAddrMismatch.into());
    }
    Ok(Assemble {
        user_addr: user,
        path_id: req.path_id.clone(),
        simulate: req.simulate.unwrap_or(false),
    })
}
