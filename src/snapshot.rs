//! [`Snapshot`]: the pool snapshot a quote is computed on, as a plain value.
//!
//! The schema is the one of the routing benchmark (`../shared/routing/README.md`, section 2):
//! tokens with address and decimals, pools with an id `"<source>:0x<40 hex>"`, a source, a kind
//! and integer fields as decimal strings. Nothing here is validated: [`crate::graph::PoolGraph`]
//! turns a snapshot into dense ids and exact pools and returns a typed
//! [`crate::error::RouteError`] for anything malformed.
//!
//! With the `serde` feature the types read the benchmark's JSON as it is; integer fields accept
//! decimal strings or JSON numbers.

use alloc::string::String;
use alloc::vec::Vec;

/// A token of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SnapshotToken {
    /// `0x` + 40 hex digits on EVM chains (compared case-insensitively), base58 on chain 101.
    pub address: String,
    /// Display symbol (informational).
    #[cfg_attr(feature = "serde", serde(default))]
    pub symbol: String,
    /// Decimals of the base unit.
    pub decimals: u8,
}

/// The pool family of a snapshot pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PoolKind {
    /// Uniswap V2 style x·y = k, fee on the input kept in the pool (the default).
    #[default]
    ConstantProduct,
    /// Velodrome V2 / Aerodrome, volatile or stable; the fee leaves the pool.
    Solidly,
    /// Curve stable-swap with 2 or more coins.
    Stableswap,
}

/// A fraction `num / den` (the constant-product fee).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeeFraction {
    /// numerator, decimal string
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub num: String,
    /// denominator, decimal string
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub den: String,
}

/// The `fee` field: a fraction for constant-product pools, an integer (1e10 units) for Curve.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum FeeField {
    /// `{"num": "3", "den": "1000"}`
    Fraction(FeeFraction),
    /// `"4000000"` (Curve, 1e10 units)
    Units(#[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))] String),
}

/// A pool of the snapshot. Kind-specific fields are optional here and required by
/// [`crate::graph::PoolGraph::from_snapshot`] for their kind.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SnapshotPool {
    /// Unique id, `"<source>:0x<40 hex>"`.
    pub id: String,
    /// Liquidity source id (`uniswap-v2`, `aerodrome`, `curve`, ...), compared case-sensitively.
    pub source: String,
    /// Pool family.
    pub kind: PoolKind,
    /// Token addresses in the pool's own coin order.
    pub tokens: Vec<String>,
    /// Balances in base units, decimal strings, same order as `tokens`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de_vec"))]
    pub reserves: Vec<String>,
    /// LP token address (optional; defaults to the pool's own address).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub lp_token: Option<String>,
    /// LP total supply (optional). Without it swaps work, but LP operations on the pool (mint,
    /// burn, zaps into or out of it) are refused: a made-up supply would mint and burn made-up
    /// amounts ([`crate::graph::PoolInfo::supply_known`]).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub total_supply: Option<String>,
    /// Constant-product (Uniswap V2): the pair's `kLast` (optional; default 0), used by the
    /// protocol-fee mint (`_mintFee`) of mint and burn.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub k_last: Option<String>,
    /// Constant-product (Uniswap V2): whether the factory's `feeTo` is set (optional; default
    /// false), so mint and burn first mint the protocol fee on the growth of √k since `kLast`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub fee_on: Option<bool>,
    /// Constant-product fee fraction, or Curve fee in 1e10 units.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub fee: Option<FeeField>,
    /// Solidly: stable (x³y + xy³) or volatile (x·y).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stable: Option<bool>,
    /// Solidly: fee in basis points.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub fee_bps: Option<String>,
    /// Solidly: decimals of the two tokens (defaults to the token table's).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub decimals: Option<Vec<u8>>,
    /// Curve: amplification already multiplied by `a_precision`.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub a: Option<String>,
    /// Curve: A_PRECISION (default 100).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub a_precision: Option<String>,
    /// Curve: `10^(36 - decimals)` per coin (defaults from the token table's decimals).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt_vec",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub rates: Option<Vec<String>>,
    /// Curve: admin share of the fee, 1e10 units (default 0).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub admin_fee: Option<String>,
    /// Curve: contract variant (`"classic"` default, `"3pool"`, `"ng"`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub variant: Option<String>,
    /// Curve NG: off-peg fee multiplier, 1e10 units (default 1e10 = none).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub offpeg_fee_multiplier: Option<String>,
}

/// A pool snapshot: the chain, its tokens and pools.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Snapshot {
    /// Chain id (1, 10, 8453, ..., 101 for the non-EVM deployment).
    pub chain_id: u64,
    /// Token table.
    pub tokens: Vec<SnapshotToken>,
    /// Pools.
    pub pools: Vec<SnapshotPool>,
}

/// serde helpers: integer fields given as decimal strings or JSON numbers, kept as strings.
#[cfg(feature = "serde")]
mod num_str {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use serde::{Deserialize, Deserializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrStr {
        S(String),
        N(u64),
    }

    impl NumOrStr {
        fn into_string(self) -> String {
            match self {
                Self::S(s) => s,
                Self::N(n) => n.to_string(),
            }
        }
    }

    pub(super) fn de<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        NumOrStr::deserialize(d).map(NumOrStr::into_string)
    }

    pub(super) fn de_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        Vec::<NumOrStr>::deserialize(d).map(|v| v.into_iter().map(NumOrStr::into_string).collect())
    }

    pub(super) fn de_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Option::<NumOrStr>::deserialize(d).map(|v| v.map(NumOrStr::into_string))
    }

    pub(super) fn de_opt_vec<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<String>>, D::Error> {
        Option::<Vec<NumOrStr>>::deserialize(d)
            .map(|v| v.map(|v| v.into_iter().map(NumOrStr::into_string).collect()))
    }
}
