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
use crate::harness::Caps;
use transcode::{Endianness, Transcoder};

/// Every scalar value, in order.
fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10_FFFFu32).filter_map(char::from_u32)
}

#[test]
fn every_scalar_value_through_every_conversion() {
    let text: String = all_chars().collect();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let utf32: Vec<u32> = text.chars().map(u32::from).collect();
    let latin1: Vec<u8> = (0..=255).collect();
    for t in transcoders() {
        // Shifted by 0 to 3 bytes, so each character also lands at other
        // offsets of a block.
        for shift in 0..4 {
            let mut shifted = "a".repeat(shift);
            shifted.push_str(&text);
            check_utf8(&t, shifted.as_bytes(), Caps::Roomy);
        }
        check_utf16(&t, &utf16, Caps::Roomy);
        check_utf16(&t, &utf16[1..], Caps::Roomy);
        check_utf32(&t, &utf32, Caps::Roomy);
        check_latin1(&t, &latin1, Caps::Roomy);
    }
}

#[test]
fn every_scalar_value_alone() {
    let t = Transcoder::new();
    let mut buf = [0u8; 4];
    for c in all_chars() {
        check_utf8(&t, c.encode_utf8(&mut buf).as_bytes(), Caps::All);
        check_utf16(&t, c.encode_utf16(&mut [0; 2]), Caps::All);
        check_utf32(&t, &[u32::from(c)], Caps::All);
    }
}

#[test]
fn every_utf32_value_that_is_not_a_scalar_value_at_the_edges() {
    // Surrogates, all of them; values above U+10FFFF at the edges of each
    // bit width.
    let mut bad: Vec<u32> = (0xD800..=0xDFFF).collect();
    bad.extend((17..32).flat_map(|bits| [1u32 << bits, (1u32 << bits) | 0xFFFF]));
    bad.extend([0x11_0000, 0x11_0001, u32::MAX, u32::MAX - 1]);
    for t in transcoders() {
        for &u in &bad {
            check_utf32(&t, &[u], Caps::All);
            check_utf32(&t, &[0x61, u, 0x62], Caps::Roomy);
        }
        // All of them in one buffer between valid units, for the kernels.
        let mut buf = Vec::new();
        for &u in &bad {
            buf.extend_from_slice(&[0x61, 0x1F600, u]);
        }
        check_utf32(&t, &buf, Caps::Roomy);
    }
}

/// Checks `units` with the lossy and counting entry points only (the
/// strict ones stop at the first error), for every transcoder.
fn check_lossy_utf16(ts: &[Transcoder], units: &[u16]) {
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
            .utf16_bytes_to_utf8_lossy(&bytes, &mut out8, order)
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
    let ts = transcoders();
    // For each surrogate s, one buffer s, 0, s, 1, s, 2, ..., s, FFFF holds
    // every pair (s, u) and every pair (u, s).
    let mut units = Vec::with_capacity(2 * 65536 + 1);
    for s in 0xD800..=0xDFFFu16 {
        units.clear();
        for u in 0..=0xFFFFu16 {
            units.extend_from_slice(&[s, u]);
        }
        units.push(s);
        check_lossy_utf16(&ts, &units);
    }
    // And each pair alone, strictly, for the pairs whose answer depends on
    // both units: a lead followed by anything, anything followed by a trail.
    let t = Transcoder::new();
    let mut out = [0u8; 8];
    for s in 0xD800..=0xDBFFu16 {
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
            }
        }
        let n = t.utf8_to_utf16_lossy(seq, &mut out).unwrap();
        assert!(
            out[..n]
                .iter()
                .copied()
                .eq(String::from_utf8_lossy(seq).encode_utf16()),
            "{seq:02X?}"
        );
    });
    // Packed, each after a character of every length, with every kernel:
    // one buffer per first byte.
    let ts = transcoders();
    let mut buf = Vec::with_capacity(65536 * 8);
    for a in 0..=255u8 {
        buf.clear();
        for b in 0..=255u8 {
            for c in 0..=255u8 {
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
#[ignore = "all 2^32 sequences: minutes; run by `cargo xtask exhaustive`"]
fn every_utf8_sequence_of_four_bytes() {
    let ts = transcoders();
    let mut buf = Vec::with_capacity(65536 * 5);
    for a in 0..=255u8 {
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
}
