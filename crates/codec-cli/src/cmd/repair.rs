//! `codec repair`: the lossy conversion, to stdout, a file, or in place.

use super::Status;
use super::output::{Filter, display_name};
use crate::cli::RepairArgs;
use crate::repair::{Repaired, repair};
use crate::scan::Scanner;
use std::io;
use std::path::Path;

pub(super) fn run(args: &RepairArgs) -> io::Result<Status> {
    let path = args.path.as_deref().filter(|p| p.as_os_str() != "-");
    // Looked at before the file is repaired (perhaps in place): a file in
    // another encoding is better converted than repaired.
    let hint = match path {
        Some(p) if !args.quiet && std::fs::metadata(p).is_ok_and(|m| m.is_file()) => {
            super::detect::hint(p)
        }
        _ => None,
    };
    match run_inner(args, path) {
        Ok(done) => {
            if !args.quiet && done.replaced > 0 {
                super::error_line(format_args!(
                    "{}: replaced {} invalid sequence{} with U+FFFD",
                    display_name(path),
                    done.replaced,
                    if done.replaced == 1 { "" } else { "s" }
                ));
                if let Some(hint) = hint {
                    super::error_line(format_args!("{}: {hint}", display_name(path)));
                }
            }
            Ok(Status::default())
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        Err(e) => {
            // Every error already names its path (input, output, or the
            // directory of a temporary file).
            super::error_line(format_args!("{e}"));
            Ok(Status {
                invalid: false,
                failed: true,
            })
        }
    }
}

fn run_inner(args: &RepairArgs, path: Option<&Path>) -> io::Result<Repaired> {
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    let Filter {
        reader,
        bar,
        mut dest,
        ..
    } = Filter::open(path, output, args.in_place, args.no_progress)?;
    let result = repair(&mut Scanner::new(args.chunk_size), reader, dest.writer());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let done = match result {
        Ok(done) => done,
        Err(e) => {
            dest.discard();
            return Err(e);
        }
    };
    if args.in_place && done.replaced == 0 {
        // A valid file is left untouched: the temporary file goes away.
        dest.discard();
        return Ok(done);
    }
    dest.commit()?;
    Ok(done)
}
