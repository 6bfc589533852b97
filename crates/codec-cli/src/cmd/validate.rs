//! `codec validate`: one diagnostic per invalid sequence, streaming.

use super::Status;
use super::inputs::{self, Input};
use crate::cli::ValidateArgs;
use crate::hex;
use crate::position::Position;
use crate::scan::{Invalid, Piece, Scanner, kind_id};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::Path;

/// Files at least this large get a progress bar (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 64 << 20;

#[derive(Default)]
struct Totals {
    files: u64,
    bytes: u64,
    invalid_files: u64,
    errors: u64,
    unreadable: u64,
}

pub(super) fn run(args: &ValidateArgs) -> io::Result<Status> {
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut scanner = Scanner::new(args.input.chunk_size);
    let mut status = Status::default();
    let mut totals = Totals::default();
    let progress = !args.quiet && !args.no_progress && io::stderr().is_terminal();
    inputs::for_each(&args.input, |input| {
        let (name, outcome) = match input {
            Ok(input) => {
                let name = input.name();
                let outcome = check(args, &mut scanner, &input, &name, progress, &mut out)?;
                (name, outcome)
            }
            Err(u) => (u.name, Err(u.error)),
        };
        match outcome {
            Ok((bytes, errors)) => {
                totals.files += 1;
                totals.bytes += bytes;
                totals.errors += errors;
                if errors > 0 {
                    status.invalid = true;
                    totals.invalid_files += 1;
                    if args.files_with_errors {
                        writeln!(out, "{name}")?;
                    }
                }
                if args.json {
                    let record = json!({
                        "type": "file",
                        "path": name,
                        "valid": errors == 0,
                        "bytes_checked": bytes,
                        "errors": errors,
                    });
                    writeln!(out, "{record}")?;
                }
            }
            Err(error) => {
                status.failed = true;
                totals.unreadable += 1;
                report_io(args, &mut out, &name, &error)?;
            }
        }
        Ok(())
    })?;
    if args.summary {
        summary(args, &mut out, &totals)?;
    }
    out.flush()?;
    Ok(status)
}

/// Checks one input: `Ok(Ok((bytes checked, errors)))`, or `Ok(Err(_))` for
/// an input that failed to open or read. The outer error is a failure to
/// write the output, which ends the run.
fn check(
    args: &ValidateArgs,
    scanner: &mut Scanner,
    input: &Input,
    name: &str,
    progress: bool,
    out: &mut impl Write,
) -> io::Result<io::Result<(u64, u64)>> {
    let (reader, len) = match input.open() {
        Ok(opened) => opened,
        Err(e) => return Ok(Err(e)),
    };
    let bar = len
        .filter(|&len| progress && len >= PROGRESS_MIN_BYTES)
        .map(|len| progress_bar(len, name));
    let reader: Box<dyn Read> = match &bar {
        Some(bar) => Box::new(bar.wrap_read(reader)),
        None => reader,
    };
    let mut track = if args.quiet || args.files_with_errors {
        // Positions are only needed when diagnostics are printed.
        Track::Never
    } else {
        match input {
            Input::File(path) if len.is_some() => Track::Deferred(path),
            _ => Track::Counting,
        }
    };
    let first_only = args.first || args.quiet || args.files_with_errors;
    let mut position = Position::new();
    let mut errors = 0u64;
    let mut write_error = None;
    let mut reread_error = None;
    let scanned = scanner.scan(reader, |piece| match piece {
        Piece::Valid(run) => {
            if let Track::Counting = track {
                position.advance_valid(run);
            }
            ControlFlow::Continue(())
        }
        Piece::Invalid(bad) => {
            errors += 1;
            if let Track::Deferred(path) = track {
                // The first error: everything before it is valid UTF-8.
                match position_after_valid_prefix(path, bad.offset()) {
                    Ok(p) => {
                        position = p;
                        track = Track::Counting;
                    }
                    Err(e) => {
                        reread_error = Some(e);
                        return ControlFlow::Break(());
                    }
                }
            }
            if let Track::Counting = track {
                if let Err(e) = diagnostic(args.json, out, name, &position, &bad) {
                    write_error = Some(e);
                    return ControlFlow::Break(());
                }
                position.advance_invalid();
            }
            if first_only {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(e) = reread_error {
        return Ok(Err(e));
    }
    Ok(scanned.map(|s| (s.bytes, errors)))
}

/// How line and column are known while a file is scanned.
enum Track<'a> {
    /// Not needed: nothing is printed per error (`-q`, `-l`).
    Never,
    /// A regular file before its first error: nothing is counted, so a
    /// valid file costs no line tracking at all (about 10% of the CPU time
    /// of `codec validate` on the 256 MiB benchmark file, see
    /// docs/results/codec-cli.md). At the first error the valid prefix is
    /// read again to find the position, and counting goes on from there.
    Deferred(&'a Path),
    /// Counting as the pieces go by (stdin, pipes, and files after their
    /// first error).
    Counting,
}

/// The position at byte `offset` of `path`, whose first `offset` bytes are
/// valid UTF-8, read again in bounded memory.
fn position_after_valid_prefix(path: &Path, offset: u64) -> io::Result<Position> {
    let mut prefix = File::open(path)?.take(offset);
    let mut buf = vec![0u8; 64 << 10];
    let mut position = Position::new();
    let mut seen = 0u64;
    loop {
        let n = match prefix.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        // Reads may split a character: both counts look at single bytes
        // (`\n`, and bytes that are not continuation bytes), so a split
        // changes nothing.
        position.advance_valid(&buf[..n]);
        seen += n as u64;
    }
    if seen != offset {
        return Err(io::Error::other("the file shrank while it was being read"));
    }
    Ok(position)
}

fn diagnostic(
    json: bool,
    out: &mut impl Write,
    name: &str,
    position: &Position,
    bad: &Invalid,
) -> io::Result<()> {
    if json {
        let record = json!({
            "type": "invalid",
            "path": name,
            "line": position.line(),
            "column": position.column(),
            "offset": bad.offset(),
            "kind": kind_id(bad.kind()),
            "message": bad.kind().as_str(),
            "bytes": hex::format(bad.bytes()),
        });
        writeln!(out, "{record}")
    } else {
        writeln!(
            out,
            "{name}:{}:{}: invalid UTF-8 ({}) at byte {}: {}",
            position.line(),
            position.column(),
            bad.kind(),
            bad.offset(),
            hex::format(bad.bytes())
        )
    }
}

fn report_io(
    args: &ValidateArgs,
    out: &mut impl Write,
    name: &str,
    error: &io::Error,
) -> io::Result<()> {
    if args.quiet {
        return Ok(());
    }
    if args.json {
        let record = json!({ "type": "io-error", "path": name, "message": error.to_string() });
        return writeln!(out, "{record}");
    }
    // Keep stdout and stderr in order on a terminal.
    out.flush()?;
    super::error_line(format_args!("{name}: {error}"));
    Ok(())
}

fn summary(args: &ValidateArgs, out: &mut impl Write, t: &Totals) -> io::Result<()> {
    if args.json {
        let record = json!({
            "type": "summary",
            "files": t.files,
            "bytes_checked": t.bytes,
            "invalid_files": t.invalid_files,
            "errors": t.errors,
            "unreadable": t.unreadable,
        });
        return writeln!(out, "{record}");
    }
    out.flush()?;
    // With --first or -l only the first error of each file is seen, so
    // there is no total to give.
    let errors = if args.first || args.files_with_errors {
        String::new()
    } else {
        format!(" ({} invalid sequences)", t.errors)
    };
    let _ = writeln!(
        io::stderr().lock(),
        "codec: {} file{} checked ({} bytes): {} invalid{errors}, {} unreadable",
        t.files,
        if t.files == 1 { "" } else { "s" },
        t.bytes,
        t.invalid_files,
        t.unreadable
    );
    Ok(())
}

fn progress_bar(len: u64, name: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(name.to_string());
    bar
}
