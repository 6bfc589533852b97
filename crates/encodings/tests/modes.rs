//! Each error mode, the positions errors name, and what is in the output
//! when a strict conversion stops.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use encodings::{DecodeErrorKind, DecodeMode, Decoder, EncodeMode, Encoder, Encoding};

fn enc(label: &str) -> Encoding {
    Encoding::for_label(label).unwrap()
}

#[test]
fn decode_modes() {
    let cp1252 = enc("CP1252");
    let input = b"ab\x81c\x8Dd";
    let e = cp1252
        .decode_to_string(input, DecodeMode::Strict)
        .unwrap_err();
    assert_eq!(
        (e.offset(), e.bytes(), e.kind()),
        (2, &[0x81][..], DecodeErrorKind::Invalid)
    );
    assert_eq!(
        cp1252.decode_to_string(input, DecodeMode::Replace).unwrap(),
        "ab\u{FFFD}c\u{FFFD}d"
    );
    assert_eq!(
        cp1252.decode_to_string(input, DecodeMode::Skip).unwrap(),
        "abcd"
    );
    // UTF-8: one U+FFFD per maximal invalid subpart, as std and WHATWG.
    let bad = b"a\xF0\x9F\x98b\xC0\xAF\xED\xA0\x80c\xE2\x82";
    assert_eq!(
        Encoding::UTF_8
            .decode_to_string(bad, DecodeMode::Replace)
            .unwrap(),
        String::from_utf8_lossy(bad)
    );
    let e = Encoding::UTF_8
        .decode_to_string(b"ab\xE2\x82", DecodeMode::Strict)
        .unwrap_err();
    assert_eq!((e.offset(), e.kind()), (2, DecodeErrorKind::Incomplete));
}

#[test]
fn encode_modes() {
    let latin1 = enc("ISO-8859-1");
    let text = "a€b😀c";
    let e = latin1.encode_to_vec(text, EncodeMode::Strict).unwrap_err();
    assert_eq!((e.char(), e.offset(), e.line(), e.column()), ('€', 1, 1, 2));
    assert_eq!(
        latin1.encode_to_vec(text, EncodeMode::Replace).unwrap(),
        b"a?b?c"
    );
    assert_eq!(
        latin1
            .encode_to_vec(text, EncodeMode::Substitute('\u{A4}'))
            .unwrap(),
        b"a\xA4b\xA4c"
    );
    // A substitute the encoding cannot hold falls back to `?`.
    assert_eq!(
        latin1
            .encode_to_vec(text, EncodeMode::Substitute('Ж'))
            .unwrap(),
        b"a?b?c"
    );
    assert_eq!(
        latin1.encode_to_vec(text, EncodeMode::Skip).unwrap(),
        b"abc"
    );
    assert_eq!(
        latin1.encode_to_vec(text, EncodeMode::Ncr).unwrap(),
        b"a&#8364;b&#128512;c"
    );
    let ascii = enc("ASCII");
    assert_eq!(
        ascii
            .encode_to_vec("Grüße €5 北京", EncodeMode::Translit)
            .unwrap(),
        b"Grusse EUR5 Bei Jing "
    );
    // EBCDIC: the substitute goes through the page too.
    let e037 = enc("CP037");
    assert_eq!(
        e037.encode_to_vec("a€", EncodeMode::Replace).unwrap(),
        [0x81, 0x6F]
    );
    // A stateful encoder: ISO-2022-JP returns to ASCII around an NCR.
    let jis = enc("ISO-2022-JP");
    let out = jis.encode_to_vec("日€本", EncodeMode::Ncr).unwrap();
    let (expected, _, _) = encoding_rs::ISO_2022_JP.encode("日€本");
    assert_eq!(out, expected.into_owned());
}

#[test]
fn errors_name_line_and_column_across_chunks() {
    let koi8 = enc("KOI8-U");
    let mut d = Decoder::new(koi8, DecodeMode::Strict);
    let mut out = String::new();
    d.decode_into_string(b"first\nsec", &mut out, false)
        .unwrap();
    d.decode_into_string(b"ond\n\xD0\xD2", &mut out, false)
        .unwrap();
    // KOI8-U has every byte defined: use UTF-16 for an error instead.
    assert_eq!(out, "first\nsecond\nпр");
    let mut d = Decoder::new(enc("UTF-16LE"), DecodeMode::Strict);
    let mut out = String::new();
    d.decode_into_string(b"a\0\n\0b", &mut out, false).unwrap();
    d.decode_into_string(b"\0c\0\x00\xDCd\0", &mut out, true)
        .unwrap_err();
    let e = d.decode_into_string(b"", &mut out, true).unwrap_err();
    assert_eq!(
        (e.offset(), e.line(), e.column(), e.bytes()),
        (8, 2, 3, &[0x00, 0xDC][..])
    );
    assert_eq!(out, "a\nbc");
    assert!(
        e.to_string().contains("at byte 8 (line 2, column 3)"),
        "{e}"
    );
}

#[test]
fn a_strict_error_leaves_exactly_the_text_before_it() {
    // Sentinels: what the output held before the call stays, and nothing
    // after the text before the error is appended.
    for label in [
        "UTF-8",
        "CP1252",
        "UTF-16BE",
        "UTF-32LE",
        "Shift_JIS",
        "CESU-8",
        "UTF-7",
        "ASCII",
        "ISO-8859-3",
    ] {
        let e = enc(label);
        let good = e
            .encode_to_vec("héllo wörld ", EncodeMode::Replace)
            .unwrap();
        let prefix = e.decode_to_string(&good, DecodeMode::Strict).unwrap();
        let bad: &[u8] = match label {
            "UTF-16BE" => &[0xDC, 0x00, 0, 0x61],
            "UTF-32LE" => &[0, 0, 0x11, 0],
            "CP1252" => &[0x81, 0x61],
            "ISO-8859-3" => &[0xA5, 0x81],
            "UTF-7" => b"~",
            _ => &[0xFF, 0x61, 0x61, 0x61],
        };
        let input = [good.as_slice(), bad].concat();
        let mut out = String::from("SENTINEL");
        let err = e
            .decode_into_string(&input, &mut out, DecodeMode::Strict)
            .expect_err(label);
        assert_eq!(out, format!("SENTINEL{prefix}"), "{label}");
        assert_eq!(err.offset(), good.len() as u64, "{label}");

        let mut bytes = b"SENTINEL".to_vec();
        let err = e.encode_into_vec("hello\u{10FFFF}x", &mut bytes, EncodeMode::Strict);
        if let Err(err) = err {
            let before = e.encode_to_vec("hello", EncodeMode::Strict).unwrap();
            assert_eq!(bytes, [&b"SENTINEL"[..], &before].concat(), "{label}");
            assert_eq!(err.offset(), 5);
        }
    }
}

/// The last piece's lines are counted only up to an error in it: a call
/// after it (against `last`'s word) names line and column 0, its offset
/// exact; an error in the last piece names its line, in every kind of
/// encoding.
#[test]
fn an_encoder_counts_the_last_pieces_lines_only_to_an_error() {
    for (label, x) in [
        ("CP1252", 'é'),
        ("ISO-8859-1", 'é'),
        ("KOI8-R", 'Ж'),
        ("Shift_JIS", 'ア'),
        ("ISO-2022-JP", 'ア'),
    ] {
        let mut e = Encoder::new(enc(label), EncodeMode::Strict);
        let mut bytes = Vec::new();
        let (first, second) = ("ab\nc", format!("d\n{x}\nf\u{10FFFF}"));
        e.encode_into_vec(first, &mut bytes, false).unwrap();
        let err = e
            .encode_into_vec(&second, &mut bytes, true)
            .expect_err(label);
        let at = (first.len() + second.len() - 4) as u64;
        assert_eq!(
            (err.offset(), err.line(), err.column()),
            (at, 4, 2),
            "{label}"
        );
        let mut e = Encoder::new(enc(label), EncodeMode::Strict);
        let first = format!("ab\n{x}\nc");
        e.encode_into_vec(&first, &mut bytes, true).unwrap();
        let err = e
            .encode_into_vec("\u{10FFFF}", &mut bytes, true)
            .expect_err(label);
        let at = first.len() as u64;
        assert_eq!(
            (err.offset(), err.line(), err.column()),
            (at, 0, 0),
            "{label}"
        );
    }
}

/// As the encoder: a decoder counts the last chunk's lines only up to an
/// error in it.
#[test]
fn a_decoder_counts_the_last_chunks_lines_only_to_an_error() {
    for (label, bad) in [
        ("CP1252", &b"\x81"[..]),
        ("KOI8-R", b"\xFF\xFF"),
        ("UTF-16LE", b"\x00\xDC"),
        ("UTF-8", b"\xFF"),
        ("Shift_JIS", b"\x82\xFF"),
    ] {
        let e = enc(label);
        let text = |t: &str| e.encode_to_vec(t, EncodeMode::Strict).unwrap();
        let (first, second) = (text("ab\nc"), text("d\ne\nf"));
        for utf16 in [false, true] {
            let run = |d: &mut Decoder, src: &[u8], last: bool| {
                if utf16 {
                    d.decode_into_utf16_vec(src, &mut Vec::new(), last)
                } else {
                    d.decode_into_string(src, &mut String::new(), last)
                }
            };
            // KOI8-R has every byte: its "error" decodes, and is skipped.
            let mut d = Decoder::new(e, DecodeMode::Strict);
            run(&mut d, &first, false).unwrap();
            if let Err(err) = run(&mut d, &[second.as_slice(), bad].concat(), true) {
                let at = (first.len() + second.len()) as u64;
                assert_eq!(
                    (err.offset(), err.line(), err.column()),
                    (at, 4, 2),
                    "{label}"
                );
            } else {
                assert_eq!(label, "KOI8-R");
            }
            let mut d = Decoder::new(e, DecodeMode::Strict);
            let whole = [first.as_slice(), &second].concat();
            run(&mut d, &whole, true).unwrap();
            if let Err(err) = run(&mut d, bad, true) {
                let at = whole.len() as u64;
                assert_eq!(
                    (err.offset(), err.line(), err.column()),
                    (at, 0, 0),
                    "{label}"
                );
            } else {
                assert_eq!(label, "KOI8-R");
            }
        }
    }
}

#[test]
fn a_spent_coder_repeats_its_error() {
    let mut d = Decoder::new(enc("ASCII"), DecodeMode::Strict);
    let mut out = String::new();
    let first = d
        .decode_into_string(b"a\x80b", &mut out, false)
        .unwrap_err();
    assert_eq!(d.decode_into_string(b"c", &mut out, true), Err(first));
    assert_eq!(out, "a");
    let mut e = Encoder::new(enc("ASCII"), EncodeMode::Strict);
    let mut bytes = Vec::new();
    let first = e.encode_into_vec("aé", &mut bytes, false).unwrap_err();
    assert_eq!(e.encode_into_vec("b", &mut bytes, true), Err(first));
    assert_eq!(bytes, b"a");
}

#[test]
fn bom_handling() {
    let utf16 = enc("UTF-16");
    assert_eq!(
        utf16
            .decode_to_string(b"\xFE\xFF\0a", DecodeMode::Strict)
            .unwrap(),
        "a"
    );
    assert_eq!(
        utf16
            .decode_to_string(b"\xFF\xFEa\0", DecodeMode::Strict)
            .unwrap(),
        "a"
    );
    assert_eq!(
        utf16.decode_to_string(b"a\0", DecodeMode::Strict).unwrap(),
        "a"
    );
    assert_eq!(
        utf16.encode_to_vec("a", EncodeMode::Strict).unwrap(),
        b"\xFF\xFEa\0"
    );
    assert_eq!(
        enc("UTF-16LE")
            .decode_to_string(b"\xFF\xFEa\0", DecodeMode::Strict)
            .unwrap(),
        "\u{FEFF}a"
    );
    let utf32 = enc("UTF-32");
    assert_eq!(
        utf32
            .decode_to_string(b"\0\0\xFE\xFF\0\0\0a", DecodeMode::Strict)
            .unwrap(),
        "a"
    );
    assert_eq!(
        utf32.encode_to_vec("a", EncodeMode::Strict).unwrap(),
        b"\xFF\xFE\0\0a\0\0\0"
    );
}

/// Every lossy mode of every single-byte encoding against the strict
/// encoder restarted after each character it stops at, with the mode's
/// substitute written as the mode says (its text if the encoding holds all
/// of it, else `?`, else nothing), on text mostly of characters the page
/// lacks (Chinese, an emoji), with the page's own characters between them
/// and in runs (and ones CP1255 and CP1258 write decomposed): the
/// single-byte pages substitute within their encoder, the strict path goes
/// through the `Encoder`'s loop.
#[test]
fn lossy_single_byte_modes_equal_strict_restarted() {
    let mut seed = 0x005E_ED0F_1055_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // And characters CP1255 and CP1258 hold only decomposed.
    let foreign: Vec<char> = "中文字符串测试，。😀\u{10FFFF}\u{FFFD}ЖΩ€éệṌǸ\u{FB2C}"
        .chars()
        .collect();
    let mut pages = 0;
    // The table-driven pages, Latin-1, ASCII, CP1255 and CP1258.
    for e in Encoding::all().filter(|e| e.single_byte_table().is_some()) {
        pages += 1;
        let own: Vec<char> = e
            .single_byte_table()
            .unwrap()
            .iter()
            .flatten()
            .copied()
            .collect();
        let text: String = (0..3000)
            .map(|k| {
                if (k / 100) % 3 == 2 || next() % 4 == 0 {
                    own[next() as usize % own.len()]
                } else {
                    foreign[next() as usize % foreign.len()]
                }
            })
            .collect();
        for mode in [
            EncodeMode::Replace,
            EncodeMode::Substitute('Ж'),
            EncodeMode::Substitute('¤'),
            EncodeMode::Substitute('Ǹ'),
            EncodeMode::Skip,
            EncodeMode::Ncr,
            EncodeMode::Translit,
        ] {
            let sub = |c: char, out: &mut Vec<u8>| {
                let text = match mode {
                    EncodeMode::Substitute(s) => s.to_string(),
                    EncodeMode::Skip => return,
                    EncodeMode::Ncr => format!("&#{};", u32::from(c)),
                    EncodeMode::Translit => match deunicode::deunicode_char(c) {
                        Some(a) if !a.is_empty() => a.to_string(),
                        _ => "?".to_string(),
                    },
                    _ => "?".to_string(),
                };
                for t in [text.as_str(), "?"] {
                    if let Ok(b) = e.encode_to_vec(t, EncodeMode::Strict) {
                        out.extend_from_slice(&b);
                        return;
                    }
                }
            };
            let mut want = Vec::new();
            let mut rest = text.as_str();
            while let Err(err) = Encoder::new(e, EncodeMode::Strict)
                .without_positions()
                .encode_into_vec(rest, &mut want, true)
            {
                let at = usize::try_from(err.offset()).unwrap();
                let c = rest[at..].chars().next().unwrap();
                assert_eq!(c, err.char());
                sub(c, &mut want);
                rest = &rest[at + c.len_utf8()..];
            }
            assert!(
                e.encode_to_vec(&text, mode).unwrap() == want,
                "{e:?} {mode:?}"
            );
            // In pieces (a cut inside a run of foreign characters too).
            let mut enc = Encoder::new(e, mode);
            let mut got = Vec::new();
            let cut = |n: usize| text.char_indices().nth(n).unwrap().0;
            let (a, b) = (cut(301), cut(2000));
            for piece in [&text[..a], &text[a..b], &text[b..]] {
                enc.encode_into_vec(piece, &mut got, false).unwrap();
            }
            assert!(got == want, "{e:?} {mode:?} in pieces");
        }
    }
    assert!(pages > 70, "{pages}");
}

/// A lossy encoder of a multi-byte legacy encoding remembers the
/// characters encoding_rs reported unmappable and cuts them off before
/// asking again: with each of them repeated many times among mappable
/// text, in one call and in chunks of every size up to 9 characters, the
/// NCR output equals encoding_rs's own `encode` (which writes the same
/// references), and the skip output equals it with the references removed.
#[test]
fn repeated_unmappable_characters_in_multi_byte_encodings() {
    // (Not ESC: encoding_rs's ISO-2022-JP names it U+FFFD, ours ESC.)
    let candidates = ['😀', 'Ω', 'ё', '€', 'ǅ', 'ꙮ', '🦀', '\u{2603}'];
    for (label, theirs) in [
        ("BIG5", encoding_rs::BIG5),
        ("GBK", encoding_rs::GBK),
        ("SHIFT_JIS", encoding_rs::SHIFT_JIS),
        ("EUC-KR", encoding_rs::EUC_KR),
        ("EUC-JP", encoding_rs::EUC_JP),
        ("ISO-2022-JP", encoding_rs::ISO_2022_JP),
    ] {
        let ours = Encoding::for_whatwg_label(label).unwrap();
        // The candidates encoding_rs cannot encode in this encoding.
        let bad: Vec<char> = candidates
            .iter()
            .copied()
            .filter(|c| theirs.encode(&c.to_string()).2)
            .collect();
        assert!(bad.len() >= 2, "{label}: {bad:?}");
        let mut text = String::new();
        for k in 0..60 {
            text.push_str(["中文 ", "日本語", "ab", "한"][k % 4]);
            text.push(bad[k % bad.len()]);
            if k % 7 == 0 {
                text.push(bad[(k / 7) % bad.len()]);
            }
        }
        // Characters encoding_rs maps in this encoding only.
        let text: String = text
            .chars()
            .filter(|&c| bad.contains(&c) || !theirs.encode(&c.to_string()).2)
            .collect();
        let (want, _, _) = theirs.encode(&text);
        let want = want.into_owned();
        let chars: Vec<char> = text.chars().collect();
        for size in [usize::MAX, 1, 2, 3, 5, 9] {
            let mut e = Encoder::new(ours, EncodeMode::Ncr);
            let mut out = Vec::new();
            let pieces: Vec<String> = chars
                .chunks(size.min(chars.len()))
                .map(|p| p.iter().collect())
                .collect();
            for (k, piece) in pieces.iter().enumerate() {
                e.encode_into_vec(piece, &mut out, k + 1 == pieces.len())
                    .unwrap();
            }
            assert_eq!(out, want, "{label}, pieces of {size}");
            let mut e = Encoder::new(ours, EncodeMode::Skip);
            let mut skipped = Vec::new();
            for (k, piece) in pieces.iter().enumerate() {
                e.encode_into_vec(piece, &mut skipped, k + 1 == pieces.len())
                    .unwrap();
            }
            let clean: String = text.chars().filter(|c| !bad.contains(c)).collect();
            let (want_skip, _, _) = theirs.encode(&clean);
            assert_eq!(
                skipped,
                want_skip.into_owned(),
                "{label} skip, pieces of {size}"
            );
        }
    }
}

/// A decoder or encoder called again after its last piece (against
/// `last`'s word) does not panic, in every encoding and mode: it goes on
/// as at the start of another piece (encoding_rs's decoders panic there;
/// ours start a new one).
#[test]
fn a_call_after_the_last_piece_does_not_panic() {
    let text = "ab\né Ж日本 😀 ~+x";
    for e in Encoding::all() {
        let bytes = e
            .encode_to_vec(text, EncodeMode::Replace)
            .unwrap_or_default();
        for mode in [DecodeMode::Strict, DecodeMode::Replace, DecodeMode::Skip] {
            let mut d = Decoder::new(e, mode);
            let mut out = String::new();
            let first = d.decode_into_string(&bytes, &mut out, true);
            let again = d.decode_into_string(&bytes, &mut out, true);
            if first.is_ok() && mode != DecodeMode::Strict {
                assert!(again.is_ok(), "{e:?} {mode:?}");
            }
            let mut d = Decoder::new(e, mode);
            let mut units = Vec::new();
            let _ = d.decode_into_utf16_vec(&bytes, &mut units, true);
            let _ = d.decode_into_utf16_vec(&bytes, &mut units, false);
            let _ = d.decode_into_utf16_vec(&bytes, &mut units, true);
        }
        for mode in [EncodeMode::Strict, EncodeMode::Replace, EncodeMode::Skip] {
            let mut enc = Encoder::new(e, mode);
            let mut out = Vec::new();
            let _ = enc.encode_into_vec(text, &mut out, true);
            let _ = enc.encode_into_vec(text, &mut out, false);
            let _ = enc.encode_into_vec(text, &mut out, true);
            for (from, to) in [(e, Encoding::UTF_8), (Encoding::UTF_8, e)] {
                let input = if from == e {
                    bytes.as_slice()
                } else {
                    text.as_bytes()
                };
                let mut c = encodings::Converter::new(from, to, DecodeMode::Replace, mode);
                let _ = c.convert_into_vec(input, &mut out, true);
                let _ = c.convert_into_vec(input, &mut out, true);
            }
        }
    }
}
