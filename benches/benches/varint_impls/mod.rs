//! The inputs and the implementations measured by `varint.rs` (criterion)
//! and `varint_min.rs` (minimum of interleaved rounds), shared so both
//! time the same machine code.
//!
//! Every implementation walks a buffer of `COUNT` consecutive u64 varints,
//! as a parser does: the position of each varint depends on the length of
//! the one before. Each is `#[inline(never)]` over the whole buffer, with
//! the per-value call inlined into its loop.

#![allow(dead_code)] // Each bench file uses its own subset.

use codec_facade::varint;
use integer_encoding::VarInt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Values per buffer: a few thousand, as in a batch of protobuf messages.
/// The encoded buffer (at most 40 KiB) stays in L1/L2.
pub(crate) const COUNT: usize = 4096;

/// The five distributions of the issue, as `(label, values)`.
pub(crate) fn distributions() -> Vec<(&'static str, Vec<u64>)> {
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
            // protobuf message; ids, timestamps and hashes make the tail:
            // 60% 1 byte, 25% 2 bytes, 10% 3–5 bytes, 5% 6–10 bytes.
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

/// The values' varints, back to back.
pub(crate) fn encode_all(values: &[u64]) -> Vec<u8> {
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

/// Sums the values of a buffer walked by `decode`.
#[inline(always)]
fn walk(mut rest: &[u8], decode: impl Fn(&[u8]) -> Option<(u64, usize)>) -> u64 {
    let mut sum = 0u64;
    while let Some((v, n)) = decode(rest) {
        sum = sum.wrapping_add(v);
        rest = &rest[n..];
    }
    sum
}

/// Decoders: the sum of the values of the buffer.
pub(crate) type Decode = fn(&[u8]) -> u64;

#[inline(never)]
fn dec_ours(b: &[u8]) -> u64 {
    walk(b, |r| varint::decode::<u64>(r).ok())
}
#[inline(never)]
fn dec_strict(b: &[u8]) -> u64 {
    walk(b, |r| varint::decode_strict::<u64>(r).ok())
}
#[inline(never)]
fn dec_prost(mut rest: &[u8]) -> u64 {
    let mut sum = 0u64;
    while !rest.is_empty() {
        match prost::encoding::decode_varint(&mut rest) {
            Ok(v) => sum = sum.wrapping_add(v),
            Err(_) => break,
        }
    }
    sum
}
#[inline(never)]
fn dec_ie(b: &[u8]) -> u64 {
    walk(b, u64::decode_var)
}
#[inline(never)]
fn dec_simd(b: &[u8]) -> u64 {
    walk(b, |r| varint_simd::decode::<u64>(r).ok())
}
#[inline(never)]
fn dec_loop(b: &[u8]) -> u64 {
    walk(b, byte_loop_decode)
}

pub(crate) const DECODERS: [(&str, Decode); 6] = [
    ("varint", dec_ours),
    ("varint-strict", dec_strict),
    ("prost", dec_prost),
    ("integer-encoding", dec_ie),
    ("varint-simd", dec_simd),
    ("byte-loop", dec_loop),
];

/// Encoders: the values into the slice, returning the bytes written.
pub(crate) type Encode = fn(&[u64], &mut [u8]) -> usize;

#[inline(never)]
fn enc_ours(vs: &[u64], out: &mut [u8]) -> usize {
    let mut pos = 0;
    for &v in vs {
        pos += varint::encode(v, &mut out[pos..]);
    }
    pos
}
#[inline(never)]
fn enc_prost(vs: &[u64], out: &mut [u8]) -> usize {
    let total = out.len();
    let mut w: &mut [u8] = out;
    for &v in vs {
        prost::encoding::encode_varint(v, &mut w);
    }
    total - w.len()
}
#[inline(never)]
fn enc_ie(vs: &[u64], out: &mut [u8]) -> usize {
    let mut pos = 0;
    for &v in vs {
        pos += v.encode_var(&mut out[pos..]);
    }
    pos
}
#[inline(never)]
fn enc_simd(vs: &[u64], out: &mut [u8]) -> usize {
    let mut pos = 0;
    for &v in vs {
        pos += usize::from(varint_simd::encode_to_slice(v, &mut out[pos..]));
    }
    pos
}
#[inline(never)]
fn enc_loop(vs: &[u64], out: &mut [u8]) -> usize {
    let mut pos = 0;
    for &v in vs {
        pos += byte_loop_encode(v, &mut out[pos..]);
    }
    pos
}

pub(crate) const ENCODERS: [(&str, Encode); 5] = [
    ("varint", enc_ours),
    ("prost", enc_prost),
    ("integer-encoding", enc_ie),
    ("varint-simd", enc_simd),
    ("byte-loop", enc_loop),
];

/// Bulk decoders: the buffer into the slice, returning the values written.
pub(crate) type Bulk = fn(&[u8], &mut [u64]) -> usize;

#[inline(never)]
fn bulk_ours(buf: &[u8], out: &mut [u64]) -> usize {
    match varint::decode_into(buf, out) {
        Ok(d) => d.count,
        Err(e) => e.count(),
    }
}

/// `decode_into` with one kernel.
#[inline(never)]
fn bulk_with(codec: varint::KernelCodec, buf: &[u8], out: &mut [u64]) -> usize {
    match codec.decode_into(buf, out) {
        Ok(d) => d.count,
        Err(e) => e.count(),
    }
}
#[inline(never)]
fn bulk_prost(mut rest: &[u8], out: &mut [u64]) -> usize {
    let mut n = 0;
    while !rest.is_empty() && n < out.len() {
        match prost::encoding::decode_varint(&mut rest) {
            Ok(v) => out[n] = v,
            Err(_) => break,
        }
        n += 1;
    }
    n
}
#[inline(never)]
fn bulk_ie(mut rest: &[u8], out: &mut [u64]) -> usize {
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
}
#[inline(never)]
fn bulk_loop(mut rest: &[u8], out: &mut [u64]) -> usize {
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
}

/// varint-simd's fastest one-value decoder, `decode_unsafe`, which needs
/// 16 readable bytes past the pointer and does not check for overflow;
/// its safe `decode` finishes the last 15 bytes.
#[inline(never)]
fn bulk_simd_unsafe(buf: &[u8], out: &mut [u64]) -> usize {
    let mut pos = 0;
    let mut n = 0;
    while pos + 16 <= buf.len() && n < out.len() {
        // SAFETY: 16 bytes are readable at `pos`.
        let (v, len) = unsafe { varint_simd::decode_unsafe::<u64>(buf.as_ptr().add(pos)) };
        out[n] = v;
        pos += len;
        n += 1;
    }
    n + simd_tail(&buf[pos..], &mut out[n..])
}

/// varint-simd's two-at-a-time AVX2 decoder, `decode_two_wide_unsafe`
/// (compiled only with `-C target-feature=+avx2`), which needs 32 readable
/// bytes past the pointer; then `decode_unsafe`, then `decode`.
#[cfg(target_feature = "avx2")]
#[inline(never)]
fn bulk_simd_two_wide(buf: &[u8], out: &mut [u64]) -> usize {
    let mut pos = 0;
    let mut n = 0;
    while pos + 32 <= buf.len() && n + 2 <= out.len() {
        // SAFETY: 32 bytes are readable at `pos`, and the build has AVX2.
        let (a, b, la, lb) =
            unsafe { varint_simd::decode_two_wide_unsafe::<u64, u64>(buf.as_ptr().add(pos)) };
        out[n] = a;
        out[n + 1] = b;
        pos += usize::from(la) + usize::from(lb);
        n += 2;
    }
    while pos + 16 <= buf.len() && n < out.len() {
        // SAFETY: 16 bytes are readable at `pos`.
        let (v, len) = unsafe { varint_simd::decode_unsafe::<u64>(buf.as_ptr().add(pos)) };
        out[n] = v;
        pos += len;
        n += 1;
    }
    n + simd_tail(&buf[pos..], &mut out[n..])
}

fn simd_tail(mut rest: &[u8], out: &mut [u64]) -> usize {
    let mut n = 0;
    while !rest.is_empty() && n < out.len() {
        let Ok((v, len)) = varint_simd::decode::<u64>(rest) else {
            break;
        };
        out[n] = v;
        rest = &rest[len..];
        n += 1;
    }
    n
}

/// A bulk decoder under test.
pub(crate) type BulkFn = Box<dyn Fn(&[u8], &mut [u64]) -> usize>;

/// The bulk decoders: ours through the dispatch, ours with each kernel this
/// CPU runs, and the peers.
pub(crate) fn bulk_impls() -> Vec<(String, BulkFn)> {
    let mut v: Vec<(String, BulkFn)> = vec![("varint".into(), Box::new(bulk_ours))];
    for (name, codec) in our_kernels() {
        v.push((
            name,
            Box::new(move |b: &[u8], o: &mut [u64]| bulk_with(codec, b, o)),
        ));
    }
    let peers: [(&str, Bulk); 4] = [
        ("prost", bulk_prost),
        ("integer-encoding", bulk_ie),
        ("byte-loop", bulk_loop),
        ("varint-simd-unsafe", bulk_simd_unsafe),
    ];
    for (name, f) in peers {
        v.push((name.into(), Box::new(f)));
    }
    #[cfg(target_feature = "avx2")]
    v.push(("varint-simd-two-wide".into(), Box::new(bulk_simd_two_wide)));
    v
}

/// The kernels of ours this CPU runs, as `(bench name, codec)`.
pub(crate) fn our_kernels() -> Vec<(String, varint::KernelCodec)> {
    varint::kernels()
        .iter()
        .filter_map(|k| Some((format!("varint-{}", k.name()), k.codec()?)))
        .collect()
}

/// Bulk encoders of ours: `encode_slice` with one kernel (`None`: the
/// dispatched one).
pub(crate) fn encode_slice_with(
    codec: Option<varint::KernelCodec>,
    vs: &[u64],
    out: &mut [u8],
) -> usize {
    let codec = codec.unwrap_or_default();
    codec.encode_slice(vs, out).expect("room")
}

/// A slice length.
pub(crate) type Len = fn(&[u64]) -> usize;

/// The peers' per-value lengths, summed.
pub(crate) fn len_peers() -> Vec<(&'static str, Len)> {
    vec![
        ("prost", |vs| {
            vs.iter()
                .map(|&v| prost::encoding::encoded_len_varint(v))
                .sum()
        }),
        ("integer-encoding", |vs| {
            vs.iter().map(|&v| v.required_space()).sum()
        }),
        ("byte-loop", |vs| {
            vs.iter()
                .map(|&v| {
                    let mut n = 1;
                    let mut v = v >> 7;
                    while v != 0 {
                        n += 1;
                        v >>= 7;
                    }
                    n
                })
                .sum()
        }),
    ]
}

/// Checks that every implementation gets every distribution right, so a
/// fast wrong answer cannot be timed.
pub(crate) fn check_all() {
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        let sum = values.iter().fold(0u64, |a, &v| a.wrapping_add(v));
        for (name, f) in DECODERS {
            assert_eq!(f(&buf), sum, "decode {name} {label}");
        }
        let mut out = vec![0u8; COUNT * 10 + 16];
        for (name, f) in ENCODERS {
            out.fill(0);
            let n = f(&values, &mut out);
            assert_eq!(&out[..n], &buf[..], "encode {name} {label}");
        }
        for (name, codec) in our_kernels() {
            out.fill(0);
            let n = encode_slice_with(Some(codec), &values, &mut out);
            assert_eq!(&out[..n], &buf[..], "encode_slice {name} {label}");
            assert_eq!(
                codec.encoded_len_slice(&values),
                buf.len(),
                "len {name} {label}"
            );
        }
        for (name, f) in len_peers() {
            assert_eq!(f(&values), buf.len(), "len {name} {label}");
        }
        let mut vals = vec![0u64; COUNT];
        for (name, f) in bulk_impls() {
            vals.fill(0);
            assert_eq!(f(&buf, &mut vals), COUNT, "bulk {name} {label}");
            assert_eq!(vals, values, "bulk {name} {label}");
        }
    }
}
