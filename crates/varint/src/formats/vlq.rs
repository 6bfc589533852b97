//! MIDI's variable-length quantity.

use super::{DecodeError, Format};

/// The variable-length quantity of Standard MIDI Files (delta times,
/// lengths of meta and sysex events): big-endian groups of 7 bits, the
/// continuation bit `0x80` on every byte but the last, at most 4 bytes, so
/// 0 to `0x0FFF_FFFF`.
///
/// - A fourth byte with the continuation bit is [`DecodeError::Overflow`]
///   (the SMF specification limits quantities to four bytes).
/// - Lenient decoding accepts leading `0x80` bytes; strict decoding
///   rejects them ([`DecodeError::NonCanonical`]): the specification says
///   numbers are "represented 7 bits per byte, most significant bits
///   first", and every writer writes the shortest form.
/// - Encoding a value above `0x0FFF_FFFF` is
///   [`EncodeError::OutOfRange`](super::EncodeError::OutOfRange).
///
/// ```
/// use varint::formats::{Format, Vlq};
///
/// // The SMF specification's examples.
/// assert_eq!(Vlq::decode(&[0x81, 0x80, 0x00]), Ok((0x4000, 3)));
/// assert_eq!(Vlq::decode(&[0xff, 0xff, 0xff, 0x7f]), Ok((0x0fff_ffff, 4)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vlq;

impl Vlq {
    /// The largest value: `0x0FFF_FFFF`.
    pub const MAX: u32 = 0x0fff_ffff;
}

impl Format for Vlq {
    type Value = u32;
    const MAX_LEN: usize = 4;
    const NAME: &'static str = "MIDI variable-length quantity";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u32, usize), DecodeError> {
        let mut value = 0u32;
        for i in 0..4 {
            let Some(&b) = buf.get(i) else {
                return Err(DecodeError::Truncated);
            };
            value = value << 7 | u32::from(b & 0x7f);
            if b < 0x80 {
                return Ok((value, i + 1));
            }
        }
        Err(DecodeError::Overflow)
    }

    #[inline]
    fn single_byte(value: u32) -> Option<u8> {
        (value < 0x80).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u32) -> Option<usize> {
        match value {
            0..=0x7f => Some(1),
            0x80..=0x3fff => Some(2),
            0x4000..=0x1f_ffff => Some(3),
            0x20_0000..=Vlq::MAX => Some(4),
            _ => None,
        }
    }

    #[inline]
    fn write(value: u32, out: &mut [u8]) {
        let mut v = value;
        let mut continuation = 0;
        for b in out.iter_mut().rev() {
            *b = continuation | (v & 0x7f) as u8;
            v >>= 7;
            continuation = 0x80;
        }
    }
}
