//! The numbers layer: the only place with raw 256-bit arithmetic.
//!
//! Every function is checked: it returns [`MathError`] where the EVM would revert (a result at or
//! above 2^256, below zero, or a division by zero). Each function names its rounding.
//!
//! # Speed
//!
//! `primitive-types` stays at the API, but its division is slow (a generic long division over
//! four limbs). Pool math mostly multiplies values below 2^128 and divides by values below 2^128,
//! so every function here first tries a fast path in native `u128` arithmetic: a widening
//! 128×128 → 256 product (`wide::mul_128`) and a 256-by-128 division
//! (`wide::div_256_by_128`). Inputs outside those ranges take the general `U256`/`U512` path.
//! Both paths return the same value; the fast paths are only faster.
#![allow(clippy::arithmetic_side_effects)] // every op below is guarded; see the comment at each.

pub mod float;
pub mod wide;

mod error;
pub use error::MathError;
use primitive_types::{U256, U512};
pub use wide::W;
use wide::{from_parts, mul_128, to_u128};

/// 10^18 (the `1e18` of Solidity fixed-point code).
pub(crate) const E18: U256 = U256([1_000_000_000_000_000_000, 0, 0, 0]);

/// `10^n` as a `U256` for `n <= 19` (the range of token decimals the pools accept and then some).
///
/// # Errors
/// [`MathError::Overflow`] for `n > 19` (kept small on purpose: a table, not a loop).
#[inline]
pub(crate) fn pow10(n: u8) -> Result<U256, MathError> {
    const P: [u64; 20] = [
        1,
        10,
        100,
        1_000,
        10_000,
        100_000,
        1_000_000,
        10_000_000,
        100_000_000,
        1_000_000_000,
        10_000_000_000,
        100_000_000_000,
        1_000_000_000_000,
        10_000_000_000_000,
        100_000_000_000_000,
        1_000_000_000_000_000,
        10_000_000_000_000_000,
        100_000_000_000_000_000,
        1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ];
    P.get(usize::from(n))
        .map(|&p| U256::from(p))
        .ok_or(MathError::Overflow)
}

/// `a + b`, reverting (as Solidity 0.8 / Vyper do) at 2^256.
///
/// # Errors
/// [`MathError::Overflow`] when the sum is at or above 2^256.
#[inline]
pub fn add(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_add(b).ok_or(MathError::Overflow)
}

/// `a - b`, reverting below zero.
///
/// # Errors
/// [`MathError::Underflow`] when `b > a`.
#[inline]
pub fn sub(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_sub(b).ok_or(MathError::Underflow)
}

/// `a * b`, reverting at 2^256.
///
/// # Errors
/// [`MathError::Overflow`] when the product is at or above 2^256.
#[inline]
pub fn mul(a: U256, b: U256) -> Result<U256, MathError> {
    if let (Some(x), Some(y)) = (to_u128(&a), to_u128(&b)) {
        // Both factors < 2^128: the product is < 2^256 and cannot overflow.
        let (hi, lo) = mul_128(x, y);
        return Ok(from_parts(hi, lo));
    }
    a.checked_mul(b).ok_or(MathError::Overflow)
}

/// `a / b` rounded down, reverting on a zero divisor.
///
/// # Errors
/// [`MathError::DivisionByZero`] when `b == 0`.
#[inline]
pub fn div(a: U256, b: U256) -> Result<U256, MathError> {
    div_rem(a, b).map(|(q, _)| q)
}

/// `(a / b, a % b)` rounded down, reverting on a zero divisor.
///
/// # Errors
/// [`MathError::DivisionByZero`] when `b == 0`.
#[inline]
pub fn div_rem(a: U256, b: U256) -> Result<(U256, U256), MathError> {
    let (q, r) = W::from_u256(a)
        .checked_div_rem(W::from_u256(b))
        .ok_or(MathError::DivisionByZero)?;
    Ok((q.to_u256(), r.to_u256()))
}

/// `ceil(a / b)`, reverting on a zero divisor.
///
/// # Errors
/// [`MathError::DivisionByZero`] when `b == 0`.
#[inline]
pub fn div_up(a: U256, b: U256) -> Result<U256, MathError> {
    let (q, r) = div_rem(a, b)?;
    if r.is_zero() {
        Ok(q)
    } else {
        // r > 0 means b >= 2, so q <= a / 2 < 2^255 and q + 1 cannot overflow.
        Ok(q + U256::one())
    }
}

/// `floor(a * b / d)` and the remainder, with a full-width product.
#[inline]
fn mul_div_rem(a: U256, b: U256, d: U256) -> Result<(U256, U256), MathError> {
    if d.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    if let (Some(x), Some(y), Some(dd)) = (to_u128(&a), to_u128(&b), to_u128(&d)) {
        // The product fits 256 bits, so the quotient does too.
        let (hi, lo) = mul_128(x, y);
        let (q, r) = W { hi, lo }
            .checked_div_rem(W::small(dd))
            .ok_or(MathError::DivisionByZero)?;
        return Ok((q.to_u256(), r.to_u256()));
    }
    let (q, r) = w_mul_div_rem(W::from_u256(a), W::from_u256(b), W::from_u256(d))?;
    Ok((q.to_u256(), r.to_u256()))
}

/// `(floor(a * b / d), a * b mod d)` on [`W`] with a full 512-bit product (`FullMath.mulDiv`).
///
/// # Errors
/// [`MathError::DivisionByZero`] when `d == 0`, [`MathError::Overflow`] when the quotient does
/// not fit 256 bits.
#[inline]
pub fn w_mul_div_rem(a: W, b: W, d: W) -> Result<(W, W), MathError> {
    if d.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    if let Some(p) = a.checked_mul(b) {
        // The product fits 256 bits: one native division.
        return p.checked_div_rem(d).ok_or(MathError::DivisionByZero);
    }
    // A product above 2^256: the native 512-by-256 division (checked against primitive-types'
    // `U512` by `mul_div_512_matches_u512`, the proptests and the `math_oracle` fuzz target).
    let (hi, lo) = wide::mul_256_full(a, b);
    wide::div_512_by_256(hi, lo, d).ok_or(MathError::Overflow)
}

/// [`w_mul_div_rem`] the plain way: primitive-types' `U512` product and division. The
/// reference the native path is tested against (unit tests, proptests, the fuzz target).
///
/// # Errors
/// As [`w_mul_div_rem`].
pub fn w_mul_div_rem_plain(a: W, b: W, d: W) -> Result<(W, W), MathError> {
    if d.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let p: U512 = a.to_u256().full_mul(b.to_u256());
    let (q, r) = p.div_mod(U512::from(d.to_u256()));
    let q = U256::try_from(q).map_err(|_| MathError::Overflow)?;
    // r < d < 2^256.
    let r = U256::try_from(r).map_err(|_| MathError::Overflow)?;
    Ok((W::from_u256(q), W::from_u256(r)))
}

/// `floor(a * b / d)` with a full 512-bit intermediate (no overflow in the product).
///
/// # Errors
/// [`MathError::DivisionByZero`] when `d == 0`, [`MathError::Overflow`] when the quotient does
/// not fit in 256 bits.
#[inline]
pub fn mul_div(a: U256, b: U256, d: U256) -> Result<U256, MathError> {
    mul_div_rem(a, b, d).map(|(q, _)| q)
}

/// `ceil(a * b / d)` with a full 512-bit intermediate.
///
/// # Errors
/// As [`mul_div`].
#[inline]
pub fn mul_div_up(a: U256, b: U256, d: U256) -> Result<U256, MathError> {
    let (q, r) = mul_div_rem(a, b, d)?;
    if r.is_zero() {
        Ok(q)
    } else {
        add(q, U256::one())
    }
}

/// Solidity's `a * b / d`: the product is checked (it reverts at 2^256 like the contract does),
/// then divided rounding down. Unlike [`mul_div`], an overflowing product is an error even when
/// the quotient would fit.
///
/// # Errors
/// [`MathError::Overflow`] when `a * b >= 2^256`, [`MathError::DivisionByZero`] when `d == 0`.
#[inline]
pub fn mul_then_div(a: U256, b: U256, d: U256) -> Result<U256, MathError> {
    if let (Some(x), Some(y), Some(dd)) = (to_u128(&a), to_u128(&b), to_u128(&d)) {
        // The product of two u128 always fits 256 bits, so only the divisor can fail.
        if dd == 0 {
            return Err(MathError::DivisionByZero);
        }
        if let Some(q) = wide::mul_div_128(x, y, dd) {
            return Ok(U256::from(q));
        }
    }
    let p = w_mul(W::from_u256(a), W::from_u256(b))?;
    Ok(w_div(p, W::from_u256(d))?.to_u256())
}

/// [`add`] on [`W`].
///
/// # Errors
/// [`MathError::Overflow`] at 2^256.
#[inline(always)]
pub(crate) fn w_add(a: W, b: W) -> Result<W, MathError> {
    a.checked_add(b).ok_or(MathError::Overflow)
}

/// [`sub`] on [`W`].
///
/// # Errors
/// [`MathError::Underflow`] below zero.
#[inline(always)]
pub(crate) fn w_sub(a: W, b: W) -> Result<W, MathError> {
    a.checked_sub(b).ok_or(MathError::Underflow)
}

/// [`mul`] on [`W`].
///
/// # Errors
/// [`MathError::Overflow`] at 2^256.
#[inline(always)]
pub(crate) fn w_mul(a: W, b: W) -> Result<W, MathError> {
    a.checked_mul(b).ok_or(MathError::Overflow)
}

/// [`div`] on [`W`]; a divisor of exactly 10^18 takes a reciprocal path without hardware
/// division.
///
/// # Errors
/// [`MathError::DivisionByZero`] when `d == 0`.
#[inline(always)]
pub(crate) fn w_div(a: W, d: W) -> Result<W, MathError> {
    if d == W_E18 {
        return Ok(a.div_rem_e18().0);
    }
    a.checked_div_rem(d)
        .map(|(q, _)| q)
        .ok_or(MathError::DivisionByZero)
}

/// Solidity's `a * b / 1e18` on [`W`] (checked product, floor).
///
/// # Errors
/// [`MathError::Overflow`] when `a * b >= 2^256`.
#[inline(always)]
pub fn w_mul_div_e18(a: W, b: W) -> Result<W, MathError> {
    Ok(w_mul(a, b)?.div_rem_e18().0)
}

/// 10^18 as a [`W`].
pub(crate) const W_E18: W = W::small(1_000_000_000_000_000_000);

/// Integer square root rounded down: the largest `r` with `r * r <= x`.
///
/// Every correct floor square root agrees, so this reproduces Uniswap's `Math.sqrt` (Babylonian)
/// and OpenZeppelin's `Math.sqrt` bit for bit.
#[must_use]
pub fn sqrt(x: U256) -> U256 {
    if let Some(v) = to_u128(&x) {
        return U256::from(wide::sqrt_u128(v));
    }
    // x >= 2^128. Start above the root and let Newton's step from above decrease monotonically
    // to the floor root: the float root (relative error below 1e-15, widened by 1e-12) is above
    // it, and so is 2^ceil(bits/2); the smaller of the two takes three or four steps, not eight.
    let xw = W::from_u256(x);
    let bits = x.bits();
    let pow = U256::one() << bits.div_ceil(2);
    let guess = float::from_f64_floor(float::sqrt(float::to_f64(x)) * (1.0 + 1e-12))
        .saturating_add(U256::from(2u8));
    let mut r = W::from_u256(guess.min(pow));
    loop {
        // r >= 2^64 > 0. x / r <= 2^(bits - ceil(bits/2)) <= 2^128 and r <= 2^128, so the sum
        // below is < 2^130: no overflow.
        let q = xw.checked_div_rem(r).map_or(W::ZERO, |(q, _)| q);
        let next = q.checked_add(r).map_or(W::ZERO, |s| W {
            hi: s.hi >> 1,
            lo: (s.lo >> 1) | (s.hi << 127),
        });
        if next >= r {
            return r.to_u256();
        }
        r = next;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn u(s: &str) -> U256 {
        U256::from_dec_str(s).unwrap()
    }

    #[test]
    fn mul_div_matches_u512_path() {
        let cases = [
            (
                "1000000000000000000000000",
                "997000",
                "1000000000000000000000",
            ),
            (
                "340282366920938463463374607431768211455",
                "340282366920938463463374607431768211455",
                "3",
            ),
            (
                "340282366920938463463374607431768211455",
                "340282366920938463463374607431768211455",
                "340282366920938463463374607431768211455",
            ),
            ("123456789", "987654321", "1"),
        ];
        for (a, b, d) in cases {
            let (a, b, d) = (u(a), u(b), u(d));
            let want = U256::try_from(a.full_mul(b) / U512::from(d)).unwrap();
            assert_eq!(mul_div(a, b, d).unwrap(), want);
        }
    }

    /// The `math_oracle` fuzz target's find: `b` and `d` a hair apart, the product above 2^256.
    #[test]
    fn mul_div_matches_the_oracle_on_a_fuzz_find() {
        let n = |s: &str| U256::from_dec_str(s).unwrap();
        let a = n("842498333348457493583344221469363458551152760589555597900970549601");
        let b = n("1135720792504048091840292455412132113242986323901084287927058431");
        let d = n("1135720792504048091840292455412132113242986322947098258624922306");
        let want = U256::try_from(a.full_mul(b).div_mod(U512::from(d)).0).unwrap();
        assert_eq!(
            want,
            n("842498333348457493583344221469363458551152761297239779637827893237")
        );
        assert_eq!(mul_div(a, b, d), Ok(want));
    }

    /// A fixed xorshift sequence of 64-bit words.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn mul_div_512_matches_u512() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        for _ in 0..20_000 {
            let mut v = || {
                let x = U256([next(), next(), next(), next()]);
                x >> (next() % 256) as usize
            };
            let (a, b, d) = (v(), v(), v());
            if d.is_zero() {
                continue;
            }
            let p = a.full_mul(b);
            let (q, r) = p.div_mod(U512::from(d));
            let want = U256::try_from(q)
                .ok()
                .map(|q| (q, U256::try_from(r).unwrap()));
            let got = w_mul_div_rem(W::from_u256(a), W::from_u256(b), W::from_u256(d))
                .ok()
                .map(|(q, r)| (q.to_u256(), r.to_u256()));
            assert_eq!(got, want, "{a} * {b} / {d}");
        }
    }

    /// The native 512-by-256 division against `U512` on dividends built to stress the digit
    /// estimates: high halves just below the divisor, digits of all ones, divisors whose top
    /// digit is exactly 2^127 or 2^128 − 1, and random bit lengths.
    #[test]
    fn div_512_by_256_matches_u512_on_hard_cases() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        let specials = [
            W::ZERO,
            W::ONE,
            W::small(u128::MAX),
            W { hi: 1, lo: 0 },
            W {
                hi: 1 << 127,
                lo: 0,
            },
            W {
                hi: u128::MAX,
                lo: u128::MAX,
            },
            W {
                hi: u128::MAX,
                lo: 0,
            },
            W {
                hi: (1 << 127) - 1,
                lo: u128::MAX,
            },
        ];
        for k in 0..60_000u32 {
            let mut v = || {
                let x = W {
                    hi: (u128::from(next()) << 64) | u128::from(next()),
                    lo: (u128::from(next()) << 64) | u128::from(next()),
                };
                match next() % 4 {
                    0 => specials[(next() % 8) as usize],
                    1 => W::from_u256(x.to_u256() >> (next() % 256) as usize),
                    _ => x,
                }
            };
            let d = v();
            let nl = v();
            // nh: random, or the divisor minus a small amount (the largest quotients).
            let nh = if k % 2 == 0 {
                d.checked_sub(W::small(u128::from(next() % 3)))
                    .unwrap_or(W::ZERO)
            } else {
                v()
            };
            let n = U512::from(nh.to_u256()) << 256 | U512::from(nl.to_u256());
            let want = if d.is_zero() {
                None
            } else {
                let (q, r) = n.div_mod(U512::from(d.to_u256()));
                U256::try_from(q)
                    .ok()
                    .map(|q| (q, U256::try_from(r).unwrap()))
            };
            let got = wide::div_512_by_256(nh, nl, d).map(|(q, r)| (q.to_u256(), r.to_u256()));
            assert_eq!(got, want, "{nh:?} {nl:?} / {d:?}");
        }
    }

    #[test]
    fn sqrt_is_floor_root() {
        for x in [0u128, 1, 2, 3, 4, 15, 16, 17, u128::MAX, 1 << 100] {
            let r = sqrt(U256::from(x));
            assert!(r * r <= U256::from(x));
            assert!((r + 1) * (r + 1) > U256::from(x));
        }
        let x = U256::MAX;
        let r = sqrt(x);
        assert_eq!(r, U256::from(u128::MAX));
        // around perfect squares at every size (where a float first guess is most likely to
        // land just below the floor root) and pseudo-random values of every bit length
        let floor_root = |x: U256| {
            let r = sqrt(x);
            assert!(r.full_mul(r) <= x.into(), "{x}: {r} too big");
            let r1 = r + 1;
            assert!(r1.full_mul(r1) > x.into(), "{x}: {r} too small");
        };
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for bits in 1..=128u32 {
            for _ in 0..8 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (U256::from(seed) << 64 | U256::from(seed.rotate_left(17)))
                    >> (128 - bits as usize);
                let sq = k * k;
                floor_root(sq);
                floor_root(sq + 1);
                if !sq.is_zero() {
                    floor_root(sq - 1);
                }
                floor_root(sq + k + k); // (k + 1)² − 1
                let wide = (U256::from(seed) << 192) >> (256 - 2 * bits as usize);
                floor_root(wide);
            }
        }
    }
}
