//! Over-read detection on real hardware for the varint decoders and
//! encoders: inputs (complete, truncated, overlong, overflowing) end exactly
//! at a `PROT_NONE` guard page, so a wide load that reads past the slice —
//! such as an 8-byte load on a short tail — kills the test with SIGSEGV.
//! Output buffers for `try_encode` end at a guard page too, so a write past
//! them faults. Answers are compared with the same call on ordinary memory,
//! and with the expected error for truncated input.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`, whose own
//! tests prove that a read past the end faults.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

use codec_testdata::guard::GuardedBuf;
use varint::{DecodeError, ReadVarint, Varint};

/// Values at every length boundary of `T`, as u128, cut to `T`'s range.
fn edge_values(bits: u32) -> Vec<u128> {
    let max = if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let mut out = vec![0, 1, max, max - 1];
    for k in 1..=19 {
        let p = 1u128 << (7 * k).min(127);
        out.extend([p - 1, p, p + 1]);
    }
    out.retain(|&v| v <= max);
    out
}

/// Every single-value decoder on `guarded`, compared with ordinary memory.
fn decode_all_ways<T: Varint>(guarded: &[u8], original: &[u8]) {
    assert_eq!(
        varint::decode::<T>(guarded),
        varint::decode::<T>(original),
        "{original:02X?}"
    );
    assert_eq!(
        varint::decode_strict::<T>(guarded),
        varint::decode_strict::<T>(original),
        "{original:02X?}"
    );
    let guarded_iter: Vec<_> = varint::iter::<T>(guarded).collect();
    let original_iter: Vec<_> = varint::iter::<T>(original).collect();
    assert_eq!(guarded_iter, original_iter, "{original:02X?}");
    let guarded_iter: Vec<_> = varint::iter_strict::<T>(guarded).collect();
    let original_iter: Vec<_> = varint::iter_strict::<T>(original).collect();
    assert_eq!(guarded_iter, original_iter, "{original:02X?}");
    let mut a = vec![T::default(); original.len() + 1];
    let mut b = vec![T::default(); original.len() + 1];
    assert_eq!(
        varint::decode_into::<T>(guarded, &mut a),
        varint::decode_into::<T>(original, &mut b),
        "{original:02X?}"
    );
    assert_eq!(a, b);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    assert_eq!(
        varint::decode_into_vec::<T>(guarded, &mut a),
        varint::decode_into_vec::<T>(original, &mut b),
        "{original:02X?}"
    );
    assert_eq!(a, b);
    let mut reader = guarded;
    let r = reader.read_varint::<T>().map_err(|e| e.kind());
    let mut reader = original;
    assert_eq!(r, reader.read_varint::<T>().map_err(|e| e.kind()));
}

fn check_width<T>(bits: u32)
where
    T: Varint + TryFrom<u128>,
    <T as TryFrom<u128>>::Error: core::fmt::Debug,
{
    let mut buf = GuardedBuf::new(64);
    let mut enc = [0u8; 19];
    for v in edge_values(bits) {
        let value = T::try_from(v).unwrap();
        let n = varint::encode(value, &mut enc);
        // The whole encoding, then every truncation of it, at the boundary.
        for cut in 0..=n {
            let original = &enc[..cut];
            let guarded = buf.at_end(original);
            let want = if cut == n {
                Ok((value, n))
            } else {
                Err(DecodeError::Truncated)
            };
            assert_eq!(varint::decode::<T>(guarded), want, "{original:02X?}");
            decode_all_ways::<T>(guarded, original);
        }
        // Followed by a second, truncated value: the bulk decoders must stop
        // at it without reading on.
        let mut two = enc[..n].to_vec();
        two.push(0x80);
        decode_all_ways::<T>(buf.at_end(&two), &two);
        // try_encode into an output buffer that ends at the guard page:
        // exactly long enough, and one byte short.
        let out = buf.at_end_mut(n);
        assert_eq!(varint::try_encode(value, out), Ok(n));
        assert_eq!(out, &enc[..n]);
        let out = buf.at_end_mut(n - 1);
        assert!(varint::try_encode(value, out).is_err());
    }
    // Every length 0..=24 of continuation bytes (truncated or overflowing),
    // of 0xFF, and of continuation bytes ending in a padded zero.
    for len in 0..=24 {
        for fill in [0x80u8, 0xFF] {
            let input = vec![fill; len];
            decode_all_ways::<T>(buf.at_end(&input), &input);
        }
        let mut input = vec![0x80u8; len];
        if let Some(last) = input.last_mut() {
            *last = 0;
        }
        decode_all_ways::<T>(buf.at_end(&input), &input);
        let mut input = vec![0xFFu8; len];
        if let Some(last) = input.last_mut() {
            *last = 0x7F;
        }
        decode_all_ways::<T>(buf.at_end(&input), &input);
    }
}

#[test]
fn u16_at_a_guard_page() {
    check_width::<u16>(16);
}

#[test]
fn u32_at_a_guard_page() {
    check_width::<u32>(32);
}

#[test]
fn u64_at_a_guard_page() {
    check_width::<u64>(64);
}

#[test]
fn u128_at_a_guard_page() {
    check_width::<u128>(128);
}

#[test]
fn signed_at_a_guard_page() {
    let mut buf = GuardedBuf::new(64);
    let mut enc = [0u8; 10];
    for v in [0i64, -1, 1, i64::MIN, i64::MAX, -64, 64, -65] {
        let n = varint::encode_signed(v, &mut enc);
        for cut in 0..=n {
            let guarded = buf.at_end(&enc[..cut]);
            let want = if cut == n {
                Ok((v, n))
            } else {
                Err(DecodeError::Truncated)
            };
            assert_eq!(varint::decode_signed::<i64>(guarded), want);
            assert_eq!(varint::decode_signed_strict::<i64>(guarded), want);
        }
    }
}

/// `usize` goes through the same code as the width it equals; check it at
/// the boundary too.
#[test]
fn usize_at_a_guard_page() {
    let mut buf = GuardedBuf::new(64);
    let mut enc = [0u8; 10];
    for v in [0usize, 127, 128, usize::MAX] {
        let n = varint::encode(v, &mut enc);
        for cut in 0..=n {
            let original = &enc[..cut];
            decode_all_ways::<usize>(buf.at_end(original), original);
        }
    }
}

/// Every bulk kernel this CPU runs, on streams of every length up to 200
/// bytes (one-byte runs, mixed lengths, long varints, errors at the end)
/// that end exactly at the guard page, and that start right after one:
/// a window or word read past either end faults.
#[test]
fn kernels_at_a_guard_page() {
    let mut buf = GuardedBuf::new(4096);
    let mut enc = [0u8; 10];
    let mut streams: Vec<Vec<u8>> = vec![vec![0x05; 200], vec![0x80; 200]];
    let mut mixed = Vec::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    while mixed.len() < 200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = x >> (x % 64);
        let n = varint::encode(v, &mut enc);
        mixed.extend_from_slice(&enc[..n]);
    }
    streams.push(mixed.clone());
    let mut long = Vec::new();
    while long.len() < 200 {
        long.extend_from_slice(&[0xFF; 9]);
        long.push(0x01);
    }
    streams.push(long);
    // A two-byte varint among one-byte ones, so the window is not all
    // one-byte values: the one- and two-byte path (pairs of bytes, and with
    // `pext` eight varints from a 16-byte load). The word read at a
    // window's last byte, the farthest read, is `window_edges_at_a_guard_page`'s.
    for every in [3, 16, 31, 32, 33, 63, 64, 65] {
        let mut s = Vec::new();
        while s.len() < 200 {
            if s.len() % every == 0 {
                s.extend_from_slice(&[0x81, 0x01]);
            } else {
                s.push(0x05);
            }
        }
        streams.push(s);
    }
    for (_, decoder) in codec_testdata::registry::varint_decoders() {
        for stream in &streams {
            for len in 0..=stream.len() {
                let original = &stream[..len];
                let mut a = vec![0u64; len + 1];
                let mut b = vec![0u64; len + 1];
                let want = varint::decode_into::<u64>(original, &mut b);
                let guarded = buf.at_end(original);
                assert_eq!(decoder.decode_into::<u64>(guarded, &mut a), want);
                assert_eq!(a, b);
                let mut a32 = vec![0u32; len + 1];
                let mut b32 = vec![0u32; len + 1];
                let want = varint::decode_into_strict::<u32>(original, &mut b32);
                let guarded = buf.at_end(original);
                assert_eq!(decoder.decode_into_strict::<u32>(guarded, &mut a32), want);
                assert_eq!(a32, b32);
                let guarded = buf.at_start(original);
                assert_eq!(
                    decoder.decode_into_strict::<u64>(guarded, &mut a),
                    varint::decode_into_strict::<u64>(original, &mut b)
                );
            }
        }
    }
}

/// Signed LEB128 decoders on every cut of edge values, and on runs of
/// continuation bytes, ending at the guard page.
#[test]
fn sleb128_at_a_guard_page() {
    use varint::sleb128;
    let mut buf = GuardedBuf::new(64);
    let mut enc = [0u8; 19];
    let mut values: Vec<i128> = vec![0, -1, 1, i128::MIN, i128::MAX];
    for k in 1..127 {
        values.extend([1i128 << k, -(1i128 << k), (1i128 << k) - 1]);
    }
    for v in values {
        let n = sleb128::encode(v, &mut enc);
        for cut in 0..=n {
            let original = &enc[..cut];
            let guarded = buf.at_end(original);
            assert_eq!(
                sleb128::decode::<i128>(guarded),
                sleb128::decode::<i128>(original)
            );
            assert_eq!(
                sleb128::decode_strict::<i64>(guarded),
                sleb128::decode_strict::<i64>(original)
            );
            assert_eq!(
                sleb128::decode::<i32>(guarded),
                sleb128::decode::<i32>(original)
            );
            assert_eq!(
                sleb128::decode::<i16>(guarded),
                sleb128::decode::<i16>(original)
            );
        }
        let out = buf.at_end_mut(n);
        assert_eq!(sleb128::try_encode(v, out), Ok(n));
    }
    for len in 0..=24 {
        for fill in [0x80u8, 0xFF] {
            let input = vec![fill; len];
            let guarded = buf.at_end(&input);
            assert_eq!(
                sleb128::decode::<i128>(guarded),
                sleb128::decode::<i128>(&input)
            );
            assert_eq!(
                sleb128::decode::<i64>(guarded),
                sleb128::decode::<i64>(&input)
            );
        }
    }
}

/// Bulk encoding into a buffer that ends exactly at the guard page, exact
/// size: the kernels' stores past a varint must stay inside the encoding.
#[test]
fn encode_slice_at_a_guard_page() {
    let mut buf = GuardedBuf::new(8192);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut values = Vec::new();
    for i in 0..300u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        values.push(match i % 4 {
            0 => x % 128,
            1 => x >> (x % 64),
            2 => x % 20_000,
            _ => x,
        });
    }
    for (_, codec) in codec_testdata::registry::varint_decoders() {
        for count in 0..=values.len() {
            let v = &values[..count];
            let total = codec.encoded_len_slice(v);
            let out = buf.at_end_mut(total);
            assert_eq!(codec.encode_slice(v, out), Ok(total));
            let mut back = vec![0u64; count];
            assert_eq!(
                varint::decode_into(out, &mut back).map(|d| d.count),
                Ok(count)
            );
            assert_eq!(back, v);
        }
    }
}

/// The bytes a kernel reads from a window's start (`arch::kernel::READ`:
/// the 64-byte window and the 8-byte word of a varint at its last byte).
const READ: usize = 64 - 1 + 8;

/// The shapes a window can end with, each ending at the window's byte 63:
/// a complete varint of every length 1..=10 (canonical, padded with zero
/// groups, with a last byte that overflows `u32` or `u64`), and 1..=11
/// continuation bytes that the window does not end (a varint cut off by the
/// window, and by the input when nothing follows).
fn window_ends() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in 1..=10 {
        for (mid, last) in [(0xFF, 0x01), (0x80, 0x00), (0xFF, 0x7F), (0x80, 0x02)] {
            let mut v = vec![mid; n - 1];
            v.push(last);
            out.push(v);
        }
    }
    for m in 1..=11 {
        out.push(vec![0x80; m]);
        out.push(vec![0xFF; m]);
    }
    out
}

/// `len` bytes of varints that start a window and route it through each of
/// the kernels' paths: a 3-byte varint first (a word at every varint start,
/// for the kernels without groups); `pairs` two-byte varints first (the
/// one- and two-byte path; with `pext`, eight at a time, whose 16-byte load
/// reaches byte 70 when the eight start at byte 55: `pairs` = 7); a 5-byte
/// varint first (longer than a `u32` group: a word in the VBMI2 kernel too);
/// 3-byte varints up to the end. The rest is one-byte varints.
fn window_bodies(len: usize) -> Vec<Vec<u8>> {
    let ones = |head: &[u8]| {
        let mut v = head.to_vec();
        v.resize(len, 0x05);
        v
    };
    let mut out = vec![
        ones(&[0x80, 0x80, 0x01]),
        ones(&[0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ];
    for pairs in 0..=9 {
        out.push(ones(&[0x81, 0x01].repeat(pairs)));
    }
    let mut threes = vec![0x05; len % 3];
    threes.extend([0x80, 0x80, 0x01].repeat(len / 3));
    out.push(threes);
    out
}

/// Every decoder of `codec` on `guarded` (an input that ends at the guard
/// page) against the portable kernel on `original`: bulk into `u64` and
/// `u32`, lenient and strict, `decode_into_vec`, and the iterators.
fn check_against_portable(
    codec: varint::KernelCodec,
    portable: varint::KernelCodec,
    guarded: &[u8],
    original: &[u8],
) {
    against_portable::<u64>(codec, portable, guarded, original);
    against_portable::<u32>(codec, portable, guarded, original);
}

/// [`check_against_portable`] for one output type `T`.
fn against_portable<T: Varint + core::fmt::Debug>(
    codec: varint::KernelCodec,
    portable: varint::KernelCodec,
    guarded: &[u8],
    original: &[u8],
) {
    let ctx = || {
        format!(
            "{} into {} on {} bytes {original:02X?}",
            codec.kernel().name(),
            core::any::type_name::<T>(),
            original.len()
        )
    };
    let len = original.len();
    let (mut a, mut b) = (vec![T::default(); len + 1], vec![T::default(); len + 1]);
    assert_eq!(
        codec.decode_into(guarded, &mut a),
        portable.decode_into(original, &mut b),
        "{}",
        ctx()
    );
    assert_eq!(a, b, "{}", ctx());
    assert_eq!(
        codec.decode_into_strict(guarded, &mut a),
        portable.decode_into_strict(original, &mut b),
        "{}",
        ctx()
    );
    assert_eq!(a, b, "{}", ctx());
    let (mut a, mut b) = (Vec::<T>::new(), Vec::<T>::new());
    assert_eq!(
        codec.decode_into_vec(guarded, &mut a),
        portable.decode_into_vec(original, &mut b),
        "{}",
        ctx()
    );
    assert_eq!(a, b, "{}", ctx());
    for strict in [false, true] {
        let (mut it, mut want) = if strict {
            (
                codec.iter_strict::<T>(guarded),
                portable.iter_strict::<T>(original),
            )
        } else {
            (codec.iter::<T>(guarded), portable.iter::<T>(original))
        };
        assert!(it.by_ref().eq(want.by_ref()), "{} strict={strict}", ctx());
        assert_eq!(it.offset(), want.offset(), "{}", ctx());
    }
}

/// The farthest reads of every kernel, against the guard page: a window
/// whose last varint (of every length, complete, padded, overflowing or cut
/// off) ends at its byte 63, then 0..=12 more bytes, so the input ends at
/// the window's start plus `READ - 7 ..= READ + 5`; at `READ` exactly, a
/// one-byte varint at byte 63 is read with an 8-byte word ending at the
/// input's last byte, and the `pext` kernel's eight-at-a-time load from
/// byte 55 ends there too. The window starts the input, follows a window
/// of one-byte varints (64 of them), and follows a window that ends with a
/// one-byte varint at byte 63 itself. Every kernel this CPU runs, bulk into
/// `u64` and `u32`, lenient and strict, `decode_into_vec` and the iterators,
/// each against the portable kernel on ordinary memory.
#[test]
fn window_edges_at_a_guard_page() {
    let mut buf = GuardedBuf::new(4096);
    let mut word_window = vec![0x80, 0x80, 0x01];
    word_window.resize(64, 0x05);
    let prefixes = [Vec::new(), vec![0x05; 64], word_window];
    let codecs = codec_testdata::registry::varint_decoders();
    let portable = codecs.last().unwrap().1;
    assert_eq!(portable.kernel().name(), "portable");
    let mut inputs = 0;
    for end in window_ends() {
        for body in window_bodies(64 - end.len()) {
            let window = [body, end.clone()].concat();
            assert_eq!(window.len(), 64);
            for prefix in &prefixes {
                for fill in [&[0x05u8][..], &[0x80], &[0x01, 0x80, 0x80]] {
                    // The input ends at the window's start plus `until`.
                    for until in READ - 7..=READ + 5 {
                        let mut input = [prefix.as_slice(), &window].concat();
                        input.extend(fill.iter().cycle().take(until - 64));
                        inputs += 1;
                        let guarded = buf.at_end(&input);
                        for &(_, codec) in &codecs {
                            check_against_portable(codec, portable, guarded, &input);
                        }
                    }
                }
            }
        }
    }
    eprintln!("{inputs} inputs, each against every kernel");
}
