//! CESU-8 (Unicode Technical Report #26): UTF-8 in which a supplementary
//! character is written as its two UTF-16 surrogates, each as a 3-byte
//! sequence, and never in UTF-8's 4-byte form. Oracle and SAP databases
//! store text this way.
//!
//! ```
//! use std::borrow::Cow;
//! use utf8_variants::{ErrorKind, cesu8};
//!
//! // U+10400 is F0 90 90 80 in UTF-8 and ED A0 81 ED B0 80 in CESU-8.
//! let bytes = b"\xED\xA0\x81\xED\xB0\x80 ok";
//! assert_eq!(cesu8::decode(bytes), Ok(Cow::Owned("\u{10400} ok".to_string())));
//! assert_eq!(cesu8::encode("\u{10400} ok"), Cow::<[u8]>::Owned(bytes.to_vec()));
//!
//! // Text without supplementary characters is the same in both: borrowed.
//! assert!(matches!(cesu8::decode("façade".as_bytes()), Ok(Cow::Borrowed("façade"))));
//! assert!(matches!(cesu8::encode("façade"), Cow::Borrowed(_)));
//!
//! // Exact errors: where, how long, and why.
//! let err = cesu8::validate("a😀".as_bytes()).unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (1, Some(1)));
//! assert_eq!(err.kind(), ErrorKind::FourByteForm);
//! ```

use crate::{Error, Variant};
#[cfg(feature = "alloc")]
use alloc::borrow::Cow;

/// `Ok(())` if `input` is CESU-8, else the first error.
pub fn validate(input: &[u8]) -> Result<(), Error> {
    Variant::Cesu8.validate(input)
}

/// Whether `input` is CESU-8.
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    Variant::Cesu8.is_valid(input)
}

/// CESU-8 `input` as a string: borrowed when it has no surrogate pair (its
/// bytes are then UTF-8), else converted. The error is
/// [`validate`]'s.
#[cfg(feature = "alloc")]
pub fn decode(input: &[u8]) -> Result<Cow<'_, str>, Error> {
    crate::convert::decode(Variant::Cesu8, input)
}

/// [`decode`], with each invalid piece ([`Error::error_len`] bytes, or an
/// unfinished end) replaced by U+FFFD.
///
/// ```
/// use utf8_variants::cesu8;
/// // A lone lead surrogate, and a 4-byte form.
/// let text = cesu8::decode_lossy(b"a\xED\xA0\x81b\xF0\x9F\x98\x80");
/// assert_eq!(text, "a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}");
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn decode_lossy(input: &[u8]) -> Cow<'_, str> {
    crate::convert::decode_lossy(Variant::Cesu8, input)
}

/// `s` as CESU-8: borrowed when it has no supplementary character, else
/// converted.
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    crate::convert::encode(Variant::Cesu8, s)
}
