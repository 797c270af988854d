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
//! Every public item, by layer (lowest first). The items in **bold** are the entry points;
//! the rest are their arguments, answers and the limits of their options.
//!
//! | layer | module | public items |
//! |---|---|---|
//! | numbers | [`math`] | checked `U256` ops [`math::add`], [`math::sub`], [`math::mul`], [`math::div`], [`math::div_rem`], [`math::div_up`], **[`math::mul_div`]**, [`math::mul_div_up`], [`math::mul_then_div`] (Vyper's `a * b / d`), [`math::sqrt`]; on [`math::W`]: [`math::w_mul_div_rem`], [`math::w_mul_div_rem_plain`], [`math::w_mul_div_e18`]; [`math::MathError`] |
//! | | [`math::wide`] | the native 256-bit [`math::wide::W`] (two `u128`), [`math::wide::Div64`], [`math::wide::div_512_by_256`] (the rest of `wide` is crate-private) |
//! | | [`math::float`] | [`math::float::to_f64`], the one `U256` → `f64` conversion |
//! | units | [`units`], [`chain`] | [`units::TokenId`], [`units::PoolId`], the decimal-string serde of `U256` ([`units::dec`]); [`chain::Deployment`], [`chain::CHAIN_101`], [`chain::MAX_SLIPPAGE_PERCENT`] |
//! | errors | [`error`] | **[`Error`]** (`code()`, `class()`, `is_retryable()`, `http_status()`), [`ErrorClass`], [`ErrorBody`]; one enum per domain: [`MathError`], [`PoolError`], [`RequestError`], [`SnapshotError`], [`RouteError`], [`ZapError`], and their typed reasons ([`error::PoolArgument`], [`error::PoolRevert`], [`error::PoolUnsupported`], [`error::PoolStateProblem`], [`error::BadPoolProblem`], [`error::AddressProblem`], [`error::AmountProblem`], [`error::DecimalProblem`], [`error::QueryProblem`], [`error::Field`], [`error::BadRouteRequest`], [`error::RouteFilter`], [`PlanField`], [`error::PlanProblem`], [`error::StepOp`], [`error::Disagreement`], [`error::ZapUnsupported`]) |
//! | pools | [`pool`] | **[`pool::Pool`]** over the families, [`pool::Amounts`]; the traits [`pool::PoolFamily`] (the swap verbs: all seven families and `Pool`) and [`pool::LpFamily`] (mint, burn, one-coin burn: the five families with LP tokens and `Pool`) |
//! | | [`pool::constant_product`] | **[`pool::ConstantProduct`]** (Uniswap V2 and forks), [`pool::constant_product::CpMint`], [`pool::constant_product::CpBurn`] |
//! | | [`pool::solidly`] | **[`pool::Solidly`]** (Aerodrome / Velodrome V2), [`pool::solidly::SolidlyMint`], [`pool::solidly::SolidlyBurn`], [`pool::solidly::FEE_DENOMINATOR`] |
//! | | [`pool::stableswap`] | **[`pool::StableSwap`]** (Curve classic, 3pool, stableswap-ng), [`pool::stableswap::StableSwapParams`], [`pool::stableswap::Variant`], [`pool::stableswap::MAX_COINS`] |
//! | | [`pool::concentrated_liquidity`] | **[`pool::ConcentratedLiquidity`]** (Uniswap V3 and forks), [`pool::concentrated_liquidity::Tick`], [`pool::concentrated_liquidity::SwapAmount`], [`pool::concentrated_liquidity::ClSwap`], [`pool::concentrated_liquidity::ClPosition`]; the contract libraries `tick_math` ([`pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick`], [`pool::concentrated_liquidity::tick_math::tick_at_sqrt_ratio`], the tick and price bounds) and `sqrt_price_math` (the amount deltas, the next prices, [`pool::concentrated_liquidity::sqrt_price_math::FEE_DENOMINATOR`]) |
//! | | [`pool::saber`] | **[`pool::SaberStableSwap`]** (chain 101), [`pool::saber::SaberFees`], [`pool::saber::SaberAmp`], [`pool::saber::SaberSwap`], [`pool::saber::SaberWithdrawn`], [`pool::saber::compute_d`], [`pool::saber::compute_y`] |
//! | | [`pool::spl_token_swap`] | **[`pool::SplTokenSwap`]** (chain 101), [`pool::spl_token_swap::SplFees`], [`pool::spl_token_swap::SplSwap`], [`pool::spl_token_swap::calculate_fee`] |
//! | | [`pool::whirlpool`] | **[`pool::Whirlpool`]** (Orca, chain 101), [`pool::whirlpool::WhirlpoolState`], [`pool::whirlpool::OrcaTick`], [`pool::whirlpool::OrcaTickArray`], [`pool::whirlpool::OrcaSwap`], [`pool::whirlpool::ExactInQuote`], [`pool::whirlpool::ExactOutQuote`]; the core's price and delta functions and bounds |
//! | graph | [`snapshot`] | **[`snapshot::Snapshot`]** (serde) and its parts ([`snapshot::SnapshotToken`], [`snapshot::SnapshotPool`], [`snapshot::PoolKind`], [`snapshot::FeeFraction`], [`snapshot::FeeField`], [`snapshot::SnapshotTick`], [`snapshot::SnapshotTickArray`]), [`snapshot::strip_bom`] |
//! | | [`graph`] | **[`graph::PoolGraph`]** (`from_snapshot`, lookups, `set_pool_state`), its rows [`graph::TokenInfo`], [`graph::PoolInfo`], [`graph::Quarantined`] |
//! | plan | [`plan`] | **[`plan::Plan`]** ([`plan::Plan::verify`], [`plan::Plan::verify_request`], `to_json` / `from_json`) with [`plan::Step`], [`plan::Output`], [`plan::TokenAmount`], [`plan::ZapFee`], [`plan::Excluded`]; [`plan::PlanRequest`]; [`plan::GasModel`], [`plan::GasTable`]; [`plan::ZAP_OUT_SHARE_TOLERANCE`] |
//! | | [`plan::json`] | [`plan::json::PlanJson`] (feature `serde`) and its parts |
//! | search | [`route`] | **[`route::quote`]** of a [`route::RouteRequest`], [`route::quote_batch`], [`route::quote_cached`] with a [`route::RouteCache`] (a warm start kept by the caller), [`route::dual_bound`], [`route::output_mid_prices`]; [`route::DEFAULT_MAX_HOPS`], [`route::MAX_HOPS_LIMIT`] |
//! | zaps | [`zap`] | **[`zap::zap_in`]**, **[`zap::zap_out`]**, **[`zap::lp_to_lp`]** over a graph ([`zap::ZapOptions`] → [`zap::ZapInPlan`] or a [`plan::Plan`]); **[`zap::zap_in_pool`]** on one pool ([`zap::ZapConfig`] → [`zap::ZapIn`] with [`zap::ZapSwap`], [`zap::Rebalance`], [`zap::Strategy`]); [`zap::mint_upper_bound`], [`zap::zap_out_prices`], [`zap::zap_fee`]; the fee and the options' limits |
//! | service | [`service::request`] | **[`service::request::QuoteRequest`]** (the spec's body, serde) → [`service::request::Request`] (validated) with their parts; [`service::request::AssembleRequest`], [`service::request::check_assemble`], [`service::request::is_stale`]; [`service::request::Address`], [`service::request::Proportion`], [`service::request::Slippage`]; the spec's limits |
//! | | [`service::zap`] | **[`service::zap::zap_request`]** (a spec zap body) → [`service::zap::ZapPlan`], [`service::zap::ZapKind`], [`service::zap::is_zap_body`] |
//! | | [`service::response`] | **[`service::response::QuoteResponse::from_plan`]** and the body's parts ([`service::response::RouteGraph`], [`service::response::Leg`], ...), [`service::response::optimality_gap`] |
//! | | [`service::pricing`] | [`service::pricing::price_table`], [`service::pricing::token_price`], [`service::pricing::lp_price`], [`service::pricing::routable_price`] |
//! | | [`service::listing`] | [`service::listing::token_list`], [`service::listing::liquidity_sources`], [`service::listing::price_body`] |
//!
//! The float models of the searches (`model`, the pool layer) are crate-private.
//!
//! ## One form per purpose
//!
//! Requests, from the wire inwards:
//!
//! | form | purpose | made by |
//! |---|---|---|
//! | [`service::request::QuoteRequest`] | the spec's JSON body as it arrives (serde, the spec's field names, nothing checked) | serde |
//! | [`service::request::Request`] | that body validated for its deployment (addresses, amounts, proportions, slippage) | `QuoteRequest::validate` / `validate_on(&graph)` |
//! | [`route::RouteRequest`] | the router's request on one graph (dense ids, exact proportions, hop limit, gas model, exact-out) | `RouteRequest::new` (a caller with its own ids), `from_request`, `from_body` |
//! | [`zap::ZapOptions`] / [`zap::ZapConfig`] | the options of a zap over a graph / on one pool (the inputs are arguments) | `Default`, fields |
//! | [`plan::PlanRequest`] | what a plan must answer, as data (`plan` sits below the search and the service) | `PlanRequest::swap`, `::zap`, `::from_request` |
//! | [`service::request::AssembleRequest`] | the spec's assemble body (a different endpoint) | serde |
//!
//! Answers:
//!
//! | form | purpose |
//! |---|---|
//! | [`plan::Plan`] | the answer of every quote and zap: exact amounts on dense ids, verifiable |
//! | [`zap::ZapInPlan`] / [`zap::ZapIn`] | a zap-in's `Plan` with what its mint decided (pool, LP minted, rebalance, strategy) / the one-pool optimiser's answer (a swap and a mint, no `Plan`) |
//! | [`service::zap::ZapPlan`] | the answer to a spec zap body, which is a zap-in or a zap-out ([`service::zap::ZapKind`]) |
//! | [`plan::json::PlanJson`] | a `Plan` as data (feature `serde`): addresses and decimal strings, read back by `Plan::from_json` |
//! | [`service::response::QuoteResponse`] | the spec's quote response body built from a plan (gas, price impact, a route graph for display) |
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
