//! Every kind of error placed at every offset around the kernels' block
//! boundaries (16, 32 and 64 units, and the 16 KiB validation chunk of
//! UTF-8 input), after text of every character width, with every kernel.

use crate::dirs::*;
use crate::harness::Caps;

/// Offsets around every block size the kernels use, up to four blocks of
/// 64.
fn offsets() -> impl Iterator<Item = usize> {
    (0..=70).chain([95, 96, 97, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257])
}

#[test]
fn utf8_errors_after_prefixes_around_block_sizes() {
    for t in transcoders() {
        codec_testdata::for_each_invalid_after_prefixes(|input| {
            check_utf8(&t, input, Caps::Roomy);
        });
    }
}

#[test]
fn utf8_errors_around_the_validation_chunk() {
    // The chunk boundary is at 16 KiB, moved back to a character start.
    const CHUNK: usize = 16 * 1024;
    let fillers = ["a", "é", "吕", "😀"];
    for t in transcoders() {
        for filler in fillers {
            for &seq in codec_testdata::INVALID_SEQUENCES {
                for at in CHUNK - 6..=CHUNK + 2 {
                    let mut text = filler.repeat(at / filler.len() + 1);
                    text.truncate(at - at % filler.len());
                    let pad = at - text.len();
                    text.push_str(&"a".repeat(pad));
                    let mut input = text.into_bytes();
                    input.extend_from_slice(seq);
                    input.extend_from_slice("tail é 吕".as_bytes());
                    check_utf8(&t, &input, Caps::Roomy);
                }
            }
        }
    }
}

/// UTF-16 text of `n` units made of `filler`, cut to `n` without splitting
/// a pair (padded with 'a').
fn utf16_prefix(filler: &str, n: usize) -> Vec<u16> {
    let mut units: Vec<u16> = filler.encode_utf16().cycle().take(n).collect();
    if units.last().is_some_and(|&u| (0xD800..0xDC00).contains(&u)) {
        *units.last_mut().unwrap() = u16::from(b'a');
    }
    units
}

#[test]
fn utf16_errors_at_every_offset() {
    let bad: &[&[u16]] = &[
        &[0xD800],
        &[0xDBFF, 0x61],
        &[0xDC00],
        &[0xDFFF, 0xDFFF],
        &[0xD800, 0xD800, 0xDC00],
        &[0xD83D],
    ];
    for t in transcoders() {
        for filler in ["a", "é", "\u{800}", "吕", "😀", "a😀"] {
            for n in offsets() {
                let prefix = utf16_prefix(filler, n);
                for seq in bad {
                    for tail in [&[][..], &[0x62, 0x20AC, 0xD83D, 0xDE00][..]] {
                        let mut units = prefix.clone();
                        units.extend_from_slice(seq);
                        units.extend_from_slice(tail);
                        units.extend(utf16_prefix(filler, 40));
                        check_utf16(&t, &units, Caps::Roomy);
                    }
                }
                // A valid pair across the boundary, and Latin-1 edges.
                let mut units = prefix.clone();
                units.extend_from_slice(&[0xD83D, 0xDE00, 0xFF, 0x100]);
                check_utf16(&t, &units, Caps::Roomy);
            }
        }
    }
}

#[test]
fn utf32_errors_at_every_offset() {
    for t in transcoders() {
        for filler in ['a', 'é', '吕', '😀'] {
            for n in offsets() {
                for bad in [0xD800u32, 0xDFFF, 0x11_0000, u32::MAX, 0x100, 0xFF] {
                    let mut units = vec![u32::from(filler); n];
                    units.push(bad);
                    units.extend(vec![u32::from(filler); 40]);
                    check_utf32(&t, &units, Caps::Roomy);
                }
            }
        }
    }
}

#[test]
fn latin1_at_every_offset() {
    for t in transcoders() {
        for n in offsets() {
            for b in [0x00u8, 0x41, 0x7F, 0x80, 0xE9, 0xFF] {
                let mut bytes = vec![b'a'; n];
                bytes.push(b);
                bytes.extend(vec![0xE9; 40]);
                check_latin1(&t, &bytes, Caps::Roomy);
            }
        }
    }
}

#[test]
fn every_output_size_around_block_boundaries() {
    // Long enough that the kernels run, with every output size near the
    // end (Caps::All), for text of each width.
    for t in transcoders() {
        for s in ["a", "é", "吕", "😀", "aé吕😀"] {
            let text = s.repeat(200 / s.len());
            check_utf8(&t, text.as_bytes(), Caps::All);
            let units: Vec<u16> = text.encode_utf16().collect();
            check_utf16(&t, &units, Caps::All);
            let units: Vec<u32> = text.chars().map(u32::from).collect();
            check_utf32(&t, &units, Caps::All);
        }
    }
}
