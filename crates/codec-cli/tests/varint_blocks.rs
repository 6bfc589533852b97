//! `codec varint --format streamvbyte|groupvarint`: the block formats end
//! to end, against the library's encoders and decoders (the values, not
//! our own output, are the reference), with `--strict`, `--all --count`,
//! `--binary`, `--type`, `--delta` and `--zero124`; bad input is a clear
//! error and exit 1, a bad option exit 2, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use codec_facade::varint::group_varint;
use codec_facade::varint::streamvbyte::{self, Layout, StreamVByte};

fn run(args: &[&str], stdin: &[u8], code: i32) -> (Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(args)
        .write_stdin(stdin)
        .assert()
        .code(code)
        .get_output()
        .clone();
    (out.stdout, String::from_utf8(out.stderr).unwrap())
}

fn text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn lines<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(|v| format!("{}\n", v.to_string()))
        .collect()
}

/// Random values of every byte length (xorshift: no rand dependency).
fn values(seed: &mut u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed as u32) >> (8 * (*seed >> 40) % 32)
        })
        .collect()
}

#[test]
fn the_papers_example() {
    // The library's module docs: 1, 300, 70000, 2^30, 5.
    let (out, err) = run(
        &[
            "varint",
            "encode",
            "-f",
            "streamvbyte",
            "1",
            "300",
            "70000",
            "1073741824",
            "5",
        ],
        b"",
        0,
    );
    assert_eq!(err, "");
    assert_eq!(text(out), "e4 00 01 2c 01 70 11 01 00 00 00 40 05\n");
    let (out, _) = run(
        &[
            "varint",
            "encode",
            "-f",
            "groupvarint",
            "1",
            "300",
            "70000",
            "1073741824",
            "5",
        ],
        b"",
        0,
    );
    assert_eq!(text(out), "e4 01 2c 01 70 11 01 00 00 00 40 00 05\n");
}

#[test]
fn encode_decode_and_round_trip_against_the_library() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for n in [1usize, 3, 4, 5, 17] {
        let vals = values(&mut rng, n);
        let args: Vec<String> = vals.iter().map(u32::to_string).collect();
        let count = n.to_string();
        for (format, bytes) in [
            ("streamvbyte", streamvbyte::encode_to_vec(&vals)),
            ("groupvarint", group_varint::encode_to_vec(&vals)),
        ] {
            // Encode: the library's bytes.
            let mut enc = vec!["varint", "encode", "-f", format];
            enc.extend(args.iter().map(String::as_str));
            let (out, err) = run(&enc, b"", 0);
            assert_eq!(
                (text(out), err),
                (format!("{}\n", hex(&bytes)), String::new())
            );
            // Decode, hex and binary, strictly: the values.
            let h = hex(&bytes);
            let dec = [
                "varint", "decode", "-f", format, "--strict", "--all", "--count", &count,
            ];
            let (out, err) = run(&[&dec[..], &[h.as_str()]].concat(), b"", 0);
            assert_eq!(
                (text(out), err),
                (lines(&vals), String::new()),
                "{format} {h}"
            );
            let (out, _) = run(&[&dec[..], &["--binary"]].concat(), &bytes, 0);
            assert_eq!(text(out), lines(&vals));
            // Binary encode, then decode: a round trip.
            let mut enc = vec!["varint", "encode", "-f", format, "--binary"];
            enc.extend(args.iter().map(String::as_str));
            let (out, _) = run(&enc, b"", 0);
            assert_eq!(out, bytes);
        }
    }
}

#[test]
fn one_value_without_all() {
    let (out, err) = run(
        &["varint", "decode", "-f", "streamvbyte", "00 05", "01 2c 01"],
        b"",
        0,
    );
    assert_eq!((text(out), err), ("5\n300\n".to_string(), String::new()));
    let (out, err) = run(
        &["varint", "decode", "-f", "groupvarint", "01 2c 01"],
        b"",
        0,
    );
    assert_eq!((text(out), err), ("300\n".to_string(), String::new()));
}

#[test]
fn signed_values_go_through_zigzag() {
    let vals = [-1i32, 5, i32::MIN, i32::MAX];
    let args: Vec<String> = vals.iter().map(i32::to_string).collect();
    let svb = StreamVByte::new().zigzag(true);
    let stored: Vec<u32> = vals.iter().map(|&v| v as u32).collect();
    let zig: Vec<u32> = vals
        .iter()
        .map(|&v| ((v << 1) ^ (v >> 31)) as u32)
        .collect();
    for (format, bytes) in [
        ("streamvbyte", svb.encode_to_vec(&stored)),
        ("groupvarint", group_varint::encode_to_vec(&zig)),
    ] {
        let mut enc = vec!["varint", "encode", "-f", format, "-t", "i32", "--"];
        enc.extend(args.iter().map(String::as_str));
        let (out, _) = run(&enc, b"", 0);
        assert_eq!(text(out), format!("{}\n", hex(&bytes)), "{format}");
        let h = hex(&bytes);
        let (out, _) = run(
            &[
                "varint", "decode", "-f", format, "--signed", "--all", "--count", "4", &h,
            ],
            b"",
            0,
        );
        assert_eq!(text(out), lines(&vals), "{format}");
    }
}

#[test]
fn delta_and_zero124_are_the_librarys() {
    let vals = [0u32, 1000, 1001, 1003, 0, 70_000];
    let args: Vec<String> = vals.iter().map(u32::to_string).collect();
    for (flags, codec) in [
        (vec!["--delta"], StreamVByte::new().delta(true)),
        (
            vec!["--zero124"],
            StreamVByte::new().layout(Layout::Zero124),
        ),
        (
            vec!["--zero124", "--delta", "-t", "i32"],
            StreamVByte::new()
                .layout(Layout::Zero124)
                .delta(true)
                .zigzag(true),
        ),
    ] {
        let bytes = codec.encode_to_vec(&vals);
        let mut enc = vec!["varint", "encode", "-f", "streamvbyte"];
        enc.extend(flags.iter().copied());
        enc.extend(args.iter().map(String::as_str));
        let (out, _) = run(&enc, b"", 0);
        assert_eq!(text(out), format!("{}\n", hex(&bytes)), "{flags:?}");
        let h = hex(&bytes);
        let mut dec = vec![
            "varint",
            "decode",
            "-f",
            "streamvbyte",
            "--all",
            "--count",
            "6",
        ];
        dec.extend(flags.iter().copied());
        dec.push(&h);
        let (out, _) = run(&dec, b"", 0);
        assert_eq!(text(out), lines(&vals), "{flags:?}");
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    // A control byte promising 4 bytes, and one there.
    let (out, err) = run(&["varint", "decode", "-f", "streamvbyte", "03 01"], b"", 1);
    assert_eq!(text(out), "");
    assert_eq!(
        err,
        "codec: varint decode \"03 01\": truncated: value 1 of 1 needs 4 bytes at byte offset 1, \
         but the input ends after 2 bytes\n"
    );
    // The values before the error are printed.
    let (out, err) = run(
        &[
            "varint",
            "decode",
            "-f",
            "groupvarint",
            "--all",
            "--count",
            "2",
            "00 ff",
        ],
        b"",
        1,
    );
    assert_eq!(text(out), "255\n");
    assert!(
        err.contains("truncated: value 2 of 2 needs 1 byte at byte offset 2"),
        "{err}"
    );
    // No control stream at all.
    let (_, err) = run(
        &[
            "varint",
            "decode",
            "-f",
            "streamvbyte",
            "--binary",
            "--all",
            "--count",
            "9",
        ],
        b"\x00",
        1,
    );
    assert!(
        err.contains("truncated: 9 values need 3 control bytes, but the input has 1"),
        "{err}"
    );
    let (_, err) = run(
        &["varint", "decode", "-f", "streamvbyte", "--binary"],
        b"",
        1,
    );
    assert!(err.contains("empty: no bytes to decode"), "{err}");
    // Trailing bytes, and a longer form under --strict.
    let (out, err) = run(
        &["varint", "decode", "-f", "groupvarint", "00 05 06"],
        b"",
        1,
    );
    assert_eq!(text(out), "");
    assert!(err.contains("trailing bytes: the Group Varint stream of 1 value ends after byte 2, then 1 more byte follow: 06"), "{err}");
    let (out, err) = run(
        &[
            "varint",
            "decode",
            "-f",
            "streamvbyte",
            "--strict",
            "01 05 00",
        ],
        b"",
        1,
    );
    assert_eq!(text(out), "");
    assert!(err.contains("non-canonical: the 3 bytes hold 1 value, whose shortest Stream VByte encoding is 00 05 (2 bytes)"), "{err}");
    // Not hex; a number out of u32.
    let (_, err) = run(&["varint", "decode", "-f", "groupvarint", "0g"], b"", 1);
    assert!(err.contains("not hex"), "{err}");
    let (out, err) = run(
        &["varint", "encode", "-f", "groupvarint", "1", "4294967296"],
        b"",
        1,
    );
    assert_eq!(text(out), "");
    assert!(
        err.contains("does not fit in u32") && err.contains("nothing written"),
        "{err}"
    );
}

#[test]
fn options_that_do_not_apply_are_usage_errors() {
    for (args, want) in [
        (
            &["varint", "decode", "-f", "streamvbyte", "-t", "u64", "01"][..],
            "holds u32 values only, not u64",
        ),
        (
            &["varint", "encode", "-f", "groupvarint", "-t", "i16", "1"][..],
            "holds u32 values only, not i16",
        ),
        (
            &["varint", "decode", "-f", "streamvbyte", "--all", "00 01"][..],
            "needs --count N",
        ),
        (
            &[
                "varint",
                "decode",
                "-f",
                "streamvbyte",
                "--count",
                "1",
                "00 01",
            ][..],
            "--count goes with --all",
        ),
        (
            &["varint", "decode", "-f", "groupvarint", "--delta", "00 01"][..],
            "--delta goes with --format streamvbyte only",
        ),
        (
            &["varint", "decode", "-f", "quic", "--zero124", "01"][..],
            "--zero124 goes with --format streamvbyte only",
        ),
        (
            &["varint", "decode", "--count", "2", "01"][..],
            "--count goes with --format streamvbyte or groupvarint only",
        ),
        (
            &["varint", "encode", "-f", "streamvbyte", "--sleb128", "1"][..],
            "--sleb128 is signed LEB128",
        ),
    ] {
        let (out, err) = run(args, b"", 2);
        assert_eq!(text(out), "");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn random_and_cut_streams_never_panic() {
    // Every prefix of random streams, and random bytes: a value list or a
    // clear error (exit 0 or 1), and what is printed before an error is
    // the library's values.
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let vals = values(&mut rng, 9);
    for format in ["streamvbyte", "groupvarint"] {
        let bytes = if format == "streamvbyte" {
            streamvbyte::encode_to_vec(&vals)
        } else {
            group_varint::encode_to_vec(&vals)
        };
        for cut in [0, 1, 2, 3, 5, 8, bytes.len() - 1] {
            let out = Command::new(env!("CARGO_BIN_EXE_codec"))
                .args([
                    "varint", "decode", "-f", format, "--binary", "--all", "--count", "9",
                ])
                .write_stdin(bytes[..cut].to_vec())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{format} cut {cut}");
            let printed = text(out.stdout);
            assert!(
                lines(&vals).starts_with(&printed),
                "{format} cut {cut}: {printed}"
            );
            let err = String::from_utf8(out.stderr).unwrap();
            let want = if cut == 0 { "empty" } else { "truncated" };
            assert!(err.contains(want), "{format} cut {cut}: {err}");
        }
    }
}
