//! Swaps on a [`StableSwap`]: `get_dy`, `exchange` and the amounts they share.

use super::invariant::{self, FEE_DENOMINATOR, PRECISION};
use super::{fast, md, StableSwap, Variant};
use crate::error::PoolError;
use crate::math::{add, div, mul, sub};
use primitive_types::U256;

impl StableSwap {
    /// `get_dy(i, j, dx)`: the contract's quote for selling `dx` of coin `i` for coin `j`
    /// (NG: the Views contract's). Rounds down, in the pool's favour (one more wei is kept).
    ///
    /// # Errors
    /// [`PoolError::TokenIndex`], [`PoolError::SameToken`], or what the contract reverts on
    /// (overflow, a zero balance, no convergence).
    pub fn get_dy(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        self.check_pair(i, j)?;
        if let Some(out) = fast::get_dy(self, i, j, dx) {
            return Ok(out);
        }
        let xp = self.xp()?;
        let d = self.inner.d?;
        let x = add(xp[i], md(dx, self.rate(i), PRECISION)?)?;
        let y = fast::get_y(i, j, x, xp, self.inner.amp, d, self.inner.variant)?;
        let dy = sub(sub(xp[j], y)?, U256::one())?;
        match self.inner.variant {
            Variant::Classic => {
                let fee = md(self.inner.fee, dy, FEE_DENOMINATOR)?;
                Ok(md(sub(dy, fee)?, PRECISION, self.rate(j))?)
            }
            Variant::ThreePool => {
                let dy = md(dy, PRECISION, self.rate(j))?;
                let fee = md(self.inner.fee, dy, FEE_DENOMINATOR)?;
                Ok(sub(dy, fee)?)
            }
            Variant::Ng => {
                let two = U256::from(2u8);
                let f = invariant::dynamic_fee(
                    div(add(xp[i], x)?, two)?,
                    div(add(xp[j], y)?, two)?,
                    self.inner.fee,
                    self.inner.offpeg,
                )?;
                let fee = md(f, dy, FEE_DENOMINATOR)?;
                Ok(md(sub(dy, fee)?, PRECISION, self.rate(j))?)
            }
        }
    }

    /// `exchange(i, j, dx, 0)`: coins out and the state after. Rounds down.
    ///
    /// # Errors
    /// As [`StableSwap::get_dy`]; NG also refuses `dx = 0`
    /// ([`PoolError::InsufficientInputAmount`]) and reverts when its oracle refresh does
    /// ([`PoolError::OracleRevert`]).
    pub fn exchange(&self, i: usize, j: usize, dx: U256) -> Result<(U256, Self), PoolError> {
        self.check_pair(i, j)?;
        let ng = self.inner.variant == Variant::Ng;
        if ng && dx.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let xp = self.xp()?;
        let d = self.inner.d?;
        let (out, admin, x, y) = match fast::exchange(self, i, j, dx) {
            Some(r) => r,
            None => self.exchange_amounts(i, j, dx)?,
        };
        let mut balances = self.inner.balances.clone();
        let mut admin_balances = self.inner.admin_balances.clone();
        balances[i] = add(balances[i], dx)?;
        balances[j] = sub(sub(balances[j], out)?, admin)?;
        admin_balances[j] = add(admin_balances[j], admin)?;
        if ng {
            // The coin balance the contract stores must fit too.
            add(balances[i], admin_balances[i])?;
            let mut xo = xp.clone();
            xo[i] = x;
            xo[j] = y;
            invariant::oracle_check(&xo, self.inner.amp, d)?;
        }
        Ok((
            out,
            self.with_state(balances, admin_balances, self.inner.total_supply),
        ))
    }

    /// `exchange`'s amounts on U256: (out, admin fee in coin units, x, y).
    pub(super) fn exchange_amounts(
        &self,
        i: usize,
        j: usize,
        dx: U256,
    ) -> Result<(U256, U256, U256, U256), PoolError> {
        let xp = self.xp()?;
        let d = self.inner.d?;
        let x = add(xp[i], md(dx, self.rate(i), PRECISION)?)?;
        let y = fast::get_y(i, j, x, xp, self.inner.amp, d, self.inner.variant)?;
        let dy = sub(sub(xp[j], y)?, U256::one())?;
        let f = if self.inner.variant == Variant::Ng {
            let two = U256::from(2u8);
            invariant::dynamic_fee(
                div(add(xp[i], x)?, two)?,
                div(add(xp[j], y)?, two)?,
                self.inner.fee,
                self.inner.offpeg,
            )?
        } else {
            self.inner.fee
        };
        let dy_fee = md(dy, f, FEE_DENOMINATOR)?;
        let out = md(sub(dy, dy_fee)?, PRECISION, self.rate(j))?;
        let admin = div(
            mul(
                md(dy_fee, self.inner.admin_fee, FEE_DENOMINATOR)?,
                PRECISION,
            )?,
            self.rate(j),
        )?;
        Ok((out, admin, x, y))
    }
}
