//! The counts and lengths, with every set of kernels this CPU can run,
//! against the standard library: at every length up to a few registers and
//! every start offset (so that every tail length of every kernel is hit),
//! on random text of each width and on UTF-16 and UTF-32 dense with
//! surrogates and out-of-range values; long inputs that cross the points
//! where the kernels' counters are flushed; and inputs that end at a guard
//! page (or start right after one), at every length 0..=256.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use transcode::Transcoder;

#[path = "common/kernels.rs"]
mod kernels;
use kernels::transcoders;

/// The oracle for every count of UTF-8 `s`.
fn check_str(t: Transcoder, s: &str) {
    assert_eq!(
        t.count_chars(s),
        s.chars().count(),
        "{} count_chars {s:?}",
        t.name()
    );
    assert_eq!(
        t.utf16_len(s),
        s.encode_utf16().count(),
        "{} utf16_len {s:?}",
        t.name()
    );
}

/// The oracle for every count of UTF-16 `u`.
fn check_utf16(t: Transcoder, u: &[u16]) {
    assert_eq!(
        t.count_chars_utf16(u),
        char::decode_utf16(u.iter().copied()).count(),
        "{} count_chars_utf16 {u:04X?}",
        t.name()
    );
    assert_eq!(
        t.utf8_len_from_utf16(u),
        String::from_utf16_lossy(u).len(),
        "{} utf8_len_from_utf16 {u:04X?}",
        t.name()
    );
}

/// The oracle for every count of UTF-32 `u`.
fn check_utf32(t: Transcoder, u: &[u32]) {
    let lossy = || u.iter().map(|&u| char::from_u32(u).unwrap_or('\u{FFFD}'));
    assert_eq!(
        t.utf8_len_from_utf32(u),
        lossy().map(char::len_utf8).sum::<usize>(),
        "{} utf8_len_from_utf32 {u:X?}",
        t.name()
    );
    assert_eq!(
        t.utf16_len_from_utf32(u),
        lossy().map(char::len_utf16).sum::<usize>(),
        "{} utf16_len_from_utf32 {u:X?}",
        t.name()
    );
}

/// The oracle for the count of Latin-1 `b`.
fn check_latin1(t: Transcoder, b: &[u8]) {
    let expect: usize = b.iter().map(|&b| char::from(b).len_utf8()).sum();
    assert_eq!(
        t.utf8_len_from_latin1(b),
        expect,
        "{} utf8_len_from_latin1 {b:X?}",
        t.name()
    );
}

/// Random text whose characters are drawn from `pool`.
fn text(rng: &mut StdRng, pool: &[char], chars: usize) -> String {
    (0..chars)
        .map(|_| pool[rng.random_range(0..pool.len())])
        .collect()
}

/// Characters of every UTF-8 length, and the edges of each length.
const POOLS: &[&[char]] = &[
    &['a', ' ', '\0', '\x7F'],
    &['a', 'é', '\u{80}', '\u{7FF}'],
    &[
        'a', 'é', '吕', '\u{800}', '\u{FFFF}', '\u{D7FF}', '\u{E000}',
    ],
    &['a', '😀', '\u{10000}', '\u{10FFFF}'],
    &['a', 'é', '吕', '😀'],
    &['吕', '😀'],
];

/// Random UTF-16 units, mostly surrogates, so that pairs, unpaired leads
/// and trails, and pairs split across registers are everywhere.
fn utf16_units(rng: &mut StdRng, n: usize) -> Vec<u16> {
    const SPECIAL: [u16; 10] = [
        0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x0061, 0x007F, 0x0080, 0x07FF, 0x0800, 0xFFFF,
    ];
    (0..n)
        .map(|_| match rng.random_range(0..4) {
            0 => SPECIAL[rng.random_range(0..SPECIAL.len())],
            1 => rng.random_range(0xD800..0xDC00),
            2 => rng.random_range(0xDC00..0xE000),
            _ => rng.random(),
        })
        .collect()
}

/// Random UTF-32 units: every range, and the edges of each, including
/// those whose sign bit is set (the kernels compare signed lanes).
fn utf32_units(rng: &mut StdRng, n: usize) -> Vec<u32> {
    const SPECIAL: [u32; 16] = [
        0,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xD7FF,
        0xD800,
        0xDFFF,
        0xE000,
        0xFFFF,
        0x1_0000,
        0x10_FFFF,
        0x11_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
    ];
    (0..n)
        .map(|_| match rng.random_range(0..4) {
            0 => SPECIAL[rng.random_range(0..SPECIAL.len())],
            1 => rng.random_range(0..0x800),
            2 => rng.random_range(0..0x11_0000),
            _ => rng.random(),
        })
        .collect()
}

/// Every length up to this many units, at every start offset up to
/// [`OFFSETS`]: several 64-byte registers and every tail length of each.
const MAX_LEN: usize = 300;
const OFFSETS: usize = 8;

#[test]
fn utf8_counts_at_every_length_and_offset() {
    let mut rng = StdRng::seed_from_u64(1);
    for t in transcoders() {
        for pool in POOLS {
            let s = text(&mut rng, pool, MAX_LEN + OFFSETS);
            let starts: Vec<usize> = s.char_indices().map(|(i, _)| i).take(OFFSETS).collect();
            for &start in &starts {
                let rest = &s[start..];
                for end in (0..=rest.len().min(MAX_LEN)).filter(|&e| rest.is_char_boundary(e)) {
                    check_str(t, &rest[..end]);
                }
            }
        }
    }
}

#[test]
fn utf16_counts_at_every_length_and_offset() {
    let mut rng = StdRng::seed_from_u64(2);
    for t in transcoders() {
        for _ in 0..4 {
            let u = utf16_units(&mut rng, MAX_LEN + OFFSETS);
            for start in 0..OFFSETS {
                for end in start..=start + MAX_LEN {
                    check_utf16(t, &u[start..end]);
                }
            }
        }
        // Valid UTF-16 of every width.
        for pool in POOLS {
            let u: Vec<u16> = text(&mut rng, pool, MAX_LEN).encode_utf16().collect();
            for end in 0..=u.len() {
                check_utf16(t, &u[..end]);
            }
        }
    }
}

#[test]
fn utf32_counts_at_every_length_and_offset() {
    let mut rng = StdRng::seed_from_u64(3);
    for t in transcoders() {
        for _ in 0..4 {
            let u = utf32_units(&mut rng, MAX_LEN + OFFSETS);
            for start in 0..OFFSETS {
                for end in start..=start + MAX_LEN {
                    check_utf32(t, &u[start..end]);
                }
            }
        }
    }
}

/// Valid UTF-32 of every width at every length and offset: the kernels'
/// first pass, which assumes every unit is at most `10FFFF`, answers alone
/// (the random units above nearly always hold one that is not, and take
/// the second, exact pass).
#[test]
fn valid_utf32_counts_at_every_length_and_offset() {
    let mut rng = StdRng::seed_from_u64(8);
    for t in transcoders() {
        for pool in POOLS {
            let u: Vec<u32> = text(&mut rng, pool, MAX_LEN + OFFSETS)
                .chars()
                .map(u32::from)
                .collect();
            for start in 0..OFFSETS {
                for end in start..=start + MAX_LEN {
                    check_utf32(t, &u[start..end]);
                }
            }
        }
        // Surrogates pass the first pass too (as U+FFFD they are 3 bytes
        // and one unit, like U+FFFF).
        let surrogates: Vec<u32> = (0..MAX_LEN as u32).map(|i| 0xD800 + 7 * i).collect();
        for end in 0..=MAX_LEN {
            check_utf32(t, &surrogates[..end]);
        }
    }
}

/// One unit above `10FFFF` at every position of otherwise valid UTF-32,
/// so that the first pass sees it in every register of a round, in the
/// whole registers of the tail and in the masked last one, and hands over
/// to the exact pass.
#[test]
fn one_invalid_utf32_unit_at_every_position() {
    let mut rng = StdRng::seed_from_u64(9);
    let bad = [0x11_0000, 0x1F_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];
    for t in transcoders() {
        for len in [1, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 200] {
            let valid: Vec<u32> = text(&mut rng, POOLS[4], len)
                .chars()
                .map(u32::from)
                .collect();
            for at in 0..len {
                let mut u = valid.clone();
                u[at] = bad[rng.random_range(0..bad.len())];
                check_utf32(t, &u);
            }
        }
    }
}

/// Lengths around the kernels' round boundaries (four registers a round,
/// 16, 32 or 64 bytes each) and around the flushes of their byte counters
/// (every `255 / (4 * MAX) - 1` rounds: 62 for the counts that add at most
/// 1 a byte, 30 for the UTF-16 length of UTF-8, which adds 2 for a 4-byte
/// lead), on inputs whose every unit adds the most its counter takes, so
/// that a counter one round or one tail register too full would wrap.
#[test]
fn lengths_around_rounds_and_flushes() {
    let mut lengths = std::collections::BTreeSet::new();
    for b in [16, 32, 64] {
        for rounds in [1, 2, 29, 30, 31, 61, 62, 63, 124, 125] {
            for extra in [0, 1, 3, b - 1, b, b + 1, 2 * b + 3, 4 * b - 1] {
                lengths.insert(rounds * 4 * b + extra);
            }
        }
    }
    let max = *lengths.last().unwrap();
    let ascii = "a".repeat(max);
    let emoji = "😀".repeat(max / 4);
    let latin1 = vec![0xE9u8; max];
    let pairs: Vec<u16> = "😀".repeat(max / 2 + 1).encode_utf16().collect();
    let supplementary = vec![0x10_FFFFu32; max];
    for t in transcoders() {
        for &n in &lengths {
            check_str(t, &ascii[..n]);
            check_str(t, &emoji[..n / 4 * 4]);
            check_latin1(t, &latin1[..n]);
            check_utf16(t, &pairs[..n]);
            check_utf32(t, &supplementary[..n]);
        }
    }
}

/// ASCII with one surrogate pair, lone lead or lone trail at every
/// position: most rounds of the UTF-16 counts hold no unit from `8000`
/// (count-utf16 skips their pair test), one does, and the pair straddles
/// every register and round boundary.
#[test]
fn one_surrogate_pair_in_ascii_at_every_position() {
    for t in transcoders() {
        for len in [40, 130, 300] {
            for at in 0..len {
                for ins in [
                    &[0xD83D, 0xDE00][..],
                    &[0xD83D],
                    &[0xDE00],
                    &[0xDE00, 0xD83D],
                ] {
                    let mut u = vec![0x61u16; len];
                    u.splice(at..at, ins.iter().copied());
                    check_utf16(t, &u);
                }
            }
        }
    }
}

#[test]
fn latin1_counts_at_every_length_and_offset() {
    let mut rng = StdRng::seed_from_u64(4);
    for t in transcoders() {
        let b: Vec<u8> = (0..MAX_LEN + OFFSETS).map(|_| rng.random()).collect();
        for start in 0..OFFSETS {
            for end in start..=start + MAX_LEN {
                check_latin1(t, &b[start..end]);
            }
        }
    }
}

/// Inputs whose every unit adds the most a counter can take, long enough to
/// cross several flushes of the kernels' byte and 16-bit counters (the
/// 16-bit ones flush after about a million units of AVX-512), and then some
/// random units so that the flush points fall at different offsets.
#[test]
fn long_inputs_cross_counter_flushes() {
    let mut rng = StdRng::seed_from_u64(5);
    let ascii = "a".repeat(1 << 20);
    let emoji = "😀".repeat(1 << 18);
    let pairs: Vec<u16> = emoji.encode_utf16().collect();
    let ascii16 = vec![0x61u16; 3 << 20];
    // 5 Mi units: past 0x7FFF rounds of 128 units, where the AVX-512
    // UTF-8 length of UTF-16 flushes its counters, whose lanes grow by 2
    // a round on units from 800.
    let unpaired = vec![0xD800u16; 5 << 20];
    let supplementary = vec![0x1_0000u32; 1 << 20];
    let latin1 = vec![0xE9u8; 1 << 20];
    for t in transcoders() {
        for extra in [0, 1, 7, 33] {
            let tail = text(&mut rng, POOLS[4], extra);
            check_str(t, &(ascii.clone() + &tail));
            check_str(t, &(emoji.clone() + &tail));
            let tail16 = utf16_units(&mut rng, extra);
            for base in [&pairs, &ascii16, &unpaired] {
                let mut u = base.clone();
                u.extend_from_slice(&tail16);
                check_utf16(t, &u);
            }
            let mut u = supplementary.clone();
            u.extend(utf32_units(&mut rng, extra));
            check_utf32(t, &u);
            let mut b = latin1.clone();
            b.extend((0..extra).map(|_| rng.random::<u8>()));
            check_latin1(t, &b);
        }
    }
}

/// Every UTF-16 unit value through every kernel: all 65,536 in order (one
/// pair, `DBFF DC00`, and runs of unpaired leads and trails), from a few
/// start offsets, and shuffled (random pairs). The random inputs above
/// draw from a few ranges and might miss a class boundary a kernel's table
/// draws, such as `780` in the AVX-512 length's `unit >> 7`.
#[test]
fn every_utf16_unit_value() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let mut shuffled = all.clone();
    let mut rng = StdRng::seed_from_u64(11);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.random_range(0..=i));
    }
    for t in transcoders() {
        for u in [
            &all[..],
            &all[1..],
            &all[31..],
            &shuffled[..],
            &shuffled[5..],
        ] {
            let (chars, len) = (t.count_chars_utf16(u), t.utf8_len_from_utf16(u));
            let expect = (
                char::decode_utf16(u.iter().copied()).count(),
                String::from_utf16_lossy(u).len(),
            );
            assert_eq!(
                (chars, len),
                expect,
                "{} on {} units from {:04X}",
                t.name(),
                u.len(),
                u[0]
            );
        }
    }
}

/// Every count on inputs that end at a guard page, or start right after
/// one, at every length 0..=256 units.
#[cfg(target_os = "linux")]
#[test]
fn guard_pages() {
    use codec_testdata::guard::GuardedBuf;

    let mut rng = StdRng::seed_from_u64(6);
    let mut buf = GuardedBuf::new(4 * 256);
    let transcoders = transcoders();
    let s = text(&mut rng, POOLS[4], 256);
    let u16s = utf16_units(&mut rng, 256);
    let u32s = utf32_units(&mut rng, 256);
    for len in 0..=256 {
        let cut = (0..=len.min(s.len()))
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap();
        let bytes = &s.as_bytes()[..cut];
        for at_end in [true, false] {
            let place = |buf: &mut GuardedBuf, b: &[u8]| {
                let out = if at_end {
                    buf.at_end_mut(b.len())
                } else {
                    buf.at_start_mut(b.len())
                };
                out.copy_from_slice(b);
            };
            for &t in &transcoders {
                place(&mut buf, bytes);
                let g = guarded(&mut buf, at_end, bytes.len());
                check_str(t, core::str::from_utf8(g).unwrap());
                check_latin1(t, g);

                let raw: Vec<u8> = u16s[..len].iter().flat_map(|u| u.to_ne_bytes()).collect();
                place(&mut buf, &raw);
                let g = guarded(&mut buf, at_end, raw.len());
                // SAFETY: `g` is `2 * len` initialized bytes, and its start is
                // 2-aligned: it starts a page or ends one, with an even length.
                let units = unsafe { core::slice::from_raw_parts(g.as_ptr().cast::<u16>(), len) };
                check_utf16(t, units);

                let raw: Vec<u8> = u32s[..len].iter().flat_map(|u| u.to_ne_bytes()).collect();
                place(&mut buf, &raw);
                let g = guarded(&mut buf, at_end, raw.len());
                // SAFETY: as above, with 4-byte units.
                let units = unsafe { core::slice::from_raw_parts(g.as_ptr().cast::<u32>(), len) };
                check_utf32(t, units);
            }
        }
    }
}

/// The `len` bytes of `buf` that end at its trailing guard page
/// (`at_end`) or start after its leading one.
#[cfg(target_os = "linux")]
fn guarded(buf: &mut codec_testdata::guard::GuardedBuf, at_end: bool, len: usize) -> &[u8] {
    if at_end {
        buf.at_end_mut(len)
    } else {
        buf.at_start_mut(len)
    }
}
