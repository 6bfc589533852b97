//! A format's values as integers of a chosen type: what a tool that reads
//! "a QUIC varint as an `i32`" needs. Every value of every format here fits
//! an `i128`, so that is the common currency.

use core::fmt;

use super::cbor::Head;
use super::{
    Bijective, Bincode, CborHead, CompactSize, Format, Hpack, MsgPack, Prefix, Quic, Sqlite, Vlq,
};

/// A value that is not an integer: a CBOR head of major type 2 to 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NotAnInteger {
    head: Head,
}

impl NotAnInteger {
    /// The head.
    #[must_use]
    pub fn head(&self) -> Head {
        self.head
    }
}

/// `the head is major type 4 (array) with argument 3, not an integer …`
impl fmt::Display for NotAnInteger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 8] = [
            "unsigned integer",
            "negative integer",
            "byte string",
            "text string",
            "array",
            "map",
            "tag",
            "simple value or float",
        ];
        write!(
            f,
            "the head is major type {} ({}) with argument {}, not an integer (major type 0 or 1)",
            self.head.major,
            NAMES[usize::from(self.head.major & 7)],
            self.head.argument
        )
    }
}

impl core::error::Error for NotAnInteger {}

/// A [`Format`] whose values are integers (or, for [`CborHead`], may be):
/// every format of this crate but the LEB128 family, whose values are
/// already Rust integers.
///
/// ```
/// use varint::formats::{CborHead, Integer, MsgPack, Quic, cbor::Head};
///
/// assert_eq!(Quic::to_i128(37), Ok(37));
/// assert_eq!(Quic::from_i128(1 << 62), None); // above 2^62 − 1
/// assert_eq!(CborHead::from_i128(-500), Some(Head::new(1, 499)));
/// assert!(CborHead::to_i128(Head::new(4, 3)).is_err()); // an array
/// assert!(MsgPack::SIGNED && !Quic::SIGNED);
/// ```
pub trait Integer: Format {
    /// Whether the format carries a sign itself (MessagePack, CBOR); the
    /// others take signed values through zigzag ([`IntType::value_of`]).
    const SIGNED: bool;
    /// Its range, in words: `0 to 4611686018427387903, 2^62-1`.
    const RANGE: &'static str;
    /// The value as an integer.
    ///
    /// # Errors
    ///
    /// [`NotAnInteger`] for a CBOR head of major type 2 to 7.
    fn to_i128(value: Self::Value) -> Result<i128, NotAnInteger>;
    /// The value of `n`, if the format can encode it.
    fn from_i128(n: i128) -> Option<Self::Value>;
}

macro_rules! unsigned_integer {
    ($($f:ty, $v:ty, $range:literal;)*) => {$(
        impl Integer for $f {
            const SIGNED: bool = false;
            const RANGE: &'static str = $range;
            fn to_i128(value: $v) -> Result<i128, NotAnInteger> {
                Ok(i128::from(value))
            }
            fn from_i128(n: i128) -> Option<$v> {
                <$v>::try_from(n).ok().filter(|&v| Self::encoded_len(v).is_some())
            }
        }
    )*};
}

unsigned_integer! {
    Quic, u64, "0 to 4611686018427387903, 2^62-1";
    Sqlite, u64, "0 to 18446744073709551615";
    Bijective, u64, "0 to 18446744073709551615";
    CompactSize, u64, "0 to 18446744073709551615";
    Bincode, u64, "0 to 18446744073709551615";
    Vlq, u32, "0 to 268435455, 0x0fffffff";
    Prefix, u64, "0 to 18446744073709551615";
}

impl<const N: u8> Integer for Hpack<N> {
    const SIGNED: bool = false;
    const RANGE: &'static str = "0 to 18446744073709551615";
    fn to_i128(value: u64) -> Result<i128, NotAnInteger> {
        Ok(i128::from(value))
    }
    fn from_i128(n: i128) -> Option<u64> {
        u64::try_from(n).ok()
    }
}

impl Integer for MsgPack {
    const SIGNED: bool = true;
    const RANGE: &'static str = "-9223372036854775808 to 18446744073709551615";
    fn to_i128(value: i128) -> Result<i128, NotAnInteger> {
        Ok(value)
    }
    fn from_i128(n: i128) -> Option<i128> {
        Self::encoded_len(n).map(|_| n)
    }
}

impl Integer for CborHead {
    const SIGNED: bool = true;
    const RANGE: &'static str = "-18446744073709551616 to 18446744073709551615";
    fn to_i128(head: Head) -> Result<i128, NotAnInteger> {
        head.to_int().ok_or(NotAnInteger { head })
    }
    fn from_i128(n: i128) -> Option<Head> {
        Head::from_int(n)
    }
}

/// A Rust integer type by width and sign (`u8` to `u128`, `i8` to
/// `i128`), into which [`IntType::read`] reads a format's values and from
/// which [`IntType::value_of`] takes them. A signed type goes through
/// zigzag (protobuf's `sint`) in a format without a sign of its own.
///
/// ```
/// use varint::formats::{IntType, Quic, MsgPack, RangeError};
///
/// let i32 = IntType::new(32, true).unwrap();
/// assert_eq!(i32.to_string(), "i32");
/// // QUIC has no sign: -1 travels as its zigzag code 1.
/// assert_eq!(i32.value_of::<Quic>(-1), Some(1));
/// assert_eq!(i32.read::<Quic>(1), Ok(-1));
/// // MessagePack has one.
/// assert_eq!(i32.value_of::<MsgPack>(-1), Some(-1));
/// // Too wide for the type.
/// let u16 = IntType::new(16, false).unwrap();
/// assert_eq!(u16.read::<Quic>(70_000), Err(RangeError::OutOfRange(70_000)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntType {
    bits: u32,
    signed: bool,
}

/// Why [`IntType::read`] could not read a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RangeError {
    /// The value (as the format holds it: the zigzag code, for a signed
    /// type in a format without a sign) does not fit the type.
    OutOfRange(i128),
    /// The value is not an integer.
    NotAnInteger(NotAnInteger),
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::OutOfRange(v) => write!(f, "{v} does not fit the type"),
            RangeError::NotAnInteger(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for RangeError {}

/// The low `bits` bits.
fn width_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

impl IntType {
    /// The type of `bits` bits (8, 16, 32, 64 or 128), signed or not.
    #[must_use]
    pub const fn new(bits: u32, signed: bool) -> Option<IntType> {
        match bits {
            8 | 16 | 32 | 64 | 128 => Some(IntType { bits, signed }),
            _ => None,
        }
    }

    /// Its width in bits.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.bits
    }

    /// Whether it is signed.
    #[must_use]
    pub const fn is_signed(self) -> bool {
        self.signed
    }

    /// Reads `value` of format `F` as this type.
    ///
    /// # Errors
    ///
    /// [`RangeError::OutOfRange`] if it does not fit, or
    /// [`RangeError::NotAnInteger`].
    pub fn read<F: Integer>(self, value: F::Value) -> Result<i128, RangeError> {
        let wide = F::to_i128(value).map_err(RangeError::NotAnInteger)?;
        let fits = if !self.signed || !F::SIGNED {
            // The type's unsigned values (of the zigzag code, when signed).
            wide >= 0 && (wide as u128) <= width_mask(self.bits)
        } else {
            self.bits >= 128 || {
                let half = 1i128 << (self.bits - 1);
                (-half..half).contains(&wide)
            }
        };
        if !fits {
            return Err(RangeError::OutOfRange(wide));
        }
        if self.signed && !F::SIGNED {
            return Ok((wide >> 1) ^ -(wide & 1));
        }
        Ok(wide)
    }

    /// The value of format `F` that holds `n`, a value of this type (the
    /// caller has checked that it is one), or `None` if the format cannot
    /// hold it. Signed types take zigzag within their width in a format
    /// without a sign: −1 is 1, 1 is 2.
    #[must_use]
    pub fn value_of<F: Integer>(self, n: i128) -> Option<F::Value> {
        let wide = if self.signed && !F::SIGNED {
            let z = (n << 1) ^ (n >> 127);
            i128::try_from((z as u128) & width_mask(self.bits)).ok()?
        } else {
            n
        };
        F::from_i128(wide)
    }
}

/// `u32`, `i64`.
impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if self.signed { 'i' } else { 'u' }, self.bits)
    }
}
