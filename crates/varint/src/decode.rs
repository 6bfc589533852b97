//! Decoding one varint: the public `decode`, `decode_strict` and
//! `decode_signed`.
//!
//! The kernels behind them are in `scalar`; their module docs say how
//! each width is read.

use codec_core::DecodeError;
use zigzag::ZigZag;

use crate::Varint;

/// Reads one varint of type `T` from the start of `buf`, accepting padded
/// (non-canonical) encodings as every protobuf runtime does. Returns the
/// value and the number of bytes it took.
///
/// At most `T::MAX_LEN` bytes are examined: anything after them cannot
/// change the result.
///
/// # Errors
///
/// - [`DecodeError::Truncated`]: `buf` ended before the terminating byte (a
///   byte below `0x80`), within the first `T::MAX_LEN` bytes. `buf` may be
///   empty.
/// - [`DecodeError::Overflow`]: the `T::MAX_LEN`-th byte is above
///   `T::LAST_BYTE_MAX` (it has the continuation bit set, or it carries bits
///   the type cannot hold): for `u64`, `FF×9 02` or `80×10`.
///
/// The function returns no position on error: the varint begins at
/// `buf[0]` and nothing has been consumed. To skip a bad varint you must
/// decide how far; for an `Overflow`, `T::MAX_LEN` bytes is where a
/// protobuf parser gives up.
///
/// # Example
///
/// ```
/// use varint::DecodeError;
///
/// assert_eq!(varint::decode::<u64>(&[0xAC, 0x02, 0xFF]), Ok((300, 2)));
/// assert_eq!(varint::decode::<u64>(&[0x80, 0x00]), Ok((0, 2))); // padded
/// assert_eq!(varint::decode::<u64>(&[0xAC]), Err(DecodeError::Truncated));
/// assert_eq!(varint::decode::<u32>(&[0xFF; 5]), Err(DecodeError::Overflow));
/// ```
#[inline]
pub fn decode<T: Varint>(buf: &[u8]) -> Result<(T, usize), DecodeError> {
    T::read::<false>(buf)
}

/// Like [`decode`], but also rejects encodings longer than needed.
///
/// An encoding is canonical, the one [`encode`](crate::encode()) produces,
/// exactly when it is one byte, or its last byte is not `0x00`. Strict
/// decoding accepts exactly the canonical encodings of values of `T`.
///
/// # Errors
///
/// Those of [`decode`], and [`DecodeError::NonCanonical`] for a well-formed
/// varint of two or more bytes whose last byte is `0x00`, such as `80 00`
/// for 0 or `81 80 00` for 1. `Truncated` and `Overflow` take precedence:
/// `80×10` is an `Overflow` for `u64`.
///
/// ```
/// use varint::DecodeError;
///
/// assert_eq!(varint::decode_strict::<u64>(&[0xAC, 0x02]), Ok((300, 2)));
/// assert_eq!(varint::decode_strict::<u64>(&[0x80, 0x00]), Err(DecodeError::NonCanonical));
/// ```
#[inline]
pub fn decode_strict<T: Varint>(buf: &[u8]) -> Result<(T, usize), DecodeError> {
    T::read::<true>(buf)
}

/// Reads one zigzag-encoded signed varint (protobuf `sint32`, `sint64`):
/// [`decode`] of the unsigned type of the same width, then
/// [`zigzag::decode`].
///
/// Lenient, with the errors of [`decode`].
///
/// ```
/// assert_eq!(varint::decode_signed::<i64>(&[0x03]), Ok((-2, 1)));
/// assert_eq!(varint::decode_signed::<i32>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), Ok((i32::MIN, 5)));
/// ```
#[inline]
pub fn decode_signed<S>(buf: &[u8]) -> Result<(S, usize), DecodeError>
where
    S: ZigZag,
    S::Unsigned: Varint,
{
    match decode::<S::Unsigned>(buf) {
        Ok((u, n)) => Ok((zigzag::decode(u), n)),
        Err(e) => Err(e),
    }
}

/// Like [`decode_signed`], with the canonical-form check of
/// [`decode_strict`].
#[inline]
pub fn decode_signed_strict<S>(buf: &[u8]) -> Result<(S, usize), DecodeError>
where
    S: ZigZag,
    S::Unsigned: Varint,
{
    match decode_strict::<S::Unsigned>(buf) {
        Ok((u, n)) => Ok((zigzag::decode(u), n)),
        Err(e) => Err(e),
    }
}
