//! Chain facts of the service: the chain-101 id, the two deployments, and the spec's limits
//! that error messages name. This module sits at the units layer: it imports nothing of the
//! crate, so errors, requests and the graph can all depend on it.

use core::fmt;

/// The chain id of the chain-101 deployment.
pub const CHAIN_101: u64 = 101;

/// Largest `slippageLimitPercent` accepted, in percent (50 means 50 %).
pub const MAX_SLIPPAGE_PERCENT: u128 = 50;

/// Which deployment of the service a request is for. It decides the address format and which
/// fields apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Deployment {
    /// The general deployment: EVM-style chains, 0x hex addresses, swaps and zaps.
    Evm,
    /// The chain-101 deployment: base58 addresses; blacklist and `disableRFQs` accepted and not
    /// applied.
    Chain101,
}

impl Deployment {
    /// Whether `sourceBlacklist` is applied here (not on chain 101).
    #[must_use]
    pub fn applies_blacklist(self) -> bool {
        matches!(self, Self::Evm)
    }
}

impl fmt::Display for Deployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Evm => "EVM-style",
            Self::Chain101 => "chain-101",
        })
    }
}

/// Whether `id` names a known source once case and `_`/`-` are ignored: the suggestion for a
/// near miss such as `Uniswap_V2`.
pub(crate) fn near_source<'a>(id: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |c: char| {
        if c == '_' {
            '-'
        } else {
            c.to_ascii_lowercase()
        }
    };
    known.iter().copied().find(|k| {
        k.chars().count() == id.chars().count() && k.chars().map(norm).eq(id.chars().map(norm))
    })
}

/// Whether `id` follows the spec's rule for a liquidity source id: non-empty, hyphenated
/// (no underscore), no whitespace. Snapshots are loaded and sources listed by this rule.
#[must_use]
pub fn is_source_id(id: &str) -> bool {
    !id.is_empty() && !id.contains('_') && !id.chars().any(char::is_whitespace)
}
