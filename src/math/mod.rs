//! The numbers layer: the only place with raw 256-bit arithmetic.
//!
//! Every function is checked: it returns [`MathError`] where the EVM would revert (a result at or
//! above 2^256, below zero, or a division by zero). Each function names its rounding.
#![allow(clippy::arithmetic_side_effects)] // every op below is guarded; see the comment at each.

use crate::error::MathError;
use primitive_types::{U256, U512};

/// `a + b`, reverting (as Solidity 0.8 / Vyper do) at 2^256.
#[inline]
pub fn add(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_add(b).ok_or(MathError::Overflow)
}

/// `a - b`, reverting below zero.
#[inline]
pub fn sub(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_sub(b).ok_or(MathError::Underflow)
}

/// `a * b`, reverting at 2^256.
#[inline]
pub fn mul(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_mul(b).ok_or(MathError::Overflow)
}

/// `a / b` rounded down, reverting on a zero divisor.
#[inline]
pub fn div(a: U256, b: U256) -> Result<U256, MathError> {
    if b.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    // b != 0 checked above.
    Ok(a / b)
}

/// `ceil(a / b)`, reverting on a zero divisor.
#[inline]
pub fn div_up(a: U256, b: U256) -> Result<U256, MathError> {
    if b.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let (q, r) = a.div_mod(b);
    // q <= a < 2^256, and q + 1 only when r > 0, i.e. b >= 2 so q < 2^255.
    Ok(if r.is_zero() { q } else { q + 1 })
}

/// `floor(a * b / d)` with a full 512-bit intermediate (no overflow in the product).
///
/// # Errors
/// [`MathError::DivisionByZero`] when `d == 0`, [`MathError::Overflow`] when the quotient does
/// not fit in 256 bits.
#[inline]
pub fn mul_div(a: U256, b: U256, d: U256) -> Result<U256, MathError> {
    if d.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let p: U512 = a.full_mul(b);
    let q = p / U512::from(d);
    U256::try_from(q).map_err(|_| MathError::Overflow)
}

/// `ceil(a * b / d)` with a full 512-bit intermediate.
///
/// # Errors
/// As [`mul_div`].
#[inline]
pub fn mul_div_up(a: U256, b: U256, d: U256) -> Result<U256, MathError> {
    if d.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let p: U512 = a.full_mul(b);
    let (q, r) = p.div_mod(U512::from(d));
    let q = U256::try_from(q).map_err(|_| MathError::Overflow)?;
    if r.is_zero() {
        Ok(q)
    } else {
        add(q, U256::one())
    }
}

/// Integer square root rounded down: the largest `r` with `r * r <= x`.
///
/// Every correct floor square root agrees, so this reproduces Uniswap's `Math.sqrt` (Babylonian)
/// bit for bit.
#[must_use]
pub fn sqrt(x: U256) -> U256 {
    if x < U256::from(2u8) {
        return x;
    }
    // Start above the root: 2^ceil(bits/2) > sqrt(x).
    let bits = x.bits();
    let mut r = U256::one() << bits.div_ceil(2);
    loop {
        // r > 0 throughout; (r + x / r) / 2 <= max(r, x/r) < 2^256 because r >= 1 and the
        // sum of two values each < 2^255 (r <= 2^128, x/r < 2^256 but then r is small):
        // use overflowing add on U256 and fall back to a shifted form to stay exact.
        let q = x / r;
        let next = (r >> 1) + (q >> 1) + (r & q & U256::one());
        if next >= r {
            return r;
        }
        r = next;
    }
}
