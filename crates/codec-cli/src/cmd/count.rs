//! `codec count`: bytes, code points, lines and invalid sequences by kind.

use super::Status;
use super::inputs;
use crate::cli::CountArgs;
use crate::scan::{Scanner, kind_id};
use crate::tally::Tally;
use serde_json::json;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

pub(super) fn run(args: &CountArgs) -> io::Result<Status> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut scanner = Scanner::new(args.input.chunk_size);
    let mut status = Status::default();
    let mut total = Tally::default();
    let mut counted = 0u64;
    if !args.json {
        writeln!(
            out,
            "{:>10} {:>12} {:>12} {:>8}  path",
            "lines", "chars", "bytes", "invalid"
        )?;
    }
    inputs::for_each(&args.input, |input| {
        let (name, result) = match input {
            Ok(input) => {
                let name = input.name();
                let result = input.open().and_then(|(reader, _)| {
                    let mut tally = Tally::default();
                    scanner.scan(reader, |piece| {
                        tally.add_piece(&piece);
                        ControlFlow::Continue(())
                    })?;
                    Ok(tally)
                });
                (name, result)
            }
            Err(u) => (u.name, Err(u.error)),
        };
        match result {
            Ok(tally) => {
                counted += 1;
                print(&mut out, args.json, &name, &tally, false)?;
                total.merge(&tally);
            }
            Err(e) => {
                status.failed = true;
                if args.json {
                    let record =
                        json!({"type": "io-error", "path": name, "message": e.to_string()});
                    writeln!(out, "{record}")?;
                } else {
                    out.flush()?;
                    super::error_line(format_args!("{name}: {e}"));
                }
            }
        }
        Ok(())
    })?;
    if counted > 1 {
        print(&mut out, args.json, "total", &total, true)?;
    }
    out.flush()?;
    Ok(status)
}

/// One row (or JSON record); `total` marks the sum of several inputs, which
/// is named "total" (a file of that name stays a "file" record).
fn print(out: &mut impl Write, json: bool, name: &str, t: &Tally, total: bool) -> io::Result<()> {
    if json {
        let by_kind: serde_json::Map<String, serde_json::Value> = t
            .invalid
            .iter()
            .map(|&(kind, n)| (kind_id(kind).to_string(), n.into()))
            .collect();
        let record = json!({
            "type": if total { "total" } else { "file" },
            "path": name,
            "bytes": t.bytes,
            "chars": t.chars,
            "lines": t.lines,
            "invalid": t.invalid_total(),
            "invalid_by_kind": by_kind,
        });
        return writeln!(out, "{record}");
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
