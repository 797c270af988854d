//! The typed reasons of [`super::PoolError::Revert`], [`super::PoolError::Unsupported`] and
//! [`super::PoolError::InvalidArgument`]: one variant per check, with the values that help a
//! user (the tick, the bounds, the argument given).

use core::fmt;

/// A contract `require` that fails ([`super::PoolError::Revert`]). Where the contract gives a
/// revert string (Uniswap V3's `T`, `SPL`, `LS`, ...), [`PoolRevert::contract_code`] returns
/// it and the message starts with it; otherwise the variant names the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolRevert {
    /// `T`: `TickMath.getSqrtRatioAtTick` of a tick beyond ±887272.
    TickOutOfRange {
        /// the tick given
        tick: i32,
    },
    /// `R`: `TickMath.getTickAtSqrtRatio` of a price outside `[MIN_SQRT_RATIO, MAX_SQRT_RATIO)`.
    SqrtRatioOutOfRange,
    /// `AS`: a swap of amount 0.
    ZeroAmountSpecified,
    /// A swap amount outside `int256` (the contract's argument cannot hold it).
    AmountSpecifiedOutsideInt256,
    /// `SPL`: a price limit not strictly between the current price and the bound on the
    /// swap's side.
    SqrtPriceLimit,
    /// The output total of an exact-in swap below `int256` (`-amountCalculated` overflows).
    AmountCalculatedBelowInt256,
    /// The input total of an exact-out swap above `int256`.
    AmountCalculatedAboveInt256,
    /// `SafeCast.toInt256` of a value at or above 2^255.
    Int256Cast,
    /// `LS`: `LiquidityMath.addDelta` below zero.
    LiquiditySub,
    /// `LA`: `LiquidityMath.addDelta` above 2^128 − 1.
    LiquidityAdd,
    /// `TLU`: a position's lower tick not below its upper tick.
    TickLowerNotBelowUpper {
        /// the lower tick given
        lower: i32,
        /// the upper tick given
        upper: i32,
    },
    /// `TLM`: a position's lower tick below the minimum tick.
    TickLowerTooLow {
        /// the lower tick given
        lower: i32,
    },
    /// `TUM`: a position's upper tick above the maximum tick.
    TickUpperTooHigh {
        /// the upper tick given
        upper: i32,
    },
    /// `LO`: a tick's gross liquidity above `maxLiquidityPerTick`.
    TickLiquidityOverflow {
        /// the tick
        tick: i32,
    },
    /// `NP`: burning 0 of an empty position.
    NoPosition,
    /// A mint of 0 liquidity.
    ZeroMintAmount,
    /// `SafeCast.toInt128` of a liquidity amount at or above 2^127.
    Int128Cast,
    /// A tick's net liquidity outside `int128` after the position's change.
    LiquidityNetOverflow {
        /// the tick
        tick: i32,
    },
    /// A newly initialised tick that is not a multiple of the pool's tick spacing.
    TickNotOnSpacing {
        /// the tick
        tick: i32,
        /// the pool's tick spacing
        spacing: i32,
    },
    /// `getAmount0Delta` with a lower price of 0.
    ZeroSqrtPrice,
    /// An amount0 output whose product with the price overflows 256 bits.
    Amount0OutputOverflow,
    /// An amount0 output at or above what the liquidity holds.
    Amount0OutputExceedsLiquidity,
    /// A next price at or above 2^160.
    PriceAboveUint160,
    /// An amount1 output at or above the price's share.
    Amount1OutputExceedsPrice,
    /// A next price from a zero price or zero liquidity.
    ZeroPriceOrLiquidity,
    /// SPL Token Swap `FeeCalculationFailure`: the owner fee's pool tokens cannot be computed.
    SplOwnerFeeCalculation,
    /// SPL Token Swap: the owner fee's pool tokens, or the supply after them, above `u64`.
    SplOwnerFeeAboveU64,
    /// A revert read back from a plan's JSON, where only the text was kept.
    ReadBack,
}

impl PoolRevert {
    #[cfg(any(feature = "serde", test))] // read back by the plan JSON
    /// The reverts without values, which read back exactly from their text.
    pub(crate) const PLAIN: [Self; 20] = [
        Self::SqrtRatioOutOfRange,
        Self::ZeroAmountSpecified,
        Self::AmountSpecifiedOutsideInt256,
        Self::SqrtPriceLimit,
        Self::AmountCalculatedBelowInt256,
        Self::AmountCalculatedAboveInt256,
        Self::Int256Cast,
        Self::LiquiditySub,
        Self::LiquidityAdd,
        Self::NoPosition,
        Self::ZeroMintAmount,
        Self::Int128Cast,
        Self::ZeroSqrtPrice,
        Self::Amount0OutputOverflow,
        Self::Amount0OutputExceedsLiquidity,
        Self::PriceAboveUint160,
        Self::Amount1OutputExceedsPrice,
        Self::ZeroPriceOrLiquidity,
        Self::SplOwnerFeeCalculation,
        Self::SplOwnerFeeAboveU64,
    ];

    /// The contract's own revert string, when it has one (Uniswap V3's short codes).
    #[must_use]
    pub fn contract_code(self) -> Option<&'static str> {
        Some(match self {
            Self::TickOutOfRange { .. } => "T",
            Self::SqrtRatioOutOfRange => "R",
            Self::ZeroAmountSpecified => "AS",
            Self::SqrtPriceLimit => "SPL",
            Self::LiquiditySub => "LS",
            Self::LiquidityAdd => "LA",
            Self::TickLowerNotBelowUpper { .. } => "TLU",
            Self::TickLowerTooLow { .. } => "TLM",
            Self::TickUpperTooHigh { .. } => "TUM",
            Self::TickLiquidityOverflow { .. } => "LO",
            Self::NoPosition => "NP",
            _ => return None,
        })
    }
}

impl fmt::Display for PoolRevert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TickOutOfRange { tick } => write!(f, "T (tick {tick} beyond ±887272)"),
            Self::TickLowerNotBelowUpper { lower, upper } => {
                write!(f, "TLU (lower tick {lower} not below upper tick {upper})")
            }
            Self::TickLowerTooLow { lower } => write!(f, "TLM (lower tick {lower} below -887272)"),
            Self::TickUpperTooHigh { upper } => write!(f, "TUM (upper tick {upper} above 887272)"),
            Self::TickLiquidityOverflow { tick } => {
                write!(f, "LO (tick {tick} above maxLiquidityPerTick)")
            }
            Self::LiquidityNetOverflow { tick } => {
                write!(f, "int128 liquidity_net at tick {tick}")
            }
            Self::TickNotOnSpacing { tick, spacing } => {
                write!(f, "tick {tick} not on the spacing {spacing}")
            }
            Self::SqrtRatioOutOfRange => f.write_str("R"),
            Self::ZeroAmountSpecified => f.write_str("AS"),
            Self::AmountSpecifiedOutsideInt256 => f.write_str("amountSpecified outside int256"),
            Self::SqrtPriceLimit => f.write_str("SPL"),
            Self::AmountCalculatedBelowInt256 => f.write_str("amountCalculated below int256"),
            Self::AmountCalculatedAboveInt256 => f.write_str("amountCalculated above int256"),
            Self::Int256Cast => f.write_str("int256 cast"),
            Self::LiquiditySub => f.write_str("LS"),
            Self::LiquidityAdd => f.write_str("LA"),
            Self::NoPosition => f.write_str("NP"),
            Self::ZeroMintAmount => f.write_str("mint amount is zero"),
            Self::Int128Cast => f.write_str("int128 cast"),
            Self::ZeroSqrtPrice => f.write_str("sqrt price is zero"),
            Self::Amount0OutputOverflow => f.write_str("amount0 output overflows"),
            Self::Amount0OutputExceedsLiquidity => {
                f.write_str("amount0 output exceeds the liquidity")
            }
            Self::PriceAboveUint160 => f.write_str("price above uint160"),
            Self::Amount1OutputExceedsPrice => f.write_str("amount1 output exceeds the price"),
            Self::ZeroPriceOrLiquidity => f.write_str("zero price or liquidity"),
            Self::SplOwnerFeeCalculation => {
                f.write_str("SPL swap: FeeCalculationFailure (owner-fee pool tokens)")
            }
            Self::SplOwnerFeeAboveU64 => {
                f.write_str("SPL swap: owner-fee pool tokens or the supply after them above u64")
            }
            Self::ReadBack => f.write_str("(read back)"),
        }
    }
}

/// An operation a pool family or variant does not define ([`super::PoolError::Unsupported`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolUnsupported {
    /// A `mint` / `burn` of an LP token on a concentrated-liquidity pool, whose positions are
    /// not LP tokens.
    ConcentratedLiquidityLp,
    /// A Whirlpool `mint` / `burn`: Whirlpool positions are not fungible LP tokens.
    WhirlpoolLp,
    /// A one-coin withdrawal on a family without one.
    OneCoinWithdrawal,
    /// An operation read back from a plan's JSON, where only the text was kept.
    ReadBack,
}

impl PoolUnsupported {
    #[cfg(any(feature = "serde", test))] // read back by the plan JSON
    /// Every variant (they carry no values, so each reads back exactly from its text).
    pub(crate) const ALL: [Self; 4] = [
        Self::ConcentratedLiquidityLp,
        Self::WhirlpoolLp,
        Self::OneCoinWithdrawal,
        Self::ReadBack,
    ];
}

impl fmt::Display for PoolUnsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ConcentratedLiquidityLp => {
                "concentrated-liquidity positions are not LP tokens (see ConcentratedLiquidity::mint)"
            }
            Self::WhirlpoolLp => "Whirlpool has no fungible LP token",
            Self::OneCoinWithdrawal => "one-coin withdrawal",
            Self::ReadBack => "(read back)",
        })
    }
}

/// An argument out of its range ([`super::PoolError::InvalidArgument`]), with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolArgument {
    /// A Whirlpool slippage tolerance above 10 000 bps (Orca "Invalid slippage tolerance").
    SlippageToleranceBps {
        /// the tolerance given, in bps
        bps: u16,
    },
    /// An argument read back from a plan's JSON, where only the text was kept.
    ReadBack,
}

impl fmt::Display for PoolArgument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SlippageToleranceBps { bps } => {
                write!(f, "slippage tolerance {bps} bps above 10000 bps")
            }
            Self::ReadBack => f.write_str("(read back)"),
        }
    }
}
