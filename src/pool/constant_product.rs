//! Uniswap V2 style constant-product pairs (x·y = k) with any fractional fee that stays in the
//! pool: Uniswap V2 (3/1000) and its forks (e.g. 25/10000, 30/10000), one type for all.
//!
//! Reproduces `UniswapV2Library` (`getAmountOut`, `getAmountIn`, `quote`) and `UniswapV2Pair`
//! (`swap` with its K check, `mint` and `burn` with the protocol-fee step `_mintFee`), with
//! every floor where the contracts put it and every SafeMath revert as a [`PoolError`].
//!
//! # Invariants
//! `fee_num < fee_den`, `fee_den > 0`, both reserves fit the pair's `uint112` storage.

use super::pair;
use crate::error::PoolError;
use crate::math::wide::{mul_div_128, to_u128};
use crate::math::{self, add, div, mul, mul_then_div, sqrt, sub};
use primitive_types::U256;

/// LP locked forever by the first mint (`MINIMUM_LIQUIDITY`).
pub(crate) const MINIMUM_LIQUIDITY: u64 = 1000;

/// `2^112 - 1`: the largest reserve a V2 pair can store.
const U112_MAX: U256 = U256([u64::MAX, (1u64 << 48) - 1, 0, 0]);

/// A constant-product pair state: reserves, fee, LP supply and the protocol-fee bookkeeping
/// (`kLast`, and whether the factory's `feeTo` is set).
/// # Example
/// ```
/// use swapzap::pool::ConstantProduct;
/// use swapzap::U256;
///
/// // Uniswap V2 getAmountOut: 1000 in at a 0.3 % fee on reserves (1e6, 2e6):
/// // 1000·997·2e6 / (1e6·1000 + 1000·997) = 1992.02.. → 1992.
/// let pair = ConstantProduct::new([U256::from(1_000_000u64), U256::from(2_000_000u64)], 3, 1000, U256::zero())?;
/// assert_eq!(pair.amount_out(0, 1, U256::from(1_000u64))?, U256::from(1_992u64));
/// let (out, after) = pair.swap(0, 1, U256::from(1_000u64))?;
/// assert_eq!((out, after.reserves()), (U256::from(1_992u64), [U256::from(1_001_000u64), U256::from(1_998_008u64)]));
/// # Ok::<(), swapzap::PoolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantProduct {
    reserves: [U256; 2],
    /// The reserves as native integers (they fit uint112), for the fast paths.
    native: [u128; 2],
    fee_num: u64,
    fee_den: u64,
    total_supply: U256,
    k_last: U256,
    fee_on: bool,
}

/// The outcome of [`ConstantProduct::mint_detailed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpMint {
    /// LP minted to the depositor.
    pub minted: U256,
    /// LP minted to `feeTo` by the protocol-fee step before the deposit.
    pub fee_minted: U256,
    /// The pair after the mint (reserves, total supply, `kLast`).
    pub pool: ConstantProduct,
}

/// The outcome of [`ConstantProduct::burn_detailed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpBurn {
    /// Coins paid out, per coin.
    pub amounts: [U256; 2],
    /// LP minted to `feeTo` by the protocol-fee step before the burn.
    pub fee_minted: U256,
    /// The pair after the burn.
    pub pool: ConstantProduct,
}

impl ConstantProduct {
    /// A pair with `reserves`, swap fee `fee_num / fee_den` and LP `total_supply`; the protocol
    /// fee is off and `kLast` is 0 (see [`Self::with_protocol_fee`]).
    ///
    /// # Errors
    /// [`PoolError::InvalidState`] when `fee_den == 0`, `fee_num >= fee_den`, or a reserve does
    /// not fit `uint112`.
    pub fn new(
        reserves: [U256; 2],
        fee_num: u64,
        fee_den: u64,
        total_supply: U256,
    ) -> Result<Self, PoolError> {
        if fee_den == 0 {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeDenominatorZero,
            ));
        }
        if fee_num >= fee_den {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::FeeAtOrAboveDenominator,
            ));
        }
        if reserves[0] > U112_MAX || reserves[1] > U112_MAX {
            return Err(PoolError::InvalidState(
                crate::error::PoolStateProblem::ReserveAboveUint112,
            ));
        }
        Ok(Self {
            reserves,
            native: [reserves[0].low_u128(), reserves[1].low_u128()],
            fee_num,
            fee_den,
            total_supply,
            k_last: U256::zero(),
            fee_on: false,
        })
    }

    /// The same pair with the protocol-fee state: the pair's `kLast` and whether the factory's
    /// `feeTo` is set.
    #[must_use]
    pub fn with_protocol_fee(mut self, k_last: U256, fee_on: bool) -> Self {
        self.k_last = k_last;
        self.fee_on = fee_on;
        self
    }

    two_coin_accessors!(reserves, "The reserves as a slice.", "LP total supply.");

    /// The reserves `[reserve0, reserve1]`.
    #[must_use]
    pub fn reserves(&self) -> [U256; 2] {
        self.reserves
    }

    /// The swap fee as `(numerator, denominator)`.
    #[must_use]
    pub fn fee(&self) -> (u64, u64) {
        (self.fee_num, self.fee_den)
    }

    /// The pair's `kLast`.
    #[must_use]
    pub fn k_last(&self) -> U256 {
        self.k_last
    }

    /// Whether the protocol fee (`feeTo`) is on.
    #[must_use]
    pub fn fee_on(&self) -> bool {
        self.fee_on
    }

    #[inline]
    fn gamma(&self) -> U256 {
        // fee_num < fee_den (constructor invariant), so this never underflows.
        U256::from(self.fee_den.saturating_sub(self.fee_num))
    }

    /// `UniswapV2Library.getAmountOut(amount_in, r_in, r_out)` with the pair's fee:
    /// `a·γ·r_out / (r_in·den + a·γ)` with γ = den − num, rounded down (the pool's favour).
    fn get_amount_out(&self, a: U256, r_in: U256, r_out: U256) -> Result<U256, PoolError> {
        if a.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        if r_in.is_zero() || r_out.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let a_fee = mul(a, self.gamma())?;
        let den = add(mul(r_in, U256::from(self.fee_den))?, a_fee)?;
        Ok(mul_then_div(a_fee, r_out, den)?)
    }

    /// `UniswapV2Library.getAmountIn(amount_out, r_in, r_out)` with the pair's fee:
    /// `r_in·b·den / ((r_out − b)·γ) + 1`; the `+ 1` is always added.
    fn get_amount_in(&self, b: U256, r_in: U256, r_out: U256) -> Result<U256, PoolError> {
        let (num, den) = self.amount_in_fraction(b, r_in, r_out)?;
        Ok(add(div(num, den)?, U256::one())?)
    }

    /// `getAmountIn`'s checks and its fraction `(r_in·b·den, (r_out − b)·γ)`, before rounding.
    fn amount_in_fraction(
        &self,
        b: U256,
        r_in: U256,
        r_out: U256,
    ) -> Result<(U256, U256), PoolError> {
        if b.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        if r_in.is_zero() || r_out.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        if b >= r_out {
            // The contract underflows (b > r_out) or divides by zero (b == r_out).
            return Err(PoolError::UnreachableOutput);
        }
        let num = mul(mul(r_in, b)?, U256::from(self.fee_den))?;
        let den = mul(sub(r_out, b)?, self.gamma())?;
        Ok((num, den))
    }

    /// `getAmountOut` for `dx` of coin `i` into coin `j`: the Uniswap V2 library quote with the
    /// pair's fee, rounded down.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for `dx == 0`, [`PoolError::InsufficientLiquidity`]
    /// for an empty reserve, [`PoolError::Math`] on overflow (SafeMath), index errors.
    #[inline]
    pub fn amount_out(&self, i: usize, j: usize, dx: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        // Native fast path. Reserves fit uint112 (constructor invariant), so only the input is
        // tested. When a·γ and r_in·den + a·γ fit 128 bits, the numerator a·γ·r_out is below
        // 2^256 (no SafeMath revert is possible) and the quotient is below r_out: the value
        // is the one the checked path below computes.
        if let Some(a) = to_u128(&dx) {
            let [r0, r1] = self.native;
            let (r_in, r_out) = if i == 0 { (r0, r1) } else { (r1, r0) };
            if a != 0 && r_in != 0 && r_out != 0 {
                let g = u128::from(self.fee_den.saturating_sub(self.fee_num));
                if let Some(a_fee) = a.checked_mul(g) {
                    if let Some(den) = r_in
                        .checked_mul(u128::from(self.fee_den))
                        .and_then(|x| x.checked_add(a_fee))
                    {
                        if let Some(q) = mul_div_128(a_fee, r_out, den) {
                            return Ok(U256::from(q));
                        }
                    }
                }
            }
        }
        let (r_in, r_out) = self.ordered(i);
        self.get_amount_out(dx, r_in, r_out)
    }

    /// `getAmountIn` for `dy` of coin `j` out: exactly what the V2 router charges for an
    /// exact-out swap, `floor(r_in·dy·den / ((r_out − dy)·γ)) + 1`. It is the least input whose
    /// [`Self::amount_out`] reaches `dy`, or one more when that division is exact (see
    /// [`Self::min_amount_in`]). Kept as the contract function (the test vectors check it);
    /// [`super::Pool::amount_in`] uses [`Self::min_amount_in`] instead.
    ///
    /// # Errors
    /// [`PoolError::InsufficientOutputAmount`] for `dy == 0`, [`PoolError::UnreachableOutput`]
    /// for `dy >= r_out`, [`PoolError::InsufficientLiquidity`] for an empty reserve, overflow.
    pub fn amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        let (r_in, r_out) = self.ordered(i);
        self.get_amount_in(dy, r_in, r_out)
    }

    /// The least input of coin `i` whose [`Self::amount_out`] is at least `dy`:
    /// `ceil(r_in·dy·den / ((r_out − dy)·γ))`. Exact by construction: `out(x) >= dy` is
    /// equivalent to `x·γ·(r_out − dy) >= dy·r_in·den`.
    /// This is what [`super::Pool::amount_in`] answers for constant-product pools.
    ///
    /// # Errors
    /// As [`Self::amount_in`].
    pub fn min_amount_in(&self, i: usize, j: usize, dy: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        let (r_in, r_out) = self.ordered(i);
        let (num, den) = self.amount_in_fraction(dy, r_in, r_out)?;
        Ok(math::div_up(num, den)?)
    }

    /// `UniswapV2Library.quote(amount, r_i, r_j)`: `amount·r_j / r_i`, no fee, rounded down.
    ///
    /// # Errors
    /// [`PoolError::InsufficientInputAmount`] for `amount == 0`,
    /// [`PoolError::InsufficientLiquidity`] for an empty reserve, overflow, index errors.
    pub fn quote(&self, i: usize, j: usize, amount: U256) -> Result<U256, PoolError> {
        pair(i, j)?;
        let (r_a, r_b) = self.ordered(i);
        if amount.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        if r_a.is_zero() || r_b.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(mul_then_div(amount, r_b, r_a)?)
    }

    #[inline]
    fn ordered(&self, i: usize) -> (U256, U256) {
        let [r0, r1] = self.reserves;
        if i == 0 {
            (r0, r1)
        } else {
            (r1, r0)
        }
    }

    /// `UniswapV2Pair.swap` after `amount_in` of coin `token_in` was transferred in, asking for
    /// `amount_out` of the other coin. Returns the pair after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientOutputAmount`] for `amount_out == 0`,
    /// [`PoolError::InsufficientLiquidity`] for `amount_out >= reserve`,
    /// [`PoolError::InsufficientInputAmount`] for `amount_in == 0`,
    /// [`PoolError::InvariantViolated`] when the K check fails,
    /// [`PoolError::ReserveOverflow`] when a balance exceeds `uint112`, overflow, index errors.
    pub fn swap_exact(
        &self,
        token_in: usize,
        amount_in: U256,
        amount_out: U256,
    ) -> Result<Self, PoolError> {
        pair(token_in, 1usize.saturating_sub(token_in))?;
        let j = 1usize.saturating_sub(token_in);
        let r = self.reserves;
        let (r_in, r_out) = self.ordered(token_in);
        if amount_out.is_zero() {
            return Err(PoolError::InsufficientOutputAmount);
        }
        if amount_out >= r_out {
            return Err(PoolError::InsufficientLiquidity);
        }
        let b_in = add(r_in, amount_in)?;
        let b_out = sub(r_out, amount_out)?;
        if amount_in.is_zero() {
            return Err(PoolError::InsufficientInputAmount);
        }
        let den = U256::from(self.fee_den);
        let adj_in = sub(mul(b_in, den)?, mul(amount_in, U256::from(self.fee_num))?)?;
        let adj_out = mul(b_out, den)?;
        let lhs = mul(adj_in, adj_out)?;
        let rhs = mul(mul(r[0], r[1])?, mul(den, den)?)?;
        if lhs < rhs {
            return Err(PoolError::InvariantViolated);
        }
        if b_in > U112_MAX {
            return Err(PoolError::ReserveOverflow);
        }
        let mut next = self.clone();
        next.reserves[token_in] = b_in;
        next.reserves[j] = b_out;
        next.native = [next.reserves[0].low_u128(), next.reserves[1].low_u128()];
        Ok(next)
    }

    /// The LP the protocol-fee step (`_mintFee`) mints to `feeTo` on the current reserves:
    /// `ts·(√k − √kLast) / (5·√k + √kLast)` when the fee is on, `kLast != 0` and `√k > √kLast`;
    /// otherwise 0.
    ///
    /// # Errors
    /// [`PoolError::Math`] on overflow (SafeMath).
    pub fn protocol_fee_liquidity(&self) -> Result<U256, PoolError> {
        if !self.fee_on || self.k_last.is_zero() {
            return Ok(U256::zero());
        }
        let root_k = sqrt(mul(self.reserves[0], self.reserves[1])?);
        let root_k_last = sqrt(self.k_last);
        if root_k <= root_k_last {
            return Ok(U256::zero());
        }
        let num = mul(self.total_supply, sub(root_k, root_k_last)?)?;
        let den = add(mul(root_k, U256::from(5u8))?, root_k_last)?;
        Ok(div(num, den)?)
    }

    /// The total supply a `mint` or `burn` on the current reserves uses: the supply after the
    /// protocol-fee step.
    ///
    /// # Errors
    /// As [`Self::protocol_fee_liquidity`].
    pub fn supply_for_mint(&self) -> Result<U256, PoolError> {
        Ok(add(self.total_supply, self.protocol_fee_liquidity()?)?)
    }

    #[inline]
    fn k_last_after(&self, reserves: [U256; 2]) -> Result<U256, PoolError> {
        if self.fee_on {
            Ok(mul(reserves[0], reserves[1])?)
        } else {
            Ok(U256::zero())
        }
    }

    /// `UniswapV2Pair.mint` after `amounts` were transferred in: the LP minted (first mint:
    /// `√(a0·a1) − 1000`, with 1000 locked; later: `min(a_k·ts / r_k)`, floors), the protocol
    /// fee minted first, and the pair after.
    ///
    /// # Errors
    /// [`PoolError::InsufficientLiquidityMinted`] when nothing would be minted (or the first
    /// mint is below the locked minimum), [`PoolError::ReserveOverflow`] beyond `uint112`,
    /// overflow.
    pub fn mint_detailed(&self, amounts: [U256; 2]) -> Result<CpMint, PoolError> {
        let [r0, r1] = self.reserves;
        let [a0, a1] = amounts;
        let b0 = add(r0, a0)?;
        let b1 = add(r1, a1)?;
        let fee_minted = self.protocol_fee_liquidity()?;
        let ts = add(self.total_supply, fee_minted)?;
        let (minted, ts_after) = if ts.is_zero() {
            let root = sqrt(mul(a0, a1)?);
            let minted = root
                .checked_sub(U256::from(MINIMUM_LIQUIDITY))
                .ok_or(PoolError::InsufficientLiquidityMinted)?;
            (minted, add(U256::from(MINIMUM_LIQUIDITY), minted)?)
        } else {
            let l0 = mul_then_div(a0, ts, r0)?;
            let l1 = mul_then_div(a1, ts, r1)?;
            let minted = l0.min(l1);
            (minted, add(ts, minted)?)
        };
        if minted.is_zero() {
            return Err(PoolError::InsufficientLiquidityMinted);
        }
        if b0 > U112_MAX || b1 > U112_MAX {
            return Err(PoolError::ReserveOverflow);
        }
        let reserves = [b0, b1];
        let pool = Self {
            reserves,
            native: [reserves[0].low_u128(), reserves[1].low_u128()],
            fee_num: self.fee_num,
            fee_den: self.fee_den,
            total_supply: ts_after,
            k_last: self.k_last_after(reserves)?,
            fee_on: self.fee_on,
        };
        Ok(CpMint {
            minted,
            fee_minted,
            pool,
        })
    }

    /// `UniswapV2Pair.burn` of `lp`: `a_k = lp·r_k / ts` (floor, with `ts` after the protocol
    /// fee), and the pair after.
    ///
    /// # Errors
    /// [`PoolError::BurnExceedsSupply`] for `lp > total_supply`,
    /// [`PoolError::InsufficientLiquidityBurned`] when a coin would pay 0, overflow.
    pub fn burn_detailed(&self, lp: U256) -> Result<CpBurn, PoolError> {
        if lp > self.total_supply {
            return Err(PoolError::BurnExceedsSupply);
        }
        let [r0, r1] = self.reserves;
        let fee_minted = self.protocol_fee_liquidity()?;
        let ts = add(self.total_supply, fee_minted)?;
        let [a0, a1] = super::pro_rata_two(lp, [r0, r1], ts)?;
        let reserves = [sub(r0, a0)?, sub(r1, a1)?];
        let pool = Self {
            reserves,
            native: [reserves[0].low_u128(), reserves[1].low_u128()],
            fee_num: self.fee_num,
            fee_den: self.fee_den,
            total_supply: sub(ts, lp)?,
            k_last: self.k_last_after(reserves)?,
            fee_on: self.fee_on,
        };
        Ok(CpBurn {
            amounts: [a0, a1],
            fee_minted,
            pool,
        })
    }

    pair_verbs!("(the fee stays in the pool).");

    /// d(out)/d(in) of `i` into `j` at zero size, fee included, raw units:
    /// `r_out·γ / (r_in·den)`. 0 for an empty reserve or bad indices. Search only.
    #[must_use]
    pub fn marginal_rate(&self, i: usize, j: usize) -> f64 {
        if pair(i, j).is_err() {
            return 0.0;
        }
        let (r_in, r_out) = self.ordered(i);
        if r_in.is_zero() {
            return 0.0;
        }
        let g = self.fee_den.saturating_sub(self.fee_num) as f64 / self.fee_den as f64;
        math::float::to_f64(r_out) / math::float::to_f64(r_in) * g
    }
}
