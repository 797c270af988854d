//! The serialisable view of a [`Plan`] (see [`Plan::to_json`]): addresses and pool ids from
//! the graph, amounts as decimal strings, read back by [`PlanJson::to_plan`]. Unknown keys are
//! refused on every object (a stored plan is taken as written or not at all).

use super::{check_fraction, mismatch, Excluded, Output, Plan, Step, TokenAmount, ZapFee};
use crate::error::PoolError;
use crate::error::{PlanField, PlanProblem, RouteError};
use crate::graph::PoolGraph;
use crate::units::parse_u256_dec;
use crate::units::{PoolId, TokenId};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;

/// A token and a decimal-string amount.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmountJson {
    /// token address
    pub token: String,
    /// base units
    pub amount: String,
}

/// An output.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputJson {
    /// token address
    pub token: String,
    /// base units
    pub amount: String,
    /// least amount after slippage
    pub min_amount: String,
}

/// A step.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StepJson {
    /// swap
    Swap {
        /// pool id string
        pool: String,
        /// token sold
        token_in: String,
        /// token bought
        token_out: String,
        /// exact input
        amount_in: String,
        /// exact output
        amount_out: String,
    },
    /// mint
    Mint {
        /// pool id string
        pool: String,
        /// per coin, pool order
        amounts_in: Vec<String>,
        /// LP minted
        lp_out: String,
    },
    /// burn
    Burn {
        /// pool id string
        pool: String,
        /// LP burned
        lp_in: String,
        /// per coin, pool order
        amounts_out: Vec<String>,
    },
    /// one-coin withdrawal
    BurnOne {
        /// pool id string
        pool: String,
        /// LP burned
        lp_in: String,
        /// the coin withdrawn
        token_out: String,
        /// amount returned
        amount_out: String,
    },
}

/// The zap fee.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZapFeeJson {
    /// basis points
    pub rate_bps: u32,
    /// amounts taken
    pub taken: Vec<AmountJson>,
}

/// The plan.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanJson {
    /// steps in execution order
    pub steps: Vec<StepJson>,
    /// outputs
    pub outputs: Vec<OutputJson>,
    /// inputs
    pub inputs: Vec<AmountJson>,
    /// surplus returned
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refunds: Vec<AmountJson>,
    /// zap fee
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zap_fee: Option<ZapFeeJson>,
    /// objective value (see [`Plan::value`])
    pub value: f64,
    /// upper bound on the objective
    pub upper_bound: Option<f64>,
    /// the part of `upper_bound` that is integer rounding (see [`Plan::rounding_slack`])
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding_slack: Option<f64>,
    /// price impact (fraction)
    pub price_impact: f64,
    /// gas units
    pub gas_units: u64,
    /// the gas price the plan was chosen with (output base units per gas unit)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gas_price: Option<f64>,
    /// `(upper_bound − value) / upper_bound`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_gap: Option<f64>,
    /// the hop limit the bound is over (absent: every plan)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_max_hops: Option<usize>,
    /// the slippage limit the plan was made with (see [`Plan::slippage`]); needed to read
    /// the plan back
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slippage: Option<FractionJson>,
    /// pools left out because their exact swap reverted (see [`Plan::excluded`])
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<ExcludedJson>,
}

/// A pool left out of the plan: its id string and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExcludedJson {
    /// pool id string
    pub pool: String,
    /// the revert, as [`PoolError`]'s text
    pub reason: String,
}

/// An exact fraction, numerator and denominator as decimal strings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FractionJson {
    /// numerator
    pub num: String,
    /// denominator
    pub den: String,
}

impl PlanJson {
    pub(super) fn new(p: &Plan, g: &PoolGraph) -> Result<Self, RouteError> {
        let w = Writer(g);
        let steps = p
            .steps
            .iter()
            .map(|s| w.step(s))
            .collect::<Result<_, _>>()?;
        let outputs = p
            .outputs
            .iter()
            .map(|o| w.output(o))
            .collect::<Result<_, _>>()?;
        let zap_fee = match &p.zap_fee {
            Some(f) => Some(ZapFeeJson {
                rate_bps: f.rate_bps,
                taken: w.amounts(&f.taken)?,
            }),
            None => None,
        };
        Ok(PlanJson {
            steps,
            outputs,
            inputs: w.amounts(&p.inputs)?,
            refunds: w.amounts(&p.refunds)?,
            zap_fee,
            value: p.value,
            upper_bound: p.upper_bound,
            rounding_slack: p.rounding_slack,
            price_impact: p.price_impact,
            gas_units: p.gas_units,
            gas_price: p.gas_price,
            bound_gap: p.bound_gap(),
            bound_max_hops: p.bound_max_hops,
            slippage: Some(FractionJson {
                num: p.slippage.numer().to_string(),
                den: p.slippage.denom().to_string(),
            }),
            excluded: w.excluded(&p.excluded)?,
        })
    }

    /// The plan this JSON describes, on `graph` (addresses and pool ids resolved in it,
    /// amounts parsed exactly). Nothing is checked beyond the form: use
    /// [`Plan::verify_request`] to trust it.
    ///
    /// # Errors
    /// [`RouteError::PlanMismatch`] naming the field and element (or step) whose address,
    /// pool id or number cannot be read, or a missing `slippage`.
    pub fn to_plan(&self, g: &PoolGraph) -> Result<Plan, RouteError> {
        let r = Reader(g);
        let steps = self
            .steps
            .iter()
            .enumerate()
            .map(|(k, s)| r.step(s, k))
            .collect::<Result<_, _>>()?;
        let outputs = self
            .outputs
            .iter()
            .enumerate()
            .map(|(k, o)| r.output(o, k))
            .collect::<Result<_, _>>()?;
        let zap_fee = match &self.zap_fee {
            Some(f) => Some(ZapFee {
                rate_bps: f.rate_bps,
                taken: r.amounts(&f.taken, PlanField::ZapFee)?,
            }),
            None => None,
        };
        let slippage = slippage_of(self.slippage.as_ref())?;
        let excluded = r.excluded(&self.excluded)?;
        Ok(Plan {
            inputs: r.amounts(&self.inputs, PlanField::Inputs)?,
            steps,
            outputs,
            refunds: r.amounts(&self.refunds, PlanField::Refunds)?,
            zap_fee,
            value: self.value,
            upper_bound: self.upper_bound,
            rounding_slack: self.rounding_slack,
            price_impact: self.price_impact,
            gas_units: self.gas_units,
            slippage,
            gas_price: self.gas_price,
            bound_max_hops: self.bound_max_hops,
            excluded,
        })
    }

    /// The JSON's `bound_gap`, when given, is the gap of `plan`'s own bound and value
    /// ([`Plan::bound_gap`]). The gap is written beside the bound for readers and is no field
    /// of [`Plan`], so [`PlanJson::to_plan`] cannot keep it: a reader that must take the
    /// JSON as written calls this on the plan it read back, after
    /// [`Plan::verify_request`] (which checks `value` and `upper_bound` first, so a changed
    /// value is named as such).
    ///
    /// # Errors
    /// [`RouteError::PlanMismatch`] on [`PlanField::BoundGap`] for another gap (relative
    /// difference above 1e-12), or a gap without a bound.
    pub fn check_bound_gap(&self, plan: &Plan) -> Result<(), RouteError> {
        let Some(gap) = self.bound_gap else {
            return Ok(());
        };
        let agrees = plan.bound_gap().is_some_and(|g| {
            #[allow(clippy::arithmetic_side_effects)] // f64
            let off = (g - gap).abs();
            g.to_bits() == gap.to_bits() || off <= 1e-12 * g.abs()
        });
        if agrees {
            Ok(())
        } else {
            let why = PlanProblem::BoundGapNotOfBound;
            Err(mismatch(PlanField::BoundGap, None, why))
        }
    }
}

/// A plan's ids written as the graph names them (token addresses, pool id strings) and its
/// amounts as decimal strings.
struct Writer<'g>(&'g PoolGraph);

impl Writer<'_> {
    fn token(&self, t: TokenId) -> Result<String, RouteError> {
        self.0
            .token(t)
            .map(|i| i.address.clone())
            .ok_or(RouteError::TokenOutOfRange(t))
    }

    fn pool(&self, p: PoolId) -> Result<String, RouteError> {
        self.0
            .pool(p)
            .map(|i| i.id.clone())
            .ok_or(RouteError::PoolOutOfRange(p))
    }

    fn amounts(&self, v: &[TokenAmount]) -> Result<Vec<AmountJson>, RouteError> {
        v.iter()
            .map(|a| {
                Ok(AmountJson {
                    token: self.token(a.token)?,
                    amount: a.amount.to_string(),
                })
            })
            .collect()
    }

    fn output(&self, o: &Output) -> Result<OutputJson, RouteError> {
        Ok(OutputJson {
            token: self.token(o.token)?,
            amount: o.amount.to_string(),
            min_amount: o.min_amount.to_string(),
        })
    }

    fn excluded(&self, v: &[Excluded]) -> Result<Vec<ExcludedJson>, RouteError> {
        v.iter()
            .map(|x| {
                Ok(ExcludedJson {
                    pool: self.pool(x.pool)?,
                    reason: x.error.to_string(),
                })
            })
            .collect()
    }

    fn step(&self, s: &Step) -> Result<StepJson, RouteError> {
        let strs = |v: &[U256]| v.iter().map(ToString::to_string).collect();
        Ok(match s {
            Step::Swap {
                pool,
                token_in,
                token_out,
                amount_in,
                amount_out,
            } => StepJson::Swap {
                pool: self.pool(*pool)?,
                token_in: self.token(*token_in)?,
                token_out: self.token(*token_out)?,
                amount_in: amount_in.to_string(),
                amount_out: amount_out.to_string(),
            },
            Step::Mint {
                pool,
                amounts_in,
                lp_out,
            } => StepJson::Mint {
                pool: self.pool(*pool)?,
                amounts_in: strs(amounts_in),
                lp_out: lp_out.to_string(),
            },
            Step::Burn {
                pool,
                lp_in,
                amounts_out,
            } => StepJson::Burn {
                pool: self.pool(*pool)?,
                lp_in: lp_in.to_string(),
                amounts_out: strs(amounts_out),
            },
            Step::BurnOne {
                pool,
                lp_in,
                token_out,
                amount_out,
            } => StepJson::BurnOne {
                pool: self.pool(*pool)?,
                lp_in: lp_in.to_string(),
                token_out: self.token(*token_out)?,
                amount_out: amount_out.to_string(),
            },
        })
    }
}

/// A plan JSON's strings read back on a graph; each failure is the
/// [`RouteError::PlanMismatch`] naming the field and element.
struct Reader<'g>(&'g PoolGraph);

impl Reader<'_> {
    fn token(&self, a: &str, field: PlanField, k: usize) -> Result<TokenId, RouteError> {
        self.0
            .token_id(a)
            .ok_or_else(|| mismatch(field, Some(k), PlanProblem::UnknownTokenAddress))
    }

    fn pool(&self, id: &str, field: PlanField, k: usize) -> Result<PoolId, RouteError> {
        self.0
            .pool_id(id)
            .ok_or_else(|| mismatch(field, Some(k), PlanProblem::UnknownPool))
    }

    fn num(x: &str, field: PlanField, k: usize) -> Result<U256, RouteError> {
        parse_u256_dec(x).ok_or_else(|| mismatch(field, Some(k), PlanProblem::NotADecimalAmount))
    }

    fn amounts(&self, v: &[AmountJson], field: PlanField) -> Result<Vec<TokenAmount>, RouteError> {
        v.iter()
            .enumerate()
            .map(|(k, a)| {
                Ok(TokenAmount {
                    token: self.token(&a.token, field, k)?,
                    amount: Self::num(&a.amount, field, k)?,
                })
            })
            .collect()
    }

    fn output(&self, o: &OutputJson, k: usize) -> Result<Output, RouteError> {
        Ok(Output {
            token: self.token(&o.token, PlanField::Outputs, k)?,
            amount: Self::num(&o.amount, PlanField::Outputs, k)?,
            min_amount: Self::num(&o.min_amount, PlanField::MinAmount, k)?,
        })
    }

    fn excluded(&self, v: &[ExcludedJson]) -> Result<Vec<Excluded>, RouteError> {
        let field = PlanField::Excluded;
        v.iter()
            .enumerate()
            .map(|(k, x)| {
                Ok(Excluded {
                    pool: self.pool(&x.pool, field, k)?,
                    error: PoolError::from_text(&x.reason)
                        .ok_or_else(|| mismatch(field, Some(k), PlanProblem::NotAPoolErrorText))?,
                })
            })
            .collect()
    }

    /// Step `k`: its pool first, then its fields in order.
    fn step(&self, s: &StepJson, k: usize) -> Result<Step, RouteError> {
        let f = PlanField::Steps;
        let num = |x: &str| Self::num(x, f, k);
        let nums = |v: &[String]| v.iter().map(|x| num(x)).collect::<Result<Vec<_>, _>>();
        let tok = |a: &str| self.token(a, f, k);
        Ok(match s {
            StepJson::Swap {
                pool,
                token_in,
                token_out,
                amount_in,
                amount_out,
            } => Step::Swap {
                pool: self.pool(pool, f, k)?,
                token_in: tok(token_in)?,
                token_out: tok(token_out)?,
                amount_in: num(amount_in)?,
                amount_out: num(amount_out)?,
            },
            StepJson::Mint {
                pool,
                amounts_in,
                lp_out,
            } => Step::Mint {
                pool: self.pool(pool, f, k)?,
                amounts_in: nums(amounts_in)?,
                lp_out: num(lp_out)?,
            },
            StepJson::Burn {
                pool,
                lp_in,
                amounts_out,
            } => Step::Burn {
                pool: self.pool(pool, f, k)?,
                lp_in: num(lp_in)?,
                amounts_out: nums(amounts_out)?,
            },
            StepJson::BurnOne {
                pool,
                lp_in,
                token_out,
                amount_out,
            } => Step::BurnOne {
                pool: self.pool(pool, f, k)?,
                lp_in: num(lp_in)?,
                token_out: tok(token_out)?,
                amount_out: num(amount_out)?,
            },
        })
    }
}

/// The plan's slippage fraction from its JSON (required to read a plan back).
fn slippage_of(sl: Option<&FractionJson>) -> Result<Ratio<u64>, RouteError> {
    let sl = sl.ok_or_else(|| mismatch(PlanField::Slippage, None, PlanProblem::Missing))?;
    let part = |x: &str| {
        x.parse::<u64>()
            .map_err(|_| mismatch(PlanField::Slippage, None, PlanProblem::NotU64Fraction))
    };
    let (n, d) = (part(&sl.num)?, part(&sl.den)?);
    check_fraction(n, d)?;
    Ok(Ratio::new(n, d))
}
