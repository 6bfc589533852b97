//! The parallel path of `codec validate` against the sequential one: the
//! same bytes on stdout, for every output mode, on random files whose
//! invalid sequences and multi-byte characters straddle the region cuts.
//!
//! `--parallel-min 1` sends even tiny files down the parallel path and
//! `-j N` makes 4N regions, so a file of a few hundred bytes is cut every
//! few dozen bytes; the generator packs truncated sequences, runs of
//! continuation bytes and 4-byte characters densely, so cuts land inside
//! all of them. The sequential path itself is checked against std in
//! `tests/cli.rs`; one oracle check here ties the two together.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::fs;

mod common;
use common::{Rng, random_input};

fn codec_out(args: &[&str], path: &str) -> (Vec<u8>, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    // Nothing on stderr but `validate`'s hint of another encoding, which
    // random bytes may earn (a guess of windows-1252).
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().all(|l| l.contains(": hint: looks like ")),
        "{stderr}"
    );
    (out.stdout, out.status.code().unwrap())
}

/// The output of `mode` with one thread (sequential) and with `jobs`
/// threads on tiny regions; odd job counts also read a few bytes at a time,
/// so characters straddle the reads inside a region too.
fn compare(path: &str, mode: &[&str], jobs: usize) {
    let mut seq = vec!["validate", "--text", "-j", "1"];
    seq.extend(mode);
    let j = jobs.to_string();
    let chunk = (jobs % 5 + 1).to_string();
    let chunk = if jobs % 2 == 1 {
        chunk.as_str()
    } else {
        "262144"
    };
    let mut par = vec![
        "validate",
        "--text",
        "--parallel-min",
        "1",
        "-j",
        &j,
        "--chunk-size",
        chunk,
    ];
    par.extend(mode);
    let expected = codec_out(&seq, path);
    let got = codec_out(&par, path);
    assert!(
        got == expected,
        "{mode:?} -j {jobs} on {path}:\n--- sequential\n{}\n--- parallel\n{}",
        String::from_utf8_lossy(&expected.0),
        String::from_utf8_lossy(&got.0)
    );
}

#[test]
fn parallel_output_is_the_sequential_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5EED);
    let modes: &[&[&str]] = &[
        &[],
        &["--json"],
        &["--first"],
        &["-l"],
        &["--first", "--json"],
    ];
    for case in 0..60 {
        let len = 1 + rng.below(400) as usize;
        let input = random_input(&mut rng, len);
        let path = dir.path().join(format!("case{case}.txt"));
        fs::write(&path, &input).unwrap();
        let path = path.to_str().unwrap();
        let jobs = 2 + rng.below(7) as usize;
        compare(path, modes[case % modes.len()], jobs);
        if case % 10 == 0 {
            // Exit status alone.
            let q = codec_out(
                &["validate", "-q", "--text", "--parallel-min", "1", "-j", "3"],
                path,
            );
            let expected = i32::from(std::str::from_utf8(&input).is_err());
            assert_eq!(q, (Vec::new(), expected));
        }
    }
}

#[test]
fn every_cut_position_of_one_file() {
    // One file, every region count from 2 to 64: the cuts sweep across
    // every byte of it.
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    let input = random_input(&mut rng, 96);
    let path = dir.path().join("sweep.txt");
    fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    for jobs in 1..=16 {
        compare(path, &[], jobs);
    }
}

#[test]
fn valid_files_and_a_late_error_keep_their_positions() {
    // Many lines of valid text and one error near the end: the merge
    // counts the error-free regions before it.
    let dir = tempfile::tempdir().unwrap();
    let mut text = "ligne \u{e9}t\u{e9} \u{1F600}\n".repeat(5000).into_bytes();
    let valid = dir.path().join("valid.txt");
    fs::write(&valid, &text).unwrap();
    compare(valid.to_str().unwrap(), &[], 4);
    text.extend_from_slice(b"tail \xe2\x82 end\n");
    let late = dir.path().join("late.txt");
    fs::write(&late, &text).unwrap();
    let late = late.to_str().unwrap();
    compare(late, &[], 4);
    // And the oracle: line and column from std.
    let (out, code) = codec_out(&["validate", "--parallel-min", "1", "-j", "4"], late);
    assert_eq!(code, 1);
    let offset = std::str::from_utf8(&text).unwrap_err().valid_up_to();
    let line = text[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!(
            "{late}:{line}:6: invalid UTF-8 (missing continuation byte) at byte {offset}: e2 82\n"
        )
    );
}

#[test]
fn a_region_with_too_many_errors_hands_over_to_the_sequential_path() {
    // 300 KB of random bytes: each of the 8 regions of -j 2 holds more
    // diagnostics than one region keeps, so the merge goes on sequentially.
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(99);
    let input: Vec<u8> = (0..300_000).map(|_| rng.next() as u8).collect();
    let path = dir.path().join("random.bin");
    fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    compare(path, &[], 2);
    let (out, _) = codec_out(
        &["validate", "--text", "--parallel-min", "1", "-j", "2"],
        path,
    );
    let lines = out.iter().filter(|&&b| b == b'\n').count();
    let oracle = input
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    assert_eq!(lines, oracle);
}

#[test]
fn binary_files_get_the_same_line_on_both_paths() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(3);
    let mut input = b"\0".to_vec();
    input.extend(random_input(&mut rng, 300));
    let path = dir.path().join("nul.bin");
    fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    let seq = codec_out(&["validate", "-j", "1"], path);
    let par = codec_out(&["validate", "--parallel-min", "1", "-j", "5"], path);
    assert_eq!(seq, par);
    let line = String::from_utf8(seq.0).unwrap();
    assert!(
        line.starts_with(&format!(
            "{path}: binary file is not valid UTF-8 (first error at byte "
        )),
        "{line}"
    );
    assert_eq!(line.lines().count(), 1);
}
