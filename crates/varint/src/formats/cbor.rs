//! The CBOR head (RFC 8949 §3): a major type and its argument.

use super::{DecodeError, EncodeError, Format, array, put_array};

/// A CBOR head: the major type (0 to 7) of a data item and its argument
/// (the value of an integer, the length of a string or container, a tag
/// number, or a simple value or float's bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Head {
    /// The major type, 0 to 7 (the first byte's top three bits).
    pub major: u8,
    /// The argument.
    pub argument: u64,
}

impl Head {
    /// Major type 0: an unsigned integer.
    pub const UNSIGNED: u8 = 0;
    /// Major type 1: a negative integer, −1 − argument.
    pub const NEGATIVE: u8 = 1;
    /// Major type 7: simple values and floats.
    pub const SIMPLE: u8 = 7;

    /// The head of `major` with `argument`.
    #[must_use]
    pub const fn new(major: u8, argument: u64) -> Head {
        Head { major, argument }
    }

    /// The head of the integer `value` (major type 0 or 1), or `None`
    /// outside −2^64 to 2^64−1.
    ///
    /// ```
    /// use varint::formats::cbor::Head;
    ///
    /// assert_eq!(Head::from_int(-500), Some(Head::new(1, 499)));
    /// ```
    #[must_use]
    pub fn from_int(value: i128) -> Option<Head> {
        if value >= 0 {
            Some(Head::new(Head::UNSIGNED, u64::try_from(value).ok()?))
        } else {
            Some(Head::new(Head::NEGATIVE, u64::try_from(-1 - value).ok()?))
        }
    }

    /// The integer of a major type 0 or 1 head, else `None`.
    #[must_use]
    pub fn to_int(self) -> Option<i128> {
        match self.major {
            Head::UNSIGNED => Some(i128::from(self.argument)),
            Head::NEGATIVE => Some(-1 - i128::from(self.argument)),
            _ => None,
        }
    }
}

/// The CBOR head (RFC 8949 §3): the first byte holds the major type (top
/// three bits) and the additional information (low five bits): 0–23 is the
/// argument itself, 24, 25, 26 and 27 announce a 1-, 2-, 4- or 8-byte
/// big-endian argument.
///
/// - Additional information 28–30 is reserved: [`DecodeError::Reserved`];
///   so is the two-byte simple value below 32 (`F8 00`–`F8 1F`), which
///   RFC 8949 §3.3 makes not well-formed.
/// - Additional information 31 (an indefinite length, or the "break" stop
///   code) carries no argument: [`DecodeError::NotAnInteger`].
/// - Strict decoding requires the preferred serialization (RFC 8949 §4.1):
///   the shortest argument ([`DecodeError::NonCanonical`] otherwise, such
///   as `18 17` for 23). For major type 7 the width of a 2-, 4- or 8-byte
///   argument says which float it is (half, single, double), so strict
///   decoding accepts every width there; choosing the shortest float that
///   keeps the value is the caller's job, and [`encode`](Format::encode)
///   writes the shortest width for simple values only (a float's bits
///   with another width would be another float).
/// - Encoding a major type above 7, or a major type 7 argument from 24 to
///   31, is [`EncodeError::OutOfRange`].
///
/// ```
/// use varint::formats::{CborHead, DecodeError, Format, cbor::Head};
///
/// // RFC 8949, appendix A.
/// assert_eq!(CborHead::decode(&[0x19, 0x03, 0xe8]), Ok((Head::new(0, 1000), 3)));
/// assert_eq!(CborHead::decode(&[0x38, 0x63]), Ok((Head::from_int(-100).unwrap(), 2)));
/// assert_eq!(CborHead::decode(&[0x1c]), Err(DecodeError::Reserved));
/// assert_eq!(CborHead::decode(&[0x9f]), Err(DecodeError::NotAnInteger)); // indefinite array
/// assert_eq!(CborHead::decode_strict(&[0x18, 0x17]), Err(DecodeError::NonCanonical));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CborHead;

impl Format for CborHead {
    type Value = Head;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "CBOR head";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(Head, usize), DecodeError> {
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        let major = first >> 5;
        let (argument, len) = match first & 0x1f {
            ai @ 0..=23 => (u64::from(ai), 1),
            24 => {
                let [b] = array::<1>(buf, 1)?;
                if major == Head::SIMPLE && b < 32 {
                    return Err(DecodeError::Reserved);
                }
                (u64::from(b), 2)
            }
            25 => (u64::from(u16::from_be_bytes(array(buf, 1)?)), 3),
            26 => (u64::from(u32::from_be_bytes(array(buf, 1)?)), 5),
            27 => (u64::from_be_bytes(array(buf, 1)?), 9),
            28..=30 => return Err(DecodeError::Reserved),
            _ => return Err(DecodeError::NotAnInteger),
        };
        Ok((Head { major, argument }, len))
    }

    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(Head, usize), DecodeError> {
        let (head, len) = Self::decode(buf)?;
        // A float's width is its type: any is preferred as a head.
        let float = head.major == Head::SIMPLE && len >= 3;
        if float || Self::encoded_len(head) == Some(len) {
            Ok((head, len))
        } else {
            Err(DecodeError::NonCanonical)
        }
    }

    /// One branch chain on the argument, each arm a constant-size store,
    /// as a byte loop does: the general path (`single_byte`, then
    /// `encoded_len`'s chain, then `write`'s jump on the length) ran mixed
    /// lengths at 0.6× a byte loop. The range checks come after the
    /// one-byte test, where they are one predicted branch.
    #[inline]
    fn try_encode(head: Head, buf: &mut [u8]) -> Result<usize, EncodeError> {
        let Head { major, argument } = head;
        if argument < 24 {
            if major > 7 {
                return Err(EncodeError::OutOfRange);
            }
            return put_array(buf, [major << 5 | argument as u8]);
        }
        if major > 7 || (major == Head::SIMPLE && argument < 32) {
            return Err(EncodeError::OutOfRange);
        }
        let top = major << 5;
        if argument <= 0xff {
            put_array(buf, [top | 24, argument as u8])
        } else if argument <= 0xffff {
            let [a, b] = (argument as u16).to_be_bytes();
            put_array(buf, [top | 25, a, b])
        } else if argument <= 0xffff_ffff {
            let [a, b, c, d] = (argument as u32).to_be_bytes();
            put_array(buf, [top | 26, a, b, c, d])
        } else {
            let [a, b, c, d, e, f, g, h] = argument.to_be_bytes();
            put_array(buf, [top | 27, a, b, c, d, e, f, g, h])
        }
    }

    #[inline]
    fn single_byte(head: Head) -> Option<u8> {
        (head.major <= 7 && head.argument < 24).then_some(head.major << 5 | head.argument as u8)
    }

    #[inline]
    fn encoded_len(head: Head) -> Option<usize> {
        if head.major > 7 || (head.major == Head::SIMPLE && (24..32).contains(&head.argument)) {
            return None;
        }
        Some(match head.argument {
            0..=23 => 1,
            24..=0xff => 2,
            0x100..=0xffff => 3,
            0x1_0000..=0xffff_ffff => 5,
            _ => 9,
        })
    }

    #[inline]
    fn write(head: Head, out: &mut [u8]) {
        let len = out.len();
        let ai = match len {
            1 => head.argument as u8,
            2 => 24,
            3 => 25,
            5 => 26,
            _ => 27,
        };
        out[0] = head.major << 5 | ai;
        super::put_be(&mut out[1..], head.argument);
    }
}
