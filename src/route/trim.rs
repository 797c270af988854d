//! Step 5, trim: the chosen plan's swaps at the least inputs that give the same outputs.
//!
//! A recovered plan floors every swap's output, so each swap gives away the fraction of one
//! output unit the float flow carried, and a solidly swap's fee is floored on an input that
//! need not land just below a multiple of `10000 / fee_bps`. Where the output token's unit is
//! coarse against the input's (8-decimal WBTC bought with an 18-decimal token: one unit is
//! worth about 6e-4 USD, 6e14 units of the input), that fraction is worth up to a unit of the
//! output per swap; on a small trade over a hundred swaps it is a few parts in a million of
//! the plan. The trim gives it back:
//!
//! 1. **Backward**, last swap first: every swap whose pool the plan swaps only once asks its
//!    pool for the least input whose exact output is still what it delivers
//!    ([`crate::pool::Pool::amount_in`] on the snapshot state). A swap that spends a token's whole
//!    holding (the token's last leg) cannot give its saving to a sibling, so the saving is
//!    pushed upstream: the last swap into that token is asked for that much less output (at
//!    least one unit left), and so saves its own input, recursively, until a swap that does
//!    not spend its token's whole holding (or an input token) keeps it.
//! 2. **Forward**: the plan is simulated again exactly, every swap at its trimmed amount
//!    except those that spent their token's whole holding, which spend it again (and so
//!    carry the savings of their siblings and of the swaps upstream onward, to the outputs).
//!
//! The trimmed plan is a candidate like the others: exactly simulated, kept only where its
//! objective net of gas is higher. A swap is trimmed only where one unit of its output (or
//! of its input, a solidly fee unit) is worth at least [`TRIM_VALUE`] of the plan at the
//! optimal prices, so the searches of the stable families cost nothing on fine units.

use super::finish::Candidate;
use super::propagate::{swap_whole, PoolStates};
use super::working_set::Ctx;
use crate::math::float::to_f64;
use crate::plan::{GasModel, Step};
use crate::units::{PoolId, TokenId};
use alloc::vec;
use alloc::vec::Vec;
use primitive_types::U256;

/// A swap is trimmed only where one unit of its output, valued at the optimal prices, is worth
/// at least this share of the plan's inputs.
const TRIM_VALUE: f64 = 1e-11;

/// The trimmed plan is simulated only where the slack it saves is worth at least this share
/// of the plan's inputs at the optimal prices (below, the forward simulation costs more than
/// the gain is worth).
const TRIM_GAIN: f64 = 1e-10;

/// One swap of the plan being trimmed.
#[derive(Debug, Clone, Copy)]
struct Leg {
    pool: PoolId,
    ti: usize,
    to: usize,
    /// coin indices of its tokens in the pool
    i: usize,
    j: usize,
    /// the plan's amounts
    a: U256,
    o: U256,
    /// whether it spent its token's whole holding (its token being neither an output)
    empties: bool,
    /// whether its pool is swapped once in the plan
    once: bool,
    /// the output it must still deliver, and the least input that does
    target: U256,
    n: U256,
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl Ctx<'_> {
    /// The candidate `c` with its swaps trimmed (module doc), or `None` where nothing was
    /// trimmed or the forward simulation fails. `price(t)` is the optimal price of graph token
    /// `t` (`None` outside the working set: such swaps are trimmed whatever their units).
    pub(super) fn trimmed(
        &self,
        c: &Candidate,
        gas: Option<GasModel>,
        price: &dyn Fn(TokenId) -> Option<f64>,
    ) -> Option<Candidate> {
        // the plan's tokens, sorted: a token's index here is its slot in the holdings
        let mut toks: Vec<TokenId> = Vec::with_capacity(2 * c.steps.len() + 2);
        for s in &c.steps {
            let (_, sold, bought) = s.as_swap()?;
            toks.push(sold.token);
            toks.push(bought.token);
        }
        toks.extend(self.prep.inputs.iter().map(|(t, _)| *t));
        toks.extend(self.out_toks.iter().copied());
        toks.sort_unstable();
        toks.dedup();
        let slot = |t: TokenId| toks.binary_search(&t).ok();
        let is_out = |k: usize| self.out_toks.contains(&toks[k]);
        let is_in = |k: usize| self.prep.inputs.iter().any(|(t, _)| *t == toks[k]);
        let mut pools: Vec<PoolId> = c.steps.iter().map(Step::pool_id).collect();
        pools.sort_unstable();
        let once = |p: PoolId| {
            let k = pools.partition_point(|x| *x < p);
            pools.get(k + 1).map_or(true, |x| *x != p)
        };
        let value: f64 = self
            .prep
            .inputs
            .iter()
            .filter_map(|(t, a)| Some(to_f64(*a) * price(*t)?))
            .sum();

        // the plan's legs, and which of them spent their token's whole holding
        let mut hold = vec![U256::zero(); toks.len()];
        for (t, a) in &self.prep.inputs {
            let k = slot(*t)?;
            hold[k] = hold[k].checked_add(*a)?;
        }
        let mut legs: Vec<Leg> = Vec::with_capacity(c.steps.len());
        for s in &c.steps {
            let (pool, sold, bought) = s.as_swap()?;
            let (token_in, amount_in) = (sold.token, sold.amount);
            let (token_out, amount_out) = (bought.token, bought.amount);
            let info = self.graph.pool(pool)?;
            let i = info.tokens.iter().position(|t| *t == token_in)?;
            let j = info.tokens.iter().position(|t| *t == token_out)?;
            let (ti, to) = (slot(token_in)?, slot(token_out)?);
            hold[ti] = hold[ti].checked_sub(amount_in)?;
            hold[to] = hold[to].checked_add(amount_out)?;
            legs.push(Leg {
                pool,
                ti,
                to,
                i,
                j,
                a: amount_in,
                o: amount_out,
                empties: hold[ti].is_zero() && !is_out(ti),
                once: once(pool),
                target: amount_out,
                n: amount_in,
            });
        }

        // backward: the least inputs, savings of whole-holding legs pushed upstream
        let mut slack = vec![U256::zero(); toks.len()];
        let mut trimmed = false;
        for m in (0..legs.len()).rev() {
            let l = legs[m];
            if l.empties {
                // what a later spending of the token did not push upstream stays there
                slack[l.ti] = U256::zero();
            }
            if !l.once {
                continue;
            }
            let mut push = U256::zero();
            if !is_out(l.to) && !is_in(l.to) && !slack[l.to].is_zero() {
                push = slack[l.to].min(l.o.saturating_sub(U256::one()));
            }
            let worth = || {
                let (Some(pi), Some(po)) = (price(toks[l.ti]), price(toks[l.to])) else {
                    return true;
                };
                pi.max(po) >= TRIM_VALUE * value
            };
            if push.is_zero() && !worth() {
                continue;
            }
            let target = l.o - push;
            let Some(p) = self.graph.pool(l.pool) else {
                continue;
            };
            let n = if target.is_zero() {
                U256::zero()
            } else {
                match p.pool.amount_in(l.i, l.j, target) {
                    Ok(n) if n <= l.a => n,
                    _ => continue,
                }
            };
            if n == l.a {
                continue;
            }
            slack[l.to] -= push;
            slack[l.ti] = slack[l.ti].checked_add(l.a - n)?;
            legs[m].target = target;
            legs[m].n = n;
            trimmed = true;
        }
        // what the trim saves, valued at the optimal prices: the slack no swap upstream took
        let gain: f64 = slack
            .iter()
            .zip(&toks)
            .filter(|(x, _)| !x.is_zero())
            .map(|(x, t)| to_f64(*x) * price(*t).unwrap_or(f64::INFINITY))
            .sum();
        if !trimmed || gain < TRIM_GAIN * value {
            return None;
        }

        // forward: the trimmed amounts, whole-holding legs spend the holding
        let mut hold = vec![U256::zero(); toks.len()];
        for (t, a) in &self.prep.inputs {
            let k = slot(*t)?;
            hold[k] = hold[k].checked_add(*a)?;
        }
        // a pool the plan swaps once is at its snapshot state in both simulations: a leg there
        // with its amount unchanged gives what it gave, and none needs its state after
        let again: Vec<PoolId> = legs.iter().filter(|l| !l.once).map(|l| l.pool).collect();
        let mut states = PoolStates::with_pools(again);
        let mut steps = Vec::with_capacity(legs.len());
        for l in &legs {
            let a = if l.empties { hold[l.ti] } else { l.n };
            if a.is_zero() {
                continue;
            }
            let o = if l.once && a == l.a {
                l.o
            } else {
                // the swap itself, not the pool's quote: a quote need not check what the swap
                // does (a V2 balance beyond uint112, a stable solidly pool's K check)
                let cur = states.current(self.graph, l.pool)?;
                let (o, next) = swap_whole(cur, l.i, l.j, a)?;
                if !l.once {
                    states.set(l.pool, next);
                }
                o
            };
            hold[l.ti] = hold[l.ti].checked_sub(a)?;
            hold[l.to] = hold[l.to].checked_add(o)?;
            steps.push(Step::Swap {
                pool: l.pool,
                token_in: toks[l.ti],
                token_out: toks[l.to],
                amount_in: a,
                amount_out: o,
            });
        }
        // nothing stranded: every token but the outputs spent
        if (0..toks.len()).any(|k| !is_out(k) && !hold[k].is_zero()) {
            return None;
        }
        let outs = self
            .out_toks
            .iter()
            .map(|t| slot(*t).map_or(U256::zero(), |k| hold[k]))
            .collect();
        let mut t = self.candidate((steps, outs), gas);
        t.excluded.clone_from(&c.excluded);
        Some(t)
    }
}
