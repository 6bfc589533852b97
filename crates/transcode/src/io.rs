//! One-call readers of UTF-16 held in bytes: a `Read` to UTF-8 in a `Write`
//! or a `String`, in bounded memory, with the first error's byte offset,
//! line and column.

use crate::byte_order::{ByteOrder, Lead};
use crate::error::{ErrorKind, Utf16ErrorKind};
use crate::{BomMode, Transcoder};
use codec_core::io::{InvalidAt, ReadError};
use codec_core::position::Position;
use std::io::{self, Read, Write};
use std::string::String;
use std::vec::Vec;

/// Input bytes converted a round: 64 KiB, an even number, so that a round
/// ends between units unless the stream ends.
const ROUND: usize = 64 * 1024;

/// Copies UTF-16 held in bytes from `reader` to `writer` as UTF-8,
/// validating: the whole of `utf16_bytes_to_utf8` of the stream, in bounded
/// memory (about 260 KiB). A byte-order mark of `order` at the start is
/// stripped unless `order` says otherwise ([`ByteOrder`]). Returns the
/// bytes read; the writer is flushed.
///
/// ```
/// use transcode::{Endianness, Utf16ErrorKind};
/// use codec_core::io::ReadError;
///
/// let mut out = Vec::new();
/// let file = b"\xFE\xFF\x00h\x00i\x00\n\x00!\xDC\x00";
/// let Err(ReadError::Invalid(e)) = transcode::utf16_reader_to_utf8(&file[..], &mut out, Endianness::Big)
///     else { panic!() };
/// assert_eq!((e.offset(), e.line(), e.column()), (10, 2, 2));
/// assert_eq!(e.kind(), Utf16ErrorKind::UnpairedTrail);
/// assert_eq!(e.to_string(), "invalid utf-16 at byte 10 (line 2, column 2): unpaired trail surrogate");
/// assert_eq!(out, b"hi\n!"); // what came before the error
/// ```
///
/// # Errors
///
/// [`ReadError::Io`] if reading or writing fails; [`ReadError::Invalid`] at
/// the first unpaired surrogate, an odd byte or a lead surrogate at the end
/// ([`Incomplete`](Utf16ErrorKind::Incomplete)), or a rejected mark.
pub fn utf16_reader_to_utf8<R: Read, W: Write>(
    reader: R,
    writer: W,
    order: impl Into<ByteOrder>,
) -> Result<u64, ReadError<Utf16ErrorKind>> {
    Transcoder::new().utf16_reader_to_utf8(reader, writer, order)
}

/// Reads UTF-16 held in bytes from `reader` into a new `String`: as
/// [`utf16_reader_to_utf8`], for a whole file.
///
/// ```
/// use transcode::Endianness;
/// let file = b"\xFF\xFEh\x00\xE9\x00";
/// assert_eq!(transcode::read_utf16_to_string(&file[..], Endianness::Little)?, "hé");
/// # Ok::<(), codec_core::io::ReadError<transcode::Utf16ErrorKind>>(())
/// ```
///
/// # Errors
///
/// As [`utf16_reader_to_utf8`].
pub fn read_utf16_to_string<R: Read>(
    reader: R,
    order: impl Into<ByteOrder>,
) -> Result<String, ReadError<Utf16ErrorKind>> {
    Transcoder::new().read_utf16_to_string(reader, order)
}

impl Transcoder {
    /// [`utf16_reader_to_utf8`] with these kernels.
    ///
    /// # Errors
    ///
    /// As [`utf16_reader_to_utf8`].
    pub fn utf16_reader_to_utf8<R: Read, W: Write>(
        &self,
        mut reader: R,
        mut writer: W,
        order: impl Into<ByteOrder>,
    ) -> Result<u64, ReadError<Utf16ErrorKind>> {
        let order = order.into();
        let keep = ByteOrder::new(order.order, BomMode::Keep);
        let mut input: Vec<u8> = std::vec![0; ROUND + 2];
        let mut output: Vec<u8> = std::vec![0; 3 * (ROUND + 2) / 2];
        let mut pos = Position::new();
        // Bytes of the stream before `input[0]`, and bytes held over in
        // `input[..carry]` from the last round (a lead surrogate).
        let (mut base, mut carry) = (0u64, 0usize);
        let mut first = true;
        loop {
            let filled = carry + fill(&mut reader, &mut input[carry..ROUND])?;
            let end = filled < ROUND;
            let mut start = 0;
            if first {
                first = false;
                match order.lead(&input[..filled]) {
                    Lead::Skip(n) => start = n,
                    Lead::Text => {}
                    Lead::Rejected => {
                        let e = crate::byte_order::rejected();
                        return Err(invalid(0, &pos, Some(2), e.kind()));
                    }
                }
            }
            // Convert whole units, and hold a lead surrogate at the end of a
            // round for the next.
            let mut stop = filled;
            if !end {
                let last = codec_core::utf16::unit([input[stop - 2], input[stop - 1]], order.order);
                if codec_core::utf16::is_lead(last) {
                    stop -= 2;
                }
            }
            let piece = &input[start..stop];
            match self.utf16_bytes_to_utf8(piece, &mut output, keep) {
                Ok(n) => {
                    write(&mut writer, &output[..n], &mut pos)?;
                }
                Err(err) => {
                    write(&mut writer, &output[..err.written()], &mut pos)?;
                    // `output` has 3 bytes a unit, the most a unit makes,
                    // so the error is the input's.
                    let ErrorKind::Invalid(e) = *err.kind() else {
                        return Err(ReadError::Io(io::Error::other(err)));
                    };
                    let offset = base + (start + e.byte_offset()) as u64;
                    return Err(invalid(
                        offset,
                        &pos,
                        e.error_len().map(|n| 2 * n),
                        e.kind(),
                    ));
                }
            }
            base += stop as u64;
            if end {
                writer.flush()?;
                return Ok(base);
            }
            input.copy_within(stop..filled, 0);
            carry = filled - stop;
        }
    }

    /// [`read_utf16_to_string`] with these kernels.
    ///
    /// # Errors
    ///
    /// As [`utf16_reader_to_utf8`].
    pub fn read_utf16_to_string<R: Read>(
        &self,
        reader: R,
        order: impl Into<ByteOrder>,
    ) -> Result<String, ReadError<Utf16ErrorKind>> {
        let mut out = Vec::new();
        self.utf16_reader_to_utf8(reader, &mut out, order)?;
        Ok(crate::string_from_utf8(out))
    }
}

/// Reads until `buf` is full or the reader ends; returns the bytes read.
fn fill(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Writes converted text and moves the position past it.
fn write(writer: &mut impl Write, text: &[u8], pos: &mut Position) -> io::Result<()> {
    pos.advance_valid(text);
    writer.write_all(text)
}

fn invalid(
    offset: u64,
    pos: &Position,
    error_len: Option<usize>,
    kind: Utf16ErrorKind,
) -> ReadError<Utf16ErrorKind> {
    ReadError::Invalid(InvalidAt::new(
        "utf-16",
        offset,
        (pos.line(), pos.column()),
        error_len,
        kind,
    ))
}
