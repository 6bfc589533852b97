//! `codec repair`: the lossy conversion, to stdout, a file, or in place.

use super::Status;
use crate::cli::RepairArgs;
use crate::repair::{Repaired, repair};
use crate::scan::Scanner;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read};
use std::path::Path;

pub(super) fn run(args: &RepairArgs) -> io::Result<Status> {
    let path = args.path.as_deref().filter(|p| p.as_os_str() != "-");
    let name = path.map_or(super::inputs::STDIN_NAME.to_string(), |p| {
        p.display().to_string()
    });
    match run_inner(args, path) {
        Ok(done) => {
            if !args.quiet && done.replaced > 0 {
                super::error_line(format_args!(
                    "{name}: replaced {} invalid sequence{} with U+FFFD",
                    done.replaced,
                    if done.replaced == 1 { "" } else { "s" }
                ));
            }
            Ok(Status::default())
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        Err(e) => {
            super::error_line(format_args!("{name}: {e}"));
            Ok(Status {
                invalid: false,
                failed: true,
            })
        }
    }
}

fn run_inner(args: &RepairArgs, path: Option<&Path>) -> io::Result<Repaired> {
    let mut scanner = Scanner::new(args.chunk_size);
    let reader: Box<dyn Read> = match path {
        Some(p) => Box::new(File::open(p)?),
        None => {
            if args.in_place {
                return Err(io::Error::other("--in-place needs a file, not stdin"));
            }
            Box::new(io::stdin().lock())
        }
    };
    if args.in_place {
        // `requires = "path"` and the check above make this a file.
        let path = path.ok_or_else(|| io::Error::other("--in-place needs a file"))?;
        return in_place(&mut scanner, reader, path);
    }
    match args.output.as_deref().filter(|p| p.as_os_str() != "-") {
        Some(out) => {
            if let Some(input) = path
                && same_file(input, out)
            {
                return Err(io::Error::other(format!(
                    "{} is the input too: writing it would truncate it first; use --in-place",
                    out.display()
                )));
            }
            let file = File::create(out)?;
            repair(
                &mut scanner,
                reader,
                BufWriter::with_capacity(256 << 10, file),
            )
        }
        None => repair(
            &mut scanner,
            reader,
            BufWriter::with_capacity(256 << 10, io::stdout().lock()),
        ),
    }
}

/// Writes the repair to a temporary file beside `path`, then renames it over
/// `path`: a crash leaves either the old file or the new one (and at worst a
/// stray temporary file), never a half-written `path`. A file with nothing
/// to replace is left untouched.
fn in_place(scanner: &mut Scanner, reader: Box<dyn Read>, path: &Path) -> io::Result<Repaired> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let permissions = fs::metadata(path)?.permissions();
    let tmp = tempfile::Builder::new()
        .prefix(".codec-repair-")
        .tempfile_in(dir)?;
    let mut writer = BufWriter::with_capacity(256 << 10, tmp);
    let done = repair(scanner, reader, &mut writer)?;
    let tmp = writer.into_inner().map_err(|e| e.into_error())?;
    if done.replaced == 0 {
        // Dropping the temporary file deletes it.
        return Ok(done);
    }
    tmp.as_file().sync_all()?;
    fs::set_permissions(tmp.path(), permissions)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(done)
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            x.dev() == y.dev() && x.ino() == y.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => fs::canonicalize(a).ok() == fs::canonicalize(b).ok(),
        _ => false,
    }
}
