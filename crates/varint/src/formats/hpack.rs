//! The HPACK / QPACK prefixed integer (RFC 7541 §5.1).

use super::{BufferTooSmall, DecodeError, EncodeError, Format, put_array};

/// The HPACK and QPACK integer (RFC 7541 §5.1; RFC 9204 §4.1.1) with an
/// `N`-bit prefix, `N` from 1 to 8: a value below `2^N − 1` is the low `N`
/// bits of the first byte; otherwise those bits are all ones, and
/// `value − (2^N − 1)` follows as LEB128 (7 bits a byte, least significant
/// first, `0x80` on every byte but the last).
///
/// - The first byte's `8 − N` high bits belong to the caller (flags, the
///   representation type): decoding ignores them and encoding writes them
///   as zero; OR them into `buf[0]` after encoding.
/// - The value is a `u64`; a larger one is [`DecodeError::Overflow`], and
///   so is an encoding longer than [`MAX_LEN`](Format::MAX_LEN) (11 bytes:
///   the prefix byte and ten continuation bytes). RFC 7541 §5.1:
///   "excessively large integer encodings — in value or octet length —
///   MUST be treated as a decoding error".
/// - Lenient decoding accepts continuation bytes padded with `0x80 … 0x00`;
///   strict decoding rejects them ([`DecodeError::NonCanonical`]). A single
///   `0x00` after an all-ones prefix is canonical: it is `2^N − 1`.
/// - An `N` outside 1 to 8 fails to compile.
///
/// ```
/// use varint::formats::{Format, Hpack};
///
/// // RFC 7541, appendix C.1.
/// assert_eq!(Hpack::<5>::decode(&[0x0a]), Ok((10, 1)));
/// assert_eq!(Hpack::<5>::decode(&[0x1f, 0x9a, 0x0a]), Ok((1337, 3)));
/// assert_eq!(Hpack::<8>::decode(&[0x2a]), Ok((42, 1)));
/// // The flag bits above the prefix are not part of the value.
/// assert_eq!(Hpack::<5>::decode(&[0xea]), Ok((10, 1)));
/// ```
///
/// A prefix of 0 or 9 bits does not compile:
///
/// ```compile_fail
/// use varint::formats::{Format, Hpack};
///
/// let _ = Hpack::<9>::decode(&[0x00]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hpack<const N: u8>;

impl<const N: u8> Hpack<N> {
    /// The prefix's all-ones value, `2^N − 1`; rejects a bad `N` at
    /// compile time.
    const MASK: u8 = {
        assert!(N >= 1 && N <= 8, "the HPACK prefix is 1 to 8 bits");
        (0xffu16 >> (8 - N)) as u8
    };
}

impl<const N: u8> Format for Hpack<N> {
    type Value = u64;
    const MAX_LEN: usize = 11;
    const NAME: &'static str = "HPACK integer";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        let mask = Self::MASK;
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        let prefix = first & mask;
        if prefix < mask {
            return Ok((u64::from(prefix), 1));
        }
        let mut sum = 0u64;
        for i in 1..Self::MAX_LEN {
            let Some(&b) = buf.get(i) else {
                return Err(DecodeError::Truncated);
            };
            let shift = 7 * (i as u32 - 1);
            let group = u64::from(b & 0x7f);
            // The group's bits must fit below bit 64 (`shift` is at most 63).
            if shift > 0 && group >> (64 - shift) != 0 {
                return Err(DecodeError::Overflow);
            }
            sum |= group << shift;
            if b < 0x80 {
                return match sum.checked_add(u64::from(mask)) {
                    Some(v) => Ok((v, i + 1)),
                    None => Err(DecodeError::Overflow),
                };
            }
        }
        Err(DecodeError::Overflow)
    }

    /// One branch chain on the value, as a byte loop does: the one-, two-
    /// and three-byte forms as constant-size stores, then the general
    /// path. Through `single_byte`, `encoded_len` and `write` the two-byte
    /// encode ran at 0.69× a byte loop.
    #[inline]
    fn try_encode(value: u64, buf: &mut [u8]) -> Result<usize, EncodeError> {
        let mask = Self::MASK;
        let Some(rest) = value.checked_sub(u64::from(mask)) else {
            return put_array(buf, [value as u8]);
        };
        if rest < 0x80 {
            return put_array(buf, [mask, rest as u8]);
        }
        if rest < 0x4000 {
            return put_array(buf, [mask, 0x80 | rest as u8, (rest >> 7) as u8]);
        }
        let len = 1 + crate::encoded_len(rest);
        match buf.get_mut(..len) {
            Some(out) => {
                Self::write(value, out);
                Ok(len)
            }
            None => Err(BufferTooSmall::new(len, buf.len()).into()),
        }
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < u64::from(Self::MASK)).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        let mask = u64::from(Self::MASK);
        Some(match value.checked_sub(mask) {
            None => 1,
            Some(rest) => 1 + crate::encoded_len(rest),
        })
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        let mask = Self::MASK;
        if out.len() == 1 {
            out[0] = value as u8;
            return;
        }
        out[0] = mask;
        let rest = value - u64::from(mask);
        let groups = &mut out[1..];
        let n = groups.len();
        if n <= 8 {
            // LEB128 of `rest` in `n` bytes, every group at once (least
            // significant first, `0x80` on all but the last) instead of
            // the general encoder's loop and checks.
            let continuation = 0x0080_8080_8080_8080 >> (8 * (8 - n.max(1)));
            super::put_le_overlapping(groups, super::spread7(rest) | continuation);
            return;
        }
        // Nine or ten groups: eight continued ones, then the top 8 bits.
        if let Some((low, high)) = groups.split_first_chunk_mut::<8>() {
            *low = (super::spread7(rest) | 0x8080_8080_8080_8080).to_le_bytes();
            let top = rest >> 56;
            match high {
                [last] => *last = top as u8,
                [next, last, ..] => {
                    *next = 0x80 | top as u8;
                    *last = (top >> 7) as u8;
                }
                [] => {}
            }
        }
    }
}
