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
    fn two_bytes(value: u64) -> Option<[u8; 2]> {
        (0x80..0x4000)
            .contains(&value)
            .then_some([0x80 | (value >> 7) as u8, value as u8 & 0x7f])
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
        // The groups spread into bytes at once (`put_be7`), not a loop over
        // them from the end: the loop's exit mispredicted on mixed lengths
        // (0.58× a byte loop on uniform lengths in `formats_min`).
        match out.split_at_mut_checked(8) {
            Some((groups, [last])) => {
                *last = value as u8;
                // Eight groups of 7 bits, every one continued.
                super::put_be_overlapping(
                    groups,
                    super::spread7(value >> 8) | 0x8080_8080_8080_8080,
                );
            }
            _ => super::put_be7(out, value),
        }
    }
}
