//! Step 5, cyclic profit: a profitable cycle of the dual's flows taken by the chosen plan.
//!
//! With arbitrage in the snapshot the dual's optimal flow runs around a loop, and the
//! recovery cuts the loop out (`cycles.rs`) so that the flows it simulates form a DAG. The cut
//! loops are kept, and each is offered to the chosen plan as one more candidate, with the
//! two-hop loops through the tokens the plan holds (an edge out and the best edge back through
//! another pool, on the whole graph within the source filters, where their zero-size rates
//! multiply above one): the dual's flows run only the loops its working set holds, which has
//! no edge into a sole input or out of a sole output. None under a hop cap (a loop lengthens
//! the paths through it, and the bound is then over the capped plans).
//!
//! 1. **Where**: the loop is entered at a token the plan holds, an input, an intermediate
//!    token (all its inflows precede its first outflow in the plan's order) or an output,
//!    just before the plan's first step that spends it (after the last step for an output).
//!    Each pool direction is swapped at most once per plan (the bound's premise): a hop
//!    whose pool direction the plan already swaps enlarges that step (which must come later
//!    in the plan than the hops before it) instead of swapping again; the other hops are new
//!    swaps placed just before the plan's next step. A pool swapped more than once (by the
//!    loop and the plan in other directions) is simulated in order on its evolving state.
//!    An output is entered just before the loop's first shared hop (the output held there is
//!    the loop's capital). Where a hop's pool direction is the plan's last step out of its
//!    token, which leaves no step to spend the loop's return, the plan is also tried with that
//!    step exchanged with a larger earlier one out of the same token; where a hop is the
//!    plan's step into an output, with that step moved to the end ([`Ctx::reordered`]).
//! 2. **How much**: the loop's exact return less its input is unimodal in the amount (concave
//!    curves, zero at zero). Each hop swapped on its pool's state where it runs in the plan (a
//!    shared hop on top of its step's own amount), the amounts `cap / 16^k` bracket the best
//!    and a ternary search within a factor 16 of it, on the exact gains compared as integers,
//!    picks the amount, at most what the step spending the rest of the token spends.
//! 3. **Then**: the plan is simulated again exactly with the loop: every step spends what it
//!    spent, except a step that spent its token's whole holding, which spends it again (the
//!    loop's return carried onward to the outputs); and once more with every step after the
//!    return spending the share of its token's holding it spent before (the return spread
//!    over all the outputs, which a basket of several outputs needs: its objective is the
//!    least output's), the better of the two kept.
//!
//! The result is a candidate like the others: exactly simulated, its gas counted, kept only
//! where its objective net of gas is higher.

use super::edges::Edge;
use super::finish::Candidate;
use super::propagate::{swap_whole, PoolStates};
use super::working_set::Ctx;
use crate::math::float::to_f64;
use crate::plan::Step;
use crate::units::{PoolId, TokenId};
use alloc::vec::Vec;
use primitive_types::{U256, U512};

/// Most ternary steps of the search for the loop's amount (each two exact simulations of the
/// loop): 2/3 of the bracket kept per step, 180 close a bracket of up to 2^105 units.
const SEARCH_TRIALS: usize = 180;

/// Most loops offered to one plan.
pub(super) const MAX_LOOPS: usize = 8;

/// Most orders of a plan tried for one loop ([`Ctx::reordered`]).
const REORDER_TRIES: usize = 2;

/// One swap of a loop: pool, coin indices, tokens, and where it runs in the plan: `at`, the
/// plan step it runs before (a new swap), or the plan step it enlarges (`shared`: the loop's
/// pool direction is that step's).
#[derive(Debug, Clone, Copy)]
struct Hop {
    pool: PoolId,
    i: usize,
    j: usize,
    ti: TokenId,
    to: TokenId,
    at: usize,
    shared: bool,
}

/// A holding of the simulation (a few dozen tokens at most: a linear scan).
type Holds = Vec<(TokenId, U256)>;

/// `a` added to (`plus`) or taken from `t`'s holding; `None` on overflow or underflow.
fn add(hold: &mut Holds, t: TokenId, a: U256, plus: bool) -> Option<()> {
    let k = match hold.iter().position(|(x, _)| *x == t) {
        Some(k) => k,
        None => {
            hold.push((t, U256::zero()));
            hold.len().checked_sub(1)?
        }
    };
    let h = &mut hold.get_mut(k)?.1;
    *h = if plus {
        h.checked_add(a)?
    } else {
        h.checked_sub(a)?
    };
    Some(())
}

/// `t`'s holding.
fn held(hold: &Holds, t: TokenId) -> U256 {
    hold.iter()
        .find(|(x, _)| *x == t)
        .map_or(U256::zero(), |x| x.1)
}

/// A swap step's pool and tokens.
fn dir(s: &Step) -> Option<(PoolId, TokenId, TokenId)> {
    s.as_swap()
        .map(|(p, sold, bought)| (p, sold.token, bought.token))
}

/// `hold` after a swap of `a` of `ti` for `o` of `to`; `None` on overflow or underflow.
fn swapped(hold: &mut Holds, (ti, a): (TokenId, U256), (to, o): (TokenId, U256)) -> Option<()> {
    add(hold, ti, a, false)?;
    add(hold, to, o, true)
}

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // f64, and local indices < len by construction
impl<'a> Ctx<'a> {
    /// The best of `c` with each loop of `loops` (working-set edges in order around) taken
    /// (module doc), or `None` where no loop makes a candidate that beats `c`.
    pub(super) fn with_loops(&self, c: &Candidate, loops: &[Vec<usize>]) -> Option<Candidate> {
        // a loop lengthens the paths through it: none where the caller caps the hops
        if self.req.max_hops.is_some() {
            return None;
        }
        let mut all: Vec<Vec<&Edge>> = loops
            .iter()
            .take(MAX_LOOPS)
            .map(|l| l.iter().map(|k| self.edges.get(*k).copied()).collect())
            .collect::<Option<_>>()?;
        for l in self.two_hop_loops(c) {
            let key = |x: &[&Edge]| {
                let mut y: Vec<(PoolId, TokenId, TokenId)> =
                    x.iter().map(|e| (e.pool, e.ti, e.to)).collect();
                y.sort_unstable();
                y
            };
            let k = key(&l);
            if !all.iter().any(|x| key(x) == k) {
                all.push(l);
            }
        }
        let mut best: Option<Candidate> = None;
        for l in &all {
            let base = best.as_ref().unwrap_or(c);
            let mut found = self.with_loop(base, l);
            for alt in self.reordered(base, l) {
                if let Some(t) = self.with_loop(&alt, l) {
                    if found.as_ref().map_or(true, |f| t.beats(f)) {
                        found = Some(t);
                    }
                }
            }
            if let Some(t) = found.filter(|t| t.beats(base)) {
                best = Some(t);
            }
        }
        best
    }

    /// `c` in other orders that let loop `l` in. Where a hop of the loop is the pool
    /// direction of the step that spends the rest of its token `t`, no step is left after
    /// the loop to spend its return of `t` (the loop of a plan whose last step out of its
    /// input is a pool the loop sells the input into): that step is exchanged with one of the
    /// [`REORDER_TRIES`] largest earlier steps spending `t`, which then spends the rest.
    /// Where a hop is a plan step into an output, the loop can be entered with the output
    /// held just before that step (a loop out of the output and back through the plan's
    /// step): that step is moved to the end. Each order is simulated again exactly (one
    /// where a step would spend a token before receiving it is dropped) and is only a base
    /// for [`Ctx::with_loop`]: the result competes with the plan as it was.
    fn reordered(&self, c: &Candidate, l: &[&Edge]) -> Vec<Candidate> {
        let mut out = Vec::new();
        let Some(empties) = self.empties(c) else {
            return out;
        };
        for e in l {
            let Some(s) = c
                .steps
                .iter()
                .position(|st| dir(st) == Some((e.pool, e.ti, e.to)))
            else {
                continue;
            };
            if empties[s] {
                let mut earlier: Vec<(U256, usize)> = c.steps[..s]
                    .iter()
                    .enumerate()
                    .filter_map(|(k, st)| st.as_swap().map(|(_, sold, _)| (sold, k)))
                    .filter(|(sold, _)| sold.token == e.ti)
                    .map(|(sold, k)| (sold.amount, k))
                    .collect();
                earlier.sort_unstable_by(|a, b| b.cmp(a));
                for &(_, k) in earlier.iter().take(REORDER_TRIES) {
                    let mut alt = c.clone();
                    alt.steps.swap(s, k);
                    out.extend(self.in_order(&alt));
                }
            }
            // a hop into an output: its step moved to the end, where the most of the output is
            // held to enter the loop with just before it
            if self.out_toks.contains(&e.to) && s + 1 < c.steps.len() {
                let mut alt = c.clone();
                let step = alt.steps.remove(s);
                alt.steps.push(step);
                out.extend(self.in_order(&alt));
            }
        }
        out
    }

    /// `c`'s steps simulated again exactly in the order they are in, each spending its
    /// amount but the last out of each token, which spends the rest; `None` where a step
    /// would spend a token before it is received.
    fn in_order(&self, c: &Candidate) -> Option<Candidate> {
        let em = self.empties(c)?;
        self.resimulated(c, &[], &em, U256::zero(), false)
    }

    /// The holdings before the plan's first step: the inputs (`None` on overflow, an input
    /// given twice summed).
    fn input_holds(&self) -> Option<Holds> {
        let mut hold: Holds = Vec::new();
        for (x, a) in &self.prep.inputs {
            add(&mut hold, *x, *a, true)?;
        }
        Some(hold)
    }

    /// The two-hop loops through the tokens plan `c` holds (its inputs and the tokens its
    /// steps receive), on the whole graph within the source filters: an edge `t → u` and
    /// the edge `u → t` of another pool with the highest zero-size rate, where the two rates'
    /// product exceeds one at the snapshot states; the [`MAX_LOOPS`] most profitable by that
    /// product first. The dual's flows run only some of a market's loops (those the cycle
    /// cuts meet; edges into a sole input or out of a sole output are not in the working set
    /// at all), so these are offered beside them; the exact search decides what each is worth.
    fn two_hop_loops(&self, c: &Candidate) -> Vec<Vec<&'a Edge>> {
        let mut held_toks: Vec<TokenId> = self.prep.inputs.iter().map(|x| x.0).collect();
        for s in &c.steps {
            if let Some((_, _, to)) = dir(s) {
                held_toks.push(to);
            }
        }
        held_toks.sort_unstable();
        held_toks.dedup();
        let edges = self.cache.edges();
        let allowed = |k: usize| self.priced(k);
        let mut found: Vec<(f64, usize, usize)> = Vec::new();
        // the edges into `t`, by their input token and best rate first
        let mut back: Vec<(u32, f64, usize)> = Vec::new();
        for t in &held_toks {
            back.clear();
            back.extend(
                self.cache
                    .in_of(t.index())
                    .iter()
                    .filter(|b| allowed(b.edge as usize))
                    .map(|b| (b.tok, b.rate0, b.edge as usize)),
            );
            back.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)));
            for a in self.cache.out_of(t.index()) {
                let k = a.edge as usize;
                let Some(e) = edges.get(k).filter(|_| allowed(k)) else {
                    continue;
                };
                // the best edge back from `e.to` into `t` through another pool
                let from = back.partition_point(|b| b.0 < a.tok);
                let best_back = back
                    .get(from..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| b.0 == a.tok)
                    .find(|b| edges.get(b.2).is_some_and(|r| r.pool != e.pool));
                if let Some(&(_, rate, kb)) = best_back {
                    let product = e.rate0 * rate;
                    if product > 1.0 {
                        // each loop once, by its smaller edge first (rotations are tried later)
                        found.push((product, k.min(kb), k.max(kb)));
                    }
                }
            }
        }
        found.sort_unstable_by_key(|x| (x.1, x.2));
        found.dedup_by(|x, y| (x.1, x.2) == (y.1, y.2));
        found.sort_unstable_by(|x, y| y.0.total_cmp(&x.0));
        found
            .into_iter()
            .take(MAX_LOOPS)
            .filter_map(|(_, a, b)| Some(alloc::vec![edges.get(a)?, edges.get(b)?]))
            .collect()
    }

    /// `c` with the loop `l` taken at its best entry token, or `None` where it cannot be.
    fn with_loop(&self, c: &Candidate, l: &[&Edge]) -> Option<Candidate> {
        let hops: Vec<Hop> = l
            .iter()
            .map(|e| Hop {
                pool: e.pool,
                i: e.i(),
                j: e.j(),
                ti: e.ti,
                to: e.to,
                at: 0,
                shared: false,
            })
            .collect();
        let n = hops.len();
        if n < 2 || (0..n).any(|k| hops[k].to != hops[(k + 1) % n].ti) {
            return None;
        }
        let mut dirs: Vec<(PoolId, TokenId, TokenId)> = Vec::with_capacity(c.steps.len());
        for s in &c.steps {
            dirs.push(dir(s)?);
        }
        // the loop's pool directions distinct (each swapped once)
        let mut own: Vec<(PoolId, TokenId, TokenId)> =
            hops.iter().map(|h| (h.pool, h.ti, h.to)).collect();
        own.sort_unstable();
        if own.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        let empties = self.empties(c)?;
        let is_in = |t: TokenId| self.prep.inputs.iter().any(|(x, _)| *x == t);
        // each entry token the plan holds: the rotation of the loop that starts there
        let mut best: Option<Candidate> = None;
        for r in 0..n {
            let mut rot: Vec<Hop> = (0..n).map(|k| hops[(r + k) % n]).collect();
            let t = rot[0].ti;
            // the plan step of each hop whose pool direction is the plan's
            let step_of = |h: &Hop| dirs.iter().position(|d| *d == (h.pool, h.ti, h.to));
            // entry: before the first step spending `t` (its inflows all precede it), or the
            // shared step itself, which must leave some of `t` to later steps; for an output
            // nothing spends, just before the loop's first shared hop (the output held there
            // is the loop's capital), else after the last step
            let first = dirs.iter().position(|d| d.1 == t);
            let p0 = match (step_of(&rot[0]), first) {
                (Some(s), _) if !empties[s] => s,
                (Some(_), _) => continue,
                (None, Some(k)) => k,
                (None, None) if self.out_toks.contains(&t) => {
                    rot.iter().find_map(step_of).unwrap_or(c.steps.len())
                }
                (None, None) => continue,
            };
            if !is_in(t) && !dirs[..p0].iter().any(|d| d.2 == t) {
                continue;
            }
            // the hops in order: a shared hop at its step (which must come later), a new
            // one just before the next plan step
            let mut cur = p0;
            let mut ok = true;
            for h in &mut rot {
                match step_of(h) {
                    Some(s) if s >= cur => {
                        h.at = s;
                        h.shared = true;
                        cur = s + 1;
                    }
                    Some(_) => ok = false,
                    None => h.at = cur,
                }
            }
            // the return must reach a step that spends `t`'s whole holding, or an output
            let spent_later = (cur..c.steps.len()).any(|k| empties[k] && dirs[k].1 == t);
            if !ok || !(spent_later || self.out_toks.contains(&t)) {
                continue;
            }
            let Some(cand) = self.entered(c, &rot, &empties) else {
                continue;
            };
            if cand.beats(best.as_ref().unwrap_or(c)) {
                best = Some(cand);
            }
        }
        best
    }

    /// Which steps of `c` spend their token's whole holding (the token not an output), by the
    /// amounts `c` records; `None` where a step spends more than is held.
    fn empties(&self, c: &Candidate) -> Option<Vec<bool>> {
        let mut hold = self.input_holds()?;
        let mut empties: Vec<bool> = Vec::with_capacity(c.steps.len());
        for s in &c.steps {
            let (_, sold, bought) = s.as_swap()?;
            swapped(
                &mut hold,
                (sold.token, sold.amount),
                (bought.token, bought.amount),
            )?;
            let t = sold.token;
            empties.push(held(&hold, t).is_zero() && !self.out_toks.contains(&t));
        }
        Some(empties)
    }

    /// `c` with the loop `rot` (starting and ending at `rot[0].ti`, each hop placed) taken at
    /// the amount the search finds, simulated exactly.
    fn entered(&self, c: &Candidate, rot: &[Hop], empties: &[bool]) -> Option<Candidate> {
        let t = rot[0].ti;
        // each hop's pool state where it runs in the plan, and `t`'s holding at the entry
        let mut states = PoolStates::new();
        let mut at_hop: Vec<Option<crate::pool::Pool>> = rot.iter().map(|_| None).collect();
        let mut hold = self.input_holds()?;
        let mut entry = None;
        for k in 0..=c.steps.len() {
            for (h, st) in rot.iter().zip(at_hop.iter_mut()) {
                if h.at == k {
                    *st = Some(states.current(self.graph, h.pool)?.clone());
                }
            }
            if k == rot[0].at {
                entry = Some(held(&hold, t));
            }
            let Some((pool, sold, bought)) = c.steps.get(k).and_then(Step::as_swap) else {
                continue;
            };
            swapped(
                &mut hold,
                (sold.token, sold.amount),
                (bought.token, bought.amount),
            )?;
            let (token_in, token_out, amount_in) = (sold.token, bought.token, sold.amount);
            if rot.iter().any(|h| h.pool == pool) {
                let (i, j) = (
                    self.graph.coin_index(pool, token_in)?,
                    self.graph.coin_index(pool, token_out)?,
                );
                let cur = states.current(self.graph, pool)?;
                let (_, next) = swap_whole(cur, i, j, amount_in)?;
                states.set(pool, next);
            }
        }
        // a shared entry hop enlarges a step that spends part of `t`: at most what it leaves
        let mut cap = match c.steps.get(rot[0].at) {
            Some(&Step::Swap { amount_in, .. }) if rot[0].shared => {
                entry?.checked_sub(amount_in)?
            }
            _ => entry?,
        };
        // and steps that spend part of `t` before the return keep their amounts: the loop
        // takes at most what the step spending the rest of `t` spends
        if let Some(&Step::Swap { amount_in, .. }) = c
            .steps
            .iter()
            .zip(empties)
            .rev()
            .find(|(s, e)| **e && dir(s).is_some_and(|d| d.1 == t))
            .map(|x| x.0)
        {
            cap = cap.min(amount_in);
        }
        let states: Vec<crate::pool::Pool> = at_hop.into_iter().collect::<Option<_>>()?;
        let a = self.loop_amount(c, rot, &states, cap)?;
        // the return carried on by the step spending the rest of `t`, or spread over all the
        // steps after it by their shares of their tokens (several outputs need it spread)
        let last = self.resimulated(c, rot, empties, a, false);
        let spread = self.resimulated(c, rot, empties, a, true);
        match (last, spread) {
            (Some(l), Some(s)) if s.beats(&l) => Some(s),
            (l, s) => l.or(s),
        }
    }

    /// The plan `c` simulated again exactly with the loop `rot` entered with `a`: new hops
    /// swap before their step, shared hops enlarge theirs, and every step that spent its
    /// token's whole holding spends it again. With `spread`, every step after the loop's
    /// return spends the share of its token's holding that it spent in `c` (the floor of
    /// holding × amount / holding in `c`; the same amount where the holding is the same).
    #[allow(clippy::needless_range_loop)] // `k` runs one past the steps (hops after the last)
    fn resimulated(
        &self,
        c: &Candidate,
        rot: &[Hop],
        empties: &[bool],
        a: U256,
        spread: bool,
    ) -> Option<Candidate> {
        let mut hold = self.input_holds()?;
        // the holdings of `c` before each of its steps
        let mut orig = hold.clone();
        let mut states = PoolStates::new();
        let mut steps: Vec<Step> = Vec::with_capacity(c.steps.len() + rot.len());
        // the loop's amount in flight: what the next hop spends
        let mut x = a;
        let mut next_hop = 0;
        for k in 0..=c.steps.len() {
            while next_hop < rot.len() && rot[next_hop].at == k && !rot[next_hop].shared {
                let h = rot[next_hop];
                let cur = states.current(self.graph, h.pool)?;
                let (o, next) = swap_whole(cur, h.i, h.j, x)?;
                if o.is_zero() {
                    return None;
                }
                states.set(h.pool, next);
                swapped(&mut hold, (h.ti, x), (h.to, o))?;
                steps.push(Step::Swap {
                    pool: h.pool,
                    token_in: h.ti,
                    token_out: h.to,
                    amount_in: x,
                    amount_out: o,
                });
                x = o;
                next_hop += 1;
            }
            let Some((pool, sold, bought)) = c.steps.get(k).and_then(Step::as_swap) else {
                continue;
            };
            let (token_in, token_out, amount_in) = (sold.token, bought.token, sold.amount);
            let before = held(&orig, token_in);
            swapped(
                &mut orig,
                (sold.token, sold.amount),
                (bought.token, bought.amount),
            )?;
            let shared = next_hop < rot.len() && rot[next_hop].shared && rot[next_hop].at == k;
            // the step's own amount, and with the loop's on top where it is the loop's
            let base = if empties[k] {
                let h = held(&hold, token_in);
                if shared {
                    h.checked_sub(x)?
                } else {
                    h
                }
            } else if spread && next_hop == rot.len() {
                let h = held(&hold, token_in);
                if h == before {
                    amount_in
                } else {
                    let share = h.full_mul(amount_in).checked_div(U512::from(before))?;
                    U256::try_from(share).ok()?
                }
            } else {
                amount_in
            };
            let amt = if shared { base.checked_add(x)? } else { base };
            if amt.is_zero() {
                continue;
            }
            let (i, j) = (
                self.graph.coin_index(pool, token_in)?,
                self.graph.coin_index(pool, token_out)?,
            );
            let cur = states.current(self.graph, pool)?;
            let (o, next) = swap_whole(cur, i, j, amt)?;
            if shared {
                // the loop's share of the output: above what the step's own amount gives
                let (_, o0, _) = cur.swap_taken(i, j, base).ok()?;
                x = o.checked_sub(o0)?;
                if x.is_zero() {
                    return None;
                }
                next_hop += 1;
            }
            states.set(pool, next);
            swapped(&mut hold, (token_in, amt), (token_out, o))?;
            steps.push(Step::Swap {
                pool,
                token_in,
                token_out,
                amount_in: amt,
                amount_out: o,
            });
        }
        // nothing stranded: every token but the outputs spent
        if next_hop < rot.len()
            || hold
                .iter()
                .any(|(y, h)| !h.is_zero() && !self.out_toks.contains(y))
        {
            return None;
        }
        let outs = self.out_toks.iter().map(|o| held(&hold, *o)).collect();
        let gas = self.gas();
        let mut cand = self.candidate((steps, outs), gas);
        cand.excluded.clone_from(&c.excluded);
        Some(cand)
    }

    /// The amount (at most `cap`) at which the loop `rot` returns most above what it spends,
    /// each hop swapped on its pool's state where it runs in the plan (`states`; a shared hop
    /// on top of its step's own amount); `None` where no amount tried returns more than it
    /// spends.
    fn loop_amount(
        &self,
        c: &Candidate,
        rot: &[Hop],
        states: &[crate::pool::Pool],
        cap: U256,
    ) -> Option<U256> {
        if cap.is_zero() {
            return None;
        }
        // the loop's exact return and its input `a` (`None`: a revert)
        let gain = |a: U256| -> Option<(U256, U256)> {
            let mut x = a;
            for (h, st) in rot.iter().zip(states) {
                x = match c.steps.get(h.at) {
                    Some(&Step::Swap {
                        amount_in,
                        amount_out,
                        ..
                    }) if h.shared => {
                        let y = amount_in.checked_add(x)?;
                        swap_whole(st, h.i, h.j, y)?.0.checked_sub(amount_out)?
                    }
                    _ => swap_whole(st, h.i, h.j, x)?.0,
                };
            }
            Some((x, a))
        };
        // the loop's exact return less its input as a float, for the search (a revert: -inf)
        let score = |a: U256| match gain(a) {
            Some((o, a)) if o >= a => to_f64(o - a),
            Some((o, a)) => -to_f64(a - o),
            None => f64::NEG_INFINITY,
        };
        // coarse: the holding halved four bits at a time, the best of those brackets the
        // search
        let mut coarse = (cap, score(cap));
        let mut a = cap >> 4;
        while !a.is_zero() {
            let f = score(a);
            if f > coarse.1 {
                coarse = (a, f);
            }
            a >>= 4;
        }
        // fine: a ternary search on the exact gains (compared as integers: near its peak the
        // gain is too flat for a float to rank), within a factor 16 of the coarse best
        let better = |x: Option<(U256, U256)>, y: Option<(U256, U256)>| match (x, y) {
            (Some((ox, ax)), Some((oy, ay))) => ox.saturating_add(ay) > oy.saturating_add(ax),
            (Some(_), None) => true,
            _ => false,
        };
        let (mut lo, mut hi) = (
            coarse.0 >> 4,
            coarse.0.saturating_mul(U256::from(16)).min(cap),
        );
        for _ in 0..SEARCH_TRIALS {
            if hi - lo < U256::from(3) {
                break;
            }
            let third = (hi - lo) / 3;
            let (m1, m2) = (lo + third, hi - third);
            let g2 = gain(m2);
            if g2.is_none() || better(gain(m1), g2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        // (amount, profit) of the most profitable amount offered
        let mut best: Option<(U256, U256)> = None;
        let mut offer = |a: U256| {
            if let Some((o, x)) = gain(a) {
                if o > x && best.map_or(true, |b| o - x > b.1) {
                    best = Some((x, o - x));
                }
            }
        };
        // the few amounts left (at most 8, should the bracket not have closed), and the
        // coarse best
        let mut a = lo;
        while a <= hi && a - lo < U256::from(8) {
            offer(a);
            a += U256::one();
        }
        offer(coarse.0);
        best.map(|b| b.0)
    }
}
