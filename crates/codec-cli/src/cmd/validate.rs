//! `codec validate`: one diagnostic per invalid sequence, streaming; large
//! regular files on every core ([`super::parallel`]).

use super::Status;
use super::context::Context;
use super::inputs::{self, Input, Opened};
use super::parallel::{self, LineCol, Plan};
use super::progress::{self, WalkSpinner};
use super::style::{Palette, paint};
use crate::cli::{BinaryFiles, ValidateArgs};
use crate::hex;
use crate::names;
use crate::position::Position;
use crate::scan::{Piece, Scanner, kind_id};
use codec_core::Utf8ErrorKind;
use serde_json::{Map, Value, json};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;

/// Regular files at least this large are read with positioned, aligned reads
/// (the parallel module, on one thread below `--parallel-min`). Smaller ones
/// stream: it costs nothing there, and files in /proc and /sys, which claim
/// a size of 0 or 4096 whatever they hold, are read as they are.
const POSITIONED_MIN_BYTES: u64 = 64 << 10;

/// Bytes looked at for NUL to call a file binary: GNU grep's first buffer.
const BINARY_PEEK: usize = 32 << 10;

/// One invalid sequence, as the printers see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bad<'a> {
    /// Absolute byte offset.
    pub(crate) offset: u64,
    /// The maximal invalid subpart (or the unfinished tail).
    pub(crate) bytes: &'a [u8],
    pub(crate) kind: Utf8ErrorKind,
}

#[derive(Default)]
struct Totals {
    files: u64,
    bytes: u64,
    invalid_files: u64,
    errors: u64,
    unreadable: u64,
    binary_skipped: u64,
}

/// What checking one input found.
struct Checked {
    bytes: u64,
    errors: u64,
    binary: bool,
    skipped: bool,
}

/// How much of each file's errors to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Nothing per error (`-q`, `-l`): the first error decides.
    None,
    /// The first error of a binary file, without position.
    BinaryLine,
    /// One line per error (or only the first with `--first`).
    Lines,
}

struct Run<'a> {
    args: &'a ValidateArgs,
    out: BufWriter<io::StdoutLock<'static>>,
    palette: Palette,
    scanner: Scanner,
    jobs: usize,
    bars: bool,
    stdout_terminal: bool,
}

pub(super) fn run(args: &ValidateArgs) -> io::Result<Status> {
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let bars = !args.quiet && progress::allowed(args.output.no_progress);
    let mut run = Run {
        args,
        out: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        palette: Palette::for_stdout(args.output.color),
        scanner: Scanner::new(args.input.chunk_size),
        jobs: jobs.max(1),
        bars,
        stdout_terminal: io::stdout().is_terminal(),
    };
    let mut status = Status::default();
    let mut totals = Totals::default();
    let mut spinner = WalkSpinner::new(bars && args.input.recursive);
    inputs::for_each(&args.input, |input| {
        let (name, os_name, outcome, hint) = match input {
            Ok(input) => {
                let outcome = run.check(&input)?;
                // A file that is not UTF-8 may be text in another encoding:
                // say which, and the command that keeps it.
                let hint = match (&input, &outcome) {
                    (Input::File(p), Ok(c))
                        if c.errors > 0 && !run.args.quiet && !run.args.json =>
                    {
                        super::detect::hint(p)
                    }
                    _ => None,
                };
                (input.name(), input.os_name().to_owned(), outcome, hint)
            }
            Err(u) => (u.name(), u.path.into_os_string(), Err(u.error), None),
        };
        if let Some(hint) = hint {
            run.out.flush()?;
            spinner.suspend(|| super::error_line(format_args!("{name}: {hint}")));
        }
        match outcome {
            Ok(c) if c.skipped => totals.binary_skipped += 1,
            Ok(c) => {
                spinner.file_done(c.bytes);
                totals.files += 1;
                totals.bytes += c.bytes;
                totals.errors += c.errors;
                if c.errors > 0 {
                    status.invalid = true;
                    totals.invalid_files += 1;
                    if run.args.files_with_errors {
                        let p = run.palette;
                        writeln!(run.out, "{}", paint(p.path, &name))?;
                    }
                }
                if run.args.json {
                    let mut record = Map::new();
                    record.insert("type".into(), "file".into());
                    names::json_fields(&os_name, &mut record);
                    record.insert("valid".into(), (c.errors == 0).into());
                    record.insert("binary".into(), c.binary.into());
                    record.insert("bytes_checked".into(), c.bytes.into());
                    record.insert("errors".into(), c.errors.into());
                    writeln!(run.out, "{}", Value::Object(record))?;
                }
            }
            Err(error) => {
                status.failed = true;
                totals.unreadable += 1;
                run.report_io(&name, &os_name, &error, &spinner)?;
            }
        }
        if run.stdout_terminal {
            spinner.suspend(|| run.out.flush())?;
        }
        Ok(())
    })?;
    spinner.finish();
    if args.summary {
        run.summary(&totals)?;
    }
    run.out.flush()?;
    Ok(status)
}

impl Run<'_> {
    /// Checks one input: `Ok(Ok(_))` with what it found, or `Ok(Err(_))`
    /// for an input that failed to open or read. The outer error is a
    /// failure to write the output, which ends the run.
    fn check(&mut self, input: &Input) -> io::Result<io::Result<Checked>> {
        let opened = match input.open() {
            Ok(o) => o,
            Err(e) => return Ok(Err(e)),
        };
        let len = opened.len();
        let binary_mode = if self.args.text {
            BinaryFiles::Text
        } else {
            self.args.binary_files
        };
        // Peek for NUL, as grep does, unless binary files are text anyway.
        let (head, opened) = if binary_mode == BinaryFiles::Text {
            (Vec::new(), opened)
        } else {
            match peek(opened) {
                Ok(p) => p,
                Err(e) => return Ok(Err(e)),
            }
        };
        let binary = memchr::memchr(0, &head).is_some();
        if binary && binary_mode == BinaryFiles::Skip {
            return Ok(Ok(Checked {
                bytes: 0,
                errors: 0,
                binary,
                skipped: true,
            }));
        }
        let detail = if self.args.quiet || self.args.files_with_errors {
            Detail::None
        } else if binary && binary_mode == BinaryFiles::Report {
            Detail::BinaryLine
        } else {
            Detail::Lines
        };
        let name = input.name();
        let bar = progress::bytes_bar(self.bars, len, &name);
        let result = match (opened, len) {
            // Regular files: positioned, aligned reads, on every core when
            // large. --context needs the line text, which the streaming path
            // keeps.
            (Opened::File(file, Some(len)), _)
                if super::regions::AVAILABLE
                    && !self.args.context
                    && len >= self.args.parallel_min.min(POSITIONED_MIN_BYTES) =>
            {
                let jobs = if len >= self.args.parallel_min {
                    self.jobs
                } else {
                    1
                };
                self.check_parallel(&file, len, jobs, detail, input, bar.as_ref())
            }
            (opened, _) => {
                let reader = io::Cursor::new(head).chain(opened.into_reader());
                let reader: Box<dyn Read> = match &bar {
                    Some(bar) => Box::new(bar.wrap_read(reader)),
                    None => Box::new(reader),
                };
                self.check_stream(reader, detail, input)
            }
        };
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Ok(result?.map(|(bytes, errors)| Checked {
            bytes,
            errors,
            binary,
            skipped: false,
        }))
    }

    /// The sequential path: stdin, pipes, small files, and `--context`.
    fn check_stream(
        &mut self,
        reader: Box<dyn Read>,
        detail: Detail,
        input: &Input,
    ) -> io::Result<io::Result<(u64, u64)>> {
        let first_only = self.args.first || detail != Detail::Lines;
        let positions = detail == Detail::Lines;
        let mut context = (self.args.context && positions).then(Context::new);
        // Line and column are counted as the pieces go by. (Regular files
        // take the positioned path, which counts nothing before a region's
        // first error; what streams here is stdin, pipes, small files and
        // --context, which needs the line's text anyway.)
        let mut position = positions.then(Position::new);
        let name = input.name();
        let os_name = input.os_name().to_owned();
        let mut errors = 0u64;
        let mut write_error = None;
        // Split borrows: the scanner is used while the printers run.
        let Run {
            scanner,
            out,
            palette,
            args,
            ..
        } = self;
        let palette = *palette;
        let json = args.json;
        let scanned = scanner.scan(reader, |piece| {
            match piece {
                Piece::Valid(run) => {
                    if let Some(p) = &mut position {
                        p.advance_valid(run);
                    }
                    if let Some(ctx) = &mut context {
                        ctx.valid(run);
                        if let Err(e) = ctx.flush(out, &palette) {
                            write_error = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                }
                Piece::Invalid(invalid) => {
                    let bad = Bad {
                        offset: invalid.offset(),
                        bytes: invalid.bytes(),
                        kind: invalid.kind(),
                    };
                    // With --first and --context, the scan goes on only to
                    // collect the text after the first error.
                    let counted = !(first_only && errors > 0);
                    if counted {
                        errors += 1;
                    }
                    let at = position.as_ref().map(LineCol::of).unwrap_or_default();
                    if let Some(p) = &mut position {
                        p.advance_invalid();
                    }
                    let written = match (&mut context, detail) {
                        (Some(ctx), _) => {
                            let header = counted.then(|| header(&palette, &name, at, &bad));
                            ctx.invalid(bad.bytes, header);
                            ctx.flush(out, &palette)
                        }
                        (None, Detail::Lines) => {
                            print_bad(out, json, &palette, &name, &os_name, at, &bad)
                        }
                        (None, Detail::BinaryLine) => {
                            print_binary(out, json, &palette, &name, &os_name, &bad)
                        }
                        (None, Detail::None) => Ok(()),
                    };
                    if let Err(e) = written {
                        write_error = Some(e);
                        return ControlFlow::Break(());
                    }
                    if first_only && !context.as_ref().is_some_and(Context::has_pending) {
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        if let Some(ctx) = &mut context {
            ctx.finish();
            ctx.flush(out, &palette)?;
        }
        Ok(scanned.map(|s| (s.bytes, errors)))
    }

    /// Regular files, on `jobs` threads.
    fn check_parallel(
        &mut self,
        file: &File,
        len: u64,
        jobs: usize,
        detail: Detail,
        input: &Input,
        bar: Option<&indicatif::ProgressBar>,
    ) -> io::Result<io::Result<(u64, u64)>> {
        let plan = Plan {
            jobs,
            chunk_size: self.args.input.chunk_size,
            positions: detail == Detail::Lines,
            first_only: self.args.first || detail != Detail::Lines,
        };
        let name = input.name();
        let os_name = input.os_name().to_owned();
        let (out, palette, json) = (&mut self.out, self.palette, self.args.json);
        let result = parallel::check(file, len, plan, bar, |at, bad| {
            match detail {
                Detail::Lines => print_bad(out, json, &palette, &name, &os_name, at, &bad)?,
                Detail::BinaryLine => print_binary(out, json, &palette, &name, &os_name, &bad)?,
                Detail::None => {}
            }
            Ok(if plan.first_only {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        })?;
        Ok(result)
    }

    fn report_io(
        &mut self,
        name: &str,
        os_name: &OsStr,
        error: &io::Error,
        spinner: &WalkSpinner,
    ) -> io::Result<()> {
        if self.args.quiet {
            return Ok(());
        }
        if self.args.json {
            let mut record = Map::new();
            record.insert("type".into(), "io-error".into());
            names::json_fields(os_name, &mut record);
            record.insert("message".into(), error.to_string().into());
            return writeln!(self.out, "{}", Value::Object(record));
        }
        // Keep stdout and stderr in order on a terminal.
        self.out.flush()?;
        spinner.suspend(|| super::error_line(format_args!("{name}: {error}")));
        Ok(())
    }

    fn summary(&mut self, t: &Totals) -> io::Result<()> {
        if self.args.json {
            let record = json!({
                "type": "summary",
                "files": t.files,
                "bytes_checked": t.bytes,
                "invalid_files": t.invalid_files,
                "errors": t.errors,
                "unreadable": t.unreadable,
                "binary_skipped": t.binary_skipped,
            });
            return writeln!(self.out, "{record}");
        }
        self.out.flush()?;
        // With --first or -l only the first error of each file is seen, so
        // there is no total to give.
        let errors = if self.args.first || self.args.files_with_errors {
            String::new()
        } else {
            format!(" ({} invalid sequences)", t.errors)
        };
        let skipped = if t.binary_skipped > 0 {
            format!(", {} binary skipped", t.binary_skipped)
        } else {
            String::new()
        };
        let _ = writeln!(
            io::stderr().lock(),
            "codec: {} file{} checked ({} bytes): {} invalid{errors}, {} unreadable{skipped}",
            t.files,
            if t.files == 1 { "" } else { "s" },
            t.bytes,
            t.invalid_files,
            t.unreadable
        );
        Ok(())
    }
}

/// Reads up to [`BINARY_PEEK`] bytes (fewer only at the end of the input),
/// to look for NUL before anything is printed.
fn peek(opened: Opened) -> io::Result<(Vec<u8>, Opened)> {
    let mut head = vec![0u8; BINARY_PEEK];
    let mut got = 0;
    let mut reader: Box<dyn Read> = match &opened {
        Opened::Stdin => Box::new(io::stdin().lock()),
        Opened::File(f, _) => Box::new(f),
    };
    while got < head.len() {
        match reader.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    drop(reader);
    head.truncate(got);
    Ok((head, opened))
}

/// `PATH:LINE:COLUMN: invalid UTF-8 (KIND) at byte OFFSET: HEX`.
fn header(p: &Palette, name: &str, at: LineCol, bad: &Bad<'_>) -> String {
    format!(
        "{}:{}: {} ({}) at byte {}: {}",
        paint(p.path, name),
        paint(p.position, format_args!("{}:{}", at.line(), at.column())),
        paint(p.error, "invalid UTF-8"),
        bad.kind,
        bad.offset,
        paint(p.bytes, hex::format(bad.bytes))
    )
}

fn print_bad(
    out: &mut impl Write,
    json: bool,
    palette: &Palette,
    name: &str,
    os_name: &OsStr,
    at: LineCol,
    bad: &Bad<'_>,
) -> io::Result<()> {
    if json {
        let mut record = Map::new();
        record.insert("type".into(), "invalid".into());
        names::json_fields(os_name, &mut record);
        record.insert("line".into(), at.line().into());
        record.insert("column".into(), at.column().into());
        record.insert("offset".into(), bad.offset.into());
        record.insert("kind".into(), kind_id(bad.kind).into());
        record.insert("message".into(), bad.kind.as_str().into());
        record.insert("bytes".into(), hex::format(bad.bytes).into());
        return writeln!(out, "{}", Value::Object(record));
    }
    writeln!(out, "{}", header(palette, name, at, bad))
}

/// The one line of an invalid binary file.
fn print_binary(
    out: &mut impl Write,
    json: bool,
    p: &Palette,
    name: &str,
    os_name: &OsStr,
    bad: &Bad<'_>,
) -> io::Result<()> {
    if json {
        let mut record = Map::new();
        record.insert("type".into(), "binary".into());
        names::json_fields(os_name, &mut record);
        record.insert("offset".into(), bad.offset.into());
        record.insert("kind".into(), kind_id(bad.kind).into());
        record.insert("message".into(), bad.kind.as_str().into());
        record.insert("bytes".into(), hex::format(bad.bytes).into());
        return writeln!(out, "{}", Value::Object(record));
    }
    writeln!(
        out,
        "{}: {} (first error at byte {}: {})",
        paint(p.path, name),
        paint(p.error, "binary file is not valid UTF-8"),
        bad.offset,
        bad.kind
    )
}
