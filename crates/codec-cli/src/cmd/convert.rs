//! `codec convert`: iconv-style transcoding, streaming, strict or lossy,
//! with byte order marks handled explicitly.

use super::output::{Filter, display_name};
use super::{Status, convert_any as any, parallel_convert, regions};
use crate::arch::map::{self, Map};
use crate::cli::{BomMode, ConvertArgs, Unmappable};
use encodings::pivot::{
    Decoder, EncodeError, Encoder, Error as ConvertError, Form, MAX_CARRY, Pivot, PivotRef,
    input_offset,
};
use encodings::{DecodeMode, EncodeMode};
use indicatif::ProgressBar;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a conversion stopped.
pub(super) enum Failure {
    /// Invalid or unrepresentable input (strict): exit 1.
    Data(ConvertError),
    /// I/O or usage: exit 2.
    Io(io::Error),
    /// Invalid or unrepresentable input, described: exit 1.
    Message(String),
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
        Err(Failure::Message(e)) => {
            super::error_line(format_args!("{name}: {e}"));
            Ok(Status {
                invalid: true,
                failed: false,
            })
        }
    }
}

/// Every name `--from` and `--to` take, one a line with iconv's `//`
/// suffix and in its order (sorted), as `iconv -l` prints them into a pipe.
pub(crate) fn list() -> io::Result<Status> {
    let mut names: Vec<String> = encodings::Encoding::all()
        .flat_map(|e| {
            let own = std::iter::once(e.name()).chain(e.whatwg_name());
            e.iconv_names().iter().copied().chain(own)
        })
        .map(str::to_ascii_uppercase)
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut out = io::stdout().lock();
    for name in names {
        writeln!(out, "{name}//")?;
    }
    out.flush()?;
    Ok(Status::default())
}

fn usage(message: String) -> Failure {
    Failure::Io(io::Error::other(message))
}

fn lookup(name: &str, what: &str) -> Result<encodings::Encoding, Failure> {
    encodings::Encoding::for_label(name).ok_or_else(|| {
        usage(format!(
            "unknown {what} encoding {name:?}; codec convert --list shows the known ones"
        ))
    })
}

/// The encodings and error modes a command line asks for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request {
    /// `None`: `-f auto`, decided from the input's first bytes.
    from: Option<encodings::Encoding>,
    pub(super) to: encodings::Encoding,
    pub(super) decode: DecodeMode,
    pub(super) encode: EncodeMode,
}

/// Reads `-f`, `-t` (with iconv's `//TRANSLIT` and `//IGNORE` suffixes),
/// `-c`, `--lossy` and `--unmappable`.
fn request(args: &ConvertArgs) -> Result<Request, Failure> {
    let from = match args.from.as_deref() {
        Some(name) if name.eq_ignore_ascii_case("auto") => None,
        Some(name) => Some(lookup(name, "input")?),
        None => Some(encodings::Encoding::UTF_8),
    };
    let to_arg = args.to.as_deref().unwrap_or("UTF-8");
    let mut parts = to_arg.split("//");
    let to = lookup(parts.next().unwrap_or_default(), "output")?;
    let (mut translit, mut ignore) = (false, false);
    for suffix in parts.flat_map(|p| p.split(',')) {
        match suffix.to_ascii_uppercase().as_str() {
            "TRANSLIT" => translit = true,
            "IGNORE" => ignore = true,
            "" => {}
            other => {
                return Err(usage(format!(
                    "unknown suffix //{other} in {to_arg:?}; iconv's //TRANSLIT and //IGNORE are known"
                )));
            }
        }
    }
    let drop = args.drop || ignore;
    let decode = if drop {
        DecodeMode::Skip
    } else if args.lossy {
        DecodeMode::Replace
    } else {
        DecodeMode::Strict
    };
    let encode = match args.unmappable {
        Some(Unmappable::Stop) => EncodeMode::Strict,
        Some(Unmappable::Replace) => EncodeMode::Replace,
        Some(Unmappable::Skip) => EncodeMode::Skip,
        Some(Unmappable::Ncr) => EncodeMode::Ncr,
        Some(Unmappable::Translit) => EncodeMode::Translit,
        None if translit => EncodeMode::Translit,
        None if drop => EncodeMode::Skip,
        None if args.lossy => EncodeMode::Replace,
        None => EncodeMode::Strict,
    };
    Ok(Request {
        from,
        to,
        decode,
        encode,
    })
}

/// The encodings the CLI's own streaming path converts (with SIMD, on
/// every core for large files): the Unicode forms and Latin-1.
fn native(e: encodings::Encoding) -> Option<Form> {
    Form::of(e)
}

/// The native pair for this request, and whether it is lossy, when the
/// native path gives exactly what the encodings crate would: strict or
/// `--lossy` decoding, and an encoding mode that cannot matter (a Unicode
/// output) or is the same.
fn fast_pair(from: encodings::Encoding, r: &Request) -> Option<(Form, Form, bool)> {
    let (f, t) = (native(from)?, native(r.to)?);
    let lossy = match r.decode {
        DecodeMode::Strict => false,
        DecodeMode::Replace => true,
        _ => return None,
    };
    let same = r.encode
        == if lossy {
            EncodeMode::Replace
        } else {
            EncodeMode::Strict
        };
    (same || t != Form::Latin1).then_some((f, t, lossy))
}

/// How many bytes `-f auto` looks at.
const DETECT_BYTES: usize = 64 << 10;

/// Reads up to `limit` bytes (fewer only at the end of the input).
fn read_head(reader: &mut dyn Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    reader.take(limit as u64).read_to_end(&mut head)?;
    Ok(head)
}

fn convert(args: &ConvertArgs, path: Option<&Path>) -> Result<(), Failure> {
    let request = request(args)?;
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    let Filter {
        mut reader,
        bar,
        mut dest,
        file,
    } = Filter::open(path, output, args.in_place, args.no_progress)?;
    let from = match request.from {
        Some(from) => from,
        None => {
            // Detected from the first bytes, which are then read again.
            let head = read_head(&mut reader, DETECT_BYTES)?;
            let found = encodings::Encoding::detect(&head).encoding;
            reader = Box::new(io::Cursor::new(head).chain(reader));
            found
        }
    };
    let fast = fast_pair(from, &request);
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    // The mapping, and its lease, end with this block: before the output
    // replaces anything (the input itself, under --in-place).
    let result = {
        // A large regular file is converted where it lies in the page cache,
        // if it can be held still (see arch::map); otherwise it is read.
        let map = match &file {
            Some((file, len)) if !args.no_map && *len >= args.map_min => Map::new(file, *len),
            _ => None,
        };
        if args.debug_map {
            super::error_line(format_args!("input mapped: {}", map.is_some()));
        }
        let mapped = map.as_ref().map(Map::bytes);
        // Large regular files: on every core, when the input encoding can
        // be cut and the output keeps no state (see parallel_convert).
        let route = match fast {
            Some((f, t, _)) if parallel_convert::supports(f) => {
                Some(parallel_convert::Route::Native(f, t))
            }
            Some(_) => None,
            None if parallel_convert::any_supports(from, &request) => {
                Some(parallel_convert::Route::Any(from, &request))
            }
            None => None,
        };
        match (fast, file) {
            (_, Some((file, len)))
                if jobs > 1
                    && len >= args.parallel_min
                    && route.is_some()
                    && regions::AVAILABLE =>
            {
                let mut out = dest.writer();
                let plan = parallel_convert::Plan { jobs, len, mapped };
                let Some(route) = route else {
                    return Err(internal("no parallel route"));
                };
                parallel_convert::convert(args, route, &file, plan, bar.as_ref(), &mut out)
            }
            (fast, _) => {
                let mut out = dest.writer();
                let input = match mapped {
                    Some(bytes) => Input::Bytes(Bytes {
                        bytes,
                        bar: bar.as_ref(),
                        cancel: None,
                    }),
                    None => Input::Read(&mut reader),
                };
                match fast {
                    Some((from, to, lossy)) => {
                        let decoder = Decoder::new(from, lossy);
                        Pipe::new(args, from, to, lossy).run(
                            decoder,
                            input,
                            &mut WriteSink(&mut out),
                            0,
                        )
                    }
                    None => any::run(
                        args,
                        from,
                        &request,
                        input,
                        &mut WriteSink(&mut out),
                        None,
                        true,
                    ),
                }
            }
        }
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(()) => Ok(dest.commit()?),
        Err(e) => {
            // Nothing is left at a named output or in place.
            dest.discard();
            match (e, path) {
                // The threads stop with the bare error: it names the input.
                (Failure::Io(_), Some(p)) if map::broken() => {
                    Err(Failure::Io(super::at_path(p, map::broken_error())))
                }
                (Failure::Data(e), Some(p)) => Err(any::locate(p, from, e)),
                (e, _) => Err(e),
            }
        }
    }
}

fn internal(what: &str) -> Failure {
    Failure::Io(io::Error::other(format!("internal error: {what}")))
}

/// Where a [`Pipe`] writes.
pub(super) trait Sink {
    /// Takes a copy of `bytes`.
    fn bytes(&mut self, bytes: &[u8]) -> io::Result<()>;

    /// Takes the first `len` bytes of `buf`: the buffer itself, leaving
    /// another one in its place, or (by default) a copy.
    fn owned(&mut self, buf: &mut Vec<u8>, len: usize) -> io::Result<()> {
        self.bytes(&buf[..len])
    }
}

/// A [`Sink`] that writes at once.
pub(super) struct WriteSink<'a>(pub(super) &'a mut dyn Write);

impl Sink for WriteSink<'_> {
    fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }
}

/// What a [`Pipe`] converts.
pub(super) enum Input<'a> {
    /// Read chunk by chunk into the pipe's buffer.
    Read(&'a mut dyn Read),
    /// Bytes in memory (a mapped file), decoded where they are, a chunk at
    /// a time: the same chunks a read of the same bytes would give, without
    /// the copy.
    Bytes(Bytes<'a>),
}

/// See [`Input::Bytes`].
pub(super) struct Bytes<'a> {
    pub(super) bytes: &'a [u8],
    /// Counts the bytes as they are taken.
    pub(super) bar: Option<&'a ProgressBar>,
    /// Stops the conversion with an error when set (another thread failed).
    pub(super) cancel: Option<&'a AtomicBool>,
}

impl Bytes<'_> {
    /// Called before every chunk.
    pub(super) fn check(&self) -> io::Result<()> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(io::Error::other("cancelled"));
        }
        if map::broken() {
            return Err(map::broken_error());
        }
        Ok(())
    }
}

/// Reads, decodes, encodes and writes, chunk by chunk, with buffers kept
/// from one run to the next (a parallel worker runs one per region).
pub(super) struct Pipe<'a> {
    args: &'a ConvertArgs,
    from: Form,
    to: Form,
    chunk: usize,
    /// Reads land at a 64-byte-aligned index of `storage` (the kernel's
    /// copy from the page cache is slow into a destination just past a page
    /// boundary on AMD, see docs/results/codec-cli.md), and the bytes a
    /// decoder left unconsumed (at most `MAX_CARRY`) are moved just before
    /// it.
    storage: Vec<u8>,
    start: usize,
    /// The decoded chunk, bounded by the chunk size.
    pivot: Pivot,
    /// Keeps the encoded bytes.
    encoder: Encoder,
}

impl<'a> Pipe<'a> {
    pub(super) fn new(args: &'a ConvertArgs, from: Form, to: Form, lossy: bool) -> Pipe<'a> {
        const ALIGN: usize = 64;
        let chunk = args.chunk_size.max(1);
        let storage = vec![0u8; chunk + 2 * ALIGN];
        let mut start = storage.as_ptr().align_offset(ALIGN).min(ALIGN);
        if start < MAX_CARRY {
            start += ALIGN;
        }
        Pipe {
            args,
            from,
            to,
            chunk,
            storage,
            start,
            pivot: Pivot::for_pair(from, to),
            encoder: Encoder::new(to, lossy),
        }
    }

    /// Converts what `reader` holds, which starts at absolute input offset
    /// `base` (`decoder` is set to it), into `out`. Byte order marks are
    /// handled only at offset 0, the start of the input.
    ///
    /// A strict conversion that meets invalid input (or a character the
    /// output cannot hold) writes the conversion of everything before it,
    /// as iconv does, and returns the error: the output does not depend on
    /// where the chunks (or a parallel run's regions) were cut.
    pub(super) fn run(
        &mut self,
        mut decoder: Decoder,
        mut input: Input<'_>,
        out: &mut dyn Sink,
        mut base: u64,
    ) -> Result<(), Failure> {
        let (args, from, to, chunk, start) =
            (self.args, self.from, self.to, self.chunk, self.start);
        let Pipe {
            storage,
            pivot,
            encoder,
            ..
        } = self;
        let mut carry = 0usize;
        // Bytes input: the next byte to decode and the end of the bytes
        // seen so far (`chunk` more each round, as a read would add).
        let (mut pos, mut seen) = (0usize, 0usize);
        let mut started = base != 0;
        loop {
            let (data, last, n) = match &mut input {
                Input::Read(reader) => {
                    let n = loop {
                        match reader.read(&mut storage[start..start + chunk]) {
                            Ok(n) => break n,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(e) => return Err(Failure::Io(e)),
                        }
                    };
                    (&storage[start - carry..start + n], n == 0, n)
                }
                Input::Bytes(bytes) => {
                    bytes.check()?;
                    let end = seen.saturating_add(chunk).min(bytes.bytes.len());
                    if let Some(bar) = bytes.bar {
                        bar.inc((end - seen) as u64);
                    }
                    seen = end;
                    (&bytes.bytes[pos..end], end == bytes.bytes.len(), 0)
                }
            };
            pivot.clear();
            let mut stop = None;
            let (used, mut body) = match decoder.valid_utf8(data, last) {
                Some((text, used)) => (used, PivotRef::Text(text)),
                None => match decoder.decode(data, last, pivot) {
                    Ok(used) => (used, pivot.as_ref()),
                    Err(e) => {
                        // The valid bytes before the error, decoded as the
                        // end of the input (they end with a whole
                        // character, the error starts after them).
                        let valid = (e.offset.saturating_sub(base) as usize).min(data.len());
                        pivot.clear();
                        stop = Some(e);
                        match decoder.valid_utf8(&data[..valid], true) {
                            Some((text, used)) => (used, PivotRef::Text(text)),
                            None => match decoder.decode(&data[..valid], true, pivot) {
                                Ok(used) => (used, pivot.as_ref()),
                                Err(_) => (0, PivotRef::Utf8(&[])),
                            },
                        }
                    }
                },
            };
            let last = last || stop.is_some();
            let left = data.len() - used;
            let mut text_base = base;
            if !started && (!body.is_empty() || last) {
                started = true;
                // A leading U+FEFF is the input's byte order mark. In UTF-16
                // and UTF-32 without a named order it was only a signature
                // (which picked the order): it is consumed, as iconv
                // consumes it, and `keep` does not carry it over.
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
                    out.bytes(to.bom())?;
                }
            }
            if !body.is_empty() {
                match encoder.encode(body) {
                    Ok(bytes) => {
                        // Whose bytes: the encoder's buffer, the pivot's
                        // (UTF-8 passed through), or the input's (UTF-8
                        // text borrowed). A sink that keeps whole buffers
                        // takes the first two instead of copying them.
                        let (at, len) = (bytes.as_ptr(), bytes.len());
                        let whole_pivot = matches!(pivot.as_ref(),
                            PivotRef::Utf8(b) if std::ptr::eq(b.as_ptr(), at));
                        let borrowed = match body {
                            PivotRef::Text(t) => Some(t.as_bytes()),
                            PivotRef::Utf8(b) => Some(b),
                            PivotRef::Units(_) => None,
                        }
                        .filter(|b| std::ptr::eq(b.as_ptr(), at) && b.len() >= len);
                        if len == 0 {
                        } else if std::ptr::eq(at, encoder.buffer().as_ptr()) {
                            out.owned(encoder.buffer(), len)?;
                        } else if whole_pivot {
                            let Some(buf) = pivot.utf8_buffer() else {
                                return Err(internal("UTF-8 bytes outside the pivot"));
                            };
                            out.owned(buf, len)?;
                        } else if let Some(b) = borrowed {
                            // Text borrowed from the input, or the pivot's
                            // bytes after a BOM.
                            out.bytes(&b[..len])?;
                        } else {
                            return Err(internal("encoded bytes of unknown origin"));
                        }
                    }
                    Err(EncodeError::Unrepresentable { at, ch }) => {
                        let PivotRef::Text(text) = body else {
                            return Err(internal("unrepresentable UTF-16 code unit"));
                        };
                        // What comes before it, then the error.
                        if let Ok(bytes) = encoder.encode(PivotRef::Text(&text[..at])) {
                            out.bytes(bytes)?;
                        }
                        return Err(Failure::Data(ConvertError {
                            offset: input_offset(from, text, at, text_base),
                            bytes: Vec::new(),
                            message: format!(
                                "U+{:04X} ({ch:?}) cannot be written in {to}",
                                u32::from(ch)
                            ),
                        }));
                    }
                    Err(EncodeError::Internal(e)) => return Err(internal(&e)),
                }
            }
            if let Some(e) = stop {
                return Err(Failure::Data(e));
            }
            if last {
                return Ok(());
            }
            if let Input::Read(_) = input {
                // A decoder keeps back at most an unfinished character,
                // surrogate pair or code unit.
                if left > start {
                    return Err(internal(&format!("{from} decoder left {left} bytes")));
                }
                storage.copy_within(start + n - left..start + n, start - left);
                carry = left;
            }
            pos += used;
            base += used as u64;
        }
    }
}
