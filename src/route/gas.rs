//! Net of gas: the best of several exactly simulated candidates.
//!
//! With a gas model every quote already weighs its own plan net of gas: the certified optimum,
//! the same problem re-solved with the active leg that pays least for its step dropped (one leg
//! at a time), and the best single path, each simulated exactly (see [`super::quote`]). Fewer,
//! shorter legs can still net more than any of these on a request where every leg's gas is a
//! large part of its output, so the same request is also quoted under each hop cap from 1 to
//! [`GAS_HOP_CAPS`] (never above the request's own cap), and the plan that nets most wins. A
//! request is therefore never worse off than the same request capped at any of these hop
//! counts. The bound stays the request's own (over gross output, so also over net).

use super::working_set::{prepare_ctx, Ctx};
use super::{RouteRequest, DEFAULT_MAX_HOPS};
use crate::graph::{PoolGraph, CHAIN_101};
use crate::plan::{Plan, Step};
use crate::snapshot::PoolKind;

/// The hop caps tried for a request with a gas model: 1 to this many hops.
pub const GAS_HOP_CAPS: usize = DEFAULT_MAX_HOPS;

/// The plan of `req` (already quoted: `base`) or of `req` under a smaller hop cap, whichever
/// nets most; it keeps `base`'s bound.
pub(super) fn best_net(graph: &PoolGraph, req: &RouteRequest, base: Plan) -> Plan {
    let caps = req.max_hops.map_or(GAS_HOP_CAPS, |h| h.min(GAS_HOP_CAPS));
    let mut best = base;
    for h in 1..=caps {
        if req.max_hops == Some(h) {
            continue;
        }
        let mut r = req.clone();
        r.max_hops = Some(h);
        let Ok(plan) = prepare_ctx(graph, &r).and_then(|mut c| c.run(false)) else {
            continue;
        };
        if plan.0.value > best.value {
            best = Plan {
                upper_bound: best.upper_bound,
                bound_max_hops: best.bound_max_hops,
                ..plan.0
            };
        }
    }
    best
}

/// The crate's one gas table: gas units per step kind (integer units; a price turns them into
/// output). Swap units are the typical per-step costs (Uniswap V2 60k, solidly 80k, Curve 110k,
/// Uniswap V3 130k without tick crossings); `base` (router entry, transfers in and out), `mint`
/// and `burn` are round figures of the same order. Deployments set their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct GasTable {
    /// Once per transaction.
    pub base: u64,
    /// Per swap through a constant-product pool.
    pub constant_product: u64,
    /// Per swap through a solidly pool.
    pub solidly: u64,
    /// Per swap through a stable-swap pool.
    pub stableswap: u64,
    /// Per swap through a concentrated-liquidity pool (without tick crossings).
    #[cfg_attr(feature = "serde", serde(default = "cl_gas"))]
    pub concentrated_liquidity: u64,
    /// Per mint.
    pub mint: u64,
    /// Per burn.
    pub burn: u64,
}

/// The typical concentrated-liquidity row (the serde default of an older table without it).
#[cfg(feature = "serde")]
fn cl_gas() -> u64 {
    GasTable::TYPICAL.concentrated_liquidity
}

impl GasTable {
    /// The typical costs.
    pub const TYPICAL: GasTable = GasTable {
        base: 50_000,
        constant_product: 60_000,
        solidly: 80_000,
        stableswap: 110_000,
        concentrated_liquidity: 130_000,
        mint: 120_000,
        burn: 100_000,
    };

    /// Units of one swap through a pool of `kind`.
    #[must_use]
    pub fn swap(&self, kind: PoolKind) -> u64 {
        match kind {
            PoolKind::ConstantProduct | PoolKind::SplTokenSwap => self.constant_product,
            PoolKind::Solidly | PoolKind::OrcaWhirlpool => self.solidly,
            PoolKind::Stableswap | PoolKind::SaberStableswap => self.stableswap,
            PoolKind::ConcentratedLiquidity => self.concentrated_liquidity,
        }
    }

    /// The cheapest swap row (constant-product, solidly, stable-swap): a lower bound per hop.
    #[must_use]
    pub fn cheapest_swap(&self) -> u64 {
        self.stableswap.min(self.solidly).min(self.constant_product)
    }
}

impl Default for GasTable {
    fn default() -> Self {
        Self::TYPICAL
    }
}

/// Gas pricing for EVM chains: the [`GasTable`]'s units per swap step by pool family, and the
/// price of one gas unit in base units of the (first) output token.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GasModel {
    /// gas units per step kind
    pub table: GasTable,
    /// output base units per gas unit (≥ 0)
    pub gas_price: f64,
}

impl GasModel {
    /// [`GasTable::TYPICAL`] at `gas_price` output base units per gas unit.
    #[must_use]
    pub fn typical(gas_price: f64) -> Self {
        GasModel {
            table: GasTable::TYPICAL,
            gas_price,
        }
    }

    /// Gas units of one step through a pool of this kind.
    #[must_use]
    pub fn units(&self, kind: PoolKind) -> u64 {
        self.table.swap(kind)
    }
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The request's gas model where the chain prices gas (not chain 101).
    pub(super) fn gas(&self) -> Option<GasModel> {
        if self.graph.chain_id() == CHAIN_101 {
            None
        } else {
            self.req.gas
        }
    }

    /// Output units per unit of dual value (ν of the first output, c·ν = 1).
    pub(super) fn cost_scale(&self, nu: &[f64], loc: &[usize]) -> f64 {
        self.out_toks.first().map_or(1.0, |t| nu[loc[t.index()]])
    }

    pub(super) fn gas_of(&self, steps: &[Step], gas: Option<GasModel>) -> (u64, f64) {
        let Some(gm) = gas else { return (0, 0.0) };
        let units = crate::plan::swap_gas_units(steps, self.graph, Some(&gm));
        (units, units as f64 * gm.gas_price)
    }
}
