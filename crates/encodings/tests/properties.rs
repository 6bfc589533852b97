//! Properties over arbitrary input, for every encoding: no panic, replace
//! and skip never fail, any chunking equals one shot, and a strict error
//! leaves exactly the text a replacing decoder writes before its first
//! U+FFFD (where the input has no U+FFFD of its own).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use encodings::{DecodeMode, Decoder, EncodeMode, Encoding};
use quickcheck::{QuickCheck, TestResult};

fn chunked(
    e: Encoding,
    mode: DecodeMode,
    input: &[u8],
    size: usize,
) -> Result<String, encodings::DecodeError> {
    let mut d = Decoder::new(e, mode);
    let mut out = String::new();
    for c in input.chunks(size.max(1)) {
        d.decode_into_string(c, &mut out, false)?;
    }
    d.decode_into_string(&[], &mut out, true)?;
    Ok(out)
}

#[test]
fn decoding_any_bytes() {
    fn prop(index: usize, input: Vec<u8>, size: u8) -> TestResult {
        let all: Vec<Encoding> = Encoding::all().collect();
        let e = all[index % all.len()];
        let size = usize::from(size % 9) + 1;
        let replaced = e.decode_to_string(&input, DecodeMode::Replace).unwrap();
        let skipped = e.decode_to_string(&input, DecodeMode::Skip).unwrap();
        let strict = e.decode_to_string(&input, DecodeMode::Strict);
        if chunked(e, DecodeMode::Replace, &input, size).unwrap() != replaced
            || chunked(e, DecodeMode::Skip, &input, size).unwrap() != skipped
            || chunked(e, DecodeMode::Strict, &input, size) != strict
        {
            return TestResult::failed();
        }
        match strict {
            Ok(text) => TestResult::from_bool(text == replaced && text == skipped),
            Err(err) => {
                let mut before = String::new();
                let _ = e.decode_into_string(&input, &mut before, DecodeMode::Strict);
                let first = replaced.find('\u{FFFD}');
                // glibc's CP1255 and CP1258 do not write the letter that
                // waits for a mark right before the error.
                let held = |text: &str| {
                    matches!(e.name(), "CP1255" | "CP1258")
                        && text
                            .strip_prefix(before.as_str())
                            .is_some_and(|rest| rest.chars().count() == 1)
                };
                TestResult::from_bool(
                    err.offset() <= input.len() as u64
                        && (before.contains('\u{FFFD}')
                            || first
                                .is_none_or(|i| replaced[..i] == before || held(&replaced[..i]))),
                )
            }
        }
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(usize, Vec<u8>, u8) -> TestResult);
}

#[test]
fn encoding_any_text() {
    fn prop(index: usize, text: String) -> bool {
        let all: Vec<Encoding> = Encoding::all().collect();
        let e = all[index % all.len()];
        for mode in [
            EncodeMode::Replace,
            EncodeMode::Skip,
            EncodeMode::Ncr,
            EncodeMode::Translit,
        ] {
            if e.encode_to_vec(&text, mode).is_err() {
                return false;
            }
        }
        // What encodes strictly decodes back to the text (but for WHATWG's
        // `replacement`, whose decoder refuses everything), or, where the
        // encoder maps a character one way (Shift_JIS writes U+203E as 0x7E,
        // which decodes to '~'; GBK writes U+E78D as A6 D9, which decodes to
        // U+FE10), to a text that encodes to the same bytes.
        match e.encode_to_vec(&text, EncodeMode::Strict) {
            Ok(bytes) if e.name() != "replacement" => {
                match e.decode_to_string(&bytes, DecodeMode::Strict) {
                    Ok(back) if back == text => true,
                    // A leading U+FEFF is a BOM to `UTF-16`/`UTF-32`.
                    Ok(_) if text.starts_with('\u{FEFF}') => true,
                    Ok(back) => e.encode_to_vec(&back, EncodeMode::Strict).ok() == Some(bytes),
                    Err(_) => false,
                }
            }
            _ => true,
        }
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(usize, String) -> bool);
}

/// The one-way mappings that `encoding_any_text` allows, pinned: they
/// encode, and their bytes decode to another character that encodes to the
/// same bytes.
#[test]
fn one_way_mappings_round_trip_through_their_bytes() {
    for (name, c) in [("Shift_JIS", '\u{203E}'), ("GBK", '\u{E78D}')] {
        let e = Encoding::for_label(name).unwrap();
        let bytes = e.encode_to_vec(&c.to_string(), EncodeMode::Strict).unwrap();
        let back = e.decode_to_string(&bytes, DecodeMode::Strict).unwrap();
        assert_ne!(back, c.to_string(), "{name}: {c:?} is not one way");
        assert_eq!(
            e.encode_to_vec(&back, EncodeMode::Strict).unwrap(),
            bytes,
            "{name}"
        );
    }
}
