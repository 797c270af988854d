//! What is wrong with a plan ([`super::RouteError::InvalidPlan`] from `Plan::verify`,
//! [`super::RouteError::PlanMismatch`] from `Plan::verify_request` and from reading a plan's
//! JSON back): one variant per check.

use super::PoolError;
use core::fmt;

/// The check a plan fails. A step's check names what the step states against what the exact
/// simulation gives; a request's check names what the plan says against what the request asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlanProblem {
    // --- a step against its pool (`Plan::verify`)
    /// An LP step (mint or burn) on a pool whose snapshot gives no `total_supply`.
    NoTotalSupply,
    /// A swap's `token_in` that is not a coin of its pool.
    TokenInNotACoin,
    /// A swap's or one-coin burn's `token_out` that is not a coin of its pool.
    TokenOutNotACoin,
    /// A swap of nothing.
    ZeroAmountIn,
    /// A mint whose `amounts_in` do not have one amount per coin.
    AmountsInCount,
    /// The step's exact pool operation reverts.
    Reverts {
        /// the step's operation
        op: StepOp,
        /// what the pool's exact math refused
        error: PoolError,
    },
    /// A swap whose pool takes less than `amount_in` (SPL Token Swap transfers only
    /// `source_amount_swapped`).
    TakesLessThanAmountIn,
    /// A swap's or one-coin burn's `amount_out` other than the exact simulation's.
    AmountOutDiffers,
    /// A mint's `lp_out` other than the exact simulation's.
    LpOutDiffers,
    /// A burn's `amounts_out` other than the exact simulation's.
    AmountsOutDiffer,
    /// A holding that overflows 256 bits.
    HoldingOverflows,
    /// A step or output that spends more of a token than is held at that point.
    Overspends,
    // --- the plan's totals (`Plan::verify`)
    /// An output's `min_amount` above its amount.
    MinAmountAboveAmount,
    /// What the steps leave is not exactly the outputs plus the refunds.
    HoldingsDiffer,
    /// An output the steps do not deliver.
    OutputNotDelivered,
    // --- the plan against its request (`Plan::verify_request`)
    /// The request's input amounts overflow when summed per token.
    RequestAmountsOverflow,
    /// A token listed twice.
    TokenListedTwice,
    /// An input token the request does not have.
    NotARequestInput,
    /// An input amount other than the request's.
    InputAmountDiffers,
    /// A requested input the plan does not have.
    RequestedInputMissing,
    /// A zap fee on a swap.
    SwapTakesNoZapFee,
    /// A zap without its zap fee.
    ZapFeeMissing,
    /// A zap fee rate other than the documented one.
    ZapFeeRate {
        /// the plan's rate, in bps
        given: u32,
        /// the documented rate, in bps
        documented: u32,
    },
    /// A token charged a zap fee twice.
    TokenChargedTwice,
    /// A zap fee other than `floor(input amount × rate / 10000)`.
    ZapFeeNotFloor,
    /// An input with a zap fee due that the plan does not charge.
    InputFeeMissing,
    /// A slippage other than the request's.
    SlippageDiffers,
    /// Not one output per requested token.
    OutputCount,
    /// An output token other than the request's at that place.
    OutputOutOfPlace,
    /// A `min_amount` other than `floor(amount × (1 − slippage))`.
    MinAmountNotFloor,
    /// A refund of zero.
    ZeroRefund,
    /// A token refunded twice.
    TokenRefundedTwice,
    /// An output token among the refunds.
    OutputRefunded,
    /// A swap's refund that no step explains: a swap plan hands back only what an SPL Token
    /// Swap program did not take of its offer, or within a thousandth of what reached a token
    /// that a concentrated-liquidity pool takes (its known ticks ending inside the trade);
    /// more is a partial fill, which the router answers with `InsufficientLiquidity`.
    PartialFill,
    /// A swap through a pool whose source the request's filters leave out (not on its
    /// whitelist, or on its blacklist).
    SourceFiltered,
    /// A swap through a pool direction that lies on no path of at most the request's hop
    /// limit from an input to an output.
    BeyondHopLimit,
    /// A `bound_max_hops` other than the request's hop limit: the bound is over another set
    /// of plans than the ones the request asked for.
    BoundHopsDiffer,
    /// `gas_units` other than the gas model's count of the swap steps.
    GasUnitsDiffer,
    /// A `value` that is not a finite number.
    ValueNotFinite,
    /// A `value` other than the output amount less the gas cost.
    ValueNotOutputLessGas,
    /// An `upper_bound` below the plan's value.
    BoundBelowValue,
    /// An `upper_bound` below the bound the router certifies for the request (by more than
    /// [`crate::route::VERIFY_BOUND_TOLERANCE`] of it): a gap claimed smaller than proven.
    BoundBelowCertificate,
    /// An `upper_bound` on a plan whose request the engine certifies no bound for (a zap
    /// whose own quote carries none): a claim nothing proves.
    BoundNotCertified,
    /// A `rounding_slack` that puts the float bound (`upper_bound − rounding_slack`, the bound
    /// on plans of the pools' float curves) below the certificate's for the request (by more
    /// than [`crate::route::VERIFY_BOUND_TOLERANCE`] of the bound): a plan claimed closer to
    /// the float optimum than proven.
    FloatBoundBelowCertificate,
    /// A `price_impact` other than the one the plan's outputs give at the request's mid
    /// prices (or, for a zap, other than the engine's own zap of the body gives).
    PriceImpactDiffers,
    /// A `rounding_slack` that is not a number in `[0, upper_bound]`, or one given without a
    /// bound.
    SlackNotOfBound,
    /// A `bound_gap` other than `(upper_bound − value) / upper_bound` of the plan's own
    /// fields (or one without a bound).
    BoundGapNotOfBound,
    /// A `gas_price` other than the request's (or one given without a gas model, or
    /// missing with one).
    GasPriceDiffers,
    /// A multi-output zap-out checked without the request's output prices.
    NoOutputPrices,
    /// Outputs whose total value is not positive and finite.
    OutputsWithoutValue,
    /// An output's value share off its proportion by more than the tolerance (1e-6 plus a base unit).
    ShareOffProportion,
    /// An exact-out plan that spends more than the request allows.
    ExactOutOverspends,
    /// An exact-out plan whose output is below the wanted amount.
    ExactOutBelowWanted,
    // --- a plan's JSON read back
    /// A token address the snapshot does not have.
    UnknownTokenAddress,
    /// A pool id the snapshot does not have.
    UnknownPool,
    /// An amount that is not a decimal integer below 2^256.
    NotADecimalAmount,
    /// An excluded pool's reason that is not a pool error's text.
    NotAPoolErrorText,
    /// A required field missing.
    Missing,
    /// A fraction whose parts do not fit `u64`.
    NotU64Fraction,
    /// A fraction outside `[0, 1]` (or with a zero denominator).
    NotAFractionInUnitRange,
}

/// The operation of a plan step ([`PlanProblem::Reverts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StepOp {
    /// a swap
    Swap,
    /// a mint
    Mint,
    /// a burn (proportional or one coin)
    Burn,
}

impl fmt::Display for StepOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Swap => "swap",
            Self::Mint => "mint",
            Self::Burn => "burn",
        })
    }
}

impl PlanProblem {
    /// The text of the checks without values (`None` for those with values).
    fn text(self) -> Option<&'static str> {
        Some(match self {
            Self::Reverts { .. } | Self::ZapFeeRate { .. } => return None,
            Self::TakesLessThanAmountIn => {
                "the pool takes less than amount_in (SPL Token Swap transfers only source_amount_swapped)"
            }
            Self::ShareOffProportion => {
                "value share at the documented prices differs from the proportion by more than 1e-6"
            }
            Self::NoTotalSupply => "an LP step on a pool whose snapshot gives no total_supply",
            Self::TokenInNotACoin => "token_in is not a coin of the pool",
            Self::TokenOutNotACoin => "token_out is not a coin of the pool",
            Self::ZeroAmountIn => "zero amount_in",
            Self::AmountsInCount => "amounts_in needs one amount per coin",
            Self::AmountOutDiffers => "amount_out differs from the exact simulation",
            Self::LpOutDiffers => "lp_out differs from the exact simulation",
            Self::AmountsOutDiffer => "amounts_out differ from the exact simulation",
            Self::HoldingOverflows => "holding overflows",
            Self::Overspends => "spends more than is held at this point",
            Self::MinAmountAboveAmount => "min_amount above amount",
            Self::HoldingsDiffer => "final holdings differ from outputs plus refunds",
            Self::OutputNotDelivered => "an output is not delivered",
            Self::RequestAmountsOverflow => "request amounts overflow",
            Self::TokenListedTwice => "token listed twice",
            Self::NotARequestInput => "not an input of the request",
            Self::InputAmountDiffers => "amount differs from the request's",
            Self::RequestedInputMissing => "a requested input is missing",
            Self::SwapTakesNoZapFee => "a swap takes no zap fee",
            Self::ZapFeeMissing => "the zap fee is missing",
            Self::ZapFeeNotFloor => "not floor(input amount × rate / 10000)",
            Self::InputFeeMissing => "an input's fee is missing",
            Self::SlippageDiffers => "differs from the request's",
            Self::OutputCount => "not one output per requested token",
            Self::OutputOutOfPlace => "token is not the request's output at this place",
            Self::MinAmountNotFloor => "not floor(amount × (1 − slippage))",
            Self::ZeroRefund => "a zero refund",
            Self::TokenRefundedTwice => "token refunded twice",
            Self::TokenChargedTwice => "token charged twice",
            Self::OutputRefunded => "an output token refunded (it belongs in outputs)",
            Self::PartialFill => "a swap hands back part of a token its steps could have taken (a partial fill)",
            Self::SourceFiltered => "a swap through a pool whose source the request's filters leave out",
            Self::BeyondHopLimit => {
                "a swap through a pool direction on no path within the request's hop limit"
            }
            Self::BoundHopsDiffer => "differs from the request's hop limit",
            Self::GasUnitsDiffer => "differs from the gas model's count of the swap steps",
            Self::ValueNotFinite => "not a finite number",
            Self::ValueNotOutputLessGas => "not the output amount less the gas cost",
            Self::BoundBelowValue => "below the plan's value",
            Self::BoundBelowCertificate => "below the bound the router certifies for the request",
            Self::BoundNotCertified => "given where the engine certifies no bound for the request",
            Self::FloatBoundBelowCertificate => {
                "puts upper_bound − rounding_slack below the float bound the router certifies"
            }
            Self::PriceImpactDiffers => "not the price impact of the plan's outputs at the request's mid prices",
            Self::SlackNotOfBound => "not a number in [0, upper_bound] beside the bound",
            Self::BoundGapNotOfBound => "not (upper_bound − value) / upper_bound of the plan",
            Self::GasPriceDiffers => "differs from the request's gas price",
            Self::NoOutputPrices => "the request carries no output prices",
            Self::OutputsWithoutValue => "the outputs have no value",
            Self::ExactOutOverspends => "exact-out: the plan spends more than the request allows",
            Self::ExactOutBelowWanted => "exact-out: the output is below the wanted amount",
            Self::UnknownTokenAddress => "token address not in the snapshot",
            Self::UnknownPool => "pool not in the snapshot",
            Self::NotADecimalAmount => "not a decimal amount",
            Self::NotAPoolErrorText => "not a pool error's text",
            Self::Missing => "missing",
            Self::NotU64Fraction => "not a u64 fraction",
            Self::NotAFractionInUnitRange => "not a fraction in [0, 1]",
        })
    }
}

impl fmt::Display for PlanProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Reverts { op, error } => write!(f, "the {op} reverts ({error})"),
            Self::ZapFeeRate { given, documented } => write!(
                f,
                "rate differs from the documented rate ({given} bps, documented {documented})"
            ),
            other => f.write_str(other.text().unwrap_or_default()),
        }
    }
}
