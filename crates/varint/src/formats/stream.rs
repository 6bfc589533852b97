//! Every value of a [`Format`] in a `std::io::Read`, in bounded memory,
//! with the index and byte offset of the first failing one.

use core::fmt;
use std::io::{self, Read};
use std::vec;

use super::{DecodeError, Explain, Fault, Format};
use crate::bulk::ordinal_suffix;

/// How many bytes after a single value [`decode_single`] reads, at most:
/// enough to show 8 and say whether more follow.
const TRAILING: usize = 9;

/// Bytes per read: large enough that the carry of at most `MAX_LEN − 1`
/// bytes is rare.
const CHUNK: usize = 64 << 10;

/// The most bytes of a failing value [`StreamError::bytes`] keeps.
const KEPT: usize = 32;

/// Why [`decode_stream`] stopped before the end of its input.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamErrorKind<E> {
    /// The value could not be decoded.
    Decode(DecodeError),
    /// Reading failed.
    Read(io::Error),
    /// The callback returned an error.
    Callback(E),
    /// [`decode_single`] only: a whole value of `len` bytes, followed by
    /// more bytes. [`StreamError::bytes`] holds the value's bytes and up to
    /// 9 of those after it (so that a message can show 8 and say whether
    /// more follow).
    Trailing {
        /// The value's length.
        len: usize,
    },
}

/// [`decode_stream`] stopped at a value: which one (counting the values
/// before it), where it begins, and why.
///
/// Its `Display` counts as a reader counts, from 1: "the 3rd varint, at
/// byte offset 2: …", like [`BulkError`](crate::BulkError)'s.
#[derive(Debug)]
pub struct StreamError<E> {
    index: u64,
    offset: u64,
    kind: StreamErrorKind<E>,
    bytes: [u8; KEPT],
    len: usize,
}

impl<E> StreamError<E> {
    fn new(index: u64, offset: u64, kind: StreamErrorKind<E>, bytes: &[u8]) -> StreamError<E> {
        let mut kept = [0u8; KEPT];
        let n = bytes.len().min(KEPT);
        kept[..n].copy_from_slice(&bytes[..n]);
        StreamError {
            index,
            offset,
            kind,
            bytes: kept,
            len: n,
        }
    }

    /// The number of values decoded (and handed out) before this one.
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The byte offset in the stream where the failing value begins.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> &StreamErrorKind<E> {
        &self.kind
    }

    /// The error, taken out.
    #[must_use]
    pub fn into_kind(self) -> StreamErrorKind<E> {
        self.kind
    }

    /// For a [`StreamErrorKind::Decode`], the input from the failing
    /// value's first byte: up to the format's `MAX_LEN` bytes (fewer where
    /// the stream ended), so a message can say which byte is at fault. For
    /// a [`StreamErrorKind::Trailing`], see there. Empty for the other
    /// kinds.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// For a [`StreamErrorKind::Decode`], why the value failed, read from
    /// its [`bytes`](StreamError::bytes) ([`Explain::explain`]); `F` is the
    /// format the stream was decoded with. `None` for the other kinds.
    ///
    /// ```
    /// use varint::formats::{Fault, Leb128, decode_stream};
    ///
    /// let bytes: &[u8] = &[0x01, 0xff, 0xff];
    /// let err = decode_stream::<Leb128<u64>, _, std::io::Error>(bytes, false, |_| Ok(()))
    ///     .unwrap_err();
    /// assert_eq!(err.fault::<Leb128<u64>>(), Some(Fault::Continued { len: 2 }));
    /// ```
    #[must_use]
    pub fn fault<F: Explain>(&self) -> Option<Fault<F::Value>> {
        match self.kind {
            StreamErrorKind::Decode(e) => Some(F::explain(self.bytes(), e)),
            _ => None,
        }
    }
}

impl<E: fmt::Display> fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.index + 1;
        let suffix = ordinal_suffix(n);
        match &self.kind {
            StreamErrorKind::Decode(e) => write!(
                f,
                "the {n}{suffix} varint, at byte offset {}: {e}",
                self.offset
            ),
            StreamErrorKind::Read(e) => write!(
                f,
                "reading the {n}{suffix} varint, at byte offset {}: {e}",
                self.offset
            ),
            StreamErrorKind::Callback(e) => e.fmt(f),
            StreamErrorKind::Trailing { len } => write!(
                f,
                "trailing bytes: the varint ends after byte {len}, then more bytes follow"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> core::error::Error for StreamError<E> {}

/// Decodes every value of format `F` in `reader`, in order, calling
/// `on_value` with each as soon as its bytes have arrived (so values come
/// out of a slow pipe as they come in). Memory is bounded (one 64 KiB
/// buffer); the input may be of any length. Returns the number of values.
///
/// A value cut off by the end of the input is
/// [`DecodeError::Truncated`]; an empty input is no values.
/// [`ErrorKind::Interrupted`](io::ErrorKind::Interrupted) is retried.
///
/// # Errors
///
/// The first value that fails to decode, a read error, or the callback's
/// error, with the number of values before it and the byte offset where
/// it begins. Every value before it has been handed to `on_value`.
///
/// ```
/// use varint::formats::{Sqlite, StreamErrorKind, decode_stream};
///
/// let mut values = Vec::new();
/// let bytes: &[u8] = &[0x05, 0x81, 0x00, 0x81];
/// let err = decode_stream::<Sqlite, _, std::io::Error>(bytes, false, |v| {
///     values.push(v);
///     Ok(())
/// })
/// .unwrap_err();
/// assert_eq!(values, [5, 128]);
/// assert_eq!((err.index(), err.offset(), err.bytes()), (2, 3, &[0x81][..]));
/// assert!(matches!(err.kind(), StreamErrorKind::Decode(_)));
/// assert_eq!(
///     err.to_string(),
///     "the 3rd varint, at byte offset 3: varint truncated: input ended before its last byte"
/// );
/// ```
pub fn decode_stream<F: Format, R: Read, E>(
    mut reader: R,
    strict: bool,
    mut on_value: impl FnMut(F::Value) -> Result<(), E>,
) -> Result<u64, StreamError<E>> {
    let max_len = F::MAX_LEN.max(1);
    let mut buf = vec![0u8; CHUNK + max_len];
    // Bytes at the front of `buf` not decoded yet, the absolute offset of
    // `buf[0]`, and the number of values so far.
    let (mut len, mut base, mut index) = (0usize, 0u64, 0u64);
    let mut eof = false;
    let fail = |index, offset, kind, bytes: &[u8]| {
        StreamError::new(index, offset, kind, &bytes[..bytes.len().min(max_len)])
    };
    loop {
        // Read until a whole value is there (or the input ends).
        while !eof && len < max_len {
            match reader.read(&mut buf[len..]) {
                Ok(0) => eof = true,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(fail(index, base, StreamErrorKind::Read(e), &[])),
            }
        }
        let mut at = 0;
        while at < len {
            // Near the end of a full buffer, fetch more before deciding.
            if !eof && len - at < max_len {
                break;
            }
            let rest = &buf[at..len];
            let decoded = if strict {
                F::decode_strict(rest)
            } else {
                F::decode(rest)
            };
            let offset = base + at as u64;
            match decoded {
                Ok((value, n)) => {
                    on_value(value)
                        .map_err(|e| fail(index, offset, StreamErrorKind::Callback(e), &[]))?;
                    index += 1;
                    at += super::progress(n, len - at);
                }
                Err(e) => return Err(fail(index, offset, StreamErrorKind::Decode(e), rest)),
            }
        }
        if eof {
            return Ok(index);
        }
        buf.copy_within(at..len, 0);
        base += at as u64;
        len -= at;
    }
}

/// Decodes the one value of format `F` that must fill `reader`: its value
/// and length. Reads at most `F::MAX_LEN` bytes, and 9 more only when the
/// value might be followed by some, so an endless source is never read to
/// its end. (A format of someone else's longer than 23 bytes is read to 23:
/// the error keeps its bytes inline.)
///
/// # Errors
///
/// With index and offset 0: [`StreamErrorKind::Decode`] if the value does
/// not decode (an empty input is [`DecodeError::Truncated`]),
/// [`StreamErrorKind::Trailing`] if bytes follow it, and
/// [`StreamErrorKind::Read`].
///
/// ```
/// use varint::formats::{Quic, StreamErrorKind, decode_single};
///
/// assert_eq!(decode_single::<Quic, _>(&[0x7b, 0xbd][..], false).unwrap(), (15293, 2));
/// let err = decode_single::<Quic, _>(&[0x25, 0x01, 0x02][..], false).unwrap_err();
/// assert!(matches!(err.kind(), StreamErrorKind::Trailing { len: 1 }));
/// assert_eq!(err.bytes(), [0x25, 0x01, 0x02]);
/// ```
pub fn decode_single<F: Format, R: Read>(
    mut reader: R,
    strict: bool,
) -> Result<(F::Value, usize), StreamError<core::convert::Infallible>> {
    let max_len = F::MAX_LEN.clamp(1, KEPT - TRAILING);
    let mut buf = [0u8; KEPT];
    let fail = |kind, bytes: &[u8]| StreamError::new(0, 0, kind, bytes);
    let len = read_up_to(&mut reader, &mut buf[..max_len])
        .map_err(|e| fail(StreamErrorKind::Read(e), &[]))?;
    let decoded = if strict {
        F::decode_strict(&buf[..len])
    } else {
        F::decode(&buf[..len])
    };
    let (value, n) = decoded.map_err(|e| fail(StreamErrorKind::Decode(e), &buf[..len]))?;
    let n = super::progress(n, len);
    let mut end = len;
    if len == max_len {
        // Bytes may follow: read enough of them to name them.
        let want = (n + TRAILING).saturating_sub(len);
        end += read_up_to(&mut reader, &mut buf[len..len + want])
            .map_err(|e| fail(StreamErrorKind::Read(e), &[]))?;
    }
    if end > n {
        let kept = end.min(n + TRAILING);
        return Err(fail(StreamErrorKind::Trailing { len: n }, &buf[..kept]));
    }
    Ok((value, n))
}

/// Fills `buf` from `reader` as far as it goes; retries `Interrupted`.
fn read_up_to<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
