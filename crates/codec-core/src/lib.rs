//! The shared vocabulary of the varcodecs codecs: one UTF-8 error type, one
//! varint error type, and the traits every codec implements.
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
//! # Crate features
//!
//! - `std` (default): nothing today; forwarded by the crates above.
//! - `alloc`: nothing today; forwarded by the crates above.
//!
//! The crate is `#![no_std]` and has no dependencies.
#![no_std]
#![forbid(unsafe_code)]

mod traits;
mod utf8;
mod varint;

pub use traits::{StreamingValidator, Utf8Validator};
pub use utf8::{Utf8Error, Utf8ErrorKind};
pub use varint::{BufferTooSmall, DecodeError};
