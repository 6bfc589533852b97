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
//! they are. [`validate`] and [`decode`] follow the JVM specification,
//! which describes surrogates only as the halves of a supplementary
//! character: an unpaired one is an
//! [`UnpairedSurrogate`](crate::ErrorKind::UnpairedSurrogate) error, and
//! the UTF-8 it decodes to is always well-formed. To keep one, convert to
//! UTF-16 ([`to_utf16`], [`to_utf16_vec`]) or WTF-8 ([`to_wtf8`]), and
//! back with [`from_utf16`] and [`from_wtf8`]; see
//! [Java strings](crate#java-strings).

use crate::{Error, Variant};
#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, vec::Vec};

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

/// Modified UTF-8 `input` as potentially ill-formed UTF-16 (a Java `String`), into
/// `dst`: the number of units written. Lossless: every sequence is one
/// unit, a surrogate without its partner included, as
/// `DataInput.readUTF` reads it.
///
/// The input is read in the generalized form of Modified UTF-8 (see
/// [Java strings](crate#java-strings)): any surrogate may stand alone, and
/// everything else that Modified UTF-8 forbids is an error, at the position, with
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
/// use utf8_variants::{ErrorKind, mutf8};
///
/// let mut units = [0u16; 8];
/// let n = mutf8::to_utf16(b"x\xED\xA0\x80y", &mut units).unwrap();
/// assert_eq!(&units[..n], [0x78, 0xD800, 0x79]);
///
/// let err = mutf8::to_utf16(b"x\xF0\x9F\x98\x80", &mut units).unwrap_err();
/// assert_eq!((err.read(), err.written()), (1, 1));
/// assert_eq!(err.invalid().map(|e| e.kind()), Some(ErrorKind::FourByteForm));
/// ```
///
/// [`ToUtf16Error`]: crate::ToUtf16Error
/// [`ToUtf16Error::written`]: crate::ToUtf16Error::written
/// [`ToUtf16ErrorKind::Invalid`]: crate::ToUtf16ErrorKind::Invalid
/// [`ToUtf16ErrorKind::BufferTooSmall`]: crate::ToUtf16ErrorKind::BufferTooSmall
pub fn to_utf16(input: &[u8], dst: &mut [u16]) -> Result<usize, crate::ToUtf16Error> {
    crate::java::to_utf16(Variant::Mutf8, input, dst)
}

/// [`to_utf16`] into a new `Vec`: Modified UTF-8 `input` as potentially ill-formed
/// UTF-16, lone surrogates kept.
///
/// # Errors
///
/// The first error of the generalized form (see [`to_utf16`]).
///
/// ```
/// use utf8_variants::mutf8;
/// assert_eq!(mutf8::to_utf16_vec(b"x\xED\xA0\x80y"), Ok(vec![0x78, 0xD800, 0x79]));
/// // A pair is two units, as in Java.
/// assert_eq!(mutf8::to_utf16_vec(b"\xED\xA0\xBD\xED\xB8\x80"), Ok(vec![0xD83D, 0xDE00]));
/// ```
#[cfg(feature = "alloc")]
pub fn to_utf16_vec(input: &[u8]) -> Result<Vec<u16>, Error> {
    crate::java::to_utf16_vec(Variant::Mutf8, input)
}

/// Modified UTF-8 `input` as WTF-8, lone surrogates kept: a surrogate pair becomes
/// its supplementary character's 4-byte form, a lone surrogate keeps its 3
/// bytes (the same in WTF-8).
///
/// # Errors
///
/// The first error of the generalized form (see [`to_utf16`]).
///
/// ```
/// use utf8_variants::mutf8;
/// let w = mutf8::to_wtf8(b"\xED\xA0\xBD\xED\xB8\x80\xED\xA0\xBD").unwrap();
/// assert_eq!(w.as_bytes(), b"\xF0\x9F\x98\x80\xED\xA0\xBD"); // U+1F600, then a lone D83D
/// assert_eq!(w.to_utf16(), [0xD83D, 0xDE00, 0xD83D]);
/// ```
#[cfg(feature = "alloc")]
pub fn to_wtf8(input: &[u8]) -> Result<crate::wtf8::Wtf8Buf, Error> {
    crate::java::to_wtf8(Variant::Mutf8, input)
}

/// WTF-8 `input` as Modified UTF-8, lone surrogates kept: a supplementary
/// character becomes its surrogate pair (two 3-byte sequences), a lone
/// surrogate keeps its 3 bytes. Borrowed when the bytes are the same. The
/// inverse of [`to_wtf8`].
///
/// # Errors
///
/// `input` is not WTF-8: [`wtf8::validate`](crate::wtf8::validate)'s error.
///
/// ```
/// use utf8_variants::mutf8;
/// let bytes = mutf8::from_wtf8(b"\xF0\x9F\x98\x80\xED\xA0\xBD").unwrap();
/// assert_eq!(&*bytes, b"\xED\xA0\xBD\xED\xB8\x80\xED\xA0\xBD");
/// ```
#[cfg(feature = "alloc")]
pub fn from_wtf8(input: &[u8]) -> Result<Cow<'_, [u8]>, Error> {
    crate::java::from_wtf8(Variant::Mutf8, input)
}

/// Potentially ill-formed UTF-16 (a Java `String`) as Modified UTF-8,
/// each unit on its own as `DataOutput.writeUTF` writes it: `0001..=007F`
/// as 1 byte, `0000` (as `C0 80`) and `0080..=07FF` as 2, the rest as 3,
/// surrogates included (a pair becomes two 3-byte sequences). Never fails.
///
/// `writeUTF` writes the length of these bytes first, as 2 big-endian
/// bytes, and refuses more than 65,535: that prefix is part of the
/// `DataOutput` format, not of Modified UTF-8, and is not written here.
///
/// ```
/// use utf8_variants::mutf8;
/// // Java: new DataOutputStream(out).writeUTF("x\uD800y") writes
/// // 00 05 78 ED A0 80 79.
/// assert_eq!(mutf8::from_utf16(&[0x78, 0xD800, 0x79]), b"\x78\xED\xA0\x80\x79");
/// assert_eq!(mutf8::from_utf16(&[0x0000]), b"\xC0\x80");
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn from_utf16(units: &[u16]) -> Vec<u8> {
    crate::java::from_utf16(Variant::Mutf8, units)
}
