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
                TestResult::from_bool(
                    err.offset() <= input.len() as u64
                        && (before.contains('\u{FFFD}')
                            || first.is_none_or(|i| replaced[..i] == before)),
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
        // `replacement`, whose decoder refuses everything).
        match e.encode_to_vec(&text, EncodeMode::Strict) {
            Ok(bytes) if e.name() != "replacement" => {
                e.decode_to_string(&bytes, DecodeMode::Strict).ok().as_deref() == Some(text.as_str())
                    // A leading U+FEFF is a BOM to `UTF-16`/`UTF-32`.
                    || text.starts_with('\u{FEFF}')
            }
            _ => true,
        }
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(usize, String) -> bool);
}
