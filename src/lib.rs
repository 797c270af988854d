//! # swapzap
//!
//! The routing and zap math engine behind a swap-and-zap routing service, as a pure library:
//! no I/O, no clocks, no global state. Values go in, a [`plan::Plan`] comes out.
//!
//! ## Crate map
//!
//! | module | what it holds |
//! |---|---|
//! | [`math`] | the only place with raw 256-bit arithmetic: checked ops, `mul_div` (floor/ceil), integer sqrt |
//! | [`units`] | newtypes: [`units::TokenId`], [`units::PoolId`] |
//! | [`chain`] | chain facts: [`chain::CHAIN_101`], [`chain::Deployment`], the spec's slippage limit |
//! | [`error`] | one error enum per domain and the top [`error::Error`] with stable codes |
//! | [`pool`] | exact pool families: constant-product, solidly, Curve stable-swap; [`pool::Pool`] over them |
//! | [`plan`] | the pathId-free [`plan::Plan`] and its exact verification |
//! | [`service`] | the spec's bodies and their validation ([`service::request`]), the quote response ([`service::response`]), prices ([`service::pricing`]) and listings ([`service::listing`]) |
//! | [`snapshot`], [`graph`] | a pool snapshot (serde) and the [`graph::PoolGraph`] with dense ids built from it |
//! | [`route`] | split-route search with an optimality bound, exact Plans, batch quoting |
//! | [`zap`] | zap-in (tokens and LPs to one LP, any ratio), zap-out, LP-to-LP, the single-pool optimiser |
//!
//! ## Example
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use num_rational::Ratio;
//! use swapzap::{graph::PoolGraph, pool::ConstantProduct, route, snapshot::Snapshot, U256};
//!
//! // One pool: Uniswap V2 getAmountOut, exactly (1000 * 997 * 2e6 / (1e6 * 1000 + 1000 * 997)).
//! let pair = ConstantProduct::new([U256::from(1_000_000u64), U256::from(2_000_000u64)], 3, 1000, U256::zero())?;
//! assert_eq!(pair.amount_out(0, 1, U256::from(1_000u64))?, U256::from(1_992u64));
//!
//! // A snapshot (the schema of ../shared/routing/README.md) and a quote: 100 WETH to USDT.
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/snapshot.json");
//! let snapshot: Snapshot = serde_json::from_str(&std::fs::read_to_string(path)?)?;
//! let graph = PoolGraph::from_snapshot(&snapshot)?;
//! let weth = graph.token_id("0x871a5bb9551428cbf417b18853b2088ddcf3ab3a").ok_or("no WETH")?;
//! let usdt = graph.token_id("0xdfd3c19fc05f01668134ddc1ac095f04406fa41b").ok_or("no USDT")?;
//! let request = route::RouteRequest::new(vec![(weth, U256::exp10(20))], vec![(usdt, Ratio::from_integer(1))]);
//! let plan = route::quote(&graph, &request)?;
//! plan.verify(&graph)?; // re-simulates every step exactly and checks conservation
//! let out = plan.outputs[0].amount;
//! assert!(plan.upper_bound.is_some_and(|b| b >= swapzap::math::float::to_f64(out)));
//! # Ok(())
//! # }
//! ```
//!
//! ## Features
//!
//! - `std` (default): `std::error::Error` impls. Without it the crate is `no_std` + `alloc`.
//! - `serde`: serialisation of snapshots, requests and plans (amounts as decimal strings).
//! - `parallel`: rayon batch quoting (implies `std`); results never depend on scheduling.
#![cfg_attr(not(feature = "std"), no_std)]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;

pub mod chain;
pub mod error;
pub mod graph;
pub mod math;
pub mod model;
pub mod plan;
pub mod pool;
pub mod route;
pub mod service;
pub mod snapshot;
pub mod units;
pub mod zap;

pub use error::{
    Error, ErrorBody, ErrorClass, MathError, PlanField, PoolError, RequestError, RouteError,
    SnapshotError, ZapError,
};
pub use primitive_types::{U256, U512};
