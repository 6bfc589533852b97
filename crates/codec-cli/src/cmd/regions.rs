//! What both parallel paths (`validate` in [`super::parallel`], `convert` in
//! [`super::parallel_convert`]) share: cutting a regular file into regions
//! at places where a sequential scan starts afresh, and reading a region
//! with positioned reads, so threads need no file offset of their own.
//!
//! Where a cut may go, per input encoding ([`CutRule`]):
//!
//! - UTF-8: before a byte that is not a continuation byte (`10xxxxxx`): no
//!   sequence that starts before such a byte extends past it, and a maximal
//!   invalid subpart never spans it either, so strict and lossy decoding
//!   see the same pieces on both sides. The cut goes to the first such byte
//!   among the 4 at the nominal position, or to the fourth if all 4 are
//!   continuation bytes (a lead byte takes at most 3).
//! - UTF-16: at an even offset, moved one unit on when it falls between a
//!   lead and a trail surrogate. A lead surrogate just before a cut with no
//!   trail after it is unpaired either way: one U+FFFD on both sides.
//! - UTF-32: at a multiple of 4. Latin-1: anywhere.

use codec_core::utf8;
use codec_facade::transcode::Endianness;
use indicatif::ProgressBar;
use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a region boundary may go (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CutRule {
    /// At the start of a UTF-8 character.
    Utf8,
    /// At an even offset outside a surrogate pair.
    Utf16(Endianness),
    /// At a multiple of the unit size (4 for UTF-32, 1 for Latin-1).
    Unit(u64),
}

/// Region boundaries for `regions` regions of about equal size: `0`, the
/// cuts (strictly increasing, each placed by `rule`), `len`.
pub(crate) fn cuts(file: &File, len: u64, regions: u64, rule: CutRule) -> io::Result<Vec<u64>> {
    let regions = regions.clamp(1, len.max(1));
    let mut cuts = vec![0];
    for i in 1..regions {
        let nominal = len / regions * i + (len % regions) * i / regions;
        let cut = match rule {
            CutRule::Utf8 => {
                let mut head = [0u8; 4];
                let n = read_exact_at(file, &mut head, nominal)?;
                let skip = head[..n]
                    .iter()
                    .position(|&b| !utf8::is_continuation(b))
                    .unwrap_or(3.min(n));
                nominal + skip as u64
            }
            CutRule::Utf16(order) => {
                let even = nominal & !1;
                // The unit before the cut and the unit after it.
                let mut around = [0u8; 4];
                let n = if even >= 2 {
                    read_exact_at(file, &mut around, even - 2)?
                } else {
                    0
                };
                let unit = |b: &[u8]| match order {
                    Endianness::Little => u16::from_le_bytes([b[0], b[1]]),
                    Endianness::Big => u16::from_be_bytes([b[0], b[1]]),
                };
                let inside_pair = n == 4
                    && (0xD800..0xDC00).contains(&unit(&around[..2]))
                    && (0xDC00..0xE000).contains(&unit(&around[2..]));
                if inside_pair { even + 2 } else { even }
            }
            CutRule::Unit(size) => nominal - nominal % size.max(1),
        };
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
