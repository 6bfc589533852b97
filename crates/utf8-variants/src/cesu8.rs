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
use alloc::{borrow::Cow, vec::Vec};

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

/// CESU-8 `input` as potentially ill-formed UTF-16 (a Java `String`), into
/// `dst`: the number of units written. Lossless: every sequence is one
/// unit, a surrogate without its partner included, as
/// `DataInput.readUTF` reads it.
///
/// The input is read in the generalized form of CESU-8 (see
/// [Java strings](crate#java-strings)): any surrogate may stand alone, and
/// everything else that CESU-8 forbids is an error, at the position, with
/// the length and kind that [`validate`] gives it.
///
/// # Errors
///
/// [`ToUtf16Error`]: the input is invalid ([`ToUtf16ErrorKind::Invalid`],
/// after the conversion of everything before the error), or `dst` cannot
/// hold the conversion of the input up to its first error
/// ([`ToUtf16ErrorKind::BufferTooSmall`], after the units that fit). Nothing
/// after [`ToUtf16Error::written`] is changed.
///
/// ```
/// use utf8_variants::{ErrorKind, cesu8};
///
/// let mut units = [0u16; 8];
/// let n = cesu8::to_utf16(b"x\xED\xA0\x80y", &mut units).unwrap();
/// assert_eq!(&units[..n], [0x78, 0xD800, 0x79]);
///
/// let err = cesu8::to_utf16(b"x\xF0\x9F\x98\x80", &mut units).unwrap_err();
/// assert_eq!((err.read(), err.written()), (1, 1));
/// assert_eq!(err.invalid().map(|e| e.kind()), Some(ErrorKind::FourByteForm));
/// ```
///
/// [`ToUtf16Error`]: crate::ToUtf16Error
/// [`ToUtf16Error::written`]: crate::ToUtf16Error::written
/// [`ToUtf16ErrorKind::Invalid`]: crate::ToUtf16ErrorKind::Invalid
/// [`ToUtf16ErrorKind::BufferTooSmall`]: crate::ToUtf16ErrorKind::BufferTooSmall
pub fn to_utf16(input: &[u8], dst: &mut [u16]) -> Result<usize, crate::ToUtf16Error> {
    crate::java::to_utf16(Variant::Cesu8, input, dst)
}

/// [`to_utf16`] into a new `Vec`: CESU-8 `input` as potentially ill-formed
/// UTF-16, lone surrogates kept.
///
/// # Errors
///
/// The first error of the generalized form (see [`to_utf16`]).
///
/// ```
/// use utf8_variants::cesu8;
/// assert_eq!(cesu8::to_utf16_vec(b"x\xED\xA0\x80y"), Ok(vec![0x78, 0xD800, 0x79]));
/// // A pair is two units, as in Java.
/// assert_eq!(cesu8::to_utf16_vec(b"\xED\xA0\xBD\xED\xB8\x80"), Ok(vec![0xD83D, 0xDE00]));
/// ```
#[cfg(feature = "alloc")]
pub fn to_utf16_vec(input: &[u8]) -> Result<Vec<u16>, Error> {
    crate::java::to_utf16_vec(Variant::Cesu8, input)
}

/// CESU-8 `input` as WTF-8, lone surrogates kept: a surrogate pair becomes
/// its supplementary character's 4-byte form, a lone surrogate keeps its 3
/// bytes (the same in WTF-8).
///
/// # Errors
///
/// The first error of the generalized form (see [`to_utf16`]).
///
/// ```
/// use utf8_variants::cesu8;
/// let w = cesu8::to_wtf8(b"\xED\xA0\xBD\xED\xB8\x80\xED\xA0\xBD").unwrap();
/// assert_eq!(w.as_bytes(), b"\xF0\x9F\x98\x80\xED\xA0\xBD"); // U+1F600, then a lone D83D
/// assert_eq!(w.to_utf16(), [0xD83D, 0xDE00, 0xD83D]);
/// ```
#[cfg(feature = "alloc")]
pub fn to_wtf8(input: &[u8]) -> Result<crate::wtf8::Wtf8Buf, Error> {
    crate::java::to_wtf8(Variant::Cesu8, input)
}

/// WTF-8 `input` as CESU-8, lone surrogates kept: a supplementary
/// character becomes its surrogate pair (two 3-byte sequences), a lone
/// surrogate keeps its 3 bytes. Borrowed when the bytes are the same. The
/// inverse of [`to_wtf8`].
///
/// # Errors
///
/// `input` is not WTF-8: [`wtf8::validate`](crate::wtf8::validate)'s error.
///
/// ```
/// use utf8_variants::cesu8;
/// let bytes = cesu8::from_wtf8(b"\xF0\x9F\x98\x80\xED\xA0\xBD").unwrap();
/// assert_eq!(&*bytes, b"\xED\xA0\xBD\xED\xB8\x80\xED\xA0\xBD");
/// ```
#[cfg(feature = "alloc")]
pub fn from_wtf8(input: &[u8]) -> Result<Cow<'_, [u8]>, Error> {
    crate::java::from_wtf8(Variant::Cesu8, input)
}

/// Potentially ill-formed UTF-16 as CESU-8, each unit on its own:
/// `0000..=007F` as 1 byte, `0080..=07FF` as 2, the rest as 3, surrogates
/// included (a pair becomes two 3-byte sequences). Never fails.
///
/// ```
/// use utf8_variants::cesu8;
/// assert_eq!(cesu8::from_utf16(&[0x78, 0xD800, 0x00]), b"\x78\xED\xA0\x80\x00");
/// assert_eq!(cesu8::from_utf16(&[0xD83D, 0xDE00]), b"\xED\xA0\xBD\xED\xB8\x80");
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn from_utf16(units: &[u16]) -> Vec<u8> {
    crate::java::from_utf16(Variant::Cesu8, units)
}
