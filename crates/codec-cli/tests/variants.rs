//! `codec convert` with CESU-8, Java's Modified UTF-8 and WTF-8, against
//! Python's codecs and against Rust's own UTF-16 functions, at every small
//! read size so that 6-byte surrogate pairs are split at every byte.
//!
//! - CESU-8 is Python's `'utf-8', 'surrogatepass'` applied to the UTF-16
//!   code units one by one; MUTF-8 is that with `00` written `C0 80`.
//! - WTF-8 of potentially ill-formed UTF-16 is Python's
//!   `decode('utf-16-le', 'surrogatepass').encode('utf-8', 'surrogatepass')`,
//!   and it goes back to the same UTF-16, lone surrogates included.
//! - Strict errors name the exact input offset; lossy output is std's.
//!
//! Python is optional here: without `python3` the differential part says
//! so on stderr and is skipped; everything else still runs.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::process::Stdio;

mod common;
use common::Rng;

fn codec_convert(args: &[&str], input: &[u8]) -> (Vec<u8>, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .arg("convert")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// Converts, expecting success.
fn ok(from: &str, to: &str, chunk: usize, input: &[u8]) -> Vec<u8> {
    let chunk = chunk.to_string();
    let (out, err, code) = codec_convert(&["-f", from, "-t", to, "--chunk-size", &chunk], input);
    assert_eq!(
        code, 0,
        "{from} -> {to}, chunk {chunk}, {input:02x?}: {err}"
    );
    out
}

/// Converts, expecting a strict failure: the offset in the message.
fn failure_offset(from: &str, to: &str, chunk: usize, input: &[u8]) -> (usize, String) {
    let chunk = chunk.to_string();
    let (out, err, code) = codec_convert(&["-f", from, "-t", to, "--chunk-size", &chunk], input);
    assert_eq!(
        code, 1,
        "{from} -> {to}, chunk {chunk}, {input:02x?}: {out:02x?} {err}"
    );
    let at = err
        .split(" at byte ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no offset in {err:?}"));
    (at, err)
}

/// Random text with NULs, ASCII, 2- and 3-byte and supplementary characters.
fn random_text(rng: &mut Rng, len: u64) -> String {
    let len = rng.below(len);
    (0..len)
        .map(|_| {
            let c = match rng.below(6) {
                0 => 0,
                1 | 2 => 0x20 + rng.below(0x5F) as u32,
                3 => 0x80 + rng.below(0x780) as u32,
                4 => 0x800 + rng.below(0xD000) as u32,
                _ => 0x10000 + rng.below(0x100000) as u32,
            };
            char::from_u32(c).unwrap_or('?')
        })
        .collect()
}

/// Random UTF-16 code units, with lone surrogates of both kinds and pairs.
fn random_units(rng: &mut Rng) -> Vec<u16> {
    let len = rng.below(40);
    let mut units = Vec::new();
    for _ in 0..len {
        match rng.below(5) {
            0 => units.push(0xD800 + rng.below(0x400) as u16),
            1 => units.push(0xDC00 + rng.below(0x400) as u16),
            2 => {
                let c = char::from_u32(0x10000 + rng.below(0x100000) as u32).unwrap();
                let mut two = [0; 2];
                units.extend_from_slice(c.encode_utf16(&mut two));
            }
            3 => units.push(rng.below(0x80) as u16),
            _ => units.push(0x80 + rng.below(0xD000) as u16),
        }
    }
    units
}

fn le(units: &[u16]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_le_bytes()).collect()
}

/// CESU-8 computed here from the definition (each UTF-16 unit as a 3-byte
/// or shorter UTF-8 form), for when Python is absent.
fn cesu8_by_definition(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for u in text.encode_utf16() {
        let v = u32::from(u);
        match v {
            0..0x80 => out.push(v as u8),
            0x80..0x800 => out.extend([0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8]),
            _ => out.extend([
                0xE0 | (v >> 12) as u8,
                0x80 | ((v >> 6) & 0x3F) as u8,
                0x80 | (v & 0x3F) as u8,
            ]),
        }
    }
    out
}

fn mutf8_of_cesu8(cesu: &[u8]) -> Vec<u8> {
    cesu.iter()
        .flat_map(|&b| if b == 0 { vec![0xC0, 0x80] } else { vec![b] })
        .collect()
}

/// Python's CESU-8 (`N.cesu`) and WTF-8 (`N.wtf8`) of the UTF-16LE in
/// `N.in`, for `N` in `0..count`; false if there is no `python3`.
fn python_batch(dir: &Path, count: usize) -> bool {
    let script = r#"
import sys, os, struct
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    data = open(os.path.join(d, f"{i}.in"), "rb").read()
    units = struct.unpack(f"<{len(data) // 2}H", data)
    cesu = "".join(chr(u) for u in units).encode("utf-8", "surrogatepass")
    wtf8 = data.decode("utf-16-le", "surrogatepass").encode("utf-8", "surrogatepass")
    open(os.path.join(d, f"{i}.cesu"), "wb").write(cesu)
    open(os.path.join(d, f"{i}.wtf8"), "wb").write(wtf8)
"#;
    match std::process::Command::new("python3")
        .args(["-c", script, dir.to_str().unwrap(), &count.to_string()])
        .stdin(Stdio::null())
        .status()
    {
        Ok(status) => {
            assert!(status.success(), "the Python reference failed");
            true
        }
        Err(e) => {
            eprintln!("python3 not found ({e}): skipping the comparison with Python's codecs");
            false
        }
    }
}

#[test]
fn cesu8_and_mutf8_match_python_and_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(8);
    let texts: Vec<String> = (0..24).map(|_| random_text(&mut rng, 30)).collect();
    for (i, text) in texts.iter().enumerate() {
        let units: Vec<u16> = text.encode_utf16().collect();
        fs::write(dir.path().join(format!("{i}.in")), le(&units)).unwrap();
    }
    let python = python_batch(dir.path(), texts.len());
    for (i, text) in texts.iter().enumerate() {
        let chunk = 1 + i % 8;
        let cesu = ok("UTF-8", "CESU-8", chunk, text.as_bytes());
        assert_eq!(cesu, cesu8_by_definition(text), "{text:?}");
        if python {
            let py = fs::read(dir.path().join(format!("{i}.cesu"))).unwrap();
            assert_eq!(cesu, py, "python CESU-8 of {text:?}");
        }
        let mutf8 = ok(
            "UTF-16LE",
            "MUTF-8",
            chunk,
            &le(&text.encode_utf16().collect::<Vec<_>>()),
        );
        assert_eq!(mutf8, mutf8_of_cesu8(&cesu), "{text:?}");
        assert!(!mutf8.contains(&0));
        // And back, to every other encoding.
        assert_eq!(ok("CESU-8", "UTF-8", chunk, &cesu), text.as_bytes());
        assert_eq!(ok("MUTF-8", "UTF-8", chunk, &mutf8), text.as_bytes());
        assert_eq!(ok("MUTF-8", "CESU-8", chunk, &mutf8), cesu);
        assert_eq!(ok("CESU-8", "WTF-8", chunk, &cesu), text.as_bytes());
        let utf32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect();
        assert_eq!(ok("CESU-8", "UTF-32BE", chunk, &cesu), utf32);
        assert_eq!(ok("UTF-32BE", "MUTF-8", chunk, &utf32), mutf8);
    }
}

#[test]
fn wtf8_keeps_lone_surrogates_and_matches_python() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(16);
    let cases: Vec<Vec<u16>> = (0..40).map(|_| random_units(&mut rng)).collect();
    for (i, units) in cases.iter().enumerate() {
        fs::write(dir.path().join(format!("{i}.in")), le(units)).unwrap();
    }
    let python = python_batch(dir.path(), cases.len());
    let mut lone_seen = 0;
    for (i, units) in cases.iter().enumerate() {
        let chunk = 1 + i % 8;
        let wtf8 = ok("UTF-16LE", "WTF-8", chunk, &le(units));
        if python {
            let py = fs::read(dir.path().join(format!("{i}.wtf8"))).unwrap();
            assert_eq!(wtf8, py, "python WTF-8 of {units:04x?}");
        }
        // WTF-8 -> UTF-16 -> WTF-8 keeps every unit, in both byte orders.
        assert_eq!(ok("WTF-8", "UTF-16LE", chunk, &wtf8), le(units));
        let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(ok("WTF-8", "UTF-16BE", chunk, &wtf8), be);
        assert_eq!(ok("UTF-16BE", "WTF-8", chunk, &be), wtf8);
        assert_eq!(ok("WTF-8", "WTF-8", chunk, &wtf8), wtf8);
        // To UTF-8: strict stops at the first lone surrogate, lossy writes
        // U+FFFD for each, as String::from_utf16_lossy.
        match String::from_utf16(units) {
            Ok(text) => assert_eq!(ok("WTF-8", "UTF-8", chunk, &wtf8), text.as_bytes()),
            Err(_) => {
                lone_seen += 1;
                let mut first = 0;
                let mut utf8_len = 0;
                for r in char::decode_utf16(units.iter().copied()) {
                    match r {
                        Ok(c) => {
                            utf8_len += c.len_utf8();
                            first += c.len_utf16();
                        }
                        Err(_) => break,
                    }
                }
                let (at, err) = failure_offset("WTF-8", "UTF-8", chunk, &wtf8);
                assert_eq!(at, utf8_len, "{units:04x?}: {err}");
                assert!(
                    err.contains(&format!("lone surrogate U+{:04X}", units[first])),
                    "{err}"
                );
                let chunk = chunk.to_string();
                let (lossy, _, code) = codec_convert(
                    &[
                        "-f",
                        "WTF-8",
                        "-t",
                        "UTF-8",
                        "--lossy",
                        "--chunk-size",
                        &chunk,
                    ],
                    &wtf8,
                );
                assert_eq!(code, 0);
                assert_eq!(lossy, String::from_utf16_lossy(units).as_bytes());
            }
        }
    }
    assert!(lone_seen > 20, "most cases should hold a lone surrogate");
}

/// A CESU-8 prefix of `n` bytes (a mix of 1-, 2-, 3- and 6-byte forms)
/// whose characters all exist in every encoding tested with it.
fn prefix(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let pieces: [&[u8]; 4] = [
        b"a",
        "\u{e9}".as_bytes(),
        "\u{20ac}".as_bytes(),
        b"\xED\xA0\xBD\xED\xB8\x80",
    ];
    let mut i = 0;
    while out.len() < n {
        let p = pieces[i % pieces.len()];
        if out.len() + p.len() <= n {
            out.extend_from_slice(p);
        } else {
            out.push(b'b');
        }
        i += 1;
    }
    out
}

#[test]
fn strict_errors_name_the_exact_offset_at_every_split() {
    // (from, bad bytes, where the error is counted from the bad bytes).
    let cases: &[(&str, &[u8], usize, &str)] = &[
        ("CESU-8", b"\xF0\x9F\x98\x80", 0, "4-byte"),
        ("MUTF-8", b"\x00x", 0, "0"),
        ("MUTF-8", b"\xF0\x9F\x98\x80", 0, "4-byte"),
        ("CESU-8", b"\xED\xA0\xBD!", 0, "unpaired"),
        (
            "CESU-8",
            b"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80",
            0,
            "unpaired",
        ),
        ("CESU-8", b"\xED\xB8\x80", 0, "unpaired"),
        ("CESU-8", b"\xC0\x80", 0, "overlong"),
        ("CESU-8", b"\xED\xA0\xBD\xED\xB8", 0, "incomplete"),
        ("MUTF-8", b"\xED\xA0", 0, "incomplete"),
        ("WTF-8", b"\xED\xA0\xBD\xED\xB8\x80", 3, "pair"),
        ("WTF-8", b"\xE2\x82", 0, "incomplete"),
        ("WTF-8", b"\xFF", 0, "never"),
    ];
    for &(from, bad, shift, _) in cases {
        for n in [0, 1, 2, 5, 6, 7, 11, 12, 13] {
            let mut input = prefix(n);
            // WTF-8 writes supplementary characters in 4 bytes.
            if from == "WTF-8" {
                input = ok("CESU-8", "WTF-8", 3, &input);
            }
            let good = input.len();
            input.extend_from_slice(bad);
            for chunk in 1..=7 {
                let (at, err) = failure_offset(from, "UTF-16LE", chunk, &input);
                assert_eq!(at, good + shift, "{from} {input:02x?} chunk {chunk}: {err}");
                assert!(err.contains(from), "{err}");
            }
        }
    }
    // A character Latin-1 cannot hold: its offset in the MUTF-8 input,
    // after a NUL (2 bytes in MUTF-8), and after a 6-byte pair in CESU-8.
    let (at, err) = failure_offset("MUTF-8", "LATIN-1", 4, b"\xC3\xA9\xC0\x80x\xE2\x82\xAC");
    assert_eq!(at, 5, "{err}");
    assert!(err.contains("U+20AC"), "{err}");
    let (at, err) = failure_offset(
        "CESU-8",
        "LATIN-1",
        4,
        b"ab\xC3\xA9\xED\xA0\xBD\xED\xB8\x80",
    );
    assert_eq!(at, 4, "{err}");
    assert!(err.contains("U+1F600"), "{err}");
}

#[test]
fn lossy_variants_match_the_library_at_every_split() {
    let inputs: &[&[u8]] = &[
        b"a\xED\xA0\x81b\xF0\x9F\x98\x80",
        b"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80\xC0\x80\x00\xED",
        b"\xED\xB8\x80\xED\xA0",
    ];
    for input in inputs {
        let cesu = codec_facade::utf8_variants::cesu8::decode_lossy(input);
        let mutf8 = codec_facade::utf8_variants::mutf8::decode_lossy(input);
        let wtf8 = codec_facade::utf8_variants::wtf8::to_utf8_lossy(input);
        for chunk in 1..=7 {
            let chunk = chunk.to_string();
            for (from, expected) in [("CESU-8", &cesu), ("MUTF-8", &mutf8), ("WTF-8", &wtf8)] {
                let (out, err, code) = codec_convert(
                    &["-f", from, "-t", "UTF-8", "--lossy", "--chunk-size", &chunk],
                    input,
                );
                assert_eq!(code, 0, "{err}");
                assert_eq!(
                    out,
                    expected.as_bytes(),
                    "{from} {input:02x?} chunk {chunk}"
                );
            }
        }
    }
}

#[test]
fn large_inputs_cross_the_default_read_size() {
    let mut rng = Rng(32);
    let mut text = String::new();
    while text.len() < 3 << 20 {
        text.push_str(&random_text(&mut rng, 200));
    }
    let cesu = cesu8_by_definition(&text);
    for chunk in [4093, 65_536, 1 << 20] {
        assert_eq!(ok("UTF-8", "CESU-8", chunk, text.as_bytes()), cesu);
        assert_eq!(ok("CESU-8", "UTF-8", chunk, &cesu), text.as_bytes());
        let mutf8 = mutf8_of_cesu8(&cesu);
        let utf16 = le(&text.encode_utf16().collect::<Vec<_>>());
        assert_eq!(ok("MUTF-8", "UTF-16LE", chunk, &mutf8), utf16);
        assert_eq!(ok("UTF-16LE", "WTF-8", chunk, &utf16), text.as_bytes());
    }
}

#[test]
fn byte_order_marks_in_the_variants() {
    let run = |args: &[&str], input: &[u8]| {
        let (out, err, code) = codec_convert(args, input);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    // Unmarked UTF-16: the BOM picks the order and is consumed, also on
    // the UTF-16 code unit path that WTF-8 output takes.
    let lone = b"\xFE\xFF\xD8\x00\x00a";
    assert_eq!(
        run(&["-f", "UTF-16", "-t", "WTF-8"], lone),
        b"\xED\xA0\x80a"
    );
    assert_eq!(
        run(&["-f", "UTF-16", "-t", "WTF-8", "--bom", "add"], lone),
        b"\xEF\xBB\xBF\xED\xA0\x80a"
    );
    // A BOM in WTF-8 or CESU-8 is kept, stripped or added on request.
    let marked = b"\xEF\xBB\xBF\xED\xB0\x80";
    assert_eq!(
        run(&["-f", "WTF-8", "-t", "UTF-16LE"], marked),
        b"\xFF\xFE\x00\xDC"
    );
    assert_eq!(
        run(&["-f", "WTF-8", "-t", "UTF-16LE", "--bom", "strip"], marked),
        b"\x00\xDC"
    );
    assert_eq!(
        run(
            &["-f", "UTF-8", "-t", "CESU-8", "--bom", "add"],
            "\u{10400}".as_bytes()
        ),
        b"\xEF\xBB\xBF\xED\xA0\x81\xED\xB0\x80"
    );
}
