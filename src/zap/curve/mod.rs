//! Curve stable-swap zap-in (and Saber's, through the exact searches only): the direct
//! `add_liquidity` at the given ratio, or `exchange(i, j, s)` first and then `add_liquidity`
//! with everything held.
//!
//! `minted(s)` for one ordered pair is smooth up to rounding noise (and a saw-tooth from the
//! integer output with 6- or 8-decimal coins), and its gain over the direct add is usually
//! tiny: the imbalance fee and the swap fee cost about the same. Two paths:
//!
//! * **Guided** (`guided.rs`): on pools whose coins hold within 10× of each other, deposits up
//!   to the pool's value and rounding far below the 1e-6 target, the float model
//!   ([`Curve::minted`]) finds the pair and the swap, pairs it shows cannot beat the best exact
//!   mint are left out, and a few exact evaluations confirm the model to 1e-8; any
//!   disagreement falls through to the exact searches.
//! * **Exact searches**, on every ordered pair: a coarse grid (uniform and geometric), an
//!   integer golden-section search in the bracket of the best grid point, then a scan of the
//!   neighbourhood of the best point (the float model's optimum only seeds it: on generated NG
//!   states with drained coins, huge A or amounts far above the pool, trusting the model
//!   missed the brute-force best by up to 45 bps). In such states `get_D` fails to converge at
//!   runs of swap amounts (most of them near some optima); a search point that reverts is read
//!   at the nearest amount that does not ([`Best::near`]).
//!
//! Every value is an exact simulation through [`Pool::swap`] and [`Pool::mint`].

mod guided;
mod noisy;

use super::{Rebalance, Strategy, ZapConfig, ZapIn, ZapSwap};
use crate::math::float::{from_f64_clamped, to_f64};
use crate::model::curve::{self as curve_f64, Curve};

/// In the noisy regime, pairs whose input is at most this many raw units are searched
/// exhaustively (every integer swap amount).
const EXHAUSTIVE: u32 = 4096;
use crate::error::{PoolError, ZapError};
use crate::pool::{Amounts, Pool};
use primitive_types::U256;
use smallvec::SmallVec;

/// One evaluated plan.
#[derive(Debug, Clone)]
struct Eval {
    s: U256,
    out: U256,
    minted: U256,
    deposit: Amounts,
}

/// Exchange `s` of coin `i` into `j`, then add everything held. `None` when a step reverts.
fn eval(pool: &Pool, a: &[U256], i: usize, j: usize, s: U256) -> Option<Eval> {
    let (out, p1) = pool.swap(i, j, s).ok()?;
    let mut h = Amounts::from_slice(a);
    let hi = h.get_mut(i)?;
    *hi = hi.checked_sub(s)?;
    let hj = h.get_mut(j)?;
    *hj = hj.checked_add(out)?;
    let (minted, _) = p1.mint(&h).ok()?;
    Some(Eval {
        s,
        out,
        minted,
        deposit: h,
    })
}

/// How far (in swap units, each way) [`Best::near`] looks unit by unit for a swap amount whose
/// plan does not revert, before doubling its steps. In drained or extreme NG states `get_D` fails to converge (`NoConvergence`) at
/// scattered amounts, close to half of them near the optimum of the generated states of
/// `tests/integration/zap_ng.rs`; a search that reads such a hole as "mints nothing" walks away
/// from the optimum (both misses of that test did).
const HOLE_PROBES: u32 = 4;

/// Keeps the best evaluation of one pair (most minted, then the smallest `s`).
struct Best {
    best: Option<Eval>,
    evals: u32,
}

impl Best {
    fn minted_at(&mut self, pool: &Pool, a: &[U256], i: usize, j: usize, s: U256) -> U256 {
        self.evals = self.evals.saturating_add(1);
        match eval(pool, a, i, j, s) {
            Some(e) => {
                let m = e.minted;
                let better = match &self.best {
                    None => true,
                    Some(b) => m > b.minted || (m == b.minted && s < b.s),
                };
                if better {
                    self.best = Some(e);
                }
                m
            }
            None => U256::zero(),
        }
    }

    /// [`Best::minted_at`] at `s`, or where `s` reverts, at the nearest amount in `[1, ai]`
    /// found that does not: `s ± 1`, ..., `s ± HOLE_PROBES`, then `s ± 2^k` for doubling
    /// offsets up to `ai / 64` (holes come in runs). The value of a search point is then what
    /// the plans next to it mint, not 0.
    fn near(&mut self, pool: &Pool, a: &[U256], (i, j): (usize, usize), s: U256, ai: U256) -> U256 {
        let m = self.minted_at(pool, a, i, j, s);
        if !m.is_zero() {
            return m;
        }
        #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
        let reach = (ai >> 6).max(U256::from(HOLE_PROBES));
        let mut k = U256::one();
        while k <= reach {
            let up = s.saturating_add(k);
            if up <= ai {
                let m = self.minted_at(pool, a, i, j, up);
                if !m.is_zero() {
                    return m;
                }
            }
            let down = s.saturating_sub(k);
            if !down.is_zero() {
                let m = self.minted_at(pool, a, i, j, down);
                if !m.is_zero() {
                    return m;
                }
            }
            k = if k < U256::from(HOLE_PROBES) {
                k.saturating_add(U256::one())
            } else {
                k.saturating_add(k)
            };
        }
        U256::zero()
    }
}

/// The best swap-first plan for the ordered pair `(i, j)`.
fn search_pair(pool: &Pool, a: &[U256], i: usize, j: usize, cfg: &ZapConfig) -> Option<Eval> {
    let ai = *a.get(i)?;
    if ai.is_zero() {
        return None;
    }
    let mut b = Best {
        best: None,
        evals: 0,
    };
    // Small inputs (where the integer noise is largest): every swap amount.
    if ai <= U256::from(EXHAUSTIVE) {
        let mut s = U256::one();
        while s <= ai {
            let _ = b.minted_at(pool, a, i, j, s);
            s = s.saturating_add(U256::one());
        }
        return b.best;
    }
    // Grid: uniform and geometric points on [1, a_i].
    let mut grid: alloc::vec::Vec<U256> = alloc::vec::Vec::new();
    let n_uniform = 48u32;
    for k in 1..=n_uniform {
        let s = crate::math::mul_div(ai, U256::from(k), U256::from(n_uniform)).ok()?;
        if !s.is_zero() {
            grid.push(s);
        }
    }
    #[allow(clippy::arithmetic_side_effects)] // a right shift of U256 cannot overflow
    let mut g = ai >> 1;
    while !g.is_zero() {
        grid.push(g);
        #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
        {
            g >>= 1;
        }
    }
    grid.sort_unstable();
    grid.dedup();
    let vals: alloc::vec::Vec<U256> = grid
        .iter()
        .map(|&s| b.near(pool, a, (i, j), s, ai))
        .collect();
    let peaks = grid_peaks(&grid, &vals, ai);
    let mut first = None;
    for &(_, lo, hi) in &peaks {
        let (lo, _) = ternary(lo, hi, cfg.curve_search_budget, |s| {
            b.near(pool, a, (i, j), s, ai)
        });
        first = first.or(Some(lo));
    }
    // Scan around the best point found.
    let centre = b.best.as_ref().map(|e| e.s).or(first)?;
    let w = U256::from(64u8);
    let mut s = centre.saturating_sub(w).max(U256::one());
    let end = centre.saturating_add(w).min(ai);
    while s <= end {
        let _ = b.minted_at(pool, a, i, j, s);
        s = s.saturating_add(U256::one());
    }
    b.best
}

/// The same search over the swap's output `o` instead of its input, each `o` bought with the
/// least input that yields it ([`Pool::amount_in`]). Used where the output coin is coarser than
/// the input (a 6-decimal or drained coin): `minted(s)` then has a saw-tooth whose teeth start
/// exactly at those least inputs, and `o ↦ minted(amount_in(o))` runs along the tops.
fn search_pair_by_output(
    pool: &Pool,
    a: &[U256],
    i: usize,
    j: usize,
    cfg: &ZapConfig,
) -> Option<Eval> {
    let ai = *a.get(i)?;
    if ai.is_zero() {
        return None;
    }
    let o_max = pool.amount_out(i, j, ai).ok()?;
    if o_max.is_zero() || o_max >= ai {
        return None;
    }
    let mut b = Best {
        best: None,
        evals: 0,
    };
    let at = |b: &mut Best, o: U256| -> U256 {
        match pool.amount_in(i, j, o) {
            Ok(s) if s <= ai && !s.is_zero() => b.near(pool, a, (i, j), s, ai),
            _ => U256::zero(),
        }
    };
    if o_max <= U256::from(EXHAUSTIVE) {
        let mut o = U256::one();
        while o <= o_max {
            let _ = at(&mut b, o);
            o = o.saturating_add(U256::one());
        }
        return b.best;
    }
    let n_uniform = 48u32;
    let mut grid: alloc::vec::Vec<U256> = (1..=n_uniform)
        .filter_map(|k| crate::math::mul_div(o_max, U256::from(k), U256::from(n_uniform)).ok())
        .filter(|o| !o.is_zero())
        .collect();
    grid.dedup();
    let vals: alloc::vec::Vec<U256> = grid.iter().map(|&o| at(&mut b, o)).collect();
    let peaks = grid_peaks(&grid, &vals, o_max);
    let &(k_best, _, _) = peaks.first()?;
    let mut best_o = *grid.get(k_best)?;
    let mut best_v = *vals.get(k_best)?;
    for &(_, lo, hi) in &peaks {
        ternary(lo, hi, cfg.curve_search_budget, |o| {
            let v = at(&mut b, o);
            if v > best_v {
                best_v = v;
                best_o = o;
            }
            v
        });
    }
    let w = U256::from(64u8);
    let mut o = best_o.saturating_sub(w).max(U256::one());
    let end = best_o.saturating_add(w).min(o_max);
    while o <= end {
        let _ = at(&mut b, o);
        o = o.saturating_add(U256::one());
    }
    b.best
}

/// How many local maxima of a search grid, besides its best point, get a golden section of
/// their own. `minted(s)` can have two humps: selling a drained coin, the mint first falls
/// below the direct add, then rises to an optimum above it; with that optimum between two grid
/// points that are both below the smallest swaps, the best grid point is a small swap and the
/// section in its bracket never sees the optimum (a generated NG state of `zap_ng`'s long test
/// missed the brute-force best by 1.8 bps so).
const EXTRA_PEAKS: usize = 2;

/// The grid's peaks, each `(k, lo, hi)` with its bracket (its neighbours on the grid, `1` and
/// `end` past the grid's ends; `vals[k]` is the value at `grid[k]`): the best point first (the
/// first on a tie), then up to [`EXTRA_PEAKS`] other local maxima (a positive value at least
/// its left neighbour's and above its right neighbour's), highest first.
fn grid_peaks(grid: &[U256], vals: &[U256], end: U256) -> SmallVec<[(usize, U256, U256); 3]> {
    let bracket = |k: usize| -> Option<(usize, U256, U256)> {
        let lo = match k.checked_sub(1) {
            None => U256::one(),
            Some(l) => *grid.get(l)?,
        };
        let hi = grid.get(k.saturating_add(1)).copied().unwrap_or(end);
        Some((k, lo, hi))
    };
    let mut peaks = SmallVec::new();
    let Some((k_best, _)) = vals
        .iter()
        .enumerate()
        .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(&x.0)))
    else {
        return peaks;
    };
    peaks.extend(bracket(k_best));
    let zero = U256::zero();
    let mut local: SmallVec<[(usize, U256); 8]> = SmallVec::new();
    for (k, v) in vals.iter().enumerate() {
        let left = k.checked_sub(1).and_then(|l| vals.get(l)).unwrap_or(&zero);
        let right = vals.get(k.saturating_add(1)).unwrap_or(&zero);
        if k != k_best && !v.is_zero() && v >= left && v > right {
            local.push((k, *v));
        }
    }
    local.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    peaks.extend(
        local
            .iter()
            .take(EXTRA_PEAKS)
            .filter_map(|&(k, _)| bracket(k)),
    );
    peaks
}

/// Integer ternary search of `f` on `[lo, hi]`, two evaluations per step (`m1` then `m2`),
/// until the bracket is at most 8 wide or `budget` evaluations are spent; the final bracket.
fn ternary(
    mut lo: U256,
    mut hi: U256,
    budget: u32,
    mut f: impl FnMut(U256) -> U256,
) -> (U256, U256) {
    let mut used = 0u32;
    while hi.saturating_sub(lo) > U256::from(8u8) && used < budget {
        #[allow(clippy::arithmetic_side_effects)] // division by a non-zero constant
        let third = hi.saturating_sub(lo) / 3;
        let (m1, m2) = (lo.saturating_add(third), hi.saturating_sub(third));
        let v1 = f(m1);
        let v2 = f(m2);
        used = used.saturating_add(2);
        if v1 < v2 {
            lo = m1;
        } else {
            hi = m2;
        }
    }
    (lo, hi)
}

/// The best plan found so far: the ordered pair swapped (`None` for the direct add) and its
/// evaluation.
type Found = Option<(Option<(usize, usize)>, Eval)>;

/// Keep `(pair, e)` in `best` when it mints more than what `best` holds (or `best` is empty).
fn keep_better(best: &mut Found, pair: Option<(usize, usize)>, e: Eval) {
    if best.as_ref().map_or(true, |(_, b)| e.minted > b.minted) {
        *best = Some((pair, e));
    }
}

/// The best Curve zap-in plan: the direct add ([`direct_add`]); on a pool with a supply, the
/// float-guided search where the model applies ([`guided::best`], else [`float_guided`]
/// seeds), then the exact searches on every ordered pair ([`exact_pairs`]) and the polish of
/// the noisy regime ([`noisy::polish`]).
pub(super) fn zap_in(pool: &Pool, amounts: &[U256], cfg: &ZapConfig) -> Result<ZapIn, ZapError> {
    let mut best: Found = direct_add(pool, amounts)?.map(|e| (None, e));
    let direct = best.as_ref().map(|(_, e)| e.clone());
    if pool.total_supply().is_zero() {
        // First deposit: no price to swap against.
        return finish(best, direct, amounts, cfg);
    }
    let model = float_model(pool, amounts)?;
    if let Some(md) = &model {
        if let Some((pair, e)) = guided::best(pool, amounts, md, best.as_ref().map(|(_, e)| e)) {
            keep_better(&mut best, pair, e);
            return finish(best, direct, amounts, cfg);
        }
        float_guided(pool, amounts, md, &mut best);
    }
    let pairs = exact_pairs(pool, amounts, cfg, &mut best);
    if let Some(md) = &model {
        let d = direct.as_ref().map_or(U256::zero(), |e| e.minted);
        noisy::polish(pool, amounts, md, &pairs, d, &mut best);
    }
    finish(best, direct, amounts, cfg)
}

/// The direct `add_liquidity` of `amounts`: its evaluation, `None` when the pool refuses it
/// for a reason a swap first could cure (nothing minted, a math failure, no convergence, an
/// oracle revert, an amount or first-deposit rule).
///
/// # Errors
/// Any other pool error, as [`ZapError::Pool`].
fn direct_add(pool: &Pool, amounts: &[U256]) -> Result<Option<Eval>, ZapError> {
    match pool.mint(amounts) {
        Ok((minted, _)) => Ok(Some(Eval {
            s: U256::zero(),
            out: U256::zero(),
            minted,
            deposit: Amounts::from_slice(amounts),
        })),
        Err(
            PoolError::InsufficientLiquidityMinted
            | PoolError::Math(_)
            | PoolError::NoConvergence
            | PoolError::OracleRevert
            | PoolError::InsufficientOutputAmount
            | PoolError::InsufficientInputAmount
            | PoolError::InvalidFirstDeposit,
        ) => Ok(None),
        Err(e) => Err(ZapError::Pool(e)),
    }
}

/// The float model that guides the search: Curve's ([`Curve::of_pool`]) when one amount per
/// coin is given; Saber has none here (its pairs go straight to the exact searches).
///
/// # Errors
/// [`ZapError::Unsupported`] for a pool that is neither Curve nor Saber.
fn float_model(pool: &Pool, amounts: &[U256]) -> Result<Option<Curve>, ZapError> {
    match pool {
        Pool::StableSwap(ss) => Ok(Curve::of_pool(ss).filter(|_| amounts.len() == ss.n_coins())),
        Pool::Saber(_) => Ok(None),
        _ => Err(ZapError::Unsupported(
            crate::error::ZapUnsupported::NotStableSwap,
        )),
    }
}

/// The exact searches on every ordered pair `(i, j)`, by the swap's input
/// ([`search_pair`]) and by its output ([`search_pair_by_output`]), each taken into `best`
/// when it mints more; per pair, its best plan (for [`noisy::polish`]).
fn exact_pairs(
    pool: &Pool,
    amounts: &[U256],
    cfg: &ZapConfig,
    best: &mut Found,
) -> SmallVec<[noisy::PairBest; 12]> {
    let n = pool.n_coins();
    let mut pairs: SmallVec<[noisy::PairBest; 12]> = SmallVec::new();
    for i in 0..n {
        for j in (0..n).filter(|j| *j != i) {
            let by_out = search_pair_by_output(pool, amounts, i, j, cfg);
            let mut pair: Option<noisy::PairBest> = None;
            for e in [search_pair(pool, amounts, i, j, cfg), by_out]
                .into_iter()
                .flatten()
            {
                if pair.map_or(true, |p| e.minted > p.4) {
                    pair = Some((i, j, e.s, e.out, e.minted));
                }
                keep_better(best, Some((i, j)), e);
            }
            pairs.extend(pair);
        }
    }
    pairs
}

/// The plan of the best of the ordered coin pairs by the float model `md`, from the model's
/// optimum: taken into `best` when it mints more (at most two pairs, those the model ranks
/// above the direct add).
fn float_guided(pool: &Pool, amounts: &[U256], md: &Curve, best: &mut Found) {
    let n = pool.n_coins();
    let af: alloc::vec::Vec<f64> = amounts.iter().map(|x| to_f64(*x)).collect();
    let direct_f = md.minted(&af, 0, 0, 0.0);
    let mut cands: alloc::vec::Vec<(usize, usize, f64, f64, f64, f64)> = alloc::vec::Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j {
                if let Some((s, f, lo, hi)) = curve_f64::scan_pair(md, &af, i, j) {
                    cands.push((i, j, s, f, lo, hi));
                }
            }
        }
    }
    cands.sort_by(|x, y| y.3.total_cmp(&x.3));
    for &(i, j, _, f, lo, hi) in cands.iter().take(2) {
        if f <= direct_f {
            continue;
        }
        let (s, _) = curve_f64::refine(md, &af, i, j, lo, hi);
        let s = from_f64_clamped(s, *amounts.get(i).unwrap_or(&U256::zero()));
        if let Some(e) = eval(pool, amounts, i, j, s) {
            keep_better(best, Some((i, j)), e);
        }
    }
}

/// The result: the best plan, or the direct add when the swap's gain is at most the surplus
/// threshold (the LP the direct add leaves unminted, relative to the best mint).
fn finish(
    best: Found,
    direct: Option<Eval>,
    amounts: &[U256],
    cfg: &ZapConfig,
) -> Result<ZapIn, ZapError> {
    let Some((mut pair, mut e)) = best else {
        return Err(ZapError::NothingToMint);
    };
    let mut below = None;
    if let (Some(_), Some(d)) = (pair, direct) {
        if cfg.surplus_threshold_ppm > 0 && !d.minted.is_zero() {
            let gap = to_f64(e.minted.saturating_sub(d.minted));
            let w = super::ppm(gap, to_f64(e.minted));
            if w <= cfg.surplus_threshold_ppm {
                pair = None;
                e = d;
                below = Some(w);
            }
        }
    }
    if e.minted.is_zero() {
        return Err(ZapError::NothingToMint);
    }
    let swap = pair.map(|(i, j)| ZapSwap {
        from: i,
        to: j,
        amount_in: e.s,
        amount_out: e.out,
    });
    let leftover: Amounts = amounts.iter().map(|_| U256::zero()).collect();
    Ok(ZapIn {
        rebalance: match (swap.is_some(), below) {
            (_, Some(wasted_ppm)) => Rebalance::BelowThreshold { wasted_ppm },
            (true, None) => Rebalance::Swapped,
            (false, None) => Rebalance::NotNeeded,
        },
        strategy: if swap.is_some() {
            Strategy::CurveSearch
        } else {
            Strategy::Direct
        },
        swap,
        minted: e.minted,
        deposit: e.deposit,
        leftover,
    })
}
