//! MessagePack's integer forms.

use super::{DecodeError, Format, array};

/// MessagePack integers: positive fixint (`00`–`7F`), negative fixint
/// (`E0`–`FF`, −32 to −1), `uint 8/16/32/64` (`CC`–`CF`) and
/// `int 8/16/32/64` (`D0`–`D3`), big-endian. The value is an `i128` holding
/// −2^63 to 2^64−1.
///
/// - `C1` ("never used") is [`DecodeError::Reserved`]; any other first
///   byte (nil, booleans, floats, strings, containers, extensions) is
///   [`DecodeError::NotAnInteger`].
/// - Strict decoding rejects a form longer than the smallest one for the
///   value ([`DecodeError::NonCanonical`]): the specification says
///   serializers "SHOULD use the format which represents the data in the
///   smallest number of bytes". Its rule is about size only, so strict
///   decoding accepts `int 16` for 300 (`D1 01 2C`), as long as `uint 16`
///   (`CD 01 2C`, which [`encode`](Format::encode) writes).
/// - Encoding a value outside −2^63 to 2^64−1 is
///   [`EncodeError::OutOfRange`](super::EncodeError::OutOfRange).
///
/// ```
/// use varint::formats::{DecodeError, Format, MsgPack};
///
/// assert_eq!(MsgPack::decode(&[0xff]), Ok((-1, 1)));
/// assert_eq!(MsgPack::decode(&[0xcd, 0x01, 0x2c]), Ok((300, 3)));
/// assert_eq!(MsgPack::decode_strict(&[0xcc, 0x05]), Err(DecodeError::NonCanonical));
/// assert_eq!(MsgPack::decode(&[0xc0]), Err(DecodeError::NotAnInteger)); // nil
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MsgPack;

impl Format for MsgPack {
    type Value = i128;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "MessagePack integer";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(i128, usize), DecodeError> {
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        Ok(match first {
            0x00..=0x7f => (i128::from(first), 1),
            0xe0..=0xff => (i128::from(first as i8), 1),
            0xcc => (i128::from(u8::from_be_bytes(array(buf, 1)?)), 2),
            0xcd => (i128::from(u16::from_be_bytes(array(buf, 1)?)), 3),
            0xce => (i128::from(u32::from_be_bytes(array(buf, 1)?)), 5),
            0xcf => (i128::from(u64::from_be_bytes(array(buf, 1)?)), 9),
            0xd0 => (i128::from(i8::from_be_bytes(array(buf, 1)?)), 2),
            0xd1 => (i128::from(i16::from_be_bytes(array(buf, 1)?)), 3),
            0xd2 => (i128::from(i32::from_be_bytes(array(buf, 1)?)), 5),
            0xd3 => (i128::from(i64::from_be_bytes(array(buf, 1)?)), 9),
            0xc1 => return Err(DecodeError::Reserved),
            _ => return Err(DecodeError::NotAnInteger),
        })
    }

    #[inline]
    fn single_byte(value: i128) -> Option<u8> {
        (-32..=0x7f).contains(&value).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: i128) -> Option<usize> {
        let len = match value {
            -32..=0x7f => 1,
            -0x80..=0xff => 2,
            -0x8000..=0xffff => 3,
            -0x8000_0000..=0xffff_ffff => 5,
            _ if value >= i128::from(i64::MIN) && value <= i128::from(u64::MAX) => 9,
            _ => return None,
        };
        Some(len)
    }

    #[inline]
    fn write(value: i128, out: &mut [u8]) {
        let len = out.len();
        // The low bytes of an `i128` in −2^63..2^64 are those of the `u64`
        // it wraps to.
        super::put_be_overlapping(&mut out[1..], value as u64);
        out[0] = match (len, value < 0) {
            (1, _) => value as u8,
            (2, false) => 0xcc,
            (3, false) => 0xcd,
            (5, false) => 0xce,
            (_, false) => 0xcf,
            (2, true) => 0xd0,
            (3, true) => 0xd1,
            (5, true) => 0xd2,
            (_, true) => 0xd3,
        };
    }
}
