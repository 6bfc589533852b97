//! Keiser–Lemire SIMD UTF-8 validation, with runtime CPU dispatch, errors
//! exactly as `core::str::from_utf8` reports them, and streaming with exact
//! absolute error offsets.
//!
//! # Example
//!
//! ```
//! use utf8_simd::{Utf8ErrorKind, Validator};
//!
//! // The fastest answer, without a position.
//! assert!(utf8_simd::is_valid("Grüße, 世界 😀".as_bytes()));
//!
//! // std's answer, plus why.
//! assert_eq!(utf8_simd::from_utf8("吕".as_bytes()), Ok("吕"));
//! let err = utf8_simd::validate(b"ab\xED\xA0\x80").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(1)));
//! assert_eq!(err.kind(), Utf8ErrorKind::Surrogate);
//!
//! // Streaming: the error position counts from the first chunk.
//! let mut v = Validator::new();
//! v.update("🦀 ".as_bytes()).unwrap();
//! v.update(b"ok \xF0\x9F").unwrap(); // an unfinished character is fine...
//! assert_eq!(v.update(b"x").unwrap_err().valid_up_to(), 8); // ...until it is not
//! ```
//!
//! # Which function
//!
//! - [`is_valid`]: a yes or no, as fast as this crate goes. It never
//!   computes a position.
//! - [`validate`] and [`from_utf8`]: within about 1% of `is_valid` on valid
//!   input (the same kernel, which also tests its error register every 256
//!   bytes); on invalid input they re-read the failing 256-byte group with
//!   the scalar validator to report std's exact `valid_up_to`, `error_len`
//!   and an error kind.
//! - [`Validator`]: chunks (network reads, file blocks) with exact absolute
//!   error offsets, reported by the chunk that holds the offending byte, in
//!   at most 3 bytes of state.
//! - [`Simd`] (dispatched), [`Avx2`], [`Sse42`], [`Neon`] and [`Portable`]
//!   (and `Avx512` with the `avx512` feature) implement [`Utf8Validator`]
//!   for generic code; all but the first name one kernel each, for tests and
//!   benchmarks, and answer exactly as the dispatched functions do on a CPU
//!   whose best kernel that is (the same short-input paths, then that
//!   kernel).
//!
//! # The algorithm
//!
//! John Keiser and Daniel Lemire, "Validating UTF-8 In Less Than One
//! Instruction Per Byte", Software: Practice and Experience 51(5), 2021
//! (arXiv:2010.03090), as in simdjson and simdutf8.
//!
//! Every error in UTF-8 shows in a pair of adjacent bytes, except that a
//! continuation byte may follow another only as the 3rd or 4th byte of a
//! character. For each byte, the kernel looks up three 16-entry tables with
//! one byte shuffle each: [`tables::BYTE_1_HIGH`] by the high nibble of the
//! previous byte, [`tables::BYTE_1_LOW`] by its low nibble, and
//! [`tables::BYTE_2_HIGH`] by the high nibble of the byte itself. Each bit of
//! an entry is one error class ([`tables::TOO_SHORT`],
//! [`tables::OVERLONG_2`], ...), and the AND of the three entries keeps a bit
//! only where the pair matches that class. A second check marks the bytes 2
//! and 3 places after a 3- and 4-byte lead, which must be continuation bytes;
//! XORed with the [`tables::TWO_CONTS`] bit it flags both missing and
//! surplus continuations. A block whose bytes are all ASCII skips all of this
//! and only checks that the block before it did not end inside a character.
//!
//! The kernels read 64-byte blocks (4 SSE, 2 AVX2 or 1 AVX-512 register),
//! OR the error bits into one register and test it at the end of every run
//! of non-ASCII blocks (and, for `validate`, every 256 bytes). Runs of
//! ASCII blocks go through a loop of their own that only ORs and tests 128
//! bytes at a time, at 64-byte-aligned addresses. Nothing reads past the end
//! of the slice: the input's last bytes are read as a 64-byte block that
//! overlaps the one before it, or, for inputs under 64 + one register,
//! register by register with the last one assembled from at most three
//! overlapping scalar loads and zero-filled.
//!
//! Short inputs take the path that measured fastest at their size (see
//! `docs/results/utf8-simd.md`): up to 8 bytes, a plain byte loop; 9 to 63
//! bytes, an ASCII check with overlapping 8-byte words, then the kernel.
//!
//! # Streaming
//!
//! [`Validator`] keeps the at most 3 bytes of a character split between
//! chunks. Each `update` finishes that character with the scalar path, runs
//! the kernel on the chunk up to its own unfinished last character, and
//! keeps that one for the next call; errors are computed on the slice that
//! holds them and moved to their absolute position with
//! [`Utf8Error::offset_by`]. Valid text split anywhere never takes the
//! error path, so streaming in 4 KiB chunks runs at the one-shot speed.
//!
//! # Exactness
//!
//! Valid input is whatever the kernel accepts; both the kernel and std
//! follow RFC 3629, and the tests compare them on every 1- to 3-byte
//! sequence, on conformance suites, on random and mutated input and on every
//! invalid sequence placed around every block boundary. On failure, the
//! kernel reports a position before which the input is a valid prefix; the
//! error is then found by utf8-dfa's exact scalar validator, starting at most
//! 3 bytes before that position (the start of the character there), and
//! built by [`Utf8Error::at`], so `valid_up_to`, `error_len` and the kind are
//! those of every other codec in the workspace and of std.
//!
//! # Crate features
//!
//! - `std` (default): detect the CPU's features at run time (once; the
//!   choice is cached in a static function pointer). Without it the kernel
//!   is chosen at compile time from the enabled target features (build with
//!   `-C target-feature=+avx2` or `-C target-cpu=native` to get SIMD).
//! - `alloc`: forwarded to codec-core and utf8-dfa.
//! - `avx512` (default): the AVX-512 (F and BW) kernel and `Avx512`, which
//!   the runtime dispatch prefers where the CPU has both; 1.2 to 1.7 times
//!   the AVX2 kernel's speed on non-ASCII text. Its intrinsics need Rust
//!   1.89, the crate's rust-version. Turn it off (`default-features = false,
//!   features = ["std"]`) to keep the AVX2 kernel on AVX-512 machines.
//!
//! The crate is `#![no_std]`. Its only `unsafe` code (intrinsics, the cached
//! function pointer, the unchecked `&str` conversion) lives in its `arch`
//! module.
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

#[allow(unsafe_code)]
mod arch;
mod exact;
mod scalar;
mod short;
mod stream;
pub mod tables;

#[cfg(feature = "avx512")]
pub use arch::Avx512;
pub use arch::{Avx2, Neon, Sse42};
pub use codec_core::{StreamingValidator, Utf8Error, Utf8ErrorKind, Utf8Validator};
pub use scalar::Portable;
pub use stream::Validator;

/// The dispatched validator (the free functions of this crate), for generic
/// code over [`Utf8Validator`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Simd;

impl Utf8Validator for Simd {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        validate(input)
    }

    fn is_valid(&self, input: &[u8]) -> bool {
        is_valid(input)
    }

    fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
        from_utf8(input)
    }
}

/// Whether `input` is well-formed UTF-8: the fastest path, without a
/// position.
///
/// ```
/// assert!(utf8_simd::is_valid(b"plain ASCII"));
/// assert!(!utf8_simd::is_valid(b"\xC0\xAF"));
/// ```
#[inline]
pub fn is_valid(input: &[u8]) -> bool {
    is_valid_with(input, arch::is_valid_blocks)
}

/// [`is_valid`] with `kernel` for the inputs that reach a kernel: the one
/// route every validator of the crate takes, so that a named kernel
/// ([`Avx2`], [`Neon`], ...) answers as the dispatched functions do on a
/// CPU whose best kernel it is.
#[inline(always)]
fn is_valid_with(input: &[u8], kernel: impl FnOnce(&[u8]) -> bool) -> bool {
    if input.len() < short::SHORT {
        if short::is_ascii(input) {
            return true;
        }
        if input.len() <= short::TINY {
            return short::tiny_is_valid(input);
        }
    }
    kernel(input)
}

/// `Ok(())` if `input` is well-formed UTF-8, else exactly the error
/// `core::str::from_utf8` reports, with its kind.
///
/// ```
/// let err = utf8_simd::validate(b"ab\xC0\x80").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(1)));
/// ```
#[inline]
pub fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    validate_with(input, arch::validate_blocks)
}

/// [`validate`] with `kernel` (a kernel with checkpoints) for the inputs
/// that reach a kernel; see [`is_valid_with`].
#[inline(always)]
fn validate_with(
    input: &[u8],
    kernel: impl FnOnce(&[u8]) -> Result<(), usize>,
) -> Result<(), Utf8Error> {
    if input.len() < short::SHORT {
        if short::is_ascii(input) {
            return Ok(());
        }
        if input.len() <= short::TINY {
            return match short::tiny_is_valid(input) {
                true => Ok(()),
                false => exact::locate(input, 0),
            };
        }
    }
    match kernel(input) {
        Ok(()) => Ok(()),
        Err(pos) => exact::locate(input, pos),
    }
}

/// `input` as a `&str`, or exactly the error `core::str::from_utf8`
/// reports, with its kind.
///
/// ```
/// assert_eq!(utf8_simd::from_utf8(b"caf\xC3\xA9"), Ok("café"));
/// ```
#[inline]
pub fn from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    arch::from_utf8(input)
}
