//! The varint bulk decoders of `varint.rs`, in a build compiled for AVX2
//! and BMI2, where varint-simd's compile-time fast paths exist: its
//! two-at-a-time `decode_two_wide_unsafe` (AVX2) and its `pdep`/`pext`
//! single-value decoding. Group `varint-bulk-avx2build`.
//!
//! Build and run it in its own target directory, so that the flags do not
//! rebuild (or leak into) the default one:
//!
//! ```text
//! RUSTFLAGS="-C target-feature=+avx2,+bmi2" CARGO_TARGET_DIR=target/avx2-bmi2 \
//!     cargo bench -p benches --bench varint_avx2
//! cargo xtask bench --avx2-build      # the same, summarised
//! ```
//!
//! Built without those flags (as `cargo bench --workspace` does), it
//! measures nothing and says so.

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod varint_impls;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use varint_impls::{COUNT, bulk_impls, distributions, encode_all};

fn bulk_avx2_build(c: &mut Criterion) {
    if !cfg!(all(target_feature = "avx2", target_feature = "bmi2")) {
        eprintln!(
            "varint_avx2: built without -C target-feature=+avx2,+bmi2; nothing to measure \
             (see the file's docs for the command)"
        );
        return;
    }
    varint_impls::check_all();
    let mut g = c.benchmark_group("varint-bulk-avx2build");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        let mut out = vec![0u64; COUNT];
        for (name, f) in bulk_impls() {
            g.bench_function(BenchmarkId::new(&name, label), |b| {
                b.iter(|| f(black_box(&buf), black_box(&mut out)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bulk_avx2_build);
criterion_main!(benches);
