//! Encoding: `encode`, `try_encode`, `encoded_len` and the signed forms.

use codec_core::BufferTooSmall;
use zigzag::ZigZag;

use crate::Varint;

/// The number of bytes [`encode`] writes for `value`: `ceil(bits / 7)` with
/// `bits` the position of its highest set bit (1 for 0). Branch-free: one
/// `leading_zeros`, one multiply and one shift.
///
/// ```
/// assert_eq!(varint::encoded_len(0u64), 1);
/// assert_eq!(varint::encoded_len(127u32), 1);
/// assert_eq!(varint::encoded_len(128u16), 2);
/// assert_eq!(varint::encoded_len(u64::MAX), 10);
/// assert_eq!(varint::encoded_len(u128::MAX), 19);
/// ```
#[must_use]
#[inline]
pub fn encoded_len<T: Varint>(value: T) -> usize {
    value.len()
}

/// Writes the canonical (shortest) varint of `value` at the start of `buf`
/// and returns the number of bytes written, [`encoded_len`]`(value)`. Bytes
/// after them are left untouched.
///
/// # Panics
///
/// If `buf` is shorter than the encoding, like [`char::encode_utf8`]. A
/// buffer of `T::MAX_LEN` bytes always suffices; [`try_encode`] returns an
/// error instead.
///
/// ```
/// let mut buf = [0u8; u64::MAX_LEN];
/// # use varint::Varint;
/// let n = varint::encode(300u64, &mut buf);
/// assert_eq!(&buf[..n], [0xAC, 0x02]);
/// ```
#[must_use]
#[inline]
pub fn encode<T: Varint>(value: T, buf: &mut [u8]) -> usize {
    match value.put(buf) {
        Some(len) => len,
        None => too_small(value.len(), buf.len()),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
// The documented panic of `encode`, like `char::encode_utf8`'s.
#[allow(clippy::panic)]
fn too_small(needed: usize, available: usize) -> ! {
    panic!("varint::encode: {}", BufferTooSmall::new(needed, available))
}

/// Like [`encode`], but returns an error instead of panicking when `buf` is
/// too short; `buf` is then left unchanged.
///
/// ```
/// let mut buf = [0u8; 1];
/// let err = varint::try_encode(300u32, &mut buf).unwrap_err();
/// assert_eq!((err.needed(), err.available()), (2, 1));
/// assert_eq!(buf, [0]);
/// ```
#[inline]
pub fn try_encode<T: Varint>(value: T, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match value.put(buf) {
        Some(len) => Ok(len),
        None => Err(BufferTooSmall::new(value.len(), buf.len())),
    }
}

/// Writes a zigzag-encoded signed varint (protobuf `sint32`, `sint64`):
/// [`zigzag::encode`], then [`encode`]. Panics as [`encode`] does.
///
/// ```
/// let mut buf = [0u8; 10];
/// assert_eq!(varint::encode_signed(-2i64, &mut buf), 1);
/// assert_eq!(buf[0], 0x03);
/// ```
#[must_use]
#[inline]
pub fn encode_signed<S>(value: S, buf: &mut [u8]) -> usize
where
    S: ZigZag,
    S::Unsigned: Varint,
{
    encode(zigzag::encode(value), buf)
}

/// Like [`encode_signed`], returning an error instead of panicking.
#[inline]
pub fn try_encode_signed<S>(value: S, buf: &mut [u8]) -> Result<usize, BufferTooSmall>
where
    S: ZigZag,
    S::Unsigned: Varint,
{
    try_encode(zigzag::encode(value), buf)
}
