//! Detection: BOMs, UTF-16/32 without one, ASCII, UTF-8, and legacy text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use encodings::{Confidence, EncodeMode, Encoding, Reason};

fn detect(bytes: &[u8]) -> (&'static str, Confidence, Reason) {
    let d = Encoding::detect(bytes);
    (d.encoding.name(), d.confidence, d.reason)
}

#[test]
fn boms_first() {
    assert_eq!(
        detect(b"\xEF\xBB\xBFa"),
        ("UTF-8", Confidence::Certain, Reason::Bom)
    );
    assert_eq!(
        detect(b"\xFF\xFEa\0"),
        ("UTF-16", Confidence::Certain, Reason::Bom)
    );
    assert_eq!(
        detect(b"\xFE\xFF\0a"),
        ("UTF-16", Confidence::Certain, Reason::Bom)
    );
    assert_eq!(
        detect(b"\xFF\xFE\0\0a\0\0\0"),
        ("UTF-32", Confidence::Certain, Reason::Bom)
    );
    assert_eq!(
        detect(b"\0\0\xFE\xFF\0\0\0a"),
        ("UTF-32", Confidence::Certain, Reason::Bom)
    );
}

#[test]
fn unicode_without_a_bom() {
    let text = "Hello, world: this is plain text, with é in it.\n";
    for (label, expected) in [
        ("UTF-16LE", "UTF-16LE"),
        ("UTF-16BE", "UTF-16BE"),
        ("UTF-32LE", "UTF-32LE"),
        ("UTF-32BE", "UTF-32BE"),
    ] {
        let bytes = Encoding::for_label(label)
            .unwrap()
            .encode_to_vec(text, EncodeMode::Strict)
            .unwrap();
        assert_eq!(
            detect(&bytes),
            (expected, Confidence::Likely, Reason::ZeroBytes),
            "{label}"
        );
    }
    assert_eq!(
        detect(b"plain"),
        ("ANSI_X3.4-1968", Confidence::Certain, Reason::Ascii)
    );
    assert_eq!(
        detect("Grüße".as_bytes()),
        ("UTF-8", Confidence::Likely, Reason::Utf8)
    );
    // A UTF-8 prefix cut inside its last character is still UTF-8.
    assert_eq!(detect(&"Grüße €".as_bytes()[..9]).0, "UTF-8");
}

#[test]
fn legacy_text_is_guessed() {
    let cases = [
        (
            "windows-1251",
            "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.",
        ),
        (
            "windows-1252",
            "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà des îles, près du mälström où brûlent les novæ.",
        ),
        (
            "Shift_JIS",
            "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
        ),
        (
            "EUC-KR",
            "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다.",
        ),
        (
            "gb18030",
            "我能吞下玻璃而不伤身体。这是一段用于测试的中文文本，包含常用的汉字和标点符号。",
        ),
    ];
    for (label, text) in cases {
        let e = Encoding::for_whatwg_label(label).unwrap();
        let bytes = e.encode_to_vec(text, EncodeMode::Strict).unwrap();
        let d = Encoding::detect(&bytes);
        assert_eq!(
            (d.confidence, d.reason),
            (Confidence::Guess, Reason::Statistics),
            "{label}"
        );
        // chardetng may answer with a superset (GBK for gb18030 text).
        let back = d
            .encoding
            .decode_to_string(&bytes, encodings::DecodeMode::Strict)
            .unwrap();
        assert_eq!(back, text, "{label}: guessed {:?}", d.encoding);
    }
}

/// The paragraphs of `cargo xtask detect-score`, with the legacy encodings
/// of their language (our names).
const LANGUAGES: &[(&str, &str, &[&str])] = &[
    (
        "arabic",
        include_str!("data/languages/arabic.txt"),
        &["windows-1256", "ISO-8859-6"],
    ),
    (
        "chinese",
        include_str!("data/languages/chinese.txt"),
        &["GBK", "gb18030"],
    ),
    (
        "chinese-traditional",
        include_str!("data/languages/chinese-traditional.txt"),
        &["Big5"],
    ),
    (
        "czech",
        include_str!("data/languages/czech.txt"),
        &["windows-1250", "ISO-8859-2"],
    ),
    (
        "french",
        include_str!("data/languages/french.txt"),
        &["windows-1252", "ISO-8859-15", "macintosh"],
    ),
    (
        "greek",
        include_str!("data/languages/greek.txt"),
        &["windows-1253", "ISO-8859-7"],
    ),
    (
        "hebrew",
        include_str!("data/languages/hebrew.txt"),
        &["windows-1255", "ISO-8859-8"],
    ),
    (
        "japanese",
        include_str!("data/languages/japanese.txt"),
        &["Shift_JIS", "EUC-JP", "ISO-2022-JP"],
    ),
    (
        "korean",
        include_str!("data/languages/korean.txt"),
        &["EUC-KR"],
    ),
    (
        "russian",
        include_str!("data/languages/russian.txt"),
        &[
            "windows-1251",
            "KOI8-R",
            "IBM866",
            "ISO-8859-5",
            "x-mac-cyrillic",
        ],
    ),
    (
        "thai",
        include_str!("data/languages/thai.txt"),
        &["windows-874"],
    ),
    (
        "ukrainian",
        include_str!("data/languages/ukrainian.txt"),
        &["KOI8-U"],
    ),
    (
        "vietnamese",
        include_str!("data/languages/vietnamese.txt"),
        // Not in windows-1258 here: glibc's iconv writes its precomposed
        // letters as a base and a combining tone mark, our encoder (as
        // encoding_rs) does not decompose and refuses them.
        &[],
    ),
];

/// The first `n` characters of `text`.
fn prefix(text: &str, n: usize) -> &str {
    text.char_indices().nth(n).map_or(text, |(i, _)| &text[..i])
}

#[test]
fn utf16_of_every_script_without_a_bom() {
    for &(name, text, _) in LANGUAGES {
        for n in [30, 50, 400, usize::MAX] {
            let text = prefix(text, n);
            for label in ["UTF-16LE", "UTF-16BE"] {
                let e = Encoding::for_label(label).unwrap();
                let bytes = e.encode_to_vec(text, EncodeMode::Strict).unwrap();
                let d = Encoding::detect(&bytes);
                assert_eq!(d.encoding, e, "{name} in {label}, {n} characters: {d:?}");
                assert!(
                    matches!(d.reason, Reason::ZeroBytes | Reason::Utf16Units),
                    "{name} {label}: {d:?}"
                );
                // Cut inside the last unit or between a surrogate pair:
                // still UTF-16 of that order.
                let cut = &bytes[..bytes.len() - 1];
                assert_eq!(Encoding::detect(cut).encoding, e, "{name} {label} cut");
            }
        }
    }
}

#[test]
fn legacy_text_is_never_taken_for_utf16() {
    for &(name, text, encodings) in LANGUAGES {
        for &label in encodings {
            let e = Encoding::for_label(label)
                .or_else(|| Encoding::for_whatwg_label(label))
                .unwrap();
            for n in [10, 30, 100, usize::MAX] {
                let bytes = e
                    .encode_to_vec(prefix(text, n), EncodeMode::Strict)
                    .unwrap();
                let d = Encoding::detect(&bytes);
                assert!(
                    !matches!(d.reason, Reason::ZeroBytes | Reason::Utf16Units),
                    "{name} in {label}, {n} characters: {d:?}"
                );
            }
        }
    }
}

#[test]
fn utf16_units_found_only_where_the_text_decodes() {
    // Random bytes with many control bytes: whatever is called UTF-16
    // from its units must decode in it.
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut found = 0;
    for round in 0..20_000 {
        let len = 4 + rng.below(60);
        let mut bytes = rng.bytes(len);
        // Half the inputs shaped like UTF-16 of one block.
        if round % 2 == 0 {
            let high = rng.next() as u8 & 0x0F;
            for pair in bytes.chunks_exact_mut(2) {
                pair[1] = high;
            }
        }
        let d = Encoding::detect(&bytes);
        if d.reason == Reason::Utf16Units {
            found += 1;
            let even = &bytes[..bytes.len() / 2 * 2];
            let lossy = d
                .encoding
                .decode_to_string(even, encodings::DecodeMode::Replace)
                .unwrap();
            let bad = lossy
                .chars()
                .filter(|&c| c == '\u{FFFD}' || (c < ' ' && !"\t\n\r\x0C".contains(c)))
                .count();
            assert!(
                bad <= 1,
                "{bytes:02X?} taken for {:?} with {bad} bad characters",
                d.encoding
            );
        }
    }
    assert!(
        found > 1000,
        "only {found} inputs taken for UTF-16: a weak test"
    );
}

#[test]
fn iso_2022_jp_from_its_escapes() {
    let e = Encoding::for_label("ISO-2022-JP").unwrap();
    let text = include_str!("data/languages/japanese.txt");
    let bytes = e.encode_to_vec(text, EncodeMode::Strict).unwrap();
    assert_eq!(
        detect(&bytes),
        ("ISO-2022-JP", Confidence::Likely, Reason::Escapes)
    );
    // Every prefix (a file's head cut anywhere) once the first escape is in.
    let first = bytes.windows(3).position(|w| w == b"\x1B$B").unwrap();
    for end in first + 3..bytes.len().min(first + 200) {
        assert_eq!(detect(&bytes[..end]).0, "ISO-2022-JP", "cut at {end}");
    }
    // ANSI colours are escapes too, but not ISO-2022-JP's.
    assert_eq!(detect(b"\x1B[31mred\x1B[0m\n").1, Confidence::Certain);
    assert_eq!(detect(b"\x1B[31mred\x1B[0m\n").2, Reason::Ascii);
}

#[test]
fn random_bytes_are_rarely_utf16() {
    // Uniform bytes have the control bytes UTF-16 has; what they decode to
    // must keep them out (a character outside text about one unit in four).
    let mut rng = common::Rng(0xD1B5_4A32_D192_ED03);
    let mut taken = 0;
    for _ in 0..10_000 {
        let len = 8 + rng.below(240);
        let d = Encoding::detect(&rng.bytes(len));
        taken += usize::from(d.reason == Reason::Utf16Units);
    }
    assert!(
        taken <= 10,
        "{taken} of 10,000 random inputs taken for UTF-16"
    );
}

#[test]
fn the_guess_reads_a_bounded_window_from_the_first_non_ascii_line() {
    let cp1251 = Encoding::for_label("windows-1251").unwrap();
    let russian = cp1251
        .encode_to_vec(
            include_str!("data/languages/russian.txt"),
            EncodeMode::Strict,
        )
        .unwrap();
    // A long ASCII header does not hide the text after it.
    let header = b"// generated file: do not edit\n".repeat(2000);
    let mut file = header.clone();
    file.extend_from_slice(&russian);
    assert!(header.len() > encodings::DETECT_GUESS_BYTES);
    assert_eq!(detect(&file).0, "windows-1251");
    // Past the window nothing counts: Russian, then Greek for ever.
    let greek = Encoding::for_label("ISO-8859-7")
        .unwrap()
        .encode_to_vec(include_str!("data/languages/greek.txt"), EncodeMode::Strict)
        .unwrap();
    let mut file = russian.repeat(encodings::DETECT_GUESS_BYTES / russian.len() + 1);
    file.extend(greek.repeat(100));
    assert_eq!(detect(&file).0, "windows-1251");
    // (Greek alone is Greek: windows-1253 or ISO-8859-7.)
    assert!(detect(&greek.repeat(2)).0.starts_with(['w', 'I']));
    assert_ne!(detect(&greek.repeat(2)).0, "windows-1251");
}
