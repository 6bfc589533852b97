//! Every bulk decoding kernel of `varint::kernels()` that this CPU can run,
//! against one-at-a-time scalar decoding: values, count, stop offset and
//! error kind, lenient and strict, for `u64`, `u32`, `u16` and `u128`, on
//! random streams of every length mix, and with every kind of error placed
//! at every offset around the 64-byte window and the 71 bytes a window
//! reads. The output is pre-filled with a poison value that must survive
//! past the reported count. The iterators run every kernel too.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use varint::{DecodeError, KernelCodec, Varint, kernels};

/// The decoders to test: every kernel this CPU can run, from the
/// workspace registry, which says which it skips.
fn decoders() -> Vec<KernelCodec> {
    for skipped in codec_testdata::registry::varint_skipped() {
        eprintln!("not tested on this CPU: {skipped}");
    }
    let found: Vec<KernelCodec> = codec_testdata::registry::varint_decoders()
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    assert_eq!(found.last().map(|d| d.kernel().name()), Some("portable"));
    found
}

/// One-at-a-time decoding, the definition every kernel must match:
/// values, bytes taken, and the error with its offset.
fn reference<T: Varint>(
    input: &[u8],
    limit: usize,
    strict: bool,
) -> (Vec<T>, usize, Option<DecodeError>) {
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < input.len() && out.len() < limit {
        let r = if strict {
            varint::decode_strict::<T>(&input[pos..])
        } else {
            varint::decode::<T>(&input[pos..])
        };
        match r {
            Ok((v, n)) => {
                out.push(v);
                pos += n;
            }
            Err(e) => return (out, pos, Some(e)),
        }
    }
    (out, pos, None)
}

/// A value no decoder produces from the inputs below in the last slot.
trait Poison: Varint {
    const POISON: Self;
}
impl Poison for u16 {
    const POISON: Self = 0xDEAD;
}
impl Poison for u32 {
    const POISON: Self = 0xDEAD_BEEF;
}
impl Poison for u64 {
    const POISON: Self = 0xDEAD_BEEF_DEAD_BEEF;
}
impl Poison for u128 {
    const POISON: Self = 0xDEAD_BEEF_DEAD_BEEF_DEAD_BEEF_DEAD_BEEF;
}

/// Compares every decoder of `decoders` with the reference on `input`,
/// with room for `limit` values, lenient and strict (the reference
/// computed once).
fn check<T: Poison>(decoders: &[KernelCodec], input: &[u8], limit: usize) {
    for strict in [false, true] {
        let (want, pos, err) = reference::<T>(input, limit, strict);
        for &decoder in decoders {
            let mut out = vec![T::POISON; limit];
            let got = if strict {
                decoder.decode_into_strict(input, &mut out)
            } else {
                decoder.decode_into(input, &mut out)
            };
            let ctx = || {
                format!(
                    "kernel {} {} strict={strict} limit={limit} input ({} bytes) {input:02X?}",
                    decoder.kernel().name(),
                    core::any::type_name::<T>(),
                    input.len()
                )
            };
            match got {
                Ok(done) => {
                    assert_eq!(err, None, "{}", ctx());
                    assert_eq!((done.count, done.bytes), (want.len(), pos), "{}", ctx());
                }
                Err(e) => {
                    assert_eq!(Some(e.error()), err, "{}", ctx());
                    assert_eq!((e.count(), e.offset()), (want.len(), pos), "{}", ctx());
                }
            }
            assert_eq!(out[..want.len()], want[..], "{}", ctx());
            assert!(
                out[want.len()..].iter().all(|&v| v == T::POISON),
                "written past the count: {}",
                ctx()
            );
        }
    }
}

/// The iterator of `decoder` (which decodes ahead with its kernel): every
/// item, and `offset()` after every item, as one-at-a-time decoding gives
/// them.
fn check_iter<T: Poison>(decoder: KernelCodec, input: &[u8]) {
    for strict in [false, true] {
        let mut it = if strict {
            decoder.iter_strict::<T>(input)
        } else {
            decoder.iter::<T>(input)
        };
        let mut pos = 0;
        loop {
            assert_eq!(it.offset(), pos, "{input:02X?} strict={strict}");
            let want = if pos < input.len() {
                Some(if strict {
                    varint::decode_strict::<T>(&input[pos..])
                } else {
                    varint::decode::<T>(&input[pos..])
                })
            } else {
                None
            };
            let (lo, hi) = it.size_hint();
            match (it.next(), want) {
                (None, None) => break,
                (Some(Ok(v)), Some(Ok((w, n)))) => {
                    assert_eq!(v, w, "{input:02X?}");
                    assert!(lo >= 1 && hi.is_some_and(|h| h >= 1));
                    pos += n;
                }
                (Some(Err(e)), Some(Err(f))) => {
                    assert_eq!(e, f, "{input:02X?}");
                    assert_eq!(it.offset(), pos);
                    assert_eq!(it.remainder(), &input[pos..]);
                    assert_eq!(it.next(), None, "fused");
                    assert_eq!(it.size_hint(), (0, Some(0)));
                    break;
                }
                (got, want) => panic!("{input:02X?} strict={strict}: {got:?} vs {want:?}"),
            }
        }
    }
}

fn check_all_types(decoders: &[KernelCodec], input: &[u8], limit: usize) {
    // `u64` and `u32` go through the kernels; `u16` and `u128` are the
    // same code whatever the kernel, so they are checked once, with the
    // portable one (always in the list, last).
    check::<u64>(decoders, input, limit);
    check::<u32>(decoders, input, limit);
    let portable = &decoders[decoders.len() - 1..];
    check::<u16>(portable, input, limit);
    check::<u128>(portable, input, limit);
    for &decoder in decoders {
        check_iter::<u64>(decoder, input);
        check_iter::<u32>(decoder, input);
    }
    // The free function runs the dispatched kernel, the list's first.
    let free: Vec<_> = varint::iter::<u64>(input).collect();
    let first: Vec<_> = decoders[0].iter::<u64>(input).collect();
    assert_eq!(free, first);
}

/// The varint of `v`.
fn enc(v: u128) -> Vec<u8> {
    let mut buf = [0u8; 19];
    let n = varint::encode(v, &mut buf);
    buf[..n].to_vec()
}

/// A value whose encoding is exactly `len` bytes (1..=10), random within.
fn of_len(rng: &mut Rng, len: u32) -> u64 {
    let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
    let hi = if len >= 10 {
        u64::MAX
    } else {
        (1u64 << (7 * len)) - 1
    };
    lo + rng.next() % (hi - lo).saturating_add(1).max(1)
}

/// `count` varints with lengths drawn by `mix`.
fn stream(rng: &mut Rng, count: usize, mix: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..count {
        let len = match mix {
            0 => 1,
            1 => 2,
            2 => 1 + (rng.next() % 10) as u32,
            3 => 9 + (rng.next() % 2) as u32,
            4 => 1 + (rng.next() % 5) as u32, // the u32 range
            6 => 1 + (rng.next() % 2) as u32, // one and two bytes, at random
            _ => match rng.next() % 100 {
                0..60 => 1,
                60..85 => 2,
                85..95 => 3 + (rng.next() % 3) as u32,
                _ => 6 + (rng.next() % 5) as u32,
            },
        };
        out.extend(enc(of_len(rng, len).into()));
    }
    out
}

#[test]
fn dispatch_picks_the_first_available_kernel() {
    let first = kernels().iter().find(|k| k.is_available()).unwrap();
    assert_eq!(KernelCodec::new().kernel().name(), first.name());
    assert_eq!(kernels().last().unwrap().name(), "portable");
    let names: Vec<&str> = kernels().iter().map(|k| k.name()).collect();
    eprintln!(
        "kernels: {names:?}; available: {:?}",
        decoders()
            .iter()
            .map(|d| d.kernel().name())
            .collect::<Vec<_>>()
    );
}

#[test]
fn random_streams_every_mix() {
    let mut rng = Rng(0x1234_5678);
    let decoders = decoders();
    {
        for mix in 0..7 {
            for count in [0, 1, 5, 31, 32, 33, 63, 64, 65, 200, 1000] {
                let input = stream(&mut rng, count, mix);
                for limit in [count, count + 1, 31, 32, 33, 63, 64, 65, 80] {
                    check_all_types(&decoders, &input, limit);
                }
            }
        }
    }
}

/// Every prefix of a mixed stream: the kernel's stop near the end of the
/// input, at every distance.
#[test]
fn every_cut_of_a_stream() {
    let mut rng = Rng(77);
    let decoders = decoders();
    {
        for mix in [2, 5] {
            let input = stream(&mut rng, 60, mix);
            for cut in 0..=input.len() {
                check_all_types(&decoders, &input[..cut], cut + 1);
            }
        }
    }
}

/// Inputs that end a stream badly or stop a kernel, as bytes.
fn bad_varints() -> Vec<Vec<u8>> {
    let mut out = vec![
        vec![0x80],                                                       // truncated
        vec![0xFF; 3],                                                    // truncated, u16 overflow
        vec![0x80, 0x00],                                                 // padded zero
        vec![0xFF, 0x80, 0x00],                                           // padded
        vec![0x80, 0x80, 0x80, 0x80, 0x00],                               // padded, 5 bytes
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0x10],                               // u32 overflow
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0x0F],                               // u32::MAX
        vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01],                         // 6 bytes
        vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],       // 9 bytes
        vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], // padded, 10
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], // u64::MAX
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], // u64 overflow
        vec![0x80; 10],                                                   // 10 continuations
        vec![0x80; 11],
        [vec![0x80; 10], vec![0x00]].concat(), // 11 bytes
        vec![0xFF; 19],                        // u128 overflow
        [vec![0xFF; 18], vec![0x03]].concat(), // u128::MAX
        vec![0x80; 40],                        // longer than a window
    ];
    for len in 1..=10 {
        // The last byte of every length, zero (padded) and not.
        let mut v = vec![0x80u8; len];
        v[len - 1] = 0;
        out.push(v.clone());
        v[len - 1] = 0x7F;
        out.push(v);
    }
    out
}

/// Every bad varint at every offset 0..=150 (past two windows and the
/// bytes a window reads) after one-byte values, after
/// two-byte values and after a mixed stream, followed by good values.
#[test]
fn every_error_at_every_offset() {
    let mut rng = Rng(99);
    let tail = stream(&mut rng, 40, 5);
    let decoders = decoders();
    {
        for bad in bad_varints() {
            for offset in 0..=150usize {
                // One-byte values fill any offset exactly.
                let mut input = vec![0x05u8; offset];
                input.extend(&bad);
                input.extend(&tail);
                check_all_types(&decoders, &input, input.len() + 1);
                // And the same cut right after the bad varint.
                check_all_types(&decoders, &input[..offset + bad.len()], input.len());
                // Two-byte values before it, plus one byte for odd offsets.
                let mut input = [0x81u8, 0x01].repeat(offset / 2);
                input.extend(vec![0x05; offset % 2]);
                input.extend(&bad);
                input.extend(&tail);
                check_all_types(&decoders, &input, input.len() + 1);
                // One- and two-byte values at random before it (the
                // kernels' eight-at-a-time path), filling the offset.
                let mut input = Vec::new();
                while input.len() < offset {
                    let two = offset - input.len() >= 2 && rng.next().is_multiple_of(2);
                    input.extend(enc(if two { 300 + rng.next() % 16000 } else { 7 }.into()));
                }
                input.extend(&bad);
                input.extend(&tail);
                check_all_types(&decoders, &input, input.len() + 1);
            }
            // After a mixed stream of random lengths, many times.
            for _ in 0..20 {
                let count = (rng.next() % 30) as usize;
                let mut input = stream(&mut rng, count, 5);
                input.extend(&bad);
                input.extend(&tail);
                check_all_types(&decoders, &input, input.len() + 1);
            }
        }
    }
}

/// Random bytes with the continuation bit set at random: every shape of
/// stream, valid or not.
#[test]
fn random_byte_soup() {
    let mut rng = Rng(2024);
    let decoders = decoders();
    {
        for round in 0..3000 {
            let len = (rng.next() % 160) as usize;
            let density = rng.next() % 8; // how often a byte continues
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    let b = rng.next() as u8;
                    let zero = rng.next().is_multiple_of(16);
                    let b = if zero { 0 } else { b };
                    if rng.next() % 8 < density {
                        b | 0x80
                    } else {
                        b & 0x7F
                    }
                })
                .collect();
            let limit = if round % 4 == 0 {
                (rng.next() % 80) as usize
            } else {
                len + 1
            };
            check_all_types(&decoders, &input, limit);
        }
    }
}

/// The kernel at every starting alignment of the input and with a long
/// run of one-byte values (its widening path), into every type.
#[test]
fn alignments_and_one_byte_runs() {
    let mut rng = Rng(5);
    let body = [
        vec![0x7Fu8; 100],
        stream(&mut rng, 50, 1),
        vec![0x00; 70],
        stream(&mut rng, 50, 2),
    ]
    .concat();
    let mut backing = vec![0u8; 64];
    backing.extend(&body);
    let decoders = decoders();
    {
        for shift in 0..=40 {
            let input = &backing[64 - shift.min(64)..];
            let input = &input[shift.min(64)..];
            check_all_types(&decoders, input, input.len() + 1);
            check_all_types(&decoders, &body[shift..], body.len());
        }
    }
}

/// `usize` decodes as the integer of its width does.
#[test]
fn usize_through_the_kernel() {
    let mut rng = Rng(8);
    let input = stream(&mut rng, 300, 5);
    for decoder in decoders() {
        let mut a = vec![0usize; 300];
        let mut b = vec![0u64; 300];
        let ra = decoder.decode_into(&input, &mut a).unwrap();
        let rb = decoder.decode_into(&input, &mut b).unwrap();
        assert_eq!((ra.count, ra.bytes), (rb.count, rb.bytes));
        assert!(a.iter().zip(&b).all(|(&x, &y)| x as u64 == y));
    }
}
