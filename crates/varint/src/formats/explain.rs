//! Why an input fails to decode, read back from its bytes: a
//! [`DecodeError`] says *what* is wrong, a [`Fault`] also says *which byte*
//! and *what it may be*, so a message can point at the fault.

use core::fmt;

use super::{
    Bijective, Bincode, CborHead, CompactSize, DecodeError, Format, Hpack, Leb128, MsgPack, Prefix,
    Quic, Sleb128, Sqlite, Vlq, Zigzag,
};

/// The longest encoding a [`Fault::NonCanonical`] holds: every format of
/// this crate fits (the longest, `Leb128<u128>`, is 19 bytes).
const SHORTEST_MAX: usize = 32;

/// The values the last byte of a LEB128 encoding of the longest length may
/// have ([`Fault::LastByte`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LastByte {
    /// Unsigned LEB128: `0x00` to `max`; higher values set bits above the
    /// type's width.
    Unsigned {
        /// The largest value allowed.
        max: u8,
    },
    /// Signed LEB128: `0x00` to `max` or `0x7f − max` to `0x7f`; the bits
    /// above the type's width must repeat its sign bit.
    Signed {
        /// The largest non-negative value allowed.
        max: u8,
    },
}

impl LastByte {
    /// Why the other values are wrong, in words.
    #[must_use]
    pub fn why(self) -> &'static str {
        match self {
            LastByte::Unsigned { .. } => "anything else sets bits above the type's width",
            LastByte::Signed { .. } => "the bits above the type's width must repeat its sign bit",
        }
    }
}

/// The allowed values in words: `0x00 to 0x0f`, `0x00 or 0x01`,
/// `0x00 to 0x03 or 0x7c to 0x7f`.
impl fmt::Display for LastByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LastByte::Unsigned { max: 1 } => f.write_str("0x00 or 0x01"),
            LastByte::Unsigned { max } => write!(f, "0x00 to 0x{max:02x}"),
            LastByte::Signed { max: 0 } => f.write_str("0x00 or 0x7f"),
            LastByte::Signed { max } => {
                write!(f, "0x00 to 0x{max:02x} or 0x{:02x} to 0x7f", 0x7f - max)
            }
        }
    }
}

/// The shortest encoding of a value, as [`Fault::NonCanonical`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortest {
    bytes: [u8; SHORTEST_MAX],
    len: u8,
}

impl Shortest {
    fn of<F: Format + ?Sized>(value: F::Value) -> Shortest {
        let mut bytes = [0u8; SHORTEST_MAX];
        // A value that decoded encodes; should a foreign format fail, the
        // empty encoding says so rather than a wrong one.
        let len = F::try_encode(value, &mut bytes).unwrap_or(0);
        Shortest {
            bytes,
            len: len as u8,
        }
    }

    /// The bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// Why bytes failed to decode, with the byte at fault: what
/// [`Explain::explain`] reads from the bytes and a [`DecodeError`].
///
/// Its `Display` is one sentence that starts with the error's kind
/// (`truncated: …`, `overflow: …`); the CLI prints it as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault<V> {
    /// There were no bytes.
    Empty,
    /// LEB128 and its relatives: every one of the `len` bytes sets the
    /// continuation bit (`0x80`), and there are fewer than `MAX_LEN`.
    Continued {
        /// The bytes available.
        len: usize,
    },
    /// The input ends inside a value of a format other than LEB128.
    Truncated {
        /// The format, as [`Explain::NOUN`] names it.
        noun: &'static str,
        /// The bytes available.
        len: usize,
    },
    /// LEB128: the first `max_len` bytes all set the continuation bit.
    TooLong {
        /// The format.
        noun: &'static str,
        /// Its longest encoding.
        max_len: usize,
    },
    /// LEB128: byte `max_len` (the last allowed) carries bits the type
    /// has no room for.
    LastByte {
        /// The format.
        noun: &'static str,
        /// Its longest encoding, the 1-based position of the byte.
        max_len: usize,
        /// The byte.
        byte: u8,
        /// What it may be.
        allowed: LastByte,
    },
    /// A format other than LEB128 overflows; `why` says how, in words.
    Overflow {
        /// Why, in words.
        why: &'static str,
    },
    /// The first byte (or two) are reserved by the format.
    Reserved {
        /// The format.
        noun: &'static str,
        /// The first byte.
        first: u8,
        /// The second byte, where it is part of what is reserved (CBOR's
        /// two-byte simple values below 32), and why.
        second: Option<(u8, &'static str)>,
    },
    /// The first byte starts something other than an integer.
    NotAnInteger {
        /// The first byte.
        first: u8,
        /// What it starts instead, in words (after "the first byte 0x..").
        why: &'static str,
    },
    /// Strict decoding: the `len` bytes encode `value`, which has a
    /// shorter encoding.
    NonCanonical {
        /// The bytes used.
        len: usize,
        /// The value (as the lenient decoder reads it).
        value: V,
        /// Its shortest encoding.
        shortest: Shortest,
    },
    /// An error no byte explains better (a format of someone else's).
    Other(DecodeError),
}

impl<V> Fault<V> {
    /// The same fault with its value (only [`Fault::NonCanonical`] has
    /// one) mapped by `f`: to show it as a program shows its values.
    pub fn map_value<W>(self, f: impl FnOnce(V) -> W) -> Fault<W> {
        match self {
            Fault::Empty => Fault::Empty,
            Fault::Continued { len } => Fault::Continued { len },
            Fault::Truncated { noun, len } => Fault::Truncated { noun, len },
            Fault::TooLong { noun, max_len } => Fault::TooLong { noun, max_len },
            Fault::LastByte {
                noun,
                max_len,
                byte,
                allowed,
            } => Fault::LastByte {
                noun,
                max_len,
                byte,
                allowed,
            },
            Fault::Overflow { why } => Fault::Overflow { why },
            Fault::Reserved {
                noun,
                first,
                second,
            } => Fault::Reserved {
                noun,
                first,
                second,
            },
            Fault::NotAnInteger { first, why } => Fault::NotAnInteger { first, why },
            Fault::NonCanonical {
                len,
                value,
                shortest,
            } => Fault::NonCanonical {
                len,
                value: f(value),
                shortest,
            },
            Fault::Other(e) => Fault::Other(e),
        }
    }
}

/// `a u64 varint`, `an i64 SLEB128`, `an HPACK integer`: as a reader says
/// them.
#[must_use]
pub fn article(noun: &str) -> &'static str {
    if noun.starts_with('i') || noun.starts_with("HPACK") || noun.starts_with("SQL") {
        "an"
    } else {
        "a"
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl<V: fmt::Display> fmt::Display for Fault<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fault::Empty => f.write_str("empty: no bytes to decode"),
            Fault::Continued { len: 1 } => f.write_str(
                "truncated: the only byte sets the continuation bit (0x80), \
                 so at least one more byte must follow",
            ),
            Fault::Continued { len } => write!(
                f,
                "truncated: all {len} bytes set the continuation bit (0x80), \
                 so at least one more byte must follow"
            ),
            Fault::Truncated { noun, len } => write!(
                f,
                "truncated: the input ends after {len} byte{}, inside {} {noun}",
                plural(len),
                article(noun)
            ),
            Fault::TooLong { noun, max_len } => write!(
                f,
                "overflow: the first {max_len} bytes all set the continuation bit (0x80), \
                 but {} {noun} is at most {max_len} bytes long",
                article(noun)
            ),
            Fault::LastByte {
                noun,
                max_len,
                byte,
                allowed,
            } => write!(
                f,
                "overflow: byte {max_len} is 0x{byte:02x}, but the last byte of {} {noun} \
                 may only be {allowed} ({})",
                article(noun),
                allowed.why()
            ),
            Fault::Overflow { why } => write!(f, "overflow: {why}"),
            Fault::Reserved {
                noun,
                first,
                second,
            } => {
                write!(
                    f,
                    "reserved: {} {noun} may not start with 0x{first:02x}",
                    article(noun)
                )?;
                match second {
                    Some((b, why)) => write!(f, " 0x{b:02x} ({why})"),
                    None => Ok(()),
                }
            }
            Fault::NotAnInteger { first, why } => {
                write!(f, "not an integer: the first byte 0x{first:02x} {why}")
            }
            Fault::NonCanonical {
                len,
                ref value,
                ref shortest,
            } => {
                write!(
                    f,
                    "non-canonical: {len} bytes encode {value}, whose shortest encoding is"
                )?;
                for b in shortest.as_bytes() {
                    write!(f, " {b:02x}")?;
                }
                let n = shortest.as_bytes().len();
                write!(f, " ({n} byte{})", plural(n))
            }
            Fault::Other(e) => e.fmt(f),
        }
    }
}

impl<V: fmt::Debug + fmt::Display> core::error::Error for Fault<V> {}

/// A [`Format`] that can say why an input failed: implemented for every
/// format of this crate.
///
/// ```
/// use varint::formats::{DecodeError, Explain, Fault, Format, Leb128, Quic};
///
/// let bytes = [0xff, 0xff, 0xff, 0xff, 0x10];
/// let e = Leb128::<u32>::decode(&bytes).unwrap_err();
/// let fault = Leb128::<u32>::explain(&bytes, e);
/// assert!(matches!(fault, Fault::LastByte { max_len: 5, byte: 0x10, .. }));
/// assert_eq!(
///     fault.to_string(),
///     "overflow: byte 5 is 0x10, but the last byte of a u32 varint may only be \
///      0x00 to 0x0f (anything else sets bits above the type's width)"
/// );
///
/// // Strict decoding: the value and its shortest form.
/// assert_eq!(
///     Quic::diagnose(&[0x40, 0x25], true).unwrap_err().to_string(),
///     "non-canonical: 2 bytes encode 37, whose shortest encoding is 25 (1 byte)"
/// );
/// assert_eq!(Quic::diagnose(&[0x25], true), Ok((37, 1)));
/// ```
pub trait Explain: Format {
    /// What messages call a value of the format: `u64 varint`,
    /// `i32 SLEB128`, `QUIC varint`.
    const NOUN: &'static str;

    /// Why `bytes` (from the failing value's first byte) failed with
    /// `error`, for every kind but [`DecodeError::NonCanonical`], which
    /// [`explain`](Explain::explain) handles.
    fn fault(bytes: &[u8], error: DecodeError) -> Fault<Self::Value>;

    /// Why `bytes` (from the failing value's first byte) failed to decode
    /// with `error`. For [`DecodeError::NonCanonical`], the lenient
    /// decoder's value and its shortest encoding.
    fn explain(bytes: &[u8], error: DecodeError) -> Fault<Self::Value> {
        if error != DecodeError::NonCanonical {
            return Self::fault(bytes, error);
        }
        match Self::decode(bytes) {
            Ok((value, len)) => Fault::NonCanonical {
                len,
                value,
                shortest: Shortest::of::<Self>(value),
            },
            Err(e) => Self::fault(bytes, e),
        }
    }

    /// Decodes the value at the start of `bytes` (strictly with `strict`),
    /// or says why it cannot be.
    ///
    /// # Errors
    ///
    /// The [`Fault`], as [`explain`](Explain::explain) gives it.
    fn diagnose(bytes: &[u8], strict: bool) -> Result<(Self::Value, usize), Fault<Self::Value>> {
        let decoded = if strict {
            Self::decode_strict(bytes)
        } else {
            Self::decode(bytes)
        };
        decoded.map_err(|e| Self::explain(bytes, e))
    }
}

/// The LEB128 family's reading: how many bytes set the continuation bit
/// tells a cut-off value from one that is too long, and the byte at
/// `max_len` from the bits it carries.
fn leb_fault<V>(
    bytes: &[u8],
    error: DecodeError,
    noun: &'static str,
    max_len: usize,
    allowed: LastByte,
) -> Fault<V> {
    let continued = bytes.iter().take_while(|&&b| b & 0x80 != 0).count();
    match error {
        _ if bytes.is_empty() => Fault::Empty,
        DecodeError::Truncated => Fault::Continued { len: bytes.len() },
        _ if continued >= max_len => Fault::TooLong { noun, max_len },
        _ if continued + 1 == max_len => Fault::LastByte {
            noun,
            max_len,
            byte: bytes.get(max_len - 1).copied().unwrap_or(0),
            allowed,
        },
        // Not reachable with the crate's decoders; say what the decoder
        // said rather than guess.
        e => Fault::Other(e),
    }
}

/// Every other format's reading; `overflow`, `reserved` and
/// `not_an_integer` give the format's words.
fn plain_fault<V>(
    bytes: &[u8],
    error: DecodeError,
    noun: &'static str,
    overflow: &'static str,
    second: Option<(u8, &'static str)>,
    not_an_integer: &'static str,
) -> Fault<V> {
    let Some(&first) = bytes.first() else {
        return Fault::Empty;
    };
    match error {
        DecodeError::Truncated => Fault::Truncated {
            noun,
            len: bytes.len(),
        },
        DecodeError::Overflow => Fault::Overflow { why: overflow },
        DecodeError::Reserved => Fault::Reserved {
            noun,
            first,
            second,
        },
        DecodeError::NotAnInteger => Fault::NotAnInteger {
            first,
            why: not_an_integer,
        },
        e => Fault::Other(e),
    }
}

const NOT_AN_INTEGER: &str = "does not start an integer";

macro_rules! leb_explain {
    ($($u:ty, $i:ty, $unoun:literal, $inoun:literal, $znoun:literal;)*) => {$(
        impl Explain for Leb128<$u> {
            const NOUN: &'static str = $unoun;
            fn fault(bytes: &[u8], error: DecodeError) -> Fault<$u> {
                let max = <$u as crate::Varint>::LAST_BYTE_MAX;
                leb_fault(bytes, error, Self::NOUN, Self::MAX_LEN, LastByte::Unsigned { max })
            }
        }
        impl Explain for Zigzag<$i> {
            const NOUN: &'static str = $znoun;
            fn fault(bytes: &[u8], error: DecodeError) -> Fault<$i> {
                let max = <$u as crate::Varint>::LAST_BYTE_MAX;
                leb_fault(bytes, error, Self::NOUN, Self::MAX_LEN, LastByte::Unsigned { max })
            }
        }
        impl Explain for Sleb128<$i> {
            const NOUN: &'static str = $inoun;
            fn fault(bytes: &[u8], error: DecodeError) -> Fault<$i> {
                // The last byte holds the value's top bits, the highest of
                // them its sign; its other bits must repeat the sign.
                let bits = <$i>::BITS as usize - 7 * (Self::MAX_LEN - 1);
                let max = (1u8 << (bits - 1)) - 1;
                leb_fault(bytes, error, Self::NOUN, Self::MAX_LEN, LastByte::Signed { max })
            }
        }
    )*};
}

leb_explain! {
    u16, i16, "u16 varint", "i16 SLEB128", "i16 zigzag varint";
    u32, i32, "u32 varint", "i32 SLEB128", "i32 zigzag varint";
    u64, i64, "u64 varint", "i64 SLEB128", "i64 zigzag varint";
    u128, i128, "u128 varint", "i128 SLEB128", "i128 zigzag varint";
    usize, isize, "usize varint", "isize SLEB128", "isize zigzag varint";
}

macro_rules! plain_explain {
    ($($f:ty, $overflow:literal;)*) => {$(
        impl Explain for $f {
            const NOUN: &'static str = <$f as Format>::NAME;
            fn fault(bytes: &[u8], error: DecodeError) -> Fault<Self::Value> {
                plain_fault(bytes, error, Self::NOUN, $overflow, None, NOT_AN_INTEGER)
            }
        }
    )*};
}

plain_explain! {
    Quic, "a QUIC varint cannot overflow";
    Sqlite, "an SQLite varint cannot overflow";
    Bijective, "the continuation bytes go on past 18446744073709551615 (u64), the largest value";
    CompactSize, "a CompactSize cannot overflow";
    Bincode, "the first byte 0xfe announces a u128, which bincode never reads as a u64";
    Vlq, "all 4 bytes set the continuation bit (0x80), but a MIDI variable-length quantity is at most 4 bytes long";
    Prefix, "a prefix varint cannot overflow";
}

impl<const N: u8> Explain for Hpack<N> {
    const NOUN: &'static str = "HPACK integer";
    fn fault(bytes: &[u8], error: DecodeError) -> Fault<u64> {
        // Ten continuation bytes after the prefix is too long; anything
        // shorter overflowed by its value.
        let too_long =
            bytes.len() >= Self::MAX_LEN && bytes[1..Self::MAX_LEN].iter().all(|&b| b >= 0x80);
        let overflow = if too_long {
            "the prefix is followed by 10 bytes with the continuation bit (0x80), \
             but an HPACK integer of 64 bits is at most 11 bytes long"
        } else {
            "the value is above 18446744073709551615 (u64)"
        };
        plain_fault(bytes, error, Self::NOUN, overflow, None, NOT_AN_INTEGER)
    }
}

impl Explain for MsgPack {
    const NOUN: &'static str = "MessagePack integer";
    fn fault(bytes: &[u8], error: DecodeError) -> Fault<i128> {
        plain_fault(
            bytes,
            error,
            Self::NOUN,
            "a MessagePack integer cannot overflow",
            None,
            "starts a MessagePack value of another type \
             (nil, boolean, float, string, binary, array, map or extension)",
        )
    }
}

impl Explain for CborHead {
    const NOUN: &'static str = "CBOR head";
    fn fault(bytes: &[u8], error: DecodeError) -> Fault<super::cbor::Head> {
        // `F8 00`–`F8 1F`: RFC 8949 §3.3 makes a simple value below 32 in
        // two bytes not well-formed.
        let second = match bytes {
            [0xf8, b, ..] => Some((*b, "a simple value below 32 in two bytes")),
            _ => None,
        };
        plain_fault(
            bytes,
            error,
            Self::NOUN,
            "a CBOR head cannot overflow",
            second,
            "has additional information 31 (an indefinite length, or the break code), \
             which carries no integer",
        )
    }
}
