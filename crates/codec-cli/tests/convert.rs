//! `codec convert` against two independent implementations: glibc's
//! `iconv` and Python's `codecs`, on random and mutated inputs, at small
//! read sizes so characters straddle reads. Both tools must be installed
//! (`iconv` from libc-bin, `python3`); a missing one fails the test.
//!
//! - Valid input, every pair of UTF-8, UTF-16LE/BE, UTF-32LE/BE and Latin-1:
//!   the output equals iconv's and Python's, byte for byte.
//! - Invalid input, strict: exit 1, the same error offset as iconv reports
//!   ("illegal input sequence at position N"), and nothing at the named
//!   output.
//! - Invalid input, `--lossy`: the output equals Python's
//!   `decode(..., 'replace')`, which replaces maximal subparts as Rust's
//!   `from_utf8_lossy` does.
//! - Byte order marks: detection on UTF-16/UTF-32 input and the BOM and
//!   byte order of unmarked output, against iconv.
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

/// Random text from every range: ASCII, Latin-1, BMP, supplementary.
fn random_text(rng: &mut Rng, latin1_only: bool) -> String {
    let len = rng.below(60);
    (0..len)
        .map(|_| {
            let c = match (latin1_only, rng.below(5)) {
                (true, _) => rng.below(256) as u32,
                (_, 0 | 1) => 0x20 + rng.below(0x5F) as u32,
                (_, 2) => 0xA0 + rng.below(0x60) as u32,
                (_, 3) => 0x100 + rng.below(0xD700) as u32,
                _ => 0x10000 + rng.below(0x100000) as u32,
            };
            char::from_u32(c).unwrap_or('?')
        })
        .collect()
}

/// (codec name, iconv name, Python name).
const ENCODINGS: &[(&str, &str, &str)] = &[
    ("UTF-8", "UTF-8", "utf-8"),
    ("UTF-16LE", "UTF-16LE", "utf-16-le"),
    ("UTF-16BE", "UTF-16BE", "utf-16-be"),
    ("UTF-32LE", "UTF-32LE", "utf-32-le"),
    ("UTF-32BE", "UTF-32BE", "utf-32-be"),
    ("latin1", "ISO-8859-1", "latin-1"),
];

fn encode(text: &str, encoding: &str) -> Vec<u8> {
    match encoding {
        "UTF-8" => text.as_bytes().to_vec(),
        "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        "UTF-32LE" => text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect(),
        "UTF-32BE" => text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect(),
        "latin1" => text.chars().map(|c| c as u8).collect(),
        _ => unreachable!(),
    }
}

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

fn iconv(from: &str, to: &str, input: &[u8]) -> (Vec<u8>, String, i32) {
    let out = Command::new("iconv")
        .args(["-f", from, "-t", to])
        .write_stdin(input)
        .output()
        .expect("iconv (glibc) is the reference for codec convert");
    (
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

/// Runs one Python process over every case in `dir`: `N.in` with
/// `N.args` ("from to errors") becomes `N.py`.
fn python_batch(dir: &Path, count: usize) {
    let script = r#"
import sys, os
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    frm, to, errors = open(os.path.join(d, f"{i}.args")).read().split()
    data = open(os.path.join(d, f"{i}.in"), "rb").read()
    out = data.decode(frm, errors).encode(to, errors)
    open(os.path.join(d, f"{i}.py"), "wb").write(out)
"#;
    let status = std::process::Command::new("python3")
        .args(["-c", script, dir.to_str().unwrap(), &count.to_string()])
        .stdin(Stdio::null())
        .status()
        .expect("python3 is the second reference for codec convert");
    assert!(status.success());
}

#[test]
fn valid_text_matches_iconv_and_python_for_every_pair() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(2024);
    let mut cases = Vec::new();
    for i in 0..72 {
        let (from, ifrom, pfrom) = ENCODINGS[i % ENCODINGS.len()];
        let (to, ito, pto) = ENCODINGS[(i / ENCODINGS.len()) % ENCODINGS.len()];
        let text = random_text(&mut rng, from == "latin1" || to == "latin1");
        let input = encode(&text, from);
        fs::write(dir.path().join(format!("{i}.in")), &input).unwrap();
        fs::write(
            dir.path().join(format!("{i}.args")),
            format!("{pfrom} {pto} strict"),
        )
        .unwrap();
        cases.push((from, ifrom, to, ito, text, input));
    }
    python_batch(dir.path(), cases.len());
    for (i, (from, ifrom, to, ito, text, input)) in cases.iter().enumerate() {
        let chunk = (1 + rng.below(9)).to_string();
        let (out, err, code) =
            codec_convert(&["-f", from, "-t", to, "--chunk-size", &chunk], input);
        assert_eq!((code, err.as_str()), (0, ""), "{from} -> {to} {text:?}");
        assert_eq!(out, encode(text, to), "{from} -> {to} {text:?}");
        assert_eq!(
            out,
            iconv(ifrom, ito, input).0,
            "iconv {from} -> {to} {text:?}"
        );
        let py = fs::read(dir.path().join(format!("{i}.py"))).unwrap();
        assert_eq!(out, py, "python {from} -> {to} {text:?}");
    }
}

/// Text with edits that break it: bytes replaced, inserted, or the input cut.
fn mutated(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..1 + rng.below(3) {
        if bytes.is_empty() {
            bytes.push(rng.next() as u8);
            continue;
        }
        let at = rng.below(bytes.len() as u64) as usize;
        match rng.below(3) {
            0 => bytes[at] = rng.next() as u8,
            1 => bytes.insert(at, rng.next() as u8),
            _ => bytes.truncate(at.max(1)),
        }
    }
    bytes
}

/// iconv's error position, from "illegal input sequence at position N" or
/// "incomplete character or shift sequence at end of buffer".
fn iconv_position(err: &str, len: usize) -> Option<usize> {
    if let Some(rest) = err.split("at position ").nth(1) {
        return rest.trim().parse().ok();
    }
    err.contains("incomplete character").then_some(len)
}

#[test]
fn invalid_input_fails_where_iconv_fails_and_lossy_matches_python() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(77);
    let sources = [
        ("UTF-8", "UTF-8", "utf-8"),
        ("UTF-16LE", "UTF-16LE", "utf-16-le"),
        ("UTF-16BE", "UTF-16BE", "utf-16-be"),
    ];
    let mut cases = Vec::new();
    for i in 0..90 {
        let (from, ifrom, pfrom) = sources[i % sources.len()];
        let text = random_text(&mut rng, false);
        let input = mutated(&mut rng, encode(&text, from));
        fs::write(dir.path().join(format!("{i}.in")), &input).unwrap();
        fs::write(
            dir.path().join(format!("{i}.args")),
            format!("{pfrom} utf-8 replace"),
        )
        .unwrap();
        cases.push((from, ifrom, input));
    }
    python_batch(dir.path(), cases.len());
    let mut failures_seen = 0;
    for (i, (from, ifrom, input)) in cases.iter().enumerate() {
        let chunk = (1 + rng.below(9)).to_string();
        let (out, err, code) =
            codec_convert(&["-f", from, "-t", "UTF-8", "--chunk-size", &chunk], input);
        let (iout, ierr, icode) = iconv(ifrom, "UTF-8", input);
        if icode == 0 {
            assert_eq!((code, &out), (0, &iout), "{from} {input:02x?}: {err}");
        } else {
            failures_seen += 1;
            assert_eq!(code, 1, "{from} {input:02x?}: iconv said {ierr}");
            let ours: usize = err
                .split(" at byte ")
                .nth(1)
                .and_then(|r| r.split(':').next())
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("no offset in {err:?}"));
            let theirs = iconv_position(&ierr, input.len()).unwrap_or_else(|| panic!("{ierr}"));
            // iconv reports a cut-off last unit at the end of the buffer;
            // we report where the unfinished character starts.
            if ierr.contains("incomplete character") {
                assert!(ours < input.len(), "{from} {input:02x?}: {err}");
            } else {
                assert_eq!(ours, theirs, "{from} {input:02x?}: {err} / {ierr}");
            }
        }
        let (lossy, _, code) = codec_convert(
            &["-f", from, "-t", "UTF-8", "--lossy", "--chunk-size", &chunk],
            input,
        );
        assert_eq!(code, 0);
        let py = fs::read(dir.path().join(format!("{i}.py"))).unwrap();
        assert_eq!(lossy, py, "python {from} {input:02x?}");
        if *from == "UTF-8" {
            assert_eq!(lossy, String::from_utf8_lossy(input).as_bytes());
        }
        // Strict output to stdout is everything before the error, whatever
        // the read size: a prefix of the lossy output, and for UTF-8 the
        // valid prefix itself.
        assert!(lossy.starts_with(&out), "{from} {input:02x?}");
        if *from == "UTF-8" {
            let valid = std::str::from_utf8(input).map_or_else(|e| e.valid_up_to(), str::len);
            assert_eq!(out, &input[..valid], "{input:02x?}");
        }
    }
    assert!(failures_seen > 20, "the mutations should break most inputs");
}

#[test]
fn byte_order_marks_match_iconv() {
    let text = "h\u{e9}llo \u{1F600}";
    // Unmarked UTF-16/32 input: a BOM picks the order; without one, glibc
    // reads little-endian.
    for (bytes, name) in [
        (
            [&[0xFF, 0xFE][..], &encode(text, "UTF-16LE")].concat(),
            "UTF-16",
        ),
        (
            [&[0xFE, 0xFF][..], &encode(text, "UTF-16BE")].concat(),
            "UTF-16",
        ),
        (encode(text, "UTF-16LE"), "UTF-16"),
        (
            [&[0xFF, 0xFE, 0, 0][..], &encode(text, "UTF-32LE")].concat(),
            "UTF-32",
        ),
        (encode(text, "UTF-32LE"), "UTF-32"),
        (
            [&[0, 0, 0xFE, 0xFF][..], &encode(text, "UTF-32BE")].concat(),
            "UTF-32",
        ),
    ] {
        let (out, err, code) = codec_convert(&["-f", name, "-t", "UTF-8"], &bytes);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, iconv(name, "UTF-8", &bytes).0, "{name} {bytes:02x?}");
        assert_eq!(out, text.as_bytes());
    }
    // Unmarked output: BOM and little-endian, as glibc writes.
    for name in ["UTF-16", "UTF-32"] {
        let (out, _, _) = codec_convert(&["-f", "UTF-8", "-t", name], text.as_bytes());
        assert_eq!(out, iconv("UTF-8", name, text.as_bytes()).0, "{name}");
    }
    // --bom: keep (the default) carries a UTF-8 BOM over, strip drops it,
    // add writes one.
    let with_bom = [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat();
    let le = encode(text, "UTF-16LE");
    let le_bom = [&[0xFF, 0xFE][..], &le].concat();
    assert_eq!(
        codec_convert(&["-f", "utf8", "-t", "utf16le"], &with_bom).0,
        le_bom
    );
    assert_eq!(
        codec_convert(
            &["-f", "utf8", "-t", "utf16le", "--bom", "strip"],
            &with_bom
        )
        .0,
        le
    );
    assert_eq!(
        codec_convert(
            &["-f", "utf8", "-t", "utf16le", "--bom", "add"],
            text.as_bytes()
        )
        .0,
        le_bom
    );
    assert_eq!(
        codec_convert(&["-f", "utf8", "-t", "utf16le", "--bom", "add"], &with_bom).0,
        le_bom
    );
    assert_eq!(
        codec_convert(&["-f", "UTF-16", "-t", "utf8", "--bom", "strip"], &le_bom).0,
        text.as_bytes()
    );
}

#[test]
fn strict_failures_leave_no_output_file_and_in_place_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, b"caf\xc3\xa9 \xff tail").unwrap();
    let out = dir.path().join("out.txt");
    let run = |args: &[&str], code: i32| {
        let o = Command::new(env!("CARGO_BIN_EXE_codec"))
            .arg("convert")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(code),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stderr).unwrap()
    };
    let (b, o) = (bad.to_str().unwrap(), out.to_str().unwrap());
    let err = run(&["-f", "utf8", "-t", "utf16le", b, "-o", o], 1);
    assert_eq!(
        err,
        format!(
            "codec: {b}: invalid UTF-8 (byte never valid in UTF-8) at byte 6 (line 1, column 6): ff\n"
        )
    );
    assert!(!out.exists(), "a failed conversion left {o}");
    fs::write(&out, "previous").unwrap();
    run(&["-f", "utf8", "-t", "utf16le", b, "-o", o], 1);
    assert_eq!(fs::read(&out).unwrap(), b"previous");
    run(&["-f", "utf8", "-t", "utf16le", "--in-place", b], 1);
    assert_eq!(fs::read(&bad).unwrap(), b"caf\xc3\xa9 \xff tail");
    // Latin-1 cannot hold the euro sign: its input offset is named.
    let euro = dir.path().join("euro.txt");
    fs::write(&euro, "ab\u{20ac}").unwrap();
    let err = run(&["-f", "utf8", "-t", "latin1", euro.to_str().unwrap()], 1);
    assert!(
        err.contains("U+20AC ('\u{20ac}') cannot be written in LATIN-1 at byte 2"),
        "{err}"
    );
    // In place, lossy: converted and renamed over the file.
    run(
        &["-f", "utf8", "-t", "utf16le", "--lossy", "--in-place", b],
        0,
    );
    let expected: Vec<u8> = "caf\u{e9} \u{FFFD} tail"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(fs::read(&bad).unwrap(), expected);
    // Unknown names are usage errors.
    let err = run(&["-f", "ebcdic", "-t", "utf8", b], 2);
    assert!(err.contains("unknown input encoding"), "{err}");
    let listed = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["convert", "--list"])
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed.contains("ISO-8859-1") && listed.contains("WTF-8"),
        "{listed}"
    );
}
