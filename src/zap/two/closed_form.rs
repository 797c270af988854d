//! [`Strategy::ClosedForm`](crate::zap::Strategy::ClosedForm): Uniswap V2 with a constant
//! mint supply, solved over the mint `L` instead of the swap `s`.

use super::plateau::keep_most;
use super::strict::checked;
use super::{other, Kind, Pt, Two};
use primitive_types::{U256, U512};

/// `ceil(a / b)` on 512-bit values; `None` for `b == 0`.
fn div_up512(a: U512, b: U512) -> Option<U512> {
    if b.is_zero() {
        return None;
    }
    let (q, r) = a.div_mod(b);
    if r.is_zero() {
        Some(q)
    } else {
        q.checked_add(U512::one())
    }
}

/// Uniswap V2 with a constant mint supply (protocol fee off, or `kLast` 0): the optimum in
/// closed form over the mint `L` instead of the swap `s`.
///
/// With `T` constant, `A(s) ≥ L ⟺ s ≤ s_max(L) = floor((a_i·T − L·r_i)/(T + L))` and
/// `B(s) ≥ L ⟺ out(s) ≥ need(L) = ceil((L·r_j − a_j·T)/(T + L))`, and the least input whose
/// output reaches `need` is `ceil(den·r_i·need / (γ·(r_j − need)))` (γ = den − fee). `L` is
/// reachable iff `s_min(L) ≤ s_max(L)`; both sides are monotone in `L`, so the best `L` is found
/// by bisection between the two terms at the float guess, and `s_min(best)` is the plateau's
/// left end. Both are then checked by exact evaluation; `None` sends the caller to the general
/// search.
pub(super) fn search(two: &Two<'_>, i: usize, p0: &Pt, guess: U256, careful: bool) -> Option<Pt> {
    let j = other(i);
    let Kind::V2 {
        k_last,
        fee_on,
        fee: (num, den),
    } = two.kind
    else {
        return None;
    };
    if fee_on && !k_last.is_zero() {
        return None;
    }
    let t = two.ts;
    let (ri, rj) = (*two.r.get(i)?, *two.r.get(j)?);
    // Worth it only when a unit of L spans many units of s (r_i ≫ T): otherwise the integer
    // search in s from the guess is shorter.
    if ri < t.saturating_mul(U256::from(16u8)) {
        return None;
    }
    let (ai, aj) = (*two.a.get(i)?, *two.a.get(j)?);
    let den512 = U512::from(den);
    let gamma = U512::from(den.checked_sub(num)?);
    let ri512 = U512::from(ri);
    let rj512 = U512::from(rj);
    let ai512 = U512::from(ai);
    let at = ai.full_mul(t);
    let ajt = aj.full_mul(t);
    let s_min = |l: U256| -> Option<U512> {
        let tl = U512::from(t).checked_add(U512::from(l))?;
        let u = l.full_mul(rj);
        if u <= ajt {
            return Some(U512::zero());
        }
        let need = div_up512(u.checked_sub(ajt)?, tl)?;
        if need >= rj512 {
            return None;
        }
        let n = den512.checked_mul(ri512)?.checked_mul(need)?;
        let d = gamma.checked_mul(rj512.checked_sub(need)?)?;
        div_up512(n, d)
    };
    let feasible = |l: U256| -> Option<bool> {
        let tl = U512::from(t).checked_add(U512::from(l))?;
        let y = l.full_mul(ri);
        if at < y {
            return Some(false);
        }
        let s_max = at.checked_sub(y)?.checked_div(tl)?;
        Some(match s_min(l) {
            Some(m) => m <= s_max && m <= ai512,
            None => false,
        })
    };
    let g = two.eval(i, guess)?;
    let mut lo = g.l().max(p0.l());
    let mut hi = g.term[i].max(g.term[j]).checked_add(U256::one())?;
    if lo >= hi || !feasible(lo)? {
        return None;
    }
    while hi.checked_sub(lo)? > U256::one() {
        #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
        let mid = lo.checked_add(hi.checked_sub(lo)? >> 1)?;
        if feasible(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if lo.is_zero() {
        return None;
    }
    let sl = U256::try_from(s_min(lo)?).ok()?;
    left_end(two, i, p0, lo, sl, careful)
}

/// The plan selling `sl`, the least swap the closed form says mints `best`, when exact
/// evaluation agrees (it mints `best`, one unit less does not), then [`keep_most`].
fn left_end(two: &Two<'_>, i: usize, p0: &Pt, best: U256, sl: U256, careful: bool) -> Option<Pt> {
    let p = if sl.is_zero() { *p0 } else { two.eval(i, sl)? };
    if p.l() != best {
        return None;
    }
    if !sl.is_zero() && two.eval(i, sl.checked_sub(U256::one())?)?.l() >= best {
        return None;
    }
    let z = checked(two, i, &p, careful)?;
    Some(keep_most(two, i, best, (p, z), false, careful))
}
