//! Small f64 helpers that `core` lacks (`sqrt`, `cbrt`), for the float search only.
//!
//! With `std` the hardware / libm versions are used; without it, Newton iterations from a
//! bit-level first guess (accurate to a few ulp, which is all the search needs).
#![allow(clippy::arithmetic_side_effects)] // f64 arithmetic only: no overflow traps

/// Square root; NaN for negative input, 0 for 0.
#[must_use]
#[inline]
pub fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        if !(x > 0.0) || x == f64::INFINITY {
            return if x == 0.0 || x == f64::INFINITY {
                x
            } else {
                f64::NAN
            };
        }
        let mut y = f64::from_bits((x.to_bits() >> 1) + 0x1FF8_0000_0000_0000);
        for _ in 0..6 {
            y = 0.5 * (y + x / y);
        }
        y
    }
}

/// Cube root (odd: `cbrt(-x) == -cbrt(x)`).
#[must_use]
#[inline]
pub fn cbrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.cbrt()
    }
    #[cfg(not(feature = "std"))]
    {
        if x == 0.0 || !x.is_finite() {
            return x;
        }
        let a = x.abs();
        let mut y = f64::from_bits(a.to_bits() / 3 + 0x2A9F_7893_782D_A1CE);
        for _ in 0..8 {
            y = (2.0 * y + a / (y * y)) / 3.0;
        }
        if x < 0.0 {
            -y
        } else {
            y
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn roots() {
        for x in [1e-30, 0.5, 2.0, 3.0, 1e10, 7.7e200] {
            let s = super::sqrt(x);
            assert!((s * s / x - 1.0).abs() < 1e-14);
            let c = super::cbrt(x);
            assert!((c * c * c / x - 1.0).abs() < 1e-14);
            assert!((super::cbrt(-x) + c).abs() <= 1e-14 * c);
        }
    }
}
