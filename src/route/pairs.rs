//! Step 4, per pair: a plan for several inputs or outputs that needs no dual. Every input is
//! split over the outputs it reaches by their proportions, each share sent along its best
//! single path ([`Ctx::best_path`]), the paths simulated one after the other on the evolving
//! pool states. It competes with the recovered plan, so a quote with several inputs or
//! outputs is never worse than it, and each output that an input reaches gets that input's
//! share of it even when no recovered flow survives.

use super::finish::Candidate;
use super::propagate::PoolStates;
use super::single_path::PathEdges;
use super::working_set::Ctx;
use crate::math;
use crate::math::float::to_f64;
use crate::plan::{Excluded, GasModel};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// Fractions of an input are taken in units of 2^-52.
const ONE: u64 = 1 << 52;

/// One share of an input: the output's index, its path (working-set edges), its proportion.
type Leg = (usize, Vec<usize>, f64);

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The per-pair plan on the working set `pe` ([`Ctx::path_edges`]): each
    /// input's shares (the floor of its proportion among the outputs it reaches, the last
    /// share the rest) along their best paths, in input then output order. `None` when an
    /// input reaches no output or a path's exact simulation fails (reverts pushed on
    /// `reverts`).
    pub(super) fn per_pair(
        &self,
        gas: Option<GasModel>,
        pe: &PathEdges<'_>,
        reverts: &mut Vec<Excluded>,
    ) -> Option<Candidate> {
        let mut states = PoolStates::new();
        let mut steps = Vec::new();
        let mut outs = vec![U256::zero(); self.out_toks.len()];
        for &(t, amount) in &self.prep.inputs {
            let legs = self.legs_of(gas, pe, (t.index(), amount));
            let total: f64 = legs.iter().map(|l| l.2).sum();
            let mut left = amount;
            for (m, (k, path, w)) in legs.iter().enumerate() {
                let share = if m + 1 == legs.len() {
                    left
                } else {
                    let q = ((w / total).clamp(0.0, 1.0) * ONE as f64) as u64;
                    math::mul_div(amount, U256::from(q), U256::from(ONE))
                        .ok()?
                        .min(left)
                };
                left = left.checked_sub(share)?;
                if share.is_zero() {
                    continue;
                }
                let got = self.walk_path(&mut states, path, share, &mut steps, reverts)?;
                outs[*k] = outs[*k].checked_add(got)?;
            }
            if !left.is_zero() {
                // no output reached from this input
                return None;
            }
        }
        Some(self.candidate((steps, outs), gas))
    }

    /// The outputs that input token `t` reaches with `amount`, each with its best path for
    /// its proportion of the amount (by whole base units, else by float amounts, as the
    /// single path) and its proportion.
    fn legs_of(
        &self,
        gas: Option<GasModel>,
        pe: &PathEdges<'_>,
        (t, amount): (usize, U256),
    ) -> Vec<Leg> {
        let mut legs = Vec::new();
        for (k, (o, w)) in self.prep.outputs.iter().enumerate() {
            let ends = (pe.loc[t], pe.loc[o.index()]);
            let a = to_f64(amount) * w;
            let path = self
                .best_path(gas, pe, ends, (a, true))
                .or_else(|| self.best_path(gas, pe, ends, (a, false)));
            if let Some(p) = path {
                legs.push((k, p, *w));
            }
        }
        legs
    }
}
