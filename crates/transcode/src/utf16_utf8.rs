//! UTF-16 → UTF-8: from native `u16`s, and from bytes in either order.
//!
//! Kernels: `arch/x86_64/*/utf16_utf8.rs`, which check the surrogates of
//! each block and stop before a block with an unpaired one.

use crate::drive::{self, Conv};
use crate::error::{Endianness, Error, Progress, Utf16Error};
#[cfg(feature = "alloc")]
use crate::scalar::Stop;
use crate::scalar::{Utf8, Utf16};
use crate::{Transcoder, ops};
#[cfg(feature = "alloc")]
use alloc::string::String;
use codec_core::BufferTooSmall;

impl Transcoder {
    fn utf16_to<const LOSSY: bool>(self) -> impl Conv<u16, u8, Utf16Error> {
        let t = self.checked();
        move |s: &[u16], d: &mut [u8]| {
            drive::drive::<Utf16, Utf8, LOSSY>(t, |k| k.utf16_to_utf8, s, d)
        }
    }

    fn utf16_bytes_to<const LOSSY: bool, const SWAP: bool>(self) -> impl Conv<u8, u8, Utf16Error> {
        let t = self.checked();
        move |s: &[u8], d: &mut [u8]| {
            drive::from_utf16_bytes::<Utf8, LOSSY, SWAP>(
                t,
                |k| k.utf16_bytes_to_utf8[usize::from(SWAP)],
                s,
                d,
            )
        }
    }
}

ops! {
    /// Converts UTF-16 to UTF-8, validating: returns the number of bytes
    /// written, or the first error.
    ///
    /// The error is [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) with
    /// the [`Utf16Error`] at the first unpaired surrogate that
    /// `char::decode_utf16` reports, or
    /// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall) if
    /// `dst` cannot hold the conversion (`dst.len() >= 3 * src.len()` always
    /// can; [`utf8_len_from_utf16`](crate::utf8_len_from_utf16) says exactly).
    /// Either way `dst[..err.written()]` holds the conversion of
    /// `src[..err.read()]`, and nothing after it was written.
    ///
    /// ```
    /// let mut dst = [0u8; 16];
    /// let n = transcode::utf16_to_utf8(&[0x61, 0x20AC, 0xD83D, 0xDE00], &mut dst)?;
    /// assert_eq!(&dst[..n], "a€😀".as_bytes());
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_to_utf8(&self, src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
        drive::strict_form(self.utf16_to::<false>(), src, dst)
    }

    /// Converts UTF-16 to UTF-8, replacing each unpaired surrogate with
    /// U+FFFD: the output equals `String::from_utf16_lossy(src)`.
    ///
    /// ```
    /// let mut dst = [0u8; 8];
    /// let n = transcode::utf16_to_utf8_lossy(&[0xDC00, 0x61], &mut dst)?;
    /// assert_eq!(&dst[..n], "\u{FFFD}a".as_bytes());
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf16_to_utf8_lossy(&self, src: &[u16], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
        drive::lossy_form(self.utf16_to::<true>(), src, dst)
    }

    /// Converts as much UTF-16 as fits into `dst`, validating; see
    /// [`utf8_to_utf16_partial`](crate::utf8_to_utf16_partial).
    ///
    /// ```
    /// let mut dst = [0u8; 3];
    /// let p = transcode::utf16_to_utf8_partial(&[0x61, 0xE9, 0x62], &mut dst)?;
    /// assert_eq!((p.read(), p.written()), (2, 3));
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_to_utf8_partial(&self, src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
        drive::partial(self.utf16_to::<false>()(src, dst))
    }

    /// Converts as much UTF-16 as fits into `dst`, lossily. A lead surrogate
    /// at the end of `src` becomes U+FFFD (the streaming decoder carries it
    /// to the next chunk instead).
    ///
    /// ```
    /// let mut dst = [0u8; 8];
    /// let p = transcode::utf16_to_utf8_lossy_partial(&[0x61, 0xD800], &mut dst);
    /// assert_eq!(&dst[..p.written()], "a\u{FFFD}".as_bytes());
    /// ```
    fn utf16_to_utf8_lossy_partial(&self, src: &[u16], dst: &mut [u8]) -> Progress {
        drive::lossy_partial(self.utf16_to::<true>()(src, dst))
    }

    /// Converts UTF-16 held in bytes of the given order to UTF-8, validating,
    /// as [`utf16_to_utf8`]. [`Error::read`] counts bytes; the
    /// [`Utf16Error`] counts code units. An odd last byte is an
    /// [`Incomplete`](crate::Utf16ErrorKind::Incomplete) error.
    ///
    /// ```
    /// use transcode::Endianness;
    /// let mut dst = [0u8; 8];
    /// let n = transcode::utf16_bytes_to_utf8(&[0xFE, 0xFF, 0, 0x41], &mut dst, Endianness::Big)?;
    /// assert_eq!(&dst[..n], "\u{FEFF}A".as_bytes()); // a byte-order mark stays
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    fn utf16_bytes_to_utf8(&self, src: &[u8],
        dst: &mut [u8],
        order: Endianness) -> Result<usize, Error<Utf16Error>> {
        match order.is_swapped() {
            false => drive::strict_form(self.utf16_bytes_to::<false, false>(), src, dst),
            true => drive::strict_form(self.utf16_bytes_to::<false, true>(), src, dst),
        }
    }

    /// Converts UTF-16 held in bytes of the given order to UTF-8, lossily:
    /// equals std's `String::from_utf16le_lossy` (or `be`), which also makes
    /// an odd last byte one more U+FFFD.
    ///
    /// ```
    /// use transcode::Endianness;
    /// let mut dst = [0u8; 8];
    /// let n = transcode::utf16_bytes_to_utf8_lossy(&[0x41, 0, 0x42], &mut dst, Endianness::Little)?;
    /// assert_eq!(&dst[..n], "A\u{FFFD}".as_bytes());
    /// # Ok::<(), transcode::BufferTooSmall>(())
    /// ```
    fn utf16_bytes_to_utf8_lossy(&self, src: &[u8],
        dst: &mut [u8],
        order: Endianness) -> Result<usize, BufferTooSmall> {
        match order.is_swapped() {
            false => drive::lossy_form(self.utf16_bytes_to::<true, false>(), src, dst),
            true => drive::lossy_form(self.utf16_bytes_to::<true, true>(), src, dst),
        }
    }
}

#[cfg(feature = "alloc")]
ops! {
    /// Converts UTF-16 to a new `String`: `String::from_utf16(src)`, with
    /// the position of the error.
    ///
    /// ```
    /// assert_eq!(transcode::utf16_to_string(&[0x68, 0x69]).as_deref(), Ok("hi"));
    /// assert_eq!(transcode::utf16_to_string(&[0x68, 0xD800]).unwrap_err().valid_up_to(), 1);
    /// ```
    fn utf16_to_string(&self, src: &[u16]) -> Result<String, Utf16Error> {
        let len = self.utf8_len_from_utf16(src);
        let (out, outcome) = drive::to_vec(self.utf16_to::<false>(), src, len);
        match outcome.stop {
            Some(Stop::Invalid(e)) => Err(e),
            _ => Ok(crate::string_from_utf8(out)),
        }
    }

    /// Converts UTF-16 to a new `String`, lossily: `String::from_utf16_lossy(src)`.
    ///
    /// ```
    /// assert_eq!(transcode::utf16_to_string_lossy(&[0x68, 0xD800]), "h\u{FFFD}");
    /// ```
    #[must_use]
    fn utf16_to_string_lossy(&self, src: &[u16]) -> String {
        let len = self.utf8_len_from_utf16(src);
        let (out, _) = drive::to_vec(self.utf16_to::<true>(), src, len);
        crate::string_from_utf8(out)
    }

    /// Converts UTF-16 held in bytes of the given order to a new `String`.
    ///
    /// ```
    /// use transcode::Endianness;
    /// assert_eq!(transcode::utf16_bytes_to_string(&[0x68, 0], Endianness::Little).as_deref(), Ok("h"));
    /// ```
    fn utf16_bytes_to_string(&self, src: &[u8], order: Endianness) -> Result<String, Utf16Error> {
        let len = 3 * src.len().div_ceil(2);
        let (out, outcome) = match order.is_swapped() {
            false => drive::to_vec(self.utf16_bytes_to::<false, false>(), src, len),
            true => drive::to_vec(self.utf16_bytes_to::<false, true>(), src, len),
        };
        match outcome.stop {
            Some(Stop::Invalid(e)) => Err(e),
            _ => Ok(crate::string_from_utf8(out)),
        }
    }

    /// Converts UTF-16 held in bytes of the given order to a new `String`,
    /// lossily, as std's `String::from_utf16le_lossy` (or `be`).
    ///
    /// ```
    /// use transcode::Endianness;
    /// assert_eq!(transcode::utf16_bytes_to_string_lossy(&[0, 0x68, 0], Endianness::Big), "h\u{FFFD}");
    /// ```
    #[must_use]
    fn utf16_bytes_to_string_lossy(&self, src: &[u8], order: Endianness) -> String {
        let len = 3 * src.len().div_ceil(2);
        let (out, _) = match order.is_swapped() {
            false => drive::to_vec(self.utf16_bytes_to::<true, false>(), src, len),
            true => drive::to_vec(self.utf16_bytes_to::<true, true>(), src, len),
        };
        crate::string_from_utf8(out)
    }
}
