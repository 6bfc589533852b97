//! Random, mutated and conformance-suite input through every conversion,
//! every output size, every kernel.

use crate::dirs::*;
use crate::harness::Caps;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Characters of every UTF-8 length, and the edges of each range.
const CHARS: &[char] = &[
    'a',
    ' ',
    '\0',
    '\x7F',
    '\u{80}',
    'é',
    '\u{FF}',
    '\u{100}',
    '\u{7FF}',
    '\u{800}',
    '吕',
    '\u{D7FF}',
    '\u{E000}',
    '\u{FFFD}',
    '\u{FFFF}',
    '\u{10000}',
    '😀',
    '\u{10FFFF}',
];

/// Random text of `n` characters: each from [`CHARS`] or any scalar value.
fn random_text(rng: &mut StdRng, n: usize) -> String {
    (0..n)
        .map(|_| match rng.random_range(0..4) {
            0 => rng.random::<char>(),
            1 => char::from(rng.random_range(0x20u8..0x7F)),
            _ => CHARS[rng.random_range(0..CHARS.len())],
        })
        .collect()
}

#[test]
fn random_valid_text_of_every_length_up_to_200() {
    let mut rng = StdRng::seed_from_u64(1);
    for t in transcoders() {
        for n in 0..200 {
            let s = random_text(&mut rng, n);
            check_utf8(&t, s.as_bytes(), Caps::All);
            let units: Vec<u16> = s.encode_utf16().collect();
            check_utf16(&t, &units, Caps::All);
            let units: Vec<u32> = s.chars().map(u32::from).collect();
            check_utf32(&t, &units, Caps::All);
            let latin1: Vec<u8> = s.bytes().collect();
            check_latin1(&t, &latin1, Caps::All);
        }
    }
}

#[test]
fn mutated_text() {
    let mut rng = StdRng::seed_from_u64(2);
    let specials16 = [
        0xD800u16, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0x61, 0xFFFF,
    ];
    let specials32 = [
        0xD800u32,
        0xDFFF,
        0x11_0000,
        0xFFFF_FFFF,
        0x10_FFFF,
        0x61,
        0xFF,
        0x100,
    ];
    for t in transcoders() {
        for _ in 0..300 {
            let n = rng.random_range(1..300);
            let s = random_text(&mut rng, n);
            let edits = rng.random_range(1..4);
            let mut bytes = s.clone().into_bytes();
            for _ in 0..edits {
                let i = rng.random_range(0..bytes.len());
                match rng.random_range(0..3) {
                    0 => bytes[i] = rng.random(),
                    1 => bytes.truncate(i),
                    _ => bytes.insert(i, rng.random_range(0x80..=0xFF)),
                }
                if bytes.is_empty() {
                    break;
                }
            }
            check_utf8(&t, &bytes, Caps::All);

            let mut units: Vec<u16> = s.encode_utf16().collect();
            for _ in 0..edits {
                let i = rng.random_range(0..=units.len());
                let u = specials16[rng.random_range(0..specials16.len())];
                match rng.random_range(0..3) {
                    0 if i < units.len() => units[i] = u,
                    1 => units.truncate(i),
                    _ => units.insert(i, u),
                }
            }
            check_utf16(&t, &units, Caps::All);

            let mut units: Vec<u32> = s.chars().map(u32::from).collect();
            for _ in 0..edits {
                let i = rng.random_range(0..=units.len());
                units.insert(i, specials32[rng.random_range(0..specials32.len())]);
            }
            check_utf32(&t, &units, Caps::All);
        }
    }
}

#[test]
fn conformance_suites() {
    let cases = codec_testdata::utf8_cases();
    for t in transcoders() {
        for case in &cases {
            check_utf8(&t, &case.input, Caps::Roomy);
        }
    }
}
