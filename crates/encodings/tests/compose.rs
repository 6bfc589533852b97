//! glibc's CP1255 and CP1258 compose a letter and the marks after it when
//! decoding and decompose what the page lacks when encoding: compared with
//! glibc's `iconv` on every pair of bytes, every letter with two marks,
//! undefined bytes between them (strict and `-c`), and every character of
//! Unicode encoded; every chunking of marked text equals the one-shot
//! result. WHATWG's windows-1255/1258 do not compose.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Rng, assert_chunkings_equal, assert_regions_equal, iconv_knows};
use encodings::{DecodeMode, Decoder, EncodeMode, Encoding};
use std::io::Write;
use std::process::{Command, Stdio};

const PAGES: [&str; 2] = ["CP1255", "CP1258"];

/// `iconv` with `args` on `input`: its exit status, stdout and stderr
/// (`iconv -c` exits with 1 when it dropped something).
fn run_iconv(args: &[&str], input: &[u8]) -> (bool, Vec<u8>, String) {
    let mut child = Command::new("iconv")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.success(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn page(name: &str) -> Encoding {
    let e = Encoding::for_iconv_name(name).unwrap();
    assert_eq!(e.name(), name);
    e
}

fn defined(e: Encoding) -> Vec<u8> {
    let table = e.single_byte_table().unwrap();
    (0..=255u8)
        .filter(|&b| table[usize::from(b)].is_some())
        .collect()
}

fn undefined(e: Encoding) -> Vec<u8> {
    let table = e.single_byte_table().unwrap();
    (0..=255u8)
        .filter(|&b| table[usize::from(b)].is_none())
        .collect()
}

fn marks(e: Encoding) -> Vec<u8> {
    let table = e.single_byte_table().unwrap();
    (0..=255u8)
        .filter(|&b| {
            table[usize::from(b)]
                // The combining marks (Mn) of the two pages.
                .is_some_and(|c| {
                    matches!(
                        u32::from(c),
                        0x0300..=0x036F | 0x05B0..=0x05BD | 0x05BF | 0x05C1 | 0x05C2
                    )
                })
        })
        .collect()
}

/// The first place two strings differ, for messages.
fn first_difference(a: &str, b: &str) -> String {
    let i = a
        .chars()
        .zip(b.chars())
        .position(|(x, y)| x != y)
        .unwrap_or(a.chars().count().min(b.chars().count()));
    let near = |s: &str| -> String { s.chars().skip(i.saturating_sub(4)).take(8).collect() };
    format!("at char {i}: ours {:?}, iconv {:?}", near(a), near(b))
}

/// Ours and iconv's on `input` (a newline before each case, so iconv's
/// held letter is flushed between them), strict or `-c`.
fn compare_decode(e: Encoding, input: &[u8], skip: bool) -> usize {
    let mode = if skip {
        DecodeMode::Skip
    } else {
        DecodeMode::Strict
    };
    let args: &[&str] = if skip {
        &["-c", "-f", e.name(), "-t", "UTF-8"]
    } else {
        &["-f", e.name(), "-t", "UTF-8"]
    };
    let (_, theirs, _) = run_iconv(args, input);
    let theirs = String::from_utf8(theirs).unwrap();
    let ours = e.decode_to_string(input, mode).unwrap();
    assert!(
        ours == theirs,
        "{e:?} {mode:?}: {}",
        first_difference(&ours, &theirs)
    );
    ours.chars().filter(|c| !c.is_ascii()).count()
}

#[test]
fn every_pair_of_bytes_decodes_as_iconv() {
    for name in PAGES {
        if !iconv_knows(name) {
            continue;
        }
        let e = page(name);
        let ok = defined(e);
        let mut input = Vec::new();
        for &a in &ok {
            for &b in &ok {
                input.extend_from_slice(&[b'\n', a, b]);
            }
        }
        compare_decode(e, &input, false);
        // Every pair of all 256 bytes, undefined ones skipped as `-c`.
        let mut input = Vec::new();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                input.extend_from_slice(&[b'\n', a, b]);
            }
        }
        compare_decode(e, &input, true);
        // Some pair composed: the comparison is not of plain table lookups.
        let composed = e.decode_to_string(&input, DecodeMode::Skip).unwrap();
        let plain: String = input
            .iter()
            .filter_map(|&b| e.single_byte_table().unwrap()[usize::from(b)])
            .collect();
        assert_ne!(composed, plain, "{name}");
    }
}

#[test]
fn every_letter_with_two_marks_decodes_as_iconv() {
    for name in PAGES {
        if !iconv_knows(name) {
            continue;
        }
        let e = page(name);
        let (ok, marks, bad) = (defined(e), marks(e), undefined(e));
        assert!(marks.len() >= 5, "{name}: {marks:02X?}");
        let mut input = Vec::new();
        for &a in &ok {
            for &m in &marks {
                for &n in &marks {
                    input.extend_from_slice(&[b'\n', a, m, n]);
                }
            }
        }
        compare_decode(e, &input, false);
        // An undefined byte between letter and mark, or between two marks,
        // skipped as `-c` skips it.
        let mut input = Vec::new();
        for &a in &ok {
            for &u in &bad {
                for &m in &marks {
                    input.extend_from_slice(&[b'\n', a, u, m, b'\n', a, m, u, m]);
                }
            }
        }
        compare_decode(e, &input, true);
    }
}

/// A strict error drops the letter glibc holds before it: the text and the
/// offset equal iconv's, for every letter before every undefined byte.
#[test]
fn strict_errors_write_what_iconv_writes() {
    for name in PAGES {
        if !iconv_knows(name) {
            continue;
        }
        let e = page(name);
        for &a in &defined(e) {
            for prefix in [&b"x"[..], b"xy", b"a"] {
                for &u in &undefined(e)[..2] {
                    let mut input = prefix.to_vec();
                    input.extend_from_slice(&[a, u]);
                    let (ok, theirs, stderr) = run_iconv(&["-f", name, "-t", "UTF-8"], &input);
                    assert!(!ok);
                    let at: u64 = stderr
                        .rsplit("position ")
                        .next()
                        .and_then(|s| s.trim().parse().ok())
                        .unwrap_or_else(|| panic!("{stderr}"));
                    let mut ours = String::new();
                    let err = Decoder::new(e, DecodeMode::Strict)
                        .decode_into_string(&input, &mut ours, true)
                        .unwrap_err();
                    assert_eq!(ours.as_bytes(), theirs, "{name} {input:02X?}");
                    assert_eq!(err.offset(), at, "{name} {input:02X?}");
                }
            }
        }
    }
}

/// Every character of Unicode (but the newline), each on a line, through
/// `iconv -c` (what the page cannot hold dropped): each line equals our
/// strict encoding of the character, or is empty where ours fails; some
/// are written decomposed.
#[test]
fn every_character_encodes_as_iconv() {
    for name in PAGES {
        if !iconv_knows(name) {
            continue;
        }
        let e = page(name);
        let chars: Vec<char> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| c != '\n')
            .collect();
        let mut text = String::new();
        for &c in &chars {
            text.push(c);
            text.push('\n');
        }
        let (_, theirs, _) = run_iconv(&["-c", "-f", "UTF-8", "-t", name], text.as_bytes());
        let lines: Vec<&[u8]> = theirs.split(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), chars.len() + 1, "{name}");
        let mut decomposed = 0;
        for (&c, line) in chars.iter().zip(&lines) {
            let ours = e.encode_to_vec(c.encode_utf8(&mut [0; 4]), EncodeMode::Strict);
            assert_eq!(
                ours.as_deref().unwrap_or(b""),
                *line,
                "{name} U+{:04X}",
                u32::from(c)
            );
            if line.len() > 1 {
                decomposed += 1;
                // And back: the decoder composes it again, where glibc's
                // does (it does not for the compatibility singletons).
                let back = e.decode_to_string(line, DecodeMode::Strict).unwrap();
                let (_, iconv_back, _) = run_iconv(&["-f", name, "-t", "UTF-8"], line);
                assert_eq!(back.as_bytes(), iconv_back, "{name} U+{:04X}", u32::from(c));
            }
        }
        assert!(decomposed >= 30, "{name}: {decomposed}");
        // In a text, strictly: no error.
        let sample = if name == "CP1258" {
            "xǸ ệ\u{1E4C}y"
        } else {
            "x\u{FB2C}\u{FB31}y"
        };
        let bytes = e.encode_to_vec(sample, EncodeMode::Strict).unwrap();
        assert!(bytes.len() > sample.chars().count(), "{name}");
        assert_eq!(
            e.decode_to_string(&bytes, DecodeMode::Strict).unwrap(),
            sample
        );
    }
}

/// The two WHATWG encodings decode byte for byte, as WHATWG specifies.
#[test]
fn whatwg_windows_1255_and_1258_do_not_compose() {
    let w1258 = Encoding::for_whatwg(encoding_rs::WINDOWS_1258).unwrap();
    assert_eq!(
        w1258
            .decode_to_string(b"a\xEC", DecodeMode::Strict)
            .unwrap(),
        "a\u{301}"
    );
    assert!(w1258.encode_to_vec("Ǹ", EncodeMode::Strict).is_err());
    let w1255 = Encoding::for_whatwg(encoding_rs::WINDOWS_1255).unwrap();
    assert_eq!(
        w1255
            .decode_to_string(b"\xF9\xCC\xD1", DecodeMode::Strict)
            .unwrap(),
        "\u{5E9}\u{5BC}\u{5C1}"
    );
    // The glibc rows do.
    assert_eq!(
        page("CP1258")
            .decode_to_string(b"a\xEC", DecodeMode::Strict)
            .unwrap(),
        "\u{E1}"
    );
    assert_eq!(
        page("CP1255")
            .decode_to_string(b"\xF9\xCC\xD1", DecodeMode::Strict)
            .unwrap(),
        "\u{FB2C}"
    );
}

/// Random text of letters, marks and a few undefined bytes: cut at every
/// offset (and byte by byte), the result and the error equal one shot's;
/// a region cut where `cut_near` says continues it exactly.
#[test]
fn chunked_equals_one_shot() {
    let mut rng = Rng(0x1255_1258);
    for name in PAGES {
        let e = page(name);
        let (ok, marks, bad) = (defined(e), marks(e), undefined(e));
        for round in 0..300 {
            let len = 1 + rng.below(40);
            let input: Vec<u8> = (0..len)
                .map(|_| match rng.below(10) {
                    0..=3 => marks[rng.below(marks.len())],
                    4 if round % 2 == 0 => bad[rng.below(bad.len())],
                    _ => ok[rng.below(ok.len())],
                })
                .collect();
            for mode in [DecodeMode::Strict, DecodeMode::Replace, DecodeMode::Skip] {
                let whole = assert_chunkings_equal(e, mode, &input, name);
                for at in 0..input.len() {
                    let Some(cut) = e.cut_near(&input, at) else {
                        continue;
                    };
                    assert!(!marks.contains(&input[cut]), "{name}: cut before a mark");
                    assert_regions_equal(e, mode, &input, cut, &whole, name);
                }
            }
        }
    }
}
