#![doc = include_str!("../README.md")]
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
//! - [`from_utf8_mut`]: the same for `&mut [u8]`.
//! - [`Validator`]: chunks (network reads, file blocks) with exact absolute
//!   error offsets, reported by the chunk that holds the offending byte, in
//!   at most 3 bytes of state.
//! - [`chunks`]: std's `utf8_chunks` (valid runs and the invalid pieces
//!   between them, as `String::from_utf8_lossy` sees them), with offsets and
//!   error kinds.
//! - [`reader`] and [`repair`] (feature `std`): the same pieces from any
//!   `std::io::Read` in bounded memory, and a lossy `Read -> Write` copy
//!   equal to `String::from_utf8_lossy`.
//! - [`Simd`] (dispatched), [`Avx512`], [`Avx2`], [`Sse41`], [`Neon`] and
//!   [`Portable`] implement [`Utf8Validator`] for generic code; all but the
//!   first name one kernel each and answer as the free functions do on a CPU
//!   whose best kernel that is (the same short-input paths, then that
//!   kernel). [`kernels`] lists every kernel compiled for the target, as
//!   [`KernelValidator`]s that run their kernel on every input.
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
//! bytes, an ASCII check with overlapping 8-byte words, then the kernel's
//! registers without its block loop; 64 and 67 to 128 bytes, one ASCII test
//! over the first and the last 64-byte block, then those two blocks, with
//! no loop and no tail.
//!
//! # Streaming
//!
//! [`Validator`] is codec-core's one streaming engine
//! ([`Streaming`](codec_core::Streaming)) over [`Simd`]. It keeps the at most
//! 3 bytes of a character split between chunks; each `update` finishes that
//! character, runs the kernel on the chunk up to its own unfinished last
//! character, and carries that one to the next call; errors are computed on
//! the slice that holds them and moved to their absolute position with
//! [`Utf8Error::offset_by`]. Valid text split anywhere never takes the error
//! path, so streaming in 4 KiB chunks runs at the one-shot speed.
//!
//! # Exactness
//!
//! Valid input is whatever the kernel accepts; both the kernel and std
//! follow RFC 3629, and the tests compare them on every 1- to 3-byte
//! sequence, on conformance suites, on random and mutated input and on every
//! invalid sequence placed around every block boundary. On failure, the
//! kernel reports a position before which the input is a valid prefix; the
//! error is then found by utf8-dfa's exact scalar validator, starting at the
//! start of the character there (at most 4 bytes back), and
//! built by [`Utf8Error::at`], so `valid_up_to`, `error_len` and the kind are
//! those of every other codec in the workspace and of std.
//!
//! # Crate features
//!
//! - `std` (default): [`reader`] and [`repair`] over `std::io`; implies
//!   `alloc`.
//! - `alloc`: [`string_from_utf8`] (std's `String::from_utf8` with this
//!   crate's validator); forwarded to codec-core and utf8-dfa.
//!
//! The kernel is chosen at run time with or without `std` (CPU detection
//! with `cpuid`, through `codec_arch`), and AVX-512 is preferred
//! where the CPU has it (1.2 to 1.7 times the AVX2 kernel's speed on
//! non-ASCII text, measured on an Intel Sapphire Rapids); name a kernel
//! ([`Avx2::new`]) to run another.
//!
//! # Platforms and policies
//!
//! - x86-64: SSE4.1, AVX2 and AVX-512 kernels, chosen at run time.
//! - aarch64: the NEON kernel, chosen at compile time (NEON is part of every
//!   aarch64 target but the `softfloat` ones), tested under qemu by `cargo
//!   xtask cross`.
//! - Every other target: the portable scalar validator (utf8-dfa), which is
//!   exact but several times slower.
//! - `#![no_std]` without the `std` feature. MSRV: Rust 1.89 (the AVX-512
//!   intrinsics).
//! - `unsafe` code (intrinsics, the cached kernel pointer, unchecked `&str`
//!   conversion of validated bytes) lives only in the `arch` module, each
//!   block with the reason it is sound.
//!
//! Sibling crates: [`codec-core`](https://docs.rs/codec-core) (the error
//! type, traits and streaming engine), [`utf8-dfa`](https://docs.rs/utf8-dfa)
//! (the scalar validator and decoders), [`utf8-table`](https://docs.rs/utf8-table),
//! and the facade [`codec-facade`](https://docs.rs/codec-facade).
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[allow(unsafe_code)]
mod arch;
mod exact;
mod scalar;
mod short;
pub mod tables;
pub mod variant;

pub use arch::{Avx2, Avx512, Kernel, KernelValidator, Neon, Sse41, chosen_kernel, kernels};
#[cfg(feature = "alloc")]
pub use codec_core::FromUtf8Error;
pub use codec_core::{
    StreamingValidator, Utf8Chunk, Utf8Chunks, Utf8Error, Utf8ErrorKind, Utf8Validator,
};
pub use scalar::Portable;

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

    fn from_utf8_mut<'a>(&self, input: &'a mut [u8]) -> Result<&'a mut str, Utf8Error> {
        from_utf8_mut(input)
    }

    fn valid_prefix<'a>(&self, input: &'a [u8]) -> (&'a str, Option<Utf8Error>) {
        match validate(input) {
            Ok(()) => (arch::valid_str(input), None),
            Err(e) => (arch::valid_str(&input[..e.valid_up_to()]), Some(e)),
        }
    }
}

/// A streaming validator with std-exact, absolute error positions: feed
/// chunks with `update`, end with `finish`. It is codec-core's streaming
/// engine over [`Simd`]: an error is returned by the `update` whose chunk
/// holds the byte that proves it (only an input that stops inside a
/// character waits for `finish`), its `valid_up_to` counts from the first
/// byte of the first chunk, and it is sticky. It keeps at most 3 bytes of
/// input; `position()` counts every byte fed.
///
/// ```
/// use utf8_simd::Validator;
///
/// let mut v = Validator::new();
/// assert!(v.update("caf".as_bytes()).is_ok());
/// assert!(v.update(b"\xC3").is_ok()); // the first byte of 'é'
/// let err = v.update(b"\xA9 ok \xFF").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (9, Some(1)));
/// assert_eq!(v.finish(), Err(err)); // sticky
/// ```
pub type Validator = codec_core::Streaming<Simd>;

/// The pieces of `input` as `String::from_utf8_lossy` sees them: std's
/// `<[u8]>::utf8_chunks`, validated with the SIMD kernel, with the offset
/// and kind of every invalid piece.
///
/// ```
/// let input = b"caf\xC3\xA9 \xFF ok \xE2\x82";
/// for chunk in utf8_simd::chunks(input) {
///     if let Some(kind) = chunk.kind() {
///         println!("{} at byte {}: {:02X?}", kind, chunk.invalid_offset(), chunk.invalid());
///     }
/// }
/// let lossy: String = utf8_simd::chunks(input)
///     .flat_map(|c| [c.valid(), if c.invalid().is_empty() { "" } else { "\u{FFFD}" }])
///     .collect();
/// assert_eq!(lossy, String::from_utf8_lossy(input));
/// ```
#[must_use]
pub fn chunks(input: &[u8]) -> Utf8Chunks<'_, Simd> {
    Utf8Chunks::new(input, Simd)
}

/// Cuts any reader into the pieces of [`chunks`], with absolute offsets, in
/// one buffer of 256 KiB: see [`codec_core::io::Utf8Reader`].
///
/// ```
/// let input: &[u8] = b"first\nsecond \xFF\n";
/// let mut r = utf8_simd::reader(input);
/// let mut bad = Vec::new();
/// while let Some(chunk) = r.next_chunk()? {
///     if chunk.kind().is_some() {
///         bad.push(chunk.invalid_offset());
///     }
/// }
/// assert_eq!(bad, [13]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
#[must_use]
pub fn reader<R: std::io::Read>(reader: R) -> codec_core::io::Utf8Reader<R, Simd> {
    codec_core::io::Utf8Reader::new(reader, Simd)
}

/// Reads `reader` to its end and checks that it is UTF-8, in one buffer of
/// 256 KiB: the number of bytes read, or the first invalid piece with its
/// byte offset, line and column.
///
/// ```
/// use codec_core::io::ReadError;
/// let file: &[u8] = b"first line\nsecond \xE2\x82 line\n";
/// match utf8_simd::validate_reader(file) {
///     Err(ReadError::Invalid(e)) => {
///         assert_eq!((e.offset(), e.line(), e.column(), e.error_len()), (18, 2, 8, Some(2)));
///     }
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(utf8_simd::validate_reader(&b"ok\n"[..]).ok(), Some(3));
/// ```
///
/// # Errors
///
/// [`ReadError::Io`](codec_core::io::ReadError::Io) if reading fails,
/// [`ReadError::Invalid`](codec_core::io::ReadError::Invalid) at the first
/// invalid piece.
#[cfg(feature = "std")]
pub fn validate_reader<R: std::io::Read>(reader: R) -> Result<u64, codec_core::io::ReadError> {
    self::reader(reader).validate()
}

/// Copies `reader` to `writer`, replacing each invalid piece with one
/// U+FFFD: byte for byte `String::from_utf8_lossy` of the input, in bounded
/// memory. The writer is flushed at the end.
///
/// ```
/// let mut out = Vec::new();
/// let done = utf8_simd::repair(&b"ok \xED\xA0\x80 \xE2\x82"[..], &mut out)?;
/// assert_eq!(out, String::from_utf8_lossy(b"ok \xED\xA0\x80 \xE2\x82").as_bytes());
/// assert_eq!(done.replaced, 4);
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
pub fn repair<R: std::io::Read, W: std::io::Write>(
    reader: R,
    writer: W,
) -> std::io::Result<codec_core::io::Repaired> {
    self::reader(reader).repair(writer)
}

/// Whether `input` is well-formed UTF-8: the fastest path, without a
/// position.
///
/// ```
/// assert!(utf8_simd::is_valid(b"plain ASCII"));
/// assert!(!utf8_simd::is_valid(b"\xC0\xAF"));
/// ```
#[inline]
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    is_valid_with(input, arch::is_valid_blocks)
}

/// [`is_valid`] with `kernel` for the inputs that reach a kernel: the route
/// of the free functions and of the per-ISA validators ([`Avx2`], [`Neon`],
/// ...), which so answer as the free functions do on a CPU whose best kernel
/// they name.
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
    // The input stays live across this call (three saved registers in the
    // per-ISA wrappers); locating inside the kernel entry instead measured
    // within the noise on Zen 4.
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
    validate(input)?;
    Ok(arch::valid_str(input))
}

/// `bytes` as a `String`, without copying them, or the bytes given back
/// with exactly the error `String::from_utf8` reports, with its kind: std's
/// `String::from_utf8` with this crate's validator (std's runs byte by byte
/// outside ASCII).
///
/// ```
/// let s = utf8_simd::string_from_utf8(b"caf\xC3\xA9".to_vec()).unwrap();
/// assert_eq!(s, "café");
///
/// let err = utf8_simd::string_from_utf8(b"caf\xC3".to_vec()).unwrap_err();
/// assert_eq!(err.utf8_error().valid_up_to(), 3);
/// assert_eq!(err.into_bytes(), b"caf\xC3");
/// ```
#[cfg(feature = "alloc")]
pub fn string_from_utf8(
    bytes: alloc::vec::Vec<u8>,
) -> Result<alloc::string::String, FromUtf8Error> {
    match validate(&bytes) {
        Ok(()) => Ok(arch::valid_string(bytes)),
        Err(e) => Err(FromUtf8Error::new(bytes, e)),
    }
}

/// `input` as a `&mut str`, or exactly the error `core::str::from_utf8_mut`
/// reports, with its kind.
///
/// ```
/// let mut bytes = *b"caf\xC3\xA9";
/// utf8_simd::from_utf8_mut(&mut bytes).unwrap().make_ascii_uppercase();
/// assert_eq!(&bytes, "CAFé".as_bytes());
/// ```
#[inline]
pub fn from_utf8_mut(input: &mut [u8]) -> Result<&mut str, Utf8Error> {
    validate(input)?;
    Ok(arch::valid_str_mut(input))
}
