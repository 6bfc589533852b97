//! Signed LEB128 (SLEB128): the two's-complement integer in groups of 7
//! bits, least significant first, sign-extended from the top bit of the
//! last group, as DWARF, WebAssembly and Android DEX store signed integers.
//!
//! Unlike protobuf's `sint32`/`sint64` (zigzag, then an unsigned varint:
//! [`encode_signed`](crate::encode_signed())), SLEB128 keeps the sign in
//! bit 6 of the last byte: −1 is `7F`, 63 is `3F`, 64 is `C0 00`, −64 is
//! `40`, −65 is `BF 7F`.
//!
//! ```
//! use varint::sleb128;
//!
//! let mut buf = [0u8; 10];
//! let n = sleb128::encode(-129i64, &mut buf);
//! assert_eq!(&buf[..n], [0xFF, 0x7E]); // DWARF 5, §7.6
//! assert_eq!(sleb128::decode::<i64>(&buf[..n]), Ok((-129, 2)));
//!
//! // WebAssembly's i32.const -1, padded to five bytes: accepted, and
//! // rejected by strict decoding.
//! let padded = [0xFF, 0xFF, 0xFF, 0xFF, 0x7F];
//! assert_eq!(sleb128::decode::<i32>(&padded), Ok((-1, 5)));
//! assert_eq!(sleb128::decode_strict::<i32>(&padded), Err(varint::DecodeError::NonCanonical));
//! // "Signed LEB128s sign-extend": unused bits that are not the sign.
//! assert_eq!(sleb128::decode::<i32>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), Err(varint::DecodeError::Overflow));
//! ```
//!
//! # Exactness
//!
//! The rules are WebAssembly's (core specification, §5.2.2, and its
//! `binary-leb128.wast` tests), which make DWARF's precise:
//!
//! - A value of type `T` takes at most `T::MAX_LEN` = `ceil(BITS / 7)`
//!   bytes (`i16`: 3, `i32`: 5, `i64`: 10, `i128`: 19). The last allowed
//!   byte carries `BITS − 7·(MAX_LEN − 1)` bits of the value, and its other
//!   bits must repeat the value's sign bit: for `i32` it is `00`–`07` or
//!   `78`–`7F`, for `i64` `00` or `7F`. Anything else, a continuation bit
//!   included, is [`DecodeError::Overflow`] (the `leb128` crate agrees for
//!   `i64`).
//! - Input that ends before the terminating byte is
//!   [`DecodeError::Truncated`].
//! - Lenient decoding accepts padding (`80 00` is 0, `FF 7F` is −1), as
//!   WebAssembly and DWARF consumers must; strict decoding rejects an
//!   encoding whose last byte only repeats the sign of the byte before
//!   (`00` after a byte with bit 6 clear, `7F` after one with bit 6 set)
//!   as [`DecodeError::NonCanonical`], so it accepts exactly what
//!   [`encode`] writes. `Overflow` and `Truncated` take precedence.
//! - No decoder looks at more than `T::MAX_LEN` bytes or reads outside its
//!   slice, and on error nothing is consumed.
//!
//! The tests check every input of up to three bytes for every type against
//! a model written from the rules above, random values against the `leb128`
//! crate, and the DWARF 5 and WebAssembly examples
//! (`testdata/conformance/leb128_cases.tsv`).

use codec_core::{BufferTooSmall, DecodeError};

use crate::scalar::{self, len_from_bits, len_from_bits_128};

mod sealed {
    use codec_core::DecodeError;

    /// The per-type plumbing; sealed like [`crate::Varint`]'s.
    #[allow(unreachable_pub)] // Public in a private module: the sealed-trait pattern.
    pub trait Sealed: Sized {
        /// The largest non-negative `MAX_LEN`-th byte.
        const LAST: u8;
        fn len(self) -> usize;
        fn put(self, buf: &mut [u8]) -> Option<usize>;
        fn read<const STRICT: bool>(buf: &[u8]) -> Result<(Self, usize), DecodeError>;
    }
}

/// A signed integer type with a signed LEB128 encoding: `i16`, `i32`,
/// `i64`, `i128` and `isize`. Sealed.
///
/// | type | [`MAX_LEN`](Sleb128::MAX_LEN) | last byte allowed |
/// |---|---|---|
/// | `i16` | 3 | `00`–`01`, `7E`–`7F` |
/// | `i32` | 5 | `00`–`07`, `78`–`7F` |
/// | `i64` | 10 | `00`, `7F` |
/// | `i128` | 19 | `00`–`01`, `7E`–`7F` |
/// | `isize` | as the integer of its width | |
pub trait Sleb128:
    sealed::Sealed
    + Copy
    + Default
    + Eq
    + Ord
    + core::hash::Hash
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
{
    /// The longest encoding, in bytes: `ceil(BITS / 7)`.
    const MAX_LEN: usize;
}

/// Stamps out one signed type: the word it is read in (`u64` or `u128`),
/// the signed word it is written from (`i64` or `i128`), `MAX_LEN`, the
/// largest non-negative last byte, and the length formula.
macro_rules! signed {
    ($($t:ty, $read:ty, $write:ty, $max:literal, $last:literal, $len:ident;)*) => {$(
        impl sealed::Sealed for $t {
            const LAST: u8 = $last;

            #[inline(always)]
            fn len(self) -> usize {
                // The bits of the value with its sign: the magnitude's bits
                // (of `!self` when negative) plus one.
                let magnitude = self ^ (self >> (<$t>::BITS - 1));
                $len(<$t>::BITS + 1 - magnitude.leading_zeros())
            }

            #[inline]
            fn put(self, buf: &mut [u8]) -> Option<usize> {
                if (-64..64).contains(&self) {
                    *buf.first_mut()? = self as u8 & 0x7F;
                    return Some(1);
                }
                let len = self.len();
                // Written from the sign-extended word: its arithmetic
                // shifts give the last byte's sign bits.
                scalar::write_groups(self as $write, buf.get_mut(..len)?);
                Some(len)
            }

            #[inline]
            fn read<const STRICT: bool>(buf: &[u8]) -> Result<(Self, usize), DecodeError> {
                if let Some(&b0) = buf.first()
                    && b0 < 0x80
                {
                    // Bit 6 is the sign: shift it to the top and back.
                    return Ok(((((b0 << 1) as i8) >> 1) as $t, 1));
                }
                let (raw, n) = scalar::read_loop::<$read, $max, $last, true, STRICT>(buf)?;
                // Sign-extend from bit 7n − 1, unless the groups fill the
                // type (n = MAX_LEN: the last byte was checked to be a sign
                // extension, and the cast drops it).
                let shift = <$t>::BITS.saturating_sub(7 * n as u32);
                Ok((((raw as $t) << shift) >> shift, n))
            }
        }

        impl Sleb128 for $t {
            const MAX_LEN: usize = $max;
        }
    )*};
}

signed! {
    i16, u64, i64, 3, 0x01, len_from_bits;
    i32, u64, i64, 5, 0x07, len_from_bits;
    i64, u64, i64, 10, 0x00, len_from_bits;
    i128, u128, i128, 19, 0x01, len_from_bits_128;
}

#[cfg(target_pointer_width = "16")]
signed! { isize, u64, i64, 3, 0x01, len_from_bits; }
#[cfg(target_pointer_width = "32")]
signed! { isize, u64, i64, 5, 0x07, len_from_bits; }
#[cfg(target_pointer_width = "64")]
signed! { isize, u64, i64, 10, 0x00, len_from_bits; }

/// The number of bytes [`encode`] writes for `value`: `ceil(bits / 7)`,
/// where `bits` counts the value's bits and its sign.
///
/// ```
/// use varint::sleb128::encoded_len;
/// assert_eq!(encoded_len(63i32), 1);
/// assert_eq!(encoded_len(64i32), 2);
/// assert_eq!(encoded_len(-64i32), 1);
/// assert_eq!(encoded_len(-65i32), 2);
/// assert_eq!(encoded_len(i64::MIN), 10);
/// ```
#[must_use]
#[inline]
pub fn encoded_len<T: Sleb128>(value: T) -> usize {
    value.len()
}

/// Writes the shortest signed LEB128 encoding of `value` at the start of
/// `buf` and returns its length, [`encoded_len`]`(value)`. Bytes after it
/// are left untouched.
///
/// # Panics
///
/// If `buf` is shorter than the encoding, like [`crate::encode`]; a buffer
/// of `T::MAX_LEN` bytes always suffices, and [`try_encode`] returns an
/// error instead.
///
/// ```
/// let mut buf = [0u8; 5];
/// let n = varint::sleb128::encode(-127i32, &mut buf);
/// assert_eq!(&buf[..n], [0x81, 0x7F]);
/// ```
#[must_use]
#[inline]
pub fn encode<T: Sleb128>(value: T, buf: &mut [u8]) -> usize {
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
    panic!(
        "varint::sleb128::encode: {}",
        BufferTooSmall::new(needed, available)
    )
}

/// Like [`encode`], but returns an error instead of panicking when `buf`
/// is too short; `buf` is then left unchanged.
///
/// ```
/// let mut buf = [0u8; 1];
/// let err = varint::sleb128::try_encode(64i64, &mut buf).unwrap_err();
/// assert_eq!((err.needed(), err.available()), (2, 1));
/// ```
#[inline]
pub fn try_encode<T: Sleb128>(value: T, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match value.put(buf) {
        Some(len) => Ok(len),
        None => Err(BufferTooSmall::new(value.len(), buf.len())),
    }
}

/// Reads one signed LEB128 value of type `T` from the start of `buf`,
/// accepting padded encodings; returns the value and the bytes it took.
///
/// # Errors
///
/// - [`DecodeError::Truncated`]: `buf` ended before the terminating byte,
///   within the first `T::MAX_LEN` bytes (`buf` may be empty).
/// - [`DecodeError::Overflow`]: the `T::MAX_LEN`-th byte continues, or its
///   bits beyond the type are not the sign's (see the module docs).
///
/// ```
/// use varint::{DecodeError, sleb128};
///
/// assert_eq!(sleb128::decode::<i64>(&[0x80, 0x7F]), Ok((-128, 2)));
/// assert_eq!(sleb128::decode::<i64>(&[0x80]), Err(DecodeError::Truncated));
/// ```
#[inline]
pub fn decode<T: Sleb128>(buf: &[u8]) -> Result<(T, usize), DecodeError> {
    T::read::<false>(buf)
}

/// Like [`decode`], but also rejects encodings longer than needed, with
/// [`DecodeError::NonCanonical`]: it accepts exactly what [`encode`]
/// writes.
///
/// ```
/// use varint::{DecodeError, sleb128};
///
/// assert_eq!(sleb128::decode_strict::<i32>(&[0xFF, 0x00]), Ok((127, 2)));
/// assert_eq!(sleb128::decode_strict::<i32>(&[0x80, 0x00]), Err(DecodeError::NonCanonical));
/// ```
#[inline]
pub fn decode_strict<T: Sleb128>(buf: &[u8]) -> Result<(T, usize), DecodeError> {
    T::read::<true>(buf)
}

// The table in the trait docs, checked: the last byte holds the value's
// `BITS − 7·(MAX_LEN − 1)` top bits, the highest of them the sign; the
// largest non-negative last byte has every bit below the sign set.
const _: () = {
    const fn check(bits: u32, max_len: usize, last: u8) {
        assert!(max_len == len_from_bits_128(bits));
        let value_bits = bits - 7 * (max_len as u32 - 1);
        assert!(last as u32 == (1 << (value_bits - 1)) - 1);
    }
    use sealed::Sealed;
    check(16, <i16 as Sleb128>::MAX_LEN, <i16 as Sealed>::LAST);
    check(32, <i32 as Sleb128>::MAX_LEN, <i32 as Sealed>::LAST);
    check(64, <i64 as Sleb128>::MAX_LEN, <i64 as Sealed>::LAST);
    check(128, <i128 as Sleb128>::MAX_LEN, <i128 as Sealed>::LAST);
    check(
        isize::BITS,
        <isize as Sleb128>::MAX_LEN,
        <isize as Sealed>::LAST,
    );
};
