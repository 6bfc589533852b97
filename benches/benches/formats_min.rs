//! Per-value decode and encode of every `varint::formats` format against
//! the crate its users use today (where there is one) and a plain byte
//! loop written from the specification, on the harness of the `*_min`
//! benches (`benches::harness`): minimum of interleaved rounds, ns per
//! value, ratios within one run.
//!
//! `cargo bench -p benches --bench formats_min [rounds] [--svg PATH]
//! [--group G] [--impl NAME] [--input LABEL]` (default 200 rounds).
//!
//! Inputs (per format, 4,096 values, or `FORMATS_COUNT`): `1st` every value of the format's
//! shortest length, `2nd` of its second length, `uniform-len` a length
//! drawn uniformly from those the format has, `longest` its longest, and
//! `mixed` 60/25/10/5 % over its first, second, third and the other
//! lengths (protobuf-like). LEB128 itself is in `varint_min`.
//!
//! Group `quic-bulk`: QUIC bulk decoding of the same 4,096 values (and of
//! one- and two-byte values mixed 70/30) into a `[u64]`: `Quic::decode_into` (the dispatched kernel of
//! `varint::shuffle_kernels()`), the `avx2` and `sse4.1` kernels by name,
//! the `portable` one (our scalar `decode_into` loop, no kernel), and a
//! loop over `octets`' `get_varint` storing into the same slice.

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The byte loops are written as plainly as a user would write them.
#![allow(clippy::type_complexity, clippy::needless_range_loop)]

use benches::harness::{Args, Chart, Group, Table};
use codec_facade::varint::formats::{
    Bijective, Bincode, CborHead, CompactSize, Format, Hpack, MsgPack, Prefix, Quic, Sqlite, Vlq,
    cbor::Head,
};
use codec_facade::varint::{self, ShuffleCodec};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// Values per input: 4,096, or `FORMATS_COUNT` from the environment. A
/// branch predictor learns the lengths of a few thousand values walked
/// every pass, which flatters the branchy loops; a count past what it
/// holds (a few hundred thousand) shows the loops as they run on data
/// seen once.
fn count() -> usize {
    std::env::var("FORMATS_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096)
}

/// An implementation other than ours: one value at a time (to check it),
/// and whole loops with the per-value code inlined (to time it).
struct Other<V> {
    name: &'static str,
    dec: Box<dyn Fn(&[u8]) -> Option<(V, usize)>>,
    enc: Box<dyn Fn(V, &mut [u8]) -> usize>,
    dec_all: Box<dyn Fn(&[u8]) -> usize>,
    enc_all: Box<dyn Fn(&[V], &mut [u8]) -> usize>,
}

fn other<V: Copy + 'static>(
    name: &'static str,
    dec: impl Fn(&[u8]) -> Option<(V, usize)> + Copy + 'static,
    enc: impl Fn(V, &mut [u8]) -> usize + Copy + 'static,
) -> Other<V> {
    Other {
        name,
        dec: Box::new(dec),
        enc: Box::new(enc),
        dec_all: Box::new(move |buf| decode_with(dec, buf)),
        enc_all: Box::new(move |values, out| encode_with(enc, values, out)),
    }
}

/// A format with what the bench needs beyond `Format`.
trait Bench1: Format<Value: PartialEq + std::fmt::Debug> {
    /// The value for a random `u64` of `bits` bits, if the format holds it.
    fn value(u: u64) -> Option<Self::Value>;
    /// Bits of the largest value.
    const BITS: u32;
    /// The textbook loop, then the peers: `(name, decode, encode)`.
    fn others() -> Vec<Other<Self::Value>>;
}

fn get(buf: &[u8], i: usize) -> Option<u64> {
    buf.get(i).map(|&b| u64::from(b))
}

impl Bench1 for Quic {
    const BITS: u32 = 62;
    fn value(u: u64) -> Option<u64> {
        (u < 1 << 62).then_some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![
            other(
                "byte loop",
                |b| {
                    let first = get(b, 0)?;
                    let len = 1usize << (first >> 6);
                    let mut v = first & 0x3f;
                    for i in 1..len {
                        v = v << 8 | get(b, i)?;
                    }
                    Some((v, len))
                },
                |v, out| {
                    // Ours rejects values above 2^62 − 1 (`OutOfRange`): so
                    // does the loop.
                    let (len, tag) = match v {
                        0..64 => (1, 0),
                        64..16384 => (2, 0x40),
                        16384..0x4000_0000 => (4, 0x80),
                        0x4000_0000..0x4000_0000_0000_0000 => (8, 0xc0),
                        _ => panic!("QUIC varint above 2^62 - 1"),
                    };
                    for i in 0..len {
                        out[i] = (v >> (8 * (len - 1 - i))) as u8;
                    }
                    out[0] |= tag;
                    len
                },
            ),
            other(
                "octets",
                |b| {
                    let mut o = octets::Octets::with_slice(b);
                    let v = o.get_varint().ok()?;
                    Some((v, o.off()))
                },
                |v, out| {
                    let mut o = octets::OctetsMut::with_slice(out);
                    o.put_varint(v).unwrap();
                    o.off()
                },
            ),
        ]
    }
}

impl Bench1 for Hpack<5> {
    const BITS: u32 = 63;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![other(
            "byte loop",
            |b| {
                let v = get(b, 0)? & 31;
                if v < 31 {
                    return Some((v, 1));
                }
                let (mut v, mut m, mut i) = (31u64, 0u32, 1);
                loop {
                    let c = get(b, i)?;
                    i += 1;
                    v = v.checked_add((c & 127).checked_shl(m)?)?;
                    m += 7;
                    if c < 128 {
                        return Some((v, i));
                    }
                    if m > 63 {
                        return None;
                    }
                }
            },
            |v, out| {
                if v < 31 {
                    out[0] = v as u8;
                    return 1;
                }
                out[0] = 31;
                let (mut v, mut i) = (v - 31, 1);
                while v >= 128 {
                    out[i] = (v as u8) | 128;
                    v >>= 7;
                    i += 1;
                }
                out[i] = v as u8;
                i + 1
            },
        )]
    }
}

impl Bench1 for Sqlite {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![other(
            "byte loop",
            |b| {
                let mut v = 0u64;
                for i in 0..8 {
                    let c = get(b, i)?;
                    v = v << 7 | (c & 127);
                    if c < 128 {
                        return Some((v, i + 1));
                    }
                }
                Some((v << 8 | get(b, 8)?, 9))
            },
            |v, out| {
                if v >> 56 != 0 {
                    out[8] = v as u8;
                    let mut w = v >> 8;
                    for i in (0..8).rev() {
                        out[i] = (w as u8 & 127) | 128;
                        w >>= 7;
                    }
                    return 9;
                }
                let mut tmp = [0u8; 9];
                let (mut w, mut n) = (v, 0);
                loop {
                    tmp[n] = (w as u8 & 127) | 128;
                    w >>= 7;
                    n += 1;
                    if w == 0 {
                        break;
                    }
                }
                tmp[0] &= 127;
                for i in 0..n {
                    out[i] = tmp[n - 1 - i];
                }
                n
            },
        )]
    }
}

impl Bench1 for Bijective {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![other(
            "byte loop",
            |b| {
                let mut c = get(b, 0)?;
                let (mut v, mut i) = (c & 127, 1);
                while c & 128 != 0 {
                    c = get(b, i)?;
                    i += 1;
                    v = v.checked_add(1)?.checked_mul(128)? | (c & 127);
                }
                Some((v, i))
            },
            |v, out| {
                let mut tmp = [0u8; 10];
                let mut pos = 9;
                let mut w = v;
                tmp[pos] = (w & 127) as u8;
                while w >> 7 != 0 {
                    w = (w >> 7) - 1;
                    pos -= 1;
                    tmp[pos] = 128 | (w & 127) as u8;
                }
                let n = 10 - pos;
                out[..n].copy_from_slice(&tmp[pos..]);
                n
            },
        )]
    }
}

impl Bench1 for CompactSize {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![other(
            "byte loop",
            |b| {
                let n = match *b.first()? {
                    f @ 0..0xfd => return Some((u64::from(f), 1)),
                    0xfd => 2,
                    0xfe => 4,
                    0xff => 8,
                };
                let mut v = 0u64;
                for i in (1..=n).rev() {
                    v = v << 8 | get(b, i)?;
                }
                let min = match n {
                    2 => 0xfd,
                    4 => 0x1_0000,
                    _ => 0x1_0000_0000,
                };
                (v >= min).then_some((v, n + 1))
            },
            |v, out| {
                let (tag, n) = match v {
                    0..0xfd => {
                        out[0] = v as u8;
                        return 1;
                    }
                    0xfd..0x1_0000 => (0xfd, 2),
                    0x1_0000..0x1_0000_0000 => (0xfe, 4),
                    _ => (0xff, 8),
                };
                out[0] = tag;
                for i in 0..n {
                    out[1 + i] = (v >> (8 * i)) as u8;
                }
                n + 1
            },
        )]
    }
}

impl Bench1 for CborHead {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<Head> {
        Some(Head::new(0, u))
    }
    fn others() -> Vec<Other<Head>> {
        vec![
            other(
                "byte loop",
                |b| {
                    let first = *b.first()?;
                    let (major, ai) = (first >> 5, first & 31);
                    let n = match ai {
                        0..24 => return Some((Head::new(major, u64::from(ai)), 1)),
                        24 => 1,
                        25 => 2,
                        26 => 4,
                        27 => 8,
                        _ => return None,
                    };
                    let mut v = 0u64;
                    for i in 1..=n {
                        v = v << 8 | get(b, i)?;
                    }
                    if n == 1 && major == 7 && v < 32 {
                        return None;
                    }
                    Some((Head::new(major, v), n + 1))
                },
                |h, out| {
                    // The major type is 3 bits: ours rejects a larger one
                    // (`OutOfRange`), so the loop checks it too.
                    assert!(h.major <= 7, "CBOR major type above 7");
                    let v = h.argument;
                    let (ai, n) = match v {
                        0..24 => {
                            out[0] = h.major << 5 | v as u8;
                            return 1;
                        }
                        24..0x100 => (24, 1),
                        0x100..0x1_0000 => (25, 2),
                        0x1_0000..0x1_0000_0000 => (26, 4),
                        _ => (27, 8),
                    };
                    out[0] = h.major << 5 | ai;
                    for i in 0..n {
                        out[1 + i] = (v >> (8 * (n - 1 - i))) as u8;
                    }
                    n + 1
                },
            ),
            other(
                "ciborium-ll",
                |b| {
                    let mut d = ciborium_ll::Decoder::from(b);
                    match d.pull().ok()? {
                        ciborium_ll::Header::Positive(v) => Some((Head::new(0, v), d.offset())),
                        _ => None,
                    }
                },
                |h, out| {
                    let mut rest = &mut out[..];
                    let before = rest.len();
                    ciborium_ll::Encoder::from(&mut rest)
                        .push(ciborium_ll::Header::Positive(h.argument))
                        .unwrap();
                    before - rest.len()
                },
            ),
        ]
    }
}

impl Bench1 for MsgPack {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<i128> {
        Some(i128::from(u))
    }
    fn others() -> Vec<Other<i128>> {
        vec![
            other(
                "byte loop",
                |b| {
                    let first = *b.first()?;
                    let (n, signed) = match first {
                        0..0x80 => return Some((i128::from(first), 1)),
                        0xe0.. => return Some((i128::from(first as i8), 1)),
                        0xcc..=0xcf => (1usize << (first - 0xcc), false),
                        0xd0..=0xd3 => (1usize << (first - 0xd0), true),
                        _ => return None,
                    };
                    let mut v = 0u64;
                    for i in 1..=n {
                        v = v << 8 | get(b, i)?;
                    }
                    let v = if signed {
                        let shift = 64 - 8 * n as u32;
                        i128::from(((v << shift) as i64) >> shift)
                    } else {
                        i128::from(v)
                    };
                    Some((v, n + 1))
                },
                |v, out| {
                    // The value is an `i128`, as ours: the loop checks the
                    // range and the sign, which ours must, and writes the
                    // negative forms (the inputs here are not negative).
                    let (tag, n, u) = if v >= 0 {
                        let u = u64::try_from(v).expect("MessagePack range");
                        match u {
                            0..0x80 => {
                                out[0] = u as u8;
                                return 1;
                            }
                            0x80..0x100 => (0xcc, 1, u),
                            0x100..0x1_0000 => (0xcd, 2, u),
                            0x1_0000..0x1_0000_0000 => (0xce, 4, u),
                            _ => (0xcf, 8, u),
                        }
                    } else {
                        let s = i64::try_from(v).expect("MessagePack range");
                        match s {
                            -32.. => {
                                out[0] = s as u8;
                                return 1;
                            }
                            -0x80.. => (0xd0, 1, s as u64),
                            -0x8000.. => (0xd1, 2, s as u64),
                            -0x8000_0000.. => (0xd2, 4, s as u64),
                            _ => (0xd3, 8, s as u64),
                        }
                    };
                    out[0] = tag;
                    for i in 0..n {
                        out[1 + i] = (u >> (8 * (n - 1 - i))) as u8;
                    }
                    n + 1
                },
            ),
            other(
                "rmp",
                |b| {
                    let mut rd = b;
                    let v = rmp::decode::read_int::<i128, _>(&mut rd).ok()?;
                    Some((v, b.len() - rd.len()))
                },
                |v, out| {
                    let mut w = &mut out[..];
                    let before = w.len();
                    // rmp takes a `u64` or an `i64`: the sign picks one.
                    if v >= 0 {
                        let u = u64::try_from(v).expect("MessagePack range");
                        rmp::encode::write_uint(&mut w, u).unwrap();
                    } else {
                        let s = i64::try_from(v).expect("MessagePack range");
                        rmp::encode::write_sint(&mut w, s).unwrap();
                    }
                    before - w.len()
                },
            ),
        ]
    }
}

impl Bench1 for Bincode {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![
            other(
                "byte loop",
                |b| {
                    let n = match *b.first()? {
                        f @ 0..251 => return Some((u64::from(f), 1)),
                        251 => 2,
                        252 => 4,
                        253 => 8,
                        _ => return None,
                    };
                    let mut v = 0u64;
                    for i in (1..=n).rev() {
                        v = v << 8 | get(b, i)?;
                    }
                    Some((v, n + 1))
                },
                |v, out| {
                    let (tag, n) = match v {
                        0..251 => {
                            out[0] = v as u8;
                            return 1;
                        }
                        251..0x1_0000 => (251, 2),
                        0x1_0000..0x1_0000_0000 => (252, 4),
                        _ => (253, 8),
                    };
                    out[0] = tag;
                    for i in 0..n {
                        out[1 + i] = (v >> (8 * i)) as u8;
                    }
                    n + 1
                },
            ),
            other(
                "bincode",
                |b| bincode::decode_from_slice::<u64, _>(b, bincode::config::standard()).ok(),
                |v, out| bincode::encode_into_slice(v, out, bincode::config::standard()).unwrap(),
            ),
        ]
    }
}

impl Bench1 for Vlq {
    const BITS: u32 = 28;
    fn value(u: u64) -> Option<u32> {
        (u < 1 << 28).then_some(u as u32)
    }
    fn others() -> Vec<Other<u32>> {
        vec![other(
            "byte loop",
            |b| {
                let mut v = 0u32;
                for i in 0..4 {
                    let c = *b.get(i)?;
                    v = v << 7 | u32::from(c & 127);
                    if c < 128 {
                        return Some((v, i + 1));
                    }
                }
                None
            },
            |v, out| {
                // Ours rejects values above 0x0FFF_FFFF (`OutOfRange`): so
                // does the loop.
                let n = match v {
                    0..0x80 => 1,
                    0x80..0x4000 => 2,
                    0x4000..0x20_0000 => 3,
                    0x20_0000..0x1000_0000 => 4,
                    _ => panic!("MIDI VLQ above 0x0FFF_FFFF"),
                };
                for i in 0..n {
                    out[i] = (v >> (7 * (n - 1 - i))) as u8 & 127 | if i + 1 < n { 128 } else { 0 };
                }
                n
            },
        )]
    }
}

impl Bench1 for Prefix {
    const BITS: u32 = 64;
    fn value(u: u64) -> Option<u64> {
        Some(u)
    }
    fn others() -> Vec<Other<u64>> {
        vec![other(
            "byte loop",
            |b| {
                let first = *b.first()?;
                let extra = first.leading_ones() as usize;
                let mut v = if extra >= 7 {
                    0
                } else {
                    u64::from(first & (0x7f >> extra))
                };
                for i in 1..=extra {
                    v = v << 8 | get(b, i)?;
                }
                Some((v, extra + 1))
            },
            |v, out| {
                let bits = 64 - v.leading_zeros();
                // 7 value bits per byte up to 8 bytes (56 bits), then 9.
                let n = if bits > 56 {
                    9
                } else {
                    (bits as usize).max(1).div_ceil(7)
                };
                let extra = n - 1;
                for i in 0..n {
                    let shift = 8 * (n - 1 - i);
                    out[i] = if shift < 64 { (v >> shift) as u8 } else { 0 };
                }
                if extra < 8 {
                    out[0] |= !(0xffu8 >> extra);
                } else {
                    out[0] = 0xff;
                }
                n
            },
        )]
    }
}

/// Values of `F` bucketed by encoded length, then the five inputs.
fn inputs<F: Bench1>(seed: u64) -> Vec<(&'static str, Vec<F::Value>)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut buckets: Vec<(usize, Vec<F::Value>)> = Vec::new();
    for bits in 0..=F::BITS {
        for _ in 0..2000 {
            let u = if bits == 0 {
                0
            } else {
                rng.random::<u64>() >> (64 - bits)
            };
            let Some(v) = F::value(u) else { continue };
            let Some(len) = F::encoded_len(v) else {
                continue;
            };
            match buckets.iter_mut().find(|(l, _)| *l == len) {
                Some((_, b)) => b.push(v),
                None => buckets.push((len, vec![v])),
            }
        }
    }
    buckets.sort_by_key(|(l, _)| *l);
    let pick = |rng: &mut StdRng, b: usize| {
        let vs = &buckets[b.min(buckets.len() - 1)].1;
        vs[rng.random_range(0..vs.len())]
    };
    let n = buckets.len();
    let mut out = Vec::new();
    for (label, choose) in [
        ("1st", 0u8),
        ("2nd", 1),
        ("uniform-len", 2),
        ("longest", 3),
        ("mixed", 4),
    ] {
        let values = (0..count())
            .map(|_| {
                let b = match choose {
                    0 => 0,
                    1 => 1,
                    2 => rng.random_range(0..n),
                    3 => n - 1,
                    _ => match rng.random_range(0..100) {
                        0..60 => 0,
                        60..85 => 1,
                        85..95 => 2,
                        _ => rng.random_range(3.min(n - 1)..n),
                    },
                };
                pick(&mut rng, b)
            })
            .collect();
        out.push((label, values));
    }
    out
}

fn encode_all<F: Format>(values: &[F::Value]) -> Vec<u8> {
    let mut buf = vec![0u8; values.len() * F::MAX_LEN];
    let n = F::encode_slice(values, &mut buf).unwrap();
    buf.truncate(n);
    buf
}

fn decode_ours<F: Format>(buf: &[u8]) -> usize {
    let (mut at, mut n) = (0, 0);
    while at < buf.len() {
        let (v, len) = F::decode(&buf[at..]).unwrap();
        black_box(v);
        at += len;
        n += 1;
    }
    n
}

#[inline(always)]
fn decode_with<V>(f: impl Fn(&[u8]) -> Option<(V, usize)>, buf: &[u8]) -> usize {
    let (mut at, mut n) = (0, 0);
    while at < buf.len() {
        let (v, len) = f(&buf[at..]).unwrap();
        black_box(v);
        at += len;
        n += 1;
    }
    n
}

fn encode_ours<F: Format>(values: &[F::Value], out: &mut [u8]) -> usize {
    let mut at = 0;
    for &v in values {
        at += F::encode(v, &mut out[at..]);
    }
    at
}

#[inline(always)]
fn encode_with<V: Copy>(f: impl Fn(V, &mut [u8]) -> usize, values: &[V], out: &mut [u8]) -> usize {
    let mut at = 0;
    for &v in values {
        at += f(v, &mut out[at..]);
    }
    at
}

/// Checks every implementation on `values`, then measures them.
fn measure<F: Bench1>(dec: &mut Group<'_>, enc: &mut Group<'_>, seed: u64) {
    let others = F::others();
    for (label, values) in inputs::<F>(seed) {
        let buf = encode_all::<F>(&values);
        for Other {
            name,
            dec: d,
            enc: e,
            ..
        } in &others
        {
            let mut at = 0;
            let mut out = vec![0u8; F::MAX_LEN + 16];
            for &v in &values {
                let (got, len) = d(&buf[at..]).unwrap_or_else(|| panic!("{name} failed"));
                assert_eq!(got, v, "{name} decodes {}", F::NAME);
                let n = e(v, &mut out);
                assert_eq!(&out[..n], &buf[at..at + len], "{name} encodes {v:?}");
                at += len;
            }
        }
        let row = format!("{} {label}", F::NAME);
        let mut fns: Vec<(&str, Box<dyn FnMut() + '_>)> = vec![(
            "ours",
            Box::new(|| {
                black_box(decode_ours::<F>(black_box(&buf)));
            }),
        )];
        for o in &others {
            let buf = &buf;
            fns.push((
                o.name,
                Box::new(move || {
                    black_box((o.dec_all)(black_box(buf)));
                }),
            ));
        }
        let mut refs: Vec<(&str, &mut dyn FnMut())> =
            fns.iter_mut().map(|(n, f)| (*n, &mut **f as _)).collect();
        dec.row(&row, &mut refs);

        let mut outs: Vec<Vec<u8>> = (0..=others.len())
            .map(|_| vec![0u8; values.len() * F::MAX_LEN + 16])
            .collect();
        let (first, rest) = outs.split_first_mut().unwrap();
        let values = &values;
        let mut fns: Vec<(&str, Box<dyn FnMut() + '_>)> = vec![(
            "ours",
            Box::new(move || {
                black_box(encode_ours::<F>(black_box(values), first));
            }),
        )];
        for (o, out) in others.iter().zip(rest.iter_mut()) {
            fns.push((
                o.name,
                Box::new(move || {
                    black_box((o.enc_all)(black_box(values), out));
                }),
            ));
        }
        let mut refs: Vec<(&str, &mut dyn FnMut())> =
            fns.iter_mut().map(|(n, f)| (*n, &mut **f as _)).collect();
        enc.row(&row, &mut refs);
    }
}

/// QUIC bulk decoding: the dispatched kernel, each kernel by name, the
/// scalar loop and `octets`, on the inputs of [`measure`].
fn quic_bulk(group: &mut Group<'_>) {
    let kernel = |name: &str| {
        varint::shuffle_kernels()
            .iter()
            .find(|k| k.name() == name)
            .and_then(|k| k.codec())
    };
    let named: Vec<(&str, Option<ShuffleCodec>)> = ["avx2", "sse4.1", "portable"]
        .into_iter()
        .map(|n| (n, kernel(n)))
        .collect();
    let mut inputs = inputs::<Quic>(1);
    // One- and two-byte values, 70/30: windows that mix the two lengths.
    let mut rng = StdRng::seed_from_u64(2);
    let short = (0..count())
        .map(|_| {
            if rng.random_range(0..10) < 7 {
                rng.random_range(0..64)
            } else {
                rng.random_range(64..16384)
            }
        })
        .collect();
    inputs.insert(2, ("1st/2nd 70/30", short));
    for (label, values) in inputs {
        let buf = encode_all::<Quic>(&values);
        let mut outs = vec![vec![0u64; count()]; 2 + named.len()];
        let mut it = outs.iter_mut();
        let o = it.next().unwrap();
        let mut fns: Vec<(&str, Box<dyn FnMut() + '_>)> = vec![(
            "ours",
            Box::new(|| {
                black_box(Quic::decode_into(black_box(&buf), black_box(&mut o[..])).unwrap());
            }),
        )];
        for ((name, codec), o) in named.iter().zip(it.by_ref()) {
            let buf = &buf;
            let name = match *name {
                "avx2" => "ours[avx2]",
                "sse4.1" => "ours[sse4.1]",
                _ => "ours[scalar]",
            };
            match *codec {
                Some(c) => {
                    let mut check = vec![0u64; count()];
                    c.quic_decode_into(buf, &mut check).unwrap();
                    assert_eq!(check, values, "{name}");
                    fns.push((
                        name,
                        Box::new(move || {
                            black_box(
                                c.quic_decode_into(black_box(buf), black_box(&mut o[..]))
                                    .unwrap(),
                            );
                        }),
                    ));
                }
                None => fns.push((name, Box::new(|| {}))),
            }
        }
        let o = it.next().unwrap();
        let buf = &buf;
        fns.push((
            "octets",
            Box::new(move || {
                let mut r = octets::Octets::with_slice(black_box(buf));
                let mut n = 0;
                while r.cap() > 0 {
                    o[n] = r.get_varint().unwrap();
                    n += 1;
                }
                black_box(n);
            }),
        ));
        let mut refs: Vec<(&str, &mut dyn FnMut())> =
            fns.iter_mut().map(|(n, f)| (*n, &mut **f as _)).collect();
        group.row(&format!("QUIC {label}"), &mut refs);
    }
}

fn main() {
    let args = Args::parse(200);
    let mut tables: Vec<Table> = Vec::new();
    let mut g = args.group("quic-bulk", "ns per value", count());
    quic_bulk(&mut g);
    tables.push(g.finish());
    let (mut dec_t, mut enc_t) = (Vec::new(), Vec::new());
    macro_rules! each {
        ($($f:ty),*) => {$(
            let mut dec = args.group("decode", "ns per value", count());
            let mut enc = args.group("encode", "ns per value", count());
            measure::<$f>(&mut dec, &mut enc, 1);
            dec_t.push(dec.finish());
            enc_t.push(enc.finish());
        )*};
    }
    each!(
        Quic,
        Hpack<5>,
        Sqlite,
        Bijective,
        CompactSize,
        CborHead,
        MsgPack,
        Bincode,
        Vlq,
        Prefix
    );
    tables.extend(dec_t.into_iter().chain(enc_t));
    for t in &tables {
        print!("{}", t.markdown());
    }
    // The summary the issue asks for: ours against the fastest other.
    println!("\nours / fastest other (time ratio: above 1 is ours faster)\n");
    println!("| group | input | fastest other | ratio |\n|---|---|---|---:|");
    for t in tables.iter().filter(|t| t.group != "quic-bulk") {
        for (input, row) in &t.rows {
            let ours = row[0];
            let best = t.columns[1..]
                .iter()
                .zip(&row[1..])
                .filter(|(_, v)| !v.is_nan())
                .min_by(|a, b| a.1.total_cmp(b.1));
            if let Some((name, &theirs)) = best {
                println!("| {} | {input} | {name} | {:.2} |", t.group, theirs / ours);
            }
        }
    }
    // QUIC bulk: each of ours against the scalar loop and octets.
    println!("\nQUIC bulk decode, time ratios (above 1: the first faster)\n");
    println!(
        "| input | ours / scalar | [avx2] / scalar | [sse4.1] / scalar | ours / octets |\n|---|---:|---:|---:|---:|"
    );
    for t in tables.iter().filter(|t| t.group == "quic-bulk") {
        for (input, _) in &t.rows {
            let get = |c: &str| t.get(input, c).unwrap_or(f64::NAN);
            let scalar = get("ours[scalar]");
            println!(
                "| {input} | {:.2} | {:.2} | {:.2} | {:.2} |",
                scalar / get("ours"),
                scalar / get("ours[avx2]"),
                scalar / get("ours[sse4.1]"),
                get("octets") / get("ours"),
            );
        }
    }
    if let Some(path) = &args.svg {
        let note = format!(
            "cargo bench -p benches --bench formats_min -- {} --svg",
            args.rounds
        );
        let sections = tables
            .iter()
            .filter(|t| t.group != "quic-bulk")
            .map(|t| t.speedups("byte loop", &t.group, |_, col| Some(col.to_string())))
            .collect();
        let chart = Chart {
            title: "varint::formats: speed-up over a byte loop (ns per value, min of rounds; log scale)"
                .into(),
            note,
            sections,
            range: Some((-2, 5)),
        };
        std::fs::write(path, benches::harness::svg(&chart)).expect("write the chart");
        eprintln!("wrote {path}");
    }
}
