#![doc = include_str!("../README.md")]
//!
//! ZigZag interleaves the signed integers into the unsigned ones:
//! 0 → 0, −1 → 1, 1 → 2, −2 → 3, 2 → 4, …, `MAX` → `UMAX − 1`,
//! `MIN` → `UMAX`. A varint of the result is short whenever the magnitude is
//! small, whatever the sign, which a two's-complement varint is not (−1 as a
//! protobuf `int64` takes 10 bytes, as a `sint64` 1 byte).
//!
//! # Example
//!
//! ```
//! assert_eq!(zigzag::encode(-1i64), 1u64);
//! assert_eq!(zigzag::decode(4u64), 2i64);
//!
//! // Every width, the type picked by the argument.
//! assert_eq!(zigzag::encode(i8::MIN), u8::MAX);
//! assert_eq!(zigzag::decode(u128::MAX - 1), i128::MAX);
//!
//! // In `const` context, one function per width.
//! const TWO: u32 = zigzag::encode_i32(1);
//! assert_eq!(TWO, 2);
//!
//! // Bulk conversion, which the compiler vectorises.
//! let signed = [0i32, -1, 1, -2, i32::MIN];
//! let mut unsigned = [0u32; 5];
//! assert_eq!(zigzag::encode_slice(&signed, &mut unsigned), 5);
//! assert_eq!(unsigned, [0, 1, 2, 3, u32::MAX]);
//! ```
//!
//! # API
//!
//! - [`encode`] and [`decode`]: generic over every width (`i8`, `i16`, `i32`,
//!   `i64`, `i128`, `isize` and their unsigned counterparts) through the
//!   [`ZigZag`] trait and its inverse [`Unzig`]; the width follows from the
//!   argument's type.
//! - `encode_i8` … `encode_isize`, `decode_u8` … `decode_usize`: the same
//!   functions as `const fn`. Stable Rust cannot call trait methods in
//!   `const` context, so the generic functions cannot be `const`; these can.
//! - [`encode_slice`] and [`decode_slice`]: bulk conversion of slices.
//!
//! # Exactness
//!
//! The mapping is protobuf's, `(n << 1) ^ (n >> (BITS − 1))` with an
//! arithmetic shift, and its inverse `(u >> 1) ^ −(u & 1)`. Both are total
//! bijections computed with shifts and xor only, so no input overflows or
//! panics (`MIN` and `MAX` included, with overflow checks on). The tests check
//! protobuf-go's vectors, every `i8` and `i16`, round trips of random values
//! of every width, and the order-preserving interleaving above.
//!
//! # Crate features
//!
//! None that change behaviour: `std` (default) and `alloc` exist so the facade
//! can forward one feature to every codec. The crate is `#![no_std]`.
//!
//! # Reference
//!
//! Protocol Buffers, "Encoding", section "Signed Integers"
//! (<https://protobuf.dev/programming-guides/encoding/#signed-ints>).
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

mod sealed {
    /// Only this crate implements [`ZigZag`](super::ZigZag) and
    /// [`Unzig`](super::Unzig).
    #[allow(unreachable_pub)] // Public in a private module: the sealed-trait pattern.
    pub trait Sealed {}
}

/// A signed integer type with a zigzag mapping to the unsigned type of the
/// same width. Implemented for `i8`, `i16`, `i32`, `i64`, `i128` and `isize`;
/// sealed.
pub trait ZigZag: sealed::Sealed + Copy {
    /// The unsigned type of the same width.
    type Unsigned: Unzig<Signed = Self>;

    /// `(self << 1) ^ (self >> (BITS − 1))`.
    #[must_use]
    fn zigzag(self) -> Self::Unsigned;
}

/// An unsigned integer type that zigzag-decodes to the signed type of the
/// same width: the inverse of [`ZigZag`]. Implemented for `u8`, `u16`, `u32`,
/// `u64`, `u128` and `usize`; sealed.
///
/// It exists so that [`decode`] can take its width from its argument.
pub trait Unzig: sealed::Sealed + Copy {
    /// The signed type of the same width.
    type Signed: ZigZag<Unsigned = Self>;

    /// `(self >> 1) ^ −(self & 1)`.
    #[must_use]
    fn unzig(self) -> Self::Signed;
}

/// Zigzag-encodes `n`: `(n << 1) ^ (n >> (BITS − 1))`, for every signed width.
///
/// ```
/// assert_eq!(zigzag::encode(-3i64), 5u64);
/// assert_eq!(zigzag::encode(i16::MAX), u16::MAX - 1);
/// ```
#[must_use]
#[inline]
pub fn encode<T: ZigZag>(n: T) -> T::Unsigned {
    n.zigzag()
}

/// Zigzag-decodes `n`, the inverse of [`encode`], for every unsigned width.
///
/// ```
/// assert_eq!(zigzag::decode(5u64), -3i64);
/// assert_eq!(zigzag::decode(u16::MAX), i16::MIN);
/// ```
#[must_use]
#[inline]
pub fn decode<U: Unzig>(n: U) -> U::Signed {
    n.unzig()
}

/// Encodes `src[i]` into `dst[i]` for every index both slices have, and
/// returns how many that is (the shorter length).
///
/// The loop has no branch and no bounds check inside, so the compiler
/// vectorises it.
///
/// ```
/// let mut out = [0u64; 3];
/// assert_eq!(zigzag::encode_slice(&[-1i64, 1], &mut out), 2);
/// assert_eq!(out, [1, 2, 0]);
/// ```
#[inline]
pub fn encode_slice<T: ZigZag>(src: &[T], dst: &mut [T::Unsigned]) -> usize {
    let n = src.len().min(dst.len());
    for (d, &s) in dst[..n].iter_mut().zip(&src[..n]) {
        *d = s.zigzag();
    }
    n
}

/// Decodes `src[i]` into `dst[i]` for every index both slices have, and
/// returns how many that is (the shorter length).
///
/// ```
/// let mut out = [0i32; 2];
/// assert_eq!(zigzag::decode_slice(&[1u32, 2, 3], &mut out), 2);
/// assert_eq!(out, [-1, 1]);
/// ```
#[inline]
pub fn decode_slice<U: Unzig>(src: &[U], dst: &mut [U::Signed]) -> usize {
    let n = src.len().min(dst.len());
    for (d, &s) in dst[..n].iter_mut().zip(&src[..n]) {
        *d = s.unzig();
    }
    n
}

/// Stamps out the `const fn`s and trait impls of one width.
macro_rules! widths {
    ($($s:ident $u:ident $enc:ident $dec:ident;)*) => {$(
        #[doc = concat!("Zigzag-encodes an `", stringify!($s), "` (`const`).")]
        ///
        /// `(n << 1) ^ (n >> (BITS − 1))`; shifts and xor only, so `MIN` and
        /// `MAX` cannot overflow.
        #[must_use]
        #[inline]
        pub const fn $enc(n: $s) -> $u {
            // `<<` discards the sign bit (no overflow check applies to
            // shifts by less than BITS); `>>` is arithmetic: all ones for
            // negative `n`, which flips the other bits.
            ((n << 1) ^ (n >> ($s::BITS - 1))) as $u
        }

        #[doc = concat!("Zigzag-decodes a `", stringify!($u), "` (`const`), the inverse of [`", stringify!($enc), "`].")]
        #[must_use]
        #[inline]
        pub const fn $dec(n: $u) -> $s {
            // `0 - (n & 1)` as a wrapping negation: all ones when the low bit
            // is set, which flips the magnitude back.
            ((n >> 1) ^ (n & 1).wrapping_neg()) as $s
        }

        impl sealed::Sealed for $s {}
        impl sealed::Sealed for $u {}

        impl ZigZag for $s {
            type Unsigned = $u;
            #[inline]
            fn zigzag(self) -> $u {
                $enc(self)
            }
        }

        impl Unzig for $u {
            type Signed = $s;
            #[inline]
            fn unzig(self) -> $s {
                $dec(self)
            }
        }
    )*};
}

widths! {
    i8    u8    encode_i8    decode_u8;
    i16   u16   encode_i16   decode_u16;
    i32   u32   encode_i32   decode_u32;
    i64   u64   encode_i64   decode_u64;
    i128  u128  encode_i128  decode_u128;
    isize usize encode_isize decode_usize;
}

#[cfg(test)]
mod tests;
