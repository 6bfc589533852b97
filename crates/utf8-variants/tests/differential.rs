//! Every validator of the crate (one call, scalar, streaming at several
//! chunkings) against the value-based oracle of `codec_testdata::variants`,
//! against std where an encoding means the same as UTF-8, and against each
//! other: exhaustively on short inputs and surrogate pairs, and on random
//! inputs built from interesting pieces.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use codec_testdata::variants::{self as oracle};
use common::{VARIANTS, interesting, position, same_as_utf8, stream_random, surrogate, validators};
use rand::{SeedableRng, rngs::StdRng};
use utf8_variants::{ErrorKind, Variant};

/// Every input of 0 to 3 bytes: each validator gives the same error (kind
/// included); validity and `valid_up_to` are the oracle's; `error_len` is
/// std's where the encoding means the same as UTF-8, and the oracle's on
/// every input of up to 2 bytes.
fn every_input_up_to_three_bytes(which: usize) {
    let (v, rules) = VARIANTS[which];
    let checks = validators(v);
    let check = |buf: &[u8]| {
        let want = v.validate(buf);
        // At 3 bytes, the two most different paths only (the whole set takes
        // minutes on a loaded machine).
        for (name, check) in &checks {
            if buf.len() < 3 || matches!(*name, "scalar" | "stream-1") {
                assert_eq!(check(buf), want, "{v} {name} {buf:02X?}");
            }
        }
        assert_eq!(
            want.is_ok(),
            oracle::is_valid(&rules, buf),
            "{v} {buf:02X?}"
        );
        if let Err(e) = want {
            assert_eq!(
                e.valid_up_to(),
                oracle::valid_up_to(&rules, buf),
                "{v} {buf:02X?}"
            );
            if same_as_utf8(v, buf) {
                let std = core::str::from_utf8(buf).unwrap_err();
                assert_eq!(
                    (e.valid_up_to(), e.error_len()),
                    (std.valid_up_to(), std.error_len()),
                    "{v} {buf:02X?}"
                );
            }
            if buf.len() <= 2 {
                assert_eq!(position(want), oracle::exact(&rules, buf), "{v} {buf:02X?}");
            }
        }
    };
    // Under emulation (the aarch64 lane), codec-testdata's representative
    // bytes stand for the second and third (`for_each_sequence_up_to_3`).
    check(&[]);
    codec_testdata::for_each_sequence_up_to_3(check);
}

// One test per encoding, so that they run side by side.
#[test]
fn every_cesu8_input_up_to_three_bytes() {
    every_input_up_to_three_bytes(0);
}

#[test]
fn every_mutf8_input_up_to_three_bytes() {
    every_input_up_to_three_bytes(1);
}

#[test]
fn every_wtf8_input_up_to_three_bytes() {
    every_input_up_to_three_bytes(2);
}

/// Every sequence of two surrogates (4,194,304 per encoding), checked
/// against the oracle's answer for its kind of pair (lead or trail, twice),
/// with the kind of error.
#[test]
fn every_surrogate_pair() {
    for (v, rules) in VARIANTS {
        // The oracle's exact answer for one pair of each kind.
        let kinds = [
            [0xDA00u32, 0xD900],
            [0xDA00, 0xDE00],
            [0xDE00, 0xD900],
            [0xDE00, 0xDE00],
        ];
        let want: Vec<_> = kinds
            .iter()
            .map(|k| {
                let mut b = common::surrogate(k[0]).to_vec();
                b.extend(common::surrogate(k[1]));
                oracle::exact(&rules, &b)
            })
            .collect();
        let mut count = 0;
        let emulated = codec_testdata::emulated();
        oracle::for_each_surrogate_pair(|pair| {
            // Under emulation, one pair in 61.
            if emulated && (pair[2] ^ pair[5]) % 61 != 0 {
                count += 1;
                return;
            }
            let lead = |b: u8| b < 0xB0;
            let kind = usize::from(!lead(pair[1])) * 2 + usize::from(!lead(pair[4]));
            let got = v.validate(pair);
            assert_eq!(position(got), want[kind], "{v} {pair:02X?}");
            assert_eq!(
                position(v.validate_scalar(pair)),
                want[kind],
                "{v} scalar {pair:02X?}"
            );
            if let Err(e) = got {
                let expected_kind = match v {
                    Variant::Wtf8 => ErrorKind::SurrogatePair,
                    _ => ErrorKind::UnpairedSurrogate,
                };
                assert_eq!(e.kind(), expected_kind, "{v} {pair:02X?}");
            }
            count += 1;
        });
        assert_eq!(count, 2048 * 2048);
    }
}

/// Every sequence of two surrogates again, inside 128-byte inputs so that
/// each SIMD kernel checks the pair: at the start of a block, across the
/// 16- and 32-byte register seams, and across the block seam after an ASCII
/// block (where the check of an unfinished pair at the end of a non-ASCII
/// run matters) and after a non-ASCII one. The kernels' yes or no is
/// compared with the oracle's for the kind of pair; their exact errors come
/// from the scalar path, which the tests above compare on every pair.
///
/// Every pair at the block seam; one pair in 8 at the register seams (the
/// whole set took 48 s on a loaded machine).
#[test]
fn every_surrogate_pair_in_every_kernel() {
    for (v, rules) in VARIANTS {
        let kernels: Vec<_> = utf8_simd::kernels()
            .iter()
            .filter(|k| v.is_valid_with_kernel(k, b"").is_some())
            .collect();
        if kernels.is_empty() {
            eprintln!("no SIMD kernel runs here: skipping");
            return;
        }
        let valid_kind = |lead1: bool, lead2: bool| {
            let mut b = common::surrogate(if lead1 { 0xD900 } else { 0xDD00 }).to_vec();
            b.extend(common::surrogate(if lead2 { 0xD900 } else { 0xDD00 }));
            b.push(b'a');
            oracle::is_valid(&rules, &b)
        };
        let want = [
            [valid_kind(false, false), valid_kind(false, true)],
            [valid_kind(true, false), valid_kind(true, true)],
        ];
        let mut inputs = Vec::new();
        for (fill, at) in [(b'a', 61), (b'a', 29), (0xC3, 59)] {
            let mut buf = vec![b'a'; 128];
            if fill == 0xC3 {
                for pair in buf[..58].chunks_exact_mut(2) {
                    pair.copy_from_slice("é".as_bytes());
                }
            }
            inputs.push((buf, at));
        }
        let mut count = 0u64;
        let emulated = codec_testdata::emulated();
        oracle::for_each_surrogate_pair(|pair| {
            // Under emulation, one pair in 61 (the count below is the plan).
            if emulated && (pair[1] ^ pair[4] ^ pair[2]) % 61 != 0 {
                count += kernels.len() as u64 * if (pair[2] ^ pair[5]) % 8 == 0 { 3 } else { 1 };
                return;
            }
            let expected = want[usize::from(pair[1] < 0xB0)][usize::from(pair[4] < 0xB0)];
            let sampled = (pair[2] ^ pair[5]) % 8 == 0;
            for (buf, at) in inputs.iter_mut().take(if sampled { 3 } else { 1 }) {
                buf[*at..*at + 6].copy_from_slice(pair);
                for k in &kernels {
                    let got = v.is_valid_with_kernel(k, buf).unwrap();
                    assert_eq!(got, expected, "{v} {} at {at}: {pair:02X?}", k.name());
                    count += 1;
                }
            }
        });
        // All pairs once, one in 8 twice more.
        assert_eq!(
            count,
            (2048 * 2048 + 2 * 2048 * 2048 / 8) * kernels.len() as u64
        );
    }
}

/// Random inputs of interesting pieces: the exact error is the oracle's,
/// and streaming at random cuts gives the one-call answer.
#[test]
fn random_inputs_match_the_oracle() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0013);
    let rounds = if codec_testdata::emulated() {
        600
    } else {
        6000
    };
    for (v, rules) in VARIANTS {
        for round in 0..rounds {
            let input = interesting(&mut rng, 1 + round % 24);
            let got = v.validate(&input);
            assert_eq!(
                position(got),
                oracle::exact(&rules, &input),
                "{v} {input:02X?}"
            );
            assert_eq!(v.validate_scalar(&input), got, "{v} scalar {input:02X?}");
            assert_eq!(
                stream_random(v, &input, &mut rng),
                got,
                "{v} stream {input:02X?}"
            );
            if same_as_utf8(v, &input) {
                let std = core::str::from_utf8(&input)
                    .map(|_| ())
                    .map_err(|e| (e.valid_up_to(), e.error_len()));
                assert_eq!(position(got), std, "{v} std {input:02X?}");
            }
        }
    }
}

/// Invalid pieces (and valid pairs) placed after prefixes around every
/// block boundary of the SIMD path and the scalar ASCII fast path, at
/// allocation offsets 0 to 5: the error is found at the right place.
#[test]
fn pieces_after_prefixes_around_block_boundaries() {
    let lengths = [
        0, 1, 2, 3, 15, 16, 17, 30, 31, 32, 33, 61, 62, 63, 64, 65, 66, 127, 128, 129, 191, 192,
        193, 254, 255, 256, 257, 300,
    ];
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80\xED\xB0\x80", // a pair
        b"\xED\xA0\x80",             // a lead
        b"\xED\xB0\x80",             // a trail
        b"\xED\xA0\x80\xED\xA0\x80", // two leads
        b"\xC0\x80",
        b"\x00",
        b"\xF0\x9F\x98\x80",
        b"\xE2\x82",
        b"\x80",
        b"\xC3\xA9",
    ];
    let mut storage = vec![0u8; 400 + 16 + 8];
    for (v, rules) in VARIANTS {
        for fill in [&b"a"[..], "é".as_bytes(), "吕".as_bytes()] {
            for &len in &lengths {
                let mut prefix: Vec<u8> = fill.iter().copied().cycle().take(len).collect();
                // Keep the prefix whole characters.
                while core::str::from_utf8(&prefix).is_err() {
                    prefix.pop();
                }
                for piece in pieces {
                    for suffix in [&b""[..], b"tail", b"\xED\xB0\x80"] {
                        let mut input = prefix.clone();
                        input.extend_from_slice(piece);
                        input.extend_from_slice(suffix);
                        let want = oracle::exact(&rules, &input);
                        for offset in 0..=5 {
                            let buf = &mut storage[offset..offset + input.len()];
                            buf.copy_from_slice(&input);
                            assert_eq!(
                                position(v.validate(buf)),
                                want,
                                "{v} offset {offset} {input:02X?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Pieces inside non-ASCII text long enough for kernel blocks on both sides
/// (320 bytes), at every character boundary of the first 200 bytes, through
/// every kernel: a lead surrogate that ends one block and is followed by a
/// block of text without surrogates is an error under the paired rules,
/// which the kernel must see even though that next block would pass its
/// check for surrogate-free text.
#[test]
fn pieces_at_every_offset_of_non_ascii_text_in_every_kernel() {
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80",             // a lead
        b"\xED\xB0\x80",             // a trail
        b"\xED\xA0\x80\xED\xB0\x80", // a pair
        b"\xED\xA0\x80\xED\xA0\x80", // two leads
        b"\xED\xB0\x80\xED\xA0\x80", // a trail, then a lead
        b"\xC0\x80",
        b"\x00",
        b"\xF0\x9F\x98\x80",
    ];
    for (v, rules) in VARIANTS {
        let kernels: Vec<_> = utf8_simd::kernels()
            .iter()
            .filter(|k| v.is_valid_with_kernel(k, b"").is_some())
            .collect();
        for fill in ["é", "吕", "é吕a"] {
            let mut text = fill.repeat(320 / fill.len() + 1);
            while text.len() > 320 {
                text.pop();
            }
            let mut checked = 0;
            for at in (0..=200).filter(|&at| text.is_char_boundary(at)) {
                for piece in pieces {
                    let mut input = text.as_bytes()[..at].to_vec();
                    input.extend_from_slice(piece);
                    input.extend_from_slice(&text.as_bytes()[at..]);
                    let want = oracle::exact(&rules, &input);
                    assert_eq!(
                        position(v.validate(&input)),
                        want,
                        "{v} at {at} {piece:02X?}"
                    );
                    for k in &kernels {
                        let got = v.validate_with_kernel(k, &input).unwrap();
                        assert_eq!(position(got), want, "{v} {} at {at} {piece:02X?}", k.name());
                        let valid = v.is_valid_with_kernel(k, &input).unwrap();
                        assert_eq!(valid, want.is_ok(), "{v} {} at {at} {piece:02X?}", k.name());
                    }
                    checked += 1;
                }
            }
            assert!(checked >= 60 * pieces.len(), "{v} {fill}: {checked}");
        }
    }
}

quickcheck::quickcheck! {
    /// Arbitrary bytes: every validator agrees, and a prefix up to
    /// `valid_up_to` is valid.
    fn arbitrary_bytes_agree(input: Vec<u8>) -> bool {
        for (v, _) in VARIANTS {
            let want = v.validate(&input);
            for (name, check) in validators(v) {
                assert_eq!(check(&input), want, "{v} {name} {input:02X?}");
            }
            if let Err(e) = want {
                assert!(v.validate(&input[..e.valid_up_to()]).is_ok());
            }
        }
        true
    }

    /// UTF-8 strings are WTF-8, and are CESU-8 and MUTF-8 exactly when they
    /// have no supplementary character (and, for MUTF-8, no NUL).
    fn strings_are_valid_where_they_should_be(s: String) -> bool {
        let b = s.as_bytes();
        assert!(Variant::Wtf8.is_valid(b));
        let supplementary = s.chars().any(|c| c > '\u{FFFF}');
        assert_eq!(Variant::Cesu8.is_valid(b), !supplementary);
        assert_eq!(Variant::Mutf8.is_valid(b), !supplementary && !s.contains('\0'));
        true
    }
}

/// The kernel checks a group of four blocks (256 bytes) with the plain
/// check first and goes back to the group's start for the full check when
/// anything is flagged; the full check hands over to the plain one at a
/// checkpoint whose last block holds no surrogate. So: a piece at every
/// offset around the first three group boundaries, after nothing, after a
/// valid surrogate early in the first group (that group is checked twice,
/// and the next starts plain again), and after one at the end of the first
/// group (the next group starts in the full check); in non-ASCII text and
/// in text with whole ASCII blocks between non-ASCII runs (a run that
/// starts or ends inside a group).
#[test]
fn pieces_around_group_boundaries_after_mode_changes_in_every_kernel() {
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80",             // a lead
        b"\xED\xB0\x80",             // a trail
        b"\xED\xA0\x80\xED\xB0\x80", // a pair
        b"\xED\xA0\x80\xED\xA0\x80", // two leads
        b"\xC0\x80",
        b"\x00",
        b"\xF0\x9F\x98\x80",
    ];
    let ascii_runs = format!("{}{}", "a".repeat(150), "吕".repeat(40));
    for (v, rules) in VARIANTS {
        // A surrogate piece that is valid in `v` where the rest is.
        let earlier: &[u8] = match v {
            Variant::Wtf8 => b"\xED\xA0\x80",
            _ => b"\xED\xA0\x80\xED\xB0\x80",
        };
        let kernels: Vec<_> = utf8_simd::kernels()
            .iter()
            .filter(|k| v.is_valid_with_kernel(k, b"").is_some())
            .collect();
        for fill in ["é", "吕", ascii_runs.as_str()] {
            let text = fill.repeat(1000 / fill.len() + 1);
            let text = &text[..floor_boundary(&text, 1000)];
            let mut checked = 0;
            for first in [None, Some(40), Some(240)] {
                let mut base = Vec::new();
                let mut rest = text;
                if let Some(at) = first {
                    let at = floor_boundary(text, at);
                    base.extend_from_slice(&text.as_bytes()[..at]);
                    base.extend_from_slice(earlier);
                    rest = &text[at..];
                }
                // Offsets in the input, 24 bytes either side of 256, 512
                // and 768 (wider windows took a minute on a loaded machine).
                let offsets = (232usize..280).chain(488..536).chain(744..792);
                for at in offsets
                    .filter_map(|o| o.checked_sub(base.len()))
                    .filter(|&at| rest.is_char_boundary(at))
                {
                    for piece in pieces {
                        let mut input = base.clone();
                        input.extend_from_slice(&rest.as_bytes()[..at]);
                        input.extend_from_slice(piece);
                        input.extend_from_slice(&rest.as_bytes()[at..]);
                        // The scalar DFA, which the tests above hold to
                        // the oracle (which takes about a millisecond on
                        // each of these inputs): the oracle itself on one
                        // input in ten.
                        let want = position(v.validate_scalar(&input));
                        if checked % 10 == 0 {
                            assert_eq!(want, oracle::exact(&rules, &input), "{v} {first:?} {at}");
                        }
                        assert_eq!(position(v.validate(&input)), want, "{v} {first:?} {at}");
                        for k in &kernels {
                            let got = v.validate_with_kernel(k, &input).unwrap();
                            let name = k.name();
                            assert_eq!(
                                position(got),
                                want,
                                "{v} {name} {first:?} {at} {piece:02X?}"
                            );
                            let valid = v.is_valid_with_kernel(k, &input).unwrap();
                            assert_eq!(
                                valid,
                                want.is_ok(),
                                "{v} {name} {first:?} {at} {piece:02X?}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
            assert!(checked >= 3 * 40 * pieces.len(), "{v}: {checked}");
        }
    }
}

/// The last character boundary of `s` at or before `at`
/// (`str::floor_char_boundary`, newer than the workspace's MSRV).
fn floor_boundary(s: &str, at: usize) -> usize {
    (0..=at.min(s.len()))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap()
}

/// Text whose characters are all supplementary is checked in a mode of its
/// own under the paired rules: groups of 256 bytes compared with the byte
/// pattern of surrogate pairs, entered after a group of the full check at a
/// lead shortly before its end, and left (back to the full check) at the
/// end of the last group that matched, where a pair ends. So: runs of pairs
/// after prefixes of 0 to 5 bytes, with a piece inserted, or a byte
/// replaced, at every offset from before the first such group to past the
/// third; and the runs cut at every length across the second, every
/// kernel, `validate` and `is_valid`, against the scalar DFA (the oracle on
/// one input in 25).
#[test]
fn pieces_in_runs_of_surrogate_pairs_in_every_kernel() {
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80", // a lead
        b"\xED\xB0\x80", // a trail
        b"\xED\xA0\x80\xED\xB0\x80",
        b"\xED\xB0\x80\xED\xA0\x80",
        b"a",
        "é".as_bytes(),
        "吕".as_bytes(),
        b"\xC0\x80",
        b"\x00",
        b"\xF0\x9F\x98\x80",
        b"\x80",
        b"\xE5\x90", // a character cut short
        b"\xED\xA0", // a lead cut short
    ];
    // Bytes written over one byte of the run: each breaks one of the
    // pattern's rules somewhere (a lead's second byte made a trail's, a
    // continuation made a lead, ...), and is harmless nowhere.
    let replacements = [0x41u8, 0x80, 0xA5, 0xB5, 0xBF, 0xC0, 0xED, 0xEE];
    // 300 pairs of varied surrogates (each third byte and each second
    // byte's low nibble, which the pattern leaves free, take many values).
    let mut run = Vec::new();
    for k in 0..300u32 {
        let c = 0x10000 + (k * 7919) % 0x10_0000;
        run.extend_from_slice(&surrogate(0xD800 + ((c - 0x10000) >> 10)));
        run.extend_from_slice(&surrogate(0xDC00 + ((c - 0x10000) & 0x3FF)));
    }
    for (v, rules) in VARIANTS.into_iter().filter(|(v, _)| *v != Variant::Wtf8) {
        let kernels: Vec<_> = utf8_simd::kernels()
            .iter()
            .filter(|k| v.is_valid_with_kernel(k, b"").is_some())
            .collect();
        let mut checked = 0;
        let mut check = |input: &[u8], what: &dyn Fn() -> String| {
            let want = position(v.validate_scalar(input));
            if checked % 25 == 0 {
                assert_eq!(want, oracle::exact(&rules, input), "{v} {}", what());
            }
            assert_eq!(position(v.validate(input)), want, "{v} {}", what());
            for k in &kernels {
                let got = v.validate_with_kernel(k, input).unwrap();
                assert_eq!(position(got), want, "{v} {} {}", k.name(), what());
                let valid = v.is_valid_with_kernel(k, input).unwrap();
                assert_eq!(valid, want.is_ok(), "{v} {} {}", k.name(), what());
            }
            checked += 1;
        };
        for prefix in ["", "a", "é", "吕", "aé", "é吕"] {
            let mut text = prefix.as_bytes().to_vec();
            text.extend_from_slice(&run);
            check(&text, &|| format!("{prefix:?} whole"));
            for at in 200..1100 {
                for piece in pieces {
                    let mut input = text[..at].to_vec();
                    input.extend_from_slice(piece);
                    input.extend_from_slice(&text[at..]);
                    check(&input, &|| format!("{prefix:?} at {at} {piece:02X?}"));
                }
                for &b in &replacements {
                    if text[at] != b {
                        let mut input = text.clone();
                        input[at] = b;
                        check(&input, &|| format!("{prefix:?} at {at} := {b:02X}"));
                    }
                }
            }
            for cut in 480..800 {
                check(&text[..cut], &|| format!("{prefix:?} cut at {cut}"));
            }
        }
        assert!(checked >= 6 * 900 * pieces.len(), "{v}: {checked}");
    }
}
