//! Integer arithmetic failures (codes 1000-1999). Defined here, at the bottom layer, so that
//! `math` needs nothing above it; [`crate::error`] re-exports it beside the other domains.

use core::fmt;

/// A failure of checked integer arithmetic, exactly where the EVM would revert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MathError {
    /// A result at or above 2^256 (Solidity 0.8 `Panic(0x11)`, Vyper overflow check).
    Overflow,
    /// A result below zero.
    Underflow,
    /// A division (or modulo) by zero (`Panic(0x12)`).
    DivisionByZero,
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Overflow => "arithmetic overflow",
            Self::Underflow => "arithmetic underflow",
            Self::DivisionByZero => "division by zero",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MathError {}
