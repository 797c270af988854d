//! Exact decimals: the JSON number fields as sent ([`JsonDecimal`]), read exactly into
//! [`Proportion`] and [`Slippage`] in units of `10^-18`.

use super::{DECIMAL_PLACES, MAX_SLIPPAGE_PERCENT, ONE_E18};
use crate::error::DecimalProblem;
use alloc::{
    borrow::ToOwned,
    format,
    string::{String, ToString},
};
use core::fmt;
use num_rational::Ratio;
use primitive_types::U256;

/// A JSON number field (`proportion`, `slippageLimitPercent`) as the client sent it: a JSON
/// number (which serde hands over as an `f64`) or a JSON string holding a decimal. Validation
/// reads either exactly (see the module docs, "Numbers").
#[derive(Debug, Clone, PartialEq)]
pub enum JsonDecimal {
    /// A JSON number.
    Number(f64),
    /// A JSON string such as `"0.8"`.
    Text(String),
}

impl JsonDecimal {
    /// The decimal text validation parses: the string as given, or the shortest round-trip
    /// text of the number (`None` for NaN and infinities).
    #[must_use]
    pub fn text(&self) -> Option<String> {
        match self {
            Self::Number(x) if !x.is_finite() => None,
            Self::Number(x) => Some(format!("{x}")),
            Self::Text(s) => Some(s.clone()),
        }
    }

    /// Read as an exact fixed-point value in units of `10^-18`.
    pub(super) fn to_e18(&self) -> Result<u128, DecimalProblem> {
        match self {
            Self::Number(x) => {
                if !x.is_finite() {
                    return Err(DecimalProblem::NotFinite);
                }
                if x.is_sign_negative() {
                    return Err(DecimalProblem::Negative);
                }
                parse_e18(&format!("{x}"))
            }
            Self::Text(s) => parse_e18(s),
        }
    }

    /// The form a typed value is written back in: a JSON number when the decimal has at most
    /// 15 significant digits (every JSON reader, even one that is not correctly rounded, reads
    /// those back to the same double, whose shortest text is the decimal again), a string
    /// otherwise (serde_json without its `float_roundtrip` feature can misread a 17-digit
    /// literal by one ulp).
    pub(super) fn from_e18(v: u128) -> Self {
        let text = format_e18(v);
        let significant = text
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&b| b == b'0')
            .count();
        match text.parse::<f64>() {
            Ok(x) if significant <= 15 && format!("{x}") == text => Self::Number(x),
            _ => Self::Text(text),
        }
    }
}

impl From<f64> for JsonDecimal {
    fn from(x: f64) -> Self {
        Self::Number(x)
    }
}

impl From<&str> for JsonDecimal {
    fn from(s: &str) -> Self {
        Self::Text(s.to_owned())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for JsonDecimal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(x) => s.serialize_f64(*x),
            Self::Text(t) => s.serialize_str(t),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for JsonDecimal {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = JsonDecimal;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number or a decimal string")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<JsonDecimal, E> {
                Ok(JsonDecimal::Number(v))
            }
            #[allow(clippy::cast_precision_loss)] // same value serde_json gives for a float
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<JsonDecimal, E> {
                // An integer literal: keep it exact as text unless a double holds it exactly.
                let x = v as f64;
                if x < 9_007_199_254_740_992.0 {
                    Ok(JsonDecimal::Number(x))
                } else {
                    Ok(JsonDecimal::Text(v.to_string()))
                }
            }
            #[allow(clippy::cast_precision_loss)] // negative: refused by validation anyway
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<JsonDecimal, E> {
                Ok(JsonDecimal::Number(v as f64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<JsonDecimal, E> {
                Ok(JsonDecimal::Text(v.to_owned()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Parse `digits[.digits]` exactly into units of `10^-18`. Grammar: an integer part that is
/// `0` or has no leading zero, an optional `.` followed by at least one digit. Nothing else: no
/// sign, exponent, whitespace, `_` or empty parts. Fraction digits past the 18th must be zeros.
fn parse_e18(s: &str) -> Result<u128, DecimalProblem> {
    if s.is_empty() {
        return Err(DecimalProblem::Empty);
    }
    if let Some(rest) = s.strip_prefix('-') {
        // "-0", "-0.0" are zero with a sign; still a sign.
        return Err(if parse_e18(rest).is_ok() {
            DecimalProblem::Negative
        } else {
            DecimalProblem::NotADecimal
        });
    }
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || frac.is_some_and(|f| !all_digits(f)) {
        return Err(DecimalProblem::NotADecimal);
    }
    if int.len() > 1 && int.starts_with('0') {
        return Err(DecimalProblem::NotADecimal);
    }
    // 10^21 * 10^18 would already be far above every bound we use; refuse before overflow.
    if int.len() > 20 {
        return Err(DecimalProblem::TooLarge);
    }
    let mut v: u128 = 0;
    for b in int.bytes() {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u128::from(b.wrapping_sub(b'0'))))
            .ok_or(DecimalProblem::TooLarge)?;
    }
    v = v.checked_mul(ONE_E18).ok_or(DecimalProblem::TooLarge)?;
    if let Some(f) = frac {
        let f = f.trim_end_matches('0');
        if f.len() > DECIMAL_PLACES as usize {
            return Err(DecimalProblem::TooManyDecimals {
                max: DECIMAL_PLACES,
            });
        }
        let mut scale = ONE_E18;
        for b in f.bytes() {
            scale /= 10;
            let d = u128::from(b.wrapping_sub(b'0'));
            // d * scale <= 9 * 10^17; the sum stays below the next integer unit.
            v = d
                .checked_mul(scale)
                .and_then(|x| v.checked_add(x))
                .ok_or(DecimalProblem::TooLarge)?;
        }
    }
    Ok(v)
}

/// `v / 10^18` as the shortest exact decimal text (`800000000000000000` -> `"0.8"`).
pub(crate) fn format_e18(v: u128) -> String {
    let int = v / ONE_E18;
    let frac = v % ONE_E18;
    if frac == 0 {
        return int.to_string();
    }
    let f = format!("{frac:018}");
    format!("{int}.{}", f.trim_end_matches('0'))
}

/// A share of the input for one output: an exact decimal in `(0, 1]` held in units of
/// `10^-18` (0.8 is exactly `800000000000000000`, i.e. 4/5).
///
/// # Invariants
/// `0 < parts <= 10^18`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Proportion(u64);

impl Proportion {
    /// The whole: 1.
    pub const ONE: Self = Self(1_000_000_000_000_000_000);

    /// From parts per `10^18`.
    ///
    /// # Errors
    /// [`DecimalProblem::Zero`] for 0, [`DecimalProblem::TooLarge`] above `10^18`.
    pub fn from_parts(parts: u64) -> Result<Self, DecimalProblem> {
        match u128::from(parts) {
            0 => Err(DecimalProblem::Zero),
            p if p > ONE_E18 => Err(DecimalProblem::TooLarge),
            _ => Ok(Self(parts)),
        }
    }

    /// Parse exact decimal text such as `"0.8"` (the grammar of the module docs).
    ///
    /// # Errors
    /// The [`DecimalProblem`] found.
    pub fn parse(s: &str) -> Result<Self, DecimalProblem> {
        Self::from_e18(parse_e18(s)?)
    }

    pub(super) fn from_e18(v: u128) -> Result<Self, DecimalProblem> {
        let parts = u64::try_from(v).map_err(|_| DecimalProblem::TooLarge)?;
        Self::from_parts(parts)
    }

    /// Parts per `10^18`.
    #[must_use]
    pub fn parts(self) -> u64 {
        self.0
    }

    /// The exact value as a reduced ratio (0.8 gives 4/5).
    #[must_use]
    pub fn as_ratio(self) -> Ratio<u128> {
        Ratio::new(u128::from(self.0), ONE_E18)
    }

    /// `floor(amount * self)`: this share of `amount`, rounded down.
    #[must_use]
    pub fn share_of(self, amount: U256) -> U256 {
        // self <= 1, so the quotient is at most `amount`: mul_div cannot fail. Fall back to
        // `amount` (never more than the whole) to keep the signature total.
        crate::math::mul_div(amount, U256::from(self.0), U256::from(ONE_E18)).unwrap_or(amount)
    }

    /// An approximate float, for display and search only.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // display only
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 1e18
    }
}

impl fmt::Display for Proportion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_e18(u128::from(self.0)))
    }
}

/// The slippage limit: an exact percent in `[0, MAX_SLIPPAGE_PERCENT]`, held in units of
/// `10^-18` percent (0.5 % is `500000000000000000`).
///
/// # Invariants
/// `percent_e18 <= MAX_SLIPPAGE_PERCENT * 10^18`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Slippage(u128);

/// `100 * 10^18`: the slippage fraction is `percent_e18 / 10^20`.
const HUNDRED_E18: u128 = 100_000_000_000_000_000_000;

impl Slippage {
    /// From a percent in units of `10^-18` percent.
    ///
    /// # Errors
    /// [`DecimalProblem::TooLarge`] above [`MAX_SLIPPAGE_PERCENT`].
    pub fn from_percent_e18(percent_e18: u128) -> Result<Self, DecimalProblem> {
        // MAX_SLIPPAGE_PERCENT * 10^18 = 5 * 10^19 fits u128.
        #[allow(clippy::arithmetic_side_effects)]
        let max = MAX_SLIPPAGE_PERCENT * ONE_E18;
        if percent_e18 > max {
            return Err(DecimalProblem::TooLarge);
        }
        Ok(Self(percent_e18))
    }

    /// Parse an exact decimal percent such as `"0.5"` (0.5 %).
    ///
    /// # Errors
    /// The [`DecimalProblem`] found.
    pub fn parse_percent(s: &str) -> Result<Self, DecimalProblem> {
        Self::from_percent_e18(parse_e18(s)?)
    }

    /// The percent in units of `10^-18` percent.
    #[must_use]
    pub fn percent_e18(self) -> u128 {
        self.0
    }

    /// The exact fraction (0.5 % gives 1/200).
    #[must_use]
    pub fn as_fraction(self) -> Ratio<u128> {
        Ratio::new(self.0, HUNDRED_E18)
    }

    /// `floor(amount * (1 - slippage))`: the least output accepted when `amount` is quoted.
    /// Rounded **down**, so the minimum never exceeds what the exact fraction allows (a quote
    /// for 1000 at 0.5 % accepts 995; for 999 it accepts `floor(994.005) = 994`).
    #[must_use]
    pub fn min_amount_out(self, amount: U256) -> U256 {
        // The invariant gives self.0 <= 5 * 10^19 < 10^20.
        let keep = HUNDRED_E18.saturating_sub(self.0);
        // keep <= 10^20, so the quotient is at most `amount`: mul_div cannot fail. Should it
        // ever, fall back to `amount` itself, the strict side (the trade reverts rather than
        // accepting less than intended).
        crate::math::mul_div(amount, U256::from(keep), U256::from(HUNDRED_E18)).unwrap_or(amount)
    }
}

impl fmt::Display for Slippage {
    /// The percent, without the `%` sign (`0.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_e18(self.0))
    }
}
