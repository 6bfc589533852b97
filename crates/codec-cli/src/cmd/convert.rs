//! `codec convert`: iconv-style transcoding, streaming, strict or lossy,
//! with byte order marks handled explicitly.

use super::output::Dest;
use super::{Status, at_path, progress};
use crate::cli::{BomMode, ConvertArgs};
use crate::encoding::{ConvertError, Decoder, Encoder, Encoding, input_offset};
use crate::names;
use std::fs::File;
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
    let name = path.map_or(super::inputs::STDIN_NAME.to_string(), |p| {
        names::escape(p.as_os_str()).into_owned()
    });
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
    for (e, name, aliases) in Encoding::all() {
        let note = if e.available() {
            ""
        } else {
            "  (not available in this build yet)"
        };
        writeln!(out, "{name:<10} {}{note}", aliases.join(", "))?;
    }
    out.flush()?;
    Ok(Status::default())
}

fn encoding(name: Option<&str>, what: &str) -> Result<Encoding, Failure> {
    let name = name.unwrap_or_default();
    let e = Encoding::from_name(name).ok_or_else(|| {
        Failure::Io(io::Error::other(format!(
            "unknown {what} encoding {name:?}; codec convert --list shows the known ones"
        )))
    })?;
    if !e.available() {
        return Err(Failure::Io(io::Error::other(format!(
            "{e} is not available in this build yet (it comes with the UTF-8 variants crate)"
        ))));
    }
    Ok(e)
}

fn convert(args: &ConvertArgs, path: Option<&Path>) -> Result<(), Failure> {
    let from = encoding(args.from.as_deref(), "input")?;
    let to = encoding(args.to.as_deref(), "output")?;
    let (reader, len): (Box<dyn Read>, Option<u64>) = match path {
        Some(p) => {
            let f = File::open(p).map_err(|e| at_path(p, e))?;
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            (Box::new(f), len)
        }
        None => (Box::new(io::stdin().lock()), None),
    };
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    if let (Some(input), Some(out)) = (path, output)
        && super::repair::same_file(input, out)
    {
        return Err(Failure::Io(at_path(
            out,
            io::Error::other("is the input too; use --in-place to rewrite it"),
        )));
    }
    let mut dest = match (args.in_place, path, output) {
        (true, Some(p), _) => Dest::in_place(p)?,
        (true, None, _) => {
            return Err(Failure::Io(io::Error::other(
                "--in-place needs a file, not stdin",
            )));
        }
        (false, _, Some(out)) => Dest::named(out)?,
        (false, _, None) => Dest::stdout(),
    };
    let name = path.map_or(super::inputs::STDIN_NAME.to_string(), |p| {
        names::escape(p.as_os_str()).into_owned()
    });
    let bar = progress::bytes_bar(progress::allowed(args.no_progress), len, &name);
    let reader: Box<dyn Read> = match &bar {
        Some(bar) => Box::new(bar.wrap_read(reader)),
        None => reader,
    };
    let result = pump(args, from, to, reader, path, &mut dest);
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

/// Reads, decodes, encodes and writes, chunk by chunk.
fn pump(
    args: &ConvertArgs,
    from: Encoding,
    to: Encoding,
    mut reader: Box<dyn Read>,
    path: Option<&Path>,
    dest: &mut Dest,
) -> Result<(), Failure> {
    let chunk = args.chunk_size.max(1);
    let mut decoder = Decoder::new(from, args.lossy);
    let encoder = Encoder::new(to, args.lossy);
    // Input not decoded yet (a carried unfinished character first), the
    // decoded text, and the encoded bytes; all bounded by the chunk size.
    let mut pending: Vec<u8> = Vec::with_capacity(chunk + 4);
    let mut text = String::new();
    let mut bytes = Vec::new();
    // Absolute input offset of `pending[0]`.
    let mut base = 0u64;
    let mut started = false;
    let out_path = dest.path().map(Path::to_path_buf);
    let write_err = |e: io::Error| match &out_path {
        Some(p) if e.kind() != io::ErrorKind::BrokenPipe => at_path(p, e),
        _ => e,
    };
    loop {
        let old = pending.len();
        pending.resize(old + chunk, 0);
        let n = loop {
            match reader.read(&mut pending[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Failure::Io(match path {
                        Some(p) => at_path(p, e),
                        None => e,
                    }));
                }
            }
        };
        pending.truncate(old + n);
        let last = n == 0;
        text.clear();
        let used = decoder
            .decode(&pending, last, &mut text)
            .map_err(Failure::Data)?;
        let mut text_base = base;
        let mut body: &str = &text;
        if !started && (!body.is_empty() || last) {
            started = true;
            // A leading U+FEFF is the input's byte order mark. In UTF-16 and
            // UTF-32 without a named order it was only a signature (which
            // picked the order): it is consumed, as iconv consumes it, and
            // `keep` does not carry it over.
            let leading = body.starts_with('\u{FEFF}');
            if leading {
                text_base = input_offset(from, body, 3, base);
                body = &body[3..];
            }
            let had_bom = leading && !from.unmarked();
            let write_bom = match args.bom {
                BomMode::Add => true,
                BomMode::Strip => false,
                BomMode::Keep => had_bom || to.unmarked(),
            };
            if write_bom {
                dest.writer().write_all(&encoder.bom()).map_err(write_err)?;
            }
        }
        bytes.clear();
        if let Err(u) = encoder.encode(body, &mut bytes) {
            return Err(Failure::Data(ConvertError {
                offset: input_offset(from, body, u.at, text_base),
                bytes: Vec::new(),
                message: format!(
                    "U+{:04X} ({:?}) cannot be written in {to}",
                    u32::from(u.ch),
                    u.ch
                ),
            }));
        }
        dest.writer().write_all(&bytes).map_err(write_err)?;
        pending.drain(..used);
        base += used as u64;
        if last {
            return Ok(());
        }
    }
}
