//! `codec convert` on every core for one large regular file: the file is
//! cut into regions where a sequential decoder starts afresh
//! ([`regions::cuts`]), the regions are converted on scoped threads, and
//! their outputs are written in file order, byte for byte the sequential
//! output.
//!
//! # Threads
//!
//! `jobs - 1` workers (at least one) take regions from a queue; the thread
//! that writes converts a queued region itself whenever the next region to
//! write is not ready, and sleeps only when nothing is queued. With a
//! writer that only waited, two jobs made three threads on two cores, and
//! the wake-ups between them were about a tenth of the CPU time (`perf`:
//! scheduling, futex wake-ups, the queue's lock); the writer converting
//! took UTF-16LE → UTF-8 of 256 MiB from 16.0–19.1× to 18.4–23.6× iconv's
//! speed (AMD Zen 4, three runs of 25 interleaved rounds,
//! docs/results/codec-cli.md).
//!
//! # Why the output is the same
//!
//! A cut is placed where the sequential decoder has a chunk boundary with
//! no state carried over (see [`regions`] for the rule per encoding), so
//! each region's valid text converts to what the sequential run writes for
//! it. Lossy decoding writes the same U+FFFD on both sides of a cut: a
//! maximal invalid UTF-8 subpart never spans a byte that is not a
//! continuation byte, and a lead surrogate before a cut with no trail after
//! it is unpaired either way. Byte order marks are looked at only at offset
//! 0: the region that starts there handles them as the sequential run does,
//! and every region decodes with the file's byte order (named, or from its
//! BOM).
//!
//! A strict error is not taken from the region that found it: a region that
//! ends inside a character reports "incomplete at end of input" where the
//! sequential run names the byte after the cut. The writer instead converts
//! from the start of that region to the end of the file sequentially (every
//! region before it was written, error-free), which stops at the first
//! error with the sequential run's message, after writing what comes
//! before it (as the sequential run does, see [`Pipe::run`]).
//!
//! # Memory
//!
//! Regions are about [`REGION_BYTES`] of input, each converted in chunks of
//! `--chunk-size` (256 KiB) by one [`Pipe`] per thread (the writer's made
//! when it first converts), whose output
//! buffers are handed to the writer whole ([`Pieces`]). The writer hands
//! out region `k + WINDOW` only after writing region `k`, with `WINDOW` =
//! 2 × jobs, so at most that many regions' pieces exist: about 5 buffers a
//! region (4 chunks and a part), each at most 4 × the chunk (UTF-32 from
//! ASCII or Latin-1). With 2 threads: 4 × 5 × 1 MiB = 20 MiB in the worst
//! case, plus each thread's pipe; measured 11–16 MB peak RSS on 256 MiB
//! (docs/results/codec-cli.md). The buffers are recycled, not reallocated,
//! and whatever the file's size the count of buffers is bounded by the
//! window.
//!
//! # Two routes
//!
//! The Unicode forms go through `encodings::pivot` ([`Route::Native`]);
//! a pair of the encodings crate whose input can be cut and whose output
//! keeps no state ([`any_supports`]: a single-byte page, UTF-8/16/32,
//! Shift_JIS, EUC-JP, EUC-KR, Big5) through its `Converter`, resumed at
//! each region ([`Route::Any`]). A failed `Converter` region counts its
//! line and column from the region's start, so the writer reruns the
//! one-thread conversion from the file's start instead, dropping the
//! output it already wrote.
//!
//! Tests: `tests/convert_parallel.rs` and `tests/convert_legacy_parallel.rs`
//! compare this path with `--jobs 1` on random and mutated files cut every
//! few bytes (the second also with iconv).

use super::convert::{Bytes, Failure, Input, Pipe, Request, Sink, WriteSink};
use super::convert_any as any;
use super::regions::{self, RangeReader, shrank};
use crate::cli::ConvertArgs;
use encodings::pivot::{Decoder, Form};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// Input bytes per region, about. Small enough that the outputs held in
/// order stay small; large enough that a region is many chunks.
const REGION_BYTES: u64 = 1 << 20;

/// Regions at least per thread, so that small files (in the tests) are cut
/// too.
const REGIONS_PER_JOB: u64 = 4;

/// How a file is converted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan<'a> {
    /// Threads.
    pub(super) jobs: usize,
    /// The file's size.
    pub(super) len: u64,
    /// The file's bytes, if it is mapped: the regions are converted where
    /// they lie instead of read.
    pub(super) mapped: Option<&'a [u8]>,
}

/// Whether input in `from` can be cut (CESU-8, MUTF-8 and WTF-8 stay
/// sequential: their surrogate pairs make the rule less obvious, and
/// nothing tests one).
pub(super) fn supports(from: Form) -> bool {
    !matches!(from, Form::Cesu8 | Form::Mutf8 | Form::Wtf8)
}

/// Which conversion the regions go through.
#[derive(Clone, Copy)]
pub(super) enum Route<'a> {
    /// The Unicode forms' zero-copy pipeline (`encodings::pivot`).
    Native(Form, Form),
    /// The encodings crate's `Converter`, for a pair [`any_supports`]
    /// accepts.
    Any(encodings::Encoding, &'a Request),
}

/// Whether a conversion from `from` to `r.to` through the `Converter` can
/// be cut into regions converted apart: the input can be cut
/// (`Encoding::cut_near`: a single-byte page anywhere, UTF-8/16/32 between
/// characters) and the output encoder keeps no state from one character
/// to the next (all but UTF-7, ISO-2022-JP and the UTF-8 variants, left
/// out as nothing tests them here).
///
/// Of the multi-byte encodings, Shift_JIS, EUC-JP, EUC-KR and Big5 input
/// is cut before a byte below 0x40, GBK and gb18030 after one below 0x30
/// (`Encoding::cut_near`); ISO-2022-JP stays sequential.
pub(super) fn any_supports(from: encodings::Encoding, r: &Request) -> bool {
    let cuttable = (from.is_cuttable() && !from.is_unicode())
        || matches!(
            Form::of(from),
            Some(
                Form::Utf8
                    | Form::Utf16
                    | Form::Utf16Le
                    | Form::Utf16Be
                    | Form::Utf32
                    | Form::Utf32Le
                    | Form::Utf32Be
            )
        );
    // The single-byte pages' encoders and encoding_rs's Shift_JIS, EUC-JP,
    // EUC-KR, Big5, GBK and gb18030 ones keep no state between characters.
    let stateless = (r.to.is_cuttable() && !r.to.is_unicode())
        || matches!(
            Form::of(r.to),
            Some(
                Form::Utf8
                    | Form::Utf16
                    | Form::Utf16Le
                    | Form::Utf16Be
                    | Form::Utf32
                    | Form::Utf32Le
                    | Form::Utf32Be
            )
        );
    cuttable && stateless
}

/// What a worker tells the writer.
enum Msg {
    /// A region is converted, or stopped.
    Done(Done),
    /// A worker is unwinding from a panic: the region it held will never
    /// come, and the writer must not wait for it (the other workers keep
    /// their senders alive while they wait for jobs, so the channel would
    /// never close).
    Died,
}

/// Sends [`Msg::Died`] when the thread that owns it unwinds.
struct Alarm(mpsc::Sender<Msg>);

impl Drop for Alarm {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(Msg::Died);
        }
    }
}

/// One converted region, or why it stopped.
struct Done {
    index: usize,
    result: Result<(), Failure>,
    out: Vec<Piece>,
}

/// A buffer and how many of its bytes are output. Buffers only grow (their
/// length is the most they held), so a recycled one is not zeroed again
/// when an encoder writes into it.
type Piece = (Vec<u8>, usize);

/// Recycled buffers.
type Spare = Mutex<Vec<Vec<u8>>>;

/// A region's output as the buffers the pipe wrote into: the encoder's (or
/// the decoder's, for UTF-8 passed through) buffer is taken whole and
/// replaced by a spare one, so nothing is copied on the worker. Keeping the
/// bytes in a region-sized `Vec` instead cost 20% of the CPU time (a copy
/// of every output byte: 0.212 against 0.169 s for UTF-16LE to UTF-8 on the
/// 256 MiB file, 7 interleaved runs, load 6).
struct Pieces<'a> {
    pieces: Vec<Piece>,
    spare: &'a Spare,
}

impl Pieces<'_> {
    fn spare(&self) -> Vec<u8> {
        self.spare
            .lock()
            .ok()
            .and_then(|mut v| v.pop())
            .unwrap_or_default()
    }
}

impl Sink for Pieces<'_> {
    fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut buf = self.spare();
        if buf.len() < bytes.len() {
            buf.resize(bytes.len(), 0);
        }
        buf[..bytes.len()].copy_from_slice(bytes);
        self.pieces.push((buf, bytes.len()));
        Ok(())
    }

    fn owned(&mut self, buf: &mut Vec<u8>, len: usize) -> io::Result<()> {
        let mut mine = self.spare();
        std::mem::swap(buf, &mut mine);
        self.pieces.push((mine, len));
        Ok(())
    }
}

/// What converting a region needs, shared by the threads.
struct Work<'a> {
    file: &'a File,
    mapped: Option<&'a [u8]>,
    regions: &'a [(u64, u64)],
    args: &'a ConvertArgs,
    route: Route<'a>,
    /// The native decoder at the file's start, its byte order known.
    proto: &'a Decoder,
    /// The file's first bytes (the byte order of `UTF-16`/`UTF-32`).
    head: &'a [u8],
    cancel: &'a AtomicBool,
    spare: &'a Spare,
    bar: Option<&'a ProgressBar>,
}

impl<'a> Work<'a> {
    /// What a thread converts regions with: a native pipe keeps its
    /// buffers from region to region; the `Converter` route needs none.
    fn pipe(&self) -> Option<Pipe<'a>> {
        match self.route {
            Route::Native(from, to) => Some(Pipe::new(self.args, from, to, self.args.lossy)),
            Route::Any(..) => None,
        }
    }

    /// Converts region `index` with `pipe`.
    fn region(&self, pipe: &mut Option<Pipe<'_>>, index: usize) -> Done {
        let (start, end) = self.regions[index];
        let mut out = Pieces {
            pieces: Vec::new(),
            spare: self.spare,
        };
        // A failed region's error is never shown (`after_failure` converts
        // again), so it needs no line and column.
        let result = self.range(
            pipe,
            start,
            end,
            Some(self.cancel),
            self.bar,
            false,
            &mut out,
        );
        Done {
            index,
            result,
            out: out.pieces,
        }
    }

    /// Converts `[start, end)` of the file with `pipe` into `out`, from the
    /// mapping or with positioned reads; `lines`: the `Converter`'s errors
    /// name their line and column.
    #[allow(clippy::too_many_arguments)]
    fn range(
        &self,
        pipe: &mut Option<Pipe<'_>>,
        start: u64,
        end: u64,
        cancel: Option<&AtomicBool>,
        bar: Option<&ProgressBar>,
        lines: bool,
        out: &mut dyn Sink,
    ) -> Result<(), Failure> {
        let mut convert = |input: Input<'_>| match (self.route, pipe.as_mut()) {
            (Route::Native(..), Some(pipe)) => {
                let decoder = self.proto.clone().resumed_at(start);
                pipe.run(decoder, input, out, start)
            }
            (Route::Any(from, request), _) => {
                let region = (start > 0).then_some((start, self.head));
                any::run(self.args, from, request, input, out, region, lines)
            }
            (Route::Native(..), None) => Err(Failure::Io(io::Error::other(
                "internal error: a native region without a pipe",
            ))),
        };
        match self.mapped {
            Some(bytes) => {
                let bytes = Bytes {
                    bytes: &bytes[start as usize..end as usize],
                    bar,
                    cancel,
                };
                convert(Input::Bytes(bytes))
            }
            None => {
                let never = AtomicBool::new(false);
                let cancel = cancel.unwrap_or(&never);
                let mut reader = RangeReader::new(self.file, start, end, cancel, bar);
                match convert(Input::Read(&mut reader)) {
                    Ok(()) if reader.position() != end => Err(Failure::Io(shrank())),
                    r => r,
                }
            }
        }
    }

    /// The sequential run's output and error after a region failed: a
    /// native pipe restarts at the region (its errors' offsets are
    /// absolute and it names no line), the `Converter` from the file's
    /// start (its line and column count from where it started), its first
    /// `written` bytes of output, written already, dropped.
    fn after_failure(
        &self,
        index: usize,
        written: u64,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let start = self.regions[index].0;
        let end = self.regions.last().map_or(start, |r| r.1);
        match self.route {
            Route::Native(..) => {
                let mut pipe = self.pipe();
                self.range(&mut pipe, start, end, None, None, true, &mut WriteSink(out))
            }
            Route::Any(..) => {
                let mut out = Skip { skip: written, out };
                self.range(
                    &mut None,
                    0,
                    end,
                    None,
                    None,
                    true,
                    &mut WriteSink(&mut out),
                )
            }
        }
    }
}

/// A writer that drops the first `skip` bytes.
struct Skip<'a> {
    skip: u64,
    out: &'a mut dyn Write,
}

impl Write for Skip<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let drop = usize::try_from(self.skip)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        self.skip -= drop as u64;
        self.out.write_all(&buf[drop..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Converts `file` on `plan.jobs` threads into `out`, in order.
pub(super) fn convert(
    args: &ConvertArgs,
    route: Route<'_>,
    file: &File,
    plan: Plan<'_>,
    bar: Option<&ProgressBar>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let (len, mapped) = (plan.len, plan.mapped);
    let mut head = [0u8; 4];
    let got = regions::read_exact_at(file, &mut head, 0)?;
    let head = &head[..got];
    let (from, native_from) = match route {
        Route::Native(from, _) => (from.encoding(), from),
        Route::Any(from, _) => (from, Form::Utf8),
    };
    // The native decoders of every region read with the file's byte order.
    let mut proto = Decoder::new(native_from, args.lossy);
    let _ = proto.byte_order(head);
    let can = match route {
        Route::Native(from, _) => supports(from),
        Route::Any(from, request) => any_supports(from, request),
    };
    if !can {
        return Err(Failure::Io(io::Error::other(format!(
            "internal error: {} cannot be cut",
            from.name()
        ))));
    }
    let count = len
        .div_ceil(REGION_BYTES)
        .max(plan.jobs as u64 * REGIONS_PER_JOB);
    let cuts = regions::cuts(file, len, count, from, head)?;
    let regions: Vec<(u64, u64)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
    let window = 2 * plan.jobs;
    let cancel = AtomicBool::new(false);
    // Recycled output buffers.
    let spare: Spare = Mutex::new(Vec::new());
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let job_rx = Mutex::new(job_rx);
    let work = Work {
        file,
        mapped,
        regions: &regions,
        args,
        route,
        proto: &proto,
        head,
        cancel: &cancel,
        spare: &spare,
        bar,
    };
    std::thread::scope(|s| {
        let (done_tx, done_rx) = mpsc::channel::<Msg>();
        let mut workers = Vec::new();
        // One thread fewer than jobs: this one converts too, whenever the
        // next region to write is not ready (see `write_in_order`).
        for _ in 0..plan.jobs.saturating_sub(1).max(1).min(regions.len()) {
            let done_tx = done_tx.clone();
            let alarm = Alarm(done_tx.clone());
            let (work, job_rx) = (&work, &job_rx);
            workers.push(s.spawn(move || {
                let _alarm = alarm;
                let mut pipe = work.pipe();
                loop {
                    let next = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok(index) = next else { break };
                    if work.cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let done = work.region(&mut pipe, index);
                    if done_tx.send(Msg::Done(done)).is_err() {
                        break;
                    }
                }
            }));
        }
        drop(done_tx);
        let mut sent = 0;
        while sent < regions.len().min(window) {
            let _ = job_tx.send(sent);
            sent += 1;
        }
        let mut here: Option<Option<Pipe<'_>>> = None;
        let result = write_in_order(
            &work,
            &done_rx,
            |done| {
                if let Ok(mut v) = spare.lock() {
                    v.extend(done.into_iter().map(|(buf, _)| buf));
                }
                if sent < regions.len() {
                    let _ = job_tx.send(sent);
                    sent += 1;
                }
            },
            || {
                // A region handed out and not yet taken by a worker. Not
                // `lock`: a worker waiting for work holds the lock while it
                // waits, and the work comes from this thread.
                let index = job_rx.try_lock().ok()?.try_recv().ok()?;
                let pipe = here.get_or_insert_with(|| work.pipe());
                Some(work.region(pipe, index))
            },
            out,
        );
        // Stop the workers (after an error), then join them here: a panic
        // becomes an error instead of the scope's panic.
        cancel.store(true, Ordering::Relaxed);
        drop(job_tx);
        let panicked = workers.into_iter().any(|w| w.join().is_err());
        if panicked && result.is_ok() {
            return Err(stopped());
        }
        result
    })
}

/// Receives the regions' outputs and writes them in file order; `written`
/// gets each buffer back and hands out the next region.
#[allow(clippy::too_many_arguments)]
fn write_in_order(
    work: &Work<'_>,
    done_rx: &mpsc::Receiver<Msg>,
    mut written: impl FnMut(Vec<Piece>),
    mut convert_here: impl FnMut() -> Option<Done>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut ready: BTreeMap<usize, Done> = BTreeMap::new();
    // Output bytes written so far.
    let mut total = 0u64;
    for k in 0..work.regions.len() {
        let done = loop {
            if let Some(d) = ready.remove(&k) {
                break d;
            }
            match done_rx.try_recv() {
                Ok(Msg::Done(d)) => {
                    ready.insert(d.index, d);
                    continue;
                }
                Ok(Msg::Died) | Err(mpsc::TryRecvError::Disconnected) => return Err(stopped()),
                Err(mpsc::TryRecvError::Empty) => {}
            }
            // Nothing to write yet: convert a region here rather than
            // sleep until a worker wakes this thread (on two cores, a
            // writer that only waits was a third thread, and its wake-ups
            // and the workers' were a tenth of the CPU time).
            if let Some(d) = convert_here() {
                ready.insert(d.index, d);
                continue;
            }
            match done_rx.recv() {
                Ok(Msg::Done(d)) => {
                    ready.insert(d.index, d);
                }
                Ok(Msg::Died) | Err(_) => return Err(stopped()),
            }
        };
        match done.result {
            Ok(()) => {
                write_pieces(out, &done.out)?;
                total += done.out.iter().map(|(_, len)| *len as u64).sum::<u64>();
                written(done.out);
            }
            Err(Failure::Data(_) | Failure::Message(_)) => {
                // The sequential run's error and output, from this region
                // on (see the module docs).
                return work.after_failure(k, total, out);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes the pieces in order, gathered: a `BufWriter` copies a write
/// smaller than its buffer (the pieces are chunk-sized, about as large as
/// stdout's 256 KiB buffer) but passes a larger gathered one straight on,
/// and the copy was 16% of the instructions of UTF-8 to UTF-16LE
/// (callgrind, 32 MiB).
fn write_pieces(out: &mut dyn Write, pieces: &[Piece]) -> io::Result<()> {
    let mut slices: Vec<io::IoSlice<'_>> = pieces
        .iter()
        .map(|(buf, len)| io::IoSlice::new(&buf[..*len]))
        .filter(|s| !s.is_empty())
        .collect();
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match out.write_vectored(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => io::IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The error when a worker thread died (a bug: the workers do not panic by
/// design).
fn stopped() -> Failure {
    Failure::Io(io::Error::other(
        "internal error: a conversion thread stopped",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn alarm_reports_a_panicking_thread_only() {
        let (tx, rx) = mpsc::channel::<Msg>();
        let calm = Alarm(tx.clone());
        std::thread::spawn(move || drop(calm)).join().unwrap();
        let doomed = Alarm(tx);
        let joined = std::thread::spawn(move || {
            let _alarm = doomed;
            panic!("a worker's bug");
        })
        .join();
        assert!(joined.is_err());
        let died = rx.iter().filter(|m| matches!(m, Msg::Died)).count();
        assert_eq!(died, 1);
    }

    /// The writer stops at a dead worker's message instead of waiting for a
    /// region that will never come (the senders of the live workers keep
    /// the channel open, so without the message it would wait forever).
    #[test]
    fn the_writer_stops_when_a_worker_dies() {
        let Command::Convert(args) =
            Cli::parse_from(["codec", "convert", "-f", "utf-8", "-t", "utf-16le"]).command
        else {
            panic!("not a convert command");
        };
        let file = tempfile::tempfile().unwrap();
        let regions = [(0, 1), (1, 2), (2, 3)];
        let proto = Decoder::new(Form::Utf8, false);
        let (tx, rx) = mpsc::channel::<Msg>();
        let live_worker = tx.clone();
        tx.send(Msg::Done(Done {
            index: 0,
            result: Ok(()),
            out: vec![(b"a".to_vec(), 1)],
        }))
        .unwrap();
        tx.send(Msg::Died).unwrap();
        let (cancel, spare) = (AtomicBool::new(false), Spare::default());
        let work = Work {
            file: &file,
            mapped: None,
            regions: &regions,
            args: &args,
            route: Route::Native(Form::Utf8, Form::Utf16Le),
            proto: &proto,
            head: &[],
            cancel: &cancel,
            spare: &spare,
            bar: None,
        };
        let (got, out) = std::thread::scope(|s| {
            let (res_tx, res_rx) = mpsc::channel();
            let work = &work;
            s.spawn(move || {
                let mut out = Vec::new();
                let got = write_in_order(work, &rx, |_| {}, || None, &mut out);
                let _ = res_tx.send((matches!(got, Err(Failure::Io(_))), out));
            });
            let got = res_rx.recv_timeout(std::time::Duration::from_secs(30));
            // Unblocks a writer that did wait, so the scope can end.
            drop((tx, live_worker));
            got.expect("the writer still waits for the dead worker's region")
        });
        assert!(got, "the writer did not return an I/O error");
        assert_eq!(
            out, b"a",
            "the regions before the dead worker's are written"
        );
    }
}
