//! Both cores for one large regular file: the file is cut into regions at
//! character boundaries, the regions are validated on scoped threads, and
//! the diagnostics are merged in file order, identical to a single-threaded
//! run.
//!
//! # Why the output is the same
//!
//! UTF-8 resynchronises at every byte that is not a continuation byte
//! (`10xxxxxx`): no sequence that starts before such a byte can extend past
//! it, so a sequential scan always has a piece boundary there, with a fresh
//! state. A cut is therefore placed at the first byte that is not a
//! continuation byte among the 4 at the nominal cut; if all 4 are
//! continuation bytes, at the fourth, since any sequence started before the
//! run has ended by then (a lead byte takes at most 3 continuation bytes).
//! Scanning each region with a fresh scanner then gives exactly the pieces
//! of the sequential scan, with one exception: a region that ends inside a
//! character reports its tail as "incomplete at end of input", where the
//! sequential scan sees the next byte and names the kind from it. The
//! worker fixes that kind with [`Utf8Error::at`] on the tail and the bytes
//! after the cut (the maximal subpart is the same bytes, since the byte at
//! the cut cannot continue it).
//!
//! Line and column: each region counts lines relative to its start, and only
//! from its first error on (before it, nothing is counted, as in the
//! sequential path). The merge adds the position at the region's start,
//! which it learns by counting the error-free regions before it, only when
//! a later region has something to print.
//!
//! Memory: every worker holds one scanner buffer, and each region keeps at
//! most [`MAX_REGION_DIAGNOSTICS`] diagnostics. A region with more (a
//! binary file read as text) stops there; the merge prints what it has and
//! goes on sequentially from that point to the end of the file, so memory
//! stays bounded whatever the input.
//!
//! The tests compare this path with the sequential one on random files with
//! errors straddling every cut (`tests/parallel.rs`, with tiny regions).

use super::regions::{self, RangeReader, read_exact_at, shrank};
use super::validate::Bad;
use crate::position::Position;
use crate::scan::{Piece, Scanner};
use codec_core::{Utf8Error, Utf8ErrorKind};
use codec_facade::utf8_simd;
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Diagnostics one region keeps before it hands the rest of the file to the
/// sequential path.
const MAX_REGION_DIAGNOSTICS: usize = 16 << 10;

/// Regions per thread: more regions than threads keeps both cores busy when
/// one of them is slowed down by another process.
const REGIONS_PER_JOB: u64 = 4;

/// Line and column as counts: `\n` bytes, and characters since the last one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineCol {
    pub(crate) newlines: u64,
    pub(crate) chars: u64,
}

impl LineCol {
    /// The counts of a [`Position`].
    pub(crate) fn of(p: &Position) -> LineCol {
        LineCol {
            newlines: p.line() - 1,
            chars: p.column() - 1,
        }
    }

    /// The position `rel` counted from `self`.
    pub(crate) fn then(self, rel: LineCol) -> LineCol {
        if rel.newlines > 0 {
            LineCol {
                newlines: self.newlines + rel.newlines,
                chars: rel.chars,
            }
        } else {
            LineCol {
                newlines: self.newlines,
                chars: self.chars + rel.chars,
            }
        }
    }

    pub(crate) fn line(self) -> u64 {
        self.newlines + 1
    }

    pub(crate) fn column(self) -> u64 {
        self.chars + 1
    }
}

/// How a file is checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Threads.
    pub(crate) jobs: usize,
    /// Bytes per read.
    pub(crate) chunk_size: usize,
    /// Whether line and column are needed.
    pub(crate) positions: bool,
    /// Whether only the first error matters.
    pub(crate) first_only: bool,
}

/// One invalid sequence found by a worker, offset absolute.
#[derive(Clone, Copy, Debug)]
struct Found {
    offset: u64,
    len: u8,
    bytes: [u8; 3],
    kind: Utf8ErrorKind,
    /// Relative to the region start (zero when positions are off).
    at: LineCol,
}

impl Found {
    fn bad(&self) -> Bad<'_> {
        Bad {
            offset: self.offset,
            bytes: &self.bytes[..usize::from(self.len)],
            kind: self.kind,
        }
    }
}

struct RegionResult {
    index: usize,
    found: Vec<Found>,
    /// The position after the region, relative to its start, when the
    /// worker counted (it had an error).
    end: Option<LineCol>,
    /// Stopped after [`MAX_REGION_DIAGNOSTICS`]: where to go on from, and
    /// the relative position there.
    overflow: Option<(u64, LineCol)>,
    error: Option<io::Error>,
}

/// Checks `file` (`len` bytes) on `plan.jobs` threads, calling `on_bad` for
/// every invalid sequence in file order with its line and column (zero when
/// positions are off); `on_bad` breaks to stop. Returns the bytes checked
/// (up to the end of the sequence where `on_bad` stopped, as the sequential
/// scanner counts them) and the errors found, or the read error that ended
/// the check. The outer error is `on_bad`'s.
pub(crate) fn check(
    file: &File,
    len: u64,
    plan: Plan,
    bar: Option<&ProgressBar>,
    mut on_bad: impl FnMut(LineCol, Bad<'_>) -> io::Result<ControlFlow<()>>,
) -> io::Result<io::Result<(u64, u64)>> {
    let cuts = match regions::cuts(
        file,
        len,
        plan.jobs as u64 * REGIONS_PER_JOB,
        encodings::Encoding::UTF_8,
        &[],
    ) {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    let regions: Vec<(u64, u64)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
    let cancel = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let mut errors = 0u64;
    let mut checked = len;
    if plan.jobs == 1 || regions.len() == 1 {
        // One region: no thread to start (small files in a walk).
        let (tx, rx) = mpsc::channel::<RegionResult>();
        for (i, &(start, end)) in regions.iter().enumerate() {
            let last = i + 1 == regions.len();
            let result = scan_region(file, i, start, end, last, plan, &cancel, bar);
            if tx.send(result).is_err() {
                break;
            }
        }
        drop(tx);
        let state = (&mut errors, &mut checked);
        let result = merge(file, len, &regions, plan, &rx, state, &mut on_bad);
        return result.map(|r| r.map(|()| (checked, errors)));
    }
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<RegionResult>();
        for _ in 0..plan.jobs.min(regions.len()) {
            let tx = tx.clone();
            let (regions, cancel, next) = (&regions, &cancel, &next);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= regions.len() || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let (start, end) = regions[i];
                    let last = i + 1 == regions.len();
                    let result = scan_region(file, i, start, end, last, plan, cancel, bar);
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let result = merge(
            file,
            len,
            &regions,
            plan,
            &rx,
            (&mut errors, &mut checked),
            &mut on_bad,
        );
        // Stop the workers still running (after an error, --first, or an
        // overflow), then let the scope join them.
        cancel.store(true, Ordering::Relaxed);
        result
    })
    .map(|r| r.map(|()| (checked, errors)))
}

/// Receives the region results in order and hands their diagnostics out.
fn merge(
    file: &File,
    len: u64,
    regions: &[(u64, u64)],
    plan: Plan,
    rx: &mpsc::Receiver<RegionResult>,
    (errors, checked): (&mut u64, &mut u64),
    on_bad: &mut impl FnMut(LineCol, Bad<'_>) -> io::Result<ControlFlow<()>>,
) -> io::Result<io::Result<()>> {
    let mut ready: BTreeMap<usize, RegionResult> = BTreeMap::new();
    // The position at `counted_to`; bytes from there on are not counted yet.
    let (mut known, mut counted_to) = (LineCol::default(), 0u64);
    for (k, &(start, end)) in regions.iter().enumerate() {
        let r = loop {
            if let Some(r) = ready.remove(&k) {
                break r;
            }
            match rx.recv() {
                Ok(r) => {
                    ready.insert(r.index, r);
                }
                Err(_) => return Ok(Err(io::Error::other("a validation thread stopped"))),
            }
        };
        if let Some(e) = r.error {
            return Ok(Err(e));
        }
        if r.found.is_empty() {
            continue;
        }
        let base = if plan.positions {
            match count_range(file, counted_to, start) {
                Ok(gap) => known.then(gap),
                Err(e) => return Ok(Err(e)),
            }
        } else {
            LineCol::default()
        };
        for found in &r.found {
            *errors += 1;
            if on_bad(base.then(found.at), found.bad())?.is_break() {
                *checked = found.offset + u64::from(found.len);
                return Ok(Ok(()));
            }
        }
        if let Some((resume, rel)) = r.overflow {
            let state = (errors, checked);
            return sequential_rest(file, resume, len, base.then(rel), plan, state, on_bad);
        }
        if plan.first_only {
            return Ok(Ok(()));
        }
        known = base.then(r.end.unwrap_or_default());
        counted_to = end;
    }
    Ok(Ok(()))
}

/// The rest of the file after an overflowing region, on this thread.
fn sequential_rest(
    file: &File,
    from: u64,
    len: u64,
    base: LineCol,
    plan: Plan,
    (errors, checked): (&mut u64, &mut u64),
    on_bad: &mut impl FnMut(LineCol, Bad<'_>) -> io::Result<ControlFlow<()>>,
) -> io::Result<io::Result<()>> {
    let never = AtomicBool::new(false);
    let reader = RangeReader::new(file, from, len, &never, None);
    let mut position = Position::new();
    let mut out_error = None;
    let scanned = Scanner::new(plan.chunk_size).scan(reader, |piece| match piece {
        Piece::Valid(run) => {
            if plan.positions {
                position.advance_valid(run);
            }
            ControlFlow::Continue(())
        }
        Piece::Invalid(bad) => {
            *errors += 1;
            let b = Bad {
                offset: from + bad.offset(),
                bytes: bad.bytes(),
                kind: bad.kind(),
            };
            let at = base.then(LineCol::of(&position));
            position.advance_invalid();
            match on_bad(at, b) {
                Ok(flow) => flow,
                Err(e) => {
                    out_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        }
    });
    if let Some(e) = out_error {
        return Err(e);
    }
    Ok(scanned.map(|s| *checked = from + s.bytes))
}

/// Validates `[start, end)` with a fresh scanner.
#[allow(clippy::too_many_arguments)]
fn scan_region(
    file: &File,
    index: usize,
    start: u64,
    end: u64,
    last: bool,
    plan: Plan,
    cancel: &AtomicBool,
    bar: Option<&ProgressBar>,
) -> RegionResult {
    let mut result = RegionResult {
        index,
        found: Vec::new(),
        end: None,
        overflow: None,
        error: None,
    };
    // The fast pass: is the region valid, and if not, where is its first
    // error? Nearly every region of a text file stops here.
    let first_error = match fast_pass(file, start, end, plan.chunk_size, cancel, bar) {
        Ok(None) => return result,
        Ok(Some(at)) => at,
        Err(e) => {
            result.error = Some(e);
            return result;
        }
    };
    // From the first error on, the scanner cuts the rest into pieces. The
    // first error is a piece boundary with a fresh state (everything before
    // it is valid), so the pieces are those of a scan from the region start.
    // The position there is counted once, by reading the valid prefix again.
    let mut position: Option<(LineCol, Position)> = None;
    if plan.positions {
        match count_range(file, start, first_error) {
            Ok(at) => position = Some((at, Position::new())),
            Err(e) => {
                result.error = Some(e);
                return result;
            }
        }
    }
    let rel = |position: &Option<(LineCol, Position)>| {
        position
            .as_ref()
            .map(|(base, p)| base.then(LineCol::of(p)))
            .unwrap_or_default()
    };
    let reader = RangeReader::new(file, first_error, end, cancel, None);
    let chunk = plan.chunk_size.min((end - first_error) as usize).max(1);
    let scanned = Scanner::new(chunk).scan(reader, |piece| match piece {
        Piece::Valid(run) => {
            if let Some((_, p)) = &mut position {
                p.advance_valid(run);
            }
            ControlFlow::Continue(())
        }
        Piece::Invalid(bad) => {
            result.found.push(found(first_error, &bad, rel(&position)));
            if let Some((_, p)) = &mut position {
                p.advance_invalid();
            }
            if plan.first_only {
                return ControlFlow::Break(());
            }
            if result.found.len() >= MAX_REGION_DIAGNOSTICS {
                let resume = first_error + bad.offset() + bad.bytes().len() as u64;
                result.overflow = Some((resume, rel(&position)));
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        }
    });
    match scanned {
        Err(e) => {
            result.error = Some(e);
            return result;
        }
        Ok(s) if !s.stopped && first_error + s.bytes != end => {
            result.error = Some(shrank());
            return result;
        }
        Ok(_) => {}
    }
    result.end = position.is_some().then(|| rel(&position));
    // A region that ends inside a character: the sequential scan would see
    // the byte after the cut and name the kind from it.
    if !last
        && result.overflow.is_none()
        && let Some(f) = result.found.last_mut()
        && f.kind == Utf8ErrorKind::Incomplete
        && f.offset + u64::from(f.len) == end
    {
        let mut bytes = [0u8; 7];
        let n = usize::from(f.len);
        bytes[..n].copy_from_slice(&f.bytes[..n]);
        match read_exact_at(file, &mut bytes[n..n + 4], end) {
            Ok(got) => f.kind = Utf8Error::at(&bytes[..n + got], 0).kind(),
            Err(e) => result.error = Some(e),
        }
    }
    result
}

fn found(start: u64, bad: &crate::scan::Invalid, at: LineCol) -> Found {
    let mut bytes = [0u8; 3];
    let b = bad.bytes();
    bytes[..b.len()].copy_from_slice(b);
    Found {
        offset: start + bad.offset(),
        len: b.len() as u8,
        bytes,
        kind: bad.kind(),
        at,
    }
}

/// Validates `[start, end)` with utf8-simd's streaming validator, reading
/// into a 64-byte-aligned buffer: `None` if the region is valid, else the
/// absolute offset of its first error.
///
/// Why aligned: Linux copies from the page cache into a destination 1 to 31
/// bytes past a page boundary at a fraction of the speed of an aligned one
/// (1.6 against 6–7.7 GB/s measured with `readv` on the AMD Zen 3),
/// and a `Vec`'s buffer from malloc starts 16 bytes past one. The carry of a
/// character split between reads stays inside the validator, so the read
/// destination never moves.
fn fast_pass(
    file: &File,
    start: u64,
    end: u64,
    chunk_size: usize,
    cancel: &AtomicBool,
    bar: Option<&ProgressBar>,
) -> io::Result<Option<u64>> {
    const ALIGN: usize = 64;
    // No larger than the region: small files in a walk stay cheap.
    let chunk_size = chunk_size.min((end - start) as usize).max(1);
    let mut storage = vec![0u8; chunk_size + ALIGN];
    let skip = storage.as_ptr().align_offset(ALIGN).min(ALIGN);
    let buf = &mut storage[skip..skip + chunk_size];
    let mut reader = RangeReader::new(file, start, end, cancel, bar);
    let mut validator = utf8_simd::Validator::new();
    let mut at = start;
    loop {
        let n = match reader.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        at += n as u64;
        if let Err(e) = validator.update(&buf[..n]) {
            return Ok(Some(start + e.valid_up_to() as u64));
        }
    }
    if at != end {
        return Err(shrank());
    }
    Ok(validator
        .finish()
        .err()
        .map(|e| start + e.valid_up_to() as u64))
}

/// The line and column after the valid bytes `[from, to)` of `file`,
/// relative to `from`, read again in bounded memory.
fn count_range(file: &File, from: u64, to: u64) -> io::Result<LineCol> {
    let mut buf = vec![0u8; 64 << 10];
    let mut position = Position::new();
    let mut at = from;
    while at < to {
        let want = buf.len().min((to - at) as usize);
        let n = read_exact_at(file, &mut buf[..want], at)?;
        if n < want {
            return Err(shrank());
        }
        // Both counts look at single bytes (`\n`, and bytes that are not
        // continuation bytes), so a read that splits a character changes
        // nothing.
        position.advance_valid(&buf[..n]);
        at += n as u64;
    }
    Ok(LineCol::of(&position))
}
