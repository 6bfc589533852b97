//! The parallel path of `codec convert` against the sequential one: the
//! same stdout, stderr, exit status and named output, strict and lossy, on
//! random and mutated files whose characters, surrogate pairs, code units
//! and invalid sequences straddle the region cuts.
//!
//! `--parallel-min 1` sends even tiny files down the parallel path, and
//! `-j N` makes at least 4N regions, so a file of a few hundred bytes is
//! cut every few dozen bytes. The parallel runs also read a few bytes at a
//! time (`--chunk-size`), the sequential ones 256 KiB: the output must not
//! depend on either. One of the two also runs on the file mapped
//! (`--map-min 1`) and must write the same. The sequential path itself is checked against iconv,
//! Python and std in `tests/convert.rs`; the oracle checks here tie the
//! parallel path to std directly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::fs;
use std::path::Path;

mod common;
use common::{Rng, random_input};

/// What a run left: stdout, stderr, exit status, and the named output (if
/// one was asked for and exists).
type Outcome = (Vec<u8>, String, i32, Option<Vec<u8>>);

fn run(args: &[String], out: Option<&Path>) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codec"));
    // A deadlock between the threads fails the test (the run is killed and
    // has no exit code) instead of hanging it: each run takes well under a
    // second natively, seconds under qemu.
    cmd.timeout(std::time::Duration::from_secs(300));
    cmd.arg("convert").args(args);
    if let Some(o) = out {
        let _ = fs::remove_file(o);
        cmd.arg("-o").arg(o);
    }
    let got = cmd.output().unwrap();
    let written = out.and_then(|o| fs::read(o).ok());
    (
        got.stdout,
        String::from_utf8(got.stderr).unwrap(),
        got.status
            .code()
            .unwrap_or_else(|| panic!("codec convert {args:?} was killed (a deadlock?)")),
        written,
    )
}

/// How an input file is made.
#[derive(Clone, Copy, Debug)]
enum Source {
    Utf8,
    /// With a big-endian BOM when `true` (read as "UTF-16").
    Utf16Le,
    Utf16Be,
    Utf32Le,
    Latin1,
}

/// UTF-16 code units that stress the cuts: pairs, lone surrogates of both
/// kinds, lead after lead.
const UNITS16: &[&[u16]] = &[
    &[0x61],
    &[0x0A],
    &[0xE9],
    &[0x20AC],
    &[0xD83D, 0xDE00],
    &[0xDBFF, 0xDFFF],
    &[0xD800],
    &[0xDC00],
    &[0xD800, 0xD800, 0xDC00],
    &[0xFEFF],
];

/// UTF-32 units, two of them invalid.
const UNITS32: &[u32] = &[0x61, 0x0A, 0xE9, 0x5415, 0x1F600, 0xD800, 0x11_0000];

fn make(rng: &mut Rng, source: Source, len: usize, valid_only: bool) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < len {
        match source {
            Source::Utf8 if valid_only => {
                let c = match rng.below(4) {
                    0 => 0x20 + rng.below(0x5F) as u32,
                    1 => 0xA0 + rng.below(0x60) as u32,
                    2 => 0x100 + rng.below(0xD700) as u32,
                    _ => 0x10000 + rng.below(0x100000) as u32,
                };
                let mut b = [0u8; 4];
                out.extend_from_slice(char::from_u32(c).unwrap().encode_utf8(&mut b).as_bytes());
            }
            Source::Utf8 => out.extend(random_input(rng, 1)),
            Source::Utf16Le | Source::Utf16Be => {
                let n = if valid_only { 6 } else { UNITS16.len() };
                for &u in UNITS16[rng.below(n as u64) as usize] {
                    out.extend(match source {
                        Source::Utf16Le => u.to_le_bytes(),
                        _ => u.to_be_bytes(),
                    });
                }
            }
            Source::Utf32Le => {
                let n = if valid_only { 5 } else { UNITS32.len() };
                out.extend(UNITS32[rng.below(n as u64) as usize].to_le_bytes());
            }
            Source::Latin1 => out.push(rng.next() as u8),
        }
    }
    if !valid_only && rng.below(4) == 0 {
        // A unit cut short at the end.
        out.push(0xD8);
    }
    out
}

/// A few bytes flipped, dropped or inserted.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(3) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len() as u64) as usize;
        match rng.below(3) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, rng.next() as u8),
        }
    }
}

/// The sequential run (one thread, 256 KiB reads) and the parallel one
/// (`jobs` threads, tiny regions, small reads for odd `jobs`), to stdout and
/// to a named output, and one mapped run to stdout: everything they leave
/// must be equal.
fn compare(dir: &Path, path: &Path, conv: &[&str], jobs: usize) {
    let args = |extra: &[String]| -> Vec<String> {
        let mut v: Vec<String> = conv.iter().map(|s| (*s).to_string()).collect();
        v.extend_from_slice(extra);
        v.push(path.to_str().unwrap().to_string());
        v
    };
    let chunk = if jobs % 2 == 1 { jobs % 5 + 1 } else { 262_144 };
    let seq = args(&["-j".into(), "1".into(), "--no-map".into()]);
    let par = args(&[
        "-j".into(),
        jobs.to_string(),
        "--parallel-min".into(),
        "1".into(),
        "--chunk-size".into(),
        chunk.to_string(),
        "--no-map".into(),
    ]);
    // One of them again on the file mapped (where the system gives a read
    // lease; tests/convert_map.rs checks that it does here), reading a few
    // bytes at a time: the parallel run for odd `jobs`, the sequential one
    // for even, so the chunks are cut from the mapping on both paths.
    let (mapped_jobs, mapped_chunk) = if jobs % 2 == 1 {
        (jobs, chunk)
    } else {
        (1, jobs % 5 + 1)
    };
    let mapped = args(&[
        "-j".into(),
        mapped_jobs.to_string(),
        "--parallel-min".into(),
        "1".into(),
        "--chunk-size".into(),
        mapped_chunk.to_string(),
        "--map-min".into(),
        "1".into(),
    ]);
    let what = format!("{conv:?} -j {jobs} on {}", path.display());
    let expected = run(&seq, None);
    assert_eq!(run(&par, None), expected, "stdout: {what}");
    assert_eq!(
        run(&mapped, None),
        expected,
        "stdout, mapped -j {mapped_jobs}: {what}"
    );
    let (a, b) = (dir.join("seq.out"), dir.join("par.out"));
    let (s, p) = (run(&seq, Some(&a)), run(&par, Some(&b)));
    // The messages name the output only on I/O errors, which there are none.
    assert_eq!(p, s, "-o: {what}");
    assert_eq!(s.3.is_some(), s.2 == 0, "a named output only on success");
}

/// (source, `-f`, `-t` choices).
const DIRECTIONS: &[(Source, &str, &[&str])] = &[
    (
        Source::Utf8,
        "UTF-8",
        &["UTF-16LE", "UTF-32BE", "UTF-8", "LATIN-1"],
    ),
    (
        Source::Utf16Le,
        "UTF-16LE",
        &["UTF-8", "UTF-16BE", "UTF-32LE"],
    ),
    (Source::Utf16Be, "UTF-16", &["UTF-8", "UTF-16LE"]),
    (Source::Utf32Le, "UTF-32LE", &["UTF-8", "UTF-16LE"]),
    (Source::Latin1, "LATIN-1", &["UTF-16BE", "UTF-8"]),
];

#[test]
fn parallel_output_is_the_sequential_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0xC0_4E27);
    let boms = ["keep", "strip", "add"];
    let path = dir.path().join("input");
    for case in 0..72 {
        let (source, from, tos) = DIRECTIONS[case % DIRECTIONS.len()];
        let to = tos[rng.below(tos.len() as u64) as usize];
        let len = 1 + rng.below(500) as usize;
        // Valid, mutated valid, or dense with invalid pieces.
        let mut input = make(&mut rng, source, len, case % 3 != 2);
        if case % 3 == 1 {
            mutate(&mut rng, &mut input);
        }
        if let Source::Utf16Be = source {
            // "UTF-16" reads its order from the BOM.
            input.splice(0..0, [0xFE, 0xFF]);
        }
        fs::write(&path, &input).unwrap();
        let jobs = 2 + rng.below(7) as usize;
        let bom = boms[rng.below(3) as usize];
        for lossy in [false, true] {
            let mut conv = vec!["-f", from, "-t", to, "--bom", bom];
            if lossy {
                conv.push("--lossy");
            }
            compare(dir.path(), &path, &conv, jobs);
        }
    }
}

#[test]
fn every_cut_position_of_one_file() {
    // One file per source, every region count from 4 to 64: the cuts sweep
    // across every byte.
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(11);
    let path = dir.path().join("sweep");
    for &(source, from, tos) in DIRECTIONS {
        let input = make(&mut rng, source, 100, false);
        fs::write(&path, &input).unwrap();
        for jobs in 1..=16 {
            compare(dir.path(), &path, &["-f", from, "-t", tos[0]], jobs);
            compare(
                dir.path(),
                &path,
                &["-f", from, "-t", tos[0], "--lossy"],
                jobs,
            );
        }
    }
}

fn parallel(args: &[&str], path: &Path) -> (Vec<u8>, String, i32) {
    let mut v: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    v.extend(["--parallel-min", "1", path.to_str().unwrap()].map(String::from));
    let (out, err, code, _) = run(&v, None);
    (out, err, code)
}

#[test]
fn parallel_output_matches_std() {
    // The oracles: std's lossy functions, and for a strict run the valid
    // prefix (what comes before the first error is written, then exit 1).
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(5);
    let path = dir.path().join("input");
    for case in 0..12 {
        let input = random_input(&mut rng, 50 + 40 * case);
        fs::write(&path, &input).unwrap();
        let (out, _, code) = parallel(&["-j", "5", "-f", "UTF-8", "-t", "UTF-8", "--lossy"], &path);
        assert_eq!(
            (code, out),
            (0, String::from_utf8_lossy(&input).into_owned().into_bytes())
        );
        let (out, err, code) = parallel(&["-j", "5", "-f", "UTF-8", "-t", "UTF-8"], &path);
        match std::str::from_utf8(&input) {
            Ok(_) => assert_eq!((code, out), (0, input.clone())),
            Err(e) => {
                assert_eq!((code, &out[..]), (1, &input[..e.valid_up_to()]), "{err}");
                assert!(
                    err.contains(&format!("at byte {}", e.valid_up_to())),
                    "{err}"
                );
            }
        }
        let units: Vec<u16> = make(&mut rng, Source::Utf16Le, 40 * case + 2, false)
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        fs::write(&path, &bytes).unwrap();
        let (out, _, code) = parallel(
            &["-j", "6", "-f", "UTF-16LE", "-t", "UTF-8", "--lossy"],
            &path,
        );
        let expected: String = char::decode_utf16(units.iter().copied())
            .map(|r| r.unwrap_or('\u{FFFD}'))
            .collect();
        assert_eq!((code, out), (0, expected.as_bytes().to_vec()));
        // With a BOM that names the order: consumed, in region 0 only.
        fs::write(&path, [&[0xFF, 0xFE][..], &bytes].concat()).unwrap();
        let (out, _, code) = parallel(
            &["-j", "3", "-f", "UTF-16", "-t", "UTF-8", "--lossy"],
            &path,
        );
        assert_eq!((code, out), (0, expected.into_bytes()));
    }
}

#[test]
fn a_file_of_many_regions_keeps_its_order() {
    // 3 MB: more regions than the writer lets into flight, valid, then with
    // one error near the end and a character the output cannot hold.
    let dir = tempfile::tempdir().unwrap();
    let text = "ligne \u{e9}t\u{e9} \u{5415} \u{1F600}\n".repeat(100_000);
    let path = dir.path().join("big.txt");
    fs::write(&path, &text).unwrap();
    let (out, _, code) = parallel(&["-j", "2", "-f", "UTF-8", "-t", "UTF-16LE"], &path);
    let expected: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert!(code == 0 && out == expected);
    compare(dir.path(), &path, &["-f", "UTF-8", "-t", "UTF-16BE"], 2);
    let mut bad = text.clone().into_bytes();
    let at = bad.len() - 1000;
    bad[at] = 0xFF;
    fs::write(&path, &bad).unwrap();
    compare(dir.path(), &path, &["-f", "UTF-8", "-t", "UTF-16LE"], 2);
    compare(
        dir.path(),
        &path,
        &["-f", "UTF-8", "-t", "UTF-16LE", "--lossy"],
        3,
    );
    compare(dir.path(), &path, &["-f", "UTF-8", "-t", "LATIN-1"], 2);
    // In place: the input is read by the workers while the replacement is
    // staged; a strict failure leaves it as it was.
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    for (name, bytes) in [("valid", text.as_bytes()), ("invalid", &bad[..])] {
        fs::write(&a, bytes).unwrap();
        fs::write(&b, bytes).unwrap();
        let args = |j: &str, p: &Path| -> Vec<String> {
            [
                "-f",
                "UTF-8",
                "-t",
                "UTF-16BE",
                "-i",
                "--parallel-min",
                "1",
                "-j",
                j,
            ]
            .iter()
            .map(|s| (*s).to_string())
            .chain([p.to_str().unwrap().to_string()])
            .collect()
        };
        let (seq, par) = (run(&args("1", &a), None), run(&args("3", &b), None));
        assert_eq!((seq.0, seq.2), (par.0, par.2), "{name}");
        assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap(), "{name}");
    }
    assert_eq!(
        fs::read(&b).unwrap(),
        bad,
        "a failed conversion leaves the file"
    );
}
