//! utf8-simd against std and simdutf8, side by side in one group per
//! operation:
//!
//! - `utf8-simd-validate`: exact errors. `utf8-simd` (`validate`), `std`
//!   (`core::str::from_utf8`), `simdutf8-compat` (`compat::from_utf8`).
//! - `utf8-simd-is-valid`: a yes or no. `utf8-simd` (`is_valid`),
//!   `simdutf8-basic` (`basic::from_utf8`).
//! - `utf8-simd-short`: every length from 1 to 64 bytes, to pick the fastest
//!   exact path for short input. `utf8-simd` (`validate`), `std`, and every
//!   kernel of the registry that this CPU can run (`kernel-avx2`, ...).
//! - `utf8-simd-stream`: the streaming `Validator` over 4 KiB chunks against
//!   one-shot `validate`.
//!
//! Inputs: the nine lipsum texts and synthetic classes (`ascii`, `2byte`,
//! `3byte`, `4byte`, `random-len`: characters of uniformly random encoded
//! length), at 16 B, 64 B, 1 KiB, 64 KiB and 1 MiB: texts are repeated to
//! reach the size and cut at the last character boundary at or below it.
//! The build targets plain x86-64, so `utf8-simd` is the run-time dispatch
//! (AVX-512 on CPUs that have it, else AVX2). Every SIMD kernel of the
//! registry (`utf8_simd::kernels()`) this CPU can run is also measured by
//! name (`kernel-avx2`, `kernel-avx512`, ...), so the AVX2 kernel is
//! measured on AVX-512 machines too.

use codec_facade::utf8_simd::{self, KernelValidator, Utf8Validator, Validator};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

mod utf8_simd_inputs;

use utf8_simd_inputs::{LIPSUM, inputs, sized};

/// Every SIMD kernel this CPU can run, by registry name (the portable one,
/// utf8-dfa, has its own benchmarks).
fn simd_kernels() -> Vec<(String, KernelValidator)> {
    utf8_simd::kernels()
        .iter()
        .filter(|k| k.name() != "portable")
        .filter_map(|k| Some((format!("kernel-{}", k.name()), k.validator()?)))
        .collect()
}

fn validate(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-simd-validate");
    let kernels = simd_kernels();
    for (label, input) in inputs() {
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-simd", &label), &input, |b, i| {
            b.iter(|| utf8_simd::validate(black_box(i)).is_ok())
        });
        g.bench_with_input(BenchmarkId::new("std", &label), &input, |b, i| {
            b.iter(|| core::str::from_utf8(black_box(i)).is_ok())
        });
        g.bench_with_input(
            BenchmarkId::new("simdutf8-compat", &label),
            &input,
            |b, i| b.iter(|| simdutf8::compat::from_utf8(black_box(i)).is_ok()),
        );
        for (name, k) in &kernels {
            g.bench_with_input(BenchmarkId::new(name, &label), &input, |b, i| {
                b.iter(|| k.validate(black_box(i)).is_ok())
            });
        }
    }
    g.finish();
}

fn is_valid(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-simd-is-valid");
    let kernels = simd_kernels();
    for (label, input) in inputs() {
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-simd", &label), &input, |b, i| {
            b.iter(|| utf8_simd::is_valid(black_box(i)))
        });
        g.bench_with_input(
            BenchmarkId::new("simdutf8-basic", &label),
            &input,
            |b, i| b.iter(|| simdutf8::basic::from_utf8(black_box(i)).is_ok()),
        );
        for (name, k) in &kernels {
            g.bench_with_input(BenchmarkId::new(name, &label), &input, |b, i| {
                b.iter(|| k.is_valid(black_box(i)))
            });
        }
    }
    g.finish();
}

fn short(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-simd-short");
    let kernels = simd_kernels();
    for (name, text) in [
        ("ascii", "The quick brown fox. "),
        ("2byte", "é"),
        ("3byte", "吕"),
    ] {
        for size in [1, 2, 4, 8, 12, 16, 24, 32, 48, 63, 64] {
            let input = sized(text, size);
            let label = format!("{name}-{size}B");
            g.throughput(Throughput::Bytes(input.len() as u64));
            g.bench_with_input(BenchmarkId::new("utf8-simd", &label), &input, |b, i| {
                b.iter(|| utf8_simd::validate(black_box(i)).is_ok())
            });
            g.bench_with_input(BenchmarkId::new("std", &label), &input, |b, i| {
                b.iter(|| core::str::from_utf8(black_box(i)).is_ok())
            });
            for (kname, k) in &kernels {
                g.bench_with_input(BenchmarkId::new(kname, &label), &input, |b, i| {
                    b.iter(|| k.validate(black_box(i)).is_ok())
                });
            }
        }
    }
    g.finish();
}

fn stream(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-simd-stream");
    for (name, text) in [("Chinese", LIPSUM[1].1), ("Latin", LIPSUM[7].1)] {
        let input = sized(text, 1 << 20);
        let label = format!("{name}-1MiB");
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("utf8-simd", &label), &input, |b, i| {
            b.iter(|| utf8_simd::validate(black_box(i)).is_ok())
        });
        g.bench_with_input(
            BenchmarkId::new("utf8-simd-stream-4KiB", &label),
            &input,
            |b, i| {
                b.iter(|| {
                    let mut v = Validator::new();
                    for chunk in black_box(i).chunks(4096) {
                        if v.update(chunk).is_err() {
                            return false;
                        }
                    }
                    v.finish().is_ok()
                })
            },
        );
    }
    g.finish();
}

criterion_group!(groups, validate, is_valid, short, stream);
criterion_main!(groups);
