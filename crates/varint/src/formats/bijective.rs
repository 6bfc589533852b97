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
        // One loop from the first byte, as the byte loop has: peeling the
        // second byte out of it (no overflow check there) made two-byte
        // values 1.12× the byte loop but mixed lengths 0.75×, one more
        // branch on the value's length to predict (`formats_min`).
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

    /// Every value has one encoding: strict decoding is decoding.
    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
        Self::decode(buf)
    }

    #[inline]
    fn single_byte(value: u64) -> Option<u8> {
        (value < 0x80).then_some(value as u8)
    }

    #[inline]
    fn two_bytes(value: u64) -> Option<[u8; 2]> {
        // Two bytes hold 128 to 128 + 2^14 − 1, less 128 in base 128.
        let d = value.wrapping_sub(0x80);
        (d < 0x4000).then_some([0x80 | (d >> 7) as u8, d as u8 & 0x7f])
    }

    #[inline]
    fn encoded_len(value: u64) -> Option<usize> {
        // One more byte for each length whose first value `value` reaches.
        Some(1 + FIRST[1..].iter().filter(|&&first| value >= first).count())
    }

    #[inline]
    fn write(value: u64, out: &mut [u8]) {
        let len = out.len();
        // Up to 8 bytes, the encoding is the plain base-128 digits of the
        // value less the first value of its length, every group at once
        // (`put_be7`) instead of a loop from the end, whose exit
        // mispredicted on mixed lengths.
        let Some(&first) = FIRST.get(len.wrapping_sub(1)) else {
            return;
        };
        let digits = value.wrapping_sub(first);
        if len <= 8 {
            super::put_be7(out, digits);
            return;
        }
        // Nine or ten bytes: the low eight groups as above, then the top
        // eight bits of the digits, in one group or two, continued.
        if let Some((high, low)) = out.split_last_chunk_mut::<8>() {
            *low = (super::spread7(digits) | 0x8080_8080_8080_8000).to_be_bytes();
            let top = digits >> 56;
            match high {
                [only] => *only = 0x80 | top as u8,
                [next, only] => {
                    *next = 0x80 | (top >> 7) as u8;
                    *only = 0x80 | top as u8;
                }
                _ => {}
            }
        }
    }
}

/// The first value of each length: `FIRST[n - 1]` is the number of values
/// shorter than `n` bytes, 128 + 128^2 + … + 128^(n−1).
const FIRST: [u64; 10] = {
    let mut first = [0u64; 10];
    let mut n = 1;
    while n < 10 {
        first[n] = first[n - 1] + (1 << (7 * n));
        n += 1;
    }
    first
};
