//! The spec's request bodies as types, and their validation into typed values.
//!
//! Two layers:
//!
//! 1. **Bodies** ([`QuoteRequest`], [`AssembleRequest`]): the JSON of
//!    `POST /sor/quote/...` and `POST /sor/assemble`, field for field, with serde behind the
//!    `serde` feature. They hold strings and numbers as the client sent them and check nothing.
//! 2. **Typed values** ([`Request`]): what [`QuoteRequest::validate`] makes of a body, per
//!    deployment: parsed [`Address`]es, amounts as `U256`, exact [`Proportion`]s and
//!    [`Slippage`], the [`SourceFilter`] to apply and the flags. Every failure is a typed
//!    [`RequestError`] naming the field (as a JSON path such as `inputTokens[1].amount`).
//!
//! The deployment follows `chainId`: `101` is the chain-101 deployment (base58 addresses),
//! every other non-zero chain id is an EVM-style chain (0x hex addresses).
//!
//! # Unknown fields
//!
//! A body with a field the spec does not name is **rejected** (serde `deny_unknown_fields`): a
//! misspelt optional field (`sourceWhiteList`, `slippageLimitPercentage`) would otherwise be
//! dropped silently and the quote would route with looser filters or a default the client did
//! not choose. The transport turns the serde error into [`RequestError::MalformedBody`].
//!
//! # Rules and bounds (the spec leaves them open; these are ours)
//!
//! | rule | value |
//! |---|---|
//! | `inputTokens` | 1 to [`MAX_INPUT_TOKENS`] entries, no token twice |
//! | `outputTokens` | 1 to [`MAX_OUTPUT_TOKENS`] entries, no token twice, none also an input |
//! | `amount` | canonical base-unit integer string: digits only, no leading zero, `> 0`, `< 2^256` |
//! | `proportion` | exact decimal, `> 0`, at most [`DECIMAL_PLACES`] decimals; they sum exactly to 1 |
//! | `slippageLimitPercent` | exact decimal percent, `0 <= s <=` [`MAX_SLIPPAGE_PERCENT`], at most [`DECIMAL_PLACES`] decimals |
//! | `userAddr` | optional at quote time; EVM: exact EIP-55 checksum form; chain 101: base58, 32 bytes |
//! | token addresses | EVM: 0x + 40 hex, all-lower, all-upper or a valid EIP-55 mixed case; chain 101: base58, 32 bytes |
//! | `sourceWhitelist` | non-empty; every id a known source id (case-sensitive, hyphenated) |
//! | `sourceBlacklist` | any ids (an unknown id excludes nothing); applied on EVM chains, accepted and not applied on chain 101 |
//! | `disableRFQs` | accepted everywhere; on chain 101 RFQs are off anyway |
//!
//! # Numbers
//!
//! A JSON number reaches serde as an `f64`. Its shortest round-trip decimal text (Rust's `{}`)
//! is the literal the client typed whenever that literal has at most 15 significant digits,
//! and that text is parsed **exactly** (`0.8` is 4/5, never the double nearest to it). Longer
//! literals are read as the shortest decimal of their double (and a JSON reader that is not
//! correctly rounded, such as serde_json without `float_roundtrip`, may be one ulp off there);
//! clients who need more digits send the number as a JSON string
//! (`"0.333333333333333333"`), which is parsed exactly too.
//!
//! # Example
//!
//! ```
//! use swapzap::service::request::{InputToken, JsonDecimal, OutputToken, QuoteRequest};
//!
//! let body = QuoteRequest {
//!     chain_id: 1,
//!     input_tokens: vec![InputToken {
//!         token_address: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2".into(),
//!         amount: "1000000000000000000".into(),
//!     }],
//!     output_tokens: vec![OutputToken {
//!         token_address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48".into(),
//!         proportion: JsonDecimal::Number(1.0),
//!     }],
//!     slippage_limit_percent: JsonDecimal::Number(0.5),
//!     user_addr: None,
//!     referral_code: None,
//!     compact: None,
//!     source_whitelist: None,
//!     source_blacklist: None,
//!     disable_rfqs: None,
//! };
//! let req = body.validate(&["uniswap-v2", "curve"]).unwrap();
//! // 0.5 % slippage: the minimum of 1000 is 995.
//! assert_eq!(req.min_amount_out(1000u32.into()), 995u32.into());
//! ```

use crate::error::{AddressProblem, AmountProblem, DecimalProblem, Error, Field, RequestError};
use alloc::{
    borrow::ToOwned,
    format,
    string::{String, ToString},
    vec::Vec,
};
use core::fmt;
use num_rational::Ratio;
use primitive_types::U256;

pub use crate::chain::{Deployment, CHAIN_101, MAX_SLIPPAGE_PERCENT};

/// Most entries in `inputTokens`.
pub const MAX_INPUT_TOKENS: usize = 16;

/// Most entries in `outputTokens`.
pub const MAX_OUTPUT_TOKENS: usize = 16;

/// Most decimal places read in a proportion or a slippage percent (trailing zeros beyond it
/// are fine). Both are held exactly in units of `10^-18`.
pub const DECIMAL_PLACES: u32 = 18;

/// `10^18`: one whole in the fixed-point units of [`Proportion`] and [`Slippage`].
pub const ONE_E18: u128 = 1_000_000_000_000_000_000;

/// How long a quote can be assembled, in milliseconds (spec: 60 seconds from when the quote is
/// received).
pub const QUOTE_TTL_MS: u64 = 60_000;

/// [`QUOTE_TTL_MS`] in seconds.
pub const QUOTE_TTL_SECS: u64 = 60;

// ---------------------------------------------------------------------------------------------
// Deployment
// ---------------------------------------------------------------------------------------------

impl Deployment {
    /// The deployment serving `chain_id`: [`CHAIN_101`] is [`Deployment::Chain101`], every other
    /// non-zero id is [`Deployment::Evm`].
    ///
    /// # Errors
    /// [`RequestError::UnsupportedChain`] for chain id 0.
    pub fn for_chain(chain_id: u64) -> Result<Self, RequestError> {
        match chain_id {
            0 => Err(RequestError::UnsupportedChain { chain_id }),
            CHAIN_101 => Ok(Self::Chain101),
            _ => Ok(Self::Evm),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Address
// ---------------------------------------------------------------------------------------------

/// Why an address string was refused, before knowing which request field it came from.
/// [`AddressError::at`] names the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressError {
    /// Not an address of the expected format.
    Format(AddressProblem),
    /// A mixed-case EVM address whose case is not its EIP-55 checksum.
    BadChecksum,
    /// An EVM address that had to be in EIP-55 form (`userAddr`) but was all lower or all upper
    /// case.
    NotChecksummed,
    /// A 0x EVM address where chain 101 takes base58.
    EvmOnChain101,
}

impl AddressError {
    /// The request error for this failure at `field`.
    #[must_use]
    pub fn at(self, field: Field) -> RequestError {
        match self {
            Self::Format(problem) => RequestError::InvalidAddress { field, problem },
            Self::BadChecksum => RequestError::BadChecksum { field },
            Self::NotChecksummed => RequestError::NotChecksummed { field },
            Self::EvmOnChain101 => RequestError::EvmAddressOnChain101 { field },
        }
    }
}

/// A parsed address of either deployment.
///
/// `Display` (and serde) gives the canonical form: an EVM address in its **EIP-55 checksum**
/// form (the form the spec asks of `userAddr`; every EVM parser accepts it), a chain-101
/// address in base58.
///
/// # Example
///
/// ```
/// use swapzap::service::request::Address;
///
/// // From EIP-55's own examples: the lower-case form prints checksummed.
/// let a = Address::parse_evm("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", false).unwrap();
/// assert_eq!(a.to_string(), "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Address {
    /// A 20-byte EVM address.
    Evm([u8; 20]),
    /// A 32-byte base58 address (chain 101).
    Base58([u8; 32]),
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => c.checked_sub(b'0'),
        b'a'..=b'f' => c.checked_sub(b'a').and_then(|v| v.checked_add(10)),
        b'A'..=b'F' => c.checked_sub(b'A').and_then(|v| v.checked_add(10)),
        _ => None,
    }
}

/// The 40 hex digits of `bytes` in EIP-55 form: a letter is upper case when the matching nibble
/// of keccak256(lower-case hex) is 8 or more.
fn eip55_digits(bytes: &[u8; 20]) -> [u8; 40] {
    let mut lower = [0u8; 40];
    for (b, pair) in bytes.iter().zip(lower.chunks_exact_mut(2)) {
        for (slot, nibble) in pair.iter_mut().zip([b / 16, b % 16]) {
            *slot = HEX_LOWER.get(usize::from(nibble)).copied().unwrap_or(b'0');
        }
    }
    let mut hash = [0u8; 32];
    {
        use tiny_keccak::Hasher as _;
        let mut k = tiny_keccak::Keccak::v256();
        k.update(&lower);
        k.finalize(&mut hash);
    }
    let mut out = lower;
    for (h, pair) in hash.iter().zip(out.chunks_exact_mut(2)) {
        for (c, nibble) in pair.iter_mut().zip([h / 16, h % 16]) {
            if nibble >= 8 {
                c.make_ascii_uppercase();
            }
        }
    }
    out
}

impl Address {
    /// Parse a 0x EVM address: `0x` then 40 hex digits. All lower case and all upper case carry
    /// no checksum and are accepted unless `require_checksum`; mixed case must be the EIP-55
    /// checksum. With `require_checksum` (the spec's rule for `userAddr`) only the exact EIP-55
    /// form passes.
    ///
    /// # Errors
    /// [`AddressError::Format`] (missing `0x`, wrong length, non-hex), [`AddressError::BadChecksum`],
    /// [`AddressError::NotChecksummed`].
    pub fn parse_evm(s: &str, require_checksum: bool) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::Format(AddressProblem::Empty));
        }
        let Some(digits) = s.strip_prefix("0x") else {
            return Err(AddressError::Format(AddressProblem::MissingPrefix));
        };
        if digits.len() != 40 {
            return Err(AddressError::Format(AddressProblem::WrongLength {
                len: digits.len(),
            }));
        }
        let mut bytes = [0u8; 20];
        for (b, pair) in bytes.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
            let (Some(&hi), Some(&lo)) = (pair.first(), pair.get(1)) else {
                return Err(AddressError::Format(AddressProblem::NotHex));
            };
            let (Some(hi), Some(lo)) = (hex_val(hi), hex_val(lo)) else {
                return Err(AddressError::Format(AddressProblem::NotHex));
            };
            // hi, lo < 16: hi * 16 + lo <= 255.
            *b = hi.wrapping_shl(4) | lo;
        }
        let has_lower = digits.bytes().any(|c| c.is_ascii_lowercase());
        let has_upper = digits.bytes().any(|c| c.is_ascii_uppercase());
        let mixed = has_lower && has_upper;
        if mixed || require_checksum {
            let want = eip55_digits(&bytes);
            if want.as_slice() != digits.as_bytes() {
                return Err(if mixed {
                    AddressError::BadChecksum
                } else {
                    AddressError::NotChecksummed
                });
            }
        }
        Ok(Self::Evm(bytes))
    }

    /// Parse a chain-101 base58 address (Bitcoin alphabet, case-sensitive) that decodes to
    /// exactly 32 bytes. A `0x` address is refused as such.
    ///
    /// # Errors
    /// [`AddressError::EvmOnChain101`] for a 0x address, [`AddressError::Format`] otherwise.
    pub fn parse_base58(s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::Format(AddressProblem::Empty));
        }
        if s.starts_with("0x") || s.starts_with("0X") {
            return Err(AddressError::EvmOnChain101);
        }
        // 32 bytes take at most 44 base58 digits; refusing longer strings early also bounds the
        // decoder's quadratic work.
        if s.len() > 44 {
            return Err(AddressError::Format(AddressProblem::WrongLength {
                len: s.len(),
            }));
        }
        let mut bytes = [0u8; 32];
        match bs58::decode(s).onto(&mut bytes) {
            Ok(32) => Ok(Self::Base58(bytes)),
            Ok(n) => Err(AddressError::Format(AddressProblem::WrongByteLength {
                len: n,
            })),
            Err(bs58::decode::Error::BufferTooSmall) => {
                Err(AddressError::Format(AddressProblem::WrongByteLength {
                    len: 33,
                }))
            }
            Err(_) => Err(AddressError::Format(AddressProblem::NotBase58)),
        }
    }

    /// Parse an address of `deployment`'s format (see [`Address::parse_evm`] and
    /// [`Address::parse_base58`]; `require_checksum` matters on EVM chains only).
    ///
    /// # Errors
    /// As those two.
    pub fn parse(
        s: &str,
        deployment: Deployment,
        require_checksum: bool,
    ) -> Result<Self, AddressError> {
        match deployment {
            Deployment::Evm => Self::parse_evm(s, require_checksum),
            Deployment::Chain101 => Self::parse_base58(s),
        }
    }

    /// The deployment whose format this address has.
    #[must_use]
    pub fn deployment(&self) -> Deployment {
        match self {
            Self::Evm(_) => Deployment::Evm,
            Self::Base58(_) => Deployment::Chain101,
        }
    }

    /// The raw bytes (20 or 32).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Evm(b) => b,
            Self::Base58(b) => b,
        }
    }

    /// An EVM address as `0x` + lower-case hex; a base58 address as its `Display`.
    #[must_use]
    pub fn to_lowercase_string(&self) -> String {
        match self {
            Self::Evm(b) => {
                let mut s = String::with_capacity(42);
                s.push_str("0x");
                for byte in b {
                    for nibble in [byte / 16, byte % 16] {
                        s.push(char::from(
                            HEX_LOWER.get(usize::from(nibble)).copied().unwrap_or(b'0'),
                        ));
                    }
                }
                s
            }
            Self::Base58(_) => self.to_string(),
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Evm(b) => {
                let d = eip55_digits(b);
                f.write_str("0x")?;
                // eip55_digits is ASCII hex only.
                f.write_str(core::str::from_utf8(&d).map_err(|_| fmt::Error)?)
            }
            Self::Base58(b) => f.write_str(&bs58::encode(b).into_string()),
        }
    }
}

impl core::str::FromStr for Address {
    type Err = AddressError;

    /// Either format, told apart by the `0x` prefix; an EVM address may be all lower, all upper
    /// or checksummed case.
    fn from_str(s: &str) -> Result<Self, AddressError> {
        if s.starts_with("0x") {
            Self::parse_evm(s, false)
        } else {
            Self::parse_base58(s)
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Address {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Address {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e: AddressError| serde::de::Error::custom(e.at(Field::Body)))
    }
}

// ---------------------------------------------------------------------------------------------
// Exact decimals
// ---------------------------------------------------------------------------------------------

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
    fn to_e18(&self) -> Result<u128, DecimalProblem> {
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
    fn from_e18(v: u128) -> Self {
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
fn format_e18(v: u128) -> String {
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

    fn from_e18(v: u128) -> Result<Self, DecimalProblem> {
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

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/// An element of `inputTokens`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct InputToken {
    /// The token (or LP token) address.
    pub token_address: String,
    /// Amount in base units, as a decimal integer string.
    pub amount: String,
}

/// An element of `outputTokens`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct OutputToken {
    /// The token (or LP token) address.
    pub token_address: String,
    /// Share of the input for this output.
    pub proportion: JsonDecimal,
}

/// The quote request body of `POST /sor/quote/{v2,v3}[/zap]`, field names as the spec.
/// Optional fields are omitted when `None`. Unknown fields are refused (module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct QuoteRequest {
    /// Chain id; `101` for the chain-101 deployment.
    pub chain_id: u64,
    /// Inputs: token and amount.
    pub input_tokens: Vec<InputToken>,
    /// Outputs: token and proportion.
    pub output_tokens: Vec<OutputToken>,
    /// Maximum slippage in percent (0.5 means 0.5 %).
    pub slippage_limit_percent: JsonDecimal,
    /// The wallet; required to assemble the quote later.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub user_addr: Option<String>,
    /// Referral code.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub referral_code: Option<u64>,
    /// Compact response.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub compact: Option<bool>,
    /// Only these liquidity sources.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_whitelist: Option<Vec<String>>,
    /// Not these liquidity sources (not applied on chain 101).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_blacklist: Option<Vec<String>>,
    /// Disable RFQ sources (chain 101: accepted, RFQs are off anyway).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            rename = "disableRFQs",
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub disable_rfqs: Option<bool>,
}

/// The body of `POST /sor/assemble`. Unknown fields are refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct AssembleRequest {
    /// The same address used to generate the quote.
    pub user_addr: String,
    /// From the quote response.
    pub path_id: String,
    /// Ask for a simulation object (informational on chain 101).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub simulate: Option<bool>,
}

// ---------------------------------------------------------------------------------------------
// Typed request
// ---------------------------------------------------------------------------------------------

/// A validated input: token and exact amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputAmount {
    /// The token (or LP token).
    pub token: Address,
    /// Base units, `0 < amount < 2^256`.
    pub amount: U256,
}

/// A validated output: token and exact proportion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutputShare {
    /// The token (or LP token).
    pub token: Address,
    /// Its share; the shares of a request sum exactly to 1.
    pub proportion: Proportion,
}

/// The liquidity sources a request may route through.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SourceFilter {
    /// `Some(ids)`: only these sources (every id known, the list non-empty). `None`: all.
    pub whitelist: Option<Vec<String>>,
    /// The blacklist as given (kept so the body can be written back).
    pub blacklist: Option<Vec<String>>,
    /// Whether [`SourceFilter::blacklist`] is applied (`false` on chain 101).
    pub apply_blacklist: bool,
}

impl SourceFilter {
    /// Whether source `id` may be used (case-sensitive).
    #[must_use]
    pub fn allows(&self, id: &str) -> bool {
        let white = self
            .whitelist
            .as_ref()
            .map_or(true, |w| w.iter().any(|x| x == id));
        let black = self.apply_blacklist
            && self
                .blacklist
                .as_ref()
                .is_some_and(|b| b.iter().any(|x| x == id));
        white && !black
    }
}

/// A validated quote request: everything the router needs, typed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Request {
    /// The chain id as given.
    pub chain_id: u64,
    /// The deployment it follows from.
    pub deployment: Deployment,
    /// Inputs, in the body's order; no token twice.
    pub inputs: Vec<InputAmount>,
    /// Outputs, in the body's order; no token twice, none an input; proportions sum to 1.
    pub outputs: Vec<OutputShare>,
    /// Slippage limit.
    pub slippage: Slippage,
    /// The wallet, when given (needed to assemble).
    pub user_addr: Option<Address>,
    /// Referral code, passed through.
    pub referral_code: Option<u64>,
    /// `compact` (default false).
    pub compact: bool,
    /// The sources to route through.
    pub sources: SourceFilter,
    /// `disableRFQs` as given (default false). See [`Request::rfqs_enabled`].
    pub disable_rfqs: bool,
}

impl Request {
    /// `floor(amount * (1 - slippage))`: the minimum output for a quoted `amount`, rounded
    /// down (see [`Slippage::min_amount_out`]). The plan's `min_amount` comes from here.
    #[must_use]
    pub fn min_amount_out(&self, amount: U256) -> U256 {
        self.slippage.min_amount_out(amount)
    }

    /// Whether RFQ sources may be used: never on chain 101 (off by default there), otherwise
    /// unless `disableRFQs`.
    #[must_use]
    pub fn rfqs_enabled(&self) -> bool {
        self.deployment == Deployment::Evm && !self.disable_rfqs
    }

    /// The body this request reads back from: addresses in canonical form (EIP-55 / base58),
    /// numbers as JSON numbers when exact through `f64`, else strings; defaults omitted.
    /// `validate(to_body(r)) == r` for every valid `r`.
    #[must_use]
    pub fn to_body(&self) -> QuoteRequest {
        QuoteRequest {
            chain_id: self.chain_id,
            input_tokens: self
                .inputs
                .iter()
                .map(|i| InputToken {
                    token_address: i.token.to_string(),
                    amount: i.amount.to_string(),
                })
                .collect(),
            output_tokens: self
                .outputs
                .iter()
                .map(|o| OutputToken {
                    token_address: o.token.to_string(),
                    proportion: JsonDecimal::from_e18(u128::from(o.proportion.parts())),
                })
                .collect(),
            slippage_limit_percent: JsonDecimal::from_e18(self.slippage.percent_e18()),
            user_addr: self.user_addr.map(|a| a.to_string()),
            referral_code: self.referral_code,
            compact: self.compact.then_some(true),
            source_whitelist: self.sources.whitelist.clone(),
            source_blacklist: self.sources.blacklist.clone(),
            disable_rfqs: self.disable_rfqs.then_some(true),
        }
    }
}

pub(crate) fn check_sources(
    list: &[String],
    known: &[&str],
    field: fn(usize) -> Field,
) -> Result<(), RequestError> {
    for (i, id) in list.iter().enumerate() {
        if !known.iter().any(|k| k == id) {
            return Err(RequestError::UnknownSource {
                field: field(i),
                id: id.clone(),
                suggestion: crate::chain::near_source(id, known).map(ToOwned::to_owned),
            });
        }
    }
    Ok(())
}

fn parse_amount(s: &str) -> Result<U256, AmountProblem> {
    if s.is_empty() {
        return Err(AmountProblem::Empty);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountProblem::NotAnInteger);
    }
    if s.bytes().all(|b| b == b'0') {
        return Err(AmountProblem::Zero);
    }
    if s.starts_with('0') {
        return Err(AmountProblem::LeadingZero);
    }
    crate::units::parse_u256_dec(s).ok_or(AmountProblem::TooLarge)
}

impl QuoteRequest {
    /// Validate into a typed [`Request`] for the deployment that `chainId` names (see
    /// [`Deployment::for_chain`]). `known_sources` are the liquidity source ids of that
    /// deployment (the library keeps no list of its own).
    ///
    /// Checks run in body order (chain, inputs, outputs, slippage, user, sources) and the first
    /// failure is returned.
    ///
    /// # Errors
    /// [`Error::Request`] with the [`RequestError`] naming the field; see the module docs for
    /// every rule.
    pub fn validate(&self, known_sources: &[&str]) -> Result<Request, Error> {
        let deployment = Deployment::for_chain(self.chain_id)?;
        self.validate_inner(deployment, known_sources)
            .map_err(Error::Request)
    }

    /// [`QuoteRequest::validate`] on an endpoint of one deployment: a body whose `chainId`
    /// belongs to the other deployment is refused.
    ///
    /// # Errors
    /// [`RequestError::WrongDeployment`], and those of [`QuoteRequest::validate`].
    pub fn validate_for(
        &self,
        deployment: Deployment,
        known_sources: &[&str],
    ) -> Result<Request, Error> {
        let d = Deployment::for_chain(self.chain_id)?;
        if d != deployment {
            return Err(RequestError::WrongDeployment {
                chain_id: self.chain_id,
                deployment,
            }
            .into());
        }
        self.validate_inner(d, known_sources)
            .map_err(Error::Request)
    }

    fn validate_inner(
        &self,
        deployment: Deployment,
        known_sources: &[&str],
    ) -> Result<Request, RequestError> {
        // Inputs.
        let n_in = self.input_tokens.len();
        if n_in == 0 {
            return Err(RequestError::NoInputTokens);
        }
        if n_in > MAX_INPUT_TOKENS {
            return Err(RequestError::TooManyInputTokens {
                given: n_in,
                max: MAX_INPUT_TOKENS,
            });
        }
        let mut inputs: Vec<InputAmount> = Vec::with_capacity(n_in);
        for (i, e) in self.input_tokens.iter().enumerate() {
            let token = Address::parse(&e.token_address, deployment, false)
                .map_err(|err| err.at(Field::InputTokenAddress(i)))?;
            if let Some(first) = inputs.iter().position(|x| x.token == token) {
                return Err(RequestError::DuplicateInputToken { first, second: i });
            }
            let amount = parse_amount(&e.amount)
                .map_err(|problem| RequestError::InvalidAmount { index: i, problem })?;
            inputs.push(InputAmount { token, amount });
        }

        // Outputs.
        let n_out = self.output_tokens.len();
        if n_out == 0 {
            return Err(RequestError::NoOutputTokens);
        }
        if n_out > MAX_OUTPUT_TOKENS {
            return Err(RequestError::TooManyOutputTokens {
                given: n_out,
                max: MAX_OUTPUT_TOKENS,
            });
        }
        let mut outputs: Vec<OutputShare> = Vec::with_capacity(n_out);
        let mut sum: u128 = 0;
        for (i, e) in self.output_tokens.iter().enumerate() {
            let token = Address::parse(&e.token_address, deployment, false)
                .map_err(|err| err.at(Field::OutputTokenAddress(i)))?;
            if let Some(first) = outputs.iter().position(|x| x.token == token) {
                return Err(RequestError::DuplicateOutputToken { first, second: i });
            }
            if let Some(input) = inputs.iter().position(|x| x.token == token) {
                return Err(RequestError::InputIsOutput { input, output: i });
            }
            let proportion = e
                .proportion
                .to_e18()
                .and_then(Proportion::from_e18)
                .map_err(|problem| RequestError::InvalidProportion { index: i, problem })?;
            // Each part <= 10^18 and at most MAX_OUTPUT_TOKENS of them: no overflow; checked
            // all the same.
            sum = sum
                .checked_add(u128::from(proportion.parts()))
                .ok_or(RequestError::ProportionsDoNotSumToOne { sum_e18: u128::MAX })?;
            outputs.push(OutputShare { token, proportion });
        }
        if sum != ONE_E18 {
            return Err(RequestError::ProportionsDoNotSumToOne { sum_e18: sum });
        }

        // Slippage.
        let slippage = self
            .slippage_limit_percent
            .to_e18()
            .and_then(Slippage::from_percent_e18)
            .map_err(|problem| RequestError::InvalidSlippage { problem })?;

        // User.
        let user_addr = match &self.user_addr {
            None => None,
            Some(s) => {
                Some(Address::parse(s, deployment, true).map_err(|err| err.at(Field::UserAddr))?)
            }
        };

        // Sources.
        if let Some(w) = &self.source_whitelist {
            if w.is_empty() {
                return Err(RequestError::EmptyWhitelist);
            }
            check_sources(w, known_sources, Field::SourceWhitelist)?;
        }
        let sources = SourceFilter {
            whitelist: self.source_whitelist.clone(),
            blacklist: self.source_blacklist.clone(),
            apply_blacklist: deployment.applies_blacklist(),
        };
        // With a whitelist, `known_sources` is non-empty here (every id was found in it).
        if !known_sources.is_empty() && !known_sources.iter().any(|k| sources.allows(k)) {
            return Err(RequestError::AllSourcesExcluded);
        }

        Ok(Request {
            chain_id: self.chain_id,
            deployment,
            inputs,
            outputs,
            slippage,
            user_addr,
            referral_code: self.referral_code,
            compact: self.compact.unwrap_or(false),
            sources,
            disable_rfqs: self.disable_rfqs.unwrap_or(false),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Quote lifetime and assembly
// ---------------------------------------------------------------------------------------------

/// Whether a quote received at `quoted_at_ms` is stale at `now_ms` (both milliseconds on the
/// transport's clock; the library has none). Stale once [`QUOTE_TTL_MS`] or more have passed:
/// a quote is valid for ages `0 ..= 59_999` ms. A `now_ms` before `quoted_at_ms` (clock skew
/// between instances) counts as age 0, fresh. Overflow-safe for every input.
#[must_use]
pub fn is_stale(quoted_at_ms: u64, now_ms: u64) -> bool {
    now_ms.saturating_sub(quoted_at_ms) >= QUOTE_TTL_MS
}

/// The age of a quote in milliseconds (0 when `now_ms` is before `quoted_at_ms`).
#[must_use]
pub fn quote_age_ms(quoted_at_ms: u64, now_ms: u64) -> u64 {
    now_ms.saturating_sub(quoted_at_ms)
}

/// Longest accepted `pathId`, in bytes. The transport makes path ids; this only bounds what a
/// client can send back.
pub const MAX_PATH_ID_LEN: usize = 256;

/// An assemble body that passed [`check_assemble`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assemble {
    /// The wallet, the quote's own.
    pub user_addr: Address,
    /// The path id as sent.
    pub path_id: String,
    /// Whether a simulation was asked for.
    pub simulate: bool,
}

/// Check an assemble body against the quote its `pathId` found: `pathId` well-formed, the quote
/// not stale at `now_ms` (see [`is_stale`]), `userAddr` valid for `deployment` (EIP-55 on EVM
/// chains) and the same address the quote was made for.
///
/// Check order: `pathId`, staleness, `userAddr` format, quote had a user, same user.
///
/// # Errors
/// [`RequestError::InvalidPathId`], [`RequestError::StaleQuote`], an address error at
/// `userAddr`, [`RequestError::QuoteWithoutUserAddr`], [`RequestError::UserAddrMismatch`].
pub fn check_assemble(
    req: &AssembleRequest,
    deployment: Deployment,
    quote_user_addr: Option<&Address>,
    quoted_at_ms: u64,
    now_ms: u64,
) -> Result<Assemble, Error> {
    let p = &req.path_id;
    if p.is_empty() || p.len() > MAX_PATH_ID_LEN || !p.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(RequestError::InvalidPathId.into());
    }
    if is_stale(quoted_at_ms, now_ms) {
        return Err(RequestError::StaleQuote {
            age_ms: quote_age_ms(quoted_at_ms, now_ms),
        }
        .into());
    }
    let user = Address::parse(&req.user_addr, deployment, true)
        .map_err(|e| Error::Request(e.at(Field::UserAddr)))?;
    let Some(quoted) = quote_user_addr else {
        return Err(RequestError::QuoteWithoutUserAddr.into());
    };
    if *quoted != user {
        return Err(RequestError::UserAddrMismatch.into());
    }
    Ok(Assemble {
        user_addr: user,
        path_id: req.path_id.clone(),
        simulate: req.simulate.unwrap_or(false),
    })
}
