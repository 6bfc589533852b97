//! What both parallel paths (`validate` in [`super::parallel`], `convert` in
//! [`super::parallel_convert`]) share: cutting a regular file into regions
//! at places where a sequential scan starts afresh, and reading a region
//! with positioned reads, so threads need no file offset of their own.
//!
//! Where a cut may go is the encodings crate's answer
//! ([`encodings::Encoding::cut_near_in`]); this module only reads the few
//! bytes around each place it asks about.

use encodings::Encoding;
use indicatif::ProgressBar;
use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// Region boundaries for `regions` regions of about equal size of a file
/// of `len` bytes in `encoding` that starts with `head` (its first 4
/// bytes, or all of it): `0`, the cuts (strictly increasing, each where
/// [`Encoding::cut_near_in`] allows), `len`.
pub(crate) fn cuts(
    file: &File,
    len: u64,
    regions: u64,
    encoding: Encoding,
    head: &[u8],
) -> io::Result<Vec<u64>> {
    let regions = regions.clamp(1, len.max(1));
    let wide = !encoding.is_single_byte() && !encoding.is_unicode();
    let mut cuts = vec![0];
    for i in 1..regions {
        let nominal = len / regions * i + (len % regions) * i / regions;
        // A window starting at a multiple of 4, from 4 to 8 bytes before
        // the place wanted, 8 bytes after it; the CJK encodings cut at the
        // next byte below 0x40, which may be kilobytes on.
        let from = nominal.saturating_sub(4) & !3;
        let mut window = vec![0u8; if wide { 64 << 10 } else { 16 }];
        let n = read_exact_at(file, &mut window, from)?;
        let at = (nominal - from) as usize;
        let Some(cut) = encoding.cut_near_in(head, &window[..n], at) else {
            continue;
        };
        let cut = from + cut as u64;
        if cut > *cuts.last().unwrap_or(&0) && cut < len {
            cuts.push(cut);
        }
    }
    cuts.push(len);
    Ok(cuts)
}

/// The error for a file that ended before its size said.
pub(crate) fn shrank() -> io::Error {
    io::Error::other("the file shrank while it was being read")
}

/// Reads `[pos, end)` of a shared file with positioned reads. Stops with an
/// error when `cancel` is set; counts what it reads on `bar`.
pub(crate) struct RangeReader<'a> {
    file: &'a File,
    pos: u64,
    end: u64,
    cancel: &'a AtomicBool,
    bar: Option<&'a ProgressBar>,
}

impl<'a> RangeReader<'a> {
    pub(crate) fn new(
        file: &'a File,
        pos: u64,
        end: u64,
        cancel: &'a AtomicBool,
        bar: Option<&'a ProgressBar>,
    ) -> Self {
        RangeReader {
            file,
            pos,
            end,
            cancel,
            bar,
        }
    }

    /// The offset of the next byte to read.
    pub(crate) fn position(&self) -> u64 {
        self.pos
    }
}

impl Read for RangeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(io::Error::other("cancelled"));
        }
        let want = buf.len().min((self.end - self.pos) as usize);
        if want == 0 {
            return Ok(0);
        }
        let n = read_at(self.file, &mut buf[..want], self.pos)?;
        self.pos += n as u64;
        if let Some(bar) = self.bar {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}

/// Fills `buf` from `pos` as far as the file goes; the count read.
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match read_at(file, &mut buf[got..], pos + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, pos)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, pos)
}

/// Whether this platform has positioned reads (the parallel paths need
/// them).
pub(crate) const AVAILABLE: bool = cfg!(any(unix, windows));

#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::other("positioned reads are not available here"))
}
