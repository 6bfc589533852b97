//! Where `repair` and `convert` write: stdout, a named output, or the input
//! itself (`--in-place`), never half a file.
//!
//! A named regular file (or one that does not exist yet) is written to a
//! temporary file in the same directory, which is renamed over it only once
//! everything was written and synced: a failure (an I/O error, or invalid
//! input in a strict conversion) or a crash leaves the old file, or none,
//! never a half-written one. Devices, FIFOs and what `/dev/stdout` names
//! (`-o /dev/null`, `-o /dev/stdout` into a pipe) are written directly, as
//! streams, since they cannot be renamed over.
//!
//! Two regular files are written in place instead, their inode kept: one
//! with several hard links (a rename would split them), and one in a
//! directory where no temporary file can be made (the file writable, the
//! directory not). The output then goes first to a temporary file in the
//! system's temporary directory, and is copied over the target only once
//! complete: a failed conversion still leaves the target as it was, but a
//! crash during the copy leaves it half-written.
//!
//! Symbolic links are followed, to the final target: the target is
//! rewritten and the link stays a link. Replacing the link with a regular
//! file (what a plain rename onto the link's path does) would leave the
//! target unrepaired and the link broken, which is never what was asked. A
//! file with several hard links is refused for `--in-place`, since the
//! rename would give the named link new contents and leave the others with
//! the old ones.
//!
//! A rewritten file keeps its permission bits; a new one gets 0666 less the
//! umask, as `File::create` would give it. Ownership, extended attributes
//! and ACLs are not copied.

use super::{at_path, progress};
use crate::names;
use indicatif::ProgressBar;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// The two ends of `repair` and `convert`: the input (with a progress bar
/// when it is large and stderr a terminal) and the output.
pub(crate) struct Filter {
    /// The input; its read errors name its path.
    pub(crate) reader: Box<dyn Read>,
    pub(crate) bar: Option<ProgressBar>,
    pub(crate) dest: Dest,
    /// The input again, with its size, when it is a regular file: for
    /// positioned reads (`convert` on several threads).
    pub(crate) file: Option<(File, u64)>,
}

impl Filter {
    /// Opens `path` (stdin if `None`) and the output: `in_place`, `-o
    /// output`, or stdout. Refuses an output that is the input itself.
    pub(crate) fn open(
        path: Option<&Path>,
        output: Option<&Path>,
        in_place: bool,
        no_progress: bool,
    ) -> io::Result<Filter> {
        let (reader, len, file): (Box<dyn Read>, Option<u64>, _) = match path {
            Some(p) => {
                let f = File::open(p).map_err(|e| at_path(p, e))?;
                let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                let again = match len {
                    Some(len) => Some((f.try_clone().map_err(|e| at_path(p, e))?, len)),
                    None => None,
                };
                (Box::new(ReadAt(f, p.to_path_buf())), len, again)
            }
            None => (Box::new(io::stdin().lock()), None, None),
        };
        if let (Some(input), Some(out)) = (path, output)
            && same_file(input, out)
        {
            return Err(at_path(
                out,
                io::Error::other("is the input too; use --in-place to rewrite it"),
            ));
        }
        let dest = match (in_place, path, output) {
            (true, Some(p), _) => Dest::in_place(p)?,
            (true, None, _) => return Err(io::Error::other("--in-place needs a file, not stdin")),
            (false, _, Some(out)) => Dest::named(out)?,
            (false, _, None) => Dest::stdout(),
        };
        let name = display_name(path);
        let bar = progress::bytes_bar(progress::allowed(no_progress), len, &name);
        let reader: Box<dyn Read> = match &bar {
            Some(bar) => Box::new(bar.wrap_read(reader)),
            None => reader,
        };
        Ok(Filter {
            reader,
            bar,
            dest,
            file,
        })
    }
}

/// The name of a filter's input in messages.
pub(crate) fn display_name(path: Option<&Path>) -> String {
    path.map_or(super::inputs::STDIN_NAME.to_string(), |p| {
        names::escape(p.as_os_str()).into_owned()
    })
}

/// A file whose read errors name it.
struct ReadAt(File, PathBuf);

impl Read for ReadAt {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                at_path(&self.1, e)
            }
        })
    }
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

/// An output being written.
pub(crate) enum Dest {
    Stdout(BufWriter<StdoutWriter>),
    /// A device or FIFO, written directly.
    Direct(BufWriter<File>, PathBuf),
    /// A temporary file that replaces `target` on [`Dest::commit`].
    Staged(BufWriter<NamedTempFile>, PathBuf),
    /// A temporary file elsewhere, copied into `target` (in place) on
    /// [`Dest::commit`].
    Copied(BufWriter<NamedTempFile>, PathBuf),
}

/// The output buffer. Smaller than a converted 256 KiB read (about 230 KiB
/// for UTF-8 text written as UTF-16), so that `convert` writes each chunk's
/// output straight from the encoder (a `BufWriter` passes on a write at
/// least as large as its buffer) instead of copying it first: at 256 KiB
/// the copy was 17% of the instructions of `convert -j 1 -f UTF-8 -t
/// UTF-16LE` (callgrind, 32 MiB). Small writes (`repair`'s pieces, BOMs)
/// are still gathered.
const BUF: usize = 64 << 10;

impl Dest {
    /// Stdout.
    pub(crate) fn stdout() -> Dest {
        Dest::Stdout(BufWriter::with_capacity(BUF, StdoutWriter::new()))
    }

    /// A named output (`-o OUT`).
    pub(crate) fn named(path: &Path) -> io::Result<Dest> {
        // A device, FIFO or socket, also through links that do not resolve
        // to a path (`/dev/stdout` → `/proc/self/fd/1` → `pipe:[…]`).
        if let Ok(m) = fs::metadata(path)
            && !m.is_file()
            && !m.is_dir()
        {
            let f = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| at_path(path, e))?;
            return Ok(Dest::Direct(
                BufWriter::with_capacity(BUF, f),
                path.to_path_buf(),
            ));
        }
        let target = follow(path)?;
        if links(&target) > 1 {
            return copied(&target);
        }
        stage(&target)
    }

    /// The input itself (`--in-place`): a regular file, followed through
    /// symbolic links, with one hard link.
    pub(crate) fn in_place(path: &Path) -> io::Result<Dest> {
        let target = follow(path)?;
        let meta = fs::metadata(&target).map_err(|e| at_path(path, e))?;
        if !meta.is_file() {
            return Err(at_path(
                path,
                io::Error::other("not a regular file; --in-place needs one"),
            ));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if meta.nlink() > 1 {
                return Err(at_path(
                    &target,
                    io::Error::other(format!(
                        "has {} hard links, and replacing it would split them; \
                         write a copy with -o instead",
                        meta.nlink()
                    )),
                ));
            }
        }
        stage(&target)
    }

    /// The writer, whose errors name the output's path (a broken pipe
    /// stays unnamed: it ends the run quietly).
    pub(crate) fn writer(&mut self) -> WriteAt<'_> {
        let path = self.path().map(Path::to_path_buf);
        WriteAt(self.raw(), path)
    }

    fn raw(&mut self) -> &mut dyn Write {
        match self {
            Dest::Stdout(w) => w,
            Dest::Direct(w, _) => w,
            Dest::Staged(w, _) | Dest::Copied(w, _) => w,
        }
    }

    /// The path to name in an error while writing.
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Dest::Stdout(_) => None,
            Dest::Direct(_, p) | Dest::Staged(_, p) | Dest::Copied(_, p) => Some(p),
        }
    }

    /// Finishes the output: flushes, and for a staged file syncs it and
    /// renames it over its target.
    pub(crate) fn commit(self) -> io::Result<()> {
        match self {
            Dest::Stdout(mut w) => w.flush(),
            Dest::Direct(mut w, p) => w.flush().map_err(|e| at_path(&p, e)),
            Dest::Staged(w, target) => {
                let tmp = w
                    .into_inner()
                    .map_err(|e| at_path(&target, e.into_error()))?;
                tmp.as_file().sync_all().map_err(|e| at_path(&target, e))?;
                tmp.persist(&target)
                    .map_err(|e| at_path(&target, e.error))?;
                Ok(())
            }
            Dest::Copied(w, target) => {
                let tmp = w
                    .into_inner()
                    .map_err(|e| at_path(&target, e.into_error()))?;
                let mut from = tmp.reopen().map_err(|e| at_path(&target, e))?;
                let mut to = fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(&target)
                    .map_err(|e| at_path(&target, e))?;
                io::copy(&mut from, &mut to).map_err(|e| at_path(&target, e))?;
                to.sync_all().map_err(|e| at_path(&target, e))
            }
        }
    }

    /// Drops the output: a staged temporary file is deleted, the target left
    /// as it was.
    pub(crate) fn discard(self) {
        if let Dest::Stdout(mut w) = self {
            let _ = w.flush();
        }
    }
}

/// Stdout for an output, written as the writes come: on Unix its
/// descriptor duplicated into a [`File`]. Std's `Stdout` is line-buffered,
/// and searches each write for its last newline with a byte-wise loop: a
/// third of the CPU time of `convert -f CP1252 -t UTF-8` on French text
/// without newlines (Zen 4). Std's stdout, locked, where the descriptor
/// cannot be duplicated.
pub(crate) enum StdoutWriter {
    File(File),
    Std(io::StdoutLock<'static>),
}

impl StdoutWriter {
    fn new() -> StdoutWriter {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
                return StdoutWriter::File(File::from(fd));
            }
        }
        StdoutWriter::Std(io::stdout().lock())
    }

    fn inner(&mut self) -> &mut dyn Write {
        match self {
            StdoutWriter::File(f) => f,
            StdoutWriter::Std(s) => s,
        }
    }
}

impl Write for StdoutWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner().write(buf)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.inner().write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner().flush()
    }
}

/// See [`Dest::writer`].
pub(crate) struct WriteAt<'a>(&'a mut dyn Write, Option<PathBuf>);

impl Write for WriteAt<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.0.write(buf);
        r.map_err(|e| self.name(e))
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        // Passed on, so that a `BufWriter` writes large gathered pieces
        // (`convert`'s parallel output) without copying them.
        let r = self.0.write_vectored(bufs);
        r.map_err(|e| self.name(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.0.flush();
        r.map_err(|e| self.name(e))
    }
}

impl WriteAt<'_> {
    fn name(&self, e: io::Error) -> io::Error {
        match &self.1 {
            Some(p)
                if !matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::BrokenPipe
                ) =>
            {
                at_path(p, e)
            }
            _ => e,
        }
    }
}

/// `path` with every symbolic link resolved, if it is one; a path that does
/// not exist yet is returned as it is.
fn follow(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            at_path(
                path,
                io::Error::new(e.kind(), format!("symbolic link to a missing file ({e})")),
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// A temporary file beside `target`, with `target`'s permissions if it
/// exists.
fn stage(target: &Path) -> io::Result<Dest> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".codec-tmp-");
    let existing = fs::metadata(target).ok().map(|m| m.permissions());
    #[cfg(unix)]
    if existing.is_none() {
        // Created with mode 0666, which the OS reduces by the umask, as for
        // any new file (tempfile's default is 0600).
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let tmp = match builder.tempfile_in(dir) {
        Ok(tmp) => tmp,
        // The directory is not writable (or full), the file may be: it is
        // written in place.
        Err(_) if writable(target) => return copied(target),
        Err(e) => {
            let dir = crate::names::escape(dir.as_os_str()).into_owned();
            return Err(at_path(
                target,
                io::Error::new(
                    e.kind(),
                    format!("cannot create a temporary file in {dir}: {e}"),
                ),
            ));
        }
    };
    if let Some(permissions) = existing {
        fs::set_permissions(tmp.path(), permissions).map_err(|e| at_path(target, e))?;
    }
    Ok(Dest::Staged(
        BufWriter::with_capacity(BUF, tmp),
        target.to_path_buf(),
    ))
}

/// How many hard links `path` has (0 if it does not exist).
fn links(path: &Path) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).map_or(0, |m| m.nlink())
    }
    #[cfg(not(unix))]
    {
        u64::from(path.exists())
    }
}

/// Whether `path` is an existing regular file that can be opened for
/// writing (without changing it).
fn writable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file())
        && fs::OpenOptions::new().write(true).open(path).is_ok()
}

/// Writing `target` in place: the output is gathered in the system's
/// temporary directory first (see the module docs).
fn copied(target: &Path) -> io::Result<Dest> {
    let tmp = tempfile::Builder::new()
        .prefix(".codec-out-")
        .tempfile()
        .map_err(|e| {
            at_path(
                target,
                io::Error::new(
                    e.kind(),
                    format!("cannot create a temporary file to write it in place: {e}"),
                ),
            )
        })?;
    Ok(Dest::Copied(
        BufWriter::with_capacity(BUF, tmp),
        target.to_path_buf(),
    ))
}
