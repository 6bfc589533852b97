//! Keiser–Lemire SIMD UTF-8 validation.
//!
//! **Placeholder.** This crate's API is fixed by the workspace contract
//! (`validate`, `from_utf8`, and a unit struct implementing
//! [`codec_core::Utf8Validator`]); its algorithm lands with its own issue.
//! Until then it defers to `core::str::from_utf8`, so every result is already
//! exact.
//!
//! # Example
//!
//! ```
//! assert_eq!(utf8_simd::from_utf8("吕".as_bytes()), Ok("吕"));
//! let err = utf8_simd::validate(b"ab\xC0\x80").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(1)));
//! ```
//!
//! # Crate features
//!
//! - `std` (default): forwarded to codec-core.
//! - `alloc`: forwarded to codec-core.
#![no_std]
#![forbid(unsafe_code)]

pub use codec_core::{Utf8Error, Utf8ErrorKind, Utf8Validator};

/// This crate's validator, for generic code over [`Utf8Validator`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Simd;

impl Utf8Validator for Simd {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        validate(input)
    }
}

/// `Ok(())` if `input` is well-formed UTF-8, else the error std would report.
pub fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    from_utf8(input).map(|_| ())
}

/// `input` as a `&str`, or the error std would report.
pub fn from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    core::str::from_utf8(input).map_err(|e| Utf8Error::from_std(e, input))
}
