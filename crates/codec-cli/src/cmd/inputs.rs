//! The inputs of `validate` and `count`: stdin, files, and directory walks.
//!
//! Walks use the `ignore` crate, ripgrep's walker, so they skip what ripgrep
//! skips and take the same options: hidden entries (`--hidden`), files
//! matched by `.gitignore` inside a git repository, `.ignore`,
//! `.git/info/exclude` and the global git excludes (`--no-ignore`), and
//! symbolic links (`--follow`). On top of ripgrep's rules, while ignore
//! rules are on, `.git` directories (which `--hidden` alone would open: the
//! repository's own database, never text) and cache directories tagged with
//! a `CACHEDIR.TAG` are skipped too. `--all` turns every filter off and also
//! reads non-regular files, FIFOs included.

use crate::cli::InputArgs;
use crate::names;
use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The name stdin gets in diagnostics.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// One input to read.
pub(crate) enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name to print: escaped if it is not plain UTF-8 (see
    /// [`crate::names`]).
    pub(crate) fn name(&self) -> String {
        match self {
            Input::Stdin => STDIN_NAME.to_string(),
            Input::File(p) => names::escape(p.as_os_str()).into_owned(),
        }
    }

    /// The name as the OS has it, for JSON.
    pub(crate) fn os_name(&self) -> &OsStr {
        match self {
            Input::Stdin => OsStr::new(STDIN_NAME),
            Input::File(p) => p.as_os_str(),
        }
    }

    /// Opens it, with its size when it is a regular file (for the progress
    /// bar and the parallel path).
    pub(crate) fn open(&self) -> io::Result<Opened> {
        match self {
            Input::Stdin => Ok(Opened::Stdin),
            Input::File(p) => {
                let f = File::open(p)?;
                let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                Ok(Opened::File(f, len))
            }
        }
    }
}

/// An open input.
pub(crate) enum Opened {
    Stdin,
    /// A file, with its length if it is a regular file.
    File(File, Option<u64>),
}

impl Opened {
    /// The length of a regular file.
    pub(crate) fn len(&self) -> Option<u64> {
        match self {
            Opened::Stdin => None,
            Opened::File(_, len) => *len,
        }
    }

    /// As a reader.
    pub(crate) fn into_reader(self) -> Box<dyn Read> {
        match self {
            Opened::Stdin => Box::new(io::stdin().lock()),
            Opened::File(f, _) => Box::new(f),
        }
    }
}

/// An input that could not even be listed: its path and why.
pub(crate) struct Unreadable {
    pub(crate) path: PathBuf,
    pub(crate) error: io::Error,
}

impl Unreadable {
    pub(crate) fn name(&self) -> String {
        names::escape(self.path.as_os_str()).into_owned()
    }
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
                    path: path.clone(),
                    error,
                }))?;
                continue;
            }
        };
        if !meta.is_dir() {
            f(Ok(Input::File(path.clone())))?;
        } else if !args.recursive {
            f(Err(Unreadable {
                path: path.clone(),
                error: io::Error::other("is a directory (pass -r to walk it)"),
            }))?;
        } else {
            walk(path, args, &mut f)?;
        }
    }
    Ok(())
}

fn walk(
    root: &Path,
    args: &InputArgs,
    f: &mut impl FnMut(Result<Input, Unreadable>) -> io::Result<()>,
) -> io::Result<()> {
    let hidden = args.hidden || args.all;
    let no_ignore = args.no_ignore || args.all;
    let follow = args.follow || args.all;
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(!hidden)
        .ignore(!no_ignore)
        .git_ignore(!no_ignore)
        .git_global(!no_ignore)
        .git_exclude(!no_ignore)
        .parents(!no_ignore)
        .follow_links(follow)
        // Never read the file stdout is redirected to (`codec validate -r .
        // > report.txt`), as ripgrep does: it grows while it is read.
        .skip_stdout(true)
        .sort_by_file_name(|a, b| a.cmp(b));
    if !no_ignore {
        builder.filter_entry(|e| {
            let dir = e.file_type().is_some_and(|t| t.is_dir());
            e.depth() == 0 || !dir || (e.file_name() != ".git" && !is_cache_dir(e.path()))
        });
    }
    for entry in builder.build() {
        match entry {
            Ok(e) => {
                let Some(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    continue;
                }
                // Symbolic links left here were not followed; non-regular
                // files (FIFOs, sockets, devices) are read only with --all,
                // since a FIFO blocks until something writes to it.
                if kind.is_file() || (args.all && !kind.is_symlink()) {
                    f(Ok(Input::File(e.into_path())))?;
                }
            }
            Err(error) => {
                let (path, error) = split_error(root, error);
                f(Err(Unreadable { path, error }))?;
            }
        }
    }
    Ok(())
}

/// The path an `ignore` error concerns, and the error without it (the path
/// is printed escaped by the caller).
fn split_error(root: &Path, error: ignore::Error) -> (PathBuf, io::Error) {
    let mut path = root.to_path_buf();
    let mut inner = error;
    loop {
        inner = match inner {
            ignore::Error::WithPath { path: p, err } => {
                path = p;
                *err
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                *err
            }
            ignore::Error::Io(e) => return (path, e),
            ignore::Error::Loop { ancestor, child } => {
                let message = format!(
                    "symbolic link loop back to {}",
                    names::escape(ancestor.as_os_str())
                );
                return (child, io::Error::other(message));
            }
            other => return (path, io::Error::other(other.to_string())),
        };
    }
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
