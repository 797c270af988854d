//! Shared runner for the pool vector files of `../shared/vectors`, `../shared/vectors-cl` and
//! `../shared/vectors-101` (schemas in their READMEs).
//! Used by `tests/` (via `#[path]`) and by `examples/verify_vectors.rs`.
//! Each family's checks live in their own file; this file only dispatches.
#![allow(dead_code, clippy::unwrap_used, clippy::arithmetic_side_effects)]

pub mod cl;
pub mod cp;
pub mod curve;
pub mod orca;
pub mod saber;
pub mod solidly;
pub mod spl;

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
        Some("saber_stableswap") => saber::check(v),
        Some("spl_token_swap") => spl::check(v),
        Some("orca_whirlpool") => orca::check(v),
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

/// Compare a library result with a record's `expect`: a revert where one is expected, else
/// `expect.ok` not false and every listed field accepted by `field(name, value)`.
///
/// # Errors
/// A description of the first mismatch.
pub fn compare_by<T: std::fmt::Debug>(
    id: &Value,
    e: &Value,
    reverts: bool,
    got: Result<Vec<(&str, T)>, swapzap::PoolError>,
    mut field: impl FnMut(&str, T) -> Result<(), String>,
) -> Result<(), String> {
    match (reverts, got) {
        (true, Err(_)) => Ok(()),
        (true, Ok(vals)) => Err(format!(
            "{id}: expected a revert ({}), got {vals:?}",
            e["reason"]
        )),
        (false, Err(err)) => Err(format!("{id}: unexpected error {err:?}")),
        (false, Ok(vals)) => {
            if e["ok"].as_bool() == Some(false) {
                return Err(format!("{id}: expect.ok is false without a revert"));
            }
            vals.into_iter().try_for_each(|(what, v)| field(what, v))
        }
    }
}

/// A two-coin swap's `balances_after` in coin order, from the source and destination balances.
pub fn balances_after<T: Into<swapzap::U256>>(i: usize, src: T, dst: T) -> Vec<swapzap::U256> {
    let (s, d) = (src.into(), dst.into());
    if i == 0 {
        vec![s, d]
    } else {
        vec![d, s]
    }
}
