//! Pool operation failures (codes 2000-2999).

use super::{MathError, PoolArgument, PoolRevert, PoolUnsupported};
use core::fmt;

/// A pool operation that the contract would revert, or that cannot be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolError {
    /// Checked arithmetic failed (the contract reverts the same way).
    Math(MathError),
    /// A coin index out of range for the pool.
    TokenIndex {
        /// the index given
        index: usize,
        /// how many coins the pool has
        n_coins: usize,
    },
    /// `token_in == token_out`.
    SameToken,
    /// The pool state cannot exist (wrong number of coins, fee at or above its denominator,
    /// decimals above 18, ...). The reason names the field and its bound.
    InvalidState(PoolStateProblem),
    /// An input amount of zero where the contract requires more.
    InsufficientInputAmount,
    /// An output of zero where the contract requires more (also: exact-out wanted 0).
    InsufficientOutputAmount,
    /// Empty reserves, or an output at or above the reserve.
    InsufficientLiquidity,
    /// The invariant check after a swap failed (Uniswap `K`, Solidly `K()`).
    InvariantViolated,
    /// A reserve would not fit the contract's storage (Uniswap V2 `uint112`).
    ReserveOverflow,
    /// A Newton loop did not converge within its round limit (Solidly `!y`, Curve D / y).
    NoConvergence,
    /// A mint that would create zero LP (or underflow the minimum liquidity).
    InsufficientLiquidityMinted,
    /// A burn that would return zero of some coin.
    InsufficientLiquidityBurned,
    /// Burning more LP than the total supply.
    BurnExceedsSupply,
    /// A first deposit that the contract refuses (a coin missing, or a stable pool's ratio or
    /// k minimum not met).
    InvalidFirstDeposit,
    /// The wanted output of an exact-out query cannot be reached (at or above what the pool
    /// can pay).
    UnreachableOutput,
    /// A Curve NG operation whose price-oracle refresh reverts (a coin drained to zero, or D
    /// at or above 2^128).
    OracleRevert,
    /// The operation is not defined for this pool family or variant (which, in
    /// [`PoolUnsupported`]).
    Unsupported(PoolUnsupported),
    /// A contract `require` failed: the check, with its values, in [`PoolRevert`] (whose
    /// [`PoolRevert::contract_code`] is the contract's own message where it has one: Uniswap
    /// V3 `SPL`, `AS`, `LS`, `TLU`, ...).
    Revert(PoolRevert),
    /// A concentrated-liquidity swap needs ticks beyond the tick arrays it was given, the
    /// current tick lies outside them, or the arrays are missing or not contiguous (Orca
    /// "Invalid tick array sequence", "Tick index out of bounds").
    TickArraySequence,
    /// A square-root price outside the pool family's bounds.
    SqrtPriceOutOfBounds,
    /// A price limit out of bounds or on the wrong side of the current price.
    PriceLimit,
    /// An argument out of its range (which, with its value, in [`PoolArgument`]).
    InvalidArgument(PoolArgument),
}

/// Why a pool state cannot exist ([`PoolError::InvalidState`]): the field and the bound it
/// breaks, one variant per check of the pool families' constructors and LP operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PoolStateProblem {
    /// `amplification ramp`
    AmplificationRamp,
    /// `Saber deposit takes two amounts`
    SaberDepositTwoAmounts,
    /// `tick index out of range`
    TickIndexOutOfRange,
    /// `tick_spacing is 0`
    TickSpacingZero,
    /// `tick outside its tick array`
    TickOutsideArray,
    /// `tick not a multiple of tick_spacing`
    TickNotOnSpacing,
    /// `duplicate tick`
    DuplicateTick,
    /// `SPL offer: no fully taken input within 64 rounds`
    SplOfferNoRound,
    /// `SPL deposit of both coins into an empty pool`
    SplDepositEmptyPool,
    /// `SPL deposit takes two amounts`
    SplDepositTwoAmounts,
    /// `SPL deposit of both coins: the program takes ceil(P·balance/supply) of each, not these amounts`
    SplDepositNotProportional,
    /// `fee denominator is zero`
    FeeDenominatorZero,
    /// `fee at or above its denominator`
    FeeAtOrAboveDenominator,
    /// `reserve above uint112`
    ReserveAboveUint112,
    /// `mint needs one amount per coin (2)`
    MintTwoAmounts,
    /// `fee at or above 10000 bps`
    FeeAbove10000Bps,
    /// `decimals above 18`
    DecimalsAbove18,
    /// `fee at or above 10^6 pips`
    FeeAbovePips,
    /// `tick_spacing outside 1..=16384`
    TickSpacingRange,
    /// `sqrt_price_x96 or tick out of range`
    SqrtPriceOrTickRange,
    /// `sqrt_price_x96 not at tick`
    SqrtPriceNotAtTick,
    /// `ticks not strictly ascending`
    TicksNotAscending,
    /// `tick outside ±887272`
    TickBeyondBounds,
    /// `liquidity_net: liquidity below zero`
    LiquidityBelowZero,
    /// `fee_protocol nibble not 0 or 4..=10`
    FeeProtocolNibble,
    /// `a_precision must be 100 or 1`
    APrecision,
    /// `balances: 2 to 8 coins`
    CoinCount,
    /// `rates: one per coin`
    RatesCount,
    /// `admin_balances: one per coin`
    AdminBalancesCount,
    /// `rates: zero`
    RateZero,
    /// `rates: classic pools need 10^(36 - decimals), decimals <= 18`
    ClassicRate,
    /// `A: zero`
    AZero,
    /// `fee: at or above 1e10`
    FeeAbove1e10,
    /// `admin_fee: above 1e10`
    AdminFeeAbove1e10,
    /// `offpeg_fee_multiplier: times fee above 5e9 * 1e10`
    OffpegFeeMultiplier,
    /// `amounts: one per coin`
    AmountsCount,
    /// A reason read back from a plan's JSON, where only the text was kept.
    ReadBack,
}

impl PoolStateProblem {
    /// The reason as text (the field and its bound).
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Self::AmplificationRamp => "amplification ramp",
            Self::SaberDepositTwoAmounts => "Saber deposit takes two amounts",
            Self::TickIndexOutOfRange => "tick index out of range",
            Self::TickSpacingZero => "tick_spacing is 0",
            Self::TickOutsideArray => "tick outside its tick array",
            Self::TickNotOnSpacing => "tick not a multiple of tick_spacing",
            Self::DuplicateTick => "duplicate tick",
            Self::SplOfferNoRound => "SPL offer: no fully taken input within 64 rounds",
            Self::SplDepositEmptyPool => "SPL deposit of both coins into an empty pool",
            Self::SplDepositTwoAmounts => "SPL deposit takes two amounts",
            Self::SplDepositNotProportional => "SPL deposit of both coins: the program takes ceil(P·balance/supply) of each, not these amounts",
            Self::FeeDenominatorZero => "fee denominator is zero",
            Self::FeeAtOrAboveDenominator => "fee at or above its denominator",
            Self::ReserveAboveUint112 => "reserve above uint112",
            Self::MintTwoAmounts => "mint needs one amount per coin (2)",
            Self::FeeAbove10000Bps => "fee at or above 10000 bps",
            Self::DecimalsAbove18 => "decimals above 18",
            Self::FeeAbovePips => "fee at or above 10^6 pips",
            Self::TickSpacingRange => "tick_spacing outside 1..=16384",
            Self::SqrtPriceOrTickRange => "sqrt_price_x96 or tick out of range",
            Self::SqrtPriceNotAtTick => "sqrt_price_x96 not at tick",
            Self::TicksNotAscending => "ticks not strictly ascending",
            Self::TickBeyondBounds => "tick outside ±887272",
            Self::LiquidityBelowZero => "liquidity_net: liquidity below zero",
            Self::FeeProtocolNibble => "fee_protocol nibble not 0 or 4..=10",
            Self::APrecision => "a_precision must be 100 or 1",
            Self::CoinCount => "balances: 2 to 8 coins",
            Self::RatesCount => "rates: one per coin",
            Self::AdminBalancesCount => "admin_balances: one per coin",
            Self::RateZero => "rates: zero",
            Self::ClassicRate => "rates: classic pools need 10^(36 - decimals), decimals <= 18",
            Self::AZero => "A: zero",
            Self::FeeAbove1e10 => "fee: at or above 1e10",
            Self::AdminFeeAbove1e10 => "admin_fee: above 1e10",
            Self::OffpegFeeMultiplier => "offpeg_fee_multiplier: times fee above 5e9 * 1e10",
            Self::AmountsCount => "amounts: one per coin",
            Self::ReadBack => "(read back)",
        }
    }
}

impl fmt::Display for PoolStateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

impl PoolError {
    #[cfg(any(feature = "serde", test))] // read back by the plan JSON
    /// The errors without values, which read back exactly from their text.
    pub(crate) const PLAIN: [Self; 19] = [
        Self::Math(MathError::Overflow),
        Self::Math(MathError::Underflow),
        Self::Math(MathError::DivisionByZero),
        Self::SameToken,
        Self::InsufficientInputAmount,
        Self::InsufficientOutputAmount,
        Self::InsufficientLiquidity,
        Self::InvariantViolated,
        Self::ReserveOverflow,
        Self::NoConvergence,
        Self::InsufficientLiquidityMinted,
        Self::InsufficientLiquidityBurned,
        Self::BurnExceedsSupply,
        Self::InvalidFirstDeposit,
        Self::UnreachableOutput,
        Self::OracleRevert,
        Self::TickArraySequence,
        Self::SqrtPriceOutOfBounds,
        Self::PriceLimit,
    ];

    #[cfg(any(feature = "serde", test))] // read back by the plan JSON
    /// The error whose `Display` text is `text` (a plan's JSON keeps only the text): exact
    /// for the errors and reasons without values; an error whose reason carries values (a
    /// tick, a coin index, a state check) reads back as its variant with the reason
    /// `ReadBack` (indices 0).
    #[must_use]
    pub(crate) fn from_text(text: &str) -> Option<Self> {
        let same = |e: &Self| alloc::string::ToString::to_string(e) == text;
        let reasons = PoolRevert::PLAIN
            .map(Self::Revert)
            .into_iter()
            .chain(PoolUnsupported::ALL.map(Self::Unsupported));
        if let Some(e) = Self::PLAIN.into_iter().chain(reasons).find(same) {
            return Some(e);
        }
        let lost = [
            (
                "invalid pool state: ",
                Self::InvalidState(PoolStateProblem::ReadBack),
            ),
            (
                "unsupported operation: ",
                Self::Unsupported(PoolUnsupported::ReadBack),
            ),
            ("contract reverts: ", Self::Revert(PoolRevert::ReadBack)),
            (
                "invalid argument: ",
                Self::InvalidArgument(PoolArgument::ReadBack),
            ),
            (
                "coin index ",
                Self::TokenIndex {
                    index: 0,
                    n_coins: 0,
                },
            ),
        ];
        lost.into_iter()
            .find(|(prefix, _)| text.starts_with(prefix))
            .map(|(_, e)| e)
    }
}

impl From<MathError> for PoolError {
    fn from(e: MathError) -> Self {
        Self::Math(e)
    }
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Math(e) => write!(f, "pool math: {e}"),
            Self::TokenIndex { index, n_coins } => {
                write!(
                    f,
                    "coin index {index} out of range for a {n_coins}-coin pool"
                )
            }
            Self::SameToken => f.write_str("input and output coin are the same"),
            Self::InvalidState(why) => write!(f, "invalid pool state: {why}"),
            Self::InsufficientInputAmount => f.write_str("insufficient input amount"),
            Self::InsufficientOutputAmount => f.write_str("insufficient output amount"),
            Self::InsufficientLiquidity => f.write_str("insufficient liquidity"),
            Self::InvariantViolated => f.write_str("invariant check failed (K)"),
            Self::ReserveOverflow => f.write_str("reserve overflows the pool's storage"),
            Self::NoConvergence => f.write_str("Newton iteration did not converge"),
            Self::InsufficientLiquidityMinted => f.write_str("insufficient liquidity minted"),
            Self::InsufficientLiquidityBurned => f.write_str("insufficient liquidity burned"),
            Self::BurnExceedsSupply => f.write_str("burn exceeds total supply"),
            Self::InvalidFirstDeposit => f.write_str("first deposit refused by the pool"),
            Self::UnreachableOutput => f.write_str("wanted output cannot be reached"),
            Self::OracleRevert => f.write_str("price oracle update reverts"),
            Self::Unsupported(what) => write!(f, "unsupported operation: {what}"),
            Self::Revert(why) => write!(f, "contract reverts: {why}"),
            Self::TickArraySequence => {
                f.write_str("the swap needs ticks beyond the tick arrays given")
            }
            Self::SqrtPriceOutOfBounds => f.write_str("square-root price out of bounds"),
            Self::PriceLimit => f.write_str("price limit out of bounds or on the wrong side"),
            Self::InvalidArgument(what) => write!(f, "invalid argument: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PoolError {}
