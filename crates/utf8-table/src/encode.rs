//! Encoding: Thompson's `wctomb`, and [`encoded_len`].

use codec_core::BufferTooSmall;

use crate::error::EncodeError;
use crate::mode::Mode;
use crate::table::TABLE;

/// The number of bytes value `v` takes in mode `M`, or `None` if `v` is
/// outside the mode's range (a surrogate in strict mode, or too large).
///
/// The length is the first row whose `lmask` holds the value.
///
/// ```
/// use utf8_table::{Legacy, Strict, encoded_len};
///
/// assert_eq!(encoded_len::<Strict>(0x5415), Some(3));
/// assert_eq!(encoded_len::<Strict>(0x11_0000), None);
/// assert_eq!(encoded_len::<Legacy>(0x11_0000), Some(4));
/// assert_eq!(encoded_len::<Legacy>(0x7FFF_FFFF), Some(6));
/// assert_eq!(encoded_len::<Strict>(0xD800), None);
/// assert_eq!(encoded_len::<Legacy>(0xD800), Some(3));
/// ```
#[inline]
pub const fn encoded_len<M: Mode>(v: u32) -> Option<usize> {
    if !crate::mode::in_range::<M>(v) {
        return None;
    }
    Some(len_in_range(v))
}

/// The row of an in-range value, by the table: the first `lmask` that holds it.
#[inline(always)]
const fn len_in_range(v: u32) -> usize {
    let mut n = 0;
    while n < TABLE.len() - 1 && v > TABLE[n].lmask {
        n += 1;
    }
    n + 1
}

/// Writes the `n`-byte form of `v` into `out`, which is exactly `n` bytes.
///
/// The lead byte is `cval` plus the value's top bits (`v >> shift`); each
/// following byte is `10` plus the next 6 bits. ASCII skips the loop. The
/// loop runs `n - 1` times with `n` known to the caller's match, so the
/// compiler unrolls each arm.
#[inline(always)]
fn write(v: u32, out: &mut [u8]) {
    let row = TABLE[out.len() - 1];
    let mut shift = row.shift;
    out[0] = row.cval | (v >> shift) as u8;
    for b in &mut out[1..] {
        shift -= 6;
        *b = 0x80 | ((v >> shift) & 0x3F) as u8;
    }
}

/// Writes the sequence of value `v` in mode `M` to the start of `buf` and
/// returns its length. Nothing is written on error.
///
/// ```
/// use utf8_table::{EncodeError, Legacy, Strict, encode};
///
/// let mut buf = [0; 6];
/// assert_eq!(encode::<Strict>(0x5415, &mut buf), Ok(3));
/// assert_eq!(&buf[..3], b"\xE5\x90\x95");
/// assert_eq!(encode::<Legacy>(0x7FFF_FFFF, &mut buf), Ok(6));
/// assert_eq!(buf, *b"\xFD\xBF\xBF\xBF\xBF\xBF");
/// assert_eq!(encode::<Strict>(0xDFFF, &mut buf), Err(EncodeError::Surrogate(0xDFFF)));
/// assert_eq!(encode::<Legacy>(0x8000_0000, &mut buf), Err(EncodeError::TooLarge(0x8000_0000)));
/// assert!(matches!(encode::<Strict>(0x5415, &mut buf[..2]), Err(EncodeError::BufferTooSmall(_))));
/// ```
#[inline]
pub fn encode<M: Mode>(v: u32, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let Some(n) = encoded_len::<M>(v) else {
        return Err(range_error::<M>(v));
    };
    encode_len(v, n, buf)
}

/// Writes an in-range `v` of length `n`.
#[inline(always)]
fn encode_len(v: u32, n: usize, buf: &mut [u8]) -> Result<usize, EncodeError> {
    // ASCII first: one compare and one store, the common case of most text.
    if n == 1 {
        if let Some(b) = buf.first_mut() {
            *b = v as u8;
            return Ok(1);
        }
    }
    let available = buf.len();
    match buf.get_mut(..n) {
        Some(out) => {
            write(v, out);
            Ok(n)
        }
        None => Err(EncodeError::BufferTooSmall(BufferTooSmall::new(
            n, available,
        ))),
    }
}

#[cold]
fn range_error<M: Mode>(v: u32) -> EncodeError {
    if v > M::MAX_VALUE {
        EncodeError::TooLarge(v)
    } else {
        EncodeError::Surrogate(v)
    }
}

/// Writes `c` to the start of `buf` and returns its length; like
/// [`char::encode_utf8`], but an error instead of a panic when `buf` is too
/// short. Both modes encode a `char` the same way.
///
/// ```
/// let mut buf = [0; 4];
/// assert_eq!(utf8_table::encode_char('吕', &mut buf), Ok(3));
/// assert_eq!(&buf[..3], "吕".as_bytes());
/// assert!(utf8_table::encode_char('😀', &mut buf[..3]).is_err());
/// ```
#[inline]
pub fn encode_char(c: char, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
    let v = u32::from(c);
    match encode_len(v, len_in_range(v), buf) {
        Ok(n) => Ok(n),
        Err(EncodeError::BufferTooSmall(e)) => Err(e),
        // A `char` is always in range, so only the buffer can be short.
        Err(_) => Err(BufferTooSmall::new(len_in_range(v), buf.len())),
    }
}
