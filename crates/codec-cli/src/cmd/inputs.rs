//! The inputs of `validate` and `count`: stdin, files, and directory walks.

use crate::cli::InputArgs;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use walkdir::{DirEntry, WalkDir};

/// The name stdin gets in diagnostics.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// One input to read.
pub(crate) enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name to print.
    pub(crate) fn name(&self) -> String {
        match self {
            Input::Stdin => STDIN_NAME.to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }

    /// Opens it, with its size when known (for the progress bar).
    pub(crate) fn open(&self) -> io::Result<(Box<dyn Read>, Option<u64>)> {
        match self {
            Input::Stdin => Ok((Box::new(io::stdin().lock()), None)),
            Input::File(p) => {
                let f = File::open(p)?;
                let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                Ok((Box::new(f), len))
            }
        }
    }
}

/// An input that could not even be listed: its name and why.
pub(crate) struct Unreadable {
    pub(crate) name: String,
    pub(crate) error: io::Error,
}

/// Calls `f` with every input named by `args`, in order; walks run in
/// file-name order, so output is reproducible.
pub(crate) fn for_each(
    args: &InputArgs,
    mut f: impl FnMut(Result<Input, Unreadable>) -> io::Result<()>,
) -> io::Result<()> {
    if args.paths.is_empty() {
        return f(Ok(Input::Stdin));
    }
    for path in &args.paths {
        if path.as_os_str() == "-" {
            f(Ok(Input::Stdin))?;
            continue;
        }
        // Follows a symbolic link named on the command line; a dangling
        // one fails here.
        let meta = match fs::metadata(path) {
            Ok(m) => m,
            Err(error) => {
                f(Err(Unreadable {
                    name: path.display().to_string(),
                    error,
                }))?;
                continue;
            }
        };
        if !meta.is_dir() {
            f(Ok(Input::File(path.clone())))?;
        } else if !args.recursive {
            f(Err(Unreadable {
                name: path.display().to_string(),
                error: io::Error::other("is a directory (pass -r to walk it)"),
            }))?;
        } else {
            walk(path, args.all, &mut f)?;
        }
    }
    Ok(())
}

fn walk(
    root: &Path,
    all: bool,
    f: &mut impl FnMut(Result<Input, Unreadable>) -> io::Result<()>,
) -> io::Result<()> {
    let entries = WalkDir::new(root)
        .follow_links(all)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| all || e.depth() == 0 || !skipped(e));
    for entry in entries {
        match entry {
            Ok(e) if e.file_type().is_file() => f(Ok(Input::File(e.into_path())))?,
            // Directories are walked; links (without --all), FIFOs, sockets
            // and devices are not read, since a FIFO could block forever.
            Ok(_) => {}
            Err(e) => {
                let name = e.path().unwrap_or(root).display().to_string();
                let error = e
                    .into_io_error()
                    .unwrap_or_else(|| io::Error::other("filesystem loop"));
                f(Err(Unreadable { name, error }))?;
            }
        }
    }
    Ok(())
}

/// Hidden entries and cache directories, left out of walks by default.
fn skipped(e: &DirEntry) -> bool {
    let hidden = e.file_name().to_str().is_some_and(|n| n.starts_with('.'));
    hidden || (e.file_type().is_dir() && is_cache_dir(e.path()))
}

/// A directory tagged per the Cache Directory Tagging Specification
/// (<https://bford.info/cachedir/>), as Cargo tags `target/`.
fn is_cache_dir(dir: &Path) -> bool {
    const SIGNATURE: &[u8] = b"Signature: 8a477f597d28d172789f06886806bc55";
    let mut head = [0u8; SIGNATURE.len()];
    File::open(dir.join("CACHEDIR.TAG"))
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == SIGNATURE)
}
