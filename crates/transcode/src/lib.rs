#![doc = include_str!("../README.md")]
//!
//! # Example
//!
//! ```
//! // Validating: std's answer, into a buffer you own.
//! let mut utf16 = [0u16; 16];
//! let n = transcode::utf8_to_utf16("héllo 😀".as_bytes(), &mut utf16)?;
//! assert_eq!(&utf16[..n], "héllo 😀".encode_utf16().collect::<Vec<_>>());
//!
//! // And back, with the error std's `char::decode_utf16` reports.
//! let mut utf8 = [0u8; 32];
//! let n = transcode::utf16_to_utf8(&utf16[..n], &mut utf8)?;
//! assert_eq!(&utf8[..n], "héllo 😀".as_bytes());
//! let err = transcode::utf16_to_utf8(&[0x61, 0xD800, 0x62], &mut utf8).unwrap_err();
//! assert_eq!(err.invalid().map(|e| e.valid_up_to()), Some(1));
//!
//! // Lossy, byte for byte what std writes.
//! let lossy = transcode::utf8_to_utf16_lossy_vec(b"ab\xF0\x9F\x98 c");
//! let std: Vec<u16> = String::from_utf8_lossy(b"ab\xF0\x9F\x98 c").encode_utf16().collect();
//! assert_eq!(lossy, std);
//!
//! // Lengths and counts, without converting.
//! assert_eq!(transcode::utf16_len("héllo 😀"), 8);
//! assert_eq!(transcode::count_chars("héllo 😀"), 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Which function
//!
//! Each conversion `X → Y` comes in these forms (`_lossy`, `_partial`,
//! `_vec`/`_string` are suffixes of its name, as in `utf8_to_utf16_lossy`):
//!
//! | form | input | on malformed input | output |
//! |---|---|---|---|
//! | `x_to_y` | any | error, with the valid prefix converted | your slice |
//! | `x_to_y_lossy` | any | U+FFFD, as std's lossy functions | your slice |
//! | `str_to_y` | `&str` | cannot happen; no validation | your slice |
//! | `x_to_y_partial`, `x_to_y_lossy_partial` | any | as above | your slice, as much as fits |
//! | `x_to_y_vec`, `x_to_string` (and `_lossy`) | any | as above | a new `Vec` or `String` |
//!
//! Into a slice, an output that is too small is an error
//! ([`ErrorKind::BufferTooSmall`], which says how much is needed), never a
//! panic or a write past the end; the `_partial` forms convert what fits and
//! report how far they got ([`Progress`]), for streaming into fixed buffers.
//! On any error the output holds exactly the conversion of the input before
//! the error, and nothing after it is touched.
//!
//! UTF-16 held in bytes (files, network protocols) has `_bytes` forms with an
//! [`Endianness`]: [`utf8_to_utf16_bytes`], [`utf16_bytes_to_utf8`]. Decoding
//! strips a byte-order mark of that order unless a [`ByteOrder`] says to keep
//! or reject it, and its errors count bytes from the start of the input
//! ([`Utf16Error::byte_offset`]); [`utf8_len_from_utf16_bytes`] and
//! [`count_chars_utf16_bytes`] measure such input without converting it. UTF-16
//! and UTF-32 input have no separate "known valid" form: their validation is
//! a comparison the kernels make anyway.
//!
//! Counts and lengths: [`count_chars`], [`count_chars_utf16`],
//! [`utf16_len`], [`utf8_len_from_utf16`], [`utf8_len_from_latin1`],
//! [`utf8_len_from_utf32`], [`utf16_len_from_utf32`]. Cutting at a character
//! boundary: [`floor_char_boundary_utf8`], [`floor_char_boundary_utf16`].
//!
//! Each conversion is also a type of the [`direction`] module's table
//! ([`direction::Utf32ToLatin1`], …), and every form above is a generic
//! method of [`Transcoder`] over it: [`Transcoder::convert`],
//! [`convert_partial`](Transcoder::convert_partial),
//! [`convert_vec`](Transcoder::convert_vec) and, for the [`Lossy`]
//! directions (all but those into Latin-1), the lossy ones. The named
//! functions are those forms; the generic ones serve code written once for
//! every direction ([`direction::for_each`] lists them).
//!
//! The free functions use the fastest kernels this CPU has.
//! [`Transcoder`] has the same functions as methods, with one named set of
//! kernels (`Transcoder::avx2()`, `Transcoder::portable()`, [`kernels`]), for tests
//! and benchmarks.
//!
//! # Errors
//!
//! - From UTF-8: codec-core's [`Utf8Error`], exactly what
//!   `core::str::from_utf8` reports (`valid_up_to`, `error_len`), plus why.
//! - From UTF-16: [`Utf16Error`], the index in code units of the first
//!   unpaired surrogate as `char::decode_utf16` finds it, and whether it is a
//!   lead surrogate at the very end (more input could complete it).
//! - From UTF-32: [`Utf32Error`], the index of the first surrogate or value
//!   above U+10FFFF.
//! - To Latin-1: [`ErrorKind::NotLatin1`], at the first character above
//!   U+00FF.
//!
//! # Streaming
//!
//! [`Utf8ToUtf16Stream`] and [`Utf16ToUtf8Stream`] take the input in
//! chunks (network reads, file blocks) and fixed output buffers: a
//! character or surrogate pair split between chunks is carried (with the
//! workspace's streaming engine, `codec_core::stream::Carry`), errors are
//! reported at their absolute position, strict or lossy exactly as the
//! one-shot conversion of the whole input would.
//!
//! # Design
//!
//! Every conversion is defined once, in scalar code (a decoder per input
//! encoding, an encoder per output encoding), and that code decides every
//! error. SIMD kernels convert the prefixes they can, block by block, and
//! stop before anything else; the scalar code converts the next few
//! characters (finding any error there) and hands back to the kernel. A
//! kernel can make a conversion fast, but it cannot move an error.
//!
//! UTF-8 input is validated by [`utf8_simd`] (Keiser–Lemire, the workspace's
//! exact validator) 16 KiB at a time, and each valid stretch is converted by
//! a kernel that may assume valid input; the ASCII prefix of each stretch is
//! converted first, by a kernel of its own, since ASCII needs no
//! validation. Depending on utf8-simd rather than writing a second
//! validator keeps one definition of valid UTF-8 in the workspace; the
//! price is a second pass over each chunk while it is still in the cache,
//! about a fifth of the time on non-ASCII text (`docs/results/transcode.md`
//! has the measurements). `&str` input skips the validation.
//!
//! The UTF-8 → UTF-16 kernels decode a character at every byte position of
//! a 16-byte *window* in 16-bit lanes and left-pack the lanes where
//! characters start, with fast paths for runs of ASCII, of 1- and 2-byte
//! characters, of 3-byte characters and of 4-byte characters. The UTF-16 →
//! UTF-8 kernels expand each unit into its 1 to 3 bytes in a 32-bit lane
//! and pack them with a shuffle chosen by the units' lengths, with fast
//! paths for ASCII, for units below U+0800 and for surrogate pairs. Both
//! exist for AVX2 and SSE4.1; the AVX-512 table validates UTF-8 with
//! AVX-512 and uses the AVX2 conversion kernels (without AVX-512 VBMI2
//! there is no byte or word compress, and an F/BW design does not take the
//! bottleneck, shuffle port 5, away: see the results). The count and
//! length, UTF-32 and Latin-1 families are written once over a vector
//! trait and have SSE4.1, AVX2 and AVX-512 (F, BW, VL) kernels. On CPUs
//! with AVX-512 VBMI2 (Intel from Ice Lake, AMD from Zen 4) a fourth table
//! converts Latin-1 to UTF-8 and UTF-8 to Latin-1, UTF-16 (native or bytes
//! in either order) to UTF-8 outside surrogate pairs, UTF-8 to UTF-16 for
//! characters of 1 to 3 bytes outside CJK runs (`vpcompressb`), and UTF-32
//! to UTF-16 (`vpcompressw`), and takes the AVX-512 table's kernels for
//! the rest.
//!
//! On aarch64 the NEON table converts 16-unit stretches of one-unit
//! characters (ASCII, Latin-1, the BMP without surrogates) in every
//! conversion and has the counts and lengths of UTF-8, UTF-16 and Latin-1;
//! the rest is the portable (scalar) code, with UTF-8 validated by
//! utf8-simd's NEON kernel. It is tested under qemu; its speed has not
//! been measured.
//!
//! # Exactness
//!
//! Every function returns exactly what the standard library computes:
//! `core::str::from_utf8`'s `valid_up_to` and `error_len` for UTF-8 input,
//! `char::decode_utf16`'s first error for UTF-16, `char::from_u32` for
//! UTF-32, `String::from_utf8_lossy`, `String::from_utf16_lossy` and
//! `from_utf16le_lossy` for the lossy forms. The tests (`tests/exact`)
//! compare every form of every conversion with std, with every kernel set
//! this CPU runs, for every output size, on random, mutated,
//! conformance-suite and lipsum text in both byte orders; every scalar value
//! goes through every conversion; every UTF-16 pair with a surrogate and
//! every UTF-8 sequence of up to 3 bytes is checked (all 4-byte sequences
//! by `cargo xtask exhaustive`); errors are placed at every offset around
//! the kernels' block boundaries and around the validation chunks; inputs
//! of every length up to 256 end at (and start after) a guard page, with
//! outputs ending at one; outputs are poisoned, and nothing past the
//! reported length may change; the streams are fed random chunkings; and
//! fuzz targets (`fuzz/`) do the same on libFuzzer's inputs.
//!
//! # References
//!
//! - Daniel Lemire and Wojciech Muła, "Transcoding billions of Unicode
//!   characters per second with SIMD instructions", Software: Practice and
//!   Experience 52(2), 2022 (arXiv:2109.10433).
//! - Robert Clausecker and Daniel Lemire, "Transcoding Unicode characters
//!   with AVX-512 instructions", Software: Practice and Experience 53(12),
//!   2023 (arXiv:2212.05098).
//! - The Unicode Standard, §3.9 (encoding forms, maximal subparts), and
//!   RFC 3629 (UTF-8), RFC 2781 (UTF-16).
//!
//! # MSRV, `unsafe` and `no_std`
//!
//! Rust 1.89 (the workspace's). `#![no_std]`; the `alloc` feature adds the
//! allocating forms. `unsafe` code lives only in the `arch` module (SIMD
//! intrinsics, and the call into a kernel after its CPU features were
//! detected); every block names the check that makes it sound.
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
// The unit tests use std's collections in every build, features or not.
#[cfg(any(feature = "std", test))]
extern crate std;

#[allow(unsafe_code)]
mod arch;
mod byte_order;
mod count;
pub mod direction;
mod drive;
mod error;
#[cfg(feature = "std")]
mod io;
mod latin1;
mod scalar;
mod stream;
mod utf16_utf8;
mod utf32;
mod utf8_utf16;

/// `bytes` as a `String`, without a copy. They come from this crate's UTF-8
/// encoders, but a `String` must never hold anything else, so they are
/// validated first (by utf8-simd; std's `String::from_utf8` is slower
/// outside ASCII) rather than trusted.
#[cfg(feature = "alloc")]
pub(crate) fn string_from_utf8(bytes: alloc::vec::Vec<u8>) -> alloc::string::String {
    // The error arm is unreachable unless an encoder is wrong; a `String`
    // stays sound either way.
    utf8_simd::string_from_utf8(bytes)
        .unwrap_or_else(|e| alloc::string::String::from_utf8_lossy(e.as_bytes()).into_owned())
}

pub use byte_order::ByteOrder;
pub use codec_core::{BomMode, BufferTooSmall, Endianness, Utf8Error, Utf8ErrorKind};
pub use count::{
    count_chars, count_chars_utf16, count_chars_utf16_bytes, floor_char_boundary_utf8,
    floor_char_boundary_utf16, utf8_len_from_latin1, utf8_len_from_utf16,
    utf8_len_from_utf16_bytes, utf8_len_from_utf32, utf16_len, utf16_len_from_utf32,
};
pub use direction::{Direction, Lossy};
pub use error::{
    Error, ErrorKind, Progress, Utf16Error, Utf16ErrorKind, Utf32Error, Utf32ErrorKind,
};
#[cfg(feature = "std")]
pub use io::{read_utf16_to_string, utf16_reader_to_utf8};
pub use latin1::*;
pub use stream::*;
pub use utf8_utf16::*;
pub use utf16_utf8::*;
pub use utf32::*;

use arch::Checked;
pub use arch::Kernel;

/// Every set of kernels compiled into this crate for the target, fastest
/// first, whether or not this CPU can run them: the one list of them. The
/// free functions use the first one the CPU can run ([`chosen_kernel`]).
///
/// ```
/// for k in transcode::kernels() {
///     if let Some(t) = k.transcoder() {
///         assert_eq!(t.utf8_to_utf16_vec(b"ok"), Ok(vec![0x6F, 0x6B]), "{}", k.name());
///     }
/// }
/// assert_eq!(transcode::kernels().last().map(|k| k.name()), Some("portable"));
/// ```
#[must_use]
pub fn kernels() -> &'static [&'static Kernel] {
    arch::ALL
}

/// The kernels the free functions use on this CPU.
///
/// ```
/// let k = transcode::chosen_kernel();
/// assert!(k.is_available());
/// println!("transcoding with {} ({})", k.name(), k.features());
/// ```
#[must_use]
pub fn chosen_kernel() -> &'static Kernel {
    Checked::best().kernels()
}

/// One set of kernels: every conversion of this crate as a method.
///
/// [`Transcoder::new`] picks the fastest set this CPU can run, which is what
/// the free functions use. The other constructors name one instruction set
/// ([`kernels`] lists them all), for tests and benchmarks that must measure
/// or check each one; they return `None` where the CPU lacks its features.
///
/// ```
/// use transcode::Transcoder;
///
/// for t in Transcoder::all() {
///     let mut out = [0u16; 8];
///     assert_eq!(t.utf8_to_utf16(b"abc", &mut out), Ok(3), "{}", t.name());
/// }
/// ```
#[derive(Clone, Copy)]
pub struct Transcoder(Checked);

impl Transcoder {
    /// The fastest kernels this CPU can run (detected once, then cached).
    #[must_use]
    #[inline]
    pub fn new() -> Transcoder {
        Transcoder(Checked::best())
    }

    /// The scalar kernels, which run everywhere.
    #[must_use]
    pub fn portable() -> Transcoder {
        Transcoder(Checked::portable())
    }

    /// The SSE4.1 kernels (with SSSE3 and POPCNT), if this CPU has them.
    #[must_use]
    pub fn sse41() -> Option<Transcoder> {
        arch::named::SSE41.and_then(Kernel::transcoder)
    }

    /// The AVX2 kernels (with BMI1, BMI2 and POPCNT), if this CPU has them.
    #[must_use]
    pub fn avx2() -> Option<Transcoder> {
        arch::named::AVX2.and_then(Kernel::transcoder)
    }

    /// The AVX-512 kernels (F, BW and VL, with AVX2's), if this CPU has
    /// them.
    #[must_use]
    pub fn avx512() -> Option<Transcoder> {
        arch::named::AVX512.and_then(Kernel::transcoder)
    }

    /// The AVX-512 VBMI2 kernels (`vpcompressb`, with the AVX-512 ones'
    /// features), if this CPU has them: Intel from Ice Lake, AMD from Zen
    /// 4. Where it has no kernel of its own, it runs the AVX-512 one.
    #[must_use]
    pub fn avx512vbmi2() -> Option<Transcoder> {
        arch::named::AVX512VBMI2.and_then(Kernel::transcoder)
    }

    /// The NEON kernels, on aarch64 (where the target has NEON, which is
    /// every aarch64 target but the `softfloat` ones); `None` elsewhere.
    #[must_use]
    pub fn neon() -> Option<Transcoder> {
        arch::named::NEON.and_then(Kernel::transcoder)
    }

    /// The kernels called `name` (as [`Kernel::name`] reports it), if they
    /// exist for this target and this CPU can run them.
    #[must_use]
    pub fn named(name: &str) -> Option<Transcoder> {
        kernels()
            .iter()
            .find(|k| k.name() == name)
            .and_then(|&k| k.transcoder())
    }

    /// Every set of kernels this CPU can run, fastest first; the last is
    /// always the portable one.
    pub fn all() -> impl Iterator<Item = Transcoder> {
        kernels().iter().filter_map(|&k| k.transcoder())
    }

    /// The kernels' short name: `"avx512vbmi2"`, `"avx512"`, `"avx2"`, `"sse4.1"`, `"neon"`
    /// or `"portable"`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.0.kernels().name()
    }

    /// The kernels these are.
    #[must_use]
    pub fn kernel(&self) -> &'static Kernel {
        self.0.kernels()
    }

    pub(crate) fn from_checked(c: Checked) -> Transcoder {
        Transcoder(c)
    }

    #[inline(always)]
    fn checked(self) -> Checked {
        self.0
    }

    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn kernels(self) -> &'static Kernel {
        self.0.kernels()
    }
}

impl Default for Transcoder {
    fn default() -> Self {
        Transcoder::new()
    }
}

impl core::fmt::Debug for Transcoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Transcoder").field(&self.name()).finish()
    }
}
