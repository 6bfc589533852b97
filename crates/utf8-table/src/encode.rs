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
#[must_use]
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

/// Writes the `N`-byte form of `v`.
///
/// The lead byte is `cval` plus the value's top bits (`v >> shift`); each
/// following byte is `10` plus the next 6 bits. `N` is a constant, so the
/// row is a constant and the loop unrolls into `N` stores, as in
/// `char::encode_utf8`.
#[inline(always)]
fn write<const N: usize>(v: u32, out: &mut [u8; N]) {
    let row = TABLE[N - 1];
    let mut shift = row.shift;
    out[0] = row.cval | (v >> shift) as u8;
    let mut i = 1;
    while i < N {
        shift -= 6;
        out[i] = 0x80 | ((v >> shift) & 0x3F) as u8;
        i += 1;
    }
}

/// [`write`] if `buf` holds `N` bytes.
#[inline(always)]
fn put<const N: usize>(v: u32, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match buf.first_chunk_mut::<N>() {
        Some(out) => {
            write::<N>(v, out);
            Ok(N)
        }
        None => Err(too_small(N, buf.len())),
    }
}

#[cold]
fn too_small(needed: usize, available: usize) -> BufferTooSmall {
    BufferTooSmall::new(needed, available)
}

/// Thompson's `wctomb`: the first row whose `lmask` holds `v` writes it.
/// `v` must be in range for the first `ROWS` rows.
///
/// The walk over the rows is written out, so that each row's constants and
/// length are compile-time values. (Measured: walking `TABLE` in a loop and
/// writing through a runtime-length slice ran at about half the speed of
/// `char::encode_utf8`; this form is on par with it.)
#[inline(always)]
fn wctomb<const ROWS: usize>(v: u32, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
    if v <= TABLE[0].lmask {
        put::<1>(v, buf)
    } else if v <= TABLE[1].lmask {
        put::<2>(v, buf)
    } else if v <= TABLE[2].lmask {
        put::<3>(v, buf)
    } else if ROWS == 4 || v <= TABLE[3].lmask {
        put::<4>(v, buf)
    } else if v <= TABLE[4].lmask {
        put::<5>(v, buf)
    } else {
        put::<6>(v, buf)
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
    // `wctomb` with the mode's range checks placed on the rows where they
    // can fail, so 1- and 2-byte values pay for none. (Measured: checking
    // the range up front cost 10–30% against `char::encode_utf8`.)
    let written = if v <= TABLE[0].lmask {
        put::<1>(v, buf)
    } else if v <= TABLE[1].lmask {
        put::<2>(v, buf)
    } else if v <= TABLE[2].lmask {
        if !M::ALLOWS_SURROGATES && v & !0x7FF == 0xD800 {
            return Err(EncodeError::Surrogate(v));
        }
        put::<3>(v, buf)
    } else if v > M::MAX_VALUE {
        return Err(EncodeError::TooLarge(v));
    } else if M::MAX_LEN == 4 {
        put::<4>(v, buf)
    } else {
        wctomb::<6>(v, buf)
    };
    written.map_err(EncodeError::BufferTooSmall)
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
    wctomb::<4>(u32::from(c), buf)
}
