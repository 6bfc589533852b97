//! Java's Modified UTF-8 (The Java Virtual Machine Specification, §4.4.7):
//! CESU-8 in which U+0000 is written `C0 80`, so that no byte is zero. It is
//! what class files, `DataOutput.writeUTF` (after its 2-byte length) and
//! JNI's `GetStringUTFChars` hold.
//!
//! ```
//! use std::borrow::Cow;
//! use utf8_variants::{ErrorKind, mutf8};
//!
//! let bytes = b"a\xC0\x80b\xED\xA0\xBD\xED\xB8\x80"; // "a\0b😀"
//! assert_eq!(mutf8::decode(bytes).as_deref(), Ok("a\0b😀"));
//! assert_eq!(mutf8::encode("a\0b😀"), Cow::<[u8]>::Owned(bytes.to_vec()));
//!
//! // A raw 00 is not Modified UTF-8.
//! let err = mutf8::validate(b"a\x00").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.kind()), (1, ErrorKind::Nul));
//! ```
//!
//! Java strings may hold unpaired surrogates, which `writeUTF` writes as
//! they are. This crate follows the JVM specification, which describes
//! surrogates only as the halves of a supplementary character: an unpaired
//! one is an [`UnpairedSurrogate`](crate::ErrorKind::UnpairedSurrogate)
//! error, and the UTF-8 it decodes to is always well-formed.

use crate::{Error, Variant};
#[cfg(feature = "alloc")]
use alloc::borrow::Cow;

/// `Ok(())` if `input` is Modified UTF-8, else the first error.
pub fn validate(input: &[u8]) -> Result<(), Error> {
    Variant::Mutf8.validate(input)
}

/// Whether `input` is Modified UTF-8.
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    Variant::Mutf8.is_valid(input)
}

/// Modified UTF-8 `input` as a string: borrowed when it has no surrogate
/// pair and no `C0 80` (its bytes are then UTF-8), else converted. The
/// error is [`validate`]'s.
#[cfg(feature = "alloc")]
pub fn decode(input: &[u8]) -> Result<Cow<'_, str>, Error> {
    crate::convert::decode(Variant::Mutf8, input)
}

/// [`decode`], with each invalid piece ([`Error::error_len`] bytes, or an
/// unfinished end) replaced by U+FFFD.
///
/// ```
/// assert_eq!(utf8_variants::mutf8::decode_lossy(b"a\x00b\xC0"), "a\u{FFFD}b\u{FFFD}");
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn decode_lossy(input: &[u8]) -> Cow<'_, str> {
    crate::convert::decode_lossy(Variant::Mutf8, input)
}

/// `s` as Modified UTF-8: borrowed when it has no supplementary character
/// and no U+0000, else converted.
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    crate::convert::encode(Variant::Mutf8, s)
}
