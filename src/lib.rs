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
//! | [`units`] | newtypes: [`units::TokenId`], [`units::PoolId`], [`units::Amount`] |
//! | [`error`] | one error enum per domain and the top [`error::Error`] with stable codes |
//! | [`pool`] | exact pool families: constant-product, solidly, Curve stable-swap; [`pool::Pool`] over them |
//! | [`plan`] | the pathId-free [`plan::Plan`] and its exact verification |
//! | [`request`] | the spec's quote and assemble bodies; validation per deployment into a typed [`request::Request`]; quote lifetime |
//! | [`response`] | the quote response body and a route graph for display |
//! | [`pricing`] | token and LP prices in a numeraire; the routable test for zap tokens |
//!
//! ## Features
//!
//! - `std` (default): `std::error::Error` impls. Without it the crate is `no_std` + `alloc`.
//! - `serde`: serialisation of snapshots, requests and plans (amounts as decimal strings).
//! - `parallel`: rayon batch quoting (implies `std`); results never depend on scheduling.
#![cfg_attr(not(feature = "std"), no_std)]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;

pub mod error;
pub mod graph;
pub mod math;
pub mod plan;
pub mod pool;
pub mod pricing;
pub mod request;
pub mod response;
pub mod route;
pub mod snapshot;
pub mod units;
pub mod zap;

pub use error::{
    Error, ErrorBody, ErrorClass, MathError, PoolError, RequestError, RouteError, ZapError,
};
pub use primitive_types::{U256, U512};
