//! Decoding one varint: the public `decode`, `decode_strict` and
//! `decode_signed`, and the per-width kernels behind them.
//!
//! # The u64 kernel
//!
//! [`read_u64`] serves `u16`, `u32`, `u64` and `usize`, with the type's
//! `MAX_LEN` and last-byte limit as const parameters. It tries, in order:
//!
//! 1. one byte below `0x80`: the common case in protobuf (tags, small
//!    lengths, booleans, enums) costs one compare;
//! 2. two bytes, the second below `0x80`;
//! 3. for `MAX_LEN == 10` with at least 10 bytes left: one little-endian
//!    8-byte load. The terminator is the lowest byte whose top bit is clear,
//!    found with one `trailing_zeros`; the bytes after it are masked off and
//!    the eight 7-bit groups are packed together in three shift-and-or
//!    steps (14-, 28-, then 56-bit lanes). Bytes 9 and 10 are merged in
//!    with masks. No branch depends on the length from 3 to 10 bytes, so
//!    random lengths cost no misprediction here;
//! 4. otherwise (fewer than 10 bytes left, or a narrower type) a loop
//!    bounded by `MAX_LEN`.
//!
//! Every path reads only bytes inside the slice and decides its result from
//! the first `MAX_LEN` bytes alone; the 8-byte load of step 3 is within the
//! first `MAX_LEN` = 10 bytes.

use codec_core::DecodeError;
use zigzag::ZigZag;

use crate::Varint;

/// The top bit of every byte of a `u64`.
const CONTINUATION: u64 = 0x8080_8080_8080_8080;

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

/// Packs the low 7 bits of each of the 8 bytes of `x` (whose top bits must
/// be clear) into the low 56 bits.
#[inline(always)]
pub(crate) const fn pack7(x: u64) -> u64 {
    let x = (x & 0x007F_007F_007F_007F) | ((x & 0x7F00_7F00_7F00_7F00) >> 1);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x3FFF_0000_3FFF_0000) >> 2);
    (x & 0x0000_0000_0FFF_FFFF) | ((x & 0x0FFF_FFFF_0000_0000) >> 4)
}

/// The kernel for every type up to 64 bits: `MAX` is `MAX_LEN` (3, 5 or
/// 10), `LAST` the largest allowed `MAX`-th byte. See the module docs.
#[inline(always)]
pub(crate) fn read_u64<const MAX: usize, const LAST: u8, const STRICT: bool>(
    buf: &[u8],
) -> Result<(u64, usize), DecodeError> {
    const { assert!(MAX >= 3 && MAX <= 10) };
    let Some(&b0) = buf.first() else {
        return Err(DecodeError::Truncated);
    };
    if b0 < 0x80 {
        return Ok((b0.into(), 1));
    }
    if let Some(&b1) = buf.get(1)
        && b1 < 0x80
    {
        if STRICT && b1 == 0 {
            return Err(DecodeError::NonCanonical);
        }
        return Ok((u64::from(b0 & 0x7F) | u64::from(b1) << 7, 2));
    }
    if MAX == 10
        && let Some(head) = buf.first_chunk::<10>()
    {
        return read_u64_word::<LAST, STRICT>(head);
    }
    read_u64_loop::<MAX, LAST, STRICT>(buf)
}

/// Step 3 of the kernel: 10 bytes available, `MAX_LEN == 10`. No branch
/// depends on the length, 9 and 10 bytes included: the 9- and 10-byte
/// parts are computed always and selected with masks.
#[inline(always)]
fn read_u64_word<const LAST: u8, const STRICT: bool>(
    head: &[u8; 10],
) -> Result<(u64, usize), DecodeError> {
    let mut low8 = [0u8; 8];
    low8.copy_from_slice(&head[..8]);
    let word = u64::from_le_bytes(low8);
    let (b8, b9) = (head[8], head[9]);
    // The top bit of every byte that ends a varint; none if it is 9 or 10
    // bytes long.
    let stops = !word & CONTINUATION;
    let long = stops == 0;
    // Every bit up to and including the first stop bit (all of them when
    // there is none): the varint's bytes within the word.
    let keep = stops ^ stops.wrapping_sub(1);
    let low = pack7(word & keep & !CONTINUATION);
    let tenth = b8 >> 7; // 1 if byte 9 continues into byte 10
    // trailing_zeros(0) = 64 gives 9 for the long case.
    let len = (stops.trailing_zeros() / 8 + 1) as usize + usize::from(long & (tenth == 1));
    let high = (u64::from(b8 & 0x7F) << 56
        | (u64::from(b9) << 63) & 0u64.wrapping_sub(tenth.into()))
        & 0u64.wrapping_sub(long.into());
    // `&`, not `&&`: one branch, never taken on valid input.
    if long & (tenth == 1) & (b9 > LAST) {
        return Err(DecodeError::Overflow);
    }
    if STRICT {
        let last = match len {
            9 => b8,
            10 => b9,
            _ => (word >> (8 * (len - 1))) as u8,
        };
        if last == 0 && len > 1 {
            return Err(DecodeError::NonCanonical);
        }
    }
    Ok((low | high, len))
}

/// Step 4 of the kernel: a loop over at most `MAX` bytes.
#[inline(always)]
fn read_u64_loop<const MAX: usize, const LAST: u8, const STRICT: bool>(
    buf: &[u8],
) -> Result<(u64, usize), DecodeError> {
    let mut value = 0u64;
    for (i, &b) in buf.iter().take(MAX).enumerate() {
        if i == MAX - 1 {
            // The last allowed byte: no continuation, no excess bits.
            if b > LAST {
                return Err(DecodeError::Overflow);
            }
            if STRICT && b == 0 {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value | u64::from(b) << (7 * i), MAX));
        }
        value |= u64::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            if STRICT && b == 0 && i > 0 {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value, i + 1));
        }
    }
    Err(DecodeError::Truncated)
}

/// The `u128` kernel: a one-byte fast path, then a loop over at most 19
/// bytes. (Rare enough on the wire that it has no word path.)
#[inline]
pub(crate) fn read_u128<const STRICT: bool>(buf: &[u8]) -> Result<(u128, usize), DecodeError> {
    const MAX: usize = <u128 as Varint>::MAX_LEN;
    const LAST: u8 = <u128 as Varint>::LAST_BYTE_MAX;
    if let Some(&b0) = buf.first()
        && b0 < 0x80
    {
        return Ok((b0.into(), 1));
    }
    let mut value = 0u128;
    for (i, &b) in buf.iter().take(MAX).enumerate() {
        if i == MAX - 1 {
            if b > LAST {
                return Err(DecodeError::Overflow);
            }
            if STRICT && b == 0 {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value | u128::from(b) << (7 * i), MAX));
        }
        value |= u128::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            if STRICT && b == 0 && i > 0 {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value, i + 1));
        }
    }
    Err(DecodeError::Truncated)
}
