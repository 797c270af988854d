//! [`Snapshot`]: the pool snapshot a quote is computed on, as a plain value.
//!
//! The schema is the one of the routing benchmark (`../shared/routing/README.md`, section 2):
//! tokens with address and decimals, pools with an id `"<source>:0x<40 hex>"`, a source, a kind
//! and integer fields as decimal strings. Nothing here is validated: [`crate::graph::PoolGraph`]
//! turns a snapshot into dense ids and exact pools and returns a typed
//! [`crate::error::SnapshotError`] for anything malformed.
//!
//! With the `serde` feature the types read the benchmark's JSON as it is; integer fields accept
//! decimal strings or JSON integers (a number with a fraction or exponent is refused, and the
//! parser's error gives its line and column). Unknown keys are refused on every object (a
//! misspelt `fee` is an error, never a silent default). A text that starts with a UTF-8
//! byte-order mark is read after it: pass it through [`strip_bom`] before parsing.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// The snapshot text without a leading UTF-8 byte-order mark (U+FEFF), as editors on some
/// systems write one; JSON parsers refuse it. Any other text is returned unchanged.
#[must_use]
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A token of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
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
    /// Chain 101: SPL Token Swap, constant-product curve (`reserves`, `total_supply`, `fees`
    /// with the program's eight fields).
    SplTokenSwap,
    /// Chain 101: Saber StableSwap (`reserves`, `total_supply`, the amplification ramp with
    /// `current_ts`, `fees` with the pool's eight fields).
    SaberStableswap,
    /// Chain 101: Orca Whirlpool (`sqrt_price`, `tick_current_index`, `liquidity`,
    /// `fee_rate`, `tick_spacing`, `tick_arrays`; `reserves` are the vault balances, for
    /// display only).
    OrcaWhirlpool,
    /// Uniswap V3 style concentrated liquidity (and its forks): `sqrt_price_x96`, `tick`,
    /// `liquidity`, `fee` in pips (millionths), `tick_spacing` and the initialised `ticks`
    /// (`index`, `liquidity_net`); `reserves` may be left out.
    ConcentratedLiquidity,
}

/// One initialised tick of an Orca tick array or of a concentrated-liquidity pool (decimal
/// strings; `liquidity_net` is signed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SnapshotTick {
    /// Tick index.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub index: String,
    /// Net liquidity (i128).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub liquidity_net: String,
    /// Gross liquidity (u128; Orca requires it, concentrated-liquidity pools may leave it out).
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "num_str::de"))]
    pub liquidity_gross: String,
}

/// An Orca tick array: its start and its initialised ticks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SnapshotTickArray {
    /// First tick of the array (a multiple of 88 · spacing).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "num_str::de"))]
    pub start_tick_index: String,
    /// Initialised ticks.
    #[cfg_attr(feature = "serde", serde(default))]
    pub ticks: Vec<SnapshotTick>,
}

/// A fraction `num / den` (the constant-product fee).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
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
/// [`crate::graph::PoolGraph::from_snapshot`] for their kind; a field of another kind is
/// refused there ([`crate::error::SnapshotError::UnknownField`]), never ignored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
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
    /// Chain 101 (SPL Token Swap, Saber): the program's fee fields by name
    /// (`trade_fee_numerator`, ...), decimal strings.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt_map",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub fees: Option<BTreeMap<String, String>>,
    /// SPL Token Swap: curve type (only `constant_product`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub curve_type: Option<String>,
    /// Saber: A before the ramp (whole A, no precision).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub initial_amp_factor: Option<String>,
    /// Saber: A after the ramp.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub target_amp_factor: Option<String>,
    /// Saber: ramp start, unix seconds (default 0).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub start_ramp_ts: Option<String>,
    /// Saber: ramp stop, unix seconds (default 0: no ramp).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub stop_ramp_ts: Option<String>,
    /// Saber: the time the snapshot prices the pool at, unix seconds (required while a ramp runs; the library reads no clock).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub current_ts: Option<String>,
    /// Orca: √price, Q64.64.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub sqrt_price: Option<String>,
    /// Orca: the stored current tick (signed).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub tick_current_index: Option<String>,
    /// Orca and concentrated liquidity: active liquidity.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub liquidity: Option<String>,
    /// Orca: fee in millionths.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub fee_rate: Option<String>,
    /// Orca: protocol share of the fee, basis points (default 0; metadata).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub protocol_fee_rate: Option<String>,
    /// Orca and concentrated liquidity: tick spacing.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "num_str::de_opt",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub tick_spacing: Option<String>,
    /// Orca: the tick arrays quotes may cross (contiguous).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tick_arrays: Option<Vec<SnapshotTickArray>>,
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
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
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
    use alloc::collections::BTreeMap;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use serde::{Deserialize, Deserializer};

    /// An integer field: a decimal string (checked later, with the pool and field named) or a
    /// JSON integer; anything else is refused here with the parser's position.
    enum NumOrStr {
        S(String),
        N(u64),
        I(i64),
    }

    struct NumOrStrVisitor;

    impl serde::de::Visitor<'_> for NumOrStrVisitor {
        type Value = NumOrStr;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("an integer, as a decimal string or a JSON integer")
        }

        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<NumOrStr, E> {
            Ok(NumOrStr::S(v.to_string()))
        }

        fn visit_string<E: serde::de::Error>(self, v: String) -> Result<NumOrStr, E> {
            Ok(NumOrStr::S(v))
        }

        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<NumOrStr, E> {
            Ok(NumOrStr::N(v))
        }

        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<NumOrStr, E> {
            Ok(NumOrStr::I(v))
        }
    }

    impl<'de> Deserialize<'de> for NumOrStr {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(NumOrStrVisitor)
        }
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

    /// A map of integer fields whose keys are all different: a repeated key is refused (a
    /// map would keep the last one silently).
    struct StrictMap(BTreeMap<String, String>);

    struct StrictMapVisitor;

    impl<'de> serde::de::Visitor<'de> for StrictMapVisitor {
        type Value = StrictMap;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a map of integers, as decimal strings or JSON integers")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<StrictMap, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(k) = m.next_key::<String>()? {
                let v: NumOrStr = m.next_value()?;
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(alloc::format!(
                        "duplicate key `{k}`"
                    )));
                }
                out.insert(k, v.into_string());
            }
            Ok(StrictMap(out))
        }
    }

    impl<'de> Deserialize<'de> for StrictMap {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(StrictMapVisitor)
        }
    }

    pub(super) fn de_opt_map<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<BTreeMap<String, String>>, D::Error> {
        Option::<StrictMap>::deserialize(d).map(|m| m.map(|m| m.0))
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
