//! UTF-32 to and from UTF-8 and UTF-16 (native `u32`s and `u16`s).
//!
//! Kernels: `arch/x86_64/*/utf32.rs`.

use crate::Transcoder;
use crate::direction::{StrToUtf32, Utf8ToUtf32, Utf16ToUtf32, Utf32ToUtf8, Utf32ToUtf16};
use crate::error::{Error, Progress, Utf16Error, Utf32Error};
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};
use codec_core::{BufferTooSmall, Utf8Error};

impl Transcoder {
    /// [`utf8_to_utf32`] with these kernels.
    pub fn utf8_to_utf32(&self, src: &[u8], dst: &mut [u32]) -> Result<usize, Error<Utf8Error>> {
        self.convert::<Utf8ToUtf32>(src, dst)
    }

    /// [`utf8_to_utf32_lossy`] with these kernels.
    pub fn utf8_to_utf32_lossy(
        &self,
        src: &[u8],
        dst: &mut [u32],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf8ToUtf32>(src, dst)
    }

    /// [`str_to_utf32`] with these kernels.
    pub fn str_to_utf32(&self, src: &str, dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<StrToUtf32>(src.as_bytes(), dst)
    }

    /// [`utf8_to_utf32_partial`] with these kernels.
    pub fn utf8_to_utf32_partial(
        &self,
        src: &[u8],
        dst: &mut [u32],
    ) -> Result<Progress, Error<Utf8Error>> {
        self.convert_partial::<Utf8ToUtf32>(src, dst)
    }

    /// [`utf8_to_utf32_lossy_partial`] with these kernels.
    pub fn utf8_to_utf32_lossy_partial(&self, src: &[u8], dst: &mut [u32]) -> Progress {
        self.convert_lossy_partial::<Utf8ToUtf32>(src, dst)
    }

    /// [`utf32_to_utf8`] with these kernels.
    pub fn utf32_to_utf8(&self, src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
        self.convert::<Utf32ToUtf8>(src, dst)
    }

    /// [`utf32_to_utf8_lossy`] with these kernels.
    pub fn utf32_to_utf8_lossy(
        &self,
        src: &[u32],
        dst: &mut [u8],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf32ToUtf8>(src, dst)
    }

    /// [`utf32_to_utf8_partial`] with these kernels.
    pub fn utf32_to_utf8_partial(
        &self,
        src: &[u32],
        dst: &mut [u8],
    ) -> Result<Progress, Error<Utf32Error>> {
        self.convert_partial::<Utf32ToUtf8>(src, dst)
    }

    /// [`utf32_to_utf8_lossy_partial`] with these kernels.
    pub fn utf32_to_utf8_lossy_partial(&self, src: &[u32], dst: &mut [u8]) -> Progress {
        self.convert_lossy_partial::<Utf32ToUtf8>(src, dst)
    }

    /// [`utf16_to_utf32`] with these kernels.
    pub fn utf16_to_utf32(&self, src: &[u16], dst: &mut [u32]) -> Result<usize, Error<Utf16Error>> {
        self.convert::<Utf16ToUtf32>(src, dst)
    }

    /// [`utf16_to_utf32_lossy`] with these kernels.
    pub fn utf16_to_utf32_lossy(
        &self,
        src: &[u16],
        dst: &mut [u32],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf16ToUtf32>(src, dst)
    }

    /// [`utf16_to_utf32_partial`] with these kernels.
    pub fn utf16_to_utf32_partial(
        &self,
        src: &[u16],
        dst: &mut [u32],
    ) -> Result<Progress, Error<Utf16Error>> {
        self.convert_partial::<Utf16ToUtf32>(src, dst)
    }

    /// [`utf16_to_utf32_lossy_partial`] with these kernels.
    pub fn utf16_to_utf32_lossy_partial(&self, src: &[u16], dst: &mut [u32]) -> Progress {
        self.convert_lossy_partial::<Utf16ToUtf32>(src, dst)
    }

    /// [`utf32_to_utf16`] with these kernels.
    pub fn utf32_to_utf16(&self, src: &[u32], dst: &mut [u16]) -> Result<usize, Error<Utf32Error>> {
        self.convert::<Utf32ToUtf16>(src, dst)
    }

    /// [`utf32_to_utf16_lossy`] with these kernels.
    pub fn utf32_to_utf16_lossy(
        &self,
        src: &[u32],
        dst: &mut [u16],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf32ToUtf16>(src, dst)
    }

    /// [`utf32_to_utf16_partial`] with these kernels.
    pub fn utf32_to_utf16_partial(
        &self,
        src: &[u32],
        dst: &mut [u16],
    ) -> Result<Progress, Error<Utf32Error>> {
        self.convert_partial::<Utf32ToUtf16>(src, dst)
    }

    /// [`utf32_to_utf16_lossy_partial`] with these kernels.
    pub fn utf32_to_utf16_lossy_partial(&self, src: &[u32], dst: &mut [u16]) -> Progress {
        self.convert_lossy_partial::<Utf32ToUtf16>(src, dst)
    }
}

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
#[inline]
pub fn utf8_to_utf32(src: &[u8], dst: &mut [u32]) -> Result<usize, Error<Utf8Error>> {
    Transcoder::new().utf8_to_utf32(src, dst)
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
#[inline]
pub fn utf8_to_utf32_lossy(src: &[u8], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf8_to_utf32_lossy(src, dst)
}

/// Converts a `&str` to UTF-32, with no validation.
///
/// ```
/// let mut dst = [0u32; 2];
/// assert_eq!(transcode::str_to_utf32("é!", &mut dst), Ok(2));
/// ```
#[inline]
pub fn str_to_utf32(src: &str, dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().str_to_utf32(src, dst)
}

/// Converts as much UTF-8 as fits into `dst`, validating; see
/// [`utf8_to_utf16_partial`](crate::utf8_to_utf16_partial).
///
/// ```
/// let p = transcode::utf8_to_utf32_partial(b"abc", &mut [0; 2])?;
/// assert_eq!((p.read(), p.written()), (2, 2));
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_utf32_partial(src: &[u8], dst: &mut [u32]) -> Result<Progress, Error<Utf8Error>> {
    Transcoder::new().utf8_to_utf32_partial(src, dst)
}

/// Converts as much UTF-8 as fits into `dst`, lossily.
///
/// ```
/// let p = transcode::utf8_to_utf32_lossy_partial(b"\xFFbc", &mut [0; 2]);
/// assert_eq!((p.read(), p.written()), (2, 2));
/// ```
#[inline]
pub fn utf8_to_utf32_lossy_partial(src: &[u8], dst: &mut [u32]) -> Progress {
    Transcoder::new().utf8_to_utf32_lossy_partial(src, dst)
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
#[inline]
pub fn utf32_to_utf8(src: &[u32], dst: &mut [u8]) -> Result<usize, Error<Utf32Error>> {
    Transcoder::new().utf32_to_utf8(src, dst)
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
#[inline]
pub fn utf32_to_utf8_lossy(src: &[u32], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf32_to_utf8_lossy(src, dst)
}

/// Converts as much UTF-32 as fits into `dst`, validating.
///
/// ```
/// let p = transcode::utf32_to_utf8_partial(&[0x61, 0xE9], &mut [0; 2])?;
/// assert_eq!((p.read(), p.written()), (1, 1));
/// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
/// ```
#[inline]
pub fn utf32_to_utf8_partial(src: &[u32], dst: &mut [u8]) -> Result<Progress, Error<Utf32Error>> {
    Transcoder::new().utf32_to_utf8_partial(src, dst)
}

/// Converts as much UTF-32 as fits into `dst`, lossily.
///
/// ```
/// let p = transcode::utf32_to_utf8_lossy_partial(&[0x11_0000, 0x61], &mut [0; 3]);
/// assert_eq!((p.read(), p.written()), (1, 3));
/// ```
#[inline]
pub fn utf32_to_utf8_lossy_partial(src: &[u32], dst: &mut [u8]) -> Progress {
    Transcoder::new().utf32_to_utf8_lossy_partial(src, dst)
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
#[inline]
pub fn utf16_to_utf32(src: &[u16], dst: &mut [u32]) -> Result<usize, Error<Utf16Error>> {
    Transcoder::new().utf16_to_utf32(src, dst)
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
#[inline]
pub fn utf16_to_utf32_lossy(src: &[u16], dst: &mut [u32]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf16_to_utf32_lossy(src, dst)
}

/// Converts as much UTF-16 as fits into `dst`, validating.
///
/// ```
/// let p = transcode::utf16_to_utf32_partial(&[0x61, 0x62], &mut [0; 1])?;
/// assert_eq!((p.read(), p.written()), (1, 1));
/// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
/// ```
#[inline]
pub fn utf16_to_utf32_partial(src: &[u16], dst: &mut [u32]) -> Result<Progress, Error<Utf16Error>> {
    Transcoder::new().utf16_to_utf32_partial(src, dst)
}

/// Converts as much UTF-16 as fits into `dst`, lossily.
///
/// ```
/// let p = transcode::utf16_to_utf32_lossy_partial(&[0xDC00, 0x62], &mut [0; 1]);
/// assert_eq!((p.read(), p.written()), (1, 1));
/// ```
#[inline]
pub fn utf16_to_utf32_lossy_partial(src: &[u16], dst: &mut [u32]) -> Progress {
    Transcoder::new().utf16_to_utf32_lossy_partial(src, dst)
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
#[inline]
pub fn utf32_to_utf16(src: &[u32], dst: &mut [u16]) -> Result<usize, Error<Utf32Error>> {
    Transcoder::new().utf32_to_utf16(src, dst)
}

/// Converts UTF-32 to UTF-16, replacing each invalid unit with U+FFFD.
///
/// ```
/// let mut dst = [0u16; 4];
/// let n = transcode::utf32_to_utf16_lossy(&[0x61, 0xDFFF], &mut dst)?;
/// assert_eq!(&dst[..n], &[0x61, 0xFFFD]);
/// # Ok::<(), transcode::BufferTooSmall>(())
/// ```
#[inline]
pub fn utf32_to_utf16_lossy(src: &[u32], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf32_to_utf16_lossy(src, dst)
}

/// Converts as much UTF-32 as fits into `dst`, validating.
///
/// ```
/// let p = transcode::utf32_to_utf16_partial(&[0x61, 0x1F600], &mut [0; 2])?;
/// assert_eq!((p.read(), p.written()), (1, 1));
/// # Ok::<(), transcode::Error<transcode::Utf32Error>>(())
/// ```
#[inline]
pub fn utf32_to_utf16_partial(src: &[u32], dst: &mut [u16]) -> Result<Progress, Error<Utf32Error>> {
    Transcoder::new().utf32_to_utf16_partial(src, dst)
}

/// Converts as much UTF-32 as fits into `dst`, lossily.
///
/// ```
/// let p = transcode::utf32_to_utf16_lossy_partial(&[0x11_0000, 0x61], &mut [0; 1]);
/// assert_eq!((p.read(), p.written()), (1, 1));
/// ```
#[inline]
pub fn utf32_to_utf16_lossy_partial(src: &[u32], dst: &mut [u16]) -> Progress {
    Transcoder::new().utf32_to_utf16_lossy_partial(src, dst)
}

#[cfg(feature = "alloc")]
impl Transcoder {
    /// [`utf8_to_utf32_vec`] with these kernels.
    pub fn utf8_to_utf32_vec(&self, src: &[u8]) -> Result<Vec<u32>, Utf8Error> {
        self.kernels().validate_utf8(src)?;
        Ok(self.convert_lossy_vec::<StrToUtf32>(src))
    }

    /// [`utf8_to_utf32_lossy_vec`] with these kernels.
    pub fn utf8_to_utf32_lossy_vec(&self, src: &[u8]) -> Vec<u32> {
        let len = crate::count::lossy_len_from_utf8(*self, src, |t, s| t.utf32_len_valid(s), 1);
        self.lossy_vec_with_len::<Utf8ToUtf32>(src, len)
    }

    /// [`str_to_utf32_vec`] with these kernels.
    pub fn str_to_utf32_vec(&self, src: &str) -> Vec<u32> {
        self.convert_lossy_vec::<StrToUtf32>(src.as_bytes())
    }

    /// [`utf32_to_string`] with these kernels.
    pub fn utf32_to_string(&self, src: &[u32]) -> Result<String, Utf32Error> {
        self.string_or_invalid::<Utf32ToUtf8>(src)
    }

    /// [`utf32_to_string_lossy`] with these kernels.
    pub fn utf32_to_string_lossy(&self, src: &[u32]) -> String {
        self.lossy_string::<Utf32ToUtf8>(src)
    }

    /// [`utf16_to_utf32_vec`] with these kernels.
    pub fn utf16_to_utf32_vec(&self, src: &[u16]) -> Result<Vec<u32>, Utf16Error> {
        self.vec_or_invalid::<Utf16ToUtf32>(src)
    }

    /// [`utf16_to_utf32_lossy_vec`] with these kernels.
    pub fn utf16_to_utf32_lossy_vec(&self, src: &[u16]) -> Vec<u32> {
        self.convert_lossy_vec::<Utf16ToUtf32>(src)
    }

    /// [`utf32_to_utf16_vec`] with these kernels.
    pub fn utf32_to_utf16_vec(&self, src: &[u32]) -> Result<Vec<u16>, Utf32Error> {
        self.vec_or_invalid::<Utf32ToUtf16>(src)
    }

    /// [`utf32_to_utf16_lossy_vec`] with these kernels.
    pub fn utf32_to_utf16_lossy_vec(&self, src: &[u32]) -> Vec<u16> {
        self.convert_lossy_vec::<Utf32ToUtf16>(src)
    }
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new `Vec<u32>`, or returns exactly the error
/// `core::str::from_utf8(src)` reports.
///
/// ```
/// assert_eq!(transcode::utf8_to_utf32_vec("é".as_bytes()), Ok(vec![0xE9]));
/// ```
#[inline]
pub fn utf8_to_utf32_vec(src: &[u8]) -> Result<Vec<u32>, Utf8Error> {
    Transcoder::new().utf8_to_utf32_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new `Vec<u32>`, lossily.
///
/// ```
/// assert_eq!(transcode::utf8_to_utf32_lossy_vec(b"\xF0\x9F"), vec![0xFFFD]);
/// ```
#[inline]
pub fn utf8_to_utf32_lossy_vec(src: &[u8]) -> Vec<u32> {
    Transcoder::new().utf8_to_utf32_lossy_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts a `&str` to a new `Vec<u32>`: `src.chars().map(u32::from).collect()`.
///
/// ```
/// assert_eq!(transcode::str_to_utf32_vec("a😀"), vec![0x61, 0x1F600]);
/// ```
#[inline]
pub fn str_to_utf32_vec(src: &str) -> Vec<u32> {
    Transcoder::new().str_to_utf32_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-32 to a new `String`, or returns the error at the first
/// invalid unit.
///
/// ```
/// assert_eq!(transcode::utf32_to_string(&[0x68, 0x69]).as_deref(), Ok("hi"));
/// assert_eq!(transcode::utf32_to_string(&[0x68, 0xD800]).unwrap_err().valid_up_to(), 1);
/// ```
#[inline]
pub fn utf32_to_string(src: &[u32]) -> Result<String, Utf32Error> {
    Transcoder::new().utf32_to_string(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-32 to a new `String`, replacing each invalid unit with
/// U+FFFD.
///
/// ```
/// assert_eq!(transcode::utf32_to_string_lossy(&[0x68, 0xD800]), "h\u{FFFD}");
/// ```
#[inline]
pub fn utf32_to_string_lossy(src: &[u32]) -> String {
    Transcoder::new().utf32_to_string_lossy(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 to a new `Vec<u32>`, or returns the error at the
/// first unpaired surrogate.
///
/// ```
/// assert_eq!(transcode::utf16_to_utf32_vec(&[0xD83D, 0xDE00]), Ok(vec![0x1F600]));
/// ```
#[inline]
pub fn utf16_to_utf32_vec(src: &[u16]) -> Result<Vec<u32>, Utf16Error> {
    Transcoder::new().utf16_to_utf32_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 to a new `Vec<u32>`, lossily.
///
/// ```
/// assert_eq!(transcode::utf16_to_utf32_lossy_vec(&[0xDE00]), vec![0xFFFD]);
/// ```
#[inline]
pub fn utf16_to_utf32_lossy_vec(src: &[u16]) -> Vec<u32> {
    Transcoder::new().utf16_to_utf32_lossy_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-32 to a new `Vec<u16>`, or returns the error at the
/// first invalid unit.
///
/// ```
/// assert_eq!(transcode::utf32_to_utf16_vec(&[0x1F600]), Ok(vec![0xD83D, 0xDE00]));
/// ```
#[inline]
pub fn utf32_to_utf16_vec(src: &[u32]) -> Result<Vec<u16>, Utf32Error> {
    Transcoder::new().utf32_to_utf16_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-32 to a new `Vec<u16>`, lossily.
///
/// ```
/// assert_eq!(transcode::utf32_to_utf16_lossy_vec(&[0x11_0000]), vec![0xFFFD]);
/// ```
#[inline]
pub fn utf32_to_utf16_lossy_vec(src: &[u32]) -> Vec<u16> {
    Transcoder::new().utf32_to_utf16_lossy_vec(src)
}
