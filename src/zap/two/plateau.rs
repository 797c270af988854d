//! After the crossing: the best mint's plateau, its left end (the smallest swap minting the
//! most) and, near its ends, the plan keeping the most leftover value. The general search ends
//! here ([`optimum`]); the closed form and the native search end with [`keep_most`].

use super::strict::{checked, deposit_of};
use super::{other, Kind, Pt, Two};
use crate::math::float::{from_f64_clamped, pow10, to_f64};
use primitive_types::U256;

/// Half-width of the window scanned around the crossing for stable pools.
const STABLE_WINDOW: u32 = 64;

/// The general search's answer from the crossing `(lo, hi)` ([`Two::crossing`]): the maximum
/// mint is at the crossing, `B(lo)` or `A(hi)`; its plateau's left end is searched, then the
/// first plan from there that survives the strict re-run, then [`keep_most`].
pub(super) fn optimum(
    two: &Two<'_>,
    i: usize,
    p0: &Pt,
    (lo, hi): (Pt, Pt),
    careful: bool,
) -> Option<Pt> {
    let j = other(i);
    let ai = *two.a.get(i)?;
    // Holes seen, or the two terms out of order across the crossing (the non-monotone quirk of
    // stable `get_y` with non-18-decimal coins): scan windows around the crossing.
    let disorder = lo.term[i] < hi.term[i] || lo.term[j] > hi.term[j];
    let irregular = two.stable() && (two.holes.get() > 0 || disorder);
    let top = top_of(two, i, ai, (lo, hi), irregular);
    let best = top.l();
    if best.is_zero() {
        return None;
    }
    if p0.l() >= best {
        return checked(two, i, p0, careful);
    }
    let left = left_end(two, i, p0, (&lo, &top), best, irregular);
    match first_on(two, i, left, &top, best, careful) {
        Some(first) => Some(keep_most(two, i, best, first, irregular, careful)),
        None => checked(two, i, &top, careful),
    }
}

/// The smallest evaluated plan reaching the best mint around the crossing: `lo` or `hi`, and
/// when `irregular` every plan of a window around `hi`.
fn top_of(two: &Two<'_>, i: usize, ai: U256, (lo, hi): (Pt, Pt), irregular: bool) -> Pt {
    let mut top = lo;
    let mut take = |p: &Pt| {
        let (l, b) = (p.l(), top.l());
        if l > b || (l == b && p.s < top.s) {
            top = *p;
        }
    };
    take(&hi);
    if irregular {
        // Holes and the non-monotone quirk: scan a window around the crossing.
        let w = U256::from(STABLE_WINDOW);
        let mut s = hi.s.saturating_sub(w);
        let end = hi.s.saturating_add(w).min(ai);
        while s <= end {
            if let Some(p) = two.eval(i, s) {
                take(&p);
            }
            s = s.saturating_add(U256::one());
            if s.is_zero() {
                break;
            }
        }
    }
    top
}

/// Left end of the plateau: the first `s` with `B(s) ≥ best` (`B` does not decrease), from
/// the crossing's last failing point `lo` and the best plan `top`.
fn left_end(
    two: &Two<'_>,
    i: usize,
    p0: &Pt,
    (lo, top): (&Pt, &Pt),
    best: U256,
    irregular: bool,
) -> Pt {
    let j = other(i);
    let reach = |p: &Pt| p.term[j] >= best;
    // When the crossing's last failing point is right before `top` and does not reach `best`,
    // `top` is the left end already (B does not decrease); otherwise search for it.
    let mut left = if lo.s.checked_add(U256::one()) == Some(top.s) && !reach(lo) {
        *top
    } else {
        two.first_true(i, *p0, *top, top.s.checked_sub(U256::one()), &reach)
            .1
    };
    if irregular {
        // Non-monotone quirk: an earlier s may still reach `best`.
        let w = U256::from(STABLE_WINDOW);
        let mut s = left.s.saturating_sub(w);
        while s < left.s {
            if let Some(p) = two.eval(i, s) {
                if p.l() >= best {
                    left = p;
                    break;
                }
            }
            s = s.saturating_add(U256::one());
        }
    }
    left
}

/// Walking right from `left`: the first plan that mints `best` and survives the strict re-run
/// (the plan and its checked form), or `None` when none does up to `top` (or within 4096
/// steps): then `top` is the answer.
fn first_on(
    two: &Two<'_>,
    i: usize,
    left: Pt,
    top: &Pt,
    best: U256,
    careful: bool,
) -> Option<(Pt, Pt)> {
    let mut p = left;
    let mut n = 0u32;
    loop {
        if p.l() >= best {
            if let Some(z) = checked(two, i, &p, careful) {
                return Some((p, z));
            }
        }
        n = n.saturating_add(1);
        if n > 4096 || p.s >= top.s {
            return None;
        }
        let mut s = p.s.saturating_add(U256::one());
        p = loop {
            if let Some(q) = two.eval(i, s) {
                break q;
            }
            s = s.saturating_add(U256::one());
            if s > top.s {
                return None;
            }
        };
    }
}

/// Value of `leftover` in raw coin-0 units at the spot price of post-swap reserves `r`
/// (`r0/r1` for x·y; the stable curve's marginal price on normalised reserves). Ranking only.
pub(super) fn leftover_value(kind: Kind, r: [U256; 2], left: [U256; 2]) -> f64 {
    let (r0, r1) = (to_f64(r[0]), to_f64(r[1]));
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    // f64 arithmetic: ranking only; decimals ≤ 77 fit i32
    let p = match kind {
        Kind::Solidly {
            stable: true, dec, ..
        } => {
            let s0 = pow10(18 - dec[0] as i32);
            let s1 = pow10(18 - dec[1] as i32);
            let (x, y) = (r0 * s0, r1 * s1);
            (s1 / s0) * (x * x * x + 3.0 * x * y * y) / (3.0 * x * x * y + y * y * y)
        }
        _ => r0 / r1,
    };
    #[allow(clippy::arithmetic_side_effects)] // f64
    let v = to_f64(left[0]) + to_f64(left[1]) * p;
    v
}

/// How many points right of the plateau's left end are compared by leftover value.
/// x·y pools stop at the plateau's end, so this only costs on wide plateaus, where the ceil
/// roundings can put the best value a few hundred units in (the donation per unit of swap is
/// about the fee, the rounding up to a unit of each coin). Stable pools scan less: their
/// evaluations cost more and holes are skipped rather than ending the scan.
const KEEP_SCAN: u32 = 2048;
/// The same for solidly stable pools.
const KEEP_SCAN_STABLE: u32 = 256;

/// Rank of a plan's leftover value: the floor of the value in raw coin-0 units, then the
/// fraction. Exact for x·y (`l0 + l1·r0/r1`); the stable curve's price is a float.
fn value_key(kind: Kind, p: &Pt) -> Option<(U256, f64)> {
    let (_, left) = deposit_of(p, p.l()).ok()?;
    let [l0, l1] = left;
    match kind {
        Kind::Solidly { stable: true, .. } => {
            let v = leftover_value(kind, p.r, left);
            let fl = from_f64_clamped(v, U256::MAX);
            #[allow(clippy::arithmetic_side_effects)] // f64
            let frac = v - to_f64(fl);
            Some((fl, frac))
        }
        _ => {
            let num = l1.full_mul(p.r[0]);
            let (q, rem) = num.div_mod(primitive_types::U512::from(p.r[1]));
            let q = U256::try_from(q).ok()?;
            let rem = U256::try_from(rem).ok()?;
            #[allow(clippy::arithmetic_side_effects)] // f64
            let frac = to_f64(rem) / to_f64(p.r[1]);
            Some((l0.checked_add(q)?, frac))
        }
    }
}

/// The plan chosen so far among the plateau's plans by [`keep_most`].
struct Keeper<'t, 'p> {
    two: &'t Two<'p>,
    i: usize,
    best: U256,
    careful: bool,
    /// the plateau's left end
    p: Pt,
    /// the plan kept so far
    chosen: Pt,
    /// The key of the best plan so far; `p`'s is computed when a second plateau point needs it
    /// (on a plateau of one point nothing is compared). No key for `p`: `p` is kept.
    key: Option<(U256, f64)>,
}

impl Keeper<'_, '_> {
    /// Compares `q` with the best so far; false when `p` has no key (stop, keep `p`).
    fn consider(&mut self, q: &Pt) -> bool {
        if q.l() < self.best {
            return true;
        }
        let cur = match self.key {
            Some(c) => c,
            None => match value_key(self.two.kind, &self.p) {
                Some(c) => {
                    self.key = Some(c);
                    c
                }
                None => return false,
            },
        };
        let Some(k) = value_key(self.two.kind, q) else {
            return true;
        };
        if k.0 > cur.0 || (k.0 == cur.0 && k.1 > cur.1) {
            if let Some(z) = checked(self.two, self.i, q, self.careful) {
                self.chosen = z;
                self.key = Some(k);
            }
        }
        true
    }
}

/// Among the plans of the optimal plateau just right of its left end, the one that keeps the
/// most leftover value. Swapping further inside the plateau donates input to the pool, so
/// the value trends down, but the ceil roundings of the deposit move it by up to a unit of each
/// coin: nearby points can keep more.
pub(super) fn keep_most(
    two: &Two<'_>,
    i: usize,
    best: U256,
    first: (Pt, Pt),
    irregular: bool,
    careful: bool,
) -> Pt {
    let (p, chosen) = first;
    let mut k = Keeper {
        two,
        i,
        best,
        careful,
        p,
        chosen,
        key: None,
    };
    let ai = two.a.get(i).copied().unwrap_or_default();
    let n = if two.stable() {
        KEEP_SCAN_STABLE
    } else {
        KEEP_SCAN
    };
    // Window right of the left end.
    let mut s = p.s;
    let mut last_on = p;
    for _ in 0..n {
        s = s.saturating_add(U256::one());
        if s > ai {
            return k.chosen;
        }
        let Some(q) = two.eval(i, s) else { continue };
        if q.l() < best {
            if irregular {
                continue;
            }
            // A(s) only falls from here on: the plateau has ended.
            return k.chosen;
        }
        last_on = q;
        if !k.consider(&q) {
            return k.chosen;
        }
    }
    far_window(&mut k, ai, n, &last_on)
}

/// [`keep_most`] on a wide plateau: the leftover value is about linear in s along it (the
/// donation pulls it down, the moving post-swap price can push it up), so the window at the
/// other end counts too. Its right end is the last s with A(s) ≥ best (A does not increase).
fn far_window(k: &mut Keeper<'_, '_>, ai: U256, n: u32, last_on: &Pt) -> Pt {
    let (two, i, best) = (k.two, k.i, k.best);
    let off = |q: &Pt| q.term[i] < best;
    let Some(far) = two
        .eval(i, ai)
        .or_else(|| two.eval_near(i, ai.saturating_sub(U256::one()), last_on.s, ai))
    else {
        return k.chosen;
    };
    let right = if off(&far) {
        two.first_true(i, *last_on, far, None, &off).0
    } else {
        far
    };
    let mut s = right.s;
    let stop = s.saturating_sub(U256::from(n)).max(last_on.s);
    while s > stop {
        if let Some(q) = two.eval(i, s) {
            if !k.consider(&q) {
                return k.chosen;
            }
        }
        s = s.saturating_sub(U256::one());
    }
    k.chosen
}
