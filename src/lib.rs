//! # swapzap
//!
//! The routing and zap math engine behind a swap-and-zap routing service, as a pure library:
//! no I/O, no clocks, no global state. Values go in, a [`plan::Plan`] comes out.
//!
//! ## Layers
//!
//! Each layer uses only the layers below it (checked by the integration test `layers`; the
//! picture and its reasons are in `docs/architecture.md`):
//!
//! ```text
//!  service   service::{request, zap, response, pricing, listing}   the spec's bodies and answers
//!     |
//!  search    route, zap                                           split routes, zaps
//!     |
//!  plan      plan                                                 Plan, its checks, its serde form
//!     |
//!  graph     snapshot, graph                                      a snapshot as dense-id data
//!     |
//!  pools     pool, model                                          exact pool math; float models
//!     |
//!  errors    error                                                typed errors, stable codes
//!     |
//!  units     units, chain                                         ids, chain facts
//!     |
//!  numbers   math                                                 checked U256 math, float helpers
//! ```
//!
//! ## Where things live
//!
//! | layer | module | the public items a caller uses |
//! |---|---|---|
//! | numbers | [`math`] | [`math::mul_div`] and the checked helpers, [`math::float`] (the one U256 ↔ f64 conversion) |
//! | units | [`units`], [`chain`] | [`units::TokenId`], [`units::PoolId`]; [`chain::CHAIN_101`], [`chain::Deployment`] |
//! | errors | [`error`] | [`Error`] (with `code()`, `is_retryable()`, [`ErrorBody`]) over [`MathError`], [`PoolError`], [`RequestError`], [`SnapshotError`], [`RouteError`], [`ZapError`] |
//! | pools | [`pool`], `model` (crate-private float models) | one type per family: [`pool::ConstantProduct`], [`pool::Solidly`], [`pool::StableSwap`], [`pool::SaberStableSwap`], [`pool::SplTokenSwap`], [`pool::ConcentratedLiquidity`], [`pool::Whirlpool`]; [`pool::Pool`] over them |
//! | graph | [`snapshot`], [`graph`] | [`snapshot::Snapshot`] (serde) → [`graph::PoolGraph`] |
//! | plan | [`plan`] | [`plan::Plan`] with [`plan::Plan::verify`] and [`plan::Plan::verify_request`] against a [`plan::PlanRequest`]; [`plan::GasModel`] |
//! | search | [`route`] | [`route::quote`] of a [`route::RouteRequest`]; batch quoting |
//! | zaps | [`zap`] | [`zap::zap_in`], [`zap::zap_out`], [`zap::lp_to_lp`] over a graph, [`zap::zap_in_pool`] on one pool |
//! | service | [`service`] | [`service::request::QuoteRequest`] → [`service::request::Request`]; [`service::zap::zap_request`]; [`service::response::QuoteResponse`]; prices and listings |
//!
//! ## One form per purpose
//!
//! Requests: [`service::request::QuoteRequest`] is the spec's JSON body as it arrives (serde,
//! the spec's field names); `QuoteRequest::validate` turns it into a typed
//! [`service::request::Request`] for its deployment (addresses checked, amounts parsed); on a
//! graph that becomes the engine's [`route::RouteRequest`] (dense ids, exact proportions,
//! options) through `RouteRequest::from_request` (or from the body at once,
//! `RouteRequest::from_body`). A caller with its own ids starts from `RouteRequest::new`.
//!
//! Answers: [`plan::Plan`] is the answer (exact amounts on dense ids, verifiable);
//! `plan::json::PlanJson` (feature `serde`) is its serde form (addresses and decimal strings, read back by
//! `Plan::from_json`); [`service::response::QuoteResponse`] is the spec's quote response body
//! built from a plan (with gas, price impact and a route graph for display).
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
pub(crate) mod model;
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
