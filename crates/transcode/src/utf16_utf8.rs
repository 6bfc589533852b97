//! UTF-16 → UTF-8: from native `u16`s, and from bytes in either order.
//!
//! Kernels: `arch/x86_64/*/utf16_utf8.rs`, which check the surrogates of
//! each block and stop before a block with an unpaired one.

use crate::Transcoder;
use crate::byte_order::{self, ByteOrder, Lead};
use crate::direction::{self, Direction, Encoding, Utf16BeToUtf8, Utf16LeToUtf8, Utf16ToUtf8};
use crate::drive::{self, Conv};
use crate::error::{Error, Progress, Utf16Error};
#[cfg(feature = "alloc")]
use crate::scalar::Stop;
#[cfg(feature = "alloc")]
use alloc::string::String;
use codec_core::BufferTooSmall;
use codec_core::Endianness;

impl Transcoder {
    /// UTF-16 in bytes to UTF-8 in direction `D` (its byte order), the
    /// input counted in bytes, an odd last byte included.
    fn utf16_bytes_to<D, const LOSSY: bool>(self) -> impl Conv<u8, u8, Utf16Error>
    where
        D: Direction<To = direction::Utf8>,
        D::From: Encoding<Unit = [u8; 2], Error = Utf16Error>,
    {
        move |s: &[u8], d: &mut [u8]| drive::from_utf16_bytes::<D, LOSSY>(self, s, d)
    }
}

impl Transcoder {
    /// [`utf16_to_utf8`] with these kernels.
    pub fn utf16_to_utf8(&self, src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
        self.convert::<Utf16ToUtf8>(src, dst)
    }

    /// [`utf16_to_utf8_lossy`] with these kernels.
    pub fn utf16_to_utf8_lossy(
        &self,
        src: &[u16],
        dst: &mut [u8],
    ) -> Result<usize, BufferTooSmall> {
        self.convert_lossy::<Utf16ToUtf8>(src, dst)
    }

    /// [`utf16_to_utf8_partial`] with these kernels.
    pub fn utf16_to_utf8_partial(
        &self,
        src: &[u16],
        dst: &mut [u8],
    ) -> Result<Progress, Error<Utf16Error>> {
        self.convert_partial::<Utf16ToUtf8>(src, dst)
    }

    /// [`utf16_to_utf8_lossy_partial`] with these kernels.
    pub fn utf16_to_utf8_lossy_partial(&self, src: &[u16], dst: &mut [u8]) -> Progress {
        self.convert_lossy_partial::<Utf16ToUtf8>(src, dst)
    }

    /// [`utf16_bytes_to_utf8`] with these kernels.
    pub fn utf16_bytes_to_utf8(
        &self,
        src: &[u8],
        dst: &mut [u8],
        order: impl Into<ByteOrder>,
    ) -> Result<usize, Error<Utf16Error>> {
        let order = order.into();
        let lead = order.lead(src);
        if let Lead::Rejected = lead {
            return Err(byte_order::rejected_conversion());
        }
        let rest = src.get(lead.skipped()..).unwrap_or(&[]);
        match order.order {
            Endianness::Big => {
                drive::strict_form(self.utf16_bytes_to::<Utf16BeToUtf8, false>(), rest, dst)
            }
            _ => drive::strict_form(self.utf16_bytes_to::<Utf16LeToUtf8, false>(), rest, dst),
        }
        .map_err(|e| e.after_bom(lead.skipped()))
    }

    /// [`utf16_bytes_to_utf8_lossy`] with these kernels.
    pub fn utf16_bytes_to_utf8_lossy(
        &self,
        src: &[u8],
        dst: &mut [u8],
        order: impl Into<ByteOrder>,
    ) -> Result<usize, BufferTooSmall> {
        let order = order.into();
        let (mark, rest) = match order.lead(src) {
            Lead::Rejected => ("\u{FFFD}".as_bytes(), src.get(2..).unwrap_or(&[])),
            lead => (&b""[..], src.get(lead.skipped()..).unwrap_or(&[])),
        };
        let (head, tail) = match dst.split_at_mut_checked(mark.len()) {
            Some(parts) => parts,
            None => (&mut [][..], &mut [][..]),
        };
        let r = match order.order {
            Endianness::Big => {
                drive::lossy_form(self.utf16_bytes_to::<Utf16BeToUtf8, true>(), rest, tail)
            }
            _ => drive::lossy_form(self.utf16_bytes_to::<Utf16LeToUtf8, true>(), rest, tail),
        };
        match r {
            Ok(n) if head.len() == mark.len() => {
                head.copy_from_slice(mark);
                Ok(mark.len() + n)
            }
            Ok(n) => Err(BufferTooSmall::new(mark.len() + n, dst.len())),
            Err(b) => Err(BufferTooSmall::new(mark.len() + b.needed(), dst.len())),
        }
    }
}

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
#[inline]
pub fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
    Transcoder::new().utf16_to_utf8(src, dst)
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
#[inline]
pub fn utf16_to_utf8_lossy(src: &[u16], dst: &mut [u8]) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf16_to_utf8_lossy(src, dst)
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
#[inline]
pub fn utf16_to_utf8_partial(src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
    Transcoder::new().utf16_to_utf8_partial(src, dst)
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
#[inline]
pub fn utf16_to_utf8_lossy_partial(src: &[u16], dst: &mut [u8]) -> Progress {
    Transcoder::new().utf16_to_utf8_lossy_partial(src, dst)
}

/// Converts UTF-16 held in bytes to UTF-8, validating, as
/// [`utf16_to_utf8`]. A byte-order mark of `order` at the start is
/// stripped unless `order` says to keep or reject it ([`ByteOrder`]; an
/// [`Endianness`](crate::Endianness) alone strips). [`Error::read`] and
/// the [`Utf16Error`]'s [`byte_offset`](Utf16Error::byte_offset) count
/// bytes from the start of `src`, mark included. An odd last byte is an
/// [`Incomplete`](crate::Utf16ErrorKind::Incomplete) error.
///
/// ```
/// use transcode::Endianness;
/// let mut dst = [0u8; 8];
/// let n = transcode::utf16_bytes_to_utf8(&[0xFE, 0xFF, 0, 0x41], &mut dst, Endianness::Big)?;
/// assert_eq!(&dst[..n], b"A"); // the byte-order mark is stripped
///
/// let err = transcode::utf16_bytes_to_utf8(&[0xFE, 0xFF, 0, 0x41, 0xDC, 0], &mut dst, Endianness::Big)
///     .unwrap_err();
/// assert_eq!(err.invalid().map(|e| e.byte_offset()), Some(4));
/// assert_eq!(err.to_string(), "invalid utf-16: unpaired trail surrogate at byte 4");
/// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
/// ```
#[inline]
pub fn utf16_bytes_to_utf8(
    src: &[u8],
    dst: &mut [u8],
    order: impl Into<ByteOrder>,
) -> Result<usize, Error<Utf16Error>> {
    Transcoder::new().utf16_bytes_to_utf8(src, dst, order)
}

/// Converts UTF-16 held in bytes to UTF-8, lossily: equals std's
/// `String::from_utf16le_lossy` (or `be`), which also makes an odd last
/// byte one more U+FFFD, of what follows a stripped byte-order mark
/// ([`ByteOrder`]). A mark that `order` rejects becomes U+FFFD too.
///
/// ```
/// use transcode::Endianness;
/// let mut dst = [0u8; 8];
/// let n = transcode::utf16_bytes_to_utf8_lossy(&[0x41, 0, 0x42], &mut dst, Endianness::Little)?;
/// assert_eq!(&dst[..n], "A\u{FFFD}".as_bytes());
/// # Ok::<(), transcode::BufferTooSmall>(())
/// ```
#[inline]
pub fn utf16_bytes_to_utf8_lossy(
    src: &[u8],
    dst: &mut [u8],
    order: impl Into<ByteOrder>,
) -> Result<usize, BufferTooSmall> {
    Transcoder::new().utf16_bytes_to_utf8_lossy(src, dst, order)
}

#[cfg(feature = "alloc")]
impl Transcoder {
    /// [`utf16_to_string`] with these kernels.
    pub fn utf16_to_string(&self, src: &[u16]) -> Result<String, Utf16Error> {
        self.string_or_invalid::<Utf16ToUtf8>(src)
    }

    /// [`utf16_to_string_lossy`] with these kernels.
    #[must_use]
    pub fn utf16_to_string_lossy(&self, src: &[u16]) -> String {
        self.lossy_string::<Utf16ToUtf8>(src)
    }

    /// [`utf16_bytes_to_string`] with these kernels.
    pub fn utf16_bytes_to_string(
        &self,
        src: &[u8],
        order: impl Into<ByteOrder>,
    ) -> Result<String, Utf16Error> {
        let order = order.into();
        let lead = order.lead(src);
        if let Lead::Rejected = lead {
            return Err(byte_order::rejected());
        }
        let rest = src.get(lead.skipped()..).unwrap_or(&[]);
        let len = 3 * rest.len().div_ceil(2);
        let (out, outcome) = match order.order {
            Endianness::Big => {
                drive::to_vec(self.utf16_bytes_to::<Utf16BeToUtf8, false>(), rest, len)
            }
            _ => drive::to_vec(self.utf16_bytes_to::<Utf16LeToUtf8, false>(), rest, len),
        };
        match outcome.stop {
            Some(Stop::Invalid(e)) => Err(e.offset_by(lead.skipped() / 2).in_bytes()),
            _ => Ok(crate::string_from_utf8(out)),
        }
    }

    /// [`utf16_bytes_to_string_lossy`] with these kernels.
    #[must_use]
    pub fn utf16_bytes_to_string_lossy(&self, src: &[u8], order: impl Into<ByteOrder>) -> String {
        let order = order.into();
        let (mark, rest) = match order.lead(src) {
            Lead::Rejected => ("\u{FFFD}", src.get(2..).unwrap_or(&[])),
            lead => ("", src.get(lead.skipped()..).unwrap_or(&[])),
        };
        let len = 3 * rest.len().div_ceil(2);
        let (out, _) = match order.order {
            Endianness::Big => {
                drive::to_vec(self.utf16_bytes_to::<Utf16BeToUtf8, true>(), rest, len)
            }
            _ => drive::to_vec(self.utf16_bytes_to::<Utf16LeToUtf8, true>(), rest, len),
        };
        let text = crate::string_from_utf8(out);
        match mark {
            "" => text,
            mark => {
                let mut marked = String::with_capacity(mark.len() + text.len());
                marked.push_str(mark);
                marked.push_str(&text);
                marked
            }
        }
    }
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 to a new `String`: `String::from_utf16(src)`, with
/// the position of the error.
///
/// ```
/// assert_eq!(transcode::utf16_to_string(&[0x68, 0x69]).as_deref(), Ok("hi"));
/// assert_eq!(transcode::utf16_to_string(&[0x68, 0xD800]).unwrap_err().valid_up_to(), 1);
/// ```
#[inline]
pub fn utf16_to_string(src: &[u16]) -> Result<String, Utf16Error> {
    Transcoder::new().utf16_to_string(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 to a new `String`, lossily: `String::from_utf16_lossy(src)`.
///
/// ```
/// assert_eq!(transcode::utf16_to_string_lossy(&[0x68, 0xD800]), "h\u{FFFD}");
/// ```
#[must_use]
#[inline]
pub fn utf16_to_string_lossy(src: &[u16]) -> String {
    Transcoder::new().utf16_to_string_lossy(src)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 held in bytes to a new `String`, stripping a
/// byte-order mark of `order` unless it says otherwise ([`ByteOrder`]);
/// errors as [`utf16_bytes_to_utf8`]'s, at their byte offset in `src`.
///
/// ```
/// use transcode::Endianness;
/// assert_eq!(transcode::utf16_bytes_to_string(&[0x68, 0], Endianness::Little).as_deref(), Ok("h"));
/// let e = transcode::utf16_bytes_to_string(b"\xFF\xFEh\x00\x00\xD8", Endianness::Little).unwrap_err();
/// assert_eq!(e.byte_offset(), 4);
/// ```
#[inline]
pub fn utf16_bytes_to_string(
    src: &[u8],
    order: impl Into<ByteOrder>,
) -> Result<String, Utf16Error> {
    Transcoder::new().utf16_bytes_to_string(src, order)
}

#[cfg(feature = "alloc")]
/// Converts UTF-16 held in bytes to a new `String`, lossily, as std's
/// `String::from_utf16le_lossy` (or `be`) of what follows a stripped
/// byte-order mark; a rejected mark becomes U+FFFD.
///
/// ```
/// use transcode::Endianness;
/// assert_eq!(transcode::utf16_bytes_to_string_lossy(&[0, 0x68, 0], Endianness::Big), "h\u{FFFD}");
/// ```
#[must_use]
#[inline]
pub fn utf16_bytes_to_string_lossy(src: &[u8], order: impl Into<ByteOrder>) -> String {
    Transcoder::new().utf16_bytes_to_string_lossy(src, order)
}
