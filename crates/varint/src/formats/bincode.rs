//! bincode 2's variable-length integer encoding.

use super::{DecodeError, Format, array};

/// The `varint` integer encoding of bincode 2 (its default configuration)
/// for `u64`: a value below 251 is one byte; 251, 252 and 253 announce a
/// little-endian `u16`, `u32` and `u64` (254 announces a `u128`). Signed
/// integers are zigzag-mapped first: use [`zigzag`] with this format.
///
/// - `FE` (a `u128` follows) is [`DecodeError::Overflow`] whatever the
///   value, as bincode's `varint_decode_u64` rejects it
///   (`InvalidIntegerType`).
/// - `FF` is reserved: [`DecodeError::Reserved`], as bincode 2.0's
///   decoder rejects it (`IntegerType::Reserved`; 255 is `FB FF 00`).
///   Early bincode 2 pre-releases read it as the one-byte value 255.
/// - Lenient decoding accepts a longer form than needed (`FB 05 00` is 5),
///   as bincode does; strict decoding rejects it.
///
/// ```
/// use varint::formats::{Bincode, DecodeError, Format};
///
/// assert_eq!(Bincode::decode(&[250]), Ok((250, 1)));
/// assert_eq!(Bincode::decode(&[251, 0x2c, 0x01]), Ok((300, 3)));
/// assert_eq!(Bincode::decode_strict(&[251, 0x05, 0x00]), Err(DecodeError::NonCanonical));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bincode;

impl Format for Bincode {
    type Value = u64;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "bincode varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        // The one-byte form first, then the reserved tags, and one length
        // check for the three others (as `CompactSize::decode`, whose
        // comment says why).
        if let Some(&first @ 0..251) = buf.first() {
            return Ok((u64::from(first), 1));
        }
        if let Some(&[first, b1, b2, b3, b4, b5, b6, b7, b8]) = buf.first_chunk::<9>() {
            return match first {
                251 => Ok((u64::from(u16::from_le_bytes([b1, b2])), 3)),
                252 => Ok((u64::from(u32::from_le_bytes([b1, b2, b3, b4])), 5)),
                253 => Ok((u64::from_le_bytes([b1, b2, b3, b4, b5, b6, b7, b8]), 9)),
                254 => Err(DecodeError::Overflow),
                _ => Err(DecodeError::Reserved),
            };
        }
        match buf.first() {
            None => Err(DecodeError::Truncated),
            Some(251) => Ok((u64::from(u16::from_le_bytes(array(buf, 1)?)), 3)),
            Some(252) => Ok((u64::from(u32::from_le_bytes(array(buf, 1)?)), 5)),
            Some(253) => Ok((u64::from_le_bytes(array(buf, 1)?), 9)),
            Some(254) => Err(DecodeError::Overflow),
            Some(255) => Err(DecodeError::Reserved),
            Some(&b) => Ok((u64::from(b), 1)),
        }
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 251).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        Some(super::tagged_le_len(value, 251))
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        super::write_tagged_le(value, out, 251);
    }
}
