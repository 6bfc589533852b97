//! `bytes` adapters for every [`Format`] (feature `bytes`).

use bytes::{Buf, BufMut};

use super::{DecodeError, EncodeError, Format};

/// The longest encoding the adapters buffer (see `io.rs`).
const MAX_BUF: usize = 32;

/// Reads one value of any [`Format`] from a [`bytes::Buf`], advancing it
/// past the value. Implemented for every `Buf`.
///
/// A value split across chunks (of a `VecDeque` or a `Chain`) is read
/// whole. On error the buffer has not advanced if the value began and
/// failed within the first chunk; across chunks, the bytes examined (at
/// most `F::MAX_LEN`) are consumed.
///
/// ```
/// use varint::formats::{BufFormat, CompactSize, PutFormat};
///
/// let mut wire = Vec::new();
/// wire.put_format::<CompactSize>(515)?;
/// let mut r = &wire[..];
/// assert_eq!(r.get_format::<CompactSize>(), Ok(515));
/// assert!(r.is_empty());
/// # Ok::<(), varint::formats::EncodeError>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub trait BufFormat: Buf {
    /// Reads one value, leniently as [`Format::decode`].
    ///
    /// # Errors
    ///
    /// The [`DecodeError`] of the value; `Truncated` if the buffer ends
    /// inside it.
    fn get_format<F: Format>(&mut self) -> Result<F::Value, DecodeError> {
        get(self, F::MAX_LEN, F::decode)
    }

    /// Reads one value, strictly as [`Format::decode_strict`].
    ///
    /// # Errors
    ///
    /// As [`get_format`](BufFormat::get_format), and `NonCanonical`.
    fn get_format_strict<F: Format>(&mut self) -> Result<F::Value, DecodeError> {
        get(self, F::MAX_LEN, F::decode_strict)
    }
}

impl<B: Buf + ?Sized> BufFormat for B {}

/// Writes one value of any [`Format`] into a [`bytes::BufMut`].
/// Implemented for every `BufMut`.
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub trait PutFormat: BufMut {
    /// Writes the shortest encoding of `value`; returns its length.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfRange`] if the format cannot hold `value`
    /// (nothing is written then).
    ///
    /// # Panics
    ///
    /// If the buffer has too little room, as [`BufMut::put_slice`] does.
    fn put_format<F: Format>(&mut self, value: F::Value) -> Result<usize, EncodeError> {
        let mut buf = [0u8; MAX_BUF];
        let n = F::try_encode(value, &mut buf)?;
        self.put_slice(&buf[..n]);
        Ok(n)
    }
}

impl<B: BufMut + ?Sized> PutFormat for B {}

fn get<T, B: Buf + ?Sized>(
    buf: &mut B,
    max_len: usize,
    decode: impl Fn(&[u8]) -> Result<(T, usize), DecodeError>,
) -> Result<T, DecodeError> {
    let chunk = buf.chunk();
    match decode(chunk) {
        Ok((v, n)) => {
            // Within the chunk even if a format breaks its contract.
            buf.advance(super::progress(n, chunk.len()));
            return Ok(v);
        }
        // Cut off by the end of the chunk, but the buffer goes on.
        Err(DecodeError::Truncated) if chunk.len() < buf.remaining() && chunk.len() < max_len => {}
        Err(e) => return Err(e),
    }
    // The value spans chunks, and `Buf` cannot look past the first one:
    // take bytes one at a time until they decode (a format is prefix-free,
    // so the first success is the value).
    let mut bytes = [0u8; MAX_BUF];
    let max_len = max_len.min(MAX_BUF);
    let mut n = 0;
    while n < max_len && buf.has_remaining() {
        bytes[n] = buf.get_u8();
        n += 1;
        match decode(&bytes[..n]) {
            Err(DecodeError::Truncated) => {}
            other => return other.map(|(v, _)| v),
        }
    }
    Err(DecodeError::Truncated)
}
