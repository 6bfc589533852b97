//! Benchmarks of `utf8-dfa` against its peers: std, simdutf8 and bstr for
//! validation, `String::from_utf8_lossy` for lossy conversion.
//!
//! Inputs: the nine lipsum texts (`benches/data/lipsum/`, 64–100 KiB) and
//! synthetic text at 64 KiB made of 1-, 2-, 3- or 4-byte characters, or of
//! characters of uniformly random length; plus short inputs, because
//! utf8-simd uses `utf8_dfa::validate` for its tails.
//!
//! Run with `cargo bench -p benches --bench utf8_dfa`; the ratios are kept
//! in `docs/results/utf8-dfa.md`.

use std::hint::black_box;

use codec_facade::utf8_dfa;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng, rngs::StdRng};

const LIPSUM: &[(&str, &[u8])] = &[
    (
        "Arabic",
        include_bytes!("../data/lipsum/Arabic-Lipsum.utf8.txt"),
    ),
    (
        "Chinese",
        include_bytes!("../data/lipsum/Chinese-Lipsum.utf8.txt"),
    ),
    (
        "Emoji",
        include_bytes!("../data/lipsum/Emoji-Lipsum.utf8.txt"),
    ),
    (
        "Hebrew",
        include_bytes!("../data/lipsum/Hebrew-Lipsum.utf8.txt"),
    ),
    (
        "Hindi",
        include_bytes!("../data/lipsum/Hindi-Lipsum.utf8.txt"),
    ),
    (
        "Japanese",
        include_bytes!("../data/lipsum/Japanese-Lipsum.utf8.txt"),
    ),
    (
        "Korean",
        include_bytes!("../data/lipsum/Korean-Lipsum.utf8.txt"),
    ),
    (
        "Latin",
        include_bytes!("../data/lipsum/Latin-Lipsum.utf8.txt"),
    ),
    (
        "Russian",
        include_bytes!("../data/lipsum/Russian-Lipsum.utf8.txt"),
    ),
];

/// Valid UTF-8 of at most `len` bytes (cut at a character boundary) whose
/// characters have uniformly random lengths 1 to 4.
fn random_len(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let ranges = [0..0x80, 0x80..0x800, 0x800..0xD800, 0x1_0000..0x11_0000];
    let mut s = String::with_capacity(len + 4);
    loop {
        let r = ranges[rng.random_range(0..4)].clone();
        let c = char::from_u32(rng.random_range(r)).unwrap_or('?');
        if s.len() + c.len_utf8() > len {
            return s.into_bytes();
        }
        s.push(c);
    }
}

/// Valid UTF-8 of at most `len` bytes of `width`-byte characters.
fn synthetic(len: usize, width: usize) -> Vec<u8> {
    let mut v = benches::synthetic_utf8(len, width);
    while v.len() > len {
        v.truncate(v.len() - width);
    }
    v
}

/// The 64 KiB inputs: lipsum texts and synthetic classes.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = LIPSUM
        .iter()
        .map(|(name, text)| (format!("{name}-64KiB"), text.to_vec()))
        .collect();
    for (width, name) in [(1, "ascii"), (2, "2byte"), (3, "3byte"), (4, "4byte")] {
        v.push((format!("{name}-64KiB"), synthetic(64 * 1024, width)));
    }
    v.push(("random-len-64KiB".into(), random_len(64 * 1024, 1)));
    v
}

/// Short inputs, as the tails utf8-simd hands to the DFA.
fn short_inputs() -> Vec<(String, Vec<u8>)> {
    vec![
        ("ascii-15B".into(), synthetic(15, 1)),
        ("random-len-15B".into(), random_len(15, 2)),
        ("ascii-64B".into(), synthetic(64, 1)),
        ("random-len-64B".into(), random_len(64, 3)),
        ("random-len-1KiB".into(), random_len(1024, 4)),
    ]
}

fn validate(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-dfa-validate");
    for (label, input) in inputs().iter().chain(&short_inputs()) {
        assert!(std::str::from_utf8(input).is_ok(), "{label}");
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-dfa", label), input, |b, i| {
            b.iter(|| utf8_dfa::validate(black_box(i)).is_ok())
        });
        g.bench_with_input(BenchmarkId::new("std", label), input, |b, i| {
            b.iter(|| std::str::from_utf8(black_box(i)).is_ok())
        });
        g.bench_with_input(BenchmarkId::new("simdutf8-compat", label), input, |b, i| {
            b.iter(|| simdutf8::compat::from_utf8(black_box(i)).is_ok())
        });
        g.bench_with_input(BenchmarkId::new("bstr", label), input, |b, i| {
            b.iter(|| bstr::ByteSlice::to_str(black_box(&i[..])).is_ok())
        });
    }
    g.finish();
}

/// `from_utf8` returns a `&str`: the unchecked conversion after our own
/// validation, against the safe route (validate, then std converts and so
/// validates again), which is what the crate's one `unsafe` block saves.
fn from_utf8(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-dfa-from-utf8");
    let all = inputs();
    for (label, input) in all
        .iter()
        .filter(|(l, _)| ["Chinese-64KiB", "Latin-64KiB", "random-len-64KiB"].contains(&l.as_str()))
    {
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-dfa", label), input, |b, i| {
            b.iter(|| utf8_dfa::from_utf8(black_box(i)).map(str::len))
        });
        g.bench_with_input(
            BenchmarkId::new("utf8-dfa-safe-route", label),
            input,
            |b, i| {
                b.iter(|| {
                    let i = black_box(i);
                    utf8_dfa::validate(i)
                        .ok()
                        .and_then(|()| std::str::from_utf8(i).ok())
                        .map(str::len)
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("std", label), input, |b, i| {
            b.iter(|| std::str::from_utf8(black_box(i)).map(str::len))
        });
    }
    g.finish();
}

/// Lossy conversion of the same inputs, valid and with one byte in 256
/// replaced by `FF`.
fn lossy(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-dfa-lossy");
    for (label, input) in inputs() {
        let mut corrupt = input.clone();
        for i in (100..corrupt.len()).step_by(256) {
            corrupt[i] = 0xFF;
        }
        let corrupt_label = label.replace("-64KiB", "-corrupt-64KiB");
        for (label, input) in [(label, input), (corrupt_label, corrupt)] {
            g.throughput(Throughput::Bytes(input.len() as u64));
            g.bench_with_input(BenchmarkId::new("utf8-dfa", &label), &input, |b, i| {
                b.iter(|| utf8_dfa::to_string_lossy(black_box(i)).len())
            });
            g.bench_with_input(BenchmarkId::new("std", &label), &input, |b, i| {
                b.iter(|| String::from_utf8_lossy(black_box(i)).len())
            });
        }
    }
    g.finish();
}

criterion_group!(group, validate, from_utf8, lossy);
criterion_main!(group);
