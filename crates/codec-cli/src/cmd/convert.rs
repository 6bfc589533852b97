//! `codec convert`: iconv-style transcoding, streaming, strict or lossy,
//! with byte order marks handled explicitly.

use super::Status;
use super::output::{Dest, Filter, display_name};
use crate::cli::{BomMode, ConvertArgs};
use crate::encoding::{
    ConvertError, Decoder, EncodeError, Encoder, Encoding, Pivot, PivotRef, input_offset,
};
use std::io::{self, Read, Write};
use std::path::Path;

/// Why a conversion stopped.
enum Failure {
    /// Invalid or unrepresentable input (strict): exit 1.
    Data(ConvertError),
    /// I/O or usage: exit 2.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

pub(super) fn run(args: &ConvertArgs) -> io::Result<Status> {
    if args.list {
        return list();
    }
    let path = args.path.as_deref().filter(|p| p.as_os_str() != "-");
    let name = display_name(path);
    match convert(args, path) {
        Ok(()) => Ok(Status::default()),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        Err(Failure::Io(e)) => {
            super::error_line(format_args!("{e}"));
            Ok(Status {
                invalid: false,
                failed: true,
            })
        }
        Err(Failure::Data(e)) => {
            super::error_line(format_args!("{name}: {e}"));
            Ok(Status {
                invalid: true,
                failed: false,
            })
        }
    }
}

fn list() -> io::Result<Status> {
    let mut out = io::stdout().lock();
    for (_, name, aliases) in Encoding::all() {
        writeln!(out, "{name:<10} {}", aliases.join(", "))?;
    }
    out.flush()?;
    Ok(Status::default())
}

fn encoding(name: Option<&str>, what: &str) -> Result<Encoding, Failure> {
    let name = name.unwrap_or_default();
    Encoding::from_name(name).ok_or_else(|| {
        Failure::Io(io::Error::other(format!(
            "unknown {what} encoding {name:?}; codec convert --list shows the known ones"
        )))
    })
}

fn convert(args: &ConvertArgs, path: Option<&Path>) -> Result<(), Failure> {
    let from = encoding(args.from.as_deref(), "input")?;
    let to = encoding(args.to.as_deref(), "output")?;
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    let Filter {
        reader,
        bar,
        mut dest,
    } = Filter::open(path, output, args.in_place, args.no_progress)?;
    let result = pump(args, from, to, reader, &mut dest);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(()) => Ok(dest.commit()?),
        Err(e) => {
            // Nothing is left at a named output or in place.
            dest.discard();
            Err(e)
        }
    }
}

/// The most bytes a decoder leaves for the next chunk, rounded up: an
/// unfinished CESU-8 surrogate pair is 5 bytes; an unfinished WTF-8
/// character before a lead surrogate held back, 6.
const MAX_CARRY: usize = 8;

fn internal(what: &str) -> Failure {
    Failure::Io(io::Error::other(format!("internal error: {what}")))
}

/// Reads, decodes, encodes and writes, chunk by chunk.
fn pump(
    args: &ConvertArgs,
    from: Encoding,
    to: Encoding,
    mut reader: Box<dyn Read>,
    dest: &mut Dest,
) -> Result<(), Failure> {
    let chunk = args.chunk_size.max(1);
    let mut decoder = Decoder::new(from, args.lossy);
    let mut encoder = Encoder::new(to, args.lossy);
    // Reads land at a 64-byte-aligned index of `storage` (the kernel's copy
    // from the page cache is slow into a destination just past a page
    // boundary on AMD, see docs/results/codec-cli.md), and the bytes a
    // decoder left unconsumed (at most `MAX_CARRY`) are moved just before
    // it.
    const ALIGN: usize = 64;
    let mut storage = vec![0u8; chunk + 2 * ALIGN];
    let mut start = storage.as_ptr().align_offset(ALIGN).min(ALIGN);
    if start < MAX_CARRY {
        start += ALIGN;
    }
    let mut carry = 0usize;
    // The decoded chunk, bounded by the chunk size (the encoder keeps the
    // encoded bytes).
    let mut pivot = Pivot::for_pair(from, to);
    // Absolute input offset of the first carried byte.
    let mut base = 0u64;
    let mut started = false;
    loop {
        let n = loop {
            match reader.read(&mut storage[start..start + chunk]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Failure::Io(e)),
            }
        };
        let last = n == 0;
        let data = &storage[start - carry..start + n];
        pivot.clear();
        let (used, mut body) = match decoder.valid_utf8(data, last) {
            Some((text, used)) => (used, PivotRef::Text(text)),
            None => {
                let used = decoder
                    .decode(data, last, &mut pivot)
                    .map_err(Failure::Data)?;
                (used, pivot.as_ref())
            }
        };
        let left = data.len() - used;
        let mut text_base = base;
        if !started && (!body.is_empty() || last) {
            started = true;
            // A leading U+FEFF is the input's byte order mark. In UTF-16 and
            // UTF-32 without a named order it was only a signature (which
            // picked the order): it is consumed, as iconv consumes it, and
            // `keep` does not carry it over.
            let after = body.after_bom();
            if let Some(rest) = after {
                if let PivotRef::Text(text) = body {
                    text_base = input_offset(from, text, 3, base);
                }
                body = rest;
            }
            let had_bom = after.is_some() && !from.unmarked();
            let write_bom = match args.bom {
                BomMode::Add => true,
                BomMode::Strip => false,
                BomMode::Keep => had_bom || to.unmarked(),
            };
            if write_bom {
                dest.writer().write_all(to.bom())?;
            }
        }
        match encoder.encode(body) {
            Ok(bytes) => dest.writer().write_all(bytes)?,
            Err(EncodeError::Unrepresentable { at, ch }) => {
                let PivotRef::Text(text) = body else {
                    return Err(internal("unrepresentable UTF-16 code unit"));
                };
                return Err(Failure::Data(ConvertError {
                    offset: input_offset(from, text, at, text_base),
                    bytes: Vec::new(),
                    message: format!("U+{:04X} ({ch:?}) cannot be written in {to}", u32::from(ch)),
                }));
            }
            Err(EncodeError::Internal(e)) => return Err(internal(&e)),
        }
        if last {
            return Ok(());
        }
        // A decoder keeps back at most an unfinished character, surrogate
        // pair or code unit.
        if left > start {
            return Err(internal(&format!("{from} decoder left {left} bytes")));
        }
        storage.copy_within(start + n - left..start + n, start - left);
        carry = left;
        base += used as u64;
    }
}
