//! Latin-1 (ISO 8859-1, the first 256 code points) to and from UTF-8,
//! UTF-16 and UTF-32.
//!
//! Latin-1 input is always valid, so its conversions can only run out of
//! room. Conversions to Latin-1 stop at the first character above U+00FF
//! ([`ErrorKind::NotLatin1`](crate::ErrorKind::NotLatin1)); they have no
//! lossy form, since the standard library defines none (encoding_rs's
//! `convert_utf16_to_latin1_lossy` keeps the low byte, the WHATWG encoder
//! writes an HTML numeric reference: neither is a replacement character).
//!
//! Note that WHATWG's "latin1" / "iso-8859-1" label means windows-1252,
//! which differs in `80..=9F`; this module is ISO 8859-1.
//!
//! Kernels: `arch/x86_64/*/latin1.rs`.

use crate::Transcoder;
use crate::direction::{
    Latin1ToUtf8, Latin1ToUtf16, Latin1ToUtf32, StrToLatin1, Utf8ToLatin1, Utf16ToLatin1,
    Utf32ToLatin1,
};
use crate::error::{Error, Progress, Utf16Error, Utf32Error};
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};
use codec_core::{BufferTooSmall, Utf8Error};
use core::convert::Infallible;

impl Transcoder {
    /// [`latin1_to_utf8`] with these kernels.
    pub fn latin1_to_utf8(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Latin1ToUtf8>(src, dst)
    }

    /// [`latin1_to_utf8_partial`] with these kernels.
    pub fn latin1_to_utf8_partial(&self, src: &[u8], dst: &mut [u8]) -> Progress {
        self.convert_lossy_partial::<Latin1ToUtf8>(src, dst)
    }

    /// [`latin1_to_utf16`] with these kernels.
    pub fn latin1_to_utf16(&self, src: &[u8], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Latin1ToUtf16>(src, dst)
    }

    /// [`latin1_to_utf16_partial`] with these kernels.
    pub fn latin1_to_utf16_partial(&self, src: &[u8], dst: &mut [u16]) -> Progress {
        self.convert_lossy_partial::<Latin1ToUtf16>(src, dst)
    }

    /// [`latin1_to_utf32`] with these kernels.
    pub fn latin1_to_utf32(&self, src: &[u8], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Latin1ToUtf32>(src, dst)
    }

    /// [`latin1_to_utf32_partial`] with these kernels.
    pub fn latin1_to_utf32_partial(&self, src: &[u8], dst: &mut [u32]) -> Progress {
        self.convert_lossy_partial::<Latin1ToUtf32>(src, dst)
    }

    /// [`utf8_to_latin1`] with these kernels.
    pub fn utf8_to_latin1(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error<Utf8Error>> {
        self.convert::<Utf8ToLatin1>(src, dst)
    }

    /// [`utf8_to_latin1_partial`] with these kernels.
    pub fn utf8_to_latin1_partial(
        &self,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<Progress, Error<Utf8Error>> {
        self.convert_partial::<Utf8ToLatin1>(src, dst)
    }

    /// [`str_to_latin1`] with these kernels.
    pub fn str_to_latin1(&self, src: &str, dst: &mut [u8]) -> Result<usize, Error<Infallible>> {
        self.convert::<StrToLatin1>(src.as_bytes(), dst)
    }

    /// [`utf16_to_latin1`] with these kernels.
    pub fn utf16_to_latin1(&self, src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
        self.convert::<Utf16ToLatin1>(src, dst)
    }

    /// [`utf16_to_latin1_partial`] with these kernels.
    pub fn utf16_to_latin1_partial(
        &self,
        src: &[u16],
        dst: &mut [u8],
    ) -> Result<Progress, Error<Utf16Error>> {
        self.convert_partial::<Utf16ToLatin1>(src, dst)
    }

    /// [`utf32_to_latin1`] with these kernels.
    pub fn utf32_to_latin1(&self, src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
        self.convert::<Utf32ToLatin1>(src, dst)
    }

    /// [`utf32_to_latin1_partial`] with these kernels.
    pub fn utf32_to_latin1_partial(
        &self,
        src: &[u32],
        dst: &mut [u8],
    ) -> Result<Progress, Error<Utf32Error>> {
        self.convert_partial::<Utf32ToLatin1>(src, dst)
    }
}

/// Converts Latin-1 to UTF-8: returns the number of bytes written, or
/// how many `dst` needed ([`utf8_len_from_latin1`](crate::utf8_len_from_latin1);
/// `dst.len() >= 2 * src.len()` always suffices).
///
/// ```
/// let mut dst = [0u8; 8];
/// let n = transcode::latin1_to_utf8(b"caf\xE9", &mut dst)?;
/// assert_eq!(&dst[..n], "café".as_bytes());
/// # Ok::<(), transcode::BufferTooSmall>(())
/// ```
#[inline]
pub fn latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().latin1_to_utf8(src, dst)
}

/// Converts as much Latin-1 as fits into `dst` to UTF-8.
///
/// ```
/// let p = transcode::latin1_to_utf8_partial(b"\xE9\xE9", &mut [0; 3]);
/// assert_eq!((p.read(), p.written()), (1, 2));
/// ```
#[inline]
pub fn latin1_to_utf8_partial(src: &[u8], dst: &mut [u8]) -> Progress {
    Transcoder::new().latin1_to_utf8_partial(src, dst)
}

/// Converts Latin-1 to UTF-16: one `u16` a byte.
///
/// ```
/// let mut dst = [0u16; 2];
/// assert_eq!(transcode::latin1_to_utf16(b"\xE9!", &mut dst), Ok(2));
/// assert_eq!(dst, [0xE9, 0x21]);
/// ```
#[inline]
pub fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().latin1_to_utf16(src, dst)
}

/// Converts as much Latin-1 as fits into `dst` to UTF-16.
///
/// ```
/// let p = transcode::latin1_to_utf16_partial(b"abc", &mut [0; 2]);
/// assert_eq!((p.read(), p.written()), (2, 2));
/// ```
#[inline]
pub fn latin1_to_utf16_partial(src: &[u8], dst: &mut [u16]) -> Progress {
    Transcoder::new().latin1_to_utf16_partial(src, dst)
}

/// Converts Latin-1 to UTF-32: one `u32` a byte.
///
/// ```
/// let mut dst = [0u32; 1];
/// assert_eq!(transcode::latin1_to_utf32(b"\xFF", &mut dst), Ok(1));
/// assert_eq!(dst, [0xFF]);
/// ```
#[inline]
pub fn latin1_to_utf32(src: &[u8], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().latin1_to_utf32(src, dst)
}

/// Converts as much Latin-1 as fits into `dst` to UTF-32.
///
/// ```
/// let p = transcode::latin1_to_utf32_partial(b"abc", &mut [0; 1]);
/// assert_eq!((p.read(), p.written()), (1, 1));
/// ```
#[inline]
pub fn latin1_to_utf32_partial(src: &[u8], dst: &mut [u32]) -> Progress {
    Transcoder::new().latin1_to_utf32_partial(src, dst)
}

/// Converts UTF-8 to Latin-1, validating: returns the number of bytes
/// written, or the first error in input order:
/// [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) with std's
/// [`Utf8Error`], [`ErrorKind::NotLatin1`](crate::ErrorKind::NotLatin1)
/// at a character above U+00FF, or a too-small output
/// (`dst.len() >= src.len()` always suffices).
///
/// ```
/// use transcode::ErrorKind;
/// let mut dst = [0u8; 8];
/// let n = transcode::utf8_to_latin1("café".as_bytes(), &mut dst)?;
/// assert_eq!(&dst[..n], b"caf\xE9");
/// let err = transcode::utf8_to_latin1("a€".as_bytes(), &mut dst).unwrap_err();
/// assert_eq!((err.read(), err.kind()), (1, &ErrorKind::NotLatin1('€')));
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_latin1(src: &[u8], dst: &mut [u8]) -> Result<usize, Error<Utf8Error>> {
    Transcoder::new().utf8_to_latin1(src, dst)
}

/// Converts as much UTF-8 as fits into `dst` to Latin-1, validating.
///
/// ```
/// let p = transcode::utf8_to_latin1_partial("éé".as_bytes(), &mut [0; 1])?;
/// assert_eq!((p.read(), p.written()), (2, 1));
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_latin1_partial(src: &[u8], dst: &mut [u8]) -> Result<Progress, Error<Utf8Error>> {
    Transcoder::new().utf8_to_latin1_partial(src, dst)
}

/// Converts a `&str` to Latin-1, with no UTF-8 validation; stops at the
/// first character above U+00FF.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(transcode::str_to_latin1("é", &mut dst), Ok(1));
/// assert!(transcode::str_to_latin1("€", &mut dst).is_err());
/// ```
#[inline]
pub fn str_to_latin1(src: &str, dst: &mut [u8]) -> Result<usize, Error<Infallible>> {
    Transcoder::new().str_to_latin1(src, dst)
}

/// Converts UTF-16 to Latin-1, validating: the first unpaired surrogate
/// ([`Utf16Error`]) or character above U+00FF stops it.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(transcode::utf16_to_latin1(&[0xE9, 0x21], &mut dst), Ok(2));
/// assert_eq!(transcode::utf16_to_latin1(&[0x61, 0x100], &mut dst).unwrap_err().read(), 1);
/// ```
#[inline]
pub fn utf16_to_latin1(src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
    Transcoder::new().utf16_to_latin1(src, dst)
}

/// Converts as much UTF-16 as fits into `dst` to Latin-1, validating.
///
/// ```
/// let p = transcode::utf16_to_latin1_partial(&[0x61, 0x62], &mut [0; 1])?;
/// assert_eq!((p.read(), p.written()), (1, 1));
/// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
/// ```
#[inline]
pub fn utf16_to_latin1_partial(src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
    Transcoder::new().utf16_to_latin1_partial(src, dst)
}

/// Converts UTF-32 to Latin-1, validating: the first invalid unit
/// ([`Utf32Error`]) or character above U+00FF stops it.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(transcode::utf32_to_latin1(&[0xFF], &mut dst), Ok(1));
/// assert!(transcode::utf32_to_latin1(&[0x1F600], &mut dst).is_err());
/// ```
#[inline]
pub fn utf32_to_latin1(src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
    Transcoder::new().utf32_to_latin1(src, dst)
}

/// Converts as much UTF-32 as fits into `dst` to Latin-1, validating.
///
/// ```
/// let p = transcode::utf32_to_latin1_partial(&[0x61, 0x62], &mut [0; 1])?;
/// assert_eq!((p.read(), p.written()), (1, 1));
/// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
/// ```
#[inline]
pub fn utf32_to_latin1_partial(src: &[u32], dst: &mut [u8]) -> Result<Progress, Error<Utf32Error>> {
    Transcoder::new().utf32_to_latin1_partial(src, dst)
}

#[cfg(feature = "alloc")]
impl Transcoder {
    /// [`latin1_to_string`] with these kernels.
    pub fn latin1_to_string(&self, src: &[u8]) -> String {
        self.lossy_string::<Latin1ToUtf8>(src)
    }

    /// [`latin1_to_utf16_vec`] with these kernels.
    pub fn latin1_to_utf16_vec(&self, src: &[u8]) -> Vec<u16> {
        self.convert_lossy_vec::<Latin1ToUtf16>(src)
    }

    /// [`latin1_to_utf32_vec`] with these kernels.
    pub fn latin1_to_utf32_vec(&self, src: &[u8]) -> Vec<u32> {
        self.convert_lossy_vec::<Latin1ToUtf32>(src)
    }

    /// [`utf8_to_latin1_vec`] with these kernels.
    pub fn utf8_to_latin1_vec(&self, src: &[u8]) -> Result<Vec<u8>, Error<Utf8Error>> {
        self.convert_vec::<Utf8ToLatin1>(src)
    }

    /// [`str_to_latin1_vec`] with these kernels.
    pub fn str_to_latin1_vec(&self, src: &str) -> Result<Vec<u8>, Error<Infallible>> {
        self.convert_vec::<StrToLatin1>(src.as_bytes())
    }

    /// [`utf16_to_latin1_vec`] with these kernels.
    pub fn utf16_to_latin1_vec(&self, src: &[u16]) -> Result<Vec<u8>, Error<Utf16Error>> {
        self.convert_vec::<Utf16ToLatin1>(src)
    }

    /// [`utf32_to_latin1_vec`] with these kernels.
    pub fn utf32_to_latin1_vec(&self, src: &[u32]) -> Result<Vec<u8>, Error<Utf32Error>> {
        self.convert_vec::<Utf32ToLatin1>(src)
    }
}

#[cfg(feature = "alloc")]
/// Converts Latin-1 to a new `String`.
///
/// ```
/// assert_eq!(transcode::latin1_to_string(b"caf\xE9"), "café");
/// ```
#[inline]
pub fn latin1_to_string(src: &[u8]) -> String {
    Transcoder::new().latin1_to_string(src)
}

#[cfg(feature = "alloc")]
/// Converts Latin-1 to a new `Vec<u16>`.
///
/// ```
/// assert_eq!(transcode::latin1_to_utf16_vec(b"\xE9"), vec![0xE9]);
/// ```
#[inline]
pub fn latin1_to_utf16_vec(src: &[u8]) -> Vec<u16> {
    Transcoder::new().latin1_to_utf16_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts Latin-1 to a new `Vec<u32>`.
///
/// ```
/// assert_eq!(transcode::latin1_to_utf32_vec(b"\xE9"), vec![0xE9]);
/// ```
#[inline]
pub fn latin1_to_utf32_vec(src: &[u8]) -> Vec<u32> {
    Transcoder::new().latin1_to_utf32_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new Latin-1 vector, or returns the first error,
/// as [`utf8_to_latin1`].
///
/// ```
/// assert_eq!(transcode::utf8_to_latin1_vec("é".as_bytes()), Ok(vec![0xE9]));
/// ```
#[inline]
pub fn utf8_to_latin1_vec(src: &[u8]) -> Result<Vec<u8>, Error<Utf8Error>> {
    Transcoder::new().utf8_to_latin1_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts a `&str` to a new Latin-1 vector, or says where the first
/// character above U+00FF is.
///
/// ```
/// assert_eq!(transcode::str_to_latin1_vec("é"), Ok(vec![0xE9]));
/// ```
#[inline]
pub fn str_to_latin1_vec(src: &str) -> Result<Vec<u8>, Error<Infallible>> {
    Transcoder::new().str_to_latin1_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 to a new Latin-1 vector, or returns the first error,
/// as [`utf16_to_latin1`].
///
/// ```
/// assert_eq!(transcode::utf16_to_latin1_vec(&[0xE9]), Ok(vec![0xE9]));
/// ```
#[inline]
pub fn utf16_to_latin1_vec(src: &[u16]) -> Result<Vec<u8>, Error<Utf16Error>> {
    Transcoder::new().utf16_to_latin1_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-32 to a new Latin-1 vector, or returns the first error,
/// as [`utf32_to_latin1`].
///
/// ```
/// assert_eq!(transcode::utf32_to_latin1_vec(&[0xE9]), Ok(vec![0xE9]));
/// ```
#[inline]
pub fn utf32_to_latin1_vec(src: &[u32]) -> Result<Vec<u8>, Error<Utf32Error>> {
    Transcoder::new().utf32_to_latin1_vec(src)
}
