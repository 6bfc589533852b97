//! UTF-32 to and from UTF-8 and UTF-16 (native `u32`s and `u16`s).
//!
//! Kernels: `arch/x86_64/*/utf32.rs`.

use crate::drive::{self, Conv};
use crate::error::{Error, Progress, Utf16Error, Utf32Error};
use crate::scalar::{Utf8, Utf16, Utf32};
use crate::{Transcoder, ops};
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};
use codec_core::{BufferTooSmall, Utf8Error};

impl Transcoder {
    fn utf8_to_utf32_conv<const LOSSY: bool>(self) -> impl Conv<u8, u32, Utf8Error> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u32]| {
            drive::from_utf8_ascii::<Utf32, LOSSY>(
                t,
                Some(|k| k.ascii_to_utf32),
                |k| k.utf8_to_utf32,
                s,
                d,
            )
        }
    }

    fn valid_to_utf32_conv(self) -> impl Conv<u8, u32, core::convert::Infallible> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u32]| {
            drive::drive_ascii::<Utf32>(t, |k| k.ascii_to_utf32, |k| k.utf8_to_utf32, s, d)
        }
    }

    fn utf32_to_utf8_conv<const LOSSY: bool>(self) -> impl Conv<u32, u8, Utf32Error> {
        let t = self.checked();
        move |s: &[u32], d: &mut [u8]| {
            drive::drive::<Utf32, Utf8, LOSSY>(t, |k| k.utf32_to_utf8, s, d)
        }
    }

    fn utf16_to_utf32_conv<const LOSSY: bool>(self) -> impl Conv<u16, u32, Utf16Error> {
        let t = self.checked();
        move |s: &[u16], d: &mut [u32]| {
            drive::drive::<Utf16, Utf32, LOSSY>(t, |k| k.utf16_to_utf32, s, d)
        }
    }

    fn utf32_to_utf16_conv<const LOSSY: bool>(self) -> impl Conv<u32, u16, Utf32Error> {
        let t = self.checked();
        move |s: &[u32], d: &mut [u16]| {
            drive::drive::<Utf32, Utf16, LOSSY>(t, |k| k.utf32_to_utf16, s, d)
        }
    }
}

ops! {
    /// Converts UTF-8 to UTF-32, validating: returns the number of `u32`s
    /// written, or the first error, as
    /// [`utf8_to_utf16`](crate::utf8_to_utf16) does (`dst.len() >=
    /// src.len()` always suffices).
    ///
    /// ```
    /// let mut dst = [0u32; 4];
    /// let n = transcode::utf8_to_utf32("a€😀".as_bytes(), &mut dst)?;
    /// assert_eq!(&dst[..n], &[0x61, 0x20AC, 0x1F600]);
    /// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
    /// ```
    fn utf8_to_utf32(&self, src: &[u8], dst: &mut [u32]) -> Result<usize, Error<Utf8Error>> {
        drive::strict_form(self.utf8_to_utf32_conv::<false>(), src, dst)
    }

    /// Converts UTF-8 to UTF-32, lossily: the output equals
    /// `String::from_utf8_lossy(src).chars()`.
    ///
    /// ```
    /// let mut dst = [0u32; 4];
    /// let n = transcode::utf8_to_utf32_lossy(b"a\xFF", &mut dst)?;
    /// assert_eq!(&dst[..n], &[0x61, 0xFFFD]);
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf8_to_utf32_lossy(&self, src: &[u8], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.utf8_to_utf32_conv::<true>(), src, dst)
    }

    /// Converts a `&str` to UTF-32, with no validation.
    ///
    /// ```
    /// let mut dst = [0u32; 2];
    /// assert_eq!(transcode::str_to_utf32("é!", &mut dst), Ok(2));
    /// ```
    fn str_to_utf32(&self, src: &str, dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.valid_to_utf32_conv(), src.as_bytes(), dst)
    }

    /// Converts as much UTF-8 as fits into `dst`, validating; see
    /// [`utf8_to_utf16_partial`](crate::utf8_to_utf16_partial).
    ///
    /// ```
    /// let p = transcode::utf8_to_utf32_partial(b"abc", &mut [0; 2])?;
    /// assert_eq!((p.read(), p.written()), (2, 2));
    /// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
    /// ```
    fn utf8_to_utf32_partial(&self, src: &[u8], dst: &mut [u32]) -> Result<Progress, Error<Utf8Error>> {
        drive::partial(self.utf8_to_utf32_conv::<false>()(src, dst))
    }

    /// Converts as much UTF-8 as fits into `dst`, lossily.
    ///
    /// ```
    /// let p = transcode::utf8_to_utf32_lossy_partial(b"\xFFbc", &mut [0; 2]);
    /// assert_eq!((p.read(), p.written()), (2, 2));
    /// ```
    fn utf8_to_utf32_lossy_partial(&self, src: &[u8], dst: &mut [u32]) -> Progress {
        drive::lossy_partial(self.utf8_to_utf32_conv::<true>()(src, dst))
    }

    /// Converts UTF-32 to UTF-8, validating: returns the number of bytes
    /// written, or the first error: [`Utf32Error`] at the first unit that
    /// `char::from_u32` rejects, or a too-small output
    /// (`dst.len() >= 4 * src.len()` always suffices;
    /// [`utf8_len_from_utf32`](crate::utf8_len_from_utf32) says exactly).
    ///
    /// ```
    /// let mut dst = [0u8; 8];
    /// let n = transcode::utf32_to_utf8(&[0x61, 0x1F600], &mut dst)?;
    /// assert_eq!(&dst[..n], "a😀".as_bytes());
    /// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
    /// ```
    fn utf32_to_utf8(&self, src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
        drive::strict_form(self.utf32_to_utf8_conv::<false>(), src, dst)
    }

    /// Converts UTF-32 to UTF-8, replacing each invalid unit with U+FFFD
    /// (`char::from_u32(u).unwrap_or('\u{FFFD}')`).
    ///
    /// ```
    /// let mut dst = [0u8; 8];
    /// let n = transcode::utf32_to_utf8_lossy(&[0xD800, 0x61], &mut dst)?;
    /// assert_eq!(&dst[..n], "\u{FFFD}a".as_bytes());
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf32_to_utf8_lossy(&self, src: &[u32], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.utf32_to_utf8_conv::<true>(), src, dst)
    }

    /// Converts as much UTF-32 as fits into `dst`, validating.
    ///
    /// ```
    /// let p = transcode::utf32_to_utf8_partial(&[0x61, 0xE9], &mut [0; 2])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
    /// ```
    fn utf32_to_utf8_partial(&self, src: &[u32], dst: &mut [u8]) -> Result<Progress, Error<Utf32Error>> {
        drive::partial(self.utf32_to_utf8_conv::<false>()(src, dst))
    }

    /// Converts as much UTF-32 as fits into `dst`, lossily.
    ///
    /// ```
    /// let p = transcode::utf32_to_utf8_lossy_partial(&[0x11_0000, 0x61], &mut [0; 3]);
    /// assert_eq!((p.read(), p.written()), (1, 3));
    /// ```
    fn utf32_to_utf8_lossy_partial(&self, src: &[u32], dst: &mut [u8]) -> Progress {
        drive::lossy_partial(self.utf32_to_utf8_conv::<true>()(src, dst))
    }

    /// Converts UTF-16 to UTF-32, validating, with the errors of
    /// [`utf16_to_utf8`](crate::utf16_to_utf8) (`dst.len() >= src.len()`
    /// always suffices).
    ///
    /// ```
    /// let mut dst = [0u32; 4];
    /// let n = transcode::utf16_to_utf32(&[0x61, 0xD83D, 0xDE00], &mut dst)?;
    /// assert_eq!(&dst[..n], &[0x61, 0x1F600]);
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_to_utf32(&self, src: &[u16], dst: &mut [u32]) -> Result<usize, Error<Utf16Error>> {
        drive::strict_form(self.utf16_to_utf32_conv::<false>(), src, dst)
    }

    /// Converts UTF-16 to UTF-32, lossily: the output equals
    /// `char::decode_utf16(src)` with each error replaced by U+FFFD.
    ///
    /// ```
    /// let mut dst = [0u32; 4];
    /// let n = transcode::utf16_to_utf32_lossy(&[0xD800, 0x61], &mut dst)?;
    /// assert_eq!(&dst[..n], &[0xFFFD, 0x61]);
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf16_to_utf32_lossy(&self, src: &[u16], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.utf16_to_utf32_conv::<true>(), src, dst)
    }

    /// Converts as much UTF-16 as fits into `dst`, validating.
    ///
    /// ```
    /// let p = transcode::utf16_to_utf32_partial(&[0x61, 0x62], &mut [0; 1])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_to_utf32_partial(&self, src: &[u16], dst: &mut [u32]) -> Result<Progress, Error<Utf16Error>> {
        drive::partial(self.utf16_to_utf32_conv::<false>()(src, dst))
    }

    /// Converts as much UTF-16 as fits into `dst`, lossily.
    ///
    /// ```
    /// let p = transcode::utf16_to_utf32_lossy_partial(&[0xDC00, 0x62], &mut [0; 1]);
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// ```
    fn utf16_to_utf32_lossy_partial(&self, src: &[u16], dst: &mut [u32]) -> Progress {
        drive::lossy_partial(self.utf16_to_utf32_conv::<true>()(src, dst))
    }

    /// Converts UTF-32 to UTF-16, validating, with the errors of
    /// [`utf32_to_utf8`] (`dst.len() >= 2 *
    /// src.len()` always suffices; [`utf16_len_from_utf32`](crate::utf16_len_from_utf32)
    /// says exactly).
    ///
    /// ```
    /// let mut dst = [0u16; 4];
    /// let n = transcode::utf32_to_utf16(&[0x61, 0x1F600], &mut dst)?;
    /// assert_eq!(&dst[..n], &[0x61, 0xD83D, 0xDE00]);
    /// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
    /// ```
    fn utf32_to_utf16(&self, src: &[u32], dst: &mut [u16]) -> Result<usize, Error<Utf32Error>> {
        drive::strict_form(self.utf32_to_utf16_conv::<false>(), src, dst)
    }

    /// Converts UTF-32 to UTF-16, replacing each invalid unit with U+FFFD.
    ///
    /// ```
    /// let mut dst = [0u16; 4];
    /// let n = transcode::utf32_to_utf16_lossy(&[0x61, 0xDFFF], &mut dst)?;
    /// assert_eq!(&dst[..n], &[0x61, 0xFFFD]);
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf32_to_utf16_lossy(&self, src: &[u32], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.utf32_to_utf16_conv::<true>(), src, dst)
    }

    /// Converts as much UTF-32 as fits into `dst`, validating.
    ///
    /// ```
    /// let p = transcode::utf32_to_utf16_partial(&[0x61, 0x1F600], &mut [0; 2])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
    /// ```
    fn utf32_to_utf16_partial(&self, src: &[u32], dst: &mut [u16]) -> Result<Progress, Error<Utf32Error>> {
        drive::partial(self.utf32_to_utf16_conv::<false>()(src, dst))
    }

    /// Converts as much UTF-32 as fits into `dst`, lossily.
    ///
    /// ```
    /// let p = transcode::utf32_to_utf16_lossy_partial(&[0x11_0000, 0x61], &mut [0; 1]);
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// ```
    fn utf32_to_utf16_lossy_partial(&self, src: &[u32], dst: &mut [u16]) -> Progress {
        drive::lossy_partial(self.utf32_to_utf16_conv::<true>()(src, dst))
    }
}

#[cfg(feature = "alloc")]
ops! {
    /// Converts UTF-8 to a new `Vec<u32>`, or returns exactly the error
    /// `core::str::from_utf8(src)` reports.
    ///
    /// ```
    /// assert_eq!(transcode::utf8_to_utf32_vec("é".as_bytes()), Ok(vec![0xE9]));
    /// ```
    fn utf8_to_utf32_vec(&self, src: &[u8]) -> Result<Vec<u32>, Utf8Error> {
        self.kernels().validate_utf8(src)?;
        Ok(drive::to_vec(self.valid_to_utf32_conv(), src, self.utf32_len_valid(src)).0)
    }

    /// Converts UTF-8 to a new `Vec<u32>`, lossily.
    ///
    /// ```
    /// assert_eq!(transcode::utf8_to_utf32_lossy_vec(b"\xF0\x9F"), vec![0xFFFD]);
    /// ```
    fn utf8_to_utf32_lossy_vec(&self, src: &[u8]) -> Vec<u32> {
        let len = crate::count::lossy_len_from_utf8(*self, src, |t, s| t.utf32_len_valid(s), 1);
        drive::to_vec(self.utf8_to_utf32_conv::<true>(), src, len).0
    }

    /// Converts a `&str` to a new `Vec<u32>`: `src.chars().map(u32::from).collect()`.
    ///
    /// ```
    /// assert_eq!(transcode::str_to_utf32_vec("a😀"), vec![0x61, 0x1F600]);
    /// ```
    fn str_to_utf32_vec(&self, src: &str) -> Vec<u32> {
        let src = src.as_bytes();
        drive::to_vec(self.valid_to_utf32_conv(), src, self.utf32_len_valid(src)).0
    }

    /// Converts UTF-32 to a new `String`, or returns the error at the first
    /// invalid unit.
    ///
    /// ```
    /// assert_eq!(transcode::utf32_to_string(&[0x68, 0x69]).as_deref(), Ok("hi"));
    /// assert_eq!(transcode::utf32_to_string(&[0x68, 0xD800]).unwrap_err().valid_up_to(), 1);
    /// ```
    fn utf32_to_string(&self, src: &[u32]) -> Result<String, Utf32Error> {
        let (out, outcome) = drive::to_vec(self.utf32_to_utf8_conv::<false>(), src, self.utf8_len_from_utf32(src));
        match outcome.stop {
            Some(crate::scalar::Stop::Invalid(e)) => Err(e),
            _ => Ok(crate::string_from_utf8(out)),
        }
    }

    /// Converts UTF-32 to a new `String`, replacing each invalid unit with
    /// U+FFFD.
    ///
    /// ```
    /// assert_eq!(transcode::utf32_to_string_lossy(&[0x68, 0xD800]), "h\u{FFFD}");
    /// ```
    fn utf32_to_string_lossy(&self, src: &[u32]) -> String {
        let (out, _) = drive::to_vec(self.utf32_to_utf8_conv::<true>(), src, self.utf8_len_from_utf32(src));
        crate::string_from_utf8(out)
    }

    /// Converts UTF-16 to a new `Vec<u32>`, or returns the error at the
    /// first unpaired surrogate.
    ///
    /// ```
    /// assert_eq!(transcode::utf16_to_utf32_vec(&[0xD83D, 0xDE00]), Ok(vec![0x1F600]));
    /// ```
    fn utf16_to_utf32_vec(&self, src: &[u16]) -> Result<Vec<u32>, Utf16Error> {
        let (out, outcome) = drive::to_vec(self.utf16_to_utf32_conv::<false>(), src, self.count_chars_utf16(src));
        match outcome.stop {
            Some(crate::scalar::Stop::Invalid(e)) => Err(e),
            _ => Ok(out),
        }
    }

    /// Converts UTF-16 to a new `Vec<u32>`, lossily.
    ///
    /// ```
    /// assert_eq!(transcode::utf16_to_utf32_lossy_vec(&[0xDE00]), vec![0xFFFD]);
    /// ```
    fn utf16_to_utf32_lossy_vec(&self, src: &[u16]) -> Vec<u32> {
        drive::to_vec(self.utf16_to_utf32_conv::<true>(), src, self.count_chars_utf16(src)).0
    }

    /// Converts UTF-32 to a new `Vec<u16>`, or returns the error at the
    /// first invalid unit.
    ///
    /// ```
    /// assert_eq!(transcode::utf32_to_utf16_vec(&[0x1F600]), Ok(vec![0xD83D, 0xDE00]));
    /// ```
    fn utf32_to_utf16_vec(&self, src: &[u32]) -> Result<Vec<u16>, Utf32Error> {
        let (out, outcome) = drive::to_vec(self.utf32_to_utf16_conv::<false>(), src, self.utf16_len_from_utf32(src));
        match outcome.stop {
            Some(crate::scalar::Stop::Invalid(e)) => Err(e),
            _ => Ok(out),
        }
    }

    /// Converts UTF-32 to a new `Vec<u16>`, lossily.
    ///
    /// ```
    /// assert_eq!(transcode::utf32_to_utf16_lossy_vec(&[0x11_0000]), vec![0xFFFD]);
    /// ```
    fn utf32_to_utf16_lossy_vec(&self, src: &[u32]) -> Vec<u16> {
        drive::to_vec(self.utf32_to_utf16_conv::<true>(), src, self.utf16_len_from_utf32(src)).0
    }
}
