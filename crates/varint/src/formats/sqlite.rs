//! SQLite 3's varint.

use super::{DecodeError, Format};

/// SQLite 3's varint (the record and b-tree format): big-endian groups of
/// 7 bits with the continuation bit `0x80` on every byte but the last, and
/// at most 9 bytes, the 9th carrying 8 bits. Eight bytes hold 56 bits, so
/// values from 2^56 take 9.
///
/// - No input overflows: nine bytes hold exactly 64 bits. Every input is a
///   value or [`DecodeError::Truncated`].
/// - Lenient decoding accepts leading `0x80` bytes, as SQLite's
///   `sqlite3GetVarint` does; strict decoding accepts only the length
///   `sqlite3PutVarint` writes ([`DecodeError::NonCanonical`] otherwise):
///   `80 00` is 0 in two bytes. Nine bytes starting with `80` are canonical
///   for values from 2^56 to 2^57−1, whose top seven bits are zero.
/// - SQLite stores signed 64-bit integers as their two's complement: cast
///   the `u64` to `i64`.
///
/// ```
/// use varint::formats::{Format, Sqlite};
///
/// assert_eq!(Sqlite::decode(&[0x81, 0x00]), Ok((128, 2)));
/// assert_eq!(Sqlite::decode(&[0xff; 9]), Ok((u64::MAX, 9)));
/// assert_eq!(Sqlite::encoded_len(1 << 56), Some(9));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sqlite;

impl Format for Sqlite {
    type Value = u64;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "SQLite varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        let mut value = 0u64;
        for i in 0..8 {
            let Some(&b) = buf.get(i) else {
                return Err(DecodeError::Truncated);
            };
            value = value << 7 | u64::from(b & 0x7f);
            if b < 0x80 {
                return Ok((value, i + 1));
            }
        }
        match buf.get(8) {
            Some(&b) => Ok((value << 8 | u64::from(b), 9)),
            None => Err(DecodeError::Truncated),
        }
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0x80).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        let bits = 64 - value.leading_zeros() as usize;
        Some(if bits > 56 {
            9
        } else {
            bits.div_ceil(7).max(1)
        })
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        let len = out.len();
        let mut v = value;
        let mut last = len;
        if len == 9 {
            out[8] = v as u8;
            v >>= 8;
            last = 8;
        } else {
            out[last - 1] = (v & 0x7f) as u8;
            v >>= 7;
            last -= 1;
        }
        for b in out[..last].iter_mut().rev() {
            *b = 0x80 | (v & 0x7f) as u8;
            v >>= 7;
        }
    }
}
