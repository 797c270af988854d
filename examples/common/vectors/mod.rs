//! Shared runner for the pool vector files of `../shared/vectors` and `../shared/vectors-cl`
//! (schema in `../shared/vectors/README.md`).
//! Used by `tests/` (via `#[path]`) and by `examples/verify_vectors.rs`.
//! Each family's checks live in their own file; this file only dispatches.
#![allow(dead_code, clippy::unwrap_used, clippy::arithmetic_side_effects)]

pub mod cl;
pub mod cp;
pub mod curve;
pub mod solidly;

use serde_json::Value;

/// Check one vector record against the library. `Ok(())` when every expected field matches.
///
/// # Errors
/// A human-readable description of the first mismatch.
pub fn check(v: &Value) -> Result<(), String> {
    match v["family"].as_str() {
        Some("uniswap_v2") => cp::check(v),
        Some("solidly") => solidly::check(v),
        Some("curve_stableswap" | "curve_stableswap_ng") => curve::check(v),
        Some("uniswap_v3") => cl::check(v),
        other => Err(format!("unknown family {other:?}")),
    }
}

/// Decimal-string field as U256.
pub fn u(v: &Value) -> swapzap::U256 {
    swapzap::U256::from_dec_str(v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))).unwrap()
}

/// List of decimal strings as U256s.
pub fn us(v: &Value) -> Vec<swapzap::U256> {
    v.as_array().unwrap().iter().map(u).collect()
}
