//! Proofs by enumeration: every scalar value through every conversion,
//! every UTF-16 pair in which either unit is a surrogate, every UTF-8
//! sequence of up to 3 bytes, and (`#[ignore]`d, run by `cargo xtask
//! exhaustive`) every UTF-8 sequence of 4 bytes.
//!
//! Where a sequence can only show its error alone (strict conversions stop
//! at the first one), it is converted alone; everything else is packed into
//! long buffers, so that the kernels see each case in the middle of their
//! blocks too, and compared with std's lossy conversion of the same buffer.

use crate::dirs::*;
use crate::harness::{Caps, check};
use transcode::{BomMode, ByteOrder, Endianness, ErrorKind, Transcoder};

/// Every scalar value, in order; under emulation (`cargo xtask cross`,
/// `codec_testdata::emulated`) every 61st and the edges of each UTF-8 and
/// UTF-16 length, where the code's behaviour changes.
fn all_chars() -> impl Iterator<Item = char> {
    let emulated = codec_testdata::emulated();
    (0..=0x10_FFFFu32)
        .filter(move |&v| {
            !emulated
                || v % 61 == 0
                || [
                    0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x1_0000, 0x10_FFFF,
                ]
                .iter()
                .any(|&e: &u32| v.abs_diff(e) <= 1)
        })
        .filter_map(char::from_u32)
}

#[test]
fn every_scalar_value_through_every_conversion() {
    let text: String = all_chars().collect();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let utf32: Vec<u32> = text.chars().map(u32::from).collect();
    let latin1: Vec<u8> = (0..=255).collect();
    let ts = transcoders();
    check_utf8(&ts, text.as_bytes(), Caps::Roomy);
    // Shifted by 1 to 3 bytes, so each character also lands at other
    // offsets of a block (the kernels' part: UTF-16 stands for all).
    for shift in 1..4 {
        let mut shifted = "a".repeat(shift);
        shifted.push_str(&text);
        check(&UTF8_TO_UTF16, &ts, shifted.as_bytes(), Caps::Roomy);
    }
    check_utf16(&ts, &utf16, Caps::Roomy);
    check(&UTF16_TO_UTF8, &ts, &utf16[1..], Caps::Roomy);
    check_utf32(&ts, &utf32, Caps::Roomy);
    check_latin1(&ts, &latin1, Caps::Roomy);
}

#[test]
fn every_scalar_value_alone() {
    // One character: no kernel runs, so the dispatched kernels stand for
    // all. Each conversion against std's encoding of the character.
    let t = Transcoder::new();
    let (mut b8, mut b16, mut b32) = ([0u8; 8], [0u16; 4], [0u32; 2]);
    for c in all_chars() {
        let mut utf8 = [0u8; 4];
        let utf8 = c.encode_utf8(&mut utf8).as_bytes();
        let mut utf16 = [0u16; 2];
        let utf16 = &*c.encode_utf16(&mut utf16);
        let utf32 = [u32::from(c)];
        let n = t.utf8_to_utf16(utf8, &mut b16).unwrap();
        assert_eq!(&b16[..n], utf16, "{c:?}");
        let n = t.utf16_to_utf8(utf16, &mut b8).unwrap();
        assert_eq!(&b8[..n], utf8, "{c:?}");
        let n = t.utf8_to_utf32(utf8, &mut b32).unwrap();
        assert_eq!(&b32[..n], &utf32, "{c:?}");
        let n = t.utf32_to_utf8(&utf32, &mut b8).unwrap();
        assert_eq!(&b8[..n], utf8, "{c:?}");
        let n = t.utf16_to_utf32(utf16, &mut b32).unwrap();
        assert_eq!(&b32[..n], &utf32, "{c:?}");
        let n = t.utf32_to_utf16(&utf32, &mut b16).unwrap();
        assert_eq!(&b16[..n], utf16, "{c:?}");
        let latin1 = u8::try_from(u32::from(c)).ok();
        let got = t.utf8_to_latin1(utf8, &mut b8).ok().map(|_| b8[0]);
        assert_eq!(got, latin1, "{c:?}");
        let got = t.utf16_to_latin1(utf16, &mut b8).ok().map(|_| b8[0]);
        assert_eq!(got, latin1, "{c:?}");
        let got = t.utf32_to_latin1(&utf32, &mut b8).ok().map(|_| b8[0]);
        assert_eq!(got, latin1, "{c:?}");
        let s = core::str::from_utf8(utf8).unwrap();
        assert_eq!(t.count_chars(s), 1);
        assert_eq!(t.utf16_len(s), utf16.len());
        assert_eq!(t.utf8_len_from_utf16(utf16), utf8.len());
        assert_eq!(t.utf8_len_from_utf32(&utf32), utf8.len());
        assert_eq!(t.utf16_len_from_utf32(&utf32), utf16.len());
    }
    for b in 0..=255u8 {
        let c = char::from(b);
        let n = t.latin1_to_utf8(&[b], &mut b8).unwrap();
        assert_eq!(&b8[..n], c.to_string().as_bytes());
        let n = t.latin1_to_utf16(&[b], &mut b16).unwrap();
        assert_eq!(&b16[..n], &[u16::from(b)]);
        let n = t.latin1_to_utf32(&[b], &mut b32).unwrap();
        assert_eq!(&b32[..n], &[u32::from(b)]);
    }
}

#[test]
fn every_utf32_value_that_is_not_a_scalar_value_at_the_edges() {
    // Surrogates, all of them; values above U+10FFFF at the edges of each
    // bit width.
    let mut bad: Vec<u32> = (0xD800..=0xDFFF).collect();
    bad.extend((17..32).flat_map(|bits| [1u32 << bits, (1u32 << bits) | 0xFFFF]));
    bad.extend([0x11_0000, 0x11_0001, u32::MAX, u32::MAX - 1]);
    let ts = transcoders();
    for &u in &bad {
        check_utf32(&ts[ts.len() - 1..], &[u], Caps::All);
        check_utf32(&ts, &[0x61, u, 0x62], Caps::Roomy);
    }
    // All of them in one buffer between valid units, for the kernels.
    let mut buf = Vec::new();
    for &u in &bad {
        buf.extend_from_slice(&[0x61, 0x1F600, u]);
    }
    check_utf32(&ts, &buf, Caps::Roomy);
}

/// Checks `units` with the lossy and counting entry points only (the
/// strict ones stop at the first error), for each of `ts`; with `bytes`,
/// also the byte forms in both orders.
fn check_lossy_utf16(ts: &[Transcoder], units: &[u16], bytes: bool) {
    let want = String::from_utf16_lossy(units);
    let want32: Vec<u32> = want.chars().map(u32::from).collect();
    let decoded = char::decode_utf16(units.iter().copied()).count();
    let mut out8 = vec![0u8; 3 * units.len()];
    let mut out32 = vec![0u32; units.len()];
    for t in ts {
        let n = t.utf16_to_utf8_lossy(units, &mut out8).unwrap();
        assert!(
            out8[..n] == *want.as_bytes(),
            "{} {:04X?}",
            t.name(),
            &units[..4]
        );
        let n = t.utf16_to_utf32_lossy(units, &mut out32).unwrap();
        assert!(out32[..n] == *want32, "{} {:04X?}", t.name(), &units[..4]);
        assert_eq!(t.count_chars_utf16(units), decoded, "{}", t.name());
        assert_eq!(t.utf8_len_from_utf16(units), want.len(), "{}", t.name());
    }
    if !bytes {
        return;
    }
    // The byte forms, swapped and not, with the dispatched kernels.
    let t = Transcoder::new();
    for order in [Endianness::Little, Endianness::Big] {
        let bytes: Vec<u8> = units
            .iter()
            .flat_map(|&u| match order {
                Endianness::Little => u.to_le_bytes(),
                Endianness::Big => u.to_be_bytes(),
            })
            .collect();
        let n = t
            .utf16_bytes_to_utf8_lossy(&bytes, &mut out8, ByteOrder::new(order, BomMode::Keep))
            .unwrap();
        assert!(
            out8[..n] == *want.as_bytes(),
            "{order:?} {:04X?}",
            &units[..4]
        );
    }
}

#[test]
fn every_utf16_pair_with_a_surrogate() {
    // For each surrogate s, one buffer s, 0, s, 1, s, 2, ..., s, FFFF holds
    // every pair (s, u) and every pair (u, s). All of them with the
    // dispatched kernels; with every kernel set, the surrogates at the
    // edges of the ranges and a spread between them.
    let all = transcoders();
    let dispatched = [Transcoder::new()];
    let mut units = Vec::with_capacity(2 * 65536 + 1);
    for s in 0xD800..=0xDFFFu16 {
        let edge = matches!(
            s,
            0xD800 | 0xD801 | 0xDBFE | 0xDBFF | 0xDC00 | 0xDC01 | 0xDFFE | 0xDFFF
        );
        if codec_testdata::emulated() && !edge && s % 61 != 0 {
            // Under emulation: the edges and a spread only.
            continue;
        }
        units.clear();
        for u in 0..=0xFFFFu16 {
            units.extend_from_slice(&[s, u]);
        }
        units.push(s);
        let ts: &[Transcoder] = if edge || s % 61 == 0 {
            &all
        } else {
            &dispatched
        };
        check_lossy_utf16(ts, &units, edge);
    }
    // And each pair alone, strictly, for the pairs whose answer depends on
    // both units: a lead followed by anything, anything followed by a trail.
    let t = Transcoder::new();
    let mut out = [0u8; 8];
    let step = if codec_testdata::emulated() { 61 } else { 1 };
    for s in (0xD800..=0xDBFFu16).step_by(step) {
        for u in (0..=0xFFFFu16).step_by(97).chain(0xDC00..=0xDFFF) {
            let pair = [s, u];
            let want = String::from_utf16(&pair);
            let got = t.utf16_to_utf8(&pair, &mut out);
            assert_eq!(got.is_ok(), want.is_ok(), "{pair:04X?}");
            if let Ok(n) = got {
                assert_eq!(&out[..n], want.unwrap().as_bytes());
            }
        }
    }
}

/// Checks `input` with the lossy UTF-8 entry points of every transcoder.
fn check_lossy_utf8(ts: &[Transcoder], input: &[u8]) {
    let want = String::from_utf8_lossy(input);
    let want16: Vec<u16> = want.encode_utf16().collect();
    let mut out16 = vec![0u16; input.len()];
    let mut out32 = vec![0u32; input.len()];
    for t in ts {
        let n = t.utf8_to_utf16_lossy(input, &mut out16).unwrap();
        if out16[..n] != *want16 {
            let first = (0..n).find(|&i| out16[i] != want16[i]).unwrap_or(n);
            panic!("{}: differs at unit {first} of {}", t.name(), n);
        }
        let n = t.utf8_to_utf32_lossy(input, &mut out32).unwrap();
        assert!(
            out32[..n].iter().copied().eq(want.chars().map(u32::from)),
            "{}",
            t.name()
        );
    }
}

#[test]
fn every_utf8_sequence_up_to_three_bytes() {
    // Alone, strictly and lossily, with the dispatched kernels: the answer
    // for a short input comes from the validator and the scalar code, the
    // same for every kernel set.
    let t = Transcoder::new();
    let mut out = [0u16; 8];
    codec_testdata::for_each_sequence_up_to_3(|seq| {
        let want = core::str::from_utf8(seq);
        match t.utf8_to_utf16(seq, &mut out) {
            Ok(n) => assert!(out[..n].iter().copied().eq(want.unwrap().encode_utf16())),
            Err(e) => {
                let want = codec_testdata::std_validate(seq).unwrap_err();
                assert_eq!(e.invalid(), Some(&want), "{seq:02X?}");
                assert_eq!(e.read(), want.valid_up_to(), "{seq:02X?}");
            }
        }
    });
    // Packed, each after a character of every length, with every kernel:
    // one buffer per first byte.
    let ts = transcoders();
    let mut buf = Vec::with_capacity(65536 * 8);
    let later = codec_testdata::bytes();
    for a in 0..=255u8 {
        buf.clear();
        for &b in later {
            for &c in later {
                let before: &[u8] = match (b ^ c) % 4 {
                    0 => b"a",
                    1 => "é".as_bytes(),
                    2 => "吕".as_bytes(),
                    _ => "😀".as_bytes(),
                };
                buf.extend_from_slice(before);
                buf.extend_from_slice(&[a, b, c]);
            }
        }
        check_lossy_utf8(&ts, &buf);
    }
}

#[test]
fn every_utf8_sequence_up_to_three_bytes_to_latin1() {
    // UTF-8 → Latin-1 has no utf8-simd pass: its kernels validate what they
    // convert, their last bytes go through a loop of their own, and the
    // scalar source `Utf8Checked` finds the errors. Every short sequence
    // alone, with the dispatched table (that loop, then the scalar source)
    // and the portable one (the scalar source only).
    let ts: Vec<Transcoder> = Transcoder::all()
        .filter(|t| t.name() == "portable")
        .chain([Transcoder::new()])
        .collect();
    assert_eq!(ts.len(), 2);
    let mut out = [0u8; 8];
    codec_testdata::for_each_sequence_up_to_3(|seq| {
        let (valid, error) = match core::str::from_utf8(seq) {
            Ok(s) => (s, None),
            Err(e) => (
                core::str::from_utf8(&seq[..e.valid_up_to()]).unwrap(),
                Some(codec_testdata::std_validate(seq).unwrap_err()),
            ),
        };
        let wide = valid.char_indices().find(|&(_, c)| u32::from(c) > 0xFF);
        for t in &ts {
            match (t.utf8_to_latin1(seq, &mut out), wide, error) {
                (Ok(n), None, None) => assert!(
                    out[..n].iter().map(|&b| char::from(b)).eq(valid.chars()),
                    "{}: {seq:02X?}",
                    t.name()
                ),
                (Err(e), Some((at, c)), _) => {
                    assert_eq!(e.kind(), &ErrorKind::NotLatin1(c), "{seq:02X?}");
                    assert_eq!(e.read(), at, "{}: {seq:02X?}", t.name());
                }
                (Err(e), None, Some(want)) => {
                    assert_eq!(e.invalid(), Some(&want), "{}: {seq:02X?}", t.name());
                    assert_eq!(e.read(), want.valid_up_to(), "{seq:02X?}");
                }
                (got, _, _) => panic!("{}: {seq:02X?}: {got:?}", t.name()),
            }
        }
    });
}

#[test]
#[ignore = "all 2^32 sequences: minutes; run by `cargo xtask exhaustive`"]
fn every_utf8_sequence_of_four_bytes() {
    // One buffer per (first, second) byte pair, each 4-byte sequence
    // followed by a space; one thread per core takes first bytes in turn.
    // `TRANSCODE_FIRST_BYTES=F0..F4` (hex, inclusive) runs a part of the
    // space, for timing or a quick look.
    let (lo, hi) = std::env::var("TRANSCODE_FIRST_BYTES")
        .ok()
        .and_then(|r| {
            let (a, b) = r.split_once("..")?;
            Some((
                u8::from_str_radix(a, 16).ok()?,
                u8::from_str_radix(b, 16).ok()?,
            ))
        })
        .unwrap_or((0x00, 0xFF));
    let ts = transcoders();
    let next = std::sync::atomic::AtomicUsize::new(usize::from(lo));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut buf = Vec::with_capacity(65536 * 5);
                loop {
                    let a = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(a) = u8::try_from(a).ok().filter(|&a| a <= hi) else {
                        break;
                    };
                    for b in 0..=255u8 {
                        buf.clear();
                        for c in 0..=255u8 {
                            for d in 0..=255u8 {
                                buf.extend_from_slice(&[a, b, c, d, b' ']);
                            }
                        }
                        check_lossy_utf8(&ts, &buf);
                    }
                }
            });
        }
    });
}
