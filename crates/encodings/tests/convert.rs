//! The converter: chunked equals one shot, and unmappable characters named
//! at their offset in the input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use encodings::{ConvertError, Converter, DecodeMode, EncodeMode, Encoding};

fn convert(
    from: Encoding,
    to: Encoding,
    input: &[u8],
    cuts: &[usize],
    mode: EncodeMode,
) -> Result<Vec<u8>, ConvertError> {
    let mut c = Converter::new(from, to, DecodeMode::Strict, mode);
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        c.convert_into_vec(&input[at..cut], &mut out, false)?;
        at = cut;
    }
    c.convert_into_vec(&input[at..], &mut out, true)?;
    Ok(out)
}

#[test]
fn unmappable_characters_are_named_at_their_input_offset() {
    let text = "ab\né €x😀 Ж日本½Ω";
    let mut compared = 0;
    let targets = [
        "ISO-8859-1",
        "ASCII",
        "CP1252",
        "KOI8-R",
        "Shift_JIS",
        "CP437",
        "IBM037",
    ];
    // (WHATWG's `replacement` decodes nothing: every input is an error.)
    for from in Encoding::all().filter(|e| e.name() != "replacement") {
        let Ok(input) = from.encode_to_vec(text, EncodeMode::Strict) else {
            continue;
        };
        for label in targets {
            let to = Encoding::for_label(label).unwrap();
            // Where the first character `to` cannot hold starts in `input`.
            let first_bad = text.char_indices().find(|(_, c)| {
                to.encode_to_vec(&c.to_string(), EncodeMode::Strict)
                    .is_err()
            });
            let whole = convert(from, to, &input, &[], EncodeMode::Strict);
            match (first_bad, &whole) {
                (None, Ok(out)) => {
                    assert_eq!(out, &to.encode_to_vec(text, EncodeMode::Strict).unwrap())
                }
                (Some((i, _)), Err(e)) => {
                    compared += 1;
                    let mut before = from.encode_to_vec(&text[..i], EncodeMode::Strict).unwrap();
                    if i == 0 {
                        before.clear();
                    }
                    assert_eq!(e.input_offset(), before.len() as u64, "{from:?} -> {label}");
                }
                (b, w) => panic!("{from:?} -> {label}: {b:?} {w:?}"),
            }
            // Stateful inputs: the offset of a character in a later chunk
            // is only approximate (see `Converter::convert_into_vec`).
            if ["UTF-7", "ISO-2022-JP"].contains(&from.name()) {
                continue;
            }
            for cut in 0..=input.len() {
                let chunked = convert(from, to, &input, &[cut], EncodeMode::Strict);
                assert_eq!(
                    chunked.as_ref().map_err(ConvertError::input_offset),
                    whole.as_ref().map_err(ConvertError::input_offset),
                    "{from:?} -> {label} cut {cut}"
                );
                if let (Ok(a), Ok(b)) = (&chunked, &whole) {
                    assert_eq!(a, b);
                }
            }
        }
    }
    assert!(
        compared > 60,
        "{compared} conversions with an unmappable character"
    );
}

#[test]
fn decode_errors_come_after_the_text_before_them() {
    let from = Encoding::for_label("UTF-8").unwrap();
    let to = Encoding::for_label("ASCII").unwrap();
    // The unmappable é comes before the invalid byte: it is reported.
    let e = convert(from, to, b"a\xC3\xA9b\xFF", &[], EncodeMode::Strict).unwrap_err();
    assert!(
        matches!(
            e,
            ConvertError::Encode {
                input_offset: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let e = convert(from, to, b"ab\xFF\xC3\xA9", &[], EncodeMode::Strict).unwrap_err();
    assert!(
        matches!(&e, ConvertError::Decode(d) if d.offset() == 2),
        "{e:?}"
    );
    assert_eq!(
        convert(from, to, b"a\xC3\xA9b", &[2], EncodeMode::Translit).unwrap(),
        b"aeb"
    );
}

/// A converter made `without_positions` writes the same output and fails
/// at the same offset with the same bytes as one that counts lines, on
/// every encoding and random broken input cut anywhere; only its errors'
/// line and column read 0.
#[test]
fn converting_without_positions_changes_only_line_and_column() {
    let text = "ab\né €x\r\n😀 Ж日本½Ω\nπ";
    let mut rng = Rng(0x5EED_F11A_0E55);
    let mut next = move || rng.next() as usize;
    let targets = ["UTF-8", "CP1252", "KOI8-R", "Shift_JIS", "UTF-16LE"];
    let (mut failures, mut counted) = (0, 0);
    for from in Encoding::all().filter(|e| e.name() != "replacement") {
        let Ok(clean) = from.encode_to_vec(text, EncodeMode::Replace) else {
            continue;
        };
        for label in targets {
            let to = Encoding::for_label(label).unwrap();
            for _ in 0..8 {
                let mut input = clean.clone();
                if !input.is_empty() && next() % 2 == 0 {
                    let at = next() % input.len();
                    input[at] = next() as u8;
                }
                let cut = next() % (input.len() + 1);
                let run = |c: Converter| {
                    let mut c = c;
                    let mut out = Vec::new();
                    let r = c
                        .convert_into_vec(&input[..cut], &mut out, false)
                        .and_then(|()| c.convert_into_vec(&input[cut..], &mut out, true));
                    (out, r)
                };
                let new = || Converter::new(from, to, DecodeMode::Strict, EncodeMode::Strict);
                let (out, with) = run(new());
                let (out_without, without) = run(new().without_positions());
                assert_eq!(out, out_without, "{from:?} -> {label} {input:02X?}");
                match (&with, &without) {
                    (Ok(()), Ok(())) => {}
                    (Err(ConvertError::Decode(a)), Err(ConvertError::Decode(b))) => {
                        failures += 1;
                        assert_eq!(
                            (a.offset(), a.kind(), a.bytes()),
                            (b.offset(), b.kind(), b.bytes())
                        );
                        assert_eq!((b.line(), b.column()), (0, 0));
                        counted += usize::from(a.line() > 0);
                    }
                    (
                        Err(ConvertError::Encode {
                            error: a,
                            input_offset: i,
                        }),
                        Err(ConvertError::Encode {
                            error: b,
                            input_offset: j,
                        }),
                    ) => {
                        failures += 1;
                        assert_eq!((i, a.offset(), a.char()), (j, b.offset(), b.char()));
                        assert_eq!((b.line(), b.column()), (0, 0));
                        counted += usize::from(a.line() > 0);
                    }
                    (a, b) => panic!("{from:?} -> {label} {input:02X?}: {a:?} against {b:?}"),
                }
            }
        }
    }
    assert!(
        failures > 200 && counted == failures,
        "{failures} failures, {counted} with a line"
    );
}

/// Valid UTF-8 chunks are encoded where they lie, not decoded first: the
/// decode error in a later chunk still names the offset, line and column
/// that decoding the whole input names, at every cut.
#[test]
fn a_decode_error_after_valid_utf8_chunks_names_its_line_and_column() {
    let from = Encoding::UTF_8;
    let input = "ab\ncd é\n\nЖx\n".repeat(3).into_bytes();
    for bad_at in [input.len() - 1, input.len() / 2] {
        let mut broken = input.clone();
        broken.insert(bad_at, 0xFF);
        let whole = encodings::Decoder::new(from, DecodeMode::Strict)
            .decode_into_string(&broken, &mut String::new(), true)
            .unwrap_err();
        for to in ["CP1251", "ISO-8859-5", "UTF-16LE"] {
            let to = Encoding::for_label(to).unwrap();
            for cut in 0..=broken.len() {
                let mut c = Converter::new(from, to, DecodeMode::Strict, EncodeMode::Replace);
                let mut out = Vec::new();
                let r = c
                    .convert_into_vec(&broken[..cut], &mut out, false)
                    .and_then(|()| c.convert_into_vec(&broken[cut..], &mut out, true));
                let Err(ConvertError::Decode(e)) = r else {
                    panic!("{to:?} cut {cut}: {r:?}");
                };
                assert_eq!(
                    (e.offset(), e.line(), e.column()),
                    (whole.offset(), whole.line(), whole.column()),
                    "{to:?} cut {cut}"
                );
            }
        }
    }
}

/// UTF-8 input cut anywhere, and fed a byte at a time, converts into
/// every kind of encoding as it does in one piece: the stateful ones
/// (UTF-7, ISO-2022-JP) return to their initial state only at the end.
#[test]
fn utf8_input_at_every_cut_converts_as_one_piece() {
    let text = "a+b Жé日本 ~x\n😀 €½ 本z";
    let input = text.as_bytes();
    for to in ["UTF-7", "ISO-2022-JP", "CP1251", "Shift_JIS", "UTF-16LE"] {
        let to = Encoding::for_label(to).unwrap();
        let run = |pieces: &[&[u8]]| {
            let mut c =
                Converter::new(Encoding::UTF_8, to, DecodeMode::Strict, EncodeMode::Replace);
            let mut out = Vec::new();
            for (k, piece) in pieces.iter().enumerate() {
                c.convert_into_vec(piece, &mut out, k + 1 == pieces.len())
                    .unwrap();
            }
            out
        };
        let whole = run(&[input]);
        assert!(!whole.is_empty());
        for cut in 0..=input.len() {
            let (a, b) = input.split_at(cut);
            assert_eq!(run(&[a, b]), whole, "{to:?} cut {cut}");
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(run(&bytes), whole, "{to:?} byte by byte");
    }
}

/// UTF-8 into single-byte pages, whose checked kernel encodes the head of
/// each chunk without validating it first: long text of a page's
/// characters (blocks of 64 bytes and more), whole and with a wrong byte
/// at a random place, cut into random chunks, converts as decoding the
/// whole input and encoding its text does, with the decoder's error, its
/// offset, line and column, in strict and replacing decoding.
#[test]
fn utf8_into_single_byte_converts_as_decoding_then_encoding() {
    let mut rng = Rng(0xC0DE_C4EC_0ED5);
    let mut next = move || rng.next() as usize;
    let wrongs = [0x80u8, 0xBF, 0xC3, 0xC0, 0xC1, 0xE2, 0xF0, 0xFF, 0x00];
    for label in [
        "CP1252",
        "KOI8-R",
        "CP437",
        "IBM037",
        "ISO-8859-7",
        "ISO-8859-1",
    ] {
        let to = Encoding::for_label(label).unwrap();
        let chars: Vec<char> = (1..=255u8)
            .filter_map(|b| to.decode_to_string(&[b], DecodeMode::Strict).ok())
            .filter_map(|s| s.chars().next())
            .collect();
        for round in 0..300 {
            let len = 100 + next() % 600;
            // Mostly ASCII and one script, as text is.
            let text: String = (0..len)
                .map(|_| match next() % 4 {
                    0 | 1 => char::from(b'a' + (next() % 26) as u8),
                    _ => chars[next() % chars.len()],
                })
                .collect();
            let mut input = text.into_bytes();
            if round % 4 != 0 {
                let at = next() % input.len();
                input[at] = wrongs[next() % wrongs.len()];
            }
            let mut cuts: Vec<usize> = (0..next() % 4).map(|_| next() % input.len()).collect();
            cuts.sort_unstable();
            for decode in [DecodeMode::Strict, DecodeMode::Replace] {
                let mut whole = String::new();
                let decoded = encodings::Decoder::new(Encoding::UTF_8, decode)
                    .decode_into_string(&input, &mut whole, true);
                let want = to.encode_to_vec(&whole, EncodeMode::Replace).unwrap();
                let mut c = Converter::new(Encoding::UTF_8, to, decode, EncodeMode::Replace);
                let mut out = Vec::new();
                let mut at = 0;
                let mut got = Ok(());
                for &cut in cuts.iter().chain([&input.len()]) {
                    got = c.convert_into_vec(&input[at..cut], &mut out, cut == input.len());
                    at = cut;
                    if got.is_err() {
                        break;
                    }
                }
                assert_eq!(out, want, "{label} {decode:?} cuts {cuts:?} {input:02X?}");
                match (decoded, got) {
                    (Ok(()), Ok(())) => {}
                    (Err(a), Err(ConvertError::Decode(b))) => assert_eq!(
                        (a.offset(), a.line(), a.column(), a.bytes()),
                        (b.offset(), b.line(), b.column(), b.bytes()),
                        "{label} cuts {cuts:?} {input:02X?}"
                    ),
                    (a, b) => panic!("{label} {decode:?} {input:02X?}: {a:?} against {b:?}"),
                }
            }
            // A character the page lacks, at a character's start: a strict
            // encoder names it at its offset in the input.
            // (A wrong byte may have made valid UTF-8 of what it lacks.)
            if let Ok(text) = core::str::from_utf8(&input)
                && to.encode_to_vec(text, EncodeMode::Strict).is_ok()
            {
                let mut at = next() % input.len();
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let bad = format!("{}😀{}", &text[..at], &text[at..]);
                let want = to.encode_to_vec(&text[..at], EncodeMode::Strict).unwrap();
                let mut c =
                    Converter::new(Encoding::UTF_8, to, DecodeMode::Strict, EncodeMode::Strict);
                let mut out = Vec::new();
                let bytes = bad.as_bytes();
                let cut = cuts.first().copied().unwrap_or(0).min(bytes.len());
                let got = c
                    .convert_into_vec(&bytes[..cut], &mut out, false)
                    .and_then(|()| c.convert_into_vec(&bytes[cut..], &mut out, true));
                let Err(ConvertError::Encode {
                    error,
                    input_offset,
                }) = got
                else {
                    panic!("{label} at {at}: {got:?}");
                };
                assert_eq!(
                    (input_offset, error.char()),
                    (at as u64, '😀'),
                    "{label} cut {cut}"
                );
                assert_eq!(out, want, "{label} at {at} cut {cut}");
            }
        }
    }
}
