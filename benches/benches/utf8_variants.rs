//! utf8-variants (CESU-8, MUTF-8, WTF-8) against utf8-simd's UTF-8
//! validation, `simd_cesu8` and `cesu8`, side by side in one group per
//! operation:
//!
//! - `utf8-variants-validate`: a yes-or-no-and-where. `utf8-simd` (UTF-8
//!   validation of the original text, the baseline), `cesu8`, `mutf8`
//!   (validation of the text re-encoded), `wtf8` (of the UTF-8 text), and
//!   the same with the AVX2 kernel named (`*-avx2`), which users on CPUs
//!   without AVX-512 (AMD Zen 3) run.
//! - `utf8-variants-decode`: to a Rust string. `cesu8-decode` and
//!   `mutf8-decode` (ours), `simd_cesu8` (`simd_cesu8::decode`, the
//!   baseline: it borrows any valid UTF-8, 4-byte forms included),
//!   `simd_cesu8-strict` (`decode_strict`, which refuses them, as we do),
//!   `simd_cesu8-mutf8` (`mutf8::decode_strict`), `cesu8-crate`
//!   (`cesu8::from_cesu8`).
//! - `utf8-variants-encode`: from a Rust string. `cesu8-encode`,
//!   `simd_cesu8` (baseline), `cesu8-crate`.
//!
//! Inputs: the nine lipsum texts at 64 KiB and 1 MiB, each in UTF-8 and
//! re-encoded in CESU-8 and MUTF-8 (the same bytes except for Emoji, whose
//! characters are all supplementary: 4 bytes in UTF-8, 6 in CESU-8), every
//! buffer at a 64-byte aligned address. Throughput is in bytes of each
//! function's own input.
//!
//! `cargo bench -p benches --bench utf8_variants` (or `cargo xtask bench
//! utf8-variants`).

// A benchmark: a panic is a report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_facade::utf8_simd::{self, Utf8Validator};
use codec_facade::utf8_variants::{Variant, cesu8, mutf8};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const SIZES: &[(usize, &str)] = &[(64 << 10, "64KiB"), (1 << 20, "1MiB")];

/// `bytes` at a 64-byte aligned address (a 64-byte load that splits a
/// cache line costs the AVX-512 kernels up to a quarter of their speed, so
/// every input is read with the same alignment).
struct Aligned {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    fn new(bytes: &[u8]) -> Aligned {
        let mut storage = vec![0u8; bytes.len() + 64];
        let start = storage.as_ptr().align_offset(64);
        storage[start..start + bytes.len()].copy_from_slice(bytes);
        Aligned {
            storage,
            start,
            len: bytes.len(),
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

/// One text in its three encodings.
struct Text {
    label: String,
    utf8: String,
    utf8_aligned: Aligned,
    cesu8: Aligned,
    mutf8: Aligned,
}

fn texts() -> Vec<Text> {
    let mut out = Vec::new();
    for &(name, text) in benches::LIPSUM {
        for &(size, size_label) in SIZES {
            let utf8 = benches::sized_text(text, size);
            let cesu = cesu8::encode(&utf8).into_owned();
            let mutf = mutf8::encode(&utf8).into_owned();
            out.push(Text {
                label: format!("{name}-{size_label}"),
                utf8_aligned: Aligned::new(utf8.as_bytes()),
                cesu8: Aligned::new(&cesu),
                mutf8: Aligned::new(&mutf),
                utf8,
            });
        }
    }
    out
}

fn kernel(name: &str) -> Option<&'static utf8_simd::Kernel> {
    utf8_simd::kernels()
        .iter()
        .find(|k| k.name() == name && k.is_available())
}

fn validate(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-variants-validate");
    let avx2 = kernel("avx2");
    for t in texts() {
        let (u, ce, mu) = (t.utf8_aligned.bytes(), t.cesu8.bytes(), t.mutf8.bytes());
        let id = |f: &str| BenchmarkId::new(f, &t.label);
        g.throughput(Throughput::Bytes(u.len() as u64));
        g.bench_function(id("utf8-simd"), |b| {
            b.iter(|| utf8_simd::validate(black_box(u)))
        });
        g.bench_function(id("wtf8"), |b| {
            b.iter(|| Variant::Wtf8.validate(black_box(u)))
        });
        g.throughput(Throughput::Bytes(ce.len() as u64));
        g.bench_function(id("cesu8"), |b| b.iter(|| cesu8::validate(black_box(ce))));
        g.throughput(Throughput::Bytes(mu.len() as u64));
        g.bench_function(id("mutf8"), |b| b.iter(|| mutf8::validate(black_box(mu))));
        if let Some(k) = avx2 {
            let v = k.validator().expect("available");
            g.throughput(Throughput::Bytes(u.len() as u64));
            g.bench_function(id("utf8-simd-avx2"), |b| {
                b.iter(|| v.validate(black_box(u)))
            });
            g.throughput(Throughput::Bytes(ce.len() as u64));
            g.bench_function(id("cesu8-avx2"), |b| {
                b.iter(|| Variant::Cesu8.validate_with_kernel(k, black_box(ce)))
            });
            g.throughput(Throughput::Bytes(mu.len() as u64));
            g.bench_function(id("mutf8-avx2"), |b| {
                b.iter(|| Variant::Mutf8.validate_with_kernel(k, black_box(mu)))
            });
        }
    }
    g.finish();
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-variants-decode");
    for t in texts() {
        let (ce, mu) = (t.cesu8.bytes(), t.mutf8.bytes());
        let id = |f: &str| BenchmarkId::new(f, &t.label);
        g.throughput(Throughput::Bytes(ce.len() as u64));
        g.bench_function(id("cesu8-decode"), |b| {
            b.iter(|| cesu8::decode(black_box(ce)))
        });
        g.bench_function(id("simd_cesu8"), |b| {
            b.iter(|| simd_cesu8::decode(black_box(ce)))
        });
        g.bench_function(id("simd_cesu8-strict"), |b| {
            b.iter(|| simd_cesu8::decode_strict(black_box(ce)))
        });
        g.bench_function(id("cesu8-crate"), |b| {
            b.iter(|| ::cesu8::from_cesu8(black_box(ce)))
        });
        g.throughput(Throughput::Bytes(mu.len() as u64));
        g.bench_function(id("mutf8-decode"), |b| {
            b.iter(|| mutf8::decode(black_box(mu)))
        });
        g.bench_function(id("simd_cesu8-mutf8"), |b| {
            b.iter(|| simd_cesu8::mutf8::decode_strict(black_box(mu)))
        });
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf8-variants-encode");
    for t in texts() {
        let s = t.utf8.as_str();
        let id = |f: &str| BenchmarkId::new(f, &t.label);
        g.throughput(Throughput::Bytes(s.len() as u64));
        g.bench_function(id("cesu8-encode"), |b| {
            b.iter(|| cesu8::encode(black_box(s)))
        });
        g.bench_function(id("simd_cesu8"), |b| {
            b.iter(|| simd_cesu8::encode(black_box(s)))
        });
        g.bench_function(id("cesu8-crate"), |b| {
            b.iter(|| ::cesu8::to_cesu8(black_box(s)))
        });
    }
    g.finish();
}

criterion_group!(benches, validate, decode, encode);
criterion_main!(benches);
