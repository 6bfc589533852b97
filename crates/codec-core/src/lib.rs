#![doc = include_str!("../README.md")]
//!
//! Every UTF-8 validator in this workspace (the Plan 9 table, Hoehrmann's DFA,
//! the Keiser–Lemire SIMD validator) reports its errors as a [`Utf8Error`]
//! whose [`valid_up_to`](Utf8Error::valid_up_to) and
//! [`error_len`](Utf8Error::error_len) mean exactly what they mean in
//! [`core::str::Utf8Error`], plus a [`Utf8ErrorKind`] that says *why* the input
//! is invalid. The kind is computed in one place, [`Utf8Error::at`], from the
//! bytes at the error position, so every codec reports the same kind by
//! construction.
//!
//! Generic code is written against [`Utf8Validator`] (whole buffers) and
//! [`StreamingValidator`] (chunks with absolute offsets), so one codec can be
//! swapped for another.
//!
//! # Example
//!
//! ```
//! use codec_core::{Utf8Error, Utf8ErrorKind};
//!
//! // An error computed from the bytes: `ED A0 80` encodes a surrogate.
//! let input = b"ok \xED\xA0\x80";
//! let err = Utf8Error::at(input, 3);
//! assert_eq!(err.valid_up_to(), 3);
//! assert_eq!(err.error_len(), Some(1));
//! assert_eq!(err.kind(), Utf8ErrorKind::Surrogate);
//!
//! // It agrees with the standard library.
//! let std_err = core::str::from_utf8(input).unwrap_err();
//! assert_eq!(err.valid_up_to(), std_err.valid_up_to());
//! assert_eq!(err.error_len(), std_err.error_len());
//! ```
//!
//! # Streaming, once for every codec
//!
//! The scalar facts of UTF-8 ([`utf8`]: which bytes start a character of
//! which length, where a character starts) and the streaming engine
//! ([`stream`]: carrying a character split between chunks, absolute error
//! offsets) live here, once. On top of any [`Utf8Validator`]:
//!
//! - [`Streaming`]: a [`StreamingValidator`] (utf8-simd's and utf8-dfa's
//!   `Validator` are `Streaming` over their validators);
//! - [`Utf8Chunks`]: std's `utf8_chunks` with offsets and error kinds;
//! - [`io::Utf8Reader`] (feature `std`): the same pieces from any
//!   `std::io::Read` in bounded memory, and a lossy `Read -> Write` copy;
//! - [`Position`]: line and column while streaming.
//!
//! The codec crates offer these with their own validator (for example
//! `utf8_simd::chunks` and `utf8_simd::Utf8Reader`).
//!
//! # Crate features
//!
//! - `std` (default): [`io`] (the `Read` scanner and lossy copy), and
//!   `From` conversions of [`Utf8Error`] and [`DecodeError`] into
//!   `std::io::Error`.
//! - `alloc`: [`FromUtf8Error`], the owned error of a `Vec<u8>` → `String`
//!   conversion (std's, with [`Utf8Error`]).
//!
//! # Policies
//!
//! - `#![no_std]` without the `std` feature, with no dependencies.
//! - No `unsafe` code (`#![forbid(unsafe_code)]`).
//! - MSRV: Rust 1.89, the workspace's `rust-version`.
//!
//! Sibling crates: [`utf8-table`](https://docs.rs/utf8-table),
//! [`utf8-dfa`](https://docs.rs/utf8-dfa),
//! [`utf8-simd`](https://docs.rs/utf8-simd),
//! [`varcodecs-varint`](https://docs.rs/varcodecs-varint),
//! [`varcodecs-zigzag`](https://docs.rs/varcodecs-zigzag) and the facade
//! [`codec-facade`](https://docs.rs/codec-facade).
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod bom;
pub mod chunks;
#[cfg(feature = "alloc")]
mod from_utf8_error;
#[cfg(feature = "std")]
pub mod io;
pub mod position;
mod sequence_error;
pub mod stream;
mod traits;
pub mod utf16;
pub mod utf8;
mod utf8_error;
mod varint;

pub use bom::{Bom, BomMode};
pub use chunks::{Utf8Chunk, Utf8Chunks};
#[cfg(feature = "alloc")]
pub use from_utf8_error::FromUtf8Error;
pub use position::Position;
pub use sequence_error::{ErrorKind, SequenceError};
pub use stream::Streaming;
pub use traits::{StreamingValidator, Utf8Validator};
pub use utf8_error::{Utf8Error, Utf8ErrorKind};
pub use utf16::Endianness;
pub use varint::{BufferTooSmall, DecodeError};

#[cfg(test)]
mod test_support {
    use crate::{Utf8Error, Utf8Validator};

    /// The standard library as a validator: the oracle of the unit tests
    /// (this crate cannot depend on the codecs, which depend on it).
    #[derive(Clone, Copy, Debug, Default)]
    pub(crate) struct Std;

    impl Utf8Validator for Std {
        fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
            core::str::from_utf8(input)
                .map(drop)
                .map_err(|e| Utf8Error::from_std(e, input))
        }
    }
}
