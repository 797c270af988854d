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
//! 3. **Snapped**: a solidly pool charges `⌊x·fee_bps/10000⌋` of an input `x`, so the inputs
//!    up to the next fee unit swap without a fee. Every solidly leg that does not spend its
//!    token's whole holding (and whose pool the plan swaps once) may move to an edge of its
//!    fee unit: up to the last input charged the same fee (the added input swaps fee-free,
//!    and the whole-holding leg beside it no longer pays its fee on it), or down to the last
//!    input of the unit below (one fee unit less, the input given back paying its fee
//!    beside). Against the float curve either is worth `1 − frac(x·f)` input units nearly,
//!    about half a unit a leg: the float split prices every leg at the fee `f·x`, which the
//!    certificate's rounding slack counts as a whole unit a leg ([`super::certify`]). Each
//!    edge is priced by the leg's exact output there at the output token's optimal price,
//!    against the input at the input token's (a coarse output's floor can eat the saving),
//!    and the better one taken where it is worth something; a whole-holding leg gives up at
//!    most half of what it spent. Where the snaps together are worth less than two units of
//!    the coarsest output (or [`TRIM_GAIN`] of the plan), the floors they move downstream
//!    are as large as the gain, and nothing is tried. Otherwise the snapped plan is simulated
//!    forward (step 2) and competes with the trimmed one.
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
    /// The candidate `c` with its swaps trimmed, and the better of that and the same with its
    /// solidly legs snapped (module doc); `None` where neither was worth trying or both forward
    /// simulations fail. `price(t)` is the optimal price of graph token `t` (`None` outside the
    /// working set: such swaps are trimmed whatever their units, and not snapped).
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
        let trim = (trimmed && gain >= TRIM_GAIN * value)
            .then(|| self.forward(c, &legs, &toks, gas))
            .flatten();
        // the solidly legs snapped to an edge of their fee units, where that is worth it
        let snapped = self
            .snapped(&mut legs, &toks, value, price)
            .then(|| self.forward(c, &legs, &toks, gas))
            .flatten();
        match (trim, snapped) {
            (Some(t), Some(s)) => Some(if s.beats(&t) { s } else { t }),
            (t, s) => t.or(s),
        }
    }

    /// The solidly legs of `legs` (their inputs as trimmed) moved to an edge of their fee unit
    /// where that is worth more than it costs (module doc, step 3); whether the moves together
    /// are worth simulating: [`TRIM_GAIN`] of the plan's inputs `value` and two units of the
    /// coarsest output (`legs` may be moved either way). A move is priced by the leg's
    /// exact output at the new input (on the snapshot state: the pool is swapped once) at the
    /// output token's optimal price, against the input it takes from (or gives to) the
    /// whole-holding leg beside it at the input token's: where the output's unit is coarse
    /// (WBTC bought with an 18-decimal token) the floor can eat what the fee saves.
    fn snapped(
        &self,
        legs: &mut [Leg],
        toks: &[TokenId],
        value: f64,
        price: &dyn Fn(TokenId) -> Option<f64>,
    ) -> bool {
        // what each token's whole-holding leg may give up to the legs beside it: half of it
        let mut room = vec![U256::zero(); toks.len()];
        for l in legs.iter().filter(|l| l.empties) {
            room[l.ti] = l.a / 2;
        }
        let mut gain = 0.0;
        for l in legs.iter_mut() {
            if l.empties || !l.once || l.n.is_zero() || room[l.ti].is_zero() {
                continue;
            }
            let Some(p) = self.graph.pool(l.pool) else {
                continue;
            };
            let crate::pool::Pool::Solidly(sp) = &p.pool else {
                continue;
            };
            let (Some(pi), Some(po)) = (price(toks[l.ti]), price(toks[l.to])) else {
                continue;
            };
            let Some((top, below)) = fee_unit_edges(l.n, sp.fee_bps()) else {
                continue;
            };
            // each edge's worth: the output it adds (or takes) less the input it takes (or
            // gives back), at the optimal prices
            let worth = |n: U256| {
                let o = p.pool.amount_out(l.i, l.j, n).ok()?;
                let d_out = to_f64(o) - to_f64(l.target);
                let d_in = to_f64(n) - to_f64(l.n);
                Some((po * d_out - pi * d_in, o))
            };
            let mut best: Option<(f64, U256, U256)> = None;
            for n in [Some(top), below].into_iter().flatten() {
                if n > l.n && n - l.n > room[l.ti] {
                    continue;
                }
                if let Some((w, o)) = worth(n) {
                    if w > best.map_or(0.0, |b| b.0) {
                        best = Some((w, n, o));
                    }
                }
            }
            let Some((w, n, o)) = best else {
                continue;
            };
            if n > l.n {
                room[l.ti] -= n - l.n;
            } else {
                room[l.ti] = room[l.ti].saturating_add(l.n - n);
            }
            gain += w;
            l.n = n;
            l.target = o;
        }
        // below a unit of the coarsest output, what the floors downstream round away is as
        // large as what the snaps win (and may be all of it)
        let quantum = self
            .out_toks
            .iter()
            .filter_map(|t| price(*t))
            .fold(0.0, f64::max);
        gain >= (TRIM_GAIN * value).max(2.0 * quantum)
    }

    /// The plan of `legs` simulated forward (module doc, step 2), as a candidate beside `c`.
    fn forward(
        &self,
        c: &Candidate,
        legs: &[Leg],
        toks: &[TokenId],
        gas: Option<GasModel>,
    ) -> Option<Candidate> {
        let slot = |t: TokenId| toks.binary_search(&t).ok();
        let is_out = |k: usize| self.out_toks.contains(&toks[k]);
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
        for l in legs {
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

/// The two edges of the fee unit of a solidly leg's input `n` (`fee_bps`: the pool charges
/// `⌊n·fee_bps/10000⌋`): the last input charged the same fee, and the last input of the unit
/// below (none in the first unit). `None` where the input is already at the top of its unit,
/// for no fee, or for an input too large.
#[allow(clippy::arithmetic_side_effects)] // checked where it can overflow
fn fee_unit_edges(n: U256, fee_bps: u32) -> Option<(U256, Option<U256>)> {
    if fee_bps == 0 {
        return None;
    }
    // (in 128 bits where the products fit: the wide division is the cost here)
    if let Some(e) = u128::try_from(n)
        .ok()
        .and_then(|m| fee_unit_edges_u128(m, fee_bps))
    {
        return e.map(|(t, b)| (U256::from(t), b.map(U256::from)));
    }
    let (b, den) = (
        U256::from(fee_bps),
        U256::from(crate::pool::solidly::FEE_DENOMINATOR),
    );
    let k = n.checked_mul(b)? / den;
    let top = (k.checked_add(U256::one())?.checked_mul(den)? - U256::one()) / b;
    if top == n {
        return None;
    }
    Some((top, (!k.is_zero()).then(|| (k * den - U256::one()) / b)))
}

/// [`fee_unit_edges`] in 128 bits: `None` where a product overflows, else its answer.
#[allow(clippy::arithmetic_side_effects)] // checked where it can overflow; b > 0
fn fee_unit_edges_u128(m: u128, fee_bps: u32) -> Option<Option<(u128, Option<u128>)>> {
    let (b, den) = (
        u128::from(fee_bps),
        u128::from(crate::pool::solidly::FEE_DENOMINATOR),
    );
    let k = m.checked_mul(b)? / den;
    let top = (k.checked_add(1)?.checked_mul(den)? - 1) / b;
    Some((top != m).then(|| (top, (k != 0).then(|| (k * den - 1) / b))))
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::cast_precision_loss
)]
mod tests {
    use super::fee_unit_edges;
    use primitive_types::U256;

    /// Against a scan: the last input of the unit `n` is in (unless `n` is it: `None`) and
    /// the last input of the unit below (none in the first unit); on the 128-bit path, where
    /// its products overflow, and above 2^128.
    #[test]
    fn fee_unit_edges_are_the_tops_of_the_unit_and_the_one_below() {
        for bps in [1u32, 3, 5, 30, 100, 333, 625, 5000, 9999] {
            let fee = |x: U256| x * U256::from(bps) / U256::from(10_000u32);
            let w = 10_000 / bps + 2;
            let starts = [
                U256::zero(),
                U256::from(u64::MAX / 20_000 - 3_000),
                U256::from(u128::MAX / 10_000) - U256::from(1_500u32),
                U256::from(u128::MAX) - U256::from(1_500u32),
                U256::one() << 130,
            ];
            for start in starts {
                // the fees of start − 2w .. start + 3000 + 2w, once
                let lo = start.saturating_sub(U256::from(2 * w));
                let fees: Vec<U256> = (0..3_000 + 4 * w)
                    .map(|i| fee(lo + U256::from(i)))
                    .collect();
                let at = |n: U256| (n - lo).as_usize();
                for r in 0..3_000u32 {
                    let n = start + U256::from(r);
                    let k = fees[at(n)];
                    let mut top = at(n);
                    while fees[top + 1] == k {
                        top += 1;
                    }
                    let below = (!k.is_zero()).then(|| {
                        let mut b = at(n);
                        while fees[b] == k {
                            b -= 1;
                        }
                        lo + U256::from(b)
                    });
                    let top = lo + U256::from(top);
                    let want = (top != n).then_some((top, below));
                    assert_eq!(fee_unit_edges(n, bps), want, "{bps} bps, {n}");
                }
            }
        }
        assert_eq!(fee_unit_edges(U256::from(123u8), 0), None);
        assert_eq!(fee_unit_edges(U256::MAX, 30), None);
    }
}
