//! The hand-checked vectors of `testdata/variants/vectors.tsv` (UTR #26,
//! the JVM specification §4.4.7, the WTF-8 specification), what Java's
//! `DataOutputStream.writeUTF` writes (`java_writeutf.tsv`), and the WTF-8
//! specification's concatenation rule. Provenance: the README beside them.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use utf8_variants::wtf8::Wtf8Buf;
use utf8_variants::{ErrorKind, Variant, mutf8, wtf8};

const VECTORS: &str = include_str!("../../../testdata/variants/vectors.tsv");
const JAVA: &str = include_str!("../../../testdata/variants/java_writeutf.tsv");

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn kind(name: &str) -> ErrorKind {
    use ErrorKind::*;
    [
        Incomplete,
        TooShort,
        UnexpectedContinuation,
        Overlong,
        Surrogate,
        TooLarge,
        InvalidByte,
        FourByteForm,
        Nul,
        UnpairedSurrogate,
        SurrogatePair,
        ByteOrderMark,
    ]
    .into_iter()
    .find(|k| format!("{k:?}") == name)
    .unwrap_or_else(|| panic!("unknown kind {name}"))
}

/// The code points of valid input, surrogates as themselves.
fn code_points(v: Variant, input: &[u8]) -> Vec<u32> {
    match v {
        Variant::Wtf8 => Wtf8Buf::from_bytes(input.to_vec())
            .unwrap()
            .code_points()
            .collect(),
        Variant::Cesu8 => utf8_variants::cesu8::decode(input)
            .unwrap()
            .chars()
            .map(u32::from)
            .collect(),
        Variant::Mutf8 => mutf8::decode(input)
            .unwrap()
            .chars()
            .map(u32::from)
            .collect(),
        Variant::Utf8 => core::str::from_utf8(input)
            .unwrap()
            .chars()
            .map(u32::from)
            .collect(),
    }
}

#[test]
fn hand_checked_vectors() {
    let mut rows = 0;
    for line in VECTORS.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, input, cps, valid_up_to, error_len, k, source] = cols[..] else {
            panic!("bad row {line:?}");
        };
        let v: Variant = name.parse().unwrap();
        let input = hex(input);
        let got = v.validate(&input);
        let mut stream = v.validator();
        let streamed = input
            .iter()
            .try_for_each(|b| stream.update(core::slice::from_ref(b)))
            .and_then(|()| stream.finish());
        assert_eq!(streamed, got, "{source}: streaming");
        if cps != "-" {
            assert_eq!(got, Ok(()), "{source}");
            let want: Vec<u32> = cps
                .split(' ')
                .map(|c| u32::from_str_radix(c, 16).unwrap())
                .collect();
            assert_eq!(code_points(v, &input), want, "{source}");
        } else {
            let e = got.expect_err(source);
            let len = match error_len {
                "none" => None,
                n => Some(n.parse().unwrap()),
            };
            assert_eq!(
                (e.valid_up_to(), e.error_len(), e.kind()),
                (valid_up_to.parse().unwrap(), len, kind(k)),
                "{source}"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 46);
}

#[test]
fn what_java_writes() {
    let mut rows = 0;
    let mut ill_formed = 0;
    for line in JAVA.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [units, bytes, well_formed] = cols[..] else {
            panic!("bad row {line:?}");
        };
        let units: Vec<u16> = units
            .split(' ')
            .filter(|u| !u.is_empty())
            .map(|u| u16::from_str_radix(u, 16).unwrap())
            .collect();
        let bytes = hex(bytes);
        match String::from_utf16(&units) {
            Ok(s) => {
                assert_eq!(well_formed, "yes");
                assert_eq!(&*mutf8::encode(&s), &*bytes, "{s:?}");
                assert_eq!(mutf8::decode(&bytes).as_deref(), Ok(&*s));
            }
            Err(_) => {
                // An unpaired surrogate, which Java writes as it is and the
                // JVM specification does not describe: refused (or, for a
                // lead at the very end, incomplete: a trail could follow).
                assert_eq!(well_formed, "no");
                let e = mutf8::validate(&bytes).unwrap_err();
                assert!(
                    matches!(
                        e.kind(),
                        ErrorKind::UnpairedSurrogate | ErrorKind::Incomplete
                    ),
                    "{bytes:02X?}: {e}"
                );
                // The same bytes are WTF-8 of the same code units, except
                // where a lead is followed by a trail.
                if let Ok(w) = Wtf8Buf::from_bytes(bytes.clone()) {
                    assert_eq!(w.to_utf16(), units);
                }
                ill_formed += 1;
            }
        }
        rows += 1;
    }
    assert_eq!((rows, ill_formed), (321, 5));
}

#[test]
fn wtf8_concatenation_from_the_specification() {
    // "If the left input string ends with a lead surrogate byte sequence
    // and the right input string starts with a trail surrogate byte
    // sequence", the two become the 4-byte form of their supplementary code
    // point.
    let mut left = Wtf8Buf::from_bytes(b"a\xED\xA0\xBD".to_vec()).unwrap();
    left.push_wtf8(b"\xED\xB8\x80b").unwrap();
    assert_eq!(left.as_bytes(), "a😀b".as_bytes());
    // Otherwise, plain concatenation.
    let mut left = Wtf8Buf::from_bytes(b"\xED\xB8\x80".to_vec()).unwrap();
    left.push_wtf8(b"\xED\xA0\xBD").unwrap();
    assert_eq!(left.as_bytes(), b"\xED\xB8\x80\xED\xA0\xBD");
    // Lossy conversion: each surrogate byte sequence becomes EF BF BD.
    assert_eq!(
        wtf8::to_utf8_lossy(left.as_bytes()).as_bytes(),
        b"\xEF\xBF\xBD\xEF\xBF\xBD"
    );
}

#[test]
fn debug_shows_what_the_accessors_return() {
    let cut = utf8_variants::cesu8::validate(b"ab\xED\xA0").unwrap_err();
    assert_eq!(cut.error_len(), None);
    assert_eq!(
        format!("{cut:?}"),
        "Error { valid_up_to: 2, error_len: None, kind: Incomplete, variant: Cesu8 }"
    );
    let bad = utf8_variants::cesu8::validate(b"id=\xED\xA0\xBD!").unwrap_err();
    assert_eq!(
        format!("{bad:?}"),
        "Error { valid_up_to: 3, error_len: Some(3), kind: UnpairedSurrogate, variant: Cesu8 }"
    );
}
