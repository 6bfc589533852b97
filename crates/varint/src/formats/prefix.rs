//! A prefix varint: the length in the first byte's leading ones.

use super::{DecodeError, Format};

/// A prefix varint in the style of `vu128`: the number of leading one bits
/// of the first byte is the number of bytes that follow, so a decoder
/// knows the length from the first byte without a loop, and no byte after
/// the first carries a flag.
///
/// The layout chosen here, for `u64`:
///
/// | first byte | bytes | value bits |
/// |---|---|---|
/// | `0xxxxxxx` | 1 | 7 |
/// | `10xxxxxx` | 2 | 14 |
/// | `110xxxxx` | 3 | 21 |
/// | … | … | … |
/// | `11111110` | 8 | 56 |
/// | `11111111` | 9 | 64 |
///
/// The value is **big-endian**: the first byte's free bits are its highest,
/// then the following bytes, most significant first. So comparing two
/// canonical encodings byte by byte (`memcmp`) orders them as their values,
/// which makes them usable as sort keys. (`vu128` itself stores the value
/// little-endian, with a different layout above four bytes; this format is
/// not wire-compatible with it.)
///
/// - Every input is a value or [`DecodeError::Truncated`]: no overflow, no
///   reserved prefix.
/// - Strict decoding accepts only the shortest form
///   ([`DecodeError::NonCanonical`] otherwise): `80 05` is 5 in two bytes.
///
/// ```
/// use varint::formats::{Format, Prefix};
///
/// assert_eq!(Prefix::decode(&[0x05]), Ok((5, 1)));
/// assert_eq!(Prefix::decode(&[0x81, 0x2c]), Ok((300, 2)));
/// assert_eq!(Prefix::decode(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Ok((u64::MAX, 9)));
/// let mut buf = [0u8; 9];
/// let n = Prefix::encode(300, &mut buf);
/// assert_eq!(&buf[..n], [0x81, 0x2c]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prefix;

impl Format for Prefix {
    type Value = u64;
    const MAX_LEN: usize = 9;
    const NAME: &'static str = "prefix varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        if first < 0x80 {
            return Ok((u64::from(first), 1));
        }
        // The two-byte form as its own predicted branch (as in
        // `Quic::decode`, whose comment says why): 0.94× the byte loop on
        // two-byte values before, 4× after.
        if first < 0xc0 {
            return match buf.get(1) {
                Some(&b) => Ok((u64::from(first & 0x3f) << 8 | u64::from(b), 2)),
                None => Err(DecodeError::Truncated),
            };
        }
        let extra = first.leading_ones() as usize;
        // With 9 bytes at hand, one load and a shift for every length.
        if let Some(&[_, b1, b2, b3, b4, b5, b6, b7, b8]) = buf.first_chunk::<9>() {
            let low = u64::from_be_bytes([b1, b2, b3, b4, b5, b6, b7, b8]) >> (64 - 8 * extra);
            let value = if extra >= 8 {
                low
            } else {
                u64::from(first & (0x7f >> extra)) << (8 * extra) | low
            };
            return Ok((value, 1 + extra));
        }
        let Some(rest) = buf.get(1..1 + extra) else {
            return Err(DecodeError::Truncated);
        };
        let low = super::get_be(rest);
        // The first byte's free bits: `0x7f >> extra` of them, none for 9
        // bytes (where the shift below would be by 64).
        let top = u64::from(first & (0x7f >> extra.min(7)));
        let value = if extra >= 8 {
            low
        } else {
            top << (8 * extra) | low
        };
        Ok((value, 1 + extra))
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0x80).then_some(value as u8)
    }

    #[inline]
    fn two_bytes(value: u64) -> Option<[u8; 2]> {
        (0x80..0x4000)
            .contains(&value)
            .then_some([0x80 | (value >> 8) as u8, value as u8])
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
        let extra = out.len() - 1;
        super::put_be_overlapping(&mut out[1..], value);
        // `extra` leading ones, then the value's top bits.
        let ones = !(0xffu16 >> extra) as u8;
        let top = if extra >= 8 {
            0
        } else {
            (value >> (8 * extra)) as u8
        };
        out[0] = ones | top;
    }
}
