//! utf8-table (Thompson's Plan 9 table codec) next to its std peers.
//!
//! Groups, each with std in the same group so ratios come from one run:
//!
//! - `utf8-table-validate`: `utf8_table::validate` (and `from_utf8`, which
//!   validates twice because the crate forbids `unsafe`) vs
//!   `core::str::from_utf8`.
//! - `utf8-table-decode`: iterating code points (`code_points::<Strict>` and
//!   `::<Legacy>`) vs `str::chars`, summing the values. `chars` runs on a
//!   `&str` and does not validate, so `std-from_utf8-chars` (validate, then
//!   `chars`) is the like-for-like peer for bytes.
//! - `utf8-table-encode`: writing every `char` of the text with
//!   `encode_char` and `encode::<Strict>` vs `char::encode_utf8`.
//!
//! Inputs: lipsum texts cut to 64 KiB at a character boundary, and synthetic
//! 64 KiB texts of 2-, 3- or 4-byte characters, or of random widths.
//! Results: `docs/results/utf8-table.md`.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use codec_facade::utf8_table::{self, Legacy, Strict};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng, rngs::StdRng};

const SIZE: usize = 64 * 1024;

/// `text` repeated and cut to at most `SIZE` bytes on a character boundary.
fn cut(text: &str) -> String {
    let mut s = text.repeat(SIZE / text.len() + 1);
    let mut end = SIZE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

/// Random characters of uniformly random width (1 to 4 bytes), so that the
/// branch on the length cannot be predicted.
fn random_widths(seed: u64) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut s = String::with_capacity(SIZE + 4);
    while s.len() + 4 <= SIZE {
        let range = match rng.random_range(1..=4) {
            1 => 0x20..0x7F,
            2 => 0x80..0x800,
            3 => 0x800..0x1_0000,
            _ => 0x1_0000..0x11_0000,
        };
        if let Some(c) = char::from_u32(rng.random_range(range)) {
            s.push(c);
        }
    }
    s
}

fn inputs() -> Vec<(&'static str, String)> {
    let lipsum = |bytes: &'static [u8]| cut(std::str::from_utf8(bytes).expect("lipsum is UTF-8"));
    vec![
        (
            "Latin-64KiB",
            lipsum(include_bytes!("../data/lipsum/Latin-Lipsum.utf8.txt")),
        ),
        (
            "Arabic-64KiB",
            lipsum(include_bytes!("../data/lipsum/Arabic-Lipsum.utf8.txt")),
        ),
        (
            "Chinese-64KiB",
            lipsum(include_bytes!("../data/lipsum/Chinese-Lipsum.utf8.txt")),
        ),
        (
            "Emoji-64KiB",
            lipsum(include_bytes!("../data/lipsum/Emoji-Lipsum.utf8.txt")),
        ),
        ("2byte-64KiB", cut("é")),
        ("3byte-64KiB", cut("吕")),
        ("4byte-64KiB", cut("😀")),
        ("random-len-64KiB", random_widths(0x5415)),
    ]
}

fn validate(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-table-validate");
    for (label, text) in inputs() {
        let bytes = text.as_bytes();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-table", label), bytes, |b, s| {
            b.iter(|| utf8_table::validate(black_box(s)).is_ok())
        });
        g.bench_with_input(
            BenchmarkId::new("utf8-table-from_utf8", label),
            bytes,
            |b, s| b.iter(|| utf8_table::from_utf8(black_box(s)).is_ok()),
        );
        g.bench_with_input(BenchmarkId::new("std", label), bytes, |b, s| {
            b.iter(|| core::str::from_utf8(black_box(s)).is_ok())
        });
    }
    g.finish();
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-table-decode");
    for (label, text) in inputs() {
        let bytes = text.as_bytes();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-table", label), bytes, |b, s| {
            b.iter(|| {
                utf8_table::code_points::<Strict>(black_box(s))
                    .map(|r| r.unwrap_or(0xFFFD))
                    .fold(0u32, u32::wrapping_add)
            })
        });
        g.bench_with_input(
            BenchmarkId::new("utf8-table-legacy", label),
            bytes,
            |b, s| {
                b.iter(|| {
                    utf8_table::code_points::<Legacy>(black_box(s))
                        .map(|r| r.unwrap_or(0xFFFD))
                        .fold(0u32, u32::wrapping_add)
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("std", label), text.as_str(), |b, s| {
            b.iter(|| {
                black_box(s)
                    .chars()
                    .map(u32::from)
                    .fold(0u32, u32::wrapping_add)
            })
        });
        // `chars` trusts its `&str`; from bytes, std must validate first.
        g.bench_with_input(
            BenchmarkId::new("std-from_utf8-chars", label),
            bytes,
            |b, s| {
                b.iter(|| {
                    core::str::from_utf8(black_box(s))
                        .map(|t| t.chars().map(u32::from).fold(0u32, u32::wrapping_add))
                        .unwrap_or(0)
                })
            },
        );
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-table-encode");
    for (label, text) in inputs() {
        let chars: Vec<char> = text.chars().collect();
        let values: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
        let mut out = vec![0u8; text.len()];
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(BenchmarkId::new("utf8-table", label), |b| {
            b.iter(|| {
                let out = black_box(&mut out[..]);
                let mut pos = 0;
                for &v in black_box(&values[..]) {
                    pos += utf8_table::encode::<Strict>(v, &mut out[pos..]).unwrap_or(0);
                }
                pos
            })
        });
        g.bench_function(BenchmarkId::new("utf8-table-char", label), |b| {
            b.iter(|| {
                let out = black_box(&mut out[..]);
                let mut pos = 0;
                for &c in black_box(&chars[..]) {
                    pos += utf8_table::encode_char(c, &mut out[pos..]).unwrap_or(0);
                }
                pos
            })
        });
        g.bench_function(BenchmarkId::new("std", label), |b| {
            b.iter(|| {
                let out = black_box(&mut out[..]);
                let mut pos = 0;
                for &c in black_box(&chars[..]) {
                    pos += c.encode_utf8(&mut out[pos..]).len();
                }
                pos
            })
        });
    }
    g.finish();
}

criterion_group!(group, validate, decode, encode);
criterion_main!(group);
