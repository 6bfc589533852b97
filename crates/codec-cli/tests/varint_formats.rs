//! `codec varint --format`: every format other than LEB128 end to end, the
//! specifications' examples, values checked against the library, and the
//! options (`--strict`, `--all`, `--binary`, `--type`, `--signed`) meaning
//! the same for each.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use codec_facade::varint::formats::{
    Bijective, Bincode, CompactSize, Format, Hpack, Prefix, Quic, Sqlite, Vlq,
};

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

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `(value, hex)` rows: encode every value, decode every hex, strictly.
fn table(format: &[&str], rows: &[(&str, &str)]) {
    let mut enc = vec!["varint", "encode"];
    enc.extend_from_slice(format);
    enc.push("--");
    enc.extend(rows.iter().map(|r| r.0));
    let (out, err) = run(&enc, b"", 0);
    assert_eq!(err, "");
    let want: Vec<String> = rows.iter().map(|r| r.1.to_string()).collect();
    assert_eq!(lines(out), want, "{format:?}");
    let mut dec = vec!["varint", "decode", "--strict"];
    dec.extend_from_slice(format);
    dec.extend(rows.iter().map(|r| r.1));
    let (out, err) = run(&dec, b"", 0);
    assert_eq!(err, "");
    let want: Vec<String> = rows.iter().map(|r| r.0.to_string()).collect();
    assert_eq!(lines(out), want, "{format:?}");
}

#[test]
fn specification_examples() {
    // RFC 9000 A.1.
    table(
        &["-f", "quic"],
        &[
            ("151288809941952652", "c2 19 7c 5e ff 14 e8 8c"),
            ("494878333", "9d 7f 3e 7d"),
            ("15293", "7b bd"),
            ("37", "25"),
        ],
    );
    // RFC 7541 C.1.
    table(
        &["-f", "hpack", "--prefix-bits", "5"],
        &[("10", "0a"), ("1337", "1f 9a 0a")],
    );
    table(&["-f", "hpack"], &[("42", "2a")]);
    // RFC 8949 appendix A.
    table(
        &["-f", "cbor", "-t", "i128"],
        &[
            ("0", "00"),
            ("24", "18 18"),
            ("1000", "19 03 e8"),
            ("18446744073709551615", "1b ff ff ff ff ff ff ff ff"),
            ("-18446744073709551616", "3b ff ff ff ff ff ff ff ff"),
            ("-100", "38 63"),
        ],
    );
    // The Standard MIDI File table.
    table(
        &["-f", "vlq"],
        &[
            ("128", "81 00"),
            ("16384", "81 80 00"),
            ("268435455", "ff ff ff 7f"),
        ],
    );
    // Bitcoin Core's serialize tests.
    table(
        &["-f", "git"],
        &[("128", "80 00"), ("4660", "a3 34"), ("65535", "82 fe 7f")],
    );
    table(
        &["-f", "compactsize"],
        &[("252", "fc"), ("253", "fd fd 00")],
    );
    table(
        &["-f", "msgpack", "-t", "i64"],
        &[("-33", "d0 df"), ("300", "cd 01 2c")],
    );
    table(&["-f", "bincode"], &[("250", "fa"), ("251", "fb fb 00")]);
    table(&["-f", "sqlite"], &[("128", "81 00")]);
    table(&["-f", "prefix"], &[("300", "81 2c")]);
}

#[test]
fn values_match_the_library() {
    // Values of every length through encode and decode, against the
    // library's encoder.
    fn check<F: Format<Value = u64>>(name: &str, extra: &[&str]) {
        let values: Vec<u64> = (0..64)
            .map(|b| (1u64 << b) - 1)
            .filter(|&v| F::encoded_len(v).is_some())
            .collect();
        let texts: Vec<String> = values.iter().map(u64::to_string).collect();
        let mut args = vec!["varint", "encode", "-f", name];
        args.extend_from_slice(extra);
        args.extend(texts.iter().map(String::as_str));
        let (out, _) = run(&args, b"", 0);
        let want: Vec<String> = values
            .iter()
            .map(|&v| hex(&F::encode_slice_to_vec(&[v]).unwrap()))
            .collect();
        assert_eq!(lines(out), want, "{name}");
        // The same values as one binary stream, back with --all.
        let bytes = F::encode_slice_to_vec(&values).unwrap();
        let mut args = vec![
            "varint", "decode", "--binary", "--all", "--strict", "-f", name,
        ];
        args.extend_from_slice(extra);
        let (out, err) = run(&args, &bytes, 0);
        assert_eq!((lines(out), err), (texts, String::new()), "{name}");
    }
    check::<Quic>("quic", &[]);
    check::<Hpack<3>>("hpack", &["--prefix-bits", "3"]);
    check::<Sqlite>("sqlite", &[]);
    check::<Bijective>("git", &[]);
    check::<CompactSize>("compactsize", &[]);
    check::<Bincode>("bincode", &[]);
    check::<Prefix>("prefix", &[]);
    let vlq: Vec<u64> = (0..28).map(|b| (1u64 << b) - 1).collect();
    let bytes =
        Vlq::encode_slice_to_vec(&vlq.iter().map(|&v| v as u32).collect::<Vec<_>>()).unwrap();
    let (out, _) = run(&["varint", "decode", "-b", "--all", "-f", "vlq"], &bytes, 0);
    assert_eq!(
        lines(out),
        vlq.iter().map(u64::to_string).collect::<Vec<_>>()
    );
}

#[test]
fn errors_name_the_fault_and_the_place() {
    let err = |args: &[&str]| run(args, b"", 1).1;
    // --strict: the shortest form.
    let e = err(&["varint", "decode", "-f", "quic", "--strict", "40 25"]);
    assert!(
        e.contains("non-canonical: 2 bytes encode 37, whose shortest encoding is 25 (1 byte)"),
        "{e}"
    );
    let e = err(&[
        "varint",
        "decode",
        "-f",
        "compactsize",
        "--strict",
        "fd fc 00",
    ]);
    assert!(e.contains("shortest encoding is fc"), "{e}");
    // --all: every value before the error, then the error with a 1-based
    // ordinal and the byte offset.
    let (out, e) = run(
        &["varint", "decode", "-f", "quic", "--all", "25 7b bd 9d 7f"],
        b"",
        1,
    );
    assert_eq!(lines(out), ["37", "15293"]);
    assert!(
        e.contains("the 3rd varint, at byte offset 3: truncated: the input ends after 2 bytes, inside a QUIC varint"),
        "{e}"
    );
    // Without --all, trailing bytes.
    let e = err(&["varint", "decode", "-f", "vlq", "81 00 01"]);
    assert!(
        e.contains("trailing bytes: the varint ends after byte 2 (value 128)"),
        "{e}"
    );
    // Overflow, reserved, not an integer.
    let e = err(&["varint", "decode", "-f", "vlq", "ff ff ff ff 7f"]);
    assert!(
        e.contains("overflow: all 4 bytes set the continuation bit"),
        "{e}"
    );
    let e = err(&[
        "varint",
        "decode",
        "-f",
        "git",
        "80 fe fe fe fe fe fe fe ff 00",
    ]);
    assert!(e.contains("overflow"), "{e}");
    let e = err(&["varint", "decode", "-f", "cbor", "1c"]);
    assert!(
        e.contains("reserved: a CBOR head may not start with 0x1c"),
        "{e}"
    );
    let e = err(&["varint", "decode", "-f", "cbor", "9f"]);
    assert!(
        e.contains("not an integer: the first byte 0x9f has additional information 31"),
        "{e}"
    );
    let e = err(&["varint", "decode", "-f", "cbor", "84"]);
    assert!(e.contains("major type 4 (array)"), "{e}");
    let e = err(&["varint", "decode", "-f", "msgpack", "c0"]);
    assert!(e.contains("MessagePack value of another type"), "{e}");
    let e = err(&["varint", "decode", "-f", "bincode", "fe"]);
    assert!(e.contains("announces a u128"), "{e}");
    // The format's range, and the type's.
    let e = err(&["varint", "encode", "-f", "quic", "4611686018427387904"]);
    assert!(
        e.contains("does not fit in a QUIC varint (0 to 4611686018427387903"),
        "{e}"
    );
    let e = err(&["varint", "decode", "-f", "sqlite", "-t", "u16", "84 80 00"]);
    assert!(e.contains("holds 65536, which does not fit in u16"), "{e}");
    let e = err(&["varint", "decode", "-f", "msgpack", "ff"]);
    assert!(
        e.contains("holds -1, which does not fit in u64; pass a signed --type"),
        "{e}"
    );
    let (_, e) = run(
        &["varint", "encode", "-f", "hpack", "--sleb128", "1"],
        b"",
        2,
    );
    assert!(e.contains("--sleb128 is signed LEB128"), "{e}");
    let (_, e) = run(
        &["varint", "decode", "-f", "quic", "--prefix-bits", "5", "25"],
        b"",
        2,
    );
    assert!(
        e.contains("--prefix-bits goes with --format hpack only"),
        "{e}"
    );
    let (_, e) = run(
        &[
            "varint",
            "decode",
            "-f",
            "hpack",
            "--prefix-bits",
            "9",
            "25",
        ],
        b"",
        2,
    );
    assert!(e.contains("9 is not in 1..=8"), "{e}");
}

#[test]
fn signed_types_mean_the_same_for_every_format() {
    // Zigzag for the formats without a sign: -1 is 1, as with LEB128.
    for format in [
        "leb128",
        "quic",
        "sqlite",
        "git",
        "compactsize",
        "bincode",
        "prefix",
    ] {
        let (out, _) = run(
            &[
                "varint", "encode", "-f", format, "-t", "i64", "--", "-1", "1",
            ],
            b"",
            0,
        );
        assert_eq!(lines(out), ["01", "02"], "{format}");
        let (out, _) = run(
            &["varint", "decode", "-f", format, "--signed", "03"],
            b"",
            0,
        );
        assert_eq!(lines(out), ["-2"], "{format}");
    }
    // MessagePack and CBOR carry their own sign.
    let (out, _) = run(
        &["varint", "encode", "-f", "msgpack", "-t", "i32", "--", "-1"],
        b"",
        0,
    );
    assert_eq!(lines(out), ["ff"]);
    let (out, _) = run(
        &["varint", "encode", "-f", "cbor", "-s", "--", "-1"],
        b"",
        0,
    );
    assert_eq!(lines(out), ["20"]);
    // --binary output is the raw bytes.
    let (out, _) = run(
        &[
            "varint",
            "encode",
            "-f",
            "compactsize",
            "--binary",
            "515",
            "1",
        ],
        b"",
        0,
    );
    assert_eq!(out, [0xfd, 0x03, 0x02, 0x01]);
}
