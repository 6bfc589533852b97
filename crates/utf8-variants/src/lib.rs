#![doc = include_str!("../README.md")]
//!
//! | encoding | differs from UTF-8 in | module |
//! |---|---|---|
//! | CESU-8 (UTR #26) | supplementary characters as surrogate pairs (6 bytes) | [`cesu8`] |
//! | MUTF-8 (JVM spec §4.4.7) | as CESU-8, and U+0000 as `C0 80` | [`mutf8`] |
//! | WTF-8 (the WTF-8 spec) | lone surrogates allowed (3 bytes each) | [`wtf8`] |
//!
//! # Example
//!
//! ```
//! use utf8_variants::{Bom, ErrorKind, Variant, cesu8, mutf8, wtf8};
//!
//! // Decode what a JVM wrote, borrowing where nothing needs converting.
//! assert_eq!(mutf8::decode(b"caf\xC3\xA9").as_deref(), Ok("café"));
//! assert_eq!(mutf8::decode(b"a\xC0\x80b").as_deref(), Ok("a\0b"));
//!
//! // Exact errors: position, length of the invalid piece, and why.
//! let err = cesu8::validate(b"ok \xED\xA0\xBD!").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (3, Some(3)));
//! assert_eq!(err.kind(), ErrorKind::UnpairedSurrogate);
//!
//! // WTF-8 holds what UTF-16 can, lone surrogates included.
//! let name = wtf8::from_utf16(&[0x66, 0xD800]);
//! assert_eq!(name.to_utf16(), [0x66, 0xD800]);
//!
//! // Any encoding by name, and byte-order marks.
//! let v: Variant = "cesu-8".parse().unwrap();
//! assert!(v.is_valid("plain text".as_bytes()));
//! assert_eq!(Bom::strip(b"\xEF\xBB\xBFhi"), (Some(Bom::Utf8), &b"hi"[..]));
//! ```
//!
//! # Java strings
//!
//! A Java `String` is UTF-16 that may hold a surrogate without its partner,
//! and `DataOutput.writeUTF` writes it unit by unit. The strict
//! [`mutf8::decode`] rejects such a surrogate (a `String` cannot hold it);
//! the lossless conversions keep it, to UTF-16 and WTF-8 and back, and
//! reject everything else Modified UTF-8 forbids. `writeUTF` puts the
//! length first, 2 big-endian bytes: that prefix is part of the
//! `DataOutput` format, not of Modified UTF-8, so read it off first.
//!
//! ```
//! use utf8_variants::{ErrorKind, mutf8, wtf8};
//!
//! // What `new DataOutputStream(out).writeUTF("x\uD800y")` writes.
//! let written = b"\x00\x05x\xED\xA0\x80y";
//! let (len, body) = written.split_at(2);
//! assert_eq!(usize::from(u16::from_be_bytes([len[0], len[1]])), body.len());
//!
//! // Read it losslessly: the lone surrogate stays.
//! let units = mutf8::to_utf16_vec(body)?;
//! assert_eq!(units, [0x78, 0xD800, 0x79]);
//! assert_eq!(mutf8::from_utf16(&units), body); // what writeUTF wrote, after the length
//!
//! // Or as WTF-8 (Rust's `OsString` on Windows), and back.
//! let w = mutf8::to_wtf8(body)?;
//! assert_eq!(w.to_string_lossy(), "x\u{FFFD}y");
//! assert_eq!(&*mutf8::from_wtf8(w.as_bytes())?, body);
//!
//! // The strict decoder wants a `str` and cannot hold D800; the length
//! // prefix is not Modified UTF-8 (its 00 is a raw NUL).
//! assert_eq!(mutf8::decode(body).unwrap_err().kind(), ErrorKind::UnpairedSurrogate);
//! assert_eq!(mutf8::to_utf16_vec(written).unwrap_err().kind(), ErrorKind::Nul);
//! # Ok::<(), utf8_variants::Error>(())
//! ```
//!
//! # What is here
//!
//! - [`Variant`]: `Utf8`, `Cesu8`, `Mutf8`, `Wtf8`, with `validate`,
//!   `is_valid` and a streaming [`Validator`]; [`Config`] adds a
//!   [`BomPolicy`] (accept or reject a leading U+FEFF).
//! - [`cesu8`] and [`mutf8`]: `validate`, `is_valid`, `decode` and
//!   `decode_lossy` (to `Cow<str>`), `encode` (to `Cow<[u8]>`); lossless
//!   `to_utf16` (into a `[u16]`, [`ToUtf16Error`] if it is too small),
//!   `to_utf16_vec`, `to_wtf8`, and back `from_utf16`, `from_wtf8`.
//! - [`wtf8`]: `validate`, `is_valid`, UTF-16 in and out
//!   ([`wtf8::from_utf16`], [`wtf8::to_utf16_vec`], [`wtf8::encode_utf16`]),
//!   [`wtf8::to_utf8_lossy`], and [`wtf8::Wtf8Buf`], whose concatenation
//!   joins a trailing lead surrogate with a leading trail surrogate.
//! - [`Bom`]: detect and strip the byte-order marks of UTF-8, UTF-16 and
//!   UTF-32.
//! - [`tables`]: the DFA and nibble tables, derived from the specification
//!   and checked by `cargo xtask gen-tables --check`.
//!
//! # Exactness
//!
//! An [`Error`] means what [`core::str::Utf8Error`] means, for the
//! encoding: [`valid_up_to`](Error::valid_up_to) is the longest valid
//! prefix, [`error_len`](Error::error_len) the length of the invalid piece
//! (`None` if more input could complete it), and [`kind`](Error::kind) says
//! why. For [`Variant::Utf8`] they are std's values. For the others the
//! piece is the maximal subpart (Unicode §3.9 D93b) of the encoding's own
//! grammar, except that an unpaired lead surrogate is its own 3 bytes.
//! Every validator (SIMD, scalar, streaming) builds its errors in one
//! function, so they agree by construction; the tests compare them with a
//! value-based oracle on every input of up to 3 bytes and every sequence of
//! two surrogates, with Python's `'utf-8', 'surrogatepass'` codec and the
//! `cesu8` crate on random input, and with vectors from UTR #26, the JVM
//! specification and the WTF-8 specification.
//!
//! # References
//!
//! - Unicode Technical Report #26, "Compatibility Encoding Scheme for
//!   UTF-16: 8-Bit (CESU-8)".
//! - The Java Virtual Machine Specification, Java SE 21 Edition, §4.4.7,
//!   "The CONSTANT_Utf8_info Structure".
//! - Simon Sapin, "The WTF-8 encoding", <https://simonsapin.github.io/wtf-8/>.
//! - John Keiser and Daniel Lemire, "Validating UTF-8 In Less Than One
//!   Instruction Per Byte", Software: Practice and Experience 51(5), 2021:
//!   the SIMD check, whose tables these encodings switch.
//!
//! # Crate features
//!
//! - `std` (default): forwarded to codec-core and utf8-simd (`std::error::Error`
//!   and `std::io` there); implies `alloc`. The SIMD kernel is chosen at run
//!   time with or without it.
//! - `alloc`: the conversions (`decode`, `encode`, `to_utf16`,
//!   [`wtf8::Wtf8Buf`], ...).
//!
//! Without features the crate is `#![no_std]` and allocates nothing:
//! validation, streaming, [`wtf8::encode_utf16`], [`mutf8::to_utf16`] and
//! [`cesu8::to_utf16`] (into a caller's `[u16]`) and [`Bom`] remain.
//!
//! # MSRV, `unsafe` and `no_std`
//!
//! Rust 1.89 (the workspace's). The crate is `#![forbid(unsafe_code)]`: its
//! SIMD path is utf8-simd's kernel, called through that crate's safe API.
//! `no_std` without default features.
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod cesu8;
#[cfg(feature = "alloc")]
mod convert;
mod error;
mod java;
pub mod mutf8;
mod scalar;
mod simd;
mod stream;
pub mod tables;
mod variant;
pub mod wtf8;

pub use codec_core::Bom;
pub use error::{Error, ErrorKind, ToUtf16Error, ToUtf16ErrorKind};
pub use stream::Validator;
pub use variant::{BomPolicy, Config, UnknownVariant, Variant};
