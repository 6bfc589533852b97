//! `Config` (the byte-order mark policy), `Variant` names, and the error's
//! `Display`, for every encoding, one call and streaming.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use utf8_variants::{Bom, BomPolicy, Config, ErrorKind, Variant};

#[test]
fn a_leading_bom_is_accepted_or_rejected_as_configured() {
    let inputs: &[&[u8]] = &[
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBFhello",
        b"\xEF\xBB\xBF\xEF\xBB\xBF",
        b"\xEF\xBB\xBF\xFF", // the BOM is the first error
        b"\xEF\xBB",         // not a BOM: unfinished
        b"x\xEF\xBB\xBF",    // not leading: a character
        b"",
    ];
    for v in Variant::ALL {
        for &input in inputs {
            let accept = Config::new(v);
            let reject = accept.with_bom(BomPolicy::Reject);
            assert_eq!(
                accept.validate(input),
                v.validate(input),
                "{v} {input:02X?}"
            );
            let leading = input.starts_with(Bom::Utf8.as_bytes());
            let got = reject.validate(input);
            if leading {
                let e = got.unwrap_err();
                assert_eq!(
                    (e.valid_up_to(), e.error_len(), e.kind(), e.variant()),
                    (0, Some(3), ErrorKind::ByteOrderMark, v)
                );
            } else {
                assert_eq!(got, v.validate(input), "{v} {input:02X?}");
            }
            assert_eq!(reject.is_valid(input), got.is_ok());
            // Streaming, at every split into three chunks.
            for a in 0..=input.len() {
                for b in a..=input.len() {
                    let mut s = reject.validator();
                    // Every chunk is fed, after an error too (it is sticky).
                    let results = [
                        s.update(&input[..a]),
                        s.update(&input[a..b]),
                        s.update(&input[b..]),
                    ];
                    assert_eq!(s.position(), input.len());
                    let r = results.into_iter().collect::<Result<(), _>>();
                    let r = r.and_then(|()| s.finish());
                    assert_eq!(r, got, "{v} {input:02X?} split {a} {b}");
                }
            }
        }
    }
}

#[test]
fn names_parse_and_print() {
    for v in Variant::ALL {
        assert_eq!(v.to_string().parse(), Ok(v));
        assert_eq!(v.name().to_lowercase().replace('-', "").parse(), Ok(v));
    }
    assert_eq!("Java".parse(), Ok(Variant::Mutf8));
    assert_eq!("utf_8".parse(), Ok(Variant::Utf8));
    assert!("utf-16".parse::<Variant>().is_err());
    assert!("a very long name".parse::<Variant>().is_err());
}

#[test]
fn errors_name_their_encoding() {
    let e = Variant::Wtf8
        .validate(b"ab\xED\xA0\x80\xED\xB0\x80")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid WTF-8 sequence of 1 bytes from index 5 (surrogate pair instead of a 4-byte form)"
    );
    let e = Variant::Utf8.validate(b"ab\xC3").unwrap_err();
    assert_eq!(
        e.to_string(),
        "incomplete UTF-8 byte sequence from index 2 (incomplete sequence at end of input)"
    );
    // UTF-8's errors are std's.
    let std = core::str::from_utf8(b"ab\xED\xA0\x80").unwrap_err();
    let e = Variant::Utf8.validate(b"ab\xED\xA0\x80").unwrap_err();
    assert_eq!(
        (e.valid_up_to(), e.error_len()),
        (std.valid_up_to(), std.error_len())
    );
    assert_eq!(e.kind(), ErrorKind::Surrogate);
    assert_eq!(e.offset_by(10).valid_up_to(), 12);
}
