//! UTF-8 → UTF-16: native `u16`s, and bytes in either order.
//!
//! Kernels: `arch/generic/utf8_utf16.rs`, which convert valid UTF-8 (this
//! family's input is validated by utf8-simd first, see `drive::from_utf8_ascii`).

use crate::Transcoder;
use crate::direction::{
    StrToUtf16, StrToUtf16Be, StrToUtf16Le, Utf8ToUtf16, Utf8ToUtf16Be, Utf8ToUtf16Le,
};
use crate::drive;
use crate::error::{Error, Progress};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use codec_core::Endianness;
use codec_core::{BufferTooSmall, Utf8Error};

impl Transcoder {
    /// Valid UTF-8 into a new vector of UTF-16 bytes in `order`.
    #[cfg(feature = "alloc")]
    fn valid_to_utf16_bytes_vec(&self, src: &[u8], order: Endianness) -> Vec<u8> {
        match order {
            Endianness::Big => self.convert_lossy_vec::<StrToUtf16Be>(src),
            _ => self.convert_lossy_vec::<StrToUtf16Le>(src),
        }
        .into_flattened()
    }
}

impl Transcoder {
    /// [`utf8_to_utf16`] with these kernels.
    pub fn utf8_to_utf16(&self, src: &[u8], dst: &mut [u16]) -> Result<usize, Error<Utf8Error>> {
        self.convert::<Utf8ToUtf16>(src, dst)
    }

    /// [`utf8_to_utf16_lossy`] with these kernels.
    pub fn utf8_to_utf16_lossy(
        &self,
        src: &[u8],
        dst: &mut [u16],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf8ToUtf16>(src, dst)
    }

    /// [`str_to_utf16`] with these kernels.
    pub fn str_to_utf16(&self, src: &str, dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<StrToUtf16>(src.as_bytes(), dst)
    }

    /// [`utf8_to_utf16_partial`] with these kernels.
    pub fn utf8_to_utf16_partial(
        &self,
        src: &[u8],
        dst: &mut [u16],
    ) -> Result<Progress, Error<Utf8Error>> {
        self.convert_partial::<Utf8ToUtf16>(src, dst)
    }

    /// [`utf8_to_utf16_lossy_partial`] with these kernels.
    pub fn utf8_to_utf16_lossy_partial(&self, src: &[u8], dst: &mut [u16]) -> Progress {
        self.convert_lossy_partial::<Utf8ToUtf16>(src, dst)
    }

    /// [`utf8_to_utf16_bytes`] with these kernels.
    pub fn utf8_to_utf16_bytes(
        &self,
        src: &[u8],
        dst: &mut [u8],
        order: Endianness,
    ) -> Result<usize, Error<Utf8Error>> {
        let available = dst.len();
        let (units, _) = dst.as_chunks_mut::<2>();
        let r = match order {
            Endianness::Big => self.convert::<Utf8ToUtf16Be>(src, units),
            _ => self.convert::<Utf8ToUtf16Le>(src, units),
        };
        drive::scale(r, 2, available)
    }

    /// [`utf8_to_utf16_bytes_lossy`] with these kernels.
    pub fn utf8_to_utf16_bytes_lossy(
        &self,
        src: &[u8],
        dst: &mut [u8],
        order: Endianness,
    ) -> Result<usize, BufferTooSmall> {
        let available = dst.len();
        let (units, _) = dst.as_chunks_mut::<2>();
        let r = match order {
            Endianness::Big => self.convert_lossy::<Utf8ToUtf16Be>(src, units),
            _ => self.convert_lossy::<Utf8ToUtf16Le>(src, units),
        };
        drive::scale_lossy(r, 2, available)
    }

    /// [`str_to_utf16_bytes`] with these kernels.
    pub fn str_to_utf16_bytes(
        &self,
        src: &str,
        dst: &mut [u8],
        order: Endianness,
    ) -> Result<usize, BufferTooSmall> {
        let available = dst.len();
        let (units, _) = dst.as_chunks_mut::<2>();
        let src = src.as_bytes();
        let r = match order {
            Endianness::Big => self.convert_lossy::<StrToUtf16Be>(src, units),
            _ => self.convert_lossy::<StrToUtf16Le>(src, units),
        };
        drive::scale_lossy(r, 2, available)
    }
}

/// Converts UTF-8 to UTF-16, validating: returns the number of `u16`s
/// written, or the first error.
///
/// The error is [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) with
/// exactly the [`Utf8Error`] `core::str::from_utf8(src)` reports, or
/// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall) if
/// `dst` cannot hold the conversion (`dst.len() >= src.len()` always
/// can). Either way `dst[..err.written()]` holds the conversion of
/// `src[..err.read()]`, and nothing after it was written.
///
/// ```
/// let mut dst = [0u16; 8];
/// let n = transcode::utf8_to_utf16("añ€😀".as_bytes(), &mut dst)?;
/// assert_eq!(&dst[..n], &[0x61, 0xF1, 0x20AC, 0xD83D, 0xDE00]);
///
/// let err = transcode::utf8_to_utf16(b"a\xC3", &mut dst).unwrap_err();
/// assert_eq!(err.invalid().map(|e| e.error_len()), Some(None)); // incomplete
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> Result<usize, Error<Utf8Error>> {
    Transcoder::new().utf8_to_utf16(src, dst)
}

/// Converts UTF-8 to UTF-16, replacing each maximal invalid subpart with
/// U+FFFD: the output equals
/// `String::from_utf8_lossy(src).encode_utf16()`. Returns the number of
/// `u16`s written, or how many `dst` needed (`dst.len() >= src.len()`
/// always suffices).
///
/// ```
/// let mut dst = [0u16; 8];
/// let n = transcode::utf8_to_utf16_lossy(b"a\xFFb", &mut dst)?;
/// assert_eq!(&dst[..n], &[0x61, 0xFFFD, 0x62]);
/// # Ok::<(), transcode::BufferTooSmall>(())
/// ```
#[inline]
pub fn utf8_to_utf16_lossy(src: &[u8], dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf8_to_utf16_lossy(src, dst)
}

/// Converts a `&str` to UTF-16, with no validation: returns the number of
/// `u16`s written (`str::encode_utf16`'s), or how many `dst` needed
/// ([`utf16_len`](crate::utf16_len)).
///
/// ```
/// let mut dst = [0u16; 4];
/// assert_eq!(transcode::str_to_utf16("ok", &mut dst), Ok(2));
/// assert_eq!(transcode::str_to_utf16("too long", &mut dst).unwrap_err().needed(), 8);
/// ```
#[inline]
pub fn str_to_utf16(src: &str, dst: &mut [u16]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().str_to_utf16(src, dst)
}

/// Converts as much UTF-8 as fits into `dst`, validating: whole
/// characters from the start of `src` until the next one does not fit.
/// `Ok` says how far it got (all of `src` if `read() == src.len()`); an
/// error in `src` before `dst` fills up is returned as
/// [`utf8_to_utf16`] returns it.
///
/// ```
/// let mut dst = [0u16; 2];
/// let p = transcode::utf8_to_utf16_partial("abc".as_bytes(), &mut dst)?;
/// assert_eq!((p.read(), p.written()), (2, 2));
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_utf16_partial(src: &[u8], dst: &mut [u16]) -> Result<Progress, Error<Utf8Error>> {
    Transcoder::new().utf8_to_utf16_partial(src, dst)
}

/// Converts as much UTF-8 as fits into `dst`, lossily (as
/// [`utf8_to_utf16_lossy`]); says how far it got. The whole of `src` is
/// the input: an incomplete character at its end becomes U+FFFD (use
/// the streaming decoder to carry it to the next chunk instead).
///
/// ```
/// let mut dst = [0u16; 2];
/// let p = transcode::utf8_to_utf16_lossy_partial(b"\xFFbc", &mut dst);
/// assert_eq!((p.read(), p.written()), (2, 2));
/// assert_eq!(dst, [0xFFFD, 0x62]);
/// ```
#[inline]
pub fn utf8_to_utf16_lossy_partial(src: &[u8], dst: &mut [u16]) -> Progress {
    Transcoder::new().utf8_to_utf16_lossy_partial(src, dst)
}

/// Converts UTF-8 to UTF-16 in bytes of the given order (UTF-16LE or
/// UTF-16BE), validating, as [`utf8_to_utf16`]. Counts the output in
/// bytes (`written`, `needed`); an odd last byte of `dst` is never
/// written.
///
/// ```
/// use transcode::Endianness;
/// let mut dst = [0u8; 8];
/// let n = transcode::utf8_to_utf16_bytes("é😀".as_bytes(), &mut dst, Endianness::Big)?;
/// assert_eq!(&dst[..n], &[0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]);
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[inline]
pub fn utf8_to_utf16_bytes(
    src: &[u8],
    dst: &mut [u8],
    order: Endianness,
) -> Result<usize, Error<Utf8Error>> {
    Transcoder::new().utf8_to_utf16_bytes(src, dst, order)
}

/// Converts UTF-8 to UTF-16 in bytes of the given order, lossily (as
/// [`utf8_to_utf16_lossy`]). Counts the output in bytes.
///
/// ```
/// use transcode::Endianness;
/// let mut dst = [0u8; 4];
/// let n = transcode::utf8_to_utf16_bytes_lossy(b"\xFFa", &mut dst, Endianness::Little)?;
/// assert_eq!(&dst[..n], &[0xFD, 0xFF, 0x61, 0x00]);
/// # Ok::<(), transcode::BufferTooSmall>(())
/// ```
#[inline]
pub fn utf8_to_utf16_bytes_lossy(
    src: &[u8],
    dst: &mut [u8],
    order: Endianness,
) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf8_to_utf16_bytes_lossy(src, dst, order)
}

/// Converts a `&str` to UTF-16 in bytes of the given order, with no
/// validation. Counts the output in bytes.
///
/// ```
/// use transcode::Endianness;
/// let mut dst = [0u8; 4];
/// assert_eq!(transcode::str_to_utf16_bytes("hi", &mut dst, Endianness::Big), Ok(4));
/// assert_eq!(dst, [0, b'h', 0, b'i']);
/// ```
#[inline]
pub fn str_to_utf16_bytes(
    src: &str,
    dst: &mut [u8],
    order: Endianness,
) -> Result<usize, BufferTooSmall> {
    Transcoder::new().str_to_utf16_bytes(src, dst, order)
}

#[cfg(feature = "alloc")]
impl Transcoder {
    /// [`utf8_to_utf16_vec`] with these kernels.
    pub fn utf8_to_utf16_vec(&self, src: &[u8]) -> Result<Vec<u16>, Utf8Error> {
        self.kernels().validate_utf8(src)?;
        Ok(self.convert_lossy_vec::<StrToUtf16>(src))
    }

    /// [`utf8_to_utf16_lossy_vec`] with these kernels.
    #[must_use]
    pub fn utf8_to_utf16_lossy_vec(&self, src: &[u8]) -> Vec<u16> {
        if self.kernels().validate_utf8(src).is_ok() {
            return self.convert_lossy_vec::<StrToUtf16>(src);
        }
        let len = crate::count::lossy_len_from_utf8(*self, src, |t, s| t.utf16_len_valid(s), 1);
        self.lossy_vec_with_len::<Utf8ToUtf16>(src, len)
    }

    /// [`str_to_utf16_vec`] with these kernels.
    #[must_use]
    pub fn str_to_utf16_vec(&self, src: &str) -> Vec<u16> {
        self.convert_lossy_vec::<StrToUtf16>(src.as_bytes())
    }

    /// [`utf8_to_utf16_bytes_vec`] with these kernels.
    pub fn utf8_to_utf16_bytes_vec(
        &self,
        src: &[u8],
        order: Endianness,
    ) -> Result<Vec<u8>, Utf8Error> {
        self.kernels().validate_utf8(src)?;
        Ok(self.valid_to_utf16_bytes_vec(src, order))
    }

    /// [`utf8_to_utf16_bytes_lossy_vec`] with these kernels.
    #[must_use]
    pub fn utf8_to_utf16_bytes_lossy_vec(&self, src: &[u8], order: Endianness) -> Vec<u8> {
        if self.kernels().validate_utf8(src).is_ok() {
            return self.valid_to_utf16_bytes_vec(src, order);
        }
        let len = crate::count::lossy_len_from_utf8(*self, src, |t, s| t.utf16_len_valid(s), 1);
        match order {
            Endianness::Big => self.lossy_vec_with_len::<Utf8ToUtf16Be>(src, len),
            _ => self.lossy_vec_with_len::<Utf8ToUtf16Le>(src, len),
        }
        .into_flattened()
    }

    /// [`str_to_utf16_bytes_vec`] with these kernels.
    #[must_use]
    pub fn str_to_utf16_bytes_vec(&self, src: &str, order: Endianness) -> Vec<u8> {
        self.valid_to_utf16_bytes_vec(src.as_bytes(), order)
    }
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new `Vec<u16>`, or returns exactly the error
/// `core::str::from_utf8(src)` reports. Validates once, sizes the vector
/// with [`utf16_len`](crate::utf16_len), then converts.
///
/// ```
/// assert_eq!(transcode::utf8_to_utf16_vec("hé".as_bytes()), Ok(vec![0x68, 0xE9]));
/// assert_eq!(transcode::utf8_to_utf16_vec(b"\xC0").unwrap_err().valid_up_to(), 0);
/// ```
#[inline]
pub fn utf8_to_utf16_vec(src: &[u8]) -> Result<Vec<u16>, Utf8Error> {
    Transcoder::new().utf8_to_utf16_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new `Vec<u16>`, lossily: equals
/// `String::from_utf8_lossy(src).encode_utf16().collect()`.
///
/// ```
/// assert_eq!(transcode::utf8_to_utf16_lossy_vec(b"a\xE2\x82"), vec![0x61, 0xFFFD]);
/// ```
#[must_use]
#[inline]
pub fn utf8_to_utf16_lossy_vec(src: &[u8]) -> Vec<u16> {
    Transcoder::new().utf8_to_utf16_lossy_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts a `&str` to a new `Vec<u16>`: equals
/// `src.encode_utf16().collect()`.
///
/// ```
/// assert_eq!(transcode::str_to_utf16_vec("😀"), vec![0xD83D, 0xDE00]);
/// ```
#[must_use]
#[inline]
pub fn str_to_utf16_vec(src: &str) -> Vec<u16> {
    Transcoder::new().str_to_utf16_vec(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new vector of UTF-16 bytes in the given order, or
/// returns exactly the error `core::str::from_utf8(src)` reports.
///
/// ```
/// use transcode::Endianness;
/// assert_eq!(transcode::utf8_to_utf16_bytes_vec(b"A", Endianness::Big), Ok(vec![0, 0x41]));
/// ```
#[inline]
pub fn utf8_to_utf16_bytes_vec(src: &[u8], order: Endianness) -> Result<Vec<u8>, Utf8Error> {
    Transcoder::new().utf8_to_utf16_bytes_vec(src, order)
}

#[cfg(feature = "alloc")]
/// Converts UTF-8 to a new vector of UTF-16 bytes in the given order,
/// lossily.
///
/// ```
/// use transcode::Endianness;
/// assert_eq!(
///     transcode::utf8_to_utf16_bytes_lossy_vec(b"\xFF", Endianness::Little),
///     vec![0xFD, 0xFF]
/// );
/// ```
#[must_use]
#[inline]
pub fn utf8_to_utf16_bytes_lossy_vec(src: &[u8], order: Endianness) -> Vec<u8> {
    Transcoder::new().utf8_to_utf16_bytes_lossy_vec(src, order)
}

#[cfg(feature = "alloc")]
/// Converts a `&str` to a new vector of UTF-16 bytes in the given order.
///
/// ```
/// use transcode::Endianness;
/// assert_eq!(transcode::str_to_utf16_bytes_vec("A", Endianness::Little), vec![0x41, 0]);
/// ```
#[must_use]
#[inline]
pub fn str_to_utf16_bytes_vec(src: &str, order: Endianness) -> Vec<u8> {
    Transcoder::new().str_to_utf16_bytes_vec(src, order)
}
