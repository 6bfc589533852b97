//! The multi-byte encodings against glibc's `iconv` on ordinary text of
//! each language: the same bytes both ways. (On random bytes they differ,
//! as docs/results/encodings.md says; encoding_rs's answer is ours.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{iconv, iconv_knows};
use encodings::{DecodeMode, EncodeMode, Encoding};

const CASES: &[(&str, &str)] = &[
    (
        "SHIFT_JIS",
        "吾輩は猫である。名前はまだ無い。カタカナ、ひらがな、ＡＢＣ１２３ and ASCII.\n",
    ),
    (
        "EUC-JP",
        "吾輩は猫である。名前はまだ無い。カタカナ、ひらがな、ＡＢＣ１２３ and ASCII.\n",
    ),
    (
        "ISO-2022-JP",
        "吾輩は猫である。名前はまだ無い。カタカナ、ひらがな and ASCII.\n",
    ),
    (
        "GBK",
        "我能吞下玻璃而不伤身体。这是一段中文文本，包含常用的汉字和标点符号。\n",
    ),
    (
        "GB18030",
        "我能吞下玻璃而不伤身体。这是一段中文文本，包含常用的汉字和标点符号。😀\n",
    ),
    (
        "BIG5",
        "我能吞下玻璃而不傷身體。這是一段繁體中文文本，包含常用的漢字。\n",
    ),
    (
        "EUC-KR",
        "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고.\n",
    ),
];

#[test]
fn ordinary_text_equals_iconv() {
    for &(name, text) in CASES {
        if !iconv_knows(name) {
            continue;
        }
        let e = Encoding::for_label(name).unwrap();
        let ours = e.encode_to_vec(text, EncodeMode::Strict).unwrap();
        let theirs = iconv("UTF-8", name, &[], text.as_bytes()).unwrap().unwrap();
        assert_eq!(ours, theirs, "{name}");
        assert_eq!(
            e.decode_to_string(&theirs, DecodeMode::Strict).unwrap(),
            text,
            "{name}"
        );
    }
}

/// How often strict decoding of mutated text agrees with iconv (the same
/// text, or an error at the same offset), per encoding; printed for
/// docs/results/encodings.md (`-- --nocapture`). Agreement is not total
/// (the documented differences), but mutations of a few bytes in long text
/// must mostly agree.
#[test]
fn mutated_text_mostly_agrees_with_iconv() {
    let mut rng = common::Rng(0xC1C1);
    for &(name, text) in CASES {
        if !iconv_knows(name) {
            continue;
        }
        let e = Encoding::for_label(name).unwrap();
        let good = e.encode_to_vec(text, EncodeMode::Strict).unwrap();
        let (mut same, mut total) = (0, 0);
        for _ in 0..150 {
            let mut bytes = good.clone();
            let i = rng.below(bytes.len());
            bytes[i] = rng.next() as u8;
            let ours = e.decode_to_string(&bytes, DecodeMode::Strict);
            let theirs = iconv(name, "UTF-8", &[], &bytes).unwrap();
            total += 1;
            let agree = match (&ours, &theirs) {
                (Ok(o), Ok(t)) => o.as_bytes() == t.as_slice(),
                (Err(o), Err(t)) => t
                    .split("position ")
                    .nth(1)
                    .and_then(|p| p.trim().parse::<u64>().ok())
                    .is_some_and(|p| p == o.offset()),
                _ => false,
            };
            same += usize::from(agree);
        }
        eprintln!("{name}: {same}/{total} mutated texts agree with iconv");
        assert!(same * 2 > total, "{name}: {same}/{total}");
    }
}
