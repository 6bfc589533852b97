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

/// The top bit of every byte of a `u64`.
const CONTINUATION: u64 = 0x8080_8080_8080_8080;

/// Spreads the low 56 bits of `v` into the low 7 bits of each of 8 bytes:
/// the inverse of [`pack7`](crate::decode::pack7).
#[inline(always)]
const fn unpack7(v: u64) -> u64 {
    let x = (v & 0x0000_0000_0FFF_FFFF) | ((v & 0x00FF_FFFF_F000_0000) << 4);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x0FFF_C000_0FFF_C000) << 2);
    (x & 0x007F_007F_007F_007F) | ((x & 0x3F80_3F80_3F80_3F80) << 1)
}

/// Writes the encoding of `v` (a value of a type with `MAX_LEN == MAX`) at
/// the start of `buf` and returns its length, or returns `None` and writes
/// nothing if `buf` is too short.
///
/// Measured on the distributions of `benches/benches/varint.rs`
/// (`docs/results/varint.md`):
/// - one byte first, two bytes next, each with a store per byte: as fast
///   as prost's loop on one- and two-byte values;
/// - 3 to 8 bytes without a loop: the 7-bit groups are spread over a word
///   ([`unpack7`]), the continuation bits or-ed in, and the bytes written
///   with two overlapping stores (2 + 1 bytes for length 3, 4 + 4 for
///   4 to 8). This is 1.3× faster than a loop on uniformly random lengths.
///   Writing lengths 1 and 2 this way too was 3× slower on all-one- and
///   all-two-byte input, so they keep their branches;
/// - 9 and 10 bytes: a loop.
///
/// Only bytes below the returned length are written, so a caller's data
/// after them is never touched.
#[inline(always)]
pub(crate) fn put_u64<const MAX: usize>(mut v: u64, buf: &mut [u8]) -> Option<usize> {
    if v < 0x80 {
        // Two separate branches; `v < 0x80 && !buf.is_empty()` compiled to
        // one branch on two `setcc`s, 20% slower on one-byte values.
        let b = buf.first_mut()?;
        *b = v as u8;
        return Some(1);
    }
    let Some(out) = buf.first_chunk_mut::<MAX>() else {
        // A buffer shorter than MAX_LEN: check the exact length.
        let len = crate::int::len_from_bits(u64::BITS - (v | 1).leading_zeros());
        let out = buf.get_mut(..len)?;
        write_u64(v, out);
        return Some(len);
    };
    if v < 0x4000 {
        out[0] = v as u8 | 0x80;
        out[1] = (v >> 7) as u8;
        return Some(2);
    }
    if v < 1 << 56 {
        let len = crate::int::len_from_bits(u64::BITS - v.leading_zeros());
        // Continuation bits on every byte but the last.
        let word = unpack7(v) | (CONTINUATION & ((1 << (8 * (len - 1))) - 1));
        if len == 3 {
            out[..2].copy_from_slice(&(word as u16).to_le_bytes());
            out[2] = (word >> 16) as u8;
        } else {
            out[..4].copy_from_slice(&(word as u32).to_le_bytes());
            let high = (word >> (8 * (len - 4))) as u32;
            out[len - 4..len].copy_from_slice(&high.to_le_bytes());
        }
        return Some(len);
    }
    let mut i = 0;
    while v >= 0x80 {
        out[i] = v as u8 | 0x80;
        v >>= 7;
        i += 1;
    }
    out[i] = v as u8;
    Some(i + 1)
}

/// Writes the encoding of `v` into `out`, which is exactly
/// `encoded_len(v)` bytes long: every byte but the last carries 7 bits and
/// the continuation bit.
#[inline(always)]
pub(crate) fn write_u64(mut v: u64, out: &mut [u8]) {
    if let Some((last, init)) = out.split_last_mut() {
        for b in init {
            *b = v as u8 | 0x80;
            v >>= 7;
        }
        *last = v as u8;
    }
}

/// [`write_u64`] for `u128`.
#[inline]
pub(crate) fn write_u128(mut v: u128, out: &mut [u8]) {
    if let Some((last, init)) = out.split_last_mut() {
        for b in init {
            *b = v as u8 | 0x80;
            v >>= 7;
        }
        *last = v as u8;
    }
}
