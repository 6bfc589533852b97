//! `codec repair`: the lossy conversion, to stdout, a file, or in place.

use super::output::Dest;
use super::{Status, at_path, progress};
use crate::cli::RepairArgs;
use crate::names;
use crate::repair::{Repaired, repair};
use crate::scan::Scanner;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::Path;

pub(super) fn run(args: &RepairArgs) -> io::Result<Status> {
    let path = args.path.as_deref().filter(|p| p.as_os_str() != "-");
    let name = path.map_or(super::inputs::STDIN_NAME.to_string(), |p| {
        names::escape(p.as_os_str()).into_owned()
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
        && same_file(input, out)
    {
        return Err(at_path(
            out,
            io::Error::other("is the input too; use --in-place to rewrite it"),
        ));
    }
    let mut dest = match (args.in_place, path, output) {
        (true, Some(p), _) => Dest::in_place(p)?,
        (true, None, _) => return Err(io::Error::other("--in-place needs a file, not stdin")),
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
    let out_path = dest.path().map(Path::to_path_buf);
    let result = repair(
        &mut Scanner::new(args.chunk_size),
        ErrorAt(reader, path),
        WriteAt(dest.writer(), out_path),
    );
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

/// A reader whose errors name its path.
struct ErrorAt<'a, R>(R, Option<&'a Path>);

impl<R: Read> Read for ErrorAt<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match self.1 {
            Some(p) if e.kind() != io::ErrorKind::Interrupted => at_path(p, e),
            _ => e,
        })
    }
}

/// A writer whose errors name its path (a broken pipe stays unnamed: it
/// ends the run quietly).
struct WriteAt<W>(W, Option<std::path::PathBuf>);

impl<W: Write> Write for WriteAt<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.0.write(buf);
        r.map_err(|e| self.name(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.0.flush();
        r.map_err(|e| self.name(e))
    }
}

impl<W> WriteAt<W> {
    fn name(&self, e: io::Error) -> io::Error {
        match &self.1 {
            Some(p) if e.kind() != io::ErrorKind::Interrupted => at_path(p, e),
            _ => e,
        }
    }
}

/// Whether two paths name the same existing file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
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
