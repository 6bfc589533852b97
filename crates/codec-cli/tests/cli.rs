//! End-to-end tests: run the built `codec` binary and compare what it prints
//! with oracles computed here from std (`from_utf8`, `from_utf8_lossy`,
//! `utf8_chunks`), not with hard-coded results where an oracle exists.
//!
//! Unreadable inputs: the tests run as root, where `chmod 000` does not stop
//! a read, so they use inputs that fail for root too: a path under a
//! directory that does not exist, a dangling symbolic link, and a directory
//! passed without `-r`.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::fs;
use std::path::{Path, PathBuf};

const KUHN: &[u8] = codec_testdata::KUHN_STRESS_TEST;

fn codec() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codec"))
}

/// Runs `codec args...` with `stdin`, checks the exit code, and returns
/// (stdout, stderr).
fn run(args: &[&str], stdin: &[u8], code: i32) -> (Vec<u8>, String) {
    let assert = codec().args(args).write_stdin(stdin).assert().code(code);
    let out = assert.get_output();
    (
        out.stdout.clone(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every how many rows of a long table the per-row process tests run: each
/// run starts a process, which under qemu (`cargo xtask cross`) costs about
/// a quarter of a second, so an emulated run takes every 7th row (7 is
/// prime to the chunk-size cycles below, which so still see every size).
fn row_step() -> usize {
    if codec_testdata::emulated() { 7 } else { 1 }
}

/// How many quickcheck cases a property that starts processes runs.
fn process_cases() -> u64 {
    if codec_testdata::emulated() { 10 } else { 60 }
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("codec prints UTF-8")
}

fn lipsum_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/data/lipsum")
}

fn lipsum_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(lipsum_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".utf8.txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    files
}

/// The diagnostic lines `codec validate` must print for `input`, from std:
/// one per invalid chunk of `utf8_chunks`, with the line (1 + newlines
/// before) and the column (1 + characters since the line start in the lossy
/// decoding).
fn oracle_diagnostics(name: &str, input: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for chunk in input.utf8_chunks() {
        offset += chunk.valid().len();
        let bad = chunk.invalid();
        if bad.is_empty() {
            continue;
        }
        let before = &input[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        let kind = codec_core::Utf8Error::at(input, offset).kind();
        let hex: Vec<String> = bad.iter().map(|b| format!("{b:02x}")).collect();
        lines.push(format!(
            "{name}:{line}:{column}: invalid UTF-8 ({kind}) at byte {offset}: {}",
            hex.join(" ")
        ));
        offset += bad.len();
    }
    lines
}

fn replacements(s: &str) -> usize {
    s.matches('\u{FFFD}').count()
}

#[test]
fn kuhn_stress_test_diagnostics_match_std() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/conformance/UTF-8-test.txt");
    let name = path.to_str().unwrap();
    let expected = oracle_diagnostics(name, KUHN);
    // The oracle agrees with the published facts about the file: the first
    // invalid byte is at 4461, and a lossy decode has 379 U+FFFD, one of
    // which is a literal U+FFFD in the valid text.
    let std_err = std::str::from_utf8(KUHN).unwrap_err();
    assert_eq!(std_err.valid_up_to(), 4461);
    assert!(expected[0].contains("at byte 4461: "), "{}", expected[0]);
    let lossy = String::from_utf8_lossy(KUHN);
    let literal: usize = KUHN.utf8_chunks().map(|c| replacements(c.valid())).sum();
    assert_eq!(replacements(&lossy), 379);
    assert_eq!(expected.len(), 379 - literal);

    for chunk in ["1", "3", "7", "4096", "262144"] {
        // The file holds a NUL (its U+0000 test), so grep's rule calls it
        // binary: --text asks for every diagnostic.
        let (out, err) = run(&["validate", "--text", "--chunk-size", chunk, name], b"", 1);
        let got: Vec<String> = text(out).lines().map(String::from).collect();
        assert_eq!(got, expected, "chunk size {chunk}");
        assert_eq!(err, "");
    }
    let (out, _) = run(&["validate", "--text", "--first", name], b"", 1);
    assert_eq!(text(out), format!("{}\n", expected[0]));
    // Without --text: one line for the binary file.
    let (out, _) = run(&["validate", name], b"", 1);
    assert_eq!(
        text(out),
        format!(
            "{name}: binary file is not valid UTF-8 (first error at byte 4461: byte never valid in UTF-8)\n"
        )
    );
}

#[test]
fn kuhn_repair_is_from_utf8_lossy() {
    for chunk in ["1", "2", "5", "262144"] {
        let (out, err) = run(&["repair", "--chunk-size", chunk], KUHN, 0);
        assert_eq!(
            out,
            String::from_utf8_lossy(KUHN).as_bytes(),
            "chunk size {chunk}"
        );
        let expected = oracle_diagnostics("x", KUHN).len();
        assert_eq!(
            err,
            format!("codec: <stdin>: replaced {expected} invalid sequences with U+FFFD\n")
        );
    }
}

#[test]
fn repair_matches_std_on_every_conformance_case() {
    let sizes = ["1", "2", "3", "4", "5", "262144"];
    let cases = codec_testdata::utf8_cases();
    for (i, case) in cases.iter().enumerate().step_by(row_step()) {
        let chunk = sizes[i % sizes.len()];
        let (out, _) = run(&["repair", "-q", "--chunk-size", chunk], &case.input, 0);
        assert_eq!(
            out,
            String::from_utf8_lossy(&case.input).as_bytes(),
            "{} chunk {chunk}",
            case.id
        );
    }
}

#[test]
fn repair_matches_std_on_random_bytes() {
    fn prop(input: Vec<u8>, chunk: u8) -> bool {
        let chunk = (usize::from(chunk) % 6 + 1).to_string();
        let (out, _) = run(&["repair", "-q", "--chunk-size", &chunk], &input, 0);
        out == String::from_utf8_lossy(&input).as_bytes()
    }
    quickcheck::QuickCheck::new()
        .tests(process_cases())
        .quickcheck(prop as fn(Vec<u8>, u8) -> bool);
}

#[test]
fn validate_matches_std_on_random_text() {
    fn prop(text_in: String, edits: Vec<(usize, u8)>, chunk: u8) -> bool {
        let input = codec_testdata::mutate(&text_in, &edits);
        let chunk = (usize::from(chunk) % 6 + 1).to_string();
        let expected = oracle_diagnostics("<stdin>", &input);
        let code = if expected.is_empty() { 0 } else { 1 };
        let (out, _) = run(
            &["validate", "--text", "--chunk-size", &chunk],
            &input,
            code,
        );
        let got: Vec<String> = text(out).lines().map(String::from).collect();
        // A regular file takes another path: its positions are found by
        // re-reading the valid prefix at the first error.
        let file = tempfile::NamedTempFile::new().unwrap();
        fs::write(file.path(), &input).unwrap();
        let name = file.path().to_str().unwrap();
        let (out, _) = run(
            &["validate", "--text", "--chunk-size", &chunk, name],
            b"",
            code,
        );
        let got_file: Vec<String> = text(out).lines().map(String::from).collect();
        got == expected && got_file == oracle_diagnostics(name, &input)
    }
    quickcheck::QuickCheck::new()
        .tests(process_cases())
        .quickcheck(prop as fn(String, Vec<(usize, u8)>, u8) -> bool);
}

#[test]
fn lipsum_texts_are_valid_and_counted() {
    let files = lipsum_files();
    let names: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut args = vec!["validate"];
    args.extend(&names);
    let (out, err) = run(&args, b"", 0);
    assert_eq!((out.len(), err.as_str()), (0, ""));

    let mut args = vec!["count", "--json"];
    args.extend(&names);
    let (out, _) = run(&args, b"", 0);
    let records: Vec<serde_json::Value> = text(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), files.len() + 1);
    let (mut bytes, mut chars, mut lines) = (0u64, 0u64, 0u64);
    for (record, path) in records.iter().zip(&files) {
        let data = fs::read_to_string(path).unwrap();
        let expect = (
            data.len() as u64,
            data.chars().count() as u64,
            data.matches('\n').count() as u64,
        );
        let got = (
            record["bytes"].as_u64().unwrap(),
            record["chars"].as_u64().unwrap(),
            record["lines"].as_u64().unwrap(),
        );
        assert_eq!(got, expect, "{}", path.display());
        assert_eq!(record["invalid"], 0);
        bytes += expect.0;
        chars += expect.1;
        lines += expect.2;
    }
    let total = &records[files.len()];
    assert_eq!(total["type"], "total");
    assert_eq!(
        (
            total["bytes"].as_u64(),
            total["chars"].as_u64(),
            total["lines"].as_u64()
        ),
        (Some(bytes), Some(chars), Some(lines))
    );
}

#[test]
fn count_kuhn_by_kind() {
    let (out, _) = run(&["count", "--json"], KUHN, 0);
    let record: serde_json::Value = serde_json::from_slice(&out).unwrap();
    // Oracle: kinds from std's error positions.
    let mut by_kind = std::collections::BTreeMap::<String, u64>::new();
    let mut offset = 0;
    for chunk in KUHN.utf8_chunks() {
        offset += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            let kind = codec_core::Utf8Error::at(KUHN, offset).kind();
            let id = format!("{kind:?}");
            *by_kind.entry(id).or_default() += 1;
            offset += chunk.invalid().len();
        }
    }
    let got: std::collections::BTreeMap<String, u64> = record["invalid_by_kind"]
        .as_object()
        .unwrap()
        .iter()
        // "too-short" -> "TooShort", to compare with the Debug names.
        .map(|(k, v)| {
            let camel: String = k
                .split('-')
                .map(|w| w[..1].to_uppercase() + &w[1..])
                .collect();
            (camel, v.as_u64().unwrap())
        })
        .collect();
    assert_eq!(got, by_kind);
    assert_eq!(record["bytes"], KUHN.len() as u64);
    assert_eq!(record["path"], "<stdin>");
    assert_eq!(record["type"], "file");
}

#[test]
fn count_a_file_named_total_is_still_a_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("total"), "ab\n").unwrap();
    let total = dir.path().join("total");
    let (out, _) = run(&["count", "--json", total.to_str().unwrap(), "-"], b"x", 0);
    let types: Vec<String> = text(out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(types, [r#""file""#, r#""file""#, r#""total""#]);
}

#[test]
fn empty_input() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    fs::write(&empty, b"").unwrap();
    let empty = empty.to_str().unwrap();
    assert_eq!(run(&["validate", empty], b"", 0), (vec![], String::new()));
    assert_eq!(run(&["validate"], b"", 0), (vec![], String::new()));
    assert_eq!(run(&["repair", empty], b"", 0), (vec![], String::new()));
    let (out, _) = run(&["count", "--json", empty], b"", 0);
    let record: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (
            &record["bytes"],
            &record["chars"],
            &record["lines"],
            &record["invalid"]
        ),
        (&0.into(), &0.into(), &0.into(), &0.into())
    );
}

#[test]
fn stdin_and_dash() {
    let input = b"ok\nbad \xC0\xAF here\n";
    let expected = oracle_diagnostics("<stdin>", input).join("\n") + "\n";
    assert_eq!(text(run(&["validate"], input, 1).0), expected);
    assert_eq!(text(run(&["validate", "-"], input, 1).0), expected);
    assert_eq!(run(&["validate", "-"], b"fine\n", 0).0, b"");
    assert_eq!(
        run(&["repair", "-"], input, 0).0,
        String::from_utf8_lossy(input).as_bytes()
    );
}

#[test]
fn file_ending_inside_a_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.txt");
    let input = "smile \u{1F600}".as_bytes();
    let cut = &input[..input.len() - 1];
    fs::write(&path, cut).unwrap();
    let name = path.to_str().unwrap();
    let (out, _) = run(&["validate", "--chunk-size", "8", name], b"", 1);
    assert_eq!(
        text(out),
        format!(
            "{name}:1:7: invalid UTF-8 (incomplete sequence at end of input) at byte 6: f0 9f 98\n"
        )
    );
    assert_eq!(oracle_diagnostics(name, cut).len(), 1);
    assert_eq!(
        run(&["repair", "-q", name], b"", 0).0,
        String::from_utf8_lossy(cut).as_bytes()
    );
}

/// A tree with valid, invalid, hidden and cache-tagged files.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("sub/deeper")).unwrap();
    fs::create_dir_all(d.join(".hidden")).unwrap();
    fs::create_dir_all(d.join("target")).unwrap();
    fs::write(d.join("a-valid.txt"), "caf\u{e9}\n").unwrap();
    fs::write(
        d.join("sub/b-invalid.txt"),
        b"line one\nsur \xED\xA0\x80 rogate\n",
    )
    .unwrap();
    fs::write(d.join("sub/deeper/c-valid.txt"), "\u{5415}\n").unwrap();
    fs::write(d.join("sub/deeper/d-invalid.bin"), b"\xFF\xFE").unwrap();
    fs::write(d.join(".hidden/e-invalid.txt"), b"\x80").unwrap();
    fs::write(
        d.join("target/CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n# cache\n",
    )
    .unwrap();
    fs::write(d.join("target/f-invalid.o"), b"\xC1").unwrap();
    dir
}

#[test]
fn directory_tree_with_mixed_files() {
    let dir = tree();
    let root = dir.path().to_str().unwrap();
    let b = format!("{root}/sub/b-invalid.txt");
    let d = format!("{root}/sub/deeper/d-invalid.bin");
    let mut expected = oracle_diagnostics(&b, &fs::read(&b).unwrap());
    expected.extend(oracle_diagnostics(&d, &fs::read(&d).unwrap()));
    let (out, err) = run(&["validate", "-r", root], b"", 1);
    assert_eq!(text(out), expected.join("\n") + "\n");
    // d starts with FF FE, a UTF-16 byte-order mark; b is broken UTF-8 (a
    // surrogate), which gets no hint.
    assert_eq!(
        err,
        format!(
            "codec: {d}: hint: looks like UTF-16LE (byte-order mark); \
             try: codec convert -f UTF-16 -t UTF-8 {d}\n"
        )
    );

    let (out, _) = run(&["validate", "-r", "-l", root], b"", 1);
    assert_eq!(text(out), format!("{b}\n{d}\n"));

    // --all also walks the hidden entry and the cache directory.
    let (out, _) = run(&["validate", "-r", "-l", "--all", root], b"", 1);
    let listed: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(listed.len(), 4, "{listed:?}");
    assert!(listed[0].ends_with("/.hidden/e-invalid.txt"));
    assert!(listed[3].ends_with("/target/f-invalid.o"));

    // Only valid files: exit 0.
    let sub = format!("{root}/sub/deeper/c-valid.txt");
    assert_eq!(
        run(
            &["validate", "-r", &sub, &format!("{root}/a-valid.txt")],
            b"",
            0
        )
        .0,
        b""
    );

    // Summary and JSON.
    let walked = [
        "a-valid.txt",
        "sub/b-invalid.txt",
        "sub/deeper/c-valid.txt",
        "sub/deeper/d-invalid.bin",
    ];
    let bytes: u64 = walked
        .iter()
        .map(|f| fs::metadata(dir.path().join(f)).unwrap().len())
        .sum();
    let (_, err) = run(&["validate", "-r", "--summary", root], b"", 1);
    let err = err
        .lines()
        .filter(|l| !l.contains("hint: "))
        .map(|l| format!("{l}\n"))
        .collect::<String>();
    assert_eq!(
        err,
        format!(
            "codec: 4 files checked ({bytes} bytes): 2 invalid ({} invalid sequences), 0 unreadable\n",
            expected.len()
        )
    );
    // --first stops reading each invalid file after its first error.
    let (out, err) = run(&["validate", "-r", "--first", "--summary", root], b"", 1);
    assert_eq!(text(out).lines().count(), 2);
    assert!(err.ends_with("bytes): 2 invalid, 0 unreadable\n"), "{err}");
    let (out, _) = run(&["validate", "-r", "--json", "--summary", root], b"", 1);
    let records: Vec<serde_json::Value> = text(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let invalid: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["type"] == "invalid").collect();
    assert_eq!(invalid.len(), expected.len());
    assert_eq!(invalid[0]["path"], b.as_str());
    assert_eq!(invalid[0]["kind"], "surrogate");
    assert_eq!(invalid[0]["offset"], 13);
    assert_eq!(invalid[0]["line"], 2);
    assert_eq!(invalid[0]["column"], 5);
    assert_eq!(invalid[0]["bytes"], "ed");
    let files: Vec<&serde_json::Value> = records.iter().filter(|r| r["type"] == "file").collect();
    assert_eq!(files.len(), 4);
    assert_eq!(records.last().unwrap()["type"], "summary");
    assert_eq!(records.last().unwrap()["invalid_files"], 2);
}

#[cfg(unix)]
#[test]
fn unreadable_inputs_are_reported_and_the_walk_goes_on() {
    let dir = tree();
    let root = dir.path().to_str().unwrap();
    let missing = format!("{root}/no-such-dir/file.txt");
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
    let dangling = dangling.to_str().unwrap();
    let b = format!("{root}/sub/b-invalid.txt");

    // Each alone: exit 2 and a message naming the path.
    let (_, err) = run(&["validate", &missing], b"", 2);
    assert!(err.starts_with(&format!("codec: {missing}: ")), "{err}");
    assert!(err.contains("No such file or directory"), "{err}");
    let (_, err) = run(&["validate", dangling], b"", 2);
    assert!(err.starts_with(&format!("codec: {dangling}: ")), "{err}");
    let (_, err) = run(&["validate", root], b"", 2);
    assert_eq!(
        err,
        format!("codec: {root}: is a directory (pass -r to walk it)\n")
    );

    // Mixed with an invalid file: it is still checked, and 2 wins over 1.
    let (out, err) = run(&["validate", &missing, &b, dangling], b"", 2);
    assert_eq!(
        text(out),
        oracle_diagnostics(&b, &fs::read(&b).unwrap()).join("\n") + "\n"
    );
    assert_eq!(err.lines().count(), 2, "{err}");

    // --quiet prints nothing, even for errors.
    assert_eq!(
        run(&["validate", "-q", &missing, &b], b"", 2),
        (vec![], String::new())
    );
    assert_eq!(
        run(&["validate", "-q", &b], b"", 1),
        (vec![], String::new())
    );
    // count and repair report the same failures.
    let (_, err) = run(&["count", &missing], b"", 2);
    assert!(err.contains(&missing), "{err}");
    let (_, err) = run(&["repair", &missing], b"", 2);
    assert!(err.contains(&missing), "{err}");
}

#[test]
fn exit_codes() {
    assert_eq!(run(&["validate"], b"valid", 0).0, b"");
    run(&["validate"], b"\xFF", 1);
    run(&["validate", "--no-such-flag"], b"", 2);
    run(&["frobnicate"], b"", 2);
    run(&["repair", "--in-place"], b"", 2);
    run(&["varint", "decode", "zz"], b"", 1);
    run(&["varint", "decode", "01"], b"", 0);
}

#[cfg(unix)]
#[test]
fn repair_in_place_is_atomic_and_leaves_valid_files_alone() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    let good = dir.path().join("good.txt");
    let input = b"one \xF0\x9F two \xED\xA0\x80\n";
    fs::write(&bad, input).unwrap();
    fs::write(&good, "fine\n").unwrap();
    fs::set_permissions(&bad, fs::Permissions::from_mode(0o640)).unwrap();
    let bad_inode = fs::metadata(&bad).unwrap().ino();
    let good_inode = fs::metadata(&good).unwrap().ino();

    let (out, err) = run(
        &[
            "repair",
            "--in-place",
            "--chunk-size",
            "3",
            bad.to_str().unwrap(),
        ],
        b"",
        0,
    );
    assert_eq!(out, b"");
    assert!(err.contains("replaced 4 invalid sequences"), "{err}");
    assert_eq!(
        fs::read(&bad).unwrap(),
        String::from_utf8_lossy(input).as_bytes()
    );
    let meta = fs::metadata(&bad).unwrap();
    // A new inode: the file was replaced by a rename, not rewritten.
    assert_ne!(meta.ino(), bad_inode);
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);

    run(&["repair", "--in-place", good.to_str().unwrap()], b"", 0);
    assert_eq!(fs::metadata(&good).unwrap().ino(), good_inode);
    assert_eq!(fs::read(&good).unwrap(), b"fine\n");

    // No temporary file is left behind.
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.txt", "good.txt"]);
}

#[test]
fn repair_to_a_file_and_refuse_to_clobber_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.txt");
    let dst = dir.path().join("out.txt");
    let input = b"x\xC3(y";
    fs::write(&src, input).unwrap();
    let (src_s, dst_s) = (src.to_str().unwrap(), dst.to_str().unwrap());
    run(&["repair", src_s, "-o", dst_s], b"", 0);
    assert_eq!(
        fs::read(&dst).unwrap(),
        String::from_utf8_lossy(input).as_bytes()
    );
    let (_, err) = run(&["repair", src_s, "-o", src_s], b"", 2);
    assert!(err.contains("use --in-place"), "{err}");
    assert_eq!(fs::read(&src).unwrap(), input);
}

#[test]
fn varint_and_zigzag_match_the_conformance_rows() {
    // Every Go/protobuf row that decodes: the CLI prints the value.
    for case in codec_testdata::varint_cases()
        .into_iter()
        .step_by(row_step())
    {
        if case.api.contains("Tag") || case.input.is_empty() {
            continue;
        }
        let signed = case.api.starts_with("binary.") && !case.api.contains("Uvarint");
        let hex: String = case.input.iter().map(|b| format!("{b:02x}")).collect();
        let mut args = vec!["varint", "decode", "--all"];
        if signed {
            args.push("--signed");
        }
        args.push(&hex);
        match case.expect {
            codec_testdata::VarintExpect::Ok => {
                let consumed = case.consumed.unwrap_or(case.input.len());
                if consumed != case.input.len() {
                    continue;
                }
                let (out, _) = run(&args, b"", 0);
                assert_eq!(
                    text(out).trim(),
                    case.value.unwrap().to_string(),
                    "{}",
                    case.id
                );
            }
            codec_testdata::VarintExpect::Truncated => {
                let (_, err) = run(&args, b"", 1);
                assert!(err.contains("truncated"), "{}: {err}", case.id);
            }
            codec_testdata::VarintExpect::Overflow => {
                let (_, err) = run(&args, b"", 1);
                assert!(err.contains("overflow"), "{}: {err}", case.id);
            }
        }
    }
    // Zigzag: all rows in one run each way.
    let cases = codec_testdata::zigzag_cases();
    let signed: Vec<String> = cases.iter().map(|(s, _)| s.to_string()).collect();
    let zig: Vec<String> = cases.iter().map(|(_, z)| z.to_string()).collect();
    let mut args = vec!["zigzag", "encode"];
    args.extend(signed.iter().map(String::as_str));
    assert_eq!(text(run(&args, b"", 0).0), zig.join("\n") + "\n");
    let mut args = vec!["zigzag", "decode"];
    args.extend(zig.iter().map(String::as_str));
    assert_eq!(text(run(&args, b"", 0).0), signed.join("\n") + "\n");
}

#[test]
fn varint_round_trip_and_errors() {
    let (out, _) = run(
        &[
            "varint",
            "encode",
            "0",
            "1",
            "127",
            "128",
            "300",
            "18446744073709551615",
        ],
        b"",
        0,
    );
    assert_eq!(
        text(out),
        "00\n01\n7f\n80 01\nac 02\nff ff ff ff ff ff ff ff ff 01\n"
    );
    let (out, _) = run(
        &["varint", "encode", "--signed", "--", "-1", "-150", "150"],
        b"",
        0,
    );
    assert_eq!(text(out), "01\nab 02\nac 02\n");
    let (out, _) = run(
        &["varint", "decode", "ac02", "AC 02", "0xac02", "80 00"],
        b"",
        0,
    );
    assert_eq!(text(out), "300\n300\n300\n0\n");
    let (out, _) = run(&["varint", "decode", "--signed", "ab02", "01"], b"", 0);
    assert_eq!(text(out), "-150\n-1\n");

    let cases: &[(&[&str], &str)] = &[
        (
            &["ac0g"],
            "codec: varint decode \"ac0g\": not hex: bad hex digit 'g' at position 4\n",
        ),
        (
            &["ac0"],
            "codec: varint decode \"ac0\": not hex: odd number of hex digits (3) in \"ac0\" at position 1: every byte takes two\n",
        ),
        (
            &["ff ff"],
            "codec: varint decode \"ff ff\": truncated: all 2 bytes set the continuation bit (0x80), so at least one more byte must follow\n",
        ),
        (
            &["ffffffffffffffffff02"],
            "codec: varint decode \"ffffffffffffffffff02\": overflow: byte 10 is 0x02, but the last byte of a u64 varint may only be 0x00 or 0x01 (anything else sets bits above the type's width)\n",
        ),
        (
            &["ffffffffffffffffffff01"],
            "codec: varint decode \"ffffffffffffffffffff01\": overflow: the first 10 bytes all set the continuation bit (0x80), but a u64 varint is at most 10 bytes long\n",
        ),
        (
            &["--strict", "8000"],
            "codec: varint decode \"8000\": non-canonical: 2 bytes encode 0, whose shortest encoding is 00 (1 byte); decode without --strict to accept it\n",
        ),
        (
            &["ac0201"],
            "codec: varint decode \"ac0201\": trailing bytes: the varint ends after byte 2 (value 300), then 1 more byte follow: 01; pass --all to decode a sequence\n",
        ),
    ];
    for (args, expected) in cases {
        let mut full = vec!["varint", "decode"];
        full.extend(*args);
        let (out, err) = run(&full, b"", 1);
        assert_eq!((out.len(), err.as_str()), (0, *expected), "{args:?}");
    }
    // A bad argument does not stop the others.
    let (out, err) = run(&["varint", "decode", "zz", "01"], b"", 1);
    assert_eq!(text(out), "1\n");
    assert_eq!(err.lines().count(), 1);
    let (_, err) = run(&["varint", "encode", "12a"], b"", 1);
    assert!(err.contains("'a' at position 3"), "{err}");
    let (_, err) = run(&["zigzag", "encode", "9223372036854775808"], b"", 1);
    assert!(err.contains("out of range"), "{err}");
}

#[test]
fn help_on_every_subcommand_and_version() {
    let subcommands: &[&[&str]] = &[
        &[],
        &["validate"],
        &["repair"],
        &["count"],
        &["varint"],
        &["varint", "encode"],
        &["varint", "decode"],
        &["zigzag"],
        &["zigzag", "encode"],
        &["zigzag", "decode"],
    ];
    for sub in subcommands {
        let mut args = sub.to_vec();
        args.push("--help");
        let (out, _) = run(&args, b"", 0);
        let out = text(out);
        assert!(out.contains("Usage: codec"), "{sub:?}: {out}");
        let leaf = !matches!(sub, [] | ["varint"] | ["zigzag"]);
        assert!(!leaf || out.contains("Examples:"), "{sub:?}: {out}");
    }
    let (out, _) = run(&["--version"], b"", 0);
    assert_eq!(text(out), format!("codec {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn the_readme_main_command_works_on_the_repository() {
    // The command as the README gives it (after `cargo run --release -p
    // codec-cli --`), on the repository this test runs in: a fresh clone in
    // CI. The only invalid file is Kuhn's stress test, which is binary
    // (it holds a NUL), and target/ (ignored by .gitignore) is not walked.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let command = "cargo run --release -p codec-cli -- validate -r --hidden --first --summary .";
    assert!(
        readme.contains(command),
        "the README's command changed: update this test"
    );
    let out = codec()
        .args(["validate", "-r", "--hidden", "--first", "--summary", "."])
        .current_dir(&root)
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert_eq!(
        text(out.stdout),
        "./testdata/conformance/UTF-8-test.txt: binary file is not valid UTF-8 (first error at byte 4461: byte never valid in UTF-8)\n"
    );
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(
        summary.starts_with("codec: ") && summary.ends_with(" 1 invalid, 0 unreadable\n"),
        "{summary}"
    );
    // Tracked dotfiles are read (.ci/run), Cargo's output is not.
    let listed = codec()
        .args(["count", "--json", "-r", "--hidden", "."])
        .current_dir(&root)
        .output()
        .unwrap();
    let listed = text(listed.stdout);
    assert!(listed.contains("\"path\":\"./.ci/run\""), "{listed}");
    assert!(!listed.contains("\"path\":\"./target/"));
    assert!(!listed.contains("\"path\":\"./.git/"));
}
