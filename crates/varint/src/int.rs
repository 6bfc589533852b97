//! The [`Varint`] trait: the integer types this crate encodes, with their
//! limits, and the sealed per-type plumbing the free functions call.

use codec_core::DecodeError;

use crate::scalar::{self, len_from_bits, len_from_bits_128};

pub(crate) mod sealed {
    use codec_core::DecodeError;

    /// The per-type operations behind the free functions. Sealed: only this
    /// crate can implement it, so `Varint` can grow without breaking anyone.
    #[allow(unreachable_pub)] // Public in a private module: the sealed-trait pattern.
    pub trait Sealed: Sized + Copy {
        /// The encoded length, branch-free.
        fn len(self) -> usize;
        /// Writes the encoding at the start of `buf` and returns its
        /// length, or writes nothing and returns `None` if `buf` is too
        /// short.
        fn put(self, buf: &mut [u8]) -> Option<usize>;
        /// Lenient or strict decoding of one value from the start of `buf`.
        fn read<const STRICT: bool>(buf: &[u8]) -> Result<(Self, usize), DecodeError>;
        /// A one-byte varint (`b < 0x80`) as a value.
        fn from_byte(b: u8) -> Self;
        /// A value below 2^56 (a varint of at most 8 bytes); only called
        /// for types with `MAX_LEN > 8`, which hold it whole.
        fn from_u56(v: u64) -> Self;
        /// Runs `decoder`'s kernel from the start of `input` into the start
        /// of `out`: `(bytes, count)` decoded, maybe `(0, 0)`. Types without
        /// a kernel (`u16`, `u128`) do nothing.
        #[inline(always)]
        fn bulk<const STRICT: bool>(
            decoder: crate::KernelCodec,
            input: &[u8],
            out: &mut [Self],
        ) -> (usize, usize) {
            let _ = (decoder, input, out);
            (0, 0)
        }
        /// Runs `codec`'s encoding kernel: `Some((values, bytes))` encoded
        /// from the start, maybe `(0, 0)`, or `None` if `out` cannot hold
        /// the encoding of every value. Types without a kernel only check.
        #[inline(always)]
        fn bulk_encode(
            codec: crate::KernelCodec,
            values: &[Self],
            out: &mut [u8],
        ) -> Option<(usize, usize)> {
            (Self::bulk_len(codec, values) <= out.len()).then_some((0, 0))
        }
        /// The summed encoded length of `values`.
        #[inline(always)]
        fn bulk_len(codec: crate::KernelCodec, values: &[Self]) -> usize {
            let _ = codec;
            values.iter().map(|&v| v.len()).sum()
        }
    }
}

/// An unsigned integer type with a varint encoding: `u16`, `u32`, `u64`,
/// `u128` and `usize`. Sealed.
///
/// | type | [`MAX_LEN`](Varint::MAX_LEN) | [`LAST_BYTE_MAX`](Varint::LAST_BYTE_MAX) |
/// |---|---|---|
/// | `u16` | 3 | `0x03` |
/// | `u32` | 5 | `0x0F` |
/// | `u64` | 10 | `0x01` |
/// | `u128` | 19 | `0x03` |
/// | `usize` | as the integer of its width | |
///
/// `u8` is left out on purpose: protobuf has no 8-bit varint, and a byte is
/// better stored as itself.
pub trait Varint:
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
    /// The longest encoding, in bytes: `ceil(BITS / 7)`. Decoders never look
    /// at more bytes than this.
    const MAX_LEN: usize;
    /// The largest value the `MAX_LEN`-th byte may have: it carries the
    /// `BITS − 7·(MAX_LEN − 1)` top bits of the value and no continuation
    /// bit. Anything larger is [`DecodeError::Overflow`].
    const LAST_BYTE_MAX: u8;
}

/// Stamps out the types that fit in a `u64` register.
macro_rules! in_u64 {
    ($($t:ty, $max:literal, $last:literal $(, $bulk:ident, $encode:ident, $lens:ident)?;)*) => {$(
        impl sealed::Sealed for $t {
            #[inline(always)]
            fn len(self) -> usize {
                len_from_bits(<$t>::BITS - (self | 1).leading_zeros())
            }
            #[inline(always)]
            fn put(self, buf: &mut [u8]) -> Option<usize> {
                scalar::put_u64::<$max>(self as u64, buf)
            }
            #[inline(always)]
            fn read<const STRICT: bool>(buf: &[u8]) -> Result<(Self, usize), DecodeError> {
                match scalar::read_u64::<$max, $last, STRICT>(buf) {
                    // The limits above keep the value within the type.
                    Ok((v, n)) => Ok((v as $t, n)),
                    Err(e) => Err(e),
                }
            }
            #[inline(always)]
            fn from_byte(b: u8) -> Self {
                b.into()
            }
            #[inline(always)]
            fn from_u56(v: u64) -> Self {
                v as $t
            }
            $(
            #[inline(always)]
            fn bulk<const STRICT: bool>(
                decoder: crate::KernelCodec,
                input: &[u8],
                out: &mut [Self],
            ) -> (usize, usize) {
                decoder.$bulk::<STRICT>(input, out)
            }
            #[inline(always)]
            fn bulk_encode(
                codec: crate::KernelCodec,
                values: &[Self],
                out: &mut [u8],
            ) -> Option<(usize, usize)> {
                codec.$encode(values, out)
            }
            #[inline(always)]
            fn bulk_len(codec: crate::KernelCodec, values: &[Self]) -> usize {
                codec.$lens(values)
            }
            )?
        }
        impl Varint for $t {
            const MAX_LEN: usize = $max;
            const LAST_BYTE_MAX: u8 = $last;
        }
    )*};
}

in_u64! {
    u16, 3, 0x03;
    u32, 5, 0x0F, run_u32, run_encode_u32, run_len_u32;
    u64, 10, 0x01, run_u64, run_encode_u64, run_len_u64;
}

#[cfg(target_pointer_width = "16")]
in_u64! { usize, 3, 0x03; }
#[cfg(target_pointer_width = "32")]
in_u64! { usize, 5, 0x0F, run_usize, run_encode_usize, run_len_usize; }
#[cfg(target_pointer_width = "64")]
in_u64! { usize, 10, 0x01, run_usize, run_encode_usize, run_len_usize; }

impl sealed::Sealed for u128 {
    #[inline(always)]
    fn len(self) -> usize {
        len_from_bits_128(u128::BITS - (self | 1).leading_zeros())
    }
    #[inline]
    fn put(self, buf: &mut [u8]) -> Option<usize> {
        scalar::put_u128(self, buf)
    }
    #[inline]
    fn read<const STRICT: bool>(buf: &[u8]) -> Result<(Self, usize), DecodeError> {
        scalar::read_u128::<
            { <u128 as Varint>::MAX_LEN },
            { <u128 as Varint>::LAST_BYTE_MAX },
            STRICT,
        >(buf)
    }
    #[inline(always)]
    fn from_byte(b: u8) -> Self {
        b.into()
    }
    #[inline(always)]
    fn from_u56(v: u64) -> Self {
        v.into()
    }
}

impl Varint for u128 {
    const MAX_LEN: usize = 19;
    const LAST_BYTE_MAX: u8 = 0x03;
}

// The table in the trait docs, checked: the last byte holds what is left of
// the width after MAX_LEN − 1 groups of 7 bits.
const _: () = {
    const fn check(bits: u32, max_len: usize, last: u8) {
        assert!(max_len == len_from_bits_128(bits));
        assert!(last as u32 == (1 << (bits - 7 * (max_len as u32 - 1))) - 1);
    }
    check(16, <u16 as Varint>::MAX_LEN, <u16 as Varint>::LAST_BYTE_MAX);
    check(32, <u32 as Varint>::MAX_LEN, <u32 as Varint>::LAST_BYTE_MAX);
    check(64, <u64 as Varint>::MAX_LEN, <u64 as Varint>::LAST_BYTE_MAX);
    check(
        128,
        <u128 as Varint>::MAX_LEN,
        <u128 as Varint>::LAST_BYTE_MAX,
    );
    check(
        usize::BITS,
        <usize as Varint>::MAX_LEN,
        <usize as Varint>::LAST_BYTE_MAX,
    );
};
