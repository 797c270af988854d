//! The general search's crossing: a bracket of the first plan where the sold coin's term no
//! longer exceeds the other's, galloping from the float guess ([`Strategy::Bracket`]) or, when
//! the guess is of no use, the whole range ([`Strategy::FirstTrue`]); then bisection.

use super::{other, Pt, Strategy, Two};
use primitive_types::U256;

impl Two<'_> {
    /// A bracket `(lo, hi)` of the first point where `pred` holds, galloping from `guess`:
    /// `pred` fails at `lo` (or `lo` is `p0`) and holds at `hi`, and whether the guess was used
    /// (false: the guess is missing, outside `(p0.s, end)` or reverts around it, and the
    /// bracket is the whole range `(p0, end)`). `None` when no point up to `end` holds.
    fn bracket(
        &self,
        i: usize,
        p0: Pt,
        end: U256,
        guess: Option<U256>,
        pred: &dyn Fn(&Pt) -> bool,
    ) -> Option<(Pt, Pt, bool)> {
        let far = |lo: U256| {
            self.eval(i, end)
                .or_else(|| self.eval_near(i, end.saturating_sub(U256::one()), lo, end))
                .or_else(|| self.scan_first_feasible(i, lo, end))
        };
        let Some(g) = guess.filter(|g| *g > p0.s && *g < end) else {
            let hi = far(p0.s)?;
            return pred(&hi).then_some((p0, hi, false));
        };
        let Some(p) = self.eval_near(i, g, p0.s, end) else {
            let hi = far(p0.s)?;
            return pred(&hi).then_some((p0, hi, false));
        };
        let mut step = U256::one();
        if pred(&p) {
            let mut hi = p;
            loop {
                let Some(x) = hi.s.checked_sub(step).filter(|x| *x > p0.s) else {
                    return Some((p0, hi, true));
                };
                match self.eval_near(i, x, p0.s, hi.s) {
                    Some(q) if pred(&q) => hi = q,
                    Some(q) => return Some((q, hi, true)),
                    None => return Some((p0, hi, true)),
                }
                step = step.saturating_add(step);
            }
        } else {
            let mut lo = p;
            loop {
                let Some(x) = lo.s.checked_add(step).filter(|x| *x < end) else {
                    let hi = far(lo.s)?;
                    return pred(&hi).then_some((lo, hi, true));
                };
                match self.eval_near(i, x, lo.s, end) {
                    Some(q) if pred(&q) => return Some((lo, q, true)),
                    Some(q) => lo = q,
                    None => {
                        let hi = far(lo.s)?;
                        return pred(&hi).then_some((lo, hi, true));
                    }
                }
                step = step.saturating_add(step);
            }
        }
    }

    /// The crossing of the two terms in direction `i`: the last plan where the coin-`i` term
    /// is above the coin-`j` term and the first where it is not. Bracketed from `guess`
    /// ([`Self::bracket`]; the far end, everything sold, has a coin-`i` term of 0, so the
    /// predicate holds there), then bisected ([`Self::first_true`]). The strategy is
    /// [`Strategy::Bracket`] when the guess placed the bracket, [`Strategy::FirstTrue`] when
    /// the bisection ran over the whole range.
    pub(super) fn crossing(
        &self,
        i: usize,
        p0: &Pt,
        guess: Option<U256>,
    ) -> Option<(Pt, Pt, Strategy)> {
        let j = other(i);
        let ai = *self.a.get(i)?;
        let cross = |p: &Pt| p.term[i] <= p.term[j];
        match self.bracket(i, *p0, ai, guess, &cross) {
            Some((lo, hi, guided)) => {
                let (lo, hi) = self.first_true(i, lo, hi, None, &cross);
                let strategy = if guided {
                    Strategy::Bracket
                } else {
                    Strategy::FirstTrue
                };
                Some((lo, hi, strategy))
            }
            None => {
                let hi = self
                    .eval(i, ai)
                    .or_else(|| self.scan_first_feasible(i, U256::zero(), ai))?;
                Some((*p0, hi, Strategy::FirstTrue))
            }
        }
    }
}
