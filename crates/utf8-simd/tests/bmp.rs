//! `variant::bmp_str` (UTF-8 without 4-byte forms, and optionally without
//! `00`), dispatched and with every kernel this CPU runs, against a
//! reference made of std's validation and a byte scan: the answer, and the
//! contract of `Err(pos)` (a prefix of such text, ending at a character
//! boundary, at or before the first byte that is not). On pieces at every
//! character boundary of text around the 64-byte blocks and 256-byte
//! groups, on random and mutated text, and at guard pages.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rand::{Rng, SeedableRng, rngs::StdRng};
use utf8_simd::variant::{Nul, bmp_str, bmp_str_with};

/// Where `input` stops being UTF-8 without 4-byte forms (and, if `nul` is
/// forbidden, without `00`): `None` if it never does.
fn first_offence(input: &[u8], nul: Nul) -> Option<usize> {
    let utf8_end = match core::str::from_utf8(input) {
        Ok(_) => input.len(),
        Err(e) => e.valid_up_to(),
    };
    let byte = input[..utf8_end]
        .iter()
        .position(|&b| b >= 0xF0 || (b == 0 && nul == Nul::Forbidden));
    match byte {
        Some(i) => Some(i),
        None if utf8_end < input.len() => Some(utf8_end),
        None => None,
    }
}

/// Every way to ask: dispatched, and each kernel with a variant entry.
fn answers(input: &[u8], nul: Nul) -> Vec<(&'static str, Result<&str, usize>)> {
    let mut out = vec![("dispatched", bmp_str(input, nul))];
    for k in utf8_simd::kernels() {
        if let Some(r) = bmp_str_with(k, input, nul) {
            out.push((k.name(), r));
        }
    }
    out
}

/// Checks every answer for `input` against the reference.
fn check(input: &[u8]) {
    for nul in [Nul::Allowed, Nul::Forbidden] {
        let offence = first_offence(input, nul);
        for (name, got) in answers(input, nul) {
            match (got, offence) {
                (Ok(s), None) => assert_eq!(s.as_bytes(), input, "{name}"),
                (Err(pos), Some(at)) => {
                    assert!(
                        pos <= at,
                        "{name} {nul:?}: Err({pos}) after the first offence at {at}: {input:02X?}"
                    );
                    // A prefix of complete characters, none of them an
                    // offence.
                    let prefix = &input[..pos];
                    assert!(core::str::from_utf8(prefix).is_ok(), "{name} {nul:?}");
                    assert_eq!(first_offence(prefix, nul), None, "{name} {nul:?}");
                    // Close to it: the kernels test their flags every 256
                    // bytes (one group and the character it stops in).
                    assert!(
                        at - pos <= 256 + 64 + 3,
                        "{name} {nul:?}: Err({pos}), offence at {at}"
                    );
                }
                (got, _) => {
                    // As bytes: a wrong `Ok` holds a `&str` that is not
                    // UTF-8, which `{:?}` of a `str` would read past.
                    let got = got.map(str::as_bytes);
                    panic!("{name} {nul:?}: {got:02X?}, first offence {offence:?}: {input:02X?}")
                }
            }
        }
    }
}

/// The pieces placed in text: what the check must refuse, and what it must
/// accept, including what CESU-8 and MUTF-8 would convert.
const PIECES: &[&[u8]] = &[
    b"\xF0\x9F\x98\x80",         // a 4-byte form
    b"\xF4\x8F\xBF\xBF",         // the last one
    b"\xF0\x9F",                 // cut short
    b"\x00",                     // NUL
    b"\xC0\x80",                 // MUTF-8's NUL: not UTF-8
    b"\xED\xA0\x80\xED\xB0\x80", // CESU-8's U+10000: not UTF-8
    b"\xED\xA0\x80",             // a lone lead surrogate
    b"\xED\xB0\x80",             // a lone trail surrogate
    b"\xED\x9F\xBF",             // U+D7FF: fine
    b"\xEF\xBF\xBF",             // U+FFFF: fine
    b"\xF5\x80",                 // never valid
    b"\xFF",                     // never valid
    b"\x80",                     // a stray continuation
    b"\xE2\x82",                 // cut short
    b"\xE0\x80\x80",             // overlong
    b"\xC2",                     // cut short, before a non-continuation
];

/// Each piece at every character boundary of texts of 2-, 3- and mixed
/// bytes (with whole ASCII blocks between non-ASCII runs) up to 700 bytes,
/// crossing 64-byte blocks and 256-byte groups; and a surrogate pair or a
/// 4-byte form straddling each block boundary.
#[test]
fn pieces_at_every_boundary_of_text() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    for (text, boundaries) in codec_testdata::boundary_texts(step) {
        for piece in PIECES {
            for &at in &boundaries {
                let mut input = text[..at].to_vec();
                input.extend_from_slice(piece);
                input.extend_from_slice(&text[at..]);
                check(&input);
                // And the text cut right after the piece.
                check(&input[..at + piece.len()]);
            }
        }
    }
}

/// Random text (every kind of character, NUL included) with a few random
/// byte edits, at lengths around the block and group sizes.
#[test]
fn random_and_mutated_text() {
    let mut rng = StdRng::seed_from_u64(0xB3F);
    let rounds = if codec_testdata::emulated() {
        300
    } else {
        3000
    };
    for round in 0..rounds {
        let len = [1, 30, 63, 64, 65, 127, 128, 129, 255, 256, 257, 600][round % 12];
        let mut s = String::new();
        while s.len() < len {
            let c = match rng.random_range(0..10) {
                0..=3 => char::from(rng.random_range(0x01..0x80u8)),
                4 => '\0',
                5 => char::from_u32(rng.random_range(0x80..0x800)).unwrap(),
                6 | 7 => char::from_u32(rng.random_range(0x800..0xD800)).unwrap(),
                8 => char::from_u32(rng.random_range(0xE000..0x10000)).unwrap(),
                _ => char::from_u32(rng.random_range(0x10000..0x110000)).unwrap_or('x'),
            };
            s.push(c);
        }
        let mut bytes = s.into_bytes();
        check(&bytes);
        for _ in 0..rng.random_range(0..3) {
            let i = rng.random_range(0..bytes.len());
            bytes[i] = rng.random();
        }
        check(&bytes);
    }
}

/// Inputs that end at, or start right after, a guard page, at every length
/// up to 256: no read outside the slice, and answers that keep the contract
/// there (the position of an `Err` depends on the address, through the
/// realignment of ASCII runs, so it is checked, not compared).
#[cfg(target_os = "linux")]
#[test]
fn no_read_outside_the_slice() {
    use codec_testdata::guard::{GuardedBuf, boundary_inputs};
    let mut end = GuardedBuf::new(264);
    let mut start = GuardedBuf::new(264);
    let mut count = 0;
    let mut each = |input: &[u8]| {
        check(end.at_end(input));
        check(start.at_start(input));
        count += 1;
    };
    boundary_inputs(256, &mut each);
    for len in 0..=256 {
        for piece in PIECES {
            if piece.len() <= len {
                let mut buf = "é".repeat(len).into_bytes();
                buf.truncate(len - piece.len());
                buf.extend_from_slice(piece);
                each(&buf);
            }
        }
    }
    assert!(count > 10_000, "{count}");
}

/// `00` as the last byte of a non-ASCII run followed by ASCII blocks, at
/// every position near the run's end and every start address in a 64-byte
/// line: the BMP check without `00` sees it only as the first byte of a
/// pair, so the run's end must check its last byte (the pair with the next
/// byte falls in the ASCII loop). Also `00` right at the start.
#[test]
fn nul_ending_a_non_ascii_run_at_every_alignment() {
    let mut storage = vec![0u8; 2048];
    for run in [64usize, 128, 300] {
        for nul_at in run.saturating_sub(70)..run {
            let mut input = "é".repeat(run).into_bytes();
            input.truncate(run);
            input[nul_at] = 0;
            // Keep the rest well-formed: a cut character becomes ASCII.
            for b in &mut input[nul_at + 1..] {
                *b = b'x';
            }
            if nul_at > 0 && input[nul_at - 1] == 0xC3 {
                input[nul_at - 1] = b'y';
            }
            input.extend_from_slice(&[b'a'; 300]);
            for offset in 0..64 {
                let base = storage.as_ptr().addr();
                let start = (64 - base % 64) % 64 + offset;
                let buf = &mut storage[start..start + input.len()];
                buf.copy_from_slice(&input);
                check(buf);
            }
        }
    }
    let mut input = vec![0u8];
    input.extend_from_slice("é".repeat(100).as_bytes());
    check(&input);
}
