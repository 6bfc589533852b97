#![doc = include_str!("../README.md")]
//!
//! # Which codec to pick
//!
//! | you want | pick | why |
//! |---|---|---|
//! | the fastest validation of whole buffers, streams and readers | [`utf8_simd`] | Keiser–Lemire lookup tables with runtime CPU dispatch; exact errors from a scalar re-check of the failing block |
//! | streaming, decoding to `char`s, lossy conversion, small code | [`utf8_dfa`] | Hoehrmann's DFA: one table, state carried across chunks |
//! | a readable reference, or the legacy 5- and 6-byte forms (31-bit values) | [`utf8_table`] | Ken Thompson's 1992 table, strict and legacy modes |
//! | CESU-8, Java's Modified UTF-8, WTF-8 (Windows file names), byte-order marks | [`utf8_variants`] | UTF-8's grammar with rules switched; the SIMD path and exact errors of the UTF-8 codecs |
//! | protobuf / LEB128 integers | [`varint`] | exact on every edge, lenient and strict decoding |
//! | signed integers as small unsigned ones | [`zigzag`] | protobuf `sint32`/`sint64` mapping, `const fn` |
//! | UTF-8 ⇄ UTF-16 ⇄ UTF-32 ⇄ Latin-1 | [`transcode`] | SIMD conversions, counts and lengths with std-exact errors |
//!
//! Every UTF-8 validator returns the same [`Utf8Error`], whose
//! `valid_up_to()` and `error_len()` equal those of `core::str::from_utf8` on
//! every input, plus a [`Utf8ErrorKind`] saying why.
//!
//! # Examples
//!
//! Swap validators through the shared trait:
//!
//! ```
//! use codec_facade::{Utf8Validator, utf8_dfa, utf8_simd, utf8_table};
//!
//! let input = b"caf\xC3\xA9 \xED\xA0\x80";
//! let validators: [&dyn Utf8Validator; 3] = [&utf8_table::Table, &utf8_dfa::Dfa, &utf8_simd::Simd];
//! for v in validators {
//!     let err = v.validate(input).unwrap_err();
//!     assert_eq!(err.valid_up_to(), 6);
//!     assert_eq!(err.error_len(), Some(1));
//!     assert_eq!(err.kind(), codec_facade::Utf8ErrorKind::Surrogate);
//! }
//! ```
//!
//! Streaming: the pieces of a reader, with offsets, in bounded memory, and a
//! lossy copy equal to `String::from_utf8_lossy`:
//!
//! ```
//! use codec_facade::utf8_simd;
//!
//! let log: &[u8] = b"ok line\nbad \xFF line\n";
//! let mut reader = utf8_simd::reader(log);
//! let mut position = codec_facade::Position::new();
//! while let Some(chunk) = reader.next_chunk()? {
//!     position.advance_valid(chunk.valid().as_bytes());
//!     if let Some(kind) = chunk.kind() {
//!         assert_eq!((position.line(), position.column(), kind.id()), (2, 5, "invalid-byte"));
//!         position.advance_invalid();
//!     }
//! }
//! let mut fixed = Vec::new();
//! utf8_simd::repair(log, &mut fixed)?;
//! assert_eq!(fixed, String::from_utf8_lossy(log).as_bytes());
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! UTF-8's relatives, with the same exact errors:
//!
//! ```
//! use codec_facade::utf8_variants::{ErrorKind, cesu8, mutf8, wtf8};
//!
//! // What a JVM wrote (`DataOutput.writeUTF`): NUL as C0 80, 😀 as a surrogate pair.
//! let java = b"a\xC0\x80\xED\xA0\xBD\xED\xB8\x80";
//! assert_eq!(mutf8::decode(java).as_deref(), Ok("a\0😀"));
//! assert_eq!(&*mutf8::encode("a\0😀"), java);
//!
//! // An Oracle CESU-8 column with a lone surrogate: where and why.
//! let err = cesu8::validate(b"id \xED\xB0\x80").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.kind()), (3, ErrorKind::UnpairedSurrogate));
//!
//! // A Windows file name that is not valid UTF-16, kept exactly.
//! let name = wtf8::from_utf16(&[0x61, 0xD800]);
//! assert_eq!(name.to_string_lossy(), "a\u{FFFD}");
//! assert_eq!(name.to_utf16(), [0x61, 0xD800]);
//! ```
//!
//! Varints and zigzag together, as protobuf writes a `sint64`:
//!
//! ```
//! use codec_facade::{varint, zigzag};
//!
//! let mut buf = [0u8; 10];
//! let n = varint::encode(zigzag::encode(-150i64), &mut buf);
//! let (raw, len) = varint::decode::<u64>(&buf[..n]).unwrap();
//! assert_eq!((zigzag::decode(raw), len), (-150, 2));
//! ```
//!
//! # Crate features
//!
//! - `utf8-table`, `utf8-dfa`, `utf8-simd`, `utf8-variants`, `varint`,
//!   `zigzag`, `transcode` (all default):
//!   one per codec. With `default-features = false` and one of them, only that
//!   codec is built.
//! - `std` (default): the `std::io` helpers (utf8-simd's `reader` and
//!   `repair`, codec-core's `io` module, varint's `Read`/`Write` functions,
//!   `From` conversions of the errors into `std::io::Error`). Implies
//!   `alloc`. The SIMD kernel is chosen at run time with or without it.
//! - `alloc`: the allocating helpers of every enabled codec.
//!
//! # Policies
//!
//! Without `std` the facade and every codec are `#![no_std]`. The facade
//! has no `unsafe` code; the codecs keep theirs in `arch` folders (see each
//! crate's front page). MSRV: Rust 1.89.
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "std")]
pub use codec_core::io;
/// The scalar facts of UTF-8 that every codec shares (codec-core's
/// `utf8` module).
pub use codec_core::utf8;
pub use codec_core::{
    BufferTooSmall, DecodeError, Position, Streaming, StreamingValidator, Utf8Chunk, Utf8Chunks,
    Utf8Error, Utf8ErrorKind, Utf8Validator,
};

#[cfg(feature = "transcode")]
#[doc(inline)]
pub use transcode;
#[cfg(feature = "utf8-dfa")]
#[doc(inline)]
pub use utf8_dfa;
#[cfg(feature = "utf8-simd")]
#[doc(inline)]
pub use utf8_simd;
#[cfg(feature = "utf8-table")]
#[doc(inline)]
pub use utf8_table;
#[cfg(feature = "utf8-variants")]
#[doc(inline)]
pub use utf8_variants;
#[cfg(feature = "varint")]
#[doc(inline)]
pub use varint;
#[cfg(feature = "zigzag")]
#[doc(inline)]
pub use zigzag;

/// The Rust examples of the workspace's README, compiled and run as
/// doctests so that they cannot go stale.
#[cfg(all(
    doctest,
    feature = "utf8-variants",
    feature = "transcode",
    feature = "std"
))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExamples;
