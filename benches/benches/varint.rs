//! Varint benchmarks: our `varint` crate against prost, integer-encoding,
//! varint-simd and a plain byte loop, on five value distributions.
//!
//! Every benchmark walks a buffer of 4096 consecutive u64 varints, as a
//! parser does (see `varint_impls/mod.rs` for the inputs and the code of
//! each implementation). Throughput is in values (`Throughput::Elements`).
//!
//! Groups:
//! - `varint-decode`: one value at a time, summing the values.
//! - `varint-encode`: one value at a time into a slice.
//! - `varint-bulk`: the whole buffer into a `[u64]` (our `decode_into`
//!   against the per-value loops of the peers).
//! - `varint-bulk-encode`: the whole slice of values into a buffer (our
//!   `encode_slice`, dispatched and with each kernel, against the per-value
//!   loops of the peers from `varint-encode`).
//! - `varint-len`: the encoded length of the whole slice (our
//!   `encoded_len_slice` with each kernel against the peers' per-value
//!   length functions, summed).
//! - `zigzag-encode`: a slice of `i64` to `u64`, ours against an indexed
//!   scalar loop with prost's formula.
//!
//! - `varint-streamvbyte-decode`, `varint-streamvbyte-encode`: 4,096 `u32`s
//!   in Stream VByte, ours (dispatched and each kernel) against `svb` and
//!   `stream-vbyte` (its SIMD kernels only with this package's
//!   `stream-vbyte-simd` feature, on nightly: see `varint_shuffle.rs`).
//! - `varint-groupvarint-decode`, `varint-groupvarint-encode`: Group Varint
//!   against our LEB128 bulk functions on the same values (`leb128-bulk`).
//!
//! `varint_min.rs` times the same functions by the minimum of interleaved
//! rounds, which resists the load of a shared machine better.
//!
//! varint-simd's `decode_two_wide_unsafe` and its AVX2 and BMI2 paths are
//! compiled only with `-C target-feature=+avx2,+bmi2`: `varint_avx2.rs`
//! measures that build. A default build has its single-value `decode`,
//! `decode_unsafe` (in `varint-bulk`) and the SSE2 `encode`.

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod shuffle_impls;
mod varint_impls;

use std::hint::black_box;

use codec_facade::zigzag;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint_impls::{
    COUNT, DECODERS, ENCODERS, bulk_impls, distributions, encode_all, encode_slice_with, len_peers,
    our_kernels,
};

fn decode(c: &mut Criterion) {
    varint_impls::check_all();
    let mut g = c.benchmark_group("varint-decode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        for (name, f) in DECODERS {
            g.bench_with_input(BenchmarkId::new(name, label), &buf, |b, buf| {
                b.iter(|| f(black_box(buf)))
            });
        }
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let mut out = vec![0u8; COUNT * 10 + 16];
        for (name, f) in ENCODERS {
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| f(black_box(&values), black_box(&mut out)))
            });
        }
    }
    g.finish();
}

fn bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-bulk");
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

fn bulk_encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-bulk-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let mut out = vec![0u8; COUNT * 10 + 16];
        g.bench_function(BenchmarkId::new("varint", label), |b| {
            b.iter(|| encode_slice_with(None, black_box(&values), black_box(&mut out)))
        });
        for (name, codec) in our_kernels() {
            g.bench_function(BenchmarkId::new(&name, label), |b| {
                b.iter(|| encode_slice_with(Some(codec), black_box(&values), black_box(&mut out)))
            });
        }
        for (name, f) in ENCODERS.iter().skip(1) {
            g.bench_function(BenchmarkId::new(*name, label), |b| {
                b.iter(|| f(black_box(&values), black_box(&mut out)))
            });
        }
    }
    g.finish();
}

fn slice_len(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-len");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        for (name, codec) in our_kernels() {
            g.bench_function(BenchmarkId::new(&name, label), |b| {
                b.iter(|| codec.encoded_len_slice(black_box(&values)))
            });
        }
        for (name, f) in len_peers() {
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| f(black_box(&values)))
            });
        }
    }
    g.finish();
}

fn zigzag_slices(c: &mut Criterion) {
    let mut g = c.benchmark_group("zigzag-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    let mut rng = StdRng::seed_from_u64(9);
    let signed: Vec<i64> = (0..COUNT).map(|_| rng.random()).collect();
    let mut out = vec![0u64; COUNT];
    g.bench_function(BenchmarkId::new("zigzag", "random-i64"), |b| {
        b.iter(|| zigzag::encode_slice(black_box(&signed), black_box(&mut out)))
    });
    g.bench_function(BenchmarkId::new("byte-loop", "random-i64"), |b| {
        b.iter(|| {
            // prost's `(n << 1) ^ (n >> 63)` in an indexed loop.
            let (src, dst) = (black_box(&signed), black_box(&mut out));
            for i in 0..src.len().min(dst.len()) {
                dst[i] = ((src[i] << 1) ^ (src[i] >> 63)) as u64;
            }
        })
    });
    g.finish();
}

fn shuffle_formats(c: &mut Criterion) {
    use codec_facade::varint::group_varint::GroupVarint;
    use codec_facade::varint::streamvbyte::{StreamVByte, max_compressed_len};
    use codec_facade::varint::{self, ShuffleCodec, shuffle_kernels};
    use shuffle_impls::{COUNT, distributions, stream_vbyte_decode, stream_vbyte_encode};

    let mut ours: Vec<(String, ShuffleCodec)> = vec![("varint".into(), ShuffleCodec::new())];
    ours.extend(
        shuffle_kernels()
            .iter()
            .filter_map(|k| Some((format!("varint[{}]", k.name()), k.codec()?))),
    );
    let sv_name = if cfg!(feature = "stream-vbyte-simd") {
        "stream-vbyte"
    } else {
        "stream-vbyte-scalar"
    };
    let inputs = distributions();
    let mut g = c.benchmark_group("varint-streamvbyte-decode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in &inputs {
        let bytes = varint::streamvbyte::encode_to_vec(values);
        let mut out = vec![0u32; COUNT];
        for (name, codec) in &ours {
            let s = StreamVByte::new().with_codec(*codec);
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| {
                    s.decode(black_box(&bytes), COUNT, black_box(&mut out))
                        .unwrap()
                })
            });
        }
        g.bench_function(BenchmarkId::new(sv_name, label), |b| {
            b.iter(|| stream_vbyte_decode(black_box(&bytes), black_box(&mut out)))
        });
        let mut v = Vec::with_capacity(COUNT);
        g.bench_function(BenchmarkId::new("svb", label), |b| {
            b.iter(|| {
                v.clear();
                svb::u32::U32Classic
                    .decode_into(black_box(&bytes), COUNT, &mut v)
                    .unwrap();
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("varint-streamvbyte-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in &inputs {
        let mut out = vec![0u8; max_compressed_len(COUNT)];
        for (name, codec) in &ours {
            let s = StreamVByte::new().with_codec(*codec);
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| s.encode(black_box(values), black_box(&mut out)))
            });
        }
        g.bench_function(BenchmarkId::new(sv_name, label), |b| {
            b.iter(|| stream_vbyte_encode(black_box(values), black_box(&mut out)))
        });
        let mut v = Vec::with_capacity(max_compressed_len(COUNT));
        g.bench_function(BenchmarkId::new("svb", label), |b| {
            b.iter(|| {
                v.clear();
                svb::u32::U32Classic.encode_into(black_box(values), &mut v);
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("varint-groupvarint-decode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in &inputs {
        let gv = varint::group_varint::encode_to_vec(values);
        let leb = varint::encode_slice_to_vec(values);
        let mut out = vec![0u32; COUNT];
        for (name, codec) in &ours {
            let s = GroupVarint::with_codec(*codec);
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| {
                    s.decode(black_box(&gv), COUNT, black_box(&mut out))
                        .unwrap()
                })
            });
        }
        g.bench_function(BenchmarkId::new("leb128-bulk", label), |b| {
            b.iter(|| varint::decode_into::<u32>(black_box(&leb), black_box(&mut out)).unwrap())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("varint-groupvarint-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in &inputs {
        let mut out = vec![0u8; max_compressed_len(COUNT) + 5 * COUNT];
        for (name, codec) in &ours {
            let s = GroupVarint::with_codec(*codec);
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| s.encode(black_box(values), black_box(&mut out)))
            });
        }
        g.bench_function(BenchmarkId::new("leb128-bulk", label), |b| {
            b.iter(|| varint::encode_slice(black_box(values), black_box(&mut out)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    decode,
    encode,
    bulk,
    bulk_encode,
    slice_len,
    zigzag_slices,
    shuffle_formats
);
criterion_main!(benches);
