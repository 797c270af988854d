//! Units and ids, just above the numbers layer (it imports nothing of the crate).
//! Inside the engine tokens and pools are dense ids; addresses exist only at the edges
//! (snapshot, request, serialised plan).

use primitive_types::U256;

/// A dense token id inside one pool graph (index into its token table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TokenId(pub u32);

impl TokenId {
    /// The id as an index.
    #[must_use]
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A dense pool id inside one pool graph (index into its pool table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PoolId(pub u32);

impl PoolId {
    /// The id as an index.
    #[must_use]
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Parse a base-unit integer string: ASCII digits only, no sign, point, exponent or whitespace,
/// below 2^256. Returns `None` for anything else (including the empty string).
#[must_use]
pub(crate) fn parse_u256_dec(s: &str) -> Option<U256> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 78 {
        return None;
    }
    U256::from_dec_str(s).ok()
}

/// serde helpers writing `U256` as a decimal string (`#[serde(with = "swapzap::units::dec")]`).
#[cfg(feature = "serde")]
pub mod dec {
    use alloc::string::{String, ToString};
    use primitive_types::U256;
    use serde::{de::Error as _, Deserialize, Deserializer, Serializer};

    /// Serialise as a decimal string.
    ///
    /// # Errors
    /// Those of the serializer.
    pub fn serialize<S: Serializer>(v: &U256, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    /// Deserialise from a decimal string of digits only.
    ///
    /// # Errors
    /// When the string is not a base-unit integer below 2^256.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
        let s = String::deserialize(d)?;
        super::parse_u256_dec(&s)
            .ok_or_else(|| D::Error::custom("expected a decimal integer string below 2^256"))
    }

    /// The same for `Vec<U256>`.
    pub mod vec {
        use alloc::{string::String, vec::Vec};
        use primitive_types::U256;
        use serde::{de::Error as _, ser::SerializeSeq, Deserialize, Deserializer, Serializer};

        /// Serialise as a list of decimal strings.
        ///
        /// # Errors
        /// Those of the serializer.
        pub fn serialize<S: Serializer>(v: &[U256], s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(v.len()))?;
            for x in v {
                seq.serialize_element(&alloc::string::ToString::to_string(x))?;
            }
            seq.end()
        }

        /// Deserialise from a list of decimal strings.
        ///
        /// # Errors
        /// When an element is not a base-unit integer below 2^256.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<U256>, D::Error> {
            let v = Vec::<String>::deserialize(d)?;
            v.iter()
                .map(|s| {
                    super::super::parse_u256_dec(s).ok_or_else(|| {
                        D::Error::custom("expected a decimal integer string below 2^256")
                    })
                })
                .collect()
        }
    }

    #[allow(unused_imports)]
    use ToString as _;
}
