//! transcode against its peers, one criterion group per operation, every
//! implementation of a group on the same inputs:
//!
//! - `transcode-utf8-to-utf16`: `ours` (the dispatched kernels), each kernel
//!   set by name (`ours-avx512`, `ours-avx2`, `ours-sse4.1`,
//!   `ours-portable`), `ours-str` (from `&str`, no validation),
//!   `ours-lossy`, `simdutf` (its validating conversion,
//!   `convert_utf8_to_utf16le_with_errors`), `encoding_rs`
//!   (`mem::convert_utf8_to_utf16_without_replacement`, validating) and
//!   `std` (`from_utf8` then `encode_utf16`).
//! - `transcode-utf16-to-utf8`: `ours` and each kernel set, `simdutf`
//!   (`convert_utf16le_to_utf8_with_errors`), `encoding_rs`
//!   (`mem::convert_utf16_to_utf8`, lossy: on valid input the same work)
//!   and `std` (`char::decode_utf16` and `encode_utf8`).
//!
//! Inputs: the nine lipsum texts and ASCII (the Latin text) at 1 KiB,
//! 64 KiB and 1 MiB, repeated to size and cut at a character boundary;
//! throughput is counted in bytes of the UTF-8 form, as the issue's table
//! does. The implementations and inputs are listed once, in
//! `transcode_impls`, which `transcode_min` (the min-of-N harness for
//! tuning on a busy machine) shares.
//!
//! ```text
//! cargo bench -p benches --bench transcode                        # all
//! cargo bench -p benches --bench transcode -- utf16-to-utf8/.*64KiB
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod transcode_impls;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use transcode_impls::{inputs, ops};

/// The operations of this file (the others in `transcode_impls` have their
/// groups elsewhere).
const GROUPS: &[&str] = &["utf8-to-utf16", "utf16-to-utf8"];

fn bench(c: &mut Criterion) {
    let inputs = inputs(|_| true);
    for op in GROUPS {
        let mut group = c.benchmark_group(format!("transcode-{op}"));
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(800))
            .sample_size(20);
        for x in &inputs {
            group.throughput(Throughput::Bytes(x.utf8.len() as u64));
            for (name, mut f) in ops(op, x) {
                group.bench_function(BenchmarkId::new(name, &x.name), |b| {
                    b.iter(|| black_box(f()))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
