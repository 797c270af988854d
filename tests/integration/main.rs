//! The one integration test binary: pool vectors, routing instances, zap vectors, requests and
//! the property tests. Shared files are read from `../shared/...` at test time, never copied.
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]

#[path = "../../examples/common/vectors/mod.rs"]
mod vectors;

mod cl;
mod pool_vectors;
mod props_cl;
mod props_cp;
mod props_curve;
mod request;
mod routing;
mod zap;

/// The shared folder beside the repo.
#[must_use]
pub fn shared() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}
