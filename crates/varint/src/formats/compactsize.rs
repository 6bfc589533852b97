//! Bitcoin's CompactSize.

use super::{DecodeError, Format, array};

/// Bitcoin's CompactSize: a value below `0xFD` is one byte; `FD`, `FE` and
/// `FF` announce a little-endian `u16`, `u32` and `u64`.
///
/// - Strict decoding rejects what Bitcoin Core's `ReadCompactSize()`
///   rejects as "non-canonical ReadCompactSize()": `FD` with a value below
///   `0xFD`, `FE` below `0x1_0000`, `FF` below `0x1_0000_0000`
///   ([`DecodeError::NonCanonical`]). Lenient decoding accepts them.
/// - Bitcoin Core also rejects sizes above `MAX_SIZE` (`0x0200_0000`) when
///   it reads a size to allocate; that is a limit of the caller, not of the
///   format, and is not checked here.
/// - There is no overflow and no reserved prefix: every input is a value or
///   [`DecodeError::Truncated`].
///
/// ```
/// use varint::formats::{CompactSize, DecodeError, Format};
///
/// assert_eq!(CompactSize::decode(&[0xfc]), Ok((252, 1)));
/// assert_eq!(CompactSize::decode(&[0xfd, 0xfd, 0x00]), Ok((253, 3)));
/// assert_eq!(CompactSize::decode_strict(&[0xfd, 0xfc, 0x00]), Err(DecodeError::NonCanonical));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompactSize;

impl Format for CompactSize {
    type Value = u64;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "CompactSize";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        if let Some(&first @ 0..=0xfc) = buf.first() {
            return Ok((u64::from(first), 1));
        }
        // One length check for the three tags: with one per tag, the
        // compiler computed the bytes left before the one-byte test above,
        // two instructions more on the common path (0.84× a byte loop).
        if let Some(&[first, b1, b2, b3, b4, b5, b6, b7, b8]) = buf.first_chunk::<9>() {
            return Ok(match first {
                0xfd => (u64::from(u16::from_le_bytes([b1, b2])), 3),
                0xfe => (u64::from(u32::from_le_bytes([b1, b2, b3, b4])), 5),
                _ => (u64::from_le_bytes([b1, b2, b3, b4, b5, b6, b7, b8]), 9),
            });
        }
        match buf.first() {
            None => Err(DecodeError::Truncated),
            Some(&b @ 0..=0xfc) => Ok((u64::from(b), 1)),
            Some(0xfd) => Ok((u64::from(u16::from_le_bytes(array(buf, 1)?)), 3)),
            Some(0xfe) => Ok((u64::from(u32::from_le_bytes(array(buf, 1)?)), 5)),
            Some(0xff) => Ok((u64::from_le_bytes(array(buf, 1)?), 9)),
        }
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0xfd).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        Some(super::tagged_le_len(value, 0xfd))
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        super::write_tagged_le(value, out, 0xfd);
    }
}
