//! The bijective base-128 of git and Bitcoin Core.

use super::{DecodeError, Format};

/// The bijective base-128 varint of git (`varint.c`: pack `OFS_DELTA`
/// offsets, index v4) and of Bitcoin Core's `VARINT` (the UTXO database):
/// big-endian groups of 7 bits, the continuation bit `0x80` on every byte
/// but the last, and one added to the value before each continuation byte
/// is taken in. So `80 00` is 128, not 0: every value has exactly one
/// encoding, and every byte string at most one value.
///
/// - **Overflow is an error**, [`DecodeError::Overflow`], as soon as the
///   bytes so far leave no room for another group (git's `decode_varint`
///   returns 0 then, the same as a decoded 0; Bitcoin Core throws "size too
///   large"). `u64::MAX` takes 10 bytes (`80 FE FE FE FE FE FE FE FE 7F`).
///   An overflow is reported even if the input ends there.
/// - Strict and lenient decoding are the same: there is no longer form.
///
/// ```
/// use varint::formats::{Bijective, DecodeError, Format};
///
/// assert_eq!(Bijective::decode(&[0x7f]), Ok((127, 1)));
/// assert_eq!(Bijective::decode(&[0x80, 0x00]), Ok((128, 2)));
/// assert_eq!(Bijective::decode(&[0xff, 0x7f]), Ok((16511, 2)));
/// assert_eq!(Bijective::decode(&[0xff; 11]), Err(DecodeError::Overflow));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bijective;

impl Format for Bijective {
    type Value = u64;
    const MAX_LEN: usize = 10;
    const NAME: &'static str = "bijective varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        let Some(&first) = buf.first() else {
            return Err(DecodeError::Truncated);
        };
        let mut value = u64::from(first & 0x7f);
        let mut b = first;
        let mut i = 1;
        while b >= 0x80 {
            // The next group shifts `value + 1` left by 7: it must fit.
            value = match value.checked_add(1) {
                Some(v) if v >> 57 == 0 => v,
                _ => return Err(DecodeError::Overflow),
            };
            b = match buf.get(i) {
                Some(&b) => b,
                None => return Err(DecodeError::Truncated),
            };
            value = value << 7 | u64::from(b & 0x7f);
            i += 1;
        }
        Ok((value, i))
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0x80).then_some(value as u8)
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        let mut v = value;
        let mut len = 1;
        while v >= 0x80 {
            v = (v >> 7) - 1;
            len += 1;
        }
        Some(len)
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        let mut v = value;
        let mut continuation = 0;
        for b in out.iter_mut().rev() {
            *b = continuation | (v & 0x7f) as u8;
            v = (v >> 7).wrapping_sub(1);
            continuation = 0x80;
        }
    }
}
