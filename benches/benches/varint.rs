//! Varint benchmarks: our `varint` crate against prost, integer-encoding,
//! varint-simd and a plain byte loop, on five value distributions.
//!
//! Every benchmark walks a buffer of `COUNT` consecutive u64 varints, as a
//! parser does, so the position of each varint depends on the length of the
//! one before. Throughput is in values (`Throughput::Elements`).
//!
//! Groups:
//! - `varint-decode`: one value at a time, summing the values.
//! - `varint-encode`: one value at a time into a slice.
//! - `varint-bulk`: the whole buffer into a `[u64]` (our `decode_into`
//!   against the per-value loops of the peers).
//! - `zigzag-encode`: a slice of `i64` to `u64` (ours against a scalar loop
//!   with prost's formula), to show the slice helper vectorises.
//!
//! Peers not measured:
//! - varint-simd's `decode_two`/`decode_four`/`decode_eight_u8` and its
//!   AVX2 and BMI2 paths are compiled only with `-C target-feature` (SSSE3,
//!   AVX2, BMI2) or its `native-optimizations` feature; a default build for
//!   x86_64 has only its single-value `decode` (scalar code for u64) and the
//!   SSE2 `encode`, which are measured here.

use std::hint::black_box;

use codec_facade::{varint, zigzag};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use integer_encoding::VarInt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Values per buffer: a few thousand, as in a protobuf message batch; the
/// buffer (at most 40 KiB) stays in L1/L2.
const COUNT: usize = 4096;

/// The five distributions of the issue, as `(label, generator)`.
fn distributions() -> Vec<(&'static str, Vec<u64>)> {
    let mut rng = StdRng::seed_from_u64(0x5EED_7A11);
    let mut gen_values = |f: &mut dyn FnMut(&mut StdRng) -> u64| -> Vec<u64> {
        (0..COUNT).map(|_| f(&mut rng)).collect()
    };
    vec![
        ("1byte", gen_values(&mut |r| r.random_range(0..128))),
        ("2byte", gen_values(&mut |r| r.random_range(128..1 << 14))),
        (
            "uniform-len",
            gen_values(&mut |r| {
                let len = r.random_range(1..=10);
                of_len(r, len)
            }),
        ),
        ("uniform-u64", gen_values(&mut |r| r.random())),
        (
            // Field tags, booleans, enums and short lengths dominate a
            // protobuf message; ids, timestamps and hashes make the tail.
            "protobuf-mix",
            gen_values(&mut |r| {
                let len = match r.random_range(0..100) {
                    0..60 => 1,
                    60..85 => 2,
                    85..95 => r.random_range(3..=5),
                    _ => r.random_range(6..=10),
                };
                of_len(r, len)
            }),
        ),
    ]
}

/// A random value whose varint is exactly `len` bytes.
fn of_len(r: &mut StdRng, len: u32) -> u64 {
    let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
    let hi = if len >= 10 {
        u64::MAX
    } else {
        (1u64 << (7 * len)) - 1
    };
    r.random_range(lo..=hi)
}

fn encode_all(values: &[u64]) -> Vec<u8> {
    let mut buf = vec![0u8; values.len() * 10];
    let mut pos = 0;
    for &v in values {
        pos += varint::encode(v, &mut buf[pos..]);
    }
    buf.truncate(pos);
    buf
}

/// The plain loop a programmer writes first: 7 bits per byte, at most 10
/// bytes, the 10th-byte check of protobuf.
#[inline]
fn byte_loop_decode(buf: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in buf.iter().take(10).enumerate() {
        if i == 9 && b > 1 {
            return None;
        }
        value |= u64::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return Some((value, i + 1));
        }
    }
    None
}

#[inline]
fn byte_loop_encode(mut v: u64, out: &mut [u8]) -> usize {
    let mut i = 0;
    while v >= 0x80 {
        out[i] = v as u8 | 0x80;
        v >>= 7;
        i += 1;
    }
    out[i] = v as u8;
    i + 1
}

/// Sums the values of a buffer walked by `decode`, which returns the value
/// and its length.
#[inline(always)]
fn walk(mut rest: &[u8], decode: impl Fn(&[u8]) -> Option<(u64, usize)>) -> u64 {
    let mut sum = 0u64;
    while let Some((v, n)) = decode(rest) {
        sum = sum.wrapping_add(v);
        rest = &rest[n..];
    }
    sum
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-decode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        let want = values.iter().fold(0u64, |a, &v| a.wrapping_add(v));
        // Every implementation must agree before it is timed.
        let prost_sum = |mut rest: &[u8]| {
            let mut sum = 0u64;
            while !rest.is_empty() {
                match prost::encoding::decode_varint(&mut rest) {
                    Ok(v) => sum = sum.wrapping_add(v),
                    Err(_) => break,
                }
            }
            sum
        };
        let ours = |b: &[u8]| walk(b, |r| varint::decode::<u64>(r).ok());
        let strict = |b: &[u8]| walk(b, |r| varint::decode_strict::<u64>(r).ok());
        let ie = |b: &[u8]| walk(b, u64::decode_var);
        let simd = |b: &[u8]| walk(b, |r| varint_simd::decode::<u64>(r).ok());
        let plain = |b: &[u8]| walk(b, byte_loop_decode);
        for f in [
            &ours as &dyn Fn(&[u8]) -> u64,
            &strict,
            &prost_sum,
            &ie,
            &simd,
            &plain,
        ] {
            assert_eq!(f(&buf), want, "{label}");
        }
        g.bench_with_input(BenchmarkId::new("varint", label), &buf, |b, buf| {
            b.iter(|| ours(black_box(buf)))
        });
        g.bench_with_input(BenchmarkId::new("varint-strict", label), &buf, |b, buf| {
            b.iter(|| strict(black_box(buf)))
        });
        g.bench_with_input(BenchmarkId::new("prost", label), &buf, |b, buf| {
            b.iter(|| prost_sum(black_box(buf)))
        });
        g.bench_with_input(
            BenchmarkId::new("integer-encoding", label),
            &buf,
            |b, buf| b.iter(|| ie(black_box(buf))),
        );
        g.bench_with_input(BenchmarkId::new("varint-simd", label), &buf, |b, buf| {
            b.iter(|| simd(black_box(buf)))
        });
        g.bench_with_input(BenchmarkId::new("byte-loop", label), &buf, |b, buf| {
            b.iter(|| plain(black_box(buf)))
        });
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("varint-encode");
    g.throughput(Throughput::Elements(COUNT as u64));
    for (label, values) in distributions() {
        let want = encode_all(&values);
        let mut out = vec![0u8; COUNT * 10 + 16];
        type Enc<'a> = &'a dyn Fn(&[u64], &mut [u8]) -> usize;
        let ours = |vs: &[u64], out: &mut [u8]| {
            let mut pos = 0;
            for &v in vs {
                pos += varint::encode(v, &mut out[pos..]);
            }
            pos
        };
        let prost_enc = |vs: &[u64], out: &mut [u8]| {
            let total = out.len();
            let mut w: &mut [u8] = out;
            for &v in vs {
                prost::encoding::encode_varint(v, &mut w);
            }
            total - w.len()
        };
        let ie = |vs: &[u64], out: &mut [u8]| {
            let mut pos = 0;
            for &v in vs {
                pos += v.encode_var(&mut out[pos..]);
            }
            pos
        };
        let simd = |vs: &[u64], out: &mut [u8]| {
            let mut pos = 0;
            for &v in vs {
                pos += usize::from(varint_simd::encode_to_slice(v, &mut out[pos..]));
            }
            pos
        };
        let plain = |vs: &[u64], out: &mut [u8]| {
            let mut pos = 0;
            for &v in vs {
                pos += byte_loop_encode(v, &mut out[pos..]);
            }
            pos
        };
        let impls: [(&str, Enc); 5] = [
            ("varint", &ours),
            ("prost", &prost_enc),
            ("integer-encoding", &ie),
            ("varint-simd", &simd),
            ("byte-loop", &plain),
        ];
        for (name, f) in impls {
            out.fill(0);
            let n = f(&values, &mut out);
            assert_eq!(&out[..n], &want[..], "{name} {label}");
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
        type Bulk<'a> = &'a dyn Fn(&[u8], &mut [u64]) -> usize;
        let ours = |buf: &[u8], out: &mut [u64]| match varint::decode_into(buf, out) {
            Ok(d) => d.count,
            Err(e) => e.count(),
        };
        let prost_loop = |mut rest: &[u8], out: &mut [u64]| {
            let mut n = 0;
            while !rest.is_empty() && n < out.len() {
                match prost::encoding::decode_varint(&mut rest) {
                    Ok(v) => out[n] = v,
                    Err(_) => break,
                }
                n += 1;
            }
            n
        };
        let ie = |mut rest: &[u8], out: &mut [u64]| {
            let mut n = 0;
            while n < out.len() {
                let Some((v, len)) = u64::decode_var(rest) else {
                    break;
                };
                out[n] = v;
                rest = &rest[len..];
                n += 1;
            }
            n
        };
        let plain = |mut rest: &[u8], out: &mut [u64]| {
            let mut n = 0;
            while n < out.len() {
                let Some((v, len)) = byte_loop_decode(rest) else {
                    break;
                };
                out[n] = v;
                rest = &rest[len..];
                n += 1;
            }
            n
        };
        let impls: [(&str, Bulk); 4] = [
            ("varint", &ours),
            ("prost", &prost_loop),
            ("integer-encoding", &ie),
            ("byte-loop", &plain),
        ];
        for (name, f) in impls {
            out.fill(0);
            assert_eq!(f(&buf, &mut out), COUNT, "{name} {label}");
            assert_eq!(out, values, "{name} {label}");
            g.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| f(black_box(&buf), black_box(&mut out)))
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

criterion_group!(benches, decode, encode, bulk, zigzag_slices);
criterion_main!(benches);
