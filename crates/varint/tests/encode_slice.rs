//! Bulk encoding with every kernel this CPU runs: the bytes equal the
//! one-at-a-time encodings back to back, `encoded_len_slice` their length,
//! nothing is written past the encoding (the buffer is pre-filled with a
//! poison byte) or at all when the buffer is too small, for every length
//! mix, every count around the kernel's 8-value steps, and every type.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use varint::{KernelCodec, Varint};

fn codecs() -> Vec<KernelCodec> {
    for skipped in codec_testdata::registry::varint_skipped() {
        eprintln!("not tested on this CPU: {skipped}");
    }
    codec_testdata::registry::varint_decoders()
        .into_iter()
        .map(|(_, c)| c)
        .collect()
}

/// The reference: `encode` of each value, back to back.
fn one_by_one<T: Varint>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 19];
    for &v in values {
        let n = varint::encode(v, &mut buf);
        out.extend_from_slice(&buf[..n]);
    }
    out
}

const POISON: u8 = 0xA5;

fn check<T: Varint>(codec: KernelCodec, values: &[T]) {
    let want = one_by_one(values);
    let name = codec.kernel().name();
    assert_eq!(codec.encoded_len_slice(values), want.len(), "{name} len");
    // Exactly the room needed, and more.
    for extra in [0, 1, 9, 100] {
        let mut out = vec![POISON; want.len() + extra];
        assert_eq!(
            codec.encode_slice(values, &mut out),
            Ok(want.len()),
            "{name}"
        );
        assert_eq!(&out[..want.len()], &want[..], "{name} {values:?}");
        assert!(
            out[want.len()..].iter().all(|&b| b == POISON),
            "{name}: wrote past the encoding"
        );
    }
    // Too little room: an error, and nothing written.
    for short in [1, 2, 9] {
        if want.len() >= short {
            let mut out = vec![POISON; want.len() - short];
            let err = codec.encode_slice(values, &mut out).unwrap_err();
            assert_eq!((err.needed(), err.available()), (want.len(), out.len()));
            assert!(
                out.iter().all(|&b| b == POISON),
                "{name}: wrote into a short buffer"
            );
        }
    }
}

fn value_of_len(rng: &mut Rng, len: u32) -> u64 {
    let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
    let hi = if len >= 10 {
        u64::MAX
    } else {
        (1u64 << (7 * len)) - 1
    };
    lo + rng.next() % (hi - lo).saturating_add(1).max(1)
}

fn values(rng: &mut Rng, count: usize, mix: u32) -> Vec<u64> {
    (0..count)
        .map(|i| {
            let r = rng.next();
            let len = match mix {
                0 => 1,
                1 => 2,
                2 => 1 + (r % 10) as u32,
                3 => return rng.next(),
                4 => 1 + (r % 5) as u32,
                // One-byte runs broken every ninth value.
                5 => {
                    if i % 9 == 0 {
                        3
                    } else {
                        1
                    }
                }
                _ => match r % 100 {
                    0..60 => 1,
                    60..85 => 2,
                    85..95 => 3 + (r % 3) as u32,
                    _ => 6 + (r % 5) as u32,
                },
            };
            value_of_len(rng, len)
        })
        .collect()
}

#[test]
fn every_kernel_every_mix_every_count() {
    let mut rng = Rng(0xE2C0DE);
    for codec in codecs() {
        for mix in 0..7 {
            for count in (0..=40).chain([63, 64, 65, 200, 1000]) {
                let v = values(&mut rng, count, mix);
                check::<u64>(codec, &v);
                let v32: Vec<u32> = v.iter().map(|&x| x as u32).collect();
                check::<u32>(codec, &v32);
                let v16: Vec<u16> = v.iter().map(|&x| x as u16).collect();
                check::<u16>(codec, &v16);
                let v128: Vec<u128> = v.iter().map(|&x| u128::from(x) << (x % 65)).collect();
                check::<u128>(codec, &v128);
                let vs: Vec<usize> = v.iter().map(|&x| x as usize).collect();
                check::<usize>(codec, &vs);
            }
        }
    }
}

#[test]
fn every_length_boundary() {
    let mut edges = vec![0u64, u64::MAX];
    for k in 1..10 {
        let p = 1u64 << (7 * k);
        edges.extend([p - 1, p, p + 1]);
    }
    for codec in codecs() {
        // Every edge value after every count of one-byte values.
        for &e in &edges {
            for lead in 0..20 {
                let mut v = vec![5u64; lead];
                v.push(e);
                v.extend([e; 17]);
                check::<u64>(codec, &v);
            }
        }
    }
}

#[test]
fn free_functions_and_vec() {
    let mut rng = Rng(4);
    let v = values(&mut rng, 500, 6);
    let want = one_by_one(&v);
    assert_eq!(varint::encoded_len_slice(&v), want.len());
    let mut out = vec![0u8; want.len()];
    assert_eq!(varint::encode_slice(&v, &mut out), Ok(want.len()));
    assert_eq!(out, want);
    let mut vec = vec![1, 2, 3];
    assert_eq!(varint::encode_slice_into_vec(&v, &mut vec), want.len());
    assert_eq!(&vec[..3], [1, 2, 3]);
    assert_eq!(&vec[3..], &want[..]);
    // And back.
    let mut back = Vec::new();
    assert_eq!(
        varint::decode_into_vec::<u64>(&vec[3..], &mut back),
        Ok(v.len())
    );
    assert_eq!(back, v);
}
