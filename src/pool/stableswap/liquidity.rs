//! Liquidity on a [`StableSwap`]: `add_liquidity`, the `remove_liquidity` family and
//! `calc_token_amount`.

use super::invariant::{self, FEE_DENOMINATOR, PRECISION};
use super::{abs_diff, fast, md, xp_mem, Amounts, OneCoin, StableSwap, Variant};
use crate::error::PoolError;
use crate::math::{add, div, mul, sub};
use primitive_types::U256;

impl StableSwap {
    /// `get_D` of the pool's rates and amplification on other `balances`.
    pub(super) fn d_of(&self, balances: &[U256]) -> Result<U256, PoolError> {
        fast::get_d(
            &xp_mem(&self.inner.rates, balances)?,
            self.inner.amp,
            self.inner.variant,
        )
    }

    /// `calc_token_amount(amounts, is_deposit)`. Classic and 3pool charge no fee (the D
    /// difference times supply over D0); NG (Views contract) charges the dynamic imbalance fee
    /// and returns `D1` on an empty pool. Rounds down.
    ///
    /// # Errors
    /// What the contract reverts on (a withdrawal above a balance, a D that shrinks on
    /// deposit, a zero `D0`, ...).
    pub fn calc_token_amount(&self, amounts: &[U256], is_deposit: bool) -> Result<U256, PoolError> {
        self.check_amounts(amounts)?;
        let d0 = self.inner.d?;
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            *b = if is_deposit { add(*b, a)? } else { sub(*b, a)? };
        }
        let d1 = self.d_of(&new)?;
        let ts = self.inner.total_supply;
        let d2 = if self.inner.variant == Variant::Ng {
            if ts.is_zero() {
                return Ok(d1);
            }
            let base_fee = self.base_fee()?;
            let ys = div(add(d0, d1)?, invariant::nu(self.n_coins()))?;
            for k in 0..self.n_coins() {
                let ideal = md(d1, old[k], d0)?;
                let diff = abs_diff(ideal, new[k]);
                let xs = md(self.rate(k), add(old[k], new[k])?, PRECISION)?;
                let f = invariant::dynamic_fee(xs, ys, base_fee, self.inner.offpeg)?;
                new[k] = sub(new[k], md(f, diff, FEE_DENOMINATOR)?)?;
            }
            self.d_of(&new)?
        } else {
            d1
        };
        let diff = if is_deposit {
            sub(d2, d0)?
        } else {
            sub(d0, d2)?
        };
        md(diff, ts, d0)
    }

    /// `add_liquidity(amounts, 0)`: LP minted and the state after. Rounds down.
    ///
    /// # Errors
    /// [`PoolError::InvalidFirstDeposit`] when the pool is empty and a coin is missing;
    /// [`PoolError::InsufficientLiquidityMinted`] when D does not grow; NG
    /// [`PoolError::OracleRevert`]; overflow.
    pub fn add_liquidity(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        self.check_amounts(amounts)?;
        let ts = self.inner.total_supply;
        let n = self.n_coins();
        let ng = self.inner.variant == Variant::Ng;
        let d0 = if self.inner.variant == Variant::ThreePool && ts.is_zero() {
            U256::zero()
        } else {
            self.inner.d?
        };
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            if ts.is_zero() && a.is_zero() {
                return Err(PoolError::InvalidFirstDeposit);
            }
            *b = add(*b, a)?;
        }
        if ng {
            for k in 0..n {
                add(new[k], self.inner.admin_balances[k])?;
            }
        }
        let d1 = self.d_of(&new)?;
        if d1 <= d0 {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        if ts.is_zero() {
            if ng && d1.bits() > 128 {
                return Err(PoolError::OracleRevert);
            }
            let st = self.with_state_d(
                new,
                self.inner.admin_balances.clone(),
                add(ts, d1)?,
                Some(d1),
            );
            return Ok((d1, st));
        }
        let (stored, admin_balances, d2) = self.charge_imbalance_fee(old, new, d0, d1)?;
        let minted = md(ts, sub(d2, d0)?, d0)?;
        let known = self.known_d_after_fees(d1, d2);
        let st = self.with_state_d(stored, admin_balances, add(ts, minted)?, known);
        Ok((minted, st))
    }

    /// The imbalance fee that `add_liquidity` and `remove_liquidity_imbalance` both charge:
    /// per coin `fee_k = f_k · |D1·old_k/D0 − new_k| / 1e10` (NG: `f_k` the dynamic fee at
    /// `xs = rate·(old + new)/1e18`, `ys = (D0 + D1)/N`), the admin share leaving the stored
    /// balance. Returns the stored balances, the admin balances after and D2 (computed on
    /// `new − fee`), with the NG oracle check on the post-fee state.
    pub(super) fn charge_imbalance_fee(
        &self,
        old: &Amounts,
        mut new: Amounts,
        d0: U256,
        d1: U256,
    ) -> Result<(Amounts, Amounts, U256), PoolError> {
        let n = self.n_coins();
        let ng = self.inner.variant == Variant::Ng;
        let base_fee = self.base_fee()?;
        let ys = if ng {
            div(add(d0, d1)?, invariant::nu(n))?
        } else {
            U256::zero()
        };
        let mut stored = new.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        for k in 0..n {
            let ideal = md(d1, old[k], d0)?;
            let diff = abs_diff(ideal, new[k]);
            let f = if ng {
                let xs = md(self.rate(k), add(old[k], new[k])?, PRECISION)?;
                invariant::dynamic_fee(xs, ys, base_fee, self.inner.offpeg)?
            } else {
                base_fee
            };
            let fee_k = md(f, diff, FEE_DENOMINATOR)?;
            let admin_k = md(fee_k, self.inner.admin_fee, FEE_DENOMINATOR)?;
            stored[k] = sub(new[k], admin_k)?;
            admin_balances[k] = add(admin_balances[k], admin_k)?;
            new[k] = sub(new[k], fee_k)?;
        }
        let xp2 = xp_mem(&self.inner.rates, &new)?;
        let d2 = fast::get_d(&xp2, self.inner.amp, self.inner.variant)?;
        if ng {
            invariant::oracle_check(&xp2, self.inner.amp, d2)?;
        }
        Ok((stored, admin_balances, d2))
    }

    /// `remove_liquidity(lp, [0..])`: coins out (`balance · lp / supply`, rounded down) and
    /// the state after. No fee. NG pools also pay out the admin balances to the fee receiver
    /// in this call when one is set; that leaves `balances` unchanged, and this model keeps
    /// `admin_balances` as they were (a pool without a fee receiver).
    ///
    /// # Errors
    /// [`PoolError::BurnExceedsSupply`] when `lp` is above the supply; NG refuses `lp = 0`
    /// ([`PoolError::InsufficientInputAmount`]); division by zero on an empty classic pool.
    pub fn remove_liquidity(&self, lp: U256) -> Result<(Amounts, Self), PoolError> {
        let ts = self.inner.total_supply;
        let ng = self.inner.variant == Variant::Ng;
        if ng && lp.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let mut out = Amounts::new();
        let mut balances = self.inner.balances.clone();
        for b in &mut balances {
            let prod = mul(*b, lp)?;
            // NG uses unsafe_div: a zero supply gives 0 (and the burn below reverts).
            let v = if ng && ts.is_zero() {
                U256::zero()
            } else {
                div(prod, ts)?
            };
            *b = sub(*b, v)?;
            out.push(v);
        }
        let ts_after = sub(ts, lp).map_err(|_| PoolError::BurnExceedsSupply)?;
        Ok((
            out,
            self.with_state(balances, self.inner.admin_balances.clone(), ts_after),
        ))
    }

    pub(super) fn one_coin(&self, lp: U256, i: usize) -> Result<OneCoin, PoolError> {
        self.check_index(i)?;
        let xp = self.xp()?;
        let d0 = self.inner.d?;
        let ts = self.inner.total_supply;
        let d1 = sub(d0, md(lp, d0, ts)?)?;
        let new_y = fast::get_y_d(i, xp, self.inner.amp, d1, self.inner.variant)?;
        let base_fee = self.base_fee()?;
        let ng = self.inner.variant == Variant::Ng;
        let n = self.n_coins();
        let ys = if ng {
            div(add(d0, d1)?, mul(U256::from(2u8), invariant::nu(n))?)?
        } else {
            U256::zero()
        };
        let mut reduced = xp.clone();
        for k in 0..n {
            let xk = xp[k];
            let (dx_expected, xavg) = if k == i {
                let e = sub(md(xk, d1, d0)?, new_y)?;
                let avg = if ng {
                    div(add(xk, new_y)?, U256::from(2u8))?
                } else {
                    xk
                };
                (e, avg)
            } else {
                (sub(xk, md(xk, d1, d0)?)?, xk)
            };
            let f = if ng {
                invariant::dynamic_fee(xavg, ys, base_fee, self.inner.offpeg)?
            } else {
                base_fee
            };
            reduced[k] = sub(xk, md(f, dx_expected, FEE_DENOMINATOR)?)?;
        }
        let dy = sub(
            reduced[i],
            fast::get_y_d(i, &reduced, self.inner.amp, d1, self.inner.variant)?,
        )?;
        let (dy, dy0) = if ng {
            let r = self.rate(i);
            let dy0 = md(sub(xp[i], new_y)?, PRECISION, r)?;
            (md(sub(dy, U256::one())?, PRECISION, r)?, dy0)
        } else {
            let pm = self.precision_mul(i);
            let dy0 = div(sub(xp[i], new_y)?, pm)?;
            (div(sub(dy, U256::one())?, pm)?, dy0)
        };
        Ok(OneCoin {
            dy,
            fee: sub(dy0, dy)?,
            new_y,
            d1,
        })
    }

    /// `calc_withdraw_one_coin(lp, i)`: coins of `i` out for burning `lp`, fee included.
    /// Rounds down (one more wei is kept).
    ///
    /// # Errors
    /// [`PoolError::TokenIndex`], or what the contract reverts on.
    pub fn calc_withdraw_one_coin(&self, lp: U256, i: usize) -> Result<U256, PoolError> {
        Ok(self.one_coin(lp, i)?.dy)
    }

    /// `remove_liquidity_one_coin(lp, i, 0)`: coins of `i` out and the state after.
    ///
    /// # Errors
    /// As [`StableSwap::calc_withdraw_one_coin`]; [`PoolError::BurnExceedsSupply`]; NG refuses
    /// `lp = 0` and reverts on its oracle refresh (e.g. a coin drained to 0).
    pub fn remove_liquidity_one_coin(&self, lp: U256, i: usize) -> Result<(U256, Self), PoolError> {
        let ng = self.inner.variant == Variant::Ng;
        if ng && lp.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let r = self.one_coin(lp, i)?;
        let admin = md(r.fee, self.inner.admin_fee, FEE_DENOMINATOR)?;
        let mut balances = self.inner.balances.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        balances[i] = sub(balances[i], add(r.dy, admin)?)?;
        admin_balances[i] = add(admin_balances[i], admin)?;
        let ts_after =
            sub(self.inner.total_supply, lp).map_err(|_| PoolError::BurnExceedsSupply)?;
        if ng {
            let mut xo = self.xp()?.clone();
            xo[i] = r.new_y;
            invariant::oracle_check(&xo, self.inner.amp, r.d1)?;
        }
        Ok((r.dy, self.with_state(balances, admin_balances, ts_after)))
    }

    /// `remove_liquidity_imbalance(amounts, max)`: LP burned (rounded up: `+ 1`) and the state
    /// after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientLiquidityBurned`] when nothing would be burned;
    /// [`PoolError::BurnExceedsSupply`]; a withdrawal above a balance; NG
    /// [`PoolError::OracleRevert`]; 3pool refuses an empty pool
    /// ([`PoolError::InsufficientLiquidity`]).
    pub fn remove_liquidity_imbalance(&self, amounts: &[U256]) -> Result<(U256, Self), PoolError> {
        self.check_amounts(amounts)?;
        let ts = self.inner.total_supply;
        if self.inner.variant == Variant::ThreePool && ts.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let d0 = self.inner.d?;
        let old = &self.inner.balances;
        let mut new = old.clone();
        for (b, &a) in new.iter_mut().zip(amounts) {
            *b = sub(*b, a)?;
        }
        let d1 = self.d_of(&new)?;
        let (stored, admin_balances, d2) = self.charge_imbalance_fee(old, new, d0, d1)?;
        let burned = md(sub(d0, d2)?, ts, d0)?;
        if burned.is_zero() {
            return Err(PoolError::InsufficientLiquidityBurned);
        }
        let burned = add(burned, U256::one())?;
        let ts_after = sub(ts, burned).map_err(|_| PoolError::BurnExceedsSupply)?;
        let known = self.known_d_after_fees(d1, d2);
        Ok((
            burned,
            self.with_state_d(stored, admin_balances, ts_after, known),
        ))
    }
}
