//! UTF-8 over `std::io` (feature `std`): [`Utf8Reader`] cuts any reader into
//! the pieces of [`Utf8Chunks`](crate::chunks::Utf8Chunks), with absolute
//! offsets, in bounded memory; [`Utf8Reader::repair`] is a lossy
//! `Read -> Write` copy equal to `String::from_utf8_lossy` byte for byte.
//! Also the conversions of this crate's errors into `std::io::Error`.

use std::io::{self, Read, Write};
use std::vec::Vec;

#[cfg(doc)]
use crate::Utf8Error;
use crate::chunks::Utf8Chunk;
use crate::utf8::unfinished_start;
use crate::{DecodeError, ErrorKind, SequenceError, Utf8Validator};

/// The default read size: 256 KiB stays in L2 between the read and the
/// validation pass (`docs/results/codec-cli.md` has the measurement).
pub const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// Reads land at a 64-byte-aligned address, with the at most 3 carried
/// bytes just before it: the kernel's copy from the page cache ran 4x slower
/// into a destination 1-31 bytes past a page boundary (measured with `readv`
/// on an AMD Zen 3, see `docs/results/codec-cli.md`).
const ALIGN: usize = 64;

/// A reader cut into [`Utf8Chunk`]s: valid text and the invalid pieces
/// between, with absolute offsets, in one buffer of fixed size.
///
/// The pieces are those of std's `utf8_chunks` on the whole input, except
/// that a valid run can be cut in two where one read ends and the next
/// begins (only the last piece of a read can have no invalid bytes). A
/// character split between two reads is carried over (at most 3 bytes) and
/// never reported as an error; an unfinished character at the end of the
/// input is, as [`Incomplete`](crate::Utf8ErrorKind::Incomplete).
///
/// Memory: one buffer of `chunk_size` plus 128 bytes, whatever the input
/// size. Read errors of kind `Interrupted` are retried; others are returned.
///
/// ```
/// use codec_core::io::Utf8Reader;
/// use codec_core::{Utf8Error, Utf8ErrorKind, Utf8Validator};
///
/// struct Std;
/// impl Utf8Validator for Std {
///     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
///         core::str::from_utf8(input).map(drop).map_err(|e| Utf8Error::from_std(e, input))
///     }
/// }
///
/// let input: &[u8] = b"line one\nbad \xFF byte, cut \xE2\x82";
/// let mut reader = Utf8Reader::with_chunk_size(input, Std, 4);
/// let mut errors = Vec::new();
/// while let Some(chunk) = reader.next_chunk()? {
///     if let Some(kind) = chunk.kind() {
///         errors.push((chunk.invalid_offset(), kind));
///     }
/// }
/// assert_eq!(errors, [(13, Utf8ErrorKind::InvalidByte), (25, Utf8ErrorKind::Incomplete)]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Utf8Reader<R, V> {
    reader: R,
    validator: V,
    buf: Vec<u8>,
    /// Where reads land in `buf`: 64-byte aligned, with room for the carry
    /// before it.
    start: usize,
    chunk_size: usize,
    /// The unreturned bytes are `buf[pos..end]`.
    pos: usize,
    end: usize,
    /// The absolute offset of `buf[pos]`.
    offset: u64,
    eof: bool,
}

impl<R: Read, V: Utf8Validator> Utf8Reader<R, V> {
    /// Cuts `reader` into pieces checked with `validator`, reading
    /// [`DEFAULT_CHUNK_SIZE`] bytes at a time.
    #[must_use]
    pub fn new(reader: R, validator: V) -> Utf8Reader<R, V> {
        Utf8Reader::with_chunk_size(reader, validator, DEFAULT_CHUNK_SIZE)
    }

    /// As [`new`](Utf8Reader::new), reading `chunk_size` bytes (at least
    /// one) at a time.
    #[must_use]
    pub fn with_chunk_size(reader: R, validator: V, chunk_size: usize) -> Utf8Reader<R, V> {
        Utf8Reader::with_buffer(reader, validator, chunk_size, Vec::new())
    }

    /// As [`with_chunk_size`](Utf8Reader::with_chunk_size), reusing the
    /// buffer of an earlier reader ([`into_buffer`](Utf8Reader::into_buffer)),
    /// so that scanning many inputs allocates once.
    #[must_use]
    pub fn with_buffer(
        reader: R,
        validator: V,
        chunk_size: usize,
        mut buf: Vec<u8>,
    ) -> Utf8Reader<R, V> {
        let chunk_size = chunk_size.max(1);
        buf.resize(chunk_size + 2 * ALIGN, 0);
        // The first 64-byte-aligned index with at least 3 bytes before it.
        let mut start = buf.as_ptr().align_offset(ALIGN);
        if start < 3 {
            start += ALIGN;
        }
        Utf8Reader {
            reader,
            validator,
            buf,
            start,
            chunk_size,
            pos: start,
            end: start,
            offset: 0,
            eof: false,
        }
    }

    /// The next piece of the input, `None` at its end.
    ///
    /// The piece borrows the reader's buffer, so it must be dropped before
    /// the next call: `while let Some(chunk) = reader.next_chunk()? { .. }`.
    pub fn next_chunk(&mut self) -> io::Result<Option<Utf8Chunk<'_>>> {
        // First make sure the buffer holds more than the unfinished start of
        // a character, reading (and carrying that start over) as needed.
        loop {
            let data = &self.buf[self.pos..self.end];
            let unfinished = !data.is_empty() && unfinished_start(data) == 0;
            if self.eof || !(data.is_empty() || unfinished) {
                break;
            }
            self.fill(data.len())?;
        }
        let data = &self.buf[self.pos..self.end];
        if data.is_empty() {
            return Ok(None);
        }
        // Then one step of the validator, whose `&str` is handed out as it
        // is: no second pass over the text, and no `unsafe`.
        let (valid, error) = self.validator.valid_prefix(data);
        let tail = data.len() - valid.len();
        let (invalid, kind) = match error {
            None => (0, None),
            // This read, not the input, ends inside a character: hand out
            // the text before it, and carry it on the next call.
            Some(e) if e.error_len().is_none() && !self.eof && !valid.is_empty() && tail <= 3 => {
                (0, None)
            }
            // Clamped, so that a misreporting validator can neither stall
            // the reader nor move it outside the buffer.
            Some(e) => (
                e.error_len().unwrap_or(tail).clamp(1, tail.max(1)),
                Some(e.kind()),
            ),
        };
        let invalid = invalid.min(tail);
        let offset = self.offset;
        self.pos += valid.len() + invalid;
        self.offset += (valid.len() + invalid) as u64;
        let bad = &data[valid.len()..valid.len() + invalid];
        Ok(Some(Utf8Chunk::new(valid, bad, offset, kind)))
    }

    /// Moves the `carry` unreturned bytes just before the aligned read
    /// position and reads more after them.
    fn fill(&mut self, carry: usize) -> io::Result<()> {
        let from = self.end - carry;
        self.buf.copy_within(from..self.end, self.start - carry);
        self.pos = self.start - carry;
        let dest = &mut self.buf[self.start..self.start + self.chunk_size];
        let n = loop {
            match self.reader.read(dest) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.end = self.start;
                    return Err(e);
                }
            }
        };
        self.end = self.start + n;
        self.eof = n == 0;
        Ok(())
    }

    /// The number of input bytes returned in chunks so far.
    #[must_use]
    pub const fn position(&self) -> u64 {
        self.offset
    }

    /// The underlying reader.
    #[must_use]
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The buffer, for [`with_buffer`](Utf8Reader::with_buffer).
    #[must_use]
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }

    /// Copies the rest of the input to `writer`, each invalid piece replaced
    /// with one U+FFFD: byte for byte `String::from_utf8_lossy` of the input.
    ///
    /// Valid text is written straight from the buffer, so `writer` should
    /// buffer if its calls are costly. The writer is flushed at the end.
    pub fn repair<W: Write>(&mut self, mut writer: W) -> io::Result<Repaired> {
        const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();
        let mut done = Repaired::default();
        while let Some(chunk) = self.next_chunk()? {
            writer.write_all(chunk.valid().as_bytes())?;
            done.bytes_in += (chunk.valid().len() + chunk.invalid().len()) as u64;
            done.bytes_out += chunk.valid().len() as u64;
            if chunk.kind().is_some() {
                writer.write_all(REPLACEMENT)?;
                done.bytes_out += REPLACEMENT.len() as u64;
                done.replaced += 1;
            }
        }
        writer.flush()?;
        Ok(done)
    }
}

/// Why reading text stopped ([`Utf8Reader::validate`], and the readers of
/// other encodings, whose `K` is their error kind): the reader failed, or
/// the text is not well-formed.
#[derive(Debug)]
pub enum ReadError<K = crate::Utf8ErrorKind> {
    /// The underlying reader returned an error (other than `Interrupted`,
    /// which is retried).
    Io(io::Error),
    /// The input is not well-formed: where, and why.
    Invalid(InvalidAt<K>),
}

/// The first invalid piece of a stream: its absolute byte offset, its
/// line and column (as [`Position`](crate::position::Position) counts
/// them: 1-based, in characters of the text before it), its length (as
/// std's `error_len`) and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidAt<K = crate::Utf8ErrorKind> {
    encoding: &'static str,
    offset: u64,
    line: u64,
    column: u64,
    error_len: Option<usize>,
    kind: K,
}

impl<K: Copy> InvalidAt<K> {
    /// An invalid piece of text in `encoding` (its name in messages, such as
    /// `"utf-16"`), at byte `offset` of the stream, on 1-based `line` and
    /// `column`, of `error_len` bytes (`None`: the stream ended inside it).
    #[must_use]
    pub const fn new(
        encoding: &'static str,
        offset: u64,
        (line, column): (u64, u64),
        error_len: Option<usize>,
        kind: K,
    ) -> InvalidAt<K> {
        InvalidAt {
            encoding,
            offset,
            line,
            column,
            error_len,
            kind,
        }
    }

    /// The byte offset of the invalid piece from the start of the stream:
    /// the number of valid bytes before it.
    #[must_use]
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// The 1-based line of the invalid piece.
    #[must_use]
    pub const fn line(&self) -> u64 {
        self.line
    }

    /// The 1-based column of the invalid piece, in characters.
    #[must_use]
    pub const fn column(&self) -> u64 {
        self.column
    }

    /// `Some(n)`: the piece is `n` bytes long; `None`: the stream ended
    /// inside a character. As [`core::str::Utf8Error::error_len`].
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        self.error_len
    }

    /// Why the piece is invalid.
    #[must_use]
    pub const fn kind(&self) -> K {
        self.kind
    }
}

impl<K: core::fmt::Display> core::fmt::Display for InvalidAt<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "invalid {} at byte {} (line {}, column {}): {}",
            self.encoding, self.offset, self.line, self.column, self.kind
        )
    }
}

impl<K: core::fmt::Display + core::fmt::Debug> std::error::Error for InvalidAt<K> {}

impl<K: core::fmt::Display> core::fmt::Display for ReadError<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "read error: {e}"),
            ReadError::Invalid(e) => e.fmt(f),
        }
    }
}

impl<K: core::fmt::Display + core::fmt::Debug + Send + Sync + 'static> std::error::Error
    for ReadError<K>
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::Invalid(e) => Some(e),
        }
    }
}

impl<K> From<io::Error> for ReadError<K> {
    fn from(e: io::Error) -> ReadError<K> {
        ReadError::Io(e)
    }
}

/// `InvalidData` for invalid text, the read error itself otherwise.
impl<K: core::fmt::Display + core::fmt::Debug + Send + Sync + 'static> From<ReadError<K>>
    for io::Error
{
    fn from(e: ReadError<K>) -> io::Error {
        match e {
            ReadError::Io(e) => e,
            ReadError::Invalid(e) => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}

impl<R: Read, V: Utf8Validator> Utf8Reader<R, V> {
    /// Reads the rest of the input and checks that it is UTF-8: the number
    /// of bytes read, or the first invalid piece with its byte offset, line
    /// and column. Memory stays one buffer, whatever the input size.
    ///
    /// ```
    /// use codec_core::io::{ReadError, Utf8Reader};
    /// # use codec_core::{Utf8Error, Utf8ErrorKind, Utf8Validator};
    /// # struct Std;
    /// # impl Utf8Validator for Std {
    /// #     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
    /// #         core::str::from_utf8(input).map(drop).map_err(|e| Utf8Error::from_std(e, input))
    /// #     }
    /// # }
    /// let input: &[u8] = b"caf\xC3\xA9\nna\xFFve\n";
    /// let Err(ReadError::Invalid(e)) = Utf8Reader::new(input, Std).validate() else { panic!() };
    /// assert_eq!((e.offset(), e.line(), e.column()), (8, 2, 3));
    /// assert_eq!(e.to_string(), "invalid utf-8 at byte 8 (line 2, column 3): byte never valid in UTF-8");
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReadError::Io`] if the reader fails, [`ReadError::Invalid`] at the
    /// first invalid piece (an input cut inside a character included).
    pub fn validate(&mut self) -> Result<u64, ReadError> {
        let mut pos = crate::position::Position::new();
        while let Some(chunk) = self.next_chunk()? {
            pos.advance_valid(chunk.valid().as_bytes());
            if let Some(kind) = chunk.kind() {
                let incomplete = kind == crate::Utf8ErrorKind::Incomplete;
                return Err(ReadError::Invalid(InvalidAt::new(
                    "utf-8",
                    chunk.invalid_offset(),
                    (pos.line(), pos.column()),
                    (!incomplete).then_some(chunk.invalid().len()),
                    kind,
                )));
            }
        }
        Ok(self.offset)
    }
}

/// What [`Utf8Reader::repair`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Repaired {
    /// Bytes read.
    pub bytes_in: u64,
    /// Bytes written.
    pub bytes_out: u64,
    /// Invalid pieces replaced with U+FFFD.
    pub replaced: u64,
}

/// An `InvalidData` I/O error whose source is the decoding error (a
/// [`Utf8Error`] or any other [`SequenceError`]), so that `?` works on
/// validation in functions that return `std::io::Result`.
///
/// ```
/// fn check(bytes: &[u8]) -> std::io::Result<()> {
///     let e = codec_core::Utf8Error::at(bytes, 0);
///     Err(e)?
/// }
/// let err = check(b"\xFF").unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// ```
impl<K: ErrorKind + Send + Sync + 'static> From<SequenceError<K>> for io::Error {
    fn from(e: SequenceError<K>) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// A varint error as an I/O error: `UnexpectedEof` for
/// [`DecodeError::Truncated`] (the input stopped inside a value), else
/// `InvalidData`; the source is the varint error.
impl From<DecodeError> for io::Error {
    fn from(e: DecodeError) -> io::Error {
        let kind = match e {
            DecodeError::Truncated => io::ErrorKind::UnexpectedEof,
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Utf8Error;
    use crate::test_support::Std;
    use std::string::String;

    type Owned = (std::string::String, Vec<u8>, u64);

    /// Every piece, with adjacent valid runs merged (reads may cut them).
    fn pieces(input: &[u8], chunk: usize) -> Vec<Owned> {
        let mut out: Vec<Owned> = Vec::new();
        let mut r = Utf8Reader::with_chunk_size(input, Std, chunk);
        while let Some(c) = r.next_chunk().unwrap() {
            match out.last_mut() {
                Some((v, inv, _)) if inv.is_empty() => {
                    v.push_str(c.valid());
                    inv.extend_from_slice(c.invalid());
                }
                _ => out.push((c.valid().into(), c.invalid().to_vec(), c.offset())),
            }
        }
        assert_eq!(r.position(), input.len() as u64);
        out
    }

    fn std_pieces(input: &[u8]) -> Vec<Owned> {
        let mut offset = 0u64;
        input
            .utf8_chunks()
            .map(|c| {
                let piece = (String::from(c.valid()), c.invalid().to_vec(), offset);
                offset += (c.valid().len() + c.invalid().len()) as u64;
                piece
            })
            .collect()
    }

    fn lossy(input: &[u8], chunk: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let done = Utf8Reader::with_chunk_size(input, Std, chunk)
            .repair(&mut out)
            .unwrap();
        assert_eq!(done.bytes_in, input.len() as u64);
        assert_eq!(done.bytes_out, out.len() as u64);
        out
    }

    #[test]
    fn every_chunk_size_gives_std_pieces_and_std_lossy() {
        let inputs: [&[u8]; 6] = [
            b"",
            b"plain ascii",
            "caf\u{e9} \u{1F600} \u{5415}".as_bytes(),
            b"a\xE2\x82\xACb\xF0\x9F\x98\x80\xED\xA0\x80\xE2\x82",
            b"\xF0\x9F\x98\x41\xC0\x80\xFF\xF4\x90\x80\x80\xE0\x9F\xBF",
            b"\xF0\x9F\x98",
        ];
        for input in inputs {
            for chunk in 1..=input.len() + 1 {
                assert_eq!(
                    pieces(input, chunk),
                    std_pieces(input),
                    "{input:02X?} {chunk}"
                );
                assert_eq!(
                    lossy(input, chunk),
                    String::from_utf8_lossy(input).as_bytes()
                );
            }
        }
    }

    #[test]
    fn reads_land_aligned() {
        struct Check;
        impl Read for Check {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                assert_eq!(buf.as_ptr().addr() % ALIGN, 0);
                Ok(0)
            }
        }
        for chunk in [1, 63, 4096] {
            let mut r = Utf8Reader::with_chunk_size(Check, Std, chunk);
            assert!(r.next_chunk().unwrap().is_none());
        }
    }

    #[test]
    fn read_errors_are_returned_and_interrupts_retried() {
        struct Flaky(u8);
        impl Read for Flaky {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => Err(io::ErrorKind::Interrupted.into()),
                    2 => {
                        buf[0] = b'a';
                        Ok(1)
                    }
                    _ => Err(io::ErrorKind::BrokenPipe.into()),
                }
            }
        }
        let mut r = Utf8Reader::with_chunk_size(Flaky(0), Std, 8);
        assert_eq!(r.next_chunk().unwrap().map(|c| c.valid()), Some("a"));
        assert_eq!(
            r.next_chunk().unwrap_err().kind(),
            io::ErrorKind::BrokenPipe
        );
    }

    #[test]
    fn errors_convert_to_io_errors() {
        let e: io::Error = Utf8Error::at(b"\xC0", 0).into();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.get_ref().unwrap().is::<Utf8Error>());
        let e: io::Error = DecodeError::Truncated.into();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        let e: io::Error = DecodeError::Overflow.into();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }

    quickcheck::quickcheck! {
        fn random_bytes_small_reads(input: Vec<u8>, chunk: u8) -> bool {
            let chunk = usize::from(chunk % 9) + 1;
            pieces(&input, chunk) == std_pieces(&input)
                && lossy(&input, chunk) == String::from_utf8_lossy(&input).as_bytes()
        }
    }
}
