//! The service layer: what the routing service speaks, on top of the engine.
//!
//! | module | what it holds |
//! |---|---|
//! | [`request`] | the spec's bodies (quote, zap, assemble) with its field names; validation per deployment into a typed [`request::Request`]; quote lifetime |
//! | [`response`] | the spec's quote response body built from a [`crate::plan::Plan`], and a route graph for display |
//! | [`pricing`] | token and LP prices in a numeraire; the routable test for zap tokens |
//! | [`zap`] | a validated zap body (`POST /sor/quote/v2/zap`): whether it is a zap ([`zap::is_zap_body`]) and its plan ([`zap::zap_request`]) |
//! | [`listing`] | the token and pool listings (filters, order, paging) with their prices |
//!
//! Nothing below this layer (pools, graph, search, zaps, plan) needs it; it turns request bodies
//! into engine calls and engine results into response bodies.

mod convert;
pub use convert::verify_plan;
pub mod listing;
pub mod pricing;
pub mod request;
pub mod response;
pub mod zap;
