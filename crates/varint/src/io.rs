//! `std::io` extension traits: one varint from a [`Read`], into a
//! [`Write`].

use std::io::{self, Read, Write};

use codec_core::DecodeError;
use zigzag::ZigZag;

use crate::Varint;

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
///   wrapping [`DecodeError::Truncated`].
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
        read_one::<T, _, false>(self)
    }

    /// Reads one varint, strictly as [`decode_strict`](crate::decode_strict()).
    fn read_varint_strict<T: Varint>(&mut self) -> io::Result<T> {
        read_one::<T, _, true>(self)
    }

    /// Reads one zigzag-encoded signed varint (protobuf `sint32`, `sint64`).
    fn read_varint_signed<S>(&mut self) -> io::Result<S>
    where
        S: ZigZag,
        S::Unsigned: Varint,
    {
        read_one::<S::Unsigned, _, false>(self).map(zigzag::decode)
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
}

impl<W: Write + ?Sized> WriteVarint for W {}

fn read_one<T: Varint, R: Read + ?Sized, const STRICT: bool>(r: &mut R) -> io::Result<T> {
    let mut buf = [0u8; 19];
    let mut n = 0;
    // `19` is u128's MAX_LEN, the largest: the loop ends after MAX_LEN bytes
    // or the terminating one.
    while n < T::MAX_LEN {
        let byte = &mut buf[n..n + 1];
        loop {
            match r.read(byte) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        DecodeError::Truncated,
                    ));
                }
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
    let result = if STRICT {
        T::read::<true>(&buf[..n])
    } else {
        T::read::<false>(&buf[..n])
    };
    match result {
        Ok((v, _)) => Ok(v),
        Err(e) => Err(io::Error::new(io::ErrorKind::InvalidData, e)),
    }
}
