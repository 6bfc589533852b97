//! Detection: BOMs, UTF-16/32 without one, ASCII, UTF-8, and legacy text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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
