//! `codec varint` and `codec zigzag` end to end: binary input from stdin and
//! files, every width, every good value before an error under `--all`, and
//! strict number parsing. Values are checked against the library (encode)
//! and against std's integer formatting, not against fixed strings where
//! an oracle exists.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use codec_facade::{varint, zigzag};

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

fn lines(out: Vec<u8>) -> Vec<String> {
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn binary_input_from_stdin_and_files() {
    // The example.
    let (out, err) = run(&["varint", "decode", "--binary"], b"\xac\x02", 0);
    assert_eq!((lines(out), err.as_str()), (vec!["300".to_string()], ""));
    // A file, and '-' for stdin, in one run.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("packed.bin");
    let values: Vec<u64> = (0..2000u64).map(|i| i * i * i * 7919).collect();
    let mut bytes = Vec::new();
    for &v in &values {
        let mut buf = [0u8; 10];
        let n = varint::encode(v, &mut buf);
        bytes.extend_from_slice(&buf[..n]);
    }
    std::fs::write(&f, &bytes).unwrap();
    let f = f.to_str().unwrap();
    let (out, _) = run(
        &["varint", "decode", "--binary", "--all", f, "-"],
        b"\x01",
        0,
    );
    let mut expected: Vec<String> = values.iter().map(u64::to_string).collect();
    expected.push("1".into());
    assert_eq!(lines(out), expected);
    // Without --all, trailing bytes are an error that names them.
    let (out, err) = run(&["varint", "decode", "--binary"], b"\xac\x02\x01", 1);
    assert!(out.is_empty());
    assert!(err.contains("<stdin>: trailing bytes"), "{err}");
    // A missing file: exit 2, named.
    let (_, err) = run(&["varint", "decode", "--binary", "/no/such/file"], b"", 2);
    assert!(
        err.starts_with("codec: varint decode /no/such/file: "),
        "{err}"
    );
}

#[test]
fn every_good_value_is_printed_before_the_error() {
    let (out, err) = run(&["varint", "decode", "--all", "ac 02 01 7f 80"], b"", 1);
    assert_eq!(lines(out), ["300", "1", "127"]);
    assert!(
        err.contains("the 4th varint, at byte offset 4: truncated"),
        "{err}"
    );
    let (out, err) = run(
        &["varint", "decode", "--all", "--binary"],
        b"\x05\x06\xff\xff",
        1,
    );
    assert_eq!(lines(out), ["5", "6"]);
    assert!(err.contains("the 3rd varint, at byte offset 2"), "{err}");
    // --strict under --all: the values before the padded one.
    let (out, err) = run(
        &["varint", "decode", "--all", "--strict", "01 80 00"],
        b"",
        1,
    );
    assert_eq!(lines(out), ["1"]);
    assert!(err.contains("non-canonical"), "{err}");
}

#[test]
fn every_width_and_signedness_round_trips() {
    // Edge values of each type through encode and decode, against the
    // library and std's formatting.
    macro_rules! check_unsigned {
        ($t:ty, $name:literal) => {{
            let values = [
                0 as $t,
                1,
                127,
                128,
                <$t>::MAX / 3,
                <$t>::MAX - 1,
                <$t>::MAX,
            ];
            let args: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let mut enc = vec!["varint", "encode", "-t", $name];
            enc.extend(args.iter().map(String::as_str));
            let hex = lines(run(&enc, b"", 0).0);
            for (v, h) in values.iter().zip(&hex) {
                let mut buf = [0u8; 19];
                let n = varint::encode(*v, &mut buf);
                let want: Vec<String> = buf[..n].iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!(h, &want.join(" "), "{} {v}", $name);
            }
            let mut dec = vec!["varint", "decode", "--strict", "-t", $name];
            dec.extend(hex.iter().map(String::as_str));
            assert_eq!(lines(run(&dec, b"", 0).0), args);
            // One past the maximum is rejected with the type's range.
            if let Some(over) = u128::from(<$t>::MAX).checked_add(1) {
                let over = over.to_string();
                let (_, err) = run(&["varint", "encode", "-t", $name, &over], b"", 1);
                assert!(err.contains(&format!("does not fit in {}", $name)), "{err}");
            }
        }};
    }
    check_unsigned!(u16, "u16");
    check_unsigned!(u32, "u32");
    check_unsigned!(u64, "u64");
    check_unsigned!(u128, "u128");
    macro_rules! check_signed {
        ($t:ty, $name:literal) => {{
            let values = [0 as $t, -1, 1, -64, 64, <$t>::MIN, <$t>::MAX];
            let args: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let mut enc = vec!["varint", "encode", "-t", $name, "--"];
            enc.extend(args.iter().map(String::as_str));
            let hex = lines(run(&enc, b"", 0).0);
            for (v, h) in values.iter().zip(&hex) {
                let mut buf = [0u8; 19];
                let n = varint::encode(zigzag::encode(*v), &mut buf);
                let want: Vec<String> = buf[..n].iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!(h, &want.join(" "), "{} {v}", $name);
            }
            let mut dec = vec!["varint", "decode", "-t", $name];
            dec.extend(hex.iter().map(String::as_str));
            assert_eq!(lines(run(&dec, b"", 0).0), args);
            // Zigzag alone, the same type.
            let mut zz = vec!["zigzag", "encode", "-t", $name, "--"];
            zz.extend(args.iter().map(String::as_str));
            let codes = lines(run(&zz, b"", 0).0);
            let want: Vec<String> = values
                .iter()
                .map(|v| zigzag::encode(*v).to_string())
                .collect();
            assert_eq!(codes, want);
            let mut back = vec!["zigzag", "decode", "-t", $name];
            back.extend(codes.iter().map(String::as_str));
            assert_eq!(lines(run(&back, b"", 0).0), args);
        }};
    }
    check_signed!(i16, "i16");
    check_signed!(i32, "i32");
    check_signed!(i64, "i64");
    check_signed!(i128, "i128");
    // --signed is the signed type of the same width.
    assert_eq!(
        run(
            &["varint", "encode", "-t", "u32", "--signed", "--", "-1"],
            b"",
            0
        )
        .0,
        b"01\n"
    );
    // zigzag of i8.
    assert_eq!(
        run(&["zigzag", "encode", "-t", "i8", "--", "-128"], b"", 0).0,
        b"255\n"
    );
    // A u32 varint longer than 5 bytes is an overflow, named for u32.
    let (_, err) = run(&["varint", "decode", "-t", "u32", "ff ff ff ff 1f"], b"", 1);
    assert!(err.contains("u32 varint may only be 0x00 to 0x0f"), "{err}");
}

#[test]
fn binary_output_is_the_encoding() {
    let (out, _) = run(&["varint", "encode", "--binary", "300", "1"], b"", 0);
    assert_eq!(out, b"\xac\x02\x01");
    // A bad number writes nothing at all.
    let (out, err) = run(&["varint", "encode", "--binary", "300", "x"], b"", 1);
    assert!(out.is_empty());
    assert!(err.contains("nothing written"), "{err}");
}

#[test]
fn numbers_are_parsed_strictly() {
    for bad in [
        "++300", "0x+12c", "-+5", "+-5", "1__0", "_1", "1_", " 1", "1 ", "0x", "-", "3e2",
    ] {
        let (out, err) = run(&["varint", "encode", "--signed", "--", bad], b"", 1);
        assert!(out.is_empty(), "{bad:?} accepted");
        assert!(err.contains("not a number"), "{bad:?}: {err}");
    }
    let (out, _) = run(&["zigzag", "encode", "--", "+5", "-0x10", "1_000"], b"", 0);
    assert_eq!(lines(out), ["10", "31", "2000"]);
    let (_, err) = run(&["varint", "encode", "--", "-1"], b"", 1);
    assert!(err.contains("negative"), "{err}");
}

/// Runs `varint` with `--sleb128` on every width: the library's encoding,
/// both ends of each range, and decode errors under `--all` after the good
/// values.
macro_rules! sleb128_width {
    ($t:ty, $name:literal, $max_len:literal) => {{
        let values: Vec<$t> = vec![
            <$t>::MIN,
            <$t>::MIN + 1,
            -129,
            -65,
            -64,
            -1,
            0,
            1,
            63,
            64,
            <$t>::MAX - 1,
            <$t>::MAX,
        ];
        let encoded: Vec<Vec<u8>> = values
            .iter()
            .map(|&v| {
                let mut buf = [0u8; 19];
                let n = varint::sleb128::encode(v, &mut buf);
                buf[..n].to_vec()
            })
            .collect();
        let hex = |b: &[u8]| {
            b.iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let texts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let mut args = vec!["varint", "encode", "--sleb128", "-t", $name, "--"];
        args.extend(texts.iter().map(String::as_str));
        let (out, err) = run(&args, b"", 0);
        assert_eq!(
            lines(out),
            encoded.iter().map(|b| hex(b)).collect::<Vec<_>>(),
            "{err}"
        );
        assert_eq!(encoded[0].len(), $max_len);
        // The same type by its unsigned name: --sleb128 picks the signed
        // type of that width.
        let unsigned = $name.replace('i', "u");
        let (out, _) = run(
            &[
                "varint",
                "encode",
                "--sleb128",
                "-t",
                &unsigned,
                "--",
                &texts[0],
            ],
            b"",
            0,
        );
        assert_eq!(lines(out), vec![hex(&encoded[0])]);
        // Decoding: each alone, strictly, and all as one --binary stream.
        let hexes: Vec<String> = encoded.iter().map(|b| hex(b)).collect();
        let mut args = vec!["varint", "decode", "--sleb128", "--strict", "-t", $name];
        args.extend(hexes.iter().map(String::as_str));
        let (out, err) = run(&args, b"", 0);
        assert_eq!(lines(out), texts, "{err}");
        let stream: Vec<u8> = encoded.concat();
        let (out, _) = run(
            &[
                "varint",
                "decode",
                "--sleb128",
                "--binary",
                "--all",
                "-t",
                $name,
            ],
            &stream,
            0,
        );
        assert_eq!(lines(out), texts);
        // Out of range to encode.
        let too_big = (<$t>::MAX as u128 + 1).to_string();
        let (_, err) = run(
            &["varint", "encode", "--sleb128", "-t", $name, &too_big],
            b"",
            1,
        );
        assert!(err.contains("out of range"), "{err}");
        // Truncated after the good values: each is printed, then the error
        // with the varint's index and offset.
        let mut bad = stream.clone();
        bad.push(0x80);
        let (out, err) = run(
            &[
                "varint",
                "decode",
                "--sleb128",
                "--binary",
                "--all",
                "-t",
                $name,
            ],
            &bad,
            1,
        );
        assert_eq!(lines(out), texts);
        assert!(
            err.contains(&format!("the {}", values.len() + 1))
                && err.contains(&format!(
                    " varint, at byte offset {}: truncated",
                    stream.len()
                )),
            "{err}"
        );
        // Overflow: MAX_LEN continuation bytes, and a last byte that does
        // not repeat the sign (0x40 sets bits above every width's sign).
        let mut long = stream.clone();
        long.extend(std::iter::repeat_n(0x80u8, $max_len));
        long.push(0);
        let (out, err) = run(
            &[
                "varint",
                "decode",
                "--sleb128",
                "--binary",
                "--all",
                "-t",
                $name,
            ],
            &long,
            1,
        );
        assert_eq!(lines(out), texts);
        assert!(
            err.contains(&format!("overflow: the first {} bytes", $max_len)),
            "{err}"
        );
        let mut high = vec![0xFFu8; $max_len - 1];
        high.push(0x3F);
        let (_, err) = run(
            &["varint", "decode", "--sleb128", "-t", $name, &hex(&high)],
            b"",
            1,
        );
        assert!(
            err.contains(&format!("overflow: byte {} is 0x3f", $max_len))
                && err.contains("must repeat its sign bit"),
            "{err}"
        );
        // Non-canonical padding is accepted, and rejected by --strict.
        let (out, _) = run(
            &["varint", "decode", "--sleb128", "-t", $name, "ff 7f"],
            b"",
            0,
        );
        assert_eq!(lines(out), vec!["-1".to_string()]);
        let (_, err) = run(
            &[
                "varint",
                "decode",
                "--sleb128",
                "--strict",
                "-t",
                $name,
                "ff 7f",
            ],
            b"",
            1,
        );
        assert!(err.contains("non-canonical: 2 bytes encode -1"), "{err}");
    }};
}

#[test]
fn sleb128_every_width() {
    sleb128_width!(i16, "i16", 3);
    sleb128_width!(i32, "i32", 5);
    sleb128_width!(i64, "i64", 10);
    sleb128_width!(i128, "i128", 19);
    // --sleb128 and --signed (zigzag) exclude each other.
    run(&["varint", "encode", "--sleb128", "--signed", "1"], b"", 2);
}
