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
    /// Uniswap V3 style concentrated liquidity (and its forks): `sqrt_price_x96`, `tick`,
    /// `liquidity`, `fee` in pips (millionths), `tick_spacing` and the initialised `ticks`.
    ConcentratedLiquidity,
}

/// An initialised tick of a concentrated-liquidity pool.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SnapshotTick {
    /// The tick index, decimal (may be negative).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub index: String,
    /// `liquidityNet`, decimal (may be negative).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub liquidity_net: String,
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
    /// Balances in base units, decimal strings, same order as `tokens` (concentrated-liquidity
    /// pools may leave it empty: their depth comes from the ticks).
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "num_str::de_vec")
    )]
    pub reserves: Vec<String>,
    /// LP token address (optional; defaults to the pool's own address).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub lp_token: Option<String>,
    /// LP total supply (optional; defaults to zero).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub total_supply: Option<String>,
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
    /// Concentrated liquidity: `slot0.sqrtPriceX96`.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub sqrt_price_x96: Option<String>,
    /// Concentrated liquidity: `slot0.tick` (may be negative).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub tick: Option<String>,
    /// Concentrated liquidity: active liquidity.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub liquidity: Option<String>,
    /// Concentrated liquidity: the tick spacing.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub tick_spacing: Option<String>,
    /// Concentrated liquidity: the initialised ticks the reader loaded, ascending. Often a
    /// window around the price: the pool treats the window's edges as the end of its range.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub ticks: Option<Vec<SnapshotTick>>,
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
        I(i64),
    }

    impl NumOrStr {
        fn into_string(self) -> String {
            match self {
                Self::S(s) => s,
                Self::N(n) => n.to_string(),
                Self::I(n) => n.to_string(),
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
