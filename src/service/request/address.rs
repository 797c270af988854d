//! Addresses of both deployments: EVM `0x` hex with the EIP-55 checksum, and chain 101's
//! base58.

use crate::chain::Deployment;
use crate::error::{AddressProblem, Field, RequestError};
use alloc::string::{String, ToString};
use core::fmt;

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
