//! `cargo xtask exhaustive`: proofs by enumeration, on every core.
//!
//! ```text
//! cargo xtask exhaustive            everything, including all 2^32 4-byte inputs
//! cargo xtask exhaustive --quick    the CI subset (see below)
//! cargo xtask exhaustive --threads N
//! ```
//!
//! What is enumerated, and against which oracle:
//!
//! - **UTF-8 validation**: every validator and entry point (the list is in
//!   [`crate::exhaustive_codecs`]) equals `core::str::from_utf8` — same
//!   `valid_up_to`, `error_len` and so kind — on every byte sequence of 1, 2
//!   and 3 bytes and on all 2^32 sequences of 4 bytes. The entry points with
//!   a block, word or vector loop also see each sequence of up to 3 bytes,
//!   and each 4-byte sequence whose last two bytes are class boundaries
//!   ([`BOUNDARY_BYTES`]), placed across a 64-byte block boundary and at the
//!   very end of a block inside ASCII, since a 4-byte input alone never
//!   reaches a vector loop.
//! - **Scalar values**: every `char` round-trips through every encoder and
//!   decoder, and legacy mode round-trips every value up to 0x7FFF_FFFF.
//! - **Integers**: zigzag is a bijection on all of i8 and i16 and round-trips
//!   the edges of i32, i64 and i128; varint round-trips every u16 value and
//!   the boundaries 2^(7k) − 1 and 2^(7k) of every width, strict and lenient.
//!
//! The full run also runs the `#[ignore]`d tests of [`IGNORED_TEST_CRATES`]
//! (the block-boundary enumeration of every kernel, and the streaming API
//! on an input of more than 4 GiB).
//!
//! `--quick` (the CI subset) keeps every check but cuts the 4-byte space to
//! the part where the answer can depend on all four bytes — every sequence
//! whose first byte is F0–F4 (5 × 2^24) plus the boundary set above
//! (256 × 256 × 18²) — and legacy mode to 0..=0x10_FFFF plus the edges of
//! its 5- and 6-byte rows. On two idle cores it takes about a minute, the
//! full run about 22; the measurements are in `docs/reliability.md`.
//!
//! Work is split into chunks handed to one thread per core through an atomic
//! counter; the first failure stops every thread and is reported with its
//! input.

use crate::exhaustive_codecs as codecs;
use crate::util::Result;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The crates whose `#[ignore]`d tests the full run runs.
const IGNORED_TEST_CRATES: &[&str] = &["utf8-simd"];

/// Bytes at the edges of the UTF-8 byte classes, for the quick subset.
pub(crate) const BOUNDARY_BYTES: [u8; 18] = [
    0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xEF, 0xF0, 0xF4,
    0xF5, 0xFF,
];

struct Options {
    quick: bool,
    threads: usize,
}

pub(crate) fn run(args: &[String]) -> Result {
    let mut opts = Options {
        quick: false,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--threads" => {
                opts.threads = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--threads needs a positive number")?;
            }
            other => return Err(format!("exhaustive: unknown option {other:?}")),
        }
    }
    let start = Instant::now();
    eprintln!(
        "xtask exhaustive: {} run on {} threads",
        if opts.quick { "quick" } else { "full" },
        opts.threads
    );
    let names: Vec<&str> = codecs::utf8_validators()
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    eprintln!("  UTF-8 validators: {}", names.join(", "));
    for skipped in codec_testdata::registry::utf8_skipped() {
        eprintln!("  skipped on this CPU: {skipped}");
    }

    timed(
        "UTF-8, every sequence of 1 to 3 bytes, alone and in blocks",
        || {
            par_chunks(opts.threads, 256, 1, |a| {
                let mut buf = [0u8; 3];
                buf[0] = a as u8;
                codecs::check_utf8(&buf[..1], true, true)?;
                for b in 0..=255u8 {
                    buf[1] = b;
                    codecs::check_utf8(&buf[..2], true, true)?;
                    for c in 0..=255u8 {
                        buf[2] = c;
                        codecs::check_utf8(&buf[..3], true, true)?;
                    }
                }
                Ok(())
            })
        },
    )?;

    timed(
        "UTF-8, 4-byte sequences with bytes 3 and 4 at class boundaries, alone and in blocks",
        || {
            par_chunks(opts.threads, 1 << 16, 16, |i| {
                let (a, b) = ((i >> 8) as u8, i as u8);
                for c in BOUNDARY_BYTES {
                    for d in BOUNDARY_BYTES {
                        codecs::check_utf8(&[a, b, c, d], true, false)?;
                    }
                }
                Ok(())
            })
        },
    )?;

    if opts.quick {
        timed("UTF-8, every 4-byte sequence with lead F0..F4", || {
            par_chunks(opts.threads, 5 * 256, 1, |i| {
                let (a, b) = (0xF0 + (i >> 8) as u8, i as u8);
                for c in 0..=255u8 {
                    for d in 0..=255u8 {
                        codecs::check_utf8(&[a, b, c, d], false, false)?;
                    }
                }
                Ok(())
            })
        })?;
    } else {
        timed("UTF-8, all 2^32 sequences of 4 bytes", || {
            // One work item is one (first, second) byte pair: 65,536 inputs.
            let t = Instant::now();
            par_chunks(opts.threads, 1 << 16, 1, |i| {
                let (a, b) = ((i >> 8) as u8, i as u8);
                for c in 0..=255u8 {
                    for d in 0..=255u8 {
                        codecs::check_utf8(&[a, b, c, d], false, false)?;
                    }
                }
                // Progress every 1/64 of the space (by first byte).
                if i % 1024 == 1023 {
                    eprintln!(
                        "    first bytes up to {a:02X} handed out, {:.0?}",
                        t.elapsed()
                    );
                }
                Ok(())
            })
        })?;
    }

    timed(
        "every scalar value through every encoder and decoder",
        || {
            par_chunks(opts.threads, 0x11_0000, 1 << 12, |cp| {
                codecs::check_scalar(cp as u32)
            })
        },
    )?;

    if opts.quick {
        timed(
            "legacy mode, every value up to 0x10FFFF and the 5/6-byte edges",
            || {
                par_chunks(opts.threads, 0x11_0000, 1 << 12, |v| {
                    codecs::check_legacy(v as u32)
                })?;
                for v in codecs::legacy_edges() {
                    codecs::check_legacy(v)?;
                }
                Ok(())
            },
        )?;
    } else {
        timed("legacy mode, every value up to 0x7FFFFFFF", || {
            par_chunks(opts.threads, 0x8000_0000, 1 << 16, |v| {
                codecs::check_legacy(v as u32)
            })
        })?;
    }

    timed(
        "zigzag: bijection on i8 and i16, edges of i32, i64, i128",
        codecs::check_zigzag,
    )?;
    timed(
        "varint: every u16, and 2^(7k) - 1, 2^(7k) of every width",
        codecs::check_varint,
    )?;
    if !opts.quick {
        // The tests too slow (or too large) for `cargo test`: every 1- to
        // 3-byte sequence across block boundaries for every kernel, and the
        // streaming API on an input of more than 4 GiB.
        for c in IGNORED_TEST_CRATES {
            timed(&format!("the ignored tests of {c}"), || {
                crate::util::cargo(&["test", "-p", c, "--", "--ignored"])
            })?;
        }
    }

    eprintln!(
        "xtask exhaustive: every check passed in {:.1?}",
        start.elapsed()
    );
    Ok(())
}

/// Runs `f`, printing how long it took: wall-clock time, and the CPU time of
/// all threads, which on a shared machine says what the wall time would be
/// on idle cores (divide by the thread count).
fn timed(what: &str, f: impl FnOnce() -> Result) -> Result {
    let t = Instant::now();
    let cpu = cpu_seconds();
    eprintln!("  {what} ...");
    f().map_err(|e| format!("{what}: {e}"))?;
    let cpu = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => format!(", {:.1} s CPU", b - a),
        _ => String::new(),
    };
    eprintln!("  {what}: ok in {:.1?}{cpu}", t.elapsed());
    Ok(())
}

/// User plus system CPU time of this process so far, from `/proc/self/stat`
/// (Linux; fields 14 and 15, in clock ticks of 1/100 s, the value of
/// `sysconf(_SC_CLK_TCK)` on every Linux platform we run on). `None`
/// elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may contain spaces; count from after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Calls `f(i)` for every `i` in `0..total` on `threads` threads, handing out
/// `chunk` consecutive values at a time. Stops at the first error and returns
/// it.
pub(crate) fn par_chunks(
    threads: usize,
    total: u64,
    chunk: u64,
    f: impl Fn(u64) -> Result + Sync,
) -> Result {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let lo = next.fetch_add(chunk, Ordering::Relaxed);
                    if lo >= total {
                        break;
                    }
                    for i in lo..(lo + chunk).min(total) {
                        if let Err(e) = f(i) {
                            stop.store(true, Ordering::Relaxed);
                            let mut slot = error.lock().unwrap_or_else(|p| p.into_inner());
                            slot.get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    match error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_chunks_visits_everything_once() {
        let sum = AtomicU64::new(0);
        par_chunks(3, 10_001, 7, |i| {
            sum.fetch_add(i, Ordering::Relaxed);
            Ok(())
        })
        .unwrap();
        assert_eq!(sum.into_inner(), 10_000 * 10_001 / 2);
    }

    #[test]
    fn cpu_time_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let a = cpu_seconds().expect("/proc/self/stat");
            let mut x = 0u64;
            for i in 0..50_000_000u64 {
                x = std::hint::black_box(x.wrapping_add(i));
            }
            assert!(cpu_seconds().unwrap() >= a, "{x}");
        }
    }

    #[test]
    fn par_chunks_reports_a_failure() {
        let r = par_chunks(2, 1000, 10, |i| {
            if i == 567 {
                Err(format!("bad {i}"))
            } else {
                Ok(())
            }
        });
        assert_eq!(r, Err("bad 567".to_string()));
    }
}
