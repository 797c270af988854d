//! Positions on a [`ConcentratedLiquidity`] pool: the amounts of `mint` and `burn`
//! (`_modifyPosition`) and the pool after.

use super::tick_math::{sqrt_ratio_at_tick, MAX_TICK, MIN_TICK};
use super::{
    add_delta, on_spacing, signed_delta, ClPosition, ConcentratedLiquidity, Tick, TickTable,
};
use crate::error::{PoolError, PoolRevert};
use crate::math::W;
use alloc::sync::Arc;
use alloc::vec::Vec;

impl ConcentratedLiquidity {
    /// `UniswapV3Pool.mint(tickLower, tickUpper, amount)`: the token amounts owed (rounded up)
    /// and the pool after.
    ///
    /// # Errors
    /// The contract's reverts: amount 0 or ≥ 2^127, `TLU`, `TLM`, `TUM`, `LO` (a tick above
    /// `maxLiquidityPerTick`), a newly initialised tick off the spacing.
    pub fn mint(
        &self,
        tick_lower: i32,
        tick_upper: i32,
        amount: u128,
    ) -> Result<ClPosition, PoolError> {
        if amount == 0 {
            return Err(PoolError::Revert(PoolRevert::ZeroMintAmount));
        }
        let delta =
            i128::try_from(amount).map_err(|_| PoolError::Revert(PoolRevert::Int128Cast))?;
        self.modify_position(tick_lower, tick_upper, delta, 0)
    }

    /// `UniswapV3Pool.burn(tickLower, tickUpper, amount)` of a position holding
    /// `position_liquidity`: the amounts credited (rounded down) and the pool after.
    ///
    /// # Errors
    /// The contract's reverts: `NP` (burning 0 of an empty position), `LS` (more than the
    /// position or a tick holds), ticks out of order or range, amount ≥ 2^127.
    pub fn burn(
        &self,
        tick_lower: i32,
        tick_upper: i32,
        amount: u128,
        position_liquidity: u128,
    ) -> Result<ClPosition, PoolError> {
        let delta =
            i128::try_from(amount).map_err(|_| PoolError::Revert(PoolRevert::Int128Cast))?;
        self.modify_position(
            tick_lower,
            tick_upper,
            delta.wrapping_neg(),
            position_liquidity,
        )
    }

    /// `_modifyPosition`: tick checks, tick and position updates, then the amounts.
    pub(super) fn modify_position(
        &self,
        lower: i32,
        upper: i32,
        delta: i128,
        position_liquidity: u128,
    ) -> Result<ClPosition, PoolError> {
        check_ticks(lower, upper)?;
        let mut ticks: Vec<Tick> = self.ticks().to_vec();
        if delta != 0 {
            for (index, is_upper) in [(lower, false), (upper, true)] {
                self.update_tick(&mut ticks, index, is_upper, delta)?;
            }
        }
        update_position(position_liquidity, delta)?;
        let mut pool = self.clone();
        let (a0, a1) = if delta == 0 {
            (W::ZERO, W::ZERO)
        } else {
            self.position_amounts(&mut pool, lower, upper, delta)?
        };
        pool.tick = self.tick();
        pool.tick_hi = pool.tick;
        pool.below = ticks.partition_point(|t| t.index <= pool.tick);
        let config = (self.table.fee, self.table.tick_spacing);
        pool.table = Arc::new(TickTable::new(config, ticks, pool.liquidity, pool.below)?);
        pool.balances = pool.window_amounts();
        pool.keep_first_steps();
        Ok(ClPosition {
            amount0: a0.to_u256(),
            amount1: a1.to_u256(),
            pool,
        })
    }

    /// `Tick.update` of the tick at `index` (the position's lower or upper tick) in the sorted
    /// `ticks`: gross liquidity moved by `delta` and held to `maxLiquidityPerTick`, net
    /// liquidity moved by `delta` (against it for the upper tick); a tick that flips from or to
    /// empty must be on the spacing, and an emptied tick leaves the list.
    fn update_tick(
        &self,
        ticks: &mut Vec<Tick>,
        index: i32,
        is_upper: bool,
        delta: i128,
    ) -> Result<(), PoolError> {
        let k = ticks.partition_point(|t| t.index < index);
        let existing = ticks.get(k).filter(|t| t.index == index).copied();
        let before = existing.unwrap_or(Tick {
            index,
            liquidity_net: 0,
            liquidity_gross: 0,
        });
        let gross = add_delta(before.liquidity_gross, delta)?;
        if gross > self.max_liquidity_per_tick() {
            return Err(PoolError::Revert(PoolRevert::TickLiquidityOverflow {
                tick: index,
            }));
        }
        let net = if is_upper {
            before.liquidity_net.checked_sub(delta)
        } else {
            before.liquidity_net.checked_add(delta)
        }
        .ok_or(PoolError::Revert(PoolRevert::LiquidityNetOverflow {
            tick: index,
        }))?;
        let flipped = (gross == 0) != (before.liquidity_gross == 0);
        if flipped && !on_spacing(index, self.table.tick_spacing) {
            return Err(PoolError::Revert(PoolRevert::TickNotOnSpacing {
                tick: index,
                spacing: self.table.tick_spacing,
            }));
        }
        let t = Tick {
            index,
            liquidity_net: net,
            liquidity_gross: gross,
        };
        match (existing.is_some(), gross == 0) {
            (true, true) => {
                ticks.remove(k);
            }
            (true, false) => {
                if let Some(slot) = ticks.get_mut(k) {
                    *slot = t;
                }
            }
            (false, _) => ticks.insert(k, t),
        }
        Ok(())
    }

    /// The amounts of a position change of `delta` (non-zero) over `[lower, upper)`, rounded
    /// up for a mint and down for a burn: token0 below the price, token1 above it, both
    /// across it (and then `pool`'s active liquidity moves by `delta`).
    fn position_amounts(
        &self,
        pool: &mut ConcentratedLiquidity,
        lower: i32,
        upper: i32,
        delta: i128,
    ) -> Result<(W, W), PoolError> {
        let (pl, pu) = (sqrt_ratio_at_tick(lower)?, sqrt_ratio_at_tick(upper)?);
        let tick = self.tick();
        if tick < lower {
            Ok((signed_delta(false, pl, pu, delta)?, W::ZERO))
        } else if tick < upper {
            let a0 = signed_delta(false, self.sqrt_price_x96, pu, delta)?;
            let a1 = signed_delta(true, pl, self.sqrt_price_x96, delta)?;
            pool.liquidity = add_delta(self.liquidity, delta)?;
            Ok((a0, a1))
        } else {
            Ok((W::ZERO, signed_delta(true, pl, pu, delta)?))
        }
    }
}

/// `checkTicks`: `TLU` (lower not below upper), `TLM` (lower below the minimum tick), `TUM`
/// (upper above the maximum).
fn check_ticks(lower: i32, upper: i32) -> Result<(), PoolError> {
    if lower >= upper {
        return Err(PoolError::Revert(PoolRevert::TickLowerNotBelowUpper {
            lower,
            upper,
        }));
    }
    if lower < MIN_TICK {
        return Err(PoolError::Revert(PoolRevert::TickLowerTooLow { lower }));
    }
    if upper > MAX_TICK {
        return Err(PoolError::Revert(PoolRevert::TickUpperTooHigh { upper }));
    }
    Ok(())
}

/// `Position.update`: burning 0 needs a live position (`NP`); the position cannot go
/// negative (`LS`).
fn update_position(position_liquidity: u128, delta: i128) -> Result<(), PoolError> {
    if delta == 0 && position_liquidity == 0 {
        return Err(PoolError::Revert(PoolRevert::NoPosition));
    }
    add_delta(position_liquidity, delta)?;
    Ok(())
}
