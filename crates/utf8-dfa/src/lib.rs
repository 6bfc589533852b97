#![doc = include_str!("../README.md")]
//!
//! # Overview
//!
//! - [`validate`], [`from_utf8`], [`is_valid`], and [`Dfa`] for generic code
//!   over [`Utf8Validator`]: whole buffers.
//! - [`Validator`] (a [`StreamingValidator`]): input in chunks.
//! - [`chunks`]: std's `utf8_chunks` (valid runs and the invalid pieces
//!   between them), with offsets and error kinds.
//! - [`from_utf8_mut`]: [`from_utf8`] for `&mut [u8]`.
//! - [`chars`] (strict) and [`chars_lossy`]: decode a buffer to `char`s;
//!   [`count_chars`] and [`count_chars_lossy`] count them.
//! - [`Decoder`] (strict) and [`LossyDecoder`]: decode chunks to `char`s,
//!   carrying an unfinished character from one chunk to the next.
//! - [`to_string_lossy`] (feature `alloc`): `String::from_utf8_lossy`.
//! - [`table`]: the published tables, and the shift DFA derived from them.
//!
//! # Example
//!
//! ```
//! use utf8_dfa::{LossyDecoder, Validator};
//!
//! // Whole buffers, with std's error positions and a reason.
//! assert_eq!(utf8_dfa::from_utf8("吕".as_bytes()), Ok("吕"));
//! let err = utf8_dfa::validate(b"ab\xC0\x80").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(1)));
//! assert_eq!(err.kind(), utf8_dfa::Utf8ErrorKind::Overlong);
//!
//! // Streaming: the 4 bytes of 😀 (F0 9F 98 80) arrive in two chunks; the
//! // error offset counts from the start of the first chunk.
//! let mut v = Validator::new();
//! v.update(b"hi \xF0\x9F").unwrap();
//! v.update(b"\x98\x80!").unwrap();
//! let err = v.update(b"\xED\xA0\x80").unwrap_err(); // a surrogate
//! assert_eq!((err.valid_up_to(), err.error_len()), (8, Some(1)));
//!
//! // Lossy, whole buffer and streaming: one U+FFFD per maximal subpart.
//! # #[cfg(feature = "alloc")]
//! assert_eq!(utf8_dfa::to_string_lossy(b"a\xE2\x82b"), "a\u{FFFD}b");
//! let mut out = String::new();
//! let mut d = LossyDecoder::new();
//! d.decode(b"a\xE2", |c| out.push(c));
//! d.decode(b"\x82b\xF0", |c| out.push(c));
//! d.finish(|c| out.push(c));
//! assert_eq!(out, "a\u{FFFD}b\u{FFFD}");
//! ```
//!
//! # Exactness
//!
//! - [`validate`], [`from_utf8`], [`Dfa`], [`Validator`], [`Decoder`] and
//!   [`chars`] report exactly what `core::str::from_utf8` reports on the
//!   same bytes (for the streaming types, on the concatenation of the
//!   chunks): the same `valid_up_to` and `error_len`. Errors are built by
//!   [`Utf8Error::at`], so the [kind](Utf8ErrorKind) agrees with every other
//!   codec in the workspace.
//! - [`to_string_lossy`], [`chars_lossy`], [`LossyDecoder`] and
//!   [`count_chars_lossy`] produce exactly `String::from_utf8_lossy`.
//! - The tests check this against std on every byte sequence of one to three
//!   bytes, on every four-byte sequence starting `F0..=F4`, on every scalar
//!   value, on the conformance corpora, at every split point of many inputs,
//!   on invalid sequences placed around every block boundary, and on
//!   quickcheck inputs.
//!
//! The three published pitfalls of Hoehrmann's decoder are avoided: after a
//! rejection the lossy decoders re-feed the rejecting byte unless it was the
//! lead (alacritty/vte#158); the end of input is valid only in ACCEPT, not
//! merely "not REJECT"; and nothing assumes a NUL terminator.
//!
//! # Algorithm
//!
//! Björn Hoehrmann, "Flexible and Economical UTF-8 Decoder", 2010,
//! <https://bjoern.hoehrmann.de/utf-8/decoder/dfa/>: 256 byte classes and a
//! nine-state transition table with premultiplied states, in [`table`]. The
//! decoders step through it a byte at a time. Validation instead runs a
//! "shift DFA" derived from the same table ([`table::SHIFT`]: one `u64` per
//! byte, one shift per step), on four parts of the input at once, cut at
//! character boundaries, skipping ASCII blocks, and with a copy compiled for
//! BMI2 that is chosen at run time; the measurements are in
//! `docs/results/utf8-dfa.md`.
//!
//! # Crate features
//!
//! - `std` (default): implies `alloc`; forwarded to codec-core. (The BMI2
//!   fast pass is chosen at run time with or without it; with
//!   `-C target-feature=+bmi2` that pass is the only one.)
//! - `alloc`: [`to_string_lossy`] and [`LossyDecoder::decode_into_string`].
//!
//! Without features the crate is `#![no_std]` and allocates nothing.
//!
//! # Unsafe code
//!
//! The crate is `#![deny(unsafe_code)]` with two scoped exceptions, both in
//! its `arch` module and each a measured win recorded in
//! `docs/results/utf8-dfa.md`:
//!
//! - [`from_utf8`], [`from_utf8_mut`] (and [`to_string_lossy`]) turn bytes
//!   this crate has just validated into `&str` with
//!   `core::str::from_utf8_unchecked`. The safe alternative validates the
//!   same bytes a second time with std.
//! - On x86-64, validation calls a copy of its fast pass compiled with
//!   `#[target_feature(enable = "bmi2")]` where the CPU has BMI2, chosen
//!   once by `codec_arch::Dispatch` (detection with `cpuid`, with or
//!   without `std`).
//!
//! # Policies
//!
//! - `#![no_std]` without features; MSRV: Rust 1.89 (the workspace's).
//! - `unsafe`: only the two exceptions above.
//! - Streaming ([`Validator`], [`chunks`]) is codec-core's one engine over
//!   this crate's validator.
//!
//! Sibling crates: [`codec-core`](https://docs.rs/codec-core) (the error
//! type, traits and streaming engine), [`utf8-simd`](https://docs.rs/utf8-simd)
//! (faster validation with SIMD, built on this crate for exact errors),
//! [`utf8-table`](https://docs.rs/utf8-table) (the reference codec), and the
//! facade [`codec-facade`](https://docs.rs/codec-facade).
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[allow(unsafe_code)]
mod arch;
#[cfg(feature = "std")]
extern crate std;

mod decode;
#[cfg(feature = "alloc")]
mod lossy;
mod stream;
pub mod table;
mod validate;

pub use codec_core::{
    StreamingValidator, Utf8Chunk, Utf8Chunks, Utf8Error, Utf8ErrorKind, Utf8Validator,
};
pub use decode::{Chars, LossyChars, chars, chars_lossy, count_chars, count_chars_lossy};
#[cfg(feature = "alloc")]
pub use lossy::to_string_lossy;
pub use stream::{Decoder, LossyDecoder, Validator};
#[doc(hidden)]
pub use validate::validate_portable;
pub use validate::{is_valid, validate};

/// This crate's validator, for generic code over [`Utf8Validator`].
///
/// ```
/// use utf8_dfa::{Dfa, Utf8Validator};
/// let v: &dyn Utf8Validator = &Dfa;
/// assert!(v.is_valid("😀".as_bytes()));
/// assert_eq!(v.from_utf8(b"ok"), Ok("ok"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Dfa;

impl Utf8Validator for Dfa {
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
        decode::valid_prefix(input)
    }
}

/// `input` as a `&str`, or exactly the error `core::str::from_utf8` reports.
///
/// ```
/// assert_eq!(utf8_dfa::from_utf8(b"caf\xC3\xA9"), Ok("café"));
/// let e = utf8_dfa::from_utf8(b"caf\xC3").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
/// ```
pub fn from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    validate(input)?;
    Ok(valid_str(input))
}

/// `input` as a `&mut str`, or exactly the error `core::str::from_utf8_mut`
/// reports.
///
/// ```
/// let mut bytes = *b"caf\xC3\xA9";
/// let s = utf8_dfa::from_utf8_mut(&mut bytes).unwrap();
/// s.make_ascii_uppercase();
/// assert_eq!(s, "CAFé");
/// ```
pub fn from_utf8_mut(input: &mut [u8]) -> Result<&mut str, Utf8Error> {
    validate(input)?;
    Ok(arch::valid_str_mut(input))
}

/// The pieces of `input` as `String::from_utf8_lossy` sees them, with
/// offsets and error kinds: std's `<[u8]>::utf8_chunks`, with this crate's
/// validator (whose steps after an error are tuned for errors that come in
/// clusters).
///
/// ```
/// let pieces: Vec<_> = utf8_dfa::chunks(b"ok\xFFfine\xE2\x82")
///     .map(|c| (c.valid(), c.invalid()))
///     .collect();
/// assert_eq!(pieces, [("ok", &b"\xFF"[..]), ("fine", &b"\xE2\x82"[..])]);
/// ```
#[must_use]
pub fn chunks(input: &[u8]) -> Utf8Chunks<'_, Dfa> {
    Utf8Chunks::new(input, Dfa)
}

use arch::valid_str;
