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

use crate::drive::{self, Conv};
use crate::error::{Error, Progress, Utf16Error, Utf32Error};
use crate::scalar::{Latin1, Utf8, Utf8Checked, Utf16, Utf32};
use crate::{Transcoder, ops};
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};
use codec_core::{BufferTooSmall, Utf8Error};
use core::convert::Infallible;

impl Transcoder {
    fn latin1_to_utf8_conv(self) -> impl Conv<u8, u8, Infallible> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u8]| {
            drive::drive::<Latin1, Utf8, false>(t, |k| k.latin1_to_utf8, s, d)
        }
    }

    fn latin1_to_utf16_conv(self) -> impl Conv<u8, u16, Infallible> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u16]| {
            drive::drive::<Latin1, Utf16, false>(t, |k| k.latin1_to_utf16, s, d)
        }
    }

    fn latin1_to_utf32_conv(self) -> impl Conv<u8, u32, Infallible> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u32]| {
            drive::drive::<Latin1, Utf32, false>(t, |k| k.latin1_to_utf32, s, d)
        }
    }

    fn utf8_to_latin1_conv(self) -> impl Conv<u8, u8, Utf8Error> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u8]| {
            // One pass: the kernels validate what they convert, and the
            // scalar step (`Utf8Checked`) finds the exact error.
            drive::drive::<Utf8Checked, Latin1, false>(t, |k| k.utf8_to_latin1, s, d)
        }
    }

    fn valid_to_latin1_conv(self) -> impl Conv<u8, u8, Infallible> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u8]| {
            drive::drive::<Utf8, Latin1, false>(t, |k| k.utf8_to_latin1, s, d)
        }
    }

    fn utf16_to_latin1_conv(self) -> impl Conv<u16, u8, Utf16Error> {
        let t = self.checked();
        move |s: &[u16], d: &mut [u8]| {
            drive::drive::<Utf16, Latin1, false>(t, |k| k.utf16_to_latin1, s, d)
        }
    }

    fn utf32_to_latin1_conv(self) -> impl Conv<u32, u8, Utf32Error> {
        let t = self.checked();
        move |s: &[u32], d: &mut [u8]| {
            drive::drive::<Utf32, Latin1, false>(t, |k| k.utf32_to_latin1, s, d)
        }
    }
}

ops! {
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
    fn latin1_to_utf8(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.latin1_to_utf8_conv(), src, dst)
    }

    /// Converts as much Latin-1 as fits into `dst` to UTF-8.
    ///
    /// ```
    /// let p = transcode::latin1_to_utf8_partial(b"\xE9\xE9", &mut [0; 3]);
    /// assert_eq!((p.read(), p.written()), (1, 2));
    /// ```
    fn latin1_to_utf8_partial(&self, src: &[u8], dst: &mut [u8]) -> Progress {
        drive::lossy_partial(self.latin1_to_utf8_conv()(src, dst))
    }

    /// Converts Latin-1 to UTF-16: one `u16` a byte.
    ///
    /// ```
    /// let mut dst = [0u16; 2];
    /// assert_eq!(transcode::latin1_to_utf16(b"\xE9!", &mut dst), Ok(2));
    /// assert_eq!(dst, [0xE9, 0x21]);
    /// ```
    fn latin1_to_utf16(&self, src: &[u8], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.latin1_to_utf16_conv(), src, dst)
    }

    /// Converts as much Latin-1 as fits into `dst` to UTF-16.
    ///
    /// ```
    /// let p = transcode::latin1_to_utf16_partial(b"abc", &mut [0; 2]);
    /// assert_eq!((p.read(), p.written()), (2, 2));
    /// ```
    fn latin1_to_utf16_partial(&self, src: &[u8], dst: &mut [u16]) -> Progress {
        drive::lossy_partial(self.latin1_to_utf16_conv()(src, dst))
    }

    /// Converts Latin-1 to UTF-32: one `u32` a byte.
    ///
    /// ```
    /// let mut dst = [0u32; 1];
    /// assert_eq!(transcode::latin1_to_utf32(b"\xFF", &mut dst), Ok(1));
    /// assert_eq!(dst, [0xFF]);
    /// ```
    fn latin1_to_utf32(&self, src: &[u8], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.latin1_to_utf32_conv(), src, dst)
    }

    /// Converts as much Latin-1 as fits into `dst` to UTF-32.
    ///
    /// ```
    /// let p = transcode::latin1_to_utf32_partial(b"abc", &mut [0; 1]);
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// ```
    fn latin1_to_utf32_partial(&self, src: &[u8], dst: &mut [u32]) -> Progress {
        drive::lossy_partial(self.latin1_to_utf32_conv()(src, dst))
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
    fn utf8_to_latin1(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error<Utf8Error>> {
        drive::strict_form(self.utf8_to_latin1_conv(), src, dst)
    }

    /// Converts as much UTF-8 as fits into `dst` to Latin-1, validating.
    ///
    /// ```
    /// let p = transcode::utf8_to_latin1_partial("éé".as_bytes(), &mut [0; 1])?;
    /// assert_eq!((p.read(), p.written()), (2, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
    /// ```
    fn utf8_to_latin1_partial(&self, src: &[u8], dst: &mut [u8]) -> Result<Progress, Error<Utf8Error>> {
        drive::partial(self.utf8_to_latin1_conv()(src, dst))
    }

    /// Converts a `&str` to Latin-1, with no UTF-8 validation; stops at the
    /// first character above U+00FF.
    ///
    /// ```
    /// let mut dst = [0u8; 4];
    /// assert_eq!(transcode::str_to_latin1("é", &mut dst), Ok(1));
    /// assert!(transcode::str_to_latin1("€", &mut dst).is_err());
    /// ```
    fn str_to_latin1(&self, src: &str, dst: &mut [u8]) -> Result<usize, Error<Infallible>> {
        drive::strict_form(self.valid_to_latin1_conv(), src.as_bytes(), dst)
    }

    /// Converts UTF-16 to Latin-1, validating: the first unpaired surrogate
    /// ([`Utf16Error`]) or character above U+00FF stops it.
    ///
    /// ```
    /// let mut dst = [0u8; 4];
    /// assert_eq!(transcode::utf16_to_latin1(&[0xE9, 0x21], &mut dst), Ok(2));
    /// assert_eq!(transcode::utf16_to_latin1(&[0x61, 0x100], &mut dst).unwrap_err().read(), 1);
    /// ```
    fn utf16_to_latin1(&self, src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
        drive::strict_form(self.utf16_to_latin1_conv(), src, dst)
    }

    /// Converts as much UTF-16 as fits into `dst` to Latin-1, validating.
    ///
    /// ```
    /// let p = transcode::utf16_to_latin1_partial(&[0x61, 0x62], &mut [0; 1])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_to_latin1_partial(&self, src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
        drive::partial(self.utf16_to_latin1_conv()(src, dst))
    }

    /// Converts UTF-32 to Latin-1, validating: the first invalid unit
    /// ([`Utf32Error`]) or character above U+00FF stops it.
    ///
    /// ```
    /// let mut dst = [0u8; 4];
    /// assert_eq!(transcode::utf32_to_latin1(&[0xFF], &mut dst), Ok(1));
    /// assert!(transcode::utf32_to_latin1(&[0x1F600], &mut dst).is_err());
    /// ```
    fn utf32_to_latin1(&self, src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
        drive::strict_form(self.utf32_to_latin1_conv(), src, dst)
    }

    /// Converts as much UTF-32 as fits into `dst` to Latin-1, validating.
    ///
    /// ```
    /// let p = transcode::utf32_to_latin1_partial(&[0x61, 0x62], &mut [0; 1])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
    /// ```
    fn utf32_to_latin1_partial(&self, src: &[u32], dst: &mut [u8]) -> Result<Progress, Error<Utf32Error>> {
        drive::partial(self.utf32_to_latin1_conv()(src, dst))
    }
}

#[cfg(feature = "alloc")]
ops! {
    /// Converts Latin-1 to a new `String`.
    ///
    /// ```
    /// assert_eq!(transcode::latin1_to_string(b"caf\xE9"), "café");
    /// ```
    fn latin1_to_string(&self, src: &[u8]) -> String {
        let (out, _) = drive::to_vec(self.latin1_to_utf8_conv(), src, self.utf8_len_from_latin1(src));
        crate::string_from_utf8(out)
    }

    /// Converts Latin-1 to a new `Vec<u16>`.
    ///
    /// ```
    /// assert_eq!(transcode::latin1_to_utf16_vec(b"\xE9"), vec![0xE9]);
    /// ```
    fn latin1_to_utf16_vec(&self, src: &[u8]) -> Vec<u16> {
        drive::to_vec(self.latin1_to_utf16_conv(), src, src.len()).0
    }

    /// Converts Latin-1 to a new `Vec<u32>`.
    ///
    /// ```
    /// assert_eq!(transcode::latin1_to_utf32_vec(b"\xE9"), vec![0xE9]);
    /// ```
    fn latin1_to_utf32_vec(&self, src: &[u8]) -> Vec<u32> {
        drive::to_vec(self.latin1_to_utf32_conv(), src, src.len()).0
    }

    /// Converts UTF-8 to a new Latin-1 vector, or returns the first error,
    /// as [`utf8_to_latin1`].
    ///
    /// ```
    /// assert_eq!(transcode::utf8_to_latin1_vec("é".as_bytes()), Ok(vec![0xE9]));
    /// ```
    fn utf8_to_latin1_vec(&self, src: &[u8]) -> Result<Vec<u8>, Error<Utf8Error>> {
        drive::vec_result(drive::to_vec(self.utf8_to_latin1_conv(), src, src.len()))
    }

    /// Converts a `&str` to a new Latin-1 vector, or says where the first
    /// character above U+00FF is.
    ///
    /// ```
    /// assert_eq!(transcode::str_to_latin1_vec("é"), Ok(vec![0xE9]));
    /// ```
    fn str_to_latin1_vec(&self, src: &str) -> Result<Vec<u8>, Error<Infallible>> {
        let src = src.as_bytes();
        drive::vec_result(drive::to_vec(self.valid_to_latin1_conv(), src, self.utf32_len_valid(src)))
    }

    /// Converts UTF-16 to a new Latin-1 vector, or returns the first error,
    /// as [`utf16_to_latin1`].
    ///
    /// ```
    /// assert_eq!(transcode::utf16_to_latin1_vec(&[0xE9]), Ok(vec![0xE9]));
    /// ```
    fn utf16_to_latin1_vec(&self, src: &[u16]) -> Result<Vec<u8>, Error<Utf16Error>> {
        drive::vec_result(drive::to_vec(self.utf16_to_latin1_conv(), src, src.len()))
    }

    /// Converts UTF-32 to a new Latin-1 vector, or returns the first error,
    /// as [`utf32_to_latin1`].
    ///
    /// ```
    /// assert_eq!(transcode::utf32_to_latin1_vec(&[0xE9]), Ok(vec![0xE9]));
    /// ```
    fn utf32_to_latin1_vec(&self, src: &[u32]) -> Result<Vec<u8>, Error<Utf32Error>> {
        drive::vec_result(drive::to_vec(self.utf32_to_latin1_conv(), src, src.len()))
    }
}
