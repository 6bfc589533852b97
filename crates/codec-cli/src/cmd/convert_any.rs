//! `codec convert` between any two encodings of the encodings crate (the
//! legacy pages, the CJK encodings, UTF-7, UCS-2...) and in the error modes
//! the native path lacks (`-c`, `--unmappable=ncr|translit|skip`): a
//! [`Converter`] fed chunk by chunk, with byte order marks handled as on
//! the native path.

use super::convert::{Failure, Input, Sink};
use crate::cli::{BomMode, ConvertArgs};
use codec_core::position::Position;
use encodings::{ConvertError, Converter, DecodeErrorKind, DecodeMode, Encoding};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// `UTF-16` or `UTF-32` without a byte order in the name: a BOM picks the
/// order on input and is written on output.
fn unmarked(e: Encoding) -> bool {
    matches!(e.name(), "UTF-16" | "UTF-32")
}

/// The BOM at the start of `head`, if `from` has one there: its length,
/// and whether the decoder consumes it itself (`UTF-16`, `UTF-32`).
fn leading_bom(from: Encoding, head: &[u8]) -> Option<(usize, bool)> {
    if unmarked(from) {
        let boms: &[&[u8]] = if from.name() == "UTF-32" {
            &[b"\xFF\xFE\0\0", b"\0\0\xFE\xFF"]
        } else {
            &[b"\xFF\xFE", b"\xFE\xFF"]
        };
        return boms
            .iter()
            .find(|b| head.starts_with(b))
            .map(|b| (b.len(), true));
    }
    let bom = from.bom();
    (from.is_unicode() && !bom.is_empty() && head.starts_with(bom)).then_some((bom.len(), false))
}

/// Converts `input` from `from` to the request's output into `out`.
///
/// A leading BOM of a Unicode input is a signature, not text (as on the
/// native path): `--bom keep` writes the output's BOM for it (none for an
/// output without one), `strip` drops it, `add` writes one regardless.
///
/// `region`: the input is a region of a file that starts at this byte
/// offset (not 0), cut where `Encoding::cut_near` allows, and the file's
/// first bytes (for the byte order of `UTF-16`/`UTF-32`): no BOM is looked
/// for or written, and the converter resumes there (see parallel_convert).
///
/// `lines`: errors name their line and column. Without, the passes that
/// count lines are skipped, for a caller that never shows this run's error
/// (a parallel region's: the writer converts again from the file's start).
pub(super) fn run(
    args: &ConvertArgs,
    from: Encoding,
    request: &super::convert::Request,
    mut input: Input<'_>,
    out: &mut dyn Sink,
    region: Option<(u64, &[u8])>,
    lines: bool,
) -> Result<(), Failure> {
    let chunk = args.chunk_size.max(1);
    let to = body_to(request.to);
    let mut converter = match region {
        Some((start, head)) => {
            Converter::resume(from, to, request.decode, request.encode, start, head)
        }
        None => Converter::new(from, to, request.decode, request.encode),
    };
    if !lines {
        converter = converter.without_positions();
    }
    // Mapped input needs no read buffer (a parallel run converts a region
    // per call: zeroing 256 KiB for nothing each time showed in `perf`).
    let mut buf = match input {
        Input::Read(_) => vec![0u8; chunk],
        Input::Bytes(_) => Vec::new(),
    };
    let mut dst = Vec::new();
    let utf8 = from == Encoding::UTF_8;
    // Mapped bytes are converted where they lie, a chunk at a time; read
    // ones land in `buf`.
    let mut pos = 0usize;
    let mut next =
        |input: &mut Input<'_>, buf: &mut Vec<u8>| -> Result<Option<(usize, usize)>, Failure> {
            match input {
                Input::Read(reader) => loop {
                    match reader.read(buf) {
                        Ok(0) => return Ok(None),
                        Ok(n) => return Ok(Some((0, n))),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(Failure::Io(e)),
                    }
                },
                Input::Bytes(bytes) => {
                    bytes.check()?;
                    if pos >= bytes.bytes.len() {
                        return Ok(None);
                    }
                    let mut end = pos.saturating_add(chunk).min(bytes.bytes.len());
                    // UTF-8 chunks end where a character starts (at most 3
                    // bytes on): the converter then holds no unfinished
                    // character and encodes each chunk where it lies.
                    if utf8 {
                        let rest = &bytes.bytes[end..];
                        end += rest
                            .iter()
                            .take(3)
                            .take_while(|&&b| b & 0xC0 == 0x80)
                            .count();
                    }
                    if let Some(bar) = bytes.bar {
                        bar.inc((end - pos) as u64);
                    }
                    let range = (pos, end);
                    pos = end;
                    Ok(Some(range))
                }
            }
        };
    let piece_of = |input: &Input<'_>, buf: &[u8], (a, b): (usize, usize)| -> Vec<u8> {
        match input {
            Input::Read(_) => buf[a..b].to_vec(),
            Input::Bytes(bytes) => bytes.bytes[a..b].to_vec(),
        }
    };
    // Enough of the input to see a BOM (4 bytes) before anything is
    // converted.
    let mut head = Vec::new();
    let mut done = false;
    while head.len() < 4 && region.is_none() {
        match next(&mut input, &mut buf)? {
            Some(r) => head.extend_from_slice(&piece_of(&input, &buf, r)),
            None => {
                done = true;
                break;
            }
        }
    }
    let mut skipped = 0;
    if region.is_none() {
        let bom = leading_bom(from, &head);
        let write_bom = match args.bom {
            BomMode::Add => true,
            BomMode::Strip => false,
            BomMode::Keep => bom.is_some() || unmarked(request.to),
        };
        if write_bom {
            if request.to.bom().is_empty() {
                // An encoding without a BOM of its own that can hold U+FEFF
                // (GB18030, UTF-7) writes it as text, as iconv does; the others
                // (the legacy pages, where iconv fails on it) drop it.
                let mark = encodings::Encoder::new(to, encodings::EncodeMode::Strict)
                    .encode_to_vec("\u{FEFF}");
                out.bytes(&mark.unwrap_or_default()).map_err(Failure::Io)?;
            } else {
                out.bytes(request.to.bom()).map_err(Failure::Io)?;
            }
        }
        // A BOM the decoder would take as text (UTF-8, UTF-16LE...) is
        // skipped here; error offsets then count it back in.
        skipped = match bom {
            Some((len, false)) => len,
            _ => 0,
        };
    }
    // The first piece: what the BOM check read, after the BOM.
    let mut first = Some(head.split_off(skipped));
    loop {
        let (piece, last): (&[u8], bool) = match first.take() {
            Some(p) if !p.is_empty() || done => {
                head = p;
                (&head, done)
            }
            _ => match next(&mut input, &mut buf)? {
                Some(r) => match &input {
                    Input::Read(_) => (&buf[r.0..r.1], false),
                    Input::Bytes(bytes) => (&bytes.bytes[r.0..r.1], false),
                },
                None => (&[], true),
            },
        };
        dst.clear();
        let result = converter.convert_into_vec(piece, &mut dst, last);
        // The buffer itself to a sink that keeps buffers (a parallel
        // region's), or a copy.
        let len = dst.len();
        out.owned(&mut dst, len).map_err(Failure::Io)?;
        if let Err(e) = result {
            return Err(Failure::Message(describe(&e, skipped as u64)));
        }
        if last {
            return Ok(());
        }
    }
}

/// The encoding the converter writes: `UTF-16`/`UTF-32` output gets its
/// BOM from [`run`], the text in little-endian, as glibc writes them.
fn body_to(to: Encoding) -> Encoding {
    if unmarked(to) {
        let le = if to.name() == "UTF-32" {
            "UTF-32LE"
        } else {
            "UTF-16LE"
        };
        Encoding::for_label(le).unwrap_or(to)
    } else {
        to
    }
}

/// The message for a conversion error, its offset moved by `skipped` bytes
/// of BOM the converter did not see.
fn describe(e: &ConvertError, skipped: u64) -> String {
    match e {
        ConvertError::Decode(d) => {
            let what = match d.kind() {
                DecodeErrorKind::Incomplete => "incomplete",
                _ => "invalid",
            };
            let mut m = format!(
                "{what} {} at byte {} (line {}, column {})",
                d.encoding(),
                d.offset() + skipped,
                d.line(),
                d.column()
            );
            if !d.bytes().is_empty() {
                m.push_str(": ");
                m.push_str(&crate::hex::format(d.bytes()));
            }
            m
        }
        ConvertError::Encode {
            error,
            input_offset,
        } => format!(
            "U+{:04X} ({:?}) cannot be written in {}, at byte {} (line {}, column {})",
            u32::from(error.char()),
            error.char(),
            error.encoding(),
            input_offset + skipped,
            error.line(),
            error.column()
        ),
        _ => e.to_string(),
    }
}

/// The native path's error with its line and column added, found by
/// decoding the file up to the error again (only an error pays for it).
pub(super) fn locate(path: &Path, from: Encoding, e: encodings::pivot::Error) -> Failure {
    // Only a regular file can be read again (not a pipe or stdin).
    let file = match File::open(path) {
        Ok(f) if f.metadata().is_ok_and(|m| m.is_file()) => f,
        _ => return Failure::Data(e),
    };
    let mut reader = file.take(e.offset);
    let mut decoder = encodings::Decoder::new(from, DecodeMode::Replace);
    let mut position = Position::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut text = String::new();
    loop {
        let n = match reader.read(&mut buf) {
            Ok(n) => n,
            Err(_) => return Failure::Data(e),
        };
        text.clear();
        if decoder
            .decode_into_string(&buf[..n], &mut text, n == 0)
            .is_err()
        {
            return Failure::Data(e);
        }
        // A BOM is not a column.
        let at_start = position.line() == 1 && position.column() == 1;
        let body = text.strip_prefix('\u{FEFF}').filter(|_| at_start);
        position.advance_valid(body.unwrap_or(&text).as_bytes());
        if n == 0 {
            break;
        }
    }
    let mut m = format!(
        "{} at byte {} (line {}, column {})",
        e.message,
        e.offset,
        position.line(),
        position.column()
    );
    if !e.bytes.is_empty() {
        m.push_str(": ");
        m.push_str(&crate::hex::format(&e.bytes));
    }
    Failure::Message(m)
}
