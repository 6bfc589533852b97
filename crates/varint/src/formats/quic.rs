//! QUIC variable-length integers (RFC 9000 §16).

use super::{DecodeError, EncodeError, Format, array, put_array};
use crate::{BulkError, Decoded};

/// QUIC's variable-length integer (RFC 9000 §16): the two high bits of the
/// first byte give the length, 1, 2, 4 or 8 bytes, and the other 6, 14, 30
/// or 62 bits hold the value, big-endian. The range is 0 to 2^62−1.
///
/// - Every one- to eight-byte input is either [`DecodeError::Truncated`] or
///   a value: there is no overflow and no reserved prefix.
/// - Strict decoding accepts only the shortest form (RFC 9000 §16 allows
///   longer ones in general, but §12.4 requires the shortest for frame
///   types, and an endpoint may require it elsewhere): `40 25` is 37 in two
///   bytes, [`DecodeError::NonCanonical`].
/// - Encoding a value above 2^62−1 is
///   [`EncodeError::OutOfRange`](super::EncodeError::OutOfRange).
///
/// ```
/// use varint::formats::{Format, Quic};
///
/// // RFC 9000, appendix A.1.
/// assert_eq!(Quic::decode(&[0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c]), Ok((151_288_809_941_952_652, 8)));
/// assert_eq!(Quic::decode(&[0x9d, 0x7f, 0x3e, 0x7d]), Ok((494_878_333, 4)));
/// assert_eq!(Quic::decode(&[0x25]), Ok((37, 1)));
/// assert!(Quic::try_encode(1 << 62, &mut [0u8; 8]).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quic;

impl Quic {
    /// The largest value: 2^62−1.
    pub const MAX: u64 = (1 << 62) - 1;
}

impl Format for Quic {
    type Value = u64;
    const MAX_LEN: usize = 8;
    const NAME: &'static str = "QUIC varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        if first < 0x40 {
            return Ok((u64::from(first), 1));
        }
        // A branch on each length, as the peers have: the length returned
        // is then a constant, not computed from the first byte (`1 <<
        // (first >> 6)`), which the next value's load waited for when
        // values are decoded one after another (0.8× octets on two-byte
        // values, 0.9× on eight; now 3× and more). Values of mixed lengths
        // stayed ahead of the byte loop (2×) in `formats_min`.
        if first < 0x80 {
            return match buf.get(1) {
                Some(&b) => Ok((u64::from(first & 0x3f) << 8 | u64::from(b), 2)),
                None => Err(DecodeError::Truncated),
            };
        }
        // The four- and eight-byte forms in one load each.
        if first >= 0xc0 {
            if let Some(word) = buf.first_chunk::<8>() {
                return Ok((u64::from_be_bytes(*word) & Quic::MAX, 8));
            }
        } else if let Some(word) = buf.first_chunk::<4>() {
            return Ok((u64::from(u32::from_be_bytes(*word) & 0x3fff_ffff), 4));
        }
        let top = u64::from(first & 0x3f);
        Ok(match first >> 6 {
            0 => (top, 1),
            1 => {
                let [b] = array::<1>(buf, 1)?;
                (top << 8 | u64::from(b), 2)
            }
            2 => {
                let rest = array::<3>(buf, 1)?;
                let low = u64::from(u32::from_be_bytes([0, rest[0], rest[1], rest[2]]));
                (top << 24 | low, 4)
            }
            _ => {
                let rest = array::<7>(buf, 1)?;
                let mut word = [0u8; 8];
                word[1..].copy_from_slice(&rest);
                (top << 56 | u64::from_be_bytes(word), 8)
            }
        })
    }

    /// Runs the dispatched SIMD kernel of
    /// [`shuffle_kernels`](crate::shuffle_kernels) (16 bytes at a time;
    /// see [`ShuffleCodec::quic_decode_into`]), then the scalar loop on
    /// the last bytes: the same answers as the scalar loop.
    ///
    /// [`ShuffleCodec::quic_decode_into`]: crate::ShuffleCodec::quic_decode_into
    fn decode_into(input: &[u8], out: &mut [u64]) -> Result<Decoded, BulkError> {
        crate::ShuffleCodec::new().quic_decode_into(input, out)
    }

    /// As [`decode_into`](Format::decode_into), strictly.
    fn decode_into_strict(input: &[u8], out: &mut [u64]) -> Result<Decoded, BulkError> {
        crate::ShuffleCodec::new().quic_decode_into_strict(input, out)
    }

    /// One branch chain on the value, each arm a constant-size store (as
    /// `CborHead::try_encode`): through `encoded_len` and `write`'s
    /// branches on the length, mixed lengths ran at 0.9× the byte loop.
    #[inline]
    fn try_encode(value: u64, buf: &mut [u8]) -> Result<usize, EncodeError> {
        if value < 0x40 {
            put_array(buf, [value as u8])
        } else if value < 0x4000 {
            put_array(buf, (value as u16 | 0x4000).to_be_bytes())
        } else if value < 0x4000_0000 {
            put_array(buf, (value as u32 | 0x8000_0000).to_be_bytes())
        } else if value <= Quic::MAX {
            put_array(buf, (value | 0xc000_0000_0000_0000).to_be_bytes())
        } else {
            Err(EncodeError::OutOfRange)
        }
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0x40).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        match value {
            0..=0x3f => Some(1),
            0x40..=0x3fff => Some(2),
            0x4000..=0x3fff_ffff => Some(4),
            0x4000_0000..=Quic::MAX => Some(8),
            _ => None,
        }
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        let len = out.len();
        super::put_be_overlapping(out, value);
        // The length code: 0, 1, 2, 3 for 1, 2, 4, 8 bytes.
        out[0] |= (len.trailing_zeros() as u8) << 6;
    }
}
