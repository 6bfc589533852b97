//! `codec validate`: one diagnostic per invalid sequence, streaming.

use super::Status;
use super::inputs::{self, Input};
use crate::cli::ValidateArgs;
use crate::hex;
use crate::position::Position;
use crate::scan::{Invalid, Piece, Scanner, kind_id};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;

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
    // Positions are only needed when diagnostics are printed.
    let track = !(args.quiet || args.files_with_errors);
    let first_only = args.first || args.quiet || args.files_with_errors;
    let mut position = Position::new();
    let mut errors = 0u64;
    let mut write_error = None;
    let scanned = scanner.scan(reader, |piece| match piece {
        Piece::Valid(run) => {
            if track {
                position.advance_valid(run);
            }
            ControlFlow::Continue(())
        }
        Piece::Invalid(bad) => {
            errors += 1;
            if track {
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
    Ok(scanned.map(|s| (s.bytes, errors)))
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
