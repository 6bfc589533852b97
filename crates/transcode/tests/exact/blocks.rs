//! The UTF-32 and Latin-1 kernels at the edges of their blocks: text that
//! mixes the paths a kernel takes (ASCII registers, mixed ones, 16-byte
//! lanes, 8-lane groups) in every proportion, at every length around the
//! block sizes (16, 32 and 64 bytes, and 4, 8 and 16 units of UTF-32),
//! with every output size; and a character that stops a conversion (above
//! U+00FF for Latin-1 output, an unpaired surrogate, an invalid UTF-32
//! unit) at every offset after such text. These kernels write a variable
//! amount of output with fixed-width stores, so the output sizes and the
//! stops are where a stray write past the output would show.

use crate::dirs::*;
use crate::harness::{Caps, check};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Lengths around every block size, up to four blocks of 64.
/// (Under emulation, every third length up to 70: `codec_testdata::emulated`.)
fn lengths() -> impl Iterator<Item = usize> {
    let step = if codec_testdata::emulated() { 3 } else { 1 };
    (0..=70)
        .step_by(step)
        .chain([95, 96, 97, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257])
}

/// Random characters, `density` in 256 of which are drawn from `wide` and
/// the others from `narrow`.
fn mix(rng: &mut StdRng, n: usize, narrow: &[char], wide: &[char], density: u32) -> Vec<char> {
    (0..n)
        .map(|_| {
            if rng.random_range(0..256) < density {
                wide[rng.random_range(0..wide.len())]
            } else {
                narrow[rng.random_range(0..narrow.len())]
            }
        })
        .collect()
}

const ASCII: &[char] = &['a', ' ', '\0', '\x7F'];
const LATIN1_HIGH: &[char] = &['\u{80}', 'é', '\u{BF}', '\u{C0}', '\u{FF}'];
const WIDE: &[char] = &[
    '\u{80}',
    'é',
    '\u{7FF}',
    '\u{800}',
    '吕',
    '\u{FFFF}',
    '😀',
    '\u{10FFFF}',
];

/// Every Latin-1 conversion on Latin-1 text, in both directions.
fn check_latin1_text(ts: &[transcode::Transcoder], chars: &[char], caps: Caps) {
    let latin1: Vec<u8> = chars.iter().map(|&c| u8::try_from(c).unwrap()).collect();
    check(&LATIN1_TO_UTF8, ts, &latin1, caps);
    check(&LATIN1_TO_UTF16, ts, &latin1, caps);
    check(&LATIN1_TO_UTF32, ts, &latin1, caps);
    check_to_latin1(ts, chars, caps);
}

/// The conversions to Latin-1 of `chars`, from UTF-8, `&str`, UTF-16 and
/// UTF-32.
fn check_to_latin1(ts: &[transcode::Transcoder], chars: &[char], caps: Caps) {
    let s: String = chars.iter().collect();
    check(&UTF8_TO_LATIN1, ts, s.as_bytes(), caps);
    check(&STR_TO_LATIN1, ts, s.as_bytes(), caps);
    let utf16: Vec<u16> = s.encode_utf16().collect();
    check(&UTF16_TO_LATIN1, ts, &utf16, caps);
    let utf32: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
    check(&UTF32_TO_LATIN1, ts, &utf32, caps);
}

/// The UTF-32 conversions of `chars`, in both directions.
fn check_utf32_text(ts: &[transcode::Transcoder], chars: &[char], caps: Caps) {
    let s: String = chars.iter().collect();
    check(&UTF8_TO_UTF32, ts, s.as_bytes(), caps);
    check(&STR_TO_UTF32, ts, s.as_bytes(), caps);
    let utf16: Vec<u16> = s.encode_utf16().collect();
    check(&UTF16_TO_UTF32, ts, &utf16, caps);
    let utf32: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
    check(&UTF32_TO_UTF8, ts, &utf32, caps);
    check(&UTF32_TO_UTF16, ts, &utf32, caps);
}

/// UTF-16 → UTF-8 of `units` from every form of UTF-16 input: `u16`s,
/// and bytes in both orders (the tables' byte entries, `SWAP` false and
/// true), the big-endian bytes with an odd last byte too.
fn check_utf16_to_utf8(ts: &[transcode::Transcoder], units: &[u16], caps: Caps) {
    check(&UTF16_TO_UTF8, ts, units, caps);
    let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    check(&UTF16LE_TO_UTF8, ts, &le, caps);
    let mut be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    check(&UTF16BE_TO_UTF8, ts, &be, caps);
    be.push(0xD8);
    check(&UTF16BE_TO_UTF8, ts, &be, Caps::Roomy);
}

/// Valid UTF-8 → UTF-16 of `s` into every form of UTF-16 output: `u16`s
/// and bytes in both orders (the tables' byte entries), validating and
/// from `&str`.
fn check_utf8_to_utf16(ts: &[transcode::Transcoder], s: &[u8], caps: Caps) {
    check(&UTF8_TO_UTF16, ts, s, caps);
    check(&UTF8_TO_UTF16LE, ts, s, caps);
    check(&UTF8_TO_UTF16BE, ts, s, caps);
    if core::str::from_utf8(s).is_ok() {
        check(&STR_TO_UTF16, ts, s, caps);
        check(&STR_TO_UTF16LE, ts, s, caps);
        check(&STR_TO_UTF16BE, ts, s, caps);
    }
}

#[test]
fn latin1_mixes_with_every_output_size() {
    let mut rng = StdRng::seed_from_u64(12);
    let ts = transcoders();
    {
        for density in [0, 16, 128, 240, 256] {
            for n in lengths() {
                let chars = mix(&mut rng, n, ASCII, LATIN1_HIGH, density);
                check_latin1_text(&ts, &chars, Caps::All);
            }
        }
    }
}

#[test]
fn utf32_mixes_with_every_output_size() {
    let mut rng = StdRng::seed_from_u64(13);
    let ts = transcoders();
    {
        for density in [0, 16, 128, 256] {
            for n in lengths() {
                let chars = mix(&mut rng, n, ASCII, WIDE, density);
                check_utf32_text(&ts, &chars, Caps::All);
            }
        }
        // Text of one width only, which the kernels may take a path of its
        // own for.
        for c in ['é', '吕', '😀', '\u{7FF}', '\u{FFFF}'] {
            for n in lengths() {
                check_utf32_text(&ts, &vec![c; n], Caps::All);
            }
        }
    }
}

#[test]
fn non_latin1_at_every_offset() {
    let mut rng = StdRng::seed_from_u64(14);
    let ts = transcoders();
    {
        for density in [0, 128, 256] {
            for n in lengths() {
                for stop in ['\u{100}', '€', '😀'] {
                    let mut chars = mix(&mut rng, n, ASCII, LATIN1_HIGH, density);
                    chars.push(stop);
                    chars.extend(mix(&mut rng, 40, ASCII, LATIN1_HIGH, density));
                    check_to_latin1(&ts, &chars, Caps::All);
                }
            }
        }
    }
}

/// Malformed UTF-8 after Latin-1 text, at every offset: the UTF-8 →
/// Latin-1 kernels validate as they convert (no validation pass), so each
/// way a register of ASCII, `C2`/`C3` leads and continuation bytes can be
/// wrong must stop them: a lone or extra continuation byte, a lead without
/// one (in the register, at its last byte, at the end of the input), `C0`
/// and `C1`, and every sequence of `codec_testdata::INVALID_SEQUENCES`.
#[test]
fn utf8_errors_after_latin1_text_at_every_offset() {
    let mut rng = StdRng::seed_from_u64(16);
    let ts = transcoders();
    let own: &[&[u8]] = &[
        b"\xC2",
        b"\xC3a",
        b"\xC2\xC3\xA9",
        b"\xC3\xA9\xA9",
        b"\xC0\x80",
        b"\xC1\xBF",
        b"\x80\x80",
        b"\xC4\x80",
    ];
    for density in [0, 128, 256] {
        for n in lengths() {
            let chars = mix(&mut rng, n, ASCII, LATIN1_HIGH, density);
            let tail = mix(&mut rng, 40, ASCII, LATIN1_HIGH, density);
            let (s, tail): (String, String) = (chars.iter().collect(), tail.iter().collect());
            // Every output size for this file's own cases (the ways the
            // kernels' check can fail); room to spare for the shared list.
            for (k, &bad) in own
                .iter()
                .chain(codec_testdata::INVALID_SEQUENCES)
                .enumerate()
            {
                let caps = if k < own.len() {
                    Caps::All
                } else {
                    Caps::Roomy
                };
                let mut input = s.clone().into_bytes();
                input.extend_from_slice(bad);
                check(&UTF8_TO_LATIN1, &ts, &input, caps);
                input.extend_from_slice(tail.as_bytes());
                check(&UTF8_TO_LATIN1, &ts, &input, Caps::Roomy);
            }
        }
    }
}

#[test]
fn utf32_errors_after_mixes_at_every_offset() {
    let mut rng = StdRng::seed_from_u64(15);
    let ts = transcoders();
    {
        for density in [0, 128, 256] {
            for n in lengths() {
                let chars = mix(&mut rng, n, ASCII, WIDE, density);
                let tail = mix(&mut rng, 40, ASCII, WIDE, density);
                for bad in [0xD800u32, 0xDFFF, 0x11_0000, 0x8000_0000] {
                    let mut units: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
                    units.push(bad);
                    units.extend(tail.iter().map(|&c| u32::from(c)));
                    check(&UTF32_TO_UTF8, &ts, &units, Caps::All);
                    check(&UTF32_TO_UTF16, &ts, &units, Caps::All);
                }
                let s: String = chars.iter().collect();
                let tail: String = tail.iter().collect();
                for bad in [
                    &[0xD800u16][..],
                    &[0xDC00],
                    &[0xDBFF, 0x61],
                    &[0xD83D, 0xD83D],
                ] {
                    let mut units: Vec<u16> = s.encode_utf16().collect();
                    units.extend_from_slice(bad);
                    units.extend(tail.encode_utf16());
                    check(&UTF16_TO_UTF32, &ts, &units, Caps::All);
                }
            }
        }
    }
}

/// ASCII with one or two bytes above `7F` at every position, at lengths of
/// two to six registers of 64 bytes: Latin-1 → UTF-8 expands a register
/// straight into the output and leaves its garbage for the next register
/// to cover (or the one after the loop, through a scratch buffer), so a
/// high byte in the last registers with a tight output is where a stray
/// write would show.
#[test]
fn latin1_high_bytes_at_every_position() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    for n in [127, 128, 129, 192, 255, 256, 257, 320, 384] {
        for at in (0..n).step_by(step) {
            let mut bytes = vec![b'a'; n];
            bytes[at] = 0xE9;
            check(&LATIN1_TO_UTF8, &ts, &bytes, Caps::All);
            bytes[n - 1 - at / 2] = 0xFF;
            check(&LATIN1_TO_UTF8, &ts, &bytes, Caps::All);
        }
    }
}

/// An error at every distance from the end of the input (0 to 70 units
/// after it), after text of every length around the block sizes: the
/// UTF-16 ⇄ UTF-32 kernels end with a register that overlaps the last one
/// they converted, which must see the error and leave it to the scalar
/// code; every output size, for the stores of that last register.
#[test]
fn utf16_utf32_errors_near_the_end() {
    let mut rng = StdRng::seed_from_u64(16);
    let ts = transcoders();
    let step = if codec_testdata::emulated() { 5 } else { 1 };
    for n in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129] {
        for after in (0..=70).step_by(step) {
            let density = if after % 2 == 0 { 0 } else { 64 };
            let chars = mix(&mut rng, n, &['a', 'é', '吕'], &['😀'], density);
            let tail = mix(&mut rng, after, &['a', '\u{FFFF}', '吕'], &['😀'], density);
            let s: String = chars.iter().collect();
            let tail: String = tail.iter().collect();
            let caps = if after < 40 { Caps::All } else { Caps::Roomy };
            for bad in [&[0xD800u16][..], &[0xDC00], &[0xDBFF, 0x61]] {
                let mut units: Vec<u16> = s.encode_utf16().collect();
                units.extend_from_slice(bad);
                units.extend(tail.encode_utf16());
                check(&UTF16_TO_UTF32, &ts, &units, caps);
            }
            for bad in [0xD800u32, 0x11_0000] {
                let mut units: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
                units.push(bad);
                units.extend(tail.chars().map(u32::from));
                check(&UTF32_TO_UTF16, &ts, &units, caps);
            }
        }
    }
}

/// The benchmark texts (the nine lipsum texts of `benches/data/lipsum`),
/// 64 KiB of each, through every UTF-32 and Latin-1 conversion: long runs
/// of one kind of text, where the kernels stay on one path for long.
#[test]
fn lipsum_texts() {
    const TEXTS: &[&str] = &[
        include_str!("../../../../benches/data/lipsum/Arabic-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Chinese-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Emoji-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Hebrew-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Hindi-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Japanese-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Korean-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Latin-Lipsum.utf8.txt"),
        include_str!("../../../../benches/data/lipsum/Russian-Lipsum.utf8.txt"),
    ];
    let ts = transcoders();
    {
        for text in TEXTS {
            // 64 KiB of UTF-8, cut at a character, as the benchmarks use.
            let mut s = text.repeat((64 << 10) / text.len() + 1);
            let cut = (0..=64 << 10)
                .rev()
                .find(|&k| s.is_char_boundary(k))
                .unwrap();
            s.truncate(cut);
            let chars: Vec<char> = s.chars().collect();
            check_utf32_text(&ts, &chars, Caps::Roomy);
            let latin1: Vec<char> = chars
                .iter()
                .map(|&c| if u32::from(c) < 0x100 { c } else { 'é' })
                .collect();
            check_latin1_text(&ts, &latin1, Caps::Roomy);
        }
    }
}

/// One odd unit at every position of BMP text, for the AVX2 loops that
/// check each block once, as the next block of one round and then as the
/// current block of the next (UTF-16 → UTF-8, and the BMP path of UTF-32
/// → UTF-8, which the AVX-512 table runs too): a character outside the BMP
/// (a surrogate pair in UTF-16; in UTF-32 the hand-over to the general
/// kernel), an unpaired surrogate, a value above U+10FFFF. The texts: one
/// width only; ASCII blocks alternating with others, so that lone ASCII
/// blocks (converted by the 1-2 byte path), ASCII pairs (packed 32 units at
/// once, then the 32-unit run) and mixed blocks meet at every alignment;
/// and repeating mixes of 1-, 2- and 3-byte characters (one of units
/// whose low byte is 0, for the byte-swapped entries). Every output size
/// where the odd unit is near the end, or at every eleventh position.
#[test]
fn odd_unit_at_every_position_of_bmp_text() {
    let step = if codec_testdata::emulated() { 5 } else { 1 };
    let ts = transcoders();
    let fillers: [fn(usize) -> char; 7] = [
        |_| 'a',
        |_| 'é',
        |_| '吕',
        |i| if (i / 16) % 3 == 0 { 'é' } else { 'a' },
        |i| if (i / 16) % 2 == 0 { '吕' } else { 'a' },
        |i| ['a', 'é', '吕', ' ', 'b', '\u{FFFF}', 'c'][i % 7],
        // 3-byte units whose low byte is 0: byte-swapped, they are below
        // `80` or `800`.
        |i| ['\u{800}', '가', 'a', '\u{4E00}', 'é'][i % 5],
    ];
    for filler in fillers {
        for n in [33, 64, 96, 97, 131, 160] {
            let text: Vec<char> = (0..n).map(filler).collect();
            for at in (0..n).step_by(step) {
                let caps = if at % 11 == 0 || at + 16 >= n {
                    Caps::All
                } else {
                    Caps::Roomy
                };
                for odd in [0x1F600u32, 0x10_FFFF, 0xD800, 0xDFFF, 0x11_0000, u32::MAX] {
                    let mut units: Vec<u32> = text.iter().map(|&c| u32::from(c)).collect();
                    units[at] = odd;
                    check(&UTF32_TO_UTF8, &ts, &units, caps);
                }
                for odd in [
                    &[0xD83Du16, 0xDE00][..],
                    &[0xD800],
                    &[0xDFFF],
                    &[0xDBFF, 0x61],
                ] {
                    let mut units: Vec<u16> = text.iter().map(|&c| c as u16).collect();
                    units.splice(at..=at, odd.iter().copied());
                    check_utf16_to_utf8(&ts, &units, caps);
                }
            }
        }
    }
}

/// The run of 3-byte characters in the AVX2 UTF-8 → UTF-16/UTF-32 kernel
/// (CJK text: after one step of eight of them it tests only where the next
/// 25 bytes start characters) meets anything else at every position: an
/// ASCII byte, a 2-byte or 4-byte character (whose lead at byte 24 of a
/// step must stop the run), and invalid bytes, in runs of several 3-byte
/// forms (`吕`, the lowest `U+0800` and the highest `U+FFFF`), long enough
/// for several steps of the main loop, at each of the three offsets a run
/// can start at (after 0, 1 or 2 ASCII bytes). Every output size where the
/// odd character is near the end, or at every eleventh position.
#[test]
fn odd_character_at_every_position_of_3_byte_text() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let odds: [&[u8]; 7] = [
        b"a",
        "é".as_bytes(),
        "😀".as_bytes(),
        "\u{10FFFF}".as_bytes(),
        b"\x80",
        b"\xE5\x90",
        b"\xF0\x9F\x98",
    ];
    for run in ["吕", "\u{800}", "\u{FFFF}", "吕\u{800}\u{FFFF}"] {
        for lead in 0..3 {
            let n = 60;
            for at in (0..n).step_by(step) {
                let caps = if at % 11 == 0 || at + 8 >= n {
                    Caps::All
                } else {
                    Caps::Roomy
                };
                for odd in odds {
                    let mut input = b"ab"[..lead].to_vec();
                    for (i, c) in run.chars().cycle().take(n).enumerate() {
                        if i == at {
                            input.extend_from_slice(odd);
                        } else {
                            input.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                    }
                    check_utf8(&ts, &input, caps);
                }
            }
        }
    }
}

/// UTF-16 → UTF-8 on text of units below `800` (the VBMI2 kernel's
/// registers of 32 units, 64-byte stores while another register follows,
/// exact stores before anything else), from `u16`s and from bytes in both
/// orders, at every length up to 300 units and in four mixes (all 2-byte,
/// ASCII with 2-byte, 2-byte runs between ASCII registers, and such runs
/// of units whose low byte is 0), followed by nothing, a 3-byte
/// character, a pair, or an unpaired surrogate and 40 more units of the
/// mix (where a strict conversion stops, right after a register of this
/// loop). A wrong lane or length shows in the output, a write past the
/// output in the poison check. (The kernel's 64-byte stores, made only
/// while another register of its loop follows, write past its own output
/// only where that register's store then writes; through the public API
/// the conversion's later output would cover them anyway, so that rule is
/// argued in the kernel, not tested.)
#[test]
fn utf16_below_800_at_every_length() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let mixes: [fn(usize) -> char; 4] = [
        |i| ['ж', 'é', '\u{7FF}'][i % 3],
        |i| if i % 5 == 0 { 'a' } else { 'ж' },
        |i| if (i / 32) % 2 == 0 { 'ж' } else { 'a' },
        // Units whose low byte is 0: byte-swapped they are below `80`
        // (ASCII) or `800`, so a register the big-endian entry forgets to
        // swap takes the wrong path.
        |i| {
            if (i / 32) % 2 == 0 {
                'a'
            } else {
                ['\u{100}', '\u{400}', '\u{700}'][i % 3]
            }
        },
    ];
    for mix in mixes {
        for n in (0..=300).step_by(step) {
            for end in [&[][..], &[0x5415], &[0xD83D, 0xDE00], &[0xDC00; 1]] {
                let text: String = (0..n).map(mix).collect();
                let mut units: Vec<u16> = text.encode_utf16().collect();
                units.extend_from_slice(end);
                if end == [0xDC00] {
                    // The text goes on after the unpaired surrogate.
                    let more: String = (n..n + 40).map(mix).collect();
                    units.extend(more.encode_utf16());
                }
                let caps = if n % 16 == 0 || n + 4 >= 300 {
                    Caps::All
                } else {
                    Caps::Roomy
                };
                check_utf16_to_utf8(&ts, &units, caps);
            }
        }
    }
}

/// Texts where characters outside the BMP (surrogate pairs in UTF-16,
/// 4-byte characters in UTF-8) meet characters of every width: among ASCII,
/// 2-byte and 3-byte ones, alone, and among all three, some sparse, and in
/// runs of five between runs of ASCII (a register lane of them next to one
/// without: the stray units of the UTF-32 → UTF-16 blocks). Each
/// at four phases (0 to 3 ASCII characters first), so that they straddle
/// every block, register, window and half of the kernels at every unit and
/// byte.
fn four_byte_texts() -> impl Iterator<Item = Vec<char>> {
    let mixes: [fn(usize) -> char; 8] = [
        |i| ['😀', 'a'][i % 2],
        |i| ['\u{10000}', 'ж', '\u{10FFFF}'][i % 3],
        |i| ['😀', '吕', '\u{FFFF}', '𝄞'][i % 4],
        |i| ['😀', '\u{10FFFF}', '𠀀'][i % 3],
        |i| ['😀', 'a', 'ж', '😀', '吕', ' '][i % 6],
        |i| ['😀', 'a', 'ж', '😀', '吕', ' ', 'b', 'c'][i % 8],
        |i| {
            if i % 9 == 4 {
                '🙂'
            } else {
                ['a', 'é', '한'][i % 3]
            }
        },
        |i| if i % 11 < 5 { '😀' } else { 'a' },
    ];
    mixes.into_iter().flat_map(|mix| {
        (0..4).map(move |phase| "abc"[..phase].chars().chain((0..70).map(mix)).collect())
    })
}

/// Every output size where something odd is at `at`, near the end of `len`
/// or at every ninth position; the roomy outputs elsewhere.
fn caps_at(at: usize, len: usize) -> Caps {
    if at.is_multiple_of(9) || at + 8 >= len {
        Caps::All
    } else {
        Caps::Roomy
    }
}

/// UTF-16 → UTF-8 on [`four_byte_texts`] (the kernels convert a block
/// whose surrogates are all paired with each unit of a pair making 2 of
/// its 4 bytes in its own lane; a lead in the last unit is left to the next
/// block), with a wrong piece at every unit: a lone lead, a lone trail, a
/// trail and lead swapped, a lead followed by a lead and its trail, and one
/// ASCII unit (which only moves the pairs on). From `u16`s and bytes in
/// both orders; every output size where the piece is near the end or at
/// every ninth unit.
#[test]
fn utf16_pairs_among_every_width() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let pieces: [&[u16]; 5] = [
        &[0xD83D],
        &[0xDE00],
        &[0xDE00, 0xD83D],
        &[0xD83D, 0xD83D, 0xDE00],
        &[0x61],
    ];
    for chars in four_byte_texts() {
        let units: Vec<u16> = chars.iter().collect::<String>().encode_utf16().collect();
        check_utf16_to_utf8(&ts, &units, Caps::All);
        for at in (0..units.len()).step_by(step) {
            for piece in pieces {
                let mut odd = units.clone();
                odd.splice(at..at, piece.iter().copied());
                check_utf16_to_utf8(&ts, &odd, caps_at(at, units.len()));
            }
        }
    }
}

/// UTF-8 → UTF-16 and UTF-32 on [`four_byte_texts`] (the AVX2 kernel's
/// windows put a 4-byte character's lead surrogate in its lead byte's lane
/// and the trail in the next byte's, or, into UTF-32, its value in the
/// lead's lane; the VBMI2 kernel's blocks make the lead surrogate at the
/// lead byte and the trail at the third byte, and hand blocks into UTF-32
/// to the AVX2 kernel; NEON's window does as AVX2's), with a piece inserted at every character: an ASCII byte
/// (which only moves the rest on), another 4-byte character, a 4-byte
/// character cut after 3 bytes, an encoded surrogate. Into `u16`s and bytes
/// in both orders and into UTF-32, validating and from `&str`; every output
/// size where the piece is near the end or at every ninth character.
#[test]
fn utf8_four_byte_among_every_width() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let pieces: [&[u8]; 4] = [b"a", "🙃".as_bytes(), b"\xF0\x9F\x98", b"\xED\xA0\x80"];
    for chars in four_byte_texts() {
        let text: String = chars.iter().collect();
        check_utf8_to_utf16(&ts, text.as_bytes(), Caps::All);
        for at in (0..chars.len()).step_by(step) {
            let caps = caps_at(at, chars.len());
            let split = chars[..at].iter().map(|c| c.len_utf8()).sum::<usize>();
            for piece in pieces {
                let mut odd = text.as_bytes().to_vec();
                odd.splice(split..split, piece.iter().copied());
                check_utf8_to_utf16(&ts, &odd, caps);
                check(&UTF8_TO_UTF32, &ts, &odd, caps);
                if let Ok(s) = core::str::from_utf8(&odd) {
                    check(&STR_TO_UTF32, &ts, s.as_bytes(), caps);
                }
            }
        }
    }
}

/// UTF-32 → UTF-16 and UTF-8 on [`four_byte_texts`], twice over and with
/// 0 to 3 ASCII values after (the
/// UTF-32 → UTF-16 kernels take 4 registers of values above and below
/// U+FFFF at a time, 32 or 64 values), with a piece inserted at every
/// value: an ASCII value (which only moves the rest on), another value
/// above U+FFFF, a surrogate, a value above U+10FFFF. Every output size
/// where the piece is near the end or at every ninth value.
#[test]
fn utf32_four_byte_among_every_width() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let pieces: [u32; 4] = [0x61, 0x1_F643, 0xDC00, 0x11_0000];
    for chars in four_byte_texts() {
        let units: Vec<u32> = chars.iter().chain(&chars).map(|&c| u32::from(c)).collect();
        // The text, and the text followed by 1 to 3 ASCII values, so that
        // the last register lane is cut at every place.
        for end in 0..4 {
            let mut ended = units.clone();
            ended.extend((0..end).map(|k| u32::from(b'x') + k));
            check(&UTF32_TO_UTF16, &ts, &ended, Caps::All);
            check(&UTF32_TO_UTF8, &ts, &ended, Caps::All);
        }
        for at in (0..units.len()).step_by(step) {
            let caps = caps_at(at, units.len());
            for piece in pieces {
                let mut odd = units.clone();
                odd.insert(at, piece);
                check(&UTF32_TO_UTF16, &ts, &odd, caps);
                check(&UTF32_TO_UTF8, &ts, &odd, caps);
            }
        }
    }
}

/// UTF-8 → UTF-16 on text of 1-, 2- and 3-byte characters (the VBMI2
/// kernel's 64-byte blocks, which leave a character that does not end in
/// the block, a lead in its last byte or a 3-byte lead in the one before,
/// to the next block) at every length up to 300 bytes, in seven mixes: all
/// 2-byte, and after one ASCII byte so that leads fall on odd positions;
/// ASCII with 2-byte; runs of 48 2-byte characters between runs of 144
/// ASCII bytes, which hold whole ASCII blocks; 1-, 2- and 3-byte
/// characters in turn (3-byte leads at every position of a block); 3-byte
/// characters between spaces (Korean-like); the lowest and highest 3-byte
/// characters among 1- and 2-byte ones. Each is followed by nothing, a 3-
/// or 4-byte character (the latter split into its two units by the
/// kernel), or invalid bytes and 40 more; into `u16`s and bytes in both orders.
#[test]
fn utf8_short_characters_at_every_length() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let ts = transcoders();
    let mixes: [fn(usize) -> char; 7] = [
        |i| ['ж', 'é', '\u{7FF}', '\u{80}'][i % 4],
        |i| if i == 0 { 'a' } else { 'ж' },
        |i| if i % 5 == 0 { 'a' } else { 'ж' },
        |i| if i % 192 < 48 { 'ж' } else { 'a' },
        |i| ['a', 'ж', '吕'][i % 3],
        |i| if i % 4 == 0 { ' ' } else { '한' },
        |i| ['\u{800}', 'a', '\u{FFFF}', 'é', '\u{FFFD}'][i % 5],
    ];
    let ends: [&[u8]; 5] = [b"", "吕".as_bytes(), "😀".as_bytes(), b"\xC3", b"\x80\xFF"];
    for mix in mixes {
        let text: String = (0..300).map(mix).collect();
        for n in (0..=300).step_by(step) {
            let cut = (0..=n).rev().find(|&k| text.is_char_boundary(k)).unwrap();
            for end in ends {
                let mut input = text.as_bytes()[..cut].to_vec();
                input.extend_from_slice(end);
                if !end.is_empty() {
                    input.extend(std::iter::repeat_n(b'a', 40));
                }
                let caps = if n % 16 == 0 || n + 4 >= 300 {
                    Caps::All
                } else {
                    Caps::Roomy
                };
                check_utf8_to_utf16(&ts, &input, caps);
            }
        }
    }
}
