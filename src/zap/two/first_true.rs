//! The integer binary search for the first point where a monotone predicate holds: how both
//! general strategies ([`super::Strategy::Bracket`], [`super::Strategy::FirstTrue`]) end, and
//! how the plateau's ends are found.

use super::{Pt, Two};
use primitive_types::U256;

impl Two<'_> {
    /// Integer binary search for the first point in `(lo, hi]` where `pred` holds, given that
    /// it fails at `lo` and holds at `hi` (both evaluated). Galloping from `guess` first.
    /// Returns the last failing and the first holding point.
    pub(super) fn first_true(
        &self,
        i: usize,
        mut lo: Pt,
        mut hi: Pt,
        guess: Option<U256>,
        pred: &dyn Fn(&Pt) -> bool,
    ) -> (Pt, Pt) {
        if let Some(g) = guess {
            if g > lo.s && g < hi.s {
                if let Some(p) = self.eval_near(i, g, lo.s, hi.s) {
                    let holds = pred(&p);
                    if holds {
                        hi = p;
                    } else {
                        lo = p;
                    }
                    // Gallop away from the guess toward the other side.
                    let mut step = U256::one();
                    loop {
                        let x = if holds {
                            hi.s.checked_sub(step).filter(|x| *x > lo.s)
                        } else {
                            lo.s.checked_add(step).filter(|x| *x < hi.s)
                        };
                        let Some(x) = x else { break };
                        let Some(q) = self.eval_near(i, x, lo.s, hi.s) else {
                            break;
                        };
                        if pred(&q) {
                            hi = q;
                            if !holds {
                                break;
                            }
                        } else {
                            lo = q;
                            if holds {
                                break;
                            }
                        }
                        step = step.saturating_add(step);
                    }
                }
            }
        }
        while let Some(gap) = hi.s.checked_sub(lo.s) {
            if gap <= U256::one() {
                break;
            }
            #[allow(clippy::arithmetic_side_effects)] // a right shift cannot overflow
            let mid = lo.s.saturating_add(gap >> 1);
            match self.eval_near(i, mid, lo.s, hi.s) {
                Some(p) => {
                    if pred(&p) {
                        hi = p;
                    } else {
                        lo = p;
                    }
                }
                None => {
                    // A long run of reverts around `mid`: scan it from `lo` upward.
                    match self.scan_first_feasible(i, lo.s, hi.s) {
                        Some(p) => {
                            if pred(&p) {
                                hi = p;
                            } else {
                                lo = p;
                            }
                        }
                        None => break,
                    }
                }
            }
        }
        (lo, hi)
    }

    /// The first point strictly inside `(lo, hi)` that does not revert, scanning at most a
    /// bounded number of points from each end.
    pub(super) fn scan_first_feasible(&self, i: usize, lo: U256, hi: U256) -> Option<Pt> {
        let mut s = lo.checked_add(U256::one())?;
        let mut n = 0u32;
        while s < hi && n < 4096 {
            if let Some(p) = self.eval(i, s) {
                return Some(p);
            }
            s = s.checked_add(U256::one())?;
            n = n.saturating_add(1);
        }
        None
    }
}
