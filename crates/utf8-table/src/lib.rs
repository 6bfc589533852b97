#![doc = include_str!("../README.md")]
//!
//! # The table
//!
//! In September 1992 Ken Thompson wrote UTF-8's first encoder and decoder,
//! `wctomb` and `mbtowc`, around one small table with a row per sequence
//! length. Each row holds five numbers:
//!
//! ```text
//!  n  cmask  cval  shift  lmask       lval        bit pattern
//!  1  0x80   0x00    0    0x7F        0           0xxxxxxx
//!  2  0xE0   0xC0    6    0x7FF       0x80        110xxxxx 10xxxxxx
//!  3  0xF0   0xE0   12    0xFFFF      0x800       1110xxxx 10xxxxxx 10xxxxxx
//!  4  0xF8   0xF0   18    0x1FFFFF    0x10000     11110xxx 10xxxxxx ×3
//!  5  0xFC   0xF8   24    0x3FFFFFF   0x200000    111110xx 10xxxxxx ×4
//!  6  0xFE   0xFC   30    0x7FFFFFFF  0x4000000   1111110x 10xxxxxx ×5
//! ```
//!
//! - A lead byte `c` starts an `n`-byte sequence when `c & cmask == cval`.
//! - `shift = 6 × (n − 1)` is how many bits the continuation bytes carry.
//! - `lmask` is the largest value with `n` bytes; `lval`, the previous row's
//!   `lmask + 1`, is the smallest. A decoded value below `lval` could have
//!   been written shorter: it is an *overlong* form, and rejected.
//!
//! Take 吕 (U+5415, `0101 0100 0001 0101`). **Encoding** walks the rows until
//! `lmask` holds the value: 0x5415 > 0x7FF, ≤ 0xFFFF, so row 3, three bytes.
//! The lead byte is `cval | (v >> shift)` = `0xE0 | 0x5` = `E5`; each
//! following byte is `0x80` plus the next six bits: `0x80 | 0x10` = `90`,
//! `0x80 | 0x15` = `95`. So 吕 ⇄ `E5 90 95`.
//!
//! **Decoding** `E5 90 95` walks the same rows. `E5 & 0x80` is not `0x00`
//! (row 1), so it reads a continuation byte; `E5 & 0xE0` is not `0xC0`
//! (row 2), so it reads another; `E5 & 0xF0 == 0xE0`: row 3. The bits read
//! so far, `E5` then the low six bits of `90` and `95`, masked with
//! `lmask = 0xFFFF`, are 0x5415, which is ≥ `lval = 0x800`, so not overlong.
//!
//! ```
//! use utf8_table::{Strict, decode, encode};
//!
//! let mut buf = [0; 4];
//! assert_eq!(encode::<Strict>(0x5415, &mut buf), Ok(3));
//! assert_eq!(&buf[..3], b"\xE5\x90\x95");
//! assert_eq!(decode::<Strict>(&buf), Ok((0x5415, 3)));
//! ```
//!
//! The table is in `src/table.rs`, with compile-time checks that every row
//! satisfies the relations above.
//!
//! # Two modes
//!
//! The mode is a type parameter, [`Strict`] or [`Legacy`]; each is compiled
//! separately, with no runtime flag in the loop.
//!
//! - [`Strict`]: RFC 3629 (2003). Rows 1–4 only, values up to U+10FFFF, and
//!   the UTF-16 surrogates U+D800..=U+DFFF rejected. Thompson's table
//!   predates both limits, so they are two extra comparisons after the
//!   table walk. This is exactly the language of `core::str::from_utf8`, and
//!   errors are [`codec_core::Utf8Error`] with std's `valid_up_to` and
//!   `error_len`.
//! - [`Legacy`]: the 1992 design as Plan 9 first shipped it. All six rows,
//!   values up to 0x7FFF_FFFF, surrogates allowed; overlong forms are still
//!   rejected and `FE`, `FF` are never valid. Errors are [`LegacyError`].
//!
//! ```
//! use utf8_table::{Legacy, Strict, decode, encode};
//!
//! let mut buf = [0; 6];
//! assert_eq!(encode::<Legacy>(0x7FFF_FFFF, &mut buf), Ok(6));
//! assert_eq!(buf, *b"\xFD\xBF\xBF\xBF\xBF\xBF");
//! assert_eq!(decode::<Legacy>(&buf), Ok((0x7FFF_FFFF, 6)));
//! assert!(decode::<Strict>(&buf).is_err());
//! assert!(decode::<Legacy>(b"\xC0\x80").is_err()); // overlong NUL
//! ```
//!
//! # The API
//!
//! - [`validate`], [`from_utf8`] and [`Table`] (a [`Utf8Validator`]): strict
//!   whole-buffer validation, identical to std on every input.
//!   [`validate_as`] validates in either mode.
//! - [`decode`] / [`decode_char`]: one code point, telling a truncated
//!   sequence (`error_len() == None`, "need more bytes") from an invalid one.
//! - [`encode`] (a `u32`, with range errors) / [`encode_char`], and
//!   [`encoded_len`].
//! - [`code_points`]: an iterator of `Result`s in either mode.
//!
//! # When to use this crate
//!
//! - You must read or write the original 5- and 6-byte forms (31-bit
//!   values): old data, or UTF-8 used as a general variable-length integer
//!   code. No other codec here does.
//! - You want the reference: the whole algorithm is one table and two short
//!   loops, easy to audit, and the other codecs are tested against it.
//! - You encode code points and want an error rather than a panic on a short
//!   buffer or an out-of-range value.
//!
//! For fast validation of large inputs use `utf8-simd` (or std); for
//! streaming use `utf8-dfa`. `docs/results/utf8-table.md` has the measured
//! ratios to std.
//!
//! # Exactness
//!
//! In strict mode, [`validate`], [`from_utf8`] and [`decode`] report what
//! `core::str::from_utf8` reports on every input (`valid_up_to`, `error_len`;
//! the kind comes from [`Utf8Error::at`]). The tests prove it exhaustively on
//! every sequence of 1–3 bytes and every 4-byte sequence starting `F0`–`F4`,
//! on the workspace conformance corpora, and with quickcheck on random and
//! mutated input. Every scalar value round-trips and encodes as
//! [`char::encode_utf8`] does; every legacy value 0..=0x7FFF_FFFF round-trips
//! (an `#[ignore]`d test). No input panics.
//!
//! # Crate features
//!
//! - `std` (default): forwarded to codec-core; the codec needs nothing.
//! - `alloc`: forwarded to codec-core.
//!
//! # Policies
//!
//! - `#![no_std]`, and `#![forbid(unsafe_code)]`: [`from_utf8`] and
//!   [`from_utf8_mut`] therefore check valid input a second time with std to
//!   make the `&str`.
//! - MSRV: Rust 1.89 (the workspace's).
//!
//! Sibling crates: [`codec-core`](https://docs.rs/codec-core) (the error
//! type, traits and streaming engine: `codec_core::Streaming<Table>` streams
//! with this codec), [`utf8-dfa`](https://docs.rs/utf8-dfa),
//! [`utf8-simd`](https://docs.rs/utf8-simd), and the facade
//! [`codec-facade`](https://docs.rs/codec-facade).
//!
//! # Reference
//!
//! Ken Thompson, `mbtowc`/`wctomb` in the X/Open FSS-UTF proposal (File
//! System Safe UCS Transformation Format), 2 September 1992, and Rob Pike and
//! Ken Thompson, "Hello World or Καλημέρα κόσμε or こんにちは 世界", USENIX
//! Winter 1993. F. Yergeau, RFC 3629, "UTF-8, a transformation format of
//! ISO 10646", 2003.
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

mod decode;
mod encode;
mod error;
mod iter;
mod mode;
mod table;

pub use codec_core::{BufferTooSmall, Utf8Error, Utf8ErrorKind, Utf8Validator};

pub use crate::decode::{decode, decode_char, from_utf8, from_utf8_mut, validate, validate_as};
pub use crate::encode::{encode, encode_char, encoded_len};
pub use crate::error::{EncodeError, LegacyError, LegacyErrorKind};
pub use crate::iter::{CodePoints, code_points};
pub use crate::mode::{Legacy, Mode, Strict};

/// This crate's strict validator, for generic code over [`Utf8Validator`].
///
/// ```
/// use utf8_table::{Table, Utf8Validator};
/// assert!(Table.is_valid("吕".as_bytes()));
/// assert_eq!(Table.validate(b"\xF4\x90\x80\x80").unwrap_err().error_len(), Some(1));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Table;

impl Utf8Validator for Table {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        validate(input)
    }
    // `from_utf8`, `from_utf8_mut` and `valid_prefix` are the provided
    // methods: validate, then std's conversion (the crate forbids `unsafe`).
}
