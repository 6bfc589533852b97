//! `std::io` adapters for every [`Format`].

use std::io::{self, Read, Write};

use super::{DecodeError, EncodeError, Format};

/// The longest encoding the adapters buffer: every format of this crate
/// fits (the longest, `Leb128<u128>`, is 19 bytes).
const MAX_BUF: usize = 32;

/// Reads one value of any [`Format`] from a [`Read`]. Implemented for
/// every `Read`.
///
/// Bytes are read one at a time, so that nothing after the value is
/// consumed (wrap an unbuffered source in a
/// [`BufReader`](std::io::BufReader)), and at most `F::MAX_LEN` of them.
///
/// - The source ends inside the value, or before it:
///   [`ErrorKind::UnexpectedEof`](io::ErrorKind::UnexpectedEof) wrapping
///   [`DecodeError::Truncated`]; [`read_format_or_eof`](ReadFormat::read_format_or_eof)
///   tells a clean end (before the value) from a cut-off value.
/// - Any other [`DecodeError`]:
///   [`ErrorKind::InvalidData`](io::ErrorKind::InvalidData) wrapping it.
///
/// After an error, the bytes read so far are consumed.
///
/// ```
/// use varint::formats::{Quic, ReadFormat, WriteFormat};
///
/// let mut wire = Vec::new();
/// wire.write_format::<Quic>(15293)?;
/// assert_eq!(wire, [0x7b, 0xbd]);
/// let mut r = &wire[..];
/// assert_eq!(r.read_format::<Quic>()?, 15293);
/// assert_eq!(r.read_format_or_eof::<Quic>()?, None);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait ReadFormat: Read {
    /// Reads one value, leniently as [`Format::decode`].
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn read_format<F: Format>(&mut self) -> io::Result<F::Value> {
        required(read_one(self, F::MAX_LEN, F::decode))
    }

    /// Reads one value, strictly as [`Format::decode_strict`].
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn read_format_strict<F: Format>(&mut self) -> io::Result<F::Value> {
        required(read_one(self, F::MAX_LEN, F::decode_strict))
    }

    /// Reads one value leniently, or `None` if the source ends before its
    /// first byte.
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn read_format_or_eof<F: Format>(&mut self) -> io::Result<Option<F::Value>> {
        read_one(self, F::MAX_LEN, F::decode)
    }
}

impl<R: Read + ?Sized> ReadFormat for R {}

/// Writes one value of any [`Format`] into a [`Write`]. Implemented for
/// every `Write`.
pub trait WriteFormat: Write {
    /// Writes the shortest encoding of `value`; returns its length.
    ///
    /// # Errors
    ///
    /// Those of the writer, and
    /// [`ErrorKind::InvalidInput`](io::ErrorKind::InvalidInput) wrapping
    /// [`EncodeError::OutOfRange`] if the format cannot hold `value`
    /// (nothing is written then).
    fn write_format<F: Format>(&mut self, value: F::Value) -> io::Result<usize> {
        let mut buf = [0u8; MAX_BUF];
        let n = F::try_encode(value, &mut buf)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        self.write_all(&buf[..n])?;
        Ok(n)
    }
}

impl<W: Write + ?Sized> WriteFormat for W {}

fn required<T>(r: io::Result<Option<T>>) -> io::Result<T> {
    match r {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(DecodeError::Truncated.into()),
        Err(e) => Err(e),
    }
}

fn read_one<T, R: Read + ?Sized>(
    r: &mut R,
    max_len: usize,
    decode: impl Fn(&[u8]) -> Result<(T, usize), DecodeError>,
) -> io::Result<Option<T>> {
    if max_len > MAX_BUF {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            EncodeError::OutOfRange,
        ));
    }
    let mut buf = [0u8; MAX_BUF];
    let mut n = 0;
    loop {
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
        // A format is prefix-free: once the bytes so far decode, more
        // bytes would not change the value.
        match decode(&buf[..n]) {
            Ok((v, _)) => return Ok(Some(v)),
            Err(DecodeError::Truncated) if n < max_len => {}
            Err(e) => return Err(e.into()),
        }
    }
}
