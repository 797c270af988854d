//! The one integration test binary: pool vectors, routing instances, zap vectors, requests and
//! the property tests. Shared files are read from `../shared/...` at test time, never copied.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]

#[path = "../../examples/common/vectors/mod.rs"]
mod vectors;

mod chain101;
mod cl;
mod cl_plain;
mod family;
mod hostile;
mod hostile_sweep;
mod layers;
mod listing;
mod plan_json;
mod pool_vectors;
mod props_101;
mod props_101_extremes;
mod props_cl;
mod props_cl_fast;
mod props_cl_ref;
mod props_cp;
mod props_curve;
mod reasons;
mod request;
mod route_arbitrage;
mod route_cache;
mod route_capacity;
mod route_dust;
mod route_gas;
mod route_sequenced;
mod route_snap;
mod route_trim;
mod route_update;
mod route_whirlpool;
mod routing;
mod spl_accounting;
mod spl_owner_fee;
mod zap;
mod zap_bound;
mod zap_bound_101;
mod zap_bound_loops;
mod zap_claimed;
mod zap_lp_bound;
mod zap_lp_loops;
mod zap_lp_meta;
mod zap_ng;
mod zap_plans;
mod zap_routed;
mod zap_spec;
mod zap_sweep;

/// The shared folder beside the repo.
#[must_use]
pub fn shared() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// The records of a JSON Lines file under `../shared` (blank lines skipped).
#[must_use]
pub fn read_jsonl(rel: &str) -> Vec<serde_json::Value> {
    let path = shared().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
