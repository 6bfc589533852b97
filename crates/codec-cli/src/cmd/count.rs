//! `codec count`: bytes, code points, lines and invalid sequences by kind.

use super::inputs;
use super::progress::{self, WalkSpinner};
use super::{Status, style};
use crate::cli::CountArgs;
use crate::names;
use crate::scan::{Scanner, kind_id};
use crate::tally::Tally;
use serde_json::{Map, Value};
use std::ffi::OsStr;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;

pub(super) fn run(args: &CountArgs) -> io::Result<Status> {
    let mut out = BufWriter::new(io::stdout().lock());
    let palette = style::Palette::for_stdout(args.output.color);
    let mut scanner = Scanner::new(args.input.chunk_size);
    let mut status = Status::default();
    let mut total = Tally::default();
    let mut counted = 0u64;
    let bars = progress::allowed(args.output.no_progress);
    let mut spinner = WalkSpinner::new(bars && args.input.recursive);
    let stdout_terminal = io::stdout().is_terminal();
    if !args.json {
        writeln!(
            out,
            "{:>10} {:>12} {:>12} {:>8}  path",
            "lines", "chars", "bytes", "invalid"
        )?;
    }
    inputs::for_each(&args.input, |input| {
        let (name, os_name, result) = match input {
            Ok(input) => {
                let name = input.name();
                let result = input.open().and_then(|opened| {
                    let bar = progress::bytes_bar(bars, opened.len(), &name);
                    let reader = opened.into_reader();
                    let reader: Box<dyn Read> = match &bar {
                        Some(bar) => Box::new(bar.wrap_read(reader)),
                        None => reader,
                    };
                    let mut tally = Tally::default();
                    let scanned = scanner.scan(reader, |piece| {
                        tally.add_piece(&piece);
                        ControlFlow::Continue(())
                    });
                    if let Some(bar) = bar {
                        bar.finish_and_clear();
                    }
                    scanned.map(|_| tally)
                });
                (name, input.os_name().to_owned(), result)
            }
            Err(u) => (u.name(), u.path.into_os_string(), Err(u.error)),
        };
        match result {
            Ok(tally) => {
                spinner.file_done(tally.bytes);
                counted += 1;
                let painted = style::paint(palette.path, &name).to_string();
                print(&mut out, args.json, &painted, Some(&os_name), &tally)?;
                total.merge(&tally);
            }
            Err(e) => {
                status.failed = true;
                if args.json {
                    let mut record = Map::new();
                    record.insert("type".into(), "io-error".into());
                    names::json_fields(&os_name, &mut record);
                    record.insert("message".into(), e.to_string().into());
                    writeln!(out, "{}", Value::Object(record))?;
                } else {
                    out.flush()?;
                    spinner.suspend(|| super::error_line(format_args!("{name}: {e}")));
                }
            }
        }
        if stdout_terminal {
            spinner.suspend(|| out.flush())?;
        }
        Ok(())
    })?;
    spinner.finish();
    if counted > 1 {
        print(&mut out, args.json, "total", None, &total)?;
    }
    out.flush()?;
    Ok(status)
}

/// One row (or JSON record); `os_name` is `None` for the sum of several
/// inputs, which is named "total" (a file of that name stays a "file"
/// record).
fn print(
    out: &mut impl Write,
    json: bool,
    name: &str,
    os_name: Option<&OsStr>,
    t: &Tally,
) -> io::Result<()> {
    if json {
        let by_kind: Map<String, Value> = t
            .invalid
            .iter()
            .map(|&(kind, n)| (kind_id(kind).to_string(), n.into()))
            .collect();
        let mut record = Map::new();
        match os_name {
            Some(os_name) => {
                record.insert("type".into(), "file".into());
                names::json_fields(os_name, &mut record);
            }
            None => {
                record.insert("type".into(), "total".into());
                record.insert("path".into(), "total".into());
            }
        }
        record.insert("bytes".into(), t.bytes.into());
        record.insert("chars".into(), t.chars.into());
        record.insert("lines".into(), t.lines.into());
        record.insert("invalid".into(), t.invalid_total().into());
        record.insert("invalid_by_kind".into(), Value::Object(by_kind));
        return writeln!(out, "{}", Value::Object(record));
    }
    writeln!(
        out,
        "{:>10} {:>12} {:>12} {:>8}  {name}",
        t.lines,
        t.chars,
        t.bytes,
        t.invalid_total()
    )?;
    for &(kind, n) in &t.invalid {
        writeln!(out, "{:>10} {:>12} {:>12} {n:>8}    {kind}", "", "", "")?;
    }
    Ok(())
}
