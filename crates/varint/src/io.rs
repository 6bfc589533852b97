//! `std::io` extension traits: one varint from a [`Read`], into a
//! [`Write`].

use std::io::{self, Read, Write};

use codec_core::DecodeError;
use zigzag::ZigZag;

use crate::Varint;
use crate::sleb128::{self, Sleb128};

/// Reads varints from any [`Read`]. Implemented for every `Read`.
///
/// Bytes are read one at a time, so that nothing after the varint is
/// consumed; wrap an unbuffered source (a file, a socket) in a
/// [`BufReader`](std::io::BufReader).
///
/// # Limits and errors
///
/// At most `T::MAX_LEN` bytes are read: the reader stops after the
/// terminating byte, or after the `MAX_LEN`-th byte, whichever comes first
/// (unlike Go's `ReadUvarint` before CVE-2020-16845, no input makes it read
/// on). Short reads (`read` returning fewer bytes than asked) and
/// [`ErrorKind::Interrupted`](io::ErrorKind::Interrupted) are retried; an
/// error of the reader is returned as is.
///
/// - The source ends before the terminating byte, including before the
///   first byte: [`ErrorKind::UnexpectedEof`](io::ErrorKind::UnexpectedEof)
///   wrapping [`DecodeError::Truncated`]. To tell a clean end of the stream
///   (before a varint) from a varint cut off, use
///   [`read_varint_or_eof`](ReadVarint::read_varint_or_eof).
/// - Overflow, or in strict mode a non-canonical encoding:
///   [`ErrorKind::InvalidData`](io::ErrorKind::InvalidData) wrapping the
///   [`DecodeError`] (get it with `err.get_ref()` and `downcast_ref`).
///
/// After an error the bytes read so far are consumed: the reader is
/// positioned after them, at most `MAX_LEN` bytes past where the varint
/// began.
///
/// ```
/// use varint::{ReadVarint, WriteVarint};
///
/// let mut wire = Vec::new();
/// wire.write_varint(300u32)?;
/// wire.write_varint_signed(-2i64)?;
/// let mut r = &wire[..];
/// assert_eq!(r.read_varint::<u32>()?, 300);
/// assert_eq!(r.read_varint_signed::<i64>()?, -2);
/// let eof = r.read_varint::<u64>().unwrap_err();
/// assert_eq!(eof.kind(), std::io::ErrorKind::UnexpectedEof);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait ReadVarint: Read {
    /// Reads one varint, leniently as [`decode`](crate::decode()).
    fn read_varint<T: Varint>(&mut self) -> io::Result<T> {
        required(read_one(self, T::MAX_LEN, T::read::<false>))
    }

    /// Reads one varint, strictly as [`decode_strict`](crate::decode_strict()).
    fn read_varint_strict<T: Varint>(&mut self) -> io::Result<T> {
        required(read_one(self, T::MAX_LEN, T::read::<true>))
    }

    /// Reads one zigzag-encoded signed varint (protobuf `sint32`, `sint64`).
    fn read_varint_signed<S>(&mut self) -> io::Result<S>
    where
        S: ZigZag,
        S::Unsigned: Varint,
    {
        self.read_varint::<S::Unsigned>().map(zigzag::decode)
    }

    /// Reads one varint (lenient), or `Ok(None)` if the source is at its
    /// end before the varint's first byte: the clean end of a stream of
    /// length-delimited messages. A source that ends after the first byte
    /// and before the terminating one is still
    /// [`ErrorKind::UnexpectedEof`](io::ErrorKind::UnexpectedEof) wrapping
    /// [`DecodeError::Truncated`]: the message was cut off.
    ///
    /// ```
    /// use varint::ReadVarint;
    ///
    /// let mut r: &[u8] = &[0x03, 0xAC];
    /// assert_eq!(r.read_varint_or_eof::<u32>()?, Some(3));
    /// let cut = r.read_varint_or_eof::<u32>().unwrap_err(); // 0xAC continues
    /// assert_eq!(cut.kind(), std::io::ErrorKind::UnexpectedEof);
    /// assert_eq!(r.read_varint_or_eof::<u32>()?, None); // nothing left: a clean end
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn read_varint_or_eof<T: Varint>(&mut self) -> io::Result<Option<T>> {
        read_one(self, T::MAX_LEN, T::read::<false>)
    }

    /// Reads one signed LEB128 value, leniently as
    /// [`sleb128::decode`](crate::sleb128::decode), with the limits and
    /// errors above (at most `T::MAX_LEN` bytes are read).
    ///
    /// ```
    /// use varint::{ReadVarint, WriteVarint};
    ///
    /// let mut wire = Vec::new();
    /// wire.write_sleb128(-129i64)?;
    /// assert_eq!(wire, [0xFF, 0x7E]);
    /// assert_eq!((&wire[..]).read_sleb128::<i64>()?, -129);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn read_sleb128<T: Sleb128>(&mut self) -> io::Result<T> {
        required(read_one(self, T::MAX_LEN, sleb128::decode::<T>))
    }

    /// Reads one signed LEB128 value strictly, as
    /// [`sleb128::decode_strict`](crate::sleb128::decode_strict).
    fn read_sleb128_strict<T: Sleb128>(&mut self) -> io::Result<T> {
        required(read_one(self, T::MAX_LEN, sleb128::decode_strict::<T>))
    }
}

impl<R: Read + ?Sized> ReadVarint for R {}

/// Writes varints into any [`Write`]. Implemented for every `Write`.
///
/// Each call encodes into a stack buffer and hands it to
/// [`write_all`](Write::write_all) once.
pub trait WriteVarint: Write {
    /// Writes the canonical varint of `value`; returns its length.
    fn write_varint<T: Varint>(&mut self, value: T) -> io::Result<usize> {
        let mut buf = [0u8; 19];
        let n = crate::encode(value, &mut buf);
        self.write_all(&buf[..n])?;
        Ok(n)
    }

    /// Writes a zigzag-encoded signed varint; returns its length.
    fn write_varint_signed<S>(&mut self, value: S) -> io::Result<usize>
    where
        S: ZigZag,
        S::Unsigned: Varint,
    {
        self.write_varint(zigzag::encode(value))
    }

    /// Writes the shortest signed LEB128 encoding of `value`; returns its
    /// length.
    fn write_sleb128<T: Sleb128>(&mut self, value: T) -> io::Result<usize> {
        let mut buf = [0u8; 19];
        let n = sleb128::encode(value, &mut buf);
        self.write_all(&buf[..n])?;
        Ok(n)
    }
}

impl<W: Write + ?Sized> WriteVarint for W {}

/// A clean end before the first byte is `Ok(None)`; the callers that want
/// a value turn it into `UnexpectedEof`.
fn required<T>(r: io::Result<Option<T>>) -> io::Result<T> {
    match r {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(DecodeError::Truncated.into()),
        Err(e) => Err(e),
    }
}

/// A decoder of one value from the start of a slice.
type Decode<T> = fn(&[u8]) -> Result<(T, usize), DecodeError>;

/// Reads bytes one at a time until a terminating byte or `max_len` bytes
/// (at most 19, u128's `MAX_LEN`), then decodes them with `decode`.
/// `Ok(None)`: the source ended before the first byte.
fn read_one<T, R: Read + ?Sized>(
    r: &mut R,
    max_len: usize,
    decode: Decode<T>,
) -> io::Result<Option<T>> {
    let mut buf = [0u8; 19];
    let max_len = max_len.min(buf.len());
    let mut n = 0;
    while n < max_len {
        let byte = &mut buf[n..n + 1];
        loop {
            match r.read(byte) {
                Ok(0) if n == 0 => return Ok(None),
                // codec-core's `From`: Truncated is UnexpectedEof.
                Ok(0) => return Err(DecodeError::Truncated.into()),
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        n += 1;
        if buf[n - 1] < 0x80 {
            break;
        }
    }
    // Only Overflow and NonCanonical are left (the bytes end at a
    // terminator or at `max_len`): InvalidData.
    match decode(&buf[..n]) {
        Ok((v, _)) => Ok(Some(v)),
        Err(e) => Err(e.into()),
    }
}
